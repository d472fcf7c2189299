//! The two shipped DAT layouts and the container details of docs/ac-formats.md section 3:
//! the magic check, free blocks (link bit 31), `use_lru` as one byte and three padding
//! bytes, entry flags (compression bit, pack version) and zlib-compressed entries. Every
//! container is written by the project's writer in the shipped layout, in a temporary
//! directory.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::dat::{
    inflate_record, write_dat, write_dat_with, DatFile, DatLayout, DatRecord, DatWriteOptions,
    FREE_BIT, PRE_TOD_NODE_SIZE,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

struct TempDat {
    dir: PathBuf,
    path: PathBuf,
}

impl TempDat {
    fn new(bytes: &[u8]) -> TempDat {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("retroanim-datl-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("client_portal.dat");
        std::fs::write(&path, bytes).unwrap();
        TempDat { dir, path }
    }
}

impl Drop for TempDat {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn dat_magic_is_checked_and_a_wrong_magic_is_named() {
    // A Starsiege/Earthsiege DTS file: ANShape tag 0x001e0003 first, 512 bytes long.
    let mut dts = vec![0u8; 512];
    dts[..4].copy_from_slice(&0x001e_0003u32.to_le_bytes());
    dts[0x140..0x144].copy_from_slice(&0x0014_0005u32.to_le_bytes());
    let t = TempDat::new(&dts);
    let e = DatFile::open(&t.path).err().unwrap().to_string();
    assert!(
        e.ends_with("not a DAT container: magic at 0x140 is 0x00140005 and at 0x12c (the pre-2005 layout) is 0x00000000, expected 0x00005442"),
        "{e}"
    );
    // A good container with its magic overwritten is refused the same way.
    let mut bytes = write_dat(&[(0x0300_0001, vec![1, 2, 3, 4])], 64, 61);
    bytes[0x140..0x144].copy_from_slice(&0x4244u32.to_le_bytes());
    let t = TempDat::new(&bytes);
    let e = DatFile::open(&t.path).err().unwrap().to_string();
    assert!(e.contains("magic at 0x140 is 0x00004244"), "{e}");
}

#[test]
fn dat_header_reads_block_size_engine_version_and_minor_version() {
    // The end-of-retail portal header: block size 1024, engine version 110, minor 6657.
    let bytes = write_dat_with(
        &[DatRecord::new(0x0300_0001, vec![9; 10])],
        &DatWriteOptions {
            engine_pack_version: 110,
            version_minor: 6657,
            ..DatWriteOptions::default()
        },
    );
    assert_eq!(u32_at(&bytes, 0x144), 1024);
    assert_eq!(u32_at(&bytes, 0x174), 110);
    assert_eq!(u32_at(&bytes, 0x18C), 6657);
    let t = TempDat::new(&bytes);
    let dat = DatFile::open(&t.path).unwrap();
    let h = dat.header();
    assert_eq!(h.layout, DatLayout::Current);
    assert_eq!(h.block_size, 1024);
    assert_eq!(h.engine_pack_version, 110);
    assert_eq!(h.version_minor, 6657);
}

#[test]
fn dat_use_lru_is_one_byte_and_three_padding_bytes() {
    let bytes = write_dat_with(
        &[DatRecord::new(0x0300_0001, vec![1])],
        &DatWriteOptions {
            use_lru_padding: [0xCD; 3],
            ..DatWriteOptions::default()
        },
    );
    assert_eq!(&bytes[0x16C..0x170], &[0x00, 0xCD, 0xCD, 0xCD]);
    let t = TempDat::new(&bytes);
    let dat = DatFile::open(&t.path).unwrap();
    // Read as a u32 this would be 0xCDCDCD00.
    assert_eq!(dat.header().use_lru, 0);
    assert_eq!(dat.header().use_lru_padding, [0xCD; 3]);
}

#[test]
fn dat_free_blocks_have_bit_31_and_a_chain_into_them_is_a_located_error() {
    let recs = [DatRecord::new(0x0300_0001, vec![5; 130])];
    let bytes = write_dat_with(
        &recs,
        &DatWriteOptions {
            block_size: 64,
            free_blocks: 3,
            ..DatWriteOptions::default()
        },
    );
    // Layout: record at 0x400 (130 bytes = 3 blocks of 60: 0x400, 0x440, 0x480), root node
    // 0x4C0 (1716 bytes = 29 blocks, up to 0xC00), free blocks at 0xC00, 0xC40, 0xC80.
    assert_eq!(u32_at(&bytes, 0x154), 0xC00); // free head
    assert_eq!(u32_at(&bytes, 0x158), 0xC80); // free tail
    assert_eq!(u32_at(&bytes, 0x15C), 3); // free count
    assert_eq!(u32_at(&bytes, 0xC00), 0x8000_0C40);
    assert_eq!(u32_at(&bytes, 0xC40), 0x8000_0C80);
    assert_eq!(u32_at(&bytes, 0xC80), 0x8000_0000);
    let t = TempDat::new(&bytes);
    let mut dat = DatFile::open(&t.path).unwrap();
    assert_eq!(dat.free_blocks().unwrap(), [0xC00, 0xC40, 0xC80]);
    assert_eq!(dat.read_record(0x0300_0001).unwrap(), vec![5; 130]);

    // The record's first block now links into the free list, and 70 bytes need more
    // than the free block's 60: its link would be followed.
    let mut broken = bytes.clone();
    broken[0x400..0x404].copy_from_slice(&0xC00u32.to_le_bytes());
    let t = TempDat::new(&broken);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.read_record(0x0300_0001).unwrap_err().to_string();
    assert!(
        e.ends_with("object at 0x400: block 0xc00 is a free block (link 0x80000c40 has bit 31 set), 70 of 130 bytes still unread"),
        "{e}"
    );
    assert_eq!(FREE_BIT, 0x8000_0000);
}

#[test]
fn dat_final_block_link_is_never_followed_so_bit_31_there_is_read() {
    // 130 bytes in blocks of 64 (60 payload): 0x400 -> 0x440 -> 0x480, the last holding
    // 10 bytes. Its link is never followed, so bit 31 there does not refuse the record.
    let plain: Vec<u8> = (0..130u8).collect();
    let bytes = write_dat_with(
        &[DatRecord::new(0x0300_0001, plain.clone())],
        &DatWriteOptions {
            block_size: 64,
            ..DatWriteOptions::default()
        },
    );
    assert_eq!(u32_at(&bytes, 0x400), 0x440);
    assert_eq!(u32_at(&bytes, 0x440), 0x480);
    assert_eq!(u32_at(&bytes, 0x480), 0);
    for link in [0x8000_0000u32, 0x8000_0C40, 0xFFFF_FFFF] {
        let mut marked = bytes.clone();
        marked[0x480..0x484].copy_from_slice(&link.to_le_bytes());
        let t = TempDat::new(&marked);
        let mut dat = DatFile::open(&t.path).unwrap();
        assert_eq!(
            dat.read_record(0x0300_0001).unwrap(),
            plain,
            "link 0x{link:08x}"
        );
    }
    // The same bit on the middle block, whose link is followed, is still refused.
    let mut marked = bytes.clone();
    marked[0x440..0x444].copy_from_slice(&0x8000_0480u32.to_le_bytes());
    let t = TempDat::new(&marked);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.read_record(0x0300_0001).unwrap_err().to_string();
    assert!(
        e.ends_with("object at 0x400: block 0x440 is a free block (link 0x80000480 has bit 31 set), 70 of 130 bytes still unread"),
        "{e}"
    );
}

#[test]
fn write_dat_writes_pack_version_2_and_the_retail_transaction_bytes() {
    // One 4-byte record in 1024-byte blocks: record at 0x400, root node at 0x800. The
    // node's first entry follows its link (4), 62 branches (248) and the count (4): its
    // flags word is at 0x800 + 256 = 0x900, pack version 2 in bits 16-31, not compressed.
    let bytes = write_dat(&[(0x0300_0001, vec![1, 2, 3, 4])], 1024, 61);
    assert_eq!(bytes[0x100..0x104], [0x00, 0x50, 0x4C, 0x00]);
    assert!(bytes[..0x100].iter().all(|&b| b == 0));
    assert!(bytes[0x104..0x140].iter().all(|&b| b == 0));
    assert_eq!(u32_at(&bytes, 0x160), 0x800); // B-tree root
    assert_eq!(u32_at(&bytes, 0x904), 0x0300_0001);
    assert_eq!(u32_at(&bytes, 0x900), 0x0002_0000);
    let t = TempDat::new(&bytes);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.find(0x0300_0001).unwrap().unwrap();
    assert_eq!(e.pack_version(), 2);
    assert!(!e.is_compressed());
    assert_eq!(dat.read_record(0x0300_0001).unwrap(), [1, 2, 3, 4]);
    // The pre-2005 layout gets the same transaction bytes (its header starts at 0x12C).
    let old = write_dat_with(
        &[DatRecord::new(0x0300_0001, vec![1])],
        &DatWriteOptions {
            layout: DatLayout::PreTod,
            ..DatWriteOptions::default()
        },
    );
    assert_eq!(old[0x100..0x104], [0x00, 0x50, 0x4C, 0x00]);
    assert_eq!(u32_at(&old, 0x12C), 0x5442);
}

#[test]
fn dat_entry_flags_compressed_bit_and_pack_version() {
    let plain: Vec<u8> = (0..200u32).map(|i| (i % 7) as u8).collect();
    let recs = [
        DatRecord {
            compressed: true,
            pack_version: 3,
            ..DatRecord::new(0x0300_0002, plain.clone())
        },
        DatRecord::new(0x0300_0003, vec![1, 2, 3]),
    ];
    let bytes = write_dat_with(&recs, &DatWriteOptions::default());
    let t = TempDat::new(&bytes);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.find(0x0300_0002).unwrap().unwrap();
    assert_eq!(e.bit_flags, 0x0003_0001);
    assert!(e.is_compressed());
    assert_eq!(e.pack_version(), 3);
    // Stored: [u32 200][zlib stream], the stream starting with a zlib header (0x78).
    let stored = dat.read_object(e.file_offset, e.file_size).unwrap();
    assert_eq!(&stored[..5], &[200, 0, 0, 0, 0x78]);
    assert!(stored.len() < 200);
    assert_eq!(dat.read_record(0x0300_0002).unwrap(), plain);
    let f = dat.find(0x0300_0003).unwrap().unwrap();
    assert_eq!(f.bit_flags, 0x0002_0000);
    assert!(!f.is_compressed());
    assert_eq!(dat.read_record(0x0300_0003).unwrap(), [1, 2, 3]);
}

#[test]
fn dat_compressed_payload_is_size_then_a_zlib_stream() {
    // Typed by hand: size 5, zlib header 78 01, one final stored DEFLATE block (01, LEN 5,
    // NLEN !5), "hello", Adler-32 0x062c0215 big-endian.
    let stored = [
        5, 0, 0, 0, 0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF, b'h', b'e', b'l', b'l', b'o', 0x06,
        0x2C, 0x02, 0x15,
    ];
    assert_eq!(inflate_record(&stored).unwrap(), b"hello");
    // A size that disagrees with the stream, a broken stream, a short payload: errors.
    let mut wrong = stored;
    wrong[0] = 6;
    assert_eq!(
        inflate_record(&wrong).unwrap_err(),
        "zlib stream inflates to 5 bytes, the header says 6"
    );
    let mut bad = stored;
    bad[19] ^= 1;
    assert!(inflate_record(&bad)
        .unwrap_err()
        .starts_with("zlib stream at byte 4:"));
    assert_eq!(
        inflate_record(&[1, 0]).unwrap_err(),
        "2 bytes cannot hold the uncompressed size"
    );
    // Inside a container the error names the file, record, size and offset.
    let mut bytes = write_dat_with(
        &[DatRecord {
            compressed: true,
            ..DatRecord::new(0x0300_0002, vec![3; 50])
        }],
        &DatWriteOptions::default(),
    );
    bytes[0x404] ^= 0xFF; // the uncompressed size's low byte: 50 -> 205
    let t = TempDat::new(&bytes);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.read_record(0x0300_0002).unwrap_err().to_string();
    assert!(e.contains("record 0x03000002 (compressed, "), "{e}");
    assert!(
        e.ends_with("at 0x400): zlib stream inflates to 50 bytes, the header says 205"),
        "{e}"
    );
}

#[test]
fn dat_pre_june_2005_layout_magic_at_0x12c_12_byte_entries_984_byte_nodes() {
    let recs = [
        DatRecord::new(0x0900_0001, vec![0x11; 30]),
        DatRecord::new(0x0300_0001, vec![0x22; 2000]),
    ];
    let bytes = write_dat_with(
        &recs,
        &DatWriteOptions {
            layout: DatLayout::PreTod,
            iteration: 2112,
            free_blocks: 1,
            ..DatWriteOptions::default()
        },
    );
    assert_eq!(PRE_TOD_NODE_SIZE, 984);
    assert_eq!(u32_at(&bytes, 0x12C), 0x5442);
    assert_eq!(u32_at(&bytes, 0x130), 1024);
    assert_eq!(u32_at(&bytes, 0x134) as usize, bytes.len());
    assert_eq!(u32_at(&bytes, 0x138), 2112);
    // Data from 0x400: 0x03000001 (2000 bytes, blocks 0x400 and 0x800), 0x09000001 at
    // 0xC00, the root node at 0x1000 (984 bytes: one block, link 0), free block 0x1400.
    assert_eq!(u32_at(&bytes, 0x13C), 0x1400);
    assert_eq!(u32_at(&bytes, 0x144), 1);
    assert_eq!(u32_at(&bytes, 0x148), 0x1000);
    assert_eq!(u32_at(&bytes, 0x140 + 0x20), 0); // nothing at the later root position
    let node = 0x1000 + 4;
    assert_eq!(u32_at(&bytes, node - 4), 0);
    assert_eq!(u32_at(&bytes, node + 248), 2); // count
    let e0 = node + 252;
    assert_eq!(
        [
            u32_at(&bytes, e0),
            u32_at(&bytes, e0 + 4),
            u32_at(&bytes, e0 + 8)
        ],
        [0x0300_0001, 0x400, 2000]
    );
    assert_eq!(
        [
            u32_at(&bytes, e0 + 12),
            u32_at(&bytes, e0 + 16),
            u32_at(&bytes, e0 + 20)
        ],
        [0x0900_0001, 0xC00, 30]
    );
    let t = TempDat::new(&bytes);
    let mut dat = DatFile::open(&t.path).unwrap();
    assert_eq!(dat.header().layout, DatLayout::PreTod);
    assert_eq!(dat.header().iteration, 2112);
    assert_eq!(dat.header().btree, 0x1000);
    assert_eq!(dat.read_record(0x0300_0001).unwrap(), vec![0x22; 2000]);
    assert_eq!(dat.read_record(0x0900_0001).unwrap(), vec![0x11; 30]);
    let ids: Vec<u32> = dat.entries().unwrap().iter().map(|e| e.object_id).collect();
    assert_eq!(ids, [0x0300_0001, 0x0900_0001]);
    assert_eq!(dat.free_blocks().unwrap(), [0x1400]);
}

#[test]
fn dat_pre_june_2005_deep_directory_round_trips() {
    let recs: Vec<DatRecord> = (0..40u32)
        .map(|i| DatRecord::new(0x0300_0100 + i, vec![i as u8; (i * 13) as usize]))
        .collect();
    let bytes = write_dat_with(
        &recs,
        &DatWriteOptions {
            layout: DatLayout::PreTod,
            block_size: 256,
            max_entries: 3,
            ..DatWriteOptions::default()
        },
    );
    let t = TempDat::new(&bytes);
    let mut dat = DatFile::open(&t.path).unwrap();
    for r in &recs {
        assert_eq!(dat.read_record(r.id).unwrap(), r.bytes, "0x{:08x}", r.id);
    }
    assert_eq!(dat.find(0x0300_0099).unwrap(), None);
}

#[test]
fn dat_inspect_listing_names_layout_versions_and_compressed_entries() {
    use retroanim_ac::inspect::inspect_file;
    let bytes = write_dat_with(
        &[
            DatRecord {
                compressed: true,
                ..DatRecord::new(0x0300_0002, vec![4; 64])
            },
            DatRecord::new(0x0900_0001, vec![1; 8]),
        ],
        &DatWriteOptions {
            engine_pack_version: 110,
            version_minor: 6657,
            ..DatWriteOptions::default()
        },
    );
    let t = TempDat::new(&bytes);
    let text = inspect_file(&t.path, None, false).unwrap();
    let stored = DatFile::open(&t.path)
        .unwrap()
        .find(0x0300_0002)
        .unwrap()
        .unwrap()
        .file_size;
    assert!(text.contains(", 2 records\n  layout current (header at 0x140), engine pack version 110, version minor 6657, use_lru 0\n"), "{text}");
    assert!(
        text.contains(&format!(
            "  0x03000002 {stored:>8} bytes  Animation  (compressed)\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("  0x09000001        8 bytes  MotionTable\n"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&inspect_file(&t.path, None, true).unwrap()).unwrap();
    assert_eq!(json["layout"], "current");
    assert_eq!(json["records"][0]["compressed"], true);
    assert_eq!(json["records"][0]["pack_version"], 2);

    let old = write_dat_with(
        &[DatRecord::new(0x0900_0001, vec![1; 8])],
        &DatWriteOptions {
            layout: DatLayout::PreTod,
            ..DatWriteOptions::default()
        },
    );
    let t = TempDat::new(&old);
    let text = inspect_file(&t.path, None, false).unwrap();
    assert!(
        text.contains("  layout pre-2005 (header at 0x12c),"),
        "{text}"
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn any_container_of_either_layout_reads_back(
            pre_tod in any::<bool>(),
            block in 16u32..300,
            fan in 1usize..8,
            free in 0usize..4,
            recs in prop::collection::btree_map(any::<u32>(), (prop::collection::vec(any::<u8>(), 0..300), any::<bool>()), 0..20),
        ) {
            let records: Vec<DatRecord> = recs
                .iter()
                .map(|(id, (b, c))| DatRecord { compressed: *c, ..DatRecord::new(*id, b.clone()) })
                .collect();
            let layout = if pre_tod { DatLayout::PreTod } else { DatLayout::Current };
            let bytes = write_dat_with(&records, &DatWriteOptions {
                layout, block_size: block, max_entries: fan, free_blocks: free,
                ..DatWriteOptions::default()
            });
            let t = TempDat::new(&bytes);
            let mut dat = DatFile::open(&t.path).unwrap();
            prop_assert_eq!(dat.header().layout, layout);
            prop_assert_eq!(dat.free_blocks().unwrap().len(), free);
            for r in &records {
                prop_assert_eq!(&dat.read_record(r.id).unwrap(), &r.bytes);
            }
            prop_assert_eq!(dat.entries().unwrap().len(), records.len());
        }

        #[test]
        fn mutated_containers_of_either_layout_never_panic(
            pre_tod in any::<bool>(),
            edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        ) {
            let records = [
                DatRecord { compressed: true, ..DatRecord::new(0x0300_0001, vec![7; 300]) },
                DatRecord::new(0x0900_0001, vec![1; 40]),
            ];
            let layout = if pre_tod { DatLayout::PreTod } else { DatLayout::Current };
            let mut bytes = write_dat_with(&records, &DatWriteOptions {
                layout, block_size: 64, free_blocks: 2, ..DatWriteOptions::default()
            });
            let n = bytes.len();
            for (at, v) in edits {
                bytes[at % n] = v;
            }
            let t = TempDat::new(&bytes);
            if let Ok(mut dat) = DatFile::open(&t.path) {
                let _ = dat.entries();
                let _ = dat.free_blocks();
                for r in &records {
                    let _ = dat.read_record(r.id);
                }
            }
        }
    }
}
