//! The command interpreter (`Anim/MotionInterp.cs`, `Anim/RawMotionState.cs`,
//! `Anim/InterpretedMotionState.cs`; quirks Q33–Q43).
//!
//! ACE's MotionInterp calls back into its PhysicsObj (which calls back into the
//! interpreter when a motion completes), so the interpreter's logic is written as
//! methods of [`PhysicsObj`] working on the [`MotionInterp`] data it owns.

use crate::anim_queue::AnimQueue;
use crate::cold_box::ColdQueue;
use crate::commands::*;
use crate::math::Vec3;
use crate::physics_obj::PhysicsObj;

pub const BACKWARDS_FACTOR: f32 = 0.65;
pub const MAX_SIDESTEP_ANIM_RATE: f32 = 3.0;
pub const RUN_ANIM_SPEED: f32 = 4.0;
pub const RUN_TURN_FACTOR: f32 = 1.5;
pub const SIDESTEP_ANIM_SPEED: f32 = 1.25;
pub const SIDESTEP_FACTOR: f32 = 0.5;
pub const WALK_ANIM_SPEED: f32 = 3.12;
/// Most actions the interpreted state may hold before `DoMotion` refuses another.
pub const MAX_ACTIONS: usize = 6;

/// `ActionNode`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionNode {
    pub action: u32,
    pub speed: f32,
    pub stamp: i32,
    pub autonomous: bool,
}

/// `MotionNode`: an entry of `PendingMotions`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionNode {
    pub context_id: i32,
    pub motion: u32,
    pub jump_error_code: WeenieError,
}

/// `RawMotionState`.
#[derive(Clone, Debug, PartialEq)]
pub struct RawMotionState {
    pub actions: ColdQueue<ActionNode>,
    pub current_hold_key: HoldKey,
    pub current_style: u32,
    pub forward_command: u32,
    pub forward_hold_key: HoldKey,
    pub forward_speed: f32,
    pub sidestep_command: u32,
    pub sidestep_hold_key: HoldKey,
    pub sidestep_speed: f32,
    pub turn_command: u32,
    pub turn_hold_key: HoldKey,
    pub turn_speed: f32,
}

impl Default for RawMotionState {
    fn default() -> Self {
        RawMotionState {
            actions: ColdQueue::new(),
            current_hold_key: HoldKey::None,
            current_style: NON_COMBAT,
            forward_command: READY,
            forward_hold_key: HoldKey::Invalid,
            forward_speed: 1.0,
            sidestep_command: 0,
            sidestep_hold_key: HoldKey::Invalid,
            sidestep_speed: 1.0,
            turn_command: 0,
            turn_hold_key: HoldKey::Invalid,
            turn_speed: 1.0,
        }
    }
}

impl RawMotionState {
    /// `RawMotionState.ApplyMotion`.
    pub fn apply_motion(&mut self, motion: u32, p: &MovementParameters) {
        let hold = if p.set_hold_key {
            HoldKey::Invalid
        } else {
            p.hold_key_to_apply
        };
        match motion {
            TURN_RIGHT | TURN_LEFT => {
                self.turn_command = motion;
                self.turn_hold_key = hold;
                self.turn_speed = p.speed;
            }
            SIDE_STEP_RIGHT | SIDE_STEP_LEFT => {
                self.sidestep_command = motion;
                self.sidestep_hold_key = hold;
                self.sidestep_speed = p.speed;
            }
            _ => {
                if motion & SUBSTATE != 0 {
                    if motion != RUN_FORWARD {
                        self.forward_command = motion;
                        self.forward_hold_key = hold;
                        self.forward_speed = p.speed;
                    }
                } else if motion & STYLE != 0 {
                    if self.current_style != motion {
                        self.forward_command = READY;
                        self.current_style = motion;
                    }
                } else if motion & ACTION != 0 {
                    self.add_action(motion, p.speed, p.action_stamp, p.autonomous);
                }
            }
        }
    }

    /// `RawMotionState.RemoveMotion`.
    pub fn remove_motion(&mut self, motion: u32) {
        match motion {
            TURN_RIGHT | TURN_LEFT => self.turn_command = 0,
            SIDE_STEP_RIGHT | SIDE_STEP_LEFT => self.sidestep_command = 0,
            _ => {
                if motion & SUBSTATE != 0 {
                    if motion == self.forward_command {
                        self.forward_command = READY;
                        self.forward_speed = 1.0;
                    }
                } else if motion & STYLE != 0 && motion == self.current_style {
                    self.current_style = NON_COMBAT;
                }
            }
        }
    }

    pub fn add_action(&mut self, action: u32, speed: f32, stamp: i32, autonomous: bool) {
        self.actions.push_back(ActionNode {
            action,
            speed,
            stamp,
            autonomous,
        });
    }

    /// `RemoveAction`: pop the oldest action (0 if none).
    pub fn remove_action(&mut self) -> u32 {
        self.actions.pop_front().map_or(0, |a| a.action)
    }
}

/// `InterpretedMotionState`.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpretedMotionState {
    pub current_style: u32,
    pub forward_command: u32,
    pub forward_speed: f32,
    pub sidestep_command: u32,
    pub sidestep_speed: f32,
    pub turn_command: u32,
    pub turn_speed: f32,
    pub actions: ColdQueue<ActionNode>,
}

impl Default for InterpretedMotionState {
    fn default() -> Self {
        InterpretedMotionState {
            current_style: NON_COMBAT,
            forward_command: READY,
            forward_speed: 1.0,
            sidestep_command: 0,
            sidestep_speed: 1.0,
            turn_command: 0,
            turn_speed: 1.0,
            actions: ColdQueue::new(),
        }
    }
}

impl InterpretedMotionState {
    /// `InterpretedMotionState.ApplyMotion` (Q43: unadjusted left commands land in forward).
    // Inline: a few stores for every command the chase and the walker issue; only an
    // action's queue push is a call.
    #[inline]
    pub fn apply_motion(&mut self, motion: u32, p: &MovementParameters) {
        match motion {
            TURN_RIGHT => {
                self.turn_command = TURN_RIGHT;
                self.turn_speed = p.speed;
            }
            SIDE_STEP_RIGHT => {
                self.sidestep_command = SIDE_STEP_RIGHT;
                self.sidestep_speed = p.speed;
            }
            _ => {
                if motion & SUBSTATE != 0 {
                    self.forward_command = motion;
                    self.forward_speed = p.speed;
                } else if motion & STYLE != 0 {
                    self.forward_command = READY;
                    self.current_style = motion;
                } else if motion & ACTION != 0 {
                    self.push_action(motion, p);
                }
            }
        }
    }

    /// The action arm of [`InterpretedMotionState::apply_motion`]: the one arm that may
    /// box the queue, kept out of the inlined stores.
    #[inline(never)]
    fn push_action(&mut self, motion: u32, p: &MovementParameters) {
        self.actions.push_back(ActionNode {
            action: motion,
            speed: p.speed,
            stamp: p.action_stamp,
            autonomous: p.autonomous,
        });
    }

    /// `InterpretedMotionState.RemoveMotion`.
    pub fn remove_motion(&mut self, motion: u32) {
        match motion {
            TURN_RIGHT => self.turn_command = 0,
            SIDE_STEP_RIGHT => self.sidestep_command = 0,
            _ => {
                if motion & SUBSTATE != 0 {
                    if motion == self.forward_command {
                        self.forward_command = READY;
                        self.forward_speed = 1.0;
                    }
                } else if motion & STYLE != 0 && motion == self.current_style {
                    self.current_style = NON_COMBAT;
                }
            }
        }
    }

    pub fn remove_action(&mut self) -> u32 {
        self.actions.pop_front().map_or(0, |a| a.action)
    }

    /// `HasCommands`: forward deliberately excluded.
    pub fn has_commands(&self) -> bool {
        self.sidestep_command != 0 || self.turn_command != 0
    }
}

/// `MotionInterp` data.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionInterp {
    pub initted: bool,
    pub raw: RawMotionState,
    pub interpreted: InterpretedMotionState,
    pub current_speed_factor: f32,
    pub standing_long_jump: bool,
    pub jump_extent: f32,
    pub server_action_stamp: i32,
    pub my_run_rate: f32,
    pub pending_motions: AnimQueue<MotionNode>,
}

impl Default for MotionInterp {
    fn default() -> Self {
        MotionInterp {
            initted: false,
            raw: RawMotionState::default(),
            interpreted: InterpretedMotionState::default(),
            current_speed_factor: 1.0,
            standing_long_jump: false,
            jump_extent: 0.0,
            server_action_stamp: 0,
            my_run_rate: 1.0,
            pending_motions: AnimQueue::with_capacity(4),
        }
    }
}

/// `motion_allows_jump`.
///
/// Every command it blocks has an index (low 16 bits) of at least Crouch's, 0x12, and
/// each of its ranges lies within one class prefix, so a command with a lower index
/// (Ready, the walks, the run, the turns and sidesteps, which every move issues) is
/// allowed without the range tests. Debug builds check each such answer against
/// [`motion_allows_jump_plain`].
#[inline]
pub fn motion_allows_jump(substate: u32) -> WeenieError {
    if substate & 0xFFFF < 0x12 {
        debug_assert_eq!(motion_allows_jump_plain(substate), WeenieError::None);
        return WeenieError::None;
    }
    motion_allows_jump_plain(substate)
}

/// `motion_allows_jump` as ACE makes it: the blocked ranges one by one.
pub fn motion_allows_jump_plain(substate: u32) -> WeenieError {
    let blocked = (RELOAD..=PICKUP).contains(&substate)
        || (TRIPLE_THRUST_LOW..=MAGIC_POWER_UP_07_PURPLE).contains(&substate)
        || (MAGIC_POWER_UP_01..=MAGIC_POWER_UP_10).contains(&substate)
        || (CROUCH..=SLEEPING).contains(&substate)
        || (AIM_LEVEL..=MAGIC_PRAY).contains(&substate)
        || substate == FALLING;
    if blocked {
        WeenieError::YouCantJumpFromThisPosition
    } else {
        WeenieError::None
    }
}

/// The game-object answers the interpreter needs (`Phys/Common/WeenieObject.cs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weenie {
    pub is_creature: bool,
    /// What `InqRunRate` reports (it always succeeds in ACE).
    pub run_rate: f32,
}

/// `adjust_motion` (Q33), as a function of the state it reads.
pub fn adjust_motion(
    weenie: &Weenie,
    current_hold_key: HoldKey,
    motion: &mut u32,
    speed: &mut f32,
    hold_key: HoldKey,
) {
    if !weenie.is_creature {
        return;
    }
    match *motion {
        RUN_FORWARD => return,
        WALK_BACKWARDS => {
            *motion = WALK_FORWARD;
            *speed *= -BACKWARDS_FACTOR;
        }
        TURN_LEFT => {
            *motion = TURN_RIGHT;
            *speed *= -1.0;
        }
        SIDE_STEP_LEFT => {
            *motion = SIDE_STEP_RIGHT;
            *speed *= -1.0;
        }
        _ => {}
    }
    if *motion == SIDE_STEP_RIGHT {
        *speed *= SIDESTEP_FACTOR * (WALK_ANIM_SPEED / SIDESTEP_ANIM_SPEED);
    }
    let key = if hold_key == HoldKey::Invalid {
        current_hold_key
    } else {
        hold_key
    };
    if key == HoldKey::Run {
        apply_run_to_command(weenie, motion, speed);
    }
}

/// `apply_run_to_command`.
pub fn apply_run_to_command(weenie: &Weenie, motion: &mut u32, speed: &mut f32) {
    let rate = weenie.run_rate;
    match *motion {
        WALK_FORWARD => {
            if *speed > 0.0 {
                *motion = RUN_FORWARD;
            }
            *speed *= rate;
        }
        TURN_RIGHT => *speed *= RUN_TURN_FACTOR,
        SIDE_STEP_RIGHT => {
            *speed *= rate;
            if MAX_SIDESTEP_ANIM_RATE < speed.abs() {
                *speed = if *speed > 0.0 {
                    MAX_SIDESTEP_ANIM_RATE * 1.0
                } else {
                    -MAX_SIDESTEP_ANIM_RATE
                };
            }
        }
        _ => {}
    }
}

fn is_long_jump_motion(motion: u32) -> bool {
    motion == WALK_FORWARD || motion == RUN_FORWARD || motion == SIDE_STEP_RIGHT
}

impl PhysicsObj {
    /// `MotionInterp.contact_allows_move`.
    pub fn contact_allows_move(&self, motion: u32) -> bool {
        if motion == DEAD || motion == FALLING || (TURN_RIGHT..=TURN_LEFT).contains(&motion) {
            return true;
        }
        if !self.weenie.is_creature {
            return true;
        }
        if !self.gravity {
            return true;
        }
        if !self.contact {
            return false;
        }
        self.on_walkable
    }

    /// `MotionInterp.add_to_queue`.
    pub fn mi_add_to_queue(&mut self, context_id: i32, motion: u32, jump_error_code: WeenieError) {
        self.mi_queue(context_id, motion, jump_error_code);
    }

    /// [`PhysicsObj::mi_add_to_queue`] inlined, for the chase-in-range stops and the stop
    /// behind a link (its other callers keep the call).
    #[inline(always)]
    pub(crate) fn mi_queue(&mut self, context_id: i32, motion: u32, jump_error_code: WeenieError) {
        self.minterp.pending_motions.push_back(MotionNode {
            context_id,
            motion,
            jump_error_code,
        });
        self.is_animating = true;
    }

    /// `MotionInterp.DoMotion` (raw command).
    pub fn mi_do_motion(&mut self, motion: u32, params: &MovementParameters) -> WeenieError {
        let mut cp = MovementParameters::copy_some(params);
        let mut m = motion;
        if params.cancel_moveto {
            self.cancel_moveto();
        }
        if params.set_hold_key {
            self.mi_set_hold_key(params.hold_key_to_apply, params.cancel_moveto);
        }
        adjust_motion(
            &self.weenie,
            self.minterp.raw.current_hold_key,
            &mut m,
            &mut cp.speed,
            params.hold_key_to_apply,
        );
        if self.minterp.interpreted.current_style != NON_COMBAT {
            match motion {
                CROUCH => return WeenieError::CantCrouchInCombat,
                SITTING => return WeenieError::CantSitInCombat,
                SLEEPING => return WeenieError::CantLieDownInCombat,
                _ => {}
            }
            if motion & CHAT_EMOTE != 0 {
                return WeenieError::CantChatEmoteInCombat;
            }
        }
        if motion & ACTION != 0 && self.minterp.interpreted.actions.len() >= MAX_ACTIONS {
            return WeenieError::TooManyActions;
        }
        let result = self.mi_do_interpreted_motion(m, &cp);
        if result == WeenieError::None && params.modify_raw_state {
            self.minterp.raw.apply_motion(motion, params);
        }
        result
    }

    /// `MotionInterp.DoInterpretedMotion`.
    pub fn mi_do_interpreted_motion(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> WeenieError {
        self.mi_do_interpreted(motion, params)
    }

    /// [`PhysicsObj::mi_do_interpreted_motion`] inlined, for the move-to layer's
    /// `_DoMotion`, which issues most of the chase's motions.
    #[inline(always)]
    pub(crate) fn mi_do_interpreted(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> WeenieError {
        let mut result = WeenieError::None;
        if self.contact_allows_move(motion) {
            if self.minterp.standing_long_jump && is_long_jump_motion(motion) {
                if params.modify_interpreted_state {
                    self.minterp.interpreted.apply_motion(motion, params);
                }
            } else {
                if motion == DEAD {
                    self.remove_link_animations();
                }
                result = self.do_interpreted_motion(motion, params);
                if result == WeenieError::None {
                    let jump = if params.disable_jump_during_link {
                        WeenieError::YouCantJumpFromThisPosition
                    } else {
                        let j = motion_allows_jump(motion);
                        if j == WeenieError::None && motion & ACTION == 0 {
                            motion_allows_jump(self.minterp.interpreted.forward_command)
                        } else {
                            j
                        }
                    };
                    self.mi_add_to_queue(params.context_id, motion, jump);
                    if params.modify_interpreted_state {
                        self.minterp.interpreted.apply_motion(motion, params);
                    }
                }
            }
        } else if motion & ACTION != 0 {
            result = WeenieError::YouCantJumpWhileInTheAir;
        } else if params.modify_interpreted_state {
            self.minterp.interpreted.apply_motion(motion, params);
        }
        if !self.in_cell {
            self.remove_link_animations();
        }
        result
    }

    /// `MotionInterp.StopMotion` (raw stop).
    pub fn mi_stop_motion(&mut self, motion: u32, params: &MovementParameters) -> WeenieError {
        if params.cancel_moveto {
            self.cancel_moveto();
        }
        let mut m = motion;
        let mut cp = MovementParameters::copy_some(params);
        adjust_motion(
            &self.weenie,
            self.minterp.raw.current_hold_key,
            &mut m,
            &mut cp.speed,
            params.hold_key_to_apply,
        );
        let result = self.mi_stop_interpreted_motion(m, &cp);
        if result == WeenieError::None && params.modify_raw_state {
            self.minterp.raw.remove_motion(motion);
        }
        result
    }

    /// `MotionInterp.StopInterpretedMotion`.
    pub fn mi_stop_interpreted_motion(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> WeenieError {
        self.mi_stop_interpreted(motion, params)
    }

    /// [`PhysicsObj::mi_stop_interpreted_motion`] inlined, for the move-to layer's
    /// `_StopMotion`.
    #[inline(always)]
    pub(crate) fn mi_stop_interpreted(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> WeenieError {
        let mut result = WeenieError::None;
        if self.contact_allows_move(motion) {
            if self.minterp.standing_long_jump && is_long_jump_motion(motion) {
                if params.modify_interpreted_state {
                    self.minterp.interpreted.remove_motion(motion);
                }
            } else {
                result = self.stop_interpreted_motion(motion, params);
                if result == WeenieError::None {
                    self.mi_add_to_queue(params.context_id, READY, WeenieError::None);
                    if params.modify_interpreted_state {
                        self.minterp.interpreted.remove_motion(motion);
                    }
                }
            }
        } else if params.modify_interpreted_state {
            self.minterp.interpreted.remove_motion(motion);
        }
        if !self.in_cell {
            self.remove_link_animations();
        }
        result
    }

    /// The raw and interpreted states of a complete stop: Ready at speed 1, no sidestep,
    /// no turn. Shared by the plain stop and the rest stop, which must leave them equal.
    pub(crate) fn reset_to_ready(&mut self) {
        let mi = &mut self.minterp;
        mi.raw.forward_command = READY;
        mi.raw.forward_speed = 1.0;
        mi.raw.sidestep_command = 0;
        mi.raw.turn_command = 0;
        mi.interpreted.forward_command = READY;
        mi.interpreted.forward_speed = 1.0;
        mi.interpreted.sidestep_command = 0;
        mi.interpreted.turn_command = 0;
    }

    /// `MotionInterp.StopCompletely` (Q31: always queues Ready).
    pub fn mi_stop_completely(&mut self) -> WeenieError {
        self.cancel_moveto();
        let jump = motion_allows_jump(self.minterp.interpreted.forward_command);
        self.reset_to_ready();
        self.stop_completely_internal();
        self.mi_add_to_queue(0, READY, jump);
        if !self.in_cell {
            self.remove_link_animations();
        }
        WeenieError::None
    }

    /// `PhysicsObj.StopCompletely` of an object at rest, without the interpreter's and
    /// the table manager's queues: true when it was done, false (nothing changed) when
    /// the plain path must run.
    ///
    /// The plain path queues Ready in both queues and completes it at once
    /// (`CheckForCompletedMotions`): when both queues were empty and the table's stop
    /// queues no animation (the rest memo hits), each queue ends empty again, the
    /// interpreter stops animating and the weenie hears `MotionDone(Ready, true)`. The
    /// move-to layer must be idle (nothing to cancel) and the object in its cell (no
    /// links to strip). Debug builds check each hit against the plain path on a clone.
    pub(crate) fn stop_completely_at_rest(&mut self) -> bool {
        if !self.minterp.initted
            || !self.in_cell
            || !self.minterp.pending_motions.is_empty()
            || self.moveto.movement_type != MovementType::Invalid
        {
            return false;
        }
        let Some(tm) = self.table_manager.as_mut() else {
            return false;
        };
        if !tm.pending.is_empty() {
            return false;
        }
        #[cfg(debug_assertions)]
        let plain = self.plain_stop_for_check();
        let Some(tm) = self.table_manager.as_mut() else {
            return false;
        };
        if !tm.stop_at_rest(&mut self.sequence, self.anims.as_ref()) {
            return false;
        }
        self.set_active(true);
        self.reset_to_ready();
        self.is_animating = false;
        self.motions_done.push((READY, true));
        self.raise(crate::events::Event::MotionDone {
            motion: READY,
            success: true,
        });
        #[cfg(debug_assertions)]
        if let Some((o, r)) = plain {
            debug_assert_eq!(r, WeenieError::None, "rest stop: result");
            crate::physics_obj::debug_assert_same_stop(&o, self, "rest stop");
        }
        true
    }

    /// Debug builds, when clone checks are on: the plain StopCompletely run on a clone,
    /// for a stop fast path to compare its result with.
    #[cfg(debug_assertions)]
    pub(crate) fn plain_stop_for_check(&self) -> Option<(PhysicsObj, WeenieError)> {
        crate::table_manager::clone_checks().then(|| {
            let mut o = self.clone();
            let r = o.perform_movement(
                MovementType::StopCompletely,
                0,
                &MovementParameters::default(),
            );
            (o, r)
        })
    }

    /// `PhysicsObj.StopCompletely` of an object resting in its style's default substate
    /// while the head of its table queue still owes an animation (the link of a stop
    /// still playing; a move re-issued then, each tick, stops it twice): the plain
    /// path's effects without its dispatch. True when it was done, false (nothing
    /// changed) when the plain path must run.
    ///
    /// The plain path sets the object active, resets the interpreter's and the raw
    /// state's stop fields (the jump error read from the forward command before), stops
    /// the table (the rest memo's stop queues no animation) and queues Ready in both
    /// queues; `CheckForCompletedMotions` then finds the table queue's head still owing
    /// (`remove_redundant_links` zeroes only entries after an earlier one) and does
    /// nothing. The move-to layer must be idle (nothing to cancel) and the object in its
    /// cell (no links to strip). Debug builds check each one against the plain path on a
    /// clone.
    pub(crate) fn stop_completely_behind_link(&mut self) -> bool {
        if !self.minterp.initted
            || !self.in_cell
            || self.moveto.movement_type != MovementType::Invalid
        {
            return false;
        }
        let Some(tm) = self.table_manager.as_ref() else {
            return false;
        };
        if tm.pending.front().is_none_or(|n| n.num_anims == 0) {
            return false;
        }
        // The rest memo read here rather than through `stop_at_rest`'s call: a miss
        // returns before anything changed, a hit's cycle is applied inline.
        let Some((velocity, omega)) = tm.rest_hit(&self.sequence) else {
            return false;
        };
        #[cfg(debug_assertions)]
        let plain = self.plain_stop_for_check();
        let Some(tm) = self.table_manager.as_mut() else {
            return false;
        };
        tm.stop_at_rest_hit(&mut self.sequence, velocity, omega, self.anims.as_ref());
        tm.add_zero_to_queue_cut(READY, &mut self.sequence);
        self.set_active(true);
        let jump = motion_allows_jump(self.minterp.interpreted.forward_command);
        self.reset_to_ready();
        self.mi_queue(0, READY, jump);
        #[cfg(debug_assertions)]
        if let Some((o, r)) = plain {
            debug_assert_eq!(r, WeenieError::None, "stop behind a link: result");
            crate::physics_obj::debug_assert_same_stop(&o, self, "stop behind a link");
            debug_assert_eq!(
                o.sequence.nodes().len(),
                self.sequence.nodes().len(),
                "stop behind a link: nodes"
            );
        }
        true
    }

    /// `MotionInterp.PerformMovement`.
    pub fn mi_perform_movement(
        &mut self,
        kind: MovementType,
        motion: u32,
        params: &MovementParameters,
    ) -> WeenieError {
        let result = match kind {
            MovementType::RawCommand => self.mi_do_motion(motion, params),
            MovementType::InterpretedCommand => self.mi_do_interpreted_motion(motion, params),
            MovementType::StopRawCommand => self.mi_stop_motion(motion, params),
            MovementType::StopInterpretedCommand => self.mi_stop_interpreted_motion(motion, params),
            MovementType::StopCompletely => self.mi_stop_completely(),
            // The move-to types never reach the interpreter (MovementManager routes them
            // to the MoveToManager); ACE's default case.
            _ => WeenieError::GeneralMovementFailure,
        };
        self.check_for_completed_motions();
        result
    }

    /// `MotionInterp.apply_raw_movement` (Q40: a full re-derivation).
    pub fn mi_apply_raw_movement(&mut self, cancel_moveto: bool, allow_jump: bool) {
        let weenie = self.weenie;
        let mi = &mut self.minterp;
        let hold = mi.raw.current_hold_key;
        let i = &mut mi.interpreted;
        let r = &mi.raw;
        i.current_style = r.current_style;
        i.forward_command = r.forward_command;
        i.forward_speed = r.forward_speed;
        i.sidestep_command = r.sidestep_command;
        i.sidestep_speed = r.sidestep_speed;
        i.turn_command = r.turn_command;
        i.turn_speed = r.turn_speed;
        adjust_motion(
            &weenie,
            hold,
            &mut i.forward_command,
            &mut i.forward_speed,
            r.forward_hold_key,
        );
        adjust_motion(
            &weenie,
            hold,
            &mut i.sidestep_command,
            &mut i.sidestep_speed,
            r.sidestep_hold_key,
        );
        adjust_motion(
            &weenie,
            hold,
            &mut i.turn_command,
            &mut i.turn_speed,
            r.turn_hold_key,
        );
        self.mi_apply_interpreted_movement(cancel_moveto, allow_jump);
    }

    /// `MotionInterp.apply_interpreted_movement`.
    pub fn mi_apply_interpreted_movement(&mut self, cancel_moveto: bool, allow_jump: bool) {
        let mut p = MovementParameters {
            set_hold_key: false,
            modify_interpreted_state: false,
            cancel_moveto,
            disable_jump_during_link: !allow_jump,
            ..MovementParameters::default()
        };
        if self.minterp.interpreted.forward_command == RUN_FORWARD {
            self.minterp.my_run_rate = self.minterp.interpreted.forward_speed;
        }
        let style = self.minterp.interpreted.current_style;
        self.mi_do_interpreted_motion(style, &p);
        let fwd = self.minterp.interpreted.forward_command;
        if self.contact_allows_move(fwd) {
            if !self.minterp.standing_long_jump {
                p.speed = self.minterp.interpreted.forward_speed;
                let fwd = self.minterp.interpreted.forward_command;
                self.mi_do_interpreted_motion(fwd, &p);
                let side = self.minterp.interpreted.sidestep_command;
                if side != 0 {
                    p.speed = self.minterp.interpreted.sidestep_speed;
                    self.mi_do_interpreted_motion(side, &p);
                } else {
                    self.mi_stop_interpreted_motion(SIDE_STEP_RIGHT, &p);
                }
            } else {
                p.speed = 1.0;
                self.mi_do_interpreted_motion(READY, &p);
                self.mi_stop_interpreted_motion(SIDE_STEP_RIGHT, &p);
            }
        } else {
            p.speed = 1.0;
            self.mi_do_interpreted_motion(FALLING, &p);
        }
        let turn = self.minterp.interpreted.turn_command;
        if turn != 0 {
            p.speed = self.minterp.interpreted.turn_speed;
            self.mi_do_interpreted_motion(turn, &p);
        } else {
            // Q38: the physics-level stop, without the interpreter's checks.
            let r = self.stop_interpreted_motion(TURN_RIGHT, &p);
            if r == WeenieError::None {
                self.mi_add_to_queue(p.context_id, READY, WeenieError::None);
            }
            if !self.in_cell {
                self.remove_link_animations();
            }
        }
    }

    /// `MotionInterp.apply_current_movement`.
    pub fn mi_apply_current_movement(&mut self, cancel_moveto: bool, allow_jump: bool) {
        if !self.minterp.initted {
            return;
        }
        if !self.weenie.is_creature || !self.last_move_was_autonomous {
            self.mi_apply_interpreted_movement(cancel_moveto, allow_jump);
        } else {
            self.mi_apply_raw_movement(cancel_moveto, allow_jump);
        }
    }

    /// `MotionInterp.SetHoldKey` (Q34: only a switch to None does anything).
    pub fn mi_set_hold_key(&mut self, key: HoldKey, cancel_moveto: bool) {
        if key == self.minterp.raw.current_hold_key {
            return;
        }
        if key == HoldKey::None && self.minterp.raw.current_hold_key == HoldKey::Run {
            self.minterp.raw.current_hold_key = HoldKey::None;
            self.mi_apply_current_movement(cancel_moveto, true);
        }
    }

    /// `MotionInterp.set_hold_run`.
    pub fn mi_set_hold_run(&mut self, val: i32, cancel_moveto: bool) {
        if (val == 0) != (self.minterp.raw.current_hold_key != HoldKey::Run) {
            self.minterp.raw.current_hold_key = if val != 0 {
                HoldKey::Run
            } else {
                HoldKey::None
            };
            self.mi_apply_current_movement(cancel_moveto, true);
        }
    }

    /// `MotionInterp.MotionDone`: positional pop (Q26).
    pub fn mi_motion_done(&mut self, _success: bool) {
        if mi_motion_done(&mut self.minterp, &mut self.is_animating) {
            self.unstick_from_object();
        }
    }

    /// `MotionInterp.HitGround`.
    pub fn mi_hit_ground(&mut self) {
        if !self.weenie.is_creature || !self.gravity {
            return;
        }
        self.remove_link_animations();
        self.mi_apply_current_movement(false, true);
    }

    /// `MotionInterp.LeaveGround`.
    pub fn mi_leave_ground(&mut self) {
        if !self.weenie.is_creature || !self.gravity {
            return;
        }
        let v = self.mi_get_leave_ground_velocity();
        self.set_local_velocity(v);
        self.minterp.standing_long_jump = false;
        self.minterp.jump_extent = 0.0;
        self.remove_link_animations();
        self.mi_apply_current_movement(false, true);
    }

    /// `MotionInterp.enter_default_state`.
    pub fn mi_enter_default_state(&mut self) {
        self.minterp.raw = RawMotionState::default();
        self.minterp.interpreted = InterpretedMotionState::default();
        self.initialize_motion_tables();
        self.minterp.pending_motions.clear();
        self.mi_add_to_queue(0, READY, WeenieError::None);
        self.minterp.initted = true;
        self.mi_leave_ground();
    }

    /// `MotionInterp.get_state_velocity`.
    pub fn mi_get_state_velocity(&self) -> Vec3 {
        let i = &self.minterp.interpreted;
        let mut v = Vec3::ZERO;
        if i.sidestep_command == SIDE_STEP_RIGHT {
            v.x = SIDESTEP_ANIM_SPEED * i.sidestep_speed;
        }
        if i.forward_command == WALK_FORWARD {
            v.y = WALK_ANIM_SPEED * i.forward_speed;
        } else if i.forward_command == RUN_FORWARD {
            v.y = RUN_ANIM_SPEED * i.forward_speed;
        }
        let rate = self.weenie.run_rate;
        let max = RUN_ANIM_SPEED * rate;
        if v.length() > max {
            v = v.normalize().scale(max);
        }
        v
    }

    /// `MotionInterp.get_jump_v_z`: 0 below an EPSILON extent, else the weenie's
    /// jump velocity for the extent capped at 1 (0 for a non-player, Q95).
    pub fn mi_get_jump_v_z(&self) -> f32 {
        self.jump_v_z()
    }

    /// `MotionInterp.get_leave_ground_velocity` (object-local).
    pub fn mi_get_leave_ground_velocity(&self) -> Vec3 {
        let mut v = self.mi_get_state_velocity();
        v.z = self.mi_get_jump_v_z();
        if v.is_zero() {
            v = self.frame.global_to_local(self.velocity);
        }
        v
    }

    /// `MotionInterp.get_max_speed`.
    pub fn mi_get_max_speed(&self) -> f32 {
        RUN_ANIM_SPEED * self.weenie.run_rate
    }

    /// `MotionInterp.get_adjusted_max_speed`.
    pub fn mi_get_adjusted_max_speed(&self) -> f32 {
        let mut rate = self.weenie.run_rate;
        let i = &self.minterp.interpreted;
        if i.forward_command == RUN_FORWARD {
            rate = i.forward_speed / self.minterp.current_speed_factor;
        }
        rate * 4.0
    }

    /// `MotionInterp.jump_charge_is_allowed` (`CanJump` is always true in ACE).
    pub fn mi_jump_charge_is_allowed(&self) -> WeenieError {
        let fwd = self.minterp.interpreted.forward_command;
        if fwd == FALLEN || (CROUCH..=SLEEPING).contains(&fwd) {
            return WeenieError::YouCantJumpFromThisPosition;
        }
        WeenieError::None
    }

    /// `MotionInterp.jump_is_allowed` with ACE's weenie stub: `JumpStaminaCost` is
    /// always 0, so a grounded creature can never jump (Q42, reproduced).
    pub fn mi_jump_is_allowed(&self) -> WeenieError {
        let grounded = self.contact && self.on_walkable;
        if !self.weenie.is_creature || !self.gravity || grounded {
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
                let stamina_cost = 0;
                if e == WeenieError::None && stamina_cost == 0 {
                    e = WeenieError::GeneralMovementFailure;
                }
            }
            return e;
        }
        WeenieError::YouCantJumpWhileInTheAir
    }

    /// `MotionInterp.move_to_interpreted_state` (Q41: ACE's 19-bit server mask kept).
    pub fn mi_move_to_interpreted_state(&mut self, state: &InterpretedMotionState) -> bool {
        self.minterp.raw.current_style = state.current_style;
        self.cancel_moveto();
        let allow_jump =
            motion_allows_jump(self.minterp.interpreted.forward_command) == WeenieError::None;
        {
            let i = &mut self.minterp.interpreted;
            i.current_style = state.current_style;
            i.forward_command = state.forward_command;
            i.forward_speed = state.forward_speed;
            i.sidestep_command = state.sidestep_command;
            i.sidestep_speed = state.sidestep_speed;
            i.turn_command = state.turn_command;
            i.turn_speed = state.turn_speed;
        }
        self.mi_apply_current_movement(true, allow_jump);
        let mut p = MovementParameters::default();
        for a in &state.actions {
            let cur = a.stamp & 0x7FFF;
            let srv = self.minterp.server_action_stamp & 0x7FFFF;
            let d = (cur - srv).abs();
            let newer = if d <= 0x3FFF { srv < cur } else { cur < srv };
            if newer && (self.weenie.is_creature || a.autonomous) {
                self.minterp.server_action_stamp = a.stamp;
                p.speed = a.speed;
                p.autonomous = a.autonomous;
                self.mi_do_interpreted_motion(a.action, &p);
            }
        }
        true
    }
}

/// The body of `MotionInterp.MotionDone`, usable while the table manager is borrowed.
///
/// Returns whether the completed motion was an Action (ACE then calls
/// `unstick_from_object`; the caller does so once the table manager is released).
pub fn mi_motion_done(mi: &mut MotionInterp, is_animating: &mut bool) -> bool {
    let mut was_action = false;
    if let Some(h) = mi.pending_motions.front() {
        if h.motion & ACTION != 0 {
            was_action = true;
            mi.interpreted.remove_action();
            mi.raw.remove_action();
        }
        mi.pending_motions.pop_front();
        *is_animating = !mi.pending_motions.is_empty();
    }
    was_action
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_low_index_test_answers_as_the_blocked_ranges() {
        // Every command of each class prefix that has a blocked range, and of the
        // prefixes of the move commands, with the ranges' ends by hand.
        for prefix in [0x1000u32, 0x4000, 0x4100, 0x4400, 0x4500, 0x6500, 0x8000, 0] {
            for index in 0..=0xFFFFu32 {
                let m = (prefix << 16) | index;
                assert_eq!(motion_allows_jump(m), motion_allows_jump_plain(m), "{m:x}");
            }
        }
        let blocked = WeenieError::YouCantJumpFromThisPosition;
        assert_eq!(motion_allows_jump(0x4100_0012), blocked);
        assert_eq!(motion_allows_jump(0x4100_0011), WeenieError::None);
        assert_eq!(motion_allows_jump(0x4000_0015), blocked);
        assert_eq!(motion_allows_jump(0x4000_0039), blocked);
        assert_eq!(motion_allows_jump(0x4000_003A), WeenieError::None);
        assert_eq!(motion_allows_jump(0x1000_006F), blocked);
        assert_eq!(motion_allows_jump(0x1000_0131), blocked);
        assert_eq!(motion_allows_jump(0x4100_0003), WeenieError::None);
        assert_eq!(motion_allows_jump(0x6500_000D), WeenieError::None);
    }
}
