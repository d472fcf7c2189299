//! The RAAN/RAGR actor interpreter: the vertex-animation system that plays a game's
//! small scenery actors (flags, machinery, animals). Each model is a table of whole
//! mesh frames (RAAN) and a set of command groups (RAGR) that show frames, loop,
//! wait and end; actors request groups, a forced request overrides, and every frame
//! the actors near the camera advance by the shared Q8-scaled tick count. Nothing is
//! interpolated: the result is which (model handle, frame index) each actor shows.
//!
//! # Quick start
//!
//! Load an actor set, build the stage, request a group, update, read the frames:
//!
//! ```
//! use retroanim_actor::stage::{load_set_file, Stage};
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/actor/flag2.json");
//! let set = load_set_file(path)?;
//! let mut stage = Stage::builder(set).view([2660, 2860]).build()?;
//!
//! stage.force_request("flag_a", 1, 0)?; // group 1 is the sample's "wave"
//! for _ in 0..4 {
//!     stage.update()?;
//! }
//! assert_eq!(stage.current_group("flag_a")?, Some(1));
//! let [model, frame] = stage.frame("flag_a")?.unwrap();
//! assert!(model < 1024 && frame < 1024); // both are 10-bit fields
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! * The front door: [`stage`] ([`Stage`], [`stage::load_set_file`]).
//! * The interpreter's own structure: [`raan`], [`ragr`], [`resources`] and
//!   [`load`] (the frame table, command groups, scripts and the validating loader,
//!   whose faults name the model, group and command index); [`state`] (per-actor
//!   animation state); [`boundary`] (the eligibility checks every request and
//!   advancement passes, A16); [`arbitration`], [`forced`], [`advance`] and
//!   [`interpreter`] (requests, forced requests, the frame countdown, the command
//!   interpreter); [`tasks`] and [`script`] (`PushAnimation` tasks and the minimal
//!   script stage); [`world`] and [`timing`] (placement, the update list around the
//!   camera, update order, the Q8 frame-scale accumulator).
//! * [`scenario`]: the conformance runner behind `retroanim run` ([`ActorSim`],
//!   [`run_scenario`]); [`mod@bench`]: the benchmark world; [`inspect`]: the text
//!   dump of actor sets.
//! * `reference` (cargo feature `reference`): the plain reference of the update, in
//!   the shape of the original procedures without the engine's shortcuts, and
//!   `reference::ActorRefSim`, which plays scenarios through it.

pub mod advance;
pub mod arbitration;
pub mod bench;
pub mod boundary;
pub mod error;
pub mod forced;
pub mod inspect;
pub mod interpreter;
pub mod load;
mod plan;
pub mod raan;
pub mod ragr;
#[cfg(feature = "reference")]
pub mod reference;
pub mod resources;
pub mod scenario;
pub mod script;
pub mod stage;
pub mod state;
pub mod tasks;
pub mod timing;
pub mod world;

pub use error::{FaultKind, LoadFault, RunError};
pub use resources::{ActorSet, ModelTable};
pub use scenario::{run_scenario, ActorSim};
pub use stage::{load_set_file, load_set_str, SetError, Stage, StageBuilder, StageError};
pub use state::{Actor, Anim};
pub use world::World;
