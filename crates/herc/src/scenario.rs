//! The conformance scenario runner (scenario and trace format of docs/herc.md): [`HercSim`] drives one
//! shape instance from scenario steps and writes one trace line per step.

use crate::anim_list::{AnimList, Keyframe};
use crate::clock::{clock_for, Clock};
use crate::object::SimObject;
use crate::shape_engine::ShapeEngine;
use crate::shape_instance::{ShapeError, ShapeInstance};
use crate::thread::{AnimationThread, STOP_ON_ARRIVAL};
use crate::transform::Transform3;
use retroanim_core::input::{self, FileKind};
use retroanim_core::{Scenario, ScenarioError, Simulation};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest `step_ms` the format allows.
pub const MAX_STEP_MS: i64 = 1_000_000;

/// Run a herc scenario. A scenario whose setup has a `mech` block is the three-thread HERC
/// extension ([`crate::mech_scenario`]); every other one is the conformance runner ([`HercSim`]).
pub fn run(scenario: &Scenario) -> Result<Vec<Value>, ScenarioError> {
    if crate::mech_scenario::is_mech_scenario(scenario) {
        return crate::mech_scenario::run(scenario);
    }
    retroanim_core::run_scenario::<HercSim>(scenario)
}

/// Load the scenario's `asset`: a path relative to the scenario file, or an inline object.
pub fn load_asset(scenario: &Scenario) -> Result<AnimList, ScenarioError> {
    match scenario.raw("asset") {
        Some(Value::String(rel)) => {
            let path = scenario.resolve(rel);
            let text = input::read_text_kind(&path, FileKind::JsonAsset)
                .map_err(|e| scenario.error("asset", e.naming(&path)))?;
            AnimList::from_json_text(&text, &path.display().to_string())
        }
        Some(v @ Value::Object(_)) => AnimList::from_json_value(v, &scenario.file, "asset"),
        Some(_) => Err(scenario.error("asset", "expected a path or an asset object")),
        None => Err(scenario.error("asset", "missing field")),
    }
}

#[derive(Deserialize)]
struct Setup {
    threads: Vec<ThreadSetup>,
    #[serde(default)]
    object: ObjectSetup,
}

#[derive(Deserialize)]
struct ThreadSetup {
    seq: i16,
    #[serde(default)]
    rate: i16,
}

#[derive(Deserialize, Default)]
struct ObjectSetup {
    #[serde(default)]
    euler: [i16; 3],
    #[serde(default)]
    position: [i32; 3],
}

fn minus_one() -> i16 {
    -1
}

/// One scenario step.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Step {
    StepMs {
        ms: i64,
    },
    Advance {
        thread: usize,
        delta: i16,
    },
    SetSequence {
        thread: usize,
        seq: i16,
        #[serde(default)]
        frame: i16,
        #[serde(default)]
        acc: i16,
    },
    Seek {
        thread: usize,
        seq: i16,
        pos: i32,
    },
    Request {
        thread: usize,
        seq: i16,
        #[serde(default = "minus_one")]
        frame: i16,
        #[serde(default)]
        stop_on_arrival: bool,
    },
    SetRate {
        thread: usize,
        rate: i16,
    },
    DropRequest {
        thread: usize,
    },
    AddThread {
        seq: i16,
    },
    WriteRoot {
        thread: usize,
        euler: [i16; 3],
        t: [i32; 3],
    },
}

impl Step {
    fn op(&self) -> &'static str {
        match self {
            Step::StepMs { .. } => "step_ms",
            Step::Advance { .. } => "advance",
            Step::SetSequence { .. } => "set_sequence",
            Step::Seek { .. } => "seek",
            Step::Request { .. } => "request",
            Step::SetRate { .. } => "set_rate",
            Step::DropRequest { .. } => "drop_request",
            Step::AddThread { .. } => "add_thread",
            Step::WriteRoot { .. } => "write_root",
        }
    }
}

/// One trace line, fields in trace order.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Line {
    pub step: usize,
    pub op: &'static str,
    pub clock: Option<Clock>,
    pub slots: Vec<usize>,
    /// Each thread record serialises as the trace's thread object.
    pub threads: Vec<AnimationThread>,
    pub locals: Vec<Keyframe>,
    pub world: Vec<Transform3>,
    pub root_read: Transform3,
    pub delta: Option<Transform3>,
    pub object: SimObject,
}

/// The conformance simulation: one asset, one shape instance, one machine object. `S` is
/// the shape instance's implementation: the fast [`ShapeInstance`], or the reference's plain
/// algorithm (`reference::HercRefSim`).
#[derive(Clone, Debug)]
pub struct HercSim<S = ShapeInstance> {
    /// The scenario file, for errors raised by steps.
    file: String,
    list: AnimList,
    shape: S,
    object: SimObject,
}

impl HercSim {
    /// Build from a loaded asset and the setup values.
    pub fn new(
        list: AnimList,
        threads: &[(i16, i16)],
        object: SimObject,
    ) -> Result<HercSim, ShapeError> {
        HercSim::new_in(list, threads, object)
    }
}

impl<S: ShapeEngine> HercSim<S> {
    /// [`HercSim::new`] on the shape implementation `S`.
    pub fn new_in(
        list: AnimList,
        threads: &[(i16, i16)],
        object: SimObject,
    ) -> Result<HercSim<S>, ShapeError> {
        let mut shape = S::new(&list);
        for &(seq, rate) in threads {
            let id = shape.add_thread(&list, seq)?;
            if let Some(th) = shape.thread_mut(id) {
                th.set_rate(&list, rate);
            }
        }
        let mut sim = HercSim::<S> {
            file: String::new(),
            list,
            shape,
            object,
        };
        sim.evaluate_now();
        Ok(sim)
    }

    pub fn list(&self) -> &AnimList {
        &self.list
    }

    pub fn shape(&self) -> &S {
        &self.shape
    }

    pub fn object(&self) -> &SimObject {
        &self.object
    }

    /// Re-evaluate the pose with `root_read` = the first slot's read now (lines of ops other than `step_ms`).
    fn evaluate_now(&mut self) {
        let read = self.shape.read_root();
        self.shape.evaluate(&self.list, &read);
    }

    fn line(
        &self,
        step: usize,
        op: &'static str,
        clock: Option<Clock>,
        delta: Option<Transform3>,
    ) -> Line {
        Line {
            step,
            op,
            clock,
            slots: self.shape.slots(),
            threads: self.shape.threads().to_vec(),
            locals: self.shape.locals(&self.list),
            world: self.shape.world().to_vec(),
            root_read: delta.unwrap_or_else(|| self.shape.read_root()),
            delta,
            object: self.object,
        }
    }

    /// One `step_ms` (H16, H28): clock, seed, advance all, sort, read, move the object, seed.
    pub fn step_ms(&mut self, ms: i64) -> (Clock, Transform3) {
        let clock = clock_for(ms);
        let read = self.shape.tick(&self.list, clock.anim_delta);
        S::integrate(&mut self.object, &read);
        self.shape.evaluate(&self.list, &read);
        (clock, read)
    }

    fn check_thread(&self, thread: usize, at: &str) -> Result<(), ScenarioError> {
        if thread >= self.shape.threads().len() {
            return Err(ScenarioError::new(
                &self.file,
                format!("{at}.thread"),
                format!(
                    "thread {thread} does not exist ({} registered)",
                    self.shape.threads().len()
                ),
            ));
        }
        Ok(())
    }

    fn check_seq(&self, seq: i16, at: &str) -> Result<(), ScenarioError> {
        if self.list.sequence(seq).is_none() {
            return Err(ScenarioError::new(
                &self.file,
                format!("{at}.seq"),
                format!(
                    "sequence {seq} does not exist ({} sequences)",
                    self.list.sequences().len()
                ),
            ));
        }
        Ok(())
    }

    /// Apply one step and return its trace line. Errors leave the state unchanged.
    pub fn apply_step(
        &mut self,
        index: usize,
        step: &Step,
        at: &str,
    ) -> Result<Line, ScenarioError> {
        let list = &self.list;
        match *step {
            Step::StepMs { ms } => {
                if !(0..=MAX_STEP_MS).contains(&ms) {
                    return Err(ScenarioError::new(
                        &self.file,
                        format!("{at}.ms"),
                        format!("{ms} is outside 0..={MAX_STEP_MS}"),
                    ));
                }
                let (clock, read) = self.step_ms(ms);
                return Ok(self.line(index, step.op(), Some(clock), Some(read)));
            }
            Step::Advance { thread, delta } => {
                self.check_thread(thread, at)?;
                self.shape.advance(list, thread, delta);
            }
            Step::SetSequence {
                thread,
                seq,
                frame,
                acc,
            } => {
                self.check_thread(thread, at)?;
                self.check_seq(seq, at)?;
                let frames = list.sequence(seq).map_or(0, |s| s.frames.len());
                if frame < 0 || frame as usize >= frames {
                    return Err(ScenarioError::new(
                        &self.file,
                        format!("{at}.frame"),
                        format!("frame {frame} does not exist in sequence {seq} ({frames} frames)"),
                    ));
                }
                if let Some(th) = self.shape.thread_mut(thread) {
                    th.set_sequence(list, seq, frame, acc);
                }
            }
            Step::Seek { thread, seq, pos } => {
                self.check_thread(thread, at)?;
                self.check_seq(seq, at)?;
                if !(0..=16384).contains(&pos) {
                    return Err(ScenarioError::new(
                        &self.file,
                        format!("{at}.pos"),
                        format!("{pos} is outside 0..=16384"),
                    ));
                }
                self.shape.seek(list, thread, seq, pos as i16);
            }
            Step::Request {
                thread,
                seq,
                frame,
                stop_on_arrival,
            } => {
                self.check_thread(thread, at)?;
                let flags = if stop_on_arrival { STOP_ON_ARRIVAL } else { 0 };
                if let Some(th) = self.shape.thread_mut(thread) {
                    th.request(list, seq, frame, flags);
                }
            }
            Step::SetRate { thread, rate } => {
                self.check_thread(thread, at)?;
                if let Some(th) = self.shape.thread_mut(thread) {
                    th.set_rate(list, rate);
                }
            }
            Step::DropRequest { thread } => {
                self.check_thread(thread, at)?;
                if let Some(th) = self.shape.thread_mut(thread) {
                    th.drop_request();
                }
            }
            Step::AddThread { seq } => {
                self.check_seq(seq, at)?;
                self.shape
                    .add_thread(list, seq)
                    .map_err(|e| ScenarioError::new(&self.file, at, e.to_string()))?;
            }
            Step::WriteRoot { thread, euler, t } => {
                self.check_thread(thread, at)?;
                let value = S::from_euler(euler[0], euler[1], euler[2]).with_translation(t);
                self.shape.write_root(thread, &value);
            }
        }
        self.evaluate_now();
        Ok(self.line(index, step.op(), None, None))
    }
}

impl<S: ShapeEngine> Simulation for HercSim<S> {
    type Step = Step;
    type Line = Line;

    fn load(scenario: &Scenario) -> Result<HercSim<S>, ScenarioError> {
        if crate::mech_scenario::is_mech_scenario(scenario) {
            return Err(scenario.error(
                "setup.mech",
                "a mech scenario runs on mech_scenario::MechSim, not the conformance runner (retroanim_herc::run picks it)",
            ));
        }
        let list = load_asset(scenario)?;
        let setup: Setup = scenario
            .field("setup")?
            .ok_or_else(|| scenario.error("setup", "missing field"))?;
        if setup.threads.is_empty() {
            return Err(scenario.error("setup.threads", "at least one thread is required"));
        }
        let mut threads = Vec::with_capacity(setup.threads.len());
        for (i, t) in setup.threads.iter().enumerate() {
            if list.sequence(t.seq).is_none() {
                return Err(scenario.error(
                    format!("setup.threads[{i}].seq"),
                    format!(
                        "sequence {} does not exist ({} sequences)",
                        t.seq,
                        list.sequences().len()
                    ),
                ));
            }
            threads.push((t.seq, t.rate));
        }
        let object = SimObject {
            euler: setup.object.euler,
            position: setup.object.position,
        };
        let mut sim = HercSim::<S>::new_in(list, &threads, object)
            .map_err(|e| scenario.error("setup.threads", e.to_string()))?;
        sim.file = scenario.file.clone();
        Ok(sim)
    }

    fn snapshot(&self) -> Line {
        self.line(0, "setup", None, None)
    }

    fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        self.apply_step(index, step, at)
    }
}
