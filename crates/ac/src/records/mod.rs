//! The DAT-side records as loaded (spec/ac-motion.md §1.3, byte layout §3):
//! MotionTable (`0x09……`), Animation (`0x03……`), and the DAT container.

pub mod types;

pub use types::*;
