//! HERC animation: fixed-point animation threads, poses, root motion and locomotion.
//!
//! Modules are shared between two authors; keep edits here additive (`pub mod` lines).
pub mod bench;
pub mod chassis;
pub mod clock;
pub mod fixed;
pub mod formats;
pub mod gait;
pub mod inspect;
pub mod mech;
pub mod mech_sim;
pub mod model;
pub mod object;
pub mod pose;
pub mod root_motion;
pub mod scenario;
pub mod shape;
pub mod thread;
pub mod throttle;
pub mod transform;
pub mod trig;

pub use scenario::{run, HercSim};
