//! Files a scenario names go through the same guard as the scenario itself (issue 21):
//! regular files only, opened without blocking, under the cap of their kind. For each
//! field that names a file (`assets`, `asset`, `setup.mech.chassis`, `setup.mech.vol`,
//! a record in `asset_dir`) and each bad target (/dev/zero, a FIFO, a directory, a
//! symlink to /dev/zero, a file one byte over the cap), `retroanim run` refuses at
//! once with the scenario file, the field's JSON path and the named file's path.
//! Over-size files are sparse: the cap is checked on the size before any byte is read.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const JSON_CAP: u64 = 64 << 20;
const BINARY_CAP: u64 = 256 << 20;
const RECORD_CAP: u64 = 16 << 20;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retroanim-named-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn biped() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc/biped.json");
    p.canonicalize().unwrap().display().to_string()
}

/// Run `retroanim run SCENARIO`, killing it if it has not finished within 5 s (a hang
/// guard: a blocked FIFO open or an endless read would never finish).
fn run(scenario: &Path) -> Output {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .arg("run")
        .arg(scenario)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the retroanim binary runs");
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "retroanim run {} did not finish within 5 s",
                scenario.display()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// What a bad target is.
#[derive(Clone, Copy)]
enum Bad {
    DevZero,
    Fifo,
    Dir,
    LinkToZero,
    OverCap(u64),
}

/// Put the bad target at `path` (or return /dev/zero itself); the path the error names.
fn make(bad: Bad, path: &Path) -> PathBuf {
    match bad {
        Bad::DevZero => return PathBuf::from("/dev/zero"),
        Bad::Fifo => {
            assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
        }
        Bad::Dir => std::fs::create_dir_all(path).unwrap(),
        Bad::LinkToZero => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        Bad::OverCap(cap) => {
            let f = std::fs::File::create(path).unwrap();
            f.set_len(cap + 1).unwrap();
        }
    }
    path.to_path_buf()
}

fn why(bad: Bad) -> String {
    match bad {
        Bad::DevZero | Bad::LinkToZero => "a character device, not a regular file".into(),
        Bad::Fifo => "a FIFO (named pipe), not a regular file".into(),
        Bad::Dir => "a directory, not a regular file".into(),
        Bad::OverCap(cap) => format!(
            "the file is {} bytes, over the input limit of {cap} bytes",
            cap + 1
        ),
    }
}

/// Write the scenario `doc` (with `TARGET` replaced by the target's path) next to the
/// target, run it and check the one error line.
fn refused(tag: &str, file_name: &str, bad: Bad, field: &str, doc: &str) {
    let d = temp_dir(tag);
    let target = make(bad, &d.join(file_name));
    let scenario = d.join("s.json");
    let text = doc
        .replace("TARGET", &target.display().to_string())
        .replace("DIR", &d.display().to_string())
        .replace("BIPED", &biped());
    std::fs::write(&scenario, text).unwrap();
    let o = run(&scenario);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        err,
        format!(
            "retroanim: {}: {field}: cannot read {}: {}\n",
            scenario.display(),
            target.display(),
            why(bad)
        )
    );
    assert_ne!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty(), "no trace line before the refusal");
    let _ = std::fs::remove_dir_all(&d);
}

const ACTOR: &str = r#"{"engine":"actor","assets":"TARGET","steps":[]}"#;
const HERC: &str = r#"{"engine":"herc","asset":"TARGET","setup":{"threads":[]},"steps":[]}"#;
const CHASSIS: &str =
    r#"{"engine":"herc","asset":"BIPED","setup":{"mech":{"chassis":"TARGET"}},"steps":[]}"#;
const VOL: &str = r#"{"engine":"herc","asset":"BIPED","setup":{"mech":{"vol":"TARGET","chassis":"BIPED.CHS"}},"steps":[]}"#;

macro_rules! field_cases {
    ($($name:ident: $file:expr, $bad:expr, $field:expr, $doc:expr;)*) => {$(
        #[test]
        fn $name() {
            refused(stringify!($name), $file, $bad, $field, $doc);
        }
    )*};
}

field_cases! {
    actor_assets_dev_zero: "set.json", Bad::DevZero, "assets", ACTOR;
    actor_assets_fifo: "set.json", Bad::Fifo, "assets", ACTOR;
    actor_assets_directory: "set.json", Bad::Dir, "assets", ACTOR;
    actor_assets_symlink_to_dev_zero: "set.json", Bad::LinkToZero, "assets", ACTOR;
    actor_assets_over_the_json_cap: "set.json", Bad::OverCap(JSON_CAP), "assets", ACTOR;
    herc_asset_dev_zero: "a.json", Bad::DevZero, "asset", HERC;
    herc_asset_fifo: "a.json", Bad::Fifo, "asset", HERC;
    herc_asset_directory: "a.json", Bad::Dir, "asset", HERC;
    herc_asset_symlink_to_dev_zero: "a.json", Bad::LinkToZero, "asset", HERC;
    herc_asset_over_the_json_cap: "a.json", Bad::OverCap(JSON_CAP), "asset", HERC;
    mech_chassis_dev_zero: "c.bin", Bad::DevZero, "setup.mech.chassis", CHASSIS;
    mech_chassis_fifo: "c.bin", Bad::Fifo, "setup.mech.chassis", CHASSIS;
    mech_chassis_directory: "c.bin", Bad::Dir, "setup.mech.chassis", CHASSIS;
    mech_chassis_symlink_to_dev_zero: "c.bin", Bad::LinkToZero, "setup.mech.chassis", CHASSIS;
    mech_chassis_over_the_binary_cap: "c.bin", Bad::OverCap(BINARY_CAP), "setup.mech.chassis", CHASSIS;
    mech_chassis_json_over_the_json_cap: "c.json", Bad::OverCap(JSON_CAP), "setup.mech.chassis", CHASSIS;
    mech_vol_dev_zero: "S.VOL", Bad::DevZero, "setup.mech.vol", VOL;
    mech_vol_fifo: "S.VOL", Bad::Fifo, "setup.mech.vol", VOL;
    mech_vol_directory: "S.VOL", Bad::Dir, "setup.mech.vol", VOL;
    mech_vol_symlink_to_dev_zero: "S.VOL", Bad::LinkToZero, "setup.mech.vol", VOL;
    mech_vol_over_the_binary_cap: "S.VOL", Bad::OverCap(BINARY_CAP), "setup.mech.vol", VOL;
}

/// An AC record in `asset_dir`: the error names the field, the record id and the file.
fn record_refused(tag: &str, bad: Bad) {
    let d = temp_dir(tag);
    let records = d.join("records");
    std::fs::create_dir_all(&records).unwrap();
    let target = make(bad, &records.join("09000001.bin"));
    let scenario = d.join("s.json");
    std::fs::write(
        &scenario,
        r#"{"engine":"ac","asset_dir":"records","setup":{"motion_table":"0x09000001"},"steps":[]}"#,
    )
    .unwrap();
    let o = run(&scenario);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "retroanim: {}: asset_dir: record 0x09000001: cannot read {}: {}\n",
            scenario.display(),
            target.display(),
            why(bad)
        )
    );
    assert!(o.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn ac_asset_dir_record_fifo() {
    record_refused("rec-fifo", Bad::Fifo);
}

#[test]
fn ac_asset_dir_record_directory() {
    record_refused("rec-dir", Bad::Dir);
}

#[test]
fn ac_asset_dir_record_symlink_to_dev_zero() {
    record_refused("rec-zero", Bad::LinkToZero);
}

#[test]
fn ac_asset_dir_record_over_the_record_cap() {
    record_refused("rec-big", Bad::OverCap(RECORD_CAP));
}

#[test]
fn ac_asset_dir_with_a_nul_byte_names_the_field_and_escapes_the_byte() {
    let d = temp_dir("nul");
    let scenario = d.join("s.json");
    std::fs::write(
        &scenario,
        r#"{"engine":"ac","asset_dir":"rec\u0000ords","setup":{"motion_table":"0x09000001"},"steps":[]}"#,
    )
    .unwrap();
    let o = run(&scenario);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "retroanim: {}: asset_dir: \"rec\\u{{0}}ords\" holds a NUL byte at byte 3; no file name can contain one\n",
            scenario.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The reproducer of issue 21: before the guard this reached 8.1 GB in 8.9 s.
#[test]
fn run_of_an_actor_scenario_naming_dev_zero_refuses_at_once() {
    let d = temp_dir("repro");
    let scenario = d.join("s.json");
    std::fs::write(&scenario, r#"{"engine":"actor","assets":"/dev/zero"}"#).unwrap();
    let o = run(&scenario);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "retroanim: {}: assets: cannot read /dev/zero: a character device, not a regular file\n",
            scenario.display()
        )
    );
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}
