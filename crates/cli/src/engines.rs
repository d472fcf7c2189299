//! Where the CLI meets the engines: one match per verb on the engine name.
//! An engine that is not built in yet is an error naming it, never a panic.

use anyhow::bail;
use retroanim_core::bench::BenchWorld;
use retroanim_core::{
    stream_scenario, stream_steps, ScenarioFile, Simulation, StreamError, TraceSink,
};

/// Which implementation plays a scenario: the engine as shipped, or its plain reference
/// (the algorithm in the original's shape, without fast paths; `retroanim run --reference`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Implementation {
    Engine,
    Reference,
}

/// Play a scenario file with the engine its `engine` field names, handing each trace
/// line to `sink` as it is made. Each arm does what the engine's own whole-trace runner
/// does (`retroanim_herc::run`, `retroanim_actor::run_scenario`, and the AC runner), one
/// line at a time; the CLI tests check that both give the same bytes on every committed
/// scenario. With [`Implementation::Reference`] the same steps go through each engine's
/// `reference` simulation, which writes the same trace format.
pub fn run(
    file: &ScenarioFile,
    sink: &mut dyn TraceSink,
    implementation: Implementation,
) -> Result<usize, StreamError> {
    use retroanim_ac::reference::AcRefSim;
    use retroanim_actor::reference::ActorRefSim;
    use retroanim_herc::reference::{HercRefSim, MechRefSim};
    let scenario = file.scenario();
    let reference = implementation == Implementation::Reference;
    match scenario.engine.as_str() {
        "actor" if reference => {
            let mut sim = ActorRefSim::load(scenario)?;
            if let Some(fault) = sim.load_fault() {
                return actor_fault_line(scenario, fault, sink);
            }
            stream_steps(&mut sim, scenario, file, sink)
        }
        "actor" => {
            let mut sim = retroanim_actor::ActorSim::load(scenario)?;
            if let Some(fault) = sim.load_fault() {
                return actor_fault_line(scenario, fault, sink);
            }
            stream_steps(&mut sim, scenario, file, sink)
        }
        "ac" if reference => stream_scenario::<AcRefSim>(scenario, file, sink),
        "ac" => stream_scenario::<retroanim_ac::AcSim>(scenario, file, sink),
        "herc" if retroanim_herc::mech_scenario::is_mech_scenario(scenario) => {
            if reference {
                stream_scenario::<MechRefSim>(scenario, file, sink)
            } else {
                stream_scenario::<retroanim_herc::mech_scenario::MechSim>(scenario, file, sink)
            }
        }
        "herc" if reference => stream_scenario::<HercRefSim>(scenario, file, sink),
        "herc" => stream_scenario::<retroanim_herc::HercSim>(scenario, file, sink),
        other => Err(scenario.error("engine", not_built(other)).into()),
    }
}

/// A rejected actor set is a one-line trace: its error line, no steps.
fn actor_fault_line(
    scenario: &retroanim_core::Scenario,
    fault: &retroanim_actor::LoadFault,
    sink: &mut dyn TraceSink,
) -> Result<usize, StreamError> {
    let line = serde_json::to_value(retroanim_actor::scenario::error_line(fault))
        .map_err(|e| scenario.error("setup", format!("cannot serialise trace line: {e}")))?;
    sink.line(&line).map_err(StreamError::Sink)?;
    Ok(1)
}

/// A benchmark world builder: `entities -> world`, plus the engine's default size.
pub struct BenchSpec {
    pub build: fn(usize) -> Box<dyn BenchWorld>,
    pub default_entities: usize,
    /// What one tick stands for, for the report ("25 Hz step", "update").
    pub tick_name: &'static str,
}

/// The benchmark world of an engine, built on its bundled sample assets.
pub fn bench_spec(engine: &str) -> anyhow::Result<BenchSpec> {
    #[allow(clippy::match_single_binding)]
    match engine {
        "actor" => Ok(BenchSpec {
            build: |n| Box::new(retroanim_actor::bench::ActorBench::new(n)),
            default_entities: retroanim_actor::bench::DEFAULT_ACTORS,
            tick_name: "update",
        }),
        "ac" => Ok(BenchSpec {
            build: |n| Box::new(retroanim_ac::bench::AcBench::new(n)),
            default_entities: retroanim_ac::bench::DEFAULT_OBJECTS,
            tick_name: "30 Hz quantum",
        }),
        // N chasers and N/10 wandering targets: the move-to path (docs/performance.md).
        "ac-chase" => Ok(BenchSpec {
            build: |n| Box::new(retroanim_ac::bench::ChaseBench::new(n)),
            default_entities: retroanim_ac::bench::DEFAULT_CHASERS,
            tick_name: "30 Hz quantum",
        }),
        "herc" => Ok(BenchSpec {
            build: |n| Box::new(retroanim_herc::bench::HercBench::new(n)),
            default_entities: retroanim_herc::bench::DEFAULT_HERCS,
            tick_name: "25 Hz step",
        }),
        other => bail!("unknown bench workload '{other}' (expected ac, ac-chase, herc or actor)"),
    }
}

pub fn not_built(engine: &str) -> String {
    match engine {
        "ac" | "herc" | "actor" => {
            format!("engine '{engine}' is not built into this retroanim yet")
        }
        _ => format!("unknown engine '{engine}' (expected ac, herc or actor)"),
    }
}
