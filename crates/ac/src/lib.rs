//! Asheron's Call's motion system, as the ACE server emulator ports it: motion tables
//! (which animation plays for which style and command, and the links between them),
//! the animation sequence, the motion interpreter that turns commands such as
//! "walk forward while holding Run" into table states, and interpolation of
//! server-corrected positions. Numbers are f32 in ACE's operation order, so a
//! creature moves bit for bit as it does on an ACE server.
//!
//! # Quick start
//!
//! Load a motion table with its animations, make a creature, command it, tick it:
//!
//! ```
//! use retroanim_ac::commands::{RUN_FORWARD, WALK_FORWARD};
//! use retroanim_ac::{Creature, Loader};
//!
//! # let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
//! // A folder of `<id>.bin` records; `Loader::from_dat` reads a DAT container instead.
//! let motions = Loader::from_dir(records).load(0x0900_0001)?;
//! let mut creature = Creature::new(&motions); // in its cell, on the ground
//!
//! creature.do_motion(WALK_FORWARD)?;
//! for _ in 0..30 {
//!     creature.tick(1.0 / 30.0);
//! }
//! assert_eq!(creature.motion(), WALK_FORWARD);
//! assert!(creature.origin().y > 2.0); // about 3.1 units a second
//!
//! creature.set_hold_run(true); // a creature holding Run runs instead of walking
//! assert_eq!(creature.motion(), RUN_FORWARD);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! * The front door: [`Loader`] and [`MotionSet`] ([`loader`]), [`Creature`] and its
//!   builder ([`creature`]), [`MotionError`] ([`motion_error`]). Command ids are the
//!   constants of [`commands`]; [`records::command_names`] maps them to ACE's names.
//! * ACE's own structure, under ACE's names, for researchers who compare against it:
//!   [`physics_obj::PhysicsObj`] (with the `PartArray` and `MovementManager`
//!   methods), [`sequence::Sequence`], [`table_manager::MotionTableManager`],
//!   [`motion_interp::MotionInterp`], [`position_manager`] and [`interpolation`].
//!   Their methods return ACE's [`commands::WeenieError`] codes unchanged.
//! * [`records`]: readers and writers of the MotionTable and Animation records and
//!   of DAT containers; [`inspect`]: their text dumps.
//! * Several objects: [`World`] ([`world`]) holds creatures by id and moves them to each
//!   other through [`moveto_manager`], [`target_manager`], [`sticky_manager`] and
//!   [`constraint_manager`].
//! * [`scenario`]: the conformance runner behind `retroanim run` ([`AcSim`]);
//!   [`mod@bench`]: the benchmark world.
//! * `reference` (feature `reference`): the tick path once more, plainly, in the shape
//!   of ACE's methods, with `AcRefSim`, the runner that plays scenarios through it; a
//!   differential test keeps the engine's tick bit for bit equal to it.

pub mod anim_lengths;
pub mod anim_queue;
pub mod bench;
mod chase_in_range;
pub mod cold_box;
pub mod commands;
pub mod constraint_manager;
pub mod creature;
pub mod creature_server;
pub mod events;
pub mod host_physics;
pub mod inspect;
pub mod interpolation;
pub mod key_hash;
pub mod landblock;
pub mod loader;
pub mod math;
pub mod motion_error;
pub mod motion_interp;
pub mod motion_table;
pub mod movement_manager;
pub mod moveto_manager;
pub mod part_array;
pub mod physics_obj;
pub mod position_helpers;
pub mod position_manager;
pub mod records;
#[cfg(feature = "reference")]
pub mod reference;
pub mod scenario;
pub mod scenario_server;
pub mod scenario_world;
pub mod sequence;
pub mod server_loop;
pub mod server_world;
pub mod sticky_manager;
pub mod table_manager;
pub mod target_manager;
pub mod wire;
pub mod world;

pub use creature::{Creature, CreatureBuilder};
pub use loader::{LoadError, Loader, MissingAnimations, MotionSet};
pub use motion_error::MotionError;
pub use scenario::AcSim;
pub use world::World;
