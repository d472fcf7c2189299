//! The twelve server-loop examples run through ACE's own code (jumps, the wall-clock
//! and server updates, entering and leaving the world, hidden, scale, the wire) are
//! reproduced: within the trace tolerance, and every `wire` string byte for byte.

// Reads the repository's own fixtures.
#![allow(clippy::disallowed_methods)]

use retroanim_ac::AcSim;
use retroanim_core::diff::{diff_traces, DiffOptions};
use retroanim_core::{run_scenario, Scenario};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

const EXAMPLES: [&str; 12] = [
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
];

/// Differences of one example: the first differing lines, and wire mismatches.
fn differences(name: &str) -> Vec<String> {
    let scenario = Scenario::from_file(&root().join(format!("scenarios/{name}.json"))).unwrap();
    let got = run_scenario::<AcSim>(&scenario).unwrap();
    let want: Vec<Value> = std::fs::read_to_string(root().join(format!("traces/{name}.jsonl")))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out = Vec::new();
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        if g.get("wire") != w.get("wire") {
            out.push(format!(
                "{name} line {k}: wire {} != {}",
                g["wire"], w["wire"]
            ));
        }
    }
    match diff_traces(&got, &want, "ours", name, DiffOptions::default()) {
        Err(e) => out.push(format!("{name}: {e}")),
        Ok(r) if !r.is_equal() => out.push(format!(
            "{name}: {} divergent lines, first {:?}",
            r.divergent_steps, r.first
        )),
        Ok(_) => {}
    }
    out
}

/// The examples our trace reproduces byte for byte (not only within tolerance).
fn byte_identical() -> Vec<&'static str> {
    EXAMPLES
        .iter()
        .copied()
        .filter(|name| {
            let scenario =
                Scenario::from_file(&root().join(format!("scenarios/{name}.json"))).unwrap();
            let got = run_scenario::<AcSim>(&scenario).unwrap();
            let want =
                std::fs::read_to_string(root().join(format!("traces/{name}.jsonl"))).unwrap();
            retroanim_core::trace::to_jsonl(&got) == want
        })
        .collect()
}

#[test]
fn server_loop_examples_byte_for_byte() {
    let same = byte_identical();
    assert_eq!(same.len(), EXAMPLES.len(), "byte-identical: {same:?}");
}

#[test]
fn every_server_loop_example_reproduces() {
    let all: Vec<String> = EXAMPLES.iter().flat_map(|n| differences(n)).collect();
    assert!(all.is_empty(), "{}", all.join("\n"));
}
