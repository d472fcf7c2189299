//! [`Creature`]: one animated object driven by the motion system, with the state a
//! game would give a monster or a player standing in the world.
//!
//! ACE's [`PhysicsObj`] starts outside every cell, without ground contact and without a
//! motion table, and in that state commands and ticks silently do nothing. The builder
//! puts the object where a game puts it before its first tick, so that the first
//! `do_motion` is already visible.

use crate::commands::{HoldKey, MovementParameters, MovementType};
use crate::interpolation::{CorrectionMode, Position};
use crate::loader::MotionSet;
use crate::math::{AFrame, Quat, Vec3};
use crate::motion_error::MotionError;
use crate::motion_interp::Weenie;
use crate::physics_obj::{PhysicsObj, DEFAULT_CELL};

/// Builds a [`Creature`]. Defaults: outdoor cell `0x7d640013`, at the origin facing
/// +y (identity orientation), in its cell, in contact with walkable ground, a creature
/// weenie (so held Run turns walking into running) with run rate 1.0, ACE's
/// interpolation correction.
#[derive(Clone)]
pub struct CreatureBuilder {
    motions: MotionSet,
    cell: u32,
    frame: AFrame,
    weenie: Weenie,
    in_cell: bool,
    contact: bool,
    on_walkable: bool,
    correction: CorrectionMode,
    pub(crate) server: crate::creature_server::ServerSetup,
}

impl CreatureBuilder {
    /// The landblock cell id the creature stands in.
    pub fn cell(mut self, cell: u32) -> Self {
        self.cell = cell;
        self
    }

    /// Where the creature stands, in its cell's coordinates.
    pub fn origin(mut self, origin: Vec3) -> Self {
        self.frame.origin = origin;
        self
    }

    /// Which way it faces (a unit quaternion, `w` first).
    pub fn orientation(mut self, orientation: Quat) -> Self {
        self.frame.orientation = orientation;
        self
    }

    /// `InqRunRate`: how much faster running is than walking's base speed.
    pub fn run_rate(mut self, rate: f32) -> Self {
        self.weenie.run_rate = rate;
        self
    }

    /// Whether the weenie is a creature (non-creatures never convert walk to run).
    pub fn creature_weenie(mut self, is_creature: bool) -> Self {
        self.weenie.is_creature = is_creature;
        self
    }

    /// Start in the air (no contact, not on walkable ground): gravity pulls it, and
    /// the animation's translation is dropped (Q44).
    pub fn airborne(mut self) -> Self {
        self.contact = false;
        self.on_walkable = false;
        self
    }

    /// Start outside every cell: it will not move until it enters one.
    pub fn outside_cell(mut self) -> Self {
        self.in_cell = false;
        self
    }

    /// How interpolation corrections reach the object (ACE's, or the retail client's).
    pub fn correction(mut self, mode: CorrectionMode) -> Self {
        self.correction = mode;
        self
    }

    /// The creature, in its motion table's default style and substate.
    pub fn build(self) -> Creature {
        let mut obj = PhysicsObj::new(self.motions.anims, self.weenie, self.cell, self.frame);
        obj.correction = self.correction;
        obj.set_motion_table(Some(self.motions.table));
        obj.set_in_cell(self.in_cell);
        self.server.apply(&mut obj);
        obj.apply_contact(self.contact, self.on_walkable);
        Creature {
            obj,
            player: crate::creature_server::PlayerSide::new(self.server.fast_tick),
        }
    }
}

/// An animated creature: send it motion commands, tick it, read where it is and
/// which part frames its animation shows.
pub struct Creature {
    pub(crate) obj: PhysicsObj,
    /// What ACE's `Player` keeps beside the physics (message sequences, the requested
    /// location, FastTick, the soul-emote guard): see [`crate::creature_server`].
    pub(crate) player: crate::creature_server::PlayerSide,
}

impl Creature {
    /// A builder with the usual defaults (see [`CreatureBuilder`]).
    pub fn builder(motions: &MotionSet) -> CreatureBuilder {
        CreatureBuilder {
            motions: motions.clone(),
            cell: DEFAULT_CELL,
            frame: AFrame::IDENTITY,
            weenie: Weenie {
                is_creature: true,
                run_rate: 1.0,
            },
            in_cell: true,
            contact: true,
            on_walkable: true,
            correction: CorrectionMode::default(),
            server: crate::creature_server::ServerSetup::default(),
        }
    }

    /// A creature with every default.
    pub fn new(motions: &MotionSet) -> Creature {
        Creature::builder(motions).build()
    }

    /// The physics object behind the creature (ACE's structure, for [`crate::World`]).
    pub fn physics_obj(&self) -> &PhysicsObj {
        &self.obj
    }

    /// Give up the creature for its physics object (to place it in a [`crate::World`]).
    pub fn into_physics_obj(self) -> PhysicsObj {
        self.obj
    }

    pub(crate) fn begin(&mut self) {
        // The logs hold what the last call did, so they never grow across calls.
        self.obj.hook_log.clear();
        self.obj.motions_done.clear();
    }

    /// `DoMotion` with default parameters: start a substate (`WALK_FORWARD`), a style
    /// (`NON_COMBAT`), a turn, a sidestep, an action or a modifier.
    pub fn do_motion(&mut self, motion: u32) -> Result<(), MotionError> {
        self.do_motion_with(motion, &MovementParameters::default())
    }

    /// `DoMotion` with explicit parameters (speed, hold key, ...).
    pub fn do_motion_with(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> Result<(), MotionError> {
        self.begin();
        MotionError::check(self.obj.do_motion(motion, params))
    }

    /// `StopMotion` with default parameters.
    pub fn stop_motion(&mut self, motion: u32) -> Result<(), MotionError> {
        self.stop_motion_with(motion, &MovementParameters::default())
    }

    /// `StopMotion` with explicit parameters.
    pub fn stop_motion_with(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> Result<(), MotionError> {
        self.begin();
        MotionError::check(self.obj.stop_motion(motion, params))
    }

    /// `DoInterpretedMotion`: the command as already interpreted (no hold-key
    /// conversion), as the server applies a client's movement.
    pub fn do_interpreted_motion(
        &mut self,
        motion: u32,
        params: &MovementParameters,
    ) -> Result<(), MotionError> {
        self.begin();
        MotionError::check(self.obj.perform_movement(
            MovementType::InterpretedCommand,
            motion,
            params,
        ))
    }

    /// `StopCompletely`: back to the style's default substate.
    pub fn stop_completely(&mut self) -> Result<(), MotionError> {
        self.begin();
        MotionError::check(self.obj.stop_completely())
    }

    /// Hold (or release) the Run key: a walking creature weenie starts running.
    pub fn set_hold_run(&mut self, run: bool) {
        self.begin();
        self.obj.mi_set_hold_run(i32::from(run), true);
    }

    /// The hold key now in force.
    pub fn hold_key(&self) -> HoldKey {
        self.obj.minterp.raw.current_hold_key
    }

    /// Change what `InqRunRate` reports; takes effect at the next command.
    pub fn set_run_rate(&mut self, rate: f32) {
        self.obj.weenie.run_rate = rate;
    }

    /// Put the creature on (or off) walkable ground, running HitGround / LeaveGround.
    pub fn set_contact(&mut self, contact: bool, on_walkable: bool) {
        self.begin();
        self.obj.apply_contact(contact, on_walkable);
    }

    /// Advance by one physics quantum of `quantum` seconds (`UpdateObjectInternal`);
    /// ACE's server ticks between 1/30 s and 0.1 s. A NaN or infinite quantum does
    /// nothing (ACE would turn the position into NaN).
    pub fn tick(&mut self, quantum: f64) {
        self.begin();
        if quantum.is_finite() {
            self.obj.update_object_internal(quantum);
        }
    }

    /// Where the creature is (cell and frame).
    pub fn position(&self) -> Position {
        self.obj.position()
    }

    /// Its origin in its cell's coordinates.
    pub fn origin(&self) -> Vec3 {
        self.obj.frame.origin
    }

    /// Its orientation (unit quaternion).
    pub fn orientation(&self) -> Quat {
        self.obj.frame.orientation
    }

    /// The velocity its last tick moved it at (`CachedVelocity`: animation and physics
    /// together, world axes, units per second).
    // Deliberately not `PhysicsObj::velocity`: that one stays zero while a walk cycle
    // moves the creature, which is not what a caller asking "how fast" means.
    #[allow(clippy::misnamed_getters)]
    pub fn velocity(&self) -> Vec3 {
        self.obj.cached_velocity
    }

    /// The physics velocity alone (gravity, jumps), without the animation's motion.
    pub fn physics_velocity(&self) -> Vec3 {
        self.obj.velocity
    }

    /// The current style as the interpreter holds it (`NON_COMBAT`, ...).
    pub fn style(&self) -> u32 {
        self.obj.minterp.interpreted.current_style
    }

    /// The current forward motion as the interpreter holds it (`READY`,
    /// `WALK_FORWARD`, `RUN_FORWARD`, ...).
    pub fn motion(&self) -> u32 {
        self.obj.minterp.interpreted.forward_command
    }

    /// The substate the motion table is playing, which lags behind [`Creature::motion`]
    /// while a transition link plays.
    pub fn table_substate(&self) -> u32 {
        self.obj
            .table_manager
            .as_ref()
            .map_or(0, |t| t.state.substate)
    }

    /// The id of the animation the sequence is playing, if any.
    pub fn animation(&self) -> Option<u32> {
        let s = &self.obj.sequence;
        s.curr.map(|i| s.nodes[i].anim.id)
    }

    /// The frame number inside that animation (fractional).
    pub fn frame_number(&self) -> f32 {
        self.obj.sequence.frame_number
    }

    /// The part frames the sequence shows now: one frame per part of the model, in
    /// the part's parent coordinates. Empty while no animation with part frames plays.
    pub fn part_frames(&self) -> &[AFrame] {
        let s = &self.obj.sequence;
        s.curr
            .and_then(|i| s.nodes[i].part_frame(s.curr_frame_number()))
            .map_or(&[], |pf| pf.parts.as_slice())
    }

    /// Hook types (`AnimationDone` is 4, ...) the last call fired, in order.
    pub fn hooks(&self) -> &[u32] {
        &self.obj.hook_log
    }

    /// Motions the last call completed, with whether each completed successfully.
    pub fn motions_done(&self) -> &[(u32, bool)] {
        &self.obj.motions_done
    }

    /// Whether ticks move it (`TransientState.Active`).
    pub fn is_active(&self) -> bool {
        self.obj.is_active()
    }

    /// The ACE-shaped object underneath, for reading every field.
    pub fn physics(&self) -> &PhysicsObj {
        &self.obj
    }

    /// The ACE-shaped object underneath, to call ACE's methods directly. Changes made
    /// here bypass the front door's guarantees.
    pub fn physics_mut(&mut self) -> &mut PhysicsObj {
        &mut self.obj
    }

    /// Give up the front door and keep the object.
    pub fn into_physics(self) -> PhysicsObj {
        self.obj
    }
}
