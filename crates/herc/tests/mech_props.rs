//! Property tests: no throttle / steer / torso / block input sequence panics or overflows
//! (the test profile has overflow checks on), and the throttle stays in range.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use proptest::prelude::*;
use retroanim_core::Simulation;
use retroanim_herc::anim_list::AnimList;
use retroanim_herc::chassis::Chassis;
use retroanim_herc::formats::chassis::ChassisRecord;
use retroanim_herc::mech::turn_tent;
use retroanim_herc::mech_scenario::{MechSim, MechStep};
use retroanim_herc::object::SimObject;
use retroanim_herc::throttle::Throttle;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mech");

fn sim() -> MechSim {
    let list = AnimList::from_json_file(std::path::Path::new(&format!("{DIR}/tiny.json"))).unwrap();
    let text = std::fs::read_to_string(format!("{DIR}/tiny.chassis.json")).unwrap();
    let rec = ChassisRecord::from_json_str(&text, "tiny.chassis.json").unwrap();
    MechSim::new(list, Chassis::new(rec), SimObject::default(), Some(2)).unwrap()
}

fn step() -> impl Strategy<Value = MechStep> {
    prop_oneof![
        (0i64..1000).prop_map(|ms| MechStep::StepMs { ms }),
        (any::<i16>(), prop::option::of(-1i8..=1))
            .prop_map(|(axis, lever)| MechStep::ThrottleAxis { axis, lever }),
        (prop::option::of(any::<i16>()), prop::option::of(-1i8..=1))
            .prop_map(|(axis, lever)| MechStep::ThrottleStep { axis, lever }),
        any::<i16>().prop_map(|turn| MechStep::Steer { turn }),
        any::<i16>().prop_map(|axis| MechStep::Torso { axis }),
        Just(MechStep::TorsoCenter {}),
        any::<i16>().prop_map(|axis| MechStep::Aim { axis }),
        (0u32..3).prop_map(|moves| MechStep::Block { moves }),
        Just(MechStep::Kill {}),
        (any::<i32>(), any::<i16>())
            .prop_map(|(height, slope)| MechStep::Terrain { height, slope }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn h23_h35_no_input_sequence_panics(steps in prop::collection::vec(step(), 1..60)) {
        let mut s = sim();
        for (i, st) in steps.iter().enumerate() {
            let line = s.apply(i + 1, st, "steps[i]");
            prop_assert!(line.is_ok());
        }
        let _ = serde_json::to_value(s.snapshot()).unwrap();
    }

    #[test]
    fn h23_throttle_total_and_in_range(
        inputs in prop::collection::vec((any::<i16>(), any::<i16>()), 1..80)
    ) {
        let rt = sim().mech.chassis.runtime;
        let mut t = Throttle::default();
        for (turn, axis) in inputs {
            let _ = t.apply(&rt, turn, axis, 0);
            prop_assert!((-0x400..=0x400).contains(&t.throttle));
        }
    }

    #[test]
    fn h34_turn_tent_total(t in any::<i16>(), max in any::<i16>(), s in any::<i16>(), hold in any::<bool>()) {
        let _ = turn_tent(t, max, s, hold);
    }
}
