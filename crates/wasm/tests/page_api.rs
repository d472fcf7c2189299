//! The in-page API against `retroanim run`: every bundled sample scenario, played
//! through a session of the wasm dispatcher (natively here), exports the trace the
//! engine's own runner writes for the same file.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_core::Scenario;
use retroanim_wasm::{Answer, Api};
use serde_json::{json, Value};
use std::path::Path;

fn assets() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// What `retroanim run FILE` writes, from the engines' own whole-trace runners (the
/// CLI tests hold `retroanim run` to the same bytes on every committed scenario).
fn native_trace(file: &Path) -> String {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let s = Scenario::from_value(
        doc,
        &file.display().to_string(),
        file.parent().unwrap().to_path_buf(),
    )
    .unwrap();
    let lines = match s.engine.as_str() {
        "ac" => retroanim_core::sim::run_scenario::<retroanim_ac::AcSim>(&s),
        "actor" => retroanim_actor::scenario::run_scenario(&s),
        _ if retroanim_herc::mech_scenario::is_mech_scenario(&s) => {
            retroanim_herc::mech_scenario::run(&s)
        }
        _ => retroanim_herc::scenario::run(&s),
    };
    retroanim_core::trace::to_jsonl(&lines.unwrap())
}

fn json_of(a: Answer) -> Value {
    match a {
        Answer::Json(200, v) => v,
        other => panic!("unexpected answer {other:?}"),
    }
}

#[test]
fn every_bundled_sample_replays_to_the_trace_of_retroanim_run() {
    let mut api = Api::default();
    let mut checked = 0;
    for engine in ["herc", "ac", "actor"] {
        let list = json_of(api.handle("GET", &format!("/engines/{engine}/samples"), None));
        let names: Vec<String> = serde_json::from_value(list["samples"].clone()).unwrap();
        assert!(!names.is_empty(), "{engine} has built-in samples");
        for name in names {
            let doc =
                json_of(api.handle("GET", &format!("/engines/{engine}/samples/{name}"), None));
            let created = api.handle(
                "POST",
                "/sessions",
                Some(json!({ "engine": engine, "scenario": doc, "replay": true })),
            );
            let created = json_of(created);
            let id = created["id"].as_str().unwrap().to_string();
            let Answer::Download { text, .. } =
                api.handle("GET", &format!("/sessions/{id}/trace"), None)
            else {
                panic!("no trace download");
            };
            let file = assets().join(engine).join("scenarios").join(&name);
            assert_eq!(text, native_trace(&file), "{engine}/{name}");
            checked += 1;
        }
    }
    let on_disk: usize = ["herc", "ac", "actor"]
        .iter()
        .map(|e| {
            std::fs::read_dir(assets().join(e).join("scenarios"))
                .unwrap()
                .count()
        })
        .sum();
    assert_eq!(
        checked, on_disk,
        "every sample scenario on disk is built in"
    );
}

#[test]
fn a_failing_step_names_its_path_and_keeps_nothing() {
    let mut api = Api::default();
    let s = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "ac" }))));
    let id = s["id"].as_str().unwrap();
    let bad = api.handle(
        "POST",
        &format!("/sessions/{id}/steps"),
        Some(json!({ "steps": [{ "op": "tick", "dt": 0.1 }, { "op": "no_such_op" }] })),
    );
    let Answer::Json(422, body) = bad else {
        panic!("{bad:?}")
    };
    assert!(
        body["at"].as_str().unwrap().starts_with("steps[1]"),
        "{body}"
    );
    let now = json_of(api.handle("GET", &format!("/sessions/{id}"), None));
    assert_eq!(now["step_count"], 1);
}

#[test]
fn asset_paths_outside_the_engine_folder_are_refused() {
    let mut api = Api::default();
    let a = api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "actor", "scenario": { "assets": "../../herc/biped.json", "setup": {} } })),
    );
    let Answer::Json(422, body) = a else {
        panic!("{a:?}")
    };
    assert_eq!(body["at"], "scenario.assets");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("leads outside the asset folder"),
        "{body}"
    );
}

#[test]
fn the_embedding_quick_start_walks_the_default_ac_creature() {
    let mut api = Api::default();
    let s = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "ac" }))));
    let id = s["id"].as_str().unwrap();
    let r = json_of(api.handle(
        "POST",
        &format!("/sessions/{id}/steps"),
        Some(json!({ "steps": [{ "op": "do_motion", "motion": "0x45000005" }, { "op": "tick", "dt": 0.04 }] })),
    ));
    assert_eq!(r["step_count"], 2);
    assert_eq!(r["lines"][0]["table"]["substate"], "0x45000005");
    assert_eq!(r["lines"][1]["op"], "tick");
    let gone = api.handle("DELETE", &format!("/sessions/{id}"), None);
    assert_eq!(gone, Answer::Empty);
    let Answer::Json(404, _) = api.handle("GET", &format!("/sessions/{id}"), None) else {
        panic!("a deleted session is gone");
    };
}

#[test]
fn the_ac_figure_is_the_sample_humanoid_as_the_server_describes_it() {
    let mut api = Api::default();
    let s = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "ac" }))));
    let id = s["id"].as_str().unwrap();
    let r = json_of(api.handle("GET", &format!("/sessions/{id}/figure"), None));
    assert_eq!(r["engine"], "ac");
    let f = &r["figure"];
    assert_eq!(f["motion_table"], "0x09000001");
    assert_eq!(f["setup"]["id"], "0x02000001");
    assert_eq!(f["setup"]["parts"].as_array().unwrap().len(), 8);
    // Each part a box: 24 vertices (4 per face), 6 quads.
    assert_eq!(
        f["meshes"]["0x01000108"]["vertices"]
            .as_array()
            .unwrap()
            .len(),
        24
    );
    assert_eq!(
        f["meshes"]["0x01000108"]["polygons"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    // The page sends the same decoded textures as the server: the torso's DXT1 32×32
    // image as base64 RGBA (4096 bytes: 1366 quads).
    let torso = &f["surfaces"]["0x08000101"];
    assert_eq!(torso["format"], "DXT1");
    assert_eq!(torso["rgba"].as_str().map(str::len), Some(1366 * 4));
    assert_eq!(
        f["meshes"]["0x01000102"]["polygons"][0]["surface"],
        "0x08000101"
    );
    // Clip 0x03000101's frames each pose all eight parts.
    let walk = f["anims"]["0x03000101"].as_array().unwrap();
    assert!(!walk.is_empty());
    assert!(walk.iter().all(|fr| fr.as_array().unwrap().len() == 8));

    let h = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "actor" }))));
    let hid = h["id"].as_str().unwrap();
    let Answer::Json(404, body) = api.handle("GET", &format!("/sessions/{hid}/figure"), None)
    else {
        panic!("only ac sessions have a figure");
    };
    assert_eq!(
        body["error"],
        "engine 'actor' has no figure (only ac sessions do)"
    );
}

#[test]
fn the_move_to_world_runs_in_the_page_as_retroanim_run_runs_it() {
    let mut api = Api::default();
    let engines = json_of(api.handle("GET", "/engines", None));
    let ac = engines["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "ac")
        .unwrap();
    let mut doc = ac["more_scenarios"]["world"].clone();
    assert_eq!(doc["setup"]["objects"].as_array().unwrap().len(), 2);
    let mut steps = vec![
        json!({"op": "move_object", "object": "0x00000002", "origin": [5.0, 5.0, 0.0]}),
        json!({"op": "move_to_object", "target": "0x00000002", "params": {"distance_to_object": 0.6}}),
    ];
    steps.extend(std::iter::repeat_n(json!({"op": "tick", "dt": 0.04}), 30));
    doc["steps"] = json!(steps);
    let created = json_of(api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "ac", "scenario": doc.clone(), "replay": true })),
    ));
    let id = created["id"].as_str().unwrap();
    let lines = created["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 33);
    // The several-object key is there, and object 2 stands where the step put it.
    assert_eq!(
        lines[1]["moveto"]["objects"][0]["frame"]["origin"],
        json!([5.0, 5.0, 0.0])
    );
    assert_eq!(lines[2]["moveto"]["mgr"]["movement_type"], "MoveToObject");
    let Answer::Download { text, .. } = api.handle("GET", &format!("/sessions/{id}/trace"), None)
    else {
        panic!("the trace is a download");
    };
    let dir = assets().join("ac/scenarios");
    let s = Scenario::from_value(doc, "world", dir).unwrap();
    let native = retroanim_core::sim::run_scenario::<retroanim_ac::AcSim>(&s).unwrap();
    assert_eq!(text, retroanim_core::trace::to_jsonl(&native));
}

#[test]
fn the_ac_motion_table_is_listed_as_the_server_lists_it() {
    let mut api = Api::default();
    let s = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "ac" }))));
    let id = s["id"].as_str().unwrap();
    let r = json_of(api.handle("GET", &format!("/sessions/{id}/assets"), None));
    assert_eq!(r["engine"], "ac");
    let t = &r["assets"]["table"];
    assert_eq!(t["id"], "0x09000001");
    assert_eq!(t["default_style"], "0x8000003d");
    assert_eq!(t["names"]["0x8000003d"], "NonCombat");
    // NonCombat WalkForward plays clip 0x03000102, 30 frames.
    let walk = t["cycles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["motion"] == "0x45000005" && c["style"] == "0x8000003d")
        .unwrap();
    assert_eq!(walk["data"]["anims"][0]["anim_id"], "0x03000102");
    assert_eq!(t["anim_frames"]["0x03000102"], 30);
}

#[test]
fn the_herc_meshes_are_the_sample_biped_dts_as_the_server_sends_them() {
    let mut api = Api::default();
    let s = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "herc" }))));
    let id = s["id"].as_str().unwrap();
    let r = json_of(api.handle("GET", &format!("/sessions/{id}/meshes"), None));
    assert_eq!(r["engine"], "herc");
    // The starting scenario's asset is biped.json: the DTS beside it is drawn.
    assert_eq!(r["source"], "biped.dts");
    let meshes = r["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 14);
    // The pelvis box (node 1): corner 0 is (−80, −45, −30); face −x is corners 0, 4, 6, 2,
    // textured with frame 0 of the built-in biped.dba (H82, H84); its top is palette index
    // 1 of biped.dpl: 6-bit (22, 26, 32) → (88, 104, 128).
    assert_eq!(meshes[0]["node"], 1);
    assert_eq!(meshes[0]["points"][0], json!([-80, -45, -30]));
    assert_eq!(meshes[0]["polys"][0]["points"], json!([0, 4, 6, 2]));
    assert_eq!(meshes[0]["polys"][0]["frame"], 0);
    assert_eq!(meshes[0]["polys"][5]["rgb"], json!([88, 104, 128]));
    assert_eq!(r["materials"]["palette"], "biped.dpl");
    assert_eq!(r["materials"]["bitmaps"], "biped.dba");
    assert_eq!(r["materials"]["textures"].as_object().unwrap().len(), 4);
    // The gun mount (node 14): corner 7 is (15, 140, 15).
    assert_eq!(meshes[13]["node"], 14);
    assert_eq!(meshes[13]["points"][7], json!([15, 140, 15]));

    // An inline asset has no DTS beside it: no meshes, not an error.
    let asset: Value =
        serde_json::from_str(&std::fs::read_to_string(assets().join("herc/biped.json")).unwrap())
            .unwrap();
    let s = json_of(api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": {
            "asset": asset, "setup": {"threads": [{"seq": 0, "rate": 256}]} } })),
    ));
    let id = s["id"].as_str().unwrap();
    let r = json_of(api.handle("GET", &format!("/sessions/{id}/meshes"), None));
    assert_eq!(r, json!({"engine": "herc", "source": null, "meshes": []}));

    let a = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "actor" }))));
    let aid = a["id"].as_str().unwrap();
    let Answer::Json(404, body) = api.handle("GET", &format!("/sessions/{aid}/meshes"), None)
    else {
        panic!("only herc sessions have meshes");
    };
    assert_eq!(
        body["error"],
        "engine 'actor' has no DTS meshes (only herc sessions do)"
    );
}

/// The sample mech scenario with its chassis given as the binary record
/// (`biped.chassis.bin`) and its model as the DTS (`biped.dts`), both built in.
fn binary_mech_scenario() -> Value {
    let file = assets().join("herc/scenarios/mech_walk_and_steer.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    doc["setup"]["mech"]["chassis"] = json!("../biped.chassis.bin");
    doc["setup"]["mech"]["shape"] = json!("../biped.dts");
    doc
}

#[test]
fn a_mech_scenario_on_the_binary_chassis_and_dts_runs_as_retroanim_run() {
    let mut api = Api::default();
    let doc = binary_mech_scenario();
    let steps = doc["steps"].as_array().unwrap().len();
    let created = json_of(api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": doc.clone(), "replay": true })),
    ));
    let id = created["id"].as_str().unwrap();
    let lines = created["lines"].as_array().unwrap();
    assert_eq!(lines.len(), steps + 1);
    assert_eq!(lines[0]["op"], "setup");
    let Answer::Download { text, .. } = api.handle("GET", &format!("/sessions/{id}/trace"), None)
    else {
        panic!("the trace is a download");
    };
    let s = Scenario::from_value(doc, "binary mech", assets().join("herc/scenarios")).unwrap();
    let native = retroanim_herc::mech_scenario::run(&s).unwrap();
    assert_eq!(text, retroanim_core::trace::to_jsonl(&native));
    // The session draws the DTS it animates.
    let r = json_of(api.handle("GET", &format!("/sessions/{id}/meshes"), None));
    assert_eq!(r["source"], "biped.dts");
    assert_eq!(r["meshes"].as_array().unwrap().len(), 14);
}

#[test]
fn herc_files_not_built_in_are_refused_with_their_field() {
    let mut api = Api::default();
    let mut doc = binary_mech_scenario();
    doc["setup"]["mech"]["shape"] = json!("nothing.dts");
    let a = api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": doc })),
    );
    let Answer::Json(422, body) = a else {
        panic!("{a:?}")
    };
    assert_eq!(body["at"], "scenario.setup.mech.shape");
    assert_eq!(
        body["error"],
        "no file 'nothing.dts' among the assets built into this page (only the bundled samples are)"
    );
    // A DTS is not a model asset: the model field takes JSON (the mech `shape` takes DTS).
    let a = api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": {
            "asset": "biped.dts", "setup": {"threads": [{"seq": 0, "rate": 256}]} } })),
    );
    let Answer::Json(422, body) = a else {
        panic!("{a:?}")
    };
    assert_eq!(body["at"], "scenario.asset");
    assert_eq!(
        body["error"],
        "'biped.dts' is not a JSON file; this field takes a JSON asset (or the asset inline)"
    );
}

#[test]
fn the_page_applies_the_servers_trace_budget_and_body_limit_words() {
    // The same 29,000-step upload the server takes: accepted here too, under the same
    // 64 MiB session budget (retroanim_session::MAX_TRACE_BYTES).
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(assets().join("herc/scenarios/walk_25hz.json")).unwrap(),
    )
    .unwrap();
    doc["steps"] = Value::Array(vec![json!({"op": "step_ms", "ms": 40}); 29_000]);
    let mut api = Api::default();
    let created = json_of(api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": doc, "replay": true })),
    ));
    assert_eq!(created["step_count"], 29_000);
    // A request over the 1 MiB body limit gets the server's words, limit included.
    assert!(retroanim_wasm::GLUE_JS
        .contains("'request body too large: the limit is 1 MiB (1048576 bytes)'"));
    assert_eq!(
        retroanim_session::body_too_large(retroanim_wasm::exports::MAX_REQUEST),
        "request body too large: the limit is 1 MiB (1048576 bytes)"
    );
}

/// The AC server loop in the page: the first jump after plain ticks replays the lines
/// with the `server` and `wire` keys (`"rebuilt": true`), the trace stays what `retroanim
/// run` writes for the exported scenario, and `update_motion` offers the last message.
#[test]
fn a_jump_in_the_page_replays_the_lines_and_offers_the_update_motion() {
    let mut api = Api::default();
    let s = json_of(api.handle("POST", "/sessions", Some(json!({ "engine": "ac" }))));
    let id = s["id"].as_str().unwrap().to_string();
    let steps = format!("/sessions/{id}/steps");
    let first = json_of(api.handle(
        "POST",
        &steps,
        Some(json!({ "steps": [{ "op": "tick", "dt": 0.04 }] })),
    ));
    assert_eq!(first.get("rebuilt"), None);
    let none = json_of(api.handle("GET", &format!("/sessions/{id}/update_motion"), None));
    assert_eq!(none["hex"], Value::Null);
    let jumped = json_of(api.handle(
        "POST",
        &steps,
        Some(json!({ "steps": [{ "op": "charge_jump" }, { "op": "jump", "extent": 0.5 }, { "op": "movement_data" }] })),
    ));
    assert_eq!(jumped["rebuilt"], true);
    let wire = jumped["lines"][2]["wire"][0].as_str().unwrap().to_string();
    assert!(wire.starts_with("4cf70000"), "{wire}");
    let um = json_of(api.handle("GET", &format!("/sessions/{id}/update_motion"), None));
    assert_eq!(um["hex"], wire);
    assert_eq!(um["step"], 4);
    let Answer::Download { text, .. } = api.handle("GET", &format!("/sessions/{id}/trace"), None)
    else {
        panic!("no trace download");
    };
    let Answer::Download { text: doc, .. } =
        api.handle("GET", &format!("/sessions/{id}/scenario"), None)
    else {
        panic!("no scenario download");
    };
    let dir = assets().join("ac").join("scenarios");
    let s =
        Scenario::from_value(serde_json::from_str(&doc).unwrap(), "exported.json", dir).unwrap();
    let lines = retroanim_core::sim::run_scenario::<retroanim_ac::AcSim>(&s).unwrap();
    assert!(lines[1]["server"].is_object());
    assert_eq!(text, retroanim_core::trace::to_jsonl(&lines));
}
