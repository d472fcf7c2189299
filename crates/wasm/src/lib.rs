//! retroanim-wasm: the three engines with their sample assets, built for
//! `wasm32-unknown-unknown`, answering the model browser's JSON API inside the page.
//!
//! `retroanim export-site DIR` writes the model browser's page with this module and
//! its JavaScript glue, so the page runs without a server (docs/browser.md). The
//! module's interface is a request/answer pair of JSON texts in linear memory
//! ([`exports`]); [`api::Api`] is the same dispatcher, callable from Rust, which the
//! native tests use. docs/embedding.md shows how to call it from JavaScript.

pub mod api;
mod embedded;
mod engines;
mod error;
pub mod exports;
mod host_file;
mod session;
mod user_files;

pub use api::{Answer, Api};
#[cfg(not(target_arch = "wasm32"))]
pub use host_file::native_file;

/// The JavaScript glue that loads the module and offers `api(method, path, body)`.
pub const GLUE_JS: &str = include_str!("../js/retroanim-wasm.js");

/// The Web Worker the glue runs the module in: it holds the user's opened files and
/// answers the module's slice reads with `FileReaderSync` (written next to the glue as
/// `retroanim-worker.js`).
pub const WORKER_JS: &str = include_str!("../js/retroanim-worker.js");
