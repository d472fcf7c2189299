//! The late joiner: a client that first sees an object while it is already walking,
//! in a link, running or in a move-to gets `movement_data_for_late_joiner`, applies
//! it to a fresh copy with `apply_movement_data`, and must reach the state of the
//! original and of a copy that received every earlier message in order. Without it the
//! copy starts from the object's resting state and blips when the next correction
//! arrives. Expected commands and speeds are the humanoid sample's, worked out by hand.

// Reads the repository's own scenario fixtures.
#![allow(clippy::disallowed_methods)]

use retroanim_ac::scenario::Step;
use retroanim_ac::wire::{to_hex, Sequences, UpdateMotion};
use retroanim_ac::AcSim;
use retroanim_core::{Scenario, Simulation};
use serde_json::{json, Value};
use std::path::Path;

const READY: &str = "0x41000003";
const WALK_FORWARD: &str = "0x45000005";
const RUN_FORWARD: &str = "0x44000007";
const TURN_RIGHT: &str = "0x6500000d";
const NON_COMBAT: &str = "0x8000003d";

/// A world of the sample humanoid at (60, 60, 0) (id 0x50000001) and a target object
/// 0x2 at (66, 64, 0), opted in to the server loop.
fn world() -> AcSim {
    let doc = json!({"engine": "ac", "asset_dir": "../humanoid",
        "setup": {"motion_table": "0x09000001", "id": "0x50000001",
                  "origin": [60.0, 60.0, 0.0], "clock": 100.0,
                  "objects": [{"id": "0x00000002", "origin": [66.0, 64.0, 0.0],
                               "radius": 0.5, "height": 1.0}]},
        "steps": [{"op": "apply_movement_data", "hex": "00000000"}]});
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    AcSim::load(&Scenario::from_str(&doc.to_string(), "late", dir).unwrap()).unwrap()
}

/// Run one op on a sim; its result string.
fn op(sim: &mut AcSim, step: Value) -> String {
    let s: Step = serde_json::from_value(step).unwrap();
    let line = sim.apply(1, &s, "steps[0]").unwrap();
    serde_json::to_value(line).unwrap()["result"]
        .as_str()
        .unwrap()
        .to_string()
}

fn line(sim: &AcSim) -> Value {
    serde_json::to_value(sim.snapshot()).unwrap()
}

fn interpreted(sim: &AcSim) -> Value {
    line(sim)["interp"]["interpreted"].clone()
}

/// The move-to's type, target and parameters (what the message carries).
fn move_to(sim: &AcSim) -> Value {
    let m = &line(sim)["moveto"]["mgr"];
    json!([m["movement_type"], m["sought_object"], m["params"]])
}

/// The original, the copy that hears every message, and the server's counters for it.
struct Scene {
    original: AcSim,
    follower: AcSim,
    seq: Sequences,
}

impl Scene {
    fn new() -> Scene {
        Scene {
            original: world(),
            follower: world(),
            seq: Sequences::default(),
        }
    }

    /// A command on the original, then its broadcast applied by the follower.
    fn command(&mut self, step: Value) {
        op(&mut self.original, step);
        let data = self.original.obj.movement_data(false);
        let hex = to_hex(&UpdateMotion::write(0x5000_0001, &data, &mut self.seq));
        assert_eq!(
            op(
                &mut self.follower,
                json!({"op": "apply_movement_data", "hex": hex})
            ),
            "None"
        );
    }

    fn tick(&mut self, n: usize) {
        for _ in 0..n {
            op(&mut self.original, json!({"op": "tick", "dt": 0.1}));
            op(&mut self.follower, json!({"op": "tick", "dt": 0.1}));
        }
    }

    /// A copy created now: the original's position, then the late joiner's message
    /// (a fresh sequence counter, as a new client's view of the object has).
    fn late(&self) -> AcSim {
        let mut c = world();
        let o = &self.original.obj;
        let p = retroanim_ac::interpolation::Position::new(o.cell(), o.frame());
        c.obj.set_position(&p);
        let data = o.movement_data_for_late_joiner();
        let hex = to_hex(&UpdateMotion::write(
            0x5000_0001,
            &data,
            &mut Sequences::default(),
        ));
        assert_eq!(
            op(&mut c, json!({"op": "apply_movement_data", "hex": hex})),
            "None"
        );
        c
    }

    /// The late copy agrees with the original and the follower: interpreted state
    /// and move-to. Returns the late copy's interpreted state.
    fn check_late(&mut self) -> Value {
        self.check_late_after(0)
    }

    /// The same after `settle` ticks of all three: a move-to or turn, like every
    /// received one, begins its nodes at the copy's next update.
    fn check_late_after(&mut self, settle: usize) -> Value {
        let mut c = self.late();
        self.tick(settle);
        for _ in 0..settle {
            op(&mut c, json!({"op": "tick", "dt": 0.1}));
        }
        let want = interpreted(&self.original);
        assert_eq!(interpreted(&c), want, "late joiner vs original");
        assert_eq!(interpreted(&self.follower), want, "follower vs original");
        assert_eq!(move_to(&c), move_to(&self.original), "late move-to");
        assert_eq!(move_to(&self.follower), move_to(&self.original));
        want
    }
}

#[test]
fn late_joiner_mid_cycle_and_mid_link() {
    let mut s = Scene::new();
    s.command(json!({"op": "do_motion", "motion": WALK_FORWARD}));
    // Right after the command: the walk link is still playing.
    let i = s.check_late();
    assert_eq!(i["forward_command"], WALK_FORWARD);
    assert_eq!(i["forward_speed"], 1.0);
    assert_eq!(i["current_style"], NON_COMBAT);
    s.tick(3);
    // Mid-cycle.
    let i = s.check_late();
    assert_eq!(i["forward_command"], WALK_FORWARD);
    // Run held: WalkForward becomes RunForward at the run rate (1.0 in the sample).
    s.command(json!({"op": "do_motion", "motion": WALK_FORWARD, "hold_key": "run"}));
    let i = s.check_late();
    assert_eq!(i["forward_command"], RUN_FORWARD);
    assert_eq!(i["forward_speed"], 1.0);
    s.tick(2);
    s.command(json!({"op": "do_motion", "motion": TURN_RIGHT, "speed": 0.5}));
    let i = s.check_late();
    assert_eq!(i["turn_command"], TURN_RIGHT);
    assert_eq!(i["turn_speed"], 0.5);
    assert_eq!(i["forward_command"], RUN_FORWARD);
    s.tick(1);
    s.command(json!({"op": "stop_completely"}));
    s.tick(3);
    let i = s.check_late();
    assert_eq!(i["forward_command"], READY);
    assert_eq!(i["turn_command"], "0x00000000");
    assert_eq!(i["forward_speed"], 1.0);
}

#[test]
fn late_joiner_mid_move_to_object() {
    let mut s = Scene::new();
    s.command(json!({"op": "move_to_object", "target": "0x00000002",
                     "params": {"walk_run_threshold": 15.0}}));
    // Past the opening turn (a copy joining during it starts its own node list
    // where it stands: see docs/ac.md), on the forward leg.
    s.tick(8);
    let i = s.check_late_after(1);
    assert_eq!(i["forward_command"], WALK_FORWARD);
    let m = move_to(&s.original);
    assert_eq!(m[0], "MoveToObject");
    assert_eq!(m[1], "0x00000002");
    assert_eq!(m[2]["walk_run_threshold"], 15.0);
    s.tick(3);
    let i = s.check_late_after(1);
    assert_eq!(i["forward_command"], WALK_FORWARD);
}

#[test]
fn late_joiner_mid_move_to_position_and_turn() {
    let mut s = Scene::new();
    s.command(
        json!({"op": "move_to_position", "origin": [70.0, 60.0, 0.0],
                     "params": {"distance_to_object": 0.6}}),
    );
    s.tick(4);
    let i = s.check_late_after(1);
    // Due east: still in the opening quarter turn to the right, at the default speed,
    // standing (Ready) until it faces the target.
    assert_eq!(i["turn_command"], TURN_RIGHT);
    assert_eq!(i["turn_speed"], 1.0);
    assert_eq!(i["forward_command"], READY);
    let m = move_to(&s.original);
    assert_eq!(m[0], "MoveToPosition");
    assert_eq!(m[2]["distance_to_object"], 0.6);
    s.command(json!({"op": "turn_to_heading",
                     "params": {"desired_heading": 270.0, "speed": 1.5}}));
    s.check_late_after(1);
    s.tick(2);
    let i = s.check_late_after(1);
    // From heading 90 to 270: half a turn, taken to the left (TurnRight at -1.5).
    assert_eq!(i["turn_command"], TURN_RIGHT);
    assert_eq!(i["turn_speed"], -1.5);
    let m = move_to(&s.original);
    assert_eq!(m[0], "TurnToHeading");
    assert_eq!(m[2]["desired_heading"], 270.0);
    assert_eq!(m[2]["speed"], 1.5);
}

/// The committed `apply_movement_data` scenarios: each copy, asked afterwards, sends
/// back the body it received (ACE's own broadcasts from `server_d09`); only the
/// header's sequence numbers are its own.
#[test]
fn applied_broadcasts_are_sent_back_unchanged() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    let cases = [
        (
            "server_apply_movement_data_states",
            "00003d00530000003d00030076be1f3f0000c0bf",
        ),
        (
            "server_apply_movement_data_move_to_object",
            "06003d00020000001300647d0000844200008042000000001fee01009a99193f\
             00000000ffff7f7f0000803f00007041000000000000803f",
        ),
        (
            "server_apply_movement_data_turn_to_heading",
            "09003d001fee01000000c03f00008743",
        ),
    ];
    for (name, body) in cases {
        let scenario = Scenario::from_file(&dir.join(format!("{name}.json"))).unwrap();
        let trace = retroanim_core::run_scenario::<AcSim>(&scenario).unwrap();
        let last = serde_json::to_value(trace.last().unwrap()).unwrap();
        let sent = last["wire"][0].as_str().unwrap();
        assert!(sent.ends_with(body), "{name}: {sent}");
    }
}

/// Bytes that end early are an input error naming the step's `hex` and the offset.
#[test]
fn truncated_movement_data_is_refused_with_the_offset() {
    let mut c = world();
    let s: Step =
        serde_json::from_value(json!({"op": "apply_movement_data", "hex": "4cf70000010000"}))
            .unwrap();
    let e = c.apply(1, &s, "steps[3]").unwrap_err().to_string();
    assert!(e.contains("steps[3].hex"), "{e}");
    assert!(e.contains("byte offset 4"), "{e}");
}
