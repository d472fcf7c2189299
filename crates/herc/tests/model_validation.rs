//! D1: asset JSON loading rejects bad input with the file and the JSON path of the first
//! fault, and never panics (D1).

use retroanim_core::Scenario;
use retroanim_herc::anim_list::AnimList;
use serde_json::{json, Value};
use std::path::PathBuf;

fn good() -> Value {
    json!({
        "nodes": [{"parent": -1, "rest": 0}, {"parent": -1, "rest": 1}, {"parent": 1, "rest": 0}],
        "keyframes": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 100], [0, 0, 100, 0, 5, 0]],
        "sequences": [
            {"class": "cyclic", "priority": 0, "ground": true, "columns": [0, 1, 2], "frames": [
                {"duration": 4, "first_transition": 0, "transition_count": 1, "keys": [2, 1, 0]},
                {"duration": 0, "keys": [0, 1, 0]}]},
            {"class": "one_shot", "priority": 3, "ground": false, "columns": [0, 2], "frames": [
                {"duration": 7, "keys": [0, 2]}]}
        ],
        "transitions": [{"duration": 3, "dest_seq": 1, "dest_frame": 0, "key": 2}]
    })
}

fn fault(doc: &Value) -> (String, String) {
    let e = AnimList::from_json_value(doc, "a.json", "").unwrap_err();
    assert_eq!(e.file, "a.json");
    (e.at, e.message)
}

fn with(edit: impl FnOnce(&mut Value)) -> (String, String) {
    let mut d = good();
    edit(&mut d);
    fault(&d)
}

#[test]
fn d1_a_good_asset_loads() {
    let list = AnimList::from_json_value(&good(), "a.json", "").unwrap();
    assert_eq!(list.nodes().len(), 3);
    assert_eq!(list.sequences()[0].keys, vec![2, 1, 0, 0, 1, 0]);
    assert_eq!(list.parent_first(), &[0, 1, 2]);
    assert_eq!(list.column_of(1, 2), Some(1));
    assert_eq!(list.column_of(1, 1), None);
}

#[test]
fn d1_missing_fields_and_bad_types_name_the_path() {
    let (at, msg) = with(|d| {
        d["sequences"][1].as_object_mut().unwrap().remove("ground");
    });
    assert_eq!(at, "sequences[1]");
    assert!(msg.contains("missing field `ground`"), "{msg}");
    let (at, _) = with(|d| d["keyframes"][2][4] = json!("x"));
    assert_eq!(at, "keyframes[2][4]");
    let (at, _) = with(|d| d["sequences"][0]["class"] = json!("looping"));
    assert_eq!(at, "sequences[0].class");
}

#[test]
fn d1_values_outside_i16_are_rejected() {
    let (at, msg) = with(|d| d["keyframes"][1][5] = json!(40000));
    assert_eq!(at, "keyframes[1][5]");
    assert!(msg.contains("40000"), "{msg}");
    let (at, _) = with(|d| d["sequences"][0]["frames"][0]["duration"] = json!(-32769));
    assert_eq!(at, "sequences[0].frames[0].duration");
}

#[test]
fn d1_indices_past_the_end_are_rejected() {
    assert_eq!(
        with(|d| d["nodes"][1]["rest"] = json!(3)).0,
        "nodes[1].rest"
    );
    assert_eq!(
        with(|d| d["sequences"][0]["frames"][1]["keys"][2] = json!(3)).0,
        "sequences[0].frames[1].keys[2]"
    );
    assert_eq!(
        with(|d| d["sequences"][0]["columns"][2] = json!(5)).0,
        "sequences[0].columns[2]"
    );
    assert_eq!(
        with(|d| d["transitions"][0]["dest_seq"] = json!(2)).0,
        "transitions[0].dest_seq"
    );
    let (at, msg) = with(|d| d["transitions"][0]["dest_frame"] = json!(1));
    assert_eq!(at, "transitions[0].dest_frame");
    assert!(msg.contains("does not exist"), "{msg}");
    assert_eq!(
        with(|d| d["transitions"][0]["key"] = json!(-1)).0,
        "transitions[0].key"
    );
    assert_eq!(
        with(|d| d["sequences"][0]["frames"][0]["transition_count"] = json!(2)).0,
        "sequences[0].frames[0].transition_count"
    );
}

#[test]
fn d1_hierarchy_faults_are_rejected() {
    let (at, msg) = with(|d| d["nodes"][1]["parent"] = json!(2));
    assert_eq!(at, "nodes[1].parent");
    assert!(msg.contains("cycle"), "{msg}");
    let (at, _) = with(|d| d["nodes"][2]["parent"] = json!(2));
    assert_eq!(at, "nodes[2].parent");
    let (at, msg) = with(|d| d["nodes"][0]["parent"] = json!(1));
    assert_eq!(at, "nodes[0].parent");
    assert!(msg.contains("node 0"), "{msg}");
    assert_eq!(
        with(|d| d["nodes"][2]["parent"] = json!(-2)).0,
        "nodes[2].parent"
    );
}

#[test]
fn d1_shape_faults_are_rejected() {
    assert_eq!(
        with(|d| d["sequences"][0]["frames"][1]["keys"] = json!([0, 1])).0,
        "sequences[0].frames[1].keys"
    );
    assert_eq!(
        with(|d| d["sequences"][0]["columns"] = json!([0, 1, 1])).0,
        "sequences[0].columns[2]"
    );
    assert_eq!(
        with(|d| d["sequences"][1]["columns"] = json!([])).0,
        "sequences[1].columns"
    );
    assert_eq!(
        with(|d| d["sequences"][1]["frames"] = json!([])).0,
        "sequences[1].frames"
    );
    assert_eq!(with(|d| d["nodes"] = json!([])).0, "nodes");
    assert_eq!(with(|d| d["sequences"] = json!([])).0, "sequences");
}

#[test]
fn d2_durations_negative_all_zero_or_too_long_are_rejected() {
    assert_eq!(
        with(|d| d["sequences"][0]["frames"][1]["duration"] = json!(-1)).0,
        "sequences[0].frames[1].duration"
    );
    assert_eq!(
        with(|d| d["transitions"][0]["duration"] = json!(-5)).0,
        "transitions[0].duration"
    );
    let (at, msg) = with(|d| d["sequences"][0]["frames"][0]["duration"] = json!(0));
    assert_eq!(at, "sequences[0].frames");
    assert!(msg.contains("duration 0"), "{msg}");
    let (at, msg) = with(|d| {
        d["sequences"][0]["frames"][0]["duration"] = json!(20000);
        d["sequences"][0]["frames"][1]["duration"] = json!(20000);
    });
    assert_eq!(at, "sequences[0].frames");
    assert!(msg.contains("40000"), "{msg}");
}

#[test]
fn d1_inline_and_file_assets_in_scenarios() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/conformance/assets"
    ));
    let mut bad = good();
    bad["nodes"][1]["rest"] = json!(9);
    let text =
        json!({"engine": "herc", "asset": bad, "setup": {"threads": [{"seq": 0}]}}).to_string();
    let s = Scenario::from_str(&text, "s.json", dir.clone()).unwrap();
    let e = retroanim_herc::run(&s).unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.at.as_str()),
        ("s.json", "asset.nodes[1].rest")
    );
    let s = Scenario::from_str(
        r#"{"engine":"herc","asset":"missing.json","setup":{"threads":[{"seq":0}]}}"#,
        "s.json",
        dir.clone(),
    )
    .unwrap();
    // A file the asset field names is refused at that field (issue 21), naming the file.
    let e = retroanim_herc::run(&s).unwrap_err();
    assert_eq!((e.file.as_str(), e.at.as_str()), ("s.json", "asset"));
    assert!(
        e.message
            .ends_with("missing.json: no such file or directory"),
        "{e}"
    );
    // Setup and step faults name their paths.
    let s = Scenario::from_str(
        r#"{"engine":"herc","asset":"example.json","setup":{"threads":[{"seq":2}]}}"#,
        "s.json",
        dir.clone(),
    )
    .unwrap();
    assert_eq!(
        retroanim_herc::run(&s).unwrap_err().at,
        "setup.threads[0].seq"
    );
    let s = Scenario::from_str(
        r#"{"engine":"herc","asset":"example.json","setup":{"threads":[{"seq":0}]},
            "steps":[{"op":"step_ms","ms":40},{"op":"set_sequence","thread":0,"seq":1,"frame":2}]}"#,
        "s.json",
        dir.clone(),
    )
    .unwrap();
    let e = retroanim_herc::run(&s).unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.at.as_str()),
        ("s.json", "steps[1].frame")
    );
    for (step, at) in [
        (
            r#"{"op":"advance","thread":1,"delta":3}"#,
            "steps[0].thread",
        ),
        (
            r#"{"op":"seek","thread":0,"seq":0,"pos":16385}"#,
            "steps[0].pos",
        ),
        (r#"{"op":"step_ms","ms":-1}"#, "steps[0].ms"),
        (r#"{"op":"add_thread","seq":7}"#, "steps[0].seq"),
        (
            r#"{"op":"set_rate","thread":0,"rate":40000}"#,
            "steps[0].rate",
        ),
        (r#"{"op":"warp","thread":0}"#, "steps[0].op"),
    ] {
        let text = format!(
            r#"{{"engine":"herc","asset":"example.json","setup":{{"threads":[{{"seq":0}}]}},"steps":[{step}]}}"#
        );
        let s = Scenario::from_str(&text, "s.json", dir.clone()).unwrap();
        assert_eq!(retroanim_herc::run(&s).unwrap_err().at, at, "{step}");
    }
}

#[test]
fn h17_an_eleventh_thread_is_an_error() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/conformance/assets"
    ));
    let steps: Vec<Value> = (0..10)
        .map(|_| json!({"op": "add_thread", "seq": 0}))
        .collect();
    let text = json!({"engine": "herc", "asset": "example.json",
        "setup": {"threads": [{"seq": 0}]}, "steps": steps})
    .to_string();
    let s = Scenario::from_str(&text, "s.json", dir).unwrap();
    let e = retroanim_herc::run(&s).unwrap_err();
    assert_eq!(e.at, "steps[9]");
    assert!(e.message.contains("at most 10"), "{}", e.message);
}
