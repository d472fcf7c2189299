//! Runs every scenario under tests/conformance/scenarios and compares its trace with the
//! committed one in tests/conformance/traces (retroanim_core::diff, tolerance 1e-4).
//!
//! `AC_BLESS=1 cargo test -p retroanim-ac --test conformance` writes missing traces,
//! `AC_BLESS=all` rewrites them (never `example`, whose trace is typed in from the worked example). A new
//! trace is only committed after it has been checked by hand against the rules.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::AcSim;
use retroanim_core::conformance::Suite;
use retroanim_core::diff::DiffOptions;
use retroanim_core::run_scenario;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

fn suite() -> Suite<'static> {
    Suite {
        root: root(),
        diff: DiffOptions::default(),
        exact_text: false,
        bless_var: "AC_BLESS",
        typed_in: &[
            "example",
            "moveto_sticky_handoff",
            "server_d01_standing_jump_landing",
            "server_d02_running_jump",
            "server_d03_charge_then_jump",
            "server_d04_update_object_gaps",
            "server_d05_update_object_server_request",
            "server_d06_exit_enter_world_mid_walk",
            "server_d07_hidden_ticking",
            "server_d08_scale2_walking",
            "server_d09_movement_data_states",
            "server_d10_move_to_state_round_trip",
            "server_d11_jump_pack",
            "server_d12_server_weenie_and_non_fasttick",
        ],
    }
}

fn check(name: &str) -> Result<(), String> {
    suite().check_named(name, run_scenario::<AcSim>)
}

#[test]
fn worked_example_of_the_conformance_spec_reproduces() {
    check("example").unwrap();
}

/// The several-object worked example (a move-to ending in a sticky hand-off) is
/// reproduced byte for byte, not only within the comparison tolerance.
#[test]
fn moveto_worked_example_reproduces_byte_for_byte() {
    check("moveto_sticky_handoff").unwrap();
    let scenario =
        retroanim_core::Scenario::from_file(&root().join("scenarios/moveto_sticky_handoff.json"))
            .unwrap();
    let got = run_scenario::<AcSim>(&scenario).unwrap();
    let want = std::fs::read_to_string(root().join("traces/moveto_sticky_handoff.jsonl")).unwrap();
    assert_eq!(retroanim_core::trace::to_jsonl(&got), want);
}

#[test]
fn every_conformance_scenario_matches_its_trace() {
    let report = suite().check(run_scenario::<AcSim>);
    assert!(
        report.names.len() >= 26,
        "only {} scenarios",
        report.names.len()
    );
    assert!(report.failures.is_empty(), "{}", report.failures.join("\n"));
}
