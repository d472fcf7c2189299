//! `retroanim bench ac-chase`: the move-to chase workload counts its chasers and their
//! targets, repeats its checksum run after run and allocates nothing per steady tick.

use std::process::Command;

fn bench_json(args: &[&str]) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(["bench", "ac-chase", "--json"])
        .args(args)
        .output()
        .expect("the retroanim binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn chase_bench_counts_chasers_and_targets_and_allocates_nothing() {
    let v = bench_json(&["--entities", "30", "--ticks", "120"]);
    assert_eq!(v["engine"], "ac-chase");
    // 30 chasers and 3 targets.
    assert_eq!(v["entities"], 33);
    assert_eq!(v["threads"], 1);
    assert_eq!(v["tick"], "30 Hz quantum");
    assert_eq!(v["allocations_per_tick"], 0.0);
    // Same world, same ticks: the same checksum.
    let again = bench_json(&["--entities", "30", "--ticks", "120"]);
    assert_eq!(v["checksum"], again["checksum"]);
}

#[test]
fn chase_bench_on_two_threads_splits_the_chasers() {
    let v = bench_json(&["--entities", "30", "--ticks", "60", "--threads", "2"]);
    // Two worlds of 15 chasers and 2 targets.
    assert_eq!(v["entities"], 34);
    assert_eq!(v["threads"], 2);
    assert_eq!(v["allocations_per_tick"], 0.0);
}
