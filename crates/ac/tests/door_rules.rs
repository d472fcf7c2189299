//! The rules the scenario runner shares with the C ABI and .NET doors (docs/limits.md,
//! "One set of rules at every door"): a tick's dt within ±2 s, refused by the runner with
//! the doors' text after the JSON path; and the text of the doors' target rule.

use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use std::path::Path;

fn run_err(steps: &str) -> String {
    let text = format!(
        r#"{{"engine":"ac","asset_dir":"../humanoid","setup":{{"motion_table":"0x09000001",
            "id":"0x00000001","objects":[{{"id":"0x00000002","origin":[0.0,5.0,0.0]}}]}},
            "steps":[{steps}]}}"#
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    let s = Scenario::from_str(&text, "door.json", dir).unwrap();
    run_scenario::<AcSim>(&s).unwrap_err().to_string()
}

#[test]
fn a_dt_past_2_s_either_way_is_refused_with_the_doors_text() {
    assert_eq!(
        run_err(r#"{"op":"tick","dt":-2.5}"#),
        "door.json: steps[0].dt: -2.5 is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)"
    );
    assert_eq!(
        run_err(r#"{"op":"tick","dt":1e30}"#),
        "door.json: steps[0].dt: 1e30 is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)"
    );
}

/// The embedding doors' target rule, as text: the runner does not apply it (moving to
/// oneself is ACE's rule Q86, which the runner reproduces), but the doors take their
/// text from here.
#[test]
fn the_doors_target_rule_names_id_0_and_the_mover() {
    use retroanim_ac::scenario::check_target;
    assert_eq!(check_target(1, 0), Err("id 0 names no object".to_string()));
    assert_eq!(
        check_target(1, 1),
        Err("0x1 is the creature itself".to_string())
    );
    assert_eq!(check_target(1, 2), Ok(2));
}
