//! The Python package on a built wheel: maturin builds crates/python into a wheel, a fresh
//! venv installs it, and pytest runs crates/python/tests against it, including the
//! comparison of `retroanim.run_scenario` with this `retroanim run` on scenarios of every
//! engine.
//!
//! Needs python3 with the modules maturin, numpy and pytest (`scripts/test` installs the
//! pinned versions). The build script checks for them: when one is missing the test is
//! reported ignored with how to install it, unless `RETROANIM_NO_SKIP` is set, in which case
//! it runs and fails on the missing piece.

use retroanim_testkit::{require, MATURIN, NUMPY, PYTEST, PYTHON3};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

#[test]
#[cfg_attr(
    missing_python_tools,
    ignore = "needs python3 with maturin, numpy and pytest: python3 -m pip install maturin==1.16.0 numpy==2.4.6 pytest==9.2.0; or scripts/test"
)]
fn the_wheel_installs_in_a_fresh_venv_and_passes_pytest() {
    require(&[PYTHON3, MATURIN, NUMPY, PYTEST]);
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-wheel");
    let wheels = tmp.join("wheels");
    let venv = tmp.join("venv");
    let _ = std::fs::remove_dir_all(&wheels);
    let _ = std::fs::remove_dir_all(&venv);
    // A target folder of its own: the outer `cargo test` holds the workspace's lock.
    run(
        Command::new("python3")
            .args(["-m", "maturin", "build", "--release", "--quiet", "-m"])
            .arg(root().join("crates/python/Cargo.toml"))
            .arg("--out")
            .arg(&wheels)
            .env("CARGO_TARGET_DIR", tmp.join("target"))
            .current_dir(root()),
        "maturin build",
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("maturin made the folder")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote a wheel");
    // Fresh, but seeing the interpreter's numpy and pytest, so nothing is downloaded here.
    run(
        Command::new("python3")
            .args(["-m", "venv", "--system-site-packages"])
            .arg(&venv),
        "python3 -m venv",
    );
    let python = venv.join("bin/python");
    run(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--no-index", "--no-deps"])
            .arg(&wheel),
        "pip install the wheel",
    );
    // The module imported is the venv's, not a source folder's.
    let found = run(
        Command::new(&python)
            .args(["-c", "import retroanim; print(retroanim.__file__)"])
            .current_dir(&tmp),
        "import retroanim",
    );
    assert!(
        found.trim().starts_with(venv.to_str().unwrap()),
        "imported from {found}"
    );
    let report = run(
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(root().join("crates/python/tests"))
            .env("RETROANIM_BIN", env!("CARGO_BIN_EXE_retroanim"))
            .current_dir(&tmp),
        "pytest",
    );
    println!("{report}");
    assert!(report.contains(" passed"), "{report}");
    assert!(!report.contains("skipped"), "no test may skip: {report}");
}
