//! The C example (examples/c/play_scenario.c) built with the system C compiler against
//! the static library: its output is byte for byte what `retroanim run` prints, and it
//! runs clean under valgrind (no leak, no invalid access).

mod support;

use std::path::PathBuf;
use std::process::Command;
use support::*;

/// Each test builds into its own folder: tests run in parallel.
fn build_example(name: &str) -> Option<PathBuf> {
    build_c(name, "play_scenario")
}

fn build_c(name: &str, program: &str) -> Option<PathBuf> {
    if !have("gcc", "--version") {
        return None;
    }
    let root = repo_root();
    let exe = scratch(name).join(program);
    run_ok(
        Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-g", "-I"])
            .arg(root.join("crates/ffi/include"))
            .arg(root.join(format!("examples/c/{program}.c")))
            .arg(lib_dir().join("libretroanim_ffi.a"))
            .args(["-lpthread", "-ldl", "-lm", "-o"])
            .arg(&exe),
    );
    Some(exe)
}

fn walk_to_run() -> PathBuf {
    repo_root().join("assets/ac/scenarios/walk_to_run.json")
}

#[test]
fn c_example_prints_the_walk_to_run_trace_retroanim_run_prints() {
    let Some(exe) = build_example("c_trace") else {
        return;
    };
    let printed = run_ok(Command::new(&exe).arg(walk_to_run()));
    let expected = reference_trace(&walk_to_run());
    assert_eq!(printed.lines().count(), 30, "the setup line and 29 steps");
    assert!(
        printed == expected,
        "the C example's trace differs from `retroanim run`"
    );
}

#[test]
fn c_example_runs_clean_under_valgrind() {
    let Some(exe) = build_example("c_valgrind") else {
        return;
    };
    if !have("valgrind", "--version") {
        return;
    }
    run_ok(
        Command::new("valgrind")
            .args(["-q", "--leak-check=full", "--error-exitcode=1"])
            .arg(&exe)
            .arg(walk_to_run()),
    );
}

#[test]
fn c_bench_builds_and_ticks_a_small_world_through_the_batch_call() {
    let Some(exe) = build_c("c_bench", "bench_ac") else {
        return;
    };
    let out = run_ok(
        Command::new(&exe)
            .arg(repo_root().join("assets/ac/records"))
            .args(["45", "60"]),
    );
    assert!(out.starts_with("entities: 45\nticks: 60\n"), "{out}");
    // After 60 ticks of walking and running, the creatures have moved along +Y.
    let sum: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("sum_y: "))
        .expect("sum_y line")
        .parse()
        .expect("number");
    assert!(sum > 0.0, "{out}");
}
