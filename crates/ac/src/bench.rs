//! The benchmark world of `retroanim bench ac`: N objects on the sample humanoid table
//! (`assets/ac/humanoid.json`, compiled in memory), each cycling through walk, run,
//! turn, stop-turn, stop and stop-completely commands at staggered times, ticked at
//! 30 Hz quanta. Records, tables and buffers are shared or reserved up front, so once
//! every object has seen its commands a tick allocates nothing.

use crate::commands::{HoldKey, MovementParameters, RUN_FORWARD, TURN_RIGHT, WALK_FORWARD};
use crate::math::{AFrame, Quat, Vec3};
use crate::motion_interp::Weenie;
use crate::motion_table::MotionTableData;
use crate::physics_obj::{PhysicsObj, DEFAULT_CELL};
use crate::records::authoring::{compile, AssetSource};
use crate::sequence::{AnimMap, AnimSource};
use retroanim_core::bench::BenchWorld;
use std::sync::Arc;

/// Default number of objects.
pub const DEFAULT_OBJECTS: usize = 10_000;
/// The physics quantum of one bench tick.
pub const QUANTUM: f64 = 1.0 / 30.0;
/// Ticks between two commands of one object (1.5 s).
pub const COMMAND_PERIOD: u64 = 45;

const SAMPLE: &str = include_str!("../samples/humanoid.json");

/// The sample table and its animations, compiled from the bundled source.
pub fn sample_table() -> Result<(Arc<MotionTableData>, AnimMap), String> {
    let src: AssetSource = serde_json::from_str(SAMPLE).map_err(|e| e.to_string())?;
    let c = compile(&src)?;
    let mut anims = AnimMap::new();
    for a in c.animations {
        anims.insert(a);
    }
    Ok((Arc::new(MotionTableData::from(&c.motion_table)), anims))
}

/// A grounded creature in its cell with the given table (the runner's setup procedure).
pub fn spawn(
    table: Arc<MotionTableData>,
    anims: Arc<dyn AnimSource + Send + Sync>,
    origin: Vec3,
) -> PhysicsObj {
    let weenie = Weenie {
        is_creature: true,
        run_rate: 1.5,
    };
    let mut obj = PhysicsObj::new(
        anims,
        weenie,
        DEFAULT_CELL,
        AFrame::new(origin, Quat::IDENTITY),
    );
    obj.set_motion_table(Some(table));
    obj.set_in_cell(true);
    obj.apply_contact(true, true);
    obj
}

/// N objects on the sample table.
pub struct AcBench {
    objects: Vec<PhysicsObj>,
    tick: u64,
}

impl AcBench {
    /// `n` objects; fails only if the bundled sample source does not compile.
    pub fn try_new(n: usize) -> Result<AcBench, String> {
        let (table, anims) = sample_table()?;
        let anims: Arc<dyn AnimSource + Send + Sync> = Arc::new(anims);
        let objects = (0..n)
            .map(|i| {
                let origin = Vec3::new((i % 100) as f32 * 2.0, (i / 100) as f32 * 2.0, 0.0);
                spawn(table.clone(), anims.clone(), origin)
            })
            .collect();
        Ok(AcBench { objects, tick: 0 })
    }

    /// `n` objects on the bundled sample (whose compilation a unit test guarantees).
    pub fn new(n: usize) -> AcBench {
        AcBench::try_new(n).unwrap_or(AcBench {
            objects: Vec::new(),
            tick: 0,
        })
    }

    pub fn objects(&self) -> &[PhysicsObj] {
        &self.objects
    }
}

/// The command an object issues at its `k`-th command time.
fn command(obj: &mut PhysicsObj, k: u64) {
    let p = MovementParameters::default();
    let run = MovementParameters {
        hold_key_to_apply: HoldKey::Run,
        ..p
    };
    match k % 6 {
        0 => obj.do_motion(WALK_FORWARD, &p),
        1 => obj.do_motion(WALK_FORWARD, &run),
        2 => obj.do_motion(TURN_RIGHT, &p),
        3 => obj.stop_motion(TURN_RIGHT, &p),
        4 => obj.stop_motion(RUN_FORWARD, &p),
        _ => obj.stop_completely(),
    };
}

impl BenchWorld for AcBench {
    fn entities(&self) -> usize {
        self.objects.len()
    }

    fn tick(&mut self) {
        let t = self.tick;
        for (i, obj) in self.objects.iter_mut().enumerate() {
            let phase = t + (i as u64 % COMMAND_PERIOD);
            if phase.is_multiple_of(COMMAND_PERIOD) {
                command(obj, phase / COMMAND_PERIOD + i as u64);
            }
            obj.update_object_internal(QUANTUM);
            obj.hook_log.clear();
            obj.motions_done.clear();
        }
        self.tick += 1;
    }

    fn checksum(&self) -> u64 {
        self.objects.iter().fold(0u64, |acc, o| {
            acc.wrapping_mul(31)
                .wrapping_add(u64::from(o.frame.origin.x.to_bits()))
                .wrapping_add(u64::from(o.frame.origin.y.to_bits()))
                .wrapping_add(u64::from(o.frame.orientation.z.to_bits()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_compiles_and_objects_move() {
        let mut b = AcBench::try_new(8).unwrap();
        let start = b.checksum();
        for _ in 0..200 {
            b.tick();
        }
        assert_eq!(b.entities(), 8);
        assert_ne!(b.checksum(), start);
        for o in b.objects() {
            assert!(o.sequence.nodes.len() <= 8, "{}", o.sequence.nodes.len());
            assert!(o.minterp.pending_motions.len() <= 16);
        }
    }
}
