//! `retroanim export-gltf herc` and `actor`: the bundled biped and flag, and a shape of an
//! Earthsiege 2 folder (one the test builds from the sample biped: no game data here).

// Tests read and write their own files directly; only library code must go through
// retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_herc::formats::vol::{VolArchive, VolEntry};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `retroanim export-gltf ARGS` from the repository root; its stdout, or a panic with
/// its stderr.
fn export(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .arg("export-gltf")
        .args(args)
        .current_dir(repository())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn sidecar(glb: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(glb.with_extension("json")).unwrap()).unwrap()
}

/// An ES2 folder whose SIMVOL0.VOL holds the sample biped as `dts\BIPED.DTS` and its
/// chassis record as `dat\BIPED.DAT` (not a shape: left out).
fn es2_folder() -> PathBuf {
    let dir = scratch("export-gltf-es2");
    let read = |f: &str| std::fs::read(repository().join("assets/herc").join(f)).unwrap();
    let vol = VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into(), "dat".into()],
        entries: vec![
            VolEntry::stored("BIPED.DTS", 0, read("biped.dts")).unwrap(),
            VolEntry::stored("BIPED.DAT", 1, read("biped.chassis.bin")).unwrap(),
        ],
        list_extra: Vec::new(),
    };
    std::fs::write(dir.join("SIMVOL0.VOL"), vol.write().unwrap()).unwrap();
    dir
}

#[test]
fn herc_exports_the_bundled_biped_with_its_sequence_names() {
    let out = scratch("export-gltf-herc").join("biped.glb");
    let printed = export(&["herc", out.to_str().unwrap()]);
    assert!(printed.contains("8 clips"), "{printed}");
    assert_eq!(&std::fs::read(&out).unwrap()[0..4], b"glTF");
    let s = sidecar(&out);
    assert_eq!(s["engine"], "herc");
    assert_eq!(s["root_motion"], "in-place");
    let names: Vec<&str> = s["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "idle",
            "walk",
            "run",
            "turn",
            "stop",
            "twist",
            "pitch",
            "idle_reverse"
        ]
    );
    let baked = out.with_file_name("baked.glb");
    export(&["herc", baked.to_str().unwrap(), "--root-motion", "baked"]);
    assert_eq!(sidecar(&baked)["root_motion"], "baked");
}

#[test]
fn herc_exports_a_shape_of_an_es2_folder_by_name_or_all_of_them() {
    let dir = es2_folder();
    let out = scratch("export-gltf-herc-es2");
    let one = out.join("biped.glb");
    export(&[
        "herc",
        one.to_str().unwrap(),
        "--es2",
        dir.to_str().unwrap(),
        "--shape",
        "dts\\BIPED.DTS",
    ]);
    // A DTS names nothing: sequences are numbered.
    let s = sidecar(&one);
    assert_eq!(s["shape"], "BIPED");
    assert_eq!(s["sequences"][1]["name"], "seq 1");
    assert_eq!(s["sequences"].as_array().unwrap().len(), 8);

    let all = out.join("all");
    let printed = export(&[
        "herc",
        all.to_str().unwrap(),
        "--es2",
        dir.to_str().unwrap(),
        "--all",
    ]);
    assert!(printed.contains("SIMVOL0_BIPED.glb: 8 clips"), "{printed}");
    assert!(all.join("SIMVOL0_BIPED.json").is_file());

    let o = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(["export-gltf", "herc", "x.glb", "--es2"])
        .arg(&dir)
        .args(["--shape", "NOSUCH"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no DTS shape \"NOSUCH\" in its archives (1 shapes)"),
        "{err}"
    );
}

#[test]
fn actor_exports_the_bundled_flag_with_its_group_names() {
    let out = scratch("export-gltf-actor").join("flag2.glb");
    let printed = export(&["actor", out.to_str().unwrap()]);
    assert!(printed.contains("3 clips"), "{printed}");
    let s = sidecar(&out);
    assert_eq!(s["engine"], "actor");
    let clips: Vec<&str> = s["models"][0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["clip"].as_str().unwrap())
        .collect();
    assert_eq!(clips, ["idle", "wave", "gust"]);
}
