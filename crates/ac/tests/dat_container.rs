//! The DAT container reader (docs/ac-formats.md) on containers built by the
//! project's own writer in a temporary directory (no game data is shipped).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use proptest::prelude::*;
use retroanim_ac::records::dat::{write_dat, DatFile, HEADER_OFFSET, NODE_SIZE};
use retroanim_ac::records::*;
use retroanim_core::mutation::{edits, mutated};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A file in a fresh temporary directory, removed on drop.
struct TempDat {
    dir: PathBuf,
    path: PathBuf,
}

impl TempDat {
    fn new(bytes: &[u8]) -> TempDat {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("retroanim-dat-{}-{n}", std::process::id()));
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

fn sample_records() -> Vec<(u32, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
    let mut out: Vec<(u32, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let id = u32::from_str_radix(name.trim_end_matches(".bin"), 16).unwrap();
            (id, std::fs::read(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn header_fields_at_0x140() {
    let bytes = write_dat(&[(0x0300_0001, vec![1, 2, 3, 4])], 64, 61);
    let t = TempDat::new(&bytes);
    let dat = DatFile::open(&t.path).unwrap();
    let h = dat.header();
    assert_eq!(h.block_size, 64);
    assert_eq!(h.file_size as usize, bytes.len());
    assert_eq!(h.data_set, 1);
    // Root node written last: its offset is the last NODE_SIZE bytes' chain start.
    assert!(h.btree as usize > HEADER_OFFSET as usize);
    assert_eq!(
        u32::from_le_bytes(bytes[0x160..0x164].try_into().unwrap()),
        h.btree
    );
}

#[test]
fn store_from_dat_loads_the_sample_like_the_record_directory() {
    let records = sample_records();
    let t = TempDat::new(&write_dat(&records, 1024, 61));
    let mut dat = RecordStore::from_dat(&t.path).unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
    let mut files = RecordStore::from_dir(dir);
    assert_eq!(
        *dat.motion_table(0x0900_0001).unwrap(),
        *files.motion_table(0x0900_0001).unwrap()
    );
    for (id, _) in records.iter().filter(|(id, _)| id >> 24 == 0x03) {
        assert_eq!(*dat.animation(*id).unwrap(), *files.animation(*id).unwrap());
    }
    let e = dat.animation(0x0300_0999).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: record 0x03000999: not found", t.path.display())
    );
}

#[test]
fn deep_directory_and_small_blocks() {
    // 3 entries per node and 12-byte blocks (8 payload bytes): a 4-level tree and
    // records spread over hundreds of chained blocks.
    let records = sample_records();
    let t = TempDat::new(&write_dat(&records, 12, 3));
    let mut dat = DatFile::open(&t.path).unwrap();
    for (id, bytes) in &records {
        assert_eq!(&dat.read_record(*id).unwrap(), bytes, "0x{id:08x}");
    }
    let listed: Vec<u32> = dat.entries().unwrap().iter().map(|e| e.object_id).collect();
    let ids: Vec<u32> = records.iter().map(|(id, _)| *id).collect();
    assert_eq!(listed, ids);
    for missing in [0, 0x0300_0100, 0x0300_0106, 0x0900_0002, u32::MAX] {
        assert_eq!(dat.find(missing).unwrap(), None, "0x{missing:08x}");
    }
}

#[test]
fn bad_containers_are_clear_errors() {
    let t = TempDat::new(&[0u8; 100]);
    let e = DatFile::open(&t.path).err().unwrap();
    assert!(
        e.to_string()
            .ends_with("100 bytes is too short for a DAT header (needs 400)"),
        "{e}"
    );

    let mut bytes = write_dat(&[(0x0300_0001, vec![7; 100])], 64, 61);
    bytes[0x160..0x164].copy_from_slice(&0xFFFF_FF00u32.to_le_bytes());
    let t = TempDat::new(&bytes);
    let e = DatFile::open(&t.path).err().unwrap();
    assert!(
        e.to_string()
            .contains("directory root offset 0xffffff00 is outside the file"),
        "{e}"
    );

    // A record whose entry claims more bytes than the file holds.
    let bytes = write_dat(&[(0x0300_0001, vec![7; 100])], 64, 61);
    let root = u32::from_le_bytes(bytes[0x160..0x164].try_into().unwrap()) as usize;
    let mut broken = bytes.clone();
    // Entry 0 FileSize sits after 62 branches, the count and 3 entry words; the node's
    // first block holds 60 payload bytes, so walk the chain to find it.
    let size_at = node_byte(&broken, root, 64, 62 * 4 + 4 + 12);
    broken[size_at..size_at + 4].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let t = TempDat::new(&broken);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.read_record(0x0300_0001).unwrap_err();
    assert!(
        e.to_string()
            .contains("size 2147483647 exceeds the file size"),
        "{e}"
    );

    // A directory whose root lists itself as its first child: a cycle.
    let mut cyclic = bytes.clone();
    let b0 = node_byte(&cyclic, root, 64, 0);
    cyclic[b0..b0 + 4].copy_from_slice(&(root as u32).to_le_bytes());
    let t = TempDat::new(&cyclic);
    let mut dat = DatFile::open(&t.path).unwrap();
    // The error names the node and the branch that closes the cycle (issue 21).
    let e = dat.find(0x0300_0000).unwrap_err();
    let want = format!(
        "directory node at 0x{root:x}: branch 0 leads back to node 0x{root:x}, already visited (a cycle)"
    );
    assert!(e.to_string().ends_with(&want), "{e}");
    let e = dat.entries().unwrap_err();
    assert!(e.to_string().ends_with(&want), "{e}");

    // A block chain that ends early.
    let mut short = bytes;
    let first = node_byte(&short, root, 64, 62 * 4 + 4 + 8);
    let rec = u32::from_le_bytes(short[first..first + 4].try_into().unwrap()) as usize;
    short[rec..rec + 4].copy_from_slice(&0u32.to_le_bytes());
    let t = TempDat::new(&short);
    let mut dat = DatFile::open(&t.path).unwrap();
    let e = dat.read_record(0x0300_0001).unwrap_err();
    assert!(e.to_string().contains("block chain ends at"), "{e}");
}

/// Absolute file offset of payload byte `n` of the object whose chain starts at `start`.
fn node_byte(bytes: &[u8], start: usize, block: usize, n: usize) -> usize {
    let mut at = start;
    let mut n = n;
    while n >= block - 4 {
        at = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        n -= block - 4;
    }
    at + 4 + n
}

#[test]
fn node_size_is_1716() {
    assert_eq!(NODE_SIZE, 1716);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_record_set_reads_back(
        ids in prop::collection::btree_set(any::<u32>(), 0..80),
        block in 8u32..200,
        fan in 1usize..=61,
        len in 0usize..300,
    ) {
        let records: Vec<(u32, Vec<u8>)> = ids
            .iter()
            .map(|id| (*id, (0..(len + (*id as usize % 37))).map(|i| (i as u32 ^ id) as u8).collect()))
            .collect();
        let t = TempDat::new(&write_dat(&records, block, fan));
        let mut dat = DatFile::open(&t.path).unwrap();
        for (id, bytes) in &records {
            prop_assert_eq!(&dat.read_record(*id).unwrap(), bytes);
        }
        let absent = (0u32..).find(|i| !ids.contains(i)).unwrap();
        prop_assert!(dat.find(absent).unwrap().is_none());
    }

    #[test]
    fn mutated_containers_never_panic(at in 0usize..4000, value in any::<u32>(), cut in 300usize..4000) {
        let mut bytes = write_dat(&[(0x0900_0001, vec![1; 40]), (0x0300_0001, vec![2; 90])], 32, 61);
        if at + 4 <= bytes.len() {
            bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        }
        bytes.truncate(cut);
        let t = TempDat::new(&bytes);
        if let Ok(mut dat) = DatFile::open(&t.path) {
            let _ = dat.read_record(0x0300_0001);
            let _ = dat.read_record(0x0900_0001);
            let _ = dat.entries();
        }
    }

    #[test]
    fn mutated_sample_containers_never_panic(es in edits(), block in prop_oneof![Just(12u32), Just(64), Just(1024)]) {
        // The sample record set in a deep tree (3 entries per node) or a flat one, with
        // byte edits anywhere: header, directory nodes, block chains, record bytes.
        let records = sample_records();
        let fan = if block == 12 { 3 } else { 61 };
        let t = TempDat::new(&mutated(&write_dat(&records, block, fan), &es));
        if let Ok(mut dat) = DatFile::open(&t.path) {
            if let Ok(entries) = dat.entries() {
                for e in entries.iter().take(64) {
                    let _ = dat.read_record(e.object_id);
                }
            }
        }
        if let Ok(mut store) = RecordStore::from_dat(&t.path) {
            let _ = store.motion_table(0x0900_0001);
            for (id, _) in records.iter().filter(|(id, _)| id >> 24 == 0x03) {
                let _ = store.animation(*id);
            }
        }
    }
}
