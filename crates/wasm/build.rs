//! Embeds the sample assets (`assets/`) and the model browser's starting scenarios
//! (`crates/browser/scenarios/`) in the module, so the page needs no files beside it.
//! Built from a packaged crate (neither folder beside it) both tables are empty and
//! every engine reports its assets as missing.
//!
//! The files travel as one DEFLATE stream (166 KB of mostly JSON becomes about 14 KB of
//! the download), unpacked by `embedded.rs` the first time a file is asked for; the
//! tables hold each file's place in the unpacked bytes.

// The build script reads the repository's own asset files to pack them; the guarded reader
// is for the program's users' files (clippy.toml).
#![allow(clippy::disallowed_methods)]

use flate2::write::DeflateEncoder;
use flate2::Compression;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    compact_calls();
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let mut out = String::new();
    let mut packed = Vec::new();
    table(
        &mut out,
        &mut packed,
        "ASSETS",
        "The sample assets: (path under `assets/`, offset, length in the unpacked bytes).",
        &manifest.join("../../assets"),
    );
    table(
        &mut out,
        &mut packed,
        "START_SCENARIOS",
        "The browser's starting scenarios: (file name, offset, length in the unpacked bytes).",
        &manifest.join("../browser/scenarios"),
    );
    let mut z = DeflateEncoder::new(Vec::new(), Compression::best());
    z.write_all(&packed).expect("writing to memory");
    let z = z.finish().expect("writing to memory");
    std::fs::write(out_dir.join("embedded.deflate"), z).expect("OUT_DIR is writable");
    let _ = writeln!(
        out,
        "/// Length of the unpacked bytes.\npub const UNPACKED_LEN: usize = {};",
        packed.len()
    );
    out.push_str(
        "/// Every file above, one after the other, as a DEFLATE stream.\n\
         pub static PACKED: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/embedded.deflate\"));\n",
    );
    std::fs::write(out_dir.join("embedded.rs"), out).expect("OUT_DIR is writable");
}

fn table(out: &mut String, packed: &mut Vec<u8>, name: &str, doc: &str, root: &Path) {
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        collect(root, root, &mut files);
    }
    files.sort();
    let _ = writeln!(
        out,
        "/// {doc}\npub static {name}: &[(&str, usize, usize)] = &["
    );
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        let bytes = std::fs::read(abs).expect("a file just listed is readable");
        let _ = writeln!(out, "    ({rel:?}, {}, {}),", packed.len(), bytes.len());
        packed.extend_from_slice(&bytes);
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

/// wasm-ld writes every call target and memory address of the code as a five-byte LEB128,
/// room for relocations nobody applies to a finished module; `--compress-relocations`
/// writes them at their length (about a tenth of the module). It refuses to run while
/// debug information is kept, so a build without debug info also drops the standard
/// library's (its name section, which profilers read, stays).
fn compact_calls() {
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    let debug = std::env::var("DEBUG").is_ok_and(|d| d != "false" && d != "0");
    if wasm && !debug {
        println!("cargo:rustc-cdylib-link-arg=--strip-debug");
        println!("cargo:rustc-cdylib-link-arg=--compress-relocations");
    }
}
