//! `retroanim` for Python: the three engines stepped from a Python program, their state
//! read as numpy arrays, and scenarios run to the trace lines `retroanim run` prints.
//!
//! Built into a wheel by maturin (`pyproject.toml` beside this crate); docs/python.md is the
//! user's guide. Each Python class wraps an engine's front door:
//!
//! | Python | Rust |
//! |---|---|
//! | `AcMotionSet`, `AcCreature` | `retroanim_ac::{MotionSet, Creature}` |
//! | `AcWorld`, `adjust_to_outside` | `retroanim_ac::World` (host physics), `landblock` |
//! | `HercModel`, `HercShape` | `retroanim_herc::{Model, AnimatedShape}` |
//! | `ActorStage` | `retroanim_actor::Stage` |
//! | `run_scenario` | the conformance runners behind `retroanim run` |
//!
//! Inputs pass the same checks, with the same messages, as the C ABI's (docs/limits.md);
//! every refusal is a `retroanim.RetroanimError` (a `ValueError`), never a crash.

use pyo3::prelude::*;

mod ac;
mod ac_world;
mod actor;
mod door;
mod herc;
mod scenario;

pyo3::create_exception!(
    retroanim,
    RetroanimError,
    pyo3::exceptions::PyValueError,
    "A refused input or a failed load; the message names the file, field or argument."
);

#[pymodule]
fn retroanim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RetroanimError", m.py().get_type::<RetroanimError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(scenario::run_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(ac::command_id, m)?)?;
    m.add_function(wrap_pyfunction!(ac::command_name, m)?)?;
    m.add_class::<ac::AcMotionSet>()?;
    m.add_class::<ac::AcCreature>()?;
    m.add_class::<ac_world::AcWorld>()?;
    m.add_function(wrap_pyfunction!(ac_world::adjust_to_outside, m)?)?;
    m.add_class::<herc::HercModel>()?;
    m.add_class::<herc::HercShape>()?;
    m.add_class::<actor::ActorStage>()?;
    Ok(())
}
