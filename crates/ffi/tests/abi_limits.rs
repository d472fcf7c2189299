//! The C door's input rules, one test each (docs/limits.md, "The C ABI"): orientations
//! normalising cannot divide by, quanta past ACE's HugeQuantum, flags other than 0 and
//! 1, and a move or stick aimed at the mover itself or at id 0 are refused with
//! `RA_STATUS_INVALID_ARGUMENT` and a message naming the argument; nothing changes.

mod support;
use support::{ac_world, last_error};

use retroanim_ffi::ac::*;
use retroanim_ffi::RaStatus;
use std::ptr;

const HUMANOID_TABLE: u32 = 0x0900_0001;

fn desc() -> RaAcCreatureDesc {
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
    // SAFETY: a writable out-parameter.
    assert_eq!(unsafe { ra_ac_creature_desc_default(&mut d) }, RaStatus::Ok);
    d
}

fn add(w: RaAcWorld, d: &RaAcCreatureDesc) -> RaStatus {
    // SAFETY: a valid description; a null index is allowed.
    unsafe { ra_ac_world_add_creature(w, HUMANOID_TABLE, d, ptr::null_mut()) }
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

fn quat(w: f32, x: f32, y: f32, z: f32) -> RaQuat {
    RaQuat { w, x, y, z }
}

#[test]
fn an_orientation_of_squared_length_below_1e_12_is_refused_and_others_accepted_as_given() {
    let w = ac_world();
    let mut d = desc();
    d.frame.orientation = quat(0.0, 0.0, 0.0, 0.0);
    assert_eq!(add(w, &d), RaStatus::InvalidArgument);
    assert!(
        last_error().contains("desc.frame.orientation: [0, 0, 0, 0] is too close to zero length"),
        "{}",
        last_error()
    );
    // 4 × (1e-7)² = 4e-14 < 1e-12.
    d.frame.orientation = quat(1e-7, 1e-7, 1e-7, 1e-7);
    assert_eq!(add(w, &d), RaStatus::InvalidArgument);
    assert_eq!(count(w), 0);
    // (1e-6)² = 1e-12 is enough.
    d.frame.orientation = quat(1e-6, 0.0, 0.0, 0.0);
    assert_eq!(add(w, &d), RaStatus::Ok, "{}", last_error());
    // A move-to's frame goes through the same door.
    let zero = RaAcFrame::default();
    // SAFETY: a valid frame; null parameters mean the defaults.
    let s = unsafe { ra_ac_move_to_position(w, 0, &zero, ptr::null()) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert!(
        last_error().contains("frame.orientation"),
        "{}",
        last_error()
    );
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

/// The scenario runner's rule and message (L1): within ±2 s; a negative quantum plays
/// backwards, as a negative `dt` does there.
#[test]
fn a_quantum_past_2_s_either_way_is_refused_by_both_ticks_with_the_runners_message() {
    let w = ac_world();
    assert_eq!(add(w, &desc()), RaStatus::Ok);
    assert_eq!(ra_ac_world_tick(w, 1e30), RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "quantum: 1e30 is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)"
    );
    assert_eq!(ra_ac_world_tick(w, 2.000_001), RaStatus::InvalidArgument);
    assert_eq!(ra_ac_world_tick(w, -2.5), RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "quantum: -2.5 is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)"
    );
    assert_eq!(ra_ac_tick(w, 0, 2.5), RaStatus::InvalidArgument);
    let mut clock = 0.0;
    // SAFETY: a writable out-parameter.
    assert_eq!(unsafe { ra_ac_world_clock(w, &mut clock) }, RaStatus::Ok);
    assert_eq!(clock, 100.0);
    assert_eq!(ra_ac_world_tick(w, 2.0), RaStatus::Ok);
    assert_eq!(ra_ac_tick(w, 0, 2.0), RaStatus::Ok);
    assert_eq!(ra_ac_world_tick(w, -0.5), RaStatus::Ok);
    // SAFETY: as above.
    assert_eq!(unsafe { ra_ac_world_clock(w, &mut clock) }, RaStatus::Ok);
    assert_eq!(clock, 101.5);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn a_flag_other_than_0_or_1_is_refused() {
    let w = ac_world();
    let mut d = desc();
    d.creature_weenie = 7;
    assert_eq!(add(w, &d), RaStatus::InvalidArgument);
    assert!(
        last_error().contains("desc.creature_weenie: 7 (expected 0 or 1)"),
        "{}",
        last_error()
    );
    d.creature_weenie = 1;
    d.airborne = 2;
    assert_eq!(add(w, &d), RaStatus::InvalidArgument);
    assert_eq!(count(w), 0);
    assert_eq!(add(w, &desc()), RaStatus::Ok);

    assert_eq!(ra_ac_set_hold_run(w, 0, 7), RaStatus::InvalidArgument);
    assert!(
        last_error().contains("run: 7 (expected 0 or 1)"),
        "{}",
        last_error()
    );
    assert_eq!(ra_ac_set_hold_run(w, 0, 1), RaStatus::Ok);

    let mut p = RaAcMotionParams {
        speed: 0.0,
        hold_key_to_apply: 0,
        set_hold_key: 0,
        autonomous: 0,
        action_stamp: 0,
    };
    // SAFETY: writable and valid parameters.
    unsafe {
        assert_eq!(ra_ac_motion_params_default(&mut p), RaStatus::Ok);
        p.autonomous = 2;
        assert_eq!(
            ra_ac_do_motion(w, 0, 0x4500_0005, &p),
            RaStatus::InvalidArgument
        );
    }
    assert!(
        last_error().contains("params.autonomous: 2 (expected 0 or 1)"),
        "{}",
        last_error()
    );
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn a_move_turn_or_stick_aimed_at_the_mover_itself_or_at_id_0_is_refused() {
    let w = ac_world();
    assert_eq!(add(w, &desc()), RaStatus::Ok); // id 1
    assert_eq!(add(w, &desc()), RaStatus::Ok); // id 2
                                               // SAFETY: null parameters mean the defaults.
    unsafe {
        assert_eq!(
            ra_ac_move_to_object(w, 0, 1, ptr::null()),
            RaStatus::InvalidArgument
        );
        assert!(
            last_error().contains("target: 0x1 is the creature itself"),
            "{}",
            last_error()
        );
        assert_eq!(
            ra_ac_move_to_object(w, 0, 0, ptr::null()),
            RaStatus::InvalidArgument
        );
        assert!(
            last_error().contains("id 0 names no object"),
            "{}",
            last_error()
        );
        assert_eq!(
            ra_ac_turn_to_object(w, 1, 2, ptr::null()),
            RaStatus::InvalidArgument
        );
        assert_eq!(
            ra_ac_turn_to_object(w, 1, 0, ptr::null()),
            RaStatus::InvalidArgument
        );
    }
    assert_eq!(ra_ac_stick_to(w, 0, 1), RaStatus::InvalidArgument);
    assert_eq!(ra_ac_stick_to(w, 0, 0), RaStatus::InvalidArgument);
    let mut info = RaAcMoveToInfo::default();
    // SAFETY: a writable out-parameter.
    assert_eq!(unsafe { ra_ac_moveto_info(w, 0, &mut info) }, RaStatus::Ok);
    assert_eq!(
        (info.moving_to, info.sticky_target, info.watching),
        (0, 0, 0)
    );
    // Another creature is a target.
    assert_eq!(ra_ac_stick_to(w, 0, 2), RaStatus::Ok);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}
