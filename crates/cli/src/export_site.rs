//! `retroanim export-site DIR`: the model browser as static files, with the engines
//! compiled to WebAssembly running in the page (no server behind it).
//!
//! The page's files are the server's own; `index.html` gains one flag that makes
//! `api.js` send its calls to `static/wasm-api.js` (the glue of `retroanim-wasm`)
//! instead of `/api`. The modules are not built by this command (a build script cannot
//! build another target): they are copied from `--wasm FILE` and `--gltf-wasm FILE`, the
//! main one through binaryen's `wasm-opt` when that is installed (a tenth smaller, and no
//! slower). The second one (`retroanim-gltf-wasm`) is the glTF export, fetched by the page
//! only when a visitor clicks Export glTF, so the main module carries no glTF writer.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `cargo build --profile wasm --target wasm32-unknown-unknown -p retroanim-wasm`
/// leaves the module inside cargo's target folder (the workspace's `wasm` profile).
pub const WASM_IN_TARGET: &str = "wasm32-unknown-unknown/wasm/retroanim_wasm.wasm";
/// The glTF export module's file name, beside the main module.
pub const GLTF_WASM_FILE: &str = "retroanim_gltf_wasm.wasm";

/// The module cargo built: under `$CARGO_TARGET_DIR` when that is set (as cargo
/// itself places it), else under `target/` of the current folder (a checkout's root).
pub fn default_wasm() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| PathBuf::from("target"), PathBuf::from)
        .join(WASM_IN_TARGET)
}

const BUILD_HINT: &str =
    "build both modules first with `rustup target add wasm32-unknown-unknown && \
cargo build --profile wasm --target wasm32-unknown-unknown -p retroanim-wasm -p retroanim-gltf-wasm` \
from the workspace root, or name them with --wasm FILE and --gltf-wasm FILE";

/// A WebAssembly module's bytes; errors name the file and how to build it.
fn module(path: &Path, what: &str) -> anyhow::Result<Vec<u8>> {
    let bytes = retroanim_core::input::read_kind(path, retroanim_core::input::FileKind::Binary)
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot read the {what} {}: {}; {BUILD_HINT}",
                path.display(),
                e.reason()
            )
        })?;
    if !bytes.starts_with(b"\0asm") {
        bail!(
            "{}: not a WebAssembly module (it does not start with \\0asm); {BUILD_HINT}",
            path.display()
        );
    }
    Ok(bytes)
}

/// What `wasm-opt` is asked for: the smallest module, with the WebAssembly features the
/// Rust compiler's `wasm32-unknown-unknown` target uses and the workspace adds (SIMD,
/// `.cargo/config.toml`); the stripped module no longer names them.
const WASM_OPT_ARGS: &[&str] = &[
    "-Oz",
    "--enable-simd",
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Which `wasm-opt` export-site runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WasmOpt {
    /// `wasm-opt` when it is on the PATH, else the module as built.
    Auto,
    /// This program; failing to run it is an error.
    Program(PathBuf),
    /// The module as built.
    Off,
}

/// What was written.
#[derive(Debug)]
pub struct Exported {
    /// Files written.
    pub files: usize,
    /// Size of the module as built.
    pub built_bytes: usize,
    /// Size of `static/retroanim.wasm`.
    pub module_bytes: usize,
    /// Why the module is as built, when it is (`None`: wasm-opt shrank it).
    pub not_optimised: Option<String>,
}

impl Exported {
    /// One line for the user.
    pub fn summary(&self, dir: &Path) -> String {
        let module = match &self.not_optimised {
            None => format!(
                "static/retroanim.wasm: {} bytes, {} as built, through wasm-opt",
                self.module_bytes, self.built_bytes
            ),
            Some(why) => format!(
                "static/retroanim.wasm: {} bytes as built ({why}; binaryen's wasm-opt makes it about a tenth smaller)",
                self.module_bytes
            ),
        };
        format!(
            "wrote {} files to {} ({module})\n",
            self.files,
            dir.display()
        )
    }
}

/// The first `wasm-opt` on the PATH.
fn wasm_opt_on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("wasm-opt"))
        .find(|p| p.is_file())
}

/// `module` (read from `from`) through `program`, written next to `out` first.
fn optimise(program: &Path, from: &Path, out: &Path) -> anyhow::Result<Vec<u8>> {
    let tmp = out.with_extension("wasm-opt.tmp");
    let run = Command::new(program)
        .args(WASM_OPT_ARGS)
        .arg(from)
        .arg("-o")
        .arg(&tmp)
        .output()
        .with_context(|| format!("cannot run {}", program.display()))?;
    if !run.status.success() {
        let _ = std::fs::remove_file(&tmp);
        bail!(
            "{} failed ({}): {}",
            program.display(),
            run.status,
            String::from_utf8_lossy(&run.stderr).trim()
        );
    }
    let bytes = retroanim_core::input::read_kind(&tmp, retroanim_core::input::FileKind::Binary)
        .map_err(|e| anyhow::anyhow!("cannot read what wasm-opt wrote: {}", e.reason()));
    let _ = std::fs::remove_file(&tmp);
    let bytes = bytes?;
    if !bytes.starts_with(b"\0asm") {
        bail!(
            "{} wrote something that is not WebAssembly",
            program.display()
        );
    }
    Ok(bytes)
}

/// The flag the exported page sets before its scripts run.
const FLAG: &str = "<script>globalThis.RETROANIM_WASM = true;</script>\n";

/// Write the site into `dir` (created when absent; files of an earlier export are
/// replaced), the main module through `wasm-opt` as `opt` says. The glTF module is taken
/// from `gltf_wasm`, else from beside the main module.
pub fn export(
    dir: &Path,
    wasm: Option<&Path>,
    gltf_wasm: Option<&Path>,
    opt: &WasmOpt,
) -> anyhow::Result<Exported> {
    let wasm_path = wasm.map_or_else(default_wasm, Path::to_path_buf);
    let built = module(&wasm_path, "wasm module")?;
    let gltf_path = gltf_wasm.map_or_else(
        || wasm_path.with_file_name(GLTF_WASM_FILE),
        Path::to_path_buf,
    );
    let gltf_module = module(&gltf_path, "glTF export module")?;
    let index = page(retroanim_browser::INDEX_HTML)?;
    let module_to = dir.join("static/retroanim.wasm");
    std::fs::create_dir_all(dir.join("static"))
        .with_context(|| format!("cannot create {}", dir.join("static").display()))?;
    let (module, not_optimised) = match opt {
        WasmOpt::Off => (None, Some("--no-wasm-opt".to_string())),
        WasmOpt::Program(p) => (Some(optimise(p, &wasm_path, &module_to)?), None),
        WasmOpt::Auto => match wasm_opt_on_path() {
            None => (None, Some("no wasm-opt on the PATH".to_string())),
            Some(p) => match optimise(&p, &wasm_path, &module_to) {
                Ok(m) => (Some(m), None),
                Err(e) => (None, Some(format!("{e:#}"))),
            },
        },
    };
    let module = module.as_deref().unwrap_or(&built);
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
        (PathBuf::from("static/retroanim.wasm"), module),
        (
            PathBuf::from("static/retroanim-gltf-wasm.js"),
            retroanim_gltf_wasm::GLUE_JS.as_bytes(),
        ),
        (PathBuf::from("static/retroanim-gltf.wasm"), &gltf_module),
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
    Ok(Exported {
        files: files.len(),
        built_bytes: built.len(),
        module_bytes: module.len(),
        not_optimised,
    })
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
