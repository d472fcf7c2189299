//! Byte-mutation fuzz harness for the record readers and the inspector: the sample
//! records with random overwrites, insertions, deletions and truncations must never
//! panic (the readers return errors), and what they accept re-encodes consistently.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use proptest::prelude::*;
use retroanim_ac::inspect::render_record;
use retroanim_ac::records::*;
use retroanim_core::mutation::*;
use std::path::PathBuf;

fn samples() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mutated_sample_records_never_panic(which in any::<usize>(), edits in edits()) {
        let all = samples();
        let mut bytes = all[which % all.len()].clone();
        for e in &edits {
            apply(&mut bytes, e);
        }
        // Compared as bytes: a mutation may produce NaN, which is unequal to itself.
        if let Ok(t) = read_motion_table(&bytes, "fuzz") {
            let once = write_motion_table(&t);
            let again = write_motion_table(&read_motion_table(&once, "fuzz").unwrap());
            prop_assert!(once == again);
        }
        if let Ok(a) = read_animation(&bytes, "fuzz") {
            let once = write_animation(&a);
            let again = write_animation(&read_animation(&once, "fuzz").unwrap());
            prop_assert!(once == again);
        }
        let _ = render_record(&bytes, "fuzz", false);
        let _ = render_record(&bytes, "fuzz", true);
    }
}
