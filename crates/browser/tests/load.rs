//! A bounded load test: a few hundred requests mixing heavy step requests, trace
//! downloads (read in full, or left unread) and slow clients (heads and bodies that
//! never finish), against one in-process server on 127.0.0.1. Throughout, a health
//! request must answer within 1 s, and the process's peak resident set (server
//! and clients together, read from /proc/self/status) must stay under 512 MiB, the
//! bound docs/limits.md states.
//!
//! It runs in its own test binary so that the peak is this test's alone. The second
//! test, a slow-head attack (issue 21), holds every connection slot with heads that
//! never finish and reopens each connection the server closes, for 30 s
//! (`RETROANIM_SLOW_HEAD_SECS` shortens or lengthens it), while a prober's health
//! request must answer 200 within 1 s throughout. The two tests take turns.

mod common;

use common::*;
use retroanim_browser::Options;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The two tests take turns: each measures the server alone.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

const WORKERS: usize = 6;
const ROUNDS: usize = 40;
const RSS_BOUND_KIB: u64 = 512 * 1024;

#[derive(Default)]
struct Counts {
    requests: AtomicUsize,
    refused: AtomicUsize,
    downloaded_bytes: AtomicUsize,
}

fn steps_on(addr: SocketAddr, id: &mut String, c: &Counts) {
    let r = post_json(
        addr,
        &format!("/api/sessions/{id}/steps"),
        &herc_steps(500, 1_000_000),
    );
    c.requests.fetch_add(1, Ordering::Relaxed);
    match r.status {
        200 => {}
        // Budget refusals are the point; a full session is reset, an evicted one
        // (the memory budget at work) replaced.
        422 => {
            c.refused.fetch_add(1, Ordering::Relaxed);
        }
        409 => {
            c.refused.fetch_add(1, Ordering::Relaxed);
            assert_eq!(
                post_json(addr, &format!("/api/sessions/{id}/reset"), "").status,
                200
            );
        }
        404 => {
            c.refused.fetch_add(1, Ordering::Relaxed);
            *id = herc_session(addr);
        }
        s => panic!("steps: {s} {}", String::from_utf8_lossy(&r.body)),
    }
}

fn worker(addr: SocketAddr, w: usize, c: &Counts, held: &mut Vec<TcpStream>) {
    let mut id = herc_session(addr);
    c.requests.fetch_add(1, Ordering::Relaxed);
    for round in 0..ROUNDS {
        match (round + w) % 5 {
            0 | 1 => steps_on(addr, &mut id, c),
            2 => {
                let (r, n) =
                    get_counted(addr, &format!("/api/sessions/{id}/trace")).expect("download");
                c.requests.fetch_add(1, Ordering::Relaxed);
                match r.status {
                    200 => {
                        c.downloaded_bytes.fetch_add(n, Ordering::Relaxed);
                    }
                    503 | 404 => {
                        c.refused.fetch_add(1, Ordering::Relaxed);
                    }
                    s => panic!("download: {s}"),
                }
            }
            3 => {
                // A head that never ends, and a body that never arrives: left open.
                let mut s = TcpStream::connect(addr).unwrap();
                let _ = s.write_all(b"GET /api/engines HTTP/1.1\r\nHost: 127");
                held.push(s);
                let mut s = TcpStream::connect(addr).unwrap();
                let _ = write!(
                    s,
                    "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{{"
                );
                held.push(s);
                c.requests.fetch_add(2, Ordering::Relaxed);
            }
            _ => {
                // A download whose reader reads the head and then stops reading.
                let mut s = TcpStream::connect(addr).unwrap();
                let _ = write!(
                    s,
                    "GET /api/sessions/{id}/trace HTTP/1.1\r\nHost: {addr}\r\n\r\n"
                );
                let _ = s.read(&mut [0u8; 256]);
                held.push(s);
                c.requests.fetch_add(1, Ordering::Relaxed);
            }
        }
        // Old slow clients go away eventually; keep a bounded number open.
        if held.len() > 24 {
            held.drain(..12);
        }
    }
}

#[test]
fn a_few_hundred_mixed_requests_keep_the_server_responsive_and_bounded() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let start_at = Instant::now();
    let addr = start(Options {
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        write_timeout: Duration::from_secs(2),
        ..Options::default()
    });
    let (rss0, _) = rss_kib();
    let counts = Arc::new(Counts::default());
    let done = Arc::new(AtomicBool::new(false));

    let health = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut worst = Duration::ZERO;
            let mut n = 0;
            while !done.load(Ordering::Relaxed) {
                let t = Instant::now();
                let r = request(addr, "GET", "/api/engines", "", None).expect("health request");
                assert_eq!(r.status, 200);
                worst = worst.max(t.elapsed());
                n += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            (worst, n)
        })
    };
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let c = counts.clone();
            std::thread::spawn(move || {
                let mut held = Vec::new();
                worker(addr, w, &c, &mut held);
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a load worker failed");
    }
    done.store(true, Ordering::Relaxed);
    let (worst, health_n) = health.join().expect("the health checker failed");
    // Still up after the load.
    assert_eq!(get(addr, "/api/engines").status, 200);
    let (rss, peak) = rss_kib();
    let took = start_at.elapsed();
    let _ = writeln!(
        std::io::stderr(),
        "load test: {} requests ({} refused by a budget or bound), {} health requests, \
         worst health answer {:?}, {} MiB downloaded, RSS {} -> {} MiB, peak {} MiB, {:?}",
        counts.requests.load(Ordering::Relaxed),
        counts.refused.load(Ordering::Relaxed),
        health_n,
        worst,
        counts.downloaded_bytes.load(Ordering::Relaxed) >> 20,
        rss0 >> 10,
        rss >> 10,
        peak >> 10,
        took
    );
    assert!(
        worst < Duration::from_secs(1),
        "a health request took {worst:?}"
    );
    assert!(
        peak < RSS_BOUND_KIB,
        "peak RSS {} MiB over the {} MiB bound",
        peak >> 10,
        RSS_BOUND_KIB >> 10
    );
    assert!(
        took < Duration::from_secs(120),
        "the load test took {took:?}"
    );
}

/// Attacker connections: more than the 128 slots, so that every slot is held.
const ATTACKERS: usize = 160;
const ATTACK_THREADS: usize = 4;

/// Open a connection and send a head that never ends; non-blocking afterwards, so
/// that the attacker can see when the server closes it.
fn open_partial(addr: SocketAddr) -> Option<TcpStream> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok()?;
    s.write_all(b"GET /api/engines HTTP/1.1\r\nHost: 127")
        .ok()?;
    s.set_nonblocking(true).ok()?;
    Some(s)
}

#[test]
fn a_client_holding_every_slot_with_partial_heads_cannot_starve_others() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let secs: u64 = std::env::var("RETROANIM_SLOW_HEAD_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    // The defaults: 128 connection slots, a 10 s head timeout.
    let addr = start(Options::default());
    assert_eq!(get(addr, "/api/engines").status, 200);
    let stop = Arc::new(AtomicBool::new(false));
    let reopened = Arc::new(AtomicUsize::new(0));
    let most_open = Arc::new(AtomicUsize::new(0));
    let open_now = Arc::new(AtomicUsize::new(0));
    let attackers: Vec<_> = (0..ATTACK_THREADS)
        .map(|_| {
            let (stop, reopened) = (stop.clone(), reopened.clone());
            let (most_open, open_now) = (most_open.clone(), open_now.clone());
            std::thread::spawn(move || {
                let mut socks: Vec<Option<TcpStream>> =
                    (0..ATTACKERS / ATTACK_THREADS).map(|_| None).collect();
                let mut buf = [0u8; 512];
                while !stop.load(Ordering::Relaxed) {
                    for slot in socks.iter_mut() {
                        let closed = match slot {
                            None => true,
                            Some(s) => match s.read(&mut buf) {
                                Ok(0) => true,
                                Ok(_) => false,
                                Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                            },
                        };
                        if closed {
                            if slot.take().is_some() {
                                open_now.fetch_sub(1, Ordering::Relaxed);
                                reopened.fetch_add(1, Ordering::Relaxed);
                            }
                            *slot = open_partial(addr);
                            if slot.is_some() {
                                let n = open_now.fetch_add(1, Ordering::Relaxed) + 1;
                                most_open.fetch_max(n, Ordering::Relaxed);
                            }
                        }
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        })
        .collect();
    // Let the attack fill every slot first.
    std::thread::sleep(Duration::from_millis(500));
    let end = Instant::now() + Duration::from_secs(secs);
    let (mut probes, mut worst) = (0usize, Duration::ZERO);
    let mut failures = Vec::new();
    while Instant::now() < end {
        let t = Instant::now();
        let r = request(addr, "GET", "/api/engines", "", None);
        let took = t.elapsed();
        worst = worst.max(took);
        probes += 1;
        match r {
            Ok(r) if r.status == 200 && took < Duration::from_secs(1) => {}
            Ok(r) => failures.push(format!("status {} after {took:?}", r.status)),
            Err(e) => failures.push(format!("{e} after {took:?}")),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    for a in attackers {
        a.join().expect("an attacker thread failed");
    }
    let _ = writeln!(
        std::io::stderr(),
        "slow-head attack: {secs} s, {} attacker connections at most, {} reopened, \
         {probes} health probes, worst {worst:?}, {} failed",
        most_open.load(Ordering::Relaxed),
        reopened.load(Ordering::Relaxed),
        failures.len()
    );
    assert!(
        most_open.load(Ordering::Relaxed) >= 128,
        "the attack never held every slot"
    );
    assert!(probes >= secs as usize, "{probes} probes in {secs} s");
    assert!(failures.is_empty(), "health probes failed: {failures:?}");
}
