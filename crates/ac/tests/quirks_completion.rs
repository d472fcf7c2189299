//! Quirks Q25–Q32 (docs/ac.md): completion bookkeeping across the three
//! queues (sequence, table manager, interpreter), on the conformance table.

mod common;

use common::*;
use retroanim_ac::commands::{MovementParameters, WeenieError};
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_interp::Weenie;
use retroanim_ac::physics_obj::PhysicsObj;
use retroanim_ac::sequence::AnimMap;
use retroanim_ac::table_manager::{AnimNode, MotionDoneSink, MotionTableManager};
use std::sync::Arc;

fn p() -> MovementParameters {
    MovementParameters::default()
}

fn table_pending(obj: &PhysicsObj) -> Vec<(u32, u32)> {
    obj.table_manager()
        .as_ref()
        .unwrap()
        .pending()
        .iter()
        .map(|n| (n.motion, n.num_anims))
        .collect()
}

fn interp_pending(obj: &PhysicsObj) -> Vec<u32> {
    obj.minterp()
        .pending_motions
        .iter()
        .map(|n| n.motion)
        .collect()
}

#[test]
fn q25_stops_complete_as_ready() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &p());
    sim.obj.update_object_internal(0.1);
    sim.obj.update_object_internal(0.1);
    assert!(table_pending(&sim.obj).is_empty());
    assert_eq!(sim.obj.stop_motion(WALK, &p()), WeenieError::None);
    assert_eq!(table_pending(&sim.obj), vec![(READY, 1)]);
    assert_eq!(interp_pending(&sim.obj), vec![READY]);
}

#[test]
fn q26_motion_done_pops_the_head_whatever_completed() {
    let mut sim = conf_sim();
    let obj = &mut sim.obj;
    obj.minterp_mut().pending_motions.clear();
    obj.mi_add_to_queue(1, WAVE, WeenieError::None);
    obj.mi_add_to_queue(2, WALK, WeenieError::None);
    obj.minterp_mut().interpreted.apply_motion(WAVE, &p());
    obj.mi_motion_done(false);
    assert_eq!(interp_pending(obj), vec![WALK]);
    assert!(obj.minterp().interpreted.actions.is_empty());
    assert!(obj.is_animating());
    obj.mi_motion_done(true);
    assert!(interp_pending(obj).is_empty());
    assert!(!obj.is_animating());
}

#[test]
fn q27_frame_equality_ignores_orientation() {
    let a = AFrame::new(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let b = AFrame::new(Vec3::new(1.0001, 2.0, 3.0), Quat::new(h, 0.0, 0.0, h));
    assert!(a.ace_equals(&b));
    assert!(!a.ace_equals(&AFrame::new(Vec3::new(1.0003, 2.0, 3.0), Quat::IDENTITY)));
    // Turning in place: the orientation changes, the cached velocity stays zero.
    let mut sim = conf_sim();
    sim.obj.do_motion(TURN_R, &p());
    sim.obj.update_object_internal(0.1);
    assert_eq!(sim.obj.cached_velocity(), Vec3::ZERO);
    assert_ne!(sim.obj.frame().orientation, Quat::IDENTITY);
}

#[derive(Default)]
struct Log(Vec<(u32, bool)>, usize);

impl MotionDoneSink for Log {
    fn motion_done(&mut self, _motion: u32, _success: bool) {
        self.1 += 1;
    }
    fn on_motion_done(&mut self, motion: u32, success: bool) {
        self.0.push((motion, success));
    }
}

#[test]
fn q28_animation_done_counter_rules() {
    let mut m = MotionTableManager::new(Arc::new(table_data()));
    let mut log = Log::default();
    // Empty queue: the signal is dropped, the counter does not move.
    m.animation_done(true, &mut log);
    assert_eq!(m.animation_counter, 0);
    for (motion, n) in [(0x4500_0005, 2), (0x4100_0003, 0), (0x4400_0007, 1)] {
        m.pending_mut().push_back(AnimNode {
            motion,
            num_anims: n,
        });
    }
    m.animation_done(true, &mut log);
    assert_eq!((m.animation_counter, log.0.len()), (1, 0));
    // The second signal completes Walk and the zero-count Ready behind it.
    m.animation_done(true, &mut log);
    assert_eq!(log.0, vec![(0x4500_0005, true), (0x4100_0003, true)]);
    assert_eq!(log.1, 2);
    assert_eq!(m.animation_counter, 0);
    // A surplus is kept while entries wait, and reset once the queue drains.
    m.pending_mut().clear();
    m.pending_mut().push_back(AnimNode {
        motion: 0x4100_0003,
        num_anims: 0,
    });
    m.animation_done(false, &mut log);
    assert!(m.pending().is_empty());
    assert_eq!(m.animation_counter, 0);
}

#[test]
fn q29_redundant_links_are_cut_and_the_new_entry_zeroed() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &p());
    sim.obj.stop_motion(WALK, &p());
    assert_eq!(
        seq_ids(sim.obj.sequence()),
        vec![0x0300_0104, 0x0300_0105, 0x0300_0101]
    );
    sim.obj.do_motion(WALK, &p());
    assert_eq!(seq_ids(sim.obj.sequence()), vec![0x0300_0104, 0x0300_0102]);
    assert_eq!(
        table_pending(&sim.obj),
        vec![(WALK, 1), (READY, 0), (WALK, 0)]
    );
}

#[test]
fn q30_remove_link_animations_fails_every_pending_motion() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &p());
    sim.obj.clear_motions_done();
    sim.obj.remove_link_animations();
    assert_eq!(seq_ids(sim.obj.sequence()), vec![0x0300_0102]);
    assert_eq!(
        (sim.obj.sequence().curr(), sim.obj.sequence().frame_number()),
        (Some(0), 0.0)
    );
    assert!(table_pending(&sim.obj).is_empty());
    assert!(interp_pending(&sim.obj).is_empty());
    assert_eq!(sim.obj.motions_done(), vec![(WALK, false)]);
}

#[test]
fn q31_stop_completely_always_queues_ready() {
    // Without a motion table the interpreter still queues Ready: IsAnimating stays true.
    let weenie = Weenie {
        is_creature: true,
        run_rate: 1.0,
    };
    let mut bare = PhysicsObj::new(
        Arc::new(AnimMap::new()),
        weenie,
        0x7d64_0013,
        AFrame::IDENTITY,
    );
    assert_eq!(bare.mi_stop_completely(), WeenieError::None);
    assert_eq!(interp_pending(&bare), vec![READY]);
    assert!(bare.is_animating());
    // With a table, an idle stop queues (Ready, 0) on both sides; both are popped at once.
    let mut sim = conf_sim();
    sim.obj.clear_motions_done();
    assert_eq!(sim.obj.stop_completely(), WeenieError::None);
    assert_eq!(
        sim.obj.motions_done(),
        vec![(NC, true), (READY, true), (READY, true)]
    );
    assert!(!sim.obj.is_animating());
}

#[test]
fn q32_dat_anim_done_hooks_count_like_the_synthetic_one() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &p());
    sim.obj.update_object_internal(0.1);
    sim.obj.update_object_internal(0.1);
    sim.obj.do_motion(WAVE, &p());
    assert_eq!(table_pending(&sim.obj), vec![(WAVE, 1)]);
    sim.obj.clear_hook_log();
    sim.obj.clear_motions_done();
    // Walk->Wave (4 frames at 10 fps) carries an AnimationDone hook on frame 2.
    sim.obj.update_object_internal(0.35);
    assert_eq!(sim.obj.hook_log(), vec![4]);
    assert_eq!(sim.obj.motions_done(), vec![(WAVE, true)]);
    assert_eq!(sim.obj.sequence().nodes()[0].anim.id, 0x0300_010C);
    assert_eq!(sim.obj.sequence().curr(), Some(0));
}
