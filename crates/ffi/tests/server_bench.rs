//! The server-shaped bench (examples/server_bench.rs) runs in CI at a small size: four
//! ticking worlds and a thread adding, removing and transferring creatures between
//! them for a second, with no failed call and every creature accounted for at the end.
//! It asserts no timing: the figures come from release runs (docs/embedding.md).

#[allow(dead_code)]
#[path = "../examples/server_bench.rs"]
mod server_bench;

#[test]
fn the_server_bench_runs_four_worlds_and_churn_without_a_failed_call() {
    let o = server_bench::run(4, 200, 30, 1, 100);
    assert_eq!(o.failures, 0);
    // 4 × 200 at the start; the second adds 100 and removes 100 (every world keeps
    // creatures, so none is skipped), and transfers move creatures without changing
    // the total.
    assert_eq!(o.creatures, 800);
}
