//! Live sessions in the page: one engine object per open view, with the steps played
//! and the trace line each produced (what `retroanim run` writes for the scenario
//! with those steps). The same rules as the server's sessions: a failing step keeps
//! nothing of itself, and the object is rebuilt from the recorded steps.

use crate::engines::Engine;
use crate::error::ApiError;
use retroanim_core::{DynSimulation, Scenario};
use serde_json::{Map, Value};

/// Open sessions kept at once; the least recently used one goes first.
pub const MAX_SESSIONS: usize = 32;
/// Steps one session records before it asks to be reset.
pub const MAX_STEPS: usize = 30_000;
/// Steps one call may carry.
pub const MAX_STEPS_PER_CALL: usize = 1_000;

pub struct Session {
    pub engine: &'static Engine,
    doc: Value,
    scenario: Scenario,
    sim: Box<dyn DynSimulation>,
    lines: Vec<String>,
    last: Value,
    steps: Vec<Value>,
}

impl Session {
    pub fn start(
        engine: &'static Engine,
        doc: Value,
        scenario: Scenario,
    ) -> Result<Session, ApiError> {
        let sim = engine.load(&scenario)?;
        let mut s = Session {
            engine,
            doc,
            scenario,
            sim,
            lines: Vec::new(),
            last: Value::Null,
            steps: Vec::new(),
        };
        let first = s.sim.snapshot_json();
        s.record(first);
        Ok(s)
    }

    pub fn apply(&mut self, steps: &[Value], prefix: &str) -> Result<Vec<Value>, ApiError> {
        if self.steps.len() + steps.len() > MAX_STEPS {
            return Err(ApiError::new(
                409,
                prefix,
                format!(
                    "this session holds {} steps and may hold at most {MAX_STEPS}: export the trace, then reset",
                    self.steps.len()
                ),
            ));
        }
        let mut out = Vec::with_capacity(steps.len());
        for (i, step) in steps.iter().enumerate() {
            let at = format!("steps[{i}]");
            match self.sim.apply_json(self.steps.len() + 1, step, &at) {
                Ok(line) => {
                    self.steps.push(step.clone());
                    self.record(line.clone());
                    out.push(line);
                }
                Err(e) => {
                    self.rebuild();
                    return Err(ApiError::from_scenario(e, prefix));
                }
            }
        }
        Ok(out)
    }

    fn record(&mut self, line: Value) {
        // The trace number format (`3.4028235e38`, no `+`), as `retroanim run` writes it.
        self.lines.push(retroanim_core::trace::line_text(&line));
        self.last = line;
    }

    fn rebuild(&mut self) {
        let Ok(mut sim) = self.engine.load(&self.scenario) else {
            return;
        };
        for (i, step) in self.steps.iter().enumerate() {
            if sim.apply_json(i + 1, step, &format!("steps[{i}]")).is_err() {
                return;
            }
        }
        self.sim = sim;
    }

    pub fn reset(&mut self) -> Result<(), ApiError> {
        self.sim = self.engine.load(&self.scenario)?;
        self.lines.clear();
        self.steps.clear();
        let first = self.sim.snapshot_json();
        self.record(first);
        Ok(())
    }

    pub fn lines(&self, from: usize, to: usize) -> Vec<Value> {
        let to = to.min(self.lines.len());
        self.lines[from.min(to)..to]
            .iter()
            .map(|t| serde_json::from_str(t).unwrap_or(Value::Null))
            .collect()
    }

    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    pub fn step_count(&self) -> usize {
        self.steps.len()
    }

    pub fn last_line(&self) -> &Value {
        &self.last
    }

    pub fn doc(&self) -> &Value {
        &self.doc
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn trace_jsonl(&self) -> String {
        let mut out = String::new();
        for l in &self.lines {
            out.push_str(l);
            out.push('\n');
        }
        out
    }

    pub fn scenario_with_steps(&self) -> Value {
        let mut obj = match &self.doc {
            Value::Object(o) => o.clone(),
            _ => Map::new(),
        };
        obj.insert("steps".into(), Value::Array(self.steps.clone()));
        Value::Object(obj)
    }
}
