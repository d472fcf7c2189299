//! Every committed ac scenario played through the reference tick (`AcRefSim`) gives the
//! engine's trace (`AcSim`) byte for byte, and so passes the conformance check against
//! its committed trace as the engine does (the committed traces of some older
//! scenarios differ from today's engine in a last printed digit, inside the suite's
//! tolerance; where the engine reproduces a committed trace byte for byte, so does the
//! reference).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::reference::AcRefSim;
use retroanim_ac::AcSim;
use retroanim_core::conformance::Suite;
use retroanim_core::diff::DiffOptions;
use retroanim_core::trace::to_jsonl;
use retroanim_core::{run_scenario, Scenario};
use std::path::{Path, PathBuf};

/// The committed suites: each root holds `scenarios/` and `traces/`.
fn roots() -> Vec<PathBuf> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        crate_dir.join("tests/conformance"),
        crate_dir.join("../../assets/ac"),
    ]
}

fn scenarios(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_committed_scenario_gives_the_engines_trace_through_the_reference() {
    let mut checked = 0;
    let mut byte_identical = 0;
    let mut failures = Vec::new();
    for root in roots() {
        for path in scenarios(&root.join("scenarios")) {
            let scenario = Scenario::from_file(&path).unwrap();
            let reference = to_jsonl(&run_scenario::<AcRefSim>(&scenario).unwrap());
            let fast = to_jsonl(&run_scenario::<AcSim>(&scenario).unwrap());
            if reference != fast {
                failures.push(format!("{}: the two ticks differ", path.display()));
            }
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let committed = root.join("traces").join(format!("{name}.jsonl"));
            if std::fs::read_to_string(committed).unwrap() == reference {
                byte_identical += 1;
            }
            checked += 1;
        }
    }
    assert!(checked >= 90, "only {checked} scenarios");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most committed traces are reproduced byte for byte (the rest within tolerance,
    // checked below).
    assert!(
        byte_identical >= 54,
        "only {byte_identical} of {checked} byte for byte"
    );
}

#[test]
fn every_committed_scenario_passes_the_conformance_check_through_the_reference() {
    for root in roots() {
        let suite = Suite {
            root,
            diff: DiffOptions::default(),
            exact_text: false,
            // Never set here: a reference run never writes a trace.
            bless_var: "AC_REFERENCE_NEVER_BLESS",
            typed_in: &[],
        };
        let report = suite.check(run_scenario::<AcRefSim>);
        assert!(report.names.len() >= 4);
        assert!(report.failures.is_empty(), "{}", report.failures.join("\n"));
    }
}

/// The browser's sample scenarios have no committed trace: the two ticks agree on them.
#[test]
fn browser_samples_play_the_same_through_both_ticks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../browser/scenarios");
    for name in ["ac.json", "ac_world.json"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        // Their asset paths are written as if they sat in assets/ac/scenarios.
        let at = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/scenarios");
        let scenario = Scenario::from_str(&text, name, at).unwrap();
        let reference = to_jsonl(&run_scenario::<AcRefSim>(&scenario).unwrap());
        let fast = to_jsonl(&run_scenario::<AcSim>(&scenario).unwrap());
        assert_eq!(reference, fast, "{name}");
    }
}
