//! Rule tests for the thread, pose, root-motion, slot and clock rules (H1–H20, H24–H26,
//! D1, D2, D4–D7). Every expected value is worked out by hand from the rule (the working
//! is in the comments) or copied from the worked example (the `example` conformance scenario).

use retroanim_core::Scenario;
use retroanim_herc::anim_list::{AnimList, SeqClass};
use retroanim_herc::scenario::{HercSim, Step};
use retroanim_herc::shape_instance::{ShapeError, ShapeInstance};
use retroanim_herc::thread::AnimationThread;
use retroanim_herc::transform::Transform3;
use serde_json::{json, Value};
use std::path::PathBuf;

const EXAMPLE: &str = include_str!("conformance/assets/example.json");
const BIPED: &str = include_str!("conformance/assets/biped.json");

// Example sequences: 0 walk (cyclic, 20/25/30 ticks, G ty 100 | rz 200 ty 140 | ty 120),
// 1 halt (one-shot, 15/20, G ty 60 | ty 20). Transitions: walk f2 → halt f0 (10 ticks,
// key 16 = [0,0,−100,0,80,0]); halt f1 → walk f0 (12 ticks, key 17 = [0,0,0,0,30,0]).
const WALK: i16 = 0;
const HALT: i16 = 1;

// Biped sequences.
const B_IDLE: i16 = 0;
const B_WALK: i16 = 1;
const B_RUN: i16 = 2;
const B_TURN: i16 = 3;
const B_TWIST: i16 = 5;
const B_PITCH: i16 = 6;

fn load(text: &str) -> AnimList {
    let v: Value = serde_json::from_str(text).unwrap();
    AnimList::from_json_value(&v, "test.json", "").unwrap()
}

fn example() -> AnimList {
    load(EXAMPLE)
}

fn biped() -> AnimList {
    load(BIPED)
}

fn thread_on(list: &AnimList, seq: i16, rate: i16) -> AnimationThread {
    let mut t = AnimationThread::new(list);
    t.set_sequence(list, seq, 0, 0);
    t.set_rate(list, rate);
    t
}

fn ident_t(t: [i32; 3]) -> Transform3 {
    Transform3::IDENTITY.with_translation(t)
}

fn tr(m: [i16; 9], kind: u8, t: [i32; 3]) -> Transform3 {
    Transform3 { m, kind, t }
}

fn cursor(t: &AnimationThread) -> (i16, i16, i16, i16, i16, i16, u8) {
    (
        t.seq,
        t.frame,
        t.next_seq,
        t.next_frame,
        t.acc,
        t.dur,
        t.flags,
    )
}

#[test]
fn h01_time_is_whole_ticks_and_fractions_are_discarded() {
    let list = example();
    let mut t = thread_on(&list, WALK, 100);
    // 31·100 >> 8 = 3100/256 = 12.1 → 12 ticks; the 0.1 is not carried.
    t.advance(&list, 31);
    assert_eq!(cursor(&t), (0, 0, 0, 1, 12, 20, 1));
    // Another 12: 24 ≥ 20 → frame 1 at 4 (the ideal 24.2 would be the same; 10 steps of
    // 12 are 120 ticks, not 121).
    t.advance(&list, 31);
    assert_eq!(cursor(&t), (0, 1, 0, 2, 4, 25, 1));
    for _ in 0..8 {
        t.advance(&list, 31);
    }
    // 120 ticks = 20 + 25 + 30 (75, back to frame 0) + 45 = frame 1 at 45 − 20 = 25 → frame 2 at 0.
    assert_eq!(cursor(&t), (0, 2, 0, 0, 0, 30, 1));
}

#[test]
fn h02_cyclic_wraps_and_one_shot_clamps() {
    let list = example();
    let walk = &list.sequences()[0];
    let halt = &list.sequences()[1];
    assert_eq!((walk.next(2), walk.previous(0)), (0, 2));
    assert_eq!((halt.next(1), halt.previous(0)), (1, 0));
    assert_eq!((halt.next(0), halt.previous(1)), (1, 0));
}

#[test]
fn h02_played_out_one_shot_keeps_committing_its_last_frame() {
    let list = example();
    let mut t = thread_on(&list, HALT, 256);
    // 15 ticks complete frame 0 (commit G ty 60) and enter frame 1, whose next is itself.
    t.advance(&list, 15);
    assert_eq!(cursor(&t), (1, 1, 1, 1, 0, 20, 1));
    assert_eq!(t.root, ident_t([0, 60, 0]));
    // frame = next_frame: played out. Each further 20 ticks re-commits frame 1's G (ty 20).
    t.advance(&list, 20);
    assert_eq!(cursor(&t), (1, 1, 1, 1, 0, 20, 1));
    assert_eq!(t.root, ident_t([0, 80, 0]));
    t.advance(&list, 45);
    assert_eq!(cursor(&t), (1, 1, 1, 1, 5, 20, 1));
    assert_eq!(t.root, ident_t([0, 120, 0]));
}

#[test]
fn h03_class_is_the_chunk_class() {
    let list = example();
    assert_eq!(list.sequences()[0].class, SeqClass::Cyclic);
    assert_eq!(list.sequences()[1].class, SeqClass::OneShot);
}

#[test]
fn h04a_set_sequence_resets_the_cursor_and_request_but_keeps_root_and_rate() {
    let list = example();
    let mut t = thread_on(&list, WALK, 300);
    t.advance(&list, 20); // 20·300 >> 8 = 23: frame 1 at 3, root ty 100 committed
    t.request(&list, HALT, -1, 1);
    assert_eq!(t.scan_frame, 2);
    t.set_sequence(&list, HALT, 1, 5);
    assert_eq!(cursor(&t), (1, 1, 1, 1, 5, 20, 1));
    assert_eq!((t.target_seq, t.target_frame, t.target_flags), (-1, -1, 0));
    assert_eq!(t.scan_frame, -1);
    assert_eq!(t.g, [0, 0, 0, 0, 20, 0]);
    assert_eq!(t.root, ident_t([0, 100, 0]));
    assert_eq!(t.rate, 300);
}

#[test]
fn h04b_seek_parks_on_a_whole_tick() {
    let list = example();
    let mut t = thread_on(&list, WALK, 0);
    // total 75; Q14(9000, 74) = 666000 >> 14 = 40.6 → 40 = 20 (frame 0) + 20 into frame 1.
    t.seek(&list, WALK, 9000);
    assert_eq!(cursor(&t), (0, 1, 0, 2, 20, 25, 1));
    // Q14(16384, 74) = 74 = 20 + 25 + 29: frame 2 at 29 (never past the last frame).
    t.seek(&list, WALK, 16384);
    assert_eq!(cursor(&t), (0, 2, 0, 0, 29, 30, 1));
    // 4430·74 = 327820 >> 14 = 20.008 → 20: exactly the start of frame 1.
    t.seek(&list, WALK, 4430);
    assert_eq!(cursor(&t), (0, 1, 0, 2, 0, 25, 1));
    t.seek(&list, HALT, 8192); // total 35: 8192·34 >> 14 = 17 → frame 1 at 2
    assert_eq!(cursor(&t), (1, 1, 1, 1, 2, 20, 1));
}

#[test]
fn h04b_seek_on_frames_of_one_length() {
    // Biped twist: cyclic, four frames of 64 ticks, total 256, no ground movement.
    let list = biped();
    let mut t = thread_on(&list, B_TWIST, 0);
    // Q14(16384, 255) = 255 = 3·64 + 63: frame 3 at 63, next frame 0 (cyclic).
    t.seek(&list, B_TWIST, 16384);
    assert_eq!(cursor(&t), (5, 3, 5, 0, 63, 64, 1));
    // 8192·255 = 2088960 >> 14 = 127.5 → 127 = 64 + 63: frame 1 at 63.
    t.seek(&list, B_TWIST, 8192);
    assert_eq!(cursor(&t), (5, 1, 5, 2, 63, 64, 1));
    // 4112·255 = 1048560 >> 14 = 63.999 → 63: still frame 0; 4113·255 = 1048815 → 64.01
    // → 64: exactly the start of frame 1.
    t.seek(&list, B_TWIST, 4112);
    assert_eq!(cursor(&t), (5, 0, 5, 1, 63, 64, 1));
    t.seek(&list, B_TWIST, 4113);
    assert_eq!(cursor(&t), (5, 1, 5, 2, 0, 64, 1));
    // A negative position: −100·255 = −25500 >> 14 = −1.56 → −2 (floor); the walk does not
    // start, so frame 0 at −2.
    t.seek(&list, B_TWIST, -100);
    assert_eq!(cursor(&t), (5, 0, 5, 1, -2, 64, 1));
    assert!(!t.ground);

    // Idle made one-shot: two frames of 60, total 120. Q14(16384, 119) = 119 = 60 + 59: the
    // last frame, whose next frame is itself. Past the range, 32767·119 = 3899273 >> 14 =
    // 237.99 → 237: the walk still stops at the last frame, at 237 − 60 = 177.
    let mut v: Value = serde_json::from_str(BIPED).unwrap();
    v["sequences"][0]["class"] = json!("one_shot");
    let list = AnimList::from_json_value(&v, "test.json", "").unwrap();
    let mut t = thread_on(&list, B_IDLE, 0);
    t.seek(&list, B_IDLE, 16384);
    assert_eq!(cursor(&t), (0, 1, 0, 1, 59, 60, 1));
    t.seek(&list, B_IDLE, 32767);
    assert_eq!(cursor(&t), (0, 1, 0, 1, 177, 60, 1));
    assert_eq!(
        (t.target_seq, t.target_frame, t.target_flags, t.scan_frame),
        (-1, -1, 0, -1)
    );
}

#[test]
fn h04c_drop_request_disarms_and_keeps_playing() {
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    t.advance(&list, 5);
    t.request(&list, HALT, -1, 1);
    assert_eq!((t.scan_frame, t.flags), (2, 0));
    t.drop_request();
    assert_eq!(cursor(&t), (0, 0, 0, 1, 5, 20, 1));
    assert_eq!(
        (t.scan_frame, t.target_seq, t.target_frame, t.target_flags),
        (-1, -1, -1, 0)
    );
    // The armed candidate stays in the tr_* fields (never cleared).
    assert_eq!((t.tr_seq, t.tr_frame, t.tr_dur, t.tr_key), (1, 0, 10, 16));
}

#[test]
fn h04d_constructor_sets_sequence_zero_and_identity_root() {
    let list = example();
    let t = AnimationThread::new(&list);
    assert_eq!(cursor(&t), (0, 0, 0, 1, 0, 20, 1));
    assert_eq!((t.rate, t.scan_frame), (0, -1));
    assert_eq!((t.tr_seq, t.tr_frame, t.tr_dur, t.tr_key), (0, 0, 0, 0));
    assert!(t.ground);
    assert_eq!(t.g, [0, 0, 0, 0, 100, 0]);
    assert_eq!(t.root, Transform3::IDENTITY);
}

#[test]
fn h05_rate_sign_flip_reruns_the_request() {
    let list = example();
    let mut t = thread_on(&list, HALT, 256);
    t.request(&list, HALT, -1, 1);
    // Playing halt frame 0 at acc 0, target frame −1 ≠ 0 → searches forward from frame 1:
    // halt f1 offers only walk → nothing, next(1) = 1 = prev → stop. scan −1, flags 0.
    assert_eq!((t.scan_frame, t.flags), (-1, 0));
    t.advance(&list, 1); // the arrival check at a frame boundary is not reached at acc 1
    assert_eq!(t.flags, 0);
    t.set_sequence(&list, HALT, 0, 0);
    t.request(&list, HALT, 0, 1); // playing the target at acc 0: AtTarget at once
    assert_eq!((t.scan_frame, t.flags), (-1, 1));
    // Frozen (AtTarget + stop): a same-sign change keeps it frozen.
    t.set_rate(&list, 512);
    t.advance(&list, 31);
    assert_eq!(cursor(&t), (1, 0, 1, 1, 0, 15, 1));
    // A sign flip re-runs Request(1, 0, 1): seq = 1, frame = 0, acc = 0 → AtTarget again.
    t.set_rate(&list, -128);
    assert_eq!(t.flags, 1);
    // With "any frame" the re-run searches backwards from frame 0 of the one-shot: frame 0
    // offers nothing and previous(0) = 0 ends it: released (flags 0).
    t.request(&list, HALT, -1, 1);
    t.set_rate(&list, 100);
    assert_eq!((t.scan_frame, t.flags, t.rate), (-1, 0, 100));
}

#[test]
fn h06_request_arms_the_first_transition_and_plays_it_forward() {
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    t.request(&list, HALT, -1, 0);
    assert_eq!((t.scan_frame, t.flags), (2, 0));
    assert_eq!((t.tr_seq, t.tr_frame, t.tr_dur, t.tr_key), (1, 0, 10, 16));
    // 45 ticks: frame 0 (20) and frame 1 (25) complete; frame 2 = scan is entered as a
    // transition frame: next cursor (1, 0), dur 10, G = key 16, InTransition.
    t.advance(&list, 45);
    assert_eq!(cursor(&t), (0, 2, 1, 0, 0, 10, 2));
    assert_eq!(
        (t.scan_frame, t.ground, t.g),
        (-1, true, [0, 0, -100, 0, 80, 0])
    );
    // The transition frame completes: key 16 committed, halt frame 0, arrival (any frame).
    t.advance(&list, 10);
    assert_eq!(cursor(&t), (1, 0, 1, 1, 0, 15, 1));
    assert_eq!(t.g, [0, 0, 0, 0, 60, 0]);
}

#[test]
fn h06_acceptance_compares_the_landing_frame_with_the_target_frame() {
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    // Forward: dest_frame 0 < 1 → accepted.
    t.request(&list, HALT, 1, 0);
    assert_eq!(t.scan_frame, 2);
    // dest_frame 0 = 0 with acc = 0 → accepted.
    t.request(&list, HALT, 0, 0);
    assert_eq!(t.scan_frame, 2);
    // With acc ≠ 0 it is rejected, but the armed fields keep the candidate.
    t.advance(&list, 3);
    t.tr_key = 0;
    t.request(&list, HALT, 0, 0);
    assert_eq!((t.scan_frame, t.flags), (-1, 0));
    assert_eq!((t.tr_seq, t.tr_frame, t.tr_dur, t.tr_key), (1, 0, 10, 16));
}

#[test]
fn h07_unconnected_request_does_not_blend() {
    let list = biped();
    let mut t = thread_on(&list, B_IDLE, 256);
    t.request(&list, B_RUN, -1, 0); // idle offers no transition into run
    assert_eq!((t.scan_frame, t.flags), (-1, 0));
    assert_eq!((t.target_seq, t.target_frame), (B_RUN, -1));
    t.advance(&list, 31);
    t.advance(&list, 31); // 62 ticks: idle frame 1 (60) at 2, still blending inside idle
    assert_eq!(cursor(&t), (0, 1, 0, 0, 2, 60, 0));
    // The request stays pending; AtTarget is still set if playback reaches the target by
    // itself: walk in the example asks for its own frame 2, which no transition offers.
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    t.request(&list, WALK, 2, 0);
    assert_eq!((t.scan_frame, t.flags), (-1, 0));
    t.advance(&list, 44);
    assert_eq!(cursor(&t), (0, 1, 0, 2, 24, 25, 0));
    t.advance(&list, 1);
    assert_eq!(cursor(&t), (0, 2, 0, 0, 0, 30, 1));
}

#[test]
fn h08_stop_on_arrival_freezes_with_acc_zero_and_keeps_the_rate() {
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    t.request(&list, WALK, 1, 1);
    t.advance(&list, 30); // enters frame 1: arrival; the other 10 ticks are dropped
    assert_eq!(cursor(&t), (0, 1, 0, 2, 0, 25, 1));
    t.advance(&list, 31);
    assert_eq!(cursor(&t), (0, 1, 0, 2, 0, 25, 1));
    assert_eq!(t.rate, 256);
    // A new request releases it.
    t.request(&list, -1, -1, 0);
    t.advance(&list, 31);
    assert_eq!(cursor(&t), (0, 2, 0, 0, 6, 30, 1));
}

#[test]
fn h09_reverse_traversal_enters_the_transition_from_its_far_end() {
    let list = example();
    let mut t = thread_on(&list, HALT, -256);
    t.set_sequence(&list, HALT, 1, 10);
    t.request(&list, WALK, -1, 0);
    // Backward search starts at frame 1, which offers halt f1 → walk f0.
    assert_eq!(
        (t.scan_frame, t.tr_seq, t.tr_frame, t.tr_dur, t.tr_key),
        (1, 0, 0, 12, 17)
    );
    // −15 ticks from acc 10: leaving frame 1 = scan jumps to (walk, 0) as a transition frame
    // whose next cursor is (halt, 1); dur 12, G = key 17 (ty 30) uncommitted, acc 12 − 5 = 7,
    // and arrival (walk is the target) sets AtTarget alongside InTransition.
    t.advance(&list, 15);
    assert_eq!(cursor(&t), (0, 0, 1, 1, 7, 12, 3));
    assert_eq!(t.root, ident_t([0, -30, 0]));
    // Continuing backward from acc 0 lands on previous(0) = walk frame 2 (G ty 120, uncommitted).
    t.advance(&list, 9);
    assert_eq!(cursor(&t), (0, 2, 0, 0, 28, 30, 1));
    assert_eq!(t.root, ident_t([0, -150, 0]));
}

#[test]
fn h10_pose_blends_with_the_rounded_q10_fraction() {
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    let id = shape.add_thread(&list, WALK).unwrap();
    let t = shape.thread_mut(id).unwrap();
    t.set_sequence(&list, WALK, 1, 11);
    shape.evaluate(&list, &Transform3::IDENTITY);
    // q = (11·1024 + 12)/25 = 451. Body: key 7 [−1000,0,0,0,0,1020] → key 10 [0,0,0,0,0,990]:
    // rx −1000 + (1000·451 >> 10 = 440) = −560; tz 1020 + (−30·451 >> 10 = −14) = 1006.
    assert_eq!(shape.locals(&list)[1], [-560, 0, 0, 0, 0, 1006]);
    // Arm: rz −4000 → −32768 the short way (d = −28768): −4000 − 12671 = −16671.
    assert_eq!(shape.locals(&list)[2], [0, 0, -16671, 300, 0, 200]);
}

#[test]
fn h11_rotation_blend_wraps_the_short_way() {
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    let id = shape.add_thread(&list, WALK).unwrap();
    // Frame 2 at 18/30: q = (18432 + 15)/30 = 614. Arm rz −32768 → 4000 (walk f0, key 5):
    // u = 36768 > 0x7fff → d = −28768; −32768 + (−28768·614 >> 10 = −17250) wraps to 15518.
    shape
        .thread_mut(id)
        .unwrap()
        .set_sequence(&list, WALK, 2, 18);
    shape.evaluate(&list, &Transform3::IDENTITY);
    assert_eq!(shape.locals(&list)[2], [0, 0, 15518, 300, 0, 200]);
}

#[test]
fn h12_column_zero_is_ground_movement_and_never_posed() {
    // Node 0 keeps its rest record although column 0 has a non-zero key.
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    let id = shape.add_thread(&list, WALK).unwrap();
    shape
        .thread_mut(id)
        .unwrap()
        .set_sequence(&list, WALK, 1, 11);
    shape.evaluate(&list, &Transform3::IDENTITY);
    assert_eq!(shape.locals(&list)[0], [0, 0, 0, 0, 0, 0]);
    // Ground movement is read from column 0 whatever node it animates: here column 0 is
    // node 1, which is also posed (its part id is not 0), while node 0's column 1 is skipped.
    let list = load(
        r#"{"nodes":[{"parent":-1,"rest":0},{"parent":-1,"rest":0}],
            "keyframes":[[0,0,0,0,0,0],[0,0,0,0,77,5],[9,0,0,0,0,0]],
            "sequences":[{"class":"cyclic","priority":0,"ground":true,"columns":[1,0],
              "frames":[{"duration":4,"keys":[1,2]}]}],"transitions":[]}"#,
    );
    let mut shape = ShapeInstance::new(&list);
    let id = shape.add_thread(&list, 0).unwrap();
    shape.evaluate(&list, &Transform3::IDENTITY);
    assert_eq!(shape.thread(id).unwrap().g, [0, 0, 0, 0, 77, 5]);
    assert_eq!(shape.locals(&list)[1], [0, 0, 0, 0, 77, 5]);
    assert_eq!(shape.locals(&list)[0], [0, 0, 0, 0, 0, 0]);
}

#[test]
fn h13_world_transforms_compose_parent_first() {
    // The worked example's setup line: world[1] = FromEuler(1000, 0, 0) + (0, 0, 1000) and
    // world[2] = Concat(local 2, world[1]), values from the worked example.
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    shape.add_thread(&list, WALK).unwrap();
    shape.evaluate(&list, &Transform3::IDENTITY);
    assert_eq!(
        shape.world()[1],
        tr(
            [16384, 0, -12, 16308, -13, 1581, 0, -1581, 16308],
            3,
            [0, 0, 1000]
        )
    );
    assert_eq!(
        shape.world()[2],
        tr(
            [15190, 6102, -6141, 15124, 579, 1471, 0, -1581, 16308],
            2,
            [300, -19, 1199]
        )
    );
    // world[0] is the root read handed in.
    let read = ident_t([1, 2, 3]);
    shape.evaluate(&list, &read);
    assert_eq!(shape.world()[0], read);
}

#[test]
fn h14_commit_on_completion_and_flag_drop_keeps_g() {
    let list = biped();
    let mut t = thread_on(&list, B_WALK, 256);
    t.advance(&list, 20); // walk frame 0 (G ty 150) completes
    assert_eq!(t.root, ident_t([0, 150, 0]));
    assert_eq!(t.g, [0, 0, 0, 0, 240, 0]);
    // idle has no ground movement: the flag drops, G keeps its last value (frame 1's).
    t.set_sequence(&list, B_IDLE, 0, 0);
    assert_eq!((t.ground, t.g), (false, [0, 0, 0, 0, 240, 0]));
    // Without the flag, completing frames commits nothing.
    t.advance(&list, 60);
    assert_eq!(t.root, ident_t([0, 150, 0]));
    // Uncommit mirrors commit: walk frame 0 backwards from acc 0 → frame 5 (G ty 170).
    let mut t = thread_on(&list, B_WALK, -256);
    t.advance(&list, 1);
    assert_eq!(cursor(&t), (1, 5, 1, 0, 19, 20, 1));
    assert_eq!(t.root, ident_t([0, -170, 0]));
}

#[test]
fn h15_read_and_write_use_the_truncated_partial() {
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    t.set_sequence(&list, WALK, 1, 11);
    // P = FromEuler(0, 0, 200·11/25 = 88) + (0, 140·11/25 = 61, 0). C(88) = cos_tab[6] =
    // 16383, S(88) = cos_tab[1018] = 151. Writing identity stores Inverse(P): the worked example's
    // step 1 root.
    t.write_root(&Transform3::IDENTITY);
    assert_eq!(
        t.root,
        tr(
            [16383, -151, 151, 16383, 0, 0, 0, 0, 16384],
            1,
            [-1, -61, 0]
        )
    );
    // Frame 2 at 18/30 of ty 120: P is a pure translation of 72.
    t.set_sequence(&list, WALK, 2, 18);
    t.write_root(&Transform3::IDENTITY);
    assert_eq!(t.root, ident_t([0, -72, 0]));
    assert_eq!(t.read_root(), Transform3::IDENTITY);
    // Without the ground flag read and write pass the value through.
    let list = biped();
    let mut t = thread_on(&list, B_IDLE, 0);
    let v = ident_t([5, 6, 7]);
    t.write_root(&v);
    assert_eq!((t.root, t.read_root()), (v, v));
}

#[test]
fn h15_read_then_seed_identity_reads_p_root_and_stores_inverse_p() {
    let list = example();
    let mut t = thread_on(&list, WALK, 256);
    t.set_sequence(&list, WALK, 1, 11);
    t.root = ident_t([10, 20, 30]);
    let mut u = t;
    // P as above (about Z by 88, translation (0, 61, 0)); Concat(P, root) with a kind-0 root
    // keeps P's rotation and adds the translations: (0 + 10, 61 + 20, 0 + 30).
    let read = t.read_then_seed_identity();
    assert_eq!(
        read,
        tr(
            [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
            1,
            [10, 81, 30]
        )
    );
    // The stored root is Inverse(P), as write_root(identity) stores it.
    assert_eq!(
        t.root,
        tr(
            [16383, -151, 151, 16383, 0, 0, 0, 0, 16384],
            1,
            [-1, -61, 0]
        )
    );
    // The same as the general read-then-write with identity.
    assert_eq!(u.read_then_write_root(&Transform3::IDENTITY), read);
    assert_eq!(u, t);
}

#[test]
fn h15_read_then_seed_identity_of_a_walk_adds_the_partial_translation() {
    // Biped walk frame 0: G ty 150 over 20 ticks, at 7: P moves 150·7/20 = 52.5 → 52 along Y.
    let list = biped();
    let mut t = thread_on(&list, B_WALK, 256);
    t.set_sequence(&list, B_WALK, 0, 7);
    t.root = ident_t([3, -20, 7]);
    let mut u = t;
    // Read: (3, −20 + 52, 7); stored: Inverse(P), the identity moved by (0, −52, 0).
    let read = t.read_then_seed_identity();
    assert_eq!(read, ident_t([3, 32, 7]));
    assert_eq!(t.root, ident_t([0, -52, 0]));
    assert_eq!(u.read_then_write_root(&Transform3::IDENTITY), read);
    assert_eq!(u, t);
    // A root read back from a record with the identity matrix but kind 2 keeps its kind.
    t.root = tr([16384, 0, 0, 16384, 0, 0, 0, 0, 16384], 2, [0, 0, 0]);
    let read = t.read_then_seed_identity();
    assert_eq!(
        read,
        tr([16384, 0, 0, 16384, 0, 0, 0, 0, 16384], 2, [0, 52, 0])
    );
    // −150·7/20 truncates toward zero: walking backwards, P moves −52, not −53.
    t.g = [0, 0, 0, 0, -150, 0];
    t.root = ident_t([0, 0, 0]);
    assert_eq!(t.read_then_seed_identity(), ident_t([0, -52, 0]));
    assert_eq!(t.root, ident_t([0, 52, 0]));
}

#[test]
fn h15_read_then_seed_identity_of_a_turn_in_place() {
    // Biped turn frame 0: G turns 400 about Z over 20 ticks and does not move. At 5 ticks P
    // turns 400·5/20 = 100: 100 >> 3 = 12 rounds to table entry 6 (of 4096 per turn), C = 16383,
    // S = 151 (cos and sin of 0.527°, ×16384, rounded).
    let list = biped();
    let mut t = thread_on(&list, B_TURN, 256);
    t.set_sequence(&list, B_TURN, 0, 5);
    assert_eq!(t.g, [0, 0, 400, 0, 0, 0]);
    t.root = tr([16383, 151, -151, 16383, 0, 0, 0, 0, 16384], 1, [4, -7, 0]);
    let mut u = t;
    // Concat(P, root) of two rotations about Z: m0 = q(16383·16383 + 151·−151 = 268379888)
    // = 268388080 >> 14 = 16381, m1 = q(16383·151 + 151·16383 = 4947666) = 302,
    // m2 = q(−4947666) = −4939474 >> 14 = −302, m3 = 16381; the root's translation.
    let read = t.read_then_seed_identity();
    assert_eq!(
        read,
        tr([16381, 302, -302, 16381, 0, 0, 0, 0, 16384], 1, [4, -7, 0])
    );
    // Inverse(P): the transposed turn, no translation.
    assert_eq!(
        t.root,
        tr([16383, -151, 151, 16383, 0, 0, 0, 0, 16384], 1, [0, 0, 0])
    );
    assert_eq!(u.read_then_write_root(&Transform3::IDENTITY), read);
    assert_eq!(u, t);
    // At 0 ticks P is the identity: the read is the root and the stored root the identity.
    t.set_sequence(&list, B_TURN, 1, 0);
    let root = t.root;
    assert_eq!(t.read_then_seed_identity(), root);
    assert_eq!(t.root, Transform3::IDENTITY);
    // A general root (kind 2) takes Concat's general branch, as the general read does.
    let mut t = thread_on(&list, B_TURN, 256);
    t.set_sequence(&list, B_TURN, 0, 5);
    t.root = tr([16384, 0, 0, 16384, 0, 0, 0, 0, 16384], 2, [0, 0, 0]);
    let mut u = t;
    assert_eq!(
        t.read_then_seed_identity(),
        u.read_then_write_root(&Transform3::IDENTITY)
    );
    assert_eq!(u, t);
}

#[test]
fn h14_the_commits_of_a_turn_in_place_add_up_about_z() {
    // Biped turn at rate 256 from frame 0, acc 0, root identity: a step of 20 ticks crosses
    // into frame 1 and commits G (400 about Z: 400 >> 3 = 50 rounds to entry 25, C = 16372, S = 628, cos and
    // sin of 2.197°, ×16384, rounded) onto the identity root: Concat onto a kind-0 B keeps
    // A's rotation and kind and B's translation.
    let list = biped();
    let mut t = thread_on(&list, B_TURN, 256);
    t.root = Transform3::IDENTITY;
    t.advance(&list, 20);
    assert_eq!((t.frame, t.acc), (1, 0));
    assert_eq!(
        t.root,
        tr([16372, 628, -628, 16372, 0, 0, 0, 0, 16384], 1, [0, 0, 0])
    );
    // The next crossing commits G onto that root: m0 = q(16372·16372 + 628·−628 =
    // 267648000) = 267656192 >> 14 = 16336, m1 = q(16372·628 + 628·16372 = 20563232) =
    // 1255, m2 = −1255, m3 = 16336.
    t.advance(&list, 20);
    assert_eq!(
        t.root,
        tr([16336, 1255, -1255, 16336, 0, 0, 0, 0, 16384], 1, [0, 0, 0])
    );
}

fn example_sim() -> HercSim {
    let s = Scenario::from_str(
        r#"{"engine":"herc","asset":"example.json","setup":{"threads":[{"seq":0,"rate":256}]}}"#,
        "t.json",
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/conformance/assets"
        )),
    )
    .unwrap();
    <HercSim as retroanim_core::Simulation>::load(&s).unwrap()
}

#[test]
fn h16_seed_step_read_back_and_seed_again() {
    let mut sim = example_sim();
    let line = sim
        .apply_step(1, &Step::StepMs { ms: 40 }, "steps[0]")
        .unwrap();
    // Worked example, step 1: the delta is frame 0's G (ty 100) plus 11/25 of frame 1's, composed.
    let delta = tr([16383, 151, -151, 16383, 0, 0, 0, 0, 16384], 1, [0, 161, 0]);
    assert_eq!(line.delta, Some(delta));
    assert_eq!(line.root_read, delta);
    // After the second seed the stored root is Inverse(P).
    assert_eq!(
        line.threads[0].root,
        tr(
            [16383, -151, 151, 16383, 0, 0, 0, 0, 16384],
            1,
            [-1, -61, 0]
        )
    );
    assert_eq!(
        (line.object.euler, line.object.position),
        ([0, 0, 100], [0, 161, 0])
    );
}

#[test]
fn h17_first_slot_wins_a_contested_node() {
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    let a = shape.add_thread(&list, HALT).unwrap(); // priority 5
    let b = shape.add_thread(&list, WALK).unwrap(); // priority 0 → first slot
    assert_eq!(shape.slots(), &[b, a]);
    shape.evaluate(&list, &Transform3::IDENTITY);
    // Walk frame 0 at q 0 gives key 4 for the body; halt frame 0 would give key 1.
    assert_eq!(shape.locals(&list)[1], [1000, 0, 0, 0, 0, 1000]);
}

#[test]
fn h17_at_most_ten_slots() {
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    for _ in 0..10 {
        shape.add_thread(&list, WALK).unwrap();
    }
    assert_eq!(
        shape.add_thread(&list, WALK),
        Err(ShapeError::TooManyThreads)
    );
    assert_eq!(shape.slots().len(), 10);
}

#[test]
fn h18_stable_bubble_sort_on_registration_and_after_stepping() {
    let list = biped();
    let mut shape = ShapeInstance::new(&list);
    for s in [B_IDLE, B_TWIST, B_WALK, B_PITCH, B_RUN] {
        shape.add_thread(&list, s).unwrap();
    }
    // Priorities 96, 1, 0, 2, 0: walk (2) before run (4) by registration order.
    assert_eq!(shape.slots(), &[2, 4, 1, 3, 0]);
    // A priority change does not move the thread until the next sort…
    shape
        .thread_mut(2)
        .unwrap()
        .set_sequence(&list, B_IDLE, 0, 0);
    assert_eq!(shape.slots(), &[2, 4, 1, 3, 0]);
    // …after StepAll (D4): thread 2 bubbles back but stays ahead of its equal, thread 0.
    shape.step_all(&list, 31);
    assert_eq!(shape.slots(), &[4, 1, 3, 2, 0]);
    // A step that changes no sequence keeps the order.
    shape.step_all(&list, 31);
    assert_eq!(shape.slots(), &[4, 1, 3, 2, 0]);
    // Thread 2 back on walk (0): priorities in slot order 0, 1, 2, 0, 96. Pass 1 swaps it
    // past pitch (2 > 0), pass 2 past twist (1 > 0); run's 0 is not greater, so it stays
    // behind run.
    shape
        .thread_mut(2)
        .unwrap()
        .set_sequence(&list, B_WALK, 0, 0);
    shape.step_all(&list, 31);
    assert_eq!(shape.slots(), &[4, 2, 1, 3, 0]);
}

#[test]
fn d4_sort_runs_once_after_all_threads_advanced() {
    // Thread 0 walks into a transition to halt (priority 5) while thread 1 plays halt;
    // both change in the same step, one sort afterwards decides the order.
    let list = example();
    let mut shape = ShapeInstance::new(&list);
    shape.add_thread(&list, WALK).unwrap();
    shape.add_thread(&list, HALT).unwrap();
    shape.thread_mut(0).unwrap().set_rate(&list, 256);
    shape.thread_mut(1).unwrap().set_rate(&list, 256);
    shape.thread_mut(1).unwrap().set_sequence(&list, WALK, 0, 0);
    assert_eq!(shape.slots(), &[0, 1]);
    shape.thread_mut(0).unwrap().set_sequence(&list, HALT, 0, 0);
    shape.step_all(&list, 1);
    // Priorities after the step: thread 0 halt (5), thread 1 walk (0): swapped once.
    assert_eq!(shape.slots(), &[1, 0]);
}

#[test]
fn h16_h18_the_read_slot_may_differ_from_the_seeded_one() {
    // Biped: locomotion on idle (96) behind twist (1) and pitch (2). A transition into walk
    // (0) takes slot 0 during the step; the read then returns locomotion's whole root.
    let list = biped();
    let mut shape = ShapeInstance::new(&list);
    for s in [B_IDLE, B_TWIST, B_PITCH] {
        shape.add_thread(&list, s).unwrap();
    }
    assert_eq!(shape.slots(), &[1, 2, 0]);
    let t = shape.thread_mut(0).unwrap();
    t.set_rate(&list, 256);
    t.set_sequence(&list, B_IDLE, 0, 59);
    t.request(&list, B_WALK, -1, 0); // idle f1 offers walk f0 (16 ticks, move ty 60)
    assert_eq!(t.scan_frame, 1);
    // 31 ticks: 1 completes idle frame 0, idle frame 1 is the transition frame (16 ticks,
    // commits ty 60), then walk frame 0 at 14 of 20 (G ty 150): read = 60 + 150·14/20 = 165.
    let read = shape.tick(&list, 31);
    assert_eq!(shape.slots(), &[0, 1, 2]);
    assert_eq!(read, ident_t([0, 165, 0]));
}

#[test]
fn h24_browser_exposes_the_first_slot_at_40ms() {
    let list = biped();
    let mut shape = ShapeInstance::new(&list);
    for s in [B_IDLE, B_TWIST, B_PITCH] {
        shape.add_thread(&list, s).unwrap();
    }
    // The exposed thread is slot 0: the twist thread while locomotion is on priority 96.
    assert_eq!(shape.slots()[0], 1);
    // One 40 ms playback step = SimTickDelta 81, delta 31: 31 ticks at 1×.
    shape.thread_mut(1).unwrap().set_rate(&list, 256);
    shape.tick(&list, retroanim_herc::clock::clock_for(40).anim_delta);
    assert_eq!(shape.thread(1).unwrap().acc, 31);
}

#[test]
fn h25_root_motion_accumulates_on_flat_ground() {
    let s = Scenario::from_str(
        r#"{"engine":"herc","asset":"biped.json","setup":{"threads":[{"seq":1,"rate":256}]},
            "steps":[{"op":"step_ms","ms":40},{"op":"step_ms","ms":40}]}"#,
        "t.json",
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/conformance/assets"
        )),
    )
    .unwrap();
    let lines = retroanim_herc::run(&s).unwrap();
    // Step 1: walk frame 0 (ty 150) + 11/24 of frame 1 (240·11/24 = 110) = 260.
    assert_eq!(lines[1]["object"]["position"], json!([0, 260, 0]));
    // Step 2: 13 more ticks of frame 1 (acc 24 → frame 2 at 0: 240 − 110 = 130) + 18 of
    // frame 2 (170·18/20 = 153): 260 + 130 + 153 = 543.
    assert_eq!(lines[2]["object"]["position"], json!([0, 543, 0]));
}

#[test]
fn h26_every_line_carries_the_transition_panel_fields() {
    let sim = example_sim();
    let line =
        serde_json::to_value(<HercSim as retroanim_core::Simulation>::snapshot(&sim)).unwrap();
    let th = &line["threads"][0];
    for key in [
        "seq",
        "frame",
        "next_seq",
        "next_frame",
        "acc",
        "dur",
        "target_seq",
        "target_frame",
        "target_flags",
        "scan_frame",
        "tr_seq",
        "tr_frame",
        "tr_dur",
        "tr_key",
        "flags",
        "root",
    ] {
        assert!(th.get(key).is_some(), "{key}");
    }
    assert_eq!(line["root_read"]["kind"], json!(0));
}

#[test]
fn d2_zero_duration_frames_stop_forward_and_pass_backward() {
    let list = load(include_str!("conformance/assets/edge.json"));
    // zeros: frames of 10, 0, 0, 15 ticks.
    let mut t = thread_on(&list, 0, 256);
    t.advance(&list, 12); // completes frame 0 and stops in the zero-length frame 1
    assert_eq!(cursor(&t), (0, 1, 0, 2, 0, 0, 1));
    t.advance(&list, 5); // 5 ≥ 0: frame 2 is zero too and stops again
    assert_eq!(cursor(&t), (0, 2, 0, 3, 0, 0, 1));
    t.advance(&list, 5); // frame 3 (15) at 5
    assert_eq!(cursor(&t), (0, 3, 0, 0, 5, 15, 1));
    t.set_rate(&list, -256);
    t.advance(&list, 7); // back through frames 2 and 1 (zero) into frame 0 at 10 − 2 = 8
    assert_eq!(cursor(&t), (0, 0, 0, 1, 8, 10, 1));
    // The pose fraction and P of a zero-length frame are 0 and the identity.
    t.set_sequence(&list, 0, 1, 0);
    assert_eq!(t.read_root(), t.root);
}

#[test]
fn d5_next_key_falls_back_to_the_rest_key() {
    // Edge asset: a cursor whose next sequence does not animate node 1 (as inside a
    // transition frame): node 1 blends toward its rest key (key 1).
    let list = load(include_str!("conformance/assets/edge.json"));
    let mut shape = ShapeInstance::new(&list);
    let id = shape.add_thread(&list, 2).unwrap(); // shot: nodes 0, 1, 2, 3
    let t = shape.thread_mut(id).unwrap();
    t.set_rate(&list, 256);
    // Force a cursor whose next sequence (flat: nodes 0, 3) does not animate node 1.
    t.next_seq = 3;
    t.next_frame = 0;
    t.acc = 4; // shot frame 0: dur 8 → q = (4096 + 4)/8 = 512
    shape.evaluate(&list, &Transform3::IDENTITY);
    // Node 1: key 5 [0,0,0,−30000,0,500] → rest key 1 [0,0,0,0,0,500]: d = 30000,
    // 30000·512 >> 10 = 15000 → −15000.
    assert_eq!(shape.locals(&list)[1], [0, 0, 0, -15000, 0, 500]);
    // Node 3: key 13 [0,0,8192,0,0,0] → flat f0 key 13: same index, copied.
    assert_eq!(shape.locals(&list)[3], [0, 0, 8192, 0, 0, 0]);
}

#[test]
fn d6_uncovered_nodes_take_their_rest_record() {
    let list = biped();
    let mut shape = ShapeInstance::new(&list);
    shape.add_thread(&list, B_TWIST).unwrap(); // covers nodes 0 and 2 only
    shape.evaluate(&list, &Transform3::IDENTITY);
    assert_eq!(shape.locals(&list)[1], [0, 0, 0, 0, 0, 420]); // pelvis rest
    assert_eq!(shape.locals(&list)[8], [0, 0, 0, -70, 0, -20]); // l_thigh rest
}

#[test]
fn h20_clock_in_a_step_ms_line() {
    let mut sim = example_sim();
    let line = sim
        .apply_step(1, &Step::StepMs { ms: 41 }, "steps[0]")
        .unwrap();
    let c = line.clock.unwrap();
    assert_eq!((c.elapsed_ms, c.sim_tick_delta, c.anim_delta), (41, 83, 32));
    assert_eq!(line.threads[0].acc, 12); // 32 ticks: frame 0 (20) + 12
}

#[test]
fn d7_parent_first_world_matches_the_worked_example() {
    // Worked example, step 1: walk frame 1 at 11/25; the arm (node 2) hangs from the body (node 1).
    // The oracle composes parent-first; these are its values.
    let mut sim = example_sim();
    let line = sim
        .apply_step(1, &Step::StepMs { ms: 40 }, "steps[0]")
        .unwrap();
    assert_eq!(
        line.world[1],
        tr(
            [16384, 0, 0, 16360, 0, -879, 0, 879, 16360],
            3,
            [0, 0, 1006]
        )
    );
    assert_eq!(
        line.world[2],
        tr(
            [-452, -16354, 16378, -451, 879, 24, 0, 879, 16360],
            2,
            [300, 11, 1206]
        )
    );
}

#[test]
fn d2_backward_onto_zero_length_frame_0_of_a_one_shot_holds_there() {
    // One-shot: frame 0 lasts 0 ticks, frame 1 lasts 10. Playing backward from frame 1
    // acc 3 by 10 ticks: 3 ticks use up frame 1, frame 0 has nothing to give, and a
    // one-shot has no frame before 0. DBSIM and the port loop forever; we hold at
    // frame 0 with acc 0, blending toward frame 0 itself (each pass of the backward
    // loop first makes the current frame the next one).
    let list = load(
        r#"{"nodes":[{"parent":-1,"rest":0}],"keyframes":[[0,0,0,0,0,0]],
            "sequences":[{"class":"one_shot","priority":0,"ground":false,"columns":[0],
              "frames":[{"duration":0,"keys":[0]},{"duration":10,"keys":[0]}]}],
            "transitions":[]}"#,
    );
    let mut t = thread_on(&list, 0, -256);
    t.set_sequence(&list, 0, 1, 3);
    t.advance(&list, 10);
    assert_eq!(
        (t.seq, t.frame, t.next_seq, t.next_frame, t.acc, t.dur),
        (0, 0, 0, 0, 0, 0)
    );
}
