//! The real-browser end-to-end test: starts the server in-process on a free port and
//! runs `node crates/browser/e2e/e2e.mjs URL`, which drives Debian's Chromium through
//! playwright-core (see that script for what it checks).
//!
//! Needs `node`, `/usr/bin/chromium` (or `$CHROMIUM`) and `npm ci` in
//! crates/browser/e2e. The build script checks for them: when one is missing the test is
//! reported ignored with how to install it, unless `RETROANIM_NO_SKIP` is set, in which
//! case it runs and fails on the missing piece.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_testkit::{require, CHROMIUM, NODE, PLAYWRIGHT};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(480);

#[test]
#[cfg_attr(
    missing_browser,
    ignore = "needs chromium, node and playwright-core: apt-get install -y chromium nodejs npm; cd crates/browser/e2e && npm ci; or scripts/test"
)]
fn e2e_in_headless_chromium() {
    require(&[CHROMIUM, NODE, PLAYWRIGHT]);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let e2e = here.join("e2e");

    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let assets = here.join("../../assets");
    let opts = retroanim_browser::Options {
        es2: Some(std::sync::Arc::new(es2_fixture(&assets))),
        ..Default::default()
    };
    let served = assets.clone();
    std::thread::spawn(move || {
        if let Err(e) = retroanim_browser::serve_listener_with(listener, &served, opts) {
            eprintln!("server stopped: {e:#}");
        }
    });

    // A second server with a DAT open (`browse --ac-dat`): one the project's own DAT
    // writer makes from the sample records (no game data here).
    let dat_listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let dat_url = format!("http://{}/", dat_listener.local_addr().unwrap());
    let dat = retroanim_browser::user_data::AcDat::open(&sample_dat(&assets))
        .expect("the sample DAT opens");
    let dat_assets = assets.clone();
    std::thread::spawn(move || {
        let opts = retroanim_browser::limits::Options {
            ac_dat: Some(std::sync::Arc::new(dat)),
            ..Default::default()
        };
        if let Err(e) = retroanim_browser::serve_listener_with(dat_listener, &dat_assets, opts) {
            eprintln!("DAT server stopped: {e:#}");
        }
    });

    // Each view's trace and scenario, exported by the script after its checks.
    let exports = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-e2e-exports");
    let _ = std::fs::remove_dir_all(&exports);
    std::fs::create_dir_all(&exports).expect("create the exports folder");

    let mut child = Command::new("node")
        .arg(e2e.join("e2e.mjs"))
        .arg(&url)
        .env("RETROANIM_E2E_EXPORTS", &exports)
        .env("RETROANIM_E2E_DAT_URL", &dat_url)
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
            let _ = child.wait();
            panic!("the browser e2e script did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "the browser e2e script failed: {status}");

    // What the page exported equals what the engines' own runners (`retroanim run`)
    // write for the exported scenario (the AC one is the move-to world the script
    // left the view in; the herc one is exported before the --es2 check moves the view
    // onto the fixture's shape, which names the server's folder).
    for engine in ["herc", "ac", "actor"] {
        let trace = std::fs::read_to_string(exports.join(format!("{engine}.jsonl")))
            .unwrap_or_else(|e| panic!("{engine}: no exported trace: {e}"));
        let doc: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(exports.join(format!("{engine}.json"))).unwrap(),
        )
        .unwrap();
        assert!(
            trace.lines().count() >= 3,
            "{engine}: the export holds steps"
        );
        assert_eq!(
            trace,
            native_trace(engine, doc, &assets.join(engine).join("scenarios")),
            "{engine}: the page's trace differs from retroanim run on its exported scenario"
        );
    }
}

/// Every sample AC record (motion table, clips, Setup, part boxes) in one DAT written by
/// `retroanim_ac::records::dat::write_dat`; returns its path.
fn sample_dat(assets: &Path) -> PathBuf {
    let mut records = Vec::new();
    for e in std::fs::read_dir(assets.join("ac/records")).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        records.push((
            u32::from_str_radix(&stem, 16).unwrap(),
            std::fs::read(&p).unwrap(),
        ));
    }
    records.sort_by_key(|r| r.0);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-e2e-sample.dat");
    std::fs::write(
        &path,
        retroanim_ac::records::dat::write_dat(&records, 1024, 62),
    )
    .unwrap();
    path
}

/// What `retroanim run` writes for scenario `doc` read as if it sat in `dir`.
fn native_trace(engine: &str, doc: serde_json::Value, dir: &Path) -> String {
    let s = retroanim_core::Scenario::from_value(doc, engine, dir.to_path_buf())
        .unwrap_or_else(|e| panic!("{engine}: the exported scenario does not load: {e}"));
    let lines = match engine {
        "ac" => retroanim_core::sim::run_scenario::<retroanim_ac::AcSim>(&s),
        "actor" => retroanim_actor::scenario::run_scenario(&s),
        _ if retroanim_herc::mech_scenario::is_mech_scenario(&s) => {
            retroanim_herc::mech_scenario::run(&s)
        }
        _ => retroanim_herc::scenario::run(&s),
    };
    retroanim_core::trace::to_jsonl(
        &lines.unwrap_or_else(|e| panic!("{engine}: the exported scenario does not run: {e}")),
    )
}

/// An Earthsiege 2 folder for `--es2`: SIMVOL0.VOL written by the project's VOL writer,
/// holding the sample biped's DTS (with its box meshes), chassis record, palette and bank.
fn es2_fixture(assets: &Path) -> retroanim_browser::es2::Es2Folder {
    use retroanim_herc::formats::vol::{VolArchive, VolEntry};
    let dir = std::env::temp_dir().join(format!("retroanim-e2e-es2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let read = |f: &str| std::fs::read(assets.join("herc").join(f)).unwrap();
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
    std::fs::write(dir.join("SIMVOL0.VOL"), vol.write().unwrap()).unwrap();
    retroanim_browser::es2::Es2Folder::open(&dir).unwrap()
}
