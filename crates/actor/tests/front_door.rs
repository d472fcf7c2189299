//! The front door (`load_set_file`, `Stage`) and the `flag_wave` example.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

#[path = "../examples/flag_wave.rs"]
mod flag_wave;

use retroanim_actor::arbitration::Outcome;
use retroanim_actor::{load_set_file, load_set_str, FaultKind, SetError, Stage, StageError};

const FLAG2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/actor/flag2.json");

#[test]
fn flag_wave_example_alternates_the_wave_frames_every_update() {
    // "wave" (group 1) shows ref 2 then ref 3 of model 40's four frames, one update each
    // (countdown 1 per frame during the twelve one-tick warm-up updates), then loops.
    let expected: String = (1..=8)
        .map(|u| {
            let f = if u % 2 == 1 { 2 } else { 3 };
            format!("update {u}: group Some(1) frame Some([40, {f}])\n")
        })
        .collect();
    assert_eq!(flag_wave::run().unwrap(), expected);
}

#[test]
fn placement_plays_the_idle_group_before_any_request() {
    let mut stage = Stage::new(load_set_file(FLAG2).unwrap()).unwrap();
    stage.update().unwrap();
    assert_eq!(stage.current_group("flag_a").unwrap(), Some(0));
    // Idle shows refs 0 and 1: model 40, frames 0 and 1.
    assert_eq!(stage.frame("flag_a").unwrap(), Some([40, 0]));
    assert_eq!(stage.ticks(), 1);
    let ids: Vec<&str> = stage.frames().map(|(id, _)| id).collect();
    assert_eq!(
        ids,
        [
            "flag_a",
            "flag_b",
            "flag_c",
            "flag_d",
            "flag_corner",
            "flag_e"
        ]
    );
}

#[test]
fn a_forced_request_is_accepted_and_an_unknown_actor_is_refused() {
    let mut stage = Stage::new(load_set_file(FLAG2).unwrap()).unwrap();
    assert_eq!(stage.force_request("flag_b", 10, 0), Ok(Outcome::Accepted));
    assert_eq!(
        stage.request("nobody", 1, 0),
        Err(StageError::NoSuchActor("nobody".into()))
    );
}

#[test]
fn a_rejected_set_names_the_file_model_group_and_command() {
    let text = std::fs::read_to_string(FLAG2)
        .unwrap()
        .replacen("\"ref\": 3", "\"ref\": 99", 1);
    match load_set_str(&text, "flag2-broken.json") {
        Err(SetError::Rejected { file, fault }) => {
            assert_eq!(file, "flag2-broken.json");
            assert_eq!(fault.kind, FaultKind::RefPastTable);
            assert_eq!(
                (fault.model.as_deref(), fault.group, fault.command),
                (Some("flag2"), Some(1), Some(1))
            );
        }
        other => panic!("expected a rejected set, got {other:?}"),
    }
    let e = load_set_str("{", "x.json").unwrap_err();
    assert!(matches!(e, SetError::Json { line: 1, .. }), "{e}");
}

#[test]
fn the_stage_plays_exactly_as_the_conformance_runner_traces() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/actor/scenarios/flag2_two_cycles.json"
    );
    let scenario = retroanim_core::Scenario::from_file(std::path::Path::new(path)).unwrap();
    let trace = retroanim_actor::run_scenario(&scenario).unwrap();
    let mut stage = Stage::builder(load_set_file(FLAG2).unwrap())
        .view([3000, 3000])
        .build()
        .unwrap();
    // Every step of this scenario is an update.
    assert_eq!(trace.len(), 171);
    for line in &trace[1..] {
        stage.update().unwrap();
        let actors = line["actors"].as_array().unwrap();
        for ((id, frame), a) in stage.frames().zip(actors) {
            assert_eq!(a["id"], id);
            assert_eq!(a["anim"]["frame"], serde_json::to_value(frame).unwrap());
        }
        assert_eq!(line["ticks"], stage.ticks());
    }
}
