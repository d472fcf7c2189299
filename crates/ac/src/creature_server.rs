//! The server loop through the front door: a [`Creature`] can jump, be updated by wall
//! clock or by its client's reported position, enter and leave the world, hide, scale,
//! and read and write the motion messages, as ACE's server does for its players and
//! creatures ([`crate::server_loop`] has the engine functions, named after ACE's).
//!
//! The clock is the caller's: every call that ACE makes at "now" takes `now` in seconds
//! on the caller's world clock (`PhysicsTimer.CurrentTime`), and the creature remembers
//! the last one it was given.

use crate::creature::{Creature, CreatureBuilder};
use crate::interpolation::Position;
use crate::math::Vec3;
use crate::motion_error::MotionError;
use crate::physics_obj::PhysicsObj;
use crate::server_loop::{
    handle_move_to_state, jump_broadcasts, plan_update, SoulEmoteGuard, UpdatePlan,
};
use crate::wire::{
    JumpPack, MoveToState, MovementData, Reader, Sequences, UpdateMotion, WireError,
    OPCODE_UPDATE_MOTION,
};

/// The builder's server-side answers (see the [`CreatureBuilder`] methods).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ServerSetup {
    id: u32,
    clock: f64,
    jump_skill: Option<u32>,
    burden: f32,
    jump_stamina: f32,
    pub(crate) fast_tick: bool,
}

impl Default for ServerSetup {
    fn default() -> Self {
        ServerSetup {
            id: 0,
            clock: 0.0,
            jump_skill: None,
            burden: 0.0,
            jump_stamina: 0.0,
            fast_tick: true,
        }
    }
}

impl ServerSetup {
    /// Before the motion table's contact is applied, as a server creates the object.
    pub(crate) fn apply(&self, obj: &mut PhysicsObj) {
        obj.id = self.id;
        obj.now = self.clock;
        obj.update_time = self.clock;
        obj.server.jump_skill = self.jump_skill;
        obj.server.burden = self.burden;
        obj.server.jump_stamina = self.jump_stamina;
    }
}

/// What ACE's `Player` keeps beside the physics object.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlayerSide {
    fast_tick: bool,
    seq: Sequences,
    requested_location: Option<Position>,
    soul_emote: SoulEmoteGuard,
}

impl PlayerSide {
    pub(crate) fn new(fast_tick: bool) -> PlayerSide {
        PlayerSide {
            fast_tick,
            seq: Sequences::default(),
            requested_location: None,
            soul_emote: SoulEmoteGuard::default(),
        }
    }
}

impl CreatureBuilder {
    /// The object id (also the guid its messages carry); players are
    /// `0x50000001..=0x5FFFFFFF`. Default 0.
    pub fn id(mut self, id: u32) -> Self {
        self.server_mut().id = id;
        self
    }

    /// The world clock (seconds) at creation: its first update counts from here.
    /// Default 0.
    pub fn clock(mut self, now: f64) -> Self {
        self.server_mut().clock = now;
        self
    }

    /// Make the weenie a player with this Jump skill and burden (a fraction of its
    /// capacity) for `get_jump_v_z` (Q95). Without it the creature jumps with no
    /// vertical speed, as ACE's non-player weenies do.
    pub fn jump_skill(mut self, skill: u32, burden: f32) -> Self {
        let s = self.server_mut();
        s.jump_skill = Some(skill);
        s.burden = burden;
        self
    }

    /// The weenie's `JumpStaminaCost` answer. ACE's server weenie answers 0, which
    /// refuses every client-side jump on the ground (Q42); a client would answer its
    /// real cost (any non-zero value lets [`Creature::jump`] proceed).
    pub fn jump_stamina_cost(mut self, cost: f32) -> Self {
        self.server_mut().jump_stamina = cost;
        self
    }

    /// The player's `FastTick`: without it a MoveToState changes no physics and is only
    /// broadcast (Q104), and a server-side jump always stamps the update time. Default on.
    pub fn fast_tick(mut self, on: bool) -> Self {
        self.server_mut().fast_tick = on;
        self
    }
}

impl Creature {
    /// The world clock this creature was last given.
    pub fn clock(&self) -> f64 {
        self.obj.now
    }

    /// `MotionInterp.charge_jump`: start charging a jump (a standing long jump when it
    /// stands on walkable ground, Ready, without sidestep or turn).
    pub fn charge_jump(&mut self) -> Result<(), MotionError> {
        self.begin();
        MotionError::check(self.obj.mi_charge_jump())
    }

    /// `MotionInterp.jump(extent, stamina)`: the client-side jump. It leaves walkable
    /// ground with the state velocity and the weenie's vertical speed; Contact stays set
    /// (Q94) until the caller lands it with [`Creature::set_contact`].
    pub fn jump(&mut self, extent: f32, stamina: i32) -> Result<(), MotionError> {
        self.begin();
        MotionError::check(self.obj.mi_jump(extent, stamina))
    }

    /// `Player.HandleActionJump` at clock `now` with the client's local launch
    /// velocity (Q96). Returns the two messages ACE broadcasts: an empty autonomous
    /// `UpdateMotion` and the `VectorUpdate`.
    pub fn jump_server(&mut self, velocity: Vec3, now: f64) -> [Vec<u8>; 2] {
        self.begin();
        self.obj.now = now;
        self.obj.jump_server(velocity, self.player.fast_tick);
        jump_broadcasts(&self.obj, &mut self.player.seq)
    }

    /// A client's `JumpPack` (game action 0xF61B; a trailing object id and spell id are
    /// allowed): [`Creature::jump_server`] with its velocity. Bytes that do not read
    /// change nothing.
    pub fn apply_jump_pack(&mut self, bytes: &[u8], now: f64) -> Result<[Vec<u8>; 2], WireError> {
        let pack = JumpPack::read(&mut Reader::new(bytes))?;
        let [x, y, z] = pack.velocity;
        Ok(self.jump_server(Vec3::new(x, y, z), now))
    }

    /// A client's `MoveToState` (game action 0xF61C) at clock `now`, as
    /// `GameActionMoveToState.Handle` runs it: the physics (with FastTick), the requested
    /// location for the next [`Creature::update_object_server`], and the `UpdateMotion`
    /// ACE broadcasts — None when ACE sends none (Q109). Only soul emotes at speed 1.0
    /// survive among its actions (Q108), and a repeated one is stripped (Q112).
    pub fn apply_move_to_state(
        &mut self,
        bytes: &[u8],
        now: f64,
    ) -> Result<Option<Vec<u8>>, WireError> {
        let state = MoveToState::from_bytes(bytes)?;
        self.begin();
        self.obj.now = now;
        self.player.requested_location = Some(state.position);
        let p = &mut self.player;
        let data = handle_move_to_state(&mut self.obj, state, p.fast_tick, now, &mut p.soul_emote);
        Ok(data.map(|d| UpdateMotion::write(self.obj.id, &d, &mut self.player.seq)))
    }

    /// `PhysicsObj.update_object` at clock `now` (Q46, Q97): nothing below 1/30 s (as
    /// f32), a gap over 2 s consumed unsimulated, else 0.1 s quanta and the rest.
    /// Returns ACE's answer: whether it simulated.
    pub fn update_object(&mut self, now: f64) -> bool {
        self.begin();
        self.obj.now = now;
        if !self.obj.in_cell() {
            self.obj.set_active(false);
            return false;
        }
        match plan_update(self.obj.update_time, now, true) {
            UpdatePlan::Refuse => false,
            UpdatePlan::Consume => {
                self.obj.update_time = now;
                false
            }
            UpdatePlan::Run { .. } => {
                self.obj.update_object(now);
                true
            }
        }
    }

    /// The position the next server update moves to: `request`, else the location of
    /// the last MoveToState not yet used.
    fn take_request(&mut self, request: Option<Position>) {
        if let Some(p) = request.or_else(|| self.player.requested_location.take()) {
            self.obj.set_request_pos(&p);
        }
    }

    /// `update_object_server(force_pos)` at clock `now`, the legacy path ACE's
    /// `Player_Tick` takes without FastTick (Q98): straight to the requested position,
    /// no animation. With no elapsed time the cached velocity becomes infinite (Q110).
    pub fn update_object_server(
        &mut self,
        now: f64,
        request: Option<Position>,
        force_pos: bool,
    ) -> bool {
        self.begin();
        self.obj.now = now;
        self.take_request(request);
        self.obj.update_object_server(now, force_pos)
    }

    /// `update_object_server_new(force_pos)` at clock `now`, the FastTick path (Q99):
    /// the quanta of [`Creature::update_object`] without its 1/30 s gate, then the
    /// requested position.
    pub fn update_object_server_new(
        &mut self,
        now: f64,
        request: Option<Position>,
        force_pos: bool,
    ) -> bool {
        self.begin();
        self.obj.now = now;
        self.take_request(request);
        self.obj.update_object_server_new(now, force_pos)
    }

    /// `PhysicsObj.enter_world(position)` (Q101): an outdoor cell is recomputed from the
    /// origin, the update time is stamped with the last clock, and link and pending
    /// table animations are dropped.
    pub fn enter_world(&mut self, position: Position) -> bool {
        self.begin();
        self.obj.enter_world(&position)
    }

    /// `PhysicsObj.exit_world` (Q100): pending motions dropped; it keeps its cell and
    /// keeps ticking.
    pub fn exit_world(&mut self) {
        self.begin();
        self.obj.exit_world();
    }

    /// `PhysicsObj.leave_world` (Q101): out of its cell (cell id 0), inactive, off the
    /// ground.
    pub fn leave_world(&mut self) {
        self.begin();
        self.obj.leave_world();
    }

    /// `PhysicsObj.set_hidden` (Q102): a hidden creature neither animates nor falls.
    pub fn set_hidden(&mut self, hidden: bool) {
        self.begin();
        self.obj.set_hidden(hidden);
    }

    /// `PhysicsObj.SetScaleStatic` (Q103): the walk's offset grows with the scale.
    pub fn set_scale(&mut self, scale: f32) {
        self.obj.set_scale_static(scale);
    }

    /// The motion state a server broadcasts now (the move-to in progress, else the
    /// interpreted state with its actions).
    pub fn movement_data(&self, autonomous: bool) -> MovementData {
        self.obj.movement_data(autonomous)
    }

    /// The `UpdateMotion` message (opcode 0xF74C) for [`Creature::movement_data`],
    /// numbered with this creature's sequences (Q107).
    pub fn update_motion(&mut self, autonomous: bool) -> Vec<u8> {
        let data = self.obj.movement_data(autonomous);
        UpdateMotion::write(self.obj.id, &data, &mut self.player.seq)
    }

    /// The `MovementData` for a client that first sees the creature now, in any state.
    pub fn movement_data_for_late_joiner(&self) -> MovementData {
        self.obj.movement_data_for_late_joiner()
    }

    /// Apply a received `UpdateMotion` (from its opcode on) or a `MovementData` body to
    /// this creature as a remote copy (ACE's `unpack_movement` direction).
    pub fn apply_movement_data(
        &mut self,
        bytes: &[u8],
    ) -> Result<Result<(), MotionError>, WireError> {
        let data = if bytes.starts_with(&OPCODE_UPDATE_MOTION.to_le_bytes()) {
            UpdateMotion::read(bytes)?.data
        } else {
            MovementData::read(&mut Reader::new(bytes))?
        };
        self.begin();
        Ok(MotionError::check(self.obj.apply_movement_data(&data)))
    }
}

impl CreatureBuilder {
    fn server_mut(&mut self) -> &mut ServerSetup {
        &mut self.server
    }
}
