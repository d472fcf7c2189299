//! Runs the bench world for a fixed number of ticks (for profilers such as `perf`).
use retroanim_ac::bench::AcBench;
use retroanim_core::bench::BenchWorld;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let ticks: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut b = AcBench::new(n);
    for _ in 0..50 {
        b.tick();
    }
    let t = std::time::Instant::now();
    for _ in 0..ticks {
        b.tick();
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{:.0} entity-ticks/s (checksum {:x})",
        (n * ticks) as f64 / s,
        b.checksum()
    );
}
