//! The machine's memory bandwidth for a plain streaming read, the bound a tick of a
//! world far larger than the caches runs into (docs/performance.md, "State per
//! entity"): `memory_stream` reads a 1 GiB buffer of words once per iteration, on one
//! thread and split between two, and reports bytes per second.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const BYTES: usize = 1 << 30;

/// The wrapping sum of every word, read in order (four lanes, so the adds do not
/// chain and the loads are what limits it).
fn sum(words: &[u64]) -> u64 {
    let mut lanes = [0u64; 4];
    for c in words.chunks_exact(4) {
        for (l, w) in lanes.iter_mut().zip(c) {
            *l = l.wrapping_add(*w);
        }
    }
    lanes.iter().fold(0, |a, l| a.wrapping_add(*l))
}

fn stream(c: &mut Criterion) {
    // Every page written first, so the reads measure memory rather than page faults.
    let words: Vec<u64> = (0..(BYTES / 8) as u64).collect();
    let mut g = c.benchmark_group("memory_stream");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(BYTES as u64));
    for threads in [1usize, 2] {
        g.bench_with_input(BenchmarkId::from_parameter(threads), &threads, |b, &k| {
            b.iter(|| {
                let part = words.len().div_ceil(k);
                std::thread::scope(|s| {
                    let hs: Vec<_> = words
                        .chunks(part)
                        .map(|w| s.spawn(move || sum(black_box(w))))
                        .collect();
                    hs.into_iter()
                        .map(|h| h.join().unwrap_or(0))
                        .fold(0u64, u64::wrapping_add)
                })
            });
        });
    }
    g.finish();
}

criterion_group!(benches, stream);
criterion_main!(benches);
