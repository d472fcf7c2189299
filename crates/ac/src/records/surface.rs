//! The Surface record (`0x08……`) and the SurfaceTexture record (`0x05……`) it points at
//! (layouts in docs/ac-formats.md section 1, "Textures").
//!
//! A Surface's bytes do not start with its id: the id comes from the container (or the
//! file name), and [`read_surface`] takes it so errors can name the record. The type bits
//! decide the next field: an image surface (`BASE1_IMAGE` or `BASE1_CLIPMAP`) names a
//! SurfaceTexture and a palette, any other surface holds one `0xAARRGGBB` colour.
//! A SurfaceTexture lists RenderSurfaces (`0x06……`), the pixel data, best first.

use super::error::RecordError;
use super::reader::Cursor;
use serde::{Deserialize, Serialize};

/// Surface type bit: a solid colour.
pub const BASE1_SOLID: u32 = 0x1;
/// Surface type bit: an image.
pub const BASE1_IMAGE: u32 = 0x2;
/// Surface type bit: an image with transparent texels.
pub const BASE1_CLIPMAP: u32 = 0x4;
/// Surface type bit: translucent (the translucency field applies).
pub const TRANSLUCENT: u32 = 0x10;

/// DAT `Surface` (`0x08……`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Surface {
    /// Not stored in the record's bytes.
    pub id: u32,
    pub surface_type: u32,
    /// The SurfaceTexture (`0x05……`); stored only for image surfaces, else 0.
    pub texture_id: u32,
    /// The palette for P8 pixels (`0x04……`, 0 for none); stored only for image surfaces.
    pub palette_id: u32,
    /// `0xAARRGGBB`; stored only for non-image surfaces, else 0.
    pub color: u32,
    pub translucency: f32,
    pub luminosity: f32,
    pub diffuse: f32,
}

impl Surface {
    /// Whether the surface draws an image (and so stores texture and palette ids).
    pub fn is_image(&self) -> bool {
        self.surface_type & (BASE1_IMAGE | BASE1_CLIPMAP) != 0
    }
}

/// `Surface.Unpack`; `id` is the record's id as the container gives it.
pub fn read_surface(bytes: &[u8], id: u32, file: &str) -> Result<Surface, RecordError> {
    let mut c = Cursor::new(bytes, file);
    c.set_id(id);
    let mut s = Surface {
        id,
        surface_type: c.u32("surface type")?,
        ..Surface::default()
    };
    if s.is_image() {
        s.texture_id = c.u32("surface texture id")?;
        s.palette_id = c.u32("surface palette id")?;
    } else {
        s.color = c.u32("surface colour")?;
    }
    s.translucency = c.f32("surface translucency")?;
    s.luminosity = c.f32("surface luminosity")?;
    s.diffuse = c.f32("surface diffuse")?;
    c.finish()?;
    Ok(s)
}

/// The bytes of a Surface record (the exact inverse of [`read_surface`]; the fields the
/// type does not store are not written).
pub fn write_surface(s: &Surface) -> Vec<u8> {
    let mut out = Vec::with_capacity(24);
    out.extend_from_slice(&s.surface_type.to_le_bytes());
    if s.is_image() {
        out.extend_from_slice(&s.texture_id.to_le_bytes());
        out.extend_from_slice(&s.palette_id.to_le_bytes());
    } else {
        out.extend_from_slice(&s.color.to_le_bytes());
    }
    for f in [s.translucency, s.luminosity, s.diffuse] {
        out.extend_from_slice(&f.to_le_bytes());
    }
    out
}

/// DAT `SurfaceTexture` (`0x05……`): the RenderSurfaces of one image.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurfaceTexture {
    pub id: u32,
    /// A word whose meaning is unknown, kept for the round trip.
    pub unknown: i32,
    /// A byte whose meaning is unknown, kept for the round trip.
    pub unknown_byte: u8,
    /// RenderSurface ids (`0x06……`).
    pub render_surfaces: Vec<u32>,
}

/// `SurfaceTexture.Unpack`.
pub fn read_surface_texture(bytes: &[u8], file: &str) -> Result<SurfaceTexture, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let unknown = c.i32("surface texture word")?;
    let unknown_byte = c.u8("surface texture byte")?;
    let n = c.count("render surface count", 4)?;
    let mut render_surfaces = Vec::with_capacity(n);
    for _ in 0..n {
        render_surfaces.push(c.u32("render surface id")?);
    }
    c.finish()?;
    Ok(SurfaceTexture {
        id,
        unknown,
        unknown_byte,
        render_surfaces,
    })
}

/// The bytes of a SurfaceTexture record (the exact inverse of [`read_surface_texture`]).
pub fn write_surface_texture(t: &SurfaceTexture) -> Vec<u8> {
    let mut out = Vec::with_capacity(13 + 4 * t.render_surfaces.len());
    out.extend_from_slice(&t.id.to_le_bytes());
    out.extend_from_slice(&t.unknown.to_le_bytes());
    out.push(t.unknown_byte);
    out.extend_from_slice(&(t.render_surfaces.len() as u32).to_le_bytes());
    for r in &t.render_surfaces {
        out.extend_from_slice(&r.to_le_bytes());
    }
    out
}
