//! Data-gated suite on the user's own `client_portal.dat` (docs/ac-formats.md, "Tests on
//! your own game files"). Set `RETROANIM_AC_DAT_DIR` to the folder holding it; without it
//! the DAT tests print a SKIPPED line to stderr and pass, because no game data can ever be
//! in CI (so `RETROANIM_NO_SKIP` does not turn a missing DAT into a failure). A variable
//! that points at a folder without the file is a failure.
//!
//! dereth's documented 56-byte example motion table is not game data (its bytes are typed
//! in from the public description) and always runs.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::inspect::motion_table_text;
use retroanim_ac::records::dat::DatFile;
use retroanim_ac::records::*;
use retroanim_ac::scenario::{load_table, MissingAnimations, Setup, Step};
use retroanim_ac::AcSim;
use retroanim_core::Simulation;
use std::path::{Path, PathBuf};

const VAR: &str = "RETROANIM_AC_DAT_DIR";

/// A line on the process's stderr itself: `eprintln!` is captured by the test harness and
/// would hide the SKIPPED line in a plain `cargo test`.
fn note(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The user's DAT, or `None` after printing the SKIPPED line.
fn portal(test: &str) -> Option<PathBuf> {
    match std::env::var_os(VAR).filter(|v| !v.is_empty()) {
        None => {
            let no_skip = if std::env::var_os("RETROANIM_NO_SKIP").is_some() {
                " (RETROANIM_NO_SKIP is set, but game data can never be in CI, so this is not a failure)"
            } else {
                ""
            };
            note(&format!(
                "SKIPPED {test}: set {VAR} to the folder holding client_portal.dat{no_skip}"
            ));
            None
        }
        Some(dir) => {
            let path = PathBuf::from(dir).join("client_portal.dat");
            assert!(
                path.is_file(),
                "{VAR} is set but {} does not exist",
                path.display()
            );
            Some(path)
        }
    }
}

fn open(path: &Path) -> DatFile {
    DatFile::open(path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn real_dat_end_of_retail_header() {
    let Some(path) = portal("real_dat_end_of_retail_header") else {
        return;
    };
    let dat = open(&path);
    let h = dat.header();
    note(&format!(
        "{}: layout {:?}, block size {}, engine pack version {}, version minor {}",
        path.display(),
        h.layout,
        h.block_size,
        h.engine_pack_version,
        h.version_minor
    ));
    assert_eq!(h.block_size, 1024);
    assert_eq!(h.engine_pack_version, 110);
    assert_eq!(h.version_minor, 6657);
}

#[test]
fn real_dat_every_animation_and_motion_table_parses_and_writes_back() {
    let Some(path) = portal("real_dat_every_animation_and_motion_table_parses_and_writes_back")
    else {
        return;
    };
    let mut dat = open(&path);
    let entries = dat.entries().unwrap_or_else(|e| panic!("{e}"));
    let file = path.display().to_string();
    let (mut anims, mut tables, mut motion_data) = (0usize, 0usize, 0usize);
    for e in entries
        .iter()
        .filter(|e| matches!(e.object_id >> 24, 0x03 | 0x09))
    {
        let bytes = dat.read_entry(e).unwrap_or_else(|err| panic!("{err}"));
        if e.object_id >> 24 == 0x03 {
            let a = read_animation(&bytes, &file).unwrap_or_else(|err| panic!("{err}"));
            assert!(
                write_animation(&a) == bytes,
                "0x{:08x} does not write back",
                e.object_id
            );
            anims += 1;
        } else {
            let t = read_motion_table(&bytes, &file).unwrap_or_else(|err| panic!("{err}"));
            assert!(
                write_motion_table(&t) == bytes,
                "0x{:08x} does not write back",
                e.object_id
            );
            motion_data += t.cycles.len()
                + t.modifiers.len()
                + t.links.iter().map(|(_, m)| m.len()).sum::<usize>();
            tables += 1;
        }
    }
    note(&format!(
        "{file}: {anims} animations, {tables} motion tables, {motion_data} MotionData records (dereth counts 62,210)"
    ));
    assert!(anims > 0 && tables > 0);
}

#[test]
fn real_dat_animation_0x03000514_has_17_parts_44_frames_and_one_sound_table_hook() {
    let Some(path) =
        portal("real_dat_animation_0x03000514_has_17_parts_44_frames_and_one_sound_table_hook")
    else {
        return;
    };
    let mut store = RecordStore::from_dat(&path).unwrap_or_else(|e| panic!("{e}"));
    let a = store
        .animation(0x0300_0514)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.num_parts, 17);
    assert_eq!(a.num_frames, 44);
    let sound_table: Vec<_> = a.part_frames[0]
        .hooks
        .iter()
        .filter(|h| h.hook_type == hooks::SOUND_TABLE)
        .collect();
    assert_eq!(sound_table.len(), 1);
}

#[test]
fn real_dat_motion_table_0x09000202_defaults_to_non_combat() {
    let Some(path) = portal("real_dat_motion_table_0x09000202_defaults_to_non_combat") else {
        return;
    };
    let mut store = RecordStore::from_dat(&path).unwrap_or_else(|e| panic!("{e}"));
    let t = store
        .motion_table(0x0900_0202)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.default_style, 0x8000_003D);
    assert_eq!(t.style_defaults, [(0x8000_003D, 0x4000_000C)]);
}

#[test]
fn real_dat_three_animations_round_trip_byte_identically() {
    let Some(path) = portal("real_dat_three_animations_round_trip_byte_identically") else {
        return;
    };
    let mut dat = open(&path);
    for id in [0x0300_0DD8u32, 0x0300_0514, 0x0300_0968] {
        let bytes = dat.read_record(id).unwrap_or_else(|e| panic!("{e}"));
        let a = read_animation(&bytes, "client_portal.dat").unwrap_or_else(|e| panic!("{e}"));
        assert!(write_animation(&a) == bytes, "0x{id:08x}");
    }
}

fn step(json: &str) -> Step {
    serde_json::from_str(json).unwrap()
}

#[test]
fn real_dat_every_motion_table_plays_walk_run_stop() {
    let Some(path) = portal("real_dat_every_motion_table_plays_walk_run_stop") else {
        return;
    };
    let ids: Vec<u32> = open(&path)
        .entries()
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|e| e.object_id)
        .filter(|id| id >> 24 == 0x09)
        .collect();
    let mut store = RecordStore::from_dat(&path).unwrap_or_else(|e| panic!("{e}"));
    let script = [
        r#"{"op": "do_motion", "motion": "0x45000005"}"#,
        r#"{"op": "tick", "dt": 0.1}"#,
        r#"{"op": "do_motion", "motion": "0x45000005", "hold_key": "run"}"#,
        r#"{"op": "tick", "dt": 0.1}"#,
        r#"{"op": "stop_motion", "motion": "0x45000005"}"#,
        r#"{"op": "tick", "dt": 0.1}"#,
        r#"{"op": "tick", "dt": 0.5}"#,
    ];
    let steps: Vec<Step> = script.iter().map(|s| step(s)).collect();
    for &id in &ids {
        let (table, anims) = load_table(&mut store, id, MissingAnimations::Empty)
            .unwrap_or_else(|e| panic!("0x{id:08x}: {e}"));
        let setup: Setup =
            serde_json::from_str(&format!(r#"{{"motion_table": "0x{id:08x}"}}"#)).unwrap();
        let mut sim = AcSim::from_parts(table, anims, &setup);
        for (i, s) in steps.iter().enumerate() {
            sim.apply(i + 1, s, "")
                .unwrap_or_else(|e| panic!("0x{id:08x} step {i}: {e}"));
        }
    }
    note(&format!(
        "{}: {} motion tables played walk, run, stop",
        path.display(),
        ids.len()
    ));
}

/// dereth's smallest useful table (its motion-table page, section 7), typed in from the
/// description: one stance default and one idle cycle, 56 bytes.
#[test]
fn dereth_56_byte_example_motion_table_reads_and_writes_back() {
    let mut b = Vec::new();
    for v in [
        0x0900_0001u32,
        0x8000_003D,
        1,
        0x8000_003D,
        0x4100_0003,
        1,
        0x003D_0003,
    ] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&[1, 0, 0, 0]); // num_anims 1, bitfield 0, flags 0, pad
    for v in [0x0300_0001u32, 0, u32::MAX, 30.0f32.to_bits(), 0, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(b.len(), 56);
    let t = read_motion_table(&b, "dereth-example").unwrap();
    assert_eq!(t.id, 0x0900_0001);
    assert_eq!(t.default_style, 0x8000_003D);
    assert_eq!(t.style_defaults, [(0x8000_003D, 0x4100_0003)]);
    assert_eq!(t.cycles.len(), 1);
    let (key, md) = &t.cycles[0];
    assert_eq!(*key, 0x003D_0003);
    assert_eq!((md.bitfield, md.flags), (0, 0));
    assert_eq!(
        md.anims,
        [AnimRef {
            anim_id: 0x0300_0001,
            low_frame: 0,
            high_frame: -1,
            framerate: 30.0
        }]
    );
    assert!(t.modifiers.is_empty() && t.links.is_empty());
    assert_eq!(write_motion_table(&t), b);
    let text = motion_table_text(&t);
    assert!(text.contains("0x003d0003 (NonCombat, Ready)"), "{text}");
}
