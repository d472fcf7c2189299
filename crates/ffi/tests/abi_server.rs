//! The server loop through the C ABI: the player's server update with a requested
//! position (both of ACE's paths), `update_object`'s quantum rules, the late joiner's
//! `MovementData`, and the jump answers that let the client's jump succeed.

mod support;
use support::{ac_state as state, ac_world as world, add_creature, creature_desc, last_error};

use retroanim_ffi::ac::*;
use retroanim_ffi::ac_server::*;
use retroanim_ffi::{ra_last_error_code, RaStatus};
use std::ptr;

const WALK_FORWARD: u32 = 0x4500_0005;
const CELL: u32 = 0x7D64_0013;

fn add(w: RaAcWorld, x: f32) -> u32 {
    let mut d = creature_desc();
    d.frame.origin.x = x;
    add_creature(w, &d)
}

fn at(cell: u32, x: f32, y: f32) -> RaAcPosition {
    RaAcPosition {
        cell,
        frame: RaAcFrame {
            origin: RaVec3 { x, y, z: 0.0 },
            orientation: RaQuat {
                w: 1.0,
                ..RaQuat::default()
            },
        },
    }
}

type Update =
    unsafe extern "C" fn(RaAcWorld, u32, f64, *const RaAcPosition, u8, *mut u8) -> RaStatus;

fn update(f: Update, w: RaAcWorld, c: u32, now: f64, req: Option<RaAcPosition>) -> (RaStatus, u8) {
    let mut ok = 9;
    let p = req.as_ref().map_or(ptr::null(), |r| r as *const _);
    // SAFETY: `p` is null or valid; `ok` is writable.
    let s = unsafe { f(w, c, now, p, 1, &mut ok) };
    (s, ok)
}

#[test]
fn the_legacy_server_update_takes_a_request_in_reach_and_refuses_a_zero_gap() {
    let w = world();
    let c = add(w, 0.0);
    let o = ra_ac_update_object_server;
    // Where it stands already: a zero move over the gap since creation.
    assert_eq!(
        update(o, w, c, 100.0, Some(at(CELL, 0.0, 0.0))),
        (RaStatus::Ok, 1)
    );
    // One unit north, half a second later: taken.
    assert_eq!(
        update(o, w, c, 100.5, Some(at(CELL, 0.0, 1.0))),
        (RaStatus::Ok, 1)
    );
    let s = state(w, c);
    assert_eq!((s.position.cell, s.position.frame.origin.y), (CELL, 1.0));
    // On the ground the cached velocity is zeroed after the update.
    assert_eq!(s.velocity, RaVec3::default());
    // Two landblocks east (0x7F vs 0x7D): out of reach, nothing moves.
    assert_eq!(
        update(o, w, c, 101.0, Some(at(0x7F64_0013, 0.0, 5.0))),
        (RaStatus::Ok, 0)
    );
    assert_eq!(state(w, c).position.frame.origin.y, 1.0);
    // Its last update was at 101.0: no time has passed, a move would divide by 0.
    let (s, _) = update(o, w, c, 101.0, Some(at(CELL, 0.0, 2.0)));
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "now 101: 0 s since the creature's last update would give it a NaN or infinite cached velocity; refused"
    );
    let (s, _) = update(o, w, c, f64::NAN, None);
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(last_error(), "now NaN is NaN or infinite");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn the_new_server_update_simulates_the_gap_then_takes_the_request() {
    let w = world();
    let c = add(w, 0.0);
    let n = ra_ac_update_object_server_new;
    // Its first update: the 100 s since it was made (at clock 0) are over HugeQuantum,
    // consumed unsimulated, and the answer is false.
    assert_eq!(
        update(n, w, c, 100.0, Some(at(CELL, 0.0, 0.0))),
        (RaStatus::Ok, 0)
    );
    assert_eq!(
        update(n, w, c, 100.25, Some(at(CELL, 2.0, 3.0))),
        (RaStatus::Ok, 1)
    );
    let o = state(w, c).position.frame.origin;
    assert_eq!((o.x, o.y), (2.0, 3.0));
    // A gap over 2 s (HugeQuantum) is consumed: false, the position stays.
    assert_eq!(
        update(n, w, c, 103.0, Some(at(CELL, 9.0, 9.0))),
        (RaStatus::Ok, 0)
    );
    assert_eq!(state(w, c).position.frame.origin.x, 2.0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn update_object_runs_aces_quanta() {
    let w = world();
    let c = add(w, 0.0);
    let mut q = 9;
    // SAFETY: `q` is writable (each call below).
    unsafe {
        // The creature's first update: 100 s since it was made is over HugeQuantum.
        assert_eq!(ra_ac_update_object(w, c, 100.0, &mut q), RaStatus::Ok);
        assert_eq!(q, 0);
        // 0.25 s: two quanta of 0.1, then 0.05 (above 1/30).
        assert_eq!(ra_ac_update_object(w, c, 100.25, &mut q), RaStatus::Ok);
        assert_eq!(q, 3);
        // 0.02 s is under TickRate (1/30 s): nothing.
        assert_eq!(ra_ac_update_object(w, c, 100.27, &mut q), RaStatus::Ok);
        assert_eq!(q, 0);
        // 0.15 s: one of 0.1, then 0.05.
        assert_eq!(ra_ac_update_object(w, c, 100.40, &mut q), RaStatus::Ok);
        assert_eq!(q, 2);
        assert_eq!(
            ra_ac_update_object(w, c, f64::INFINITY, &mut q),
            RaStatus::InvalidArgument
        );
    }
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

fn late_joiner(w: RaAcWorld, c: u32) -> Vec<u8> {
    let mut n = 0;
    // SAFETY: sizing call: null buffer, capacity 0.
    let s = unsafe { ra_ac_movement_data_for_late_joiner(w, c, ptr::null_mut(), 0, &mut n) };
    assert_eq!(s, RaStatus::BufferTooSmall);
    let mut b = vec![0; n];
    // SAFETY: `b` has `n` writable bytes.
    let s = unsafe { ra_ac_movement_data_for_late_joiner(w, c, b.as_mut_ptr(), n, &mut n) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    b
}

#[test]
fn a_late_joiner_copy_walks_like_the_original() {
    let w = world();
    let a = add(w, 0.0);
    let b = add(w, 10.0);
    // SAFETY: null params mean the defaults.
    let s = unsafe { ra_ac_do_motion(w, a, WALK_FORWARD, ptr::null()) };
    assert_eq!(s, RaStatus::Ok);
    for _ in 0..4 {
        assert_eq!(ra_ac_world_tick(w, 0.05), RaStatus::Ok);
    }
    let bytes = late_joiner(w, a);
    // The counters did not move: the same bytes again.
    assert_eq!(late_joiner(w, a), bytes);
    // SAFETY: `bytes` has `len` readable bytes.
    let s = unsafe { ra_ac_apply_movement_data(w, b, bytes.as_ptr(), bytes.len()) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    assert_eq!(state(w, b).motion, WALK_FORWARD);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn with_jump_answers_the_client_jump_succeeds_and_leaves_the_ground() {
    let w = world();
    let c = add(w, 0.0);
    assert_eq!(ra_ac_world_tick(w, 0.05), RaStatus::Ok);
    // ACE's server weenie answers a stamina cost of 0: refused, GeneralMovementFailure.
    // SAFETY: a null velocity is the client's jump.
    let s = unsafe { ra_ac_jump(w, c, 1.0, ptr::null()) };
    assert_eq!(s, RaStatus::Refused);
    assert_eq!(ra_last_error_code(), 0x47);
    assert_eq!(ra_ac_set_jump_answers(w, c, 200, 0.0, 1.0), RaStatus::Ok);
    // SAFETY: as above.
    let s = unsafe { ra_ac_jump(w, c, 1.0, ptr::null()) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    assert_eq!(ra_ac_world_tick(w, 0.05), RaStatus::Ok);
    // Jump 200: height (200/1500 * 22.2 + 0.05) = 3.01, launch speed sqrt(3.01 * 19.6)
    // = 7.68 up; after 0.05 s it has climbed about 0.37.
    let z = state(w, c).position.frame.origin.z;
    assert!(z > 0.3 && z < 0.4, "z {z}");
    assert_eq!(
        ra_ac_set_jump_answers(w, c, 200, -1.0, 1.0),
        RaStatus::InvalidArgument
    );
    assert_eq!(last_error(), "burden -1 is below 0");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}
