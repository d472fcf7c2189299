//! The in-page API against `retroanim run`: every bundled sample scenario, played
//! through a session of the wasm dispatcher (natively here), exports the trace the
//! engine's own runner writes for the same file.

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
        _ if retroanim_herc::mech_sim::is_mech_scenario(&s) => retroanim_herc::mech_sim::run(&s),
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
