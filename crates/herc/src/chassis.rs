//! Chassis normalization (H21, H22, D3): the load-time speed rescale of MechType_InitOne.
//!
//! Both the raw record (as in the file) and the runtime values are kept, so a trace or an
//! export can show either.

use serde::Serialize;

use crate::fixed::{q10, q16, q16_div, wrap16};
use crate::formats::chassis::ChassisRecord;

/// Q16 one: the scale used when no rescale applies.
pub const SCALE_ONE: i32 = 1 << 16;

/// The runtime values DBSIM derives from a chassis record at load time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ChassisRuntime {
    /// `Q16Div(rec196·400, rec194)`, or 1.0 for a flyer or (D3) a zero divisor.
    pub scale: i32,
    /// Whether the speeds were rescaled (a walker with a non-zero divisor).
    pub rescaled: bool,
    /// D3: rec194 was 0, where DBSIM would divide by zero; the scale is 1.0.
    pub zero_stride_divisor: bool,
    /// rec 0, never rescaled.
    pub max_turn_rate: i16,
    /// rec 2, rescaled.
    pub max_reverse_speed: i16,
    /// rec 4, rescaled.
    pub max_forward_speed: i16,
    /// rec 6, raw.
    pub speed_step: i16,
    /// rec 8, raw.
    pub turn_rate_step: i16,
    /// rec 44, rescaled.
    pub walk_run_threshold: i16,
    /// rec 108, rescaled (H22).
    pub reverse_walk_run_threshold: i16,
    /// rec 192: Q10(315, raw rec 4) for a walker, the record's value for a flyer.
    pub hud_kmh: i16,
}

impl ChassisRuntime {
    /// MechType_InitOne (0x4201a8): rescale rec 2, 4, 44 and 108 for a non-flyer.
    pub fn from_record(rec: &ChassisRecord) -> ChassisRuntime {
        let flyer = rec.flyer != 0;
        let (scale, zero_div) = if flyer {
            (SCALE_ONE, false)
        } else {
            match q16_div(rec.stride_numerator as i32 * 400, rec.stride_divisor as i32) {
                Some(s) => (s, false),
                None => (SCALE_ONE, true),
            }
        };
        let rescaled = !flyer && !zero_div;
        let r = |raw: i16| {
            if rescaled {
                wrap16(q16(raw as i32, scale))
            } else {
                raw
            }
        };
        ChassisRuntime {
            scale,
            rescaled,
            zero_stride_divisor: zero_div,
            max_turn_rate: rec.max_turn_rate,
            max_reverse_speed: r(rec.max_reverse_speed),
            max_forward_speed: r(rec.max_forward_speed),
            speed_step: rec.speed_step,
            turn_rate_step: rec.turn_rate_step,
            walk_run_threshold: r(rec.walk_run_threshold),
            reverse_walk_run_threshold: r(rec.reverse_walk_run_threshold),
            // Computed from the raw forward speed, before the rescale; flyers keep theirs.
            hud_kmh: if flyer {
                rec.hud_kmh
            } else {
                wrap16(q10(315, rec.max_forward_speed as i32))
            },
        }
    }
}

/// A chassis: the record as read and the values the simulation uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chassis {
    pub raw: ChassisRecord,
    pub runtime: ChassisRuntime,
}

impl Chassis {
    pub fn new(raw: ChassisRecord) -> Chassis {
        let runtime = ChassisRuntime::from_record(&raw);
        Chassis { raw, runtime }
    }

    /// Whether this is a flyer (rec 78 ≠ 0).
    pub fn is_flyer(&self) -> bool {
        self.raw.flyer != 0
    }

    /// Mech_GetSpeed (0x415498): `Q10(2000, speed)` for a walker; a flyer's airspeed as is.
    pub fn speed_readout(&self, speed: i16) -> i32 {
        if self.is_flyer() {
            speed as i32
        } else {
            q10(2000, speed as i32)
        }
    }

    /// Mech_GetDisplaySpeedKph (0x41bb3c), walker branch: `speed·hudScale / maxFwd`,
    /// truncating; 0 when maxFwd is 0.
    pub fn hud_kmh(&self, speed: i16) -> i32 {
        let max = self.runtime.max_forward_speed as i32;
        if max == 0 {
            return 0;
        }
        (speed as i32 * self.runtime.hud_kmh as i32) / max
    }
}
