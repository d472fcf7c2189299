//! Runs every scenario under tests/conformance/scenarios and compares its trace with
//! the committed one under tests/conformance/traces (tolerance 0, no extra keys).
//!
//! `ACTOR_BLESS=1 cargo test -p retroanim-actor --test conformance` writes missing
//! traces only (never overwrites): new expected traces must be checked by hand
//! against the procedures before they are committed.

use retroanim_core::diff::{diff_traces, DiffOptions};
use retroanim_core::trace::{parse_trace, to_jsonl};
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
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "only {} scenarios", names.len());
    let bless = std::env::var_os("ACTOR_BLESS").is_some();
    let mut failures = Vec::new();
    for path in &names {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let trace_path = dir().join("traces").join(format!("{stem}.jsonl"));
        let got = run(path);
        if !trace_path.exists() {
            if bless {
                std::fs::write(&trace_path, to_jsonl(&got)).unwrap();
                continue;
            }
            failures.push(format!("{stem}: no committed trace"));
            continue;
        }
        let text = std::fs::read_to_string(&trace_path).unwrap();
        let want = parse_trace(&text, &trace_path.display().to_string()).unwrap();
        let opts = DiffOptions {
            tolerance: 0.0,
            allow_extra_keys: false,
        };
        match diff_traces(&want, &got, "expected", "actual", opts) {
            Ok(r) if r.is_equal() => {
                // Exact text too: key order and formatting are part of the format.
                if to_jsonl(&got) != text {
                    failures.push(format!("{stem}: same values, different text"));
                }
            }
            Ok(r) => failures.push(format!("{stem}: {}", r.first.unwrap())),
            Err(e) => failures.push(format!("{stem}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
