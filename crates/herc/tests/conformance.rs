//! Every scenario under tests/conformance/scenarios/ against its committed trace, exactly
//! (tolerance 0). `HERC_BLESS=1` writes missing traces and
//! `HERC_BLESS=all` rewrites them — only for scenarios whose expected values were checked
//! by hand first (docs/herc.md), never for `example` (typed in from the worked example).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_core::conformance::Suite;
use retroanim_core::diff::DiffOptions;
use retroanim_core::Scenario;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

#[test]
fn conformance_scenarios_match_their_traces_exactly() {
    let suite = Suite {
        root: root(),
        diff: DiffOptions {
            tolerance: 0.0,
            allow_extra_keys: false,
        },
        exact_text: false,
        bless_var: "HERC_BLESS",
        typed_in: &["example"],
    };
    let report = suite.check(retroanim_herc::run);
    assert!(
        report.names.len() >= 20,
        "only {} scenarios",
        report.names.len()
    );
    assert!(report.failures.is_empty(), "{}", report.failures.join("\n"));
}

#[test]
fn worked_example_reproduces_exactly() {
    let path = root().join("scenarios/example.json");
    let scenario = Scenario::from_file(&path).unwrap();
    let actual = retroanim_herc::run(&scenario).unwrap();
    let text = std::fs::read_to_string(root().join("traces/example.jsonl")).unwrap();
    let expected: Vec<&str> = text.lines().collect();
    let actual: Vec<String> = actual.iter().map(|v| v.to_string()).collect();
    assert_eq!(expected.len(), actual.len());
    for (i, (e, a)) in expected.iter().zip(&actual).enumerate() {
        assert_eq!(*e, a, "line {i}");
    }
}

#[test]
fn sample_scenarios_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc/scenarios");
    let mut count = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            let scenario = Scenario::from_file(&path).unwrap();
            let lines = retroanim_herc::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(lines.len(), scenario.steps().len() + 1);
            count += 1;
        }
    }
    assert!(count >= 5, "{count} sample scenarios");
}
