//! Readers and writers against literal example bytes (a tiny motion table and animation
//! typed in byte by byte, the four records of the worked example) and generated records.

use proptest::prelude::*;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::records::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// A tiny motion table, typed in line by line.
fn spec_motion_table_bytes() -> Vec<u8> {
    hex("
        99 00 00 09  3D 00 00 80  01 00 00 00  3D 00 00 80  03 00 00 41
        02 00 00 00
        03 00 3D 00  01 00 00 00  01 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41
        05 00 3D 00  01 00 01 00  02 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41
        00 00 00 00  14 AE 47 40  00 00 00 00
        01 00 00 00
        0D 00 3D 00  00 00 02 00  00 00 00 00  00 00 00 00  00 00 C0 BF
        01 00 00 00
        03 00 3D 00  01 00 00 00
        05 00 00 45  01 00 00 00  03 0A 00 03  00 00 00 00  FF FF FF FF  00 00 F0 41
    ")
}

/// A tiny animation, typed in line by line.
fn spec_animation_bytes() -> Vec<u8> {
    hex("
        01 0A 00 03  01 00 00 00  01 00 00 00  02 00 00 00
        00 00 00 00 CD CC CC 3D 00 00 00 00
        00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 CD CC CC 3D 00 00 00 00
        00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 00 00 00 00 00 00 00 00
        00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
        01 00 00 00
        01 00 00 00  01 00 00 00  23 01 00 0A
        00 00 00 00 00 00 00 00 00 00 00 00
        00 00 80 3F 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00
    ")
}

fn clip(anim_id: u32) -> AnimRef {
    AnimRef {
        anim_id,
        low_frame: 0,
        high_frame: -1,
        framerate: 30.0,
    }
}

fn ident_at(y: f32) -> AFrame {
    AFrame {
        origin: Vec3::new(0.0, y, 0.0),
        orientation: Quat::IDENTITY,
    }
}

#[test]
fn spec_3_7_motion_table_reads_to_the_documented_fields() {
    let bytes = spec_motion_table_bytes();
    assert_eq!(bytes.len(), 144);
    let t = read_motion_table(&bytes, "3.7").unwrap();
    let expected = MotionTable {
        id: 0x0900_0099,
        default_style: 0x8000_003D,
        style_defaults: vec![(0x8000_003D, 0x4100_0003)],
        cycles: vec![
            (
                0x003D_0003,
                MotionData {
                    bitfield: 0,
                    flags: 0,
                    anims: vec![clip(0x0300_0A01)],
                    velocity: Vec3::ZERO,
                    omega: Vec3::ZERO,
                },
            ),
            (
                0x003D_0005,
                MotionData {
                    bitfield: 0,
                    flags: 1,
                    anims: vec![clip(0x0300_0A02)],
                    velocity: Vec3::new(0.0, 3.12, 0.0),
                    omega: Vec3::ZERO,
                },
            ),
        ],
        modifiers: vec![(
            0x003D_000D,
            MotionData {
                bitfield: 0,
                flags: 2,
                anims: vec![],
                velocity: Vec3::ZERO,
                omega: Vec3::new(0.0, 0.0, -1.5),
            },
        )],
        links: vec![(
            0x003D_0003,
            vec![(
                0x4500_0005,
                MotionData {
                    bitfield: 0,
                    flags: 0,
                    anims: vec![clip(0x0300_0A03)],
                    velocity: Vec3::ZERO,
                    omega: Vec3::ZERO,
                },
            )],
        )],
    };
    assert_eq!(t, expected);
    assert_eq!(write_motion_table(&expected), bytes);
}

#[test]
fn spec_3_8_animation_reads_to_the_documented_fields() {
    let bytes = spec_animation_bytes();
    assert_eq!(bytes.len(), 148);
    let a = read_animation(&bytes, "3.8").unwrap();
    let expected = Animation {
        id: 0x0300_0A01,
        flags: 1,
        num_parts: 1,
        num_frames: 2,
        pos_frames: vec![ident_at(0.1), ident_at(0.1)],
        part_frames: vec![
            PartFrame {
                parts: vec![AFrame::default()],
                hooks: vec![AnimHook {
                    hook_type: 1,
                    direction: 1,
                    payload: vec![0x23, 0x01, 0x00, 0x0A],
                }],
            },
            PartFrame {
                parts: vec![AFrame::default()],
                hooks: vec![],
            },
        ],
    };
    assert_eq!(a, expected);
    assert_eq!(write_animation(&expected), bytes);
    assert_eq!(a.check(), Ok(()));
}

/// The four records of the worked example (`example` scenario), as hex lines.
const CONFORMANCE_RECORDS: [&str; 4] = [
    "010e000300000000010000000400000000000000000000000000003f0000803f00000000000000000000000000000000000000008fc2f53c0000003f2fa67f3f00000000000000003a5e563d00000000000000008fc2753d0000003ffd987e3f00000000000000000513d63d0000000000000000ec51b83d0000003f25d97c3f00000000000000005b30203e00000000",
    "020e000300000000010000000600000000000000000000000000003f0000803f00000000000000000000000000000000000000008fc2f53c0000003f2fa67f3f00000000000000003a5e563d00000000000000008fc2753d0000003ffd987e3f00000000000000000513d63d0100000001000000010000004200000a00000000ec51b83d0000003f25d97c3f00000000000000005b30203e00000000000000008fc2f53d0000003fe2677a3f0000000000000000cde6543e00000000000000009a99193e0000003fea46773f0000000000000000ee83843e00000000",
    "030e000300000000010000000300000000000000000000000000003f0000803f00000000000000000000000000000000000000008fc2f53c0000003f2fa67f3f00000000000000003a5e563d00000000000000008fc2753d0000003ffd987e3f00000000000000000513d63d00000000",
    "000e00093d000080010000003d000080030000410200000003003d0001000000010e000300000000ffffffff0000204105003d0001000100020e000300000000ffffffff00004041000000000000004000000000000000000100000003003d00010000000500004501000100030e000300000000ffffffff0000a041000000000000803f00000000",
];

#[test]
fn conformance_worked_example_records_round_trip() {
    for (i, h) in CONFORMANCE_RECORDS.iter().enumerate().take(3) {
        let bytes = hex(h);
        let a = read_animation(&bytes, "example").unwrap();
        assert_eq!(a.id, 0x0300_0E01 + i as u32);
        assert_eq!(a.num_parts, 1);
        assert_eq!(a.flags, 0);
        assert_eq!(write_animation(&a), bytes);
    }
    let e02 = read_animation(&hex(CONFORMANCE_RECORDS[1]), "e02").unwrap();
    assert_eq!(e02.num_frames, 6);
    assert_eq!(
        e02.part_frames[2].hooks,
        vec![AnimHook {
            hook_type: 1,
            direction: 1,
            payload: vec![0x42, 0x00, 0x00, 0x0A]
        }]
    );
    let bytes = hex(CONFORMANCE_RECORDS[3]);
    let t = read_motion_table(&bytes, "e00").unwrap();
    assert_eq!(t.id, 0x0900_0E00);
    assert_eq!(t.cycles[1].1.velocity, Vec3::new(0.0, 2.0, 0.0));
    assert_eq!(t.cycles[1].1.anims[0].framerate, 12.0);
    assert_eq!(t.links[0].1[0].0, 0x4500_0005);
    assert_eq!(t.links[0].1[0].1.velocity, Vec3::new(0.0, 1.0, 0.0));
    assert_eq!(write_motion_table(&t), bytes);
}

#[test]
fn errors_name_file_record_and_offset() {
    let mut bytes = spec_motion_table_bytes();
    bytes.truncate(52);
    let e = read_motion_table(&bytes, "mt.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "mt.bin: record 0x09000099, byte 52: truncated: MotionData numAnims needs 1 bytes, 0 left"
    );
    let e = read_animation(&[1, 2], "a.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a.bin: record (id unreadable), byte 0: truncated: record id needs 4 bytes, 2 left"
    );
    let mut bytes = spec_animation_bytes();
    bytes.push(0);
    let e = read_animation(&bytes, "a.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a.bin: record 0x03000a01, byte 148: 1 trailing bytes after the end of the record"
    );
}

#[test]
fn absurd_counts_are_rejected_before_allocating() {
    // Cycles count 0xFFFFFFFF right after the style defaults.
    let mut bytes = spec_motion_table_bytes()[..0x14].to_vec();
    bytes.extend_from_slice(&u32::MAX.to_le_bytes());
    let e = read_motion_table(&bytes, "mt").unwrap_err();
    assert!(
        e.to_string().starts_with(
            "mt: record 0x09000099, byte 20: Cycles count 4294967295 exceeds the bytes left"
        ),
        "{e}"
    );
    // An animation claiming 2^32-1 frames of 2^32-1 parts.
    let mut a = vec![1, 0, 0, 3, 0, 0, 0, 0];
    a.extend_from_slice(&u32::MAX.to_le_bytes());
    a.extend_from_slice(&u32::MAX.to_le_bytes());
    let e = read_animation(&a, "a").unwrap_err();
    assert!(
        e.to_string().starts_with(
            "a: record 0x03000001, byte 12: NumFrames 4294967295 with NumParts 4294967295 exceeds"
        ),
        "{e}"
    );
}

#[test]
fn duplicate_map_keys_are_errors() {
    let mut t = read_motion_table(&spec_motion_table_bytes(), "x").unwrap();
    t.cycles[1].0 = t.cycles[0].0;
    let e = read_motion_table(&write_motion_table(&t), "x").unwrap_err();
    assert_eq!(
        e.to_string(),
        "x: record 0x09000099, byte 48: duplicate key 0x003d0003 in Cycles count"
    );
}

// ---- generated records -------------------------------------------------------------

fn f32_any() -> impl Strategy<Value = f32> {
    any::<u32>()
        .prop_map(f32::from_bits)
        .prop_filter("NaN breaks ==", |f| !f.is_nan())
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (f32_any(), f32_any(), f32_any()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn frame() -> impl Strategy<Value = AFrame> {
    (vec3(), f32_any(), f32_any(), f32_any(), f32_any()).prop_map(|(o, w, x, y, z)| AFrame {
        origin: o,
        orientation: Quat::new(w, x, y, z),
    })
}

fn motion_data() -> impl Strategy<Value = MotionData> {
    (
        any::<u8>(),
        any::<u8>(),
        prop::collection::vec(
            (any::<u32>(), any::<i32>(), any::<i32>(), f32_any()).prop_map(|(a, l, h, f)| {
                AnimRef {
                    anim_id: a,
                    low_frame: l,
                    high_frame: h,
                    framerate: f,
                }
            }),
            0..4,
        ),
        vec3(),
        vec3(),
    )
        .prop_map(|(bitfield, flags, anims, v, w)| MotionData {
            bitfield,
            flags,
            anims,
            velocity: if flags & 1 != 0 { v } else { Vec3::ZERO },
            omega: if flags & 2 != 0 { w } else { Vec3::ZERO },
        })
}

fn unique_keys<T: Clone>(v: Vec<(u32, T)>) -> Vec<(u32, T)> {
    let mut out: Vec<(u32, T)> = Vec::new();
    for (k, x) in v {
        if !out.iter().any(|(j, _)| *j == k) {
            out.push((k, x));
        }
    }
    out
}

fn motion_table() -> impl Strategy<Value = MotionTable> {
    (
        any::<u32>(),
        any::<u32>(),
        prop::collection::vec((any::<u32>(), any::<u32>()), 0..3),
        prop::collection::vec((any::<u32>(), motion_data()), 0..4),
        prop::collection::vec((any::<u32>(), motion_data()), 0..3),
        prop::collection::vec(
            (
                any::<u32>(),
                prop::collection::vec((any::<u32>(), motion_data()), 0..3),
            ),
            0..3,
        ),
    )
        .prop_map(|(id, ds, sd, cy, mo, li)| MotionTable {
            id,
            default_style: ds,
            style_defaults: unique_keys(sd),
            cycles: unique_keys(cy),
            modifiers: unique_keys(mo),
            links: unique_keys(li)
                .into_iter()
                .map(|(k, inner)| (k, unique_keys(inner)))
                .collect(),
        })
}

fn hook() -> impl Strategy<Value = AnimHook> {
    (
        1u32..=26,
        -1i32..=1,
        prop::collection::vec(any::<u8>(), 40),
        any::<bool>(),
    )
        .prop_map(|(t, d, mut bytes, long_id)| {
            if t == hooks::REPLACE_OBJECT {
                bytes[3] = if long_id {
                    bytes[3] | 0x80
                } else {
                    bytes[3] & 0x7F
                };
            }
            let n = hooks::payload_len(t, &bytes).unwrap();
            bytes.truncate(n);
            AnimHook {
                hook_type: t,
                direction: d,
                payload: bytes,
            }
        })
}

fn animation() -> impl Strategy<Value = Animation> {
    (any::<u32>(), any::<u32>(), 0usize..4, 0usize..4).prop_flat_map(
        |(id, flags, parts, frames)| {
            let pos = if flags & 1 != 0 { frames } else { 0 };
            (
                prop::collection::vec(frame(), pos),
                prop::collection::vec(
                    (
                        prop::collection::vec(frame(), parts),
                        prop::collection::vec(hook(), 0..3),
                    )
                        .prop_map(|(parts, hooks)| PartFrame { parts, hooks }),
                    frames,
                ),
            )
                .prop_map(move |(pos_frames, part_frames)| Animation {
                    id,
                    flags,
                    num_parts: parts as u32,
                    num_frames: frames as u32,
                    pos_frames,
                    part_frames,
                })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_motion_tables_round_trip(t in motion_table()) {
        let bytes = write_motion_table(&t);
        let back = read_motion_table(&bytes, "gen").unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(write_motion_table(&back), bytes);
    }

    #[test]
    fn generated_animations_round_trip(a in animation()) {
        prop_assert_eq!(a.check(), Ok(()));
        let bytes = write_animation(&a);
        let back = read_animation(&bytes, "gen").unwrap();
        prop_assert_eq!(&back, &a);
        prop_assert_eq!(write_animation(&back), bytes);
    }

    #[test]
    fn readers_never_panic_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_motion_table(&bytes, "fuzz");
        let _ = read_animation(&bytes, "fuzz");
    }

    #[test]
    fn readers_never_panic_on_truncated_or_mutated_records(
        cut in 0usize..160,
        flip in 0usize..160,
        value in any::<u8>(),
    ) {
        for mut bytes in [spec_motion_table_bytes(), spec_animation_bytes()] {
            if flip < bytes.len() {
                bytes[flip] = value;
            }
            let truncated = &bytes[..cut.min(bytes.len())];
            let _ = read_motion_table(truncated, "fuzz");
            let _ = read_animation(truncated, "fuzz");
            let _ = read_motion_table(&bytes, "fuzz");
            let _ = read_animation(&bytes, "fuzz");
        }
    }
}
