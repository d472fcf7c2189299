//! The per-tick work limits and the input bounds (docs/limits.md, ac section): every
//! refusal is a located error, the refused step leaves the object as it was, and no
//! accepted step can take unbounded time or print a trace line of unbounded size.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use common::*;
use retroanim_ac::math::Vec3;
use retroanim_ac::records::{
    read_motion_table, write_animation, write_motion_table, Animation, MotionTable,
};
use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario, ScenarioError, Simulation};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const HANG_GUARD: Duration = Duration::from_secs(10);

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios")
}

fn scenario(text: &str) -> Scenario {
    Scenario::from_str(text, "bad.json", conformance_dir()).unwrap()
}

fn run_err(text: &str) -> String {
    run_scenario::<AcSim>(&scenario(text))
        .unwrap_err()
        .to_string()
}

fn walk_then(steps: &str) -> String {
    format!(
        r#"{{"engine":"ac","asset_dir":"../assets","setup":{{"motion_table":"0x09000100"}},
            "steps":[{{"op":"do_motion","motion":"0x45000005"}},{steps}]}}"#
    )
}

/// A record directory removed when the test is done with it.
struct RecordDir(PathBuf);

impl std::ops::Deref for RecordDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for RecordDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A one-table record set in a fresh directory: READY cycles `anim` at `fps`.
fn record_dir(name: &str, anim: &Animation, fps: f32, velocity: Option<Vec3>) -> RecordDir {
    let table = MotionTable {
        id: 0x0900_0e50,
        default_style: NC,
        style_defaults: vec![(NC, READY)],
        cycles: vec![(
            key(NC, READY),
            md(&[anim_ref(anim.id, fps)], velocity, None, 0),
        )],
        ..Default::default()
    };
    let dir =
        std::env::temp_dir().join(format!("retroanim-ac-limits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("09000e50.bin"), write_motion_table(&table)).unwrap();
    std::fs::write(
        dir.join(format!("{:08x}.bin", anim.id)),
        write_animation(anim),
    )
    .unwrap();
    RecordDir(dir)
}

fn load_from(dir: &Path) -> Result<AcSim, ScenarioError> {
    let text = format!(
        r#"{{"engine":"ac","asset_dir":{:?},"setup":{{"motion_table":"0x09000e50"}}}}"#,
        dir.display().to_string()
    );
    AcSim::load(&Scenario::from_str(&text, "bad.json", dir.to_path_buf()).unwrap())
}

fn tick(sim: &mut AcSim, dt: f64) -> Result<String, ScenarioError> {
    let step = serde_json::from_value(serde_json::json!({"op":"tick","dt":dt})).unwrap();
    sim.apply(1, &step, "steps[0]")
        .map(|l| serde_json::to_string(&l).unwrap())
}

fn state(sim: &AcSim) -> String {
    serde_json::to_string(&sim.snapshot()).unwrap()
}

#[test]
fn l1_huge_dt_is_refused_with_its_path() {
    for (dt, shown) in [
        ("1e9", "1e9"),
        ("1e6", "1e6"),
        ("2.0000001", "2.0000001"),
        ("-3", "-3"),
        ("1e300", "1e300"),
        ("3.5e38", "3.5e38"),
        ("-1e300", "-1e300"),
    ] {
        let e = run_err(&walk_then(&format!(r#"{{"op":"tick","dt":{dt}}}"#)));
        assert_eq!(
            e,
            format!("bad.json: steps[1].dt: {shown} is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)")
        );
    }
}

#[test]
fn l1_the_largest_accepted_dt_still_runs() {
    let s = scenario(&walk_then(
        r#"{"op":"tick","dt":2.0},{"op":"tick","dt":-2.0}"#,
    ));
    assert_eq!(run_scenario::<AcSim>(&s).unwrap().len(), 4);
}

#[test]
fn l1_walk_then_thirty_maximal_ticks_is_fast_and_small() {
    let ticks = vec![r#"{"op":"tick","dt":2.0}"#; 30].join(",");
    let start = Instant::now();
    let lines = run_scenario::<AcSim>(&scenario(&walk_then(&ticks))).unwrap();
    assert!(start.elapsed() < HANG_GUARD);
    let total: usize = lines.iter().map(|l| l.to_string().len()).sum();
    assert_eq!(lines.len(), 32);
    assert!(total < 32 * 4096, "{total} bytes");
}

#[test]
fn l2_a_framerate_of_2_5e38_is_refused_in_bounded_time_and_changes_nothing() {
    let dir = record_dir("framerate", &anim(0x0300_0e51, 4, None, &[]), 2.5e38, None);
    let mut sim = load_from(&dir).unwrap();
    let before = state(&sim);
    let start = Instant::now();
    let e = tick(&mut sim, 0.1).unwrap_err().to_string();
    assert!(start.elapsed() < HANG_GUARD);
    assert_eq!(
        e,
        "bad.json: steps[0]: the tick would cross more than 4096 frame boundaries and animation \
         nodes; refused (use a smaller dt or a lower speed)"
    );
    assert_eq!(state(&sim), before);
    // A tick the limit allows still runs afterwards.
    assert!(tick(&mut sim, 0.0).is_ok());
}

#[test]
fn l2_a_huge_speed_is_refused_at_the_tick_that_would_do_too_much() {
    // Walk at 12 fps × 1e6 speed: a 0.1 s tick would cross 1.2 million frames. (Before
    // issue 21 raised L3 to 8192 the walk clip's hooks ran past 128 first.)
    let e = run_err(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000100"},
            "steps":[{"op":"do_motion","motion":"0x45000005","speed":1000000},{"op":"tick","dt":0.1}]}"#,
    );
    assert_eq!(
        e,
        "bad.json: steps[1]: the tick would cross more than 4096 frame boundaries and animation nodes; refused (use a smaller dt or a lower speed)"
    );
}

#[test]
fn l2_a_frame_range_from_i32_min_cannot_spin_one_node_for_ever() {
    // low_frame -2^31 and 2e9 fps: one 2 s tick jumps past high_frame, and ACE would
    // then loop once per integer frame from -2^31 up to it.
    let a = anim(0x0300_0e52, 4, None, &[]);
    let dir = record_dir("lowframe", &a, 2.0e9, None);
    let path = dir.join("09000e50.bin");
    let mut t = read_motion_table(&std::fs::read(&path).unwrap(), "t").unwrap();
    t.cycles[0].1.anims[0].low_frame = i32::MIN;
    std::fs::write(&path, write_motion_table(&t)).unwrap();
    let mut sim = load_from(&dir).unwrap();
    let start = Instant::now();
    let e = tick(&mut sim, 2.0).unwrap_err();
    assert!(start.elapsed() < HANG_GUARD);
    assert!(
        e.message.starts_with("the tick would cross more than 4096"),
        "{e}"
    );
}

#[test]
fn l3_more_than_8192_hooks_in_one_tick_are_refused() {
    // Issue 21 raised the limit from 128 (ACE fired up to 158 in legal 2 s ticks) to
    // a trace-size budget of 8192. Three frames at 10 fps, 4096 sound hooks on frame
    // 0 and 4097 on frame 1: 0.15 s crosses frame 0 = 4096 hooks (accepted), 0.25 s
    // crosses frames 0 and 1 = 8193 hooks (refused).
    let hooks: Vec<_> = (0..4096)
        .map(|_| (0, hook(1, 0)))
        .chain((0..4097).map(|_| (1, hook(1, 0))))
        .collect();
    let dir = record_dir("hooks", &anim(0x0300_0e53, 3, None, &hooks), 10.0, None);
    let line = tick(&mut load_from(&dir).unwrap(), 0.15).unwrap();
    assert_eq!(line.matches("\"sound\"").count(), 4096);
    let mut sim = load_from(&dir).unwrap();
    let before = state(&sim);
    let e = tick(&mut sim, 0.25).unwrap_err().to_string();
    assert_eq!(
        e,
        "bad.json: steps[0]: the tick would fire more than 8192 animation hooks; refused (use a smaller dt)"
    );
    assert_eq!(state(&sim), before);
}

#[test]
fn l3_a_thousand_hooks_in_one_two_second_tick_are_accepted() {
    // 200 frames with 10 sound hooks each at 50 fps: a 2 s tick from frame 0 ends at
    // frame 100 and crosses frames 0..=99, 100 frames × 10 = 1000 hooks, all listed.
    let hooks: Vec<_> = (0..200)
        .flat_map(|f| (0..10).map(move |_| (f, hook(1, 0))))
        .collect();
    let dir = record_dir(
        "hooks1000",
        &anim(0x0300_0e54, 200, None, &hooks),
        50.0,
        None,
    );
    let mut sim = load_from(&dir).unwrap();
    let line = tick(&mut sim, 2.0).unwrap();
    assert_eq!(line.matches("\"sound\"").count(), 1000);
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["hooks"].as_array().unwrap().len(), 1000);
    assert_eq!(v["seq"]["frame"], 100.0);
}

#[test]
fn l4_setup_orientation_that_overflows_the_norm_is_refused_with_its_path() {
    let e = run_err(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000100",
            "orientation":[1.8446744e19, 1.8446744e19, 0, -128]}}"#,
    );
    assert_eq!(
        e,
        "bad.json: setup.orientation[0]: 1.8446744e19 is out of range: numbers in an ac \
         scenario lie within \u{b1}1000000"
    );
    let e = run_err(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000100",
            "orientation":[0, 0, 0, 1e-7]}}"#,
    );
    assert_eq!(
        e,
        "bad.json: setup.orientation: [0, 0, 0, 0.0000001] is too close to zero length to be an \
         orientation (its squared length must be at least 1e-12)"
    );
}

#[test]
fn l4_origin_of_1_8e19_is_refused_with_its_path() {
    let e = run_err(
        r#"{"engine":"ac","asset_dir":"../assets","setup":{"motion_table":"0x09000100",
            "origin":[1, 1.8e19, 0]}}"#,
    );
    assert_eq!(
        e,
        "bad.json: setup.origin[1]: 1.8e19 is out of range: numbers in an ac \
         scenario lie within \u{b1}1000000"
    );
}

#[test]
fn l4_every_float_field_of_setup_and_steps_is_bounded() {
    let cases = [
        (r#""run_rate":2e6"#, "", "setup.run_rate"),
        ("", r#"{"op":"set_run_rate","rate":-1e7}"#, "steps[0].rate"),
        (
            "",
            r#"{"op":"interpolate_to","origin":[0,0,5e6]}"#,
            "steps[0].origin",
        ),
        (
            "",
            r#"{"op":"interpolate_to","origin":[0,0,0],"orientation":[0,0,0,0]}"#,
            "steps[0].orientation",
        ),
        (
            "",
            r#"{"op":"move_or_teleport","origin":[1e30,0,0]}"#,
            "steps[0].origin",
        ),
        (
            "",
            r#"{"op":"move_or_teleport","origin":[0,0,0],"player_distance":1e39}"#,
            "steps[0].player_distance",
        ),
        (
            "",
            r#"{"op":"move_to_state","raw":{"forward_speed":1e7}}"#,
            "steps[0].raw",
        ),
        (
            "",
            r#"{"op":"do_interpreted_motion","motion":"0x45000005","speed":-2e6}"#,
            "steps[0].speed",
        ),
    ];
    for (setup, step, path) in cases {
        let comma = if setup.is_empty() { "" } else { "," };
        let e = run_err(&format!(
            r#"{{"engine":"ac","asset_dir":"../assets","setup":{{"motion_table":"0x09000100"{comma}{setup}}},"steps":[{step}]}}"#
        ));
        assert!(e.starts_with(&format!("bad.json: {path}: ")), "{path}: {e}");
    }
}

#[test]
fn l5_a_record_velocity_that_overflows_f32_is_refused_at_the_step_that_shows_it() {
    // The READY cycle's velocity 3e38 is finite; a speed of 2 makes it Infinity.
    let dir = record_dir(
        "velocity",
        &anim(0x0300_0e54, 4, None, &[]),
        10.0,
        Some(Vec3::new(0.0, 3.0e38, 0.0)),
    );
    let mut sim = load_from(&dir).unwrap();
    let before = state(&sim);
    let step = serde_json::from_value(
        serde_json::json!({"op":"do_motion","motion":"0x41000003","speed":2.0}),
    )
    .unwrap();
    let e = sim.apply(1, &step, "steps[0]").unwrap_err().to_string();
    assert_eq!(
        e,
        "bad.json: steps[0]: the step would put Infinity at seq.velocity[1] in its trace line; refused"
    );
    assert_eq!(state(&sim), before);
}

#[test]
fn l5_a_record_framerate_that_is_nan_is_refused_at_load() {
    let dir = record_dir("nan", &anim(0x0300_0e55, 4, None, &[]), f32::NAN, None);
    let e = load_from(&dir).err().unwrap().to_string();
    assert_eq!(
        e,
        "bad.json: setup: the initial state would hold NaN at seq.anims[0].framerate (from the \
         records); refused"
    );
}

#[test]
fn l8_commands_without_ticks_cannot_grow_a_trace_line_for_ever() {
    // Each do_motion queues one pending entry in the table manager and one in the
    // interpreter, and nothing drains them without a tick: 1024 commands fit (issue
    // 21 raised the limit from 32), the 1025th (steps[1024]) would make the 1025th.
    let steps: Vec<String> = (0..1030)
        .map(|i| {
            let m = if i % 2 == 0 {
                "0x45000005"
            } else {
                "0x41000003"
            };
            format!(r#"{{"op":"do_motion","motion":"{m}"}}"#)
        })
        .collect();
    let text = format!(
        r#"{{"engine":"ac","asset_dir":"../assets","setup":{{"motion_table":"0x09000100"}},"steps":[{}]}}"#,
        steps.join(",")
    );
    let e = run_scenario::<AcSim>(&scenario(&text)).unwrap_err();
    assert!(
        e.message
            .starts_with("the step would grow table.pending past 1024 entries; refused"),
        "{e}"
    );
    assert_eq!(e.at, "steps[1024]");
    let at = 1024;
    // Every accepted line before the refusal stays small.
    let ok = format!(
        r#"{{"engine":"ac","asset_dir":"../assets","setup":{{"motion_table":"0x09000100"}},"steps":[{}]}}"#,
        steps[..at].join(",")
    );
    let lines = run_scenario::<AcSim>(&scenario(&ok)).unwrap();
    let longest = lines.iter().map(|l| l.to_string().len()).max().unwrap();
    assert!(longest < 512 * 1024, "{longest}");
}

#[test]
fn l8_a_pending_queue_of_200_entries_is_accepted() {
    // ACE's queue reached 93 in long random legal scripts and ACE went on: 200
    // commands without a tick leave 200 entries in table.pending, every step accepted.
    let steps: Vec<String> = (0..200)
        .map(|i| {
            let m = if i % 2 == 0 {
                "0x45000005"
            } else {
                "0x41000003"
            };
            format!(r#"{{"op":"do_motion","motion":"{m}"}}"#)
        })
        .collect();
    let text = format!(
        r#"{{"engine":"ac","asset_dir":"../assets","setup":{{"motion_table":"0x09000100"}},"steps":[{}]}}"#,
        steps.join(",")
    );
    let lines = run_scenario::<AcSim>(&scenario(&text)).unwrap();
    assert_eq!(lines.len(), 201);
    let last = &lines[200];
    assert_eq!(last["step"], 200);
    let pending = last["table"]["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 200);
    assert_eq!(pending[199][0], "0x41000003");
    // A tick then plays on with the whole queue.
    let ticked = format!(
        r#"{{"engine":"ac","asset_dir":"../assets","setup":{{"motion_table":"0x09000100"}},"steps":[{},{{"op":"tick","dt":2.0}}]}}"#,
        steps.join(",")
    );
    assert_eq!(
        run_scenario::<AcSim>(&scenario(&ticked)).unwrap().len(),
        202
    );
}
