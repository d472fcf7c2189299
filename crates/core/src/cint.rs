//! C integer semantics, spelled out.
//!
//! The integer engines were written in C for 16/32-bit x86. Rust's operators already
//! match some of C's rules (`/` truncates toward zero, `>>` on signed types is
//! arithmetic), but the original code depends on them so heavily that every use goes
//! through a named helper: a reader then sees which rule a line relies on, and the
//! helpers never panic (division by zero and `MIN / -1` are reported, not trapped).

/// C `a / b` on `int`: truncates toward zero. `None` for `b == 0` or `i32::MIN / -1`.
pub fn div_trunc(a: i32, b: i32) -> Option<i32> {
    a.checked_div(b)
}

/// C `a % b` on `int`: the remainder takes the sign of the dividend.
pub fn rem_trunc(a: i32, b: i32) -> Option<i32> {
    a.checked_rem(b)
}

/// 64-bit C division, for products widened before dividing.
pub fn div_trunc_i64(a: i64, b: i64) -> Option<i64> {
    a.checked_div(b)
}

/// Floor division (rounds toward negative infinity), as Python's `//`.
pub fn div_floor(a: i32, b: i32) -> Option<i32> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// Arithmetic shift right (the x86 `sar`): rounds toward negative infinity.
/// Shifts of 32 or more give the sign fill (0 or -1), as repeated `sar` by 1 would.
pub fn sar(a: i32, n: u32) -> i32 {
    a >> n.min(31)
}

/// 64-bit arithmetic shift right.
pub fn sar_i64(a: i64, n: u32) -> i64 {
    a >> n.min(63)
}

/// 8-bit unsigned wrapping add (a `byte` counter).
pub fn add_u8(a: u8, b: u8) -> u8 {
    a.wrapping_add(b)
}

/// 8-bit unsigned wrapping subtract.
pub fn sub_u8(a: u8, b: u8) -> u8 {
    a.wrapping_sub(b)
}

/// 16-bit signed wrapping add (a `short`).
pub fn add_i16(a: i16, b: i16) -> i16 {
    a.wrapping_add(b)
}

/// 16-bit signed wrapping subtract.
pub fn sub_i16(a: i16, b: i16) -> i16 {
    a.wrapping_sub(b)
}

/// 16-bit unsigned wrapping add.
pub fn add_u16(a: u16, b: u16) -> u16 {
    a.wrapping_add(b)
}

/// 16-bit unsigned wrapping subtract.
pub fn sub_u16(a: u16, b: u16) -> u16 {
    a.wrapping_sub(b)
}

/// Truncate any integer to signed 16 bits, as a C cast to `short` does.
pub fn to_i16(a: i64) -> i16 {
    a as i16
}

/// Truncate any integer to an unsigned byte, as a C cast to `unsigned char` does.
pub fn to_u8(a: i64) -> u8 {
    a as u8
}

/// Signed difference `to - from` between two 16-bit binary angles (65536 = one turn),
/// taken the short way round. Exactly half a turn comes out as -32768, because the
/// 16-bit wrap of +32768 is -32768.
pub fn angle_diff_i16(from: i16, to: i16) -> i16 {
    to.wrapping_sub(from)
}

/// `|a|` of a 16-bit value saturating at 32767 (so `|-32768| = 32767`).
pub fn abs_sat_i16(a: i16) -> i16 {
    a.saturating_abs()
}

/// Clamp to an inclusive range.
pub fn clamp_i32(a: i32, lo: i32, hi: i32) -> i32 {
    a.max(lo).min(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_trunc_rounds_toward_zero() {
        assert_eq!(div_trunc(7, 2), Some(3));
        assert_eq!(div_trunc(-7, 2), Some(-3));
        assert_eq!(div_trunc(7, -2), Some(-3));
        assert_eq!(div_trunc(-7, -2), Some(3));
        assert_eq!(div_trunc(-1, 256), Some(0));
        assert_eq!(div_trunc(5, 0), None);
        assert_eq!(div_trunc(i32::MIN, -1), None);
        assert_eq!(div_trunc_i64(-300 * 7, 10), Some(-210));
        assert_eq!(div_trunc_i64(-2101, 10), Some(-210));
    }

    #[test]
    fn rem_trunc_takes_dividend_sign() {
        assert_eq!(rem_trunc(-7, 2), Some(-1));
        assert_eq!(rem_trunc(7, -2), Some(1));
        assert_eq!(rem_trunc(3, 0), None);
    }

    #[test]
    fn div_floor_rounds_down() {
        assert_eq!(div_floor(7, 2), Some(3));
        assert_eq!(div_floor(-7, 2), Some(-4));
        assert_eq!(div_floor(7, -2), Some(-4));
        assert_eq!(div_floor(-7, -2), Some(3));
        assert_eq!(div_floor(-8, 2), Some(-4));
        assert_eq!(div_floor(-1, 160), Some(-1));
        assert_eq!(div_floor(1, 0), None);
    }

    #[test]
    fn sar_floors_negative_values() {
        assert_eq!(sar(-1, 8), -1);
        assert_eq!(sar(-256, 8), -1);
        assert_eq!(sar(-257, 8), -2);
        assert_eq!(sar(255, 8), 0);
        assert_eq!(sar(-5, 1), -3);
        assert_eq!(sar(-5, 40), -1);
        assert_eq!(sar(5, 40), 0);
        assert_eq!(sar_i64(-(1 << 20), 14), -64);
        assert_eq!(sar_i64(-1, 63), -1);
    }

    #[test]
    fn byte_and_word_arithmetic_wraps() {
        assert_eq!(add_u8(250, 10), 4);
        assert_eq!(sub_u8(0, 1), 255);
        assert_eq!(sub_u8(3, 5), 254);
        assert_eq!(add_i16(32767, 1), -32768);
        assert_eq!(sub_i16(-32768, 1), 32767);
        assert_eq!(add_u16(65535, 2), 1);
        assert_eq!(sub_u16(1, 2), 65535);
        assert_eq!(to_i16(40000), -25536);
        assert_eq!(to_i16(-40000), 25536);
        assert_eq!(to_u8(-1), 255);
        assert_eq!(to_u8(300), 44);
    }

    #[test]
    fn angle_difference_takes_the_short_way() {
        assert_eq!(angle_diff_i16(0, 100), 100);
        assert_eq!(angle_diff_i16(100, 0), -100);
        // 0x7000 -> -0x7000 (0x9000): forward across +/-32768 is 0x2000.
        assert_eq!(angle_diff_i16(0x7000, -0x7000), 0x2000);
        assert_eq!(angle_diff_i16(-0x7000, 0x7000), -0x2000);
        // exactly half a turn wraps to the negative side
        assert_eq!(angle_diff_i16(0, -32768), -32768);
        assert_eq!(angle_diff_i16(16384, -16384), -32768);
    }

    #[test]
    fn abs_saturates_and_clamp_bounds() {
        assert_eq!(abs_sat_i16(-32768), 32767);
        assert_eq!(abs_sat_i16(-5), 5);
        assert_eq!(clamp_i32(40000, -0x7fff, 0x7fff), 0x7fff);
        assert_eq!(clamp_i32(-40000, -0x7fff, 0x7fff), -0x7fff);
        assert_eq!(clamp_i32(12, -0x7fff, 0x7fff), 12);
    }
}
