#![no_main]
//! Actor sets (RAAN tables, RAGR groups, scripts, actors).
use libfuzzer_sys::fuzz_target;
use retroanim_actor::load::load_set;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = load_set(&v);
    }
});
