//! The conformance runner (scenario and trace format of docs/actor.md): [`ActorSim`] implements
//! [`Simulation`]; [`run_scenario`] adds the one-line trace of a rejected actor set.

use crate::arbitration::Outcome;
use crate::error::{FaultKind, LoadFault, RunError};
use crate::load::load_set;
use crate::resources::ActorSet;
use crate::state::{Actor, Anim, Task, Translation};
use crate::timing::Timing;
use crate::world::{ActorRunError, Switches, Why, World};
use retroanim_core::input::{self, FileKind};
use retroanim_core::{Scenario, ScenarioError, Simulation};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `setup` block.
#[derive(Deserialize, Default)]
struct SetupDoc {
    #[serde(default)]
    view: Option<[i64; 2]>,
    #[serde(default)]
    frame_scale: Option<u16>,
    #[serde(default)]
    switches: Option<SwitchesDoc>,
}

#[derive(Deserialize)]
struct SwitchesDoc {
    #[serde(default = "yes")]
    animation: bool,
    #[serde(default = "yes")]
    scripts: bool,
}

fn yes() -> bool {
    true
}

/// Which global switch a `set_switch` step sets.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchName {
    Animation,
    Scripts,
}

/// One scenario step.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Step {
    Update,
    SetFrameScale {
        q8: u16,
    },
    ResetTiming,
    SetView {
        x: i64,
        y: i64,
    },
    Request {
        actor: String,
        group: u8,
        #[serde(default)]
        modifier: u8,
    },
    ForceRequest {
        actor: String,
        group: u8,
        #[serde(default)]
        modifier: u8,
    },
    SetDefault {
        actor: String,
        #[serde(default)]
        group: Option<u8>,
    },
    SetExitFlag {
        actor: String,
    },
    SetSwitch {
        switch: SwitchName,
        value: bool,
    },
    SetFlags {
        actor: String,
        #[serde(default)]
        excluded: Option<bool>,
        #[serde(default)]
        anim_update_excluded: Option<bool>,
        #[serde(default)]
        script_suppressed: Option<bool>,
    },
}

impl Step {
    fn op(&self) -> &'static str {
        match self {
            Step::Update => "update",
            Step::SetFrameScale { .. } => "set_frame_scale",
            Step::ResetTiming => "reset_timing",
            Step::SetView { .. } => "set_view",
            Step::Request { .. } => "request",
            Step::ForceRequest { .. } => "force_request",
            Step::SetDefault { .. } => "set_default",
            Step::SetExitFlag { .. } => "set_exit_flag",
            Step::SetSwitch { .. } => "set_switch",
            Step::SetFlags { .. } => "set_flags",
        }
    }
}

/// One `members` entry (A34, A35).
#[derive(Debug, Clone, Serialize)]
pub struct Member {
    pub actor: String,
    pub why: Why,
    pub updated: bool,
}

/// The script part of an actor line.
#[derive(Debug, Clone, Serialize)]
pub struct ScriptLine {
    pub pc: u16,
    pub task: Option<Task>,
}

/// One `actors` entry.
#[derive(Debug, Clone, Serialize)]
pub struct ActorLine {
    pub id: String,
    pub pos: [i64; 2],
    pub cell: [i64; 2],
    pub anim: Option<Anim>,
    pub translation: Option<Translation>,
    pub script: Option<ScriptLine>,
}

/// A state line; keys in the fixed trace order.
#[derive(Debug, Clone, Serialize)]
pub struct StateLine {
    pub step: usize,
    pub op: &'static str,
    pub result: Option<Outcome>,
    pub ticks: u32,
    pub acc: u64,
    pub warmup: u8,
    pub scale: u32,
    pub view: [i64; 2],
    pub window: [i64; 2],
    pub switches: Switches,
    pub members: Option<Vec<Member>>,
    pub actors: Vec<ActorLine>,
}

/// The `error` object of a rejected set. Extension kinds add where and why.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorBody {
    pub kind: FaultKind,
    pub model: Option<String>,
    pub group: Option<u8>,
    pub command: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The single line of a rejected set.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorLine {
    pub step: usize,
    pub op: &'static str,
    pub error: ErrorBody,
}

/// A trace line.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Line {
    State(StateLine),
    Error(ErrorLine),
}

/// The scenario driver: a loaded world, or the fault that rejected its set.
#[derive(Debug, Clone)]
pub struct ActorSim {
    driver: Driver<World>,
}

impl ActorSim {
    /// The world, when the set loaded.
    pub fn world(&self) -> Option<&World> {
        self.driver.state.as_ref().ok()
    }

    /// The fault that rejected the set, if any.
    pub fn load_fault(&self) -> Option<&LoadFault> {
        self.driver.state.as_ref().err()
    }
}

/// What a trace line reads of a world.
pub(crate) struct Snapshot<'w> {
    pub actors: &'w [Actor],
    pub members: &'w [Why],
    pub timing: Timing,
    pub view: [i64; 2],
    pub window: [i64; 2],
    pub switches: Switches,
}

/// What the scenario driver needs of a world: the fast [`World`] and, with the
/// `reference` feature, the reference's world, so that both play a scenario through
/// the same steps and lines.
pub(crate) trait ScenarioWorld: Sized {
    fn build(
        set: ActorSet,
        view: [i64; 2],
        scale: u32,
        switches: Switches,
    ) -> Result<Self, ActorRunError>;
    fn update(&mut self) -> Result<(), ActorRunError>;
    fn request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError>;
    fn force_request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError>;
    fn reset_timing(&mut self);
    fn clear_translations(&mut self);
    fn snapshot(&self) -> Snapshot<'_>;
    fn actors_mut(&mut self) -> &mut [Actor];
    fn timing_mut(&mut self) -> &mut Timing;
    fn view_mut(&mut self) -> &mut [i64; 2];
    fn switches_mut(&mut self) -> &mut Switches;
}

impl ScenarioWorld for World {
    fn build(
        set: ActorSet,
        view: [i64; 2],
        scale: u32,
        switches: Switches,
    ) -> Result<Self, ActorRunError> {
        World::new(set, view, scale, switches)
    }
    fn update(&mut self) -> Result<(), ActorRunError> {
        World::update(self)
    }
    fn request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        World::request(self, i, g, modifier)
    }
    fn force_request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        World::force_request(self, i, g, modifier)
    }
    fn reset_timing(&mut self) {
        self.timing.reset();
    }
    fn clear_translations(&mut self) {
        World::clear_translations(self);
    }
    fn snapshot(&self) -> Snapshot<'_> {
        Snapshot {
            actors: self.actors(),
            members: &self.members,
            timing: self.timing,
            view: self.view,
            window: self.window(),
            switches: self.switches,
        }
    }
    fn actors_mut(&mut self) -> &mut [Actor] {
        World::actors_mut(self)
    }
    fn timing_mut(&mut self) -> &mut Timing {
        &mut self.timing
    }
    fn view_mut(&mut self) -> &mut [i64; 2] {
        &mut self.view
    }
    fn switches_mut(&mut self) -> &mut Switches {
        &mut self.switches
    }
}

/// A scenario played on one kind of world.
#[derive(Debug, Clone)]
pub(crate) struct Driver<W> {
    file: String,
    pub state: Result<W, LoadFault>,
}

impl<W: ScenarioWorld> Driver<W> {
    pub fn load(scenario: &Scenario) -> Result<Self, ScenarioError> {
        let (assets, _) = read_assets(scenario)?;
        let setup: SetupDoc = scenario.field("setup")?.unwrap_or_default();
        let switches = setup
            .switches
            .map(|s| Switches {
                animation: s.animation,
                scripts: s.scripts,
            })
            .unwrap_or_default();
        let state = match load_set(&assets) {
            Err(fault) => Err(fault),
            Ok(set) => Ok(W::build(
                set,
                setup.view.unwrap_or([0, 0]),
                setup.frame_scale.unwrap_or(256) as u32,
                switches,
            )
            .map_err(|e| scenario.error("setup", e.to_string()))?),
        };
        Ok(Driver {
            file: scenario.file.clone(),
            state,
        })
    }

    pub fn line(&self, step: usize, op: &'static str, result: Option<Outcome>) -> Line {
        match &self.state {
            Ok(world) => Line::State(line_of(world.snapshot(), step, op, result, op == "update")),
            Err(fault) => Line::Error(error_line(fault)),
        }
    }

    pub fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        let file = self.file.clone();
        let world = match &mut self.state {
            Ok(world) => world,
            Err(fault) => {
                return Err(ScenarioError::new(
                    &file,
                    "assets",
                    format!("the actor set was rejected: {fault}"),
                ))
            }
        };
        world.clear_translations();
        let find = |world: &W, id: &str| {
            world
                .snapshot()
                .actors
                .iter()
                .position(|a| a.id == id)
                .ok_or_else(|| {
                    ScenarioError::new(&file, format!("{at}.actor"), format!("no actor '{id}'"))
                })
        };
        let run_err = |e: RunError| ScenarioError::new(&file, at, e.to_string());
        let mut result = None;
        match step {
            Step::Update => world
                .update()
                .map_err(|e| ScenarioError::new(&file, at, e.to_string()))?,
            Step::SetFrameScale { q8 } => world.timing_mut().scale = *q8 as u32,
            Step::ResetTiming => world.reset_timing(),
            Step::SetView { x, y } => *world.view_mut() = [*x, *y],
            Step::Request {
                actor,
                group,
                modifier,
            } => {
                let i = find(world, actor)?;
                result = Some(world.request(i, *group, *modifier).map_err(run_err)?);
            }
            Step::ForceRequest {
                actor,
                group,
                modifier,
            } => {
                let i = find(world, actor)?;
                result = Some(world.force_request(i, *group, *modifier).map_err(run_err)?);
            }
            Step::SetDefault { actor, group } => {
                let i = find(world, actor)?;
                world.actors_mut()[i].state_default = *group;
            }
            Step::SetExitFlag { actor } => {
                let i = find(world, actor)?;
                if let Some(anim) = world.actors_mut()[i].anim.as_mut() {
                    anim.exit = true;
                }
            }
            Step::SetSwitch { switch, value } => match switch {
                SwitchName::Animation => world.switches_mut().animation = *value,
                SwitchName::Scripts => world.switches_mut().scripts = *value,
            },
            Step::SetFlags {
                actor,
                excluded,
                anim_update_excluded,
                script_suppressed,
            } => {
                let i = find(world, actor)?;
                let flags = &mut world.actors_mut()[i].flags;
                if let Some(v) = excluded {
                    flags.excluded = *v;
                }
                if let Some(v) = anim_update_excluded {
                    flags.anim_update_excluded = *v;
                }
                if let Some(v) = script_suppressed {
                    flags.script_suppressed = *v;
                }
            }
        }
        Ok(self.line(index, step.op(), result))
    }
}

/// The trace line of a rejected set.
pub fn error_line(fault: &LoadFault) -> ErrorLine {
    let extension = !fault.kind.is_conformance_kind();
    ErrorLine {
        step: 0,
        op: "setup",
        error: ErrorBody {
            kind: fault.kind,
            model: fault.model.clone(),
            group: fault.group,
            command: fault.command,
            at: extension.then(|| fault.at.clone()),
            message: extension.then(|| fault.message.clone()),
        },
    }
}

/// A state line for the world as it is now.
pub fn state_line(
    world: &World,
    step: usize,
    op: &'static str,
    result: Option<Outcome>,
    with_members: bool,
) -> StateLine {
    line_of(world.snapshot(), step, op, result, with_members)
}

/// A state line for any world's snapshot.
pub(crate) fn line_of(
    world: Snapshot<'_>,
    step: usize,
    op: &'static str,
    result: Option<Outcome>,
    with_members: bool,
) -> StateLine {
    let members = with_members.then(|| {
        world
            .actors
            .iter()
            .zip(world.members)
            .map(|(a, why)| Member {
                actor: a.id.clone(),
                why: *why,
                updated: why.listed() && !a.flags.excluded,
            })
            .collect()
    });
    StateLine {
        step,
        op,
        result,
        ticks: world.timing.ticks,
        acc: world.timing.acc,
        warmup: world.timing.warmup,
        scale: world.timing.scale,
        view: world.view,
        window: world.window,
        switches: world.switches,
        members,
        actors: world
            .actors
            .iter()
            .map(|a| ActorLine {
                id: a.id.clone(),
                pos: a.pos,
                cell: a.cell(),
                anim: a.anim,
                translation: a.translation,
                script: a.script.map(|_| ScriptLine {
                    pc: a.pc,
                    task: a.task,
                }),
            })
            .collect(),
    }
}

/// Read the scenario's actor set: a path relative to the scenario, or inline.
fn read_assets(scenario: &Scenario) -> Result<(Value, String), ScenarioError> {
    match scenario.raw("assets") {
        Some(Value::String(rel)) => {
            let path = scenario.resolve(rel);
            let file = path.display().to_string();
            let text = input::read_text_kind(&path, FileKind::JsonAsset)
                .map_err(|e| scenario.error("assets", e.naming(&path)))?;
            let value = serde_json::from_str(&text).map_err(|e| {
                ScenarioError::new(
                    &file,
                    format!("line {}, column {}", e.line(), e.column()),
                    "malformed JSON",
                )
            })?;
            Ok((value, file))
        }
        Some(v @ Value::Object(_)) => Ok((v.clone(), scenario.file.clone())),
        Some(_) => Err(scenario.error("assets", "expected a path string or an actor set object")),
        None => Err(scenario.error("assets", "missing field")),
    }
}

impl Simulation for ActorSim {
    type Step = Step;
    type Line = Line;

    fn load(scenario: &Scenario) -> Result<Self, ScenarioError> {
        Ok(ActorSim {
            driver: Driver::load(scenario)?,
        })
    }

    fn snapshot(&self) -> Line {
        self.driver.line(0, "setup", None)
    }

    fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        self.driver.apply(index, step, at)
    }
}

/// Play a whole scenario: line 0, then one line per step; a rejected actor set
/// gives its single error line and nothing else, which the generic
/// [`retroanim_core::run_scenario`] cannot express.
pub fn run_scenario(scenario: &Scenario) -> Result<Vec<Value>, ScenarioError> {
    run_as::<ActorSim>(scenario, ActorSim::load_fault)
}

/// [`run_scenario`] with the simulation `S`, whose rejected set `fault` reads.
pub(crate) fn run_as<S: Simulation>(
    scenario: &Scenario,
    fault: fn(&S) -> Option<&LoadFault>,
) -> Result<Vec<Value>, ScenarioError> {
    let sim = S::load(scenario)?;
    if let Some(fault) = fault(&sim) {
        let line = serde_json::to_value(error_line(fault))
            .map_err(|e| scenario.error("setup", format!("cannot serialise trace line: {e}")))?;
        return Ok(vec![line]);
    }
    retroanim_core::run_scenario::<S>(scenario)
}
