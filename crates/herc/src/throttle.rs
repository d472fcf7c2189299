//! The throttle routine (H23; Mech_ApplyThrottleInput, 0x4160dc).

use serde::Serialize;

use crate::chassis::ChassisRuntime;
use crate::fixed::{abs_sat16, q10, q8, wrap16};

/// Full throttle, Q10.
pub const THROTTLE_MAX: i16 = 0x400;

/// The throttle state the routine keeps on the machine (mech+0x290, mech+0x93).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Throttle {
    /// T, Q10, ±0x400 (an absolute lever may set it outside, unclamped).
    pub throttle: i16,
    /// Set whenever input changed T this call.
    pub dirty: bool,
}

/// What the routine hands to the movement controller (H34): the call is its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Dispatch {
    pub turn: i16,
    pub desired: i16,
}

impl Throttle {
    /// Mech_ApplyThrottleInput: `turn` the steering axis, `axis` the throttle axis in stick
    /// units, `lever` the throttle-lever mode L ∈ {−1, 0, +1} (0 = no lever: the axis is a
    /// rate; ±1: the axis is an absolute lever position, the sign inverting its sense).
    pub fn apply(&mut self, rt: &ChassisRuntime, turn: i16, axis: i16, lever: i8) -> Dispatch {
        let mut turn = turn;
        let mut axis = axis as i32;
        if lever != 0 {
            let v = (axis - 0x100).abs() * 2;
            let v = if v < 100 {
                0
            } else if lever < 0 {
                -v
            } else {
                v
            };
            self.throttle = wrap16(v);
            axis = 0;
            self.dirty = true;
        }
        if lever < 0 {
            axis = -axis;
        }
        let axis16 = wrap16(axis);
        // Steering reversal: near the centre the throttle's sign decides, otherwise the axis.
        let reverse = if abs_sat16(axis16) < 0x3d {
            self.throttle >= 0
        } else {
            axis16 < 1
        };
        if reverse {
            turn = turn.wrapping_neg();
        }
        let step = wrap16(q8(0x91, -(axis16 as i32)));
        if step != 0 {
            self.dirty = true;
            let t = self.throttle;
            let n = t.wrapping_add(step);
            if t == 0 || (n < 0) == (t < 0) {
                let hi = if lever < 0 { 0 } else { THROTTLE_MAX };
                let lo = if lever > 0 { 0 } else { -THROTTLE_MAX };
                self.throttle = n.max(lo).min(hi);
            } else {
                // Crossing zero stops for one call: the manual's "centred is stopped".
                self.throttle = 0;
            }
        }
        let t = self.throttle;
        let top = if t < 0 {
            -(rt.max_reverse_speed as i32)
        } else {
            rt.max_forward_speed as i32
        };
        Dispatch {
            turn,
            desired: wrap16(q10(top, t as i32)),
        }
    }
}
