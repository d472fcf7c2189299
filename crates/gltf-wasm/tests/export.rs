//! The static site's glTF export over the model browser's starting scenarios (relative
//! paths, as the page holds them): the sample's clips by name, and errors as sentences.
#![allow(clippy::disallowed_methods)]

use serde_json::{json, Value};
use std::path::Path;

fn start(name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../browser/scenarios")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn clips(glb: &[u8]) -> (Value, Vec<String>) {
    assert_eq!(&glb[0..4], b"glTF");
    let (json, _) = retroanim_gltf::chunks(glb).expect("a .glb");
    let doc: Value = serde_json::from_slice(json).unwrap();
    let names = doc["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect();
    (doc, names)
}

#[test]
fn the_ac_start_exports_the_humanoid_with_its_28_clips() {
    let (name, glb) = retroanim_gltf_wasm::export("ac", &start("ac.json")).unwrap();
    assert_eq!(name, "ac-0x02000001-0x09000001.glb");
    let (doc, names) = clips(&glb);
    assert_eq!(names.len(), 28);
    assert_eq!(names[1], "NonCombat.WalkForward");
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 9);
}

#[test]
fn the_herc_starts_export_the_biped_with_its_eight_sequences() {
    for start_file in ["herc.json", "herc_mech.json"] {
        let (name, glb) = retroanim_gltf_wasm::export("herc", &start(start_file)).unwrap();
        assert_eq!(name, "herc-biped.glb");
        let (doc, names) = clips(&glb);
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
        // biped.dts beside biped.json draws it.
        assert!(
            !doc["meshes"].as_array().unwrap().is_empty(),
            "{start_file}"
        );
    }
}

#[test]
fn the_actor_start_exports_the_flag_with_its_three_groups() {
    let (name, glb) = retroanim_gltf_wasm::export("actor", &start("actor.json")).unwrap();
    assert_eq!(name, "actor-flag2.glb");
    assert_eq!(clips(&glb).1, ["idle", "wave", "gust"]);
}

#[test]
fn paths_outside_the_built_in_assets_are_refused_with_a_sentence() {
    let e = retroanim_gltf_wasm::export("herc", &json!({"asset": "../../ac/x.json"})).unwrap_err();
    assert_eq!(
        e,
        "no file '../../ac/x.json' among the assets built into this page"
    );
    let e = retroanim_gltf_wasm::export("actor", &json!({"assets": "/etc/passwd"})).unwrap_err();
    assert!(e.starts_with("absolute asset paths are not allowed"), "{e}");
    let e = retroanim_gltf_wasm::export("bench", &json!({})).unwrap_err();
    assert_eq!(e, "engine 'bench' has no glTF export");
}
