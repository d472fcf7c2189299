//! Fixed-point primitives M1 and M2.
//!
//! DBSIM forms every product in 64 bits, shifts arithmetically (floor) and stores the low
//! 32 bits; the helpers below do exactly that and never trap on overflow.

/// `i16(x)`: wrap to signed 16 bits, as a C store into a `short`.
pub fn wrap16(x: i32) -> i16 {
    x as i16
}

/// `|x|` of an i16, saturating (−32768 → 32767) where a rule asks for it.
pub fn abs_sat16(x: i16) -> i16 {
    x.saturating_abs()
}

/// `Qn(a, b) = (i64 a·b) >> n`, keeping the low 32 bits (M1).
pub fn qn(a: i32, b: i32, n: u32) -> i32 {
    (((a as i64) * (b as i64)) >> n.min(63)) as i32
}

/// Q8 product (M1).
pub fn q8(a: i32, b: i32) -> i32 {
    qn(a, b, 8)
}

/// Q10 product (M1).
pub fn q10(a: i32, b: i32) -> i32 {
    qn(a, b, 10)
}

/// Q14 product (M1).
pub fn q14(a: i32, b: i32) -> i32 {
    qn(a, b, 14)
}

/// Q16 product (M1).
pub fn q16(a: i32, b: i32) -> i32 {
    qn(a, b, 16)
}

/// `Q16Div(a, b) = (i64 a << 16) / b`, truncating, low 32 bits (M1; SimMath.Q16Div).
/// `None` when `b = 0`, where DBSIM would fault (the caller decides, see D3).
pub fn q16_div(a: i32, b: i32) -> Option<i32> {
    ((a as i64) << 16).checked_div(b as i64).map(|v| v as i32)
}

/// `IntegrateRateOverTick(r) = clamp(Q8(SimTickDelta, r), −0x7fff, 0x7fff)` (M2).
pub fn integrate_rate_over_tick(sim_tick_delta: i32, rate: i32) -> i16 {
    q8(sim_tick_delta, rate).clamp(-0x7fff, 0x7fff) as i16
}

/// `MoveToward(cur, tgt, step)` (M2; SimMath.MoveToward): one raw step, no timestep
/// scaling; the i16 wrap happens before the overshoot test, as in DBSIM.
pub fn move_toward(cur: i16, tgt: i16, step: i16) -> i16 {
    if tgt < cur {
        let next = cur.wrapping_sub(step);
        if next <= tgt {
            tgt
        } else {
            next
        }
    } else if cur < tgt {
        let next = cur.wrapping_add(step);
        if next >= tgt {
            tgt
        } else {
            next
        }
    } else {
        cur
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_and_saturates() {
        assert_eq!(wrap16(0x8000), -32768);
        assert_eq!(wrap16(0x1_2345), 0x2345);
        assert_eq!(abs_sat16(-32768), 32767);
        assert_eq!(abs_sat16(-5), 5);
    }
}
