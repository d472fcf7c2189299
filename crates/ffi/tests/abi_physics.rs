//! Host physics through the C ABI (docs/embedding.md "Host physics"): a host that moves
//! a walker back sees the corrected frame committed and the next tick start from it; a
//! walker crossing a landblock gets the next cell with the outdoor rule; a host that
//! answers nothing gets `ra_ac_world_tick` bit for bit; bad answers are refused with
//! their field named.

mod support;
use support::{ac_state as state, ac_world as world, add_creature, creature_desc, last_error};

use retroanim_ffi::ac::*;
use retroanim_ffi::ac_physics::*;
use retroanim_ffi::RaStatus;
use std::ptr;

const WALK_FORWARD: u32 = 0x4500_0005;

fn ok(s: RaStatus) {
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
}

fn walker(w: RaAcWorld, cell: u32, x: f32, y: f32) -> u32 {
    let mut d = creature_desc();
    d.cell = cell;
    d.frame.origin.x = x;
    d.frame.origin.y = y;
    d.radius = 0.5;
    let c = add_creature(w, &d);
    // SAFETY: null params mean the defaults.
    ok(unsafe { ra_ac_do_motion(w, c, WALK_FORWARD, ptr::null()) });
    c
}

fn propose(w: RaAcWorld, dt: f64) -> usize {
    let mut n = usize::MAX;
    // SAFETY: `n` is writable.
    ok(unsafe { ra_ac_world_tick_propose(w, dt, &mut n) });
    n
}

fn proposals(w: RaAcWorld) -> Vec<RaAcProposal> {
    let mut n = 0;
    // SAFETY: sizing call: null array with capacity 0.
    let s = unsafe { ra_ac_world_proposals(w, ptr::null_mut(), 0, &mut n) };
    assert!(matches!(s, RaStatus::Ok | RaStatus::BufferTooSmall));
    let mut out = vec![RaAcProposal::default(); n];
    // SAFETY: `out` has `n` writable entries.
    ok(unsafe { ra_ac_world_proposals(w, out.as_mut_ptr(), n, &mut n) });
    out
}

fn commit(w: RaAcWorld) -> bool {
    let mut done = 9;
    // SAFETY: `done` is writable; `count` may be null.
    ok(unsafe { ra_ac_world_tick_commit(w, &mut done, ptr::null_mut()) });
    done == 1
}

fn correct(w: RaAcWorld, c: u32, to: &RaAcPosition) -> RaStatus {
    // SAFETY: `to` is valid.
    unsafe { ra_ac_world_correct(w, c, to) }
}

#[test]
fn a_walker_moved_back_is_committed_there_and_the_next_tick_starts_there() {
    let w = world();
    let c = walker(w, 0x7D64_0013, 10.0, 10.0);
    for _ in 0..10 {
        ok(ra_ac_world_tick(w, 0.05));
    }
    assert_eq!(propose(w, 0.05), 1);
    let p = proposals(w)[0];
    assert_eq!((p.creature, p.id), (c, c + 1));
    assert!(p.to.frame.origin.y > p.from.frame.origin.y);
    // A wall half a unit behind where it was: the host puts it there.
    let mut back = p.from;
    back.frame.origin.y = p.from.frame.origin.y - 0.5;
    ok(correct(w, c, &back));
    assert!(commit(w));
    let s = state(w, c);
    assert_eq!(s.position, back);
    // About -0.5 units in 0.05 s: (new y - old y) / quantum, in f32 as ACE computes it.
    let dy = back.frame.origin.y - p.from.frame.origin.y;
    assert_eq!(s.velocity.y, dy / 0.05f64 as f32);
    assert!((s.velocity.y + 10.0).abs() < 1e-3);
    assert_eq!(propose(w, 0.05), 1);
    assert_eq!(proposals(w)[0].from, back);
    assert!(commit(w));
    assert!(state(w, c).position.frame.origin.y > back.frame.origin.y);
    ok(ra_ac_world_free(w));
}

#[test]
fn a_refused_walker_stays() {
    let w = world();
    let c = walker(w, 0x7D64_0013, 10.0, 10.0);
    for _ in 0..10 {
        ok(ra_ac_world_tick(w, 0.05));
    }
    propose(w, 0.05);
    let p = proposals(w)[0];
    ok(ra_ac_world_refuse(w, c));
    assert!(commit(w));
    let s = state(w, c);
    assert_eq!(s.position.frame.origin, p.from.frame.origin);
    assert_eq!(s.velocity, RaVec3::default());
    ok(ra_ac_world_free(w));
}

#[test]
fn a_walker_crossing_a_landblock_gets_the_next_cell_with_the_outdoor_rule() {
    let w = world();
    // Column 2, row 7 of landblock 0x7D64 (index 24 = 0x18), facing +y.
    let c = walker(w, 0x7D64_0018, 60.0, 191.0);
    let mut crossed = None;
    for t in 0..200 {
        if propose(w, 0.05) > 0 {
            ok(ra_ac_world_apply_outdoor_rule(w));
        }
        assert!(commit(w));
        let s = state(w, c);
        if s.position.cell != 0x7D64_0018 {
            crossed = Some((t, s));
            break;
        }
        assert!(s.position.frame.origin.y < 192.0);
    }
    let (_, s) = crossed.expect("the walker reached the next landblock");
    // Row 800 + 8 = 808: landblock y 0x65, row 0; column 1000 + 2: index 2 * 8 + 0 + 1.
    assert_eq!(s.position.cell, 0x7D65_0011);
    assert!(s.position.frame.origin.y < 1.0);
    assert_eq!(s.position.frame.origin.x, 60.0);
    ok(ra_ac_world_free(w));
}

#[test]
fn the_outdoor_rule_alone() {
    let mut cell = 0;
    let mut origin = RaVec3::default();
    let at = RaVec3 {
        x: 192.5,
        y: 60.0,
        z: 3.0,
    };
    // SAFETY: valid input and writable outputs.
    ok(unsafe { ra_ac_adjust_to_outside(0x7D64_003B, &at, &mut cell, &mut origin) });
    assert_eq!(cell, 0x7E64_0003);
    assert_eq!(
        origin,
        RaVec3 {
            x: 0.5,
            y: 60.0,
            z: 3.0
        }
    );
    // Past the map's edge: cell 0, the origin unchanged.
    let west = RaVec3 {
        x: -0.5,
        y: 10.0,
        z: 0.0,
    };
    // SAFETY: as above.
    ok(unsafe { ra_ac_adjust_to_outside(0x0000_0001, &west, &mut cell, &mut origin) });
    assert_eq!((cell, origin), (0, west));
    let nan = RaVec3 {
        x: f32::NAN,
        y: 0.0,
        z: 0.0,
    };
    // SAFETY: as above.
    let s = unsafe { ra_ac_adjust_to_outside(1, &nan, &mut cell, &mut origin) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(last_error(), "origin.x is NaN or infinite");
}

/// Every creature's position and state, as bits.
fn bits(w: RaAcWorld, n: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for c in 0..n {
        let s = state(w, c);
        let f = s.position.frame;
        out.extend([
            s.position.cell,
            f.origin.x.to_bits(),
            f.origin.y.to_bits(),
            f.origin.z.to_bits(),
            f.orientation.w.to_bits(),
            f.orientation.x.to_bits(),
            f.orientation.y.to_bits(),
            f.orientation.z.to_bits(),
            s.velocity.x.to_bits(),
            s.velocity.y.to_bits(),
            s.velocity.z.to_bits(),
            s.motion,
            s.table_substate,
            s.animation,
            s.frame_number.to_bits(),
            u32::from(s.active),
        ]);
        let mut m = RaAcMoveToInfo::default();
        // SAFETY: `m` is writable.
        ok(unsafe { ra_ac_moveto_info(w, c, &mut m) });
        out.extend([
            u32::from(m.moving_to),
            m.current_command,
            m.completions,
            m.last_completion,
            m.voyeur_count,
        ]);
    }
    out
}

fn chase_world() -> (RaAcWorld, u32) {
    let w = world();
    let n = 12u32;
    for i in 0..n {
        let mut d = creature_desc();
        d.frame.origin.x = (i % 4) as f32 * 3.0;
        d.frame.origin.y = (i / 4) as f32 * 3.0;
        d.radius = 0.5;
        d.height = 1.8;
        add_creature(w, &d);
    }
    // Chasers before and after their targets in the update order, and walkers.
    for (mover, target) in [(1u32, 8u32), (10, 2), (4, 5)] {
        // SAFETY: null params mean the defaults.
        ok(unsafe { ra_ac_move_to_object(w, mover, target + 1, ptr::null()) });
    }
    for c in [0u32, 6, 11] {
        // SAFETY: null params mean the defaults.
        ok(unsafe { ra_ac_do_motion(w, c, WALK_FORWARD, ptr::null()) });
    }
    (w, n)
}

#[test]
fn a_host_that_answers_nothing_ticks_bit_for_bit_like_the_plain_tick() {
    let (plain, n) = chase_world();
    let (hosted, _) = chase_world();
    let mut batches = 0;
    for t in 0..300 {
        let dt = if t % 2 == 0 { 0.05 } else { 1.0 / 30.0 };
        ok(ra_ac_world_tick(plain, dt));
        propose(hosted, dt);
        batches += 1;
        while !commit(hosted) {
            batches += 1;
        }
        assert_eq!(bits(plain, n), bits(hosted, n), "tick {t}");
    }
    assert!(batches > 300);
    // The chases ended: the comparison saw move-tos run to their end.
    let mut m = RaAcMoveToInfo::default();
    // SAFETY: `m` is writable.
    ok(unsafe { ra_ac_moveto_info(plain, 1, &mut m) });
    assert_eq!(m.has_completed, 1);
    ok(ra_ac_world_free(plain));
    ok(ra_ac_world_free(hosted));
}

#[test]
fn bad_answers_are_refused_with_their_field_named() {
    let w = world();
    let c = walker(w, 0x7D64_0013, 10.0, 10.0);
    let mut done = 0;
    // SAFETY: `done` is writable.
    let s = unsafe { ra_ac_world_tick_commit(w, &mut done, ptr::null_mut()) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "no two-phase tick is open: call propose first"
    );
    for _ in 0..5 {
        ok(ra_ac_world_tick(w, 0.05));
    }
    propose(w, 0.05);
    let p = proposals(w)[0];
    // A plain tick now would update the creatures twice in one tick.
    assert_eq!(ra_ac_world_tick(w, 0.05), RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "a two-phase tick is open: commit it (ra_ac_world_tick_commit) before ticking again"
    );
    assert_eq!(
        // SAFETY: `n` may be null.
        unsafe { ra_ac_world_tick_propose(w, 0.05, ptr::null_mut()) },
        RaStatus::InvalidArgument
    );
    let mut bad = p.to;
    bad.frame.origin.z = f32::INFINITY;
    assert_eq!(correct(w, c, &bad), RaStatus::InvalidArgument);
    assert_eq!(last_error(), "to.frame: NaN or infinite component");
    let mut bad = p.to;
    bad.frame.orientation = RaQuat::default();
    assert_eq!(correct(w, c, &bad), RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "to.frame.orientation: [0, 0, 0, 0] is too close to zero length to be an orientation (its squared length must be at least 1e-12)"
    );
    let mut bad = p.to;
    bad.cell = 0;
    assert_eq!(correct(w, c, &bad), RaStatus::InvalidArgument);
    assert_eq!(last_error(), "to.cell: cell 0 names no cell");
    assert_eq!(correct(w, 7, &p.to), RaStatus::InvalidArgument);
    assert_eq!(last_error(), "creature 7 does not exist (the world has 1)");
    // SAFETY: a null `to` is refused before it is read.
    let s = unsafe { ra_ac_world_correct(w, c, ptr::null()) };
    assert_eq!(s, RaStatus::NullArgument);
    // Nothing refused changed the answer: the proposal is committed as made.
    assert!(commit(w));
    assert_eq!(state(w, c).position, p.to);
    ok(ra_ac_world_free(w));
}
