//! The server-loop ops of the conformance format (jumping, the wall-clock and server
//! updates, entering and leaving the world, hidden and scale, motion on the wire) and
//! the `server` / `wire` keys of their trace lines. A scenario uses them iff one of its
//! steps is one of these ops; every other scenario is run and traced as before.

use crate::interpolation::Position;
use crate::math::Vec3;
use crate::physics_obj::{PhysicsObj, DEFAULT_CELL, MAX_QUANTUM};
use crate::scenario::{
    frame_of, list_overflow, non_finite_in, work_limit_message, AcSim, Clock, Id, Line, Num,
    Orientation, Setup, Step, F,
};
use crate::server_loop::{handle_move_to_state, jump_broadcasts, plan_update, UpdatePlan};
use crate::wire::{
    from_hex, to_hex, JumpPack, MoveToState, MovementData, RawMotionState, Reader, Sequences,
    UpdateMotion, WireError, OPCODE_UPDATE_MOTION,
};
use crate::world::{self, MainAndOthers};
use retroanim_core::{Scenario, ScenarioError};
use serde::Deserialize;
use serde_json::{json, Value};

/// The ops that opt a scenario in, as scenarios spell them.
pub const SERVER_OPS: [&str; 14] = [
    "charge_jump",
    "jump",
    "jump_pack_bytes",
    "update_object",
    "update_object_server",
    "update_object_server_new",
    "enter_world",
    "exit_world",
    "leave_world",
    "set_hidden",
    "set_scale",
    "movement_data",
    "move_to_state_bytes",
    "apply_movement_data",
];

/// `request_pos` of the server updates: origin, orientation, cell (default: the
/// object's current cell).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestPos {
    pub origin: [Num; 3],
    #[serde(default)]
    pub orientation: Option<Orientation>,
    #[serde(default)]
    pub cell: Option<Id>,
}

/// The player-level state ACE keeps beside the physics object.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// `FastTick` (PK players): MoveToState changes physics only with it.
    pub fast_tick: bool,
    /// `RequestedLocation`: the last MoveToState's position not yet consumed.
    pub requested_location: Option<Position>,
    pub seq: Sequences,
    /// `LastMoveToState`'s raw state.
    pub last_raw: Option<RawMotionState>,
    /// `LastSoulEmote` / `LastSoulEmoteEndTime` (Q112).
    pub soul_emote: crate::server_loop::SoulEmoteGuard,
}

/// The extension's state.
#[derive(Clone, Debug)]
pub struct ServerLoop {
    /// The clock of a scenario without `objects` (with them, the world's clock).
    pub clock: f64,
    /// One per object: the main object first, then `objects` in order.
    pub players: Vec<Player>,
    /// The cell `enter_world` falls back to when the object's cell id is 0.
    pub home_cell: u32,
    /// The messages of the current step, as hex.
    pub wire: Vec<String>,
}

/// Give an object the weenie's jump answers.
pub fn weenie_answers(
    obj: &mut PhysicsObj,
    jump_skill: Option<u32>,
    burden: Option<Num>,
    jump_stamina: Option<Num>,
) {
    obj.server.jump_skill = jump_skill;
    obj.server.burden = burden.map_or(0.0, |n| n.0);
    obj.server.jump_stamina = jump_stamina.map_or(0.0, |n| n.0);
}

/// Whether any step of the scenario is a server-loop op.
pub fn opted_in(scenario: &Scenario) -> bool {
    SERVER_OPS.iter().any(|op| scenario.uses_op(op))
}

pub fn is_server_op(step: &Step) -> bool {
    SERVER_OPS.contains(&crate::scenario_world::op_name(step))
}

fn player(fast_tick: Option<bool>) -> Player {
    Player {
        fast_tick: fast_tick.unwrap_or(true),
        requested_location: None,
        seq: Sequences::default(),
        last_raw: None,
        soul_emote: crate::server_loop::SoulEmoteGuard::default(),
    }
}

impl ServerLoop {
    pub fn new(setup: &Setup) -> ServerLoop {
        let mut players = vec![player(setup.fast_tick)];
        if let Some(objects) = &setup.objects {
            players.extend(objects.iter().map(|o| player(o.fast_tick)));
        }
        ServerLoop {
            clock: setup.clock.map_or(100.0, |c| c.0),
            players,
            home_cell: setup.cell.map_or(DEFAULT_CELL, |c| c.0),
            wire: Vec::new(),
        }
    }

    /// The `server` trace key (always the main object).
    pub fn server_json(&self, obj: &PhysicsObj, clock: f64) -> Value {
        json!({
            "clock": clock,
            "update_time": obj.update_time,
            "state": Id(obj.physics_state()),
            "scale": F(obj.scale),
            "cell": Id(obj.cell),
            "water_contact": obj.server.water_contact,
            "jump_extent": F(obj.minterp.jump_extent),
            "moving_or_animating": obj.is_moving_or_animating(),
            "request_pos": crate::scenario_world::pos_json(&obj.server.request_pos),
            "requested_location": self.players[0]
                .requested_location
                .as_ref()
                .map_or(Value::Null, crate::scenario_world::pos_json),
        })
    }

    /// The `wire` trace key.
    pub fn wire_json(&self) -> Value {
        json!(self.wire)
    }
}

fn obj_mut(sim: &mut AcSim, i: usize) -> &mut PhysicsObj {
    if i == 0 {
        &mut sim.obj
    } else {
        &mut sim
            .ext
            .as_mut()
            .expect("other objects need the extension")
            .others[i - 1]
    }
}

/// Set the world clock to `now` (every object reads it).
fn set_clock(sim: &mut AcSim, now: f64) {
    if let Some(s) = sim.server.as_mut() {
        s.clock = now;
    }
    sim.obj.now = now;
    if let Some(e) = sim.ext.as_mut() {
        e.clock = now;
        e.others.iter_mut().for_each(|o| o.now = now);
    }
}

fn clock(sim: &AcSim) -> f64 {
    sim.ext
        .as_ref()
        .map_or_else(|| sim.server.as_ref().map_or(0.0, |s| s.clock), |e| e.clock)
}

/// `full` quanta of MaxQuantum and then `rest` for object `i` (through the world when
/// there are other objects).
fn run_quanta(sim: &mut AcSim, i: usize, full: u32, rest: Option<f64>) {
    let qs = std::iter::repeat_n(MAX_QUANTUM, full as usize).chain(rest);
    let path = sim.path;
    match sim.ext.as_mut() {
        Some(ext) => {
            let mut w = MainAndOthers {
                main: &mut sim.obj,
                others: &mut ext.others,
            };
            for q in qs {
                match path {
                    crate::scenario::TickPath::Fast => world::update_object(&mut w, i, q),
                    #[cfg(feature = "reference")]
                    crate::scenario::TickPath::Reference => {
                        crate::reference::world::update_object(&mut w, i, q)
                    }
                }
            }
        }
        None => {
            for q in qs {
                match path {
                    crate::scenario::TickPath::Fast => sim.obj.update_object_internal(q),
                    #[cfg(feature = "reference")]
                    crate::scenario::TickPath::Reference => {
                        crate::reference::physics_obj::update_object_internal(&mut sim.obj, q)
                    }
                }
            }
        }
    }
}

/// The manager steps after a server transition (with targetting in a world).
fn server_use_time(sim: &mut AcSim, i: usize) {
    match sim.ext.as_mut() {
        Some(ext) => {
            let mut w = MainAndOthers {
                main: &mut sim.obj,
                others: &mut ext.others,
            };
            if w.main_or(i).target_manager.is_some() {
                world::handle_targetting(&mut w, i);
            }
            let o = w.main_or(i);
            if o.has_movement_manager() {
                o.mt_use_time();
            }
            world::flush(&mut w, i);
            w.main_or(i).check_for_completed_motions();
            world::flush(&mut w, i);
            w.main_or(i).position_manager_use_time();
            world::flush(&mut w, i);
        }
        None => sim.obj.server_use_time(),
    }
}

trait MainOr {
    fn main_or(&mut self, i: usize) -> &mut PhysicsObj;
}

impl MainOr for MainAndOthers<'_> {
    fn main_or(&mut self, i: usize) -> &mut PhysicsObj {
        if i == 0 {
            self.main
        } else {
            &mut self.others[i - 1]
        }
    }
}

/// The requested position of a server update: the step's, else the player's unconsumed
/// MoveToState location, else none (RequestPos stays).
fn take_request(sim: &mut AcSim, i: usize, rp: &Option<RequestPos>) {
    let req = match rp {
        Some(r) => {
            let cell = r.cell.map_or(obj_mut(sim, i).cell, |c| c.0);
            Some(Position::new(
                cell,
                frame_of(&r.origin, r.orientation.as_ref()),
            ))
        }
        None => sim
            .server
            .as_mut()
            .and_then(|s| s.players[i].requested_location.take()),
    };
    if let Some(p) = req {
        obj_mut(sim, i).set_request_pos(&p);
    }
}

fn hex_bytes(file: &str, at: &str, hex: &str) -> Result<Vec<u8>, ScenarioError> {
    from_hex(hex).map_err(|e| ScenarioError::new(file, format!("{at}.hex"), e.to_string()))
}

fn push_wire(sim: &mut AcSim, bytes: Vec<u8>) {
    if let Some(s) = sim.server.as_mut() {
        s.wire.push(to_hex(&bytes));
    }
}

/// The `MovementData` of `apply_movement_data`'s bytes: a whole `UpdateMotion`
/// (from its opcode 0xF74C on) or a movement body alone. A body's first byte is its
/// type (at most 9), so the opcode's first byte 0x4C cannot begin one.
fn received_movement_data(bytes: &[u8]) -> Result<MovementData, WireError> {
    if bytes.starts_with(&OPCODE_UPDATE_MOTION.to_le_bytes()) {
        UpdateMotion::read(bytes).map(|m| m.data)
    } else {
        MovementData::read(&mut Reader::new(bytes))
    }
}

/// The server-side jump with the client's velocity and its two broadcasts.
fn jump_with_velocity(sim: &mut AcSim, i: usize, v: [f32; 3]) {
    let fast_tick = sim.server.as_ref().is_none_or(|s| s.players[i].fast_tick);
    obj_mut(sim, i).jump_server(Vec3::new(v[0], v[1], v[2]), fast_tick);
    let Some(s) = sim.server.as_mut() else { return };
    let o = if i == 0 {
        &sim.obj
    } else {
        &sim.ext
            .as_ref()
            .expect("other objects live in the extension")
            .others[i - 1]
    };
    for m in jump_broadcasts(o, &mut s.players[i].seq) {
        s.wire.push(to_hex(&m));
    }
}

/// One server-loop step, refused (everything restored) when it overruns a work limit,
/// grows a queue past its limit or would print NaN/Infinity.
pub fn apply_checked(
    sim: &mut AcSim,
    index: usize,
    step: &Step,
    at: &str,
) -> Result<Line, ScenarioError> {
    let before = (sim.obj.clone(), sim.ext.clone(), sim.server.clone());
    sim.obj.sequence.overrun = None;
    if let Some(e) = sim.ext.as_mut() {
        e.others.iter_mut().for_each(|o| o.sequence.overrun = None);
    }
    let line = apply(sim, index, step, at)?;
    let all: Vec<&PhysicsObj> = std::iter::once(&sim.obj)
        .chain(sim.ext.iter().flat_map(|e| e.others.iter()))
        .collect();
    let refusal = if let Some(limit) = all.iter().find_map(|o| o.sequence.overrun) {
        Some(work_limit_message(limit))
    } else if let Some((name, max)) = all.iter().find_map(|o| list_overflow(o)) {
        Some(format!(
            "the step would grow {name} past {max} entries; refused (tick to let it drain)"
        ))
    } else {
        non_finite_in(&line)
            .map(|(path, v)| format!("the step would put {v} at {path} in its trace line; refused"))
    };
    match refusal {
        None => Ok(line),
        Some(message) => {
            (sim.obj, sim.ext, sim.server) = before;
            Err(ScenarioError::new(&sim.file, at, message))
        }
    }
}

fn apply(sim: &mut AcSim, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
    let file = sim.file.clone();
    sim.obj.hook_log.clear();
    sim.obj.motions_done.clear();
    sim.obj.move_completions.clear();
    if let Some(e) = sim.ext.as_mut() {
        e.others.iter_mut().for_each(|o| o.move_completions.clear());
    }
    let i = match crate::scenario_world::object_of(step) {
        None => 0,
        Some(id) => {
            let found = sim.ext.as_ref().and_then(|e| {
                if id.0 == sim.obj.id {
                    Some(0)
                } else {
                    e.others.iter().position(|o| o.id == id.0).map(|k| k + 1)
                }
            });
            found.ok_or_else(|| {
                ScenarioError::new(
                    &file,
                    format!("{at}.object"),
                    match sim.ext {
                        None => {
                            "the object field needs the several-object extension (setup.objects)"
                                .to_string()
                        }
                        Some(_) => format!("no object with id 0x{:08x}", id.0),
                    },
                )
            })?
        }
    };
    let op = crate::scenario_world::op_name(step);
    let result: String = match step {
        Step::ChargeJump { .. } => obj_mut(sim, i).mi_charge_jump().name().into(),
        Step::Jump {
            extent,
            stamina,
            velocity,
            ..
        } => match velocity {
            None => obj_mut(sim, i).mi_jump(extent.0, *stamina).name().into(),
            Some(v) => {
                jump_with_velocity(sim, i, [v[0].0, v[1].0, v[2].0]);
                "None".into()
            }
        },
        Step::JumpPackBytes { hex, .. } => {
            let bytes = hex_bytes(&file, at, hex)?;
            let mut r = Reader::new(&bytes);
            let pack = JumpPack::read(&mut r)
                .map_err(|e| ScenarioError::new(&file, format!("{at}.hex"), e.to_string()))?;
            if r.remaining() >= 8 {
                // The object guid and spell id that follow the pack (unused by the jump).
                let _ = (r.u32(), r.u32());
            }
            jump_with_velocity(sim, i, pack.velocity);
            "None".into()
        }
        Step::UpdateObject { now, .. } => {
            let Clock(now) = *now;
            set_clock(sim, now);
            let o = obj_mut(sim, i);
            if !o.in_cell() {
                o.set_active(false);
                "false".into()
            } else {
                match plan_update(o.update_time, now, true) {
                    UpdatePlan::Refuse => "false".into(),
                    UpdatePlan::Consume => {
                        o.update_time = now;
                        "false".into()
                    }
                    UpdatePlan::Run {
                        full,
                        rest,
                        end_time,
                    } => {
                        run_quanta(sim, i, full, rest);
                        obj_mut(sim, i).update_time = end_time;
                        "true".into()
                    }
                }
            }
        }
        Step::UpdateObjectServer {
            now,
            request_pos,
            force_pos,
            ..
        } => {
            let Clock(now) = *now;
            set_clock(sim, now);
            take_request(sim, i, request_pos);
            let o = obj_mut(sim, i);
            let dt = now - o.update_time;
            let ok = o.server_transition(dt);
            if ok {
                server_use_time(sim, i);
            }
            obj_mut(sim, i)
                .finish_update_object_server(now, force_pos.unwrap_or(true), ok)
                .to_string()
        }
        Step::UpdateObjectServerNew {
            now,
            request_pos,
            force_pos,
            ..
        } => {
            let Clock(now) = *now;
            set_clock(sim, now);
            take_request(sim, i, request_pos);
            match obj_mut(sim, i).begin_update_object_server_new(now) {
                None => "false".into(),
                Some((plan, ok)) => {
                    if let UpdatePlan::Run { full, rest, .. } = plan {
                        run_quanta(sim, i, full, rest);
                    }
                    obj_mut(sim, i)
                        .finish_update_object_server_new(plan, force_pos.unwrap_or(true), ok)
                        .to_string()
                }
            }
        }
        Step::EnterWorld {
            origin,
            orientation,
            cell,
            ..
        } => {
            let home = sim.server.as_ref().map_or(DEFAULT_CELL, |s| s.home_cell);
            let o = obj_mut(sim, i);
            let mut frame = o.frame;
            if let Some(org) = origin {
                frame = frame_of(org, orientation.as_ref());
            } else if let Some(Orientation(q)) = orientation {
                frame.orientation = crate::math::Quat::new(q[0].0, q[1].0, q[2].0, q[3].0);
            }
            let c = cell.map_or(if o.cell == 0 { home } else { o.cell }, |c| c.0);
            o.enter_world(&Position::new(c, frame)).to_string()
        }
        Step::ExitWorld { .. } => {
            obj_mut(sim, i).exit_world();
            "None".into()
        }
        Step::LeaveWorld { .. } => {
            obj_mut(sim, i).leave_world();
            "None".into()
        }
        Step::SetHidden { hidden, .. } => {
            obj_mut(sim, i).set_hidden(hidden.unwrap_or(true));
            "None".into()
        }
        Step::SetScale { scale, .. } => {
            obj_mut(sim, i).set_scale_static(scale.0);
            "None".into()
        }
        Step::MovementData {
            autonomous, header, ..
        } => {
            let o = obj_mut(sim, i);
            let data = o.movement_data(*autonomous);
            let guid = o.id;
            if let Some(s) = sim.server.as_mut() {
                let seq = &mut s.players[i].seq;
                let bytes = if header.unwrap_or(true) {
                    UpdateMotion::write(guid, &data, seq)
                } else {
                    data.to_bytes(seq)
                };
                s.wire.push(to_hex(&bytes));
            }
            "None".into()
        }
        Step::MoveToStateBytes { hex, .. } => {
            let bytes = hex_bytes(&file, at, hex)?;
            let state = MoveToState::from_bytes(&bytes)
                .map_err(|e| ScenarioError::new(&file, format!("{at}.hex"), e.to_string()))?;
            let now = clock(sim);
            let (fast_tick, mut guard) = sim
                .server
                .as_ref()
                .map_or((true, crate::server_loop::SoulEmoteGuard::default()), |s| {
                    (s.players[i].fast_tick, s.players[i].soul_emote)
                });
            let (raw, position) = (state.raw.clone(), state.position);
            let o = obj_mut(sim, i);
            let data = handle_move_to_state(o, state, fast_tick, now, &mut guard);
            let guid = o.id;
            if let Some(s) = sim.server.as_mut() {
                let p = &mut s.players[i];
                p.last_raw = Some(raw);
                p.requested_location = Some(position);
                p.soul_emote = guard;
                if let Some(data) = data {
                    let bytes = UpdateMotion::write(guid, &data, &mut p.seq);
                    push_wire(sim, bytes);
                }
            }
            "None".into()
        }
        Step::ApplyMovementData { hex, .. } => {
            let bytes = hex_bytes(&file, at, hex)?;
            let data = received_movement_data(&bytes)
                .map_err(|e| ScenarioError::new(&file, format!("{at}.hex"), e.to_string()))?;
            obj_mut(sim, i).apply_movement_data(&data).name().into()
        }
        other => {
            return Err(ScenarioError::new(
                &file,
                at,
                format!(
                    "op {:?} is not a server-loop op",
                    crate::scenario_world::op_name(other)
                ),
            ))
        }
    };
    match sim.ext.as_mut() {
        Some(ext) => {
            let mut w = MainAndOthers {
                main: &mut sim.obj,
                others: &mut ext.others,
            };
            world::flush(&mut w, i);
        }
        None => sim.obj.outbox.clear(),
    }
    Ok(sim.line(index, op, &result))
}
