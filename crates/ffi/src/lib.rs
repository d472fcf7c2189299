//! retroanim-ffi: the C ABI of retroanim, for C, C++, C# and any host that can call C.
//!
//! The generated header is `include/retroanim.h`; its preamble states the rules
//! (handles, ownership, errors). docs/embedding.md has the quick starts.
//!
//! This is the only crate of the workspace that may use `unsafe`: every raw pointer
//! the host hands in is read or written in the `args` module, and each block says why it is
//! sound. Handles are numbers checked against a table (the `handle` module), never pointers.

// The header's preamble states the pointer contract every function shares; a
// `# Safety` section on each of them would repeat it.
#![allow(clippy::missing_safety_doc)]

pub mod ac;
pub mod ac_events;
pub mod ac_physics;
pub mod ac_server;
pub mod actor;
mod args;
mod handle;
pub mod herc;
mod model_cache;
pub mod record_cache;
pub mod session;
pub mod status;
mod weak_index;

pub use args::ra_string_free;
pub use status::{ra_last_error, ra_last_error_code, RaStatus};

/// The version of this C ABI: the functions, structs and their layouts of
/// `include/retroanim.h`. It changes whenever any of them changes; a binding built for
/// one version refuses a library reporting another (the .NET binding checks it when it
/// first loads the library).
pub const RA_ABI_VERSION: u32 = 2;

/// The ABI version of the loaded library (`RA_ABI_VERSION` when it was built).
#[no_mangle]
pub extern "C" fn ra_abi_version() -> u32 {
    RA_ABI_VERSION
}
