//! Decisions without a quirk number (docs/ac.md, "Decisions"): what the engine does where
//! C# would throw.

use retroanim_ac::motion_table::sign;

/// C# `Math.Sign(float)` throws on NaN; the engine counts NaN as 0, the class Q16 gives to
/// zero, so a NaN speed takes the same path as speed 0 instead of failing.
#[test]
fn math_sign_counts_nan_as_zero_and_zero_as_its_own_sign() {
    assert_eq!(sign(f32::NAN), 0);
    assert_eq!(sign(0.0), 0);
    assert_eq!(sign(-0.0), 0);
    assert_eq!(sign(1e-30), 1);
    assert_eq!(sign(f32::INFINITY), 1);
    assert_eq!(sign(-2.5), -1);
}
