//! Damaged input never panics the HERC or actor export: it is refused with a located error,
//! or (when the damage leaves a valid file) exported.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod support;

use proptest::prelude::*;
use retroanim_gltf::{actor, herc, write_glb};

fn biped_dts() -> Vec<u8> {
    std::fs::read(support::repository().join("assets/herc/biped.dts")).unwrap()
}

fn flag_json() -> String {
    std::fs::read_to_string(support::repository().join("assets/actor/flag2.json")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_damaged_dts_exports_or_is_refused(
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = biped_dts();
        for (at, v) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= v;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        match herc::HercAsset::from_dts(&bytes, "biped.dts", "biped") {
            Ok(asset) => {
                if let Ok(scene) = herc::export(&asset, &herc::Options::default()) {
                    // The writer may refuse what it cannot write; it must not panic either.
                    let _ = write_glb(&scene, &Default::default());
                }
            }
            // A refusal names the file.
            Err(e) => prop_assert!(e.to_string().starts_with("biped.dts"), "{}", e),
        }
    }

    #[test]
    fn a_damaged_actor_set_exports_or_is_refused(
        cut in any::<prop::sample::Index>(),
        digit in any::<prop::sample::Index>(),
        with in 0u8..10,
    ) {
        // Change one digit (a vertex, a face index, a header, a count), or cut the text.
        let mut text = flag_json().into_bytes();
        let digits: Vec<usize> = (0..text.len()).filter(|&i| text[i].is_ascii_digit()).collect();
        let i = digits[digit.index(digits.len())];
        text[i] = b'0' + with;
        let text = String::from_utf8(text).unwrap();
        for t in [text.as_str(), &text[..cut.index(text.len())]] {
            match actor::ActorAsset::from_json(t, "flag2.json") {
                Ok(asset) => {
                    if let Ok(scene) = actor::export(&asset, &actor::Options::default()) {
                        let _ = write_glb(&scene, &Default::default());
                    }
                }
                Err(e) => prop_assert!(e.to_string().starts_with("flag2.json"), "{}", e),
            }
        }
    }
}
