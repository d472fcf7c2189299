//! `retroanim`: run, compare, inspect, benchmark and browse the three engines.

mod bench;
mod engines;

use clap::{Parser, Subcommand};
use retroanim_core::diff::{diff_traces, DiffOptions, DEFAULT_TOLERANCE};
use retroanim_core::trace::{read_trace, write_trace};
use retroanim_core::Scenario;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Faithful re-implementations of three legacy game animation runtimes
/// (Asheron's Call motion as ported by ACE, DBSIM HERC threads, RAAN/RAGR actors).
///
/// A scenario file (JSON) names its engine, its assets and a list of steps; `run`
/// plays it and writes a trace (JSON Lines, one state snapshot per step) that `diff`
/// compares with another implementation's trace.
#[derive(Parser)]
#[command(name = "retroanim", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario and write its trace (one JSON object per line).
    ///
    /// The scenario's "engine" field ("ac", "herc" or "actor") picks the engine.
    Run {
        /// The scenario JSON file.
        scenario: PathBuf,
        /// Write the trace here instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Compare two traces field by field.
    ///
    /// Exit status: 0 when equal, 1 when they differ (the first divergent step and
    /// field are printed, with the number of divergent steps), 2 when an input
    /// cannot be read or the traces have different step counts.
    Diff {
        /// The expected (reference) trace.
        a: PathBuf,
        /// The trace to check.
        b: PathBuf,
        /// Floats are equal when |a-b| <= T or |a-b| <= T*max(|a|,|b|). Use 0 for
        /// the integer engines.
        #[arg(short, long, default_value_t = DEFAULT_TOLERANCE)]
        tolerance: f64,
        /// Ignore keys that only B has (B extends the format).
        #[arg(long)]
        allow_extra_keys: bool,
    },
    /// Print an asset in readable form (or as JSON with --json).
    ///
    /// Accepts AC binary records (MotionTable 0x09..., Animation 0x03...), a
    /// `client_portal.dat` with --id, HERC asset JSON and actor sets.
    Inspect {
        /// The asset file.
        file: PathBuf,
        /// Record id inside a DAT container (e.g. 0x09000001).
        #[arg(long)]
        id: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Measure an engine's steady-state speed on the bundled sample assets.
    Bench {
        /// ac, herc or actor.
        engine: String,
        /// Number of simulated entities (engine default when omitted).
        #[arg(long)]
        entities: Option<usize>,
        /// Number of ticks to time.
        #[arg(long)]
        ticks: Option<usize>,
        /// Worker threads (0 = all cores).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Start the model browser (a local web server) on the bundled sample assets.
    Browse {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { scenario, output } => run(&scenario, output.as_deref()),
        Command::Diff {
            a,
            b,
            tolerance,
            allow_extra_keys,
        } => diff(
            &a,
            &b,
            DiffOptions {
                tolerance,
                allow_extra_keys,
            },
        ),
        Command::Inspect { file, id, json } => report(engines::inspect(&file, id.as_deref(), json)),
        Command::Bench {
            engine,
            entities,
            ticks,
            threads,
        } => report(bench(&engine, entities, ticks, threads)),
        Command::Browse { host, port } => report(engines::browse(&host, port)),
    }
}

fn report(r: anyhow::Result<()>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("retroanim: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn bench(
    engine: &str,
    entities: Option<usize>,
    ticks: Option<usize>,
    threads: usize,
) -> anyhow::Result<()> {
    let spec = engines::bench_spec(engine)?;
    let entities = entities.unwrap_or(spec.default_entities);
    let ticks = ticks.unwrap_or(200);
    eprintln!(
        "retroanim: bench {engine}: {entities} entities, {ticks} ticks ({}), {} thread(s)",
        spec.tick_name,
        if threads == 0 {
            "all".to_string()
        } else {
            threads.to_string()
        }
    );
    let r = bench::run(&spec, entities, ticks, threads);
    println!("engine: {engine}");
    println!("entities: {}", r.entities);
    println!("threads: {}", r.threads);
    println!("ticks: {}", r.ticks);
    println!("seconds: {:.4}", r.seconds);
    println!(
        "entity_ticks_per_second: {:.0}",
        r.entity_ticks_per_second()
    );
    println!("allocations_per_tick: {:.3}", r.allocations_per_tick());
    println!("checksum: {:016x}", r.checksum);
    Ok(())
}

fn run(path: &std::path::Path, output: Option<&std::path::Path>) -> ExitCode {
    let lines = Scenario::from_file(path).and_then(|s| engines::run(&s));
    let lines = match lines {
        Ok(l) => l,
        Err(e) => {
            eprintln!("retroanim: {e}");
            return ExitCode::from(2);
        }
    };
    let written = match output {
        Some(p) => std::fs::File::create(p)
            .and_then(|f| write_trace(std::io::BufWriter::new(f), &lines))
            .map_err(|e| format!("{}: cannot write trace: {e}", p.display())),
        None => write_trace(std::io::stdout().lock(), &lines)
            .map_err(|e| format!("cannot write trace: {e}")),
    };
    match written {
        Ok(()) => {
            eprintln!("retroanim: {} trace lines", lines.len());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("retroanim: {e}");
            ExitCode::from(2)
        }
    }
}

fn diff(a: &std::path::Path, b: &std::path::Path, opts: DiffOptions) -> ExitCode {
    let loaded = read_trace(a).and_then(|ta| read_trace(b).map(|tb| (ta, tb)));
    let report = loaded.and_then(|(ta, tb)| {
        diff_traces(
            &ta,
            &tb,
            &a.display().to_string(),
            &b.display().to_string(),
            opts,
        )
    });
    match report {
        Err(e) => {
            eprintln!("retroanim: {e}");
            ExitCode::from(2)
        }
        Ok(r) => {
            let mut out = std::io::stdout().lock();
            match &r.first {
                None => {
                    let _ = writeln!(out, "equal: {} lines", r.lines);
                    ExitCode::SUCCESS
                }
                Some(d) => {
                    let _ = writeln!(out, "{d}");
                    let _ = writeln!(out, "{} of {} steps differ", r.divergent_steps, r.lines);
                    ExitCode::from(1)
                }
            }
        }
    }
}
