//! `retroanim`: run, compare, inspect, benchmark and browse the three engines.

mod assets;
mod bench;
mod engines;
mod export_gltf;
mod export_gltf_herc_actor;
mod export_site;
mod inspect;
mod progress;

use clap::{Parser, Subcommand};
use engines::Implementation;
use progress::{Progress, ProgressSink};
use retroanim_core::diff::{check_tolerance, diff_streams, DiffOptions, DEFAULT_TOLERANCE};
use retroanim_core::input::{self, InputError, DEFAULT_MAX_STREAMED_BYTES};
use retroanim_core::trace::{TraceReader, TraceWriter, DEFAULT_MAX_LINE_BYTES};
use retroanim_core::{ScenarioFile, StreamError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Faithful re-implementations of three legacy game animation runtimes
/// (Asheron's Call motion as ported by ACE, DBSIM HERC threads, RAAN/RAGR actors).
///
/// A scenario file (JSON) names its engine, its assets and a list of steps; `run`
/// plays it and writes a trace (JSON Lines, one state snapshot per step) that `diff`
/// compares with another implementation's trace.
///
/// Only regular files are read (never a directory, FIFO or device). Files held whole
/// in memory (what `inspect` reads, except DAT containers) may be at most 256 MiB,
/// streamed ones (`run` scenarios, `diff` traces, DAT containers) at most 1 GiB;
/// --max-input-bytes changes the cap.
#[derive(Parser)]
#[command(name = "retroanim", version, about, long_about)]
struct Cli {
    /// Largest input file read, in bytes (default: 268435456 for the files inspect
    /// reads whole, 1073741824 for run's scenario, diff's traces and DAT containers).
    #[arg(long, global = true, value_name = "BYTES")]
    max_input_bytes: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario and write its trace (one JSON object per line).
    ///
    /// The scenario's "engine" field ("ac", "herc" or "actor") picks the engine. Each
    /// trace line is written as soon as its step has run, so memory does not grow with
    /// the number of steps. When a step fails, the lines before it are already on
    /// standard output; with -o the file appears only when the whole run succeeded.
    Run {
        /// The scenario JSON file.
        scenario: PathBuf,
        /// Write the trace here instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Play the scenario through the engine's plain reference (the original's algorithm
        /// without fast paths) instead of the engine; the trace format is the same, so
        /// `retroanim diff` can compare the two.
        #[arg(long)]
        reference: bool,
    },
    /// Compare two traces field by field, one line of each at a time.
    ///
    /// Exit status: 0 when equal, 1 when they differ (the first divergent step and
    /// field are printed, with the number of divergent steps; traces of different
    /// lengths are compared on their common steps and both lengths are printed), 2
    /// when an input cannot be read.
    Diff {
        /// The expected (reference) trace.
        a: PathBuf,
        /// The trace to check.
        b: PathBuf,
        /// Floats are equal when |a-b| <= T or |a-b| <= T*max(|a|,|b|). Use 0 for
        /// the integer engines. A finite number >= 0.
        #[arg(short, long, default_value_t = DEFAULT_TOLERANCE, value_parser = parse_tolerance)]
        tolerance: f64,
        /// Ignore keys that only B has (B extends the format).
        #[arg(long)]
        allow_extra_keys: bool,
        /// Longest trace line read, in bytes.
        #[arg(long, default_value_t = DEFAULT_MAX_LINE_BYTES, value_name = "BYTES")]
        max_line_bytes: usize,
    },
    /// Print an asset in readable form (or as JSON with --json).
    ///
    /// Reads AC MotionTable (0x09......), Animation (0x03......), Setup (0x02......) and
    /// GfxObj (0x01......) records (.bin); an
    /// AC DAT container such as client_portal.dat (its listing, or one record with
    /// --id 0x09000001); a HERC asset (.json with keyframes and sequences); a DTS shape
    /// (.dts); a VOL archive (its listing, or one entry with --id "dat\BIPED.DAT" or
    /// --id BIPED.DTS); a chassis record (.dat or .bin of 216, 225 or 226 bytes, or .json);
    /// an Earthsiege palette (.dpl), bitmap (.dbm) or bitmap array (.dba); and an actor set
    /// (.json with map and actors).
    Inspect {
        /// The asset file.
        file: PathBuf,
        /// Record id inside a DAT container (e.g. 0x09000001), or entry name inside a
        /// VOL archive (e.g. BIPED.DTS or dat\BIPED.DAT).
        #[arg(long)]
        id: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Measure an engine's steady-state speed on the bundled sample assets.
    Bench {
        /// ac, ac-chase (N creatures chasing N/10 wandering ones), herc or actor.
        engine: String,
        /// Number of simulated entities, at least 1 (engine default when omitted).
        #[arg(long, value_parser = parse_positive)]
        entities: Option<usize>,
        /// Number of ticks to time, at least 1.
        #[arg(long, value_parser = parse_positive)]
        ticks: Option<usize>,
        /// Worker threads (0 = all cores; never more than one per entity).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print the figures as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Start the model browser (a local web server) on the bundled sample assets.
    ///
    /// The assets are, in this order: --assets DIR, $RETROANIM_ASSETS, ./assets when
    /// the current directory is a checkout, else the copy built into this binary
    /// (unpacked once into the user's cache directory).
    Browse {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The asset folder (with ac/, herc/ and actor/ inside).
        #[arg(long, value_name = "DIR")]
        assets: Option<PathBuf>,
        /// Your own client_portal.dat, opened read-only: the AC view lists its motion
        /// tables and the Setups naming them.
        #[arg(long, value_name = "FILE")]
        ac_dat: Option<PathBuf>,
        /// Your own Earthsiege 2 folder (holding SIMVOL0.VOL), opened read-only: the herc
        /// view lists every DTS shape in its VOL archives and plays it.
        #[arg(long, value_name = "DIR")]
        es2: Option<PathBuf>,
    },
    /// Write the model browser as static files into DIR, the engines running in the
    /// page as WebAssembly (serve DIR's root with any static file server).
    ExportSite {
        /// The folder to write (created when absent).
        dir: PathBuf,
        /// The module (default: wasm32-unknown-unknown/wasm/retroanim_wasm.wasm under
        /// $CARGO_TARGET_DIR, or under target/ when it is unset: where
        /// `cargo build --profile wasm --target wasm32-unknown-unknown -p retroanim-wasm` puts it).
        #[arg(long, value_name = "FILE")]
        wasm: Option<PathBuf>,
        /// Binaryen's wasm-opt, run on the module (default: `wasm-opt` when it is on the
        /// PATH; without it the module is copied as built).
        #[arg(long, value_name = "PROGRAM", conflicts_with = "no_wasm_opt")]
        wasm_opt: Option<PathBuf>,
        /// Copy the module as built, even when wasm-opt is installed.
        #[arg(long)]
        no_wasm_opt: bool,
        /// The glTF export module, fetched by the page when Export glTF is clicked
        /// (default: retroanim_gltf_wasm.wasm beside the main module, where
        /// `cargo build --profile wasm --target wasm32-unknown-unknown -p retroanim-gltf-wasm`
        /// puts it).
        #[arg(long, value_name = "FILE")]
        gltf_wasm: Option<PathBuf>,
    },
    /// Export a model and every animation its engine plays as binary glTF 2.0 (.glb),
    /// baked by running the engine, plus a sidecar JSON with the state graph and events.
    ///
    /// `retroanim export-gltf ac OUT.glb` exports the bundled AC sample; see each
    /// engine's --help for the user's own files.
    ExportGltf {
        #[command(subcommand)]
        source: export_gltf::Source,
    },
}

fn parse_tolerance(s: &str) -> Result<f64, String> {
    let t: f64 = s.parse().map_err(|e| format!("not a number: {e}"))?;
    check_tolerance(t)
}

fn parse_positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a count: {e}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let limit = cli.max_input_bytes;
    match cli.command {
        Command::Run {
            scenario,
            output,
            reference,
        } => run(
            &scenario,
            output.as_deref(),
            limit.unwrap_or(DEFAULT_MAX_STREAMED_BYTES),
            if reference {
                Implementation::Reference
            } else {
                Implementation::Engine
            },
        ),
        Command::Diff {
            a,
            b,
            tolerance,
            allow_extra_keys,
            max_line_bytes,
        } => diff(
            &a,
            &b,
            DiffOptions {
                tolerance,
                allow_extra_keys,
            },
            limit.unwrap_or(DEFAULT_MAX_STREAMED_BYTES),
            max_line_bytes,
        ),
        Command::Inspect { file, id, json } => {
            match inspect::inspect(&file, id.as_deref(), json, limit) {
                Ok(text) => emit(&text),
                Err(e) => fail(format!("{e:#}")),
            }
        }
        Command::Bench {
            engine,
            entities,
            ticks,
            threads,
            json,
        } => match bench(&engine, entities, ticks, threads, json) {
            Ok(text) => emit(&text),
            Err(e) => fail(format!("{e:#}")),
        },
        Command::Browse {
            host,
            port,
            assets,
            ac_dat,
            es2,
        } => match browse_options(ac_dat.as_deref(), es2.as_deref()).and_then(|opts| {
            assets::resolve(assets.as_deref())
                .and_then(|dir| retroanim_browser::serve_with(&host, port, &dir, opts))
        }) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(format!("{e:#}")),
        },
        Command::ExportGltf { source } => match export_gltf::run(source) {
            Ok(text) => emit(&text),
            Err(e) => fail(format!("{e:#}")),
        },
        Command::ExportSite {
            dir,
            wasm,
            gltf_wasm,
            wasm_opt,
            no_wasm_opt,
        } => {
            let opt = match (wasm_opt, no_wasm_opt) {
                (_, true) => export_site::WasmOpt::Off,
                (Some(p), false) => export_site::WasmOpt::Program(p),
                (None, false) => export_site::WasmOpt::Auto,
            };
            match export_site::export(&dir, wasm.as_deref(), gltf_wasm.as_deref(), &opt) {
                Ok(done) => emit(&done.summary(&dir)),
                Err(e) => fail(format!("{e:#}")),
            }
        }
    }
}

/// The browser's options for the user's files, each opened (and refused) at startup.
fn browse_options(
    ac_dat: Option<&std::path::Path>,
    es2: Option<&std::path::Path>,
) -> anyhow::Result<retroanim_browser::limits::Options> {
    let mut opts = retroanim_browser::limits::Options::default();
    if let Some(p) = ac_dat {
        let dat = retroanim_browser::user_data::AcDat::open(p)
            .map_err(|m| anyhow::anyhow!("--ac-dat: {m}"))?;
        opts.ac_dat = Some(std::sync::Arc::new(dat));
    }
    if let Some(p) = es2 {
        let folder = retroanim_browser::es2::Es2Folder::open(p)
            .map_err(|m| anyhow::anyhow!("--es2: {m}"))?;
        opts.es2 = Some(std::sync::Arc::new(folder));
    }
    Ok(opts)
}

/// One error line on stderr, exit status 2.
fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("retroanim: {msg}");
    ExitCode::from(2)
}

/// Write `text` to stdout; a reader that went away (`| head -1`) ends the program
/// quietly with status 0.
fn emit(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(format!("cannot write to standard output: {e}")),
    }
}

/// The located message for a file that was not read, with the flag that raises a cap.
fn input_error(path: &Path, e: &InputError) -> String {
    match e {
        InputError::TooLarge { .. } => {
            format!("{}: {e} (--max-input-bytes raises it)", path.display())
        }
        _ => format!("{}: {e}", path.display()),
    }
}

fn bench(
    engine: &str,
    entities: Option<usize>,
    ticks: Option<usize>,
    threads: usize,
    json: bool,
) -> anyhow::Result<String> {
    let spec = engines::bench_spec(engine)?;
    let entities = entities.unwrap_or(spec.default_entities);
    let ticks = ticks.unwrap_or(200);
    if !json {
        eprintln!(
            "retroanim: bench {engine}: {entities} entities, {ticks} ticks ({}), {} thread(s)",
            spec.tick_name,
            if threads == 0 {
                "all".to_string()
            } else {
                threads.to_string()
            }
        );
    }
    let mut progress = Progress::new(progress::allowed(false), ticks as u64, "ticks");
    let r = bench::run(&spec, entities, ticks, threads, &mut progress);
    drop(progress);
    if json {
        let v = serde_json::json!({
            "engine": engine,
            "entities": r.entities,
            "threads": r.threads,
            "ticks": r.ticks,
            "tick": spec.tick_name,
            "seconds": r.seconds,
            "entity_ticks_per_second": r.entity_ticks_per_second(),
            "allocations_per_tick": r.allocations_per_tick(),
            "checksum": format!("{:016x}", r.checksum),
        });
        return Ok(format!("{v}\n"));
    }
    Ok(format!(
        "engine: {engine}\nentities: {}\nthreads: {}\nticks: {}\nseconds: {:.4}\nentity_ticks_per_second: {:.0}\nallocations_per_tick: {:.3}\nchecksum: {:016x}\n",
        r.entities,
        r.threads,
        r.ticks,
        r.seconds,
        r.entity_ticks_per_second(),
        r.allocations_per_tick(),
        r.checksum
    ))
}

fn run(path: &Path, output: Option<&Path>, limit: u64, implementation: Implementation) -> ExitCode {
    if let Err(e) = input::check_regular(path, limit) {
        return fail(input_error(path, &e));
    }
    let file = match ScenarioFile::open(path, limit) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let progress = Progress::new(
        progress::allowed(output.is_none()),
        file.step_count() as u64 + 1,
        "lines",
    );
    match output {
        Some(p) => run_to_file(&file, p, progress, implementation),
        None => {
            let mut w = TraceWriter::new(std::io::BufWriter::with_capacity(
                64 << 10,
                std::io::stdout().lock(),
            ));
            let played = engines::run(
                &file,
                &mut ProgressSink::new(&mut w, progress),
                implementation,
            );
            let lines = w.lines();
            let flushed = w.finish().map(drop);
            match (played, flushed) {
                (Err(StreamError::Sink(e)), _) | (Ok(_), Err(e))
                    if e.kind() == std::io::ErrorKind::BrokenPipe =>
                {
                    ExitCode::SUCCESS
                }
                (Err(e), _) => fail(e),
                (Ok(_), Err(e)) => fail(format!("cannot write trace: {e}")),
                (Ok(_), Ok(())) => {
                    eprintln!("retroanim: {lines} trace lines");
                    ExitCode::SUCCESS
                }
            }
        }
    }
}

/// Write the trace next to `out` under a temporary name and rename it when the run
/// succeeded, so a failed run leaves no partial trace (and an older file untouched).
fn run_to_file(
    file: &ScenarioFile,
    out: &Path,
    progress: Progress,
    implementation: Implementation,
) -> ExitCode {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "trace".into());
    let temp = out.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    let created = match std::fs::File::create(&temp) {
        Ok(f) => f,
        Err(e) => return fail(format!("{}: cannot write trace: {e}", out.display())),
    };
    let mut w = TraceWriter::new(std::io::BufWriter::with_capacity(64 << 10, created));
    let played = engines::run(
        file,
        &mut ProgressSink::new(&mut w, progress),
        implementation,
    );
    let lines = w.lines();
    let result = match (played, w.finish()) {
        (Err(StreamError::Scenario(e)), _) => Err(e.to_string()),
        (Err(StreamError::Sink(e)), _) | (Ok(_), Err(e)) => {
            Err(format!("{}: cannot write trace: {e}", out.display()))
        }
        (Ok(_), Ok(_)) => std::fs::rename(&temp, out)
            .map_err(|e| format!("{}: cannot write trace: {e}", out.display())),
    };
    match result {
        Ok(()) => {
            eprintln!("retroanim: {lines} trace lines");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            let _ = std::fs::remove_file(&temp);
            fail(msg)
        }
    }
}

fn diff(a: &Path, b: &Path, opts: DiffOptions, limit: u64, max_line: usize) -> ExitCode {
    for p in [a, b] {
        if let Err(e) = input::check_regular(p, limit) {
            return fail(input_error(p, &e));
        }
    }
    let report = TraceReader::open(a, limit, max_line).and_then(|ra| {
        TraceReader::open(b, limit, max_line).and_then(|rb| diff_streams(ra, rb, opts))
    });
    let r = match report {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let mut text = String::new();
    if let Some(d) = &r.first {
        text.push_str(&format!("{d}\n"));
    }
    if r.same_length() {
        match &r.first {
            None => text.push_str(&format!("equal: {} lines\n", r.lines)),
            Some(_) => text.push_str(&format!(
                "{} of {} steps differ\n",
                r.divergent_steps, r.lines
            )),
        }
    } else {
        match &r.first {
            None => text.push_str(&format!("the {} common steps are equal\n", r.lines)),
            Some(_) => text.push_str(&format!(
                "{} of {} common steps differ\n",
                r.divergent_steps, r.lines
            )),
        }
        text.push_str(&format!(
            "{} has {} lines but {} has {}: the traces cover different step counts\n",
            b.display(),
            r.lines_b,
            a.display(),
            r.lines_a
        ));
    }
    let code = emit(&text);
    if code != ExitCode::SUCCESS {
        return code;
    }
    if r.is_equal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
