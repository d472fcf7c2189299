//! Criterion benchmarks of one 30 Hz tick (see `retroanim_ac::bench`):
//!
//! * `ac_tick`: N objects on the sample humanoid table, each cycling walk / run / turn /
//!   stop commands;
//! * `ac_chase_tick`: N creatures chasing N/10 wandering ones with move-to (the
//!   throughput counts all N + N/10 objects).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use retroanim_ac::bench::{AcBench, ChaseBench};
use retroanim_core::bench::BenchWorld;

fn tick(c: &mut Criterion) {
    let mut g = c.benchmark_group("ac_tick");
    for n in [1_000usize, 10_000] {
        let mut world = AcBench::new(n);
        // Let every object see its whole command cycle once before measuring.
        for _ in 0..300 {
            world.tick();
        }
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| world.tick());
        });
    }
    g.finish();
}

fn chase(c: &mut Criterion) {
    let mut g = c.benchmark_group("ac_chase_tick");
    for n in [1_000usize, 10_000] {
        let mut world = ChaseBench::new(n);
        // Every chaser has started running and every target has walked a leg or two.
        for _ in 0..300 {
            world.tick();
        }
        g.throughput(Throughput::Elements(world.entities() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| world.tick());
        });
    }
    g.finish();
}

criterion_group!(benches, tick, chase);
criterion_main!(benches);
