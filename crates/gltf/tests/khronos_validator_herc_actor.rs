//! The HERC biped and the actor flag exports, in each mode the CLI offers (in place and
//! baked root motion, plain and `--skinned`), pass the Khronos glTF validator (the
//! `gltf-validator` npm package, run by node through `crates/gltf/validator/validate.mjs`):
//! no errors, no warnings, no infos, no hints.

// Tests write their exports and read the validator's output directly.
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_gltf::{actor, herc, write_glb, WriteOptions};
use retroanim_testkit::{require, GLTF_VALIDATOR, NODE};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

#[test]
#[cfg_attr(
    missing_gltf_validator,
    ignore = "needs node and gltf-validator: apt-get install -y nodejs npm; cd crates/gltf/validator && npm ci; or scripts/test"
)]
fn every_herc_and_actor_sample_export_passes_the_khronos_validator() {
    require(&[NODE, GLTF_VALIDATOR]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("khronos-validator-herc-actor");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let biped = support::sample_biped();
    let flag_text =
        std::fs::read_to_string(support::repository().join("assets/actor/flag2.json")).unwrap();
    let flag = actor::ActorAsset::from_json(&flag_text, "flag2.json").unwrap();
    let mut scenes = Vec::new();
    for (root_motion, name) in [
        (herc::RootMotion::InPlace, "biped"),
        (herc::RootMotion::Baked, "biped-baked"),
    ] {
        let options = herc::Options {
            root_motion,
            ..Default::default()
        };
        scenes.push((name, herc::export(&biped, &options).unwrap(), 8));
    }
    scenes.push((
        "flag2",
        actor::export(&flag, &Default::default()).unwrap(),
        3,
    ));
    let mut files = Vec::new();
    let mut clips = Vec::new();
    for (name, scene, count) in &scenes {
        for skinned in [false, true] {
            let glb = write_glb(scene, &WriteOptions { skinned }).unwrap();
            let path = dir.join(format!(
                "{name}{}.glb",
                if skinned { "-skinned" } else { "" }
            ));
            std::fs::write(&path, glb).unwrap();
            files.push(path);
            clips.push(*count);
        }
    }
    let validator = Path::new(env!("CARGO_MANIFEST_DIR")).join("validator");
    let out = Command::new("node")
        .arg(validator.join("validate.mjs"))
        .args(&files)
        .current_dir(&validator)
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
    assert_eq!(reports.len(), 6);
    for (report, count) in reports.iter().zip(clips) {
        let path = &report["path"];
        for field in ["numErrors", "numWarnings", "numInfos", "numHints"] {
            assert_eq!(report[field], 0, "{path}: {field}: {report:#}");
        }
        // Every clip is in the file for the validator to check.
        assert_eq!(report["animationCount"], count, "{path}");
    }
}
