//! The RenderSurface record (`0x06……`, ACE's `Texture`): one image's pixels in one of
//! the retail pixel formats, and [`decode_rgba`] which turns the formats retail uses into
//! RGBA rows (layout in docs/ac-formats.md section 1, "Textures").

use super::dxt::{self, Dxt};
use super::error::RecordError;
use super::palette::Palette;
use super::reader::Cursor;
use serde::{Deserialize, Serialize};

/// 3 bytes a pixel, stored B, G, R.
pub const PFID_R8G8B8: u32 = 20;
/// 4 bytes a pixel, a little-endian `0xAARRGGBB` (stored B, G, R, A).
pub const PFID_A8R8G8B8: u32 = 21;
/// As A8R8G8B8 with the alpha byte unused (drawn opaque).
pub const PFID_X8R8G8B8: u32 = 22;
/// 1 byte a pixel: an index into the palette.
pub const PFID_P8: u32 = 41;
/// 2 bytes a pixel: a little-endian index into the palette.
pub const PFID_INDEX16: u32 = 101;
/// `"DXT1"` as a little-endian FourCC.
pub const PFID_DXT1: u32 = 0x3154_5844;
/// `"DXT3"`.
pub const PFID_DXT3: u32 = 0x3354_5844;
/// `"DXT5"`.
pub const PFID_DXT5: u32 = 0x3554_5844;

/// Images wider or taller than this are not decoded (retail textures stop at 512).
pub const MAX_SIDE: i32 = 4096;

/// DAT `RenderSurface` (`0x06……`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderSurface {
    pub id: u32,
    /// A word whose meaning is unknown, kept for the round trip.
    pub unknown: i32,
    pub width: i32,
    pub height: i32,
    /// One of the `PFID_*` values.
    pub format: u32,
    /// The pixel bytes as stored (their count is written before them).
    pub data: Vec<u8>,
    /// Stored only for the indexed formats (P8, INDEX16): the palette (`0x04……`).
    pub default_palette: Option<u32>,
}

/// Whether `format` stores a default palette id after the pixels.
pub fn is_indexed(format: u32) -> bool {
    format == PFID_P8 || format == PFID_INDEX16
}

/// The name of a pixel format, for listings.
pub fn format_name(format: u32) -> String {
    match format {
        PFID_R8G8B8 => "R8G8B8".into(),
        PFID_A8R8G8B8 => "A8R8G8B8".into(),
        PFID_X8R8G8B8 => "X8R8G8B8".into(),
        PFID_P8 => "P8".into(),
        PFID_INDEX16 => "INDEX16".into(),
        PFID_DXT1 => "DXT1".into(),
        PFID_DXT3 => "DXT3".into(),
        PFID_DXT5 => "DXT5".into(),
        f => format!("format {f}"),
    }
}

/// `Texture.Unpack` (ACE's name for this record).
pub fn read_render_surface(bytes: &[u8], file: &str) -> Result<RenderSurface, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let unknown = c.i32("render surface word")?;
    let width = c.i32("render surface width")?;
    let height = c.i32("render surface height")?;
    let format = c.u32("pixel format")?;
    let n = c.count("pixel byte count", 1)?;
    let data = c.take(n, "pixel bytes")?.to_vec();
    let default_palette = if is_indexed(format) {
        Some(c.u32("default palette id")?)
    } else {
        None
    };
    c.finish()?;
    Ok(RenderSurface {
        id,
        unknown,
        width,
        height,
        format,
        data,
        default_palette,
    })
}

/// The bytes of a RenderSurface record (the exact inverse of [`read_render_surface`]; the
/// palette id is written for the indexed formats only, 0 when absent).
pub fn write_render_surface(r: &RenderSurface) -> Vec<u8> {
    let mut out = Vec::with_capacity(28 + r.data.len());
    out.extend_from_slice(&r.id.to_le_bytes());
    out.extend_from_slice(&r.unknown.to_le_bytes());
    out.extend_from_slice(&r.width.to_le_bytes());
    out.extend_from_slice(&r.height.to_le_bytes());
    out.extend_from_slice(&r.format.to_le_bytes());
    out.extend_from_slice(&(r.data.len() as u32).to_le_bytes());
    out.extend_from_slice(&r.data);
    if is_indexed(r.format) {
        out.extend_from_slice(&r.default_palette.unwrap_or(0).to_le_bytes());
    }
    out
}

/// Where the pixel bytes start inside the record (for located decode errors).
const DATA_OFFSET: usize = 24;

/// The image as RGBA rows, top row first. Indexed formats need `palette` (the Surface's
/// palette, else the record's default); an index past the palette's end is an error.
pub fn decode_rgba(
    r: &RenderSurface,
    palette: Option<&Palette>,
    file: &str,
) -> Result<Vec<u8>, RecordError> {
    let err = |offset: usize, message: String| RecordError::Malformed {
        file: file.to_string(),
        id: Some(r.id),
        offset,
        message,
    };
    if !(1..=MAX_SIDE).contains(&r.width) || !(1..=MAX_SIDE).contains(&r.height) {
        return Err(err(
            8,
            format!(
                "image {}×{} is outside 1..={MAX_SIDE} on a side",
                r.width, r.height
            ),
        ));
    }
    let (w, h) = (r.width as usize, r.height as usize);
    let pixels = w * h;
    let per_pixel = |bpp: usize| -> Result<&[u8], RecordError> {
        let need = pixels * bpp;
        if r.data.len() < need {
            return Err(err(
                DATA_OFFSET,
                format!(
                    "{} {w}×{h} needs {need} pixel bytes, the record has {}",
                    format_name(r.format),
                    r.data.len()
                ),
            ));
        }
        Ok(&r.data[..need])
    };
    let indexed = |idx: &mut dyn Iterator<Item = usize>| -> Result<Vec<u8>, RecordError> {
        let pal = palette.ok_or_else(|| {
            err(
                DATA_OFFSET,
                format!("{} pixels need a palette", format_name(r.format)),
            )
        })?;
        let mut out = Vec::with_capacity(pixels * 4);
        for (n, i) in idx.enumerate() {
            let px = pal.rgba(i).ok_or_else(|| {
                err(
                    DATA_OFFSET + n * if r.format == PFID_P8 { 1 } else { 2 },
                    format!(
                        "palette index {i} past the end of palette 0x{:08x} ({} colours)",
                        pal.id,
                        pal.colors.len()
                    ),
                )
            })?;
            out.extend_from_slice(&px);
        }
        Ok(out)
    };
    let dxt = |kind: Dxt| -> Result<Vec<u8>, RecordError> {
        let need = kind.image_bytes(w, h);
        if r.data.len() < need {
            return Err(err(
                DATA_OFFSET,
                format!(
                    "{} {w}×{h} needs {need} pixel bytes, the record has {}",
                    format_name(r.format),
                    r.data.len()
                ),
            ));
        }
        Ok(dxt::decode(kind, &r.data, w, h))
    };
    match r.format {
        PFID_R8G8B8 => Ok(per_pixel(3)?
            .chunks_exact(3)
            .flat_map(|p| [p[2], p[1], p[0], 255])
            .collect()),
        PFID_A8R8G8B8 | PFID_X8R8G8B8 => {
            let opaque = r.format == PFID_X8R8G8B8;
            Ok(per_pixel(4)?
                .chunks_exact(4)
                .flat_map(|p| [p[2], p[1], p[0], if opaque { 255 } else { p[3] }])
                .collect())
        }
        PFID_P8 => indexed(&mut per_pixel(1)?.iter().map(|&b| usize::from(b))),
        PFID_INDEX16 => indexed(
            &mut per_pixel(2)?
                .chunks_exact(2)
                .map(|p| usize::from(u16::from_le_bytes([p[0], p[1]]))),
        ),
        PFID_DXT1 => dxt(Dxt::Dxt1),
        PFID_DXT3 => dxt(Dxt::Dxt3),
        PFID_DXT5 => dxt(Dxt::Dxt5),
        f => Err(err(
            16,
            format!("pixel format {f} ({}) is not decoded", format_name(f)),
        )),
    }
}
