//! Every sample export, in each mode the CLI offers, passes the Khronos glTF validator (the
//! `gltf-validator` npm package, run by node): no errors and no warnings. docs/export.md
//! lists the exceptions allowed (none today). A deliberately broken file checks that the
//! harness does read the validator's findings.

// Tests write their exports and read the validator's output directly.
#![allow(clippy::disallowed_methods)]

use retroanim_ac::Loader;
use retroanim_gltf::ac::{export, Options, RootMotion};
use retroanim_gltf::{
    write_glb, Channel, Clip, Interpolation, Node, Property, Scene, WriteOptions,
};
use retroanim_testkit::{require, GLTF_VALIDATOR, NODE};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Issue codes the validator may report as infos or hints without failing the test, each
/// explained in docs/export.md ("Validator"). Errors and warnings are never allowed.
const ALLOWED_INFOS: &[&str] = &[];

fn validator_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("validator")
}

/// The validator's report for each file: one JSON object per line from validate.mjs.
fn validate(files: &[PathBuf]) -> Vec<Value> {
    let out = Command::new("node")
        .arg(validator_dir().join("validate.mjs"))
        .args(files)
        .current_dir(validator_dir())
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "validate.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reports: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON report per line"))
        .collect();
    assert_eq!(reports.len(), files.len());
    reports
}

fn work_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[cfg_attr(
    missing_gltf_validator,
    ignore = "needs node and gltf-validator: apt-get install -y nodejs npm; cd crates/gltf/validator && npm ci; or scripts/test"
)]
fn every_ac_sample_export_passes_the_khronos_validator_without_errors_or_warnings() {
    require(&[NODE, GLTF_VALIDATOR]);
    let dir = work_dir("khronos-validator-ac");
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let mut files = Vec::new();
    let mut clip_counts = Vec::new();
    for (root_motion, root_name) in [
        (RootMotion::InPlace, "in-place"),
        (RootMotion::Baked, "baked"),
    ] {
        let scene = export(
            &mut Loader::from_dir(records),
            Some(0x0200_0001),
            0x0900_0001,
            &Options { root_motion },
        )
        .unwrap();
        for skinned in [false, true] {
            let glb = write_glb(&scene, &WriteOptions { skinned }).unwrap();
            let path = dir.join(format!(
                "humanoid-{root_name}{}.glb",
                if skinned { "-skinned" } else { "" }
            ));
            std::fs::write(&path, glb).unwrap();
            files.push(path);
            clip_counts.push(scene.clips.len());
        }
    }
    for (report, clips) in validate(&files).iter().zip(clip_counts) {
        let path = &report["path"];
        assert_eq!(report["numErrors"], 0, "{path}: {report:#}");
        assert_eq!(report["numWarnings"], 0, "{path}: {report:#}");
        for m in report["messages"].as_array().unwrap() {
            let code = m["code"].as_str().unwrap_or("");
            assert!(
                ALLOWED_INFOS.contains(&code),
                "{path}: {code} is not a documented exception: {m}"
            );
        }
        // Every clip is in the file for the validator to check: 28 for the humanoid.
        assert_eq!(clips, 28);
        assert_eq!(report["animationCount"], 28, "{path}");
    }
}

#[test]
#[cfg_attr(
    missing_gltf_validator,
    ignore = "needs node and gltf-validator: apt-get install -y nodejs npm; cd crates/gltf/validator && npm ci; or scripts/test"
)]
fn the_harness_sees_the_validators_errors_in_a_broken_file() {
    require(&[NODE, GLTF_VALIDATOR]);
    let scene = Scene {
        name: "broken".into(),
        nodes: vec![Node::new("box", None)],
        clips: vec![Clip {
            name: "Slide".into(),
            channels: vec![Channel {
                node: 0,
                property: Property::Translation,
                interpolation: Interpolation::Step,
                times: vec![0.0, 0.5, 1.0],
                values: vec![0.0; 9],
            }],
        }],
        ..Default::default()
    };
    let mut glb = write_glb(&scene, &WriteOptions::default()).unwrap();
    // The BIN chunk's last 48 bytes are the three key times then nine zeros; making the
    // second time 2.0 (0x40000000) breaks both the order and the declared max of 1.0.
    let times = glb.len() - 48;
    glb[times + 4..times + 8].copy_from_slice(&2.0f32.to_le_bytes());
    let dir = work_dir("khronos-validator-broken");
    let path = dir.join("broken.glb");
    std::fs::write(&path, glb).unwrap();
    let report = &validate(&[path])[0];
    let codes: Vec<&str> = report["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["code"].as_str())
        .collect();
    assert!(report["numErrors"].as_u64().unwrap() >= 2, "{report:#}");
    assert!(codes.contains(&"ACCESSOR_MAX_MISMATCH"), "{codes:?}");
    assert!(
        codes.contains(&"ACCESSOR_ANIMATION_INPUT_NON_INCREASING"),
        "{codes:?}"
    );
}
