//! The mech scenario extension (`"engine": "herc"` with a `setup.mech` block): drives the
//! throttle, controller, gait, torso and blocked-step rules (H21–H23, H27–H35) that the
//! conformance format does not, and writes the conformance line fields plus a `mech` object.
//! The format is documented in docs/herc-formats.md.

use retroanim_core::{Scenario, ScenarioError, Simulation};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::anim_list::AnimList;
use crate::chassis::{Chassis, ChassisRuntime};
use crate::clock::{clock_for, Clock};
use crate::formats::chassis::ChassisRecord;
use crate::formats::dts::DtsFile;
use crate::formats::vol::VolArchive;
use crate::mech::{Blocked, Mech, TorsoAxis, TwistMode};
use crate::object::SimObject;
use crate::scenario::{load_asset, Line, MAX_STEP_MS};
use crate::shape_engine::ShapeEngine;
use crate::shape_instance::ShapeInstance;
use crate::transform::Transform3;

/// Run a scenario whose setup has a `mech` block.
pub fn run(scenario: &Scenario) -> Result<Vec<Value>, ScenarioError> {
    retroanim_core::run_scenario::<MechSim>(scenario)
}

/// Whether a scenario is a mech scenario (its `setup` has a `mech` block).
pub fn is_mech_scenario(scenario: &Scenario) -> bool {
    scenario.raw("setup").and_then(|s| s.get("mech")).is_some()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MechSetup {
    /// A chassis JSON file (`.json`), a binary record (`.dat`, loose or extracted), an
    /// entry name inside `vol`, or an inline record object.
    chassis: Value,
    /// Optional VOL archive (path) that `chassis` and `shape` name entries in.
    #[serde(default)]
    vol: Option<String>,
    /// Optional `.DTS` (path, or an entry in `vol`) used instead of the top-level asset.
    #[serde(default)]
    shape: Option<String>,
    /// Transform id of the eye's node, overriding rec 10's resolution.
    #[serde(default)]
    camera_node: Option<usize>,
    #[serde(default)]
    object: ObjectSetup,
    #[serde(default)]
    throttle: i16,
    #[serde(default)]
    speed: i16,
    #[serde(default)]
    lever: i8,
    #[serde(default)]
    twist: i16,
    #[serde(default)]
    pitch: i16,
    #[serde(default)]
    terrain_height: i32,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ObjectSetup {
    #[serde(default)]
    euler: [i16; 3],
    #[serde(default)]
    position: [i32; 3],
}

fn one() -> u32 {
    1
}

/// One mech scenario step.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum MechStep {
    /// One simulation tick in the H27 order.
    StepMs { ms: i64 },
    /// Hold the throttle axis (and optionally the lever mode) for the following ticks.
    ThrottleAxis {
        axis: i16,
        #[serde(default)]
        lever: Option<i8>,
    },
    /// Call the throttle routine once, now, with its controller dispatch (no animation).
    ThrottleStep {
        #[serde(default)]
        axis: Option<i16>,
        #[serde(default)]
        lever: Option<i8>,
    },
    /// Hold the steering axis.
    Steer { turn: i16 },
    /// Hold the twist stick (leaves centring mode).
    Torso { axis: i16 },
    /// Centring command for the twist axis until the next `torso`.
    TorsoCenter {},
    /// Hold the pitch stick.
    Aim { axis: i16 },
    /// The next `moves` collision tests refuse the move (D9).
    Block {
        #[serde(default = "one")]
        moves: u32,
    },
    /// Immobilise the machine (D9): it goes down (H33).
    Kill {},
    /// Terrain height under the machine and the slope term (D9).
    Terrain {
        #[serde(default)]
        height: i32,
        #[serde(default)]
        slope: i16,
    },
}

impl MechStep {
    fn op(&self) -> &'static str {
        match self {
            MechStep::StepMs { .. } => "step_ms",
            MechStep::ThrottleAxis { .. } => "throttle_axis",
            MechStep::ThrottleStep { .. } => "throttle_step",
            MechStep::Steer { .. } => "steer",
            MechStep::Torso { .. } => "torso",
            MechStep::TorsoCenter {} => "torso_center",
            MechStep::Aim { .. } => "aim",
            MechStep::Block { .. } => "block",
            MechStep::Kill {} => "kill",
            MechStep::Terrain { .. } => "terrain",
        }
    }
}

/// The held inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MechInputs {
    pub steer: i16,
    pub throttle_axis: i16,
    pub lever: i8,
    pub twist_axis: i16,
    pub pitch_axis: i16,
    pub twist_centre: bool,
}

/// The `mech` object of a trace line.
#[derive(Clone, Debug, Serialize)]
pub struct MechLine {
    pub inputs: MechInputs,
    pub throttle: i16,
    pub dirty: bool,
    pub turn: i16,
    pub desired: i16,
    pub speed: i16,
    pub speed_readout: i32,
    pub hud_kmh: i32,
    pub turn_rate: i16,
    pub anim_rate: i16,
    pub gait: Option<crate::gait::GaitRow>,
    pub hold_turn: bool,
    pub twist: TorsoAxis,
    pub pitch: TorsoAxis,
    pub blocked: Blocked,
    pub collapsed: bool,
    pub immobilised: bool,
    pub refuse_moves: u32,
    pub terrain_height: i32,
    pub slope: i16,
    pub eye: Option<[i32; 3]>,
    pub eye_world: Option<[i32; 3]>,
    pub chassis: ChassisRuntime,
    /// The raw record, on the setup line only (null afterwards).
    pub chassis_raw: Option<ChassisRecord>,
}

/// A conformance line plus the `mech` object.
#[derive(Clone, Debug, Serialize)]
pub struct MechTraceLine {
    #[serde(flatten)]
    pub base: Line,
    pub mech: MechLine,
}

/// The mech simulation. `S` is the shape instance's implementation: the fast
/// [`ShapeInstance`], or the reference's plain algorithm (`reference::MechRefSim`).
#[derive(Clone, Debug)]
pub struct MechSim<S = ShapeInstance> {
    file: String,
    list: AnimList,
    pub mech: Mech<S>,
    pub inputs: MechInputs,
}

/// Where a mech scenario's files come from: given a path as the scenario writes it
/// (`setup.mech.vol`, `chassis`, `shape`), the file's bytes and the name its errors
/// give, or a sentence saying why it cannot be read. [`MechSim::load`] reads the file
/// system ([`disk_files`]); a host without one (the WebAssembly page) passes its own.
pub type MechFiles<'a> = &'a dyn Fn(&str) -> Result<(Vec<u8>, String), String>;

/// The file system, relative paths read against the scenario's folder (what
/// `retroanim run` does).
pub fn disk_files(scenario: &Scenario, rel: &str) -> Result<(Vec<u8>, String), String> {
    use retroanim_core::input::{read_kind, FileKind};
    let path = scenario.resolve(rel);
    let kind = if rel.to_ascii_lowercase().ends_with(".json") {
        FileKind::JsonAsset
    } else {
        FileKind::Binary
    };
    match read_kind(&path, kind) {
        Ok(bytes) => Ok((bytes, path.display().to_string())),
        Err(e) => Err(e.naming(&path)),
    }
}

impl MechSim {
    /// Build directly from a model, a chassis and an object (H27 registration).
    pub fn new(
        list: AnimList,
        chassis: Chassis,
        object: SimObject,
        camera_node: Option<usize>,
    ) -> Result<MechSim, crate::mech::MechError> {
        MechSim::new_in(list, chassis, object, camera_node)
    }

    /// [`Simulation::load`] with the scenario's files read through `files` (the same
    /// checks and the same setup).
    pub fn load_with(scenario: &Scenario, files: MechFiles) -> Result<MechSim, ScenarioError> {
        MechSim::load_with_in(scenario, files)
    }
}

impl<S: ShapeEngine> MechSim<S> {
    /// [`MechSim::new`] on the shape implementation `S`.
    pub fn new_in(
        list: AnimList,
        chassis: Chassis,
        object: SimObject,
        camera_node: Option<usize>,
    ) -> Result<MechSim<S>, crate::mech::MechError> {
        let mech = Mech::<S>::new_in(&list, chassis, object, camera_node)?;
        Ok(MechSim {
            file: String::new(),
            list,
            mech,
            inputs: MechInputs::default(),
        })
    }

    pub fn list(&self) -> &AnimList {
        &self.list
    }

    fn line(
        &self,
        step: usize,
        op: &'static str,
        clock: Option<Clock>,
        delta: Option<Transform3>,
    ) -> MechTraceLine {
        let m = &self.mech;
        let shape = &m.shape;
        let eye = m.eye();
        MechTraceLine {
            base: Line {
                step,
                op,
                clock,
                slots: shape.slots(),
                threads: shape.threads().to_vec(),
                locals: shape.locals(&self.list),
                world: shape.world().to_vec(),
                root_read: delta.unwrap_or_else(|| shape.read_root()),
                delta,
                object: m.object,
            },
            mech: MechLine {
                inputs: self.inputs,
                throttle: m.throttle.throttle,
                dirty: m.throttle.dirty,
                turn: m.last_dispatch.turn,
                desired: m.last_dispatch.desired,
                speed: m.speed,
                speed_readout: m.chassis.speed_readout(m.speed),
                hud_kmh: m.chassis.hud_kmh(m.speed),
                turn_rate: m.turn_rate,
                anim_rate: m.anim_rate,
                gait: m.last_gait,
                hold_turn: m.hold_turn,
                twist: m.twist,
                pitch: m.pitch,
                blocked: m.blocked,
                collapsed: m.collapsed,
                immobilised: m.env.immobilised,
                refuse_moves: m.env.refuse_moves,
                terrain_height: m.env.terrain_height,
                slope: m.env.slope,
                eye: eye.map(|e| e.0),
                eye_world: eye.map(|e| e.1),
                chassis: m.chassis.runtime,
                chassis_raw: (step == 0).then(|| m.chassis.raw.clone()),
            },
        }
    }

    fn evaluate_now(&mut self) {
        let read = self.mech.shape.read_root();
        self.mech.shape.evaluate(&self.list, &read);
    }

    /// [`MechSim::load_with`] on the shape implementation `S`.
    pub fn load_with_in(
        scenario: &Scenario,
        files: MechFiles,
    ) -> Result<MechSim<S>, ScenarioError> {
        let setup_v = scenario
            .raw("setup")
            .ok_or_else(|| scenario.error("setup", "missing field"))?;
        if setup_v.get("threads").is_some() {
            return Err(scenario.error(
                "setup.threads",
                "a mech scenario registers its threads from the chassis (H27); remove setup.threads",
            ));
        }
        let mech_v = setup_v
            .get("mech")
            .ok_or_else(|| scenario.error("setup.mech", "missing field"))?;
        let setup: MechSetup =
            retroanim_core::scenario::from_value_at(mech_v, &scenario.file, "setup.mech")?;
        if !(-1..=1).contains(&setup.lever) {
            return Err(scenario.error("setup.mech.lever", "the lever mode is -1, 0 or 1"));
        }
        let vol = match &setup.vol {
            Some(p) => {
                let (bytes, file) = files(p).map_err(|m| scenario.error("setup.mech.vol", m))?;
                Some((VolArchive::read(&bytes, &file)?, file))
            }
            None => None,
        };
        let raw = Self::load_chassis(scenario, &setup, vol.as_ref(), files)?;
        let (list, dts) = match &setup.shape {
            Some(name) => {
                let (bytes, file) = match &vol {
                    Some((archive, vol_file)) => {
                        let e = archive.find(name).ok_or_else(|| {
                            scenario.error(
                                "setup.mech.shape",
                                format!("{vol_file} has no entry {name:?}"),
                            )
                        })?;
                        (e.content.clone(), format!("{vol_file}:{name}"))
                    }
                    None => files(name).map_err(|m| scenario.error("setup.mech.shape", m))?,
                };
                let (dts, list) = DtsFile::load_anim_list(&bytes, &file)?;
                (list, Some(dts))
            }
            None => (load_asset(scenario)?, None),
        };
        let nodes = list.nodes().len();
        let camera_node = match setup.camera_node {
            Some(n) if n < nodes => Some(n),
            Some(n) => {
                return Err(scenario.error(
                    "setup.mech.camera_node",
                    format!("node {n} does not exist ({nodes} nodes)"),
                ))
            }
            // A JSON asset carries no part tree: its part ids are its transform ids.
            None => match &dts {
                Some(d) => d
                    .part_transform_id(raw.camera_part)
                    .and_then(|t| usize::try_from(t).ok())
                    .filter(|&t| t < nodes),
                None => usize::try_from(raw.camera_part).ok().filter(|&t| t < nodes),
            },
        };
        let object = SimObject {
            euler: setup.object.euler,
            position: setup.object.position,
        };
        let mut sim = MechSim::<S>::new_in(list, Chassis::new(raw), object, camera_node)
            .map_err(|e| scenario.error("setup.mech.chassis", e.to_string()))?;
        sim.file = scenario.file.clone();
        sim.mech.throttle.throttle = setup.throttle;
        sim.mech.speed = setup.speed;
        sim.mech.twist.angle = setup.twist;
        sim.mech.pitch.angle = setup.pitch;
        sim.mech.env.terrain_height = setup.terrain_height;
        sim.inputs.lever = setup.lever;
        Ok(sim)
    }

    fn load_chassis(
        scenario: &Scenario,
        setup: &MechSetup,
        vol: Option<&(VolArchive, String)>,
        files: MechFiles,
    ) -> Result<ChassisRecord, ScenarioError> {
        let at = "setup.mech.chassis";
        match &setup.chassis {
            Value::Object(_) => {
                retroanim_core::scenario::from_value_at(&setup.chassis, &scenario.file, at)
            }
            Value::String(name) => {
                if let Some((archive, vol_file)) = vol {
                    let e = archive.find(name).ok_or_else(|| {
                        scenario.error(at, format!("{vol_file} has no entry {name:?}"))
                    })?;
                    return ChassisRecord::read(&e.content, &format!("{vol_file}:{name}"));
                }
                let (bytes, file) = files(name).map_err(|m| scenario.error(at, m))?;
                if name.to_ascii_lowercase().ends_with(".json") {
                    let text = String::from_utf8(bytes).map_err(|e| {
                        scenario.error(
                            at,
                            format!(
                                "cannot read {file}: not UTF-8 text (byte {})",
                                e.utf8_error().valid_up_to()
                            ),
                        )
                    })?;
                    ChassisRecord::from_json_str(&text, &file)
                } else {
                    ChassisRecord::read(&bytes, &file)
                }
            }
            _ => Err(scenario.error(at, "expected a path or a chassis object")),
        }
    }
}

impl<S: ShapeEngine> Simulation for MechSim<S> {
    type Step = MechStep;
    type Line = MechTraceLine;

    fn load(scenario: &Scenario) -> Result<MechSim<S>, ScenarioError> {
        MechSim::<S>::load_with_in(scenario, &|rel| disk_files(scenario, rel))
    }

    fn snapshot(&self) -> MechTraceLine {
        self.line(0, "setup", None, None)
    }

    fn apply(
        &mut self,
        index: usize,
        step: &MechStep,
        at: &str,
    ) -> Result<MechTraceLine, ScenarioError> {
        let check_lever = |l: Option<i8>| -> Result<(), ScenarioError> {
            match l {
                Some(v) if !(-1..=1).contains(&v) => Err(ScenarioError::new(
                    &self.file,
                    format!("{at}.lever"),
                    "the lever mode is -1, 0 or 1",
                )),
                _ => Ok(()),
            }
        };
        let list = &self.list;
        match *step {
            MechStep::StepMs { ms } => {
                if !(0..=MAX_STEP_MS).contains(&ms) {
                    return Err(ScenarioError::new(
                        &self.file,
                        format!("{at}.ms"),
                        format!("{ms} is outside 0..={MAX_STEP_MS}"),
                    ));
                }
                let clock = clock_for(ms);
                let i = self.inputs;
                let mode = if i.twist_centre {
                    TwistMode::Centre
                } else {
                    TwistMode::Stick
                };
                let read = self.mech.tick(
                    list,
                    &clock,
                    i.steer,
                    i.throttle_axis,
                    i.lever,
                    i.twist_axis,
                    mode,
                    i.pitch_axis,
                );
                return Ok(self.line(index, step.op(), Some(clock), Some(read)));
            }
            MechStep::ThrottleAxis { axis, lever } => {
                check_lever(lever)?;
                self.inputs.throttle_axis = axis;
                if let Some(l) = lever {
                    self.inputs.lever = l;
                }
            }
            MechStep::ThrottleStep { axis, lever } => {
                check_lever(lever)?;
                let axis = axis.unwrap_or(self.inputs.throttle_axis);
                let lever = lever.unwrap_or(self.inputs.lever);
                self.mech
                    .apply_throttle(list, self.inputs.steer, axis, lever);
            }
            MechStep::Steer { turn } => self.inputs.steer = turn,
            MechStep::Torso { axis } => {
                self.inputs.twist_axis = axis;
                self.inputs.twist_centre = false;
            }
            MechStep::TorsoCenter {} => self.inputs.twist_centre = true,
            MechStep::Aim { axis } => self.inputs.pitch_axis = axis,
            MechStep::Block { moves } => {
                self.mech.env.refuse_moves = self.mech.env.refuse_moves.saturating_add(moves)
            }
            MechStep::Kill {} => self.mech.env.immobilised = true,
            MechStep::Terrain { height, slope } => {
                self.mech.env.terrain_height = height;
                self.mech.env.slope = slope;
            }
        }
        self.evaluate_now();
        Ok(self.line(index, step.op(), None, None))
    }
}
