//! The server loop's rules (quirks Q94–Q112; Q111 is in interpolation.rs): jumping, the wall-clock and server updates,
//! entering and leaving the world, hidden and scale, and what the server broadcasts.
//! Each test runs a short scenario on the sample humanoid records and checks values
//! worked out by hand from the rule.

use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use serde_json::{json, Value};
use std::path::Path;

/// The trace of `steps` after a setup at (60, 60, 0), clock 100, id 0x50000001, with
/// the extra setup fields of `setup`.
fn run(setup: Value, steps: Value) -> Vec<Value> {
    let mut s = json!({"motion_table": "0x09000001", "id": "0x50000001",
                       "origin": [60.0, 60.0, 0.0], "clock": 100.0});
    if let (Value::Object(m), Value::Object(extra)) = (&mut s, setup) {
        m.extend(extra);
    }
    let doc = json!({"engine": "ac", "asset_dir": "../humanoid", "setup": s, "steps": steps});
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    let scenario = Scenario::from_str(&doc.to_string(), "quirk", dir).unwrap();
    run_scenario::<AcSim>(&scenario).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn close(a: &Value, b: f64) -> bool {
    (f(a) - b).abs() <= 1e-6 * b.abs().max(1.0)
}

/// The client-side jump clears only OnWalkable: Contact stays set (ACE leaves losing
/// contact to the collision transition). LeaveGround launches with the weenie's jump
/// velocity and resets the extent and the standing long jump.
#[test]
fn q94_client_jump_keeps_contact() {
    let t = run(
        json!({"jump_skill": 250, "burden": 0.5, "jump_stamina": 1.0}),
        json!([{"op": "charge_jump"}, {"op": "jump", "extent": 1.0, "stamina": 5}]),
    );
    assert_eq!(t[1]["interp"]["standing_long_jump"], true);
    let p = &t[2]["phys"];
    assert_eq!(t[2]["result"], "None");
    assert_eq!(p["contact"], true);
    assert_eq!(p["on_walkable"], false);
    assert_eq!(p["acceleration"], json!([0.0, 0.0, -9.8]));
    // skill 250: (250/1550·22.2 + 0.05)·1.0 = 3.6306452 m; √(3.6306452·19.6) = 8.435677
    assert!(close(&p["velocity"][2], 8.435677));
    assert_eq!(t[2]["server"]["jump_extent"], 0.0);
    assert_eq!(t[2]["interp"]["standing_long_jump"], false);
}

/// The jump height has a floor of 0.35 m, and a weenie that is not a player answers no
/// jump velocity at all (vertical speed 0).
#[test]
fn q95_jump_height_floor_and_non_players() {
    // skill 0: 0.05·0.5 = 0.025 m → 0.35 m; √(0.35·19.6) = √6.86 = 2.6191602
    let t = run(
        json!({"jump_skill": 0, "jump_stamina": 1.0}),
        json!([{"op": "jump", "extent": 0.5}]),
    );
    assert!(close(&t[1]["phys"]["velocity"][2], 2.6191602));
    let t = run(
        json!({"jump_stamina": 1.0}),
        json!([{"op": "jump", "extent": 1.0}]),
    );
    assert_eq!(t[1]["result"], "None");
    assert_eq!(t[1]["phys"]["velocity"], json!([0.0, 0.0, 0.0]));
    assert_eq!(t[1]["phys"]["on_walkable"], false);
}

/// The server-side jump (the player's JumpPack) clears Contact, takes the client's
/// velocity, drops link animations (the table manager's pending walk completes as
/// failed), clears the interpreter's pending list outright, and broadcasts an empty
/// autonomous motion and the velocity.
#[test]
fn q96_server_jump_drops_pending_motions_silently() {
    let t = run(
        json!({}),
        json!([{"op": "do_motion", "motion": "0x45000005"},
               {"op": "jump", "extent": 0.6, "velocity": [0.0, 0.0, 4.5]}]),
    );
    let l = &t[2];
    assert_eq!(l["phys"]["contact"], false);
    assert_eq!(l["phys"]["on_walkable"], false);
    assert_eq!(l["phys"]["velocity"], json!([0.0, 0.0, 4.5]));
    assert_eq!(l["interp"]["pending"], json!([]));
    assert_eq!(l["interp"]["is_animating"], false);
    assert_eq!(l["motions_done"], json!([["0x45000005", false]]));
    assert_eq!(
        l["wire"],
        json!([
            "4cf700000100005000000100000001000000000000000000",
            "4ef700000100005000000000000000000000904000000000000000000000000000000100"
        ])
    );
}

/// `update_object`'s TickRate is 1/30 as f32 (0.033333335): a step of exactly 1/30 s
/// in f64 (0.0333333333) is below it and is refused, the time staying owed.
#[test]
fn q97_a_thirtieth_of_a_second_is_below_tick_rate() {
    let t = run(
        json!({}),
        json!([{"op": "update_object", "now": 100.0 + 1.0 / 30.0},
               {"op": "update_object", "now": 100.034}]),
    );
    assert_eq!(t[1]["result"], "false");
    assert_eq!(t[1]["server"]["update_time"], 100.0);
    assert_eq!(t[2]["result"], "true");
    assert_eq!(t[2]["server"]["update_time"], 100.034);
}

/// The legacy server update refuses a request more than a landblock away (the initial
/// RequestPos is cell 0) but stamps the update time anyway; a reachable request is
/// taken exactly, and on the ground the cached velocity ends at zero.
#[test]
fn q98_legacy_server_update() {
    let t = run(
        json!({}),
        json!([{"op": "update_object_server", "now": 100.1},
               {"op": "update_object_server", "now": 100.5,
                "request_pos": {"origin": [60.0, 61.5, 0.0]}}]),
    );
    assert_eq!(t[1]["result"], "false");
    assert_eq!(t[1]["server"]["update_time"], 100.1);
    assert_eq!(t[1]["frame"]["origin"], json!([60.0, 60.0, 0.0]));
    assert_eq!(t[2]["result"], "true");
    assert_eq!(t[2]["frame"]["origin"], json!([60.0, 61.5, 0.0]));
    assert_eq!(t[2]["phys"]["cached_velocity"], json!([0.0, 0.0, 0.0]));
    assert_eq!(t[2]["server"]["request_pos"]["cell"], "0x7d640013");
}

/// `update_object_server_new` has no TickRate gate, simulates its quanta even when the
/// request is unreachable (and then answers false), and sets the update time to the
/// old one plus the quanta run, not to the clock.
#[test]
fn q99_new_server_update_simulates_even_when_refusing() {
    let t = run(
        json!({}),
        json!([{"op": "do_motion", "motion": "0x45000005"},
               {"op": "update_object_server_new", "now": 100.02},
               {"op": "update_object_server_new", "now": 100.12}]),
    );
    // 0.02 s: below MinQuantum, nothing runs; the update time stays 100.
    assert_eq!(t[2]["result"], "false");
    assert_eq!(t[2]["server"]["update_time"], 100.0);
    // 0.12 s: one 0.1 step (0.1f as f64 = 0.10000000149011612) and 0.02 carried.
    assert_eq!(t[3]["result"], "false");
    assert!(close(&t[3]["server"]["update_time"], 100.10000000149012));
    assert!(f(&t[3]["frame"]["origin"][1]) > 60.0);
}

/// `exit_world` leaves the object in its cell and active: it keeps ticking.
#[test]
fn q100_exit_world_keeps_ticking() {
    let t = run(
        json!({"origin": [10.0, 20.0, 0.0]}),
        json!([{"op": "do_motion", "motion": "0x45000005"},
               {"op": "tick", "dt": 0.1}, {"op": "tick", "dt": 0.1},
               {"op": "exit_world"}, {"op": "tick", "dt": 0.1}]),
    );
    assert_eq!(t[4]["phys"]["active"], true);
    assert_eq!(t[4]["phys"]["in_cell"], true);
    // Walking at 3.12 m/s: 0.1 s more is 0.312 m (20.354 → 20.666).
    assert_eq!(t[3]["frame"]["origin"][1], 20.354);
    assert_eq!(t[5]["frame"]["origin"][1], 20.666);
}

/// `leave_world` zeroes the cell id and clears every transient flag; ticks then do
/// nothing. `enter_world` recomputes an outdoor cell from the origin.
#[test]
fn q101_leave_and_enter_world() {
    let t = run(
        json!({}),
        json!([{"op": "leave_world"}, {"op": "tick", "dt": 0.1},
               {"op": "enter_world", "origin": [30.0, 40.0, 0.0]}]),
    );
    let p = &t[1]["phys"];
    assert_eq!(
        (
            &p["active"],
            &p["in_cell"],
            &p["contact"],
            &p["on_walkable"]
        ),
        (&json!(false), &json!(false), &json!(false), &json!(false))
    );
    assert_eq!(t[1]["server"]["cell"], "0x00000000");
    // (30, 40): column 30/24 = 1, row 40/24 = 1 → cell 1·8 + 1 + 1 = 0x0a.
    assert_eq!(t[3]["server"]["cell"], "0x7d64000a");
    assert_eq!(t[3]["phys"]["active"], true);
}

/// Hiding sets Hidden and swaps ReportCollisions for IgnoreCollisions; a hidden object
/// neither animates nor moves.
#[test]
fn q102_hidden_objects_do_not_animate() {
    let t = run(
        json!({}),
        json!([{"op": "set_hidden"}, {"op": "tick", "dt": 0.1},
               {"op": "set_hidden", "hidden": false}]),
    );
    // EdgeSlide 0x400000 | LightingOn 0x800 | Gravity 0x400 | Hidden 0x4000 | Ignore 0x10
    assert_eq!(t[1]["server"]["state"], "0x00404c10");
    assert_eq!(t[2]["seq"]["frame"], 0.0);
    assert_eq!(t[3]["server"]["state"], "0x00400c08");
}

/// The scale multiplies the animation's offset on walkable ground: at scale 2 the walk
/// link covers twice its distance (0.15 → 0.3 in 0.1 s).
#[test]
fn q103_scale_multiplies_the_walk() {
    let t = run(
        json!({}),
        json!([{"op": "set_scale", "scale": 2.0},
               {"op": "do_motion", "motion": "0x45000005"}, {"op": "tick", "dt": 0.1}]),
    );
    assert_eq!(t[1]["server"]["scale"], 2.0);
    assert_eq!(t[3]["frame"]["origin"][1], 60.3);
}

/// MoveToState walk forward holding Run: raw flags 0x5, hold key 2, WalkForward,
/// position (cell 0x7d640013, 60, 60, 0, identity), four zero sequences, contact byte.
const MOVE_TO_STATE_RUN: &str = "0500000002000000050000451300647d0000704200007042000000000000803f000000000000000000000000000000000000000001000000";

/// With FastTick off a MoveToState changes no physics, yet it is still broadcast.
#[test]
fn q104_move_to_state_without_fast_tick_is_only_broadcast() {
    let t = run(
        json!({"fast_tick": false}),
        json!([{"op": "move_to_state_bytes", "hex": MOVE_TO_STATE_RUN}]),
    );
    assert_eq!(
        t[1]["interp"]["interpreted"]["forward_command"],
        "0x41000003"
    );
    assert_eq!(t[1]["interp"]["raw"]["current_hold_key"], "none");
    // guid, instance 0, movement 1, server control 0 (autonomous), 1, pad; type 0,
    // flags 0, style 0; state flags 0x2 (forward), RunForward as u16 (0x0007), pad.
    assert_eq!(
        t[1]["wire"],
        json!(["4cf70000010000500000010000000100000000000200000007000000"])
    );
    assert_eq!(
        t[1]["server"]["requested_location"]["origin"],
        json!([60.0, 60.0, 0.0])
    );
}

/// The broadcast of a MoveToState derives the interpreted state from the raw keys:
/// TurnRight at 1.5 when Run is held, unless the client's turn speed is in (0, 1.5].
#[test]
fn q105_move_to_state_broadcast_turn_speed() {
    // flags 0x505: hold key Run, WalkForward, TurnRight, turn speed 1.0.
    let hex = "0505000002000000050000450d0000650000803f1300647d0000704200007042000000000000803f000000000000000000000000010001000000000001000000";
    let t = run(
        json!({}),
        json!([{"op": "move_to_state_bytes", "hex": hex}]),
    );
    // Flags 0x22: forward (RunForward 0x0007) and turn (TurnRight 0x000d); speed 1.0 is
    // the default, so no speed field.
    assert_eq!(
        t[1]["wire"],
        json!(["4cf70000010000500000010000000100000000002200000007000d00"])
    );
    // The physics applies Run to the turn: 1.5.
    assert_eq!(t[1]["interp"]["interpreted"]["turn_speed"], 1.5);
}

/// `IsMovingOrAnimating` ignores the forward command: a runner whose cached velocity a
/// server update has zeroed reads as not moving.
#[test]
fn q106_running_without_cached_velocity_is_not_moving() {
    let t = run(
        json!({}),
        json!([{"op": "move_to_state_bytes", "hex": MOVE_TO_STATE_RUN},
               {"op": "update_object", "now": 100.2},
               {"op": "update_object_server", "now": 100.3}]),
    );
    assert_eq!(t[2]["server"]["moving_or_animating"], true);
    assert_eq!(
        t[3]["interp"]["interpreted"]["forward_command"],
        "0x44000007"
    );
    assert_eq!(t[3]["server"]["moving_or_animating"], false);
}

/// `movement_data`: a server-initiated message takes the next server-control sequence,
/// an autonomous one repeats the current; the action items are numbered from 2.
#[test]
fn q107_movement_data_sequences() {
    let t = run(
        json!({}),
        json!([{"op": "movement_data"}, {"op": "movement_data", "autonomous": true},
               {"op": "do_motion", "motion": "0x13000087"}, {"op": "movement_data"}]),
    );
    // movement 1, server control 1, not autonomous; Ready in NonCombat.
    assert_eq!(
        t[1]["wire"],
        json!(["4cf7000001000050000001000100000000003d00030000003d000300"])
    );
    // movement 2, server control stays 1, autonomous.
    assert_eq!(
        t[2]["wire"],
        json!(["4cf7000001000050000002000100010000003d00030000003d000300"])
    );
    // One item (count 1 << 7 | flags 0x3 = 0x83): Wave 0x0087, number 2, speed 1.0.
    assert_eq!(
        t[4]["wire"],
        json!(["4cf7000001000050000003000200000000003d00830000003d000300870002000000803f"])
    );
}

/// The object of a fresh server-loop scenario (no steps run), for the engine calls.
fn fresh() -> AcSim {
    use retroanim_core::Simulation;
    let doc = json!({"engine": "ac", "asset_dir": "../humanoid",
        "setup": {"motion_table": "0x09000001", "origin": [60.0, 60.0, 0.0]},
        "steps": [{"op": "update_object", "now": 100.05}]});
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    AcSim::load(&Scenario::from_str(&doc.to_string(), "fresh", dir).unwrap()).unwrap()
}

/// The interpreted state of `sim`'s object, as its trace line shows it.
fn interpreted(sim: &AcSim) -> Value {
    use retroanim_core::Simulation;
    serde_json::to_value(sim.snapshot()).unwrap()["interp"]["interpreted"].clone()
}

/// `is_standing_still` needs walkable ground, Ready and no sidestep or turn;
/// `motions_pending` (the interpreter's list) empties once the animations complete.
#[test]
fn standing_still_and_motions_pending() {
    use retroanim_ac::commands::{MovementParameters, WALK_FORWARD};
    let mut sim = fresh();
    let o = &mut sim.obj;
    assert!(o.mi_is_standing_still());
    assert!(o.mi_motions_pending()); // the setup's Ready is still queued
    o.update_object(100.1);
    assert!(!o.mi_motions_pending());
    o.do_motion(WALK_FORWARD, &MovementParameters::default());
    assert!(!o.mi_is_standing_still());
    assert!(o.motions_pending()); // IsAnimating while the walk link plays
}

/// `OnMoveToState_ClientMethod`: a newly held forward key is Ready then the key (Walk
/// promoted to Run by the held Run key); releasing it stops it.
#[test]
fn move_to_state_client_method_presses_and_releases_keys() {
    use retroanim_ac::wire::RawMotionState;
    let mut sim = fresh();
    let o = &mut sim.obj;
    let held = RawMotionState {
        flags: 0x5,
        current_hold_key: 2,
        forward_command: 0x4500_0005,
        ..RawMotionState::default()
    };
    o.on_move_to_state_client(&held, None);
    assert_eq!(interpreted(&sim)["forward_command"], "0x44000007");
    let released = RawMotionState {
        flags: 0x1,
        current_hold_key: 2,
        ..RawMotionState::default()
    };
    sim.obj.on_move_to_state_client(&released, Some(&held));
    assert_eq!(interpreted(&sim)["forward_command"], "0x41000003");
}

/// `ReportExhaustion` re-applies the raw state of a creature that moved on its own:
/// a walk commanded with Run held once falls back to Walk (the raw hold key is unset).
#[test]
fn report_exhaustion_reapplies_the_raw_state() {
    use retroanim_ac::commands::{HoldKey, MovementParameters, WALK_FORWARD};
    let mut sim = fresh();
    let o = &mut sim.obj;
    let run = MovementParameters {
        hold_key_to_apply: HoldKey::Run,
        ..MovementParameters::default()
    };
    o.do_motion(WALK_FORWARD, &run);
    assert_eq!(interpreted(&sim)["forward_command"], "0x44000007");
    sim.obj.mi_report_exhaustion();
    assert_eq!(interpreted(&sim)["forward_command"], "0x45000005");
}

/// A remote copy that applies an object's broadcast reaches its interpreted state:
/// running (Walk with Run held), turning left at 1.5, one Wave.
#[test]
fn a_remote_copy_applying_the_broadcast_reaches_the_same_state() {
    use retroanim_ac::commands::{HoldKey, MovementParameters, TURN_LEFT, WALK_FORWARD};
    let mut a = fresh();
    let run = MovementParameters {
        hold_key_to_apply: HoldKey::Run,
        ..MovementParameters::default()
    };
    a.obj.do_motion(WALK_FORWARD, &run);
    a.obj.do_motion(TURN_LEFT, &run);
    a.obj.do_motion(0x1300_0087, &MovementParameters::default());
    let data = a.obj.movement_data(false);
    // Through the wire and back.
    let mut seq = retroanim_ac::wire::Sequences::default();
    let msg = retroanim_ac::wire::UpdateMotion::write(1, &data, &mut seq);
    let got = retroanim_ac::wire::UpdateMotion::read(&msg).unwrap().data;
    let mut b = fresh();
    assert_eq!(
        b.obj.apply_movement_data(&got),
        retroanim_ac::commands::WeenieError::None
    );
    let (x, y) = (interpreted(&a), interpreted(&b));
    assert_eq!(y["current_style"], "0x8000003d");
    assert_eq!(y["forward_command"], "0x44000007");
    assert_eq!(
        (&y["turn_command"], &y["turn_speed"]),
        (&json!("0x6500000d"), &json!(-1.5))
    );
    assert_eq!(x["forward_speed"], y["forward_speed"]);
    // The Wave arrived numbered 2, newer than the copy's last stamp 0, so it was
    // performed (with its params' stamp 0, as ACE passes it on).
    assert_eq!(y["actions"], json!([["0x13000087", 1.0, 0, false]]));
}

/// A move to a position applied to a copy starts the same move.
#[test]
fn a_remote_copy_starts_the_broadcast_move() {
    use retroanim_ac::server_loop::params_from_flags;
    use retroanim_ac::wire::movement_data::MoveToParameters;
    use retroanim_ac::wire::{MovementBody, MovementData};
    assert_eq!(params_from_flags(0x0001_ee1f).flags(), 0x0001_ee1f);
    let data = MovementData {
        autonomous: false,
        motion_flags: 0,
        style: 0x8000_003d,
        body: MovementBody::MoveToPosition {
            origin: (0x7d64_0013, [70.0, 60.0, 0.0]),
            params: MoveToParameters {
                flags: 0x0001_ee1f,
                distance_to_object: 0.6,
                min_distance: 0.0,
                fail_distance: f32::MAX,
                speed: 1.0,
                walk_run_threshold: 15.0,
                desired_heading: 0.0,
            },
            run_rate: 1.0,
        },
    };
    let mut b = fresh();
    b.obj.apply_movement_data(&data);
    // The copy now broadcasts the same move (a MoveToPosition to (70, 60) with the
    // sent parameters and the copy's run rate).
    assert_eq!(b.obj.movement_data(false).body, data.body);
    // Target due east (heading 90): the move begins with a right turn.
    assert_eq!(interpreted(&b)["turn_command"], "0x6500000d");
}

/// A truncated message in a scenario is an input error naming the step and the byte
/// offset, not a panic.
#[test]
fn truncated_message_bytes_are_refused_with_the_offset() {
    let doc = json!({"engine": "ac", "asset_dir": "../humanoid",
        "setup": {"motion_table": "0x09000001"},
        "steps": [{"op": "jump_pack_bytes", "hex": "0000403f0000"}]});
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    let scenario = Scenario::from_str(&doc.to_string(), "bad", dir).unwrap();
    let e = run_scenario::<AcSim>(&scenario).unwrap_err().to_string();
    assert!(e.contains("steps[0].hex"), "{e}");
    assert!(e.contains("truncated at byte offset 4"), "{e}");
}

/// ACE's MoveToState reader keeps only soul emotes at speed 1.0 among the client's
/// actions: Wave at 1.0 survives, Wave at 2.0 and a non-emote command are dropped, so
/// the broadcast carries one item.
#[test]
fn q108_move_to_state_keeps_only_soul_emotes() {
    // Packed flags: no fields, 3 actions (3 << 11). Wave 0x0087 #1 autonomous at 1.0;
    // Wave #2 at 2.0; command 0x0058 (no emote) #3 at 1.0. Then the position at
    // (60, 60, 0) in 0x7d640013, sequences 1, 1, 0, 0, contact, padding.
    let hex = concat!(
        "00180000",
        "870001800000803f",
        "8700028000000040",
        "580003800000803f",
        "1300647d0000704200007042000000000000803f000000000000000000000000",
        "010001000000000001000000"
    );
    let state =
        retroanim_ac::wire::MoveToState::from_bytes(&retroanim_ac::wire::from_hex(hex).unwrap())
            .unwrap();
    assert_eq!(state.raw.commands.len(), 1);
    assert_eq!(state.raw.commands[0].command, 0x1300_0087);
    assert_eq!(state.raw.commands[0].speed, 1.0);
    let t = run(
        json!({}),
        json!([{"op": "move_to_state_bytes", "hex": hex}]),
    );
    // Header as in Q104; type 0, flags 0, style 0; state: no fields, one item
    // (1 << 7); Wave, the object's first motion number 2 with the autonomous bit
    // (0x8002), speed 1.0.
    assert_eq!(
        t[1]["wire"],
        json!(["4cf700000100005000000100000001000000000080000000870002800000803f"])
    );
}

/// A MoveToState that announced actions of which ACE's reader kept none is applied and
/// remembered but never broadcast: `Player.BroadcastMovement` reads the first action of
/// the empty list and the handler throws before writing the message. The next broadcast
/// therefore still carries movement sequence 1.
#[test]
fn q109_move_to_state_with_only_rejected_actions_is_not_broadcast() {
    // One action (1 << 11): command 0x0058 (no emote) at 1.0; then WalkForward alone.
    let rejected = concat!(
        "00080000",
        "580001800000803f",
        "1300647d0000704200007042000000000000803f000000000000000000000000",
        "010001000000000001000000"
    );
    let walk = concat!(
        "0400000005000045",
        "1300647d0000704200007042000000000000803f000000000000000000000000",
        "010001000000000001000000"
    );
    let t = run(
        json!({}),
        json!([{"op": "move_to_state_bytes", "hex": rejected},
               {"op": "move_to_state_bytes", "hex": walk}]),
    );
    assert_eq!(t[1]["wire"], json!([]));
    assert_eq!(
        t[1]["server"]["requested_location"]["origin"],
        json!([60.0, 60.0, 0.0])
    );
    // Movement sequence 1 (0x0100 after guid and instance), server control 0,
    // autonomous; state flags 0x2, WalkForward as u16 (0x0005), padding.
    assert_eq!(
        t[2]["wire"],
        json!(["4cf70000010000500000010000000100000000000200000005000000"])
    );
    assert_eq!(
        t[2]["interp"]["interpreted"]["forward_command"],
        "0x45000005"
    );
}

/// A server update with no elapsed time divides the move by a zero quantum, as ACE does:
/// 1 m along x over 0 s is (Infinity, NaN, NaN), and the trace prints those strings. The
/// forced position then puts back the value cached at `set_request_pos` (Q98), which the
/// first call left non-finite; the next tick computes a fresh one.
#[test]
fn q110_zero_elapsed_server_update_caches_infinity() {
    let t = run(
        json!({"contact": false}),
        json!([{"op": "update_object_server", "now": 100.0,
                "request_pos": {"origin": [61.0, 60.0, 0.0]}, "force_pos": false},
               {"op": "update_object_server", "now": 100.0,
                "request_pos": {"origin": [61.0, 60.0, 0.0]}},
               {"op": "tick", "dt": 0.1}]),
    );
    assert_eq!(t[1]["result"], "true");
    assert_eq!(t[1]["frame"]["origin"], json!([61.0, 60.0, 0.0]));
    assert_eq!(
        t[1]["phys"]["cached_velocity"],
        json!(["Infinity", "NaN", "NaN"])
    );
    assert_eq!(t[1]["server"]["moving_or_animating"], true);
    assert_eq!(
        t[2]["phys"]["cached_velocity"],
        json!(["Infinity", "NaN", "NaN"])
    );
    assert_eq!(t[3]["phys"]["cached_velocity"], json!([0.0, 0.0, 0.0]));
}

/// The same soul emote again before its animation has ended goes out without its
/// action. Wave's link from Ready (NonCombat) is animation 0x03000120, frames 0 to its
/// last (24 frames) at 30 per second: 0.8 s. Sent at 100.0, repeated at 100.5 (stripped),
/// repeated at 100.9 (kept, numbered 3 since the stripped message wrote no item).
#[test]
fn q112_a_repeated_soul_emote_within_its_length_is_stripped() {
    let wave = concat!(
        "00080000",
        "870001800000803f",
        "1300647d0000704200007042000000000000803f000000000000000000000000",
        "010001000000000001000000"
    );
    let t = run(
        json!({}),
        json!([{"op": "move_to_state_bytes", "hex": wave},
               {"op": "update_object", "now": 100.5},
               {"op": "move_to_state_bytes", "hex": wave},
               {"op": "update_object", "now": 100.9},
               {"op": "move_to_state_bytes", "hex": wave}]),
    );
    assert_eq!(
        t[1]["wire"],
        json!(["4cf700000100005000000100000001000000000080000000870002800000803f"])
    );
    // movement 2; state: no fields, no items.
    assert_eq!(
        t[3]["wire"],
        json!(["4cf700000100005000000200000001000000000000000000"])
    );
    assert_eq!(
        t[5]["wire"],
        json!(["4cf700000100005000000300000001000000000080000000870003800000803f"])
    );
}
