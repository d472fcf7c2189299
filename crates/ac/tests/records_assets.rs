//! The committed sample records (assets/ac/records) are exactly what the writer makes
//! from the readable source (assets/ac/humanoid.json), and the table is complete.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::authoring::{compile_str, key};
use retroanim_ac::records::store::record_file_name;
use retroanim_ac::records::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn asset_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac")
}

fn compiled() -> authoring::Compiled {
    let text = std::fs::read_to_string(asset_dir().join("humanoid.json")).unwrap();
    compile_str(&text).unwrap()
}

#[test]
fn committed_records_equal_the_writer_output_from_the_source() {
    let c = compiled();
    let dir = asset_dir().join("records");
    let mut expected = vec![(c.motion_table.id, write_motion_table(&c.motion_table))];
    for a in &c.animations {
        assert_eq!(a.check(), Ok(()), "animation 0x{:08x}", a.id);
        expected.push((a.id, write_animation(a)));
    }
    let f = c.figure.as_ref().expect("the humanoid has a figure");
    expected.push((f.setup.id, write_setup(&f.setup)));
    for g in &f.gfxobjs {
        expected.push((g.id, write_gfxobj(g)));
    }
    expected.extend(f.texture_records());
    for (id, bytes) in &expected {
        let path = dir.join(record_file_name(*id));
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (run the build_ac_assets example)", path.display())
        });
        assert!(
            on_disk == *bytes,
            "{} differs from the source; run `cargo run -p retroanim-ac --example build_ac_assets`",
            path.display()
        );
    }
    let names: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let wanted: BTreeSet<String> = expected
        .iter()
        .map(|(id, _)| record_file_name(*id))
        .collect();
    assert_eq!(names, wanted, "stray or missing files in assets/ac/records");
}

#[test]
fn sample_table_loads_and_every_clip_exists() {
    let mut store = RecordStore::from_dir(asset_dir().join("records"));
    let t = store.motion_table(0x0900_0001).unwrap();
    assert_eq!(t.default_style, 0x8000_003D);
    assert_eq!(
        t.style_defaults,
        vec![(0x8000_003D, 0x4100_0003), (0x8000_003E, 0x4100_0003)]
    );
    let all = t
        .cycles
        .iter()
        .chain(t.modifiers.iter())
        .chain(t.links.iter().flat_map(|(_, inner)| inner.iter()));
    for (_, md) in all {
        for clip in &md.anims {
            let a = store.animation(clip.anim_id).unwrap();
            assert_eq!(a.num_parts, 8);
            assert!(a.num_frames >= 4);
        }
    }
}

#[test]
fn sample_table_has_the_documented_motions() {
    let t = compiled().motion_table;
    let nc = 0x8000_003D;
    let sc = 0x8000_003E;
    let cycle_keys: Vec<u32> = t.cycles.iter().map(|(k, _)| *k).collect();
    for m in [
        0x4100_0003,
        0x4500_0005,
        0x4400_0007,
        0x6500_000D,
        0x6500_000F,
    ] {
        assert!(
            cycle_keys.contains(&key(nc, m)),
            "NonCombat cycle 0x{m:08x}"
        );
    }
    for m in [0x4100_0003, 0x4500_0005, 0x4400_0007] {
        assert!(
            cycle_keys.contains(&key(sc, m)),
            "SwordCombat cycle 0x{m:08x}"
        );
    }
    let ready_links = &t.links.iter().find(|(k, _)| *k == 0x003D_0003).unwrap().1;
    let to: Vec<u32> = ready_links.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        to,
        vec![
            0x4500_0005,
            0x4400_0007,
            0x6500_000D,
            0x6500_000F,
            0x1300_0087,
            0x8000_003E
        ]
    );
    // Walk: 30 frames at 30 fps, 0.104 forward per pos frame = 3.12 units/s.
    let walk = compiled()
        .animations
        .into_iter()
        .find(|a| a.id == 0x0300_0102)
        .unwrap();
    assert_eq!(walk.flags, 1);
    assert_eq!(walk.pos_frames[0].origin.y, 0.104);
    assert_eq!(walk.part_frames[7].hooks[0].hook_type, hooks::SOUND);
    // The turn cycle is restricted (bitfield 2) and turns clockwise (negative omega z).
    let turn = &t.cycles.iter().find(|(k, _)| *k == 0x003D_000D).unwrap().1;
    assert_eq!((turn.bitfield, turn.flags, turn.omega.z), (2, 2, -1.5));
}

#[test]
fn source_errors_name_the_json_path() {
    let e = compile_str(r#"{"skeleton": [], "animations": [{"id": 5}], "motion_table": {}}"#)
        .unwrap_err();
    assert!(e.starts_with("animations[0].id: invalid type"), "{e}");
    let text = std::fs::read_to_string(asset_dir().join("humanoid.json"))
        .unwrap()
        .replace("\"to\": \"Wave\"", "\"to\": \"Wavy\"");
    let e = compile_str(&text).unwrap_err();
    assert_eq!(
        e,
        "motion_table.links[4]: unknown command 'Wavy' (an ACE motion command name or a hex id)"
    );
}

#[test]
fn absurd_source_sizes_are_refused() {
    let text = r#"{"skeleton": [{"name": "p", "origin": [0, 0, 0]}],
        "animations": [{"id": "0x03000001", "name": "a", "frames": 4000000000}],
        "motion_table": {"id": "0x09000001", "default_style": "NonCombat",
                         "style_defaults": [], "cycles": []}}"#;
    assert_eq!(
        compile_str(text).unwrap_err(),
        "animations[0].frames: 4000000000 is more than 10000"
    );
}

fn with_angles(swing: &str, root_turn: &str) -> String {
    format!(
        r#"{{"skeleton": [{{"name": "arm", "origin": [0, 0, 0]}}],
        "animations": [{{"id": "0x03000001", "name": "a", "frames": 4,
                        "swing": {{"arm": [{swing}]}}, "root_turn": {root_turn}}}],
        "motion_table": {{"id": "0x09000001", "default_style": "NonCombat",
                         "style_defaults": [], "cycles": []}}}}"#
    )
}

#[test]
fn huge_swing_and_turn_angles_return_at_once_with_a_located_refusal() {
    let start = std::time::Instant::now();
    assert_eq!(
        compile_str(&with_angles("0, 1e300", "0")).unwrap_err(),
        "animations[0].swing.arm[1]: 1e300 degrees is out of range: angles lie within \u{b1}3600 (ten turns)"
    );
    assert_eq!(
        compile_str(&with_angles("1e15", "0")).unwrap_err(),
        "animations[0].swing.arm[0]: 1e15 degrees is out of range: angles lie within \u{b1}3600 (ten turns)"
    );
    assert_eq!(
        compile_str(&with_angles("0", "-1e15")).unwrap_err(),
        "animations[0].root_turn: -1e15 degrees is out of range: angles lie within \u{b1}3600 (ten turns)"
    );
    // Hang guard only: the old one-turn-at-a-time reduction took minutes on 1e15.
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn ten_turns_compile_to_the_same_pose_as_none() {
    // 3600 degrees about X: half angle 10π reduces to 0, so the part keeps (1, 0, 0, 0)
    // up to the rounding of ten subtractions of 2π.
    let c = compile_str(&with_angles("3600", "-3600")).unwrap();
    let q = c.animations[0].part_frames[0].parts[0].orientation;
    assert!((q.w - 1.0).abs() < 1e-6 && q.x.abs() < 1e-6, "{q:?}");
    let r = c.animations[0].pos_frames[0].orientation;
    assert!((r.w - 1.0).abs() < 1e-6 && r.z.abs() < 1e-6, "{r:?}");
}
