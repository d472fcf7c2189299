//! Where the CLI meets the engines: one match per verb on the engine name.
//! An engine that is not built in yet is an error naming it, never a panic.

use anyhow::bail;
use retroanim_core::bench::BenchWorld;
use retroanim_core::{Scenario, ScenarioError};
use serde_json::Value;
use std::path::Path;

/// Play a scenario with the engine its `engine` field names.
pub fn run(scenario: &Scenario) -> Result<Vec<Value>, ScenarioError> {
    #[allow(clippy::match_single_binding)]
    match scenario.engine.as_str() {
        // A rejected actor set is a one-line trace, which the generic runner cannot write.
        "actor" => retroanim_actor::run_scenario(scenario),
        "ac" => retroanim_core::run_scenario::<retroanim_ac::AcSim>(scenario),
        "herc" => retroanim_herc::run(scenario),
        other => Err(scenario.error("engine", not_built(other))),
    }
}

/// Print an asset file.
pub fn inspect(file: &Path, id: Option<&str>, json: bool) -> anyhow::Result<()> {
    // herc first: a chassis record is a 216-byte `.DAT`, which the ac arm would claim.
    if retroanim_herc::inspect::recognises(file) {
        print!("{}", retroanim_herc::inspect::inspect_file(file, json)?);
        return Ok(());
    }
    // ac: a `.bin` record (0x03 Animation / 0x09 MotionTable) or a `.dat` container.
    if retroanim_ac::inspect::recognises(file) {
        print!("{}", retroanim_ac::inspect::inspect_file(file, id, json)?);
        return Ok(());
    }
    // actor: a JSON actor set (top-level `map` and `actors`).
    if retroanim_actor::inspect::recognises(file) {
        print!("{}", retroanim_actor::inspect::inspect_file(file, json)?);
        return Ok(());
    }
    bail!(
        "{}: no engine built into this retroanim recognises this file",
        file.display()
    )
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
        "herc" => Ok(BenchSpec {
            build: |n| Box::new(retroanim_herc::bench::HercBench::new(n)),
            default_entities: retroanim_herc::bench::DEFAULT_HERCS,
            tick_name: "25 Hz step",
        }),
        other => bail!("{}", not_built(other)),
    }
}

/// Start the model browser on the bundled sample assets (prints the URL, opens nothing).
pub fn browse(host: &str, port: u16) -> anyhow::Result<()> {
    retroanim_browser::serve(host, port, &retroanim_browser::default_assets_root())
}

fn not_built(engine: &str) -> String {
    match engine {
        "ac" | "herc" | "actor" => {
            format!("engine '{engine}' is not built into this retroanim yet")
        }
        _ => format!("unknown engine '{engine}' (expected ac, herc or actor)"),
    }
}
