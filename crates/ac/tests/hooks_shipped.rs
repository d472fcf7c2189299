//! Hook payloads as the retail client reads them (docs/ac-formats.md, "Hooks where readers
//! disagree"): SoundTweaked's float order, ReplaceObject's two forms, NoOp and unknown
//! types. Records are typed in byte by byte in the shipped layout.

use retroanim_ac::inspect::animation_text;
use retroanim_ac::records::hooks::{
    decode_payload, decode_replace_object_retail, payload_len_with, FieldValue, HookReading,
    PayloadError, ReplaceObjectForm, UnknownHooks,
};
use retroanim_ac::records::reader::read_animation_with;
use retroanim_ac::records::*;

/// Animation 0x03000001, no flags, 0 parts, 1 frame, whose frame holds `hooks`
/// (type, direction, payload) followed by `extra` bytes.
fn animation(hooks: &[(u32, i32, &[u8])], extra: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    for v in [0x0300_0001u32, 0, 0, 1, hooks.len() as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for (t, d, p) in hooks {
        b.extend_from_slice(&t.to_le_bytes());
        b.extend_from_slice(&d.to_le_bytes());
        b.extend_from_slice(p);
    }
    b.extend_from_slice(extra);
    b
}

#[test]
fn sound_tweaked_is_probability_then_priority() {
    // sound 0x0a000020, probability 0.25 (0x3e800000), priority 3.0 (0x40400000), volume 1.0.
    let payload = [
        0x20, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x80, 0x3E, 0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80,
        0x3F,
    ];
    let f = decode_payload(21, &payload).unwrap();
    assert_eq!(f[0], ("sound_id", FieldValue::U32(0x0A00_0020)));
    assert_eq!(f[1], ("probability", FieldValue::F32(0.25)));
    assert_eq!(f[2], ("priority", FieldValue::F32(3.0)));
    assert_eq!(f[3], ("volume", FieldValue::F32(1.0)));
    let bytes = animation(&[(21, 0, &payload)], &[]);
    let a = read_animation(&bytes, "t").unwrap();
    let text = animation_text(&a);
    assert!(
        text.contains("sound_tweaked (type 21, both) sound_id=0x0a000020 probability=0.25 priority=3 volume=1"),
        "{text}"
    );
    assert_eq!(write_animation(&a), bytes);
}

#[test]
fn replace_object_short_form_is_four_bytes_in_both_readings() {
    // Short form: the packed id's first u16 has bit 15 clear.
    let payload = [0x02, 0x00, 0x34, 0x12];
    let ace = HookReading::default();
    let retail = HookReading {
        replace_object: ReplaceObjectForm::Retail,
        ..HookReading::default()
    };
    assert_eq!(payload_len_with(5, &payload, ace), Ok(4));
    assert_eq!(payload_len_with(5, &payload, retail), Ok(4));
    // ACE: u16 part 2, id 0x01000000 + 0x1234.
    let f = decode_payload(5, &payload).unwrap();
    assert_eq!(f[0], ("part_index", FieldValue::U16(2)));
    assert_eq!(f[1], ("part_id", FieldValue::U32(0x0100_1234)));
    // Retail: u8 part 2, id from byte 1 (0x3400 → 0x01003400), one padding byte.
    assert_eq!(
        decode_replace_object_retail(&payload),
        Some((2, 0x0100_3400))
    );
    let bytes = animation(&[(5, 1, &payload)], &[]);
    for reading in [ace, retail] {
        let a = read_animation_with(&bytes, "t", reading).unwrap();
        assert_eq!(a.part_frames[0].hooks[0].payload, payload);
        assert_eq!(write_animation(&a), bytes);
    }
    let text = animation_text(&read_animation(&bytes, "t").unwrap());
    assert!(
        text.contains("replace_object (type 5, forward) part_index=2 part_id=0x01001234 (retail reading: part_index=2 part_id=0x01003400)"),
        "{text}"
    );
}

#[test]
fn replace_object_long_form_is_six_bytes_for_ace_and_eight_for_retail() {
    // Retail long form: part 1, packed id 0x8001 0x0002 (→ 0x01010002), 3 padding bytes.
    let retail_payload = [0x01, 0x01, 0x80, 0x02, 0x00, 0x00, 0x00, 0x00];
    let retail = HookReading {
        replace_object: ReplaceObjectForm::Retail,
        ..HookReading::default()
    };
    assert_eq!(payload_len_with(5, &retail_payload, retail), Ok(8));
    assert_eq!(
        decode_replace_object_retail(&retail_payload),
        Some((1, 0x0101_0002))
    );
    let bytes = animation(&[(5, 0, &retail_payload)], &[]);
    let a = read_animation_with(&bytes, "t", retail).unwrap();
    assert_eq!(a.part_frames[0].hooks[0].payload, retail_payload);
    assert_eq!(write_animation(&a), bytes);
    // ACE's form of the same hook: u16 part 1, packed id 0x8001 0x0002: 6 bytes.
    let ace_payload = [0x01, 0x00, 0x01, 0x80, 0x02, 0x00];
    assert_eq!(
        payload_len_with(5, &ace_payload, HookReading::default()),
        Ok(6)
    );
    let bytes = animation(&[(5, 0, &ace_payload)], &[]);
    let a = read_animation(&bytes, "t").unwrap();
    assert_eq!(a.part_frames[0].hooks[0].payload, ace_payload);
    // The retail reading of ACE's 6 bytes sees a short id at byte 1 (0x0100) and stops
    // after 4: the two readings disagree by 2 bytes and the rest would desynchronise.
    assert_eq!(payload_len_with(5, &ace_payload, retail), Ok(4));
    assert_eq!(
        payload_len_with(5, &ace_payload[..2], retail),
        Err(PayloadError::Truncated { needed: 3 })
    );
}

#[test]
fn no_op_hook_reads_no_payload_and_round_trips() {
    // NoOp (0) between two sounds: 8 bytes, no payload.
    let sound = [0x10, 0x00, 0x00, 0x0A];
    let bytes = animation(&[(1, 0, &sound), (0, 0, &[]), (1, 1, &sound)], &[]);
    let a = read_animation(&bytes, "t").unwrap();
    let hooks = &a.part_frames[0].hooks;
    assert_eq!(hooks.len(), 3);
    assert_eq!(hooks[1].hook_type, 0);
    assert!(hooks[1].payload.is_empty());
    assert_eq!(hooks[2].payload, sound);
    assert_eq!(write_animation(&a), bytes);
    assert!(animation_text(&a).contains("no_op (type 0, both)\n"));
}

#[test]
fn unknown_hook_types_are_refused_by_default_and_read_empty_the_retail_way() {
    // Type 30, then 4 bytes that the retail client would read as the next hook's start.
    let bytes = animation(&[(30, 0, &[])], &[]);
    let e = read_animation(&bytes, "u.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "u.bin: record 0x03000001, byte 20: unknown hook type 30: its payload length is unknown, the record cannot be parsed further"
    );
    let retail = HookReading {
        unknown: UnknownHooks::NoPayload,
        ..HookReading::default()
    };
    let a = read_animation_with(&bytes, "u.bin", retail).unwrap();
    assert_eq!(a.part_frames[0].hooks[0].hook_type, 30);
    assert!(a.part_frames[0].hooks[0].payload.is_empty());
    assert_eq!(write_animation(&a), bytes);
    assert!(animation_text(&a).contains("unknown (type 30, both) payload 0 bytes\n"));
}
