//! The front door (`Loader`, `Creature`, `MotionError`) and the `walk_then_run` example.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

#[path = "../examples/walk_then_run.rs"]
mod walk_then_run;

use retroanim_ac::commands::{NON_COMBAT, READY, RUN_FORWARD, WALK_FORWARD};
use retroanim_ac::{Creature, LoadError, Loader, MotionError};

const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
const TABLE: u32 = 0x0900_0001;

fn y_of(line: &str) -> f32 {
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn walk_then_run_example_walks_one_second_then_runs_one_second() {
    let out = walk_then_run::run().unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("1 s: motion 0x45000005 at y = "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("2 s: motion 0x44000007 at y = "),
        "{out}"
    );
    // The sample walks at 3.12 units/s after a short link, and runs at 4.0 units/s.
    let (walked, ran) = (y_of(lines[0]), y_of(lines[1]) - y_of(lines[0]));
    assert!((2.7..3.2).contains(&walked), "{out}");
    assert!((3.5..4.1).contains(&ran), "{out}");
}

#[test]
fn a_built_creature_stands_in_its_cell_on_walkable_ground() {
    let motions = Loader::from_dir(RECORDS).load(TABLE).unwrap();
    assert_eq!(motions.table_id(), TABLE);
    let c = Creature::new(&motions);
    let p = c.physics();
    assert!(p.in_cell() && p.contact() && p.on_walkable() && c.is_active());
    assert_eq!((c.style(), c.motion()), (NON_COMBAT, READY));
    assert_eq!(c.position().cell, 0x7d64_0013);
    // The sample skeleton has 8 parts, and its Ready cycle plays from the start.
    assert_eq!(c.part_frames().len(), 8);
    assert_eq!(c.animation(), Some(0x0300_0101));
}

#[test]
fn a_creature_outside_its_cell_does_not_move() {
    let motions = Loader::from_dir(RECORDS).load(TABLE).unwrap();
    let mut c = Creature::builder(&motions).outside_cell().build();
    c.do_motion(WALK_FORWARD).unwrap();
    c.tick(0.1);
    assert_eq!(c.origin().y, 0.0);
}

#[test]
fn commands_the_table_lacks_are_no_mtable_data_errors() {
    let motions = Loader::from_dir(RECORDS).load(TABLE).unwrap();
    let mut c = Creature::new(&motions);
    // 0x41000013 Sitting has no cycle in the sample's NonCombat style.
    assert_eq!(c.do_motion(0x4100_0013), Err(MotionError::NoMtableData));
    assert_eq!(MotionError::NoMtableData.code(), 0x43);
    c.do_motion(WALK_FORWARD).unwrap();
    c.set_hold_run(true);
    assert_eq!(c.motion(), RUN_FORWARD);
}

#[test]
fn loading_from_bytes_matches_loading_from_the_folder() {
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(RECORDS)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    files.sort();
    let set = Loader::from_bytes("sample", files.iter().map(Vec::as_slice))
        .unwrap()
        .load(TABLE)
        .unwrap();
    assert_eq!(set.animation_count(), 19);
}

#[test]
fn a_missing_animation_names_the_table_that_wants_it() {
    let mut bytes = vec![std::fs::read(format!("{RECORDS}/09000001.bin")).unwrap()];
    bytes.push(std::fs::read(format!("{RECORDS}/03000101.bin")).unwrap());
    let mut l = Loader::from_bytes("mem", bytes.iter().map(Vec::as_slice)).unwrap();
    let e = l.load(TABLE).err().unwrap();
    assert!(matches!(e, LoadError::Animation { table: TABLE, .. }));
    assert_eq!(
        e.to_string(),
        "<memory>: record 0x03000102: not found (animation named by motion table 0x09000001)"
    );
}

#[test]
fn bytes_that_are_no_record_are_refused_with_their_index() {
    let junk: [&[u8]; 2] = [&[1, 0, 0, 0x07, 0], &[1]];
    let e = Loader::from_bytes("upload", junk[..1].iter().copied())
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "upload #0: record 0x07000001, byte 0: neither a MotionTable (0x09……) nor an Animation (0x03……)"
    );
    let e = Loader::from_bytes("upload", junk[1..].iter().copied())
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "upload #0: record (id unreadable), byte 0: 1 bytes cannot hold a record id"
    );
}

#[test]
fn a_non_finite_quantum_leaves_the_creature_where_it_is() {
    let motions = Loader::from_dir(RECORDS).load(TABLE).unwrap();
    let mut c = Creature::new(&motions);
    c.do_motion(WALK_FORWARD).unwrap();
    c.tick(0.1);
    let before = c.position();
    for q in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        c.tick(q);
    }
    assert_eq!(c.position(), before);
    assert!(c.origin().y > 0.0);
}

#[test]
fn a_default_creature_moves_exactly_as_the_default_scenario_setup() {
    let mut steps = vec![serde_json::json!({"op": "do_motion", "motion": "WalkForward"})];
    steps.extend((0..20).map(|_| serde_json::json!({"op": "tick", "dt": 1.0 / 30.0})));
    steps.push(serde_json::json!({"op": "stop_motion", "motion": "WalkForward"}));
    steps.extend((0..10).map(|_| serde_json::json!({"op": "tick", "dt": 0.1})));
    let doc = serde_json::json!({
        "engine": "ac",
        "asset_dir": RECORDS,
        "setup": {"motion_table": "0x09000001"},
        "steps": steps,
    });
    let s = retroanim_core::Scenario::from_value(doc, "inline.json", ".".into()).unwrap();
    let trace = retroanim_core::sim::run_scenario::<retroanim_ac::AcSim>(&s).unwrap();

    let motions = Loader::from_dir(RECORDS).load(TABLE).unwrap();
    let mut c = Creature::new(&motions);
    let f = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    for (i, line) in trace.iter().enumerate().skip(1) {
        match i {
            1 => c.do_motion(WALK_FORWARD).unwrap(),
            22 => c.stop_motion(WALK_FORWARD).unwrap(),
            2..=21 => c.tick(1.0 / 30.0),
            _ => c.tick(0.1),
        }
        let o = &line["frame"]["origin"];
        let (p, q) = (c.origin(), c.orientation());
        assert_eq!([p.x, p.y, p.z], [f(&o[0]), f(&o[1]), f(&o[2])], "step {i}");
        let r = &line["frame"]["orientation"];
        assert_eq!([q.w, q.z], [f(&r[0]), f(&r[3])], "step {i}");
        assert_eq!(
            format!("0x{:08x}", c.motion()),
            line["interp"]["interpreted"]["forward_command"],
            "step {i}"
        );
    }
    assert_eq!(c.motion(), READY);
}
