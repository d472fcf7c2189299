//! Quirks Q14–Q24 (docs/ac.md): the motion-table graph walker, on the
//! conformance table of tests/common (links and counts derived by hand from ACE's `MotionTable` algorithm).

mod common;

use common::*;
use retroanim_ac::motion_table::{Motion, MotionState, MotionTableData};
use retroanim_ac::sequence::{AnimMap, Sequence};

struct T {
    t: MotionTableData,
    m: AnimMap,
    st: MotionState,
    s: Sequence,
}

impl T {
    fn new() -> T {
        T::with(table_data())
    }
    fn with(t: MotionTableData) -> T {
        let m = anim_map();
        let mut st = MotionState::default();
        let mut s = Sequence::new();
        let mut n = 0;
        assert!(t.set_default_state(&mut st, &mut s, &mut n, &m));
        T { t, m, st, s }
    }
    fn go(&mut self, motion: u32, speed: f32) -> (bool, u32) {
        let mut n = 0;
        let ok = self
            .t
            .do_object_motion(motion, &mut self.st, &mut self.s, speed, &mut n, &self.m);
        (ok, n)
    }
    fn stop(&mut self, motion: u32, speed: f32) -> (bool, u32) {
        let mut n = 0;
        let ok =
            self.t
                .stop_sequence_motion(motion, speed, &mut self.st, &mut self.s, &mut n, &self.m);
        (ok, n)
    }
    /// Play until only the cycle is left.
    fn settle(&mut self) {
        self.s.update(1.0, None, &mut Vec::new());
    }
    fn rates(&self) -> Vec<f32> {
        self.s.nodes().iter().map(|n| n.framerate).collect()
    }
}

fn first_anim(md: Option<&retroanim_ac::records::MotionData>) -> Option<u32> {
    md.map(|m| m.anims[0].anim_id)
}

#[test]
fn q14_reverse_link_lookup_and_its_fallbacks() {
    let t = table_data();
    // Reverse: Links[(NC, Walk)][Ready].
    assert_eq!(
        first_anim(t.get_link(NC, READY, 1.0, WALK, -1.0)),
        Some(0x0300_0105)
    );
    // Reverse fallback: Links[(NC, from)][SD(NC)].
    assert_eq!(
        first_anim(t.get_link(NC, WALK, -1.0, TURN_R, 1.0)),
        Some(0x0300_0105)
    );
    assert_eq!(
        first_anim(t.get_link(NC, RUN, -1.0, POWER_UP, 1.0)),
        Some(0x0300_0107)
    );
    // No style-wide fallback on the reverse path...
    assert_eq!(
        first_anim(t.get_link(NC, TURN_R, -1.0, POWER_UP, 1.0)),
        None
    );
    // ...but the forward path falls back to Links[style << 16].
    assert_eq!(
        first_anim(t.get_link(NC, RUN, 1.0, POWER_UP, 1.0)),
        Some(0x0300_010B)
    );
}

#[test]
fn q15_style_change_uses_the_old_styles_default_substate() {
    let mut table = conformance_table();
    // Even if Sword said its default is Walk, the new cycle is (Sword, SD(NonCombat)=Ready).
    table.style_defaults = vec![(NC, READY), (SWORD, WALK)];
    let mut x = T::with(MotionTableData::from(&table));
    let (ok, n) = x.go(SWORD, 1.0);
    assert!(ok);
    assert_eq!(n, 1);
    assert_eq!((x.st.style, x.st.substate), (SWORD, READY));
    assert_eq!(seq_ids(&x.s), vec![0x0300_010D, 0x0300_010E]);
}

#[test]
fn q16_zero_speed_is_its_own_sign_and_routes_through_idle() {
    let mut x = T::new();
    x.go(WALK, 1.0);
    x.settle();
    let (ok, n) = x.go(WALK, 0.0);
    assert!(ok);
    assert_eq!(n, 2);
    assert_eq!(seq_ids(&x.s), vec![0x0300_0105, 0x0300_0104, 0x0300_0102]);
    assert_eq!(x.rates(), vec![15.0, 0.0, 0.0]);
}

#[test]
fn q17_direction_reversal_goes_through_idle() {
    let mut x = T::new();
    x.go(WALK, 1.0);
    x.settle();
    let (_, n) = x.go(WALK, -0.65);
    assert_eq!(n, 2);
    // Walk->Ready at the old speed, then the same clip (reverse lookup) backwards.
    assert_eq!(seq_ids(&x.s), vec![0x0300_0105, 0x0300_0105, 0x0300_0102]);
    let r = x.rates();
    assert!(
        r[0] == 15.0 && close(r[1], -9.75) && close(r[2], -7.8),
        "{r:?}"
    );
    assert!(close(x.s.velocity().y, -2.028));
}

#[test]
fn q18_idle_request_while_turning_in_place_is_ignored() {
    let mut x = T::new();
    x.go(TURN_R, 1.0);
    assert_eq!(x.st.substate, TURN_R);
    let before = seq_ids(&x.s);
    assert_eq!(x.go(READY, 1.0), (true, 0));
    assert_eq!(x.st.substate, TURN_R);
    assert_eq!(seq_ids(&x.s), before);
}

#[test]
fn q19_turn_is_a_cycle_when_idle_and_a_modifier_when_walking() {
    let mut x = T::new();
    assert_eq!(x.go(TURN_R, 1.0), (true, 1));
    assert_eq!(seq_ids(&x.s), vec![0x0300_0109, 0x0300_0108]);
    // Walking out of the turn keeps the turn as a modifier on the walk.
    x.go(WALK, 1.0);
    assert_eq!(x.st.substate, WALK);
    assert_eq!(
        x.st.modifiers.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![TURN_R]
    );
    assert_eq!(x.s.omega().z, -1.5);
    // While walking, TurnRight on a fresh state is only a modifier.
    let mut y = T::new();
    y.go(WALK, 1.0);
    assert_eq!(y.go(TURN_R, 1.0), (true, 0));
    assert_eq!(y.st.substate, WALK);
    assert_eq!(y.s.omega().z, -1.5);
}

#[test]
fn q20_action_via_idle_counts_the_first_link_twice_and_empty_totals_wrap() {
    let mut x = T::new();
    x.go(RUN, 1.0);
    x.settle();
    let (ok, n) = x.go(WAVE, 1.0);
    assert!(ok);
    // Run->Ready (1) + Ready->Wave (1) + count(Run->Ready) again instead of Ready->Run.
    assert_eq!(n, 3);
    assert_eq!(
        seq_ids(&x.s),
        vec![0x0300_0107, 0x0300_010B, 0x0300_0104, 0x0300_0103]
    );
    // Sitting: empty link and empty cycle: 0 + 0 - 1 as u32.
    let mut y = T::new();
    assert_eq!(y.go(SITTING, 1.0), (true, 4_294_967_295));
}

#[test]
fn q21_re_modify_reapplies_the_head_modifier_k_times() {
    let mut x = T::new();
    x.go(WALK, 1.0);
    x.settle();
    x.go(TURN_R, 1.0);
    x.go(SIDE_R, 1.0);
    assert_eq!(
        x.st.modifiers.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![SIDE_R, TURN_R]
    );
    x.go(RUN, 1.0);
    // Run's (0, 4, 0) plus the sidestep twice; the turn's omega is lost.
    assert_eq!(x.s.velocity().x, 2.5);
    assert_eq!(x.s.velocity().y, 4.0);
    assert_eq!(x.s.omega().z, 0.0);
    assert_eq!(
        x.st.modifiers.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![SIDE_R, TURN_R]
    );
}

#[test]
fn q22_stop_completely_terminates_on_an_unknown_modifier() {
    let mut x = T::new();
    x.st.modifiers.push_front(Motion {
        id: 0x2000_0099,
        speed_mod: 1.0,
    });
    let mut n = 0;
    let ok =
        x.t.stop_object_completely(&mut x.st, &mut x.s, &mut n, &x.m);
    assert!(ok);
    assert!(x.st.modifiers.is_empty());
    assert_eq!(x.st.substate, READY);
}

#[test]
fn q23_cycle_entered_at_near_zero_speed_stays_frozen() {
    let mut x = T::new();
    x.go(WALK, 0.0001);
    x.settle();
    assert_eq!(x.go(WALK, 1.0), (true, 0));
    let walk = x.s.nodes().last().unwrap();
    assert!(close(walk.framerate, 0.0012), "{}", walk.framerate);
    assert!(close(x.s.velocity().y, 3.12));
}

#[test]
fn q24_stop_is_a_transition_to_idle_and_ignores_speed() {
    let mut x = T::new();
    x.go(WALK, 1.0);
    x.settle();
    assert_eq!(x.stop(WALK, 5.0), (true, 1));
    assert_eq!(seq_ids(&x.s), vec![0x0300_0105, 0x0300_0101]);
    assert_eq!(x.rates(), vec![15.0, 10.0]);
    assert_eq!(x.st.substate, READY);
    // Stopping a turn substate leaves no modifier behind.
    let mut y = T::new();
    y.go(TURN_R, 1.0);
    assert_eq!(y.stop(TURN_R, 1.0), (true, 0));
    assert_eq!(y.st.substate, READY);
    assert!(y.st.modifiers.is_empty());
}
