//! H82, H84: what a TSGroup polygon's surface value means, by the polygon's class, and how
//! a textured polygon maps its frame (docs/herc-formats.md, "Palettes, bitmaps and
//! materials").
//!
//! A group's surface list is a list of 4-byte slots, four per surface entry (front fill,
//! front line, back fill, back line), each an i16 value and an i16 flag. A polygon's
//! colour index names a slot: its front value is that slot, its back value the slot two
//! further on. A flag whose high byte is `0x14` means "do not draw this side". What the
//! value means depends on the polygon's class: a TSSolidPoly's is a palette index, a
//! TSShadedPoly's and TSGouraudPoly's a shade-ramp number (H83), a TSTexture4Poly's a frame
//! of the bitmap array bound to the shape. A plain TSPoly has none.

use super::bitmap::BitmapArray;
use super::group::{
    GroupGeometry, TAG_GOURAUD_POLY, TAG_POLY, TAG_SHADED_POLY, TAG_SOLID_POLY, TAG_TEXTURE4_POLY,
};
use super::palette::Palette;

/// The flag's high byte that hides a side.
pub const HIDDEN_FLAG_HIGH: u8 = 0x14;
/// The light level a viewer that lights faces itself takes a ramp's colour at: three
/// quarters up the ramp (its own lighting then darkens the faces that look away).
pub const VIEW_SHADE: u8 = 192;

/// What a polygon's surface value names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// A plain TSPoly, or a class this reader does not know: no colour.
    None,
    /// TSSolidPoly: a palette index.
    PaletteIndex(i16),
    /// TSShadedPoly, TSGouraudPoly: a shade-ramp number.
    Ramp(i16),
    /// TSTexture4Poly: a frame of the shape's bitmap array.
    Frame(i16),
}

impl Material {
    /// The class's name for listings.
    pub fn kind(&self) -> &'static str {
        match self {
            Material::None => "none",
            Material::PaletteIndex(_) => "solid",
            Material::Ramp(_) => "shaded",
            Material::Frame(_) => "textured",
        }
    }
}

/// One slot of a group's surface list: value and flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceSlot {
    pub value: i16,
    pub flag: i16,
}

impl SurfaceSlot {
    /// The flag's high byte is `0x14`: this side is not drawn.
    pub fn hidden(&self) -> bool {
        (self.flag as u16 >> 8) as u8 == HIDDEN_FLAG_HIGH
    }
}

/// Slot `k` of `g`'s surface list (four slots per surface entry).
pub fn surface_slot(g: &GroupGeometry, k: usize) -> Option<SurfaceSlot> {
    let s = g.surfaces.get(k / 4)?;
    let (value, flag) = match k % 4 {
        0 => (s.front_color, s.front_flag),
        1 => (s.front_line_color, s.front_line_flag),
        2 => (s.back_color, s.back_flag),
        _ => (s.back_line_color, s.back_line_flag),
    };
    Some(SurfaceSlot { value, flag })
}

/// The front and back slots of polygon `i` (its colour index and two slots on), when the
/// polygon has a colour index that names slots of the list.
pub fn poly_sides(g: &GroupGeometry, i: usize) -> (Option<SurfaceSlot>, Option<SurfaceSlot>) {
    let Some(c) = g
        .polys
        .get(i)
        .and_then(|p| p.color)
        .and_then(|c| usize::try_from(c).ok())
    else {
        return (None, None);
    };
    (surface_slot(g, c), surface_slot(g, c + 2))
}

/// What the value `v` of a side of a polygon of class `tag` names.
pub fn material(tag: u32, v: i16) -> Material {
    match tag {
        TAG_SOLID_POLY => Material::PaletteIndex(v),
        TAG_SHADED_POLY | TAG_GOURAUD_POLY => Material::Ramp(v),
        TAG_TEXTURE4_POLY => Material::Frame(v),
        TAG_POLY => Material::None,
        _ => Material::None,
    }
}

/// The colour a viewer draws material `m` in: a palette index's colour; a ramp's colour
/// at [`VIEW_SHADE`]; a frame's mean colour over its non-zero texels (so a face whose
/// texture is not drawn still has the frame's tone). `None` when the palette or bitmap
/// array it needs is missing or the value is out of their range.
pub fn material_rgb(
    m: Material,
    palette: Option<&Palette>,
    bitmaps: Option<&BitmapArray>,
) -> Option<[u8; 3]> {
    let pal = palette?;
    match m {
        Material::None => None,
        Material::PaletteIndex(v) => usize::try_from(v).ok().and_then(|i| pal.rgb(i)),
        Material::Ramp(v) => pal.ramp_index(v, VIEW_SHADE).and_then(|i| pal.rgb(i)),
        Material::Frame(v) => {
            let f = bitmaps?.frames.get(usize::try_from(v).ok()?)?;
            mean_rgb(f.indices().ok()?, pal)
        }
    }
}

fn mean_rgb(indices: &[u8], pal: &Palette) -> Option<[u8; 3]> {
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    for &i in indices.iter().filter(|&&i| i != 0) {
        if let Some(c) = pal.rgb(usize::from(i)) {
            for k in 0..3 {
                sum[k] += u64::from(c[k]);
            }
            n += 1;
        }
    }
    (n > 0).then(|| sum.map(|s| (s / n) as u8))
}

/// H84: the texture coordinates of a textured polygon's vertices, in vertex order, as
/// fractions of its frame (u right, v down from the top row): the frame's corners
/// top-left, top-right, bottom-right, bottom-left. A triangle takes the first three.
/// DBSIM's corners are the frame's own texel rectangle, so the whole frame covers the
/// face; past four vertices the corners repeat (no retail polygon has more).
pub fn texture_corners(vertex_count: usize) -> Vec<[f32; 2]> {
    const CORNERS: [[f32; 2]; 4] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    (0..vertex_count).map(|k| CORNERS[k % 4]).collect()
}

/// A frame as RGBA bytes through `pal`, rows from the top; palette index 0 is transparent
/// (DBSIM keys index 0 out of a frame that contains it). `Err` says why not.
pub fn frame_rgba(
    bitmaps: &BitmapArray,
    frame: usize,
    pal: &Palette,
) -> Result<(usize, usize, Vec<u8>), String> {
    let f = bitmaps
        .frames
        .get(frame)
        .ok_or_else(|| format!("no frame {frame} (the array has {})", bitmaps.frames.len()))?;
    let idx = f.indices()?;
    let mut out = Vec::with_capacity(idx.len() * 4);
    for &i in idx {
        let c = pal.rgb(usize::from(i)).unwrap_or([0, 0, 0]);
        out.extend_from_slice(&[c[0], c[1], c[2], if i == 0 { 0 } else { 255 }]);
    }
    Ok((f.cols as usize, f.rows as usize, out))
}
