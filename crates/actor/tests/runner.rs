//! The scenario runner's handling of bad input: located errors, never a panic.

use retroanim_core::Scenario;
use serde_json::json;
use std::path::PathBuf;

fn run(doc: serde_json::Value) -> Result<Vec<serde_json::Value>, retroanim_core::ScenarioError> {
    let s = Scenario::from_value(doc, "s.json", PathBuf::from(".")).unwrap();
    retroanim_actor::run_scenario(&s)
}

fn set() -> serde_json::Value {
    json!({"map": {"width": 18, "height": 18},
           "models": [{"name": "m", "raan": [{"model": 1, "frames": 1}],
                       "groups": [{"group": 0, "header": 1, "commands": [
                           {"op": "show_frame", "ref": 0}, {"op": "end_animation"}]}]}],
           "actors": [{"id": "a", "pos": [0, 0], "model": "m"}]})
}

#[test]
fn unknown_actor_in_a_step_names_the_step_path() {
    let e = run(json!({"engine": "actor", "assets": set(),
                       "steps": [{"op": "update"}, {"op": "request", "actor": "zz", "group": 1}]}))
    .unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.at.as_str()),
        ("s.json", "steps[1].actor")
    );
    assert_eq!(e.message, "no actor 'zz'");
}

#[test]
fn malformed_steps_are_located() {
    let e = run(json!({"engine": "actor", "assets": set(),
                       "steps": [{"op": "request", "actor": "a", "group": 300}]}))
    .unwrap_err();
    assert_eq!(e.at, "steps[0].group");
    let e =
        run(json!({"engine": "actor", "assets": set(), "steps": [{"op": "dance"}]})).unwrap_err();
    assert_eq!(e.at, "steps[0].op");
}

#[test]
fn missing_asset_file_and_bad_setup_are_located() {
    let e = run(json!({"engine": "actor", "assets": "nowhere/set.json"})).unwrap_err();
    assert_eq!(e.at, "assets");
    let e =
        run(json!({"engine": "actor", "assets": set(), "setup": {"view": [1, "x"]}})).unwrap_err();
    assert_eq!(e.at, "setup.view[1]");
}

#[test]
fn other_malformed_sets_give_an_extension_error_line_with_the_json_path() {
    let mut doc = set();
    doc["actors"][0]["pos"] = json!([0, 9216]);
    let lines = run(json!({"engine": "actor", "assets": doc})).unwrap();
    assert_eq!(
        lines[0],
        json!({"step": 0, "op": "setup", "error": {"kind": "position_off_map", "model": null,
               "group": null, "command": null, "at": "actors[0].pos[1]",
               "message": "9216 is outside the map (0 … 9215)"}})
    );
    let mut doc = set();
    doc["actors"][0]["model"] = json!("nope");
    let lines = run(json!({"engine": "actor", "assets": doc})).unwrap();
    assert_eq!(lines[0]["error"]["kind"], "unknown_model");
    let mut doc = set();
    doc["map"]["width"] = json!(17);
    let lines = run(json!({"engine": "actor", "assets": doc})).unwrap();
    assert_eq!(lines[0]["error"]["at"], "map.width");
}
