//! The inspector's text for the example records (the tiny motion table and animation),
//! written out in full.

use retroanim_ac::inspect::{animation_text, motion_table_text, render_record};
use retroanim_ac::records::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

const TABLE_3_7: &str = "
    99 00 00 09  3D 00 00 80  01 00 00 00  3D 00 00 80  03 00 00 41
    02 00 00 00
    03 00 3D 00  01 00 00 00  01 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41
    05 00 3D 00  01 00 01 00  02 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41
    00 00 00 00  14 AE 47 40  00 00 00 00
    01 00 00 00
    0D 00 3D 00  00 00 02 00  00 00 00 00  00 00 00 00  00 00 C0 BF
    01 00 00 00
    03 00 3D 00  01 00 00 00
    05 00 00 45  01 00 00 00  03 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41";

const ANIM_3_8: &str = "
    01 0A 00 03  01 00 00 00  01 00 00 00  02 00 00 00
    00 00 00 00 CD CC CC 3D 00 00 00 00  00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 00 00 CD CC CC 3D 00 00 00 00  00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 00 00 00 00 00 00 00 00 00 00  00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
    01 00 00 00  01 00 00 00  01 00 00 00  23 01 00 0A
    00 00 00 00 00 00 00 00 00 00 00 00  00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 00 00";

#[test]
fn spec_3_7_table_as_text() {
    let t = read_motion_table(&hex(TABLE_3_7), "3.7").unwrap();
    let expected = "\
MotionTable 0x09000099
default style: 0x8000003d NonCombat
styles (1):
  0x8000003d NonCombat -> default 0x41000003 Ready
cycles (2):
  0x003d0003 (NonCombat, Ready)
    bitfield 0x00, flags 0x00
    anim 0x03000a01 frames 0..-1 (last) @ 30 fps
  0x003d0005 (NonCombat, WalkForward)
    bitfield 0x00, flags 0x01
    anim 0x03000a02 frames 0..-1 (last) @ 30 fps
    velocity (0, 3.12, 0)
modifiers (1):
  0x003d000d (NonCombat, TurnRight)
    bitfield 0x00, flags 0x02
    no anims
    omega (0, 0, -1.5)
link groups (1):
  from 0x003d0003 (NonCombat, Ready):
    to 0x45000005 WalkForward
      bitfield 0x00, flags 0x00
      anim 0x03000a03 frames 0..-1 (last) @ 30 fps
";
    assert_eq!(motion_table_text(&t), expected);
}

#[test]
fn spec_3_8_animation_as_text() {
    let a = read_animation(&hex(ANIM_3_8), "3.8").unwrap();
    let expected = "\
Animation 0x03000a01
flags 0x00000001 (pos frames), 1 parts, 2 frames
hooks: 1
frame 0:
  pos origin (0, 0.1, 0) orientation [w 1, x 0, y 0, z 0]
  part 0: origin (0, 0, 0) orientation [w 1, x 0, y 0, z 0]
  hook sound (type 1, forward) sound_id=0x0a000123
frame 1:
  pos origin (0, 0.1, 0) orientation [w 1, x 0, y 0, z 0]
  part 0: origin (0, 0, 0) orientation [w 1, x 0, y 0, z 0]
";
    assert_eq!(animation_text(&a), expected);
}

#[test]
fn spec_3_8_animation_as_json() {
    let json = render_record(&hex(ANIM_3_8), "3.8", true).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["frames"][0]["hooks"][0],
        serde_json::json!({"type": "sound", "type_id": 1, "direction": "forward", "fields": {"sound_id": 0x0A00_0123}})
    );
    assert_eq!(
        v["pos_frames"][1],
        serde_json::json!({"origin": [0.0, 0.1, 0.0], "orientation": [1.0, 0.0, 0.0, 0.0]})
    );
    assert!(json.contains("0.1,"), "f32 0.1 printed as 0.1: {json}");
}

#[test]
fn unknown_record_class_is_an_error() {
    let e = render_record(&[1, 0, 0, 0x20, 0], "sounds.bin", false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "sounds.bin: record 0x20000001, byte 0: not a MotionTable (0x09……), Animation (0x03……), Setup (0x02……), GfxObj (0x01……), Palette (0x04……), SurfaceTexture (0x05……) or RenderSurface (0x06……) record"
    );
    // A Setup is now read: a truncated one is a located error in its own fields.
    let e = render_record(&[1, 0, 0, 0x02, 0], "setup.bin", false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "setup.bin: record 0x02000001, byte 4: truncated: Setup flags needs 4 bytes, 1 left"
    );
}
