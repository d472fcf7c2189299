//! The benchmark checksums, pinned. Each value is what `retroanim bench ENGINE
//! --entities N --ticks 37 --threads T --json` has printed since before the speed
//! rounds; every fast path was kept only while these stayed equal, so a change that
//! moves one changed what the engine computes. The worlds are built through the
//! engines' `bench` modules, the same way `retroanim bench` builds them: the entities
//! split into `T` worlds of at most `ceil(N / T)`, 50 warm-up ticks, then the timed
//! ticks, and the worlds' checksums added (wrapping). The worlds are independent, so
//! the threads `retroanim bench` would use change nothing and they run one after the
//! other here. docs/performance.md ("Method") says how the values were obtained.

use retroanim_core::bench::BenchWorld;
use std::process::Command;

/// `retroanim bench`'s warm-up ticks (`WARMUP_TICKS` in src/bench.rs).
const WARMUP_TICKS: usize = 50;
/// The ticks of the pinned runs (`--ticks 37`).
const TICKS: usize = 37;

type Build = fn(usize) -> Box<dyn BenchWorld>;

fn ac(n: usize) -> Box<dyn BenchWorld> {
    Box::new(retroanim_ac::bench::AcBench::new(n))
}

fn ac_chase(n: usize) -> Box<dyn BenchWorld> {
    Box::new(retroanim_ac::bench::ChaseBench::new(n))
}

fn herc(n: usize) -> Box<dyn BenchWorld> {
    Box::new(retroanim_herc::bench::HercBench::new(n))
}

fn actor(n: usize) -> Box<dyn BenchWorld> {
    Box::new(retroanim_actor::bench::ActorBench::new(n))
}

/// The checksum `retroanim bench` prints for `entities` on `threads` threads.
fn checksum(build: Build, entities: usize, threads: usize) -> u64 {
    let per = entities.div_ceil(threads);
    let worlds = entities.div_ceil(per);
    (0..worlds)
        .map(|i| {
            let mut w = build(per.min(entities - i * per));
            for _ in 0..WARMUP_TICKS + TICKS {
                w.tick();
            }
            w.checksum()
        })
        .fold(0u64, u64::wrapping_add)
}

fn assert_pinned(engine: &str, build: Build, entities: usize, threads: usize, expected: u64) {
    let got = checksum(build, entities, threads);
    assert_eq!(
        got, expected,
        "{engine} --entities {entities} --threads {threads}: checksum {got:016x}, pinned \
         {expected:016x}; a fast path changed what the engine computes"
    );
}

#[test]
fn ac_checksums_at_1000_and_10007_objects_on_one_and_two_threads() {
    assert_pinned("ac", ac, 1000, 1, 0x67ea_6d6e_c9ab_da4c);
    assert_pinned("ac", ac, 1000, 2, 0x966c_e8ae_9ef1_7296);
    assert_pinned("ac", ac, 10_007, 1, 0xb365_75df_0087_06bf);
    assert_pinned("ac", ac, 10_007, 2, 0x7e38_ce8f_8f4f_b8dd);
}

#[test]
fn ac_chase_checksum_at_1000_chasers() {
    assert_pinned("ac-chase", ac_chase, 1000, 1, 0x780e_7c94_6770_0186);
}

#[test]
fn herc_checksums_at_1000_and_10007_hercs_on_one_and_two_threads() {
    assert_pinned("herc", herc, 1000, 1, 0x854c_c78e_8aa1_936e);
    assert_pinned("herc", herc, 1000, 2, 0x3a90_6065_16dc_875a);
    assert_pinned("herc", herc, 10_007, 1, 0x2cbb_d2bc_7e9f_354a);
    assert_pinned("herc", herc, 10_007, 2, 0x6f95_4279_184f_711a);
}

#[test]
fn actor_checksums_at_1000_and_10007_actors_on_one_and_two_threads() {
    assert_pinned("actor", actor, 1000, 1, 0x2a93_f2f7_0f5e_6b11);
    assert_pinned("actor", actor, 1000, 2, 0xc99a_bf39_4da5_0536);
    assert_pinned("actor", actor, 10_007, 1, 0x5277_ea93_a642_49b1);
    assert_pinned("actor", actor, 10_007, 2, 0xf5b9_fca6_1455_6a56);
}

/// The split above is `retroanim bench`'s: the binary gives the same checksum for a
/// run that splits unevenly (1,001 actors on two threads: worlds of 501 and 500).
#[test]
fn the_binary_splits_the_entities_as_this_test_does() {
    let o = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(["bench", "actor", "--entities", "1001", "--ticks", "37"])
        .args(["--threads", "2", "--json"])
        .output()
        .expect("the retroanim binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["threads"], 2);
    let ours = format!("{:016x}", checksum(actor, 1001, 2));
    assert_eq!(v["checksum"].as_str(), Some(ours.as_str()));
}
