//! `retroanim bench`: time an engine's steady-state tick and count its allocations.
//!
//! Worlds are built and warmed up before the clock starts, so the figures describe
//! the steady state only. Allocations are counted by the instrumented global
//! allocator over the timed region (all threads together); a reallocation counts as
//! an allocation.

use crate::engines::BenchSpec;
use crate::progress::Progress;
use retroanim_core::bench::BenchWorld;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::time::Instant;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Ticks run before timing starts (queues fill, caches warm).
const WARMUP_TICKS: usize = 50;

pub struct BenchResult {
    pub entities: usize,
    pub ticks: usize,
    pub threads: usize,
    pub seconds: f64,
    pub allocations: usize,
    pub checksum: u64,
}

impl BenchResult {
    pub fn entity_ticks_per_second(&self) -> f64 {
        (self.entities as f64) * (self.ticks as f64) / self.seconds.max(1e-12)
    }
    pub fn allocations_per_tick(&self) -> f64 {
        self.allocations as f64 / self.ticks.max(1) as f64
    }
}

/// Build worlds sharing `entities` over at most `threads` threads (never a world
/// without entities), warm them up, then time `ticks` ticks. With `progress`, the
/// ticks run in chunks and the bar is updated between chunks, outside the timed and
/// counted regions.
pub fn run(
    spec: &BenchSpec,
    entities: usize,
    ticks: usize,
    threads: usize,
    progress: &mut Progress,
) -> BenchResult {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let entities = entities.max(1);
    let per = entities.div_ceil(threads.max(1));
    let worlds_n = entities.div_ceil(per);
    let mut worlds: Vec<Box<dyn BenchWorld>> = (0..worlds_n)
        .map(|i| (spec.build)(per.min(entities - i * per)))
        .collect();
    let total: usize = worlds.iter().map(|w| w.entities()).sum();
    for w in worlds.iter_mut() {
        for _ in 0..WARMUP_TICKS {
            w.tick();
        }
    }
    let chunk = if progress.enabled() {
        (ticks / 200).max(1)
    } else {
        ticks.max(1)
    };
    let mut seconds = 0.0;
    let mut allocations = 0;
    let mut done = 0;
    while done < ticks {
        let n = chunk.min(ticks - done);
        let (s, a) = timed(&mut worlds, n);
        seconds += s;
        allocations += a;
        done += n;
        progress.set(done as u64);
    }
    let checksum = worlds
        .iter()
        .fold(0u64, |a, w| a.wrapping_add(w.checksum()));
    BenchResult {
        entities: total,
        ticks,
        threads: worlds_n,
        seconds,
        allocations,
        checksum,
    }
}

/// Run `ticks` ticks on every world (one thread per world); seconds and allocations.
fn timed(worlds: &mut [Box<dyn BenchWorld>], ticks: usize) -> (f64, usize) {
    let region = Region::new(GLOBAL);
    let start = Instant::now();
    if worlds.len() == 1 {
        for _ in 0..ticks {
            worlds[0].tick();
        }
    } else {
        std::thread::scope(|scope| {
            for w in worlds.iter_mut() {
                scope.spawn(move || {
                    for _ in 0..ticks {
                        w.tick();
                    }
                });
            }
        });
    }
    let seconds = start.elapsed().as_secs_f64();
    let mut allocations = allocations_in(&region);
    if worlds.len() > 1 {
        // Spawning the scoped threads allocates (stacks, handles); that is not
        // the engine's tick.
        allocations = allocations.saturating_sub(region_overhead(worlds.len()));
    }
    (seconds, allocations)
}

/// Allocations made by spawning and joining `threads` scoped threads doing nothing.
fn region_overhead(threads: usize) -> usize {
    let region = Region::new(GLOBAL);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {});
        }
    });
    allocations_in(&region)
}

/// Allocations made since `region` began, a reallocation counting as one (a queue that
/// grows is not steady).
fn allocations_in(region: &Region<'_, System>) -> usize {
    let change = region.change();
    change.allocations + change.reallocations
}
