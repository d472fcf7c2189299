//! The C example (examples/c/play_scenario.c) built with the system C compiler against
//! the static library: its output is byte for byte what `retroanim run` prints, and it
//! runs clean under valgrind (no leak, no invalid access); it plays the committed
//! move-to scenarios as `retroanim run` does; the typed-call chase (chase_ac.c)
//! reproduces the committed chase trace tick by tick; wire_ac.c copies a walker's
//! MovementData bytes to a second creature and jumps, clean under valgrind too.
//!
//! Without gcc (or valgrind) these tests are reported ignored, with how to install it;
//! `crates/ffi/build.rs` decides, and `RETROANIM_NO_SKIP` turns that into a failure.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_testkit::{require, GCC, LIBC_DEV, VALGRIND};
use std::path::PathBuf;
use std::process::Command;
use support::*;

/// Each test builds into its own folder: tests run in parallel.
fn build_example(name: &str) -> PathBuf {
    build_c(name, "play_scenario")
}

fn build_c(name: &str, program: &str) -> PathBuf {
    require(&[GCC, LIBC_DEV]);
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
    exe
}

fn walk_to_run() -> PathBuf {
    repo_root().join("assets/ac/scenarios/walk_to_run.json")
}

#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_example_prints_the_walk_to_run_trace_retroanim_run_prints() {
    let exe = build_example("c_trace");
    let printed = run_ok(Command::new(&exe).arg(walk_to_run()));
    let expected = reference_trace(&walk_to_run());
    assert_eq!(printed.lines().count(), 30, "the setup line and 29 steps");
    assert!(
        printed == expected,
        "the C example's trace differs from `retroanim run`"
    );
}

#[test]
#[cfg_attr(
    missing_valgrind,
    ignore = "needs gcc and valgrind: apt-get install -y gcc libc6-dev valgrind, or scripts/test"
)]
fn c_example_runs_clean_under_valgrind() {
    let exe = build_example("c_valgrind");
    valgrind_clean(&exe, &walk_to_run());
}

#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_bench_builds_and_ticks_a_small_world_through_the_batch_call() {
    let exe = build_c("c_bench", "bench_ac");
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
    // Reading the positions after every tick changes nothing: the same final sum.
    let every = run_ok(
        Command::new(&exe)
            .arg(repo_root().join("assets/ac/records"))
            .args(["45", "60", "every"]),
    );
    let sum_line = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("sum_y: "))
            .map(str::to_owned)
    };
    assert_eq!(sum_line(&every), sum_line(&out), "{every}");
}

/// Move-to scenarios (several objects) through the generic step call.
#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_example_prints_retroanim_run_traces_for_moveto_scenarios() {
    let exe = build_example("c_moveto_trace");
    let base = repo_root().join("crates/ac/tests/conformance/scenarios");
    for name in [
        "oracle_chase_walking_target.json",
        "moveto_sticky_handoff.json",
        "oracle_melee_stick_and_swing.json",
    ] {
        let path = base.join(name);
        let printed = run_ok(Command::new(&exe).arg(&path));
        assert!(printed.lines().count() > 2, "{name}");
        assert!(
            printed == reference_trace(&path),
            "{name}: the C example's trace differs from `retroanim run`"
        );
    }
}

/// The committed trace of oracle_chase_walking_target, replayed through the typed
/// calls from C: every tick's origins match bit for bit, and the chase ends with one
/// successful arrival.
#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_chase_through_typed_calls_matches_the_committed_trace() {
    let exe = build_c("c_chase", "chase_ac");
    let conformance = repo_root().join("crates/ac/tests/conformance");
    let printed = run_ok(Command::new(&exe).arg(conformance.join("humanoid")));
    let trace =
        std::fs::read_to_string(conformance.join("traces/oracle_chase_walking_target.jsonl"))
            .unwrap();
    let bits = |v: &serde_json::Value| format!("{:08x}", (v.as_f64().unwrap() as f32).to_bits());
    let mut expected = String::new();
    // Lines 0 to 2 are the setup, do_motion and move_to_object; then 60 ticks.
    for line in trace.lines().skip(3) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let a = &v["frame"]["origin"];
        let b = &v["moveto"]["objects"][0]["frame"]["origin"];
        expected += &format!(
            "{} {} {} {}\n",
            bits(&a[0]),
            bits(&a[1]),
            bits(&b[0]),
            bits(&b[1])
        );
    }
    expected += "arrivals 1 last 0 moving 0\n";
    assert_eq!(printed, expected);
}

#[test]
#[cfg_attr(
    missing_valgrind,
    ignore = "needs gcc and valgrind: apt-get install -y gcc libc6-dev valgrind, or scripts/test"
)]
fn c_chase_runs_clean_under_valgrind() {
    let exe = build_c("c_chase_valgrind", "chase_ac");
    valgrind_clean(
        &exe,
        &repo_root().join("crates/ac/tests/conformance/humanoid"),
    );
}

/// `exe ARG` under valgrind: no leak, no invalid access (valgrind's exit status 1
/// otherwise).
fn valgrind_clean(exe: &std::path::Path, arg: &std::path::Path) {
    require(&[VALGRIND]);
    run_ok(
        Command::new("valgrind")
            .args(["-q", "--leak-check=full", "--error-exitcode=1"])
            .arg(exe)
            .arg(arg),
    );
}

/// A walker's MovementData bytes make a second creature walk the same through the C
/// calls; the client jump is refused (5, GeneralMovementFailure 0x47), the server jump
/// launches upwards, and a short JumpPack is refused (3) naming the byte offset.
#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_wire_round_trip_and_jump() {
    let exe = build_c("c_wire", "wire_ac");
    let printed = run_ok(Command::new(&exe).arg(repo_root().join("assets/ac/records")));
    assert_eq!(
        printed,
        "size query 6\n\
         copy motion 45000005 same\n\
         client jump 5 47\n\
         server jump up 1\n\
         short pack 3 JumpPack: truncated at byte offset 8: 4 more byte(s) needed, the input has 10\n"
    );
}

#[test]
#[cfg_attr(
    missing_valgrind,
    ignore = "needs gcc and valgrind: apt-get install -y gcc libc6-dev valgrind, or scripts/test"
)]
fn c_wire_runs_clean_under_valgrind() {
    let exe = build_c("c_wire_valgrind", "wire_ac");
    valgrind_clean(&exe, &repo_root().join("assets/ac/records"));
}

/// server_ac.c: the ABI version, a server update taking the request one unit north, a
/// late joiner's copy walking, the wave's length (24 frames at 30 a second) and its
/// events in order (SoundTweaked on frame 8 and DefaultScript on frame 16 of the
/// link 0x03000120, AnimationDone, MotionDone of Wave with success), then the client
/// jump refused (5, 0x47) until the jump answers are set, and taken after.
#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_server_loop_events_lengths_and_jump() {
    let exe = build_c("c_server", "server_ac");
    let printed = run_ok(Command::new(&exe).arg(repo_root().join("assets/ac/records")));
    assert_eq!(printed, SERVER_AC_OUTPUT);
}

const SERVER_AC_OUTPUT: &str = "abi 2\n\
    server update ok 1 y 1.000\n\
    late joiner motion 45000005\n\
    wave length 0.800\n\
    event 0 hook 21 anim 03000120 frame 8\n\
    event 0 hook 17 anim 03000120 frame 16\n\
    event 0 hook 4 anim 00000000 frame -1\n\
    event 0 kind 2 a 13000087 b 1\n\
    jump without answers 5 47\n\
    jump up 1\n";

#[test]
#[cfg_attr(
    missing_valgrind,
    ignore = "needs gcc and valgrind: apt-get install -y gcc libc6-dev valgrind, or scripts/test"
)]
fn c_server_loop_runs_clean_under_valgrind() {
    let exe = build_c("c_server_valgrind", "server_ac");
    valgrind_clean(&exe, &repo_root().join("assets/ac/records"));
}

/// physics_ac.c: a host stops a walker at a wall (its proposals past y = 12 put back on
/// it, so it stands there with velocity 0), a plain tick while the two-phase tick is open
/// is refused (3), and with the outdoor rule the walker enters landblock 0x7D65 in cell
/// 0x7D650011 (column 2, row 0); the rule alone takes (192.5, 60) in 0x7D64003B to
/// 0x7E640003 at (0.5, 60).
#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn c_host_physics_wall_and_landblock() {
    let exe = build_c("c_physics", "physics_ac");
    let printed = run_ok(Command::new(&exe).arg(repo_root().join("assets/ac/records")));
    assert_eq!(
        printed,
        "at the wall y 12.000 velocity 0.000\n\
         plain tick while open 3\n\
         next landblock cell 7D650011 y below 1 1\n\
         rule 7E640003 0.5 60.0 3.0\n"
    );
}

#[test]
#[cfg_attr(
    missing_valgrind,
    ignore = "needs gcc and valgrind: apt-get install -y gcc libc6-dev valgrind, or scripts/test"
)]
fn c_host_physics_runs_clean_under_valgrind() {
    let exe = build_c("c_physics_valgrind", "physics_ac");
    valgrind_clean(&exe, &repo_root().join("assets/ac/records"));
}
