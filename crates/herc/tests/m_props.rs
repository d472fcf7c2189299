//! Property tests: the primitives never panic or overflow for any i16/i32 inputs.

use proptest::prelude::*;
use retroanim_herc::fixed::{move_toward, q16_div};
use retroanim_herc::transform::Transform3;
use retroanim_herc::trig::{asin, atan2};

fn any_transform() -> impl Strategy<Value = Transform3> {
    (
        prop::array::uniform9(any::<i16>()),
        0u8..4,
        prop::array::uniform3(any::<i32>()),
    )
        .prop_map(|(m, kind, t)| Transform3 { m, kind, t })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn m07_composition_never_panics(a in any_transform(), b in any_transform(), p in prop::array::uniform3(any::<i32>())) {
        let c = a.concat(&b);
        prop_assert!(c.kind <= 3);
        let _ = c.inverse().transform_point(p);
        let _ = c.to_euler();
        let _ = a.rotate_vector(p);
    }

    #[test]
    fn m06_from_euler_never_panics_and_kind_follows_x(x in any::<i16>(), y in any::<i16>(), z in any::<i16>()) {
        let t = Transform3::from_euler(x, y, z);
        let expected = if x == 0 && y == 0 { if z == 0 { 0 } else { 1 } } else if x == 0 { 2 } else { 3 };
        prop_assert_eq!(t.kind, expected);
        let _ = t.to_euler();
    }

    #[test]
    fn m04_trig_total(y in any::<i32>(), x in any::<i32>(), v in any::<i32>()) {
        let _ = atan2(y, x);
        let _ = asin(v);
    }

    #[test]
    fn m02_move_toward_total(c in any::<i16>(), t in any::<i16>(), s in any::<i16>(), a in any::<i32>(), b in any::<i32>()) {
        let _ = move_toward(c, t, s);
        let _ = q16_div(a, b);
    }
}
