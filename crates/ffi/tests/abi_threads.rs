//! Worlds used from several threads: each world has its own lock, so calls on one world
//! are serialised (none is lost), calls on different worlds do not wait for each other,
//! and a world freed by one thread is refused, never used, by the others.

mod support;
use support::ac_world;

use retroanim_ffi::ac::*;
use retroanim_ffi::RaStatus;

const HUMANOID_TABLE: u32 = 0x0900_0001;

fn clock(w: RaAcWorld) -> f64 {
    let mut c = 0.0;
    // SAFETY: a writable out-parameter.
    assert_eq!(unsafe { ra_ac_world_clock(w, &mut c) }, RaStatus::Ok);
    c
}

#[test]
fn two_threads_ticking_one_world_lose_no_tick() {
    let w = ac_world();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                for _ in 0..500 {
                    assert_eq!(ra_ac_world_tick(w, 0.25), RaStatus::Ok);
                }
            });
        }
    });
    // 100 s at the start, plus 1,000 ticks of a quarter second (exact in binary).
    assert_eq!(clock(w), 350.0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn threads_on_their_own_worlds_each_see_only_their_own_calls() {
    let worlds: Vec<RaAcWorld> = (0..4).map(|_| ac_world()).collect();
    std::thread::scope(|s| {
        for (k, &w) in worlds.iter().enumerate() {
            s.spawn(move || {
                for _ in 0..(k + 1) * 40 {
                    assert_eq!(ra_ac_world_tick(w, 0.5), RaStatus::Ok);
                }
                // SAFETY: a null description and a null index are allowed.
                let s = unsafe {
                    ra_ac_world_add_creature(
                        w,
                        HUMANOID_TABLE,
                        std::ptr::null(),
                        std::ptr::null_mut(),
                    )
                };
                assert_eq!(s, RaStatus::Ok);
            });
        }
    });
    let clocks: Vec<f64> = worlds.iter().map(|&w| clock(w)).collect();
    assert_eq!(clocks, [120.0, 140.0, 160.0, 180.0]);
    for w in worlds {
        let mut n = 0;
        assert_eq!(
            // SAFETY: a writable out-parameter.
            unsafe { ra_ac_world_creature_count(w, &mut n) },
            RaStatus::Ok
        );
        assert_eq!(n, 1);
        assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
    }
}

#[test]
fn a_world_freed_by_another_thread_is_refused_not_used() {
    for _ in 0..20 {
        let w = ac_world();
        let statuses = std::thread::scope(|s| {
            let caller = s.spawn(|| {
                (0..200)
                    .map(|_| ra_ac_world_tick(w, 0.25))
                    .collect::<Vec<_>>()
            });
            assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
            caller.join().unwrap()
        });
        // Calls before the free succeed, every call after it is refused.
        let first_refused = statuses
            .iter()
            .position(|s| *s != RaStatus::Ok)
            .unwrap_or(statuses.len());
        assert!(statuses[first_refused..]
            .iter()
            .all(|s| *s == RaStatus::BadHandle));
        assert_eq!(ra_ac_world_tick(w, 0.25), RaStatus::BadHandle);
        assert_eq!(ra_ac_world_free(w), RaStatus::BadHandle);
    }
}
