//! `run` and `diff` stream: memory stays flat however long the scenario or trace, a
//! reader that goes away ends `run` quietly, and the streamed trace is byte for byte
//! what the engines' whole-trace runners produce.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_core::trace::to_jsonl;
use retroanim_core::Scenario;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retroanim-stream-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the retroanim binary runs")
}

/// Peak resident set (VmHWM, KiB) of a running child, polled until it exits; a hang
/// guard kills it after `limit`.
fn peak_rss_kib(child: &mut Child, limit: Duration) -> u64 {
    let status = format!("/proc/{}/status", child.id());
    let start = Instant::now();
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if child.try_wait().unwrap().is_some() {
            return peak;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the child did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// An actor scenario on an empty 18 x 18 map: every line is small and cheap, so the
/// test measures the runner, not the engine.
fn write_update_scenario(path: &Path, steps: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(
        br#"{"engine":"actor","assets":{"map":{"width":18,"height":18},"models":[],"scripts":[],"actors":[]},"steps":["#,
    )
    .unwrap();
    for i in 0..steps {
        if i > 0 {
            f.write_all(b",").unwrap();
        }
        f.write_all(br#"{"op":"update"}"#).unwrap();
    }
    f.write_all(b"]}").unwrap();
    f.flush().unwrap();
}

#[test]
fn run_of_a_million_steps_stays_under_200_mb() {
    let d = temp_dir("million");
    let scenario = d.join("long.json");
    write_update_scenario(&scenario, 1_000_000);
    let mut child = spawn(&["run", scenario.to_str().unwrap()]);
    let peak = peak_rss_kib(&mut child, Duration::from_secs(600));
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "retroanim: 1000001 trace lines\n"
    );
    eprintln!("run of 1,000,000 steps: peak RSS {peak} KiB");
    assert!(peak > 0, "VmHWM was read");
    assert!(peak < 200 * 1024, "peak RSS {peak} KiB");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn diff_of_a_large_trace_against_itself_runs_in_bounded_memory() {
    let d = temp_dir("diff");
    let trace = d.join("big.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&trace).unwrap());
    // 130,000 lines of about 400 bytes: 50 MB, which a whole-file diff holds twice
    // as text and many times over as parsed values.
    let pad = "x".repeat(300);
    for i in 0..130_000 {
        writeln!(
            f,
            r#"{{"step":{i},"op":"update","pos":[{i}.5,-2.25,0.125],"ids":["0x0300000{}"],"pad":"{pad}"}}"#,
            i % 10
        )
        .unwrap();
    }
    f.flush().unwrap();
    drop(f);
    assert!(std::fs::metadata(&trace).unwrap().len() > 50_000_000);
    let t = trace.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(["diff", t, t])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let peak = peak_rss_kib(&mut child, Duration::from_secs(300));
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "equal: 130000 lines\n"
    );
    eprintln!("diff of a 52 MB trace: peak RSS {peak} KiB");
    assert!(peak < 32 * 1024, "peak RSS {peak} KiB");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn run_into_a_closed_pipe_exits_quietly() {
    let d = temp_dir("pipe");
    let scenario = d.join("long.json");
    write_update_scenario(&scenario, 200_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(["run", scenario.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here, as `head -1` exits after its line.
    assert!(first.starts_with(r#"{"step":0,"op":"setup""#), "{first}");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("run kept going after its reader left");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let _ = std::fs::remove_dir_all(&d);
}

fn scenarios() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in [
        "crates/ac/tests/conformance/scenarios",
        "crates/herc/tests/conformance/scenarios",
        "crates/actor/tests/conformance/scenarios",
        "assets/ac/scenarios",
        "assets/herc/scenarios",
        "assets/actor/scenarios",
    ] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                all.push(p);
            }
        }
    }
    all.sort();
    all
}

fn whole_runner(s: &Scenario) -> Result<Vec<serde_json::Value>, retroanim_core::ScenarioError> {
    match s.engine.as_str() {
        "ac" => retroanim_core::run_scenario::<retroanim_ac::AcSim>(s),
        "herc" => retroanim_herc::run(s),
        "actor" => retroanim_actor::run_scenario(s),
        other => panic!("no engine {other}"),
    }
}

#[test]
fn streamed_run_output_equals_the_whole_trace_runners_byte_for_byte() {
    let all = scenarios();
    assert!(all.len() > 40, "{} scenarios", all.len());
    for path in all {
        let out = Command::new(env!("CARGO_BIN_EXE_retroanim"))
            .arg("run")
            .arg(&path)
            .output()
            .unwrap();
        let whole = Scenario::from_file(&path).and_then(|s| whole_runner(&s));
        match whole {
            Ok(lines) => {
                assert!(out.status.success(), "{}: {:?}", path.display(), out);
                assert!(
                    out.stdout == to_jsonl(&lines).as_bytes(),
                    "{}: the streamed trace differs",
                    path.display()
                );
                let trace = path
                    .parent()
                    .unwrap()
                    .with_file_name("traces")
                    .join(path.file_stem().unwrap())
                    .with_extension("jsonl");
                if let Ok(committed) = std::fs::read(&trace) {
                    let text = String::from_utf8_lossy(&committed);
                    // Committed traces from outside oracles may format numbers
                    // differently; the ones this program wrote are its exact output.
                    if text.lines().count() == lines.len() && committed == out.stdout {
                        continue;
                    }
                    let want = retroanim_core::trace::parse_trace(&text, "t").unwrap();
                    assert_eq!(want.len(), lines.len(), "{}", trace.display());
                }
            }
            Err(e) => {
                assert_eq!(out.status.code(), Some(2), "{}", path.display());
                assert_eq!(
                    String::from_utf8_lossy(&out.stderr),
                    format!("retroanim: {e}\n"),
                    "{}",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn a_failed_run_with_output_leaves_no_file() {
    let d = temp_dir("partial");
    let scenario = d.join("bad.json");
    std::fs::write(
        &scenario,
        r#"{"engine":"actor","assets":{"map":{"width":18,"height":18},"models":[],"scripts":[],"actors":[]},"steps":[{"op":"update"},{"op":"update","x":"?"},{"op":"nope"}]}"#,
    )
    .unwrap();
    let out_path = d.join("out.jsonl");
    let o = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args([
            "run",
            scenario.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("steps[2]"),
        "{o:?}"
    );
    assert!(!out_path.exists());
    let left: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
    assert_eq!(left.len(), 1, "only the scenario is left: {left:?}");
    let _ = std::fs::remove_dir_all(&d);
}
