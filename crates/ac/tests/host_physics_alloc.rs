//! A steady two-phase tick allocates nothing: its proposal and batch buffers are kept
//! from tick to tick (docs/embedding.md "Host physics"). The binary has no test harness
//! (Cargo.toml: `harness = false`): `main` is the check and the process's only thread,
//! so the counting allocator sees this check only. A failed assertion exits non-zero.

use retroanim_ac::commands::{MovementParameters, WALK_FORWARD};
use retroanim_ac::host_physics::Correction;
use retroanim_ac::interpolation::Position;
use retroanim_ac::math::Vec3;
use retroanim_ac::{Creature, Loader, World};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    a_steady_two_phase_tick_allocates_nothing();
    println!("host_physics_alloc: a steady two-phase tick allocates nothing: ok");
}

fn a_steady_two_phase_tick_allocates_nothing() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let m = Loader::from_dir(dir).load(0x0900_0001).unwrap();
    let mut w = World::new(100.0);
    let walk = MovementParameters::default();
    for id in 1..=40u32 {
        let c = Creature::builder(&m)
            .origin(Vec3::new(id as f32 * 2.0, 0.0, 0.0))
            .build();
        w.add_creature(id, 0.5, 1.8, c);
        assert_eq!(
            w.get_mut(id).unwrap().do_motion(WALK_FORWARD, &walk),
            retroanim_ac::commands::WeenieError::None
        );
    }
    // Every answer kind, every tick: accept, a correction (with the outdoor rule) and a
    // refusal.
    let host = |w: &mut World| {
        w.propose(1.0 / 30.0).unwrap();
        loop {
            w.apply_outdoor_rule().unwrap();
            for k in 0..w.proposals().len() {
                let p = w.proposals()[k];
                if p.id.is_multiple_of(3) {
                    w.correct(p.id, Correction::Stay).unwrap();
                } else if p.id % 3 == 1 {
                    let to = Position::new(p.to.cell, p.to.frame);
                    w.correct(p.id, Correction::MoveTo(to)).unwrap();
                }
            }
            if w.commit().unwrap() {
                break;
            }
        }
    };
    for _ in 0..60 {
        host(&mut w);
    }
    let region = Region::new(GLOBAL);
    for _ in 0..120 {
        host(&mut w);
    }
    let stats = region.change();
    assert_eq!(
        stats.allocations + stats.reallocations,
        0,
        "allocations in 120 steady two-phase ticks"
    );
    assert!(
        w.get(2).unwrap().frame().origin.y > 1.0,
        "the walkers walked"
    );
}
