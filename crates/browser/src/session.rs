//! Live sessions: one engine object per open view, driven step by step.
//!
//! A session keeps the scenario it was built from and every step applied since, with
//! the trace line each produced, so that the page can export exactly what
//! `retroanim run` would write for the same scenario and steps.

use crate::engines::EngineDef;
use crate::error::ApiError;
use crate::paths;
use axum::http::StatusCode;
use retroanim_core::Scenario;
use retroanim_session::doc;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

pub use retroanim_session::{MAX_SESSIONS, MAX_STEPS, MAX_STEPS_PER_CALL, SCENARIO_LABEL};

/// Trace text all sessions may hold together; past it the least recently used other
/// sessions are dropped (a HERC line is about 2.5 kB of JSON). Steps' JSON text
/// counts too.
pub const MAX_TOTAL_BYTES: usize = 128 << 20;

/// A live session ([`retroanim_session::Session`]) of one of the server's engines.
pub type Session = retroanim_session::Session<EngineDef>;

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
    let (obj, steps) = doc::check(engine.checked_field(), doc)?;
    let at = format!("scenario.{}", engine.asset_field);
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
        .map_err(|e| retroanim_session::ApiError::from_scenario(e, "scenario"))?;
    Ok(Prepared {
        doc,
        steps,
        scenario,
    })
}

/// What one request may still make the engine do (see `limits`): the [`Pace`] of
/// its steps.
///
/// [`Pace`]: retroanim_session::Pace
pub struct Budget {
    deadline: Instant,
    work_time: Duration,
    bytes: usize,
    bytes_left: usize,
}

impl Budget {
    pub fn new(work_time: Duration, bytes: usize) -> Budget {
        Budget {
            deadline: Instant::now() + work_time,
            work_time,
            bytes,
            bytes_left: bytes,
        }
    }
}

impl retroanim_session::Pace for Budget {
    fn refusal(&mut self) -> Option<String> {
        if self.bytes_left == 0 {
            Some(format!(
                "this request's output budget ({} of trace text) is spent: send the remaining steps in another request",
                retroanim_session::plain_bytes(self.bytes)
            ))
        } else if Instant::now() >= self.deadline {
            Some(format!(
                "this request's work budget ({} ms of engine time) is spent: send the remaining steps in another request",
                self.work_time.as_millis()
            ))
        } else {
            None
        }
    }

    fn ran(&mut self, _line: &Value, bytes: usize) {
        self.bytes_left = self.bytes_left.saturating_sub(bytes);
    }
}

/// Load the engine object of a prepared scenario (its steps are not applied).
pub fn start(engine: &'static EngineDef, p: &Prepared) -> Result<Session, ApiError> {
    let load = engine.load.ok_or_else(|| not_built(engine))?;
    Ok(Session::start(
        engine,
        load,
        p.doc.clone(),
        p.scenario.clone(),
    )?)
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
        start(&ENGINES[0], &p).unwrap()
    }

    #[test]
    fn sizes_count_the_trace_text() {
        let mut s = herc_session();
        let setup = s.bytes();
        assert_eq!(setup, s.trace_jsonl().len() - 1);
        let mut budget = Budget::new(std::time::Duration::from_secs(60), 1 << 20);
        let step = serde_json::json!({"op": "step_ms", "ms": 40});
        s.apply(&[step], "", &mut budget).unwrap();
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
