//! The plain twin of the tick path, in the shape of ACE's code (feature `reference`).
//!
//! The fast tick (`Sequence::update`, `PhysicsObj::update_object_internal`, the world's
//! `update_object`) is built from memos, specialisations and inlined copies; this module
//! holds the same rules once, in the order ACE's methods take them, with no memo, no
//! specialisation and no table beyond what ACE has. Each function names the ACE method
//! it follows and the rule ids (Q-numbers of docs/ac.md) it carries.
//!
//! Only the tick path is here. Everything the tick calls that has a single plain
//! version already (the motion table and its manager, `MotionInterp`, the move-to,
//! sticky, constraint, target and position managers, `AFrame.Combine` and `GRotate` in
//! [`crate::math`]) is shared with the fast engine.
//!
//! [`AcRefSim`] plays any ac scenario through this path; `tests/differential.rs` drives
//! random operation sequences through it and through [`crate::AcSim`] and requires the
//! same bits after every step.

pub mod physics_obj;
pub mod sequence;
pub mod sim;
pub mod state;
pub mod world;

pub use sim::AcRefSim;
pub use state::state_words;
