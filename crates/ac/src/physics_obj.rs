//! The object the motion system drives (`Phys/PhysicsObj.cs`, `Phys/PartArray.cs`,
//! `Mgr/MovementManager.cs`; the tick and entry points of docs/ac.md and
//! the conformance world stand-ins).
//!
//! There is no collision world: every position the object is asked to take is taken
//! exactly, and contact changes only when the caller says so (the conformance world, Q45).

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
pub struct PhysicsObj {
    pub cell: u32,
    pub frame: AFrame,
    /// `PhysicsState.Gravity` (part of `PhysicsGlobals.DefaultState`).
    pub gravity: bool,
    /// `PhysicsState.Hidden`.
    pub hidden: bool,
    // The four flags below are private because changing one must go through the
    // method that keeps the rest consistent (HitGround/LeaveGround, acceleration,
    // activation): use `apply_contact`, `set_in_cell`, `set_active` and the getters.
    pub(crate) contact: bool,
    pub(crate) on_walkable: bool,
    pub(crate) active: bool,
    /// `CurCell != null`.
    pub(crate) in_cell: bool,
    pub velocity: Vec3,
    pub acceleration: Vec3,
    pub omega: Vec3,
    pub cached_velocity: Vec3,
    pub scale: f32,
    pub friction: f32,
    pub contact_normal: Vec3,
    pub player_distance: f32,
    pub is_animating: bool,
    pub last_move_was_autonomous: bool,
    pub weenie: Weenie,
    pub sequence: Sequence,
    pub table_manager: Option<MotionTableManager>,
    /// Whether the `MovementManager` exists (its `MotionInterp` is `minterp`); only
    /// `set_motion_table` creates it.
    pub(crate) has_movement_manager: bool,
    pub minterp: MotionInterp,
    pub anims: Arc<dyn AnimSource + Send + Sync>,
    /// `AnimHooks`: hooks queued by the sequence during the current tick.
    pub anim_hooks: Vec<FiredHook>,
    /// Every hook processed since the log was last cleared (trace `hooks`).
    pub hook_log: Vec<u32>,
    /// Every weenie `OnMotionDone` since the log was last cleared (trace `motions_done`).
    pub motions_done: Vec<(u32, bool)>,
    pub position_manager: Option<Box<PositionManager>>,
    /// How an interpolation correction reaches the object (extension; default ACE).
    pub correction: CorrectionMode,
    /// `UpdateTime` (seconds) for [`PhysicsObj::update_object`].
    pub update_time: f64,
    /// `PhysicsObj.ID` (0 for a lone object).
    pub id: u32,
    /// The Setup's radius and height (`GetRadius`/`GetHeight` at scale 1).
    pub radius: f32,
    pub height: f32,
    /// The world clock `PhysicsTimer.CurrentTime` as this object last saw it.
    pub now: f64,
    /// The `MoveToManager` (meaningful only while `has_movement_manager`).
    pub moveto: MoveToManager,
    pub target_manager: Option<Box<TargetManager>>,
    /// Requests to other objects, carried out by the world after each call.
    pub outbox: Vec<Remote>,
    /// Every weenie `OnMoveComplete` since the log was last cleared (trace `moveto.weenie`).
    pub move_completions: Vec<WeenieError>,
    /// The last `OnMoveComplete` status since creation.
    pub last_move_completion: Option<WeenieError>,
    /// An Action completed inside the table manager: unstick once it is released.
    pub(crate) unstick_pending: bool,
    /// The sticky target's live position for this tick (set by the world).
    pub(crate) sticky_live: Option<Position>,
    /// `get_sticky_object()` for the interpolation manager during the offset step.
    pub(crate) sticky_object: u32,
    /// The last combine of the tick's offset into the frame, with the physics step's
    /// rotation of its result.
    pub(crate) offset_memo: OffsetMemo,
    /// The server side: collision-report flags, the requested position, jump answers.
    pub server: crate::server_loop::ServerSide,
}

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
            anim_hooks: Vec::with_capacity(16),
            hook_log: Vec::with_capacity(16),
            motions_done: Vec::with_capacity(16),
            position_manager: None,
            correction: CorrectionMode::Ace,
            update_time: 0.0,
            id: 0,
            radius: 0.0,
            height: 0.0,
            now: 0.0,
            moveto: MoveToManager::new(0.0),
            target_manager: None,
            outbox: Vec::with_capacity(8),
            move_completions: Vec::with_capacity(4),
            last_move_completion: None,
            unstick_pending: false,
            sticky_live: None,
            sticky_object: 0,
            offset_memo: OffsetMemo::default(),
            server: crate::server_loop::ServerSide::default(),
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
        let id = table.as_ref().map_or(0, |t| t.id);
        match (&self.table_manager, table) {
            (Some(tm), Some(_)) if tm.table.id == id => {}
            (_, Some(t)) => self.table_manager = Some(MotionTableManager::new(t)),
            (_, None) => self.table_manager = None,
        }
        self.has_movement_manager = false;
        self.minterp = MotionInterp::default();
        self.moveto = MoveToManager::new(self.now);
        if id != 0 {
            self.has_movement_manager = true;
            self.mi_enter_default_state();
            self.set_active(true);
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
        if !self.tick_position_step::<false>(q) {
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
    /// `LEAN` keeps the update of an object with a position manager or a hidden one out
    /// of line. The several-object world's tick loop inlines this step among its own
    /// bookkeeping, and there the two further inlined copies of the update made the loop
    /// spill more than the common case gained (about 34 instructions per entity-tick
    /// through the C ABI); the lone object's loop is faster with all three inline.
    #[inline(always)]
    pub(crate) fn tick_position_step<const LEAN: bool>(&mut self, q: f64) -> bool {
        // `&`, not `&&`: two flag reads, one test.
        if !(self.active & self.in_cell) {
            return false;
        }
        if LEAN {
            if self.position_manager.is_some() || self.hidden {
                self.tick_position_step_other_out_of_line(q);
            } else {
                self.tick_position_step_visible(q);
            }
        } else if self.position_manager.is_some() {
            self.tick_position_step_managed(q);
        } else if !self.hidden {
            self.tick_position_step_visible(q);
        } else {
            self.tick_position_step_hidden(q);
        }
        true
    }

    /// [`PhysicsObj::tick_position_step`] for a visible object without a position
    /// manager, the common case.
    #[inline(always)]
    fn tick_position_step_visible(&mut self, q: f64) {
        // Only the position manager's step (none here) can move `frame` during the
        // update, so the old frame is read in place instead of copied first.
        // Nothing in the update changes `hidden`, so this branch's steps do not
        // test it again.
        let origin = self.update_position_steps::<false, true>(q);
        let old = self.frame.origin;
        self.store_origin(origin, &old, q);
        self.frame.orientation = self.offset_memo.combined_orientation(true);
    }

    /// The object with a position manager or a hidden one, out of line (see
    /// [`PhysicsObj::tick_position_step`]).
    #[inline(never)]
    fn tick_position_step_other_out_of_line(&mut self, q: f64) {
        if self.position_manager.is_some() {
            self.tick_position_step_managed(q);
        } else {
            self.tick_position_step_hidden(q);
        }
    }

    /// [`PhysicsObj::tick_position_step`] for an object with a position manager: its
    /// step can move the frame during the update, so the old frame is copied first.
    #[inline(always)]
    fn tick_position_step_managed(&mut self, q: f64) {
        let old = self.frame;
        let origin = self.update_position_steps::<true, false>(q);
        self.store_origin(origin, &old.origin, q);
        self.frame.orientation = self.new_orientation();
    }

    /// [`PhysicsObj::tick_position_step`] for a hidden object without a position manager.
    #[inline(always)]
    fn tick_position_step_hidden(&mut self, q: f64) {
        let origin = self.update_position_steps::<false, false>(q);
        let old = self.frame.origin;
        self.store_origin(origin, &old, q);
        self.frame.orientation = self.new_orientation();
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

    /// `UpdatePositionInternal(q, ref newFrame)`.
    // Inlined into the tick (its only hot caller): one frame instead of three, and the
    // offset and new frame stay in registers instead of going through memory.
    #[inline(always)]
    pub fn update_position_internal(&mut self, q: f64) -> AFrame {
        let origin = if self.position_manager.is_some() {
            self.update_position_steps::<true, false>(q)
        } else {
            self.update_position_steps::<false, false>(q)
        };
        AFrame::new(origin, self.new_orientation())
    }

    /// The new frame's orientation after [`PhysicsObj::update_position_steps`]: the
    /// offset memo's combine, stepped unless the object is hidden. Read from the memo
    /// (nothing but the update changes it, and nothing changes `hidden` while the
    /// hooks run), so it is not carried across the hooks.
    #[inline(always)]
    fn new_orientation(&self) -> Quat {
        self.offset_memo.combined_orientation(!self.hidden)
    }

    /// [`PhysicsObj::update_position_internal`] up to the new origin, for a caller
    /// that has tested whether the object has a position manager (`HAS_PM`): the
    /// sequence's update cannot create or drop one, so the tick tests it once for both
    /// steps. The new orientation is then [`PhysicsObj::new_orientation`].
    /// `VISIBLE` says the caller has found the object not hidden (else the steps test
    /// `hidden` themselves).
    #[inline(always)]
    fn update_position_steps<const HAS_PM: bool, const VISIBLE: bool>(&mut self, q: f64) -> Vec3 {
        let mut off = AFrame::IDENTITY;
        if VISIBLE || !self.hidden {
            self.sequence
                .update(q as f32, Some(&mut off), &mut self.anim_hooks);
            // Q44: airborne drops the animation's translation, keeps its rotation.
            // One multiplication by a selected factor: `x · 0` is the same bits
            // either way.
            let s = if self.on_walkable { self.scale } else { 0.0 };
            off.origin = off.origin.scale(s);
        }
        if HAS_PM {
            self.position_manager_adjust_offset_with(&mut off, q);
        }
        let mut origin = self.offset_memo.combine_origin(&self.frame, &off);
        if VISIBLE || !self.hidden {
            // `update_physics_internal`, its rotation taken from the combine's memo:
            // the translation leaves the combine's orientation as it is.
            let q = q as f32;
            self.update_physics_translation(q, &mut origin);
            self.offset_memo.step_combined(&self.omega, q);
        }
        self.process_hooks();
        origin
    }

    /// `UpdatePhysicsInternal(q, ref frame)`.
    pub fn update_physics_internal(&mut self, q: f32, frame: &mut AFrame) {
        self.update_physics_translation(q, &mut frame.origin);
        frame.grotate(self.omega.scale(q));
    }

    /// [`PhysicsObj::update_physics_internal`] up to its rotation: velocity, friction,
    /// acceleration and the frame's new origin.
    #[inline(always)]
    fn update_physics_translation(&mut self, q: f32, origin: &mut Vec3) {
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

    fn process_queued_hooks(&mut self) {
        let n = self.anim_hooks.len();
        for i in 0..n {
            let h = self.anim_hooks[i];
            self.hook_log.push(h.hook_type);
            if h.hook_type == HOOK_ANIMATION_DONE {
                self.animation_done(true);
            }
        }
        self.anim_hooks.clear();
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
    fn position_manager_adjust_offset_with(&mut self, off: &mut AFrame, q: f64) {
        if let Some(mut m) = self.position_manager.take() {
            // The interpolation manager asks get_sticky_object() while the position
            // manager is held outside the object.
            self.sticky_object = m.sticky.as_ref().map_or(0, |s| s.target_id);
            m.adjust_offset(off, q, self);
            self.position_manager = Some(m);
            let live = self.sticky_live;
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
