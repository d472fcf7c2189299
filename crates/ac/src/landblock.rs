//! The outdoor cell grid (`Physics/Common/LandDefs.cs`): which landblock and which of
//! its 8 × 8 cells an outdoor origin lies in (Q116–Q119 in docs/ac.md).
//!
//! The map is 255 × 255 landblocks of 192 units, each cut into 8 × 8 cells of 24 units.
//! An outdoor cell id is `XXYY00CC`: the landblock's x and y bytes, then the cell index
//! `cx · 8 + cy + 1` (1 to 64) of the cell's column and row inside the landblock. The
//! engine itself never changes a cell (the host's physics does); this is the rule a host
//! applies to get ACE's outdoor cells, by hand or through
//! [`World::apply_outdoor_rule`](crate::World::apply_outdoor_rule).

use crate::math::{Vec3, EPSILON};

/// `LandDefs.BlockLength`: a landblock's side in units.
pub const BLOCK_LENGTH: f32 = 192.0;
/// `LandDefs.CellLength`: an outdoor cell's side in units.
pub const CELL_LENGTH: f32 = 24.0;
/// `LandDefs.LandLength`: the map's side in cells (255 landblocks of 8); a landblock
/// byte of 0xFF lies past it.
pub const LAND_LENGTH: u32 = 2040;
/// The low 16 bits of the first indoor (EnvCell) id; below it a cell is outdoor.
pub const FIRST_ENV_CELL: u32 = 0x100;

/// `LandDefs.cell_in_range`: the low 16 bits name an outdoor cell (1–64), an indoor
/// cell (0x100–0xFFFD) or the landblock itself (0xFFFF).
pub fn cell_in_range(low: u32) -> bool {
    low == 0xFFFF || (1..=64).contains(&low) || (FIRST_ENV_CELL..=0xFFFD).contains(&low)
}

/// Whether `cell` is an outdoor cell (low 16 bits below 0x100), the cells ACE's
/// transition puts through [`adjust_to_outside`].
pub fn is_outdoor(cell: u32) -> bool {
    cell & 0xFFFF < FIRST_ENV_CELL
}

/// `LandDefs.AdjustToOutside(cell, origin)`: the outdoor cell `origin` (in `cell`'s
/// landblock coordinates) lies in, with the origin brought into that cell's landblock.
/// `None` past the map's edge or for a cell id out of range, where ACE answers cell 0
/// (its transition then collides, Q118).
///
/// A coordinate within 0.0002 of 0 counts as 0 first (Q117); any in-range id is
/// recomputed from the coordinates, an indoor one included (Q119).
pub fn adjust_to_outside(cell: u32, origin: Vec3) -> Option<(u32, Vec3)> {
    if !cell_in_range(cell & 0xFFFF) {
        return None;
    }
    let snap = |v: f32| if v.abs() < EPSILON { 0.0 } else { v };
    let (x, y) = (snap(origin.x), snap(origin.y));
    // `get_outside_lcoord`: the landblock's first cell column and row, plus the cells
    // the origin lies past it (floored, so a negative origin steps back).
    let bx = ((cell >> 16) & 0xFF00) >> 8 << 3;
    let by = ((cell >> 16) & 0xFF) << 3;
    if bx >= LAND_LENGTH || by >= LAND_LENGTH {
        return None;
    }
    let lx = bx as f32 + (x / CELL_LENGTH).floor();
    let ly = by as f32 + (y / CELL_LENGTH).floor();
    let land = LAND_LENGTH as f32;
    if lx < 0.0 || ly < 0.0 || lx >= land || ly >= land {
        return None;
    }
    // `lcoord_to_gid`.
    let (lx, ly) = (lx as u32, ly as u32);
    let block = (lx >> 3 << 8) | (ly >> 3);
    let index = 1 + ((lx & 7) << 3) + (ly & 7);
    let x = x - (x / BLOCK_LENGTH).floor() * BLOCK_LENGTH;
    let y = y - (y / BLOCK_LENGTH).floor() * BLOCK_LENGTH;
    Some((block << 16 | index, Vec3::new(x, y, origin.z)))
}
