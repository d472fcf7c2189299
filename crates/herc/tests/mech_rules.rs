//! H21–H23 and H27–H35 on the tiny mech (tests/mech/tiny.json, tiny.chassis.json), whose G
//! records are round numbers. Every expected value is worked out by hand in the comments.
//!
//! Tiny chassis: raw speeds −100 / 300, thresholds 150 / −60, stride 3 / 1000, so
//! scale = Q16Div(1200, 1000) = 78643 and the runtime values are 359 / −120 / 179 / −72.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_herc::anim_list::AnimList;
use retroanim_herc::chassis::{Chassis, ChassisRuntime};
use retroanim_herc::formats::chassis::ChassisRecord;
use retroanim_herc::gait::{gait_tick, GaitRow, GaitTick};
use retroanim_herc::mech::{turn_tent, Blocked, Mech, TorsoAxis, TorsoLimits, TwistMode};
use retroanim_herc::object::SimObject;
use retroanim_herc::thread::IN_TRANSITION;
use retroanim_herc::throttle::Throttle;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mech");

fn list() -> AnimList {
    AnimList::from_json_file(std::path::Path::new(&format!("{DIR}/tiny.json"))).unwrap()
}

fn record() -> ChassisRecord {
    let text = std::fs::read_to_string(format!("{DIR}/tiny.chassis.json")).unwrap();
    ChassisRecord::from_json_str(&text, "tiny.chassis.json").unwrap()
}

fn mech(list: &AnimList, object: SimObject) -> Mech {
    Mech::new(list, Chassis::new(record()), object, Some(2)).unwrap()
}

fn at(euler: [i16; 3], position: [i32; 3]) -> SimObject {
    SimObject { euler, position }
}

#[test]
fn h21_load_time_rescale_walker() {
    let rt = ChassisRuntime::from_record(&record());
    // (3·400 << 16) / 1000 = 78643200 / 1000 = 78643.
    assert_eq!(rt.scale, 78_643);
    assert!(rt.rescaled);
    // 300·78643 = 23592900 < 360·65536 = 23592960, so >> 16 gives 359;
    // −100·78643 = −7864300 > −120·65536 = −7864320, so the floor is −120.
    assert_eq!(rt.max_forward_speed, 359);
    assert_eq!(rt.max_reverse_speed, -120);
    // 150·78643 >> 16 = 179.99 → 179; −60·78643 >> 16 = −71.9998 → −72.
    assert_eq!(rt.walk_run_threshold, 179);
    assert_eq!(rt.reverse_walk_run_threshold, -72);
    // Not rescaled: turn rate and the raw steps.
    assert_eq!(rt.max_turn_rate, 300);
    assert_eq!(rt.speed_step, 8);
    // HUD scale from the raw forward speed: Q10(315, 300) = 94500 >> 10 = 92.
    assert_eq!(rt.hud_kmh, 92);
    // The raw record is kept untouched next to the runtime values.
    let c = Chassis::new(record());
    assert_eq!(c.raw.max_forward_speed, 300);
    assert_eq!(c.raw.hud_kmh, 0);
}

#[test]
fn h21_flyers_keep_raw_values() {
    let mut r = record();
    r.flyer = 1;
    r.hud_kmh = 265;
    let rt = ChassisRuntime::from_record(&r);
    assert!(!rt.rescaled);
    assert_eq!(rt.scale, 65_536);
    assert_eq!(rt.max_forward_speed, 300);
    assert_eq!(rt.reverse_walk_run_threshold, -60);
    assert_eq!(rt.hud_kmh, 265);
}

#[test]
fn d3_zero_stride_divisor_does_not_rescale() {
    let mut r = record();
    r.stride_divisor = 0;
    let rt = ChassisRuntime::from_record(&r);
    assert!(rt.zero_stride_divisor);
    assert!(!rt.rescaled);
    assert_eq!(rt.scale, 65_536);
    assert_eq!(rt.max_forward_speed, 300);
    // The HUD scale is still replaced for a walker.
    assert_eq!(rt.hud_kmh, 92);
}

#[test]
fn h22_offset_108_is_the_reverse_threshold() {
    let r = record();
    assert_eq!(r.rec(108), Some(-60));
    assert_eq!(
        ChassisRuntime::from_record(&r).reverse_walk_run_threshold,
        -72
    );
}

#[test]
fn h23_incremental_axis_steps_and_floors() {
    let rt = Chassis::new(record()).runtime;
    let mut t = Throttle::default();
    // −0x80: step = Q8(0x91, 0x80) = 18560 >> 8 = 72.5 → 72.
    let d = t.apply(&rt, 0, -0x80, 0);
    assert_eq!(t.throttle, 72);
    assert!(t.dirty);
    // desired = Q10(359, 72) = 25848 >> 10 = 25.
    assert_eq!(d.desired, 25);
    // +0x80: step = Q8(0x91, −0x80) = −72.5 → −73; 72 − 73 = −1 crosses zero → 0.
    t.apply(&rt, 0, 0x80, 0);
    assert_eq!(t.throttle, 0);
    // From 0 the step is taken: −73; desired = Q10(120, −73) = −8760 >> 10 = −8.6 → −9.
    let d = t.apply(&rt, 0, 0x80, 0);
    assert_eq!(t.throttle, -73);
    assert_eq!(d.desired, -9);
    // No input: step 0, nothing changes (dirty stays as it was).
    let mut idle = Throttle {
        throttle: 500,
        dirty: false,
    };
    idle.apply(&rt, 0, 0, 0);
    assert_eq!(idle.throttle, 500);
    assert!(!idle.dirty);
}

#[test]
fn h23_full_stick_clamps_at_0x400() {
    let rt = Chassis::new(record()).runtime;
    let mut t = Throttle {
        throttle: 1000,
        dirty: false,
    };
    // −0x100: step = Q8(145, 256) = 145; 1145 → 0x400. desired = Q10(359, 1024) = 359.
    let d = t.apply(&rt, 0, -0x100, 0);
    assert_eq!(t.throttle, 1024);
    assert_eq!(d.desired, 359);
    let mut t = Throttle {
        throttle: -1000,
        dirty: false,
    };
    t.apply(&rt, 0, 0x100, 0);
    assert_eq!(t.throttle, -1024);
}

#[test]
fn h23_absolute_lever_and_dead_zone() {
    let rt = Chassis::new(record()).runtime;
    let mut t = Throttle::default();
    // |0x128 − 0x100|·2 = 80 < 100: dead zone.
    t.apply(&rt, 0, 0x128, 1);
    assert_eq!(t.throttle, 0);
    assert!(t.dirty);
    // |0x164 − 0x100|·2 = 200; desired = Q10(359, 200) = 71800 >> 10 = 70.
    let d = t.apply(&rt, 0, 0x164, 1);
    assert_eq!(t.throttle, 200);
    assert_eq!(d.desired, 70);
    // Lever −1 inverts: −200; desired = Q10(120, −200) = −24000 >> 10 = −23.4 → −24.
    let d = t.apply(&rt, 0, 0x164, -1);
    assert_eq!(t.throttle, -200);
    assert_eq!(d.desired, -24);
    // |−0x100 − 0x100|·2 = 1024, not clamped.
    t.apply(&rt, 0, -0x100, 1);
    assert_eq!(t.throttle, 1024);
    // Lever +1 keeps the range [0, 0x400] when an incremental step follows? The lever zeroes
    // the axis, so no step runs: an out-of-range lever value stays unclamped.
    t.apply(&rt, 0, -0x200, 1);
    assert_eq!(t.throttle, 1536);
}

#[test]
fn h23_steering_reversal() {
    let rt = Chassis::new(record()).runtime;
    // Near the centre (|axis| < 0x3d) the turn is negated when T ≥ 0.
    let mut t = Throttle::default();
    assert_eq!(t.apply(&rt, 50, 0, 0).turn, -50);
    let mut t = Throttle {
        throttle: -10,
        dirty: false,
    };
    assert_eq!(t.apply(&rt, 50, 0, 0).turn, 50);
    // Otherwise the axis decides: negated when axis < 1.
    let mut t = Throttle::default();
    assert_eq!(t.apply(&rt, 50, 0x80, 0).turn, 50);
    let mut t = Throttle::default();
    assert_eq!(t.apply(&rt, 50, -0x80, 0).turn, -50);
}

#[test]
fn h23_speed_readout_and_hud() {
    let c = Chassis::new(record());
    // Q10(2000, 100) = 200000 >> 10 = 195.3 → 195; Q10(2000, −5) = −10000 >> 10 = −9.8 → −10.
    assert_eq!(c.speed_readout(100), 195);
    assert_eq!(c.speed_readout(-5), -10);
    // HUD: speed·92/359, truncating: 359 → 92, 100 → 25, −100 → −25.
    assert_eq!(c.hud_kmh(359), 92);
    assert_eq!(c.hud_kmh(100), 25);
    assert_eq!(c.hud_kmh(-100), -25);
}

#[test]
fn h23_dispatch_reaches_the_controller() {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    // −0x80 from rest: T = 72, desired 25; the controller steps speed by rec 6 = 8.
    m.apply_throttle(&list, 0, -0x80, 0);
    assert_eq!(m.throttle.throttle, 72);
    assert_eq!(m.last_dispatch.desired, 25);
    assert_eq!(m.speed, 8);
}

#[test]
fn h27_three_threads_registered_in_order() {
    let list = list();
    let m = mech(&list, SimObject::default());
    assert_eq!(m.loco, Some(0));
    assert_eq!(m.twist_thread, Some(1));
    assert_eq!(m.pitch_thread, None);
    let th = m.shape.threads();
    assert_eq!((th[0].seq, th[0].frame, th[0].rate), (0, 0, 0));
    assert_eq!((th[1].seq, th[1].frame, th[1].rate), (6, 0, 0));
    // Step-off priority 96 sorts behind twist (1).
    assert_eq!(m.shape.slots(), &[1, 0]);
    // A flyer is refused.
    let mut r = record();
    r.flyer = 1;
    assert!(Mech::new(&list, Chassis::new(r), SimObject::default(), None).is_err());
}

/// A machine walking: loco cut to walk frame 0, animRate 256.
fn walking(list: &AnimList, object: SimObject) -> Mech {
    let mut m = mech(list, object);
    m.shape.thread_mut(0).unwrap().set_sequence(list, 1, 0, 0);
    m.anim_rate = 256;
    m
}

#[test]
fn h28_h29_walk_step_moves_the_machine() {
    let list = list();
    let mut m = walking(&list, at([0, 0, 0x4000], [1000, 0, 0]));
    m.env.terrain_height = 50;
    let read = m.movement_tick(&list, 31);
    // Walk frame 0 (31 ticks) completes: G = (0, 100, 0) committed, read at acc 0.
    assert_eq!(read.t, [0, 100, 0]);
    assert_eq!(read.kind, 0);
    // World[0] is the read (H28).
    assert_eq!(m.shape.world()[0], read);
    // Heading 90°: x = qq(100·−16384) + 1000 = 900; z = terrain 50 + ride 1200.
    assert_eq!(m.object.position, [900, 0, 1250]);
    assert_eq!(m.object.euler, [0, 0, 0x4000]);
    // Locomotion (priority 0) now sorts first.
    assert_eq!(m.shape.slots(), &[0, 1]);
    assert_eq!(m.shape.thread(0).unwrap().frame, 1);
    assert_eq!(m.blocked, Blocked::No);
}

#[test]
fn h29_turn_step_adds_the_euler() {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    m.shape.thread_mut(0).unwrap().set_sequence(&list, 3, 0, 0);
    m.anim_rate = 256;
    m.movement_tick(&list, 31);
    // Turn G = yaw 1820, committed whole. C(1820): k = 113 + 1 = 114, cos(0.174874 rad)
    // = 0.9847485 → 16134; S(1820) = C(−14564): k = |−911 + 1| = 910, sin(0.174869)
    // = 0.17400 → 2850.9 → 2851. ToEuler: atan2(2851, 16134): i = (2851·512 + 8067)/16134 = 90;
    // atanCorr[90] = floor(atan(90/512)·2607.59 + 0.5) − 360 = 454 − 360 = 94;
    // a = 360 + 94 = 454 → 454 << 2 = 1816.
    assert_eq!(m.object.euler[2], 1816);
    assert_eq!(m.object.position, [0, 0, 1200]);
}

#[test]
fn h30_blocked_step_bounces() {
    let list = list();
    let mut m = walking(&list, at([0, 0, 0x4000], [1000, 0, 0]));
    m.speed = 50;
    m.throttle.throttle = 300;
    m.env.refuse_moves = 1;
    let read = m.movement_tick(&list, 31);
    // Restored, then speed = clamp(−50, −72, 359) = −50 and the step plays backward:
    // walk frame 0 → previous = frame 1, its G uncommitted: root = (0, −100, 0).
    assert_eq!(m.blocked, Blocked::Bounced);
    assert_eq!(m.speed, -50);
    assert_eq!(m.anim_rate, -256);
    assert_eq!(m.throttle.throttle, 0);
    assert!(m.throttle.dirty);
    assert_eq!(read.t, [0, -100, 0]);
    // From the saved (1000, 0, 0): x = qq(−100·−16384) + 1000 = 1100; no terrain clamp.
    assert_eq!(m.object.position, [1100, 0, 0]);
    let th = m.shape.thread(0).unwrap();
    assert_eq!((th.seq, th.frame, th.acc, th.rate), (1, 1, 0, -256));
}

#[test]
fn h30_bounce_clamps_to_rec108() {
    let list = list();
    let mut m = walking(&list, SimObject::default());
    m.speed = 200;
    m.env.refuse_moves = 1;
    m.movement_tick(&list, 31);
    // clamp(−200, −72, 359) = −72 (the runtime rec 108).
    assert_eq!(m.speed, -72);
}

#[test]
fn h30_refused_twice_stops() {
    let list = list();
    let mut m = walking(&list, at([0, 0, 0x4000], [1000, 0, 0]));
    m.speed = 50;
    m.env.refuse_moves = 2;
    m.movement_tick(&list, 31);
    assert_eq!(m.blocked, Blocked::Stopped);
    assert_eq!(m.speed, 0);
    assert_eq!(m.object.position, [1000, 0, 0]);
    let th = m.shape.thread(0).unwrap();
    // The save: walk frame 0, acc 0, rate 256.
    assert_eq!((th.seq, th.frame, th.acc, th.rate), (1, 0, 0, 256));
    assert_eq!(m.env.refuse_moves, 0);
}

#[test]
fn h30_refused_in_transition_cuts_to_step_off() {
    let list = list();
    let mut m = walking(&list, at([0, 0, 0], [10, 20, 30]));
    m.speed = 50;
    m.shape.thread_mut(0).unwrap().flags |= IN_TRANSITION;
    m.env.refuse_moves = 1;
    m.movement_tick(&list, 31);
    assert_eq!(m.blocked, Blocked::StepOff);
    assert_eq!(m.speed, 50);
    assert_eq!(m.object.position, [10, 20, 30]);
    let th = m.shape.thread(0).unwrap();
    assert_eq!((th.seq, th.frame, th.acc), (0, 0, 0));
}

fn twist_limits() -> TorsoLimits {
    TorsoLimits {
        max_rate: 1000,
        accel: 1000,
        lo: -14000,
        hi: 14000,
    }
}

#[test]
fn h31_torso_accelerates_then_stops_dead() {
    let lim = twist_limits();
    let mut a = TorsoAxis::default();
    // target = Q8(256, 1000) = 1000; step = IntegrateRateOverTick(81, 1000) = 316.
    // Tick 1: rate 316, mean 158 → +49 (12798 >> 8).
    a.tick(&lim, 0x100, None, 81);
    assert_eq!((a.rate, a.angle), (316, 49));
    // Tick 2: rate 632, mean 474 → +149 (38394 >> 8) = 198.
    a.tick(&lim, 0x100, None, 81);
    assert_eq!((a.rate, a.angle), (632, 198));
    // Tick 3: rate 948, mean 790 → +249 = 447.
    a.tick(&lim, 0x100, None, 81);
    assert_eq!((a.rate, a.angle), (948, 447));
    // Tick 4: 948 + 316 ≥ 1000 → 1000; mean 974 → +308 = 755.
    a.tick(&lim, 0x100, None, 81);
    assert_eq!((a.rate, a.angle), (1000, 755));
    // Tick 5: |rate| = |target|: rate = mean = 1000 → +316 = 1071.
    a.tick(&lim, 0x100, None, 81);
    assert_eq!((a.rate, a.angle), (1000, 1071));
    // Releasing the stick stops the torso dead.
    a.tick(&lim, 0, None, 81);
    assert_eq!((a.rate, a.angle), (0, 1071));
    // Seek position (u16 angle) >> 2 = 267.
    assert_eq!(a.seek_pos(), 267);
}

#[test]
fn h31_limits_snap_and_centring() {
    let lim = twist_limits();
    let mut a = TorsoAxis {
        rate: 1000,
        angle: 13990,
    };
    a.tick(&lim, 0x100, None, 81);
    assert_eq!(a.angle, 14000);
    // Snap: from −30 the step of +49 crosses 0 → angle 0, rate 0.
    let mut a = TorsoAxis {
        rate: 0,
        angle: -30,
    };
    a.tick(&lim, 0x100, Some(0), 81);
    assert_eq!((a.rate, a.angle), (0, 0));
    // Without snap it just moves.
    let mut a = TorsoAxis {
        rate: 0,
        angle: -30,
    };
    a.tick(&lim, 0x100, None, 81);
    assert_eq!(a.angle, 19);
    // Centring axis: −clamp(Q10(250, 100) = 24, ±256) = −24; for 2000: Q10 = 488 → −256.
    assert_eq!(
        TorsoAxis {
            rate: 0,
            angle: 100
        }
        .centring_axis(),
        -24
    );
    assert_eq!(
        TorsoAxis {
            rate: 0,
            angle: 2000
        }
        .centring_axis(),
        -256
    );
    assert_eq!(
        TorsoAxis {
            rate: 0,
            angle: -2000
        }
        .centring_axis(),
        256
    );
    // (u16)−1 >> 2 = 16383.
    assert_eq!(TorsoAxis { rate: 0, angle: -1 }.seek_pos(), 16383);
}

#[test]
fn h31_torso_tick_seeks_the_twist_thread() {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    for _ in 0..5 {
        m.torso_tick(&list, 0x100, TwistMode::Stick, 0x100, 81);
    }
    assert_eq!(m.twist.angle, 1071);
    // Twist total 256 ticks: Q14(267, 255) = 68085 >> 14 = 4 → frame 0, acc 4.
    let th = m.shape.thread(1).unwrap();
    assert_eq!((th.seq, th.frame, th.acc), (6, 0, 4));
    // Pitch (no thread on this chassis) still integrates: rate 800 max, step
    // IntegrateRateOverTick(81, 800) = 253: tick 1 rate 253, mean 126 → +39.
    let mut m = mech(&list, SimObject::default());
    m.torso_tick(&list, 0, TwistMode::Stick, 0x100, 81);
    assert_eq!((m.pitch.rate, m.pitch.angle), (253, 39));
    // Angle −1 seeks 16383: Q14(16383, 255) = 254 → frame 3, acc 62.
    let mut m = mech(&list, SimObject::default());
    m.twist.angle = -1;
    m.torso_tick(&list, 0, TwistMode::Stick, 0, 81);
    let th = m.shape.thread(1).unwrap();
    assert_eq!((th.frame, th.acc), (3, 62));
}

#[test]
fn h32_cockpit_eye_rides_the_camera_node() {
    let list = list();
    let m = mech(&list, at([0, 0, 0x4000], [1000, 0, 1200]));
    // world[2] = cockpit (0, 100, 500) under body (0, 0, 1000): translation (0, 100, 1500).
    // Eye (0, 200, 300) in that frame → (0, 300, 1800).
    let (local, world) = m.eye().unwrap();
    assert_eq!(local, [0, 300, 1800]);
    // Heading 90°: x = qq(300·−16384) + 1000 = 700.
    assert_eq!(world, [700, 0, 3000]);
}

#[test]
fn h33_going_down_requests_death_then_collapses() {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    m.env.immobilised = true;
    m.locomotion_tick(&list, 100, 300);
    let th = *m.shape.thread(0).unwrap();
    assert_eq!(m.last_gait, Some(GaitRow::GoingDown));
    assert_eq!(th.target_seq, 4);
    // Idle frame 0 offers the death transition (pool entry 2), searched from next_frame 0.
    assert_eq!(th.scan_frame, 0);
    assert_eq!(m.anim_rate, 100);
    assert_eq!(m.speed, 0);
    // Playing death: rate 0x78; at its last frame (frame = next_frame) it has collapsed.
    m.shape.thread_mut(0).unwrap().set_sequence(&list, 4, 0, 0);
    m.locomotion_tick(&list, 0, 0);
    assert_eq!(m.anim_rate, 0x78);
    assert!(!m.collapsed);
    m.shape.thread_mut(0).unwrap().set_sequence(&list, 4, 1, 0);
    m.locomotion_tick(&list, 0, 0);
    assert!(m.collapsed);
}

#[test]
fn d11_going_down_from_reverse_step_off() {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    m.shape.thread_mut(0).unwrap().set_sequence(&list, 5, 0, 0);
    m.env.immobilised = true;
    m.locomotion_tick(&list, 0, 0);
    let th = m.shape.thread(0).unwrap();
    assert_eq!((th.seq, th.target_seq), (0, 4));
}

#[test]
fn h33_turning_in_place_wins_over_going_down() {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    m.shape.thread_mut(0).unwrap().set_sequence(&list, 3, 0, 0);
    m.env.immobilised = true;
    m.locomotion_tick(&list, 0x80, 0);
    assert_ne!(m.last_gait, Some(GaitRow::GoingDown));
    assert_eq!(m.shape.thread(0).unwrap().target_seq, 0);
}

#[test]
fn h34_desired_clamp_and_speed_step() {
    let list = list();
    let mut m = walking(&list, SimObject::default());
    m.env.slope = 50;
    m.locomotion_tick(&list, 0, 340);
    // 340 + 50 = 390 → 359; speed moves one rec 6 step of 8.
    assert_eq!(m.speed, 8);
    let mut m = walking(&list, SimObject::default());
    m.speed = -118;
    m.locomotion_tick(&list, 0, -300);
    // −300 → −120: −118 − 8 = −126 ≤ −120 → −120.
    assert_eq!(m.speed, -120);
}

#[test]
fn h34_turn_tent_values() {
    // T = 300, maxFwd 359: span 314, h = 157.
    // s = 100: a = 55 ≤ h → 300·(55 + 157)/314 = 63600/314 = 202.
    assert_eq!(turn_tent(300, 359, 100, false), 202);
    // s = 300: a = 255 > h → 300 − 300·98/314 = 300 − 93 = 207.
    assert_eq!(turn_tent(300, 359, 300, false), 207);
    // s = 45: 300·157/314 = 150; s = 359: 300 − 300·157/314 = 150.
    assert_eq!(turn_tent(300, 359, 45, false), 150);
    assert_eq!(turn_tent(300, 359, 359, false), 150);
    // Speeds past maxFwd are treated as maxFwd.
    assert_eq!(turn_tent(300, 359, 1000, false), 150);
    // Below 45, or held: 0.
    assert_eq!(turn_tent(300, 359, 44, false), 0);
    assert_eq!(turn_tent(300, 359, 100, true), 0);
}

#[test]
fn d10_turn_tent_with_no_half_span_is_zero() {
    // maxFwd 46: span 1, h = 0.
    assert_eq!(turn_tent(300, 46, 46, false), 0);
}

#[test]
fn h34_controller_turns_the_heading() {
    let list = list();
    let mut m = walking(&list, SimObject::default());
    m.speed = 100;
    m.anim_rate = 100;
    m.locomotion_tick(&list, 256, 359);
    // S = 108, rising on walk: animRate 108. Tent: a = 63 → 300·220/314 = 210;
    // Q10(1600, 210) = 328; Q8(328, 256) = 328; turnRate = MoveToward(0, 328, 20) = 20.
    assert_eq!(m.speed, 108);
    assert_eq!(m.anim_rate, 108);
    assert_eq!(m.turn_rate, 20);
    assert_eq!(m.object.euler[2], 20);
    m.locomotion_tick(&list, 256, 359);
    assert_eq!(m.turn_rate, 40);
    assert_eq!(m.object.euler[2], 60);
}

#[test]
fn h34_crawl_lifts_rate_and_tent() {
    let list = list();
    let mut m = walking(&list, SimObject::default());
    m.anim_rate = 0;
    m.locomotion_tick(&list, 256, 20);
    // S = 8 → animRate 8 → crawl lifts it to 60; the tent uses s = 45: base 150;
    // Q10(1600, 150) = 234 → turnRate = 20.
    assert_eq!(m.speed, 8);
    assert_eq!(m.anim_rate, 60);
    assert_eq!(m.turn_rate, 20);
    // Reverse crawl keeps the sign.
    let mut m = walking(&list, SimObject::default());
    m.locomotion_tick(&list, 0, -20);
    assert_eq!((m.speed, m.anim_rate), (-8, -60));
}

/// Run the gait machine once on the tiny mech's locomotion thread, which plays `seq`.
fn gait(seq: i16, p: i16, s: i16, steer: i16, anim_rate: i16) -> (GaitTick, i16, i16) {
    let list = list();
    let mut m = mech(&list, SimObject::default());
    let th = m.shape.thread_mut(0).unwrap();
    th.set_sequence(&list, seq, 0, 0);
    let g = gait_tick(
        &list,
        th,
        &m.seqs,
        179,
        -72,
        false,
        GaitTick {
            p,
            s,
            steer,
            anim_rate,
            hold_turn: false,
            row: GaitRow::EqualOther,
            collapsed: false,
        },
    );
    (g, th.seq, th.target_seq)
}

#[test]
fn h35_rising_from_step_off_cuts_and_requests_walk() {
    let (g, seq, target) = gait(0, 0, 8, 0, 0);
    assert_eq!(g.row, GaitRow::RisingStepOff);
    assert_eq!((g.s, g.anim_rate, g.hold_turn), (8, 60, true));
    assert_eq!((seq, target), (0, 1));
    // Reverse: cut the reverse step-off; rate min(S, −60).
    let (g, seq, target) = gait(0, 0, -8, 0, 0);
    assert_eq!((g.anim_rate, seq, target), (-60, 5, 1));
    // S is clamped to ±thr.
    let (g, _, _) = gait(0, 0, 300, 0, 0);
    assert_eq!((g.s, g.anim_rate), (179, 179));
}

#[test]
fn h35_rising_walk_requests_run_past_threshold() {
    let (g, seq, target) = gait(1, 179, 187, 0, 179);
    assert_eq!(g.row, GaitRow::RisingWalk);
    assert_eq!((g.anim_rate, seq, target), (187, 1, 2));
    let (g, _, target) = gait(1, 100, 108, 0, 100);
    assert_eq!((g.anim_rate, target), (108, -1));
}

#[test]
fn h35_falling_run_pins_the_threshold() {
    let (g, _, target) = gait(2, 180, 172, 0, 180);
    assert_eq!(g.row, GaitRow::FallingRunUnderThreshold);
    assert_eq!((g.s, g.anim_rate, target), (179, 179, 1));
    // Reversing out of a run: P < 1 pins at thrRev (H22).
    let (g, _, _) = gait(2, -80, -70, 0, -80);
    assert_eq!((g.s, g.anim_rate), (-72, -72));
    let (g, _, target) = gait(2, 300, 292, 0, 300);
    assert_eq!((g.row, g.anim_rate, target), (GaitRow::FallingRun, 292, -1));
}

#[test]
fn h35_falling_walk_to_zero_requests_a_stop() {
    let (g, _, target) = gait(1, 8, 0, 0, 8);
    assert_eq!(g.row, GaitRow::FallingWalkToStop);
    assert_eq!((g.anim_rate, g.hold_turn, target), (100, true, 0));
    let (g, _, target) = gait(1, -8, 0, 0, -8);
    assert_eq!((g.anim_rate, target), (-100, 5));
    let (g, _, _) = gait(1, 50, 42, 0, 50);
    assert_eq!((g.row, g.anim_rate), (GaitRow::FallingWalk, 42));
}

#[test]
fn h35_standing_steer_starts_and_ends_a_turn() {
    // Step-off with |steer| ≥ 0x33: cut, request T, ±100.
    let (g, seq, target) = gait(0, 0, 0, 0x80, 0);
    assert_eq!(g.row, GaitRow::EqualStartTurn);
    assert_eq!((g.anim_rate, seq, target), (100, 0, 3));
    let (g, seq, target) = gait(0, 0, 0, -0x80, 0);
    assert_eq!((g.anim_rate, seq, target), (-100, 5, 3));
    // Weak steer on the step-off: unchanged.
    let (g, _, _) = gait(0, 0, 0, 0x32, 77);
    assert_eq!((g.row, g.anim_rate), (GaitRow::EqualOther, 77));
    // Turning: Q10(350, 128) = 43.75 → 43; Q10(350, −128) = −44.
    let (g, _, _) = gait(3, 0, 0, 0x80, 0);
    assert_eq!((g.row, g.anim_rate), (GaitRow::EqualTurning, 43));
    let (g, _, _) = gait(3, 0, 0, -0x80, 0);
    assert_eq!(g.anim_rate, -44);
    // Releasing the steer ends the turn: request SF; ±100 by the current rate's sign.
    let (g, _, target) = gait(3, 0, 0, 0, -43);
    assert_eq!(
        (g.row, g.anim_rate, target),
        (GaitRow::EqualEndTurn, -100, 0)
    );
}

#[test]
fn h35_checks_run_before_the_table() {
    // 1. Turning with S ≠ 0: S and steer zeroed (then falling on "other": unchanged).
    let (g, _, _) = gait(3, 0, 8, 0x80, 5);
    assert_eq!((g.s, g.steer), (0, 0));
    // 2. Inside a transition frame S = P and the table is skipped.
    let list = list();
    let mut m = mech(&list, SimObject::default());
    let th = m.shape.thread_mut(0).unwrap();
    th.set_sequence(&list, 1, 0, 0);
    th.next_seq = 2;
    let g = gait_tick(
        &list,
        th,
        &m.seqs,
        179,
        -72,
        false,
        GaitTick {
            p: 100,
            s: 108,
            steer: 0,
            anim_rate: 100,
            hold_turn: false,
            row: GaitRow::EqualOther,
            collapsed: false,
        },
    );
    assert_eq!((g.row, g.s, g.anim_rate), (GaitRow::InTransition, 100, 100));
}
