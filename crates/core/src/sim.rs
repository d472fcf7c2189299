//! The one shape all three engines share: load, apply, snapshot.
//!
//! An engine implements [`Simulation`] for its scenario driver. `run`, `diff`,
//! `bench` and the browser are then written once: the generic runner parses each
//! step into the engine's typed `Step` (errors carry `steps[i]...` paths), applies
//! it, and hands one trace line per step, after the setup line, to a [`TraceSink`]
//! as soon as it is made ([`stream_scenario`]), or collects them ([`run_scenario`]).

use crate::error::ScenarioError;
use crate::scenario::{from_value_at, Scenario};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// A deterministic simulation driven by scenario steps.
pub trait Simulation: Sized {
    /// One scenario step: an input (request, command, network update) or a clock step.
    type Step: DeserializeOwned;
    /// One trace line.
    type Line: Serialize;

    /// Build the object from the scenario's assets and setup block.
    fn load(scenario: &Scenario) -> Result<Self, ScenarioError>;

    /// Trace line 0: the state after setup.
    fn snapshot(&self) -> Self::Line;

    /// Apply step `index` (1-based) and return its trace line. `at` is the step's JSON
    /// path (`steps[4]`) for errors the step raises at run time.
    fn apply(
        &mut self,
        index: usize,
        step: &Self::Step,
        at: &str,
    ) -> Result<Self::Line, ScenarioError>;
}

/// Where a run's steps come from: a parsed [`Scenario`] or a file streamed step by step
/// ([`crate::scenario_file::ScenarioFile`]).
pub trait StepSource {
    /// Call `f(i, step)` for each step in order (0-based); stop at the first error.
    fn for_each_step(
        &self,
        f: &mut dyn FnMut(usize, &Value) -> Result<(), ScenarioError>,
    ) -> Result<(), ScenarioError>;
}

impl StepSource for Scenario {
    fn for_each_step(
        &self,
        f: &mut dyn FnMut(usize, &Value) -> Result<(), ScenarioError>,
    ) -> Result<(), ScenarioError> {
        for (i, step) in self.steps().iter().enumerate() {
            f(i, step)?;
        }
        Ok(())
    }
}

/// Where a run's trace lines go, one at a time, as they are made.
pub trait TraceSink {
    fn line(&mut self, line: &Value) -> std::io::Result<()>;
}

impl TraceSink for Vec<Value> {
    fn line(&mut self, line: &Value) -> std::io::Result<()> {
        self.push(line.clone());
        Ok(())
    }
}

/// Why a streamed run stopped early.
#[derive(Debug)]
pub enum StreamError {
    /// The scenario is wrong (a located error).
    Scenario(ScenarioError),
    /// The sink refused a line (for a file or a pipe: the write failed).
    Sink(std::io::Error),
}

impl From<ScenarioError> for StreamError {
    fn from(e: ScenarioError) -> Self {
        StreamError::Scenario(e)
    }
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Scenario(e) => e.fmt(f),
            StreamError::Sink(e) => write!(f, "cannot write trace: {e}"),
        }
    }
}

impl std::error::Error for StreamError {}

/// Run a whole scenario: line 0, then one line per step.
pub fn run_scenario<S: Simulation>(scenario: &Scenario) -> Result<Vec<Value>, ScenarioError> {
    let mut lines = Vec::with_capacity(scenario.steps().len() + 1);
    match stream_scenario::<S>(scenario, scenario, &mut lines) {
        Ok(_) => Ok(lines),
        Err(StreamError::Scenario(e)) => Err(e),
        // A Vec takes every line.
        Err(StreamError::Sink(e)) => Err(scenario.error("", e.to_string())),
    }
}

/// Load `S` from `scenario` and play `steps`, handing each trace line to `sink` as soon
/// as it is made. Returns the number of lines written. Lines written before an error
/// stay written.
pub fn stream_scenario<S: Simulation>(
    scenario: &Scenario,
    steps: &dyn StepSource,
    sink: &mut dyn TraceSink,
) -> Result<usize, StreamError> {
    let mut sim = S::load(scenario)?;
    stream_steps(&mut sim, scenario, steps, sink)
}

/// Play `steps` on an already loaded simulation: its snapshot as line 0, then one line
/// per step.
pub fn stream_steps<S: Simulation>(
    sim: &mut S,
    scenario: &Scenario,
    steps: &dyn StepSource,
    sink: &mut dyn TraceSink,
) -> Result<usize, StreamError> {
    let file = &scenario.file;
    sink.line(&to_value(file, "setup", &sim.snapshot())?)
        .map_err(StreamError::Sink)?;
    let mut written = 1;
    // A sink failure is carried out of the step loop, which speaks ScenarioError.
    let mut sink_error = None;
    let played = steps.for_each_step(&mut |i, raw| {
        let at = format!("steps[{i}]");
        let step: S::Step = from_value_at(raw, file, &at)?;
        let line = sim.apply(i + 1, &step, &at)?;
        if let Err(e) = sink.line(&to_value(file, &at, &line)?) {
            sink_error = Some(e);
            return Err(ScenarioError::new(file, at, "the trace sink stopped"));
        }
        written += 1;
        Ok(())
    });
    if let Some(e) = sink_error {
        return Err(StreamError::Sink(e));
    }
    played?;
    Ok(written)
}

fn to_value<T: Serialize>(file: &str, at: &str, line: &T) -> Result<Value, ScenarioError> {
    serde_json::to_value(line)
        .map_err(|e| ScenarioError::new(file, at, format!("cannot serialise trace line: {e}")))
}

/// Object-safe face of a [`Simulation`], for callers that hold engines of several kinds
/// (the browser keeps one live session per view).
pub trait DynSimulation: Send {
    fn snapshot_json(&self) -> Value;
    /// Parse one step given as JSON, apply it, return the trace line as JSON.
    fn apply_json(&mut self, index: usize, step: &Value, at: &str) -> Result<Value, ScenarioError>;
}

impl<S> DynSimulation for S
where
    S: Simulation + Send,
{
    fn snapshot_json(&self) -> Value {
        serde_json::to_value(self.snapshot()).unwrap_or(Value::Null)
    }

    fn apply_json(&mut self, index: usize, step: &Value, at: &str) -> Result<Value, ScenarioError> {
        let parsed: S::Step = from_value_at(step, "<step>", at)?;
        let line = self.apply(index, &parsed, at)?;
        to_value("<step>", at, &line)
    }
}

/// Load a scenario into a boxed simulation of type `S`.
pub fn load_dyn<S>(scenario: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError>
where
    S: Simulation + Send + 'static,
{
    Ok(Box::new(S::load(scenario)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::path::PathBuf;

    /// A counter: the smallest thing that fits the trait.
    struct Counter {
        n: i64,
    }

    #[derive(Deserialize)]
    #[serde(tag = "op", rename_all = "snake_case")]
    enum Step {
        Add { by: i64 },
        Fail,
    }

    #[derive(Serialize)]
    struct Line {
        step: usize,
        n: i64,
    }

    impl Simulation for Counter {
        type Step = Step;
        type Line = Line;
        fn load(s: &Scenario) -> Result<Self, ScenarioError> {
            Ok(Counter {
                n: s.field::<i64>("start")?.unwrap_or(0),
            })
        }
        fn snapshot(&self) -> Line {
            Line { step: 0, n: self.n }
        }
        fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
            match step {
                Step::Add { by } => self.n += by,
                Step::Fail => return Err(ScenarioError::new("", at, "failed on purpose")),
            }
            Ok(Line {
                step: index,
                n: self.n,
            })
        }
    }

    fn scenario(text: &str) -> Scenario {
        Scenario::from_str(text, "c.json", PathBuf::from(".")).unwrap()
    }

    #[test]
    fn runner_writes_setup_line_then_one_line_per_step() {
        let s = scenario(
            r#"{"engine":"counter","start":5,"steps":[{"op":"add","by":2},{"op":"add","by":-10}]}"#,
        );
        let lines = run_scenario::<Counter>(&s).unwrap();
        let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        assert_eq!(
            text,
            vec![
                r#"{"step":0,"n":5}"#,
                r#"{"step":1,"n":7}"#,
                r#"{"step":2,"n":-3}"#
            ]
        );
    }

    #[test]
    fn bad_step_is_reported_with_its_path() {
        let s =
            scenario(r#"{"engine":"counter","steps":[{"op":"add","by":1},{"op":"add","by":"x"}]}"#);
        let e = run_scenario::<Counter>(&s).err().unwrap();
        assert_eq!(e.file, "c.json");
        assert_eq!(e.at, "steps[1].by");
        let s = scenario(r#"{"engine":"counter","steps":[{"op":"fail"}]}"#);
        assert_eq!(run_scenario::<Counter>(&s).err().unwrap().at, "steps[0]");
    }

    #[test]
    fn dyn_face_applies_json_steps() {
        let s = scenario(r#"{"engine":"counter","start":1}"#);
        let mut d = load_dyn::<Counter>(&s).unwrap();
        assert_eq!(d.snapshot_json().to_string(), r#"{"step":0,"n":1}"#);
        let line = d
            .apply_json(1, &serde_json::json!({"op":"add","by":4}), "steps[0]")
            .unwrap();
        assert_eq!(line.to_string(), r#"{"step":1,"n":5}"#);
    }
}
