//! The move-to calls of the C ABI: creatures addressed by id move and turn to each
//! other, and a committed conformance scenario's chase replays bit for bit through the
//! typed calls.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;
use support::{
    ac_state as state, add_creature as add, creature_desc as desc, last_error, HUMANOID_TABLE,
};

use retroanim_ffi::ac::*;
use retroanim_ffi::{ra_last_error_code, RaStatus};
use std::ffi::CString;
use std::ptr;

const WALK_FORWARD: u32 = 0x4500_0005;

fn root(rel: &str) -> String {
    format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn world(dir: &str) -> RaAcWorld {
    let dir = CString::new(root(dir)).unwrap();
    let mut w = 0;
    // SAFETY: a valid C string and a writable out-parameter.
    let s = unsafe { ra_ac_world_new_dir(dir.as_ptr(), &mut w) };
    assert_eq!(s, RaStatus::Ok);
    w
}

fn params() -> RaAcMoveParams {
    let mut p = std::mem::MaybeUninit::<RaAcMoveParams>::uninit();
    // SAFETY: a writable out-parameter, fully written on success.
    unsafe {
        assert_eq!(ra_ac_move_params_default(p.as_mut_ptr()), RaStatus::Ok);
        p.assume_init()
    }
}

fn info(w: RaAcWorld, c: u32) -> RaAcMoveToInfo {
    let mut i = RaAcMoveToInfo::default();
    // SAFETY: `i` is writable.
    assert_eq!(unsafe { ra_ac_moveto_info(w, c, &mut i) }, RaStatus::Ok);
    i
}

#[test]
fn move_params_default_are_aces() {
    let p = params();
    assert_eq!(p.distance_to_object, 0.6);
    assert_eq!(p.min_distance, 0.0);
    assert_eq!(p.fail_distance, f32::MAX);
    assert_eq!(p.speed, 1.0);
    assert_eq!(p.walk_run_threshold, 1.0);
    assert_eq!(p.desired_heading, 0.0);
    assert_eq!(p.hold_key_to_apply, 0);
    let set = [
        p.can_walk,
        p.can_run,
        p.can_sidestep,
        p.can_walk_backwards,
        p.can_charge,
        p.move_towards,
        p.use_spheres,
        p.set_hold_key,
        p.modify_raw_state,
        p.modify_interpreted_state,
        p.cancel_moveto,
        p.stop_completely,
    ];
    assert_eq!(set, [1; 12]);
    let clear = [
        p.fail_walk,
        p.use_final_heading,
        p.sticky,
        p.move_away,
        p.autonomous,
        p.disable_jump_during_link,
    ];
    assert_eq!(clear, [0; 6]);
}

#[test]
fn creatures_get_ids_and_a_taken_id_is_refused() {
    let w = world("assets/ac/records");
    let d = desc();
    assert_eq!(d.id, 0);
    assert_eq!(add(w, &d), 0);
    assert_eq!(info(w, 0).id, 1);
    let mut d7 = desc();
    d7.id = 7;
    assert_eq!(add(w, &d7), 1);
    assert_eq!(info(w, 1).id, 7);
    let mut c = 0;
    // SAFETY: `c` is writable.
    assert_eq!(unsafe { ra_ac_world_find(w, 7, &mut c) }, RaStatus::Ok);
    assert_eq!(c, 1);
    // SAFETY: `c` is writable; `d7` valid.
    unsafe {
        assert_eq!(ra_ac_world_find(w, 9, &mut c), RaStatus::InvalidArgument);
        assert_eq!(last_error(), "no creature has id 0x9");
        assert_eq!(
            ra_ac_world_add_creature(w, HUMANOID_TABLE, &d7, ptr::null_mut()),
            RaStatus::InvalidArgument
        );
    }
    assert_eq!(last_error(), "id 0x7 is already taken in this world");
    let mut clock = 0.0;
    // SAFETY: `clock` is writable.
    assert_eq!(unsafe { ra_ac_world_clock(w, &mut clock) }, RaStatus::Ok);
    assert_eq!(clock, 100.0);
    assert_eq!(ra_ac_world_tick(w, 0.5), RaStatus::Ok);
    // SAFETY: `clock` is writable.
    assert_eq!(unsafe { ra_ac_world_clock(w, &mut clock) }, RaStatus::Ok);
    assert_eq!(clock, 100.5);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn a_creature_walks_to_another_and_watches_it_until_it_arrives() {
    let w = world("assets/ac/records");
    let mut a = desc();
    a.radius = 0.5;
    a.height = 1.8;
    let mut b = a;
    b.frame.origin.y = 6.0;
    let (ca, cb) = (add(w, &a), add(w, &b));
    // SAFETY: null params means the defaults.
    let s = unsafe { ra_ac_move_to_object(w, ca, 2, ptr::null()) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    let i = info(w, ca);
    assert_eq!(i.moving_to, 1);
    assert_eq!(i.movement_type, 6);
    assert_eq!(i.sought_object, 2);
    assert_eq!(i.watching, 2);
    assert_eq!(info(w, cb).voyeur_count, 1);
    // Straight ahead (it faces +y): no turn first; farther than walk_run_threshold,
    // it walks forward with Run held.
    assert_eq!(i.current_command, WALK_FORWARD);
    assert_eq!(state(w, ca).motion, 0x4400_0007);
    let mut arrived_at = None;
    for k in 0..100 {
        assert_eq!(ra_ac_world_tick(w, 0.1), RaStatus::Ok);
        if info(w, ca).completions > 0 {
            arrived_at = Some(k);
            break;
        }
    }
    // 6 units less 0.5 + 0.5 radii and 0.6: 4.4 units at a run.
    assert!(
        arrived_at.is_some_and(|k| (5..20).contains(&k)),
        "{arrived_at:?}"
    );
    let i = info(w, ca);
    assert_eq!((i.moving_to, i.has_completed, i.last_completion), (0, 1, 0));
    assert_eq!(i.watching, 0);
    assert_eq!(info(w, cb).voyeur_count, 0);
    let y = state(w, ca).position.frame.origin.y;
    assert!(y > 4.0 && y < 5.0, "{y}");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn turn_to_heading_stick_constrain_and_cancel() {
    let w = world("assets/ac/records");
    let c = add(w, &desc());
    let other = add(w, &desc());
    let mut p = params();
    p.desired_heading = 90.0;
    // SAFETY: `p` is valid.
    assert_eq!(unsafe { ra_ac_turn_to_heading(w, c, &p) }, RaStatus::Ok);
    assert_eq!(info(w, c).movement_type, 9);
    assert_eq!(info(w, c).node_count, 1);
    // The turn starts at the next tick: TurnRight toward 90 degrees.
    assert_eq!(ra_ac_world_tick(w, 0.1), RaStatus::Ok);
    assert_eq!(info(w, c).current_command, 0x6500_000d);
    assert_eq!(ra_ac_cancel_moveto(w, c, 0x36), RaStatus::Ok);
    let i = info(w, c);
    assert_eq!(
        (i.moving_to, i.completions, i.last_completion),
        (0, 1, 0x36)
    );
    assert_eq!(ra_ac_cancel_moveto(w, c, 0x99), RaStatus::InvalidArgument);
    assert_eq!(last_error(), "error 0x99 is not a WeenieError");
    // SAFETY: a null params pointer is refused, not read.
    let s = unsafe { ra_ac_turn_to_heading(w, c, ptr::null()) };
    assert_eq!(s, RaStatus::NullArgument);

    assert_eq!(ra_ac_stick_to(w, c, 2), RaStatus::Ok);
    assert_eq!(info(w, c).sticky_target, 2);
    assert_eq!(info(w, other).voyeur_count, 1);
    assert_eq!(ra_ac_unstick(w, c), RaStatus::Ok);
    assert_eq!(info(w, c).sticky_target, 0);

    let f = desc().frame;
    // SAFETY: `f` is valid.
    let s = unsafe { ra_ac_constrain_to(w, c, &f, 1.0, 2.0) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(info(w, c).constrained, 1);
    assert_eq!(ra_ac_unconstrain(w, c), RaStatus::Ok);
    assert_eq!(info(w, c).constrained, 0);

    assert_eq!(ra_ac_notify_voyeurs(w, other, 7), RaStatus::InvalidArgument);
    assert_eq!(ra_ac_notify_voyeurs(w, other, 2), RaStatus::Ok);
    assert_eq!(ra_ac_handle_targetting(w, other), RaStatus::Ok);
    let mut p = params();
    p.can_walk = 2;
    // SAFETY: `p` is valid.
    let s = unsafe { ra_ac_move_to_object(w, c, 2, &p) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(last_error(), "params.can_walk: 2 (expected 0 or 1)");
    assert_eq!(ra_last_error_code(), 0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn move_object_teleports_and_refuses_nan() {
    let w = world("assets/ac/records");
    let c = add(w, &desc());
    let mut f = desc().frame;
    f.origin = RaVec3 {
        x: 3.0,
        y: 4.0,
        z: 0.0,
    };
    let v = RaVec3 {
        x: 1.0,
        y: 0.0,
        z: 0.0,
    };
    // SAFETY: `f` and `v` are valid.
    assert_eq!(unsafe { ra_ac_move_object(w, c, &f, &v) }, RaStatus::Ok);
    let s = state(w, c);
    assert_eq!(s.position.frame.origin, f.origin);
    assert_eq!(s.velocity, v);
    f.origin.x = f32::NAN;
    // SAFETY: `f` is valid.
    let s = unsafe { ra_ac_move_object(w, c, &f, ptr::null()) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(last_error(), "frame: NaN or infinite component");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

/// `oracle_chase_walking_target`: object 2 walks along +x from (0, 8); object 1 runs
/// to it (can_walk off), 60 ticks of 0.1 s. Every tick of the committed trace is
/// reproduced bit for bit through the typed calls.
#[test]
// 0.7071068 is the scenario's literal: as an f32 it is one ulp above 1/sqrt(2).
#[allow(clippy::approx_constant)]
fn committed_chase_scenario_replays_through_the_typed_calls() {
    let base = "crates/ac/tests/conformance";
    let trace = std::fs::read_to_string(root(&format!(
        "{base}/traces/oracle_chase_walking_target.jsonl"
    )))
    .unwrap();
    let lines: Vec<serde_json::Value> = trace
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 63);

    let w = world(&format!("{base}/humanoid"));
    let mut main = desc();
    main.id = 1;
    main.radius = 0.5;
    main.height = 1.8;
    let mut prey = main;
    prey.id = 2;
    prey.frame.origin.y = 8.0;
    prey.frame.orientation = RaQuat {
        w: 0.707_106_8,
        x: 0.0,
        y: 0.0,
        z: -0.707_106_8,
    };
    let (c1, c2) = (add(w, &main), add(w, &prey));
    // SAFETY: null params means the defaults.
    let s = unsafe { ra_ac_do_motion(w, c2, WALK_FORWARD, ptr::null()) };
    assert_eq!(s, RaStatus::Ok);
    let mut p = params();
    p.can_walk = 0;
    // SAFETY: `p` is valid.
    assert_eq!(unsafe { ra_ac_move_to_object(w, c1, 2, &p) }, RaStatus::Ok);

    let f32s = |v: &serde_json::Value| -> Vec<f32> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect()
    };
    let frame = |s: &RaAcState| {
        let f = s.position.frame;
        let q = f.orientation;
        (
            vec![f.origin.x, f.origin.y, f.origin.z],
            vec![q.w, q.x, q.y, q.z],
        )
    };
    let mut completions = Vec::new();
    for (k, line) in lines.iter().enumerate().skip(3) {
        assert_eq!(line["op"], "tick");
        assert_eq!(ra_ac_world_tick(w, 0.1), RaStatus::Ok);
        let (o1, q1) = frame(&state(w, c1));
        assert_eq!(o1, f32s(&line["frame"]["origin"]), "step {k}");
        assert_eq!(q1, f32s(&line["frame"]["orientation"]), "step {k}");
        let other = &line["moveto"]["objects"][0]["frame"];
        let (o2, q2) = frame(&state(w, c2));
        assert_eq!(o2, f32s(&other["origin"]), "step {k}");
        assert_eq!(q2, f32s(&other["orientation"]), "step {k}");
        let i = info(w, c1);
        let mgr = &line["moveto"]["mgr"];
        assert_eq!(
            i.moving_to == 1,
            mgr["movement_type"] != "Invalid",
            "step {k}"
        );
        if i.completions > 0 {
            completions.push((k, i.last_completion));
        }
        assert_eq!(
            i.completions as usize,
            line["moveto"]["weenie"].as_array().unwrap().len()
        );
    }
    // The chaser catches its prey once, and the move ends with success.
    assert_eq!(completions.len(), 1);
    assert_eq!(completions[0].1, 0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}
