//! The .NET binding (bindings/dotnet) compiled with Mono's mcs: its console sample
//! prints, for every bundled AC, HERC and actor scenario, the trace `retroanim run`
//! prints, byte for byte; a failed load surfaces as a RetroanimException carrying the
//! library's last-error text; the committed move-to scenarios play through the generic
//! call too, and a chase runs through the typed move-to methods.

// The test reads the repository's own header and C# sources directly; only library code
// must go through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_testkit::{require, MCS, MONO};
use std::path::{Path, PathBuf};
use std::process::Command;
use support::*;

fn cs_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("C# folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cs"))
        .collect();
    v.sort();
    v
}

/// Build Retroanim.dll and Sample.exe; the folder holding them.
/// Each test builds into its own folder: tests run in parallel.
fn build(name: &str) -> PathBuf {
    require(&[MCS, MONO]);
    let root = repo_root().join("bindings/dotnet");
    let out = scratch(name);
    let dll = out.join("Retroanim.dll");
    run_ok(
        Command::new("mcs")
            .args(["-nologo", "-warnaserror", "-langversion:7.2", "-unsafe"])
            .args(["-target:library", "-r:System.Numerics"])
            .arg(format!("-out:{}", dll.display()))
            .args(cs_files(&root.join("Retroanim"))),
    );
    run_ok(
        Command::new("mcs")
            .args([
                "-nologo",
                "-warnaserror",
                "-langversion:7.2",
                "-r:System.Numerics",
            ])
            .arg(format!("-r:{}", dll.display()))
            .arg(format!("-out:{}", out.join("Sample.exe").display()))
            .args(cs_files(&root.join("Sample"))),
    );
    out
}

fn sample(dir: &Path, scenario: &Path) -> Command {
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg(scenario)
        .env("LD_LIBRARY_PATH", lib_dir());
    c
}

#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_sample_prints_retroanim_run_traces_for_every_bundled_scenario() {
    let dir = build("dotnet_traces");
    let scenarios = bundled_scenarios();
    // 4 AC, 7 HERC, 3 actor scenarios are bundled.
    assert_eq!(scenarios.len(), 14);
    for path in &scenarios {
        let printed = run_ok(&mut sample(&dir, path));
        let expected = reference_trace(path);
        assert!(
            printed == expected,
            "{}: the .NET sample's trace differs from `retroanim run`",
            path.display()
        );
    }
}

#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_exception_carries_the_last_error_naming_the_file() {
    let dir = build("dotnet_errors");
    let missing = dir.join("no_such_scenario.json");
    let out = sample(&dir, &missing).output().expect("mono runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("Sample: Load: "), "{err}");
    assert!(err.contains("no_such_scenario.json"), "{err}");
}

/// The several-object (move-to) conformance scenarios, which the bundled ones do not
/// include: the committed chase, sticky hand-off, cancel and three-movers scenarios.
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_sample_prints_retroanim_run_traces_for_moveto_scenarios() {
    let dir = build("dotnet_moveto_traces");
    let base = repo_root().join("crates/ac/tests/conformance/scenarios");
    for name in [
        "oracle_chase_walking_target.json",
        "moveto_sticky_handoff.json",
        "oracle_cancel_mid_move.json",
        "oracle_three_movers_one_target.json",
    ] {
        let path = base.join(name);
        let printed = run_ok(&mut sample(&dir, &path));
        assert!(printed.lines().count() > 2, "{name}");
        assert!(
            printed == reference_trace(&path),
            "{name}: the .NET sample's trace differs from `retroanim run`"
        );
    }
}

/// `oracle_chase_walking_target` through the typed methods: after 60 ticks the chaser
/// stands at (4.7124243, 7.7013707, 0) and its prey at (18.450012, 8, 0), as the
/// committed trace's last line says; it arrived once, with success (0).
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_typed_move_to_reproduces_the_committed_chase() {
    let dir = build("dotnet_chase");
    let records = repo_root().join("crates/ac/tests/conformance/humanoid");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--chase")
        .arg(&records)
        .env("LD_LIBRARY_PATH", lib_dir());
    let printed = run_ok(&mut c);
    let bits = |v: [f32; 3]| {
        format!(
            "{:08x} {:08x} {:08x}",
            v[0].to_bits(),
            v[1].to_bits(),
            v[2].to_bits()
        )
    };
    let expected = format!(
        "{}\n{}\narrivals 1 last None moving False\n",
        bits([4.712_424_3, 7.701_370_7, 0.0]),
        bits([18.450_012, 8.0, 0.0])
    );
    assert_eq!(printed, expected);
}

/// A walking creature moved to another world through `AcWorld.Transfer` keeps walking
/// bit for bit like its twin that stayed, and `Remove` retires its index.
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_transfer_keeps_the_state_and_remove_retires_the_index() {
    let dir = build("dotnet_transfer");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--transfer")
        .arg(repo_root().join("assets/ac/records"))
        .env("LD_LIBRARY_PATH", lib_dir());
    let printed = run_ok(&mut c);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 4, "{printed}");
    assert_eq!(lines[0], "index 1 id 40 at 1");
    assert!(lines[1].starts_with("twin same "), "{printed}");
    // The walker left the origin along +y: its y is no longer 0.0 (bits 00000000).
    assert!(
        !lines[1].ends_with(" 00000000 00000000 00000000"),
        "{printed}"
    );
    assert_eq!(lines[2], "removed InvalidArgument");
    assert_eq!(lines[3], "left in from 1, in to 2");
}

/// A walker's `MovementData` bytes make a second creature walk the same through the
/// binding, the client jump is refused with GeneralMovementFailure (0x47), the server
/// jump launches upwards, and short `JumpPack` bytes throw naming the byte offset.
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_movement_data_round_trip_and_jump() {
    let dir = build("dotnet_wire");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--wire")
        .arg(repo_root().join("assets/ac/records"))
        .env("LD_LIBRARY_PATH", lib_dir());
    let printed = run_ok(&mut c);
    assert_eq!(
        printed,
        "copy motion 45000005 same\n\
         bytes same\n\
         update motion opcode f74c sequence 1\n\
         client jump Refused 47\n\
         server jump up True\n\
         InvalidArgument: JumpPack: truncated at byte offset 8: 4 more byte(s) needed, the input has 10\n"
    );
}

/// The server-shaped walk-through (Sample/Embed.cs) under Mono: a chase whose arrival
/// comes back as a MoveComplete event with WeenieError None; the wave's length (24
/// frames at 30 a second) and its events in order (SoundTweaked on frame 8 with its
/// 16-byte payload, DefaultScript on frame 16 with none, AnimationDone, MotionDone);
/// the 8 part frames of the sample humanoid read into a Span (part 0 sits at (0, 0, 1)
/// in every animation of the sample records); System.Numerics conversions agreeing
/// with the state; a transfer to a second world where the creature walks on and raises
/// events; a server update taking the request 1 unit north; a late joiner's copy
/// walking; the client jump refused (GeneralMovementFailure) until the jump answers are
/// set; and Positions(null) throwing ArgumentNullException.
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_embedding_walk_through_with_events_spans_transfer_and_jump() {
    let dir = build("dotnet_embed");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--embed")
        .arg(repo_root().join("assets/ac/records"))
        .env("LD_LIBRARY_PATH", lib_dir());
    assert_eq!(
        run_ok(&mut c),
        "move complete creature 0 None\n\
         wave length 0.800\n\
         hook 21 frame 8 payload 16\n\
         hook 17 frame 16 payload 0\n\
         hook 4 frame -1\n\
         MotionDone Wave\n\
         part frames 8 of 8 first 0 0 1\n\
         numerics True True\n\
         transferred to index 0 walking WalkForward events True\n\
         server update True y 1\n\
         late joiner WalkForward\n\
         jump refused GeneralMovementFailure\n\
         jump up True\n\
         null ArgumentNullException output\n"
    );
}

/// The chase of a walking target (the oracle_chase_walking_target conformance
/// scenario) with the chaser's events, tick by tick, as `retroanim run` reports them:
/// the `motions_done` and the move-to's `weenie` of each trace line, tick `k` being
/// step `k + 2` (step 1 starts the walk, step 2 the move-to, whose own MotionDone
/// events are printed as tick 0). Names as ACE's MotionCommand and WeenieError.
fn chase_events_of(trace: &[serde_json::Value]) -> Vec<String> {
    let name = |hex: &str| match hex {
        "0x8000003d" => "NonCombat",
        "0x41000003" => "Ready",
        "0x44000007" => "RunForward",
        "0x6500000d" => "TurnRight",
        other => panic!("no name for motion {other}"),
    };
    let mut out = Vec::new();
    for line in trace {
        let step = line["step"].as_u64().unwrap();
        if step < 2 {
            continue;
        }
        let tick = step - 2;
        for md in line["motions_done"].as_array().unwrap() {
            let ok = if md[1].as_bool().unwrap() {
                "True"
            } else {
                "False"
            };
            out.push(format!(
                "tick {tick} MotionDone {} {ok}",
                name(md[0].as_str().unwrap())
            ));
        }
        for w in line["moveto"]["weenie"].as_array().unwrap() {
            out.push(format!("tick {tick} MoveComplete {}", w.as_str().unwrap()));
        }
    }
    out
}

/// An object's origin in a trace line, as the sample prints it (f32 bit patterns).
fn origin_bits(line: &serde_json::Value, id: &str) -> String {
    let frame = if id == "0x00000001" {
        &line["frame"]
    } else {
        let objects = line["moveto"]["objects"].as_array().unwrap();
        &objects.iter().find(|o| o["id"] == id).unwrap()["frame"]
    };
    let o = frame["origin"].as_array().unwrap();
    let bits: Vec<String> = o
        .iter()
        .map(|v| format!("{:08x}", (v.as_f64().unwrap() as f32).to_bits()))
        .collect();
    bits.join(" ")
}

/// One run of a server's work (Sample/FullChase.cs) under Mono: the chase of a walking
/// target with the events drained every tick; the part frames read into stack memory
/// (8 parts, part 0 at (0, 0, 1) in every animation of the sample records, 0 bytes
/// allocated over 100 reads); the walker moved to a second world where it walks on;
/// the chaser's jump refused (GeneralMovementFailure) until its jump answers are set.
/// The events and positions are the ones `retroanim run` gives for the same scenario
/// (with 10 more ticks for the walker after the transfer), and the literals below were
/// read off that trace: the move-to completes on tick 25 with WeenieError None.
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_full_chase_with_events_part_frames_transfer_and_jump_in_one_run() {
    let conformance = repo_root().join("crates/ac/tests/conformance");
    // The scenario with 10 more ticks, for where the walker is after the transfer.
    let text =
        std::fs::read_to_string(conformance.join("scenarios/oracle_chase_walking_target.json"))
            .unwrap();
    let mut scenario: serde_json::Value = serde_json::from_str(&text).unwrap();
    scenario["asset_dir"] = conformance.join("humanoid").display().to_string().into();
    let steps = scenario["steps"].as_array_mut().unwrap();
    assert_eq!(steps.len(), 62, "a walk, a move-to and 60 ticks");
    for _ in 0..10 {
        steps.push(serde_json::json!({ "op": "tick", "dt": 0.1 }));
    }
    let path = scratch("dotnet_full_chase").join("chase_70_ticks.json");
    std::fs::write(&path, serde_json::to_string(&scenario).unwrap()).unwrap();
    let trace: Vec<serde_json::Value> = reference_trace(&path)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let at_60 = &trace[62];
    let at_70 = &trace[72];

    let events = [
        "tick 0 MotionDone NonCombat True",
        "tick 0 MotionDone Ready True",
        "tick 0 MotionDone Ready True",
        "tick 2 MotionDone RunForward True",
        "tick 8 MotionDone TurnRight True",
        "tick 9 MotionDone Ready True",
        "tick 14 MotionDone TurnRight True",
        "tick 15 MotionDone Ready True",
        "tick 20 MotionDone TurnRight True",
        "tick 21 MotionDone Ready True",
        "tick 25 MoveComplete None",
        "tick 28 MotionDone Ready True",
        "tick 28 MotionDone Ready True",
    ];
    assert_eq!(chase_events_of(&trace[..63]), events);
    // The committed chase's end (dotnet_typed_move_to_reproduces_the_committed_chase).
    let chaser = origin_bits(at_60, "0x00000001");
    assert_eq!(chaser, "4096cc2e 40f671a1 00000000");
    assert_eq!(f32::from_bits(0x4096cc2e), 4.712_424_3);
    let walker = origin_bits(at_60, "0x00000002");
    assert_eq!(walker, "419399a0 41000000 00000000");
    assert_eq!(f32::from_bits(0x4193_99a0), 18.450_012);
    // Walking on at 3.12 units a second along +x for 1 s: 21.570012, to f32 rounding.
    let moved = origin_bits(at_70, "0x00000002");
    let x = f32::from_bits(u32::from_str_radix(&moved[..8], 16).unwrap());
    assert!((x - 21.570_012).abs() < 1e-4, "{x}");

    let dir = build("dotnet_full_chase");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--full-chase")
        .arg(conformance.join("humanoid"))
        .env("LD_LIBRARY_PATH", lib_dir());
    let expected = format!(
        "{}\n\
         walker events True\n\
         chaser {chaser}\n\
         walker {walker}\n\
         part frames 8 first 0 0 1 allocated 0\n\
         transferred index 0 id 2 WalkForward {moved}\n\
         jump refused GeneralMovementFailure\n\
         jump up True\n",
        events.join("\n")
    );
    assert_eq!(run_ok(&mut c), expected);
}

/// Host physics through .NET (docs/embedding.md "Host physics"): the corrected walker
/// is committed where the host put it and the next tick starts there; a refused one
/// stays; the outdoor rule gives the next landblock's cell; a host that answers nothing
/// equals `TickAll` bit for bit; bad answers get the C door's messages (abi_physics.rs).
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_host_physics_corrects_refuses_crosses_landblocks_and_does_nothing_exactly() {
    let dir = build("dotnet_physics");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--physics")
        .arg(repo_root().join("assets/ac/records"))
        .env("LD_LIBRARY_PATH", lib_dir());
    let zero = "is too close to zero length to be an orientation (its squared length must be at least 1e-12)";
    assert_eq!(
        run_ok(&mut c),
        format!(
            "proposals 1 1 creature 0 id 1 forward True\n\
             corrected True True velocity -10.0\n\
             next tick from the correction True\n\
             refused stays True\n\
             correct nan: InvalidArgument: to.frame: NaN or infinite component\n\
             correct orientation: InvalidArgument: to.frame.orientation: [0, 0, 0, 0] {zero}\n\
             correct cell 0: InvalidArgument: to.cell: cell 0 names no cell\n\
             tick while open: InvalidArgument: a two-phase tick is open: commit it (ra_ac_world_tick_commit) before ticking again\n\
             commit without propose: InvalidArgument: no two-phase tick is open: call propose first\n\
             crossed 7D650011 y below 1 True\n\
             outdoor rule True 7E640003 0.5 60 3\n\
             past the edge False 0\n\
             do-nothing host equals TickAll True batches over ticks True\n"
        )
    );
}

/// Every row of the AC door's rules (docs/limits.md) through .NET gives the C door's
/// status and message, word for word (abi_limits.rs and abi_events.rs / abi_server.rs
/// assert the same texts through the C calls).
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_door_refuses_what_the_c_door_refuses_with_the_same_messages() {
    let dir = build("dotnet_limits");
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg("--limits")
        .arg(repo_root().join("assets/ac/records"))
        .env("LD_LIBRARY_PATH", lib_dir());
    let zero = "is too close to zero length to be an orientation (its squared length must be at least 1e-12)";
    let quantum = "is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)";
    let expected = format!(
        "orientation: InvalidArgument: desc.frame.orientation: [0, 0, 0, 0] {zero}\n\
         orientation move_to_position: InvalidArgument: frame.orientation: [0, 0, 0, 0] {zero}\n\
         quantum: InvalidArgument: quantum: 1e30 {quantum}\n\
         quantum negative: InvalidArgument: quantum: -2.5 {quantum}\n\
         quantum nan: InvalidArgument: quantum: NaN {quantum}\n\
         target self: InvalidArgument: target: 0x1 is the creature itself\n\
         target 0: InvalidArgument: target: id 0 names no object\n\
         turn target self: InvalidArgument: target: 0x2 is the creature itself\n\
         server now: InvalidArgument: now NaN is NaN or infinite\n\
         speed 0: InvalidArgument: speed 0: nothing plays at speed 0\n\
         hold key: InvalidArgument: params.hold_key_to_apply: hold key 7 (expected 0, 1 or 2)\n\
         flags are bool: accepted\n"
    );
    assert_eq!(run_ok(&mut c), expected);
}

/// The binding checks `ra_abi_version()` when it first loads the library: a library
/// reporting another version (a stand-in built here, exporting only that function)
/// is refused with a message naming both versions; the real one loads.
#[test]
#[cfg_attr(
    missing_mono,
    ignore = "needs Mono: apt-get install -y mono-mcs mono-runtime, or scripts/test"
)]
fn dotnet_refuses_a_library_of_another_abi_version() {
    require(&[retroanim_testkit::GCC]);
    let dir = build("dotnet_version");
    let fake = scratch("dotnet_version_fake");
    let src = fake.join("fake.c");
    std::fs::write(&src, "unsigned ra_abi_version(void) { return 1; }\n").expect("write");
    run_ok(
        Command::new("gcc")
            .args(["-shared", "-fPIC", "-o"])
            .arg(fake.join("libretroanim_ffi.so"))
            .arg(&src),
    );
    let out = Command::new("mono")
        .arg(dir.join("Sample.exe"))
        .arg("--version")
        .env("LD_LIBRARY_PATH", &fake)
        .output()
        .expect("mono runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Load: retroanim: the native library speaks ABI version 1, this binding needs version 2; use the library this binding ships with\n"
    );
    let mut real = Command::new("mono");
    real.arg(dir.join("Sample.exe"))
        .arg("--version")
        .env("LD_LIBRARY_PATH", lib_dir());
    assert_eq!(run_ok(&mut real), "loaded\n");
}

/// The `ra_…` names called like functions (`name(`) on the lines of `text` that are not
/// comments.
fn called_names(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') {
            continue;
        }
        for (at, _) in line.match_indices("ra_") {
            if at > 0 && line.as_bytes()[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            let name: String = line[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if line[at + name.len()..].starts_with('(') {
                out.insert(name);
            }
        }
    }
    out
}

/// Every function of the C ABI is declared in the binding's `Native.cs` (so that a
/// function added to the header without its P/Invoke fails here).
#[test]
fn the_binding_declares_every_function_of_the_header() {
    let root = repo_root();
    let header = std::fs::read_to_string(root.join("crates/ffi/include/retroanim.h")).expect("h");
    let native =
        std::fs::read_to_string(root.join("bindings/dotnet/Retroanim/Native.cs")).expect("cs");
    let declared = called_names(&header);
    let wrapped: std::collections::BTreeSet<String> = native
        .lines()
        .filter(|l| l.contains("static extern"))
        .flat_map(called_names)
        .collect();
    assert_eq!(declared.len(), 107, "{declared:?}");
    let missing: Vec<&String> = declared.difference(&wrapped).collect();
    assert!(missing.is_empty(), "not wrapped in Native.cs: {missing:?}");
}
