//! The `diff` and `run` verbs as a user meets them: exit codes, the report line,
//! and one clear error line for bad input.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

fn retroanim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(args)
        .output()
        .expect("the retroanim binary runs")
}

fn diff(a: &str, b: &str, extra: &[&str]) -> Output {
    let (a, b) = (data(a), data(b));
    let mut args = vec!["diff", a.to_str().unwrap(), b.to_str().unwrap()];
    args.extend_from_slice(extra);
    retroanim(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn identical_traces_exit_0() {
    let o = diff("sample_a.jsonl", "sample_a.jsonl", &[]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "equal: 4 lines\n");
}

#[test]
fn different_traces_report_first_divergence_and_exit_1() {
    let o = diff("sample_a.jsonl", "sample_b.jsonl", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "step 2: seq.anims[1].framerate: 30.0 vs -30.0\n2 of 4 steps differ\n"
    );
}

#[test]
fn tolerance_flag_changes_the_float_verdict() {
    // frame 1.0 vs 1.00001 is inside 1e-4 but outside 1e-7: step 1 diverges first.
    let o = diff("sample_a.jsonl", "sample_b.jsonl", &["--tolerance", "1e-7"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("step 1: seq.frame: 1.0 vs 1.00001\n3 of 4 steps differ"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn different_lengths_compare_the_common_steps_then_report_both_lengths() {
    let o = diff("sample_a.jsonl", "sample_short.jsonl", &[]);
    assert_eq!(o.status.code(), Some(1));
    let (a, short) = (data("sample_a.jsonl"), data("sample_short.jsonl"));
    assert_eq!(
        stdout(&o),
        format!(
            "the 1 common steps are equal\n{} has 1 lines but {} has 4: the traces cover different step counts\n",
            short.display(),
            a.display()
        )
    );
    // A divergence inside the common steps is reported first.
    let b_text = std::fs::read_to_string(data("sample_b.jsonl")).unwrap();
    let two: String = b_text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let short_b = temp_file("b_two.jsonl", &two);
    let o = retroanim(&[
        "diff",
        a.to_str().unwrap(),
        short_b.to_str().unwrap(),
        "--tolerance",
        "1e-7",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!(
            "step 1: seq.frame: 1.0 vs 1.00001\n1 of 2 common steps differ\n{} has 2 lines but {} has 4: the traces cover different step counts\n",
            short_b.display(),
            a.display()
        )
    );
}

#[test]
fn non_object_line_exits_2_naming_file_and_line() {
    let o = diff("sample_a.jsonl", "not_object.jsonl", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not_object.jsonl: line 2: a trace line must be a JSON object"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn malformed_line_exits_2_naming_file_and_position() {
    let o = diff("malformed.jsonl", "sample_a.jsonl", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("malformed.jsonl: line 2, column"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn missing_file_exits_2() {
    let o = diff("sample_a.jsonl", "no_such_trace.jsonl", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no_such_trace.jsonl: cannot read: no such file or directory"),
        "{}",
        stderr(&o)
    );
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retroanim-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn run_with_malformed_scenario_exits_2_naming_position() {
    let p = temp_file("bad.json", "{\"engine\": \"ac\",\n \"steps\": [ }");
    let o = retroanim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.json: line 2, column"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn run_with_unknown_engine_is_a_clear_error() {
    let p = temp_file("unknown.json", r#"{"engine": "quake", "steps": []}"#);
    let o = retroanim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("engine: unknown engine 'quake' (expected ac, herc or actor)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_with_missing_scenario_exits_2() {
    let o = retroanim(&["run", "/nonexistent/scenario.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/scenario.json: cannot read"));
}

#[test]
fn bench_of_unknown_engine_is_a_clear_error() {
    let o = retroanim(&["bench", "quake"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("unknown bench workload 'quake' (expected ac, ac-chase, herc or actor)"),
        "{}",
        stderr(&o)
    );
}
