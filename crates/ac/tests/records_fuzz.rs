//! Byte-mutation fuzz harness for the record readers and the inspector: the sample
//! records with random overwrites, insertions, deletions and truncations must never
//! panic (the readers return errors), and what they accept re-encodes consistently.

use proptest::prelude::*;
use retroanim_ac::inspect::render_record;
use retroanim_ac::records::*;
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

#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    SetU32(usize, u32),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, v)| Edit::Set(a, v)),
        (
            any::<usize>(),
            prop_oneof![
                Just(0u32),
                Just(1),
                Just(u32::MAX),
                Just(0x8000_0000),
                any::<u32>()
            ]
        )
            .prop_map(|(a, v)| Edit::SetU32(a, v)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, v)| Edit::Insert(a, v)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, e: &Edit) {
    let n = bytes.len().max(1);
    match *e {
        Edit::Set(a, v) => {
            if let Some(b) = bytes.get_mut(a % n) {
                *b = v;
            }
        }
        Edit::SetU32(a, v) => {
            let a = (a % n) & !3;
            if a + 4 <= bytes.len() {
                bytes[a..a + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        Edit::Insert(a, v) => bytes.insert(a % (bytes.len() + 1), v),
        Edit::Delete(a) => {
            if !bytes.is_empty() {
                bytes.remove(a % n);
            }
        }
        Edit::Truncate(a) => bytes.truncate(a % n),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mutated_sample_records_never_panic(which in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
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
