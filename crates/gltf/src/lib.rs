//! glTF 2.0 export for retroanim's engines.
//!
//! Each engine's exporter runs the engine and records what it plays as an engine-neutral
//! [`Scene`]: a node tree, meshes, and clips of keyed channels. The writer turns a scene into a
//! binary `.glb`. Keeping the two apart means every engine shares one writer, and the
//! rules glTF imposes (strictly increasing key times, unit quaternions with a continuous sign,
//! accessor bounds) are enforced in one place.

pub mod actor;
mod check;
mod error;
mod glb;
pub mod herc;
mod matrix;
pub mod scene;
mod write;

pub use error::Error;
pub use glb::chunks;
pub use scene::{Channel, Clip, Interpolation, Mesh, MorphTarget, Node, Property, Scene};
pub use write::{write_glb, WriteOptions};

pub mod ac;
