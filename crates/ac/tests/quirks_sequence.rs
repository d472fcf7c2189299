//! Quirks Q1–Q13 (docs/ac.md): Sequence playback. Expected values are
//! derived by hand from ACE's `Sequence` algorithm (frame counts × 1/framerate, pos-frame bookkeeping).

mod common;

use common::*;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_table::add_motion;
use retroanim_ac::sequence::{AnimData, AnimMap, FiredHook, Sequence};

fn data(id: u32, low: i32, high: i32, fps: f32) -> AnimData {
    AnimData {
        anim_id: id,
        low_frame: low,
        high_frame: high,
        framerate: fps,
    }
}

fn map(anims: Vec<retroanim_ac::records::Animation>) -> AnimMap {
    let mut m = AnimMap::new();
    for a in anims {
        m.insert(a);
    }
    m
}

fn types(h: &[FiredHook]) -> Vec<u32> {
    h.iter().map(|h| h.hook_type).collect()
}

#[test]
fn q01_movement_is_applied_per_frame_crossed_not_per_tick() {
    let m = map(vec![anim(1, 4, None, &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    s.set_velocity(Vec3::new(0.0, 3.0, 0.0));
    let mut hooks = Vec::new();
    // 0.05 s at 10 fps: half a frame, no boundary crossed, no displacement.
    let mut off = AFrame::IDENTITY;
    s.update(0.05, Some(&mut off), &mut hooks);
    assert_eq!(off.origin.y, 0.0);
    assert_eq!(s.frame_number(), 0.5);
    // The next 0.1 s crosses one boundary: one chunk of V / 10 = 0.3.
    let mut off = AFrame::IDENTITY;
    s.update(0.1, Some(&mut off), &mut hooks);
    assert!(close(off.origin.y, 0.3), "{}", off.origin.y);
}

#[test]
fn q02_last_frame_hooks_never_fire() {
    let m = map(vec![anim(1, 3, None, &[(0, hook(1, 1)), (2, hook(2, 1))])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    let mut hooks = Vec::new();
    s.update(0.25, None, &mut hooks); // 0 -> 2.5: leaves frames 0 and 1
    s.update(0.1, None, &mut hooks); // clamps at 2, wraps, 0 -> 0.5
    assert_eq!(types(&hooks), vec![1]);
    assert_eq!(s.frame_number(), 0.5);
}

#[test]
fn q03_overshoot_clamps_to_high_frame_and_carries_the_leftover() {
    let m = map(vec![anim(1, 3, None, &[]), anim(2, 4, None, &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    s.append_animation(data(2, 0, -1, 10.0), &m);
    let mut hooks = Vec::new();
    // 0 -> 4.5 in the link: off = (4.5 - 2) - 1 = 1.5 frames = 0.15 s into the cycle.
    s.update(0.45, None, &mut hooks);
    assert_eq!(seq_ids(&s), vec![2]);
    assert_eq!(s.curr(), Some(0));
    assert!(close(s.frame_number(), 1.5), "{}", s.frame_number());
}

#[test]
fn q04_pos_frames_first_twice_last_never_forward_each_once_backward() {
    let pos = |y: f32| AFrame::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY);
    let mut a = anim(1, 3, Some(pos(0.0)), &[]);
    a.pos_frames = vec![pos(1.0), pos(10.0), pos(100.0)];
    let m = map(vec![a]);
    // Forward, one loop of 3 frames: crossings 0->1 (+1), 1->2 (+10), wrap entry pos[0] (+1).
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    let mut off = AFrame::IDENTITY;
    s.update(0.3, Some(&mut off), &mut Vec::new());
    assert_eq!(off.origin.y, 12.0);
    // Backward: pos[2] and pos[1] while playing, pos[0] at exit: -111.
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, -10.0), &m);
    let mut off = AFrame::IDENTITY;
    s.update(0.3, Some(&mut off), &mut Vec::new());
    assert_eq!(off.origin.y, -111.0);
}

#[test]
fn q05_anim_done_tests_the_list_head_and_can_fire_twice() {
    let m = map(vec![anim(1, 2, None, &[]), anim(2, 1, None, &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    s.append_animation(data(2, 0, -1, 10.0), &m);
    let mut hooks = Vec::new();
    // Finishes the link (AnimDone), then wraps the one-frame cycle while the finished
    // link is still the list head (AnimDone again).
    s.update(0.35, None, &mut hooks);
    assert_eq!(types(&hooks), vec![4, 4]);
    assert_eq!(seq_ids(&s), vec![2]);
}

#[test]
fn q06_first_cyclic_is_the_last_appended_clip() {
    let t = table_data();
    let m = anim_map();
    let mut s = Sequence::new();
    // The Sleeping cycle has two clips: 0x03000104 then 0x03000101.
    let md = t.cycles().get(&key(NC, SLEEPING)).unwrap();
    add_motion(&mut s, Some(md), 1.0, &m);
    assert_eq!(s.first_cyclic(), Some(1));
    let mut hooks = Vec::new();
    // The first clip (3 frames at 10 fps) plays once and signals AnimDone.
    s.update(0.35, None, &mut hooks);
    assert_eq!(types(&hooks), vec![4]);
    assert_eq!(seq_ids(&s), vec![0x0300_0101]);
}

#[test]
fn q07_running_cycle_is_cut_immediately() {
    let mut sim = conf_sim();
    let p = Default::default();
    sim.obj.do_motion(WALK, &p);
    sim.obj.update_object_internal(0.1);
    sim.obj.update_object_internal(0.1); // link done, walking at frame 0.6
    assert_eq!(seq_ids(sim.obj.sequence()), vec![0x0300_0102]);
    assert!(close(sim.obj.sequence().frame_number(), 0.6));
    sim.obj.do_motion(
        WALK,
        &retroanim_ac::commands::MovementParameters {
            hold_key_to_apply: retroanim_ac::commands::HoldKey::Run,
            ..p
        },
    );
    // The walk cycle is gone mid-stride; the walk->run link starts at its frame 0.
    assert_eq!(seq_ids(sim.obj.sequence()), vec![0x0300_0106, 0x0300_0103]);
    assert_eq!(sim.obj.sequence().curr(), Some(0));
    assert_eq!(sim.obj.sequence().frame_number(), 0.0);
}

#[test]
fn q08_velocity_is_the_target_cycles_from_command_time() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &Default::default());
    // The Ready->Walk link's own velocity (0, 1, 0) is overwritten by the walk cycle's.
    assert_eq!(sim.obj.sequence().curr(), Some(0));
    assert_eq!(sim.obj.sequence().velocity(), Vec3::new(0.0, 3.12, 0.0));
}

#[test]
fn q09_velocity_is_not_rotated_pos_frames_are() {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let turn = AFrame::new(Vec3::new(0.0, 1.0, 0.0), Quat::new(h, 0.0, 0.0, h));
    let m = map(vec![anim(1, 3, Some(turn), &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    s.set_velocity(Vec3::new(0.0, 1.0, 0.0));
    let mut off = AFrame::IDENTITY;
    s.update(0.2, Some(&mut off), &mut Vec::new());
    // pos[0]: +Y 1 then velocity +0.1 in +Y; pos[1]'s +Y is turned 90° to -X, the
    // velocity still adds +0.1 in +Y.
    assert!(close(off.origin.x, -1.0), "{:?}", off.origin);
    assert!(close(off.origin.y, 1.2), "{:?}", off.origin);
}

#[test]
fn q10_backward_cycles_drift_by_epsilon_per_wrap() {
    let m = map(vec![anim(1, 4, None, &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, -30.0), &m);
    assert!(close(s.frame_number(), 3.9998));
    let mut got = Vec::new();
    for _ in 0..3 {
        s.update(0.05, None, &mut Vec::new());
        got.push(s.frame_number());
    }
    assert!(close(got[0], 2.4998) && close(got[1], 0.9998), "{got:?}");
    assert!(close(got[2], 3.4996), "{got:?}");
}

#[test]
fn q11_first_node_gets_no_entry_application() {
    let m = map(vec![anim(1, 4, None, &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, 0, -1, 10.0), &m);
    s.set_velocity(Vec3::new(0.0, 1.0, 0.0));
    let mut off = AFrame::IDENTITY;
    s.update(0.1, Some(&mut off), &mut Vec::new());
    assert!(close(off.origin.y, 0.1)); // one crossing, no entry chunk
    let mut off = AFrame::IDENTITY;
    s.update(0.3, Some(&mut off), &mut Vec::new());
    assert!(close(off.origin.y, 0.3)); // crossings 1->2, 2->3, then the wrap's entry
}

#[test]
fn q12_negative_frame_indices_read_identity_pos_frames() {
    let pos = AFrame::new(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY);
    let m = map(vec![anim(1, 2, Some(pos), &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(1, -2, -1, 10.0), &m);
    assert_eq!((s.nodes()[0].low_frame, s.nodes()[0].high_frame), (-2, 1));
    let mut off = AFrame::IDENTITY;
    // -2 -> 1.5: crossings from -2 and -1 read out-of-range (identity) pos frames, the
    // crossing from 0 reads pos[0].
    s.update(0.35, Some(&mut off), &mut Vec::new());
    assert_eq!(off.origin.y, 1.0);
    // The two roundings ACE uses (Q12) differ only below zero.
    assert_eq!((-0.5f32) as i32, 0);
    assert_eq!((-0.5f64).floor() as i32, -1);
}

#[test]
fn q13_missing_animation_is_an_empty_one_frame_clip_that_still_finishes() {
    let m = map(vec![anim(2, 4, None, &[])]);
    let mut s = Sequence::new();
    s.append_animation(data(0x0300_0999, 0, -1, 10.0), &m);
    s.append_animation(data(2, 0, -1, 10.0), &m);
    assert_eq!((s.nodes()[0].low_frame, s.nodes()[0].high_frame), (-1, -1));
    assert_eq!(s.nodes()[0].anim.num_frames, 0);
    let mut hooks = Vec::new();
    s.update(0.1, None, &mut hooks);
    assert_eq!(types(&hooks), vec![4]);
    assert_eq!(seq_ids(&s), vec![2]);
}
