//! The sample scenarios of assets/ac/scenarios (on the authored humanoid table) still
//! produce their committed traces in assets/ac/traces.

use retroanim_ac::AcSim;
use retroanim_core::diff::{diff_traces, DiffOptions};
use retroanim_core::trace::read_trace;
use retroanim_core::{run_scenario, Scenario};
use std::path::Path;

#[test]
fn sample_scenarios_match_their_traces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac");
    for name in [
        "walk_to_run",
        "stop_from_run",
        "style_change",
        "network_correction",
    ] {
        let s = Scenario::from_file(&root.join(format!("scenarios/{name}.json"))).unwrap();
        let got = run_scenario::<AcSim>(&s).unwrap();
        let want = read_trace(&root.join(format!("traces/{name}.jsonl"))).unwrap();
        let r = diff_traces(&want, &got, "expected", "got", DiffOptions::default()).unwrap();
        assert!(r.is_equal(), "{name}: {:?}", r.first);
    }
}
