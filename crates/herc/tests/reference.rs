//! The reference (the plain DBSIM algorithm, `retroanim_herc::reference`) writes every
//! committed herc trace byte for byte: the conformance scenarios, the mech scenarios, and
//! the sample scenarios under assets/herc/scenarios (whose trace is the fast engine's).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_core::Scenario;
use std::path::{Path, PathBuf};

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn scenarios(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}

fn lines(values: &[serde_json::Value]) -> Vec<String> {
    values.iter().map(|v| v.to_string()).collect()
}

/// Every scenario of `suite` (its scenarios/ and traces/ folders) through the reference
/// against its committed trace, text for text. Returns how many were checked.
fn check_suite(suite: &str) -> usize {
    let root = here(suite);
    let paths = scenarios(&root.join("scenarios"));
    for path in &paths {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let scenario = Scenario::from_file(path).unwrap();
        let got = retroanim_herc::reference::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
        let trace = root.join("traces").join(format!("{name}.jsonl"));
        let text =
            std::fs::read_to_string(&trace).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
        let want: Vec<&str> = text.lines().collect();
        let got = lines(&got);
        assert_eq!(want.len(), got.len(), "{name}: line count");
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(*w, g, "{name}: line {i} differs from the committed trace");
        }
    }
    paths.len()
}

#[test]
fn the_reference_writes_every_committed_conformance_trace() {
    assert!(check_suite("tests/conformance") >= 30);
}

#[test]
fn the_reference_writes_every_committed_mech_trace() {
    assert!(check_suite("tests/mech") >= 7);
}

#[test]
fn the_reference_writes_the_sample_scenarios_as_the_fast_engine() {
    let paths = scenarios(&here("../../assets/herc/scenarios"));
    assert!(paths.len() >= 7, "{} sample scenarios", paths.len());
    for path in &paths {
        let scenario = Scenario::from_file(path).unwrap();
        let fast = retroanim_herc::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
        let plain = retroanim_herc::reference::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(lines(&fast), lines(&plain), "{}", path.display());
        assert_eq!(plain.len(), scenario.steps().len() + 1);
    }
}
