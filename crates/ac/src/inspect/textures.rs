//! `retroanim inspect` for the texture records: Palette (`0x04……`), SurfaceTexture
//! (`0x05……`), RenderSurface (`0x06……`) and Surface (`0x08……`), as text or JSON. Pixel
//! bytes are summarised (count and format), never dumped.

use crate::records::render_surface::format_name;
use crate::records::{Palette, RenderSurface, Surface, SurfaceTexture};
use serde_json::json;
use std::fmt::Write as _;

fn hex(id: u32) -> String {
    format!("0x{id:08x}")
}

fn pretty(v: serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// A Palette: its size and every colour `0xAARRGGBB`, eight a line.
pub fn palette(p: &Palette, as_json: bool) -> String {
    if as_json {
        let colors: Vec<String> = p.colors.iter().map(|c| hex(*c)).collect();
        return pretty(json!({"kind": "palette", "id": hex(p.id), "colors": colors}));
    }
    let mut out = format!(
        "Palette {}\n{} colours (0xAARRGGBB)\n",
        hex(p.id),
        p.colors.len()
    );
    for (i, row) in p.colors.chunks(8).enumerate() {
        let cells: Vec<String> = row.iter().map(|c| format!("{c:08x}")).collect();
        let _ = writeln!(out, "  {:>4}: {}", i * 8, cells.join(" "));
    }
    out
}

/// A SurfaceTexture: its images.
pub fn surface_texture(t: &SurfaceTexture, as_json: bool) -> String {
    let images: Vec<String> = t.render_surfaces.iter().map(|r| hex(*r)).collect();
    if as_json {
        return pretty(
            json!({"kind": "surface_texture", "id": hex(t.id), "unknown": t.unknown,
            "unknown_byte": t.unknown_byte, "render_surfaces": images}),
        );
    }
    format!(
        "SurfaceTexture {}\nunknown {} / {}, images [{}]\n",
        hex(t.id),
        t.unknown,
        t.unknown_byte,
        images.join(", ")
    )
}

/// A RenderSurface: size, pixel format, byte count and default palette.
pub fn render_surface(r: &RenderSurface, as_json: bool) -> String {
    if as_json {
        return pretty(
            json!({"kind": "render_surface", "id": hex(r.id), "unknown": r.unknown,
            "width": r.width, "height": r.height, "format": r.format,
            "format_name": format_name(r.format), "data_bytes": r.data.len(),
            "default_palette": r.default_palette.map(hex)}),
        );
    }
    let mut out = format!(
        "RenderSurface {}\n{}×{} {} ({}), {} pixel bytes",
        hex(r.id),
        r.width,
        r.height,
        format_name(r.format),
        r.format,
        r.data.len()
    );
    if let Some(p) = r.default_palette {
        let _ = write!(out, ", default palette {}", hex(p));
    }
    out.push('\n');
    out
}

/// A Surface: type bits, then its image and palette or its colour, and the three factors.
pub fn surface(s: &Surface, as_json: bool) -> String {
    if as_json {
        return pretty(
            json!({"kind": "surface", "id": hex(s.id), "type": s.surface_type,
            "texture": s.is_image().then(|| hex(s.texture_id)),
            "palette": s.is_image().then(|| hex(s.palette_id)),
            "color": (!s.is_image()).then(|| hex(s.color)),
            "translucency": s.translucency, "luminosity": s.luminosity, "diffuse": s.diffuse}),
        );
    }
    let what = if s.is_image() {
        format!(
            "image: SurfaceTexture {}, palette {}",
            hex(s.texture_id),
            hex(s.palette_id)
        )
    } else {
        format!("colour 0x{:08x} (AARRGGBB)", s.color)
    };
    format!(
        "Surface {}\ntype 0x{:08x}, {what}\ntranslucency {}, luminosity {}, diffuse {}\n",
        hex(s.id),
        s.surface_type,
        s.translucency,
        s.luminosity,
        s.diffuse
    )
}
