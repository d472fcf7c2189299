//! `inspect` prints text for every file kind and looks inside VOL entries; `bench`
//! reports what it measured, as text or JSON, and refuses an empty world.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_herc::formats::vol::{VolArchive, VolEntry};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn herc_assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc")
}

fn retroanim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(args)
        .output()
        .expect("the retroanim binary runs")
}

fn ok_stdout(args: &[&str]) -> String {
    let o = retroanim(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A VOL holding the sample chassis record and the sample HERC asset.
fn sample_vol(tag: &str) -> PathBuf {
    let chassis = std::fs::read(herc_assets().join("biped.chassis.bin")).unwrap();
    let asset = std::fs::read(herc_assets().join("biped.json")).unwrap();
    let vol = VolArchive {
        program_mask: 1,
        precedence: 3,
        directories: vec!["dat".into(), "".into()],
        entries: vec![
            VolEntry::stored("BIPED.DAT", 0, chassis).unwrap(),
            VolEntry::stored("BIPED.JSON", 1, asset).unwrap(),
        ],
        list_extra: Vec::new(),
    };
    let d = std::env::temp_dir().join(format!("retroanim-vol-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("SAMPLE.VOL");
    std::fs::write(&p, vol.write().unwrap()).unwrap();
    p
}

#[test]
fn vol_text_lists_every_entry_with_its_directory_and_size() {
    let vol = sample_vol("list");
    let out = ok_stdout(&["inspect", vol.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "VOL archive: program mask 0x00000001, precedence 3, 2 directories, 2 entries"
    );
    assert!(lines[1].starts_with("  dat\\BIPED.DAT "), "{out}");
    assert!(lines[1].ends_with(" 216 bytes  stored"), "{out}");
    assert!(lines[2].starts_with("  BIPED.JSON "), "{out}");
    assert!(!out.contains('{'), "text, not JSON: {out}");
}

#[test]
fn id_looks_inside_a_vol_entry() {
    let vol = sample_vol("entry");
    let v = vol.to_str().unwrap();
    let loose = ok_stdout(&[
        "inspect",
        herc_assets().join("biped.chassis.bin").to_str().unwrap(),
    ]);
    assert_eq!(ok_stdout(&["inspect", v, "--id", "dat\\BIPED.DAT"]), loose);
    assert_eq!(ok_stdout(&["inspect", v, "--id", "biped.dat"]), loose);
    let json = ok_stdout(&["inspect", v, "--id", "BIPED.JSON", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["kind"], "anim_list");
    let o = retroanim(&["inspect", v, "--id", "NOPE.DTS"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("retroanim: {v}: entry NOPE.DTS: not found (entries: BIPED.DAT, BIPED.JSON)\n")
    );
}

#[test]
fn dts_inspect_counts_the_meshes_loose_and_inside_a_vol() {
    let dts_path = herc_assets().join("biped.dts");
    let loose = ok_stdout(&["inspect", dts_path.to_str().unwrap()]);
    // The sample biped: 14 box groups (8 corners + 6 face centres, 6 quads each) on
    // nodes 1..14; node 0 carries root motion and no geometry.
    let lines: Vec<&str> = loose.lines().collect();
    assert_eq!(
        lines[1],
        "meshes (root 0): 14 groups, 196 points, 84 polygons, on nodes [1,2,3,4,5,6,7,8,9,10,11,12,13,14]"
    );
    let vol = VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into()],
        entries: vec![VolEntry::stored("BIPED.DTS", 0, std::fs::read(&dts_path).unwrap()).unwrap()],
        list_extra: Vec::new(),
    };
    let d = std::env::temp_dir().join(format!("retroanim-vol-dts-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("SIMVOL0.VOL");
    std::fs::write(&p, vol.write().unwrap()).unwrap();
    let inside = ok_stdout(&["inspect", p.to_str().unwrap(), "--id", "dts\\BIPED.DTS"]);
    assert_eq!(inside, loose);
    let json = ok_stdout(&[
        "inspect",
        p.to_str().unwrap(),
        "--id",
        "biped.dts",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["meshes"]["groups"], 14);
    assert_eq!(doc["meshes"]["polys"], 84);
}

#[test]
fn h80_h81_palettes_and_bitmap_arrays_are_inspected() {
    // The sample's own palette (256 colours, five 8-step ramps) and bank (four 16 × 16
    // raw frames): assets/herc/biped.dpl and biped.dba.
    let dpl = ok_stdout(&["inspect", herc_assets().join("biped.dpl").to_str().unwrap()]);
    assert!(
        dpl.starts_with("palette: 256 colours, 5 shade ramps of lengths [8,8,8,8,8]\n    0 [0,0,0]\n    1 [88,104,128]\n"),
        "{dpl}"
    );
    let dba = ok_stdout(&["inspect", herc_assets().join("biped.dba").to_str().unwrap()]);
    assert_eq!(dba.lines().next(), Some("bitmaps: 4 frames"));
    assert_eq!(dba.lines().count(), 5);
}

#[test]
fn chassis_text_is_text_for_the_binary_and_the_json_record() {
    for name in ["biped.chassis.bin", "biped.chassis.json"] {
        let out = ok_stdout(&["inspect", herc_assets().join(name).to_str().unwrap()]);
        assert!(
            out.starts_with("chassis record SAMPLEBIPED\nraw:\n"),
            "{name}: {out}"
        );
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["max_turn_rate", "300"]),
            "{name}: {out}"
        );
        assert!(out.contains("\nruntime:\n"), "{name}: {out}");
    }
}

#[test]
fn id_on_a_file_without_entries_is_refused() {
    let asset = herc_assets().join("biped.json");
    let o = retroanim(&["inspect", asset.to_str().unwrap(), "--id", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--id looks inside a DAT container or a VOL archive"));
}

#[test]
fn inspect_help_lists_every_file_kind() {
    let help = ok_stdout(&["inspect", "--help"]);
    for kind in [
        "MotionTable",
        "Animation",
        "DAT container",
        "HERC asset",
        "DTS shape",
        "VOL archive",
        "chassis record",
        "actor set",
    ] {
        assert!(help.contains(kind), "{kind} missing from\n{help}");
    }
}

#[test]
fn bench_json_reports_the_world_it_timed() {
    let out = ok_stdout(&[
        "bench",
        "herc",
        "--entities",
        "3",
        "--threads",
        "8",
        "--ticks",
        "5",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["engine"], "herc");
    assert_eq!(v["entities"], 3);
    // Never more threads than entities: three worlds of one.
    assert_eq!(v["threads"], 3);
    assert_eq!(v["ticks"], 5);
    assert_eq!(v["tick"], "25 Hz step");
    assert!(v["seconds"].as_f64().is_some_and(|s| s > 0.0));
    assert!(v["checksum"].as_str().is_some_and(|c| c.len() == 16));
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn bench_with_zero_entities_or_ticks_is_refused() {
    for flag in ["--entities", "--ticks"] {
        let o = retroanim(&["bench", "actor", flag, "0"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("must be at least 1"), "{flag}: {err}");
    }
}

#[test]
fn a_chassis_record_extracted_without_its_trailer_is_inspected() {
    // A VOL entry's 9-byte prefix (compression 2 = stored, size 216, DOS date and time) and
    // the 216 content bytes, no trailer: 225 bytes, as some extraction tools write it.
    let content = std::fs::read(herc_assets().join("biped.chassis.bin")).unwrap();
    assert_eq!(content.len(), 216);
    let mut extracted = vec![2u8, 216, 0, 0, 0, 0x21, 0x2c, 0x00, 0x60];
    extracted.extend_from_slice(&content);
    assert_eq!(extracted.len(), 225);
    let d = std::env::temp_dir().join(format!("retroanim-chassis-225-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("BIPED.DAT");
    std::fs::write(&p, &extracted).unwrap();
    let loose = ok_stdout(&[
        "inspect",
        herc_assets().join("biped.chassis.bin").to_str().unwrap(),
    ]);
    assert!(loose.starts_with("chassis record "), "{loose}");
    assert_eq!(ok_stdout(&["inspect", p.to_str().unwrap()]), loose);
    // With the trailer (226 bytes) the same.
    extracted.push(*content.last().unwrap());
    let p226 = d.join("BIPED2.DAT");
    std::fs::write(&p226, &extracted).unwrap();
    assert_eq!(ok_stdout(&["inspect", p226.to_str().unwrap()]), loose);
}
