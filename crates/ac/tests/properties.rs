//! Property tests: any sequence of commands and ticks (dt 0..2 s) never panics, keeps
//! the animation list and both completion queues bounded by the number of inputs, and
//! keeps the frame number inside the current node's range.

mod common;

use common::*;
use proptest::prelude::*;
use retroanim_ac::commands::{HoldKey, MovementParameters, MovementType};

const MOTIONS: [u32; 16] = [
    READY, WALK, WALK_BACK, RUN, TURN_R, TURN_L, SIDE_R, SIDE_L, DEAD, SITTING, SLEEPING, FALLING,
    WAVE, POWER_UP, SWORD, NC,
];

#[derive(Clone, Debug)]
enum Op {
    Do(usize, f32, u8),
    Stop(usize, u8),
    Interp(usize, f32),
    StopInterp(usize),
    StopCompletely,
    Contact(bool, bool),
    Cell(bool),
    Tick(f64),
    Interpolate(f32, f32),
}

fn hold(h: u8) -> HoldKey {
    match h % 3 {
        0 => HoldKey::Invalid,
        1 => HoldKey::None,
        _ => HoldKey::Run,
    }
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..MOTIONS.len(), -3.0f32..3.0, 0u8..3).prop_map(|(m, s, h)| Op::Do(m, s, h)),
        (0..MOTIONS.len(), 0u8..3).prop_map(|(m, h)| Op::Stop(m, h)),
        (0..MOTIONS.len(), -3.0f32..3.0).prop_map(|(m, s)| Op::Interp(m, s)),
        (0..MOTIONS.len()).prop_map(Op::StopInterp),
        Just(Op::StopCompletely),
        (any::<bool>(), any::<bool>()).prop_map(|(c, w)| Op::Contact(c, w)),
        any::<bool>().prop_map(Op::Cell),
        (0.0f64..2.0).prop_map(Op::Tick),
        (0.0f64..2.0).prop_map(Op::Tick),
        (-150.0f32..150.0, -150.0f32..150.0).prop_map(|(x, y)| Op::Interpolate(x, y)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_input_sequence_keeps_the_object_consistent(ops in prop::collection::vec(op(), 1..40)) {
        let mut sim = conf_sim();
        let bound = 8 * ops.len() + 8;
        for op in &ops {
            let obj = &mut sim.obj;
            match *op {
                Op::Do(m, s, h) => {
                    let p = MovementParameters { speed: s, hold_key_to_apply: hold(h), ..Default::default() };
                    obj.do_motion(MOTIONS[m], &p);
                }
                Op::Stop(m, h) => {
                    let p = MovementParameters { hold_key_to_apply: hold(h), ..Default::default() };
                    obj.stop_motion(MOTIONS[m], &p);
                }
                Op::Interp(m, s) => {
                    let p = MovementParameters { speed: s, ..Default::default() };
                    obj.perform_movement(MovementType::InterpretedCommand, MOTIONS[m], &p);
                }
                Op::StopInterp(m) => {
                    obj.perform_movement(MovementType::StopInterpretedCommand, MOTIONS[m], &Default::default());
                }
                Op::StopCompletely => {
                    obj.stop_completely();
                }
                Op::Contact(c, w) => obj.apply_contact(c, w),
                Op::Cell(c) => obj.set_in_cell(c),
                Op::Tick(dt) => obj.update_object_internal(dt),
                Op::Interpolate(x, y) => {
                    let mut f = obj.frame();
                    f.origin.x += x;
                    f.origin.y += y;
                    obj.interpolate_to(f, false);
                }
            }
            let s = obj.sequence();
            prop_assert!(s.nodes().len() <= bound);
            prop_assert!(obj.minterp().pending_motions.len() <= bound);
            prop_assert!(obj.table_manager().unwrap().pending().len() <= bound);
            match s.curr() {
                None => prop_assert!(s.nodes().is_empty() || s.first_cyclic().is_none()),
                Some(i) => {
                    prop_assert!(i < s.nodes().len());
                    let n = &s.nodes()[i];
                    let f = s.frame_number() as f64;
                    prop_assert!(f >= n.low_frame.min(n.high_frame) as f64 - 0.001, "{} in {:?}", f, n);
                    prop_assert!(f <= n.low_frame.max(n.high_frame) as f64 + 1.0, "{} in {:?}", f, n);
                }
            }
            if let Some(fc) = s.first_cyclic() {
                prop_assert!(fc < s.nodes().len());
            }
        }
    }
}
