#![no_main]
//! Both DAT layouts, with compressed entries and free blocks: the input describes a
//! container (layout, block size, node fan-out, free blocks, records and which are
//! compressed); it is written, every record must read back as written, and then the
//! container's bytes are overwritten where the rest of the input says and read again
//! (which may fail, never panic or hang).
use libfuzzer_sys::fuzz_target;
use retroanim_ac::records::dat::{write_dat_with, DatFile, DatLayout, DatRecord, DatWriteOptions};

fuzz_target!(|data: &[u8]| {
    let [head0, head1, head2, head3, rest @ ..] = data else { return };
    let opts = DatWriteOptions {
        layout: if head0 & 1 == 0 { DatLayout::Current } else { DatLayout::PreTod },
        block_size: 8 + u32::from(*head1) * 4,
        max_entries: 1 + usize::from(*head2) % 61,
        free_blocks: usize::from(head0 >> 1) % 16,
        ..DatWriteOptions::default()
    };
    // Records: [id byte, flags, length, bytes...] until the input or 32 records run out;
    // what is left is (offset, value) overwrites.
    let count = usize::from(*head3) % 33;
    let mut records = Vec::new();
    let mut at = 0;
    while records.len() < count {
        let Some(&[id, flags, len]) = rest.get(at..at + 3).map(|s| <&[u8; 3]>::try_from(s).unwrap())
        else {
            break;
        };
        let len = usize::from(len);
        let Some(bytes) = rest.get(at + 3..at + 3 + len) else { break };
        at += 3 + len;
        records.push(DatRecord {
            // Pre-2005 entries have no flags: no compression there.
            compressed: flags & 1 == 1 && opts.layout == DatLayout::Current,
            pack_version: u16::from(flags >> 1),
            ..DatRecord::new(0x0300_0000 | u32::from(id), bytes.to_vec())
        });
    }
    let mut container = write_dat_with(&records, &opts);
    let path = std::env::temp_dir().join(format!("retroanim-fuzz-layouts-{}.dat", std::process::id()));
    std::fs::write(&path, &container).unwrap();
    let mut dat = DatFile::open(&path).expect("a written container opens");
    // The last record of an id is the one written.
    for r in records.iter().rev() {
        let got = dat.read_record(r.id).expect("a written record reads");
        let want = records.iter().rev().find(|x| x.id == r.id).unwrap();
        assert!(got == want.bytes, "record 0x{:08x} changed", r.id);
    }
    let entries = dat.entries().expect("a written directory walks");
    assert!(entries.len() <= records.len());
    for pair in rest[at..].chunks_exact(3) {
        let offset = usize::from(u16::from_le_bytes([pair[0], pair[1]]));
        if let Some(b) = container.get_mut(offset) {
            *b = pair[2];
        }
    }
    std::fs::write(&path, &container).unwrap();
    if let Ok(mut dat) = DatFile::open(&path) {
        if let Ok(entries) = dat.entries() {
            for e in entries.iter().take(64) {
                let _ = dat.read_entry(e);
            }
        }
        for r in records.iter().take(8) {
            let _ = dat.read_record(r.id);
        }
    }
});
