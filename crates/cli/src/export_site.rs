//! `retroanim export-site DIR`: the model browser as static files, with the engines
//! compiled to WebAssembly running in the page (no server behind it).
//!
//! The page's files are the server's own; `index.html` gains one flag that makes
//! `api.js` send its calls to `static/wasm-api.js` (the glue of `retroanim-wasm`)
//! instead of `/api`. The module is not built by this command (a build script cannot
//! build another target): it is copied from `--wasm FILE`.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Where `cargo build --target wasm32-unknown-unknown -p retroanim-wasm --release`
/// leaves the module inside cargo's target folder.
pub const WASM_IN_TARGET: &str = "wasm32-unknown-unknown/release/retroanim_wasm.wasm";

/// The module cargo built: under `$CARGO_TARGET_DIR` when that is set (as cargo
/// itself places it), else under `target/` of the current folder (a checkout's root).
pub fn default_wasm() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| PathBuf::from("target"), PathBuf::from)
        .join(WASM_IN_TARGET)
}

const BUILD_HINT: &str = "build it first with `rustup target add wasm32-unknown-unknown && \
cargo build --target wasm32-unknown-unknown -p retroanim-wasm --release` from the workspace \
root, or name it with --wasm FILE";

/// The flag the exported page sets before its scripts run.
const FLAG: &str = "<script>globalThis.RETROANIM_WASM = true;</script>\n";

/// Write the site into `dir` (created when absent; files of an earlier export are
/// replaced). Returns the number of files written.
pub fn export(dir: &Path, wasm: Option<&Path>) -> anyhow::Result<usize> {
    let wasm_path = wasm.map_or_else(default_wasm, Path::to_path_buf);
    let module =
        retroanim_core::input::read_kind(&wasm_path, retroanim_core::input::FileKind::Binary)
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot read the wasm module {}: {}; {BUILD_HINT}",
                    wasm_path.display(),
                    e.reason()
                )
            })?;
    if !module.starts_with(b"\0asm") {
        bail!(
            "{}: not a WebAssembly module (it does not start with \\0asm); {BUILD_HINT}",
            wasm_path.display()
        );
    }
    let index = page(retroanim_browser::INDEX_HTML)?;
    let mut files: Vec<(PathBuf, &[u8])> = vec![
        (PathBuf::from("index.html"), index.as_bytes()),
        (
            PathBuf::from("static/wasm-api.js"),
            retroanim_wasm::GLUE_JS.as_bytes(),
        ),
        (
            PathBuf::from("static/retroanim-worker.js"),
            retroanim_wasm::WORKER_JS.as_bytes(),
        ),
        (PathBuf::from("static/retroanim.wasm"), &module),
    ];
    for (path, _, bytes) in retroanim_browser::STATIC_FILES {
        files.push((Path::new("static").join(path), bytes));
    }
    for (rel, bytes) in &files {
        let to = dir.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&to, bytes).with_context(|| format!("cannot write {}", to.display()))?;
    }
    Ok(files.len())
}

/// The server's page with the transport flag set before the first module script.
fn page(index: &str) -> anyhow::Result<String> {
    let at = index
        .find("<script type=\"module\"")
        .context("the built-in index.html has no module script to put the wasm flag before")?;
    let mut out = String::with_capacity(index.len() + FLAG.len());
    out.push_str(&index[..at]);
    out.push_str(FLAG);
    out.push_str(&index[at..]);
    Ok(out.replace(
        "The simulation runs in the server (the engines themselves)",
        "The simulation runs in this page (the engines themselves, compiled to WebAssembly)",
    ))
}
