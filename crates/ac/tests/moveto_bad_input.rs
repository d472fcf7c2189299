//! Bad several-object scenarios are refused with an error naming the file and the JSON
//! path, never a panic.

use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use serde_json::{json, Value};
use std::path::Path;

fn run(setup: Value, steps: Value) -> String {
    let records = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/humanoid");
    let doc = json!({"engine": "ac", "asset_dir": records.display().to_string(), "setup": setup, "steps": steps});
    let s = Scenario::from_value(doc, "bad.json", ".".into()).unwrap();
    run_scenario::<AcSim>(&s)
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}

fn setup(id: &str, objects: Value) -> Value {
    json!({"motion_table": "0x09000001", "id": id, "objects": objects})
}

#[test]
fn several_objects_need_a_non_zero_main_id() {
    let e = run(setup("0x00000000", json!([])), json!([]));
    assert!(e.contains("bad.json") && e.contains("setup.id"), "{e}");
}

#[test]
fn object_ids_must_be_distinct_and_non_zero() {
    let e = run(
        setup("0x00000001", json!([{"id": "0x00000001"}])),
        json!([]),
    );
    assert!(
        e.contains("setup.objects[0].id") && e.contains("duplicate"),
        "{e}"
    );
    let e = run(
        setup("0x00000001", json!([{"id": "0x00000000"}])),
        json!([]),
    );
    assert!(e.contains("setup.objects[0].id"), "{e}");
}

#[test]
fn an_op_on_an_unknown_object_names_its_path() {
    let e = run(
        setup("0x00000001", json!([{"id": "0x00000002"}])),
        json!([{"op": "tick", "dt": 0.1}, {"op": "unstick", "object": "0x00000007"}]),
    );
    assert!(
        e.contains("bad.json") && e.contains("steps[1].object"),
        "{e}"
    );
}

#[test]
fn extension_ops_and_the_object_field_need_setup_objects() {
    let plain = json!({"motion_table": "0x09000001"});
    let e = run(plain.clone(), json!([{"op": "unstick"}]));
    assert!(e.contains("steps[0]") && e.contains("setup.objects"), "{e}");
    let e = run(
        plain,
        json!([{"op": "tick", "dt": 0.1, "object": "0x00000002"}]),
    );
    assert!(e.contains("steps[0].object"), "{e}");
}

#[test]
fn unknown_params_and_names_are_refused() {
    let s = setup("0x00000001", json!([{"id": "0x00000002"}]));
    let e = run(
        s.clone(),
        json!([{"op": "move_to_object", "target": "0x00000002", "params": {"stickyy": true}}]),
    );
    assert!(e.contains("steps[0]") && e.contains("stickyy"), "{e}");
    let e = run(s.clone(), json!([{"op": "cancel_moveto", "error": "Nope"}]));
    assert!(e.contains("steps[0]") && e.contains("Nope"), "{e}");
    let e = run(s, json!([{"op": "notify_voyeurs", "status": "Gone"}]));
    assert!(e.contains("steps[0]") && e.contains("Gone"), "{e}");
}
