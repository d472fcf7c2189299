//! retroanim-core: what the three engines share.
//!
//! * [`cint`]: the C integer semantics the original programs relied on (truncating
//!   division, arithmetic shifts, byte and word wrapping, 16-bit binary angles).
//! * [`fixed`]: Q8 / Q10 / Q14 products with an explicit rounding mode.
//! * [`sim`]: the thin "load, apply, snapshot" trait and the generic scenario runner.
//! * [`scenario`]: reading scenario JSON with errors that name the file and JSON path.
//! * [`scenario_file`]: a scenario file read as a stream, one step at a time.
//! * [`input`]: opening user-named files: regular files only, under a size cap.
//! * [`trace`]: JSON Lines trace reading and writing.
//! * [`diff`]: field-by-field trace comparison with a float tolerance.
//! * `mutation` (feature `fuzzing`): input mutations for the engines' fuzz properties.

pub mod bench;
pub mod cint;
pub mod conformance;
pub mod diff;
pub mod error;
pub mod fixed;
pub mod input;
#[cfg(feature = "fuzzing")]
pub mod mutation;
pub mod scenario;
pub mod scenario_file;
pub mod sim;
pub mod trace;

pub use error::ScenarioError;
pub use scenario::Scenario;
pub use scenario_file::ScenarioFile;
pub use sim::{
    run_scenario, stream_scenario, stream_steps, DynSimulation, Simulation, StepSource,
    StreamError, TraceSink,
};
