//! `retroanim bench herc`: N sample HERCs (the biped in its original short timing, the copy
//! the conformance scenarios use, so that figures stay comparable across releases after
//! the viewer's sample was retimed), three threads each
//! (locomotion, torso twist, aim pitch), stepped at the nominal 25 Hz with the full pose and
//! every Q14 world transform evaluated each step. All buffers are sized at construction, so a
//! steady-state tick allocates nothing.

use crate::anim_list::AnimList;
use crate::clock::{clock_for, NOMINAL_STEP_MS};
use crate::object::SimObject;
use crate::shape_instance::ShapeInstance;
use retroanim_core::bench::BenchWorld;
use std::sync::Arc;

/// The benchmark HERC, bundled so the benchmark needs no files at run time.
pub const SAMPLE_BIPED_JSON: &str = include_str!("../samples/bench_biped.json");

/// Default world size of `retroanim bench herc` (the 1,000 HERCs).
pub const DEFAULT_HERCS: usize = 1_000;

/// Sequence ids in the sample biped.
const WALK: i16 = 1;
const RUN: i16 = 2;
const TURN: i16 = 3;
const TWIST: i16 = 5;
const PITCH: i16 = 6;

/// The bundled sample biped, parsed and validated.
pub fn sample_biped() -> AnimList {
    let doc: serde_json::Value =
        serde_json::from_str(SAMPLE_BIPED_JSON).expect("bundled biped.json is valid JSON");
    AnimList::from_json_value(&doc, "samples/bench_biped.json", "")
        .expect("bundled biped.json is a valid asset")
}

/// The torso threads' ids: every HERC adds its threads in the same order (locomotion,
/// twist, pitch), and an instance numbers its threads in the order they are added, so the
/// ids are the same for all and are not kept per HERC.
const TWIST_ID: usize = 1;
const PITCH_ID: usize = 2;

/// One benchmark HERC.
struct Herc {
    shape: ShapeInstance,
    object: SimObject,
    aim: u16,
    aim_step: u16,
}

/// The benchmark world.
pub struct HercBench {
    list: Arc<AnimList>,
    hercs: Vec<Herc>,
    anim_delta: i16,
    steps: u64,
}

impl HercBench {
    pub fn new(n: usize) -> HercBench {
        let list = Arc::new(sample_biped());
        let hercs = (0..n)
            .map(|i| {
                let mut shape = ShapeInstance::new(&list);
                let loco_seq = [WALK, RUN, TURN][i % 3];
                let loco = shape.add_thread(&list, loco_seq).unwrap_or(0);
                let twist = shape.add_thread(&list, TWIST);
                let pitch = shape.add_thread(&list, PITCH);
                assert_eq!((twist, pitch), (Ok(TWIST_ID), Ok(PITCH_ID)));
                if let Some(th) = shape.thread_mut(loco) {
                    // Rates spread over 0.5×–1.5× so the HERCs fall out of step.
                    th.set_rate(&list, 128 + (i as i16 % 256));
                }
                Herc {
                    shape,
                    object: SimObject::default(),
                    aim: (i as u16).wrapping_mul(977),
                    aim_step: 64 + (i as u16 % 512),
                }
            })
            .collect();
        HercBench {
            list,
            hercs,
            anim_delta: clock_for(NOMINAL_STEP_MS).anim_delta,
            steps: 0,
        }
    }
}

impl BenchWorld for HercBench {
    fn entities(&self) -> usize {
        self.hercs.len()
    }

    fn tick(&mut self) {
        let list = &*self.list;
        for h in &mut self.hercs {
            // Torso threads never advance; they are aimed by seeking (H31 step 6).
            h.aim = h.aim.wrapping_add(h.aim_step);
            if let Some(th) = h.shape.thread_mut(TWIST_ID) {
                th.seek(list, TWIST, (h.aim >> 2) as i16);
            }
            if let Some(th) = h.shape.thread_mut(PITCH_ID) {
                th.seek(list, PITCH, (h.aim.wrapping_mul(3) >> 2) as i16);
            }
            let read = h.shape.tick(list, self.anim_delta);
            h.object.integrate(&read);
            h.shape.evaluate(list, &read);
        }
        self.steps += 1;
    }

    fn checksum(&self) -> u64 {
        let mut sum = self.steps;
        for h in &self.hercs {
            for p in h.object.position {
                sum = sum.wrapping_mul(31).wrapping_add(p as u64);
            }
            for w in h.shape.world() {
                sum = sum
                    .wrapping_mul(31)
                    .wrapping_add(w.t[0] as u64 ^ (w.m[0] as u64) << 32);
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_world_steps_and_moves() {
        let mut b = HercBench::new(6);
        assert_eq!(b.entities(), 6);
        let c0 = b.checksum();
        for _ in 0..25 {
            b.tick();
        }
        assert_ne!(b.checksum(), c0);
        // Walkers and runners moved forward (+Y) under root motion.
        assert!(b.hercs[0].object.position[1] > 0);
        assert!(b.hercs[1].object.position[1] > 0);
    }
}
