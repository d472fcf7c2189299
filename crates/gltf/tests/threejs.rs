//! three.js check: the bundled samples' exports, loaded by three.js's GLTFLoader in
//! headless Chromium and played by its AnimationMixer, show the engine's poses.
//!
//! `crates/gltf/threejs/sample.mjs` loads each `.glb` and writes every node's world matrix
//! and morph weights at the requested clip times; this test compares them with what the
//! engines say (`support`): AC parts with the part frames of the engine's Sequence within
//! 1e-5; HERC nodes with the engine's Q14 world matrices converted
//! (translations within 1e-5 m; rotations within 1e-5 of the nearest rotation to the Q14
//! matrix, so within that matrix's own departure from a rotation plus 1e-5), actor
//! weights exactly. Each key is sampled half a step after its
//! time, so the STEP keys are seen holding (the last one past the clip's end, where a
//! clip played once holds its last key).
//!
//! Needs `node`, `/usr/bin/chromium` (or `$CHROMIUM`) and `npm ci` in crates/gltf/threejs;
//! without them the test is reported ignored with how to install them (see build.rs),
//! unless `RETROANIM_NO_SKIP` is set.

// Tests read and write their own files directly; only library code must go through
// retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_testkit::{require, CHROMIUM, NODE, THREE_JS};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

#[test]
#[cfg_attr(
    missing_threejs,
    ignore = "needs chromium, node and three.js: apt-get install -y chromium nodejs npm; cd crates/gltf/threejs && npm ci; or scripts/test"
)]
fn threejs_plays_the_engines_poses() {
    require(&[CHROMIUM, NODE, THREE_JS]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-threejs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let samples = support::samples();
    // Half a step after the key; past the last key the clip is clamped (LoopOnce) and holds.
    let sample_time = |c: &support::Check| c.time + c.step / 2.0;
    let mut files = Vec::new();
    for s in &samples {
        let path = dir.join(&s.file);
        std::fs::write(&path, &s.glb).unwrap();
        let times: Vec<Value> = s
            .checks
            .iter()
            .map(|c| json!({"clip": c.clip, "time": sample_time(c)}))
            .collect();
        files.push(json!({"glb": path, "samples": times}));
    }
    let request = dir.join("request.json");
    let output = dir.join("output.json");
    std::fs::write(&request, json!({ "files": files }).to_string()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("threejs");
    let status = Command::new("node")
        .arg(script.join("sample.mjs"))
        .arg(&request)
        .arg(&output)
        .current_dir(&script)
        .status()
        .expect("start node");
    assert!(status.success(), "sample.mjs failed: {status}");
    let out: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();

    let mut count = 0usize;
    for (s, file) in samples.iter().zip(out["files"].as_array().unwrap()) {
        let (mut rot, mut ortho, mut moved, mut weight) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        let got = file["samples"].as_array().unwrap();
        assert_eq!(got.len(), s.checks.len());
        for (check, g) in s.checks.iter().zip(got) {
            let nodes: Vec<Option<support::Mat4>> = g["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| serde_json::from_value(m.clone()).ok())
                .collect();
            let weights: Vec<Option<Vec<f64>>> = g["weights"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| serde_json::from_value(w.clone()).ok())
                .collect();
            let (r, o, t, w) = support::compare("three.js", s, check, &nodes, &weights, 1e-5);
            (rot, ortho, moved, weight) = (rot.max(r), ortho.max(o), moved.max(t), weight.max(w));
            count += 1;
        }
        eprintln!(
            "three.js r{}: {}: {} samples; largest difference: rotation {rot:e} from the \
             engine's matrix, {ortho:e} from it orthonormalised, translation {moved:e} m, \
             morph weight {weight:e}",
            out["three"].as_str().unwrap_or("?"),
            s.file,
            s.checks.len()
        );
    }
    // biped: 7 clips × 5 keys, biped_baked: 3 × 5, flag: 8 + 4 + 8 keys, humanoid: 4 × 5.
    assert_eq!(count, 35 + 15 + 20 + 20);
}
