//! The .NET binding (bindings/dotnet) compiled with Mono's mcs: its console sample
//! prints, for every bundled AC, HERC and actor scenario, the trace `retroanim run`
//! prints, byte for byte; a failed load surfaces as a RetroanimException carrying the
//! library's last-error text.

mod support;

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
fn build(name: &str) -> Option<PathBuf> {
    if !have("mcs", "--version") || !have("mono", "--version") {
        return None;
    }
    let root = repo_root().join("bindings/dotnet");
    let out = scratch(name);
    let dll = out.join("Retroanim.dll");
    run_ok(
        Command::new("mcs")
            .args(["-nologo", "-warnaserror", "-target:library"])
            .arg(format!("-out:{}", dll.display()))
            .args(cs_files(&root.join("Retroanim"))),
    );
    run_ok(
        Command::new("mcs")
            .args(["-nologo", "-warnaserror"])
            .arg(format!("-r:{}", dll.display()))
            .arg(format!("-out:{}", out.join("Sample.exe").display()))
            .args(cs_files(&root.join("Sample"))),
    );
    Some(out)
}

fn sample(dir: &Path, scenario: &Path) -> Command {
    let mut c = Command::new("mono");
    c.arg(dir.join("Sample.exe"))
        .arg(scenario)
        .env("LD_LIBRARY_PATH", lib_dir());
    c
}

#[test]
fn dotnet_sample_prints_retroanim_run_traces_for_every_bundled_scenario() {
    let Some(dir) = build("dotnet_traces") else {
        return;
    };
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
fn dotnet_exception_carries_the_last_error_naming_the_file() {
    let Some(dir) = build("dotnet_errors") else {
        return;
    };
    let missing = dir.join("no_such_scenario.json");
    let out = sample(&dir, &missing).output().expect("mono runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("Sample: Load: "), "{err}");
    assert!(err.contains("no_such_scenario.json"), "{err}");
}
