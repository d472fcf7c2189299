//! The checks every door applies to what a host hands in, worded as the C ABI words them
//! (docs/limits.md's table), so a Python caller and a C caller read the same refusal.

use crate::RetroanimError;
use pyo3::PyErr;
use retroanim_ac::math::{Quat, Vec3};

use retroanim_ac::scenario::{check_dt, MIN_ORIENTATION_LENGTH_SQ};

pub fn error(message: impl Into<String>) -> PyErr {
    RetroanimError::new_err(message.into())
}

pub fn vec3(v: [f32; 3], what: &str) -> Result<Vec3, PyErr> {
    if !v.iter().all(|c| c.is_finite()) {
        return Err(error(format!("{what}: NaN or infinite component")));
    }
    Ok(Vec3::new(v[0], v[1], v[2]))
}

/// An orientation as `[w, x, y, z]`. Taken as given (the engine normalises where ACE
/// does); only one too short to normalise is refused.
pub fn orientation(q: [f32; 4], what: &str) -> Result<Quat, PyErr> {
    if !q.iter().all(|c| c.is_finite()) {
        return Err(error(format!("{what}: NaN or infinite component")));
    }
    let len_sq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if len_sq < MIN_ORIENTATION_LENGTH_SQ {
        return Err(error(format!(
            "{what}: [{}, {}, {}, {}] is too close to zero length to be an orientation (its squared length must be at least 1e-12)",
            q[0], q[1], q[2], q[3]
        )));
    }
    Ok(Quat::new(q[0], q[1], q[2], q[3]))
}

/// A tick's quantum: the scenario runner's rule (finite, within ±2 s, ACE's
/// `HugeQuantum`; a negative one plays backwards) with the C door's words.
pub fn quantum(dt: f64) -> Result<f64, PyErr> {
    check_dt(dt).map_err(|e| error(format!("quantum: {e}")))
}

/// A speed or rate the engine multiplies by: any finite number.
pub fn finite(v: f32, what: &str) -> Result<f32, PyErr> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(error(format!("{what}: {v} is not a finite number")))
    }
}
