//! The DAT-side records as loaded (byte layouts in docs/ac-formats.md):
//! MotionTable (`0x09……`), Animation (`0x03……`), Setup (`0x02……`), GfxObj (`0x01……`),
//! Surface (`0x08……`), SurfaceTexture (`0x05……`), RenderSurface (`0x06……`), Palette
//! (`0x04……`) and the DAT container.

pub mod authoring;
pub mod command_names;
pub mod dat;
pub mod dxt;
pub mod error;
pub mod figure;
pub mod gfxobj;
pub mod hooks;
pub mod lengths;
pub mod palette;
pub mod reader;
pub mod render_surface;
pub mod store;
pub mod surface;
pub mod texture_authoring;
pub mod types;
pub mod writer;

pub use error::RecordError;
pub use gfxobj::{read_gfxobj, write_gfxobj, GfxObj};
pub use palette::{read_palette, write_palette, Palette};
pub use reader::{read_animation, read_motion_table, read_setup};
pub use render_surface::{decode_rgba, read_render_surface, write_render_surface, RenderSurface};
pub use store::RecordStore;
pub use surface::{
    read_surface, read_surface_texture, write_surface, write_surface_texture, Surface,
    SurfaceTexture,
};
pub use types::*;
pub use writer::{write_animation, write_motion_table, write_setup};
