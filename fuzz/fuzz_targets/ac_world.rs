#![no_main]
//! The several-object AC world (setup.objects): a fixed three-object setup on the
//! humanoid record set, with the input as its steps (a JSON array), or as an object
//! giving both `objects` and `steps`. Accepted traces obey the line rules.
use libfuzzer_sys::fuzz_target;
use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use retroanim_fuzz::{check_trace, repo_dir};
use serde_json::{json, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<Value>(data) else { return };
    let default_objects = json!([
        {"id": "0x00000002", "origin": [3.0, 0.0, 0.0], "radius": 0.5, "height": 1.0},
        {"id": "0x00000003", "origin": [-2.0, 4.0, 0.0], "radius": 0.4, "height": 1.8,
         "motion_table": "0x09000001"}
    ]);
    let (objects, steps) = match input {
        Value::Array(_) => (default_objects, input),
        Value::Object(mut o) => (
            o.remove("objects").unwrap_or(default_objects),
            o.remove("steps").unwrap_or(Value::Array(Vec::new())),
        ),
        _ => return,
    };
    let doc = json!({
        "engine": "ac",
        "asset_dir": "../humanoid",
        "setup": {
            "motion_table": "0x09000001",
            "id": "0x00000001",
            "radius": 0.5,
            "height": 1.8,
            "objects": objects
        },
        "steps": steps
    });
    let dir = repo_dir("crates/ac/tests/conformance/scenarios");
    if let Ok(s) = Scenario::from_str(&doc.to_string(), "fuzz.json", dir) {
        if let Ok(lines) = run_scenario::<AcSim>(&s) {
            check_trace(&lines);
        }
    }
});
