//! The committed conformance records are exactly what the crate's writer makes from the
//! tables in tests/common (regenerate with `AC_BLESS=1`).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use retroanim_ac::records::{write_animation, write_motion_table};
use std::path::Path;

#[test]
fn committed_conformance_records_match_the_builder() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/assets");
    let mut records: Vec<(u32, Vec<u8>)> = common::conformance_anims()
        .iter()
        .map(|a| (a.id, write_animation(a)))
        .collect();
    records.push((
        0x0900_0100,
        write_motion_table(&common::conformance_table()),
    ));
    records.push((0x0900_0200, write_motion_table(&common::small_table())));
    let bless = std::env::var("AC_BLESS").is_ok();
    for (id, bytes) in records {
        let path = dir.join(format!("{id:08x}.bin"));
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap();
        assert_eq!(on_disk, bytes, "{}", path.display());
    }
}
