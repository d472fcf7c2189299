//! Events and length queries of the C ABI: a wave raises its two hooks, its
//! AnimationDone and its MotionDone in that order; a move-to ends with a MoveComplete;
//! sticky and constraint changes are reported; a short buffer drains nothing; the
//! lengths of a cycle, a link and an action are what the engine takes to play them.
//! Expected values come from the sample records (`retroanim inspect`): the Ready and
//! WalkForward cycles have 30 frames, the Ready→WalkForward link 6, the Wave link 24
//! with hooks on frames 8 (SoundTweaked, sound 0x0A000020) and 16 (DefaultScript), all
//! at 30 frames a second.

mod support;
use support::{ac_state as state, ac_world as world, add_creature, creature_desc, last_error};

use retroanim_ffi::ac::*;
use retroanim_ffi::ac_events::*;
use retroanim_ffi::RaStatus;
use std::ptr;

const READY: u32 = 0x4100_0003;
const WALK_FORWARD: u32 = 0x4500_0005;
const WAVE: u32 = 0x1300_0087;
const NON_COMBAT: u32 = 0x8000_003D;
const WAVE_LINK: u32 = 0x0300_0120;
const WALK_CYCLE: u32 = 0x0300_0102;
const READY_CYCLE: u32 = 0x0300_0101;

fn add(w: RaAcWorld, y: f32) -> u32 {
    let mut d = creature_desc();
    d.frame.origin.y = y;
    d.radius = 0.5;
    add_creature(w, &d)
}

fn do_motion(w: RaAcWorld, c: u32, m: u32) {
    // SAFETY: null params mean the defaults.
    let s = unsafe { ra_ac_do_motion(w, c, m, ptr::null()) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
}

/// Drain the world's events (sized first).
fn drain(w: RaAcWorld) -> Vec<RaAcEvent> {
    let mut n = 0;
    // SAFETY: `n` is writable; a null array with capacity 0.
    let s = unsafe { ra_ac_world_events(w, ptr::null_mut(), 0, &mut n) };
    if n == 0 {
        assert_eq!(s, RaStatus::Ok);
        return Vec::new();
    }
    assert_eq!(s, RaStatus::BufferTooSmall);
    let mut v = vec![RaAcEvent::default(); n];
    let mut m = 0;
    // SAFETY: `v` has `n` writable entries.
    let s = unsafe { ra_ac_world_events(w, v.as_mut_ptr(), v.len(), &mut m) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    assert_eq!(m, n);
    v
}

fn ev(
    creature: u32,
    id: u32,
    kind: RaAcEventKind,
    a: u32,
    b: u32,
    frame: i32,
    hook: u32,
) -> RaAcEvent {
    RaAcEvent {
        creature,
        id,
        kind: kind as u32,
        a,
        b,
        frame,
        hook,
    }
}

#[test]
fn a_wave_raises_its_hooks_then_animation_done_then_motion_done_in_order() {
    let w = world();
    let c = add(w, 0.0);
    assert_eq!(ra_ac_world_set_events(w, 1), RaStatus::Ok);
    do_motion(w, c, WAVE);
    for _ in 0..30 {
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    }
    let got = drain(w);
    // The first tick first completes the default state the creature was made in (its
    // style, then its Ready substate), as every new creature's first tick does.
    let expected = vec![
        ev(c, 1, RaAcEventKind::MotionDone, NON_COMBAT, 1, 0, 0),
        ev(c, 1, RaAcEventKind::MotionDone, READY, 1, 0, 0),
        ev(c, 1, RaAcEventKind::Hook, 21, WAVE_LINK, 8, 0),
        ev(c, 1, RaAcEventKind::Hook, 17, WAVE_LINK, 16, 0),
        ev(c, 1, RaAcEventKind::Hook, 4, 0, -1, u32::MAX),
        ev(c, 1, RaAcEventKind::MotionDone, WAVE, 1, 0, 0),
    ];
    assert_eq!(got, expected);
    // Drained: a second call finds nothing.
    assert!(drain(w).is_empty());

    // The SoundTweaked hook's payload starts with its sound id, little-endian.
    let mut n = 0;
    let mut buf = [0u8; 64];
    // SAFETY: `buf` has 64 writable bytes, `n` is writable.
    let s = unsafe { ra_ac_hook_payload(w, c, WAVE_LINK, 8, 0, buf.as_mut_ptr(), 64, &mut n) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    assert_eq!(n, 16);
    assert_eq!(&buf[..4], &[0x20, 0x00, 0x00, 0x0a]);
    // SAFETY: as above.
    let s = unsafe { ra_ac_hook_payload(w, c, WAVE_LINK, 8, 1, buf.as_mut_ptr(), 64, &mut n) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "frame 8 of animation 0x03000120 has no hook 1 (it has 1)"
    );
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn events_are_off_by_default_and_a_short_buffer_drains_nothing() {
    let w = world();
    let c = add(w, 0.0);
    do_motion(w, c, WAVE);
    for _ in 0..30 {
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    }
    assert!(drain(w).is_empty());

    assert_eq!(ra_ac_world_set_events(w, 1), RaStatus::Ok);
    do_motion(w, c, WAVE);
    for _ in 0..30 {
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    }
    let mut two = [RaAcEvent::default(); 2];
    let mut n = 0;
    // SAFETY: `two` has 2 writable entries.
    let s = unsafe { ra_ac_world_events(w, two.as_mut_ptr(), 2, &mut n) };
    assert_eq!(s, RaStatus::BufferTooSmall);
    assert_eq!(n, 4);
    assert_eq!(two, [RaAcEvent::default(); 2]);
    assert_eq!(drain(w).len(), 4);

    assert_eq!(ra_ac_world_set_events(w, 2), RaStatus::InvalidArgument);
    assert_eq!(last_error(), "on: 2 (expected 0 or 1)");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn move_to_ends_with_move_complete_and_sticky_and_constraint_changes_are_reported() {
    let w = world();
    assert_eq!(ra_ac_world_set_events(w, 1), RaStatus::Ok);
    let a = add(w, 0.0);
    let b = add(w, 3.0);
    // SAFETY: null params mean the defaults.
    let s = unsafe { ra_ac_move_to_object(w, a, 2, ptr::null()) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    let mut done = None;
    for t in 0..200 {
        assert_eq!(ra_ac_world_tick(w, 0.05), RaStatus::Ok);
        let got = drain(w);
        if let Some(e) = got
            .iter()
            .find(|e| e.kind == RaAcEventKind::MoveComplete as u32)
        {
            done = Some((t, *e));
            break;
        }
    }
    let (_, e) = done.expect("the move ended");
    assert_eq!((e.creature, e.id, e.a), (a, 1, 0));

    assert_eq!(ra_ac_stick_to(w, a, 2), RaStatus::Ok);
    assert_eq!(ra_ac_unstick(w, a), RaStatus::Ok);
    let f = RaAcFrame {
        origin: RaVec3::default(),
        orientation: RaQuat {
            w: 1.0,
            ..RaQuat::default()
        },
    };
    // SAFETY: `f` is valid.
    let s = unsafe { ra_ac_constrain_to(w, b, &f, 1.0, 2.0) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(ra_ac_unconstrain(w, b), RaStatus::Ok);
    assert_eq!(ra_ac_unconstrain(w, b), RaStatus::Ok);
    let got: Vec<(u32, u32, u32)> = drain(w).iter().map(|e| (e.creature, e.kind, e.a)).collect();
    assert_eq!(
        got,
        [
            (a, RaAcEventKind::Stuck as u32, 2),
            (a, RaAcEventKind::Unstuck as u32, 2),
            (b, RaAcEventKind::Constrained as u32, 0),
            (b, RaAcEventKind::Unconstrained as u32, 0),
        ]
    );
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

fn length(f: impl FnOnce(*mut f32) -> RaStatus) -> f32 {
    let mut v = f32::NAN;
    let s = f(&mut v);
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    v
}

#[test]
fn lengths_of_a_cycle_a_link_and_an_action_come_from_the_frame_counts() {
    let w = world();
    let c = add(w, 0.0);
    let cycle = |m, s| {
        length(|o| {
            // SAFETY: `o` is writable.
            unsafe { ra_ac_cycle_length(w, c, NON_COMBAT, m, s, o) }
        })
    };
    // 30 frames at 30 a second; at twice the speed, half; no such cycle, 0.
    assert_eq!(cycle(WALK_FORWARD, 1.0), 1.0);
    assert_eq!(cycle(WALK_FORWARD, 2.0), 0.5);
    assert_eq!(cycle(0x4100_0099, 1.0), 0.0);
    let link = length(|o| {
        // SAFETY: `o` is writable.
        unsafe { ra_ac_link_length(w, c, NON_COMBAT, READY, WALK_FORWARD, 1.0, o) }
    });
    // 6 frames.
    assert_eq!(link, 0.2);
    let wave = length(|o| {
        // SAFETY: `o` is writable.
        unsafe { ra_ac_animation_length(w, c, NON_COMBAT, WAVE, 1.0, o) }
    });
    // 24 frames.
    assert_eq!(wave, 0.8);
    let mut v = 0.0;
    // SAFETY: `v` is writable.
    let s = unsafe { ra_ac_cycle_length(w, c, NON_COMBAT, WALK_FORWARD, 0.0, &mut v) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(last_error(), "speed 0: nothing plays at speed 0");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

const Q: f64 = 0.01;

/// Tick in steps of `Q` until `done` says so; the seconds that took.
fn play_until(w: RaAcWorld, mut done: impl FnMut() -> bool) -> f32 {
    for k in 1..=500 {
        assert_eq!(ra_ac_world_tick(w, Q), RaStatus::Ok);
        if done() {
            return (k as f64 * Q) as f32;
        }
    }
    panic!("never ended");
}

/// Each length, played to its end, ends within one tick of it.
#[test]
fn each_length_played_to_its_end_ends_within_one_tick() {
    let w = world();
    assert_eq!(ra_ac_world_set_events(w, 1), RaStatus::Ok);
    let c = add(w, 0.0);
    let mut len = 0.0;

    // The Ready cycle: its frame number wraps after one pass.
    // SAFETY: `len` is writable.
    let s = unsafe { ra_ac_cycle_length(w, c, NON_COMBAT, READY, 1.0, &mut len) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(state(w, c).animation, READY_CYCLE);
    let mut last = state(w, c).frame_number;
    let t = play_until(w, || {
        let f = state(w, c).frame_number;
        let wrapped = f < last;
        last = f;
        wrapped
    });
    assert!((t - len).abs() <= Q as f32 + 1e-4, "cycle {t} vs {len}");

    // The Ready→WalkForward link: the walk cycle starts after it.
    // SAFETY: `len` is writable.
    let s = unsafe { ra_ac_link_length(w, c, NON_COMBAT, READY, WALK_FORWARD, 1.0, &mut len) };
    assert_eq!(s, RaStatus::Ok);
    do_motion(w, c, WALK_FORWARD);
    let t = play_until(w, || state(w, c).animation == WALK_CYCLE);
    assert!((t - len).abs() <= Q as f32 + 1e-4, "link {t} vs {len}");

    // SAFETY: null params mean the defaults.
    let s = unsafe { ra_ac_stop_motion(w, c, WALK_FORWARD, ptr::null()) };
    assert_eq!(s, RaStatus::Ok);
    play_until(w, || state(w, c).animation == READY_CYCLE);
    drain(w);

    // The wave: its MotionDone comes when its link has played.
    // SAFETY: `len` is writable.
    let s = unsafe { ra_ac_animation_length(w, c, NON_COMBAT, WAVE, 1.0, &mut len) };
    assert_eq!(s, RaStatus::Ok);
    do_motion(w, c, WAVE);
    let t = play_until(w, || {
        drain(w)
            .iter()
            .any(|e| e.kind == RaAcEventKind::MotionDone as u32 && e.a == WAVE)
    });
    assert!((t - len).abs() <= Q as f32 + 1e-4, "wave {t} vs {len}");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}
