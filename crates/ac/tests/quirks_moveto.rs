//! Q58–Q93: the move-to, target, sticky and constraint rules, each checked on the
//! sample humanoid (motion table 0x09000001: TurnRight turns clockwise at 1.5 rad/s,
//! RunForward moves 4 m/s at run rate 1) through the several-object scenario runner.
//! The main object is id 1 (radius 0.5, height 1.8) at the origin facing +Y; object 2
//! (radius 0.5, height 1.0, no motion table) is the usual target.

#![allow(clippy::approx_constant)] // trace literals such as 0.7071068 are printed f32 values, not constants
use retroanim_ac::commands::{
    HoldKey, MovementParameters, TURN_LEFT, TURN_RIGHT, WALK_BACKWARDS, WALK_FORWARD,
};
use retroanim_ac::interpolation::Position;
use retroanim_ac::math::{AFrame, Vec3};
use retroanim_ac::moveto_manager::{
    get_command, get_desired_heading, heading_diff, heading_greater,
};
use retroanim_ac::position_helpers::{cylinder_distance, cylinder_distance_no_z, heading};
use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use serde_json::{json, Value};
use std::path::Path;

/// f32::MAX as the trace prints it (read back as f64).
const MAX: f64 = 3.4028235e38;

fn records() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/humanoid")
}

/// Run a scenario whose `objects` are given, with `steps`; returns every trace line.
fn run_with(objects: Value, steps: Value) -> Vec<Value> {
    let doc = json!({
        "engine": "ac",
        "asset_dir": records().display().to_string(),
        "setup": {"motion_table": "0x09000001", "id": "0x00000001", "radius": 0.5, "height": 1.8,
                  "objects": objects},
        "steps": steps,
    });
    let s = Scenario::from_value(doc, "quirk", std::path::PathBuf::from(".")).unwrap();
    run_scenario::<AcSim>(&s).unwrap()
}

/// The usual target: object 2 at `origin`, no motion table.
fn run(target: [f32; 3], steps: Value) -> Vec<Value> {
    run_with(
        json!([{"id": "0x00000002", "origin": target, "radius": 0.5, "height": 1.0}]),
        steps,
    )
}

fn ticks(n: usize, dt: f64) -> Vec<Value> {
    (0..n).map(|_| json!({"op": "tick", "dt": dt})).collect()
}

fn steps(mut head: Vec<Value>, tail: Vec<Value>) -> Value {
    head.extend(tail);
    Value::Array(head)
}

fn mgr(line: &Value) -> &Value {
    &line["moveto"]["mgr"]
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn q58_a_new_move_reports_the_old_one_cancelled_and_returns_none() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000099"},
            {"op": "move_to_position", "origin": [0.0, 5.0, 0.0]}
        ]),
    );
    assert_eq!(t[1]["moveto"]["weenie"], json!([]));
    assert_eq!(t[2]["result"], "None");
    assert_eq!(t[2]["moveto"]["weenie"], json!(["ActionCancelled"]));
    assert_eq!(mgr(&t[2])["movement_type"], "MoveToPosition");
}

#[test]
fn q59_only_turns_honour_the_stop_completely_flag() {
    let turn = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "do_motion", "motion": "WalkForward"},
            {"op": "turn_to_heading", "params": {"desired_heading": 90.0, "stop_completely": false}}
        ]),
    );
    assert_eq!(turn[2]["interp"]["raw"]["forward_command"], "0x45000005");
    let moving = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "do_motion", "motion": "WalkForward"},
            {"op": "move_to_position", "origin": [0.0, 5.0, 0.0], "params": {"stop_completely": false}}
        ]),
    );
    assert_eq!(moving[2]["interp"]["raw"]["forward_command"], "0x41000003");
}

#[test]
fn q60_an_unregistered_target_is_waited_for_forever() {
    let t = run(
        [3.0, 0.0, 0.0],
        steps(
            vec![json!({"op": "move_to_object", "target": "0x00000099"})],
            ticks(30, 0.1),
        ),
    );
    let last = t.last().unwrap();
    assert_eq!(mgr(last)["movement_type"], "MoveToObject");
    assert_eq!(mgr(last)["pending"], json!([]));
    assert_eq!(
        last["moveto"]["target"]["info"]["target_position"],
        Value::Null
    );
    assert_eq!(last["moveto"]["target"]["info"]["status"], "Undefined");
    assert!(t.iter().all(|l| l["moveto"]["weenie"] == json!([])));
}

#[test]
fn q61_move_to_position_reads_the_previous_moves_final_heading_flag() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_position", "origin": [5.0, 0.0, 0.0],
             "params": {"use_final_heading": true, "desired_heading": 30.0}},
            {"op": "move_to_position", "origin": [5.0, 0.0, 0.0], "params": {"desired_heading": 45.0}}
        ]),
    );
    // First ever: no final turn although the params ask for one.
    let first = mgr(&t[1])["pending"].as_array().unwrap().clone();
    assert!(first.iter().all(|n| n != &json!(["TurnToHeading", 30.0])));
    // Second: the old flag adds the new absolute heading.
    let second = mgr(&t[2])["pending"].as_array().unwrap().clone();
    assert_eq!(second.last().unwrap(), &json!(["TurnToHeading", 45.0]));
}

#[test]
fn q62_final_heading_is_relative_to_the_bearing_for_objects() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([{"op": "move_to_object", "target": "0x00000002",
                "params": {"use_final_heading": true, "desired_heading": 300.0}}]),
    );
    // bearing 90 + 300 = 390, wrapped once to 30.
    assert_eq!(
        mgr(&t[1])["pending"],
        json!([
            ["TurnToHeading", 90.0],
            ["MoveToPosition", 0.0],
            ["TurnToHeading", 30.0]
        ])
    );
}

#[test]
fn q63_turn_to_object_ignores_desired_heading_and_later_reports() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "turn_to_object", "target": "0x00000002", "params": {"desired_heading": 45.0}},
            {"op": "move_object", "object": "0x00000002", "origin": [0.0, -3.0, 0.0]},
            {"op": "handle_targetting", "object": "0x00000002"}
        ]),
    );
    assert_eq!(mgr(&t[1])["pending"], json!([["TurnToHeading", 90.0]]));
    // The report arrived (the target info moved) but the turn still aims at 90.
    assert_eq!(
        t[3]["moveto"]["target"]["info"]["target_position"]["origin"],
        json!([0.0, -3.0, 0.0])
    );
    assert_eq!(mgr(&t[3])["pending"], json!([["TurnToHeading", 90.0]]));
    assert_eq!(
        mgr(&t[3])["current_target_position"]["origin"],
        json!([3.0, 0.0, 0.0])
    );
}

#[test]
fn q64_turn_to_heading_starts_at_a_later_tick_and_only_on_the_ground() {
    let mut st = vec![
        json!({"op": "set_state", "contact": false, "on_walkable": false}),
        json!({"op": "turn_to_heading", "params": {"desired_heading": 90.0}}),
    ];
    st.extend(ticks(5, 0.1));
    st.push(json!({"op": "set_state", "contact": true, "on_walkable": true}));
    st.extend(ticks(5, 0.1));
    let t = run([3.0, 0.0, 0.0], Value::Array(st));
    // The op itself begins nothing; airborne ticks neither.
    for l in &t[2..=7] {
        assert_eq!(mgr(l)["current_command"], "0x00000000");
        assert_eq!(mgr(l)["pending"], json!([["TurnToHeading", 90.0]]));
    }
    // On the ground the turn begins.
    assert!(t[8..]
        .iter()
        .any(|l| mgr(l)["current_command"] == "0x6500000d"));
}

#[test]
fn q65_a_turn_waits_while_motions_are_pending() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "do_motion", "motion": "WalkForward"},
            {"op": "turn_to_heading", "params": {"desired_heading": 90.0, "stop_completely": false}},
            {"op": "tick", "dt": 0.01}
        ]),
    );
    assert_eq!(t[3]["interp"]["is_animating"], true);
    assert_eq!(mgr(&t[3])["current_command"], "0x00000000");
    assert_eq!(mgr(&t[3])["pending"], json!([["TurnToHeading", 90.0]]));
}

#[test]
fn q66_previous_heading_starts_as_a_difference() {
    let doc_steps = json!([{"op": "move_to_object", "target": "0x00000002"}]);
    let doc = json!({
        "engine": "ac",
        "asset_dir": records().display().to_string(),
        "setup": {"motion_table": "0x09000001", "id": "0x00000001", "radius": 0.5, "height": 1.8,
                  "orientation": [0.7071068, 0.0, 0.0, -0.7071068],
                  "objects": [{"id": "0x00000002", "origin": [0.0, -3.0, 0.0], "radius": 0.5, "height": 1.0}]},
        "steps": doc_steps,
    });
    let s = Scenario::from_value(doc, "q66", ".".into()).unwrap();
    let t = run_scenario::<AcSim>(&s).unwrap();
    // Facing 90, target at bearing 180: the stored value is the difference 90, not 90° as
    // a heading by coincidence of the start (the current heading is 90 as well).
    assert_eq!(mgr(&t[1])["pending"][0], json!(["TurnToHeading", 180.0]));
    assert!((f(&mgr(&t[1])["previous_heading"]) - 90.0).abs() < 1e-3);
    assert_eq!(mgr(&t[1])["current_command"], "0x6500000d");
}

#[test]
fn q67_turns_end_by_overshoot_then_snap_and_turn_left_equality_counts() {
    assert!(heading_greater(95.0, 90.0, TURN_RIGHT));
    assert!(!heading_greater(85.0, 90.0, TURN_RIGHT));
    assert!(heading_greater(5.0, 355.0, TURN_RIGHT));
    assert!(heading_greater(85.0, 90.0, TURN_LEFT));
    assert!(heading_greater(90.0, 90.0, TURN_LEFT));
    assert!(!heading_greater(90.0, 90.0, TURN_RIGHT));
    let t = run(
        [3.0, 0.0, 0.0],
        steps(
            vec![json!({"op": "move_to_object", "target": "0x00000002"})],
            ticks(9, 0.1),
        ),
    );
    // Snapped to exactly 90 once passed.
    assert_eq!(
        t[10]["frame"]["orientation"],
        json!([0.7071068, 0.0, 0.0, -0.7071068])
    );
    assert_eq!(mgr(&t[10])["pending"], json!([["MoveToPosition", 0.0]]));
    assert_eq!(mgr(&t[9])["current_command"], "0x6500000d");
}

#[test]
fn q68_walk_or_run_is_decided_once_per_forward_leg() {
    let p = MovementParameters::default();
    assert_eq!(get_command(&p, 1.6).hold_key, HoldKey::None);
    assert_eq!(get_command(&p, 1.7).hold_key, HoldKey::Run);
    assert_eq!(get_command(&p, 0.6).motion, 0);
    let t = run(
        [0.0, 10.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000002"},
            {"op": "move_object", "object": "0x00000002", "origin": [0.0, 1.9, 0.0]},
            {"op": "handle_targetting", "object": "0x00000002"}
        ]),
    );
    assert_eq!(mgr(&t[1])["params"]["hold_key"], "run");
    // The target came within walking range; the leg keeps running.
    assert_eq!(
        mgr(&t[3])["current_target_position"]["origin"],
        json!([0.0, 1.9, 0.0])
    );
    assert_eq!(mgr(&t[3])["params"]["hold_key"], "run");
    assert_eq!(
        t[3]["interp"]["interpreted"]["forward_command"],
        "0x44000007"
    );
}

#[test]
fn q69_the_move_to_layer_bypasses_raw_state() {
    let t = run(
        [0.0, 10.0, 0.0],
        json!([{"op": "move_to_object", "target": "0x00000002"}]),
    );
    assert_eq!(
        t[1]["interp"]["interpreted"]["forward_command"],
        "0x44000007"
    );
    assert_eq!(t[1]["interp"]["raw"]["forward_command"], "0x41000003");
    assert_eq!(mgr(&t[1])["current_command"], "0x45000005");
}

fn steer_after_target_moves_to(x: f32) -> Vec<Value> {
    let mut s = vec![json!({"op": "move_to_object", "target": "0x00000002"})];
    s.extend(ticks(6, 0.1));
    s.push(json!({"op": "move_object", "object": "0x00000002", "origin": [x, 100.0, 0.0]}));
    s.push(json!({"op": "handle_targetting", "object": "0x00000002"}));
    s.push(json!({"op": "tick", "dt": 0.1}));
    run([0.0, 100.0, 0.0], Value::Array(s))
}

#[test]
fn q70_steering_only_outside_a_20_degree_dead_band() {
    // About 30° off (tan 30° × ~98 m): a TurnRight aux command.
    let t = steer_after_target_moves_to(56.6);
    assert_eq!(t[7]["interp"]["is_animating"], false);
    assert_eq!(mgr(&t[10])["aux_command"], "0x6500000d");
    // About 15° off: inside the band, no aux command.
    let t = steer_after_target_moves_to(26.3);
    assert_eq!(mgr(&t[10])["aux_command"], "0x00000000");
    // About 30° to the left: TurnLeft.
    let t = steer_after_target_moves_to(-56.6);
    assert_eq!(mgr(&t[10])["aux_command"], "0x6500000e");
}

#[test]
fn q71_lack_of_progress_is_counted_but_never_cancels() {
    // Walking, but put back at the start after every tick: 0.156 m per 0.05 s tick is
    // far below 0.25 m/s over the window.
    let mut st = vec![json!({"op": "move_to_position", "origin": [0.0, 20.0, 0.0],
                             "params": {"can_run": false}})];
    for _ in 0..30 {
        st.push(json!({"op": "tick", "dt": 0.05}));
        st.push(json!({"op": "move_object", "object": "0x00000001", "origin": [0.0, 0.0, 0.0]}));
    }
    let t = run([3.0, 0.0, 0.0], Value::Array(st));
    let last = t.last().unwrap();
    assert_eq!(mgr(last)["movement_type"], "MoveToPosition");
    // The clock passes 100 + 1 s at the 21st tick (101.04999999999994); ticks 21..=30
    // each count one failure.
    assert_eq!(mgr(last)["fail_progress_count"], 10);
    assert_eq!(mgr(last)["previous_distance_time"], json!(100.0));
    assert!(t.iter().all(|l| l["moveto"]["weenie"] == json!([])));
}

#[test]
fn q72_without_spheres_the_previous_distance_is_refreshed_every_tick() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_position", "origin": [0.0, 20.0, 0.0], "params": {"use_spheres": false}},
            {"op": "tick", "dt": 0.1}, {"op": "tick", "dt": 0.1}
        ]),
    );
    assert_eq!(mgr(&t[2])["previous_distance_time"], json!(100.1));
    assert_eq!(
        mgr(&t[3])["previous_distance_time"],
        json!(100.19999999999999)
    );
}

#[test]
fn q73_target_reports_reset_the_progress_references() {
    let t = run(
        [0.0, 10.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000002"},
            {"op": "move_object", "object": "0x00000002", "origin": [0.0, 12.0, 0.0]},
            {"op": "handle_targetting", "object": "0x00000002"}
        ]),
    );
    assert!((f(&mgr(&t[1])["previous_distance"]) - 9.0).abs() < 1e-5);
    assert_eq!(f(&mgr(&t[3])["previous_distance"]), MAX);
    assert_eq!(f(&mgr(&t[3])["original_distance"]), MAX);
}

#[test]
fn q74_cylinder_distance_counts_vertical_separation_twice() {
    let a = Position::new(0x7d64_0013, AFrame::IDENTITY);
    let b = Position::new(
        0x7d64_0013,
        AFrame::new(Vec3::new(3.0, 0.0, 4.0), AFrame::IDENTITY.orientation),
    );
    // reach = 5 − 1 = 4 (3-D centre offset), dz = 4 − 1 = 3: sqrt(9 + 16) = 5.
    assert_eq!(cylinder_distance(0.5, 1.0, &a, 0.5, 1.0, &b), 5.0);
    // Overlapping side by side: reach −0.5 and dz = 0 − 1.8… here 0 − 1 = −1, both negative:
    // −sqrt(1 + 0.25).
    let c = Position::new(
        0x7d64_0013,
        AFrame::new(Vec3::new(0.5, 0.0, 0.0), AFrame::IDENTITY.orientation),
    );
    assert_eq!(
        cylinder_distance(0.5, 1.0, &a, 0.5, 1.0, &c),
        -1.118033988749895
    );
}

#[test]
fn q75_arrival_queues_two_ready_stops_before_the_callback() {
    let t = run(
        [3.0, 0.0, 0.0],
        steps(
            vec![json!({"op": "move_to_object", "target": "0x00000002"})],
            ticks(14, 0.1),
        ),
    );
    let arrival = t
        .iter()
        .position(|l| l["moveto"]["weenie"] == json!(["None"]))
        .unwrap();
    assert_eq!(arrival, 15);
    assert_eq!(
        t[arrival]["interp"]["pending"],
        json!(["0x41000003", "0x41000003"])
    );
}

#[test]
fn q76_get_command_ignores_capabilities_and_move_away_walks_forward() {
    let away = MovementParameters {
        move_towards: false,
        move_away: true,
        min_distance: 5.0,
        can_walk_backwards: false,
        ..MovementParameters::default()
    };
    let c = get_command(&away, 2.0);
    assert_eq!((c.motion, c.moving_away), (WALK_FORWARD, true));
    assert_eq!(get_desired_heading(WALK_FORWARD, true), 180.0);
    let both = MovementParameters {
        move_away: true,
        can_walk_backwards: false,
        ..MovementParameters::default()
    };
    let c = get_command(&both, -0.1);
    assert_eq!((c.motion, c.moving_away), (WALK_BACKWARDS, true));
    assert_eq!(get_command(&both, 0.3).motion, 0);
    assert_eq!(get_command(&both, 0.0001).motion, WALK_BACKWARDS);
}

#[test]
fn q77_landing_with_no_nodes_completes_the_move() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000099"},
            {"op": "set_state", "contact": false, "on_walkable": false},
            {"op": "set_state", "contact": true, "on_walkable": true}
        ]),
    );
    assert_eq!(t[2]["moveto"]["weenie"], json!([]));
    assert_eq!(t[3]["moveto"]["weenie"], json!(["None"]));
    assert_eq!(mgr(&t[3])["movement_type"], "Invalid");
}

#[test]
fn q78_sticky_hand_off_after_the_success_callback() {
    // Cylinder distance 1.5 − 1.0 = 0.5 ≤ 0.6: arrived at once, no nodes.
    let t = run(
        [0.0, 1.5, 0.0],
        json!([{"op": "move_to_object", "target": "0x00000002", "params": {"sticky": true}}]),
    );
    assert_eq!(t[1]["moveto"]["weenie"], json!(["None"]));
    assert_eq!(mgr(&t[1])["movement_type"], "Invalid");
    let s = &t[1]["moveto"]["sticky"];
    assert_eq!(s["target"], "0x00000002");
    assert_eq!(s["radius"], json!(0.5));
    assert_eq!(s["initialized"], true);
    assert_eq!(t[1]["moveto"]["target"]["info"]["quantum"], json!(0.5));
}

#[test]
fn q79_sticking_takes_the_single_target_slot_and_unsticking_cancels() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000099"},
            {"op": "stick_to", "target": "0x00000002"},
            {"op": "unstick"}
        ]),
    );
    assert_eq!(t[2]["moveto"]["target"]["info"]["object"], "0x00000002");
    assert_eq!(mgr(&t[2])["movement_type"], "MoveToObject");
    assert_eq!(t[3]["moveto"]["weenie"], json!(["ActionCancelled"]));
    assert_eq!(t[3]["moveto"]["target"]["info"], Value::Null);
}

#[test]
fn q80_a_stick_lasts_one_second_and_is_never_extended() {
    let t = run(
        [0.0, 1.5, 0.0],
        steps(
            vec![json!({"op": "stick_to", "target": "0x00000002"})],
            ticks(11, 0.1),
        ),
    );
    assert_eq!(t[1]["moveto"]["sticky"]["timeout"], json!(101.0));
    // Clock 100.99999999999997 after ten ticks: still stuck; the eleventh passes 101.
    assert_eq!(t[11]["moveto"]["sticky"]["target"], "0x00000002");
    assert_eq!(t[12]["moveto"]["sticky"]["target"], "0x00000000");
}

#[test]
fn q81_the_sticky_offset_replaces_motion_and_faces_the_target_at_once() {
    let t = run(
        [1.5, 0.0, 0.0],
        json!([{"op": "stick_to", "target": "0x00000002"}, {"op": "tick", "dt": 0.1}]),
    );
    // Facing 90 exactly, moved by the remaining 1.5 − 1.0 − 0.3 = 0.2 (one step is 2.0).
    assert_eq!(
        t[2]["frame"]["orientation"],
        json!([0.7071068, 0.0, 0.0, -0.7071068])
    );
    let x = f(&t[2]["frame"]["origin"][0]);
    assert!((x - 0.2).abs() < 1e-6, "{x}");
}

#[test]
fn q82_the_sticky_distance_uses_the_3d_offset() {
    let a = Position::new(0x7d64_0013, AFrame::IDENTITY);
    let b = Position::new(
        0x7d64_0013,
        AFrame::new(Vec3::new(3.0, 0.0, 4.0), AFrame::IDENTITY.orientation),
    );
    assert_eq!(cylinder_distance_no_z(0.5, &a, 0.5, &b), 4.0);
}

#[test]
fn q83_the_leash_forgets_its_anchor_after_one_tick() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "do_motion", "motion": "WalkForward"},
            {"op": "constrain_to", "origin": [10.0, 0.0, 0.0], "start": 1.0, "max": 2.0},
            {"op": "tick", "dt": 0.1},
            {"op": "tick", "dt": 0.1}
        ]),
    );
    assert_eq!(t[2]["moveto"]["constraint"]["pos_offset"], json!(10.0));
    // 10 ≥ max: this tick's step is zeroed and 0 is stored.
    assert_eq!(t[3]["frame"]["origin"], json!([0.0, 0.0, 0.0]));
    assert_eq!(t[3]["moveto"]["constraint"]["pos_offset"], json!(0.0));
    // Now 0 ≤ start: the object walks on although it is still 10 m from the anchor.
    assert!(f(&t[4]["frame"]["origin"][1]) > 0.0);
}

#[test]
fn q84_reports_are_throttled_by_time_and_radius() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000099"},
            {"op": "stick_to", "target": "0x00000002"},
            {"op": "move_object", "object": "0x00000002", "origin": [3.4, 0.0, 0.0]},
            {"op": "handle_targetting", "object": "0x00000002"},
            {"op": "move_object", "object": "0x00000002", "origin": [5.0, 0.0, 0.0]},
            {"op": "handle_targetting", "object": "0x00000002"}
        ]),
    );
    // Moved 0.4 ≤ 0.5: no report, but the gate time is taken (100.0).
    assert_eq!(
        t[4]["moveto"]["target"]["info"]["target_position"]["origin"],
        json!([3.0, 0.0, 0.0])
    );
    assert_eq!(
        t[4]["moveto"]["objects"][0]["target"]["last_update_time"],
        json!(100.0)
    );
    // Same clock: the 0.5 s gate holds back even a 2 m move.
    assert_eq!(
        t[6]["moveto"]["target"]["info"]["target_position"]["origin"],
        json!([3.0, 0.0, 0.0])
    );
}

#[test]
fn q85_the_mover_sets_its_targets_prediction_horizon() {
    let t = run(
        [0.0, 30.0, 0.0],
        steps(
            vec![json!({"op": "move_to_object", "target": "0x00000002"})],
            ticks(10, 0.1),
        ),
    );
    let last = t.last().unwrap();
    let q = f(&last["moveto"]["target"]["info"]["quantum"]);
    // About (29 − travelled) / 4 m/s: well above 1 s, and the target's entry agrees.
    assert!(q > 5.0 && q < 7.5, "{q}");
    assert_eq!(
        last["moveto"]["objects"][0]["target"]["voyeurs"][0][2],
        json!(q)
    );
}

#[test]
fn q86_moving_to_oneself_ends_without_a_callback() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([{"op": "move_to_object", "target": "0x00000001"}]),
    );
    assert_eq!(t[1]["moveto"]["weenie"], json!([]));
    assert_eq!(t[1]["moveto"]["last_weenie"], Value::Null);
    assert_eq!(mgr(&t[1])["movement_type"], "Invalid");
}

#[test]
fn q87_a_move_makes_the_mover_active_and_needs_a_movement_manager() {
    use retroanim_ac::commands::{MovementType, WeenieError};
    use retroanim_ac::moveto_manager::MovementStruct;
    use retroanim_ac::physics_obj::PhysicsObj;
    let mut bare = PhysicsObj::new(
        std::sync::Arc::new(retroanim_ac::sequence::AnimMap::new()),
        retroanim_ac::motion_interp::Weenie {
            is_creature: true,
            run_rate: 1.0,
        },
        0x7d64_0013,
        AFrame::IDENTITY,
    );
    let mvs = MovementStruct::new(MovementType::MoveToPosition, MovementParameters::default());
    assert_eq!(
        bare.perform_movement_struct(&mvs),
        WeenieError::NoAnimationTable
    );
    assert!(!bare.is_active());
    let t = run(
        [3.0, 0.0, 0.0],
        json!([{"op": "turn_to_heading", "params": {"desired_heading": 90.0}}]),
    );
    assert_eq!(t[1]["phys"]["active"], true);
}

#[test]
fn q88_stick_to_is_the_manager_path_without_the_objmaint_gate() {
    let t = run(
        [0.0, 1.5, 0.0],
        json!([{"op": "stick_to", "target": "0x00000002"}, {"op": "stick_to", "target": "0x00000099"}]),
    );
    assert_eq!(t[1]["moveto"]["sticky"]["initialized"], true);
    // An unregistered target: the stick starts but never initialises.
    assert_eq!(t[2]["moveto"]["sticky"]["target"], "0x00000099");
    assert_eq!(t[2]["moveto"]["sticky"]["initialized"], false);
}

#[test]
fn q89_a_report_from_a_later_object_lands_on_the_same_line() {
    let t = run_with(
        json!([{"id": "0x00000002", "origin": [0.0, 20.0, 0.0], "radius": 0.5, "height": 1.0,
                "motion_table": "0x09000001"}]),
        steps(
            vec![
                json!({"op": "do_motion", "object": "0x00000002", "motion": "WalkForward"}),
                json!({"op": "move_to_object", "target": "0x00000002"}),
            ],
            ticks(7, 0.1),
        ),
    );
    // The target's own gate opens at 100.1 and next at 100.69999999999996 (tick 7).
    // Reports at the target's gates (100.1 and 100.69999999999996) re-enter the mover
    // during the target's update: the new time stamps are on the tick's own line.
    assert_eq!(mgr(&t[3])["previous_distance_time"], json!(100.1));
    assert_eq!(mgr(&t[8])["previous_distance_time"], json!(100.1));
    assert_eq!(
        mgr(&t[9])["previous_distance_time"],
        json!(100.69999999999996)
    );
    assert_eq!(f(&mgr(&t[9])["previous_distance"]), MAX);
    assert_eq!(
        t[9]["moveto"]["target"]["info"]["last_update_time"],
        json!(100.69999999999996)
    );
}

#[test]
fn q90_only_object_moves_set_initialized() {
    let t = run(
        [0.0, 10.0, 0.0],
        json!([
            {"op": "move_to_position", "origin": [0.0, 5.0, 0.0]},
            {"op": "move_to_object", "target": "0x00000002"},
            {"op": "turn_to_heading", "params": {"desired_heading": 90.0}}
        ]),
    );
    assert_eq!(mgr(&t[1])["initialized"], false);
    assert_eq!(mgr(&t[2])["initialized"], true);
    assert_eq!(mgr(&t[3])["initialized"], false);
}

#[test]
fn q91_the_node_list_is_built_once() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([
            {"op": "move_to_object", "target": "0x00000002", "params": {"use_final_heading": true}},
            {"op": "move_object", "object": "0x00000002", "origin": [0.0, -3.0, 0.0]},
            {"op": "handle_targetting", "object": "0x00000002"}
        ]),
    );
    assert_eq!(
        mgr(&t[3])["current_target_position"]["origin"],
        json!([0.0, -3.0, 0.0])
    );
    assert_eq!(
        mgr(&t[3])["pending"],
        json!([
            ["TurnToHeading", 90.0],
            ["MoveToPosition", 0.0],
            ["TurnToHeading", 90.0]
        ])
    );
}

#[test]
fn q92_fail_distance_is_straight_line_from_the_start() {
    let mut s = vec![
        json!({"op": "move_to_position", "origin": [0.0, 20.0, 0.0], "params": {"fail_distance": 1.0}}),
    ];
    s.extend(ticks(20, 0.1));
    let t = run([3.0, 0.0, 0.0], Value::Array(s));
    let at = t
        .iter()
        .position(|l| l["moveto"]["weenie"] == json!(["YouChargedTooFar"]))
        .unwrap();
    assert!(f(&t[at]["frame"]["origin"][1]) > 1.0);
    assert!(f(&t[at - 1]["frame"]["origin"][1]) <= 1.0 + 0.5);
    assert_eq!(
        mgr(&t[at])["starting_position"]["origin"],
        json!([0.0, 0.0, 0.0])
    );
    assert_eq!(mgr(&t[at])["movement_type"], "Invalid");
}

#[test]
fn q93_clean_up_keeps_stale_fields() {
    let t = run(
        [3.0, 0.0, 0.0],
        json!([{"op": "move_to_object", "target": "0x00000001", "params": {"min_distance": 0.25, "speed": 2.0}}]),
    );
    let m = mgr(&t[1]);
    assert_eq!(m["movement_type"], "Invalid");
    assert_eq!(m["params"]["distance_to_object"], json!(0.0));
    assert_eq!(m["params"]["min_distance"], json!(0.25));
    assert_eq!(m["params"]["speed"], json!(2.0));
    assert_eq!(m["starting_position"]["origin"], json!([0.0, 0.0, 0.0]));
}

#[test]
fn heading_helpers_match_the_worked_numbers() {
    assert_eq!(heading_diff(10.0, 350.0, TURN_RIGHT), 20.0);
    assert_eq!(heading_diff(350.0, 10.0, TURN_RIGHT), 340.0);
    assert_eq!(heading_diff(350.0, 10.0, TURN_LEFT), 20.0);
    assert_eq!(heading_diff(5.0, 5.0, TURN_LEFT), 0.0);
    let a = Position::new(0x7d64_0013, AFrame::IDENTITY);
    let east = Position::new(
        0x7d64_0013,
        AFrame::new(Vec3::new(3.0, 0.0, 0.0), AFrame::IDENTITY.orientation),
    );
    assert_eq!(heading(&a, &east), 90.0);
    assert_eq!(heading(&a, &a), 0.0);
}

/// ACE's InterpolationManager skips its progress test while the object is stuck (its
/// `get_sticky_object() != 0` term), so a stuck object never fails an interpolation node.
#[test]
fn a_sticky_target_exempts_interpolation_from_its_progress_test() {
    // Target at exactly the sticky distance (1.3 − 1.0 − 0.3 = 0): the stick holds still;
    // the node behind the object is never approached (ACE's correction is lost, Q48).
    let interp = |stuck: bool| {
        let mut st = Vec::new();
        if stuck {
            st.push(json!({"op": "stick_to", "target": "0x00000002"}));
        }
        st.push(json!({"op": "interpolate_to", "origin": [0.0, -5.0, 0.0]}));
        st.extend(ticks(10, 0.1));
        run([0.0, 1.3, 0.0], Value::Array(st))
    };
    let t = interp(true);
    let last = t.last().unwrap();
    assert_eq!(last["moveto"]["sticky"]["target"], "0x00000002");
    assert_eq!(last["interp_mgr"]["node_fail_counter"], 0);
    assert_eq!(last["interp_mgr"]["frame_counter"], 0);
    // 1.3 − 1.0 − 0.3 rounds to one f32 ulp below 0: the stick nudges by −1.2e-7 only.
    assert!(f(&last["frame"]["origin"][1]).abs() < 1e-6);
    assert_eq!(last["interp_queue"].as_array().unwrap().len(), 1);
    // Not stuck: the second five-frame window (ticks 6–10) shows no progress, the node
    // fails and the object blips to the node, which the first correction rewrote to one
    // step of 2 × 4 m/s × 0.1 s (Q48).
    let t = interp(false);
    let last = t.last().unwrap();
    assert_eq!(last["frame"]["origin"], json!([0.0, -0.79999995, 0.0]));
    assert_eq!(last["interp_queue"], json!([]));
}

/// With the several-object extension, `cancel_moveto` from the interpreter is real: a raw
/// motion, a raw stop and a full stop each end a move in progress with ActionCancelled.
#[test]
fn cancel_moveto_runs_from_do_motion_stop_motion_and_stop_completely() {
    for op in [
        json!({"op": "do_motion", "motion": "0x45000005"}),
        json!({"op": "stop_motion", "motion": "0x45000005"}),
        json!({"op": "stop_completely"}),
    ] {
        let t = run(
            [0.0, 10.0, 0.0],
            json!([{"op": "move_to_object", "target": "0x00000002"}, op]),
        );
        assert_eq!(t[2]["moveto"]["weenie"], json!(["ActionCancelled"]));
        assert_eq!(mgr(&t[2])["movement_type"], "Invalid");
        assert_eq!(t[2]["moveto"]["target"]["info"], Value::Null);
    }
    // With cancel_moveto false the move survives the raw motion.
    let t = run(
        [0.0, 10.0, 0.0],
        json!([{"op": "move_to_object", "target": "0x00000002"},
               {"op": "do_motion", "motion": "0x45000005", "cancel_moveto": false}]),
    );
    assert_eq!(t[2]["moveto"]["weenie"], json!([]));
    assert_eq!(mgr(&t[2])["movement_type"], "MoveToObject");
}

#[test]
fn q120_sticking_or_interpolating_gives_a_tableless_object_a_movement_manager() {
    // Object 2 has no motion table. Stuck to the main object 3 units away, the sticky step
    // asks for its top speed (5 × 4.0 × run rate 1 = 20 per second, 2.0 in 0.1 s) and moves
    // it the remaining 3 − 0.5 − 0.5 − 0.3 = 1.7, to x = 1.3.
    let stuck = run_with(
        json!([{"id": "0x00000002", "origin": [3.0, 0.0, 0.0], "radius": 0.5, "height": 1.0}]),
        json!([{"op": "stick_to", "object": "0x00000002", "target": "0x00000001"},
               {"op": "tick", "dt": 0.1}, {"op": "tick", "dt": 1.0}]),
    );
    let before = &stuck[1]["moveto"]["objects"][0];
    assert_eq!(before["forward_command"], Value::Null);
    assert_eq!(before["mgr"], Value::Null);
    for line in &stuck[2..] {
        let o = &line["moveto"]["objects"][0];
        // The speed query created the movement manager in its default state ...
        assert_eq!(o["forward_command"], "0x41000003");
        assert_eq!(o["mgr"]["movement_type"], "Invalid");
        // ... so resting on the ground no longer deactivates the object.
        assert_eq!(o["active"], true);
    }
    let x = f(&stuck[2]["moveto"]["objects"][0]["frame"]["origin"][0]);
    assert!((x - 1.3).abs() < 1e-6, "{x}");

    // The interpolation step asks the same question, with the same result.
    let interp = run_with(
        json!([{"id": "0x00000002", "origin": [3.0, 0.0, 0.0], "radius": 0.5, "height": 1.0}]),
        json!([{"op": "interpolate_to", "object": "0x00000002", "origin": [5.0, 0.0, 0.0]},
               {"op": "tick", "dt": 0.1}, {"op": "tick", "dt": 0.1}]),
    );
    assert_eq!(interp[1]["moveto"]["objects"][0]["mgr"], Value::Null);
    for line in &interp[2..] {
        let o = &line["moveto"]["objects"][0];
        assert_eq!(o["forward_command"], "0x41000003");
        assert_eq!(o["active"], true);
    }
}
