//! 1,000 sample HERCs, three threads each, one 25 Hz step with full pose and world matrices.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retroanim_core::bench::BenchWorld;
use retroanim_herc::bench::{HercBench, DEFAULT_HERCS};

fn herc_step(c: &mut Criterion) {
    let mut world = HercBench::new(DEFAULT_HERCS);
    for _ in 0..50 {
        world.tick();
    }
    let mut group = c.benchmark_group("herc");
    group.throughput(Throughput::Elements(DEFAULT_HERCS as u64));
    group.bench_function("step_1000_hercs", |b| b.iter(|| world.tick()));
    group.finish();
    std::hint::black_box(world.checksum());
}

criterion_group!(benches, herc_step);
criterion_main!(benches);
