//! Sample textures of a figure source (`figure.textures`): each entry is compiled into a
//! Surface (`0x08……`), its SurfaceTexture (`0x05……`), one RenderSurface (`0x06……`) in
//! the named pixel format and, for P8, a Palette (`0x04……`). The pixels come from a
//! pattern (checker or stripes) over a list of colours, so a source stays small and the
//! records stay the project's own (docs/ac-formats.md section 1, "Textures").
//!
//! DXT images are encoded exactly when every 4×4 block holds at most two colours (which
//! checker and stripe cells that are multiples of 4, or stripes 1..4 rows high, give);
//! a colour in a DXT image is its RGB565 rounding, as any DXT encoder stores it.

use super::authoring::parse_id;
use super::palette::Palette;
use super::render_surface::{
    RenderSurface, PFID_A8R8G8B8, PFID_DXT1, PFID_DXT3, PFID_DXT5, PFID_P8, PFID_R8G8B8,
};
use super::surface::{Surface, SurfaceTexture, BASE1_IMAGE};
use serde::Deserialize;

/// One `figure.textures` entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureDef {
    pub surface_id: String,
    pub surface_texture_id: String,
    pub render_surface_id: String,
    /// `P8`, `R8G8B8`, `A8R8G8B8`, `DXT1`, `DXT3` or `DXT5`.
    pub format: String,
    /// Width and height (a multiple of 4, at most 256).
    pub size: u32,
    /// `checker` (cells of `cell`×`cell`) or `stripes` (rows `cell` high).
    pub pattern: String,
    pub cell: u32,
    /// `0xAARRGGBB` colours the pattern cycles through (1..=16).
    pub colors: Vec<String>,
    /// The palette record, required for P8 (it holds `colors` in order).
    #[serde(default)]
    pub palette_id: Option<String>,
}

/// The records of the textures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureRecords {
    pub surfaces: Vec<Surface>,
    pub surface_textures: Vec<SurfaceTexture>,
    pub render_surfaces: Vec<RenderSurface>,
    pub palettes: Vec<Palette>,
}

fn id(s: &str, at: &str) -> Result<u32, String> {
    parse_id(s).ok_or_else(|| format!("{at}: '{s}' is not an id"))
}

fn rgb565(c: u32) -> u16 {
    let [b, g, r, _] = c.to_le_bytes();
    (u16::from(r >> 3) << 11) | (u16::from(g >> 2) << 5) | u16::from(b >> 3)
}

/// The DXT colour part of a block of at most two colours: the larger RGB565 value is
/// `c0` (selector 0), the other `c1` (selector 1), so the four-colour mode holds.
fn dxt_colour_part(block: &[u32; 16]) -> Result<[u8; 8], String> {
    let mut cs: Vec<u16> = block.iter().map(|&c| rgb565(c)).collect();
    cs.sort_unstable();
    cs.dedup();
    if cs.len() > 2 {
        return Err("a 4×4 block holds more than two colours".into());
    }
    let hi = *cs.last().unwrap_or(&0);
    // c0 > c1 keeps the four-colour mode; a one-colour block pairs it with a smaller one.
    let (c0, c1) = (hi, if cs.len() == 2 { cs[0] } else { 0 });
    let mut sel = 0u32;
    for (i, &c) in block.iter().enumerate() {
        if rgb565(c) != c0 {
            sel |= 1 << (2 * i);
        }
    }
    let mut out = [0u8; 8];
    out[..2].copy_from_slice(&c0.to_le_bytes());
    out[2..4].copy_from_slice(&c1.to_le_bytes());
    out[4..].copy_from_slice(&sel.to_le_bytes());
    Ok(out)
}

fn encode_dxt(px: &[u32], size: usize, format: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for by in (0..size).step_by(4) {
        for bx in (0..size).step_by(4) {
            let mut block = [0u32; 16];
            for (i, b) in block.iter_mut().enumerate() {
                *b = px[(by + i / 4) * size + bx + i % 4];
            }
            match format {
                PFID_DXT3 => {
                    // 4-bit alphas, two texels a byte, low nibble first.
                    for pair in block.chunks_exact(2) {
                        let a = |c: u32| (c >> 28) as u8;
                        out.push(a(pair[0]) | (a(pair[1]) << 4));
                    }
                }
                PFID_DXT5 => {
                    // Both alpha ends equal: every selector gives that alpha.
                    let a = (block[0] >> 24) as u8;
                    if block.iter().any(|&c| (c >> 24) as u8 != a) {
                        return Err("DXT5 samples take one alpha per block".into());
                    }
                    out.extend_from_slice(&[a, a, 0, 0, 0, 0, 0, 0]);
                }
                _ => {}
            }
            out.extend_from_slice(&dxt_colour_part(&block)?);
        }
    }
    Ok(out)
}

fn compile_one(t: &TextureDef, at: &str, out: &mut TextureRecords) -> Result<(), String> {
    let size = t.size as usize;
    if t.size == 0 || t.size > 256 || !t.size.is_multiple_of(4) {
        return Err(format!(
            "{at}.size: {} is not a multiple of 4 in 4..=256",
            t.size
        ));
    }
    if t.cell == 0 {
        return Err(format!("{at}.cell: must be at least 1"));
    }
    if t.colors.is_empty() || t.colors.len() > 16 {
        return Err(format!(
            "{at}.colors: 1 to 16 colours, not {}",
            t.colors.len()
        ));
    }
    let colors = t
        .colors
        .iter()
        .enumerate()
        .map(|(i, c)| id(c, &format!("{at}.colors[{i}]")))
        .collect::<Result<Vec<u32>, String>>()?;
    let cell = t.cell as usize;
    let mut index = Vec::with_capacity(size * size);
    for y in 0..size {
        for x in 0..size {
            let k = match t.pattern.as_str() {
                "checker" => x / cell + y / cell,
                "stripes" => y / cell,
                p => return Err(format!("{at}.pattern: '{p}' is not checker or stripes")),
            };
            index.push(k % colors.len());
        }
    }
    let px: Vec<u32> = index.iter().map(|&i| colors[i]).collect();
    let rs_id = id(&t.render_surface_id, &format!("{at}.render_surface_id"))?;
    let mut palette_id = 0;
    let (format, data) = match t.format.as_str() {
        "P8" => {
            let pid = t
                .palette_id
                .as_deref()
                .ok_or_else(|| format!("{at}.palette_id: P8 needs a palette"))?;
            palette_id = id(pid, &format!("{at}.palette_id"))?;
            out.palettes.push(Palette {
                id: palette_id,
                colors: colors.clone(),
            });
            (PFID_P8, index.iter().map(|&i| i as u8).collect())
        }
        "R8G8B8" => (
            PFID_R8G8B8,
            px.iter()
                .flat_map(|c| c.to_le_bytes()[..3].to_vec())
                .collect(),
        ),
        "A8R8G8B8" => (
            PFID_A8R8G8B8,
            px.iter().flat_map(|c| c.to_le_bytes()).collect(),
        ),
        "DXT1" => (PFID_DXT1, encode_dxt(&px, size, PFID_DXT1)?),
        "DXT3" => (PFID_DXT3, encode_dxt(&px, size, PFID_DXT3)?),
        "DXT5" => (PFID_DXT5, encode_dxt(&px, size, PFID_DXT5)?),
        f => return Err(format!("{at}.format: '{f}' is not a sample format")),
    };
    let st_id = id(&t.surface_texture_id, &format!("{at}.surface_texture_id"))?;
    out.render_surfaces.push(RenderSurface {
        id: rs_id,
        unknown: 0,
        width: t.size as i32,
        height: t.size as i32,
        format,
        data,
        default_palette: (format == PFID_P8).then_some(palette_id),
    });
    out.surface_textures.push(SurfaceTexture {
        id: st_id,
        unknown: 0,
        unknown_byte: 0,
        render_surfaces: vec![rs_id],
    });
    out.surfaces.push(Surface {
        id: id(&t.surface_id, &format!("{at}.surface_id"))?,
        surface_type: BASE1_IMAGE,
        texture_id: st_id,
        palette_id,
        color: 0,
        translucency: 0.0,
        luminosity: 0.0,
        diffuse: 1.0,
    });
    Ok(())
}

/// Compile `figure.textures`; errors carry the JSON path.
pub fn compile_textures(defs: &[TextureDef]) -> Result<TextureRecords, String> {
    let mut out = TextureRecords::default();
    for (i, t) in defs.iter().enumerate() {
        let at = format!("figure.textures[{i}]");
        compile_one(t, &at, &mut out).map_err(|e| {
            if e.starts_with("figure.") {
                e
            } else {
                format!("{at}: {e}")
            }
        })?;
    }
    Ok(out)
}
