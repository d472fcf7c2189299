//! Data / parsing quirks Q51–Q57 (docs/ac.md). Expected values are typed in
//! from the record layouts by hand, never computed by the code under test.

use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_table::{key, MotionTableData};
use retroanim_ac::records::lengths::{get_anim_data, get_animation_length};
use retroanim_ac::records::*;
use retroanim_ac::sequence::{AnimData, AnimMap, SeqNode};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The tiny example motion table up to and including the first cycle (0x00..0x30), then empty maps.
fn one_cycle_table(pad: u8) -> Vec<u8> {
    let mut b = hex("
        99 00 00 09  3D 00 00 80  01 00 00 00  3D 00 00 80  03 00 00 41
        01 00 00 00
        03 00 3D 00  01 00 00 00  01 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41
        00 00 00 00  00 00 00 00
    ");
    b[0x1F] = pad;
    b
}

fn frames(n: u32) -> Animation {
    Animation {
        id: 0x0300_0001,
        flags: 0,
        num_parts: 0,
        num_frames: n,
        pos_frames: vec![],
        part_frames: vec![PartFrame::default(); n as usize],
    }
}

#[test]
fn q51_motion_data_pads_one_byte_relative_to_the_record_start() {
    // The MotionData header (numAnims, Bitfield, Flags) sits at 0x1C..0x1F; offset 0x1F
    // is padding and the first AnimData starts at 0x20.
    let t = read_motion_table(&one_cycle_table(0), "q51").unwrap();
    assert_eq!(t.cycles[0].0, 0x003D_0003);
    assert_eq!(t.cycles[0].1.anims[0].anim_id, 0x0300_0A01);
    assert_eq!(t.cycles[0].1.anims[0].framerate, 30.0);
    // ACE ignores the pad byte's value; the writer emits zero.
    let t2 = read_motion_table(&one_cycle_table(0xAB), "q51").unwrap();
    assert_eq!(t2, t);
    assert_eq!(write_motion_table(&t2)[0x1F], 0);
    // Two cycles, the second cut right after its three header bytes (0x34..0x36): the
    // error names the pad's offset 0x37.
    let mut two = one_cycle_table(0)[..0x30].to_vec();
    two[0x14] = 2;
    two.extend_from_slice(&hex("05 00 3D 00  01 00 01"));
    let e = read_motion_table(&two, "q51.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "q51.bin: record 0x09000099, byte 55: truncated: MotionData padding needs 1 bytes, 0 left"
    );
}

#[test]
fn q52_quaternions_are_stored_w_first() {
    // One pos frame: origin (1, 2, 3), then w = 0.5, x = 0.25, y = -0.5, z = 0.75.
    let bytes = hex("
        01 00 00 03  01 00 00 00  00 00 00 00  01 00 00 00
        00 00 80 3F  00 00 00 40  00 00 40 40
        00 00 00 3F  00 00 80 3E  00 00 00 BF  00 00 40 3F
        00 00 00 00
    ");
    let a = read_animation(&bytes, "q52").unwrap();
    assert_eq!(
        a.pos_frames,
        vec![AFrame {
            origin: Vec3::new(1.0, 2.0, 3.0),
            orientation: Quat::new(0.5, 0.25, -0.5, 0.75),
        }]
    );
    assert_eq!(a.pos_frames[0].orientation.w, 0.5);
    assert_eq!(a.pos_frames[0].orientation.z, 0.75);
    assert_eq!(write_animation(&a), bytes);
}

fn one_hook_animation(hook_type: u32) -> Vec<u8> {
    let mut b = hex("01 00 00 03  00 00 00 00  00 00 00 00  01 00 00 00  01 00 00 00");
    b.extend_from_slice(&hook_type.to_le_bytes());
    b.extend_from_slice(&1i32.to_le_bytes());
    b.extend_from_slice(&[0x23, 0x01, 0x00, 0x0A]);
    b
}

#[test]
fn q53_unknown_hook_types_fail_loudly() {
    // Type 1 (Sound) reads its 4-byte payload.
    let a = read_animation(&one_hook_animation(1), "q53").unwrap();
    assert_eq!(
        a.part_frames[0].hooks[0].payload,
        vec![0x23, 0x01, 0x00, 0x0A]
    );
    // NoOp (0) reads no payload, as in the retail client: the 4 bytes after it are then
    // trailing bytes (offset 28), exactly like AnimationDone below.
    let e = read_animation(&one_hook_animation(0), "q53.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "q53.bin: record 0x03000001, byte 28: 4 trailing bytes after the end of the record"
    );
    let e = read_animation(&one_hook_animation(27), "q53.bin").unwrap_err();
    assert!(
        e.to_string().contains("byte 20: unknown hook type 27"),
        "{e}"
    );
    // AnimationDone (4) has no payload: the 4 bytes left over are trailing garbage.
    let e = read_animation(&one_hook_animation(4), "q53.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "q53.bin: record 0x03000001, byte 28: 4 trailing bytes after the end of the record"
    );
}

fn node(low: i32, high: i32, num_frames: u32) -> (i32, i32) {
    let mut src = AnimMap::new();
    src.insert(frames(num_frames));
    let n = SeqNode::new(
        AnimData {
            anim_id: 0x0300_0001,
            low_frame: low,
            high_frame: high,
            framerate: 30.0,
        },
        &src,
    );
    (n.low_frame, n.high_frame)
}

#[test]
fn q54_high_frame_minus_one_is_the_last_frame_and_the_clamp_order_matters() {
    // 4 frames (0..=3).
    assert_eq!(node(0, -1, 4), (0, 3));
    // Step 1 before step 4: -1 becomes 3 first, so (2, -1) is (2, 3), not (2, 2).
    assert_eq!(node(2, -1, 4), (2, 3));
    assert_eq!(node(2, 10, 4), (2, 3));
    assert_eq!(node(5, -1, 4), (3, 3));
    assert_eq!(node(3, 1, 4), (3, 3));
    assert_eq!(node(6, 2, 4), (3, 3));
    // A negative LowFrame is kept.
    assert_eq!(node(-2, 1, 4), (-2, 1));
    // No frames: both become -1.
    assert_eq!(node(0, -1, 0), (-1, -1));
}

#[test]
fn q55_missing_records_strict_error_or_ace_empty_object() {
    let mut store = RecordStore::from_records([], [frames(4)]);
    // Decision: the strict accessors report the missing id...
    let e = store.animation(0x0300_0002).unwrap_err();
    assert_eq!(e.to_string(), "<memory>: record 0x03000002: not found");
    let e = store.motion_table(0x0900_0001).unwrap_err();
    assert_eq!(e.to_string(), "<memory>: record 0x09000001: not found");
    // ...and the `_or_empty` accessors give ACE's default-constructed objects.
    let a = store.animation_or_empty(0x0300_0002).unwrap();
    assert_eq!((a.id, a.num_frames, a.part_frames.len()), (0, 0, 0));
    let t = store.motion_table_or_empty(0x0900_0001).unwrap();
    assert_eq!(t.id, 0);
    assert_eq!(t.default_style, 0);
    assert!(t.style_defaults.is_empty() && t.cycles.is_empty() && t.links.is_empty());
    // Cached like ReadFromDat: later strict reads now find the empty object.
    assert_eq!(store.animation(0x0300_0002).unwrap().num_frames, 0);
    // An empty table cannot enter a default state (no StyleDefaults entry for style 0).
    assert!(MotionTableData::from(&*t).style_defaults().is_empty());
}

#[test]
fn q56_three_index_masks() {
    // Cycle/modifier keys: style << 16 (high bits fall off) | 24-bit index.
    assert_eq!(key(0x8000_003D, 0x4500_0005), 0x003D_0005);
    assert_eq!(key(0x8000_003D, 0x6500_000D), 0x003D_000D);
    // Link inner keys are the full id: a link stored under 0x45000005 is found for
    // WalkForward, one stored under the masked 0x00000005 is not.
    let md = MotionData {
        anims: vec![AnimRef {
            anim_id: 0x0300_0A03,
            low_frame: 0,
            high_frame: -1,
            framerate: 30.0,
        }],
        ..MotionData::default()
    };
    let table = |inner: u32| MotionTable {
        id: 0x0900_0001,
        default_style: 0x8000_003D,
        style_defaults: vec![(0x8000_003D, 0x4100_0003)],
        links: vec![(0x003D_0003, vec![(inner, md.clone())])],
        ..MotionTable::default()
    };
    let full = MotionTableData::from(&table(0x4500_0005));
    assert!(full
        .get_link(0x8000_003D, 0x4100_0003, 1.0, 0x4500_0005, 1.0)
        .is_some());
    let masked = MotionTableData::from(&table(0x0000_0005));
    assert!(masked
        .get_link(0x8000_003D, 0x4100_0003, 1.0, 0x4500_0005, 1.0)
        .is_none());
    // The game-layer helper masks the current substate with 20 bits; same result for
    // real ids.
    let clips = get_anim_data(&table(0x4500_0005), 0x8000_003D, 0x4500_0005, 0x4100_0003);
    assert_eq!(clips.len(), 1);
    assert_eq!(clips[0].anim_id, 0x0300_0A03);
    assert!(get_anim_data(&table(0x4500_0005), 0x8000_003D, 0x4400_0007, 0x4100_0003).is_empty());
}

#[test]
fn q57_get_animation_length_off_by_one() {
    let a = frames(10);
    let clip = |high: i32| AnimRef {
        anim_id: 0x0300_0001,
        low_frame: 0,
        high_frame: high,
        framerate: -30.0,
    };
    // -1: NumFrames - Low = 10 frames; explicit last index 9: 9 frames; past the end is
    // clamped to NumFrames. |framerate| is used.
    assert_eq!(get_animation_length(&a, &clip(-1)), 10.0 / 30.0);
    assert_eq!(get_animation_length(&a, &clip(-1)), 0.333_333_34);
    assert_eq!(get_animation_length(&a, &clip(9)), 0.3);
    assert_eq!(get_animation_length(&a, &clip(25)), 0.333_333_34);
}
