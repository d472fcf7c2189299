//! The Palette record (`0x04……`): the id, then a `u32` count and that many colours, each a
//! little-endian `u32` holding A, R, G, B from the high byte down (layout in
//! docs/ac-formats.md section 1, "Textures").

use super::error::RecordError;
use super::reader::Cursor;
use serde::{Deserialize, Serialize};

/// DAT `Palette` (`0x04……`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Palette {
    pub id: u32,
    /// `0xAARRGGBB` each.
    pub colors: Vec<u32>,
}

impl Palette {
    /// Colour `index` as RGBA bytes; `None` past the end.
    pub fn rgba(&self, index: usize) -> Option<[u8; 4]> {
        self.colors.get(index).map(|&c| argb_to_rgba(c))
    }
}

/// `0xAARRGGBB` to `[r, g, b, a]`.
pub fn argb_to_rgba(c: u32) -> [u8; 4] {
    let [b, g, r, a] = c.to_le_bytes();
    [r, g, b, a]
}

/// `Palette.Unpack`.
pub fn read_palette(bytes: &[u8], file: &str) -> Result<Palette, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let n = c.count("palette colour count", 4)?;
    let mut colors = Vec::with_capacity(n);
    for _ in 0..n {
        colors.push(c.u32("palette colour")?);
    }
    c.finish()?;
    Ok(Palette { id, colors })
}

/// The bytes of a Palette record (the exact inverse of [`read_palette`]).
pub fn write_palette(p: &Palette) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 4 * p.colors.len());
    out.extend_from_slice(&p.id.to_le_bytes());
    out.extend_from_slice(&(p.colors.len() as u32).to_le_bytes());
    for c in &p.colors {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out
}
