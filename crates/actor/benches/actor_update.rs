//! Criterion benchmark: one world update of the FLAG2-like benchmark world
//! (100,000 actors on a 64×64-cell map, moving view, mixed frame scales).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retroanim_actor::bench::{ActorBench, DEFAULT_ACTORS};
use retroanim_core::bench::BenchWorld;

fn update(c: &mut Criterion) {
    let mut world = ActorBench::new(DEFAULT_ACTORS);
    // Past the twelve one-tick warm-up updates, into the steady state.
    for _ in 0..64 {
        world.tick();
    }
    let mut group = c.benchmark_group("actor");
    group.throughput(Throughput::Elements(world.entities() as u64));
    group.sample_size(20);
    group.bench_function("world_update_100k", |b| b.iter(|| world.tick()));
    group.finish();
    std::hint::black_box(world.checksum());
}

criterion_group!(benches, update);
criterion_main!(benches);
