//! The machine's memory bandwidth for a plain streaming read, the bound a tick of a
//! world far larger than the caches runs into (docs/performance.md, "State per
//! entity"): `memory_stream` reads a 1 GiB buffer of words once per iteration, on one
//! thread and split between two, and reports bytes per second. A tick also writes most of
//! the lines it reads, and each dirty line goes back to memory, so `memory_objects` is
//! the floor of such a tick with no work in it: a million objects the size of an AC
//! object, of which the first `k` 64-byte lines get one word read and written, on two
//! threads; one iteration is one such "tick".

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

/// A million objects of 1,216 bytes (19 lines, the AC object rounded up to whole lines).
const OBJECTS: usize = 1_000_000;
const OBJECT_WORDS: usize = 1_216 / 8;

/// One word of each of an object's first `k` lines read, changed and written back.
fn touch(objects: &mut [u64], k: usize) {
    for o in objects.chunks_exact_mut(OBJECT_WORDS) {
        for line in 0..k {
            let w = &mut o[line * 8];
            *w = w.wrapping_add(1);
        }
    }
}

fn objects(c: &mut Criterion) {
    let mut words: Vec<u64> = (0..(OBJECTS * OBJECT_WORDS) as u64).collect();
    let mut g = c.benchmark_group("memory_objects");
    g.sample_size(10);
    // Lines per object: what a tick can afford for 33 ms at best, what the walker's tick
    // touches now (10.9 by cachegrind), and every line of the object.
    for k in [5usize, 6, 11, 19] {
        g.bench_with_input(BenchmarkId::new("lines", k), &k, |b, &k| {
            b.iter(|| {
                let part = (OBJECTS / 2) * OBJECT_WORDS;
                std::thread::scope(|s| {
                    for w in words.chunks_mut(part) {
                        s.spawn(move || touch(black_box(w), k));
                    }
                })
            });
        });
    }
    g.finish();
}

criterion_group!(benches, stream, objects);
criterion_main!(benches);
