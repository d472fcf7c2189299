//! The reference (`retroanim_actor::reference`, feature `reference`) against the
//! committed traces: every conformance scenario gives the committed trace byte for byte,
//! and the sample scenarios under assets/actor give the engine's trace.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_core::trace::to_jsonl;
use retroanim_core::Scenario;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// The scenarios of a directory, sorted by name.
fn scenarios_in(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn the_reference_writes_every_committed_trace_byte_for_byte() {
    let mut n = 0;
    for path in scenarios_in(&dir().join("scenarios")) {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let s = Scenario::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let got = retroanim_actor::reference::run_scenario(&s).unwrap_or_else(|e| panic!("{e}"));
        let want = std::fs::read_to_string(dir().join(format!("traces/{name}.jsonl"))).unwrap();
        assert!(
            to_jsonl(&got) == want,
            "{name}: the reference's trace differs"
        );
        n += 1;
    }
    assert!(n >= 28, "only {n} scenarios");
}

#[test]
fn the_reference_and_the_engine_agree_on_the_sample_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/actor/scenarios");
    let mut n = 0;
    for path in scenarios_in(&dir) {
        let s = Scenario::from_file(&path).unwrap();
        let reference = retroanim_actor::reference::run_scenario(&s).unwrap();
        let engine = retroanim_actor::run_scenario(&s).unwrap();
        assert_eq!(reference.len(), s.steps().len() + 1, "{}", path.display());
        assert!(
            to_jsonl(&reference) == to_jsonl(&engine),
            "{}: the traces differ",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 3);
}
