//! Byte-mutation fuzz properties for the ac loaders that read text: the scenario
//! loader and runner (every conformance and sample scenario) and the authoring
//! compiler. Mutated input loads, runs and prints only finite numbers in trace lines
//! of bounded size, or fails with a located error; never a panic or a hang. The record
//! readers and the DAT container have their own properties (records_fuzz.rs,
//! dat_container.rs); the cargo-fuzz targets under fuzz/ drive all of them.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use proptest::prelude::*;
use retroanim_ac::records::authoring::compile_str;
use retroanim_ac::AcSim;
use retroanim_core::mutation::*;
use retroanim_core::{run_scenario, Scenario};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A trace line's size bound with the limits in force (docs/limits.md, L3 and L8):
/// the fixed fields are about 1.5 KB; 8192 hooks, three queues of 1024 entries and 128
/// animation nodes stay under 512 KiB together.
const MAX_LINE_BYTES: usize = 512 * 1024;

fn scenarios() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for dir in [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/scenarios"),
    ] {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        for p in names {
            out.push((dir.clone(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    out
}

/// The line without its cached velocities: ACE's zero-quantum server update leaves
/// Infinity/NaN there and the trace prints them (Q110, limit L6); nothing else may.
fn without_cached_velocities(line: &Value) -> Value {
    match line {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| k.as_str() != "cached_velocity")
                .map(|(k, v)| (k.clone(), without_cached_velocities(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_cached_velocities).collect()),
        other => other.clone(),
    }
}

fn run_checked(doc: Result<Scenario, retroanim_core::ScenarioError>) -> Result<(), TestCaseError> {
    if let Ok(s) = doc {
        if let Ok(lines) = run_scenario::<AcSim>(&s) {
            for l in &lines {
                let l = &without_cached_velocities(l);
                prop_assert!(non_finite_text(l).is_none(), "{:?}", non_finite_text(l));
                let len = l.to_string().len();
                prop_assert!(len <= MAX_LINE_BYTES, "{len} bytes");
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mutated_scenarios_never_panic_hang_or_print_non_finite(
        which in any::<usize>(), es in edits(), k in any::<usize>(), n in edge_number(),
    ) {
        let all = scenarios();
        let (dir, text) = &all[which % all.len()];
        let bytes = mutated(text.as_bytes(), &es);
        if let Ok(t) = std::str::from_utf8(&bytes) {
            run_checked(Scenario::from_str(t, "fuzz.json", dir.clone()))?;
        }
        let mut v: Value = serde_json::from_str(text).unwrap();
        replace_number(&mut v, k, &n);
        run_checked(Scenario::from_value(v, "fuzz.json", dir.clone()))?;
    }

    #[test]
    fn mutated_authoring_source_compiles_or_fails_cleanly(
        es in edits(), k in any::<usize>(), n in edge_number(),
    ) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/humanoid.json");
        let text = std::fs::read_to_string(path).unwrap();
        if let Ok(t) = String::from_utf8(mutated(text.as_bytes(), &es)) {
            let _ = compile_str(&t);
        }
        let mut v: Value = serde_json::from_str(&text).unwrap();
        replace_number(&mut v, k, &n);
        let _ = compile_str(&v.to_string());
    }
}
