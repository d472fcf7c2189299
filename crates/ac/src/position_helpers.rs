//! The `Position` geometry the move-to layer measures with (`Common/Position.cs`):
//! bearings, and the cylinder distances between two objects' bounding cylinders.

use crate::interpolation::Position;
use crate::math::{to_degrees, EPSILON};

/// `Position.heading(p)`: compass bearing from `from` to `to` in the horizontal plane
/// (0 when they are closer than EPSILON horizontally).
pub fn heading(from: &Position, to: &Position) -> f32 {
    let mut d = from.get_offset(to);
    d.z = 0.0;
    if d.normalize_check_small() {
        return 0.0;
    }
    let a = (d.y as f64).atan2(d.x as f64) as f32;
    (450.0 - to_degrees(a)) % 360.0
}

/// `Position.CylinderDistance(r, h, pos, R, H, other)`. The reach uses the full 3-D
/// centre offset and the vertical gap is then added in quadrature (Q74).
pub fn cylinder_distance(
    radius: f32,
    height: f32,
    pos: &Position,
    other_radius: f32,
    other_height: f32,
    other: &Position,
) -> f64 {
    let off = pos.get_offset(other);
    let reach = off.length() - (radius + other_radius);
    let pz = pos.frame.origin.z;
    let oz = other.frame.origin.z;
    let dz = if pz <= oz {
        oz - (pz + height)
    } else {
        pz - (oz + other_height)
    };
    let sum = dz * dz + reach * reach;
    if dz > 0.0 && reach > 0.0 {
        (sum as f64).sqrt()
    } else if dz < 0.0 && reach < 0.0 {
        -(sum as f64).sqrt()
    } else {
        reach as f64
    }
}

/// `Position.CylinderDistanceNoZ(r, pos, R, other)`: despite its name the offset
/// length is 3-D (Q82).
pub fn cylinder_distance_no_z(
    radius: f32,
    pos: &Position,
    other_radius: f32,
    other: &Position,
) -> f32 {
    pos.get_offset(other).length() - (radius + other_radius)
}

/// The heading normalisation of the move-to layer: values within EPSILON of zero become
/// 0, values below −EPSILON gain 360.
pub fn norm(h: f32) -> f32 {
    let mut h = h;
    if h.abs() < EPSILON {
        h = 0.0;
    }
    if h < -EPSILON {
        h += 360.0;
    }
    h
}
