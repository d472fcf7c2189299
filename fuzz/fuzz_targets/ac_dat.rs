#![no_main]
//! The DAT container: header, B-tree directory, block chains.
use libfuzzer_sys::fuzz_target;
use retroanim_ac::records::dat::DatFile;

fuzz_target!(|data: &[u8]| {
    // The container reads from a file; one scratch file per fuzzing process.
    let path = std::env::temp_dir().join(format!("retroanim-fuzz-{}.dat", std::process::id()));
    std::fs::write(&path, data).unwrap();
    if let Ok(mut dat) = DatFile::open(&path) {
        if let Ok(entries) = dat.entries() {
            for e in entries.iter().take(64) {
                let _ = dat.read_record(e.object_id);
            }
        }
        let _ = dat.read_record(0x0900_0001);
    }
});
