#![no_main]
//! The herc scenario loader and runner (threads and mech scenarios).
use libfuzzer_sys::fuzz_target;
use retroanim_core::Scenario;
use retroanim_fuzz::{check_trace, repo_dir};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let dir = repo_dir("crates/herc/tests/conformance/scenarios");
    if let Ok(s) = Scenario::from_str(text, "fuzz.json", dir) {
        if let Ok(lines) = retroanim_herc::run(&s) {
            check_trace(&lines);
        }
    }
});
