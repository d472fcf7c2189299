//! Bad scenarios are clear errors naming the file and JSON path (or record), never panics.

use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use std::path::Path;

fn run(text: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios");
    let s = Scenario::from_str(text, "bad.json", dir).unwrap();
    run_scenario::<AcSim>(&s).unwrap_err().to_string()
}

#[test]
fn unknown_setup_field_names_its_path() {
    let e = run(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000e00","colour":1}}"#,
    );
    assert!(
        e.starts_with("bad.json: setup.colour: unknown field `colour`"),
        "{e}"
    );
}

#[test]
fn non_finite_numbers_and_bad_ids_are_refused_with_their_path() {
    let e = run(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000e00"},
            "steps":[{"op":"tick","dt":0.1},{"op":"do_motion","motion":"0x45000005","speed":1e39}]}"#,
    );
    assert_eq!(
        e,
        "bad.json: steps[1].speed: 1e39 is out of range: numbers in an ac scenario lie within \u{b1}1000000"
    );
    let e = run(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000e00"},
            "steps":[{"op":"do_motion","motion":"45000005"}]}"#,
    );
    assert!(e.contains("steps[0].motion"), "{e}");
}

#[test]
fn missing_table_and_missing_animation_name_the_record() {
    let e = run(r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000e77"}}"#);
    assert!(
        e.contains("09000e77.bin") && e.contains("record 0x09000e77"),
        "{e}"
    );
    let e =
        run(r#"{"engine":"ac","asset_dir":"../nowhere","setup":{"motion_table":"0x09000e00"}}"#);
    assert!(e.contains("record 0x09000e00"), "{e}");
}

#[test]
fn a_table_naming_a_missing_animation_is_refused_unless_empty_is_asked_for() {
    use retroanim_ac::records::{AnimRef, MotionData, MotionTable, RecordStore};
    use retroanim_ac::scenario::{load_table, MissingAnimations};
    let md = MotionData {
        anims: vec![AnimRef {
            anim_id: 0x0300_0777,
            low_frame: 0,
            high_frame: -1,
            framerate: 30.0,
        }],
        ..Default::default()
    };
    let t = MotionTable {
        id: 0x0900_0777,
        default_style: 0x8000_003D,
        style_defaults: vec![(0x8000_003D, 0x4100_0003)],
        cycles: vec![(0x003D_0003, md)],
        ..Default::default()
    };
    let mut store = RecordStore::from_records(vec![t.clone()], vec![]);
    let e = load_table(&mut store, 0x0900_0777, MissingAnimations::Error)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("record 0x03000777") && e.contains("named by motion table 0x09000777"),
        "{e}"
    );
    let mut store = RecordStore::from_records(vec![t], vec![]);
    let (_, anims) = load_table(&mut store, 0x0900_0777, MissingAnimations::Empty).unwrap();
    assert!(anims.contains(0x0300_0777));
}

#[test]
fn endless_re_modify_recursion_is_bounded_instead_of_overflowing_the_stack() {
    // ACE itself dies of a stack overflow on this scenario (GetObjectSequence and
    // re_modify re-enter each other); we must finish it and write every line.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/remodify_loop/scenario.json");
    let s = Scenario::from_file(&path).unwrap();
    let lines = run_scenario::<AcSim>(&s).unwrap();
    assert_eq!(lines.len(), s.steps().len() + 1);
    assert_eq!(lines.len(), 12);
}
