//! What the model browser's two transports share: the HTTP server
//! (`retroanim-browser`) and the WebAssembly page (`retroanim-wasm`) answer the same
//! JSON API, so the rules behind it live here once.
//!
//! * [`error`]: the API's error shape (status, JSON path, message, file).
//! * [`doc`]: the checks a scenario document passes before an engine sees it (engine
//!   name, steps, the asset field and its default), and the asset fields beyond the
//!   main one (the HERC mech extension's files, the AC motion table).
//! * [`session`]: a live session: one engine object, the steps played and the trace
//!   line each produced, rebuilt from its steps when one fails.
//!
//! Pure Rust without I/O or clocks, so it builds for `wasm32-unknown-unknown`; each
//! transport keeps what is its own (file confinement and request budgets in the server,
//! built-in assets in the page).

pub mod doc;
pub mod error;
pub mod session;

pub use error::{ApiError, SCENARIO_LABEL};
pub use session::{
    body_too_large, plain_bytes, trace_full, update_motion_json, Pace, Session, MAX_BODY_BYTES,
    MAX_SESSIONS, MAX_STEPS, MAX_STEPS_PER_CALL, MAX_TRACE_BYTES,
};
