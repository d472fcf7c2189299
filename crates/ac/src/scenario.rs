//! The conformance runner (`engine: "ac"`): scenario steps and trace lines exactly as
//! docs/ac.md describes them.

use crate::commands::*;
use crate::math::{AFrame, Quat, Vec3};
use crate::motion_interp::{motion_allows_jump, ActionNode, Weenie};
use crate::motion_table::MotionTableData;
use crate::physics_obj::{PhysicsObj, DEFAULT_CELL, HUGE_QUANTUM};
use crate::records::command_names::command_id_ignore_case;
use crate::records::{hooks, RecordStore};
use crate::sequence::AnimMap;
use crate::sequence::WorkLimit;
use retroanim_core::{Scenario, ScenarioError, Simulation};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::sync::Arc;

/// A `"0x…"` id (any case on input, lowercase 8 digits on output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Id(pub u32);

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("0x{:08x}", self.0))
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        let s = String::deserialize(d)?;
        let hex = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .ok_or_else(|| D::Error::custom(format!("expected a \"0x\" hex id, got {s:?}")))?;
        u32::from_str_radix(hex, 16)
            .map(Id)
            .map_err(|_| D::Error::custom(format!("invalid hex id {s:?}")))
    }
}

/// A motion command or style: ACE's name in any case (`"WalkForward"`, `"noncombat"`)
/// or a `"0x…"` id. Traces always print the id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command(pub u32);

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Command, D::Error> {
        let s = String::deserialize(d)?;
        if s.starts_with("0x") || s.starts_with("0X") {
            return serde_json::from_value::<Id>(Value::String(s))
                .map(|i| Command(i.0))
                .map_err(D::Error::custom);
        }
        command_id_ignore_case(&s).map(Command).ok_or_else(|| {
            D::Error::custom(format!(
                "unknown motion command {s:?}: expected a name such as \"WalkForward\" or a \"0x\" hex id"
            ))
        })
    }
}

/// An f32 that prints NaN/±Infinity as strings (the trace number format).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F(pub f32);

impl Serialize for F {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_nan() {
            s.serialize_str("NaN")
        } else if v == f32::INFINITY {
            s.serialize_str("Infinity")
        } else if v == f32::NEG_INFINITY {
            s.serialize_str("-Infinity")
        } else {
            // Through the shortest decimal that reads back as this f32, so that a trace
            // held as `serde_json::Value` (f64 numbers) still prints `2.2`, not
            // `2.200000047683716`.
            let shortest: f64 = format!("{v}").parse().unwrap_or(v as f64);
            s.serialize_f64(shortest)
        }
    }
}

/// Largest magnitude of any number an ac scenario gives (coordinates, quaternion
/// components, speeds, rates): limit L4 in docs/limits.md. f32 sums and products of a
/// few such values stay finite, and every position ACE's world holds (cell-local
/// metres) is far inside it.
pub const MAX_MAGNITUDE: f32 = 1.0e6;
/// Largest `|dt|` one `tick` accepts (limit L1): ACE's `HugeQuantum`, above which its
/// own driver discards the gap instead of simulating it, so no larger quantum has an
/// ACE result to reproduce.
pub const MAX_DT: f64 = HUGE_QUANTUM;
/// Smallest squared length an orientation may have: below it normalising divides by
/// (nearly) zero and the orientation turns to NaN.
pub const MIN_ORIENTATION_LENGTH_SQ: f32 = 1.0e-12;

/// A number as an error shows it: exponent form once digits would pile up (1e300).
fn shown(v: f64) -> String {
    if v != 0.0 && !(1e-4..1e6).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `v` when it is finite and within ±`limit`, else the error "`v` is out of range: `why`".
fn in_range<E: serde::de::Error>(v: f64, limit: f64, why: &str) -> Result<f64, E> {
    if !v.is_finite() || v.abs() > limit {
        return Err(E::custom(format!("{} is out of range: {why}", shown(v))));
    }
    Ok(v)
}

/// A JSON number narrowed to f32, within [`MAX_MAGNITUDE`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f32);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        let v = f64::deserialize(d)?;
        let f = v as f32;
        if !f.is_finite() || f.abs() > MAX_MAGNITUDE {
            return Err(D::Error::custom(format!(
                "{} is out of range: numbers in an ac scenario lie within \u{b1}1000000",
                shown(v)
            )));
        }
        Ok(Num(f))
    }
}

/// Any finite f32 (a distance that is only compared, never computed with).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finite(pub f32);

impl<'de> Deserialize<'de> for Finite {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Finite, D::Error> {
        let v = f64::deserialize(d)?;
        let f = v as f32;
        if !f.is_finite() {
            return Err(D::Error::custom(format!(
                "{} is not a finite f32",
                shown(v)
            )));
        }
        Ok(Finite(f))
    }
}

/// An orientation `[w, x, y, z]`: components within [`MAX_MAGNITUDE`] and a length
/// that normalising can divide by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orientation(pub [Num; 4]);

impl<'de> Deserialize<'de> for Orientation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Orientation, D::Error> {
        let q = <[Num; 4]>::deserialize(d)?;
        let len_sq: f32 = q.iter().map(|c| c.0 * c.0).sum();
        if len_sq < MIN_ORIENTATION_LENGTH_SQ {
            return Err(D::Error::custom(format!(
                "[{}, {}, {}, {}] is too close to zero length to be an orientation (its squared length must be at least 1e-12)",
                q[0].0, q[1].0, q[2].0, q[3].0
            )));
        }
        Ok(Orientation(q))
    }
}

/// A tick quantum: finite, within [`MAX_DT`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dt(pub f64);

impl<'de> Deserialize<'de> for Dt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dt, D::Error> {
        let v = f64::deserialize(d)?;
        check_dt(v).map(Dt).map_err(D::Error::custom)
    }
}

/// The rule every door applies to a tick's quantum (limit L1): finite, within
/// ±[`MAX_DT`]; the error text is the same at each (the caller prefixes where it was).
pub fn check_dt(v: f64) -> Result<f64, String> {
    if !v.is_finite() || v.abs() > MAX_DT {
        return Err(format!(
            "{} is out of range: a tick's dt lies within \u{b1}2 s (ACE's HugeQuantum)",
            shown(v)
        ));
    }
    Ok(v)
}

/// The rule the embedding doors (C, .NET, WASM, Python) apply to a move-to, turn-to or
/// stick target: neither id 0, which no object has, nor the mover itself. The error
/// text is the same at each. The scenario runner does not apply it: it is the
/// conformance door, and ACE's answer to such a move is a rule (Q86).
pub fn check_target(mover: u32, target: u32) -> Result<u32, String> {
    if target == 0 {
        Err("id 0 names no object".to_string())
    } else if target == mover {
        Err(format!("{target:#x} is the creature itself"))
    } else {
        Ok(target)
    }
}

/// Largest world clock a several-object scenario may start at (limit L1b): about 31
/// years of seconds, far past any server's uptime, while an f64 clock still resolves
/// microseconds there.
pub const MAX_CLOCK: f64 = 1.0e9;

/// The world clock of `setup.clock`: finite, within ±[`MAX_CLOCK`] seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock(pub f64);

impl<'de> Deserialize<'de> for Clock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Clock, D::Error> {
        let v = f64::deserialize(d)?;
        in_range(v, MAX_CLOCK, "the world clock lies within \u{b1}1e9 s").map(Clock)
    }
}

pub use crate::loader::MissingAnimations;

/// The `setup` block, plus the documented extensions.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub motion_table: Id,
    #[serde(default)]
    pub origin: Option<[Num; 3]>,
    #[serde(default)]
    pub orientation: Option<Orientation>,
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
    #[serde(default)]
    pub cell: Option<Id>,
    /// Extension: `"ace"` (default) or `"retail"` interpolation correction.
    #[serde(default)]
    pub correction: Option<crate::interpolation::CorrectionMode>,
    /// Extension: `"error"` (default) or `"empty"`.
    #[serde(default)]
    pub missing_animations: Option<MissingAnimations>,
    /// Several-object extension: the main object's id (non-zero with `objects`).
    #[serde(default)]
    pub id: Option<Id>,
    /// Several-object extension: the main object's Setup radius and height.
    #[serde(default)]
    pub radius: Option<Num>,
    #[serde(default)]
    pub height: Option<Num>,
    /// Several-object extension: the initial world clock (seconds, default 100).
    #[serde(default)]
    pub clock: Option<Clock>,
    /// Several-object extension: the other objects; its presence opts in.
    #[serde(default)]
    pub objects: Option<Vec<crate::scenario_world::ObjectSetup>>,
    /// Server-loop extension: the player's FastTick (default true).
    #[serde(default)]
    pub fast_tick: Option<bool>,
    /// Server-loop extension: the player's Jump skill (absent: not a player).
    #[serde(default)]
    pub jump_skill: Option<u32>,
    /// Server-loop extension: the player's burden (fraction of capacity).
    #[serde(default)]
    pub burden: Option<Num>,
    /// Server-loop extension: the weenie's `JumpStaminaCost` answer (default 0).
    #[serde(default)]
    pub jump_stamina: Option<Num>,
}

/// Optional motion fields of the command ops.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionArgs {
    pub motion: Command,
    #[serde(default)]
    pub speed: Option<Num>,
    #[serde(default)]
    pub hold_key: Option<HoldKey>,
    #[serde(default)]
    pub modify_raw_state: Option<bool>,
    #[serde(default)]
    pub modify_interpreted_state: Option<bool>,
    #[serde(default)]
    pub context_id: Option<i32>,
    #[serde(default)]
    pub set_hold_key: Option<bool>,
    #[serde(default)]
    pub cancel_moveto: Option<bool>,
    #[serde(default)]
    pub disable_jump_during_link: Option<bool>,
    #[serde(default)]
    pub action_stamp: Option<i32>,
    #[serde(default)]
    pub autonomous: Option<bool>,
    /// Several-object extension: the object the op addresses.
    #[serde(default)]
    pub object: Option<Id>,
}

impl MotionArgs {
    /// `MovementParameters()` with the given fields replaced.
    pub fn params(&self) -> MovementParameters {
        let d = MovementParameters::default();
        MovementParameters {
            speed: self.speed.map_or(d.speed, |n| n.0),
            hold_key_to_apply: self.hold_key.unwrap_or(d.hold_key_to_apply),
            modify_raw_state: self.modify_raw_state.unwrap_or(d.modify_raw_state),
            modify_interpreted_state: self
                .modify_interpreted_state
                .unwrap_or(d.modify_interpreted_state),
            context_id: self.context_id.unwrap_or(d.context_id),
            set_hold_key: self.set_hold_key.unwrap_or(d.set_hold_key),
            cancel_moveto: self.cancel_moveto.unwrap_or(d.cancel_moveto),
            disable_jump_during_link: self
                .disable_jump_during_link
                .unwrap_or(d.disable_jump_during_link),
            action_stamp: self.action_stamp.unwrap_or(d.action_stamp),
            autonomous: self.autonomous.unwrap_or(d.autonomous),
            ..d
        }
    }
}

/// The `raw` object of `move_to_state`: absent fields are 0 / `"invalid"`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RawArgs {
    pub current_style: Option<Command>,
    pub forward_command: Option<Command>,
    pub forward_speed: Option<Num>,
    pub forward_hold_key: Option<HoldKey>,
    pub sidestep_command: Option<Command>,
    pub sidestep_speed: Option<Num>,
    pub sidestep_hold_key: Option<HoldKey>,
    pub turn_command: Option<Command>,
    pub turn_speed: Option<Num>,
    pub turn_hold_key: Option<HoldKey>,
    pub current_hold_key: Option<HoldKey>,
}

/// One scenario step.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Step {
    Tick {
        dt: Dt,
        #[serde(default)]
        object: Option<Id>,
    },
    DoMotion(MotionArgs),
    StopMotion(MotionArgs),
    DoInterpretedMotion(MotionArgs),
    StopInterpretedMotion(MotionArgs),
    StopCompletely {
        #[serde(default)]
        object: Option<Id>,
    },
    MoveToState {
        raw: RawArgs,
        #[serde(default)]
        standing_long_jump: bool,
        #[serde(default)]
        object: Option<Id>,
    },
    SetState {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        contact: Option<bool>,
        #[serde(default)]
        on_walkable: Option<bool>,
        #[serde(default)]
        in_cell: Option<bool>,
    },
    InterpolateTo {
        #[serde(default)]
        object: Option<Id>,
        origin: [Num; 3],
        #[serde(default)]
        orientation: Option<Orientation>,
        #[serde(default)]
        keep_heading: bool,
    },
    MoveOrTeleport {
        #[serde(default)]
        object: Option<Id>,
        origin: [Num; 3],
        #[serde(default)]
        orientation: Option<Orientation>,
        #[serde(default)]
        timestamp: i32,
        #[serde(default)]
        contact: Option<bool>,
        #[serde(default)]
        player_distance: Option<Finite>,
    },
    SetRunRate {
        rate: Num,
        #[serde(default)]
        object: Option<Id>,
    },
    // ---- several-object extension (move-to, sticky, constraint, targets) ----
    MoveToObject {
        #[serde(default)]
        object: Option<Id>,
        target: Id,
        #[serde(default)]
        params: crate::scenario_world::ParamsArgs,
        #[serde(default)]
        radius: Option<Num>,
        #[serde(default)]
        height: Option<Num>,
    },
    MoveToPosition {
        #[serde(default)]
        object: Option<Id>,
        origin: [Num; 3],
        #[serde(default)]
        orientation: Option<Orientation>,
        #[serde(default)]
        params: crate::scenario_world::ParamsArgs,
    },
    TurnToObject {
        #[serde(default)]
        object: Option<Id>,
        target: Id,
        #[serde(default)]
        params: crate::scenario_world::ParamsArgs,
    },
    TurnToHeading {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        params: crate::scenario_world::ParamsArgs,
    },
    CancelMoveto {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        error: Option<crate::scenario_world::ErrorName>,
    },
    StickTo {
        #[serde(default)]
        object: Option<Id>,
        target: Id,
        #[serde(default)]
        radius: Option<Num>,
        #[serde(default)]
        height: Option<Num>,
    },
    Unstick {
        #[serde(default)]
        object: Option<Id>,
    },
    ConstrainTo {
        #[serde(default)]
        object: Option<Id>,
        origin: [Num; 3],
        #[serde(default)]
        orientation: Option<Orientation>,
        start: Num,
        max: Num,
    },
    Unconstrain {
        #[serde(default)]
        object: Option<Id>,
    },
    MoveObject {
        #[serde(default)]
        object: Option<Id>,
        origin: [Num; 3],
        #[serde(default)]
        orientation: Option<Orientation>,
        #[serde(default)]
        velocity: Option<[Num; 3]>,
    },
    HandleTargetting {
        #[serde(default)]
        object: Option<Id>,
    },
    NotifyVoyeurs {
        #[serde(default)]
        object: Option<Id>,
        status: crate::scenario_world::StatusName,
    },
    // ---- server-loop extension (jumping, the server update, the wire) ----
    ChargeJump {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        extent: Option<Num>,
    },
    Jump {
        #[serde(default)]
        object: Option<Id>,
        extent: Num,
        #[serde(default)]
        stamina: i32,
        #[serde(default)]
        velocity: Option<[Num; 3]>,
    },
    JumpPackBytes {
        #[serde(default)]
        object: Option<Id>,
        hex: String,
    },
    UpdateObject {
        #[serde(default)]
        object: Option<Id>,
        now: Clock,
    },
    UpdateObjectServer {
        #[serde(default)]
        object: Option<Id>,
        now: Clock,
        #[serde(default)]
        request_pos: Option<crate::scenario_server::RequestPos>,
        #[serde(default)]
        force_pos: Option<bool>,
    },
    UpdateObjectServerNew {
        #[serde(default)]
        object: Option<Id>,
        now: Clock,
        #[serde(default)]
        request_pos: Option<crate::scenario_server::RequestPos>,
        #[serde(default)]
        force_pos: Option<bool>,
    },
    EnterWorld {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        origin: Option<[Num; 3]>,
        #[serde(default)]
        orientation: Option<Orientation>,
        #[serde(default)]
        cell: Option<Id>,
    },
    ExitWorld {
        #[serde(default)]
        object: Option<Id>,
    },
    LeaveWorld {
        #[serde(default)]
        object: Option<Id>,
    },
    SetHidden {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        hidden: Option<bool>,
    },
    SetScale {
        #[serde(default)]
        object: Option<Id>,
        scale: Num,
    },
    MovementData {
        #[serde(default)]
        object: Option<Id>,
        #[serde(default)]
        autonomous: bool,
        #[serde(default)]
        header: Option<bool>,
    },
    MoveToStateBytes {
        #[serde(default)]
        object: Option<Id>,
        hex: String,
    },
    ApplyMovementData {
        #[serde(default)]
        object: Option<Id>,
        hex: String,
    },
}

pub(crate) fn frame_of(origin: &[Num; 3], orientation: Option<&Orientation>) -> AFrame {
    let q = orientation.map_or(Quat::IDENTITY, |Orientation(o)| {
        Quat::new(o[0].0, o[1].0, o[2].0, o[3].0)
    });
    AFrame::new(Vec3::new(origin[0].0, origin[1].0, origin[2].0), q)
}

/// Load a motion table and every animation it references from a record store. Errors
/// name the record file, the record id and byte offset, and for an animation the table
/// that names it. (Embedders: [`crate::loader::Loader`] does the same with its own
/// error type.)
pub fn load_table(
    store: &mut RecordStore,
    id: u32,
    missing: MissingAnimations,
) -> Result<(Arc<MotionTableData>, AnimMap), ScenarioError> {
    crate::loader::load_parts(store, id, missing).map_err(ScenarioError::from)
}

/// Which tick a runner plays its `tick` steps with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TickPath {
    /// The engine's tick ([`PhysicsObj::update_object_internal`], [`crate::world::tick`]).
    #[default]
    Fast,
    /// The plain twin in [`crate::reference`].
    #[cfg(feature = "reference")]
    Reference,
}

/// The scenario driver: one object (plus, with `setup.objects`, the others).
pub struct AcSim {
    pub obj: PhysicsObj,
    pub(crate) file: String,
    /// The several-object extension's state (None without `setup.objects`).
    pub ext: Option<crate::scenario_world::Extension>,
    /// The server-loop extension's state (None unless a step uses one of its ops).
    pub server: Option<crate::scenario_server::ServerLoop>,
    pub(crate) path: TickPath,
}

impl AcSim {
    /// Build the object as the scenario setup describes from an already loaded table.
    pub fn from_parts(table: Arc<MotionTableData>, anims: AnimMap, setup: &Setup) -> AcSim {
        let origin = setup.origin.unwrap_or([Num(0.0); 3]);
        let frame = frame_of(&origin, setup.orientation.as_ref());
        let weenie = Weenie {
            is_creature: setup.is_creature.unwrap_or(true),
            run_rate: setup.run_rate.map_or(1.0, |n| n.0),
        };
        let cell = setup.cell.map_or(DEFAULT_CELL, |c| c.0);
        let mut obj = PhysicsObj::new(Arc::new(anims), weenie, cell, frame);
        obj.correction = setup.correction.unwrap_or_default();
        // The clock the object is created at (only server-loop traces show it).
        obj.now = setup.clock.map_or(100.0, |c| c.0);
        obj.update_time = obj.now;
        obj.id = setup.id.map_or(0, |i| i.0);
        crate::scenario_server::weenie_answers(
            &mut obj,
            setup.jump_skill,
            setup.burden,
            setup.jump_stamina,
        );
        if setup.objects.is_some() {
            // Before the movement manager exists: its constructor stamps the clock.
            crate::scenario_world::identify_main(&mut obj, setup);
        }
        obj.set_motion_table(Some(table));
        if setup.in_cell.unwrap_or(true) {
            obj.set_in_cell(true);
        }
        let contact = setup.contact.unwrap_or(true);
        let on_walkable = setup.on_walkable.unwrap_or(true);
        obj.apply_contact(contact, on_walkable);
        AcSim {
            obj,
            file: String::new(),
            ext: None,
            server: None,
            path: TickPath::Fast,
        }
    }

    /// What [`Simulation::load`] does once `setup` is read, with the records taken from
    /// `store` instead of the scenario's `asset_dir` / `asset_dat` (the WebAssembly page
    /// has its records in memory): the same checks, the same several-object setup.
    pub fn load_with(
        scenario: &Scenario,
        setup: &Setup,
        store: &mut RecordStore,
    ) -> Result<AcSim, ScenarioError> {
        let (table, anims) = load_table(
            store,
            setup.motion_table.0,
            setup.missing_animations.unwrap_or_default(),
        )?;
        let mut sim = AcSim::from_parts(table, anims, setup);
        sim.file = scenario.file.clone();
        // Finite input can still reach a non-finite state through the records (a
        // framerate or velocity of 3e38); no trace line may show it.
        if let Some((name, max)) = list_overflow(&sim.obj) {
            return Err(scenario.error(
                "setup",
                format!("the initial state would hold more than {max} entries in {name} (from the records); refused"),
            ));
        }
        if let Some((at, v)) = non_finite_in(&sim.snapshot()) {
            return Err(scenario.error(
                "setup",
                format!("the initial state would hold {v} at {at} (from the records); refused"),
            ));
        }
        if let Some(objects) = &setup.objects {
            sim.ext = Some(crate::scenario_world::Extension::load(
                scenario, store, setup, objects, &sim.obj,
            )?);
        }
        if crate::scenario_server::opted_in(scenario) {
            sim.server = Some(crate::scenario_server::ServerLoop::new(setup));
        }
        Ok(sim)
    }

    pub(crate) fn line(&self, step: usize, op: &str, result: &str) -> Line {
        let mut line = snapshot(&self.obj, step, op, result);
        if let Some(ext) = &self.ext {
            line.moveto = Some(ext.moveto_json(&self.obj));
        }
        if let Some(server) = &self.server {
            let clock = self.ext.as_ref().map_or(server.clock, |e| e.clock);
            line.server = Some(server.server_json(&self.obj, clock));
            line.wire = Some(server.wire_json());
        }
        line
    }
}

impl Simulation for AcSim {
    type Step = Step;
    type Line = Line;

    fn load(scenario: &Scenario) -> Result<Self, ScenarioError> {
        let setup: Setup = scenario
            .field("setup")?
            .ok_or_else(|| scenario.error("setup", "missing field"))?;
        // `asset_dat` (a DAT container such as the user's client_portal.dat) takes the
        // place of the record folder when given; scenarios without it read as before.
        let asset_dat: Option<String> = scenario.field("asset_dat")?;
        let mut store = match asset_dat {
            Some(dat) => {
                no_nul(scenario, "asset_dat", &dat)?;
                RecordStore::from_dat(scenario.resolve(&dat))
                    .map_err(|e| scenario.error("asset_dat", e.to_string()))?
            }
            None => {
                let asset_dir: String = scenario.field("asset_dir")?.unwrap_or_else(|| ".".into());
                no_nul(scenario, "asset_dir", &asset_dir)?;
                RecordStore::from_dir(scenario.resolve(&asset_dir))
            }
        };
        // A record file the guarded reader refused (a FIFO, a device, a directory, an
        // over-size file) is reported at the field that named its folder.
        AcSim::load_with(scenario, &setup, &mut store).map_err(|e| match store.unreadable() {
            Some((id, file, why)) if e.file == file => {
                scenario.error("asset_dir", format!("record 0x{id:08x}: {why}"))
            }
            _ => e,
        })
    }

    fn snapshot(&self) -> Line {
        self.line(0, "setup", "None")
    }

    /// A step that runs into a work limit or would put NaN/Infinity in its trace line
    /// is refused and leaves the object as it was before the step.
    fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        if let Some(s) = self.server.as_mut() {
            s.wire.clear();
        }
        if crate::scenario_server::is_server_op(step) {
            return crate::scenario_server::apply_checked(self, index, step, at);
        }
        if self.ext.is_some() {
            return self.apply_extension(index, step, at);
        }
        if crate::scenario_world::object_of(step).is_some() {
            return Err(ScenarioError::new(
                &self.file,
                format!("{at}.object"),
                "the object field needs the several-object extension (setup.objects)",
            ));
        }
        let before = self.obj.clone();
        self.obj.sequence.overrun = None;
        let line = self.apply_unchecked(index, step, at)?;
        let refusal = if let Some(limit) = self.obj.sequence.overrun {
            Some(work_limit_message(limit))
        } else if let Some((name, max)) = list_overflow(&self.obj) {
            Some(format!(
                "the step would grow {name} past {max} entries; refused (tick to let it drain)"
            ))
        } else {
            non_finite_in(&line).map(|(path, v)| {
                format!("the step would put {v} at {path} in its trace line; refused")
            })
        };
        match refusal {
            None => Ok(line),
            Some(message) => {
                self.obj = before;
                Err(ScenarioError::new(&self.file, at, message))
            }
        }
    }
}

/// Refuse a path field holding a NUL byte (no file name can hold one), with the byte
/// escaped in the message.
fn no_nul(scenario: &Scenario, field: &str, path: &str) -> Result<(), ScenarioError> {
    match path.find('\0') {
        Some(at) => Err(scenario.error(
            field,
            format!(
                "\"{}\" holds a NUL byte at byte {at}; no file name can contain one",
                retroanim_core::input::printable(path)
            ),
        )),
        None => Ok(()),
    }
}

/// What a refused step says when one update ran into a work limit (L2, L3).
pub(crate) fn work_limit_message(limit: WorkLimit) -> String {
    match limit {
        WorkLimit::Crossings => format!(
            "the tick would cross more than {} frame boundaries and animation nodes; \
             refused (use a smaller dt or a lower speed)",
            crate::sequence::MAX_CROSSINGS_PER_UPDATE
        ),
        WorkLimit::Hooks => format!(
            "the tick would fire more than {} animation hooks; refused (use a smaller dt)",
            crate::sequence::MAX_HOOKS_PER_UPDATE
        ),
    }
}

/// Longest queue a trace line may show (limit L8): both pending queues and the
/// interpolation queue. ACE lets them grow for as long as no tick drains them (at most
/// one entry per command step), which makes each line longer than the last; real play
/// holds a handful and ACE's own long random scripts reached 93 (the interpolation
/// queue caps itself at 20, plus one far target). A trace-size budget, not a rule of
/// the original: 1024 entries of at most 40 bytes keep each queue's part of a line
/// under 41 KB (docs/limits.md derives it).
pub const MAX_QUEUE_LEN: usize = 1024;
/// Longest animation list a trace line may show (limit L8). Links and cycles are
/// replaced, not accumulated, in real play; the bounded `re_modify` nesting (64) can
/// legitimately build about 70 nodes in one step.
pub const MAX_SEQUENCE_LEN: usize = 128;

/// The first listed queue that is past its limit, with that limit.
pub(crate) fn list_overflow(obj: &PhysicsObj) -> Option<(&'static str, usize)> {
    let lists = [
        ("seq.anims", obj.sequence.nodes.len(), MAX_SEQUENCE_LEN),
        (
            "table.pending",
            obj.table_manager.as_ref().map_or(0, |t| t.pending.len()),
            MAX_QUEUE_LEN,
        ),
        (
            "interp.pending",
            obj.minterp.pending_motions.len(),
            MAX_QUEUE_LEN,
        ),
        (
            "interp_queue",
            crate::position_manager::queue_view(&obj.position_manager).len(),
            MAX_QUEUE_LEN,
        ),
    ];
    lists
        .iter()
        .find(|(_, n, max)| n > max)
        .map(|&(name, _, max)| (name, max))
}

/// The first NaN/±Infinity a trace line would print, as (JSON path, value). A cached
/// velocity is exempt (Q110): ACE divides the last move by the quantum, so a server update
/// with no elapsed time leaves ±Infinity or NaN there, and the trace prints it as the
/// strings `"Infinity"`, `"-Infinity"`, `"NaN"`.
pub fn non_finite_in(line: &Line) -> Option<(String, &'static str)> {
    fn walk(v: &Value, path: &mut String) -> Option<&'static str> {
        match v {
            // `F` prints non-finite values as these strings; no other field of a line
            // is ever one of them.
            Value::String(s) => match s.as_str() {
                "NaN" => Some("NaN"),
                "Infinity" => Some("Infinity"),
                "-Infinity" => Some("-Infinity"),
                _ => None,
            },
            Value::Array(items) => {
                let len = path.len();
                for (i, item) in items.iter().enumerate() {
                    path.push_str(&format!("[{i}]"));
                    if path.ends_with(&format!("cached_velocity[{i}]")) {
                        path.truncate(len);
                        continue;
                    }
                    if let Some(bad) = walk(item, path) {
                        return Some(bad);
                    }
                    path.truncate(len);
                }
                None
            }
            Value::Object(map) => {
                let len = path.len();
                for (k, item) in map {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                    if let Some(bad) = walk(item, path) {
                        return Some(bad);
                    }
                    path.truncate(len);
                }
                None
            }
            _ => None,
        }
    }
    let v = serde_json::to_value(line).ok()?;
    let mut path = String::new();
    walk(&v, &mut path).map(|bad| (path, bad))
}

impl AcSim {
    /// The several-object form of [`Simulation::apply`], under the same limits: a step
    /// that overruns a work limit in any object, grows any object's queues past their
    /// limit or would print NaN/Infinity is refused and leaves every object as it was.
    fn apply_extension(
        &mut self,
        index: usize,
        step: &Step,
        at: &str,
    ) -> Result<Line, ScenarioError> {
        let before = (self.obj.clone(), self.ext.clone());
        self.obj.sequence.overrun = None;
        if let Some(e) = self.ext.as_mut() {
            e.others.iter_mut().for_each(|o| o.sequence.overrun = None);
        }
        let line = crate::scenario_world::apply(self, index, step, at)?;
        let all: Vec<&PhysicsObj> = std::iter::once(&self.obj)
            .chain(self.ext.iter().flat_map(|e| e.others.iter()))
            .collect();
        let refusal = if let Some(limit) = all.iter().find_map(|o| o.sequence.overrun) {
            Some(work_limit_message(limit))
        } else if let Some((name, max)) = all.iter().find_map(|o| list_overflow(o)) {
            Some(format!(
                "the step would grow {name} past {max} entries; refused (tick to let it drain)"
            ))
        } else {
            non_finite_in(&line).map(|(path, v)| {
                format!("the step would put {v} at {path} in its trace line; refused")
            })
        };
        match refusal {
            None => Ok(line),
            Some(message) => {
                (self.obj, self.ext) = before;
                Err(ScenarioError::new(&self.file, at, message))
            }
        }
    }

    fn apply_unchecked(
        &mut self,
        index: usize,
        step: &Step,
        at: &str,
    ) -> Result<Line, ScenarioError> {
        let path = self.path;
        let obj = &mut self.obj;
        obj.hook_log.clear();
        obj.motions_done.clear();
        let (op, result): (&str, String) = match step {
            Step::Tick { dt, .. } => {
                match path {
                    TickPath::Fast => obj.update_object_internal(dt.0),
                    #[cfg(feature = "reference")]
                    TickPath::Reference => {
                        crate::reference::physics_obj::update_object_internal(obj, dt.0)
                    }
                }
                ("tick", "None".into())
            }
            Step::DoMotion(a) => {
                let r = obj.do_motion(a.motion.0, &a.params());
                ("do_motion", r.name().into())
            }
            Step::StopMotion(a) => {
                let r = obj.stop_motion(a.motion.0, &a.params());
                ("stop_motion", r.name().into())
            }
            Step::DoInterpretedMotion(a) => {
                let r =
                    obj.perform_movement(MovementType::InterpretedCommand, a.motion.0, &a.params());
                ("do_interpreted_motion", r.name().into())
            }
            Step::StopInterpretedMotion(a) => {
                let r = obj.perform_movement(
                    MovementType::StopInterpretedCommand,
                    a.motion.0,
                    &a.params(),
                );
                ("stop_interpreted_motion", r.name().into())
            }
            Step::StopCompletely { .. } => {
                let r = obj.stop_completely();
                ("stop_completely", r.name().into())
            }
            Step::MoveToState {
                raw,
                standing_long_jump,
                ..
            } => {
                move_to_state(obj, raw, *standing_long_jump);
                ("move_to_state", "None".into())
            }
            Step::SetState {
                contact,
                on_walkable,
                in_cell,
                ..
            } => {
                if let Some(c) = in_cell {
                    obj.set_in_cell(*c);
                }
                if contact.is_some() || on_walkable.is_some() {
                    let c = contact.unwrap_or(obj.contact);
                    let w = on_walkable.unwrap_or(obj.on_walkable);
                    obj.apply_contact(c, w);
                }
                ("set_state", "None".into())
            }
            Step::InterpolateTo {
                origin,
                orientation,
                keep_heading,
                ..
            } => {
                let f = frame_of(origin, orientation.as_ref());
                obj.interpolate_to(f, *keep_heading);
                ("interpolate_to", "None".into())
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
                obj.player_distance = player_distance.map_or(f32::MAX, |n| n.0);
                let ok = obj.move_or_teleport(f, *timestamp, contact.unwrap_or(true));
                ("move_or_teleport", ok.to_string())
            }
            Step::SetRunRate { rate, .. } => {
                obj.weenie.run_rate = rate.0;
                ("set_run_rate", "None".into())
            }
            // The several-object ops exist only with `setup.objects`.
            other => {
                return Err(ScenarioError::new(
                    &self.file,
                    at,
                    format!(
                        "op {:?} needs the several-object extension (setup.objects)",
                        crate::scenario_world::op_name(other)
                    ),
                ))
            }
        };
        // A lone object's requests to other objects reach nobody.
        self.obj.outbox.clear();
        Ok(self.line(index, op, &result))
    }
}

/// `move_to_state`: the server method (ACE's `OnMoveToState_ServerMethod`).
pub(crate) fn move_to_state(obj: &mut PhysicsObj, raw: &RawArgs, standing_long_jump: bool) {
    let id = |v: &Option<Command>| v.map_or(0, |i| i.0);
    let speed = |v: &Option<Num>| {
        let s = v.map_or(0.0, |n| n.0);
        if s == 0.0 {
            1.0
        } else {
            s
        }
    };
    let r = &mut obj.minterp.raw;
    r.current_hold_key = raw.current_hold_key.unwrap_or_default();
    let style = id(&raw.current_style);
    r.current_style = if style == 0 { NON_COMBAT } else { style };
    let fwd = id(&raw.forward_command);
    r.forward_command = if fwd == 0 { READY } else { fwd };
    r.forward_hold_key = raw.forward_hold_key.unwrap_or_default();
    r.forward_speed = speed(&raw.forward_speed);
    r.sidestep_command = id(&raw.sidestep_command);
    r.sidestep_hold_key = raw.sidestep_hold_key.unwrap_or_default();
    r.sidestep_speed = speed(&raw.sidestep_speed);
    r.turn_command = id(&raw.turn_command);
    r.turn_hold_key = raw.turn_hold_key.unwrap_or_default();
    r.turn_speed = speed(&raw.turn_speed);
    if standing_long_jump {
        r.forward_command = READY;
        r.sidestep_command = 0;
    }
    let allow_jump =
        motion_allows_jump(obj.minterp.interpreted.forward_command) == WeenieError::None;
    obj.mi_apply_raw_movement(true, allow_jump);
}

// ---- trace lines ----

#[derive(Clone, Debug, Serialize)]
pub struct AnimLine {
    pub anim: Id,
    pub low: i32,
    pub high: i32,
    pub framerate: F,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeqLine {
    pub anims: Vec<AnimLine>,
    pub curr: Option<usize>,
    pub first_cyclic: Option<usize>,
    pub frame: F,
    pub velocity: [F; 3],
    pub omega: [F; 3],
}

#[derive(Clone, Debug, Serialize)]
pub struct FrameLine {
    pub origin: [F; 3],
    pub orientation: [F; 4],
}

#[derive(Clone, Debug, Serialize)]
pub struct TableLine {
    pub pending: Vec<(Id, u32)>,
    pub counter: u32,
    pub style: Id,
    pub substate: Id,
    pub substate_mod: F,
    pub modifiers: Vec<(Id, F)>,
    pub actions: Vec<(Id, F)>,
}

type ActionLine = (Id, F, i32, bool);

#[derive(Clone, Debug, Serialize)]
pub struct InterpretedLine {
    pub current_style: Id,
    pub forward_command: Id,
    pub forward_speed: F,
    pub sidestep_command: Id,
    pub sidestep_speed: F,
    pub turn_command: Id,
    pub turn_speed: F,
    pub actions: Vec<ActionLine>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RawLine {
    pub current_style: Id,
    pub forward_command: Id,
    pub forward_speed: F,
    pub forward_hold_key: HoldKey,
    pub sidestep_command: Id,
    pub sidestep_speed: F,
    pub sidestep_hold_key: HoldKey,
    pub turn_command: Id,
    pub turn_speed: F,
    pub turn_hold_key: HoldKey,
    pub current_hold_key: HoldKey,
    pub actions: Vec<ActionLine>,
}

#[derive(Clone, Debug, Serialize)]
pub struct InterpLine {
    pub pending: Vec<Id>,
    pub pending_detail: Vec<(Id, i32, &'static str)>,
    pub interpreted: InterpretedLine,
    pub raw: RawLine,
    pub is_animating: bool,
    pub my_run_rate: F,
    pub standing_long_jump: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct PhysLine {
    pub velocity: [F; 3],
    pub acceleration: [F; 3],
    pub omega: [F; 3],
    pub cached_velocity: [F; 3],
    pub contact: bool,
    pub on_walkable: bool,
    pub in_cell: bool,
    pub active: bool,
}

/// One trace line.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub step: usize,
    pub op: String,
    pub result: String,
    pub seq: SeqLine,
    pub frame: FrameLine,
    pub table: TableLine,
    pub interp: InterpLine,
    pub hooks: Vec<&'static str>,
    pub motions_done: Vec<(Id, bool)>,
    pub interp_queue: Value,
    pub interp_mgr: Value,
    pub phys: PhysLine,
    /// Several-object extension only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moveto: Option<Value>,
    /// Server-loop extension only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire: Option<Value>,
}

fn v3(v: Vec3) -> [F; 3] {
    [F(v.x), F(v.y), F(v.z)]
}

fn actions(list: &std::collections::VecDeque<ActionNode>) -> Vec<ActionLine> {
    list.iter()
        .map(|a| (Id(a.action), F(a.speed), a.stamp, a.autonomous))
        .collect()
}

/// The trace line of an object's current state.
pub fn snapshot(obj: &PhysicsObj, step: usize, op: &str, result: &str) -> Line {
    let s = &obj.sequence;
    let seq = SeqLine {
        anims: s
            .nodes
            .iter()
            .map(|n| AnimLine {
                anim: Id(n.anim.id),
                low: n.low_frame,
                high: n.high_frame,
                framerate: F(n.framerate),
            })
            .collect(),
        curr: s.curr,
        first_cyclic: s.first_cyclic,
        frame: F(s.frame_number),
        velocity: v3(s.velocity),
        omega: v3(s.omega),
    };
    let q = obj.frame.orientation;
    let frame = FrameLine {
        origin: v3(obj.frame.origin),
        orientation: [F(q.w), F(q.x), F(q.y), F(q.z)],
    };
    let table = match &obj.table_manager {
        Some(tm) => TableLine {
            pending: tm
                .pending
                .iter()
                .map(|n| (Id(n.motion), n.num_anims))
                .collect(),
            counter: tm.animation_counter,
            style: Id(tm.state.style),
            substate: Id(tm.state.substate),
            substate_mod: F(tm.state.substate_mod),
            modifiers: tm
                .state
                .modifiers
                .iter()
                .map(|m| (Id(m.id), F(m.speed_mod)))
                .collect(),
            actions: tm
                .state
                .actions
                .iter()
                .map(|m| (Id(m.id), F(m.speed_mod)))
                .collect(),
        },
        None => TableLine {
            pending: Vec::new(),
            counter: 0,
            style: Id(0),
            substate: Id(0),
            substate_mod: F(1.0),
            modifiers: Vec::new(),
            actions: Vec::new(),
        },
    };
    let mi = &obj.minterp;
    let i = &mi.interpreted;
    let r = &mi.raw;
    let interp = InterpLine {
        pending: mi.pending_motions.iter().map(|n| Id(n.motion)).collect(),
        pending_detail: mi
            .pending_motions
            .iter()
            .map(|n| (Id(n.motion), n.context_id, n.jump_error_code.name()))
            .collect(),
        interpreted: InterpretedLine {
            current_style: Id(i.current_style),
            forward_command: Id(i.forward_command),
            forward_speed: F(i.forward_speed),
            sidestep_command: Id(i.sidestep_command),
            sidestep_speed: F(i.sidestep_speed),
            turn_command: Id(i.turn_command),
            turn_speed: F(i.turn_speed),
            actions: actions(&i.actions),
        },
        raw: RawLine {
            current_style: Id(r.current_style),
            forward_command: Id(r.forward_command),
            forward_speed: F(r.forward_speed),
            forward_hold_key: r.forward_hold_key,
            sidestep_command: Id(r.sidestep_command),
            sidestep_speed: F(r.sidestep_speed),
            sidestep_hold_key: r.sidestep_hold_key,
            turn_command: Id(r.turn_command),
            turn_speed: F(r.turn_speed),
            turn_hold_key: r.turn_hold_key,
            current_hold_key: r.current_hold_key,
            actions: actions(&r.actions),
        },
        is_animating: obj.is_animating,
        my_run_rate: F(mi.my_run_rate),
        standing_long_jump: mi.standing_long_jump,
    };
    Line {
        step,
        op: op.to_string(),
        result: result.to_string(),
        seq,
        frame,
        table,
        interp,
        hooks: obj
            .hook_log
            .iter()
            .map(|&t| hooks::hook_name(t).unwrap_or("unknown"))
            .collect(),
        motions_done: obj
            .motions_done
            .iter()
            .map(|&(m, ok)| (Id(m), ok))
            .collect(),
        interp_queue: interp_queue_json(obj),
        interp_mgr: interp_mgr_json(obj),
        phys: PhysLine {
            velocity: v3(obj.velocity),
            acceleration: v3(obj.acceleration),
            omega: v3(obj.omega),
            cached_velocity: v3(obj.cached_velocity),
            contact: obj.contact,
            on_walkable: obj.on_walkable,
            in_cell: obj.in_cell,
            active: obj.active,
        },
        moveto: None,
        server: None,
        wire: None,
    }
}

fn frame_json(origin: [f32; 3], orientation: [f32; 4]) -> Value {
    serde_json::json!({
        "origin": origin.map(F),
        "orientation": orientation.map(F),
    })
}

/// The trace's `interp_queue` (`[]` without an interpolation manager).
pub fn interp_queue_json(obj: &PhysicsObj) -> Value {
    let nodes = crate::position_manager::queue_view(&obj.position_manager);
    Value::Array(
        nodes
            .into_iter()
            .map(|n| {
                let mut v = serde_json::json!({ "type": n.kind });
                if let (Value::Object(m), Value::Object(f)) =
                    (&mut v, frame_json(n.origin, n.orientation))
                {
                    m.extend(f);
                }
                v
            })
            .collect(),
    )
}

/// The trace's `interp_mgr` (null until the first `InterpolateTo`).
pub fn interp_mgr_json(obj: &PhysicsObj) -> Value {
    match crate::position_manager::manager_view(&obj.position_manager) {
        None => Value::Null,
        Some(m) => serde_json::json!({
            "frame_counter": m.frame_counter,
            "node_fail_counter": m.node_fail_counter,
            "original_distance": F(m.original_distance),
            "progress_quantum": F(m.progress_quantum),
            "keep_heading": m.keep_heading,
            "blip_to": m.blip_to.map(|b| frame_json(b.origin, b.orientation)),
        }),
    }
}
