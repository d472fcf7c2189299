//! Every scenario under tests/conformance/scenarios/ against its committed trace, exactly
//! (tolerance 0; herc-conformance §7). `HERC_BLESS=1` rewrites the traces — only for
//! scenarios whose expected values were checked by hand first (docs/herc.md), never for
//! `example` (typed in from the spec).

use retroanim_core::diff::{diff_traces, DiffOptions};
use retroanim_core::trace::{parse_trace, to_jsonl};
use retroanim_core::Scenario;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

#[test]
fn conformance_scenarios_match_their_traces_exactly() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "only {} scenarios", names.len());
    let bless = std::env::var("HERC_BLESS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for path in &names {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let scenario = Scenario::from_file(path).unwrap();
        let actual = retroanim_herc::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
        let expected_path = root().join("traces").join(format!("{stem}.jsonl"));
        if bless && stem != "example" {
            std::fs::write(&expected_path, to_jsonl(&actual)).unwrap();
            continue;
        }
        let text = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        let expected = parse_trace(&text, &expected_path.display().to_string()).unwrap();
        let opts = DiffOptions {
            tolerance: 0.0,
            allow_extra_keys: false,
        };
        match diff_traces(&expected, &actual, "expected", &stem, opts) {
            Ok(r) if r.is_equal() => {}
            Ok(r) => failures.push(format!("{stem}: {}", r.first.unwrap())),
            Err(e) => failures.push(format!("{stem}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
