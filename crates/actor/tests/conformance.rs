//! Runs every scenario under tests/conformance/scenarios and compares its trace with
//! the committed one under tests/conformance/traces (tolerance 0, no extra keys).
//!
//! `ACTOR_BLESS=1 cargo test -p retroanim-actor --test conformance` writes missing
//! traces (`ACTOR_BLESS=all` rewrites them; never the worked example): new expected traces must be checked by hand
//! against the procedures before they are committed.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_core::conformance::Suite;
use retroanim_core::diff::DiffOptions;
use retroanim_core::trace::to_jsonl;
use retroanim_core::Scenario;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

fn run(path: &Path) -> Vec<serde_json::Value> {
    let s = Scenario::from_file(path).unwrap_or_else(|e| panic!("{e}"));
    retroanim_actor::run_scenario(&s).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_conformance_scenario_matches_its_trace() {
    let suite = Suite {
        root: dir(),
        diff: DiffOptions {
            tolerance: 0.0,
            allow_extra_keys: false,
        },
        // Key order and formatting are part of the format.
        exact_text: true,
        bless_var: "ACTOR_BLESS",
        typed_in: &["worked_example"],
    };
    let report = suite.check(retroanim_actor::run_scenario);
    assert!(
        report.names.len() >= 20,
        "only {} scenarios",
        report.names.len()
    );
    assert!(report.failures.is_empty(), "{}", report.failures.join("\n"));
}

#[test]
fn worked_example_of_section_8_reproduces_exactly() {
    let got = run(&dir().join("scenarios/worked_example.json"));
    let text = std::fs::read_to_string(dir().join("traces/worked_example.jsonl")).unwrap();
    assert_eq!(to_jsonl(&got), text);
}

#[test]
fn sample_scenarios_under_assets_actor_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/actor/scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            let s = Scenario::from_file(&path).unwrap();
            let lines = retroanim_actor::run_scenario(&s).unwrap();
            assert_eq!(lines.len(), s.steps().len() + 1, "{}", path.display());
            assert!(lines[0].get("error").is_none(), "{}", path.display());
            n += 1;
        }
    }
    assert!(n >= 2);
}
