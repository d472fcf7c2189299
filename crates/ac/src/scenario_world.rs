//! The conformance runner's several-object extension: `setup.objects`, the move-to,
//! sticky, constraint and target ops, the `object` field of every op, and the `moveto`
//! trace key. A scenario without `setup.objects` never reaches this module.

use crate::commands::*;
use crate::interpolation::Position;
use crate::math::Vec3;
use crate::motion_interp::Weenie;
use crate::moveto_manager::{MoveToManager, MovementStruct};
use crate::physics_obj::{PhysicsObj, DEFAULT_CELL};
use crate::records::RecordStore;
use crate::scenario::{frame_of, load_table, move_to_state, AcSim, Id, Num, Setup, Step, F};
use crate::sequence::AnimMap;
use crate::sticky_manager::StickyManager;
use crate::target_manager::{TargetInfo, TargetManager, TargetStatus};
use crate::world::{self, MainAndOthers, Registry};
use retroanim_core::{Scenario, ScenarioError};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};
use std::sync::Arc;

/// The clock a scenario starts at unless `setup.clock` says otherwise.
pub const DEFAULT_CLOCK: f64 = 100.0;

/// One entry of `setup.objects`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectSetup {
    pub id: Id,
    #[serde(default)]
    pub motion_table: Option<Id>,
    #[serde(default)]
    pub origin: Option<[Num; 3]>,
    #[serde(default)]
    pub orientation: Option<crate::scenario::Orientation>,
    #[serde(default)]
    pub radius: Option<Num>,
    #[serde(default)]
    pub height: Option<Num>,
    #[serde(default)]
    pub contact: Option<bool>,
    #[serde(default)]
    pub on_walkable: Option<bool>,
    #[serde(default)]
    pub in_cell: Option<bool>,
    #[serde(default)]
    pub run_rate: Option<Num>,
    #[serde(default)]
    pub is_creature: Option<bool>,
    /// Server-loop extension: as the main object's setup fields.
    #[serde(default)]
    pub fast_tick: Option<bool>,
    #[serde(default)]
    pub jump_skill: Option<u32>,
    #[serde(default)]
    pub burden: Option<Num>,
    #[serde(default)]
    pub jump_stamina: Option<Num>,
}

/// The `params` object: MovementParameters fields, absent ones at their defaults.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ParamsArgs {
    pub distance_to_object: Option<Num>,
    pub min_distance: Option<Num>,
    pub fail_distance: Option<Num>,
    pub speed: Option<Num>,
    pub walk_run_threshold: Option<Num>,
    pub desired_heading: Option<Num>,
    pub hold_key: Option<HoldKey>,
    pub context_id: Option<i32>,
    pub action_stamp: Option<i32>,
    pub can_walk: Option<bool>,
    pub can_run: Option<bool>,
    pub can_sidestep: Option<bool>,
    pub can_walk_backwards: Option<bool>,
    pub can_charge: Option<bool>,
    pub fail_walk: Option<bool>,
    pub use_final_heading: Option<bool>,
    pub sticky: Option<bool>,
    pub move_away: Option<bool>,
    pub move_towards: Option<bool>,
    pub use_spheres: Option<bool>,
    pub set_hold_key: Option<bool>,
    pub modify_raw_state: Option<bool>,
    pub modify_interpreted_state: Option<bool>,
    pub cancel_moveto: Option<bool>,
    pub stop_completely: Option<bool>,
    pub autonomous: Option<bool>,
    pub disable_jump_during_link: Option<bool>,
}

impl ParamsArgs {
    /// `MovementParameters()` with the given fields replaced.
    pub fn params(&self) -> MovementParameters {
        let d = MovementParameters::default();
        let f = |v: Option<Num>, dv: f32| v.map_or(dv, |n| n.0);
        let b = |v: Option<bool>, dv: bool| v.unwrap_or(dv);
        MovementParameters {
            distance_to_object: f(self.distance_to_object, d.distance_to_object),
            min_distance: f(self.min_distance, d.min_distance),
            fail_distance: f(self.fail_distance, d.fail_distance),
            speed: f(self.speed, d.speed),
            walk_run_threshold: f(self.walk_run_threshold, d.walk_run_threshold),
            desired_heading: f(self.desired_heading, d.desired_heading),
            hold_key_to_apply: self.hold_key.unwrap_or(d.hold_key_to_apply),
            context_id: self.context_id.unwrap_or(d.context_id),
            action_stamp: self.action_stamp.unwrap_or(d.action_stamp),
            can_walk: b(self.can_walk, d.can_walk),
            can_run: b(self.can_run, d.can_run),
            can_sidestep: b(self.can_sidestep, d.can_sidestep),
            can_walk_backwards: b(self.can_walk_backwards, d.can_walk_backwards),
            can_charge: b(self.can_charge, d.can_charge),
            fail_walk: b(self.fail_walk, d.fail_walk),
            use_final_heading: b(self.use_final_heading, d.use_final_heading),
            sticky: b(self.sticky, d.sticky),
            move_away: b(self.move_away, d.move_away),
            move_towards: b(self.move_towards, d.move_towards),
            use_spheres: b(self.use_spheres, d.use_spheres),
            set_hold_key: b(self.set_hold_key, d.set_hold_key),
            modify_raw_state: b(self.modify_raw_state, d.modify_raw_state),
            modify_interpreted_state: b(self.modify_interpreted_state, d.modify_interpreted_state),
            cancel_moveto: b(self.cancel_moveto, d.cancel_moveto),
            stop_completely: b(self.stop_completely, d.stop_completely),
            autonomous: b(self.autonomous, d.autonomous),
            disable_jump_during_link: b(self.disable_jump_during_link, d.disable_jump_during_link),
        }
    }
}

/// A WeenieError spelled by its ACE name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorName(pub WeenieError);

impl<'de> Deserialize<'de> for ErrorName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ErrorName, D::Error> {
        let s = String::deserialize(d)?;
        WeenieError::parse(&s)
            .map(ErrorName)
            .ok_or_else(|| D::Error::custom(format!("unknown WeenieError name {s:?}")))
    }
}

/// A TargetStatus spelled by its ACE name (`"OK"`, `"ExitWorld"`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusName(pub TargetStatus);

impl<'de> Deserialize<'de> for StatusName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StatusName, D::Error> {
        let s = String::deserialize(d)?;
        TargetStatus::parse(&s)
            .map(StatusName)
            .ok_or_else(|| D::Error::custom(format!("unknown TargetStatus name {s:?}")))
    }
}

/// Give the main object its id, Setup radius/height and the clock (before its movement
/// manager is created).
pub fn identify_main(obj: &mut PhysicsObj, setup: &Setup) {
    obj.id = setup.id.map_or(0, |i| i.0);
    obj.radius = setup.radius.map_or(0.0, |n| n.0);
    obj.height = setup.height.map_or(0.0, |n| n.0);
    obj.now = setup.clock.map_or(DEFAULT_CLOCK, |c| c.0);
}

/// The extension's state beside the main object.
#[derive(Clone)]
pub struct Extension {
    pub others: Vec<PhysicsObj>,
    pub clock: f64,
}

impl Extension {
    /// Build the other objects (setup steps 3–4; the main object is already built).
    pub fn load(
        scenario: &Scenario,
        store: &mut RecordStore,
        setup: &Setup,
        objects: &[ObjectSetup],
        main: &PhysicsObj,
    ) -> Result<Extension, ScenarioError> {
        let clock = setup.clock.map_or(DEFAULT_CLOCK, |c| c.0);
        if main.id == 0 {
            return Err(scenario.error(
                "setup.id",
                "must be a non-zero id when setup.objects is present",
            ));
        }
        let cell = setup.cell.map_or(DEFAULT_CELL, |c| c.0);
        let mut others = Vec::with_capacity(objects.len());
        for (k, o) in objects.iter().enumerate() {
            let at = format!("setup.objects[{k}].id");
            if o.id.0 == 0 {
                return Err(scenario.error(at, "object ids must be non-zero"));
            }
            if o.id.0 == main.id || objects[..k].iter().any(|p| p.id == o.id) {
                return Err(scenario.error(at, format!("duplicate object id 0x{:08x}", o.id.0)));
            }
            let frame = frame_of(&o.origin.unwrap_or([Num(0.0); 3]), o.orientation.as_ref());
            let weenie = Weenie {
                is_creature: o.is_creature.unwrap_or(true),
                run_rate: o.run_rate.map_or(1.0, |n| n.0),
            };
            let (table, anims) = match o.motion_table {
                Some(t) => {
                    let (table, anims) =
                        load_table(store, t.0, setup.missing_animations.unwrap_or_default())?;
                    (Some(table), anims)
                }
                None => (None, AnimMap::new()),
            };
            let mut obj = PhysicsObj::new(Arc::new(anims), weenie, cell, frame);
            obj.correction = setup.correction.unwrap_or_default();
            obj.id = o.id.0;
            obj.radius = o.radius.map_or(0.0, |n| n.0);
            obj.height = o.height.map_or(0.0, |n| n.0);
            obj.now = clock;
            obj.update_time = clock;
            crate::scenario_server::weenie_answers(
                &mut obj,
                o.jump_skill,
                o.burden,
                o.jump_stamina,
            );
            if table.is_some() {
                obj.set_motion_table(table);
            }
            if o.in_cell.unwrap_or(true) {
                obj.set_in_cell(true);
            }
            obj.apply_contact(o.contact.unwrap_or(true), o.on_walkable.unwrap_or(true));
            // Callbacks during setup are not recorded.
            obj.motions_done.clear();
            obj.hook_log.clear();
            others.push(obj);
        }
        Ok(Extension { others, clock })
    }

    /// The `moveto` trace key.
    pub fn moveto_json(&self, main: &PhysicsObj) -> Value {
        let objects: Vec<Value> = self.others.iter().map(object_json).collect();
        json!({
            "clock": self.clock,
            "mgr": mgr_json(main),
            "sticky": sticky_json(main),
            "constraint": constraint_json(main),
            "target": target_json(main),
            "weenie": weenie_json(main),
            "last_weenie": main.last_move_completion.map(|e| e.name()),
            "objects": objects,
        })
    }
}

/// The op's name as scenarios spell it.
pub fn op_name(step: &Step) -> &'static str {
    match step {
        Step::Tick { .. } => "tick",
        Step::DoMotion(_) => "do_motion",
        Step::StopMotion(_) => "stop_motion",
        Step::DoInterpretedMotion(_) => "do_interpreted_motion",
        Step::StopInterpretedMotion(_) => "stop_interpreted_motion",
        Step::StopCompletely { .. } => "stop_completely",
        Step::MoveToState { .. } => "move_to_state",
        Step::SetState { .. } => "set_state",
        Step::InterpolateTo { .. } => "interpolate_to",
        Step::MoveOrTeleport { .. } => "move_or_teleport",
        Step::SetRunRate { .. } => "set_run_rate",
        Step::MoveToObject { .. } => "move_to_object",
        Step::MoveToPosition { .. } => "move_to_position",
        Step::TurnToObject { .. } => "turn_to_object",
        Step::TurnToHeading { .. } => "turn_to_heading",
        Step::CancelMoveto { .. } => "cancel_moveto",
        Step::StickTo { .. } => "stick_to",
        Step::Unstick { .. } => "unstick",
        Step::ConstrainTo { .. } => "constrain_to",
        Step::Unconstrain { .. } => "unconstrain",
        Step::MoveObject { .. } => "move_object",
        Step::HandleTargetting { .. } => "handle_targetting",
        Step::NotifyVoyeurs { .. } => "notify_voyeurs",
        Step::ChargeJump { .. } => "charge_jump",
        Step::Jump { .. } => "jump",
        Step::JumpPackBytes { .. } => "jump_pack_bytes",
        Step::UpdateObject { .. } => "update_object",
        Step::UpdateObjectServer { .. } => "update_object_server",
        Step::UpdateObjectServerNew { .. } => "update_object_server_new",
        Step::EnterWorld { .. } => "enter_world",
        Step::ExitWorld { .. } => "exit_world",
        Step::LeaveWorld { .. } => "leave_world",
        Step::SetHidden { .. } => "set_hidden",
        Step::SetScale { .. } => "set_scale",
        Step::MovementData { .. } => "movement_data",
        Step::MoveToStateBytes { .. } => "move_to_state_bytes",
        Step::ApplyMovementData { .. } => "apply_movement_data",
    }
}

/// The `object` field of any op.
pub fn object_of(step: &Step) -> Option<Id> {
    match step {
        Step::DoMotion(a)
        | Step::StopMotion(a)
        | Step::DoInterpretedMotion(a)
        | Step::StopInterpretedMotion(a) => a.object,
        Step::Tick { object, .. }
        | Step::StopCompletely { object }
        | Step::MoveToState { object, .. }
        | Step::SetState { object, .. }
        | Step::InterpolateTo { object, .. }
        | Step::MoveOrTeleport { object, .. }
        | Step::SetRunRate { object, .. }
        | Step::MoveToObject { object, .. }
        | Step::MoveToPosition { object, .. }
        | Step::TurnToObject { object, .. }
        | Step::TurnToHeading { object, .. }
        | Step::CancelMoveto { object, .. }
        | Step::StickTo { object, .. }
        | Step::Unstick { object }
        | Step::ConstrainTo { object, .. }
        | Step::Unconstrain { object }
        | Step::MoveObject { object, .. }
        | Step::HandleTargetting { object }
        | Step::NotifyVoyeurs { object, .. }
        | Step::ChargeJump { object, .. }
        | Step::Jump { object, .. }
        | Step::JumpPackBytes { object, .. }
        | Step::UpdateObject { object, .. }
        | Step::UpdateObjectServer { object, .. }
        | Step::UpdateObjectServerNew { object, .. }
        | Step::EnterWorld { object, .. }
        | Step::ExitWorld { object }
        | Step::LeaveWorld { object }
        | Step::SetHidden { object, .. }
        | Step::SetScale { object, .. }
        | Step::MovementData { object, .. }
        | Step::MoveToStateBytes { object, .. }
        | Step::ApplyMovementData { object, .. } => *object,
    }
}

/// A target's Setup radius and height: a scenario object's, else 0.
fn target_dims(w: &MainAndOthers<'_>, target: u32) -> (f32, f32) {
    w.find(target)
        .map_or((0.0, 0.0), |i| (w.at(i).radius, w.at(i).height))
}

/// One step of an extension scenario.
pub fn apply(
    sim: &mut AcSim,
    index: usize,
    step: &Step,
    at: &str,
) -> Result<crate::scenario::Line, ScenarioError> {
    let file = sim.file.clone();
    let path = sim.path;
    let Some(ext) = sim.ext.as_mut() else {
        return Err(ScenarioError::new(file, at, "no several-object extension"));
    };
    let main = &mut sim.obj;
    main.hook_log.clear();
    main.motions_done.clear();
    main.move_completions.clear();
    for o in &mut ext.others {
        o.move_completions.clear();
    }
    let mut w = MainAndOthers {
        main,
        others: &mut ext.others,
    };
    let i = match object_of(step) {
        None => 0,
        Some(id) => w.find(id.0).ok_or_else(|| {
            ScenarioError::new(
                &file,
                format!("{at}.object"),
                format!("no object with id 0x{:08x}", id.0),
            )
        })?,
    };
    let op = op_name(step);
    let result: String = match step {
        Step::Tick { dt, .. } => {
            match path {
                crate::scenario::TickPath::Fast => world::tick(&mut w, &mut ext.clock, dt.0),
                #[cfg(feature = "reference")]
                crate::scenario::TickPath::Reference => {
                    crate::reference::world::tick(&mut w, &mut ext.clock, dt.0)
                }
            }
            "None".into()
        }
        Step::DoMotion(a) => w.at_mut(i).do_motion(a.motion.0, &a.params()).name().into(),
        Step::StopMotion(a) => w
            .at_mut(i)
            .stop_motion(a.motion.0, &a.params())
            .name()
            .into(),
        Step::DoInterpretedMotion(a) => w
            .at_mut(i)
            .perform_movement(MovementType::InterpretedCommand, a.motion.0, &a.params())
            .name()
            .into(),
        Step::StopInterpretedMotion(a) => w
            .at_mut(i)
            .perform_movement(
                MovementType::StopInterpretedCommand,
                a.motion.0,
                &a.params(),
            )
            .name()
            .into(),
        Step::StopCompletely { .. } => w.at_mut(i).stop_completely().name().into(),
        Step::MoveToState {
            raw,
            standing_long_jump,
            ..
        } => {
            move_to_state(w.at_mut(i), raw, *standing_long_jump);
            "None".into()
        }
        Step::SetState {
            contact,
            on_walkable,
            in_cell,
            ..
        } => {
            let obj = w.at_mut(i);
            if let Some(c) = in_cell {
                obj.set_in_cell(*c);
            }
            if contact.is_some() || on_walkable.is_some() {
                let c = contact.unwrap_or(obj.contact());
                let wk = on_walkable.unwrap_or(obj.on_walkable());
                obj.apply_contact(c, wk);
            }
            "None".into()
        }
        Step::InterpolateTo {
            origin,
            orientation,
            keep_heading,
            ..
        } => {
            let f = frame_of(origin, orientation.as_ref());
            w.at_mut(i).interpolate_to(f, *keep_heading);
            "None".into()
        }
        Step::MoveOrTeleport {
            origin,
            orientation,
            timestamp,
            contact,
            player_distance,
            ..
        } => {
            let f = frame_of(origin, orientation.as_ref());
            let obj = w.at_mut(i);
            obj.player_distance = player_distance.map_or(f32::MAX, |n| n.0);
            obj.move_or_teleport(f, *timestamp, contact.unwrap_or(true))
                .to_string()
        }
        Step::SetRunRate { rate, .. } => {
            w.at_mut(i).weenie.run_rate = rate.0;
            "None".into()
        }
        Step::MoveToObject {
            target,
            params,
            radius,
            height,
            ..
        } => {
            let (r, h) = target_dims(&w, target.0);
            let mut mvs = MovementStruct::new(MovementType::MoveToObject, params.params());
            mvs.object_id = target.0;
            mvs.top_level_id = target.0;
            mvs.radius = radius.map_or(r, |n| n.0);
            mvs.height = height.map_or(h, |n| n.0);
            world::perform_movement(&mut w, i, &mvs).name().into()
        }
        Step::MoveToPosition {
            origin,
            orientation,
            params,
            ..
        } => {
            let mut mvs = MovementStruct::new(MovementType::MoveToPosition, params.params());
            let cell = w.at(i).cell;
            mvs.position = Position::new(cell, frame_of(origin, orientation.as_ref()));
            w.at_mut(i).perform_movement_struct(&mvs).name().into()
        }
        Step::TurnToObject { target, params, .. } => {
            let mut mvs = MovementStruct::new(MovementType::TurnToObject, params.params());
            mvs.object_id = target.0;
            mvs.top_level_id = target.0;
            w.at_mut(i).perform_movement_struct(&mvs).name().into()
        }
        Step::TurnToHeading { params, .. } => {
            let mvs = MovementStruct::new(MovementType::TurnToHeading, params.params());
            w.at_mut(i).perform_movement_struct(&mvs).name().into()
        }
        Step::CancelMoveto { error, .. } => {
            let e = error.map_or(WeenieError::ActionCancelled, |e| e.0);
            w.at_mut(i).mt_cancel_move_to(e);
            "None".into()
        }
        Step::StickTo {
            target,
            radius,
            height,
            ..
        } => {
            let (r, h) = target_dims(&w, target.0);
            let r = radius.map_or(r, |n| n.0);
            let h = height.map_or(h, |n| n.0);
            w.at_mut(i).stick_to(target.0, r, h);
            "None".into()
        }
        Step::Unstick { .. } => {
            w.at_mut(i).unstick_from_object();
            "None".into()
        }
        Step::ConstrainTo {
            origin,
            orientation,
            start,
            max,
            ..
        } => {
            let obj = w.at_mut(i);
            let p = Position::new(obj.cell, frame_of(origin, orientation.as_ref()));
            obj.constrain_to(p, start.0, max.0);
            "None".into()
        }
        Step::Unconstrain { .. } => {
            w.at_mut(i).unconstrain();
            "None".into()
        }
        Step::MoveObject {
            origin,
            orientation,
            velocity,
            ..
        } => {
            let obj = w.at_mut(i);
            obj.frame = frame_of(origin, orientation.as_ref());
            if let Some(v) = velocity {
                obj.cached_velocity = Vec3::new(v[0].0, v[1].0, v[2].0);
            }
            "None".into()
        }
        Step::HandleTargetting { .. } => {
            world::handle_targetting(&mut w, i);
            "None".into()
        }
        Step::NotifyVoyeurs { status, .. } => {
            world::notify_voyeurs(&mut w, i, status.0);
            "None".into()
        }
        // Handled by the server-loop runner before this function is reached.
        other => {
            return Err(ScenarioError::new(
                &file,
                at,
                format!("op {:?} is not a several-object op", op_name(other)),
            ))
        }
    };
    world::flush(&mut w, i);
    Ok(sim.line(index, op, &result))
}

// ---- the `moveto` trace key ----

pub(crate) fn pos_json(p: &Position) -> Value {
    let o = p.frame.origin;
    let q = p.frame.orientation;
    json!({
        "cell": Id(p.cell),
        "origin": [F(o.x), F(o.y), F(o.z)],
        "orientation": [F(q.w), F(q.x), F(q.y), F(q.z)],
    })
}

fn opt_pos_json(p: &Option<Position>) -> Value {
    p.as_ref().map_or(Value::Null, pos_json)
}

fn v3_json(v: Vec3) -> Value {
    json!([F(v.x), F(v.y), F(v.z)])
}

fn hold_key_name(k: HoldKey) -> &'static str {
    match k {
        HoldKey::Invalid => "invalid",
        HoldKey::None => "none",
        HoldKey::Run => "run",
    }
}

fn mgr_json(obj: &PhysicsObj) -> Value {
    if !obj.has_movement_manager() {
        return Value::Null;
    }
    let m: &MoveToManager = &obj.moveto;
    let p = &m.movement_params;
    let pending: Vec<Value> = m
        .pending_actions
        .iter()
        .map(|n| json!([n.kind.name(), F(n.heading)]))
        .collect();
    json!({
        "movement_type": m.movement_type.name(),
        "initialized": m.initialized,
        "sought_object": Id(m.sought_object_id),
        "top_level_object": Id(m.top_level_object_id),
        "sought_radius": F(m.sought_object_radius),
        "sought_height": F(m.sought_object_height),
        "sought_position": pos_json(&m.sought_position),
        "current_target_position": pos_json(&m.current_target_position),
        "starting_position": opt_pos_json(&m.starting_position),
        "current_command": Id(m.current_command),
        "aux_command": Id(m.aux_command),
        "moving_away": m.moving_away,
        "pending": pending,
        "previous_heading": F(m.previous_heading()),
        "previous_distance": F(m.previous_distance),
        "previous_distance_time": m.previous_distance_time,
        "original_distance": F(m.original_distance),
        "original_distance_time": m.original_distance_time,
        "fail_progress_count": m.fail_progress_count,
        "params": {
            "flags": Id(p.flags()),
            "distance_to_object": F(p.distance_to_object),
            "min_distance": F(p.min_distance),
            "fail_distance": F(p.fail_distance),
            "speed": F(p.speed),
            "walk_run_threshold": F(p.walk_run_threshold),
            "desired_heading": F(p.desired_heading),
            "hold_key": hold_key_name(p.hold_key_to_apply),
            "context_id": p.context_id,
        },
    })
}

fn sticky_json(obj: &PhysicsObj) -> Value {
    let Some(s): Option<&StickyManager> = obj
        .position_manager
        .as_ref()
        .and_then(|p| p.sticky.as_ref())
    else {
        return Value::Null;
    };
    json!({
        "target": Id(s.target_id),
        "radius": F(s.target_radius),
        "initialized": s.initialized,
        "timeout": s.sticky_timeout_time,
        "target_position": opt_pos_json(&s.target_position),
    })
}

fn constraint_json(obj: &PhysicsObj) -> Value {
    let Some(c) = obj
        .position_manager
        .as_ref()
        .and_then(|p| p.constraint.as_ref())
    else {
        return Value::Null;
    };
    json!({
        "constrained": c.is_constrained,
        "pos_offset": F(c.constraint_pos_offset),
        "start": F(c.constraint_distance_start),
        "max": F(c.constraint_distance_max),
        "position": pos_json(&c.constraint_pos),
    })
}

fn info_json(i: &TargetInfo) -> Value {
    json!({
        "object": Id(i.object_id),
        "status": i.status.name(),
        "radius": F(i.radius),
        "quantum": i.quantum,
        "target_position": opt_pos_json(&i.target_position),
        "interpolated_position": opt_pos_json(&i.interpolated_position),
        "velocity": v3_json(i.velocity),
        "last_update_time": i.last_update_time,
    })
}

fn target_json(obj: &PhysicsObj) -> Value {
    let Some(tm): Option<&TargetManager> = obj.target_manager.as_deref() else {
        return Value::Null;
    };
    let mut voyeurs: Vec<_> = tm
        .voyeurs
        .as_ref()
        .map(|t| t.iter().map(|(_, v)| *v).collect())
        .unwrap_or_default();
    voyeurs.sort_by_key(|v| v.object_id);
    let voyeurs: Vec<Value> = voyeurs
        .iter()
        .map(|v| {
            json!([
                Id(v.object_id),
                F(v.radius),
                v.quantum,
                opt_pos_json(&v.last_sent_position)
            ])
        })
        .collect();
    json!({
        "info": tm.target_info.as_ref().map_or(Value::Null, info_json),
        "voyeurs": voyeurs,
        "last_update_time": tm.last_update_time,
    })
}

fn weenie_json(obj: &PhysicsObj) -> Value {
    Value::Array(
        obj.move_completions
            .iter()
            .map(|e| Value::String(e.name().into()))
            .collect(),
    )
}

fn object_json(obj: &PhysicsObj) -> Value {
    let o = obj.frame.origin;
    let q = obj.frame.orientation;
    json!({
        "id": Id(obj.id),
        "frame": {"origin": [F(o.x), F(o.y), F(o.z)], "orientation": [F(q.w), F(q.x), F(q.y), F(q.z)]},
        "cached_velocity": v3_json(obj.cached_velocity),
        "active": obj.is_active(),
        "contact": obj.contact(),
        "forward_command": if obj.has_movement_manager() {
            json!(Id(obj.minterp.interpreted.forward_command))
        } else {
            Value::Null
        },
        "mgr": mgr_json(obj),
        "sticky": sticky_json(obj),
        "constraint": constraint_json(obj),
        "target": target_json(obj),
        "weenie": weenie_json(obj),
    })
}
