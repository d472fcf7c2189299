//! The loop a server runs for its creatures and players (`PhysicsObj`'s server update
//! paths, `MotionInterp`'s jump, entering and leaving the world, `Player`'s jump and
//! MoveToState handling), and the motion state a server broadcasts.
//!
//! There is still no collision world: a transition to a requested position reaches it
//! exactly, and contact changes only through the caller ([`PhysicsObj::apply_contact`]).

use crate::commands::*;
use crate::interpolation::Position;
use crate::math::{AFrame, Vec3, EPSILON};
use crate::motion_interp::motion_allows_jump;
use crate::physics_obj::{PhysicsObj, HUGE_QUANTUM, MAX_QUANTUM, MIN_QUANTUM, TICK_RATE};
use crate::target_manager::{Remote, TargetStatus};
use crate::wire::movement_data::{
    InterpretedState, MotionItem, MoveToParameters, MovementBody, MovementData, TurnToParameters,
    STANDING_LONG_JUMP, STICK_TO_OBJECT,
};
use crate::wire::{MoveToState, RawMotionState};

/// `PhysicsState` bits the server reports.
pub const STATE_REPORT_COLLISIONS: u32 = 0x8;
pub const STATE_IGNORE_COLLISIONS: u32 = 0x10;
pub const STATE_GRAVITY: u32 = 0x400;
pub const STATE_LIGHTING_ON: u32 = 0x800;
pub const STATE_HIDDEN: u32 = 0x4000;
pub const STATE_EDGE_SLIDE: u32 = 0x40_0000;

/// What the server side of an object holds beyond the motion system: collision-report
/// flags, the client's requested position, and the weenie's jump answers.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerSide {
    pub report_collisions: bool,
    pub ignore_collisions: bool,
    /// `TransientState.WaterContact` (nothing here sets it; jumps clear it).
    pub water_contact: bool,
    /// `RequestPos`: where the client says the object is (cell 0 until first set).
    pub request_pos: Position,
    /// The cached velocity at the time the request was set; `set_current_pos` puts it back.
    pub request_cached_velocity: Vec3,
    /// The weenie's `InqJumpVelocity`: None answers false (a non-player); Some gives
    /// the Jump skill of a player with stamina.
    pub jump_skill: Option<u32>,
    /// The player's burden (a fraction of capacity) for the jump height.
    pub burden: f32,
    /// The weenie's `JumpStaminaCost` answer (ACE's server weenie answers 0).
    pub jump_stamina: f32,
}

impl Default for ServerSide {
    fn default() -> Self {
        ServerSide {
            report_collisions: true,
            ignore_collisions: false,
            water_contact: false,
            request_pos: Position::new(0, AFrame::IDENTITY),
            request_cached_velocity: Vec3::ZERO,
            jump_skill: None,
            burden: 0.0,
            jump_stamina: 0.0,
        }
    }
}

/// What `update_object` will do for a gap of time: refuse, consume the time unsimulated,
/// or run `full` quanta of `MaxQuantum` and then `rest` (if any).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UpdatePlan {
    /// Below `TickRate`: nothing happens, the time stays owed.
    Refuse,
    /// Over `HugeQuantum`: the time is used up without simulating it.
    Consume,
    Run {
        full: u32,
        rest: Option<f64>,
        /// The update time after the quanta (the old one plus their sum).
        end_time: f64,
    },
}

/// The quanta for the gap from `update_time` to `now`. `tick_rate_gate` is
/// `update_object`'s TickRate test (`update_object_server_new` has none).
pub fn plan_update(update_time: f64, now: f64, tick_rate_gate: bool) -> UpdatePlan {
    let mut dt = now - update_time;
    if tick_rate_gate && dt < TICK_RATE {
        return UpdatePlan::Refuse;
    }
    if dt > HUGE_QUANTUM {
        return UpdatePlan::Consume;
    }
    let mut end_time = update_time;
    let mut full = 0;
    while dt > MAX_QUANTUM {
        end_time += MAX_QUANTUM;
        dt -= MAX_QUANTUM;
        full += 1;
    }
    let rest = if dt > MIN_QUANTUM {
        end_time += dt;
        Some(dt)
    } else {
        None
    };
    UpdatePlan::Run {
        full,
        rest,
        end_time,
    }
}

/// `GetBlockDist`: how many landblocks apart two cells are (the larger axis).
pub fn block_dist(a: u32, b: u32) -> u32 {
    let ax = (a >> 24) as i32;
    let ay = ((a >> 16) & 0xFF) as i32;
    let bx = (b >> 24) as i32;
    let by = ((b >> 16) & 0xFF) as i32;
    (ax - bx).unsigned_abs().max((ay - by).unsigned_abs())
}

/// An outdoor position's cell recomputed from its origin, the origin wrapped into its
/// landblock (ACE's `LandDefs.AdjustToOutside` / `Position.Pos` setter). Indoor cells
/// (low 16 bits ≥ 0x100) are returned unchanged.
pub fn adjust_to_outside(p: &Position) -> Position {
    if p.cell & 0xFFFF >= 0x100 {
        return *p;
    }
    const BLOCK: f32 = 192.0;
    let mut o = p.frame.origin;
    let mut bx = (p.cell >> 24) as i32;
    let mut by = ((p.cell >> 16) & 0xFF) as i32;
    if !(0.0..BLOCK).contains(&o.x) {
        let k = (o.x / BLOCK).floor();
        bx += k as i32;
        o.x -= k * BLOCK;
    }
    if !(0.0..BLOCK).contains(&o.y) {
        let k = (o.y / BLOCK).floor();
        by += k as i32;
        o.y -= k * BLOCK;
    }
    let cx = ((o.x / 24.0) as u32).min(7);
    let cy = ((o.y / 24.0) as u32).min(7);
    let lb = ((bx.clamp(0, 255) as u32) << 24) | ((by.clamp(0, 255) as u32) << 16);
    let mut frame = p.frame;
    frame.origin = o;
    Position::new(lb | (cx * 8 + cy + 1), frame)
}

fn hold_key_of(v: u32) -> HoldKey {
    match v {
        1 => HoldKey::None,
        2 => HoldKey::Run,
        _ => HoldKey::Invalid,
    }
}

impl PhysicsObj {
    /// The `PhysicsState` flags (`EdgeSlide|LightingOn` always, the rest as set).
    pub fn physics_state(&self) -> u32 {
        let s = &self.server;
        STATE_EDGE_SLIDE
            | STATE_LIGHTING_ON
            | if self.gravity { STATE_GRAVITY } else { 0 }
            | if self.hidden { STATE_HIDDEN } else { 0 }
            | if s.report_collisions {
                STATE_REPORT_COLLISIONS
            } else {
                0
            }
            | if s.ignore_collisions {
                STATE_IGNORE_COLLISIONS
            } else {
                0
            }
    }

    /// `IsMovingOrAnimating`: animating, in a link, moving (cached or body velocity),
    /// sidestepping or turning, or in a move-to.
    pub fn is_moving_or_animating(&self) -> bool {
        self.is_animating
            || !self.sequence.is_first_cyclic()
            || self.cached_velocity != Vec3::ZERO
            || self.velocity != Vec3::ZERO
            || self.minterp.interpreted.has_commands()
            || (self.has_movement_manager() && self.moveto.initialized)
    }

    /// `PhysicsObj.motions_pending` (= `IsAnimating`).
    pub fn motions_pending(&self) -> bool {
        self.is_animating
    }

    /// `MotionInterp.motions_pending`: the interpreter's pending list is not empty.
    pub fn mi_motions_pending(&self) -> bool {
        !self.minterp.pending_motions.is_empty()
    }

    /// `MotionInterp.is_standing_still`: on walkable ground, Ready, no sidestep, no turn.
    pub fn mi_is_standing_still(&self) -> bool {
        let i = &self.minterp.interpreted;
        self.contact()
            && self.on_walkable()
            && i.forward_command == READY
            && i.sidestep_command == 0
            && i.turn_command == 0
    }

    /// `MotionInterp.ReportExhaustion`: re-apply the raw state (a creature moving on its
    /// own) or the interpreted one, without cancelling a move-to and without jumping.
    pub fn mi_report_exhaustion(&mut self) {
        if !self.has_movement_manager() || !self.minterp.initted {
            return;
        }
        if self.weenie.is_creature && self.last_move_was_autonomous {
            self.mi_apply_raw_movement(false, false);
        } else {
            self.mi_apply_interpreted_movement(false, false);
        }
    }

    /// `MotionInterp.charge_jump`: refuses while Falling or from Crouch up to (not
    /// including) Sleeping; otherwise a creature standing still on walkable ground
    /// starts a standing long jump.
    pub fn mi_charge_jump(&mut self) -> WeenieError {
        let i = &self.minterp.interpreted;
        let fwd = i.forward_command;
        if fwd == FALLING || (CROUCH..SLEEPING).contains(&fwd) {
            return WeenieError::YouCantJumpFromThisPosition;
        }
        if self.contact()
            && self.on_walkable()
            && fwd == READY
            && i.sidestep_command == 0
            && i.turn_command == 0
        {
            self.minterp.standing_long_jump = true;
        }
        WeenieError::None
    }

    /// `MotionInterp.jump_is_allowed(extent, stamina)` with this object's weenie
    /// answers (`JumpStaminaCost` 0 refuses with GeneralMovementFailure).
    pub fn mi_jump_is_allowed_with(&self, _extent: f32, _stamina: i32) -> WeenieError {
        let grounded = self.contact() && self.on_walkable();
        if !self.weenie.is_creature || !self.gravity || grounded {
            let constrained = self
                .position_manager
                .as_ref()
                .and_then(|m| m.constraint.as_ref())
                .is_some_and(|c| c.is_fully_constrained());
            if constrained {
                return WeenieError::GeneralMovementFailure;
            }
            let pm = &self.minterp.pending_motions;
            if pm.len() > 1 {
                if let Some(h) = pm.front() {
                    if h.jump_error_code != WeenieError::None {
                        return h.jump_error_code;
                    }
                }
            }
            let mut e = self.mi_jump_charge_is_allowed();
            if e == WeenieError::None {
                e = motion_allows_jump(self.minterp.interpreted.forward_command);
                if e == WeenieError::None && self.server.jump_stamina == 0.0 {
                    e = WeenieError::GeneralMovementFailure;
                }
            }
            return e;
        }
        WeenieError::YouCantJumpWhileInTheAir
    }

    /// `MotionInterp.jump(extent, stamina)`, the client-side jump: cancel a move-to,
    /// check, then leave walkable ground with the extent set (LeaveGround launches with
    /// the state velocity and `get_jump_v_z`). Contact stays set.
    pub fn mi_jump(&mut self, extent: f32, stamina: i32) -> WeenieError {
        self.cancel_moveto();
        let e = self.mi_jump_is_allowed_with(extent, stamina);
        if e == WeenieError::None {
            self.minterp.jump_extent = extent;
            self.set_on_walkable(false);
        } else {
            self.minterp.standing_long_jump = false;
        }
        e
    }

    /// The weenie's `InqJumpVelocity` for a player with a Jump skill: the jump height
    /// (`GetJumpHeight`: burden factor × (skill/(skill+1300)·22.2 + 0.05) × extent, at
    /// least 0.35) as a launch speed √(h·19.6). None for a non-player.
    pub fn inq_jump_velocity(&self, extent: f32) -> Option<f32> {
        let skill = self.server.jump_skill?;
        let burden = self.server.burden;
        let power = extent.clamp(0.0, 1.0);
        let burden_mod = if burden < 1.0 {
            1.0
        } else if burden < 2.0 {
            2.0 - burden
        } else {
            0.0
        };
        let s = skill as f32;
        let mut h = burden_mod * (s / (s + 1300.0) * 22.2 + 0.05) * power / 1.0;
        if h < 0.35 {
            h = 0.35;
        }
        Some(((h as f64) * 19.6).sqrt() as f32)
    }

    /// `MotionInterp.get_jump_v_z`.
    pub fn jump_v_z(&self) -> f32 {
        let extent = self.minterp.jump_extent;
        if extent < EPSILON {
            return 0.0;
        }
        self.inq_jump_velocity(extent.min(1.0)).unwrap_or(0.0)
    }

    /// `Player.HandleActionJump`'s physics block: the server-side jump with the
    /// client's local launch velocity.
    pub fn jump_server(&mut self, velocity: Vec3, fast_tick: bool) {
        if !fast_tick || !self.is_moving_or_animating() {
            self.update_time = self.now;
        }
        self.contact = false;
        self.server.water_contact = false;
        self.calc_acceleration();
        self.set_on_walkable(false);
        self.set_local_velocity(velocity);
        self.remove_link_animations();
        self.minterp.pending_motions.clear();
        self.is_animating = false;
    }

    /// `update_object` (Q46) at clock `now` for a lone object: the quanta of
    /// [`plan_update`], each one `UpdateObjectInternal`. Returns the number of quanta
    /// simulated (ACE's true/false is whether the gates passed: see [`plan_update`]).
    pub fn update_object(&mut self, now: f64) -> u32 {
        self.now = now;
        if !self.in_cell() {
            self.set_active(false);
            return 0;
        }
        match plan_update(self.update_time, now, true) {
            UpdatePlan::Refuse => 0,
            UpdatePlan::Consume => {
                self.update_time = now;
                0
            }
            UpdatePlan::Run {
                full,
                rest,
                end_time,
            } => {
                for _ in 0..full {
                    self.update_object_internal(MAX_QUANTUM);
                }
                if let Some(q) = rest {
                    self.update_object_internal(q);
                }
                self.update_time = end_time;
                full + u32::from(rest.is_some())
            }
        }
    }

    /// `set_request_pos`: the client's position (as `Player.UpdatePlayerPosition` gives
    /// it); remembers the cached velocity of this moment.
    pub fn set_request_pos(&mut self, p: &Position) {
        self.server.request_pos.frame = p.frame;
        if !self.in_cell() {
            self.set_in_cell(true);
        }
        self.server.request_pos.cell = p.cell;
        self.server.request_cached_velocity = self.cached_velocity;
    }

    /// `set_current_pos`: take the position, enter its cell, and put back the cached
    /// velocity of the `set_request_pos` moment.
    pub fn set_current_pos(&mut self, p: &Position) {
        self.cell = p.cell;
        self.frame = p.frame;
        self.set_in_cell(true);
        self.cached_velocity = self.server.request_cached_velocity;
    }

    /// The transition step of `UpdateObjectInternalServer` (no animation): refuse a
    /// request more than one landblock away, else move to it with the cached velocity
    /// of the move (`offset / quantum`; a zero quantum gives ±Inf/NaN as in ACE). The
    /// manager steps that follow are [`PhysicsObj::server_use_time`].
    pub fn server_transition(&mut self, q: f64) -> bool {
        let req = self.server.request_pos;
        if block_dist(self.cell, req.cell) > 1 {
            return false;
        }
        let off = self.position().get_offset(&req);
        self.cached_velocity = off.div(q as f32);
        self.cell = req.cell;
        self.frame = req.frame;
        self.set_in_cell(true);
        true
    }

    /// The manager steps after a server transition: MovementManager, PartArray and
    /// PositionManager `UseTime` (a lone object has no targets).
    pub fn server_use_time(&mut self) {
        if self.has_movement_manager() {
            self.mt_use_time();
        }
        self.check_for_completed_motions();
        self.position_manager_use_time();
        self.outbox.clear();
    }

    /// `UpdateObjectInternalServer(q)` for a lone object.
    pub fn update_object_internal_server(&mut self, q: f64) -> bool {
        if !self.server_transition(q) {
            return false;
        }
        self.server_use_time();
        true
    }

    /// `update_object_server(force_pos)` (the legacy path) at clock `now`.
    pub fn update_object_server(&mut self, now: f64, force_pos: bool) -> bool {
        self.now = now;
        let dt = now - self.update_time;
        let ok = self.update_object_internal_server(dt);
        self.finish_update_object_server(now, force_pos, ok)
    }

    /// The end of `update_object_server`: the forced position, contact zeroing the
    /// cached velocity, the update time.
    pub fn finish_update_object_server(&mut self, now: f64, force_pos: bool, ok: bool) -> bool {
        if force_pos && ok {
            let req = self.server.request_pos;
            self.set_current_pos(&req);
        }
        if self.contact() {
            self.cached_velocity = Vec3::ZERO;
        }
        self.update_time = now;
        ok
    }

    /// `update_object_server_new(force_pos)` for a lone object at clock `now`.
    pub fn update_object_server_new(&mut self, now: f64, force_pos: bool) -> bool {
        self.now = now;
        match self.begin_update_object_server_new(now) {
            None => false,
            Some((plan, ok)) => {
                if let UpdatePlan::Run { full, rest, .. } = plan {
                    for _ in 0..full {
                        self.update_object_internal(MAX_QUANTUM);
                    }
                    if let Some(q) = rest {
                        self.update_object_internal(q);
                    }
                }
                self.finish_update_object_server_new(plan, force_pos, ok)
            }
        }
    }

    /// The gates of `update_object_server_new`: None when it returns false at once
    /// (no cell; or a gap over HugeQuantum, which is consumed); else the quanta to run
    /// and whether the request is reachable (the quanta run either way).
    pub fn begin_update_object_server_new(&mut self, now: f64) -> Option<(UpdatePlan, bool)> {
        if !self.in_cell() {
            self.set_active(false);
            return None;
        }
        let plan = plan_update(self.update_time, now, false);
        if plan == UpdatePlan::Consume {
            self.update_time = now;
            return None;
        }
        let ok = block_dist(self.cell, self.server.request_pos.cell) <= 1;
        Some((plan, ok))
    }

    /// The end of `update_object_server_new`: the forced position and the update time
    /// (the old one plus the quanta run).
    pub fn finish_update_object_server_new(
        &mut self,
        plan: UpdatePlan,
        force_pos: bool,
        ok: bool,
    ) -> bool {
        if force_pos && ok {
            let req = self.server.request_pos;
            self.set_current_pos(&req);
        }
        if let UpdatePlan::Run { end_time, .. } = plan {
            self.update_time = end_time;
        }
        ok
    }

    /// `PhysicsObj.enter_world(pos)`: store the position (outdoors: cell recomputed
    /// from the origin), stamp the update time, take the position (entering its cell),
    /// become active, and drop link animations and pending table animations.
    pub fn enter_world(&mut self, pos: &Position) -> bool {
        let p = adjust_to_outside(pos);
        self.cell = p.cell;
        self.frame = p.frame;
        self.update_time = self.now;
        self.set_position(&p);
        self.set_active(true);
        self.remove_link_animations();
        true
    }

    /// `MotionInterp.HandleExitWorld`: pending actions are taken off both states,
    /// the pending list is cleared and the object stops animating.
    pub fn mi_handle_exit_world(&mut self) {
        let actions = self
            .minterp
            .pending_motions
            .iter()
            .filter(|n| n.motion & ACTION != 0)
            .count();
        for _ in 0..actions {
            self.unstick_from_object();
            self.minterp.interpreted.remove_action();
            self.minterp.raw.remove_action();
        }
        self.minterp.pending_motions.clear();
        self.is_animating = false;
    }

    /// `PhysicsObj.exit_world`: drain the table manager, reset the interpreter's
    /// pending motions, unstick, clear the target and tell the voyeurs. The object
    /// keeps its cell and keeps ticking.
    pub fn exit_world(&mut self) {
        self.handle_exit_world_parts();
        if self.has_movement_manager() {
            self.mi_handle_exit_world();
        }
        if self.position_manager.is_some() {
            self.unstick_from_object();
        }
        if self.target_manager.is_some() {
            self.clear_target();
            let position = self.position();
            self.outbox.push(Remote::Notify {
                status: TargetStatus::ExitWorld,
                position,
            });
        }
    }

    /// `PhysicsObj.leave_world`: inactive, out of its cell (cell id 0), contact
    /// dropped (LeaveGround if it stood on walkable ground), every transient flag cleared.
    pub fn leave_world(&mut self) {
        self.set_active(false);
        self.set_in_cell(false);
        self.cell = 0;
        self.contact = false;
        self.calc_acceleration();
        let walkable = self.on_walkable();
        self.on_walkable = false;
        self.server.water_contact = false;
        if self.has_movement_manager() && walkable {
            self.movement_leave_ground();
        }
        self.calc_acceleration();
        self.contact = false;
        self.on_walkable = false;
        self.active = false;
    }

    /// `PhysicsObj.set_hidden(hidden)`: the Hidden flag, collisions ignored while
    /// hidden, and link animations dropped either way. A hidden object's ticks skip
    /// the animation and the body physics.
    pub fn set_hidden(&mut self, hidden: bool) {
        self.hidden = hidden;
        self.server.report_collisions = !hidden;
        self.server.ignore_collisions = hidden;
        self.remove_link_animations();
    }

    /// `PhysicsObj.SetScaleStatic`: the scale the animation's offset on walkable ground
    /// is multiplied by.
    pub fn set_scale_static(&mut self, scale: f32) {
        self.scale = scale;
    }

    /// `Player.OnMoveToState_ServerMethod` with a parsed raw state: the raw state
    /// replaced (zero fields defaulted), a standing long jump keeps Ready and no
    /// sidestep, then the raw movement is applied (cancelling a move-to).
    pub fn on_move_to_state_server(&mut self, raw: &RawMotionState, standing_long_jump: bool) {
        let speed = |s: f32| if s == 0.0 { 1.0 } else { s };
        let r = &mut self.minterp.raw;
        r.current_hold_key = hold_key_of(raw.current_hold_key);
        r.current_style = if raw.current_style == 0 {
            NON_COMBAT
        } else {
            raw.current_style
        };
        r.forward_command = if raw.forward_command == 0 {
            READY
        } else {
            raw.forward_command
        };
        r.forward_hold_key = hold_key_of(raw.forward_hold_key);
        r.forward_speed = speed(raw.forward_speed);
        r.sidestep_command = raw.sidestep_command;
        r.sidestep_hold_key = hold_key_of(raw.sidestep_hold_key);
        r.sidestep_speed = speed(raw.sidestep_speed);
        r.turn_command = raw.turn_command;
        r.turn_hold_key = hold_key_of(raw.turn_hold_key);
        r.turn_speed = speed(raw.turn_speed);
        if standing_long_jump {
            r.forward_command = READY;
            r.sidestep_command = 0;
        }
        let allow_jump =
            motion_allows_jump(self.minterp.interpreted.forward_command) == WeenieError::None;
        self.mi_apply_raw_movement(true, allow_jump);
    }

    /// `Player.OnMoveToState_ClientMethod`: the key changes since the previous raw
    /// state (`prev`, None = nothing held) as DoMotion / StopMotion calls with the
    /// current hold key.
    pub fn on_move_to_state_client(&mut self, raw: &RawMotionState, prev: Option<&RawMotionState>) {
        let none = RawMotionState::default();
        let prev = prev.unwrap_or(&none);
        let params = MovementParameters {
            hold_key_to_apply: hold_key_of(raw.current_hold_key),
            ..MovementParameters::default()
        };
        if raw.forward_command != 0 {
            if prev.forward_command == 0 {
                self.do_motion(READY, &params);
                self.do_motion(raw.forward_command, &params);
            } else if prev.forward_command != raw.forward_command {
                self.do_motion(raw.forward_command, &params);
            }
        } else if prev.forward_command != 0 {
            self.stop_motion(prev.forward_command, &params);
        }
        for (now, before) in [
            (raw.sidestep_command, prev.sidestep_command),
            (raw.turn_command, prev.turn_command),
        ] {
            if now != 0 {
                if before != now {
                    self.do_motion(now, &params);
                }
            } else if before != 0 {
                self.stop_motion(before, &params);
            }
        }
    }

    /// The motion state a server broadcasts for this object (what ACE keeps as the
    /// WorldObject's `Motion`, filled from the physics state): the move-to or turn in
    /// progress with its parameters, else the interpreted state with its actions, the
    /// sticky target and the standing-long-jump flag.
    pub fn movement_data(&self, autonomous: bool) -> MovementData {
        let i = &self.minterp.interpreted;
        let style = i.current_style;
        let mt = &self.moveto;
        let kind = if self.has_movement_manager() {
            mt.movement_type
        } else {
            MovementType::Invalid
        };
        let p = &mt.movement_params;
        let params = MoveToParameters {
            flags: p.flags(),
            distance_to_object: p.distance_to_object,
            min_distance: p.min_distance,
            fail_distance: p.fail_distance,
            speed: p.speed,
            walk_run_threshold: p.walk_run_threshold,
            desired_heading: p.desired_heading,
        };
        let turn = TurnToParameters {
            flags: p.flags(),
            speed: p.speed,
            desired_heading: p.desired_heading,
        };
        let origin = || {
            let s = adjust_to_outside(&mt.sought_position);
            let o = s.frame.origin;
            (s.cell, [o.x, o.y, o.z])
        };
        let run_rate = self.weenie.run_rate;
        let (body, motion_flags) = match kind {
            MovementType::MoveToObject => (
                MovementBody::MoveToObject {
                    target: mt.sought_object_id,
                    origin: origin(),
                    params,
                    run_rate,
                },
                0,
            ),
            MovementType::MoveToPosition => (
                MovementBody::MoveToPosition {
                    origin: origin(),
                    params,
                    run_rate,
                },
                0,
            ),
            MovementType::TurnToObject => (
                MovementBody::TurnToObject {
                    target: mt.sought_object_id,
                    desired_heading: p.desired_heading,
                    params: turn,
                },
                0,
            ),
            MovementType::TurnToHeading => (MovementBody::TurnToHeading { params: turn }, 0),
            _ => {
                let sticky = self
                    .position_manager
                    .as_ref()
                    .and_then(|m| m.sticky.as_ref())
                    .map_or(0, |s| s.target_id);
                let mut flags = 0;
                if sticky != 0 {
                    flags |= STICK_TO_OBJECT;
                }
                if self.minterp.standing_long_jump {
                    flags |= STANDING_LONG_JUMP;
                }
                let state = InterpretedState {
                    current_style: style,
                    forward_command: i.forward_command,
                    sidestep_command: i.sidestep_command,
                    turn_command: i.turn_command,
                    forward_speed: i.forward_speed,
                    sidestep_speed: i.sidestep_speed,
                    turn_speed: i.turn_speed,
                    commands: i
                        .actions
                        .iter()
                        .map(|a| MotionItem::new(a.action, a.speed, a.autonomous))
                        .collect(),
                };
                (
                    MovementBody::Invalid {
                        state,
                        sticky_object: sticky,
                    },
                    flags,
                )
            }
        };
        MovementData {
            autonomous,
            motion_flags,
            style,
            body,
        }
    }
}

impl PhysicsObj {
    /// The late joiner's message: the `MovementData` that brings a copy of this object
    /// created now, in any state (mid-cycle, mid-link, running, mid-move-to or turn),
    /// to the state a copy that heard every earlier broadcast has. It is rebuilt from
    /// the live state, never from the last message sent, so a move-to begun before the
    /// client saw the object arrives as that move-to (ACE's stale creation motion makes
    /// such monsters stand, then "blip" to the next position update). Not autonomous:
    /// the server speaks for the object's current state.
    pub fn movement_data_for_late_joiner(&self) -> MovementData {
        self.movement_data(false)
    }
}

/// `MovementParameters` with the flag bits of a packed `MovementParamFlags` and the
/// other fields at their defaults (the inverse of [`MovementParameters::flags`]).
pub fn params_from_flags(flags: u32) -> MovementParameters {
    let bit = |i: u32| flags & (1 << i) != 0;
    MovementParameters {
        can_walk: bit(0),
        can_run: bit(1),
        can_sidestep: bit(2),
        can_walk_backwards: bit(3),
        can_charge: bit(4),
        fail_walk: bit(5),
        use_final_heading: bit(6),
        sticky: bit(7),
        move_away: bit(8),
        move_towards: bit(9),
        use_spheres: bit(10),
        set_hold_key: bit(11),
        autonomous: bit(12),
        modify_raw_state: bit(13),
        modify_interpreted_state: bit(14),
        cancel_moveto: bit(15),
        stop_completely: bit(16),
        disable_jump_during_link: bit(17),
        ..MovementParameters::default()
    }
}

impl PhysicsObj {
    /// Apply a received `MovementData` to this object as a client applies it to its
    /// copy of someone else's object. ACE's own `unpack_movement` is empty, so this
    /// follows the client's direction with ACE's pieces: an interpreted state goes
    /// through `move_to_interpreted_state` (absent style NonCombat, absent forward
    /// command Ready; actions numbered as sent); a move-to or turn is performed with
    /// the sent parameters (target radius and height unknown: 0). The sticky target
    /// and the sent run rate are not applied.
    pub fn apply_movement_data(&mut self, data: &MovementData) -> WeenieError {
        use crate::moveto_manager::MovementStruct;
        let with_params = |p: &MoveToParameters| MovementParameters {
            distance_to_object: p.distance_to_object,
            min_distance: p.min_distance,
            fail_distance: p.fail_distance,
            speed: p.speed,
            walk_run_threshold: p.walk_run_threshold,
            desired_heading: p.desired_heading,
            ..params_from_flags(p.flags)
        };
        let at = |origin: &crate::wire::movement_data::Origin| {
            let o = origin.1;
            let mut f = AFrame::IDENTITY;
            f.origin = Vec3::new(o[0], o[1], o[2]);
            Position::new(origin.0, f)
        };
        let mvs = match &data.body {
            MovementBody::Invalid { state, .. } => {
                let style = if state.current_style != 0 {
                    state.current_style
                } else if data.style & 0xFFFF != 0 {
                    data.style
                } else {
                    NON_COMBAT
                };
                let s = crate::motion_interp::InterpretedMotionState {
                    current_style: style,
                    forward_command: if state.forward_command == 0 {
                        READY
                    } else {
                        state.forward_command
                    },
                    forward_speed: state.forward_speed,
                    sidestep_command: state.sidestep_command,
                    sidestep_speed: state.sidestep_speed,
                    turn_command: state.turn_command,
                    turn_speed: state.turn_speed,
                    actions: state
                        .commands
                        .iter()
                        .map(|c| crate::motion_interp::ActionNode {
                            action: c.command,
                            speed: c.speed,
                            stamp: c.sequence() as i32,
                            autonomous: c.autonomous(),
                        })
                        .collect(),
                };
                if !self.has_movement_manager() {
                    return WeenieError::NoAnimationTable;
                }
                self.mi_move_to_interpreted_state(&s);
                return WeenieError::None;
            }
            MovementBody::MoveToObject { target, params, .. } => {
                let mut m = MovementStruct::new(MovementType::MoveToObject, with_params(params));
                m.object_id = *target;
                m.top_level_id = *target;
                m
            }
            MovementBody::MoveToPosition { origin, params, .. } => {
                let mut m = MovementStruct::new(MovementType::MoveToPosition, with_params(params));
                m.position = at(origin);
                m
            }
            MovementBody::TurnToObject {
                target,
                desired_heading,
                params,
            } => {
                let mut p = params_from_flags(params.flags);
                p.speed = params.speed;
                p.desired_heading = *desired_heading;
                let mut m = MovementStruct::new(MovementType::TurnToObject, p);
                m.object_id = *target;
                m.top_level_id = *target;
                m
            }
            MovementBody::TurnToHeading { params } => {
                let mut p = params_from_flags(params.flags);
                p.speed = params.speed;
                p.desired_heading = params.desired_heading;
                MovementStruct::new(MovementType::TurnToHeading, p)
            }
        };
        self.perform_movement_struct(&mvs)
    }
}

/// The `MovementData` ACE broadcasts for a player's MoveToState (its shortcut from the
/// raw state to an interpreted one): Walk/Run forward at the run rate when Run is held
/// (backwards ×−0.65), sidestep right at `speed·3.12/1.25·0.5` (left negated, clamped
/// to ±3), turn right at 1.5 with Run or 1.0 (a client turn speed in (0, 1.5] wins;
/// left negated); the actions as sent; always autonomous.
pub fn movement_data_of_move_to_state(state: &MoveToState, run_rate: f32) -> MovementData {
    use crate::wire::raw_motion_state as f;
    let raw = &state.raw;
    let slj = state.standing_long_jump();
    let style = if raw.has(f::CURRENT_STYLE) {
        raw.current_style
    } else {
        0
    };
    let run = raw.current_hold_key == HoldKey::Run as u32;
    let speed = if run { run_rate } else { 1.0 };
    let mut s = InterpretedState {
        current_style: style,
        ..InterpretedState::default()
    };
    if raw.has(f::FORWARD_COMMAND) && !slj {
        let fwd = raw.forward_command;
        if fwd == WALK_FORWARD || fwd == WALK_BACKWARDS {
            s.forward_command = if fwd == WALK_FORWARD && run {
                RUN_FORWARD
            } else {
                WALK_FORWARD
            };
            s.forward_speed = speed;
            if fwd == WALK_BACKWARDS {
                s.forward_speed *= -0.65;
            }
        } else {
            s.forward_command = fwd;
        }
    }
    if raw.has(f::SIDESTEP_COMMAND) && !slj {
        s.sidestep_command = SIDE_STEP_RIGHT;
        s.sidestep_speed = speed * 3.12 / 1.25 * 0.5;
        if raw.sidestep_command == SIDE_STEP_LEFT {
            s.sidestep_speed *= -1.0;
        }
        s.sidestep_speed = s.sidestep_speed.clamp(-3.0, 3.0);
    }
    if raw.has(f::TURN_COMMAND) {
        s.turn_command = TURN_RIGHT;
        s.turn_speed = if run { 1.5 } else { 1.0 };
        if raw.turn_speed != 0.0 && raw.turn_speed <= 1.5 {
            s.turn_speed = raw.turn_speed;
        }
        if raw.turn_command == TURN_LEFT {
            s.turn_speed *= -1.0;
        }
    }
    s.commands = raw.commands.clone();
    MovementData {
        autonomous: true,
        motion_flags: if slj { STANDING_LONG_JUMP } else { 0 },
        style,
        body: MovementBody::Invalid {
            state: s,
            sticky_object: 0,
        },
    }
}

/// `Player.BroadcastMovement`'s memory of the last soul emote it let through (Q112).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoulEmoteGuard {
    /// `LastSoulEmote` (0 before the first).
    pub last: u32,
    /// `LastSoulEmoteEndTime`, on the world clock.
    pub end: f64,
}

impl Default for SoulEmoteGuard {
    fn default() -> Self {
        SoulEmoteGuard {
            last: 0,
            end: f64::NEG_INFINITY,
        }
    }
}

impl SoulEmoteGuard {
    /// Strip `state`'s actions when its first one repeats the last emote before that
    /// one's animation (on `obj`'s table, NonCombat) has ended at clock `now`; else
    /// remember it.
    pub fn screen(&mut self, state: &mut MoveToState, obj: &PhysicsObj, now: f64) {
        let Some(first) = state.raw.commands.first() else {
            return;
        };
        let emote = crate::wire::soul_emotes::full_command(first.command);
        if emote == self.last && now < self.end {
            state.raw.commands.clear();
            return;
        }
        let length = obj.table_manager().map_or(0.0, |tm| {
            tm.table
                .animation_length(NON_COMBAT, emote, first.speed, obj.anims().as_ref())
        });
        self.last = emote;
        self.end = now + f64::from(length);
    }
}

/// What `GameActionMoveToState.Handle` does with a client's MoveToState for the player
/// `obj` at clock `now`: the physics (only with FastTick, Q104), then the broadcast
/// `MovementData` — None when ACE's handler throws before building it (Q109). Actions
/// are screened by `guard` (Q112). The requested location is the state's `position`.
pub fn handle_move_to_state(
    obj: &mut PhysicsObj,
    mut state: MoveToState,
    fast_tick: bool,
    now: f64,
    guard: &mut SoulEmoteGuard,
) -> Option<MovementData> {
    if fast_tick {
        if !obj.is_moving_or_animating() {
            obj.update_time = now;
        }
        obj.on_move_to_state_server(&state.raw, state.standing_long_jump());
    }
    if !state.broadcast_by_ace() {
        return None;
    }
    guard.screen(&mut state, obj, now);
    Some(movement_data_of_move_to_state(&state, obj.weenie.run_rate))
}

/// The two messages `Player.HandleActionJump` sends after the jump: an empty autonomous
/// `UpdateMotion` and the `VectorUpdate` with the new velocity.
pub fn jump_broadcasts(obj: &PhysicsObj, seq: &mut crate::wire::Sequences) -> [Vec<u8>; 2] {
    let data = MovementData {
        autonomous: true,
        motion_flags: 0,
        style: 0,
        body: MovementBody::Invalid {
            state: InterpretedState::default(),
            sticky_object: 0,
        },
    };
    let (v, w) = (obj.velocity, obj.omega);
    [
        crate::wire::UpdateMotion::write(obj.id, &data, seq),
        crate::wire::VectorUpdate::write(obj.id, [v.x, v.y, v.z], [w.x, w.y, w.z], seq),
    ]
}
