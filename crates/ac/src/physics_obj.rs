//! The object the motion system drives (`Phys/PhysicsObj.cs`, `Phys/PartArray.cs`,
//! `Mgr/MovementManager.cs`; the tick and entry points of docs/ac.md and
//! the conformance world stand-ins).
//!
//! There is no collision world: every position the object is asked to take is taken
//! exactly, and contact changes only when the caller says so (the conformance world, Q45).

use crate::cold_box::ColdBox;
use crate::commands::*;
use crate::interpolation::{autonomy_blip_distance, CorrectionMode, InterpHost, Position};
use crate::math::{AFrame, OffsetMemo, Quat, Vec3, EPSILON};
use crate::motion_interp::{MotionInterp, Weenie};
use crate::motion_table::MotionTableData;
use crate::moveto_manager::MoveToManager;
use crate::position_manager::{self as pm, PositionManager, TeleportHost};
use crate::sequence::{AnimSource, FiredHook, Sequence, HOOK_ANIMATION_DONE};
use crate::table_manager::MotionTableManager;
use crate::target_manager::{Remote, TargetManager, TargetStatus};
use std::sync::Arc;

/// `PhysicsGlobals` constants the tick uses.
pub const GRAVITY: f32 = -9.8;
pub const DEFAULT_FRICTION: f32 = 0.95;
pub const MAX_VELOCITY: f32 = 50.0;
pub const MAX_VELOCITY_SQUARED: f32 = 2500.0;
pub const SMALL_VELOCITY_SQUARED: f32 = 0.0625;
/// The cell the conformance format puts objects in by default (outdoor).
pub const DEFAULT_CELL: u32 = 0x7d64_0013;
/// `PhysicsObj.TickRate` (ACE-only gate), `PhysicsGlobals.MinQuantum`, `MaxQuantum`,
/// `HugeQuantum`, as the f64 values the f32 constants promote to.
pub const TICK_RATE: f64 = (1.0f32 / 30.0f32) as f64;
pub const MIN_QUANTUM: f64 = (1.0f32 / 30.0f32) as f64;
pub const MAX_QUANTUM: f64 = 0.1f32 as f64;
pub const HUGE_QUANTUM: f64 = 2.0;

/// `PhysicsObj` with its `PartArray` (sequence + motion table manager) and the
/// `MovementManager`'s `MotionInterp`.
#[derive(Clone)]
#[repr(C)]
pub struct PhysicsObj {
    // Layout: `repr(C)` in this order so that what a steady tick reads and writes
    // lies together (measured with valgrind's lackey on the benchmark walker: 362 of the
    // object's bytes, spread over 12 of its 64-byte lines before, 8 after). First what
    // the tick leaves alone (changed by commands, moves and hosts), then the sequence,
    // whose own layout puts its rarely used combine memo first and its hot part last,
    // then the object's hot fields, the offset memo, and the table manager, whose own
    // hot part (table and pending queue) comes first.
    pub(crate) minterp: MotionInterp,
    pub(crate) anims: Arc<dyn AnimSource + Send + Sync>,
    pub(crate) weenie: Weenie,
    /// `UpdateTime` (seconds) for [`PhysicsObj::update_object`].
    pub(crate) update_time: f64,
    /// The world clock `PhysicsTimer.CurrentTime` as this object last saw it.
    pub(crate) now: f64,
    pub(crate) target_manager: Option<Box<TargetManager>>,
    /// The server side: collision-report flags, the requested position, jump answers
    /// (off the object until a server loop first changes it).
    pub server: ColdBox<crate::server_loop::ServerSide>,
    /// The host's event log, when it asked for one ([`PhysicsObj::enable_events`]).
    pub(crate) events: Option<Box<crate::events::EventLog>>,
    /// Every weenie `OnMoveComplete` since the log was last cleared (trace `moveto.weenie`).
    pub(crate) move_completions: Vec<WeenieError>,
    pub(crate) cell: u32,
    pub(crate) contact_normal: Vec3,
    pub(crate) player_distance: f32,
    pub(crate) friction: f32,
    /// `PhysicsObj.ID` (0 for a lone object).
    pub(crate) id: u32,
    /// The Setup's radius and height (`GetRadius`/`GetHeight` at scale 1).
    pub(crate) radius: f32,
    pub(crate) height: f32,
    /// `get_sticky_object()` for the interpolation manager during the offset step.
    pub(crate) sticky_object: u32,
    /// `PhysicsState.Gravity` (part of `PhysicsGlobals.DefaultState`).
    pub(crate) gravity: bool,
    // The four flags below are private because changing one must go through the
    // method that keeps the rest consistent (HitGround/LeaveGround, acceleration,
    // activation): use `apply_contact`, `set_in_cell`, `set_active` and the getters.
    pub(crate) contact: bool,
    pub(crate) is_animating: bool,
    pub(crate) last_move_was_autonomous: bool,
    /// How an interpolation correction reaches the object (extension; default ACE).
    pub(crate) correction: CorrectionMode,
    /// An Action completed inside the table manager: unstick once it is released.
    pub(crate) unstick_pending: bool,
    /// The last `OnMoveComplete` status since creation.
    pub(crate) last_move_completion: Option<WeenieError>,
    pub(crate) sequence: Sequence,
    // Hot: read or written by every steady tick.
    pub(crate) position_manager: Option<Box<PositionManager>>,
    /// The `MoveToManager` (meaningful only while `has_movement_manager`); off the
    /// object until its first move.
    pub(crate) moveto: ColdBox<MoveToManager>,
    /// `AnimHooks`: hooks queued by the sequence during the current tick.
    pub(crate) anim_hooks: Vec<FiredHook>,
    /// Every hook processed since the log was last cleared (trace `hooks`).
    pub(crate) hook_log: Vec<u32>,
    /// Every weenie `OnMotionDone` since the log was last cleared (trace `motions_done`).
    pub(crate) motions_done: Vec<(u32, bool)>,
    /// Requests to other objects, carried out by the world after each call.
    pub(crate) outbox: Vec<Remote>,
    pub(crate) frame: AFrame,
    pub(crate) velocity: Vec3,
    pub(crate) acceleration: Vec3,
    pub(crate) omega: Vec3,
    pub(crate) cached_velocity: Vec3,
    pub(crate) scale: f32,
    /// `PhysicsState.Hidden`.
    pub(crate) hidden: bool,
    pub(crate) on_walkable: bool,
    pub(crate) active: bool,
    /// `CurCell != null`.
    pub(crate) in_cell: bool,
    /// Whether the `MovementManager` exists (its `MotionInterp` is `minterp`); only
    /// `set_motion_table` creates it.
    pub(crate) has_movement_manager: bool,
    /// The last combine of the tick's offset into the frame, with the physics step's
    /// rotation of its result.
    pub(crate) offset_memo: OffsetMemo,
    pub(crate) table_manager: Option<MotionTableManager>,
    // Makes the object 18 lines exactly, so that every object of the world's `Vec`
    // starts at the same offset within a line; at 1,144 bytes the objects' starts
    // cycle through eight offsets and the hot span straddles one more line on average
    // (cachegrind, 100,000 walkers: 11.50 lines per tick at 1,144 bytes, 10.26 at
    // 1,152). Allocations this large start 16 bytes past a page, where the span's
    // 504 bytes lie on 8 lines.
    line_fill: [u64; 2],
}

// The buffer sizes a chase reaches: a chase re-issued while a link animation plays
// queues two entries each time, so over thousands of ticks the queues reach 26 entries,
// the motion log 17 and the node list 8 (the `ac-chase` benchmark, object by object);
// smaller buffers kept growing long after the first ticks.
const MOVE_LOG: usize = 32;
const MOVE_COMPLETIONS: usize = 4;
const MOVE_OUTBOX: usize = 8;
const MOVE_NODES: usize = 8;
const MOVE_QUEUE: usize = 32;

impl PhysicsObj {
    /// A fresh object (the first setup step of a scenario): default state flags, no contact, no
    /// cell, no motion table.
    pub fn new(
        anims: Arc<dyn AnimSource + Send + Sync>,
        weenie: Weenie,
        cell: u32,
        frame: AFrame,
    ) -> PhysicsObj {
        PhysicsObj {
            cell,
            frame,
            gravity: true,
            hidden: false,
            contact: false,
            on_walkable: false,
            active: false,
            in_cell: false,
            velocity: Vec3::ZERO,
            acceleration: Vec3::ZERO,
            omega: Vec3::ZERO,
            cached_velocity: Vec3::ZERO,
            scale: 1.0,
            friction: DEFAULT_FRICTION,
            contact_normal: Vec3::ZERO,
            player_distance: f32::MAX,
            is_animating: false,
            last_move_was_autonomous: false,
            weenie,
            sequence: Sequence::new(),
            table_manager: None,
            has_movement_manager: false,
            minterp: MotionInterp::default(),
            anims,
            anim_hooks: Vec::with_capacity(4),
            hook_log: Vec::with_capacity(4),
            motions_done: Vec::with_capacity(4),
            position_manager: None,
            correction: CorrectionMode::Ace,
            update_time: 0.0,
            id: 0,
            radius: 0.0,
            height: 0.0,
            now: 0.0,
            moveto: ColdBox::fresh_at(0.0),
            target_manager: None,
            outbox: Vec::new(),
            move_completions: Vec::new(),
            last_move_completion: None,
            unstick_pending: false,
            sticky_object: 0,
            offset_memo: OffsetMemo::default(),
            server: ColdBox::pristine(),
            events: None,
            line_fill: [0; 2],
        }
    }

    pub fn position(&self) -> Position {
        Position {
            cell: self.cell,
            frame: self.frame,
        }
    }

    /// `SetMotionTableID` (PhysicsObj + PartArray): keeps a manager with the same table
    /// id, always rebuilds the movement manager (Q49, reproduced).
    pub fn set_motion_table(&mut self, table: Option<Arc<MotionTableData>>) {
        let id = table.as_ref().map_or(0, |t| t.id());
        match (&self.table_manager, table) {
            (Some(tm), Some(_)) if tm.table.id() == id => {}
            (_, Some(t)) => self.table_manager = Some(MotionTableManager::new(t)),
            (_, None) => self.table_manager = None,
        }
        self.has_movement_manager = false;
        self.minterp = MotionInterp::default();
        self.moveto = ColdBox::fresh_at(self.now);
        if id != 0 {
            // The rebuilt manager is made as `get_minterp` makes one, then activated.
            self.get_minterp();
            self.set_active(true);
        }
    }

    /// `PhysicsObj.get_minterp()`: the sticky and interpolation steps ask the movement
    /// manager's interpreter for the object's top speed, and an object without one gets
    /// it there and then (`MovementManager.Create`, then `EnterDefaultState`), as
    /// `set_motion_table` would make it, but without activating the object (ACE activates
    /// only static objects here, which this engine does not model). From then on the
    /// object has a movement manager, so the at-rest deactivation no longer applies to
    /// it (Q120).
    pub(crate) fn get_minterp(&mut self) {
        if !self.has_movement_manager {
            self.has_movement_manager = true;
            self.minterp = MotionInterp::default();
            self.moveto = ColdBox::fresh_at(self.now);
            self.mi_enter_default_state();
        }
    }

    /// Room in the buffers a move-to fills, made when a move starts (a no-op from the
    /// second move on). An object driven by commands alone queues a few entries per
    /// tick and its buffers start that small; a chasing object queues motions and
    /// completions and reports to its voyeurs, so its buffers are sized once for that
    /// here rather than grown by doubling during its ticks.
    // Inline: from the second move on every buffer is large enough, which one branch
    // over the capacities tells without the call and its register saves (`always`: the
    // compiler kept the call otherwise).
    #[inline(always)]
    pub(crate) fn reserve_move_buffers(&mut self) {
        let sized = (self.motions_done.capacity() >= MOVE_LOG)
            & (self.move_completions.capacity() >= MOVE_COMPLETIONS)
            & (self.outbox.capacity() >= MOVE_OUTBOX)
            & (self.sequence.nodes.capacity() >= MOVE_NODES)
            & (self.minterp.pending_motions.capacity() >= MOVE_QUEUE)
            & self
                .table_manager
                .as_ref()
                .is_none_or(|tm| tm.pending.capacity() >= MOVE_QUEUE);
        if !sized {
            self.reserve_move_buffers_now();
        }
    }

    /// [`PhysicsObj::reserve_move_buffers`] when a buffer is short.
    #[cold]
    #[inline(never)]
    fn reserve_move_buffers_now(&mut self) {
        fn at_least<T>(v: &mut Vec<T>, n: usize) {
            if v.capacity() < n {
                v.reserve_exact(n - v.len());
            }
        }
        at_least(&mut self.motions_done, MOVE_LOG);
        at_least(&mut self.move_completions, MOVE_COMPLETIONS);
        at_least(&mut self.outbox, MOVE_OUTBOX);
        at_least(&mut self.sequence.nodes, MOVE_NODES);
        self.minterp.pending_motions.reserve_total(MOVE_QUEUE);
        if let Some(tm) = self.table_manager.as_mut() {
            tm.pending.reserve_total(MOVE_QUEUE);
        }
    }

    /// `set_active`: becoming active stamps the update time with the clock.
    pub fn set_active(&mut self, active: bool) {
        if active && !self.active {
            self.update_time = self.now;
        }
        self.active = active;
    }

    /// `PhysicsState` contact (`TransientState.Contact`).
    pub fn contact(&self) -> bool {
        self.contact
    }

    /// `TransientState.OnWalkable`.
    pub fn on_walkable(&self) -> bool {
        self.on_walkable
    }

    /// `TransientState.Active`: whether ticks move the object at all.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// `CurCell != null`: an object outside every cell never moves.
    pub fn in_cell(&self) -> bool {
        self.in_cell
    }

    /// Whether the `MovementManager` exists (a motion table is set).
    pub fn has_movement_manager(&self) -> bool {
        self.has_movement_manager
    }

    /// Enter (or leave) the object's cell without moving it, as `enter_cell` /
    /// `leave_cell` do for the single cell this runtime knows.
    pub fn set_in_cell(&mut self, in_cell: bool) {
        self.in_cell = in_cell;
    }

    /// `cancel_moveto`: cancels a move in progress with ActionCancelled.
    pub fn cancel_moveto(&mut self) {
        self.mt_cancel_move_to(WeenieError::ActionCancelled);
    }

    /// `PhysicsObj.DoMotion`.
    pub fn do_motion(&mut self, motion: u32, params: &MovementParameters) -> WeenieError {
        self.last_move_was_autonomous = true;
        if !self.has_movement_manager {
            return WeenieError::NoAnimationTable;
        }
        self.perform_movement(MovementType::RawCommand, motion, params)
    }

    /// `PhysicsObj.StopMotion`.
    pub fn stop_motion(&mut self, motion: u32, params: &MovementParameters) -> WeenieError {
        self.last_move_was_autonomous = true;
        if !self.has_movement_manager {
            return WeenieError::NoAnimationTable;
        }
        self.perform_movement(MovementType::StopRawCommand, motion, params)
    }

    /// `PhysicsObj.StopCompletely`.
    pub fn stop_completely(&mut self) -> WeenieError {
        if !self.has_movement_manager {
            return WeenieError::NoAnimationTable;
        }
        if self.stop_completely_at_rest() || self.stop_completely_behind_link() {
            return WeenieError::None;
        }
        self.perform_movement(
            MovementType::StopCompletely,
            0,
            &MovementParameters::default(),
        )
    }

    /// `set_velocity`: clamp to `MaxVelocity`, mark active.
    pub fn set_velocity(&mut self, v: Vec3) {
        if v != self.velocity {
            self.velocity = v;
            if self.velocity.length() > MAX_VELOCITY {
                let len = self.velocity.length();
                self.velocity = self.velocity.div(len);
                self.velocity = self.velocity.scale(MAX_VELOCITY);
            }
        }
        self.set_active(true);
    }

    /// `set_local_velocity`.
    pub fn set_local_velocity(&mut self, v: Vec3) {
        let g = self.frame.local_to_global(v);
        self.set_velocity(g);
    }

    /// `PhysicsObj.set_heading(deg)`.
    pub fn set_heading(&mut self, deg: f32) {
        self.frame.set_heading(deg);
    }

    /// `calc_acceleration`.
    pub fn calc_acceleration(&mut self) {
        if self.contact && self.on_walkable {
            self.omega = Vec3::ZERO;
            self.acceleration = Vec3::ZERO;
        } else if self.gravity {
            self.acceleration = Vec3::new(0.0, 0.0, GRAVITY);
        } else {
            self.acceleration = Vec3::ZERO;
        }
    }

    /// `set_on_walkable`: HitGround / LeaveGround on edges.
    pub fn set_on_walkable(&mut self, on: bool) {
        let prev = self.on_walkable;
        self.on_walkable = on;
        if prev && !on {
            self.movement_leave_ground();
        } else if !prev && on {
            self.movement_hit_ground();
        }
        self.calc_acceleration();
    }

    /// The contact block of `SetPositionInternal(Transition)` (the contact setup step of a scenario).
    pub fn apply_contact(&mut self, contact: bool, on_walkable: bool) {
        let prev_walkable = self.on_walkable;
        if contact {
            self.contact = true;
            self.contact_normal = Vec3::new(0.0, 0.0, 1.0);
        } else {
            self.contact = false;
        }
        self.calc_acceleration();
        if self.contact {
            self.set_on_walkable(on_walkable);
        } else {
            self.on_walkable = false;
            if prev_walkable {
                self.movement_leave_ground();
            }
            self.calc_acceleration();
        }
    }

    /// `UpdateObjectInternal(q)` as the conformance tick fixes it (no collision world; docs/ac.md "Tick").
    // Inlined into its callers' loops: the call, its six register saves and restores
    // and its stack frame were paid once per object and tick.
    #[inline(always)]
    pub fn update_object_internal(&mut self, q: f64) {
        if !self.tick_position_step(q) {
            return;
        }
        // TargetManager.HandleTargetting needs the world (a lone object has no voyeurs).
        self.mt_use_time();
        // PartArray.HandleMovement:
        self.check_for_completed_motions();
        self.position_manager_use_time();
        // A lone object's requests to others have nobody to reach.
        self.outbox.clear();
    }

    /// The first half of `UpdateObjectInternal`: the new position and cached velocity.
    /// False when the object does not move at all (inactive or outside every cell).
    ///
    /// The common object (visible, without a position manager) takes the update inline;
    /// the others take the same steps out of line, so a caller's loop holds one copy of
    /// the update (two made the world's loop spill, about 34 instructions per
    /// entity-tick through the C ABI).
    #[inline(always)]
    pub(crate) fn tick_position_step(&mut self, q: f64) -> bool {
        // `&`, not `&&`: two flag reads, one test.
        if !(self.active & self.in_cell) {
            return false;
        }
        if self.position_manager.is_some() || self.hidden {
            self.tick_position_step_other(q);
        } else {
            // Only the position manager's step (none here) can move `frame` during
            // the update, so the old origin is read in place after it instead of
            // copied first. Nothing in the update changes `hidden`, so the steps do
            // not test it again.
            let origin = self.update_position_steps(q, false, true);
            let old = self.frame.origin;
            self.store_origin(origin, &old, q);
            self.frame.orientation = self.offset_memo.combined_orientation(true);
        }
        true
    }

    /// [`PhysicsObj::tick_position_step`] for an object with a position manager (whose
    /// step can move the frame during the update, so the old origin is copied first)
    /// or a hidden one.
    #[inline(never)]
    fn tick_position_step_other(&mut self, q: f64) {
        let old = self.frame.origin;
        let origin = self.update_position_steps(q, self.position_manager.is_some(), false);
        self.store_origin(origin, &old, q);
        self.frame.orientation = self.offset_memo.combined_orientation(!self.hidden);
    }

    /// The cached velocity from the old origin to the new one, then the new origin
    /// (`AFrame.Equals` compares only the origins, quirk Q27).
    #[inline(always)]
    fn store_origin(&mut self, origin: Vec3, old: &Vec3, q: f64) {
        let moved = AFrame::new(origin, Quat::IDENTITY);
        if moved.ace_equals(&AFrame::new(*old, Quat::IDENTITY)) {
            self.cached_velocity = Vec3::ZERO;
        } else {
            // Q47: the new position keeps the object's cell until the transition moves it,
            // so ACE's "more than one landblock away" early return compares a cell with
            // itself and never fires here.
            self.cached_velocity = origin.sub(*old).div(q as f32);
        }
        self.frame.origin = origin;
    }

    /// `UpdatePositionInternal` up to the new origin (the plain form is
    /// `reference::physics_obj::update_position_internal`). `has_pm` says whether the
    /// object has a position manager (the sequence's update cannot create or drop one,
    /// so the tick tests it once for both steps); `visible` that the caller has found
    /// the object not hidden (else the steps test `hidden` themselves). Inlined with
    /// constant flags on the common path, so those tests fold away there. The new
    /// orientation is then the offset memo's `combined_orientation(!hidden)`: nothing
    /// but the update changes the memo, and nothing changes `hidden` while the hooks
    /// run.
    #[inline(always)]
    fn update_position_steps(&mut self, q: f64, has_pm: bool, visible: bool) -> Vec3 {
        let mut off = AFrame::IDENTITY;
        if visible || !self.hidden {
            self.sequence
                .update(q as f32, Some(&mut off), &mut self.anim_hooks);
            // Q44: airborne drops the animation's translation, keeps its rotation.
            // One multiplication by a selected factor: `x · 0` is the same bits
            // either way.
            #[cfg(not(feature = "planted-bug"))]
            let s = if self.on_walkable { self.scale } else { 0.0 };
            // A known bug for the differential test to catch (feature `planted-bug`,
            // test-only): the contact flag tested instead of the walkable one.
            #[cfg(feature = "planted-bug")]
            let s = if self.contact { self.scale } else { 0.0 };
            off.origin = off.origin.scale(s);
        }
        if has_pm {
            self.position_manager_adjust_offset(&mut off, q);
        }
        let mut origin = self.offset_memo.combine_origin(&self.frame, &off);
        if visible || !self.hidden {
            // `update_physics_internal`, its rotation taken from the combine's memo:
            // the translation leaves the combine's orientation as it is.
            let q = q as f32;
            self.update_physics_translation(q, &mut origin);
            self.offset_memo.step_combined(&self.omega, q);
        }
        self.process_hooks();
        origin
    }

    /// `UpdatePhysicsInternal` up to its rotation: velocity, friction,
    /// acceleration and the frame's new origin.
    #[inline(always)]
    fn update_physics_translation(&mut self, q: f32, origin: &mut Vec3) {
        if self.at_rest_bits() && q.is_finite() {
            // Every velocity and acceleration part +0: `v2` is +0, so the formula takes
            // its at-rest branch, and `+0 + (+0 · q)` is `+0 + ±0 = +0` for a finite
            // `q`: the velocity keeps its bits. The length, its tests and the velocity
            // step are skipped on the tick of nearly every object on the ground
            // (`a_velocity_and_acceleration_of_plus_zeros_stay_at_rest`).
            debug_assert!(self.velocity.length_sq() <= 0.0);
            debug_assert_eq!(
                {
                    let v = self.velocity.add(self.acceleration.scale(q));
                    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
                },
                [0; 3],
                "a velocity at rest moved"
            );
            if !self.has_movement_manager && self.on_walkable {
                self.active = false;
            }
            return;
        }
        let mut v2 = self.velocity.length_sq();
        if v2 <= 0.0 {
            if !self.has_movement_manager && self.on_walkable {
                self.active = false;
            }
        } else {
            if v2 > MAX_VELOCITY_SQUARED {
                self.velocity = self.velocity.normalize().scale(MAX_VELOCITY);
                v2 = MAX_VELOCITY_SQUARED;
            }
            self.calc_friction(q, v2);
            if v2 - SMALL_VELOCITY_SQUARED < EPSILON {
                self.velocity = Vec3::ZERO;
            }
            let a = self.acceleration.scale(0.5).scale(q).scale(q);
            let b = self.velocity.scale(q);
            *origin = origin.add(a.add(b));
        }
        self.velocity = self.velocity.add(self.acceleration.scale(q));
    }

    /// Whether every part of the velocity and of the acceleration is +0 (the bits of
    /// an object that neither moves by physics nor accelerates: every object on the
    /// ground that is not thrown).
    #[inline(always)]
    fn at_rest_bits(&self) -> bool {
        let (v, a) = (self.velocity, self.acceleration);
        (v.x.to_bits()
            | v.y.to_bits()
            | v.z.to_bits()
            | a.x.to_bits()
            | a.y.to_bits()
            | a.z.to_bits())
            == 0
    }

    /// `calc_friction(q, v2)` on flat ground (never sledding here).
    pub fn calc_friction(&mut self, q: f32, _v2: f32) {
        if !self.on_walkable {
            return;
        }
        let n = self.contact_normal;
        let a = self.velocity.dot(n);
        if a >= 0.25 {
            return;
        }
        self.velocity = self.velocity.sub(n.scale(a));
        // `MathF.Pow(1.0f - friction, quantum)`: single precision.
        let k = (1.0f32 - self.friction).powf(q);
        self.velocity = self.velocity.scale(k);
    }

    /// `process_hooks`: execute the queued anim hooks in order; only AnimationDone acts
    /// on the server (Q32).
    #[inline]
    pub fn process_hooks(&mut self) {
        if !self.anim_hooks.is_empty() {
            self.process_queued_hooks();
        }
    }

    /// The queued hooks of [`PhysicsObj::process_hooks`]. Most updates that queue hooks
    /// queue one: with no event log and room in the hook log, a lone hook is logged
    /// here, which needs no call and so no register saves, and a lone AnimationDone then
    /// signals the table manager in a tail call (the plain path raises nothing either);
    /// the rest take [`Self::process_queued_hooks_plain`].
    #[inline(never)]
    fn process_queued_hooks(&mut self) {
        if let [h] = self.anim_hooks[..] {
            if self.events.is_none() && self.hook_log.len() < self.hook_log.capacity() {
                self.hook_log.push(h.hook_type);
                self.anim_hooks.clear();
                if h.hook_type == HOOK_ANIMATION_DONE {
                    self.lone_animation_done();
                    return;
                }
                #[cfg(debug_assertions)]
                self.debug_assert_lone_hook_as_plain(h);
                return;
            }
        }
        self.process_queued_hooks_plain();
    }

    /// A lone AnimationDone, logged: the table manager signalled (nothing it reaches
    /// reads the hook queue, already cleared).
    #[inline(never)]
    fn lone_animation_done(&mut self) {
        self.animation_done(true);
    }

    /// Debug builds: the lone hook `h` that [`PhysicsObj::process_queued_hooks`] has
    /// just logged, taken back and handed to the plain path, which must log it the same
    /// way and raise nothing. Neither buffer grows (the log had room, the queue held
    /// `h`), so a steady tick still allocates nothing.
    #[cfg(debug_assertions)]
    fn debug_assert_lone_hook_as_plain(&mut self, h: FiredHook) {
        let fast = self.hook_log.pop();
        let (len, cap) = (self.hook_log.len(), self.hook_log.capacity());
        self.anim_hooks.push(h);
        self.process_queued_hooks_plain();
        debug_assert_eq!(self.hook_log.len(), len + 1, "lone hook: log");
        debug_assert_eq!(self.hook_log.last().copied(), fast, "lone hook: logged");
        debug_assert_eq!(self.hook_log.capacity(), cap, "lone hook: log grew");
        debug_assert!(self.anim_hooks.is_empty(), "lone hook: queue");
        debug_assert!(self.events.is_none(), "lone hook: raised");
    }

    /// [`PhysicsObj::process_queued_hooks`] for any queue: each hook logged, raised and,
    /// for AnimationDone, acted on.
    #[inline(never)]
    fn process_queued_hooks_plain(&mut self) {
        // A lone hook without the loop: fewer registers are live across its calls.
        if let [h] = self.anim_hooks[..] {
            self.process_hook(h);
        } else {
            let n = self.anim_hooks.len();
            for i in 0..n {
                let h = self.anim_hooks[i];
                self.process_hook(h);
            }
        }
        self.anim_hooks.clear();
    }

    /// One queued hook: logged, raised, and AnimationDone acted on.
    #[inline(always)]
    fn process_hook(&mut self, h: FiredHook) {
        self.hook_log.push(h.hook_type);
        self.raise(h.into());
        if h.hook_type == HOOK_ANIMATION_DONE {
            self.animation_done(true);
        }
    }
}

/// The position manager's view of the object (`PhysicsObj` as its owner).
impl InterpHost for PhysicsObj {
    fn position(&self) -> Position {
        PhysicsObj::position(self)
    }
    fn in_contact(&self) -> bool {
        self.contact
    }
    fn adjusted_max_speed(&mut self) -> f32 {
        self.get_minterp();
        self.mi_get_adjusted_max_speed()
    }
    fn set_heading(&mut self, deg: f32) {
        PhysicsObj::set_heading(self, deg);
    }
    fn set_position_simple(&mut self, p: &Position) -> bool {
        self.set_position(p);
        true
    }
    fn set_velocity(&mut self, v: Vec3) {
        PhysicsObj::set_velocity(self, v);
    }
    fn autonomy_blip_distance(&self) -> f64 {
        autonomy_blip_distance(self.cell, 0)
    }
    fn has_sticky_target(&self) -> bool {
        self.sticky_object != 0
    }
}

impl TeleportHost for PhysicsObj {
    fn in_cell(&self) -> bool {
        self.in_cell
    }
    fn player_distance(&self) -> f32 {
        self.player_distance
    }
    fn set_position_teleport(&mut self, p: &Position) {
        self.set_position(p);
    }
    fn position_manager_created(&mut self) {
        self.set_active(true);
    }
    fn is_moving_to(&self) -> bool {
        self.has_movement_manager && self.moveto.is_moving_to()
    }
    fn teleport_hook(&mut self, pm: &mut dyn pm::ManagerSlot) {
        self.mt_cancel_move_to(WeenieError::ITeleported);
        // Unstick and unconstrain need the manager back on the object.
        self.position_manager = pm.take_boxed();
        self.unstick_from_object();
        // StopInterpolating comes next in ACE; move_or_teleport does it right after
        // this hook, and nothing in between reads the interpolation state.
        self.unconstrain();
        pm.put_boxed(self.position_manager.take());
        self.clear_target();
        let position = self.position();
        self.outbox.push(Remote::Notify {
            status: TargetStatus::Teleported,
            position,
        });
    }
}

impl PhysicsObj {
    /// Take a position exactly (no collision world); entering its cell if outside one.
    pub fn set_position(&mut self, p: &Position) {
        self.cell = p.cell;
        self.frame = p.frame;
        self.in_cell = true;
    }

    /// `PositionManager.AdjustOffset` step of `UpdatePositionInternal` (for an object
    /// with a position manager).
    pub(crate) fn position_manager_adjust_offset(&mut self, off: &mut AFrame, q: f64) {
        if let Some(mut m) = self.position_manager.take() {
            // The interpolation manager asks get_sticky_object() while the position
            // manager is held outside the object.
            self.sticky_object = m.sticky.as_ref().map_or(0, |s| s.target_id);
            m.adjust_offset(off, q, self);
            let live = m.sticky_live;
            self.position_manager = Some(m);
            self.sticky_adjust_offset(off, q, live);
            self.constraint_adjust_offset(off);
        }
    }

    /// `PositionManager.UseTime` step of `UpdateObjectInternal`.
    #[inline]
    pub(crate) fn position_manager_use_time(&mut self) {
        if self.position_manager.is_some() {
            self.position_manager_use_time_with();
        }
    }

    fn position_manager_use_time_with(&mut self) {
        if let Some(mut m) = self.position_manager.take() {
            m.use_time(self);
            self.position_manager = Some(m);
            self.sticky_use_time();
        }
    }

    /// `PhysicsObj.InterpolateTo(frame in the object's cell, keep_heading)`.
    pub fn interpolate_to(&mut self, frame: AFrame, keep_heading: bool) {
        let p = Position {
            cell: self.cell,
            frame,
        };
        let mut m = self.position_manager.take();
        pm::interpolate_to(&mut m, self.correction, self, p, keep_heading);
        self.position_manager = m;
    }

    /// `PhysicsObj.MoveOrTeleport(pos, timestamp, contact, velocity 0)`.
    pub fn move_or_teleport(&mut self, frame: AFrame, timestamp: i32, contact: bool) -> bool {
        let p = Position {
            cell: self.cell,
            frame,
        };
        let mut m = self.position_manager.take();
        let ok = pm::move_or_teleport(&mut m, self.correction, self, p, timestamp, contact);
        self.position_manager = m;
        ok
    }
}

/// Read access to the object's state, and write access where a caller (a conformance
/// world, a host, a test setting up a rule's precondition) may set it directly. The
/// fields themselves are private: the tick's fast paths rely on invariants between them
/// (docs/architecture.md, the ac catalogue).
macro_rules! copy_fields {
    ($($(#[$doc:meta])* $name:ident, $set:ident: $ty:ty;)*) => {
        impl PhysicsObj {
            $(
                $(#[$doc])*
                pub fn $name(&self) -> $ty {
                    self.$name
                }
                #[doc = concat!("Set [`PhysicsObj::", stringify!($name), "`] as it is, with no side effect.")]
                pub fn $set(&mut self, value: $ty) {
                    self.$name = value;
                }
            )*
        }
    };
}

copy_fields! {
    /// The cell the object is in.
    cell, set_cell: u32;
    /// Its position in the cell (`Position.Frame`).
    frame, set_frame: AFrame;
    /// `PhysicsState.Gravity`.
    gravity, set_gravity: bool;
    /// `PhysicsState.Hidden`: a hidden object neither animates nor moves by physics.
    hidden, set_hidden_raw: bool;
    /// `Velocity` (world axes; set through [`PhysicsObj::set_velocity`] to clamp it).
    velocity, set_velocity_raw: Vec3;
    /// `Acceleration`.
    acceleration, set_acceleration: Vec3;
    /// `Omega`: the physics turn rate.
    omega, set_omega: Vec3;
    /// `CachedVelocity`: the velocity the last tick moved the object at.
    cached_velocity, set_cached_velocity: Vec3;
    /// `Scale`.
    scale, set_scale: f32;
    /// `Friction`.
    friction, set_friction: f32;
    /// `ContactPlane.Normal`.
    contact_normal, set_contact_normal: Vec3;
    /// The distance to the nearest player (the teleport rule reads it).
    player_distance, set_player_distance: f32;
    /// `IsAnimating`.
    is_animating, set_is_animating: bool;
    /// `LastMoveWasAutonomous`.
    last_move_was_autonomous, set_last_move_was_autonomous: bool;
    /// The weenie's answers (`IsCreature`, `InqRunRate`).
    weenie, set_weenie: Weenie;
    /// How an interpolation correction reaches the object (extension; default ACE).
    correction, set_correction: CorrectionMode;
    /// `UpdateTime` (seconds) for [`PhysicsObj::update_object`].
    update_time, set_update_time: f64;
    /// `PhysicsObj.ID` (0 for a lone object).
    id, set_id: u32;
    /// The Setup's radius at scale 1.
    radius, set_radius: f32;
    /// The Setup's height at scale 1.
    height, set_height: f32;
    /// The world clock as this object last saw it.
    now, set_now: f64;
    /// The last `OnMoveComplete` status since creation.
    last_move_completion, set_last_move_completion: Option<WeenieError>;
}

impl PhysicsObj {
    /// The animation sequence (`PartArray.Sequence`).
    pub fn sequence(&self) -> &Sequence {
        &self.sequence
    }

    /// The animation sequence, to change (a rule's precondition, a host's own clip).
    pub fn sequence_mut(&mut self) -> &mut Sequence {
        &mut self.sequence
    }

    /// The `MotionTableManager` (none without a motion table).
    pub fn table_manager(&self) -> Option<&MotionTableManager> {
        self.table_manager.as_ref()
    }

    /// The `MotionTableManager`, to change.
    pub fn table_manager_mut(&mut self) -> Option<&mut MotionTableManager> {
        self.table_manager.as_mut()
    }

    /// The weenie's answers, to change (`InqRunRate` takes effect at the next command).
    pub fn weenie_mut(&mut self) -> &mut Weenie {
        &mut self.weenie
    }

    /// The `MovementManager`'s `MotionInterp`.
    pub fn minterp(&self) -> &MotionInterp {
        &self.minterp
    }

    /// The `MotionInterp`, to change.
    pub fn minterp_mut(&mut self) -> &mut MotionInterp {
        &mut self.minterp
    }

    /// Where the sequence finds animations by id.
    pub fn anims(&self) -> &Arc<dyn AnimSource + Send + Sync> {
        &self.anims
    }

    /// Every hook processed since the log was last cleared (trace `hooks`).
    pub fn hook_log(&self) -> &[u32] {
        &self.hook_log
    }

    /// Every weenie `OnMotionDone` since the log was last cleared (trace `motions_done`).
    pub fn motions_done(&self) -> &[(u32, bool)] {
        &self.motions_done
    }

    /// Every weenie `OnMoveComplete` since the log was last cleared (trace `moveto.weenie`).
    pub fn move_completions(&self) -> &[WeenieError] {
        &self.move_completions
    }

    /// Empty the three logs ([`PhysicsObj::hook_log`], [`PhysicsObj::motions_done`],
    /// [`PhysicsObj::move_completions`]), as a world tick does first.
    pub fn clear_logs(&mut self) {
        self.hook_log.clear();
        self.motions_done.clear();
        self.move_completions.clear();
    }

    /// Empty the hook log.
    pub fn clear_hook_log(&mut self) {
        self.hook_log.clear();
    }

    /// Empty the motion-done log.
    pub fn clear_motions_done(&mut self) {
        self.motions_done.clear();
    }

    /// Empty the move-completion log.
    pub fn clear_move_completions(&mut self) {
        self.move_completions.clear();
    }

    /// The `PositionManager` (interpolation, sticky, constraint), once created.
    pub fn position_manager(&self) -> Option<&PositionManager> {
        self.position_manager.as_deref()
    }

    /// The `MoveToManager` (meaningful only while a movement manager exists).
    pub fn moveto(&self) -> &MoveToManager {
        &self.moveto
    }

    /// The `MoveToManager`, to replace or change.
    pub fn moveto_mut(&mut self) -> &mut MoveToManager {
        &mut self.moveto
    }

    /// The `TargetManager`, once created.
    pub fn target_manager(&self) -> Option<&TargetManager> {
        self.target_manager.as_deref()
    }

    /// Requests to other objects, waiting for the world to carry them out.
    pub fn outbox(&self) -> &[Remote] {
        &self.outbox
    }
}

/// Debug builds: what a stop leaves on an object (the interpreter, the animating flag,
/// the motion log, the events, activity, the update time, the sequence's physics and the
/// table manager's state, queue and counter) is the same on `plain`, the plain path run
/// on a clone, and on `fast`, the object a fast path changed. `what` names the fast path
/// in the message.
#[cfg(debug_assertions)]
pub(crate) fn debug_assert_same_stop(plain: &PhysicsObj, fast: &PhysicsObj, what: &str) {
    let (a, b) = (plain, fast);
    debug_assert_eq!(a.minterp, b.minterp, "{what}: interpreter");
    debug_assert_eq!(a.is_animating, b.is_animating, "{what}: animating");
    debug_assert_eq!(a.motions_done, b.motions_done, "{what}: log");
    debug_assert_eq!(a.events, b.events, "{what}: events");
    debug_assert_eq!(a.active, b.active, "{what}: active");
    debug_assert_eq!(
        a.update_time.to_bits(),
        b.update_time.to_bits(),
        "{what}: update time"
    );
    debug_assert_eq!(
        crate::sequence::physics_bits(&a.sequence),
        crate::sequence::physics_bits(&b.sequence),
        "{what}: sequence"
    );
    let (ta, tb) = (a.table_manager.as_ref(), b.table_manager.as_ref());
    debug_assert_eq!(ta.map(|m| &m.state), tb.map(|m| &m.state), "{what}: state");
    debug_assert_eq!(
        ta.map(|m| &m.pending),
        tb.map(|m| &m.pending),
        "{what}: queue"
    );
    debug_assert_eq!(
        ta.map(|m| m.animation_counter),
        tb.map(|m| m.animation_counter),
        "{what}: counter"
    );
}

/// Debug builds: what the end of a move leaves on the mover (the move-to and target
/// managers, the weenie's completions, the requests for others, and what its stop
/// leaves: [`debug_assert_same_stop`]) is the same on `plain` and on `fast`.
#[cfg(debug_assertions)]
pub(crate) fn debug_assert_same_move_end(plain: &PhysicsObj, fast: &PhysicsObj, what: &str) {
    let (a, b) = (plain, fast);
    debug_assert_eq!(a.moveto, b.moveto, "{what}: move-to manager");
    debug_assert_eq!(a.target_manager, b.target_manager, "{what}: target");
    debug_assert_eq!(a.move_completions, b.move_completions, "{what}: weenie");
    debug_assert_eq!(
        a.last_move_completion, b.last_move_completion,
        "{what}: last completion"
    );
    debug_assert_eq!(a.outbox, b.outbox, "{what}: requests");
    debug_assert_same_stop(a, b, what);
}

#[cfg(test)]
mod layout {
    use super::*;
    use crate::math::RotateVecMemo;
    use crate::sequence::Sequence;
    use std::mem::{offset_of, size_of};

    /// What a steady walker's tick touches of its object lies in one span: from the
    /// rotation memo's first entry in the sequence to the table manager's pending
    /// queue. 568 bytes (nine 64-byte lines) when the layout was measured; the span
    /// is what keeps the tick's lines few, so it may not grow past ten lines.
    #[test]
    fn the_fields_a_steady_tick_touches_lie_within_ten_cache_lines() {
        let first_entry = offset_of!(PhysicsObj, sequence)
            + offset_of!(Sequence, rotation_memo)
            + size_of::<RotateVecMemo>() / 2;
        let pending_end = offset_of!(PhysicsObj, table_manager)
            + offset_of!(MotionTableManager, pending)
            + size_of::<crate::anim_queue::AnimQueue>();
        let span = pending_end - first_entry;
        assert!(span <= 640, "hot span {span} bytes");
        // Everything the tick leaves alone comes before the span.
        for cold in [
            offset_of!(PhysicsObj, minterp),
            offset_of!(PhysicsObj, weenie),
            offset_of!(PhysicsObj, target_manager),
            offset_of!(PhysicsObj, server),
            offset_of!(PhysicsObj, events),
            offset_of!(PhysicsObj, move_completions),
            offset_of!(PhysicsObj, sequence) + offset_of!(Sequence, combine_memo),
        ] {
            assert!(cold < first_entry);
        }
        assert_eq!(size_of::<PhysicsObj>(), 1_152);
    }
}

#[cfg(test)]
mod at_rest {
    use super::*;
    use crate::sequence::AnimMap;

    fn grounded(velocity: Vec3) -> PhysicsObj {
        let mut obj = PhysicsObj::new(
            Arc::new(AnimMap::default()),
            Weenie {
                is_creature: true,
                run_rate: 1.0,
            },
            0x7d64_0013,
            AFrame::new(Vec3::new(1.0, 2.0, 0.0), Quat::IDENTITY),
        );
        obj.apply_contact(true, true);
        obj.active = true;
        obj.in_cell = true;
        obj.velocity = velocity;
        obj
    }

    fn bits(v: Vec3) -> [u32; 3] {
        [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
    }

    #[test]
    fn a_velocity_and_acceleration_of_plus_zeros_stay_at_rest() {
        // By hand: on walkable ground the acceleration is +0, so `v2 = +0 ≤ 0` (the
        // object without a movement manager goes inactive) and the new velocity is
        // `+0 + +0 · (1/30) = +0 + +0 = +0`; the origin does not move.
        let mut obj = grounded(Vec3::ZERO);
        assert_eq!(bits(obj.acceleration), [0; 3]);
        obj.update_object_internal(1.0 / 30.0);
        assert_eq!(bits(obj.velocity), [0; 3]);
        assert!(!obj.active);
        assert_eq!(bits(obj.frame.origin), [0x3f80_0000, 0x4000_0000, 0]);
        assert_eq!(bits(obj.cached_velocity), [0; 3]);
    }

    #[test]
    fn a_negative_zero_velocity_takes_the_formula_and_becomes_plus_zero() {
        // Not the +0 bits, so the step takes the formula: `(−0)² = +0`, at rest, and
        // `−0 + +0 · (1/30) = −0 + +0 = +0` (round to nearest).
        let mut obj = grounded(Vec3::new(-0.0, 0.0, -0.0));
        obj.update_object_internal(1.0 / 30.0);
        assert_eq!(bits(obj.velocity), [0; 3]);
        assert!(!obj.active);
    }
}

#[cfg(test)]
mod lone_hooks {
    use crate::bench::{sample_table, spawn};
    use crate::events::Event;
    use crate::math::Vec3;
    use crate::sequence::FiredHook;
    use std::sync::Arc;

    const SOUND: FiredHook = FiredHook {
        hook_type: 1,
        anim_id: 0x0300_0102,
        frame: 7,
        index: 0,
    };

    // Debug builds (this test's) also check each lone hook logged alone against the
    // plain path on a clone.
    #[test]
    fn a_lone_hook_other_than_animation_done_is_logged_alone_or_through_the_plain_path() {
        let (table, anims) = sample_table().unwrap();
        let mut obj = spawn(table, Arc::new(anims), Vec3::ZERO);
        obj.hook_log.clear();
        // Room in the log and no event log: logged, nothing raised.
        obj.anim_hooks.push(SOUND);
        obj.process_hooks();
        assert_eq!(obj.hook_log, [1]);
        assert!(obj.anim_hooks.is_empty());
        assert!(obj.events.is_none());
        // A full log: the plain path grows it and logs the hook last.
        while obj.hook_log.len() < obj.hook_log.capacity() {
            obj.hook_log.push(2);
        }
        let full = obj.hook_log.len();
        obj.anim_hooks.push(SOUND);
        obj.process_hooks();
        assert_eq!(obj.hook_log.len(), full + 1);
        assert_eq!(obj.hook_log.last(), Some(&1));
        // An event log: the plain path logs the hook and raises it.
        obj.hook_log.clear();
        obj.enable_events();
        obj.anim_hooks.push(SOUND);
        obj.process_hooks();
        assert_eq!(obj.hook_log, [1]);
        assert_eq!(
            obj.events(),
            [Event::Hook {
                hook_type: 1,
                anim_id: 0x0300_0102,
                frame: 7,
                index: 0
            }]
        );
        assert!(obj.anim_hooks.is_empty());
    }
}
