//! The static site in a real (headless) Chromium: builds `retroanim-wasm` for
//! `wasm32-unknown-unknown`, runs `retroanim export-site`, serves the folder under the
//! sub-path `/retroanim/` (as a GitHub Pages project site is) with a plain static file
//! server (no API behind it, nothing at `/`), and runs the browser's own e2e
//! checks (`crates/browser/e2e/e2e.mjs`) against it with the wasm transport. Each
//! view's exported trace must then equal `retroanim run` on its exported scenario.
//! A DAT written by `retroanim_ac::records::dat::write_dat` from the sample records is
//! then opened through the page's file input and played (`RETROANIM_E2E_DAT_FILE`), and a
//! SIMVOL0.VOL of the herc VOL writer the same way (`RETROANIM_E2E_VOL_FILE`); the page
//! must ask the file server for nothing outside the sub-path and send it nothing but GETs
//! (a visitor's files stay in the page).
//!
//! Needs the wasm32 target, `node`, `/usr/bin/chromium` (or `$CHROMIUM`) and `npm ci`
//! in crates/browser/e2e. The build script checks for them: when one is missing the test
//! is reported ignored with how to install it, unless `RETROANIM_NO_SKIP` is set, in which
//! case it runs and fails on the missing piece.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_testkit::{require, CHROMIUM, NODE, PLAYWRIGHT, WASM32};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where the test serves the site: a sub-path, so an absolute URL in the page misses.
const SUB_PATH: &str = "/retroanim/";

const TIMEOUT: Duration = Duration::from_secs(540);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_retroanim")
}

/// What the page asked the file server for that a static host would not give it.
#[derive(Default)]
struct Strays {
    /// Requests outside [`SUB_PATH`] (an absolute URL in the page).
    outside: AtomicUsize,
    /// Requests other than GET (the page sending something: a visitor's own files must
    /// never leave the page).
    uploads: AtomicUsize,
}

/// A plain file server: GET of a path under [`SUB_PATH`] from `dir`, nothing else;
/// requests outside the sub-path are answered 404 and counted, and so is every request
/// that is not a GET.
fn serve(listener: TcpListener, dir: PathBuf, strays: Arc<Strays>) {
    for stream in listener.incoming().flatten() {
        let dir = dir.clone();
        let strays = strays.clone();
        std::thread::spawn(move || answer(stream, &dir, &strays));
    }
}

fn answer(mut stream: TcpStream, dir: &Path, strays: &Strays) {
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    let method = first.split_whitespace().next().unwrap_or("");
    if method != "GET" {
        eprintln!("a {method} request: {}", first.trim_end());
        strays.uploads.fetch_add(1, Ordering::SeqCst);
    }
    let path = first.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let Some(rel) = path.strip_prefix(SUB_PATH) else {
        eprintln!("request outside {SUB_PATH}: {path}");
        strays.outside.fetch_add(1, Ordering::SeqCst);
        let _ = stream.write_all(
            b"HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found",
        );
        return;
    };
    let rel = if rel.is_empty() { "index.html" } else { rel };
    let file = if rel.contains("..") {
        None
    } else {
        std::fs::read(dir.join(rel)).ok()
    };
    let (status, mime, body) = match file {
        Some(b) => {
            let mime = match rel.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            ("200 OK", mime, b)
        }
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {mime}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

/// `cargo build --profile wasm --target wasm32-unknown-unknown -p retroanim-wasm -p
/// retroanim-gltf-wasm` (the README's command) into a target folder of its own (the outer
/// build holds the workspace's lock); returns the main module, the glTF module sits beside it.
fn build_wasm() -> PathBuf {
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wasm-target");
    let out = Command::new(env!("CARGO"))
        .args([
            "build",
            "--profile",
            "wasm",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "retroanim-wasm",
            "-p",
            "retroanim-gltf-wasm",
        ])
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(root())
        .output()
        .expect("cargo starts");
    assert!(
        out.status.success(),
        "cannot build the wasm module: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    target_dir.join("wasm32-unknown-unknown/wasm/retroanim_wasm.wasm")
}

#[test]
#[cfg_attr(
    missing_site_tools,
    ignore = "needs chromium, node, playwright-core and the wasm32 target: apt-get install -y chromium nodejs npm; cd crates/browser/e2e && npm ci; rustup target add wasm32-unknown-unknown; or scripts/test"
)]
fn the_exported_site_passes_the_browser_checks_and_replays_to_retroanim_run() {
    require(&[CHROMIUM, NODE, PLAYWRIGHT, WASM32]);
    let e2e = root().join("crates/browser/e2e");
    let wasm = build_wasm();
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-e2e");
    let _ = std::fs::remove_dir_all(&work);
    let site = work.join("site");
    let exports = work.join("exports");
    std::fs::create_dir_all(&exports).unwrap();
    let out = Command::new(bin())
        .arg("export-site")
        .arg(&site)
        .arg("--wasm")
        .arg(&wasm)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "export-site: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Its size (through wasm-opt when scripts/test installed it) is in the summary.
    let summary = String::from_utf8_lossy(&out.stdout);
    print!("export-site: {summary}");
    // Every visitor downloads the module before the first frame: at most 1,500,000 bytes.
    let served = module_bytes(&summary);
    assert!(
        served <= MAX_MODULE_BYTES,
        "static/retroanim.wasm is {served} bytes, over {MAX_MODULE_BYTES} (see the summary above)"
    );

    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let url = format!("http://{}{SUB_PATH}", listener.local_addr().unwrap());
    let served = site.clone();
    let strays = Arc::new(Strays::default());
    let counted = strays.clone();
    std::thread::spawn(move || serve(listener, served, counted));

    let mut child = Command::new("node")
        .arg(e2e.join("e2e.mjs"))
        .arg(&url)
        .env("RETROANIM_E2E_WASM", "1")
        .env("RETROANIM_E2E_EXPORTS", &exports)
        .env("RETROANIM_E2E_DAT_FILE", sample_dat(&work))
        .env("RETROANIM_E2E_VOL_FILE", sample_vol(&work))
        .current_dir(&e2e)
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start node");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for node") {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("the static-site e2e run took longer than {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        status.success(),
        "the browser checks failed on the static site (see the output above)"
    );
    assert_eq!(
        strays.outside.load(Ordering::SeqCst),
        0,
        "the page asked for files outside {SUB_PATH} (an absolute URL; see the output above)"
    );
    // The DAT and the VOL files were opened and played without a byte sent anywhere.
    assert_eq!(
        strays.uploads.load(Ordering::SeqCst),
        0,
        "the page sent requests other than GET (see the output above)"
    );

    if let Ok(text) = std::fs::read_to_string(exports.join("bench.json")) {
        native_beside_page(&text);
    }

    // The exported scenarios name their assets as if they sat in the engine folder's
    // scenarios/: replay each from a copy of that folder.
    for engine in ["herc", "ac", "actor"] {
        let trace = std::fs::read_to_string(exports.join(format!("{engine}.jsonl")))
            .unwrap_or_else(|e| panic!("{engine}: no exported trace: {e}"));
        let folder = work.join("replay").join(engine);
        copy_dir(&root().join("assets").join(engine), &folder);
        let scenario = folder.join("scenarios/exported.json");
        std::fs::copy(exports.join(format!("{engine}.json")), &scenario).unwrap();
        let run = Command::new(bin())
            .arg("run")
            .arg(&scenario)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{engine}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            trace.lines().count() >= 3,
            "{engine}: the export holds steps"
        );
        assert_eq!(
            trace,
            String::from_utf8(run.stdout).unwrap(),
            "{engine}: the static page's trace differs from retroanim run"
        );
    }
}

/// The most `static/retroanim.wasm` may weigh, as served.
const MAX_MODULE_BYTES: usize = 1_500_000;

/// The size of `static/retroanim.wasm` in export-site's summary
/// (`… (static/retroanim.wasm: N bytes…`).
fn module_bytes(summary: &str) -> usize {
    summary
        .split_once("static/retroanim.wasm: ")
        .and_then(|(_, rest)| rest.split_once(' '))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no module size in export-site's summary: {summary}"))
}

/// With `RETROANIM_E2E_BENCH=TICKS` (and `--release`): the page's three runs of the `retroanim bench ac`
/// workload beside three runs of the same workload natively, and the ratio of the
/// medians (a figure for docs/performance.md, not a pass mark: it depends on the
/// machine's load). The checksums must agree: the module ticks the same world.
fn native_beside_page(page_runs: &str) {
    let runs: serde_json::Value = serde_json::from_str(page_runs).expect("e2e.mjs writes JSON");
    let runs = runs.as_array().expect("an array of runs");
    let ticks = runs[0]["ticks"].as_u64().expect("ticks").to_string();
    let mut page: Vec<f64> = runs.iter().filter_map(|r| r["rate"].as_f64()).collect();
    let mut native = Vec::new();
    for _ in 0..3 {
        let out = Command::new(bin())
            .args([
                "bench",
                "ac",
                "--entities",
                "10000",
                "--ticks",
                &ticks,
                "--json",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for r in runs {
            assert_eq!(
                r["checksum"], v["checksum"],
                "the page's bench world differs from the native one"
            );
        }
        native.push(v["entity_ticks_per_second"].as_f64().unwrap());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (p, n) = (median(&mut page), median(&mut native));
    if cfg!(debug_assertions) {
        println!("     bench ac: the native figures come from a debug build; run the test with --release to compare");
        return;
    }
    println!(
        "     bench ac, 10,000 x {ticks} ticks: page {:.2} M, native {:.2} M entity-ticks/s (medians of 3): {:.2} of native",
        p / 1e6,
        n / 1e6,
        p / n
    );
}

/// Every sample AC record in one DAT written by the project's own writer
/// (`write_dat`), in `dir`; returns its path.
fn sample_dat(dir: &Path) -> PathBuf {
    let mut records = Vec::new();
    for e in std::fs::read_dir(root().join("assets/ac/records")).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        records.push((
            u32::from_str_radix(&stem, 16).unwrap(),
            std::fs::read(&p).unwrap(),
        ));
    }
    records.sort_by_key(|r| r.0);
    let path = dir.join("client_portal.dat");
    std::fs::write(
        &path,
        retroanim_ac::records::dat::write_dat(&records, 1024, 61),
    )
    .unwrap();
    path
}

/// SIMVOL0.VOL written by the project's VOL writer, holding the sample biped's DTS and
/// chassis record, in `dir`; returns its path.
fn sample_vol(dir: &Path) -> PathBuf {
    use retroanim_herc::formats::vol::{VolArchive, VolEntry};
    let read = |f: &str| std::fs::read(root().join("assets/herc").join(f)).unwrap();
    let vol = VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into(), "dat".into(), "dpl".into(), "dba".into()],
        entries: vec![
            VolEntry::stored("BIPED.DTS", 0, read("biped.dts")).unwrap(),
            VolEntry::stored("BIPED.DAT", 1, read("biped.chassis.bin")).unwrap(),
            // A theater palette and the bank the chassis names (rec 148 = 0: LIGHT), here
            // the sample's own palette and textures.
            VolEntry::stored("WORLD1.DPL", 2, read("biped.dpl")).unwrap(),
            VolEntry::stored("LIGHT.DBA", 3, read("biped.dba")).unwrap(),
        ],
        list_extra: Vec::new(),
    };
    let path = dir.join("SIMVOL0.VOL");
    std::fs::write(&path, vol.write().unwrap()).unwrap();
    path
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn export_site_without_the_module_names_the_command_that_builds_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-no-module");
    let out = Command::new(bin())
        .arg("export-site")
        .arg(&dir)
        .arg("--wasm")
        .arg(dir.join("absent.wasm"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("absent.wasm"), "{err}");
    assert!(
        err.contains(
            "cargo build --profile wasm --target wasm32-unknown-unknown -p retroanim-wasm -p retroanim-gltf-wasm"
        ),
        "{err}"
    );
    assert!(
        !dir.join("index.html").exists(),
        "nothing is written without the module"
    );
}

#[test]
fn export_site_refuses_a_file_that_is_not_webassembly() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-not-wasm");
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("fake.wasm");
    std::fs::write(&fake, b"<html>").unwrap();
    let out = Command::new(bin())
        .arg("export-site")
        .arg(dir.join("site"))
        .arg("--wasm")
        .arg(&fake)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a WebAssembly module"), "{err}");
}

#[test]
fn export_site_finds_the_module_under_cargo_target_dir_by_default() {
    // A folder that is not a checkout: the module exists only under $CARGO_TARGET_DIR.
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-target-dir");
    let _ = std::fs::remove_dir_all(&work);
    let target = work.join("elsewhere-target");
    let module_dir = target.join("wasm32-unknown-unknown/wasm");
    std::fs::create_dir_all(&module_dir).unwrap();
    // The smallest WebAssembly module: the magic and version 1.
    let module = b"\0asm\x01\0\0\0";
    std::fs::write(module_dir.join("retroanim_wasm.wasm"), module).unwrap();
    let out = Command::new(bin())
        .arg("export-site")
        .arg("site")
        .arg("--no-wasm-opt")
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(&work)
        .output()
        .unwrap();
    // The glTF export module is looked for beside the main one, and both are named.
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read the glTF export module")
            && err.contains("wasm32-unknown-unknown/wasm/retroanim_gltf_wasm.wasm"),
        "{err}"
    );
    let gltf_module = b"\0asm\x01\0\0\0\0\x01\x00";
    std::fs::write(module_dir.join("retroanim_gltf_wasm.wasm"), gltf_module).unwrap();
    let out = Command::new(bin())
        .arg("export-site")
        .arg("site")
        .arg("--no-wasm-opt")
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "export-site: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(work.join("site/static/retroanim.wasm")).unwrap(),
        module
    );
    assert_eq!(
        std::fs::read(work.join("site/static/retroanim-gltf.wasm")).unwrap(),
        gltf_module
    );
    assert!(work.join("site/static/retroanim-gltf-wasm.js").is_file());
    // Without the variable the default is target/ of the current folder, and the
    // message names that path.
    let out = Command::new(bin())
        .arg("export-site")
        .arg("site2")
        .env_remove("CARGO_TARGET_DIR")
        .current_dir(&work)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "cannot read the wasm module target/wasm32-unknown-unknown/wasm/retroanim_wasm.wasm"
        ),
        "{err}"
    );
}

#[test]
fn export_site_puts_the_module_through_the_named_wasm_opt() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-wasm-opt");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // The smallest module followed by a custom section named "x" holding "junk".
    let built = work.join("built.wasm");
    std::fs::write(&built, b"\0asm\x01\0\0\0\0\x06\x01xjunk").unwrap();
    // The glTF export module, looked for beside the main one (copied as it is).
    std::fs::write(work.join("retroanim_gltf_wasm.wasm"), b"\0asm\x01\0\0\0").unwrap();
    // A stand-in wasm-opt: writes the smallest module to the file after `-o`, and records
    // its arguments.
    let program = work.join("wasm-opt");
    std::fs::write(
        &program,
        "#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args\"\nwhile [ $# -gt 1 ]; do shift; done\nprintf '\\000asm\\001\\000\\000\\000' > \"$1\"\n",
    )
    .unwrap();
    let out = Command::new("chmod")
        .arg("+x")
        .arg(&program)
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = Command::new(bin())
        .arg("export-site")
        .arg(work.join("site"))
        .arg("--wasm")
        .arg(&built)
        .arg("--wasm-opt")
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "export-site: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(work.join("site/static/retroanim.wasm")).unwrap(),
        b"\0asm\x01\0\0\0"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("static/retroanim.wasm: 8 bytes, 16 as built, through wasm-opt"),
        "{stdout}"
    );
    let args = std::fs::read_to_string(work.join("args")).unwrap();
    assert!(args.starts_with("-Oz --enable-simd "), "{args}");
    assert!(!work.join("site/static/retroanim.wasm-opt.tmp").exists());

    // A wasm-opt named on the command line that fails is an error, and names itself.
    let out = Command::new(bin())
        .arg("export-site")
        .arg(work.join("site2"))
        .arg("--wasm")
        .arg(&built)
        .arg("--wasm-opt")
        .arg("/bin/false")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/bin/false failed"), "{err}");
}

#[test]
fn the_page_names_its_files_and_the_api_relative_to_itself() {
    // Under a sub-path an absolute `/static/...` or `/api/...` misses the site.
    let page = retroanim_browser::INDEX_HTML;
    for attr in ["href=\"/", "src=\"/", "\": \"/"] {
        assert!(
            !page.contains(attr),
            "index.html has an absolute URL ({attr})"
        );
    }
    assert!(page.contains("<script type=\"module\" src=\"static/app.js\">"));
    for (path, _, bytes) in retroanim_browser::STATIC_FILES {
        if !path.ends_with(".js") || path.starts_with("vendor") {
            continue;
        }
        let text = std::str::from_utf8(bytes).unwrap();
        for absolute in [
            "'/api",
            "`/api",
            "\"/api",
            "'/static",
            "`/static",
            "\"/static",
        ] {
            assert!(!text.contains(absolute), "{path} has {absolute}");
        }
    }
    // The glue answers the export links the page now writes relative to itself.
    assert!(retroanim_wasm::GLUE_JS.contains("a[href^=\"api/\"]"));
}
