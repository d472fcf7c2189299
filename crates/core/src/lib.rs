//! retroanim-core: what the three engines share.
//!
//! * [`cint`]: the C integer semantics the original programs relied on (truncating
//!   division, arithmetic shifts, byte and word wrapping, 16-bit binary angles).
//! * [`fixed`]: Q8 / Q10 / Q14 products with an explicit rounding mode.
//! * [`sim`]: the thin "load, apply, snapshot" trait and the generic scenario runner.
//! * [`scenario`]: reading scenario JSON with errors that name the file and JSON path.
//! * [`trace`]: JSON Lines trace reading and writing.
//! * [`diff`]: field-by-field trace comparison with a float tolerance.

pub mod bench;
pub mod cint;
pub mod conformance;
pub mod diff;
pub mod error;
pub mod fixed;
pub mod scenario;
pub mod sim;
pub mod trace;

pub use error::ScenarioError;
pub use scenario::Scenario;
pub use sim::{run_scenario, DynSimulation, Simulation};
