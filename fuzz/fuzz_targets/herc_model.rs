#![no_main]
//! The JSON HERC model (animation list).
use libfuzzer_sys::fuzz_target;
use retroanim_herc::anim_list::AnimList;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = AnimList::from_json_value(&v, "fuzz.json", "");
    }
});
