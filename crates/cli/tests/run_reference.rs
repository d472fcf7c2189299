//! `retroanim run --reference` plays a scenario through the engine's plain reference and
//! writes the same trace format: on the bundled scenarios of every engine (lone AC object,
//! AC move-to world, HERC threads, HERC mech, actor) the two traces are byte for byte equal.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(scenario: &str, reference: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retroanim"));
    cmd.arg("run").arg(root().join(scenario));
    if reference {
        cmd.arg("--reference");
    }
    let out = cmd.output().expect("the retroanim binary runs");
    assert!(
        out.status.success(),
        "{scenario} (reference: {reference}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("a trace is UTF-8")
}

fn same_trace(scenario: &str) {
    let engine = run(scenario, false);
    let reference = run(scenario, true);
    assert!(engine.lines().count() > 1, "{scenario}: no steps traced");
    assert_eq!(
        engine, reference,
        "{scenario}: the reference wrote another trace"
    );
}

#[test]
fn reference_run_equals_the_engine_on_an_ac_scenario() {
    same_trace("assets/ac/scenarios/walk_to_run.json");
}

#[test]
fn reference_run_equals_the_engine_on_an_ac_move_to_world() {
    same_trace("crates/ac/tests/conformance/scenarios/moveto_sticky_handoff.json");
}

#[test]
fn reference_run_equals_the_engine_on_herc_threads() {
    same_trace("assets/herc/scenarios/idle_walk_run_stop.json");
}

#[test]
fn reference_run_equals_the_engine_on_a_herc_mech() {
    same_trace("assets/herc/scenarios/mech_walk_and_steer.json");
}

#[test]
fn reference_run_equals_the_engine_on_an_actor_scenario() {
    same_trace("assets/actor/scenarios/flag2_two_cycles.json");
}

#[test]
fn reference_run_of_a_bad_scenario_is_the_same_located_error() {
    let dir = std::env::temp_dir().join(format!("retroanim-ref-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"engine":"herc","asset":"nope.json","steps":[]}"#).unwrap();
    let mut errors = Vec::new();
    for reference in [false, true] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_retroanim"));
        cmd.arg("run").arg(&bad);
        if reference {
            cmd.arg("--reference");
        }
        let out = cmd.output().unwrap();
        assert!(!out.status.success());
        errors.push(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(errors[0].contains("asset"), "{}", errors[0]);
    assert_eq!(errors[0], errors[1]);
}
