//! The programs outside Rust that some retroanim tests drive (a C compiler, valgrind,
//! Mono, Chromium, Node.js with playwright-core and three.js, Blender, the wasm32 target),
//! found once, in one place, for two callers:
//!
//! * a crate's build script calls [`gate`]: when something its tests need is missing it
//!   sets a `cfg`, and each such test carries
//!   `#[cfg_attr(missing_x, ignore = "needs …: how to install it")]`, so `cargo test`
//!   reports it *ignored* with that reason (and counts it), never `ok`;
//! * the test itself calls [`require`] before using the tools: it panics naming what is
//!   missing and how to install it. That is what happens with `RETROANIM_NO_SKIP` set
//!   (`scripts/test` and CI set it), where [`gate`] never ignores anything.
//!
//! Whether a test can run is thus decided when it is compiled. The build script asks
//! cargo to run it again when the answer could change: when a found tool's file changes
//! or disappears, when a folder where a missing one would appear changes, and when
//! `PATH`, `CHROMIUM` or `RETROANIM_NO_SKIP` change.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set (to anything) to run every gated test even when its tools are missing, so that a
/// missing tool fails the test instead of skipping it.
pub const NO_SKIP: &str = "RETROANIM_NO_SKIP";

/// Something a test needs from outside Rust, and the command that installs it.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// What the messages call it.
    pub name: &'static str,
    /// How to install it on Debian (`scripts/test` installs them all).
    pub install: &'static str,
    find: Find,
}

#[derive(Clone, Copy, Debug)]
enum Find {
    /// An executable on `PATH`.
    Program(&'static str),
    /// A file at this path, or at the path in the environment variable when it is set.
    File {
        path: &'static str,
        var: Option<&'static str>,
    },
    /// A folder of this repository (relative to its root), e.g. one `npm ci` fills.
    InRepository(&'static str),
    /// A Rust target whose standard library is installed.
    RustTarget(&'static str),
    /// A module `python3` can import.
    PythonModule(&'static str),
}

/// The C compiler for the C examples.
pub const GCC: Need = Need {
    name: "gcc",
    install: "apt-get install -y gcc",
    find: Find::Program("gcc"),
};
/// The C library's headers and start files, without which gcc cannot build a program.
pub const LIBC_DEV: Need = Need {
    name: "the C library headers (/usr/include/stdio.h)",
    install: "apt-get install -y libc6-dev",
    find: Find::File {
        path: "/usr/include/stdio.h",
        var: None,
    },
};
/// The memory checker the C examples run under.
pub const VALGRIND: Need = Need {
    name: "valgrind",
    install: "apt-get install -y valgrind",
    find: Find::Program("valgrind"),
};
/// Mono's C# compiler, for the .NET binding.
pub const MCS: Need = Need {
    name: "mcs",
    install: "apt-get install -y mono-mcs",
    find: Find::Program("mcs"),
};
/// Mono's runtime, for the .NET binding.
pub const MONO: Need = Need {
    name: "mono",
    install: "apt-get install -y mono-runtime",
    find: Find::Program("mono"),
};
/// pkg-config, which the packaging test builds a C host with (crates/ffi/pkg).
pub const PKG_CONFIG: Need = Need {
    name: "pkg-config",
    install: "apt-get install -y pkg-config",
    find: Find::Program("pkg-config"),
};
/// CMake, which the packaging test builds a C host with (crates/ffi/pkg).
pub const CMAKE: Need = Need {
    name: "cmake",
    install: "apt-get install -y cmake",
    find: Find::Program("cmake"),
};
/// The browser the end-to-end tests drive.
pub const CHROMIUM: Need = Need {
    name: "chromium",
    install: "apt-get install -y chromium, or set CHROMIUM to a Chromium binary",
    find: Find::File {
        path: "/usr/bin/chromium",
        var: Some("CHROMIUM"),
    },
};
/// Node.js, which runs the end-to-end script.
pub const NODE: Need = Need {
    name: "node",
    install: "apt-get install -y nodejs npm",
    find: Find::Program("node"),
};
/// The npm package the end-to-end script drives Chromium with.
pub const PLAYWRIGHT: Need = Need {
    name: "crates/browser/e2e/node_modules/playwright-core",
    install: "cd crates/browser/e2e && npm ci",
    find: Find::InRepository("crates/browser/e2e/node_modules/playwright-core"),
};
/// The Khronos glTF validator the exported .glb files are checked with.
pub const GLTF_VALIDATOR: Need = Need {
    name: "crates/gltf/validator/node_modules/gltf-validator",
    install: "cd crates/gltf/validator && npm ci",
    find: Find::InRepository("crates/gltf/validator/node_modules/gltf-validator"),
};
/// The WebAssembly target, for the static site's module.
pub const WASM32: Need = Need {
    name: "the wasm32-unknown-unknown target",
    install: "rustup target add wasm32-unknown-unknown",
    find: Find::RustTarget("wasm32-unknown-unknown"),
};
/// three.js and playwright-core for the glTF exports' three.js check.
pub const THREE_JS: Need = Need {
    name: "crates/gltf/threejs/node_modules/three",
    install: "cd crates/gltf/threejs && npm ci",
    find: Find::InRepository("crates/gltf/threejs/node_modules/three"),
};
/// Blender, which imports the glTF exports headless.
pub const BLENDER: Need = Need {
    name: "blender",
    install: "apt-get install -y blender python3-numpy",
    find: Find::Program("blender"),
};
/// numpy for Blender's Python (Debian's Blender runs the system Python); its glTF importer
/// needs it.
pub const BLENDER_NUMPY: Need = Need {
    name: "numpy (/usr/lib/python3/dist-packages/numpy)",
    install: "apt-get install -y python3-numpy",
    find: Find::File {
        path: "/usr/lib/python3/dist-packages/numpy/__init__.py",
        var: None,
    },
};

/// The Python interpreter the wheel is built for and tested with.
pub const PYTHON3: Need = Need {
    name: "python3 (with venv)",
    install: "apt-get install -y python3 python3-venv",
    find: Find::Program("python3"),
};
/// The wheel builder of the Python package (crates/python).
pub const MATURIN: Need = Need {
    name: "the Python module maturin",
    install: "python3 -m pip install maturin==1.16.0",
    find: Find::PythonModule("maturin"),
};
/// The Python package's one dependency.
pub const NUMPY: Need = Need {
    name: "the Python module numpy",
    install: "python3 -m pip install numpy==2.4.6",
    find: Find::PythonModule("numpy"),
};
/// The Python package's test runner.
pub const PYTEST: Need = Need {
    name: "the Python module pytest",
    install: "python3 -m pip install pytest==9.2.0",
    find: Find::PythonModule("pytest"),
};

impl Need {
    /// Where it is, or `None` when it is missing.
    pub fn locate(&self) -> Option<PathBuf> {
        match self.find {
            Find::Program(name) => on_path(name),
            Find::File { path, var } => {
                let p = var
                    .and_then(env::var_os)
                    .filter(|v| !v.is_empty())
                    .map_or_else(|| PathBuf::from(path), PathBuf::from);
                p.is_file().then_some(p)
            }
            Find::InRepository(rel) => Some(repository().join(rel)).filter(|p| p.is_dir()),
            Find::RustTarget(triple) => Some(target_libdir(triple)?).filter(|p| p.is_dir()),
            Find::PythonModule(module) => python_module(module),
        }
    }

    /// "`name` not found (`install`)".
    fn missing(&self) -> String {
        format!("{} not found ({})", self.name, self.install)
    }
}

/// The test's tools, or a panic naming each missing one and how to install it.
#[track_caller]
pub fn require(needs: &[Need]) {
    let missing: Vec<String> = needs
        .iter()
        .filter(|n| n.locate().is_none())
        .map(Need::missing)
        .collect();
    assert!(
        missing.is_empty(),
        "this test cannot run: {}; `scripts/test` installs everything",
        missing.join("; ")
    );
}

/// For a build script: declares `cfg(name)` and sets it when one of `needs` is missing,
/// unless [`NO_SKIP`] is set; the tests that need them carry
/// `#[cfg_attr(name, ignore = "…")]`.
pub fn gate(cfg: &str, needs: &[Need]) {
    println!("cargo::rustc-check-cfg=cfg({cfg})");
    println!("cargo::rerun-if-env-changed={NO_SKIP}");
    println!("cargo::rerun-if-env-changed=PATH");
    let mut missing = false;
    for need in needs {
        if let Find::File { var: Some(v), .. } = need.find {
            println!("cargo::rerun-if-env-changed={v}");
        }
        match need.locate() {
            Some(found) => watch_found(need, &found),
            None => {
                watch_missing(need);
                missing = true;
            }
        }
    }
    // No cargo warning: the ignored test's own line says what it needs, and a warning would
    // also greet everyone who only builds the browser on a machine without the test tools.
    if missing && env::var_os(NO_SKIP).is_none() {
        println!("cargo::rustc-cfg={cfg}");
    }
}

/// The repository's root: this crate sits in `crates/testkit`.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn on_path(name: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The folder a target's standard library is installed in (present or not). A build
/// script is given the compiler cargo uses; a test asks the one on `PATH`.
fn target_libdir(triple: &str) -> Option<PathBuf> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "target-libdir", "--target", triple])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !dir.trim().is_empty()).then(|| PathBuf::from(dir.trim()))
}

/// Where `python3` imports `module` from (its package folder or file), if it can.
fn python_module(module: &str) -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            &format!("import {module}, os; print(os.path.dirname({module}.__file__))"),
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !dir.trim().is_empty()).then(|| PathBuf::from(dir.trim()))
}

/// A found tool changes or goes away: watch it (cargo reruns the build script when a
/// watched path's modification time changes or the path disappears).
fn watch_found(need: &Need, found: &Path) {
    match need.find {
        // npm rewrites its hidden lockfile on every install.
        Find::InRepository(_) => {
            if let Some(modules) = found.parent() {
                watch(&modules.join(".package-lock.json"));
            }
        }
        Find::RustTarget(_) => watch(&components(found)),
        _ => watch(found),
    }
}

/// A missing tool appears: watch the folders it would appear in.
fn watch_missing(need: &Need) {
    match need.find {
        Find::Program(_) => {
            for dir in env::split_paths(&env::var_os("PATH").unwrap_or_default()) {
                watch(&dir);
            }
        }
        Find::File { path, var } => {
            let p = var
                .and_then(env::var_os)
                .map_or_else(|| PathBuf::from(path), PathBuf::from);
            if let Some(dir) = p.parent() {
                watch(dir);
            }
        }
        Find::InRepository(rel) => {
            let mut p = repository().join(rel);
            while !p.exists() && p.pop() {}
            watch(&p);
        }
        Find::RustTarget(triple) => {
            if let Some(dir) = target_libdir(triple) {
                watch(&components(&dir));
            }
        }
        // pip installs into python3's site-packages: watch that folder.
        Find::PythonModule(_) => {
            if let Some(site) = site_packages() {
                watch(&site);
            }
        }
    }
}

/// python3's site-packages folder, where pip installs modules.
fn site_packages() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !dir.trim().is_empty()).then(|| PathBuf::from(dir.trim()))
}

/// rustup's list of installed components, which it rewrites on every `target add` and
/// `target remove`: `<sysroot>/lib/rustlib/components`, beside `<triple>/lib`.
fn components(target_libdir: &Path) -> PathBuf {
    let rustlib = target_libdir.parent().and_then(Path::parent);
    rustlib.unwrap_or(target_libdir).join("components")
}

/// `rerun-if-changed` for `p` when it exists (cargo would rerun on every build for a
/// missing path) and, for a folder, when it is small: cargo scans a watched folder
/// recursively on every build, so `/` or a toolchain is never watched.
fn watch(p: &Path) {
    if !p.exists() || p.parent().is_none() || (p.is_dir() && !small(p, &mut 0)) {
        return;
    }
    println!("cargo::rerun-if-changed={}", p.display());
}

/// Whether the folder holds at most a few thousand entries, counted recursively.
fn small(dir: &Path, seen: &mut usize) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for e in entries.flatten() {
        *seen += 1;
        if *seen > 5_000 {
            return false;
        }
        if e.file_type().is_ok_and(|t| t.is_dir()) && !small(&e.path(), seen) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABSENT: Need = Need {
        name: "retroanim-no-such-tool",
        install: "apt-get install -y retroanim-no-such-package",
        find: Find::Program("retroanim-no-such-tool"),
    };

    #[test]
    fn a_missing_tool_fails_require_naming_it_and_its_package() {
        let err = std::panic::catch_unwind(|| require(&[ABSENT])).unwrap_err();
        let text = err.downcast_ref::<String>().expect("a formatted message");
        assert_eq!(
            text,
            "this test cannot run: retroanim-no-such-tool not found \
             (apt-get install -y retroanim-no-such-package); `scripts/test` installs everything"
        );
    }

    #[test]
    fn a_program_is_found_on_path_and_the_repository_folder_by_its_path() {
        let sh = Need {
            find: Find::Program("sh"),
            ..ABSENT
        };
        assert!(sh.locate().is_some_and(|p| p.ends_with("sh")));
        let crates = Need {
            find: Find::InRepository("crates/testkit/src"),
            ..ABSENT
        };
        assert_eq!(
            crates.locate().map(|p| p.join("lib.rs").is_file()),
            Some(true)
        );
        assert!(ABSENT.locate().is_none());
    }
}
