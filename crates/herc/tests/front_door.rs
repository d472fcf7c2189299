//! The front door (`Model`, `AnimatedShape`) and the `herc_threads` example.

#[path = "../examples/herc_threads.rs"]
mod herc_threads;

use retroanim_herc::formats::dts::{BasePart, DtsFile};
use retroanim_herc::formats::vol::{VolArchive, VolEntry};
use retroanim_herc::{AnimatedShape, ControlError, Model, ThreadId};

const BIPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/herc/biped.json");

#[test]
fn herc_threads_example_walks_the_machine_forward_along_y() {
    let out = herc_threads::run().unwrap();
    let ys: Vec<i64> = out
        .lines()
        .map(|l| {
            let pos = l.split("pos [").nth(1).unwrap().split(']').next().unwrap();
            let p: Vec<i64> = pos.split(", ").map(|v| v.parse().unwrap()).collect();
            assert_eq!((p[0], p[2]), (0, 0), "{out}");
            p[1]
        })
        .collect();
    assert_eq!(ys.len(), 5, "{out}");
    assert!(ys.windows(2).all(|w| w[1] > w[0]), "{out}");
}

#[test]
fn a_new_thread_plays_at_1x_and_40_ms_is_31_ticks() {
    let model = Model::from_json_file(BIPED).unwrap();
    let mut h = AnimatedShape::new(&model);
    let t = h.add_thread(model.sequence_named("walk").unwrap()).unwrap();
    assert_eq!(h.thread(t).unwrap().rate, 256);
    h.step_ms(40).unwrap();
    let c = h.last_clock().unwrap();
    assert_eq!((c.sim_tick_delta, c.anim_delta), (81, 31));
    assert_eq!(h.world().len(), 15);
}

#[test]
fn control_calls_on_missing_threads_and_sequences_are_refused() {
    let model = Model::from_json_file(BIPED).unwrap();
    let mut h = AnimatedShape::new(&model);
    assert_eq!(
        h.request(ThreadId(0), 1, None, false),
        Err(ControlError::NoSuchThread(0, 0))
    );
    assert_eq!(h.add_thread(8), Err(ControlError::NoSuchSequence(8, 8)));
    let t = h.add_thread(0).unwrap();
    assert_eq!(
        h.seek(t, 1, 16385),
        Err(ControlError::SeekOutOfRange(16385))
    );
    assert_eq!(h.step_ms(-1), Err(ControlError::StepOutOfRange(-1)));
    assert_eq!(
        h.set_sequence(t, 1, 6),
        Err(ControlError::NoSuchFrame {
            seq: 1,
            frame: 6,
            frames: 6
        })
    );
}

#[test]
fn a_dts_inside_a_vol_plays_exactly_as_its_asset_json() {
    let json = Model::from_json_file(BIPED).unwrap();
    let dts = DtsFile::from_anim_list(json.anim_list(), BasePart::default(), &[])
        .write()
        .unwrap();
    let vol = VolArchive {
        program_mask: 1,
        precedence: 0,
        directories: vec!["dts".into()],
        entries: vec![VolEntry::stored("BIPED.DTS", 0, dts).unwrap()],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap();
    let from_vol = Model::from_vol_bytes(&vol, "biped.vol", "dts/biped.dts").unwrap();
    let play = |m: &Model| {
        let mut h = AnimatedShape::new(m);
        let t = h.add_thread(1).unwrap();
        h.seek(t, 1, 8192).unwrap();
        (0..10).for_each(|_| h.step_ms(40).unwrap());
        (h.world().to_vec(), h.object())
    };
    assert_eq!(play(&from_vol), play(&json));
    let e = Model::from_vol_bytes(&vol, "biped.vol", "dts/MISSING.DTS").unwrap_err();
    assert_eq!(
        e.to_string(),
        "biped.vol: dts/MISSING.DTS: the archive has no entry \"dts/MISSING.DTS\""
    );
}

#[test]
fn the_front_door_poses_exactly_as_the_conformance_runner_traces() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/herc/scenarios/walk_25hz.json"
    );
    let scenario = retroanim_core::Scenario::from_file(std::path::Path::new(path)).unwrap();
    let trace = retroanim_herc::run(&scenario).unwrap();
    let model = Model::from_json_file(BIPED).unwrap();
    let mut h = AnimatedShape::new(&model);
    h.add_thread(1).unwrap();
    // Line 0 is the setup; every later line is one 40 ms step.
    assert!(trace.len() > 25);
    for line in &trace[1..] {
        h.step_ms(40).unwrap();
        assert_eq!(serde_json::to_value(h.world()).unwrap(), line["world"]);
        assert_eq!(serde_json::to_value(h.object()).unwrap(), line["object"]);
    }
}
