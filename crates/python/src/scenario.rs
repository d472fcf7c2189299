//! Scenarios: a scenario file played by the engine its `engine` field names, giving
//! exactly the lines `retroanim run` prints for it.

use crate::door;
use pyo3::prelude::*;
use retroanim_core::input::DEFAULT_MAX_STREAMED_BYTES;
use retroanim_core::sim::{stream_scenario, stream_steps, StreamError, TraceSink};
use retroanim_core::trace::line_text;
use retroanim_core::ScenarioFile;
use serde_json::Value;

/// Collects each line as `retroanim run` writes it.
struct Lines(Vec<String>);

impl TraceSink for Lines {
    fn line(&mut self, line: &Value) -> std::io::Result<()> {
        self.0.push(line_text(line));
        Ok(())
    }
}

fn play(file: &ScenarioFile, sink: &mut Lines) -> Result<usize, StreamError> {
    let scenario = file.scenario();
    match scenario.engine.as_str() {
        "ac" => stream_scenario::<retroanim_ac::AcSim>(scenario, file, sink),
        "herc" if retroanim_herc::mech_scenario::is_mech_scenario(scenario) => {
            stream_scenario::<retroanim_herc::MechSim>(scenario, file, sink)
        }
        "herc" => stream_scenario::<retroanim_herc::HercSim>(scenario, file, sink),
        "actor" => {
            let mut sim =
                <retroanim_actor::ActorSim as retroanim_core::Simulation>::load(scenario)?;
            if let Some(fault) = sim.load_fault() {
                // A rejected actor set is a one-line trace: its error line.
                let line = serde_json::to_value(retroanim_actor::scenario::error_line(fault))
                    .map_err(|e| scenario.error("setup", e.to_string()))?;
                sink.0.push(line_text(&line));
                return Ok(1);
            }
            stream_steps(&mut sim, scenario, file, sink)
        }
        other => Err(scenario
            .error(
                "engine",
                format!("unknown engine '{other}' (expected ac, herc or actor)"),
            )
            .into()),
    }
}

/// Play the scenario file at `path` and return its trace: one JSON line per step after
/// the setup line, each exactly as `retroanim run` writes it. A faulty scenario raises
/// `RetroanimError` naming the file and the JSON path (`steps[3].motion`).
#[pyfunction]
pub fn run_scenario(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Vec<String>> {
    py.detach(|| {
        let file =
            ScenarioFile::open(&path, DEFAULT_MAX_STREAMED_BYTES).map_err(|e| e.to_string())?;
        let mut lines = Lines(Vec::new());
        play(&file, &mut lines).map_err(|e| e.to_string())?;
        Ok(lines.0)
    })
    .map_err(|e: String| door::error(e))
}
