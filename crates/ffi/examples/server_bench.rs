//! The server-shaped bench of the C ABI: `--worlds` threads (4) each tick their own
//! world of `--creatures` walking creatures (25,000) at `--hz` (30) for `--seconds` (10)
//! and read every position after each tick, while one more thread adds, removes and
//! transfers `--churn` creatures a second each (1,000), spread evenly over the second,
//! across the worlds. Every call is timed; the report gives each call's count, p50, p99
//! and maximum, the ticks that missed their period, and the calls that failed (there
//! must be none).
//!
//! `cargo run --release -p retroanim-ffi --example server_bench [-- --worlds 4
//! --creatures 25000 --hz 30 --seconds 10 --churn 1000]`; docs/embedding.md has the
//! figures and how it runs under valgrind.

use retroanim_ffi::ac::*;
use retroanim_ffi::RaStatus;
use std::ffi::CString;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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

/// Object ids are unique across all worlds, so a transfer never meets its id.
static NEXT_ID: AtomicU32 = AtomicU32::new(1);
static FAILURES: AtomicU64 = AtomicU64::new(0);

fn check(s: RaStatus) {
    if s != RaStatus::Ok {
        FAILURES.fetch_add(1, Ordering::Relaxed);
    }
}

/// Add a walking creature spread over a 200 m square; its index.
fn add(w: RaAcWorld, n: u32) -> u32 {
    let mut d = std::mem::MaybeUninit::<RaAcCreatureDesc>::uninit();
    // SAFETY: a writable out-parameter, fully written on success.
    let mut d = unsafe {
        check(ra_ac_creature_desc_default(d.as_mut_ptr()));
        d.assume_init()
    };
    d.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    d.frame.origin.x = (n % 200) as f32;
    d.frame.origin.y = ((n / 200) % 200) as f32;
    let mut c = 0;
    // SAFETY: `d` is valid and `c` writable.
    check(unsafe { ra_ac_world_add_creature(w, HUMANOID_TABLE, &d, &mut c) });
    // SAFETY: null parameters mean the defaults.
    check(unsafe { ra_ac_do_motion(w, c, WALK_FORWARD, std::ptr::null()) });
    c
}

/// Latencies of one kind of call, in nanoseconds, reserved up front.
struct Samples {
    name: &'static str,
    ns: Vec<u64>,
}

impl Samples {
    fn new(name: &'static str, capacity: usize) -> Samples {
        Samples {
            name,
            ns: Vec::with_capacity(capacity),
        }
    }

    fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let t = Instant::now();
        let r = f();
        self.ns.push(t.elapsed().as_nanos() as u64);
        r
    }
}

fn report(all: &mut [Samples]) {
    println!(
        "{:<22} {:>9} {:>10} {:>10} {:>10}",
        "call", "count", "p50 µs", "p99 µs", "max µs"
    );
    for s in all.iter_mut() {
        if s.ns.is_empty() {
            continue;
        }
        s.ns.sort_unstable();
        let at = |q: f64| s.ns[((s.ns.len() - 1) as f64 * q).round() as usize] as f64 / 1e3;
        println!(
            "{:<22} {:>9} {:>10.1} {:>10.1} {:>10.1}",
            s.name,
            s.ns.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}

/// What a run ended with.
pub struct Outcome {
    /// Creatures in all worlds at the end.
    pub creatures: usize,
    /// Calls that did not return `RA_STATUS_OK`.
    pub failures: u64,
}

fn main() {
    let o = run(
        arg("--worlds", 4) as usize,
        arg("--creatures", 25_000),
        arg("--hz", 30),
        arg("--seconds", 10),
        arg("--churn", 1_000),
    );
    if o.failures != 0 {
        std::process::exit(1);
    }
}

/// One run (see the module documentation); prints the report.
pub fn run(worlds: usize, creatures: u32, hz: u32, seconds: u32, churn: u32) -> Outcome {
    let handles: Vec<RaAcWorld> = (0..worlds).map(|_| world()).collect();
    // The creatures each world holds, by index: the churn thread's bookkeeping (the
    // tick threads only tick and read).
    let live: Vec<Vec<u32>> = handles
        .iter()
        .map(|&w| (0..creatures).map(|n| add(w, n)).collect())
        .collect();
    let live = Arc::new(Mutex::new(live));
    println!(
        "{worlds} worlds of {creatures} creatures at {hz} Hz for {seconds} s; {churn} adds, removes and transfers a second"
    );

    let ticks = (hz * seconds) as usize;
    let period = Duration::from_secs_f64(1.0 / f64::from(hz));
    let start = Instant::now() + Duration::from_millis(50);
    let mut threads = Vec::new();
    for &w in &handles {
        threads.push(std::thread::spawn(move || {
            let mut tick = Samples::new("ra_ac_world_tick", ticks);
            let mut read = Samples::new("ra_ac_world_positions", ticks);
            let mut late = 0u32;
            let mut buf = vec![RaAcPosition::default(); creatures as usize * 2];
            for k in 0..ticks {
                let due = start + period * k as u32;
                let now = Instant::now();
                if now < due {
                    std::thread::sleep(due - now);
                } else if now > due + period {
                    late += 1;
                }
                check(tick.time(|| ra_ac_world_tick(w, 1.0 / f64::from(hz))));
                let mut n = 0;
                let s = read.time(|| {
                    // SAFETY: `buf` has `buf.len()` writable entries and `n` is writable.
                    unsafe { ra_ac_world_positions(w, buf.as_mut_ptr(), buf.len(), &mut n) }
                });
                if s == RaStatus::BufferTooSmall {
                    buf.resize(n, RaAcPosition::default());
                } else {
                    check(s);
                }
            }
            (tick, read, late)
        }));
    }

    let churner = {
        let live = Arc::clone(&live);
        let handles = handles.clone();
        std::thread::spawn(move || {
            let ops = (churn * seconds) as usize;
            let mut adds = Samples::new("ra_ac_world_add_creature", ops);
            let mut removes = Samples::new("ra_ac_world_remove", ops);
            let mut transfers = Samples::new("ra_ac_world_transfer", ops);
            let step = Duration::from_secs_f64(1.0 / f64::from(churn.max(1)));
            let mut rng = 0x2545_f491_4f6c_dd1du64;
            let mut next = |m: usize| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng % m as u64) as usize
            };
            let mut live = live.lock().expect("bookkeeping");
            for k in 0..ops {
                let due = start + step * k as u32;
                let now = Instant::now();
                if now < due {
                    std::thread::sleep(due - now);
                }
                let n = live.len();
                let a = next(n);
                let c = adds.time(|| add(handles[a], k as u32));
                live[a].push(c);
                let r = next(n);
                if !live[r].is_empty() {
                    let i = next(live[r].len());
                    let c = live[r].swap_remove(i);
                    check(removes.time(|| ra_ac_world_remove(handles[r], c)));
                }
                let (from, to) = (next(n), next(n));
                if from != to && !live[from].is_empty() {
                    let i = next(live[from].len());
                    let c = live[from].swap_remove(i);
                    let mut moved = 0;
                    check(transfers.time(|| {
                        // SAFETY: `moved` is writable.
                        unsafe { ra_ac_world_transfer(handles[from], c, handles[to], &mut moved) }
                    }));
                    live[to].push(moved);
                }
            }
            (adds, removes, transfers)
        })
    };

    let mut all = Vec::new();
    let mut late = 0;
    let mut ticks_all = Samples::new("ra_ac_world_tick", 0);
    let mut reads_all = Samples::new("ra_ac_world_positions", 0);
    for t in threads {
        let (tick, read, l) = t.join().expect("tick thread");
        ticks_all.ns.extend(tick.ns);
        reads_all.ns.extend(read.ns);
        late += l;
    }
    let (adds, removes, transfers) = churner.join().expect("churn thread");
    all.push(ticks_all);
    all.push(reads_all);
    all.push(adds);
    all.push(removes);
    all.push(transfers);
    report(&mut all);
    println!("ticks that started more than a period late: {late}");
    let total: usize = live.lock().expect("bookkeeping").iter().map(Vec::len).sum();
    println!("creatures at the end: {total}");
    for w in handles {
        check(ra_ac_world_free(w));
    }
    let failures = FAILURES.load(Ordering::Relaxed);
    println!("failed calls: {failures}");
    Outcome {
        creatures: total,
        failures,
    }
}
