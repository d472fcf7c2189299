//! retroanim-actor: the actor vertex-animation command interpreter of seed 003.
//!
//! Actors select polygon-mesh frames (vertex animation, no interpolation) through a
//! concatenated RAAN frame table and RAGR command groups. The crate follows rules
//! A1–A40 and decisions D1–D3 of `spec/actor.md` and the executable procedures and
//! decisions C1–C20 of `spec/actor-conformance.md`; `docs/actor.md` maps every rule
//! to the module and test that implement it.
//!
//! * [`raan`], [`ragr`], [`resources`], [`load`]: the frame table, command groups,
//!   scripts and the validating loader (§2.1 faults name group and command index).
//! * [`state`]: per-actor animation state.
//! * [`boundary`]: the eligibility checks every request and advancement passes (A16).
//! * [`arbitration`], [`forced`], [`advance`], [`interpreter`]: requests, forced
//!   requests, the frame countdown and the command interpreter.
//! * [`tasks`], [`script`]: `PushAnimation` tasks and the minimal script stage.
//! * [`world`], [`timing`]: placement, the cell-window update list, update order and
//!   the Q8 frame-scale accumulator.
//! * [`scenario`]: the conformance runner ([`ActorSim`], [`run_scenario`]);
//!   [`mod@bench`]: the benchmark world; [`inspect`]: `retroanim inspect` for actor sets.

pub mod advance;
pub mod arbitration;
pub mod bench;
pub mod boundary;
pub mod error;
pub mod forced;
pub mod inspect;
pub mod interpreter;
pub mod load;
pub mod raan;
pub mod ragr;
pub mod resources;
pub mod scenario;
pub mod script;
pub mod state;
pub mod tasks;
pub mod timing;
pub mod world;

pub use error::{FaultKind, LoadFault, RunError};
pub use resources::{ActorSet, Model};
pub use scenario::{run_scenario, ActorSim};
pub use state::{Actor, Anim};
pub use world::World;
