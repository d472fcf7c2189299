//! RecordStore: lazy loading by id from a record directory, caching, and errors that
//! leave what is loaded untouched.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::*;
use std::path::PathBuf;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retroanim-store-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sample(id: u32) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/ac/records")
        .join(format!("{id:08x}.bin"));
    std::fs::read(p).unwrap()
}

#[test]
fn loads_lazily_and_caches() {
    let dir = temp_dir("cache");
    std::fs::write(dir.join("03000101.bin"), sample(0x0300_0101)).unwrap();
    let mut store = RecordStore::from_dir(&dir);
    let a = store.animation(0x0300_0101).unwrap();
    assert_eq!(a.num_frames, 30);
    // Served from the cache once loaded, even if the file goes away.
    std::fs::remove_file(dir.join("03000101.bin")).unwrap();
    let b = store.animation(0x0300_0101).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failures_name_the_file_and_cache_nothing() {
    let dir = temp_dir("fail");
    let file = dir.join("03000102.bin");
    let mut bytes = sample(0x0300_0102);
    bytes.truncate(100);
    std::fs::write(&file, &bytes).unwrap();
    let mut store = RecordStore::from_dir(&dir);
    let e = store.animation(0x0300_0102).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "{}: record 0x03000102, byte 12: NumFrames 30",
            file.display()
        )),
        "{e}"
    );
    // Fixing the file makes the next load succeed: the failure was not cached.
    std::fs::write(&file, sample(0x0300_0102)).unwrap();
    assert_eq!(store.animation(0x0300_0102).unwrap().num_frames, 30);

    // A record stored under the wrong file name.
    std::fs::write(dir.join("03000103.bin"), sample(0x0300_0101)).unwrap();
    let e = store.animation(0x0300_0103).unwrap_err();
    assert!(
        e.to_string().ends_with(
            "record 0x03000101, byte 0: asked for record 0x03000103 but the record's id is 0x03000101"
        ),
        "{e}"
    );
    let e = store.motion_table(0x0900_0001).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: record 0x09000001: not found",
            dir.join("09000001.bin").display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn record_errors_become_scenario_errors_with_the_location() {
    let e = read_animation(&[1, 0, 0, 3, 0], "a.bin").unwrap_err();
    let s: retroanim_core::ScenarioError = e.into();
    assert_eq!(s.file, "a.bin");
    assert_eq!(s.at, "record 0x03000001, byte 4");
    assert_eq!(s.message, "truncated: Flags needs 4 bytes, 1 left");
}
