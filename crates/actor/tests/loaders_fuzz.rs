//! Byte-mutation fuzz properties for the actor set loader and the scenario loader:
//! the sample sets and every conformance scenario with random byte edits or a number
//! swapped for an edge value must load or fail with a located fault, never panic or
//! hang. The cargo-fuzz targets under fuzz/ drive the same entry points.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use proptest::prelude::*;
use retroanim_actor::load::load_set;
use retroanim_core::mutation::*;
use retroanim_core::Scenario;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn sets() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/assets");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/actor/flag2.json"));
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn scenarios() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for dir in [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/actor/scenarios"),
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

fn run_checked(doc: Result<Scenario, retroanim_core::ScenarioError>) -> Result<(), TestCaseError> {
    if let Ok(s) = doc {
        if let Ok(lines) = retroanim_actor::run_scenario(&s) {
            for l in &lines {
                prop_assert!(non_finite_text(l).is_none(), "{:?}", non_finite_text(l));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn mutated_actor_sets_load_or_fault_cleanly(
        which in any::<usize>(), es in edits(), k in any::<usize>(), n in edge_number(),
    ) {
        let all = sets();
        let bytes = &all[which % all.len()];
        if let Ok(v) = serde_json::from_slice::<Value>(&mutated(bytes, &es)) {
            let _ = load_set(&v);
        }
        let mut v: Value = serde_json::from_slice(bytes).unwrap();
        replace_number(&mut v, k, &n);
        let _ = load_set(&v);
    }
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
}
