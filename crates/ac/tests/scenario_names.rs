//! Scenario files accept motion commands, styles and hold keys by name (any case) as
//! well as by hex id, and the trace is the same either way (it always prints ids).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::command_names::command_name;
use retroanim_ac::AcSim;
use retroanim_core::sim::run_scenario;
use retroanim_core::Scenario;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const COMMAND_FIELDS: &[&str] = &[
    "motion",
    "current_style",
    "forward_command",
    "sidestep_command",
    "turn_command",
];
const HOLD_FIELDS: &[&str] = &[
    "hold_key",
    "forward_hold_key",
    "sidestep_hold_key",
    "turn_hold_key",
    "current_hold_key",
];

/// Every command id spelled by its name (alternating case styles), every hold key in
/// upper case. Returns how many fields were renamed.
fn rename_ids(v: &mut Value) -> usize {
    let mut n = 0;
    match v {
        Value::Object(m) => {
            for (k, f) in m.iter_mut() {
                if let Value::String(s) = f {
                    if COMMAND_FIELDS.contains(&k.as_str()) {
                        let id = u32::from_str_radix(&s[2..], 16).unwrap();
                        if let Some(name) = command_name(id) {
                            *s = if n % 2 == 0 {
                                name.to_string()
                            } else {
                                name.to_lowercase()
                            };
                            n += 1;
                        }
                    } else if HOLD_FIELDS.contains(&k.as_str()) {
                        *s = s.to_uppercase();
                        n += 1;
                    }
                } else {
                    n += rename_ids(f);
                }
            }
        }
        Value::Array(a) => n += a.iter_mut().map(rename_ids).sum::<usize>(),
        _ => {}
    }
    n
}

fn trace(doc: Value, file: &Path) -> Vec<Value> {
    let s = Scenario::from_value(
        doc,
        &file.display().to_string(),
        file.parent().unwrap().into(),
    )
    .unwrap();
    run_scenario::<AcSim>(&s).unwrap()
}

#[test]
fn motion_names_give_the_same_trace_as_hex_ids_in_every_committed_scenario() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        root.join("tests/conformance/scenarios"),
        root.join("../../assets/ac/scenarios"),
    ];
    let mut renamed = 0;
    for dir in dirs {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let mut named = doc.clone();
            renamed += rename_ids(&mut named);
            assert_eq!(trace(named, &path), trace(doc, &path), "{}", path.display());
        }
    }
    // Sanity: the scenarios do exercise the names (dozens of commands and hold keys).
    assert!(renamed > 50, "only {renamed} fields renamed");
}

#[test]
fn walk_forward_by_name_is_traced_as_its_id() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/names.json");
    let doc = |motion: &str, key: &str, style: &str| {
        json!({
            "engine": "ac",
            "asset_dir": "../../../../assets/ac/records",
            "setup": {"motion_table": "0x09000001"},
            "steps": [
                {"op": "do_motion", "motion": motion, "hold_key": key},
                {"op": "tick", "dt": 0.1},
                {"op": "move_to_state", "raw": {"current_style": style, "forward_command": motion}},
            ]
        })
    };
    let hex = trace(doc("0x45000005", "run", "0x8000003d"), &file);
    let named = trace(doc("walkFORWARD", "Run", "NonCombat"), &file);
    assert_eq!(named, hex);
    // Held Run turns WalkForward into RunForward; the trace prints ids.
    assert_eq!(
        named[1]["interp"]["interpreted"]["forward_command"],
        "0x44000007"
    );
    assert_eq!(named[1]["interp"]["raw"]["forward_command"], "0x45000005");
    assert_eq!(named[3]["interp"]["raw"]["current_style"], "0x8000003d");
}

#[test]
fn an_unknown_motion_name_is_refused_with_its_json_path() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/names.json");
    let doc = json!({
        "engine": "ac",
        "asset_dir": "../../../../assets/ac/records",
        "setup": {"motion_table": "0x09000001"},
        "steps": [{"op": "do_motion", "motion": "Moonwalk"}]
    });
    let s = Scenario::from_value(doc, "names.json", file.parent().unwrap().into()).unwrap();
    let e = run_scenario::<AcSim>(&s).unwrap_err().to_string();
    assert!(e.contains("steps[0]"), "{e}");
    assert!(e.contains("unknown motion command \"Moonwalk\""), "{e}");
}
