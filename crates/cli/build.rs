//! Embeds the repository's sample assets (`assets/`) in the binary, so an installed
//! `retroanim browse` works without a source checkout. Built from a packaged crate
//! (no `assets/` beside it) the table is empty and `browse` asks for `--assets DIR`.
//!
//! Also decides whether the static-site end-to-end test can run here (see
//! `retroanim-testkit`): it needs the browser test's tools and the wasm32 target.

use retroanim_testkit::{
    gate, CHROMIUM, MATURIN, NODE, NUMPY, PLAYWRIGHT, PYTEST, PYTHON3, WASM32,
};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    gate("missing_site_tools", &[CHROMIUM, NODE, PLAYWRIGHT, WASM32]);
    gate("missing_python_tools", &[PYTHON3, MATURIN, NUMPY, PYTEST]);
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../../assets");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        collect(&root, &root, &mut files);
    }
    files.sort();
    let mut out = String::from(
        "/// The sample assets: (path relative to the asset folder, content).\npub static EMBEDDED: &[(&str, &[u8])] = &[\n",
    );
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        let _ = writeln!(
            out,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        );
    }
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("embedded_assets.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        println!("cargo:rerun-if-changed={}", p.display());
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
