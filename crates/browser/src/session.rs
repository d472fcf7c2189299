//! Live sessions: one engine object per open view, driven step by step.
//!
//! A session keeps the scenario it was built from and every step applied since, with
//! the trace line each produced, so that the page can export exactly what
//! `retroanim run` would write for the same scenario and steps.

use crate::engines::EngineDef;
use crate::error::ApiError;
use crate::paths;
use axum::http::StatusCode;
use retroanim_core::{DynSimulation, Scenario};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Mutex;

/// Open sessions kept at once; the least recently used one goes first.
pub const MAX_SESSIONS: usize = 32;
/// Trace text all sessions may hold together; past it the least recently used other
/// sessions are dropped (a HERC line is about 2.5 kB of JSON). Steps' JSON text
/// counts too.
pub const MAX_TOTAL_BYTES: usize = 128 << 20;
/// Steps one session records before it asks to be reset (bounds memory: a HERC
/// trace line is a few kilobytes).
pub const MAX_STEPS: usize = 30_000;
/// Steps one request may carry.
pub const MAX_STEPS_PER_CALL: usize = 1_000;

/// The label uploaded scenarios carry in engine errors.
pub const SCENARIO_LABEL: &str = "scenario";

/// A scenario checked and made safe to hand to an engine.
pub struct Prepared {
    /// As the user wrote it (relative asset paths), without `steps`.
    pub doc: Value,
    /// The steps it carried.
    pub steps: Vec<Value>,
    /// What the engine loads: `doc` with the asset field replaced by `asset`.
    pub scenario: Scenario,
}

/// The `asset_dat` value naming the DAT given with `--ac-dat`.
pub const USER_DAT: &str = "user";

/// Check a scenario document for `engine` whose assets live in `folder` (canonical).
/// Errors are located at `scenario.<path>` in the request body.
/// `ac_dat` is the user's DAT opened at startup: an AC scenario's `asset_dat` may
/// only be the token `"user"`, which names it (no other path reaches the engine).
pub fn prepare(
    engine: &EngineDef,
    doc: Value,
    folder: &Path,
    ac_dat: Option<&Path>,
) -> Result<Prepared, ApiError> {
    let Value::Object(mut obj) = doc else {
        return Err(ApiError::bad_request(
            "scenario",
            "a scenario must be a JSON object",
        ));
    };
    match obj.get("engine") {
        None => {
            obj.insert("engine".into(), Value::String(engine.name.into()));
        }
        Some(Value::String(s)) if s == engine.name => {}
        Some(other) => {
            return Err(ApiError::unprocessable(
                "scenario.engine",
                format!(
                    "this view plays engine '{}' but the scenario names {}",
                    engine.name, other
                ),
            ))
        }
    }
    let steps = match obj.remove("steps") {
        None => Vec::new(),
        Some(Value::Array(a)) => a,
        Some(_) => {
            return Err(ApiError::bad_request(
                "scenario.steps",
                "expected an array of steps",
            ))
        }
    };
    if steps.len() > MAX_STEPS {
        return Err(ApiError::unprocessable(
            "scenario.steps",
            format!("too many steps ({}; at most {MAX_STEPS})", steps.len()),
        ));
    }
    let at = format!("scenario.{}", engine.asset_field);
    if !obj.contains_key(engine.asset_field) {
        match engine.asset_default {
            Some(d) => {
                obj.insert(engine.asset_field.into(), Value::String(d.into()));
            }
            None => return Err(ApiError::unprocessable(at, "missing field")),
        }
    }
    let asset = match obj.get(engine.asset_field) {
        None => return Err(ApiError::unprocessable(at, "missing field")),
        Some(Value::String(rel)) => {
            let p = paths::confine(folder, rel, engine.asset_kind)
                .map_err(|m| ApiError::unprocessable(at.clone(), m))?;
            Value::String(p.display().to_string())
        }
        Some(v @ Value::Object(_)) if engine.inline_allowed => v.clone(),
        Some(_) => {
            let what = if engine.inline_allowed {
                "expected a path relative to the asset folder, or the asset itself as an object"
            } else {
                "expected a path relative to the asset folder"
            };
            return Err(ApiError::unprocessable(at, what));
        }
    };
    let doc = Value::Object(obj);
    let mut resolved = doc.clone();
    resolved[engine.asset_field] = asset;
    if let Some(confine_more) = engine.extra_paths {
        confine_more(&mut resolved, folder)?;
    }
    if let Some(v) = resolved.get_mut("asset_dat") {
        let path = match (engine.name, &*v, ac_dat) {
            ("ac", Value::String(t), Some(p)) if t == USER_DAT => p,
            ("ac", Value::String(t), None) if t == USER_DAT => {
                return Err(ApiError::unprocessable(
                    "scenario.asset_dat",
                    "no AC DAT is open (start with `retroanim browse --ac-dat PATH`)",
                ))
            }
            _ => {
                return Err(ApiError::unprocessable(
                    "scenario.asset_dat",
                    format!("expected \"{USER_DAT}\" (the DAT given with --ac-dat); other paths are not read"),
                ))
            }
        };
        *v = Value::String(path.display().to_string());
    }
    // Every path field the engines read is now absolute and checked. Defence in depth
    // for one they might add later: relative paths resolve against a folder that does
    // not exist, so the OS refuses them (even `../x`, which must traverse it).
    let unresolvable = folder.join(".no-unchecked-paths");
    let scenario = Scenario::from_value(resolved, SCENARIO_LABEL, unresolvable)
        .map_err(|e| ApiError::from_scenario(e, SCENARIO_LABEL, "scenario"))?;
    Ok(Prepared {
        doc,
        steps,
        scenario,
    })
}

/// One live engine object and its history.
pub struct Session {
    pub engine: &'static EngineDef,
    doc: Value,
    scenario: Scenario,
    sim: Box<dyn DynSimulation>,
    /// Trace lines as compact JSON text (a parsed `Value` costs several times more).
    lines: Vec<String>,
    /// The last line, parsed, for the answers that show it.
    last: Value,
    bytes: usize,
    steps: Vec<Value>,
    /// Bumped by every reset, so that a download streaming the lines notices that
    /// they were replaced under it.
    generation: u64,
}

/// What one request may still make the engine do (see `limits`).
pub struct Budget {
    deadline: Instant,
    bytes: usize,
    bytes_left: usize,
}

impl Budget {
    pub fn new(work_time: std::time::Duration, bytes: usize) -> Budget {
        Budget {
            deadline: Instant::now() + work_time,
            bytes,
            bytes_left: bytes,
        }
    }

    /// Why the next step may not run, if it may not.
    fn refusal(&self, work_time_ms: u128) -> Option<String> {
        if self.bytes_left == 0 {
            Some(format!(
                "this request's output budget ({} bytes of trace text) is spent: send the remaining steps in another request",
                self.bytes
            ))
        } else if Instant::now() >= self.deadline {
            Some(format!(
                "this request's work budget ({work_time_ms} ms of engine time) is spent: send the remaining steps in another request"
            ))
        } else {
            None
        }
    }
}

impl Session {
    /// Load the engine object from a prepared scenario (its steps are not applied).
    pub fn start(engine: &'static EngineDef, p: &Prepared) -> Result<Session, ApiError> {
        let load = engine.load.ok_or_else(|| not_built(engine))?;
        let sim = load(&p.scenario)
            .map_err(|e| ApiError::from_scenario(e, SCENARIO_LABEL, "scenario"))?;
        let first = sim.snapshot_json();
        let mut s = Session {
            engine,
            doc: p.doc.clone(),
            scenario: p.scenario.clone(),
            sim,
            lines: Vec::new(),
            last: Value::Null,
            bytes: 0,
            steps: Vec::new(),
            generation: 0,
        };
        s.record(first);
        Ok(s)
    }

    /// Apply steps in order, returning their trace lines. On the first failing step
    /// nothing of that step is kept: the object is rebuilt from the recorded steps
    /// (an engine may have changed state before it found the fault), and the error
    /// names `steps[i]` of the given list, under `prefix`. A step the request's
    /// budget no longer covers is refused the same way, without running it.
    /// Returns how many lines were added (read them with [`Session::lines_text`]).
    pub fn apply(
        &mut self,
        steps: &[Value],
        prefix: &str,
        budget: &mut Budget,
        work_time_ms: u128,
    ) -> Result<usize, ApiError> {
        if self.steps.len() + steps.len() > MAX_STEPS {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                prefix,
                format!(
                    "this session holds {} steps and may hold at most {MAX_STEPS}: export the trace, then reset",
                    self.steps.len()
                ),
            ));
        }
        for (i, step) in steps.iter().enumerate() {
            let at = format!("steps[{i}]");
            if let Some(why) = budget.refusal(work_time_ms) {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    retroanim_core::scenario::join_path(prefix, &at),
                    why,
                ));
            }
            let index = self.steps.len() + 1;
            match self.sim.apply_json(index, step, &at) {
                Ok(line) => {
                    let before = self.bytes;
                    self.bytes += step.to_string().len();
                    self.steps.push(step.clone());
                    self.record(line);
                    budget.bytes_left = budget.bytes_left.saturating_sub(self.bytes - before);
                }
                Err(e) => {
                    self.rebuild();
                    return Err(ApiError::from_scenario(e, SCENARIO_LABEL, prefix));
                }
            }
        }
        Ok(steps.len())
    }

    fn record(&mut self, line: Value) {
        let text = retroanim_core::trace::line_text(&line);
        self.bytes += text.len();
        self.lines.push(text);
        self.last = line;
    }

    fn rebuild(&mut self) {
        let Some(load) = self.engine.load else { return };
        let Ok(mut sim) = load(&self.scenario) else {
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
        let load = self.engine.load.ok_or_else(|| not_built(self.engine))?;
        self.sim = load(&self.scenario)
            .map_err(|e| ApiError::from_scenario(e, SCENARIO_LABEL, "scenario"))?;
        self.lines.clear();
        self.bytes = 0;
        self.steps.clear();
        self.generation += 1;
        let first = self.sim.snapshot_json();
        self.record(first);
        Ok(())
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

    /// The scenario the engine loaded (asset field confined).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The scenario as given, without steps.
    pub fn doc(&self) -> &Value {
        &self.doc
    }

    /// The JSON Lines trace of everything played: what `retroanim run` writes for
    /// [`Session::scenario_with_steps`].
    #[cfg(test)]
    pub fn trace_jsonl(&self) -> String {
        let mut out = String::with_capacity(self.bytes + self.lines.len());
        for l in &self.lines {
            out.push_str(l);
            out.push('\n');
        }
        out
    }

    /// The scenario with every step applied so far, asset paths as the user gave them
    /// (relative to the engine's asset folder).
    pub fn scenario_with_steps(&self) -> Value {
        let mut obj = match &self.doc {
            Value::Object(o) => o.clone(),
            _ => Map::new(),
        };
        obj.insert("steps".into(), Value::Array(self.steps.clone()));
        Value::Object(obj)
    }
}

pub fn not_built(engine: &EngineDef) -> ApiError {
    ApiError::new(
        StatusCode::NOT_IMPLEMENTED,
        "engine",
        format!(
            "engine '{}' is not built into this browser yet",
            engine.name
        ),
    )
}

struct Entry {
    used: Instant,
    /// Trace bytes the session held when last reported.
    bytes: usize,
    session: Arc<Mutex<Session>>,
}

/// All open sessions.
#[derive(Default)]
pub struct Store {
    next_id: u64,
    map: HashMap<String, Entry>,
}

impl Store {
    /// Keep a new session, evicting the least recently used one when full.
    pub fn insert(&mut self, session: Session) -> String {
        if self.map.len() >= MAX_SESSIONS {
            if let Some(oldest) = self
                .map
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone())
            {
                self.map.remove(&oldest);
            }
        }
        self.next_id += 1;
        let id = format!("s{}", self.next_id);
        let bytes = session.bytes();
        self.map.insert(
            id.clone(),
            Entry {
                used: Instant::now(),
                bytes,
                session: Arc::new(Mutex::new(session)),
            },
        );
        self.enforce_budget(&id, MAX_TOTAL_BYTES);
        id
    }

    /// Record a session's new size, then drop the least recently used other sessions
    /// while all of them together hold more than `budget` bytes.
    pub fn resized(&mut self, id: &str, bytes: usize) {
        if let Some(e) = self.map.get_mut(id) {
            e.bytes = bytes;
        }
        self.enforce_budget(id, MAX_TOTAL_BYTES);
    }

    fn enforce_budget(&mut self, keep: &str, budget: usize) {
        while self.map.values().map(|e| e.bytes).sum::<usize>() > budget {
            let victim = self
                .map
                .iter()
                .filter(|(k, _)| k.as_str() != keep)
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone());
            match victim {
                Some(k) => {
                    self.map.remove(&k);
                }
                None => break,
            }
        }
    }

    pub fn get(&mut self, id: &str) -> Option<Arc<Mutex<Session>>> {
        let e = self.map.get_mut(id)?;
        e.used = Instant::now();
        Some(e.session.clone())
    }

    pub fn remove(&mut self, id: &str) -> bool {
        self.map.remove(id).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::ENGINES;

    fn herc_session() -> Session {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/herc")
            .canonicalize()
            .unwrap();
        let doc: Value = serde_json::from_str(ENGINES[0].default_scenario.unwrap()).unwrap();
        let p = prepare(&ENGINES[0], doc, &folder, None).unwrap();
        Session::start(&ENGINES[0], &p).unwrap()
    }

    #[test]
    fn sizes_count_the_trace_text() {
        let mut s = herc_session();
        let setup = s.bytes();
        assert_eq!(setup, s.trace_jsonl().len() - 1);
        let mut budget = Budget::new(std::time::Duration::from_secs(60), 1 << 20);
        let step = serde_json::json!({"op": "step_ms", "ms": 40});
        s.apply(&[step], "", &mut budget, 60_000).unwrap();
        // The step's own text, `{"op":"step_ms","ms":40}`, is 24 bytes.
        assert_eq!(s.bytes(), s.trace_jsonl().len() - 2 + 24);
        assert_eq!(s.lines_text(1, 9, 1 << 20).1, 2);
        assert_eq!(s.last_line()["op"], "step_ms");
    }

    #[test]
    fn the_byte_budget_drops_the_least_recently_used_other_sessions() {
        let mut store = Store::default();
        let a = store.insert(herc_session());
        let b = store.insert(herc_session());
        let c = store.insert(herc_session());
        let one = store.map[&a].bytes;
        // Room for two sessions: growing c drops a (oldest), then keeps b and c.
        store.get(&b);
        if let Some(e) = store.map.get_mut(&c) {
            e.bytes = one;
        }
        store.enforce_budget(&c, 2 * one);
        assert!(store.get(&a).is_none());
        assert!(store.get(&b).is_some());
        assert!(store.get(&c).is_some());
        // A session alone over the budget is kept (its own step limit bounds it).
        store.resized(&c, 10 * MAX_TOTAL_BYTES);
        assert!(store.get(&c).is_some());
        assert!(store.get(&b).is_none());
    }
}
