//! Earthsiege 2's HERC animation, as the DBSIM engine runs it: each walking machine
//! (HERC) is a tree of parts posed by up to ten animation threads, each playing a
//! sequence of keyframes and moving between sequences through authored transitions.
//! Time runs in the game's fixed-point units (Q8 rates, Q14 matrices, integer
//! ticks), so a pose matches the original program bit for bit.
//!
//! # Quick start
//!
//! Load a model, add a thread, play it in 40 ms steps, read the parts' matrices:
//!
//! ```
//! use retroanim_herc::{AnimatedShape, Model};
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/herc/biped.json");
//! // Asset JSON; `Model::from_vol` reads a DTS shape out of a VOL archive instead.
//! let model = Model::from_json_file(path)?;
//! let mut herc = AnimatedShape::new(&model);
//! let legs = herc.add_thread(model.sequence_named("idle").unwrap())?;
//!
//! herc.request(legs, model.sequence_named("walk").unwrap(), None, false)?;
//! for _ in 0..25 {
//!     herc.step_ms(40)?; // one second at the game's 25 Hz
//! }
//! assert_eq!(herc.world().len(), model.node_count());
//! let hip = herc.part(1).unwrap();
//! let _q14_rows: [[i16; 3]; 3] = hip.rows(); // 16384 = 1.0
//! assert!(herc.object().position[1] > 0); // the walk moved the machine along +Y
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! * The front door: [`Model`] ([`model`]) and [`AnimatedShape`] ([`animated_shape`]).
//! * DBSIM's own structure for researchers: [`thread::AnimationThread`] (request,
//!   seek, advance), [`shape_instance::ShapeInstance`] (thread slots and the pose),
//!   [`anim_list::AnimList`], [`transform::Transform3`], [`clock`], [`fixed`] and [`trig`]
//!   (the fixed-point arithmetic), [`object::SimObject`] (root motion into the world).
//! * The three-thread HERC of the game: [`mech`], [`mech_scenario`], [`gait`], [`throttle`],
//!   [`chassis`].
//! * [`formats`]: DTS shapes, VOL archives and chassis records; [`inspect`]: their
//!   text dumps.
//! * [`scenario`]: the conformance runner behind `retroanim run` ([`HercSim`]);
//!   [`mod@bench`]: the benchmark world.

pub mod anim_list;
pub mod animated_shape;
pub mod bench;
pub mod chassis;
pub mod clock;
pub mod fixed;
pub mod formats;
pub mod gait;
pub mod inspect;
pub mod mech;
pub mod mech_scenario;
pub mod model;
pub mod object;
pub mod pose;
// The plain DBSIM algorithm beside the fast paths: public with the cargo feature
// `reference`; always compiled, since the fast pose falls back to its evaluate.
#[cfg(feature = "reference")]
pub mod reference;
#[cfg(not(feature = "reference"))]
#[allow(dead_code)]
mod reference;
pub mod root_motion;
pub mod scenario;
pub mod shape_engine;
pub mod shape_instance;
pub mod thread;
pub mod throttle;
pub mod transform;
pub mod trig;

pub use anim_list::AnimList;
pub use animated_shape::{AnimatedShape, ControlError, ThreadId, RATE_1X};
pub use mech::Mech;
pub use mech_scenario::MechSim;
pub use model::{LoadError, Model};
pub use scenario::{run, HercSim};
pub use shape_instance::ShapeInstance;
