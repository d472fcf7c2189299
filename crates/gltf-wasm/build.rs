//! Embeds the sample assets (`assets/`, without recorded traces) in the module: the page
//! hands over a scenario naming them by relative path, as the main module's sessions do.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    compact_calls();
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../../assets");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        collect(&root, &root, &mut files);
    }
    files.sort();
    let mut out = String::from("/// The sample assets: (path under `assets/`, content).\n");
    out.push_str("pub static ASSETS: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        let _ = writeln!(
            out,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        );
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        // Traces are test data, and scenarios come from the page: neither is exported.
        if name.starts_with('.') || name == "traces" || name == "scenarios" {
            continue;
        }
        if p.is_dir() {
            collect(root, &p, files);
        } else if p.is_file() {
            let rel = p
                .strip_prefix(root)
                .expect("under the root")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((rel, p.canonicalize().unwrap_or(p)));
        }
    }
}

/// As for the main module (`crates/wasm/build.rs`): call targets and addresses at their
/// length rather than five bytes each, which wasm-ld does only without debug information.
fn compact_calls() {
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    let debug = std::env::var("DEBUG").is_ok_and(|d| d != "false" && d != "0");
    if wasm && !debug {
        println!("cargo:rustc-cdylib-link-arg=--strip-debug");
        println!("cargo:rustc-cdylib-link-arg=--compress-relocations");
    }
}
