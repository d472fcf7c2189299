//! The actor export of the bundled flag: its frames as morph targets, a clip per group
//! whose weights are the interpreter's frame selection, update after update.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use retroanim_actor::Stage;
use retroanim_gltf::actor::{export, ActorAsset, Options};
use retroanim_gltf::{Interpolation, Property};

fn sample_flag() -> ActorAsset {
    let path = support::repository().join("assets/actor/flag2.json");
    let text = std::fs::read_to_string(path).unwrap();
    ActorAsset::from_json(&text, "flag2.json").unwrap()
}

/// Per key, the one target whose weight is 1 (and check the others are 0).
fn selected(values: &[f32], targets: usize) -> Vec<usize> {
    values
        .chunks(targets)
        .map(|w| {
            assert_eq!(w.iter().filter(|&&v| v == 1.0).count(), 1, "{w:?}");
            assert_eq!(
                w.iter().filter(|&&v| v == 0.0).count(),
                targets - 1,
                "{w:?}"
            );
            w.iter().position(|&v| v == 1.0).unwrap()
        })
        .collect()
}

#[test]
fn the_flags_frames_are_morph_targets_of_one_mesh() {
    let scene = export(&sample_flag(), &Options::default()).unwrap();
    assert_eq!(scene.nodes.len(), 1);
    assert_eq!(scene.nodes[0].name, "flag2");
    let mesh = &scene.meshes[0];
    // A 4×3 vertex grid, six quads = twelve triangles.
    assert_eq!(mesh.positions.len(), 12);
    assert_eq!(mesh.indices.len(), 36);
    // RAAN entries 40 (4 frames) and 41 (3 frames): seven targets in frame-table order.
    let names: Vec<&str> = mesh.morph_targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "model 40 frame 0",
            "model 40 frame 1",
            "model 40 frame 2",
            "model 40 frame 3",
            "model 41 frame 0",
            "model 41 frame 1",
            "model 41 frame 2"
        ]
    );
    // Vertex 3 is [120, 120, -2] in frame (40, 0), the base; [120, 120, -4] in (40, 1) and
    // [120, 120, -17] in (41, 0): offsets of -2 and -15 cm along z.
    assert_eq!(mesh.positions[3], [1.2, 1.2, -0.02]);
    assert_eq!(mesh.morph_targets[0].position_offsets[3], [0.0, 0.0, 0.0]);
    assert_eq!(mesh.morph_targets[1].position_offsets[3], [0.0, 0.0, -0.02]);
    let z = mesh.morph_targets[4].position_offsets[3][2];
    assert!((z + 0.15).abs() < 1e-6, "{z}");
}

#[test]
fn one_step_clip_per_group_named_after_it() {
    let scene = export(&sample_flag(), &Options::default()).unwrap();
    let names: Vec<&str> = scene.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["idle", "wave", "gust"]);
    for clip in &scene.clips {
        assert_eq!(clip.channels.len(), 1);
        let ch = &clip.channels[0];
        assert_eq!((ch.node, ch.property), (0, Property::Weights));
        assert_eq!(ch.interpolation, Interpolation::Step);
        assert_eq!(ch.values.len(), ch.times.len() * 7);
        assert!(ch.times.windows(2).all(|w| w[0] < w[1]));
    }
    // idle (header 3): the forced request shows (40, 0) with countdown 3; three updates
    // count it down, the fourth moves to (40, 1), reloads 3 and decrements once, so that
    // frame shows for three updates; then go_to_previous brings (40, 0) back in the state
    // of update 1, and the bake stops there: 8 keys, looping from key 1.
    let w = |c: usize| selected(&scene.clips[c].channels[0].values, 7);
    assert_eq!(w(0), [0, 0, 0, 0, 1, 1, 1, 0]);
    assert_eq!(scene.sidecar["models"][0]["groups"][0]["loop_from"], 0.04);
    // wave (header 0x0101, countdown 1): (40, 2) for two keys, (40, 3) for one, back.
    assert_eq!(w(1), [2, 2, 3, 2]);
    // gust (header 0x0202) starts with a break point, shows (41, 0) and (41, 1), then
    // jumps back to command 1.
    assert_eq!(w(2), [4, 4, 4, 5, 5, 4, 4, 5]);
    assert_eq!(scene.clips[2].channels[0].times[7], 0.28);
    let gust = &scene.sidecar["models"][0]["groups"][2];
    assert_eq!(gust["loop_from"], 0.12);
    assert_eq!(gust["events"][0]["event"], "breakpoint");
    assert_eq!(gust["events"][0]["time"], 0.0);
}

#[test]
fn the_weights_follow_the_interpreters_selection_for_a_placed_actor() {
    // flag_a as the sample places it, scripts off, forced onto each group: its
    // (model, frame) after every update is the clip's selected target.
    let asset = sample_flag();
    let scene = export(&asset, &Options::default()).unwrap();
    let targets: Vec<[u16; 2]> = asset.meshes[0]
        .frames
        .iter()
        .map(|(h, i, _)| [*h, *i])
        .collect();
    for (c, group) in [(0usize, 0u8), (1, 1), (2, 10)] {
        let mut stage = Stage::builder(asset.set.clone())
            .view([2660, 2860])
            .scripts(false)
            .build()
            .unwrap();
        stage.force_request("flag_a", group, 0).unwrap();
        let keys = selected(&scene.clips[c].channels[0].values, 7);
        for (k, &t) in keys.iter().enumerate() {
            if k > 0 {
                stage.update().unwrap();
            }
            assert_eq!(
                stage.frame("flag_a").unwrap(),
                Some(targets[t]),
                "clip {c} key {k}"
            );
        }
    }
}

#[test]
fn the_flag_writes_as_a_glb() {
    let scene = export(&sample_flag(), &Options::default()).unwrap();
    let glb = retroanim_gltf::write_glb(&scene, &Default::default()).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
}

#[test]
fn a_set_without_vertices_is_refused_naming_the_place() {
    let path = support::repository().join("assets/actor/flag2.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["models"][0]["raan"][1]
        .as_object_mut()
        .unwrap()
        .remove("vertices");
    let err = ActorAsset::from_json(&doc.to_string(), "flag2.json").unwrap_err();
    assert_eq!(
        err.to_string(),
        "flag2.json: models[0].raan[1].vertices: no vertices: the model cannot be drawn"
    );
    doc["models"][0]["raan"][1]["vertices"] = serde_json::json!([[], [], []]);
    let err = ActorAsset::from_json(&doc.to_string(), "flag2.json").unwrap_err();
    assert_eq!(
        err.to_string(),
        "flag2.json: models[0].raan[1].vertices[0]: 0 vertices, frame 0 has 12"
    );
}
