//! A live session: one engine object per open view, driven step by step.
//!
//! A session keeps the scenario it was built from and every step applied since, with
//! the trace line each produced, so that the page can export exactly what
//! `retroanim run` writes for the same scenario and steps.

use crate::error::{ApiError, SCENARIO_LABEL};
use retroanim_core::{DynSimulation, Scenario, ScenarioError};
use serde_json::{Map, Value};

/// Open sessions kept at once; the least recently used one goes first.
pub const MAX_SESSIONS: usize = 32;
/// Steps one session records before it asks to be reset (bounds memory: a HERC
/// trace line is a few kilobytes).
pub const MAX_STEPS: usize = 30_000;
/// Steps one request may carry.
pub const MAX_STEPS_PER_CALL: usize = 1_000;
/// Trace and step text (compact JSON) one session may hold, on both sites: 64 MiB. It is
/// sized so that the step limit can be reached: a step of the sample HERC with its line
/// takes about 2,020 bytes, so [`MAX_STEPS`] of them take about 60.6 MB, under the
/// 67,108,864 bytes here. The step whose line crosses it is kept; the next is refused.
pub const MAX_TRACE_BYTES: usize = 64 << 20;
// The step limit stays reachable: 30,000 steps of the sample HERC's 2,020 bytes fit.
const _: () = assert!(MAX_STEPS * 2_020 < MAX_TRACE_BYTES);
/// Largest request body (an uploaded scenario with an inline asset fits), on both sites.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// A byte count in plain words: `64 MiB (67108864 bytes)`, `1 MiB (1048576 bytes)`,
/// `10000 bytes`.
pub fn plain_bytes(n: usize) -> String {
    const MIB: usize = 1 << 20;
    const KIB: usize = 1 << 10;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB ({n} bytes)", n / MIB)
    } else if n >= KIB && n.is_multiple_of(KIB) {
        format!("{} KiB ({n} bytes)", n / KIB)
    } else {
        format!("{n} bytes")
    }
}

/// The refusal of a request body over [`MAX_BODY_BYTES`] (or a shorter test limit),
/// worded the same by the server and the page.
pub fn body_too_large(limit: usize) -> String {
    format!(
        "request body too large: the limit is {}",
        plain_bytes(limit)
    )
}

/// The refusal of a step once a session holds [`MAX_TRACE_BYTES`] of trace text.
pub fn trace_full() -> String {
    format!(
        "this session's trace is full: it holds {} of trace text, the most one session may hold; export the trace, then reset",
        plain_bytes(MAX_TRACE_BYTES)
    )
}

/// The answer of `GET /sessions/{id}/update_motion` on both sites: the last message the
/// engine wrote ([`Session::last_wire`]) as hex with its step and byte count, or nulls.
pub fn update_motion_json(engine: &str, wire: Option<(usize, String)>) -> Value {
    match wire {
        Some((step, hex)) => serde_json::json!({
            "engine": engine, "step": step, "bytes": hex.len() / 2, "hex": hex,
        }),
        None => serde_json::json!({ "engine": engine, "step": null, "hex": null, "bytes": 0 }),
    }
}

/// Builds a live simulation from a scenario whose assets the engine can reach.
pub type LoadFn = fn(&Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError>;

/// What a transport asks of each step [`Session::apply`] plays: whether it may run
/// (the server's time and output budget), and what to do with the line it made.
pub trait Pace {
    /// Why the next step may not run, if it may not.
    fn refusal(&mut self) -> Option<String> {
        None
    }

    /// A step ran and was kept: its line, and the bytes of step and line text the
    /// session now holds more.
    fn ran(&mut self, _line: &Value, _bytes: usize) {}
}

/// Steps without limits, whose lines nobody collects.
impl Pace for () {}

/// Collects the lines of the steps played.
impl Pace for Vec<Value> {
    fn ran(&mut self, line: &Value, _bytes: usize) {
        self.push(line.clone());
    }
}

/// One live engine object and its history. `E` is the transport's description of the
/// engine, kept for its answers.
pub struct Session<E: 'static> {
    pub engine: &'static E,
    load: LoadFn,
    doc: Value,
    scenario: Scenario,
    sim: Box<dyn DynSimulation>,
    /// Trace lines as compact JSON text (a parsed `Value` costs several times more).
    lines: Vec<String>,
    /// The last line, parsed, for the answers that show it.
    last: Value,
    /// Bytes of trace and step text held.
    bytes: usize,
    steps: Vec<Value>,
    /// Bumped by every reset, so that a download streaming the lines notices that
    /// they were replaced under it.
    generation: u64,
    /// Set when a step of a new kind made the session replay its steps and the lines
    /// changed; cleared by [`Session::take_rebuilt`].
    rebuilt: bool,
    /// The ops of the scenario as given: what a reset goes back to knowing.
    base_ops: std::collections::BTreeSet<String>,
}

/// The op of a step, if it names one.
fn op_of(step: &Value) -> Option<&str> {
    step.get("op").and_then(Value::as_str)
}

impl<E> Session<E> {
    /// Load the engine object with `load` from `scenario` (the document `doc` as the
    /// user gave it, without steps) and record its first line.
    pub fn start(
        engine: &'static E,
        load: LoadFn,
        doc: Value,
        mut scenario: Scenario,
    ) -> Result<Session<E>, ApiError> {
        // The engine is told which ops the session has played (an engine may choose at
        // load time what its lines carry: `retroanim run` sees every step of the file).
        if scenario.step_ops.is_none() {
            let ops = scenario
                .steps()
                .iter()
                .filter_map(op_of)
                .map(str::to_string)
                .collect();
            scenario.step_ops = Some(ops);
        }
        let base_ops = scenario.step_ops.clone().unwrap_or_default();
        let sim = load(&scenario).map_err(|e| ApiError::from_scenario(e, SCENARIO_LABEL))?;
        let mut s = Session {
            engine,
            load,
            doc,
            scenario,
            sim,
            lines: Vec::new(),
            last: Value::Null,
            bytes: 0,
            steps: Vec::new(),
            generation: 0,
            rebuilt: false,
            base_ops,
        };
        let first = s.sim.snapshot_json();
        s.record(first);
        Ok(s)
    }

    /// Apply steps in order. On the first failing step nothing of that step is kept:
    /// the object is rebuilt from the recorded steps (an engine may have changed state
    /// before it found the fault), and the error names `steps[i]` of the given list,
    /// under `prefix`. A step `pace` refuses is refused the same way, without running.
    /// Returns how many steps were applied.
    pub fn apply(
        &mut self,
        steps: &[Value],
        prefix: &str,
        pace: &mut dyn Pace,
    ) -> Result<usize, ApiError> {
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
        self.learn_ops(steps, prefix)?;
        for (i, step) in steps.iter().enumerate() {
            let at = format!("steps[{i}]");
            if self.bytes >= MAX_TRACE_BYTES {
                return Err(ApiError::unprocessable(
                    retroanim_core::scenario::join_path(prefix, &at),
                    trace_full(),
                ));
            }
            if let Some(why) = pace.refusal() {
                return Err(ApiError::unprocessable(
                    retroanim_core::scenario::join_path(prefix, &at),
                    why,
                ));
            }
            match self.sim.apply_json(self.steps.len() + 1, step, &at) {
                Ok(line) => {
                    let before = self.bytes;
                    self.bytes += step.to_string().len();
                    self.steps.push(step.clone());
                    self.record(line);
                    pace.ran(&self.last, self.bytes - before);
                }
                Err(e) => {
                    if !self.forget_unplayed_ops() {
                        self.rebuild();
                    }
                    return Err(ApiError::from_scenario(e, prefix));
                }
            }
        }
        Ok(steps.len())
    }

    /// Steps with ops the session has not played yet: the engine is loaded again
    /// knowing them, as `retroanim run` would load the exported scenario. When its setup
    /// line changes (the AC server loop adds keys to every line), the steps played so far
    /// are replayed so every line is what `retroanim run` writes; otherwise the object
    /// is kept as it is.
    fn learn_ops(&mut self, steps: &[Value], prefix: &str) -> Result<(), ApiError> {
        let new: Vec<String> = steps
            .iter()
            .filter_map(op_of)
            .filter(|op| !self.scenario.uses_op(op))
            .map(str::to_string)
            .collect();
        if new.is_empty() {
            return Ok(());
        }
        let mut known = self.scenario.step_ops.clone().unwrap_or_default();
        known.extend(new);
        self.know(known, prefix).map(|_| ())
    }

    /// After a refused step: the engine knows only the ops of the scenario and of the
    /// steps kept, as `retroanim run` of the exported scenario would. Returns whether the
    /// object was rebuilt doing so.
    fn forget_unplayed_ops(&mut self) -> bool {
        let mut played = self.base_ops.clone();
        played.extend(self.steps.iter().filter_map(op_of).map(str::to_string));
        if self.scenario.step_ops.as_ref() == Some(&played) {
            return false;
        }
        self.know(played, "").unwrap_or(false)
    }

    /// Load the engine knowing `ops`; when that changes its setup line, replay every step
    /// kept and replace the lines. Returns whether the object was replaced.
    fn know(
        &mut self,
        ops: std::collections::BTreeSet<String>,
        prefix: &str,
    ) -> Result<bool, ApiError> {
        self.scenario.step_ops = Some(ops);
        let mut sim =
            (self.load)(&self.scenario).map_err(|e| ApiError::from_scenario(e, prefix))?;
        let first = retroanim_core::trace::line_text(&sim.snapshot_json());
        if self.lines.first() == Some(&first) {
            return Ok(false);
        }
        let mut lines = Vec::with_capacity(self.lines.len());
        let mut bytes = first.len();
        lines.push(first);
        let mut last = sim.snapshot_json();
        for (i, step) in self.steps.iter().enumerate() {
            let line = sim
                .apply_json(i + 1, step, &format!("steps[{i}]"))
                .map_err(|e| ApiError::from_scenario(e, SCENARIO_LABEL))?;
            let text = retroanim_core::trace::line_text(&line);
            bytes += text.len() + step.to_string().len();
            lines.push(text);
            last = line;
        }
        self.sim = sim;
        self.lines = lines;
        self.last = last;
        self.bytes = bytes;
        self.rebuilt = true;
        self.generation += 1;
        Ok(true)
    }

    /// The last message the engine wrote to a line's `wire` key (the AC server loop's
    /// UpdateMotion and MovementData bytes, as hex) with the step of that line; `None`
    /// when no line carries one.
    pub fn last_wire(&self) -> Option<(usize, String)> {
        self.lines.iter().enumerate().rev().find_map(|(i, text)| {
            if !text.contains("\"wire\":[\"") {
                return None;
            }
            let line: Value = serde_json::from_str(text).ok()?;
            let hex = line.get("wire")?.as_array()?.last()?.as_str()?.to_string();
            Some((i, hex))
        })
    }

    /// Whether the lines played so far were replaced since the last call (a step of a
    /// new kind changed what every line carries): a page showing them fetches them again.
    pub fn take_rebuilt(&mut self) -> bool {
        std::mem::take(&mut self.rebuilt)
    }

    fn record(&mut self, line: Value) {
        // The trace number format (`3.4028235e38`, no `+`), as `retroanim run` writes it.
        let text = retroanim_core::trace::line_text(&line);
        self.bytes += text.len();
        self.lines.push(text);
        self.last = line;
    }

    fn rebuild(&mut self) {
        let Ok(mut sim) = (self.load)(&self.scenario) else {
            return;
        };
        for (i, step) in self.steps.iter().enumerate() {
            if sim.apply_json(i + 1, step, &format!("steps[{i}]")).is_err() {
                return;
            }
        }
        self.sim = sim;
    }

    /// Back to the state after setup, forgetting every step.
    pub fn reset(&mut self) -> Result<(), ApiError> {
        // The steps are forgotten, and so are the ops only they used.
        self.scenario.step_ops = Some(self.base_ops.clone());
        self.sim =
            (self.load)(&self.scenario).map_err(|e| ApiError::from_scenario(e, SCENARIO_LABEL))?;
        self.lines.clear();
        self.bytes = 0;
        self.steps.clear();
        self.generation += 1;
        let first = self.sim.snapshot_json();
        self.record(first);
        Ok(())
    }

    /// Trace lines `from..to` (clamped), parsed.
    pub fn lines(&self, from: usize, to: usize) -> Vec<Value> {
        let to = to.min(self.lines.len());
        self.lines[from.min(to)..to]
            .iter()
            .map(|t| serde_json::from_str(t).unwrap_or(Value::Null))
            .collect()
    }

    /// Trace lines `from..to` (clamped) as a JSON array, written from the kept text
    /// (parsing them into `Value`s would cost several times their size). Stops
    /// after the line that reaches `max_bytes`; returns the text and the end index.
    pub fn lines_text(&self, from: usize, to: usize, max_bytes: usize) -> (String, usize) {
        let to = to.min(self.lines.len());
        let from = from.min(to);
        let mut out = String::from("[");
        let mut end = from;
        for l in &self.lines[from..to] {
            if end > from {
                if out.len() >= max_bytes {
                    break;
                }
                out.push(',');
            }
            out.push_str(l);
            end += 1;
        }
        out.push(']');
        (out, end)
    }

    /// Lines `from..`, as JSON Lines text, stopping after the chunk reaches `max`
    /// bytes (at least one line when there is one); with the end index.
    pub fn jsonl_chunk(&self, from: usize, to: usize, max: usize) -> (Vec<u8>, usize) {
        let to = to.min(self.lines.len());
        let mut out = Vec::new();
        let mut i = from.min(to);
        while i < to && (out.is_empty() || out.len() + self.lines[i].len() < max) {
            out.extend_from_slice(self.lines[i].as_bytes());
            out.push(b'\n');
            i += 1;
        }
        (out, i)
    }

    /// The JSON Lines trace of everything played: what `retroanim run` writes for
    /// [`Session::scenario_with_steps`].
    pub fn trace_jsonl(&self) -> String {
        let mut out = String::with_capacity(self.bytes + self.lines.len());
        for l in &self.lines {
            out.push_str(l);
            out.push('\n');
        }
        out
    }

    /// The scenario with every step applied so far, asset paths as the user gave them.
    pub fn scenario_with_steps(&self) -> Value {
        let mut obj = match &self.doc {
            Value::Object(o) => o.clone(),
            _ => Map::new(),
        };
        obj.insert("steps".into(), Value::Array(self.steps.clone()));
        Value::Object(obj)
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Bytes of trace and step text held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn step_count(&self) -> usize {
        self.steps.len()
    }

    pub fn last_line(&self) -> &Value {
        &self.last
    }

    /// The scenario the engine loaded (its assets resolved by the transport).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The scenario as given, without steps.
    pub fn doc(&self) -> &Value {
        &self.doc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A stand-in engine whose every trace line is one MiB of text.
    struct Wide;

    impl DynSimulation for Wide {
        fn snapshot_json(&self) -> Value {
            json!({ "step": 0 })
        }
        fn apply_json(&mut self, index: usize, _: &Value, _: &str) -> Result<Value, ScenarioError> {
            Ok(json!({ "step": index, "pad": "x".repeat(1 << 20) }))
        }
    }

    fn load(_: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
        Ok(Box::new(Wide))
    }

    #[test]
    fn byte_counts_are_said_in_plain_words() {
        assert_eq!(plain_bytes(64 << 20), "64 MiB (67108864 bytes)");
        assert_eq!(plain_bytes(1 << 20), "1 MiB (1048576 bytes)");
        assert_eq!(plain_bytes(4096), "4 KiB (4096 bytes)");
        assert_eq!(plain_bytes(10_000), "10000 bytes");
        assert_eq!(
            body_too_large(MAX_BODY_BYTES),
            "request body too large: the limit is 1 MiB (1048576 bytes)"
        );
    }

    #[test]
    fn the_trace_budget_is_64_mib() {
        assert_eq!(plain_bytes(MAX_TRACE_BYTES), "64 MiB (67108864 bytes)");
    }

    #[test]
    fn a_session_refuses_the_step_after_its_trace_reaches_64_mib() {
        let scenario = Scenario::from_value(
            json!({ "engine": "wide", "steps": [] }),
            "wide.json",
            std::path::PathBuf::from("."),
        )
        .unwrap();
        let mut s: Session<()> =
            Session::start(&(), load, json!({ "engine": "wide" }), scenario).unwrap();
        // Each step holds its text `{}` (2 bytes) and a line of 1 MiB plus
        // `{"pad":"…","step":N}` (20 to 21 bytes): after 63 steps under 64 MiB, after 64 over.
        let steps = vec![json!({}); 70];
        let e = s.apply(&steps, "", &mut ()).unwrap_err();
        assert_eq!(e.status, 422);
        assert_eq!(e.at, "steps[64]");
        assert_eq!(
            e.message,
            "this session's trace is full: it holds 64 MiB (67108864 bytes) of trace text, the most one session may hold; export the trace, then reset"
        );
        assert_eq!(s.step_count(), 64);
    }

    /// A stand-in engine that, like the AC server loop, adds a key to every line when
    /// the scenario uses the op `loud`; its lines count the steps.
    struct Loud {
        loud: bool,
    }

    impl DynSimulation for Loud {
        fn snapshot_json(&self) -> Value {
            self.line(0, "setup")
        }
        fn apply_json(
            &mut self,
            index: usize,
            step: &Value,
            _: &str,
        ) -> Result<Value, ScenarioError> {
            Ok(self.line(index, step["op"].as_str().unwrap_or("")))
        }
    }

    impl Loud {
        fn line(&self, step: usize, op: &str) -> Value {
            if self.loud {
                json!({ "step": step, "op": op, "loud": true })
            } else {
                json!({ "step": step, "op": op })
            }
        }
    }

    fn load_loud(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
        Ok(Box::new(Loud {
            loud: s.uses_op("loud"),
        }))
    }

    fn loud_session() -> Session<()> {
        let scenario = Scenario::from_value(
            json!({ "engine": "loud" }),
            "loud.json",
            std::path::PathBuf::from("."),
        )
        .unwrap();
        Session::start(&(), load_loud, json!({ "engine": "loud" }), scenario).unwrap()
    }

    #[test]
    fn a_new_op_that_changes_the_lines_replays_the_session_as_retroanim_run_would() {
        let mut s = loud_session();
        s.apply(
            &[json!({ "op": "tick" }), json!({ "op": "tick" })],
            "",
            &mut (),
        )
        .unwrap();
        assert!(!s.take_rebuilt());
        assert_eq!(
            s.trace_jsonl(),
            "{\"step\":0,\"op\":\"setup\"}\n{\"step\":1,\"op\":\"tick\"}\n{\"step\":2,\"op\":\"tick\"}\n"
        );
        s.apply(&[json!({ "op": "loud" })], "", &mut ()).unwrap();
        assert!(s.take_rebuilt());
        assert!(!s.take_rebuilt(), "the flag is taken once");
        assert_eq!(
            s.trace_jsonl(),
            "{\"step\":0,\"op\":\"setup\",\"loud\":true}\n{\"step\":1,\"op\":\"tick\",\"loud\":true}\n{\"step\":2,\"op\":\"tick\",\"loud\":true}\n{\"step\":3,\"op\":\"loud\",\"loud\":true}\n"
        );
        assert_eq!(s.step_count(), 3);
        // A reset forgets the steps and what they taught: the exported scenario has none.
        s.reset().unwrap();
        assert_eq!(s.trace_jsonl(), "{\"step\":0,\"op\":\"setup\"}\n");
    }

    #[test]
    fn a_new_op_that_changes_nothing_keeps_the_lines() {
        let mut s = loud_session();
        s.apply(&[json!({ "op": "tick" })], "", &mut ()).unwrap();
        s.apply(&[json!({ "op": "quiet" })], "", &mut ()).unwrap();
        assert!(!s.take_rebuilt());
        assert_eq!(
            s.trace_jsonl(),
            "{\"step\":0,\"op\":\"setup\"}\n{\"step\":1,\"op\":\"tick\"}\n{\"step\":2,\"op\":\"quiet\"}\n"
        );
    }

    /// A stand-in whose op `loud` is refused after it was learnt: the lines go back.
    struct Refusing(Loud);

    impl DynSimulation for Refusing {
        fn snapshot_json(&self) -> Value {
            self.0.snapshot_json()
        }
        fn apply_json(
            &mut self,
            index: usize,
            step: &Value,
            at: &str,
        ) -> Result<Value, ScenarioError> {
            if step.get("bad").is_some() {
                return Err(ScenarioError::new(
                    "loud.json",
                    format!("{at}.bad"),
                    "refused",
                ));
            }
            self.0.apply_json(index, step, at)
        }
    }

    #[test]
    fn a_refused_step_of_a_new_kind_leaves_the_lines_as_they_were() {
        fn load(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
            Ok(Box::new(Refusing(Loud {
                loud: s.uses_op("loud"),
            })))
        }
        let scenario = Scenario::from_value(
            json!({ "engine": "loud" }),
            "loud.json",
            std::path::PathBuf::from("."),
        )
        .unwrap();
        let mut s: Session<()> =
            Session::start(&(), load, json!({ "engine": "loud" }), scenario).unwrap();
        s.apply(&[json!({ "op": "tick" })], "", &mut ()).unwrap();
        let e = s
            .apply(&[json!({ "op": "loud", "bad": 1 })], "", &mut ())
            .unwrap_err();
        assert_eq!(e.at, "steps[0].bad");
        assert_eq!(s.step_count(), 1);
        assert_eq!(
            s.trace_jsonl(),
            "{\"step\":0,\"op\":\"setup\"}\n{\"step\":1,\"op\":\"tick\"}\n"
        );
        // The next step is traced as retroanim run traces the exported scenario.
        s.apply(&[json!({ "op": "tick" })], "", &mut ()).unwrap();
        assert_eq!(s.last_line(), &json!({ "step": 2, "op": "tick" }));
    }
}
