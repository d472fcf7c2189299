//! The HERC export of the bundled sample biped: clips named after its sequences, keys at
//! the 25 Hz steps, and poses equal to what the engine plays.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_gltf::herc::{export, Options, RootMotion};
use retroanim_gltf::{Interpolation, Property};
use support::{
    difference, herc_poses, orthogonality_defect, rotation_difference, sample_biped, scene_world,
    translation_difference,
};

fn close(a: f32, b: f64) -> bool {
    (f64::from(a) - b).abs() < 1e-6
}

#[test]
fn one_clip_per_sequence_named_from_the_asset() {
    let scene = export(&sample_biped(), &Options::default()).unwrap();
    let names: Vec<&str> = scene.clips.iter().map(|c| c.name.as_str()).collect();
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
    // 15 DTS nodes, node 0 the root, one box per part node 1-14 on its own node.
    assert_eq!(scene.nodes.len(), 15);
    assert_eq!(scene.nodes[0].name, "root_motion");
    assert_eq!(scene.nodes[0].parent, None);
    assert_eq!(scene.nodes[1].name, "pelvis");
    assert_eq!(scene.nodes[1].parent, Some(0)); // parentless in DTS: hangs from node 0
    assert_eq!(scene.nodes[3].name, "cockpit");
    assert_eq!(scene.nodes[3].parent, Some(2)); // the cockpit stays on the torso
    assert_eq!(scene.meshes.len(), 14);
    assert_eq!(scene.nodes[0].mesh, None);
    assert!((1..15).all(|n| scene.nodes[n].mesh.is_some()));
    // A box: 8 corners (the face centres are not drawn), 6 quads = 12 triangles.
    assert_eq!(scene.meshes[0].positions.len(), 8);
    assert_eq!(scene.meshes[0].indices.len(), 36);
}

#[test]
fn keys_at_the_25_hz_steps_cover_each_sequence_once() {
    let scene = export(&sample_biped(), &Options::default()).unwrap();
    // Sequence ticks / 31 ticks per 40 ms step, rounded up, plus the key at 0:
    // idle 600 → 21, walk 800 → 27, run 480 → 17, turn 600 → 21, stop 525 → 18,
    // twist 1600 → 53, pitch 1600 → 53, idle_reverse 600 → 21.
    let keys: Vec<usize> = scene
        .clips
        .iter()
        .map(|c| c.channels[0].times.len())
        .collect();
    assert_eq!(keys, [21, 27, 17, 21, 18, 53, 53, 21]);
    let walk = &scene.clips[1];
    // In place: nodes 1-14, a translation and a rotation channel each.
    assert_eq!(walk.channels.len(), 28);
    for ch in &walk.channels {
        assert_eq!(ch.interpolation, Interpolation::Step);
        assert_eq!(ch.times[1], 0.04);
        assert_eq!(ch.times[26], 1.04);
        assert!(ch.times.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn the_walk_pose_after_one_step_is_the_engines_q10_blend_through_its_sine_table() {
    let scene = export(&sample_biped(), &Options::default()).unwrap();
    let walk = &scene.clips[1];
    let pelvis = |p: Property| {
        walk.channels
            .iter()
            .find(|c| c.node == 1 && c.property == p)
            .unwrap()
    };
    let (t, r) = (pelvis(Property::Translation), pelvis(Property::Rotation));
    // Key 0: walk frame 0's pelvis key [0, 0, -300, 0, 0, 420]: 4.2 m up, a heading about
    // DTS +Z, which is glTF +Y. FromEuler reads the sine table at the angle rounded to
    // 1/4096 turn: ((-300 >> 3) + 1) >> 1 = -19, so cos = 16377 and sin = -477 (Q14), and
    // the quaternion turns by atan2(-477, 16377).
    assert_eq!(&t.values[0..3], &[0.0, 4.2, 0.0]);
    assert!(close(r.values[1], -0.014558476) && close(r.values[3], 0.999894020));
    assert_eq!((r.values[0], r.values[2]), (0.0, 0.0));
    // Key 1: 31 ticks into the 125-tick frame, q = (31·1024 + 62) / 125 = 254; toward the
    // next key [0, 0, 0, 0, 0, 400]: heading -300 + (300·254 >> 10) = -226, height
    // 420 + (-20·254 >> 10) = 415. -226 reads table angle -14: cos 16380, sin -352.
    assert_eq!(&t.values[3..6], &[0.0, 4.15, 0.0]);
    assert!(close(r.values[5], -0.010742951) && close(r.values[7], 0.999942293));
}

#[test]
fn baked_root_motion_moves_node_0_as_the_engine_moves_the_machine() {
    let options = Options {
        root_motion: RootMotion::Baked,
        ..Options::default()
    };
    let scene = export(&sample_biped(), &options).unwrap();
    let walk = &scene.clips[1];
    assert_eq!(walk.channels.len(), 30);
    let root = walk
        .channels
        .iter()
        .find(|c| c.node == 0 && c.property == Property::Translation)
        .unwrap();
    // The walk's first ground key moves 150 units along +Y over its 125 ticks; after 31
    // ticks the machine has moved 150·31/125 = 37 units (truncated): 0.37 m along glTF +Z.
    assert_eq!(&root.values[0..3], &[0.0, 0.0, 0.0]);
    assert_eq!(&root.values[3..6], &[0.0, 0.0, 0.37]);
    // In place the root has no keys and the sidecar carries the movement.
    let in_place = export(&sample_biped(), &Options::default()).unwrap();
    assert!(in_place.clips[1].channels.iter().all(|c| c.node != 0));
    let moved = &in_place.sidecar["sequences"][1]["movement"]["translation"];
    assert!(moved[2].as_f64().unwrap() > 1.0, "{moved}");
}

#[test]
fn every_key_of_every_clip_is_the_engines_q14_pose() {
    let asset = sample_biped();
    for root_motion in [RootMotion::InPlace, RootMotion::Baked] {
        let options = Options {
            root_motion,
            ..Options::default()
        };
        let scene = export(&asset, &options).unwrap();
        let (mut floats, mut rot, mut moved, mut defect) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for (c, clip) in scene.clips.iter().enumerate() {
            let keys = clip.channels[0].times.len();
            let poses = herc_poses(&asset.model, c as i16, keys - 1, root_motion, 0.01);
            for (k, (locals, world)) in poses.iter().enumerate() {
                let got = scene_world(&scene, c, k);
                for n in 0..15 {
                    floats = floats.max(difference(&got[n], &locals[n], 1.0));
                    rot = rot.max(rotation_difference(&got[n], &world[n]));
                    moved = moved.max(translation_difference(&got[n], &world[n]));
                    defect = defect.max(orthogonality_defect(&world[n]));
                }
            }
        }
        // Translations land on the engine's (whole units, in metres) to f32's precision.
        assert!(moved < 1e-5, "{root_motion:?}: {moved}");
        // DBSIM's Q14 matrices are rotations only up to their rounding (the sample's depart
        // from one by up to 13/16384 in an entry, 2.5e-3 in MᵀM); the glTF's rotations are the nearest
        // ones, so no farther from the engine's than that.
        assert!(defect > 5e-4 && defect < 5e-3, "{root_motion:?}: {defect}");
        assert!(rot <= defect, "{root_motion:?}: {rot} > {defect}");
        // The same locals composed with exact sines instead of DBSIM's table (angles read
        // to 1/4096 turn) land up to 2 cm away: the glTF follows the engine.
        assert!(floats > 1e-3 && floats < 0.03, "{root_motion:?}: {floats}");
        eprintln!(
            "{root_motion:?}: largest difference from the Q14 world: rotation {rot:e} \
             (Q14 defect {defect:e}), translation {moved:e} m; from exact sines {floats:e}"
        );
    }
}

#[test]
fn rotations_are_unit_quaternions_with_a_continuous_sign() {
    let scene = export(&sample_biped(), &Options::default()).unwrap();
    for clip in &scene.clips {
        for ch in clip
            .channels
            .iter()
            .filter(|c| c.property == Property::Rotation)
        {
            let q: Vec<&[f32]> = ch.values.chunks(4).collect();
            for w in q.windows(2) {
                let dot: f32 = w[0].iter().zip(w[1]).map(|(a, b)| a * b).sum();
                assert!(dot >= 0.0, "{}: {dot}", clip.name);
            }
            for v in q {
                let n: f32 = v.iter().map(|a| a * a).sum();
                assert!((n - 1.0).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn the_sidecar_holds_transitions_and_frame_events() {
    let scene = export(&sample_biped(), &Options::default()).unwrap();
    let idle = &scene.sidecar["sequences"][0];
    assert_eq!(idle["name"], "idle");
    assert_eq!(idle["class"], "cyclic");
    assert_eq!(idle["priority"], 96);
    // biped.json: idle frame 0 offers transitions 0 and 1: to walk frame 0 in 100 ticks
    // with movement key 12, and to turn frame 0 with key 13.
    let t = &idle["frames"][0]["transitions"];
    assert_eq!(t.as_array().unwrap().len(), 2);
    assert_eq!(t[0]["to"], "walk");
    assert_eq!(t[0]["to_frame"], 0);
    assert_eq!(t[0]["duration_ticks"], 100);
    assert_eq!(t[0]["movement_key"]["index"], 12);
    assert_eq!(t[1]["to"], "turn");
    // Idle's frames last 300 ticks: frame 1 starts at 300/775 s and the cycle wraps to
    // frame 0 at 600/775 s (775 ticks a second at 25 steps of 31).
    let events: Vec<(f64, i64)> = idle["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["time"].as_f64().unwrap(), e["frame"].as_i64().unwrap()))
        .collect();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0], (0.0, 0));
    assert!((events[1].0 - 300.0 / 775.0).abs() < 1e-9 && events[1].1 == 1);
    assert!((events[2].0 - 600.0 / 775.0).abs() < 1e-9 && events[2].1 == 0);
}

#[test]
fn the_biped_writes_as_a_glb_in_both_root_motion_modes() {
    for root_motion in [RootMotion::InPlace, RootMotion::Baked] {
        let options = Options {
            root_motion,
            ..Options::default()
        };
        let scene = export(&sample_biped(), &options).unwrap();
        let glb = retroanim_gltf::write_glb(&scene, &Default::default()).unwrap();
        assert_eq!(&glb[0..4], b"glTF");
    }
}

#[test]
fn a_truncated_dts_is_refused_naming_the_file() {
    let dts = std::fs::read(support::repository().join("assets/herc/biped.dts")).unwrap();
    let err =
        retroanim_gltf::herc::HercAsset::from_dts(&dts[..100], "biped.dts", "biped").unwrap_err();
    assert!(err.to_string().starts_with("biped.dts: "), "{err}");
    // The whole file exports, with DTS's numbered names.
    let asset = retroanim_gltf::herc::HercAsset::from_dts(&dts, "biped.dts", "biped").unwrap();
    let scene = export(&asset, &Options::default()).unwrap();
    assert_eq!(scene.clips[1].name, "seq 1");
    assert_eq!(scene.nodes[1].name, "node 1");
    assert_eq!(scene.meshes.len(), 14);
}

#[test]
fn repeated_names_are_made_unique() {
    let path = support::repository().join("assets/herc/biped.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["sequences"][2]["name"] = "walk".into();
    doc["nodes"][9]["name"] = "l_thigh".into();
    let asset =
        retroanim_gltf::herc::HercAsset::from_json(&doc.to_string(), "biped.json", None).unwrap();
    let scene = export(&asset, &Options::default()).unwrap();
    assert_eq!(scene.clips[2].name, "walk #2");
    assert_eq!(scene.nodes[9].name, "l_thigh #2");
    assert_eq!(scene.sidecar["sequences"][2]["name"], "walk #2");
    // No DTS given: no meshes.
    assert!(scene.meshes.is_empty());
}

#[test]
fn h82_mesh_base_colours_come_from_the_shapes_palette() {
    use retroanim_herc::inspect::meshes::ShapeMaterials;
    let dir = support::repository().join("assets/herc");
    let mats = ShapeMaterials::read(
        Some((
            std::fs::read(dir.join("biped.dpl")).unwrap(),
            "biped.dpl".into(),
        )),
        Some((
            std::fs::read(dir.join("biped.dba")).unwrap(),
            "biped.dba".into(),
        )),
    );
    let scene = export(&sample_biped().with_materials(&mats), &Options::default()).unwrap();
    assert_eq!(scene.meshes.len(), 14);
    // The pelvis box: 4 sides textured with frame 0 (the plate), underside ramp 0, top
    // palette index 1; the sides win. The plate's mean colour over its 256 texels (grey ramp
    // steps ×4: 60 border texels at step 1 (56, 60, 68), 28 panel-line texels at step 3
    // (80, 88, 100), 164 plate texels at step 5 (112, 120, 136), 4 rivets at step 7
    // (136, 148, 168)): (24512, 26336, 29856) / 256 → (95, 102, 116), in linear RGB
    // (0.1144, 0.1329, 0.1747).
    let c = scene.meshes[0].base_color;
    for (k, want) in [0.1144, 0.1329, 0.1747, 1.0].into_iter().enumerate() {
        assert!((f64::from(c[k]) - want).abs() < 5e-4, "{c:?}");
    }
    // Without the palette the colour is the guessed hue of the first polygon's value (frame
    // 0 of a side): colour(0).
    let plain = export(&sample_biped(), &Options::default()).unwrap();
    assert_eq!(plain.meshes[0].base_color, retroanim_gltf::herc::colour(0));
}
