//! `retroanim export-gltf ac`: the bundled sample, a record folder with --all, a DAT built
//! in a temporary folder, and bad input (located errors, exit status 2, no panic).

// Tests read the repository's own fixtures and the files written directly.
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::dat::write_dat;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn records() -> PathBuf {
    root().join("assets/ac/records")
}

fn export(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .arg("export-gltf")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn work(tag: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("export-gltf-{tag}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn failed(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn sidecar(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn export_gltf_ac_writes_the_sample_as_glb_with_its_sidecar() {
    let dir = work("sample");
    let out = dir.join("humanoid.glb");
    let text = ok(&export(&[
        "ac",
        out.to_str().unwrap(),
        "--root-motion",
        "baked",
    ]));
    assert!(text.contains(": 28 clips, "), "{text}");
    let glb = std::fs::read(&out).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    let s = sidecar(&dir.join("humanoid.json"));
    assert_eq!(s["setup"], "0x02000001");
    assert_eq!(s["motion_table"], "0x09000001");
    assert_eq!(s["root_motion"], "baked");
    assert_eq!(s["cycles"].as_array().unwrap().len(), 9);
}

#[test]
fn export_gltf_ac_all_writes_one_pair_per_motion_table() {
    let dir = work("all");
    let text = ok(&export(&[
        "ac",
        dir.to_str().unwrap(),
        "--records",
        records().to_str().unwrap(),
        "--all",
        "--skinned",
    ]));
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(dir.join("09000001.glb").is_file());
    assert_eq!(sidecar(&dir.join("09000001.json"))["setup"], "0x02000001");
}

#[test]
fn export_gltf_ac_reads_a_dat_and_finds_the_setup_naming_the_table() {
    let dir = work("dat");
    let recs: Vec<(u32, Vec<u8>)> = std::fs::read_dir(records())
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.file_name().into_string().unwrap();
            let id = u32::from_str_radix(name.trim_end_matches(".bin"), 16).unwrap();
            (id, std::fs::read(e.path()).unwrap())
        })
        .collect();
    let dat = dir.join("client_portal.dat");
    std::fs::write(&dat, write_dat(&recs, 256, 61)).unwrap();
    let out = dir.join("from-dat.glb");
    let text = ok(&export(&[
        "ac",
        out.to_str().unwrap(),
        "--ac-dat",
        dat.to_str().unwrap(),
        "--table",
        "0x09000001",
    ]));
    assert!(text.contains(": 28 clips, "), "{text}");
    assert_eq!(sidecar(&dir.join("from-dat.json"))["setup"], "0x02000001");

    let err = failed(&export(&[
        "ac",
        out.to_str().unwrap(),
        "--ac-dat",
        dat.to_str().unwrap(),
    ]));
    assert!(err.contains("--table 0x09"), "{err}");
}

#[test]
fn export_gltf_ac_bad_input_is_a_located_error() {
    let dir = work("bad");
    let out = dir.join("x.glb");
    let out = out.to_str().unwrap();
    let err = failed(&export(&[
        "ac",
        out,
        "--ac-dat",
        "/nonexistent/client_portal.dat",
    ]));
    assert!(err.contains("/nonexistent/client_portal.dat"), "{err}");
    let err = failed(&export(&["ac", out, "--table", "0x09000777"]));
    assert!(err.contains("09000777.bin"), "{err}");
    let err = failed(&export(&["ac", out, "--setup", "0x02000777"]));
    assert!(err.contains("02000777.bin"), "{err}");
    assert!(!dir.join("x.glb").exists());
}
