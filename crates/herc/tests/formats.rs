//! F1–F8: the binary readers and writers. Expected bytes are assembled by hand from the
//! layouts F1–F8 (offsets in the comments), then read, and the writers must give
//! the same bytes back.

use retroanim_herc::anim_list::SeqClass;
use retroanim_herc::formats::chassis::{ChassisRecord, Name12, CHASSIS_SIZE};
use retroanim_herc::formats::dts::{
    BasePart, DtsChunk, DtsFile, PartChunk, TAG_AN_SHAPE, TAG_BASE_PART, TAG_GROUP, TAG_PART_LIST,
};
use retroanim_herc::formats::vol::{strip_entry_prefix, with_entry_prefix, VolArchive, VolEntry};
use retroanim_herc::transform::Transform3;

/// Little-endian byte builder for hand-assembled files.
#[derive(Default)]
struct B(Vec<u8>);
impl B {
    fn h(mut self, v: i16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn hs(mut self, vs: &[i16]) -> Self {
        for v in vs {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        self
    }
    fn w(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn raw(mut self, v: &[u8]) -> Self {
        self.0.extend_from_slice(v);
        self
    }
}

/// A 134-byte ANShape file: base part (0, 0, r 100), one TSBasePart child (transform 1,
/// part 42), one cyclic sequence (tick 0, priority 3, ground 1, one frame of 10 ticks,
/// parts [0, 1], keys [0, 1]), two keyframes, rest keys [0, 0], relations (−1,0), (−1,1).
fn tiny_dts() -> Vec<u8> {
    let seq = B::default()
        .hs(&[0, 3, 1]) // tick, priority, groundMovement      (file bytes 66..72)
        .h(1)
        .hs(&[10, 0, 0]) // frameCount, frame                  (72..80)
        .h(2)
        .hs(&[0, 1]) // partCount, partIds                     (80..86)
        .hs(&[0, 1]) // keys                                   (86..90)
        .0;
    assert_eq!(seq.len(), 24);
    let anim = B::default()
        .h(1)
        .w(0x001e_0004)
        .w(24)
        .raw(&seq)
        .h(0) // transitionCount                               (90)
        .h(2) // keyCount                                      (92)
        .hs(&[0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6])
        .h(2) // nodeCount                                     (118)
        .hs(&[0, 0])
        .h(2) // relationCount                                 (124)
        .hs(&[-1, 0, -1, 1])
        .0;
    assert_eq!(anim.len(), 78);
    let shape = B::default()
        .hs(&[0, 0, 100, 0, 0, 0]) // TSBasePart fields        (8..20)
        .h(1) // child count                                   (20)
        .w(0x0014_0005)
        .w(12)
        .hs(&[1, 42, 5, 1, 2, 3]) // child                    (22..42)
        .h(0) // nodeTransformCount                            (42)
        .h(1) // sequenceCount                                 (44)
        .h(1) // frameCount[0]                                 (46)
        .w(0x001e_0002)
        .w(78)
        .raw(&anim) // ANAnimList chunk                        (48..134)
        .0;
    assert_eq!(shape.len(), 126);
    B::default().w(0x001e_0003).w(126).raw(&shape).0
}

#[test]
fn f01_vol_archive_layout_and_round_trip() {
    let chassis = vec![1u8, 2, 3];
    let shape = vec![9u8, 8];
    let mut dat = VolEntry::stored("BIPED.DAT", 0, chassis.clone()).unwrap();
    dat.dos_date = 0x1234;
    dat.dos_time = 0x5678;
    let archive = VolArchive {
        program_mask: 1,
        precedence: 3,
        directories: vec!["dat".into(), "dts".into()],
        entries: vec![
            dat,
            VolEntry::stored("BIPED.DTS", 1, shape.clone()).unwrap(),
        ],
        list_extra: Vec::new(),
    };
    let bytes = archive.write().unwrap();
    let mut expected = B::default()
        .raw(b"VOLN")
        .w(1) // program mask (+4)
        .raw(&[3, 2]) // precedence (+8), directory count (+9)
        .h(10) // directory-list size (+0x0a)
        .raw(b"dat\\\0dts\\\0") // 12..22
        .h(2) // entry count (22)
        .w(36) // entry-list size 2 × 18 (24)
        .raw(b"BIPED.DAT\0\0\0\0")
        .raw(&[0])
        .w(64) // first prefix right after the list: 28 + 36
        .raw(b"BIPED.DTS\0\0\0\0")
        .raw(&[1])
        .w(64 + 9 + 3 + 1)
        .0;
    expected.extend_from_slice(&[2, 3, 0, 0, 0, 0x34, 0x12, 0x78, 0x56, 1, 2, 3, 3]);
    expected.extend_from_slice(&[2, 2, 0, 0, 0, 0, 0, 0, 0, 9, 8, 8]);
    assert_eq!(bytes, expected);
    let back = VolArchive::read(&bytes, "SIMVOL0.VOL").unwrap();
    assert_eq!(back, archive);
    assert_eq!(back.write().unwrap(), bytes);
    assert_eq!(back.find("dat\\biped.dat").unwrap().content, chassis);
    assert_eq!(back.find("dts/BIPED.DTS").unwrap().content, shape);
    assert!(back.find("dat\\BIPED.DTS").is_none());
}

#[test]
fn f01_extracted_and_loose_files_are_both_accepted() {
    let content = [5u8, 6, 7];
    let extracted = with_entry_prefix(&content, 1, 2);
    assert_eq!(extracted, [2, 3, 0, 0, 0, 1, 0, 2, 0, 5, 6, 7, 7]);
    assert_eq!(extracted.len(), content.len() + 10);
    assert_eq!(strip_entry_prefix(&extracted), content);
    assert_eq!(strip_entry_prefix(&content), content);
}

#[test]
fn f01_bad_archives_report_offsets() {
    let e = VolArchive::read(b"VOLX", "a.vol").unwrap_err();
    assert_eq!(e.at, "record VOL header, byte 0");
    let good = VolArchive {
        program_mask: 1,
        precedence: 0,
        directories: vec!["dat".into()],
        entries: vec![VolEntry::stored("A.DAT", 0, vec![1]).unwrap()],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap();
    // Directory index (byte 12 + 5 + 2 + 4 + 13 = 36) past the one directory.
    let mut bad = good.clone();
    bad[36] = 7;
    let e = VolArchive::read(&bad, "a.vol").unwrap_err();
    assert_eq!(e.at, "record entry 0, byte 36");
    assert!(e.message.contains("directory index 7"), "{e}");
    // Truncated anywhere before the trailer: an error, never a panic (the trailer itself
    // is optional, see f01_vol_leniency_*).
    for n in 0..good.len() - 1 {
        assert!(VolArchive::read(&good[..n], "a.vol").is_err(), "prefix {n}");
    }
    // An entry list too short for its count cannot be read: refused at the size field
    // (byte 12 + 5 + 2 = 19).
    let mut short = good.clone();
    short[19] = 17;
    let e = VolArchive::read(&short, "a.vol").unwrap_err();
    assert_eq!(e.at, "record entry list, byte 19");
    assert!(e.message.contains("cannot hold 1 entries"), "{e}");
}

/// One archive, dat\ and dts\, entries A.DAT (content [1, 2], trailer 0xFF), B.DTS
/// (content [3], no trailer: B.DTS's prefix follows at once) and C.DAT ([4, 5], the last
/// entry, no trailer: the archive ends), precedence 0x0A (SHELL1.VOL / SIMPATCH.VOL),
/// compression code 3 on B.DTS, and an entry list of 58 bytes (3 × 18 + 4 extra bytes).
fn lenient_vol_bytes() -> Vec<u8> {
    let head = B::default()
        .raw(b"VOLN")
        .w(1)
        .raw(&[0x0A, 2])
        .h(10)
        .raw(b"dat\\\0dts\\\0") // 12..22
        .h(3) // entry count (22)
        .w(58) // entry-list size (24)
        .0;
    assert_eq!(head.len(), 28);
    // Data starts at 28 + 58 = 86: A at 86 (9 + 2 + 1 = 12 bytes), B at 98 (9 + 1), C at 108.
    let list = B::default()
        .raw(b"A.DAT\0\0\0\0\0\0\0\0")
        .raw(&[0])
        .w(86)
        .raw(b"B.DTS\0\0\0\0\0\0\0\0")
        .raw(&[1])
        .w(98)
        .raw(b"C.DAT\0\0\0\0\0\0\0\0")
        .raw(&[0])
        .w(108)
        .raw(&[0xEE, 0xEE, 0xEE, 0xEE])
        .0;
    assert_eq!(list.len(), 58);
    let mut v = head;
    v.extend_from_slice(&list);
    v.extend_from_slice(&[2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0xFF]);
    v.extend_from_slice(&[3, 1, 0, 0, 0, 0, 0, 0, 0, 3]);
    v.extend_from_slice(&[2, 2, 0, 0, 0, 0, 0, 0, 0, 4, 5]);
    assert_eq!(v.len(), 119);
    v
}

#[test]
fn f01_vol_leniency_optional_trailer_any_compression_longer_entry_list() {
    let bytes = lenient_vol_bytes();
    let vol = VolArchive::read(&bytes, "SHELL1.VOL").unwrap();
    assert_eq!(vol.precedence, 0x0A);
    assert_eq!(vol.entries.len(), 3);
    assert_eq!(vol.entries[0].content, [1, 2]);
    assert_eq!(vol.entries[0].trailer, Some(0xFF));
    assert_eq!(vol.entries[1].content, [3]);
    assert_eq!(vol.entries[1].compression, 3);
    assert!(!vol.entries[1].is_stored());
    assert_eq!(vol.entries[1].trailer, None);
    assert_eq!(vol.entries[2].content, [4, 5]);
    assert_eq!(vol.entries[2].trailer, None);
    assert_eq!(vol.list_extra, [0xEE; 4]);
    // The writer gives the variants back byte for byte.
    assert_eq!(vol.write().unwrap(), bytes);
}

#[test]
fn f01_vol_leniency_chassis_entry_without_trailer_or_with_trailer_ff() {
    let rec = sample_chassis();
    let content = rec.write().unwrap();
    assert_eq!(content.len(), CHASSIS_SIZE);
    let mut entry = VolEntry::stored("BIPED.DAT", 0, content.clone()).unwrap();
    for trailer in [None, Some(0xFF)] {
        entry.trailer = trailer;
        let vol = VolArchive {
            program_mask: 1,
            precedence: 5,
            directories: vec!["dat".into()],
            entries: vec![entry.clone()],
            list_extra: Vec::new(),
        };
        let bytes = vol.write().unwrap();
        // 23 header (12 + "dat\\" NUL + count + size) + 18 list + 9 prefix + 216 content
        // (+ 1 trailer).
        assert_eq!(bytes.len(), 266 + usize::from(trailer.is_some()));
        let back = VolArchive::read(&bytes, "SIMVOL0.VOL").unwrap();
        assert_eq!(back.entries[0].trailer, trailer);
        let read = ChassisRecord::read(&back.entries[0].content, "BIPED.DAT").unwrap();
        assert_eq!(read, rec);
        // The extracted file (prefix, content, trailer or none) reads too: 225 or 226 bytes.
        let extracted = &bytes[41..];
        assert_eq!(extracted.len(), 225 + usize::from(trailer.is_some()));
        assert_eq!(ChassisRecord::read(extracted, "BIPED.DAT").unwrap(), rec);
    }
}

#[test]
fn f02_dts_chunk_header_and_skip_by_length() {
    let bytes = tiny_dts();
    // tag: low u16 subtype 3, high u16 supertype 0x1e; then the payload length.
    assert_eq!(&bytes[..8], &[3, 0, 0x1e, 0, 126, 0, 0, 0]);
    let dts = DtsFile::read(&bytes, "tiny.dts").unwrap();
    assert_eq!(dts.write().unwrap(), bytes);
    // An unknown chunk is kept by length, and a second root follows it.
    let mut two = bytes.clone();
    two.extend(B::default().w(0x0014_000f).w(3).raw(&[7, 7, 7]).0);
    let dts2 = DtsFile::read(&two, "two.dts").unwrap();
    assert_eq!(dts2.roots.len(), 2);
    assert_eq!(
        dts2.roots[1],
        DtsChunk::Raw {
            tag: 0x0014_000f,
            payload: vec![7, 7, 7]
        }
    );
    assert_eq!(dts2.write().unwrap(), two);
}

#[test]
fn f03_part_payloads_and_part_lookup() {
    let dts = DtsFile::read(&tiny_dts(), "tiny.dts").unwrap();
    let DtsChunk::Shape(s) = &dts.roots[0] else {
        panic!("root 0 is not a shape")
    };
    assert_eq!(s.tag, TAG_AN_SHAPE);
    assert_eq!(
        s.base,
        BasePart {
            transform_id: 0,
            part_id: 0,
            radius: 100,
            center: [0, 0, 0]
        }
    );
    assert_eq!(s.frame_counts, vec![1]);
    assert!(s.node_transforms.is_empty());
    assert_eq!(dts.part_transform_id(42), Some(1));
    assert_eq!(dts.part_transform_id(0), Some(0));
    assert_eq!(dts.part_transform_id(7), None);
    // A TSPartList with a TSGroup child: the group's drawing data is kept verbatim, and the
    // first match in pre-order wins.
    let group = PartChunk {
        tag: TAG_GROUP,
        base: BasePart {
            transform_id: 5,
            part_id: 9,
            ..Default::default()
        },
        children: None,
        tail: vec![1, 0, 2, 0],
    };
    let list = DtsChunk::Part(PartChunk {
        tag: TAG_PART_LIST,
        base: BasePart {
            transform_id: 3,
            part_id: 8,
            ..Default::default()
        },
        children: Some(vec![
            DtsChunk::Part(group),
            DtsChunk::Part(PartChunk {
                tag: TAG_BASE_PART,
                base: BasePart {
                    transform_id: 6,
                    part_id: 9,
                    ..Default::default()
                },
                children: None,
                tail: vec![],
            }),
        ]),
        tail: vec![],
    });
    let file = DtsFile { roots: vec![list] };
    let bytes = file.write().unwrap();
    // TSPartList header, 12 base bytes, child count 2, then the group chunk (8 + 12 + 4).
    assert_eq!(&bytes[..4], &[7, 0, 0x14, 0]);
    assert_eq!(
        u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize,
        bytes.len() - 8
    );
    assert_eq!(&bytes[20..22], &[2, 0]);
    assert_eq!(&bytes[22..26], &[0x14, 0, 0x14, 0]);
    assert_eq!(&bytes[26..30], &[16, 0, 0, 0]);
    assert_eq!(DtsFile::read(&bytes, "p.dts").unwrap(), file);
    assert_eq!(file.part_transform_id(9), Some(5));
}

#[test]
fn f04_anim_list_builds_the_model() {
    let (_, list) = DtsFile::load_anim_list(&tiny_dts(), "tiny.dts").unwrap();
    assert_eq!(list.nodes().len(), 2);
    assert_eq!(list.nodes()[1].parent, -1);
    assert_eq!(list.keyframes()[1], [1, 2, 3, 4, 5, 6]);
    assert!(list.transitions().is_empty());
    // Writing the model back gives the same bytes (tick 0, ground 1, one relation per node).
    let parts = [BasePart {
        transform_id: 1,
        part_id: 42,
        radius: 5,
        center: [1, 2, 3],
    }];
    let base = BasePart {
        radius: 100,
        ..Default::default()
    };
    let back = DtsFile::from_anim_list(&list, base, &parts)
        .write()
        .unwrap();
    assert_eq!(back, tiny_dts());
}

#[test]
fn f04_faults_name_record_and_offset() {
    // keyCount (byte 92) negative.
    let mut bad = tiny_dts();
    bad[92..94].copy_from_slice(&(-1i16).to_le_bytes());
    let e = DtsFile::read(&bad, "bad.dts").unwrap_err();
    assert_eq!(e.at, "record ANAnimList, byte 92");
    // key index 5 (byte 88) past the pool: the sequence chunk (byte 58) is named.
    let mut bad = tiny_dts();
    bad[88..90].copy_from_slice(&5i16.to_le_bytes());
    let e = DtsFile::load_anim_list(&bad, "bad.dts").unwrap_err();
    assert_eq!(e.at, "record ANSequence, byte 58");
    assert!(e.message.starts_with("sequences[0]"), "{e}");
    // A relation child past the nodes.
    let mut bad = tiny_dts();
    bad[132..134].copy_from_slice(&9i16.to_le_bytes());
    let e = DtsFile::load_anim_list(&bad, "bad.dts").unwrap_err();
    assert_eq!(e.at, "record ANAnimList, byte 48");
    assert!(e.message.contains("relations[1]"), "{e}");
    // A cycle: node 1's parent is node 1.
    let mut bad = tiny_dts();
    bad[130..132].copy_from_slice(&1i16.to_le_bytes());
    assert!(DtsFile::load_anim_list(&bad, "bad.dts").is_err());
    // Truncations never panic.
    let good = tiny_dts();
    for n in 0..good.len() {
        assert!(DtsFile::read(&good[..n], "t.dts").is_err(), "prefix {n}");
    }
}

#[test]
fn f05_sequence_payload_fields() {
    let mut bytes = tiny_dts();
    // The tick (byte 66) is ignored by the model but kept by the file.
    bytes[66] = 7;
    let (dts, list) = DtsFile::load_anim_list(&bytes, "t.dts").unwrap();
    let s = &list.sequences()[0];
    assert_eq!(s.class, SeqClass::Cyclic);
    assert_eq!(s.priority, 3);
    assert!(s.ground);
    assert_eq!(s.frames[0].duration, 10);
    assert_eq!(s.columns, vec![0, 1]);
    assert_eq!(s.keys, vec![0, 1]);
    assert_eq!(dts.write().unwrap(), bytes);
    // Tag subtype 1 = ANSequence, the one-shot class; ground 0 clears the flag.
    bytes[58] = 1;
    bytes[70] = 0;
    let (_, list) = DtsFile::load_anim_list(&bytes, "t.dts").unwrap();
    assert_eq!(list.sequences()[0].class, SeqClass::OneShot);
    assert!(!list.sequences()[0].ground);
}

#[test]
fn f06_animation_uses_root_zero() {
    let mut bytes = tiny_dts();
    // A second root (an LOD) with its own list: ignored for animation.
    let mut lod = tiny_dts();
    lod[68] = 9; // its sequence priority
    bytes.extend_from_slice(&lod);
    let (dts, list) = DtsFile::load_anim_list(&bytes, "t.dts").unwrap();
    assert_eq!(dts.roots.len(), 2);
    assert_eq!(list.sequences()[0].priority, 3);
    // A file whose first root is not an ANShape has no animation.
    let plain = B::default().w(0x0014_0005).w(12).hs(&[0; 6]).0;
    let e = DtsFile::load_anim_list(&plain, "p.dts").unwrap_err();
    assert_eq!(e.at, "record root 0, byte 0");
}

#[test]
fn f07_transform_record_bytes() {
    let t = Transform3 {
        m: [1, 2, 3, 4, 5, 6, 7, 8, -1],
        kind: 3,
        t: [0x0102_0304, -2, 5],
    };
    let b = t.to_record();
    assert_eq!(&b[0..4], &[1, 0, 2, 0]);
    assert_eq!(&b[0x10..0x12], &[0xff, 0xff]);
    assert_eq!(b[0x12], 3);
    assert_eq!(b[0x13], 0);
    assert_eq!(&b[0x14..0x18], &[4, 3, 2, 1]);
    assert_eq!(&b[0x18..0x1c], &[0xfe, 0xff, 0xff, 0xff]);
    assert_eq!(&b[0x1c..0x20], &[5, 0, 0, 0]);
    assert_eq!(Transform3::from_record(&b), t);
}

fn sample_chassis() -> ChassisRecord {
    let mut part_ids = [0i8; 20];
    part_ids[..3].copy_from_slice(&[1, 2, -1]);
    ChassisRecord {
        max_turn_rate: 300,
        max_reverse_speed: -200,
        max_forward_speed: 600,
        speed_step: 20,
        turn_rate_step: 40,
        camera_part: 7,
        walk_seq: 1,
        run_seq: 2,
        step_off_forward_seq: 3,
        step_off_reverse_seq: 4,
        ride_height: 1500,
        hit_height: 3000,
        hit_radius: 900,
        twist_seq: 5,
        twist_max_rate: 512,
        twist_accel: 256,
        twist_limit: 0x3000,
        pitch_seq: 6,
        pitch_max_rate: 300,
        pitch_accel: 200,
        pitch_limit_up: 0x1000,
        pitch_limit_down: -0x800,
        walk_run_threshold: 350,
        part_ids,
        unknown_66: 0,
        death_seq: 7,
        unknown_70: 0,
        leg_count: 2,
        no_debris: 0,
        mass: 40,
        flyer: 0,
        unknown_80: 0,
        unknown_82: 0,
        weapon_mounts_destructible: 1,
        name: Name12::from_text("SAMPLE").unwrap(),
        eye_fore: 120,
        eye_lift: 80,
        orbit_fore: 0,
        orbit_height: 2000,
        zero_106: [0; 2],
        reverse_walk_run_threshold: -150,
        body_radius: 750,
        leg_shadow_bytes: [0; 10],
        turn_in_place_seq: 8,
        unknown_124: [500; 12],
        skin_id: 0,
        bytes_150: vec![0; 40],
        shield_capacity: 100,
        hud_kmh: 0,
        stride_divisor: 3,
        stride_numerator: 5,
        zero_198: [0; 6],
        debris_name: Name12::from_text("DEBRIS").unwrap(),
    }
}

#[test]
fn f08_chassis_record_offsets() {
    let rec = sample_chassis();
    let b = rec.write().unwrap();
    assert_eq!(b.len(), CHASSIS_SIZE);
    let h = |o: usize| i16::from_le_bytes([b[o], b[o + 1]]);
    assert_eq!(h(0), 300);
    assert_eq!(h(2), -200);
    assert_eq!(h(4), 600);
    assert_eq!(h(10), 7);
    assert_eq!(h(16), 3);
    assert_eq!(h(44), 350);
    assert_eq!(&b[46..49], &[1, 2, 0xff]);
    assert_eq!(h(68), 7);
    assert_eq!(h(78), 0);
    assert_eq!(&b[86..93], b"SAMPLE\0");
    assert_eq!(h(98), 120);
    assert_eq!(h(100), 80);
    assert_eq!(h(108), -150);
    assert_eq!(h(110), 750);
    assert_eq!(h(122), 8);
    assert_eq!(h(124), 500);
    assert_eq!(h(146), 500);
    assert_eq!(h(190), 100);
    assert_eq!(h(194), 3);
    assert_eq!(h(196), 5);
    assert_eq!(&b[204..210], b"DEBRIS");
    assert_eq!(rec.rec(108), Some(-150));
    assert_eq!(rec.part_id_list(), vec![1, 2]);
    let back = ChassisRecord::read(&b, "S.DAT").unwrap();
    assert_eq!(back, rec);
    // The extracted form (prefix + trailer, 226 bytes) reads the same.
    let ext = with_entry_prefix(&b, 0, 0);
    assert_eq!(ext.len(), 226);
    assert_eq!(ChassisRecord::read(&ext, "S.DAT").unwrap(), rec);
    // JSON form round-trips.
    let json = serde_json::to_string(&rec).unwrap();
    assert_eq!(ChassisRecord::from_json_str(&json, "s.json").unwrap(), rec);
}

#[test]
fn f08_bad_chassis_files() {
    let e = ChassisRecord::read(&[0u8; 100], "X.DAT").unwrap_err();
    assert_eq!(e.at, "record chassis, byte 0");
    assert!(e.message.contains("216"), "{e}");
    let e = ChassisRecord::from_json_str(r#"{"max_turn_rate": 70000}"#, "x.json").unwrap_err();
    assert_eq!(e.at, "max_turn_rate");
    // Issue 21: a fault of the document as a whole is located at its root.
    let e = ChassisRecord::from_json_str("[1, 2]", "x.json").unwrap_err();
    assert_eq!(e.at, "(root)");
    assert_eq!(e.file, "x.json");
    let e = ChassisRecord::from_json_str("{}", "x.json").unwrap_err();
    assert_eq!(e.at, "(root)");
    assert!(e.message.starts_with("missing field `"), "{e}");
    // A name with bytes after the NUL survives JSON as raw bytes.
    let mut rec = sample_chassis();
    rec.name = Name12(*b"AB\0C\0\0\0\0\0\0\0\0");
    let json = serde_json::to_value(&rec).unwrap();
    assert!(json["name"].is_array());
    let back: ChassisRecord = serde_json::from_value(json).unwrap();
    assert_eq!(back, rec);
}

#[test]
fn f03_tsshape_node_transform_list_is_one_i16_per_entry() {
    // tiny_dts with nodeTransformCount (file byte 42) = 3 and the three values 7, −1, 300
    // after frameCount[0] (bytes 48..54); the ANShape payload grows from 126 to 132 bytes.
    let mut bytes = tiny_dts();
    bytes[42..44].copy_from_slice(&3i16.to_le_bytes());
    let values: Vec<u8> = [7i16, -1, 300]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    bytes.splice(48..48, values);
    bytes[4..8].copy_from_slice(&132u32.to_le_bytes());
    assert_eq!(bytes.len(), 140);
    let (dts, list) = DtsFile::load_anim_list(&bytes, "T.DTS").unwrap();
    match &dts.roots[0] {
        DtsChunk::Shape(s) => {
            assert_eq!(s.node_transforms, [7, -1, 300]);
            assert_eq!(s.frame_counts, [1]);
            assert!(s.anim.is_some());
            assert!(s.tail.is_empty());
        }
        other => panic!("expected a shape, got {other:?}"),
    }
    assert_eq!(list.sequences().len(), 1);
    assert_eq!(dts.write().unwrap(), bytes);
}

#[test]
fn f03_tsgroup_geometry_decodes_points_indexes_surfaces_and_polygons() {
    use retroanim_herc::formats::group::{GroupGeometry, TAG_SOLID_POLY};
    // A TSGroup tail: 4 indexes, 4 points, surface-list size 4 (one 16-byte entry), 1 item;
    // indexes 0..4; a unit square in the z = 0 plane; one surface; one TSSolidPoly
    // (normal 5, centre 0, 4 vertices from index 0, colour 0).
    let tail = B::default()
        .hs(&[4, 4, 4, 1])
        .hs(&[0, 1, 2, 3])
        .hs(&[0, 0, 0, 100, 0, 0, 100, 100, 0, 0, 100, 0])
        .hs(&[7, 0, 0, 0, 7, 0, 0, 0])
        .w(TAG_SOLID_POLY)
        .w(10)
        .hs(&[5, 0, 4, 0, 0])
        .0;
    assert_eq!(tail.len(), 8 + 8 + 24 + 16 + 18);
    let group = B::default()
        .w(0x0014_0014)
        .w(12 + tail.len() as u32)
        .hs(&[1, 2, 150, 50, 50, 0])
        .raw(&tail)
        .0;
    let dts = DtsFile::read(&group, "G.DTS").unwrap();
    let DtsChunk::Part(p) = &dts.roots[0] else {
        panic!("expected a part chunk")
    };
    assert_eq!(p.tag, TAG_GROUP);
    assert_eq!(p.tail, tail);
    assert_eq!(dts.write().unwrap(), group);
    // The tail starts after the 8-byte chunk header and the 12 base bytes: file byte 20.
    let g = GroupGeometry::read(&p.tail, "G.DTS", 20).unwrap();
    assert_eq!(
        g.points,
        [[0, 0, 0], [100, 0, 0], [100, 100, 0], [0, 100, 0]]
    );
    assert_eq!(g.surfaces.len(), 1);
    assert_eq!(g.surfaces[0].front_color, 7);
    assert_eq!(g.polys.len(), 1);
    assert_eq!(g.polys[0].normal, 5);
    assert_eq!(g.polys[0].color, Some(0));
    assert_eq!(g.poly_points(0), [0, 1, 2, 3]);
    // A polygon whose vertices run past the index list: located at the item's end
    // (file byte 20 + 56 + 8 + 10 = 94).
    let mut bad = tail.clone();
    let n = bad.len();
    bad[n - 4..n - 2].copy_from_slice(&2i16.to_le_bytes());
    let e = GroupGeometry::read(&bad, "G.DTS", 20).unwrap_err();
    assert_eq!(e.at, "record item, byte 94");
    assert!(
        e.message
            .contains("polygon vertices 2..+4 outside the 4 indexes"),
        "{e}"
    );
    // Truncated anywhere: an error, never a panic.
    for k in 0..tail.len() {
        assert!(
            GroupGeometry::read(&tail[..k], "G.DTS", 20).is_err(),
            "prefix {k}"
        );
    }
}
