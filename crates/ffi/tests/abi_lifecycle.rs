//! Creatures leaving a world: removed (their index retired, never reused) or moved to
//! another world with their whole state, which then moves on bit for bit like a twin
//! that never moved.

mod support;
use support::{ac_world, last_error};

use retroanim_ffi::ac::*;
use retroanim_ffi::RaStatus;
use std::ptr;

const HUMANOID_TABLE: u32 = 0x0900_0001;
const WALK_FORWARD: u32 = 0x4500_0005;

/// Add a creature with id `id` at (x, 0, 0); returns its index.
fn add(w: RaAcWorld, id: u32, x: f32) -> u32 {
    let mut d = RaAcCreatureDesc {
        cell: 0,
        frame: RaAcFrame::default(),
        run_rate: 0.0,
        creature_weenie: 0,
        airborne: 0,
        outside_cell: 0,
        id: 0,
        radius: 0.0,
        height: 0.0,
    };
    let mut index = u32::MAX;
    // SAFETY: writable out-parameters and a valid description.
    unsafe {
        assert_eq!(ra_ac_creature_desc_default(&mut d), RaStatus::Ok);
        d.id = id;
        d.frame.origin.x = x;
        assert_eq!(
            ra_ac_world_add_creature(w, HUMANOID_TABLE, &d, &mut index),
            RaStatus::Ok,
            "{}",
            last_error()
        );
    }
    index
}

fn state(w: RaAcWorld, c: u32) -> Result<RaAcState, RaStatus> {
    let mut s = RaAcState::default();
    // SAFETY: a writable out-parameter.
    match unsafe { ra_ac_state(w, c, &mut s) } {
        RaStatus::Ok => Ok(s),
        e => Err(e),
    }
}

fn parts(w: RaAcWorld, c: u32) -> Vec<RaAcFrame> {
    let mut out = vec![RaAcFrame::default(); 64];
    let mut n = 0;
    // SAFETY: `out` holds 64 writable frames; `n` is writable.
    let s = unsafe { ra_ac_part_frames(w, c, out.as_mut_ptr(), out.len(), &mut n) };
    assert_eq!(s, RaStatus::Ok);
    out.truncate(n);
    out
}

fn walk(w: RaAcWorld, c: u32) {
    assert_eq!(
        // SAFETY: null parameters mean the defaults.
        unsafe { ra_ac_do_motion(w, c, WALK_FORWARD, ptr::null()) },
        RaStatus::Ok
    );
}

fn count(w: RaAcWorld) -> u32 {
    let mut n = 0;
    assert_eq!(
        // SAFETY: a writable out-parameter.
        unsafe { ra_ac_world_creature_count(w, &mut n) },
        RaStatus::Ok
    );
    n
}

fn find(w: RaAcWorld, id: u32) -> Result<u32, RaStatus> {
    let mut i = 0;
    // SAFETY: a writable out-parameter.
    match unsafe { ra_ac_world_find(w, id, &mut i) } {
        RaStatus::Ok => Ok(i),
        e => Err(e),
    }
}

/// The state and part frames of a creature, bit for bit (`Debug` tells -0.0 from 0.0).
fn snapshot(w: RaAcWorld, c: u32) -> String {
    format!("{:?} {:?}", state(w, c).unwrap(), parts(w, c))
}

#[test]
fn a_removed_creature_is_refused_by_index_and_id_and_its_index_is_never_reused() {
    let w = ac_world();
    assert_eq!(add(w, 0, 0.0), 0);
    assert_eq!(add(w, 0, 5.0), 1);
    assert_eq!(ra_ac_world_remove(w, 0), RaStatus::Ok);

    assert_eq!(state(w, 0), Err(RaStatus::InvalidArgument));
    assert!(
        last_error().contains("creature 0 was removed"),
        "{}",
        last_error()
    );
    assert_eq!(ra_ac_world_remove(w, 0), RaStatus::InvalidArgument);
    assert_eq!(find(w, 1), Err(RaStatus::InvalidArgument));
    // The other creature keeps its index and id.
    assert_eq!(find(w, 2), Ok(1));
    assert_eq!(state(w, 1).unwrap().position.frame.origin.x, 5.0);
    // The next creature gets index 2 (and id 3), not the retired 0.
    assert_eq!(count(w), 2);
    assert_eq!(add(w, 0, 9.0), 2);
    assert_eq!(find(w, 3), Ok(2));
    assert_eq!(count(w), 3);

    // The batch read keeps index order, a retired index reading as zeros.
    let mut out = [RaAcPosition::default(); 3];
    let mut n = 0;
    // SAFETY: `out` holds 3 writable entries; `n` is writable.
    let s = unsafe { ra_ac_world_positions(w, out.as_mut_ptr(), 3, &mut n) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(n, 3);
    assert_eq!(out[0], RaAcPosition::default());
    assert_eq!(out[1].frame.origin.x, 5.0);
    assert_eq!(out[2].frame.origin.x, 9.0);

    assert_eq!(ra_ac_world_remove(w, 7), RaStatus::InvalidArgument);
    assert!(last_error().contains("does not exist"), "{}", last_error());
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
    assert_eq!(ra_ac_world_remove(w, 1), RaStatus::BadHandle);
}

#[test]
fn a_transferred_creature_moves_on_bit_for_bit_like_its_unmoved_twin() {
    let (from, to, twin) = (ac_world(), ac_world(), ac_world());
    assert_eq!(add(from, 40, 0.0), 0);
    assert_eq!(add(from, 41, 3.0), 1);
    assert_eq!(add(to, 7, -3.0), 0);
    assert_eq!(add(twin, 40, 0.0), 0);
    walk(from, 0);
    walk(twin, 0);
    for _ in 0..9 {
        for w in [from, to, twin] {
            assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
        }
    }
    let before = snapshot(from, 0);
    assert_eq!(before, snapshot(twin, 0));

    let mut index = u32::MAX;
    // SAFETY: a writable out-parameter.
    let s = unsafe { ra_ac_world_transfer(from, 0, to, &mut index) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    assert_eq!(index, 1);
    assert_eq!(snapshot(to, 1), before);
    assert_eq!(find(to, 40), Ok(1));
    assert_eq!(find(from, 40), Err(RaStatus::InvalidArgument));
    assert_eq!(state(from, 0), Err(RaStatus::InvalidArgument));
    assert_eq!(state(from, 1).unwrap().position.frame.origin.x, 3.0);

    for _ in 0..60 {
        for w in [from, to, twin] {
            assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
        }
        assert_eq!(snapshot(to, 1), snapshot(twin, 0));
    }
    // It kept walking: the twins were compared in motion.
    let y = state(to, 1).unwrap().position.frame.origin.y;
    assert!(y > 3.0, "walked to y = {y}");
    for w in [from, to, twin] {
        assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
    }
}

#[test]
fn a_transfer_to_a_world_holding_the_id_or_to_its_own_world_changes_nothing() {
    let (a, b) = (ac_world(), ac_world());
    add(a, 5, 1.0);
    add(b, 5, 2.0);
    let mut index = u32::MAX;
    // SAFETY: a writable out-parameter.
    let s = unsafe { ra_ac_world_transfer(a, 0, b, &mut index) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert!(last_error().contains("already taken"), "{}", last_error());
    assert_eq!(index, u32::MAX);
    assert_eq!(state(a, 0).unwrap().position.frame.origin.x, 1.0);
    assert_eq!(count(b), 1);

    // SAFETY: a null index is allowed.
    let s = unsafe { ra_ac_world_transfer(a, 0, a, ptr::null_mut()) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert!(last_error().contains("same AC world"), "{}", last_error());
    // SAFETY: as above.
    let s = unsafe { ra_ac_world_transfer(a, 0, 0, ptr::null_mut()) };
    assert_eq!(s, RaStatus::BadHandle);
    assert_eq!(state(a, 0).unwrap().position.frame.origin.x, 1.0);
    assert_eq!(ra_ac_world_free(a), RaStatus::Ok);
    assert_eq!(ra_ac_world_free(b), RaStatus::Ok);
}

#[test]
fn transfers_in_opposite_directions_from_two_threads_finish() {
    let (a, b) = (ac_world(), ac_world());
    for k in 0..100 {
        add(a, 1 + k, 0.0);
        add(b, 1001 + k, 0.0);
    }
    std::thread::scope(|s| {
        for (from, to) in [(a, b), (b, a)] {
            s.spawn(move || {
                for c in 0..100 {
                    // SAFETY: a null index is allowed.
                    let s = unsafe { ra_ac_world_transfer(from, c, to, ptr::null_mut()) };
                    assert_eq!(s, RaStatus::Ok);
                }
            });
        }
    });
    // Every creature changed worlds once.
    assert!(find(b, 1).is_ok() && find(b, 100).is_ok());
    assert!(find(a, 1001).is_ok() && find(a, 1100).is_ok());
    assert_eq!(find(a, 1), Err(RaStatus::InvalidArgument));
    assert_eq!(count(a), 200);
    assert_eq!(count(b), 200);
    assert_eq!(ra_ac_world_free(a), RaStatus::Ok);
    assert_eq!(ra_ac_world_free(b), RaStatus::Ok);
}
