//! Fixed-point products with the rounding stated at each call site.
//!
//! `Qn` values carry `n` fractional bits (Q8: 256 = 1.0, Q10: 1024, Q14: 16384). The
//! product of two Qn values is formed in 64 bits and shifted back by `n`; how the
//! discarded bits are treated differs between the originals, so it is a parameter
//! rather than a hidden choice.

/// How the fractional bits dropped by a fixed-point product are rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Arithmetic shift: toward negative infinity (what `sar` gives).
    Floor,
    /// C division by `2^n`: toward zero.
    TowardZero,
    /// Add half, then arithmetic shift: ties go toward positive infinity.
    HalfUp,
    /// Round to nearest, ties away from zero.
    HalfAwayFromZero,
}

/// `(a * b) / 2^n` formed in 64 bits, rounded as `mode` says.
pub fn q_mul(a: i64, b: i64, n: u32, mode: Rounding) -> i64 {
    let p = a.wrapping_mul(b);
    shift_round(p, n, mode)
}

/// Divide by `2^n` with the given rounding.
pub fn shift_round(p: i64, n: u32, mode: Rounding) -> i64 {
    if n == 0 {
        return p;
    }
    let n = n.min(62);
    match mode {
        Rounding::Floor => p >> n,
        Rounding::TowardZero => p / (1i64 << n),
        Rounding::HalfUp => p.wrapping_add(1i64 << (n - 1)) >> n,
        Rounding::HalfAwayFromZero => {
            let half = 1i64 << (n - 1);
            if p >= 0 {
                (p + half) >> n
            } else {
                -((half - p) >> n)
            }
        }
    }
}

/// Q8 product.
pub fn q8(a: i64, b: i64, mode: Rounding) -> i64 {
    q_mul(a, b, 8, mode)
}

/// Q10 product.
pub fn q10(a: i64, b: i64, mode: Rounding) -> i64 {
    q_mul(a, b, 10, mode)
}

/// Q14 product.
pub fn q14(a: i64, b: i64, mode: Rounding) -> i64 {
    q_mul(a, b, 14, mode)
}

/// The low 32 bits of a 64-bit result, as C keeps when it stores into an `int`.
pub fn low32(a: i64) -> i32 {
    a as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use Rounding::*;

    #[test]
    fn q8_products() {
        // 1.5 * 2.0 = 3.0
        assert_eq!(q8(384, 512, Floor), 768);
        // 100 ms-ish counts times rate 1.0
        assert_eq!(q8(81, 256, Floor), 81);
        // 81 * 0.5 = 40.5
        assert_eq!(q8(81, 128, Floor), 40);
        assert_eq!(q8(81, 128, TowardZero), 40);
        assert_eq!(q8(81, 128, HalfUp), 41);
        assert_eq!(q8(81, 128, HalfAwayFromZero), 41);
        // negative rate: -40.5
        assert_eq!(q8(81, -128, Floor), -41);
        assert_eq!(q8(81, -128, TowardZero), -40);
        assert_eq!(q8(81, -128, HalfUp), -40);
        assert_eq!(q8(81, -128, HalfAwayFromZero), -41);
    }

    #[test]
    fn q10_products() {
        // 1000 * 0.75 = 750
        assert_eq!(q10(1000, 768, Floor), 750);
        // -3 * 0.1 (102/1024) = -0.298.. : floor -1, toward zero 0, nearest 0
        assert_eq!(q10(-3, 102, Floor), -1);
        assert_eq!(q10(-3, 102, TowardZero), 0);
        assert_eq!(q10(-3, 102, HalfUp), 0);
        assert_eq!(q10(-3, 102, HalfAwayFromZero), 0);
        // 7 * 0.5 = 3.5
        assert_eq!(q10(7, 512, HalfUp), 4);
        assert_eq!(q10(-7, 512, HalfUp), -3);
        assert_eq!(q10(-7, 512, HalfAwayFromZero), -4);
    }

    #[test]
    fn q14_products() {
        // cos(60deg) * 1000 = 500
        assert_eq!(q14(8192, 1000, Floor), 500);
        // 16384 * 16384 >> 14 = 16384 (1.0 * 1.0)
        assert_eq!(q14(16384, 16384, Floor), 16384);
        // -1 * 1 >> 14: floor -1, toward zero 0
        assert_eq!(q14(-1, 1, Floor), -1);
        assert_eq!(q14(-1, 1, TowardZero), 0);
        // 11585 (~0.7071) squared = 8191.6 -> floor 8191, nearest 8192
        assert_eq!(q14(11585, 11585, Floor), 8191);
        assert_eq!(q14(11585, 11585, HalfUp), 8192);
        assert_eq!(q14(-11585, 11585, Floor), -8192);
        assert_eq!(q14(-11585, 11585, TowardZero), -8191);
    }

    #[test]
    fn low32_wraps() {
        assert_eq!(low32(0x1_0000_0005), 5);
        assert_eq!(low32(-1), -1);
        assert_eq!(low32(0x8000_0000), i32::MIN);
        assert_eq!(shift_round(-5, 0, Floor), -5);
    }
}
