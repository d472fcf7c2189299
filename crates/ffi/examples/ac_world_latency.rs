//! How long a call on a small AC world can wait while another thread ticks a large one:
//! one thread ticks a world of `--creatures` walking creatures (100,000 by default)
//! `--ticks` times; meanwhile this thread calls `ra_ac_state` on a one-creature world
//! as fast as it can and keeps the slowest call. Each world has its own lock, so that
//! call should cost microseconds however long the big tick takes.
//!
//! `cargo run --release -p retroanim-ffi --example ac_world_latency [-- --creatures N --ticks N]`

use retroanim_ffi::ac::*;
use retroanim_ffi::RaStatus;
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const HUMANOID_TABLE: u32 = 0x0900_0001;
const WALK_FORWARD: u32 = 0x4500_0005;

fn arg(name: &str, default: u32) -> u32 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a whole number"))
}

fn world() -> RaAcWorld {
    let dir = CString::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/ac/records"
    ))
    .expect("no NUL in the path");
    let mut w = 0;
    // SAFETY: a valid C string and a writable out-parameter.
    let s = unsafe { ra_ac_world_new_dir(dir.as_ptr(), &mut w) };
    assert_eq!(s, RaStatus::Ok);
    w
}

fn main() {
    let creatures = arg("--creatures", 100_000);
    let ticks = arg("--ticks", 30);

    let big = world();
    let start = Instant::now();
    for i in 0..creatures {
        let mut d = RaAcCreatureDesc {
            cell: 0,
            frame: RaAcFrame::default(),
            run_rate: 0.0,
            creature_weenie: 0,
            airborne: 0,
            outside_cell: 0,
            id: 0,
            radius: 0.0,
            height: 0.0,
        };
        // SAFETY: writable out-parameters and a valid description.
        unsafe {
            assert_eq!(ra_ac_creature_desc_default(&mut d), RaStatus::Ok);
            d.frame.origin.x = (i % 1000) as f32;
            d.frame.origin.y = (i / 1000) as f32;
            assert_eq!(
                ra_ac_world_add_creature(big, HUMANOID_TABLE, &d, std::ptr::null_mut()),
                RaStatus::Ok
            );
            assert_eq!(
                ra_ac_do_motion(big, i, WALK_FORWARD, std::ptr::null()),
                RaStatus::Ok
            );
        }
    }
    println!(
        "built a world of {creatures} walking creatures in {:.2?}",
        start.elapsed()
    );

    let small = world();
    // SAFETY: a null description means every default; a null index is allowed.
    let s = unsafe {
        ra_ac_world_add_creature(
            small,
            HUMANOID_TABLE,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(s, RaStatus::Ok);

    let done = Arc::new(AtomicBool::new(false));
    let ticker = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut slowest = Duration::ZERO;
            let t0 = Instant::now();
            for _ in 0..ticks {
                let t = Instant::now();
                assert_eq!(ra_ac_world_tick(big, 1.0 / 30.0), RaStatus::Ok);
                slowest = slowest.max(t.elapsed());
            }
            done.store(true, Ordering::Release);
            (t0.elapsed(), slowest)
        })
    };

    let mut calls = 0u64;
    let mut worst = Duration::ZERO;
    // Calls slower than 10 µs, 100 µs and 1 ms: a preempted thread (the machine's other
    // work) shows as a few slow calls, a lock held across the tick as one per tick.
    let mut slow = [0u64; 3];
    let mut state = RaAcState::default();
    while !done.load(Ordering::Acquire) {
        let t = Instant::now();
        // SAFETY: a writable out-parameter.
        let s = unsafe { ra_ac_state(small, 0, &mut state) };
        let took = t.elapsed();
        worst = worst.max(took);
        for (n, limit) in slow.iter_mut().zip([10, 100, 1000]) {
            *n += u64::from(took > Duration::from_micros(limit));
        }
        assert_eq!(s, RaStatus::Ok);
        calls += 1;
    }
    let (total, slowest_tick) = ticker.join().expect("the ticking thread ran to its end");
    println!(
        "{ticks} ticks of the big world in {total:.2?} (slowest {slowest_tick:.2?}); \
         {calls} ra_ac_state calls on the small world meanwhile, worst {worst:.2?}; \
         slower than 10 µs: {}, 100 µs: {}, 1 ms: {}",
        slow[0], slow[1], slow[2]
    );
    assert_eq!(ra_ac_world_free(big), RaStatus::Ok);
    assert_eq!(ra_ac_world_free(small), RaStatus::Ok);
}
