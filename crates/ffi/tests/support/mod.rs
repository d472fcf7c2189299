//! What the host-language and ABI tests share: where the built library is, the reference
//! trace (what `retroanim run` prints), an AC world on the sample records and the last
//! error's text. Which tools the tests need, and what happens when
//! one is missing, is `retroanim-testkit`'s (used by `build.rs` and the tests).

#![allow(dead_code)]

use retroanim_core::trace::to_jsonl;
use retroanim_core::{Scenario, ScenarioError};
use retroanim_ffi::ac::{
    ra_ac_creature_desc_default, ra_ac_state, ra_ac_world_add_creature, ra_ac_world_new_dir,
    RaAcCreatureDesc, RaAcState, RaAcWorld,
};
use retroanim_ffi::{ra_last_error, RaStatus};
use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where cargo put the crate's staticlib and cdylib for this test run: target/<profile>/
/// after a `cargo build`, or target/<profile>/deps/, beside the test executable, when
/// only `cargo test` built them (it does not copy them up).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("target/<profile>/deps").to_path_buf();
    if deps.join("libretroanim_ffi.a").is_file() {
        return deps;
    }
    deps.parent().expect("target/<profile>").to_path_buf()
}

/// A scratch folder for built programs.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The trace `retroanim run` prints for a scenario, made by the engines' own
/// whole-trace runners (the CLI's tests hold them equal to its streamed output).
pub fn reference_trace(path: &Path) -> String {
    let scenario = Scenario::from_file(path).expect("scenario reads");
    let lines: Result<Vec<serde_json::Value>, ScenarioError> = match scenario.engine.as_str() {
        "ac" => retroanim_core::run_scenario::<retroanim_ac::AcSim>(&scenario),
        "herc" => retroanim_herc::scenario::run(&scenario),
        "actor" => retroanim_actor::run_scenario(&scenario),
        other => panic!("unknown engine {other}"),
    };
    to_jsonl(&lines.expect("scenario runs"))
}

/// Every bundled scenario: assets/{ac,herc,actor}/scenarios/*.json, sorted.
pub fn bundled_scenarios() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for engine in ["ac", "herc", "actor"] {
        let dir = repo_root().join("assets").join(engine).join("scenarios");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("scenario folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

/// Run a command, insisting it succeeds; its stdout.
pub fn run_ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// An AC world on the sample records (`assets/ac/records`).
pub fn ac_world() -> RaAcWorld {
    let dir = CString::new(format!(
        "{}/../../assets/ac/records",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut w = 0;
    assert_eq!(
        // SAFETY: a valid C string and a writable out-parameter.
        unsafe { ra_ac_world_new_dir(dir.as_ptr(), &mut w) },
        RaStatus::Ok
    );
    w
}

/// The text of this thread's last error.
pub fn last_error() -> String {
    // SAFETY: ra_last_error always returns a valid NUL-terminated string owned by the library.
    unsafe { CStr::from_ptr(ra_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// The sample humanoid's motion table.
pub const HUMANOID_TABLE: u32 = 0x0900_0001;

/// The default creature description (`ra_ac_creature_desc_default`).
pub fn creature_desc() -> RaAcCreatureDesc {
    let mut d = std::mem::MaybeUninit::<RaAcCreatureDesc>::uninit();
    // SAFETY: a writable out-parameter, fully written on success.
    unsafe {
        assert_eq!(ra_ac_creature_desc_default(d.as_mut_ptr()), RaStatus::Ok);
        d.assume_init()
    }
}

/// A creature described by `d` on the sample humanoid's table; its index.
pub fn add_creature(w: RaAcWorld, d: &RaAcCreatureDesc) -> u32 {
    let mut c = u32::MAX;
    // SAFETY: `d` is valid and `c` writable.
    let s = unsafe { ra_ac_world_add_creature(w, HUMANOID_TABLE, d, &mut c) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    c
}

/// Creature `c`'s state.
pub fn ac_state(w: RaAcWorld, c: u32) -> RaAcState {
    let mut s = RaAcState::default();
    // SAFETY: `s` is writable.
    assert_eq!(unsafe { ra_ac_state(w, c, &mut s) }, RaStatus::Ok);
    s
}
