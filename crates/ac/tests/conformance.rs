//! Runs every scenario under tests/conformance/scenarios and compares its trace with the
//! committed one in tests/conformance/traces (retroanim_core::diff, tolerance 1e-4).
//!
//! `AC_BLESS=1 cargo test -p retroanim-ac --test conformance` writes missing traces
//! (never `example`, whose trace is typed in from spec/ac-conformance.md §8). A new
//! trace is only committed after it has been checked by hand against the rules.

use retroanim_ac::AcSim;
use retroanim_core::diff::{diff_traces, DiffOptions};
use retroanim_core::trace::{parse_trace, to_jsonl};
use retroanim_core::{run_scenario, Scenario};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

fn check(name: &str) -> Result<(), String> {
    let scen = root().join("scenarios").join(format!("{name}.json"));
    let trace = root().join("traces").join(format!("{name}.jsonl"));
    let s = Scenario::from_file(&scen).map_err(|e| e.to_string())?;
    let got = run_scenario::<AcSim>(&s).map_err(|e| e.to_string())?;
    if !trace.exists() && std::env::var("AC_BLESS").is_ok() && name != "example" {
        std::fs::write(&trace, to_jsonl(&got)).map_err(|e| e.to_string())?;
    }
    let text = std::fs::read_to_string(&trace).map_err(|e| format!("{name}: {e}"))?;
    let want = parse_trace(&text, &trace.display().to_string()).map_err(|e| e.to_string())?;
    let report = diff_traces(&want, &got, "expected", "got", DiffOptions::default())
        .map_err(|e| format!("{name}: {e}"))?;
    match report.first {
        None => Ok(()),
        Some(d) => Err(format!(
            "{name}: {d} ({} lines differ)",
            report.divergent_steps
        )),
    }
}

#[test]
fn worked_example_of_the_conformance_spec_reproduces() {
    check("example").unwrap();
}

#[test]
fn every_conformance_scenario_matches_its_trace() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            if p.extension()? != "json" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 26, "only {} scenarios", names.len());
    let failures: Vec<String> = names.iter().filter_map(|n| check(n).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
