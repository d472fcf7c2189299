//! The benchmark worlds of `retroanim bench`.
//!
//! `ac` ([`AcBench`]): N objects on the sample humanoid table
//! (`assets/ac/humanoid.json`, compiled in memory), each cycling through walk, run,
//! turn, stop-turn, stop and stop-completely commands at staggered times, ticked at
//! 30 Hz quanta. Records, tables and buffers are shared or reserved up front, so once
//! every object has seen its commands a tick allocates nothing.
//!
//! `ac-chase` ([`ChaseBench`]): N creatures chasing N/10 wandering creatures through
//! the several-object world's move-to, target and voyeur machinery.

use crate::commands::{
    HoldKey, MovementParameters, MovementType, RUN_FORWARD, TURN_RIGHT, WALK_FORWARD,
};
use crate::interpolation::Position;
use crate::loader::MotionSet;
use crate::math::{AFrame, Quat, Vec3};
use crate::motion_interp::Weenie;
use crate::motion_table::MotionTableData;
use crate::moveto_manager::MovementStruct;
use crate::physics_obj::{PhysicsObj, DEFAULT_CELL};
use crate::records::authoring::{compile, AssetSource};
use crate::sequence::{AnimMap, AnimSource};
use crate::world::{self, Registry};
use crate::Creature;
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
        Ok(AcBench::with_table(n, table, anims))
    }

    /// `n` objects on an already loaded table: the static page reads the sample's
    /// records (`assets/ac/records`) instead, so its module carries no authoring compiler.
    pub fn with_table(n: usize, table: Arc<MotionTableData>, anims: AnimMap) -> AcBench {
        crate::table_manager::stop_clone_checks();
        let anims: Arc<dyn AnimSource + Send + Sync> = Arc::new(anims);
        let objects = (0..n)
            .map(|i| {
                let origin = Vec3::new((i % 100) as f32 * 2.0, (i / 100) as f32 * 2.0, 0.0);
                spawn(table.clone(), anims.clone(), origin)
            })
            .collect();
        AcBench { objects, tick: 0 }
    }

    /// `n` objects on the bundled sample (whose compilation a unit test guarantees).
    pub fn new(n: usize) -> AcBench {
        crate::table_manager::stop_clone_checks();
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

/// Default number of chasers of the move-to chase workload.
pub const DEFAULT_CHASERS: usize = 10_000;
/// Chasers per target in the chase workload.
pub const CHASERS_PER_TARGET: usize = 10;
/// Half the side of the square a target wanders in around its home, in units.
const WANDER: u32 = 10;

/// The objects of the chase world, found by id in constant time: ids are dense
/// (object `i` has id `i + 1`), so the figures describe the move-to path rather than
/// the registry. (`World` keeps a hash index for arbitrary ids; this is cheaper still.)
struct Dense(Vec<PhysicsObj>);

impl Registry for Dense {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn at(&self, i: usize) -> &PhysicsObj {
        &self.0[i]
    }
    fn at_mut(&mut self, i: usize) -> &mut PhysicsObj {
        &mut self.0[i]
    }
    fn find(&self, id: u32) -> Option<usize> {
        let i = (id as usize).checked_sub(1)?;
        (self.0.get(i)?.id == id).then_some(i)
    }
    // Object `i`'s id finds slot `id - 1` or nothing, and slot `i` holds that id: no
    // second read of the object.
    fn finds_itself(&self, i: usize) -> bool {
        let found = (self.0[i].id as usize).checked_sub(1) == Some(i);
        debug_assert_eq!(found, self.find(self.0[i].id) == Some(i), "finds_itself");
        found
    }
}

/// The move-to chase workload of `retroanim bench ac-chase`: N chasers run to
/// N/10 targets (rounded up) with `MoveToObject`, while each target walks to
/// pseudo-random points near its home with `MoveToPosition`. Chasers learn where their
/// target went only through the voyeur reports the target's `HandleTargetting` sends;
/// an object whose move ended (arrived) is given its next move at once, so every
/// tick has the same mix of moves starting, running and ending. Chaser `i` always
/// chases target `i / 10`, which keeps every voyeur table at its first size: the
/// steady tick allocates nothing.
pub struct ChaseBench {
    objects: Dense,
    chasers: usize,
    clock: f64,
    /// Per target: how many wander legs it has started (its next point's seed).
    legs: Vec<u32>,
    /// Every chaser's move but its target's id, which [`ChaseBench::next_move`] sets:
    /// built once rather than on every re-issue.
    chase: MovementStruct,
}

/// A chaser's `MoveToObject` to `target` (`target` 0: the template of
/// [`ChaseBench::chase`]).
fn chase_move(target: u32) -> MovementStruct {
    let mut mvs = MovementStruct::new(MovementType::MoveToObject, MovementParameters::default());
    mvs.object_id = target;
    mvs.top_level_id = target;
    mvs.radius = 0.5;
    mvs.height = 1.8;
    mvs
}

/// A walking move to a point (targets never run, so chasers catch up).
fn wander_params() -> MovementParameters {
    MovementParameters {
        can_run: false,
        ..MovementParameters::default()
    }
}

/// A deterministic hash of (target, leg): the next wander point.
fn wander_point(home: Vec3, target: usize, leg: u32) -> Vec3 {
    let mut h = (target as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(leg);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    let side = 2 * WANDER + 1;
    let dx = (h % u64::from(side)) as f32 - WANDER as f32;
    let dy = ((h >> 16) % u64::from(side)) as f32 - WANDER as f32;
    Vec3::new(home.x + dx, home.y + dy, home.z)
}

/// Where chaser `i` starts (the grid of [`AcBench`]).
fn grid(i: usize) -> Vec3 {
    Vec3::new((i % 100) as f32 * 2.0, (i / 100) as f32 * 2.0, 0.0)
}

/// Voyeur entries reserved per target (ten chasers, and the ones re-issued).
const VOYEUR_CAPACITY: usize = 32;

impl ChaseBench {
    /// `n` chasers and `n / 10` targets (rounded up); fails only if the bundled sample
    /// source does not compile.
    pub fn try_new(n: usize) -> Result<ChaseBench, String> {
        let (table, anims) = sample_table()?;
        let motions = MotionSet {
            table,
            anims: Arc::new(anims),
        };
        let targets = n.div_ceil(CHASERS_PER_TARGET);
        let clock = 100.0;
        let mut objects = Vec::with_capacity(n + targets);
        for i in 0..n + targets {
            // Target j stands one step off the first of its ten chasers.
            let origin = if i < n {
                grid(i)
            } else {
                grid((i - n) * CHASERS_PER_TARGET).add(Vec3::new(1.0, 1.0, 0.0))
            };
            let mut obj = Creature::builder(&motions)
                .origin(origin)
                .run_rate(1.5)
                .build()
                .into_physics_obj();
            obj.id = i as u32 + 1;
            obj.radius = 0.5;
            obj.height = 1.8;
            obj.now = clock;
            obj.moveto = crate::cold_box::ColdBox::fresh_at(clock);
            objects.push(obj);
        }
        let mut b = ChaseBench {
            objects: Dense(objects),
            chasers: n,
            clock,
            legs: vec![0; targets],
            chase: chase_move(0),
        };
        for i in 0..n + targets {
            b.next_move(i);
        }
        // A target's ten chasers re-issue their chases while in range, so now and then a
        // table holds more entries than the room its first ten made (its three buffers
        // and the report buffer grew between ticks 50 and 650 before this).
        for obj in b.objects.0.iter_mut() {
            if let Some(tm) = obj.target_manager.as_mut() {
                tm.scratch.reserve(VOYEUR_CAPACITY);
                if let Some(v) = tm.voyeurs.as_mut() {
                    v.reserve_total(VOYEUR_CAPACITY);
                }
            }
        }
        Ok(b)
    }

    /// `n` chasers on the bundled sample (whose compilation a unit test guarantees).
    pub fn new(n: usize) -> ChaseBench {
        crate::table_manager::stop_clone_checks();
        ChaseBench::try_new(n).unwrap_or(ChaseBench {
            objects: Dense(Vec::new()),
            chasers: 0,
            clock: 0.0,
            legs: Vec::new(),
            chase: chase_move(0),
        })
    }

    pub fn objects(&self) -> &[PhysicsObj] {
        &self.objects.0
    }

    /// How many of the objects are chasers (the rest are targets).
    pub fn chasers(&self) -> usize {
        self.chasers
    }

    /// Object `i`'s next move: a chaser runs to its target, a target walks on.
    // Inline, with the target's move out of line: most re-issues are chases, which then
    // call `perform_movement` from the scan without a frame of their own.
    #[inline(always)]
    fn next_move(&mut self, i: usize) {
        let n = self.chasers;
        if i < n {
            let target = (n + i / CHASERS_PER_TARGET) as u32 + 1;
            self.chase.object_id = target;
            self.chase.top_level_id = target;
            debug_assert!(self.chase == chase_move(target));
            world::perform_movement(&mut self.objects, i, &self.chase);
            return;
        }
        self.next_wander(i);
    }

    /// Target `i`'s next wander leg.
    #[inline(never)]
    fn next_wander(&mut self, i: usize) {
        let n = self.chasers;
        let t = i - n;
        let leg = self.legs[t];
        self.legs[t] = leg.wrapping_add(1);
        let home = grid(t * CHASERS_PER_TARGET).add(Vec3::new(1.0, 1.0, 0.0));
        let obj = self.objects.at(i);
        let mut frame = obj.frame;
        frame.origin = wander_point(home, t, leg);
        let mut mvs = MovementStruct::new(MovementType::MoveToPosition, wander_params());
        mvs.position = Position::new(obj.cell, frame);
        world::perform_movement(&mut self.objects, i, &mvs);
    }
}

/// Whether object `o`'s move has ended (the move-to manager's own state).
#[inline(always)]
fn is_idle(o: &PhysicsObj) -> bool {
    !o.moveto.is_moving_to()
}

/// The index of the first of `items[from..]` that `pred` accepts, tested in order, as
/// `position` would (its plain twin, checked on every use in debug builds).
#[inline(always)]
fn first_where<T>(items: &[T], from: usize, pred: impl Fn(&T) -> bool) -> Option<usize> {
    let k = first_where_by_rounds(items, from, &pred);
    debug_assert_eq!(
        k,
        items[from..].iter().position(&pred).map(|p| from + p),
        "first_where from {from}"
    );
    k
}

/// Items tested per round of [`first_where_by_rounds`].
const ROUND: usize = 16;

/// [`first_where`] by rounds of [`ROUND`] items, each round's tests written out: the
/// loop's own test and steps are paid once a round, not once an item. About one
/// object in seven is idle, so a search starts after every seventh object or so: it
/// starts from the slice as it is (no count of rounds formed first), and forms the
/// index only from the slice left where it ends.
#[inline(always)]
fn first_where_by_rounds<T>(items: &[T], from: usize, pred: impl Fn(&T) -> bool) -> Option<usize> {
    let mut rest = items.get(from..)?;
    while let Some((round, tail)) = rest.split_first_chunk::<ROUND>() {
        if let Some(k) = round.iter().position(&pred) {
            return Some(items.len() - rest.len() + k);
        }
        rest = tail;
    }
    Some(items.len() - rest.len() + rest.iter().position(pred)?)
}

impl BenchWorld for ChaseBench {
    fn entities(&self) -> usize {
        self.objects.0.len()
    }

    fn tick(&mut self) {
        world::start_clock(&mut self.objects.0, &mut self.clock, QUANTUM);
        world::update_all(&mut self.objects, QUANTUM);
        // Each object is tested after the moves given to the objects before it, as an
        // indexed loop would; scanning a slice up to the next idle object costs less per
        // object than indexing the vector again after every call that may change it.
        let mut i = 0;
        while let Some(k) = first_where(&self.objects.0, i, is_idle) {
            self.next_move(k);
            i = k + 1;
        }
    }

    fn checksum(&self) -> u64 {
        self.objects.0.iter().fold(0u64, |acc, o| {
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
    fn an_object_finds_itself_only_in_the_slot_its_id_names() {
        // 20 chasers and 2 targets: ids 1 to 22 in slots 0 to 21.
        let mut b = ChaseBench::new(20);
        assert!(b.objects.finds_itself(0));
        assert!(b.objects.finds_itself(21));
        // Id 7 names slot 6, which holds id 7: slot 3 is not found by it.
        b.objects.0[3].id = 7;
        assert!(!b.objects.finds_itself(3));
        // Id 0 names no slot; id 99 names one past the end.
        b.objects.0[4].id = 0;
        assert!(!b.objects.finds_itself(4));
        b.objects.0[5].id = 99;
        assert!(!b.objects.finds_itself(5));
        assert!(b.objects.finds_itself(6));
    }

    #[test]
    fn the_first_item_accepted_is_found_in_a_round_in_the_tail_or_not_at_all() {
        // 40 items, accepted at 3, 17, 18 and 39. From 19 there are 21 items: one round
        // of 16 (19 to 34) finds nothing and 39 lies in the tail of 5 (35 to 39).
        let mut items = [false; 40];
        for k in [3, 17, 18, 39] {
            items[k] = true;
        }
        let first = |from| first_where(&items, from, |&x| x);
        assert_eq!(first(0), Some(3));
        assert_eq!(first(3), Some(3));
        assert_eq!(first(4), Some(17));
        assert_eq!(first(18), Some(18));
        assert_eq!(first(19), Some(39));
        assert_eq!(first(36), Some(39));
        assert_eq!(first(39), Some(39));
        assert_eq!(first(40), None);
        // Nothing accepted: two full rounds and a tail of 8, then a tail alone.
        assert_eq!(first_where(&[false; 40], 0, |&x| x), None);
        assert_eq!(first_where(&[false; 40], 30, |&x| x), None);
        // The second round's last item and the first round's first.
        let mut items = [false; 40];
        items[31] = true;
        assert_eq!(first_where(&items, 0, |&x| x), Some(31));
        assert_eq!(first_where(&items, 31, |&x| x), Some(31));
        assert_eq!(first_where(&items, 32, |&x| x), None);
    }

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

    /// `ChaseBench::tick` as first written: the logs cleared in a sweep of their own,
    /// then `world::tick`, then each object tested by index after the moves before it.
    fn tick_plain(b: &mut ChaseBench) {
        for o in &mut b.objects.0 {
            o.clear_logs();
        }
        world::tick(&mut b.objects, &mut b.clock, QUANTUM);
        for i in 0..b.objects.0.len() {
            if !b.objects.0[i].moveto.is_moving_to() {
                b.next_move(i);
            }
        }
    }

    #[test]
    fn chase_tick_matches_clearing_then_the_world_tick() {
        let (mut fast, mut plain) = (
            ChaseBench::try_new(30).unwrap(),
            ChaseBench::try_new(30).unwrap(),
        );
        for tick in 0..400 {
            fast.tick();
            tick_plain(&mut plain);
            assert_eq!(fast.checksum(), plain.checksum(), "tick {tick}");
            assert_eq!(fast.clock.to_bits(), plain.clock.to_bits(), "tick {tick}");
            for (a, b) in fast.objects().iter().zip(plain.objects()) {
                assert_eq!(a.now.to_bits(), b.now.to_bits(), "tick {tick}");
                assert_eq!(a.hook_log(), b.hook_log(), "tick {tick}");
                assert_eq!(a.motions_done(), b.motions_done(), "tick {tick}");
                assert_eq!(a.move_completions(), b.move_completions(), "tick {tick}");
            }
        }
        // The run saw every log written and chases re-issued.
        assert!(fast.objects().iter().any(|o| !o.hook_log().is_empty()));
        assert!(fast.legs.iter().all(|&l| l >= 2), "{:?}", fast.legs);
    }

    #[test]
    fn chasers_reach_their_wandering_targets_again_and_again() {
        let mut b = ChaseBench::try_new(20).unwrap();
        // 20 chasers and 2 targets.
        assert_eq!(b.entities(), 22);
        assert_eq!(b.chasers(), 20);
        let start = b.checksum();
        let mut arrivals = 0;
        for _ in 0..600 {
            b.tick();
            arrivals += b.objects()[..20]
                .iter()
                .filter(|o| {
                    o.move_completions
                        .contains(&crate::commands::WeenieError::None)
                })
                .count();
        }
        assert_ne!(b.checksum(), start);
        // Each chaser starts within 20 units of its target and runs; in 20 s every one
        // arrives at least once.
        assert!(arrivals >= 20, "{arrivals}");
        // Targets took several wander legs.
        assert!(b.legs.iter().all(|&l| l >= 3), "{:?}", b.legs);
        for o in b.objects() {
            assert!(o.frame.origin.x.is_finite() && o.frame.origin.y.is_finite());
            assert!(o.sequence.nodes.len() <= 8, "{}", o.sequence.nodes.len());
            assert!(o.moveto.pending_actions.len() <= 4);
            assert!(o.outbox.is_empty());
        }
        // A target is watched by its own ten chasers at most (those between two
        // moves are not watching).
        for t in &b.objects()[20..] {
            let v = t.target_manager.as_ref().unwrap().voyeurs.as_ref().unwrap();
            assert!(v.iter().count() <= 10);
            assert!(v.iter().all(|(_, e)| e.object_id >= 1 && e.object_id <= 20));
        }
    }
}
