//! retroanim-ac: the Asheron's Call motion system as ACE ports it.
//!
//! f32 throughout, in ACE's operation order (System.Numerics formulas spelled out in
//! [`math`]); f64 only where ACE uses double (the update quantum).

pub mod bench;
pub mod commands;
pub mod inspect;
pub mod interpolation;
pub mod math;
pub mod motion_interp;
pub mod motion_table;
pub mod movement_manager;
pub mod part_array;
pub mod physics_obj;
pub mod position_manager;
pub mod records;
pub mod scenario;
pub mod sequence;
pub mod table_manager;

pub use scenario::AcSim;
