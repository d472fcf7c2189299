#![no_main]
//! The ac scenario loader and runner, against the conformance record set.
use libfuzzer_sys::fuzz_target;
use retroanim_ac::AcSim;
use retroanim_core::{run_scenario, Scenario};
use retroanim_fuzz::{check_trace, repo_dir};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let dir = repo_dir("crates/ac/tests/conformance/scenarios");
    if let Ok(s) = Scenario::from_str(text, "fuzz.json", dir) {
        if let Ok(lines) = run_scenario::<AcSim>(&s) {
            check_trace(&lines);
        }
    }
});
