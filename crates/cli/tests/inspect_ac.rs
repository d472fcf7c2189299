//! `retroanim inspect` on AC records: the sample's `.bin` files, a DAT built in a
//! temporary directory, and bad input.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::dat::write_dat;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_retroanim"))
}

fn records() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records")
}

fn inspect(args: &[&str], file: &Path) -> Output {
    let mut c = bin();
    c.arg("inspect").arg(file).args(args);
    c.output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retroanim-inspect-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn motion_table_text_lists_styles_cycles_modifiers_links() {
    let out = stdout(&inspect(&[], &records().join("09000001.bin")));
    for line in [
        "MotionTable 0x09000001",
        "default style: 0x8000003d NonCombat",
        "  0x8000003d NonCombat -> default 0x41000003 Ready",
        "  0x003d0005 (NonCombat, WalkForward)",
        "    anim 0x03000102 frames 0..-1 (last) @ 30 fps",
        "    bitfield 0x02 (restricted), flags 0x02",
        "    omega (0, 0, -1.5)",
        "    velocity (1.25, 0, 0)",
        "modifiers (3):",
        "  0x0000000d (any style, TurnRight)",
        "  from 0x003d0003 (NonCombat, Ready):",
        "    to 0x13000087 Wave",
        "    to 0x8000003e SwordCombat",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "missing line {line:?} in\n{out}"
        );
    }
}

#[test]
fn motion_table_json() {
    let out = stdout(&inspect(&["--json"], &records().join("09000001.bin")));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "motion_table");
    assert_eq!(v["id"], "0x09000001");
    assert_eq!(v["default_style"]["name"], "NonCombat");
    assert_eq!(v["cycles"][1]["key"], "0x003d0005");
    assert_eq!(v["cycles"][1]["anims"][0]["anim"], "0x03000102");
    assert_eq!(v["cycles"][1]["anims"][0]["high"], -1);
    assert_eq!(v["cycles"][3]["omega"], serde_json::json!([0.0, 0.0, -1.5]));
    assert_eq!(v["cycles"][0]["velocity"], serde_json::Value::Null);
    assert_eq!(v["links"][0]["links"][0]["to"]["name"], "WalkForward");
    // f32 values print in their shortest f32 form.
    assert!(out.contains("\"framerate\": 30.0"), "{out}");
}

#[test]
fn animation_text_and_json_show_frames_pos_frames_and_hooks() {
    let out = stdout(&inspect(&[], &records().join("03000102.bin")));
    assert!(
        out.starts_with(
            "Animation 0x03000102\nflags 0x00000001 (pos frames), 8 parts, 30 frames\nhooks: 2\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("  pos origin (0, 0.104, 0) orientation [w 1, x 0, y 0, z 0]\n"),
        "{out}"
    );
    assert!(
        out.contains("  hook sound (type 1, both) sound_id=0x0a000010\n"),
        "{out}"
    );
    let out = stdout(&inspect(&["--json"], &records().join("03000131.bin")));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "animation");
    assert_eq!(v["num_parts"], 8);
    let hooks = &v["frames"][6]["hooks"];
    assert_eq!(hooks[0]["type"], "sound");
    assert_eq!(hooks[1]["type"], "replace_object");
    assert_eq!(hooks[1]["direction"], "forward");
    assert_eq!(hooks[1]["fields"]["part_index"], 7);
    assert_eq!(hooks[1]["fields"]["part_id"], 0x0101_2345);
    assert_eq!(v["pos_frames"], serde_json::json!([]));
}

#[test]
fn dat_listing_and_record_by_id() {
    let mut recs = Vec::new();
    for id in [0x0900_0001u32, 0x0300_0101, 0x0300_0102] {
        recs.push((
            id,
            std::fs::read(records().join(format!("{id:08x}.bin"))).unwrap(),
        ));
    }
    let dir = temp_dir("dat");
    let dat = dir.join("client_portal.dat");
    std::fs::write(&dat, write_dat(&recs, 256, 61)).unwrap();

    let out = stdout(&inspect(&[], &dat));
    assert!(out.contains(", 3 records\n"), "{out}");
    assert!(
        out.contains("  0x09000001      784 bytes  MotionTable\n"),
        "{out}"
    );
    let direct = stdout(&inspect(&[], &records().join("09000001.bin")));
    let via_dat = stdout(&inspect(&["--id", "0x09000001"], &dat));
    assert_eq!(via_dat, direct);
    let json = stdout(&inspect(&["--id", "0x03000102", "--json"], &dat));
    assert!(json.contains("\"id\": \"0x03000102\""));

    let o = inspect(&["--id", "0x03000999"], &dat);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("record 0x03000999: not found"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_records_are_located_errors() {
    let dir = temp_dir("bad");
    let mut bytes = std::fs::read(records().join("09000001.bin")).unwrap();
    bytes.truncate(52);
    let path = dir.join("09000001.bin");
    std::fs::write(&path, &bytes).unwrap();
    let o = inspect(&[], &path);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{}: record 0x09000001, byte 28: Cycles count 9 exceeds the bytes left (20 bytes, at least 8 per item)",
            path.display()
        )),
        "{err}"
    );
    // --id that disagrees with the record.
    let o = inspect(&["--id", "0x09000002"], &records().join("09000001.bin"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--id 0x09000002 given but the record's id is 0x09000001"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_bin_files_are_left_to_other_engines() {
    let dir = temp_dir("other");
    // Fourth byte 0x03 but neither a record name nor a parseable animation.
    let path = dir.join("thing.bin");
    std::fs::write(&path, [1u8, 2, 3, 3, 9, 9]).unwrap();
    let o = inspect(&[], &path);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !out.contains("Animation 0x") && !err.contains("record 0x"),
        "{out}{err}"
    );
    // A valid record under any name is recognised.
    let renamed = dir.join("walk.bin");
    std::fs::copy(records().join("03000102.bin"), &renamed).unwrap();
    assert!(stdout(&inspect(&[], &renamed)).starts_with("Animation 0x03000102\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn standalone_setup_and_gfxobj_records_are_inspected_like_the_other_kinds() {
    // 02000001.bin starts 01 00 00 02 | 03 00 00 00 | 08 00 00 00 | 01 01 00 01 | ... | ff ff ff ff:
    // id 0x02000001, flags 3 (parent indices and default scales), 8 parts, part 0 is
    // GfxObj 0x01000101 with no parent.
    let setup = stdout(&inspect(&[], &records().join("02000001.bin")));
    let lines: Vec<&str> = setup.lines().collect();
    assert_eq!(lines[0], "Setup 0x02000001");
    assert_eq!(
        lines[1],
        "flags 0x00000003 (parent indices, default scales), 8 parts"
    );
    assert!(
        lines[2].starts_with("  part 0: GfxObj 0x01000101 parent none"),
        "{setup}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&inspect(
        &["--json"],
        &records().join("02000001.bin"),
    )))
    .unwrap();
    assert_eq!(v["kind"], "setup");
    assert_eq!(v["parts"][7], "0x01000108");
    // 01000101.bin: id 0x01000101, flags 2 (drawing), one surface 0x08000105 (the pelvis's
    // DXT3 texture), vertex type 1, 0x18 = 24 vertices.
    let gfx = stdout(&inspect(&[], &records().join("01000101.bin")));
    let lines: Vec<&str> = gfx.lines().collect();
    assert_eq!(lines[0], "GfxObj 0x01000101");
    assert_eq!(
        lines[1],
        "flags 0x00000002 (drawing), surfaces [0x08000105]"
    );
    assert_eq!(lines[2], "vertex type 1, 24 vertices");
    // Texture records by name; a Surface (no id in its bytes) only by name.
    let surf = stdout(&inspect(&[], &records().join("08000105.bin")));
    assert_eq!(
        surf.lines().nth(1),
        Some("type 0x00000002, image: SurfaceTexture 0x05000105, palette 0x00000000")
    );
    let image = stdout(&inspect(&[], &records().join("06000105.bin")));
    assert_eq!(
        image.lines().nth(1),
        Some("16×16 DXT3 (861165636), 256 pixel bytes")
    );
    // Not named like a record: recognised because it parses.
    let d = temp_dir("setup-renamed");
    let renamed = d.join("figure.bin");
    std::fs::copy(records().join("02000001.bin"), &renamed).unwrap();
    assert!(stdout(&inspect(&[], &renamed)).starts_with("Setup 0x02000001\n"));
    // Named like a record but malformed: the located error, not "not a file".
    let bad = d.join("01000999.bin");
    std::fs::write(&bad, [0x99, 0x09, 0x00, 0x01, 0x02]).unwrap();
    let o = inspect(&[], &bad);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("not a file retroanim inspects"), "{err}");
    assert!(err.contains("01000999.bin"), "{err}");
}
