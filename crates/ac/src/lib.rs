//! retroanim-ac: the Asheron's Call motion system as ACE ports it.
//!
//! f32 throughout, in ACE's operation order (System.Numerics formulas spelled out in
//! [`math`]); f64 only where ACE uses double (the update quantum).

pub mod math;
pub mod records;
