//! Scenario sessions: a scenario's setup loaded into its engine's conformance
//! simulation, driven one JSON step at a time. Each call returns exactly the trace
//! line `retroanim run` prints for that step, so any host can reproduce a
//! conformance trace byte for byte.

use crate::args;
use crate::handle::{self, Table};
use crate::status::{guard, Error, RaStatus, Result};
use retroanim_core::sim::{load_dyn, DynSimulation};
use retroanim_core::trace::line_text;
use retroanim_core::{Scenario, Simulation};
use serde_json::Value;
use std::ffi::c_char;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A scenario session. 0 is the null handle. See "Handles" at the top of this header.
pub type RaSession = u64;

enum Engine {
    Live(Box<dyn DynSimulation>),
    /// An actor set the loader rejected: the trace is this one error line (as
    /// `retroanim run` prints it) and no step can be applied.
    Rejected(Value),
}

struct Session {
    scenario: Scenario,
    engine: Engine,
    applied: usize,
}

static SESSIONS: Mutex<Table<Session>> = Mutex::new(Table::new(1, "session"));

/// The same choice of simulation `retroanim run` makes from the scenario's `engine`.
fn load(scenario: Scenario) -> Result<Session> {
    let engine = match scenario.engine.as_str() {
        "ac" => Engine::Live(load_dyn::<retroanim_ac::AcSim>(&scenario).map_err(Error::load)?),
        "herc" if retroanim_herc::mech_scenario::is_mech_scenario(&scenario) => Engine::Live(
            load_dyn::<retroanim_herc::mech_scenario::MechSim>(&scenario).map_err(Error::load)?,
        ),
        "herc" => {
            Engine::Live(load_dyn::<retroanim_herc::HercSim>(&scenario).map_err(Error::load)?)
        }
        "actor" => {
            let sim = retroanim_actor::ActorSim::load(&scenario).map_err(Error::load)?;
            match sim.load_fault() {
                Some(fault) => Engine::Rejected(
                    serde_json::to_value(retroanim_actor::scenario::error_line(fault))
                        .map_err(|e| Error::load(format!("cannot serialise trace line: {e}")))?,
                ),
                None => Engine::Live(Box::new(sim)),
            }
        }
        other => {
            return Err(Error::load(format!(
                "{}: engine: unknown engine '{other}' (expected ac, herc or actor)",
                scenario.file
            )))
        }
    };
    Ok(Session {
        scenario,
        engine,
        applied: 0,
    })
}

fn with(h: RaSession, f: impl FnOnce(&mut Session) -> Result<()>) -> Result<()> {
    handle::with(&SESSIONS, h, f)
}

/// Create a session from a scenario file: its setup is loaded at once (assets are
/// resolved relative to the file's folder). On failure nothing is created.
///
/// Ownership: `*out` receives a new handle; free it with `ra_session_free`.
///
/// # Safety
/// `path` is a NUL-terminated UTF-8 string; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_open(path: *const c_char, out: *mut RaSession) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantees for `path`.
        let path = unsafe { args::text(path, "path")? };
        let scenario = Scenario::from_file(Path::new(path)).map_err(Error::load)?;
        let h = handle::insert(&SESSIONS, load(scenario)?)?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, h, "out") }
    })
}

/// Create a session from scenario JSON held in memory (`len` bytes of UTF-8, no NUL
/// needed). `label` (nullable) names the scenario in error messages; `base_dir`
/// (nullable: the current directory) resolves the scenario's relative asset paths.
///
/// Ownership: the library copies what it needs; `*out` receives a new handle; free it
/// with `ra_session_free`.
///
/// # Safety
/// `json` points to `len` readable bytes; `label` and `base_dir` are null or
/// NUL-terminated; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_new(
    json: *const u8,
    len: usize,
    label: *const c_char,
    base_dir: *const c_char,
    out: *mut RaSession,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantees for each pointer.
        let (bytes, label, base) = unsafe {
            (
                args::bytes(json, len, "json")?,
                args::optional_text(label, "label")?,
                args::optional_text(base_dir, "base_dir")?,
            )
        };
        let label = label.unwrap_or("<scenario>");
        let text = std::str::from_utf8(bytes).map_err(|e| {
            Error::load(format!(
                "{label}: byte {}: cannot read: not UTF-8 text",
                e.valid_up_to()
            ))
        })?;
        let dir = PathBuf::from(base.unwrap_or("."));
        let scenario = Scenario::from_str(text, label, dir).map_err(Error::load)?;
        let h = handle::insert(&SESSIONS, load(scenario)?)?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, h, "out") }
    })
}

/// Free a session. 0 is accepted and does nothing; a stale handle is refused.
#[no_mangle]
pub extern "C" fn ra_session_free(session: RaSession) -> RaStatus {
    guard(|| handle::free(&SESSIONS, session))
}

/// The engine the scenario names: "ac", "herc" or "actor".
///
/// Ownership: `*out` receives a string the caller frees with `ra_string_free`.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_engine(session: RaSession, out: *mut *mut c_char) -> RaStatus {
    guard(|| {
        with(session, |s| {
            // SAFETY: the caller's guarantee for `out`.
            unsafe { args::put_string(out, s.scenario.engine.clone()) }
        })
    })
}

/// How many of the scenario's own steps can be applied: its step count, or 0 when
/// the setup was rejected (an actor set the loader refused: the trace is then the
/// snapshot line alone, as `retroanim run` prints it).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_step_count(session: RaSession, out: *mut usize) -> RaStatus {
    guard(|| {
        with(session, |s| {
            let n = match s.engine {
                Engine::Live(_) => s.scenario.steps().len(),
                Engine::Rejected(_) => 0,
            };
            // SAFETY: the caller's guarantee for `out`.
            unsafe { args::put(out, n, "out") }
        })
    })
}

/// Step `index` (0-based) of the scenario, as compact JSON, for hosts that replay a
/// scenario file without a JSON library.
///
/// Ownership: `*out` receives a string the caller frees with `ra_string_free`.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_step_json(
    session: RaSession,
    index: usize,
    out: *mut *mut c_char,
) -> RaStatus {
    guard(|| {
        with(session, |s| {
            let steps = s.scenario.steps();
            let step = steps.get(index).ok_or_else(|| {
                Error::invalid(format!(
                    "step {index} does not exist (the scenario has {})",
                    steps.len()
                ))
            })?;
            // SAFETY: the caller's guarantee for `out`.
            unsafe { args::put_string(out, step.to_string()) }
        })
    })
}

/// Trace line 0: the state after setup (or the error line of a rejected setup), as
/// one line of compact JSON without the newline.
///
/// Ownership: `*out` receives a string the caller frees with `ra_string_free`.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_snapshot_json(
    session: RaSession,
    out: *mut *mut c_char,
) -> RaStatus {
    guard(|| {
        with(session, |s| {
            let line = match &s.engine {
                Engine::Live(sim) => sim.snapshot_json(),
                Engine::Rejected(line) => line.clone(),
            };
            // SAFETY: the caller's guarantee for `out`.
            unsafe { args::put_string(out, line_text(&line)) }
        })
    })
}

/// Apply one scenario step given as JSON (`len` bytes of UTF-8: an object with its
/// `op`, exactly as in a scenario's `steps` array) and return its trace line as
/// compact JSON without the newline. Steps are numbered in the order they are
/// applied (the first is step 1, as in `retroanim run`). A malformed or refused step
/// fails with `RA_STATUS_INVALID_ARGUMENT` or `RA_STATUS_REFUSED` and the message
/// names its JSON path; the session stays usable.
///
/// Ownership: `*out` receives a string the caller frees with `ra_string_free`.
///
/// # Safety
/// `step` points to `len` readable bytes; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_session_apply_json(
    session: RaSession,
    step: *const u8,
    len: usize,
    out: *mut *mut c_char,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `step`.
        let bytes = unsafe { args::bytes(step, len, "step")? };
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| Error::invalid(format!("step: malformed JSON: {e}")))?;
        with(session, |s| {
            let sim = match &mut s.engine {
                Engine::Live(sim) => sim,
                Engine::Rejected(_) => {
                    return Err(Error::refused(
                        "the scenario's setup was rejected; no step can be applied",
                    ))
                }
            };
            let at = format!("steps[{}]", s.applied);
            let line = sim
                .apply_json(s.applied + 1, &value, &at)
                .map_err(|e| Error::new(RaStatus::Refused, e.to_string()))?;
            s.applied += 1;
            // SAFETY: the caller's guarantee for `out`.
            unsafe { args::put_string(out, line_text(&line)) }
        })
    })
}
