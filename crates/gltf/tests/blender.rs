//! Blender check: Debian's Blender 3.4, run headless, imports the bundled samples' exports
//! (the HERC biped, the actor flag and the AC humanoid).
//! Every clip is there as Blender names it (one action per clip and node, `<clip>_<node>`)
//! with its frame range, and at the chosen keys the objects' world matrices and shape-key
//! values are the engine's (`support`) within 1e-4.
//!
//! `crates/gltf/blender/sample.py` does the import (the scene at the file's key rate, 25
//! frames a second for HERC and actor, 30 for the AC sample, so key k is frame k; sampled
//! half a frame later, where a STEP key holds) and writes what Blender shows; this test
//! compares. Needs `blender` and
//! numpy (`apt-get install -y blender python3-numpy`); without them the test is reported
//! ignored with how to install them (see build.rs), unless `RETROANIM_NO_SKIP` is set.

// Tests read and write their own files directly; only library code must go through
// retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_testkit::{require, BLENDER, BLENDER_NUMPY};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[test]
#[cfg_attr(
    missing_blender,
    ignore = "needs blender and numpy: apt-get install -y blender python3-numpy; or scripts/test"
)]
fn blender_imports_the_clips_and_plays_the_engines_poses() {
    require(&[BLENDER, BLENDER_NUMPY]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-blender");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let samples = support::samples();
    let mut files = Vec::new();
    for s in &samples {
        let path = dir.join(&s.file);
        std::fs::write(&path, &s.glb).unwrap();
        let nodes: Vec<&str> = s.scene.nodes.iter().map(|n| n.name.as_str()).collect();
        // A key every frame: the file's rate; sampled half a frame after each key.
        let fps = (1.0 / s.checks[0].step).round();
        let frames: Vec<Value> = s
            .checks
            .iter()
            .map(|c| json!({"clip": c.clip, "frame": c.key, "subframe": 0.5}))
            .collect();
        files.push(json!({"glb": path, "fps": fps, "nodes": nodes, "samples": frames}));
    }
    let request = dir.join("request.json");
    let output = dir.join("output.json");
    std::fs::write(&request, json!({ "files": files }).to_string()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("blender/sample.py");
    let started = Instant::now();
    let status = Command::new("blender")
        .args([
            "-b",
            "--factory-startup",
            "--python-exit-code",
            "1",
            "--python",
        ])
        .arg(&script)
        .arg("--")
        .arg(&request)
        .arg(&output)
        .status()
        .expect("start blender");
    let elapsed = started.elapsed();
    assert!(status.success(), "blender failed: {status}");
    let out: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();

    let (mut count, mut actions) = (0usize, 0usize);
    for (s, file) in samples.iter().zip(out["files"].as_array().unwrap()) {
        let (mut rot, mut ortho, mut moved, mut weight) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        let fps = (1.0 / s.checks[0].step).round();
        // Every clip, on every node it animates: `<clip>_<node>`, frames 0 to keys − 1.
        let got = file["actions"].as_object().unwrap();
        let before = actions;
        for clip in &s.scene.clips {
            let mut animated: Vec<usize> = clip.channels.iter().map(|c| c.node).collect();
            animated.dedup();
            let end = clip
                .channels
                .iter()
                .map(|c| f64::from(*c.times.last().unwrap()))
                .fold(0.0, f64::max);
            for n in animated {
                let name = format!("{}_{}", clip.name, s.scene.nodes[n].name);
                let range = got
                    .get(&name)
                    .unwrap_or_else(|| panic!("{}: no action {name}", s.file));
                let (first, last) = (range[0].as_f64().unwrap(), range[1].as_f64().unwrap());
                assert!(
                    first == 0.0 && (last - end * fps).abs() < 1e-3,
                    "{}: {name}: frames {first} to {last}, want 0 to {}",
                    s.file,
                    end * fps
                );
                actions += 1;
            }
        }
        // And no other action (none named after a node number, none left over).
        assert_eq!(got.len(), actions - before, "{}: {got:?}", s.file);
        // STEP keys arrive as Blender's CONSTANT interpolation, nothing else.
        assert_eq!(file["interpolations"], json!(["CONSTANT"]), "{}", s.file);
        let sampled = file["samples"].as_array().unwrap();
        assert_eq!(sampled.len(), s.checks.len());
        for (check, g) in s.checks.iter().zip(sampled) {
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
            let (r, o, t, w) = support::compare("blender", s, check, &nodes, &weights, 1e-4);
            (rot, ortho, moved, weight) = (rot.max(r), ortho.max(o), moved.max(t), weight.max(w));
            count += 1;
        }
        eprintln!(
            "blender: {}: {} samples at {fps} fps, imported in {:.2} s; largest difference: \
             rotation {rot:e} from the engine's matrix, {ortho:e} from it orthonormalised, \
             translation {moved:e} m, shape-key value {weight:e}",
            s.file,
            s.checks.len(),
            file["seconds"].as_f64().unwrap_or(0.0)
        );
    }
    // biped: 8 clips × 14 nodes; biped_baked: 8 × 15 (node 0 too); flag: 3 clips × 1 mesh;
    // humanoid: 25 clips × its parts, and 3 modifiers moving no part, each holding its root.
    let humanoid_parts = samples[3].scene.nodes.len() - 1;
    assert_eq!(actions, 112 + 120 + 3 + 25 * humanoid_parts + 3);
    assert_eq!(count, 35 + 15 + 20 + 20);
    eprintln!(
        "blender {}: {actions} actions, {count} samples in {:.1} s",
        out["blender"].as_str().unwrap_or("?"),
        elapsed.as_secs_f64()
    );
}
