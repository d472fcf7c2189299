//! Embeds the sample assets (`assets/`) and the model browser's starting scenarios
//! (`crates/browser/scenarios/`) in the module, so the page needs no files beside it.
//! Built from a packaged crate (neither folder beside it) both tables are empty and
//! every engine reports its assets as missing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut out = String::new();
    table(
        &mut out,
        "ASSETS",
        "The sample assets: (path under `assets/`, content).",
        &manifest.join("../../assets"),
    );
    table(
        &mut out,
        "START_SCENARIOS",
        "The browser's starting scenarios: (file name, content).",
        &manifest.join("../browser/scenarios"),
    );
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn table(out: &mut String, name: &str, doc: &str, root: &Path) {
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        collect(root, root, &mut files);
    }
    files.sort();
    let _ = writeln!(out, "/// {doc}\npub static {name}: &[(&str, &[u8])] = &[");
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        let _ = writeln!(
            out,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        );
    }
    out.push_str("];\n");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        // Recorded traces are test data, not assets: leaving them out keeps the module small.
        if name.starts_with('.') || name == "traces" {
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
