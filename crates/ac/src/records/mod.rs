//! The DAT-side records as loaded (byte layouts in docs/ac-formats.md):
//! MotionTable (`0x09……`), Animation (`0x03……`), Setup (`0x02……`), GfxObj (`0x01……`)
//! and the DAT container.

pub mod authoring;
pub mod command_names;
pub mod dat;
pub mod error;
pub mod figure;
pub mod gfxobj;
pub mod hooks;
pub mod lengths;
pub mod reader;
pub mod store;
pub mod types;
pub mod writer;

pub use error::RecordError;
pub use gfxobj::{read_gfxobj, write_gfxobj, GfxObj};
pub use reader::{read_animation, read_motion_table, read_setup};
pub use store::RecordStore;
pub use types::*;
pub use writer::{write_animation, write_motion_table, write_setup};
