//! Decides whether the browser end-to-end test can run here.
//!
//! The test needs Chromium, node and playwright-core (installed by `npm ci` in
//! `crates/browser/e2e`). When one is missing the test is compiled as
//! `#[ignore = "<what is missing and how to install it>"]`, so `cargo test` reports
//! it as ignored with the reason instead of passing without running. With
//! `RETROANIM_NO_SKIP` set (CI sets it) it is never ignored: it runs and fails on
//! whatever is missing.

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RETROANIM_NO_SKIP");
    println!("cargo:rerun-if-env-changed=CHROMIUM");
    println!("cargo:rerun-if-env-changed=PATH");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let e2e = manifest.join("e2e");

    let chromium = env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let path_dirs: Vec<PathBuf> = env::var_os("PATH")
        .map(|p| env::split_paths(&p).collect())
        .unwrap_or_default();
    let node = path_dirs
        .iter()
        .map(|d| d.join("node"))
        .find(|p| p.is_file());
    let playwright = e2e.join("node_modules/playwright-core");

    let mut missing = Vec::new();
    if chromium.exists() {
        watch(&chromium);
    } else {
        missing.push(format!(
            "{} not found (apt-get install -y chromium, or set CHROMIUM)",
            chromium.display()
        ));
        if let Some(dir) = chromium.parent() {
            watch(dir);
        }
    }
    match &node {
        Some(n) => watch(n),
        None => {
            missing.push("node not found on PATH (apt-get install -y nodejs npm)".to_string());
            for d in &path_dirs {
                watch(d);
            }
        }
    }
    if playwright.is_dir() {
        // npm rewrites this file on every install.
        watch(&e2e.join("node_modules/.package-lock.json"));
    } else {
        missing.push(
            "crates/browser/e2e/node_modules/playwright-core missing (cd crates/browser/e2e && npm ci)"
                .to_string(),
        );
        watch(&e2e);
    }

    let no_skip = env::var_os("RETROANIM_NO_SKIP").is_some();
    let attr = if missing.is_empty() || no_skip {
        String::new()
    } else {
        let reason = format!(
            "browser e2e test needs: {} (RETROANIM_NO_SKIP=1 makes this a failure)",
            missing.join("; ")
        );
        format!("#[ignore = {reason:?}]\n")
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets it"));
    let text = format!("#[test]\n{attr}fn e2e_in_headless_chromium() {{\n    run_e2e();\n}}\n");
    std::fs::write(out.join("e2e_test.rs"), text).expect("write the e2e test declaration");
}

/// Rerun when `p` changes; only existing paths (cargo reruns on every build for a
/// missing one, which would rebuild the crate every time). Cargo scans a directory
/// recursively, so only flat, small ones are watched (never `/`): a folder where the
/// missing tool would appear.
fn watch(p: &Path) {
    if p.is_dir() {
        let Ok(entries) = std::fs::read_dir(p) else {
            return;
        };
        let mut n = 0;
        for e in entries.flatten() {
            n += 1;
            if n > 10_000 || e.file_type().is_ok_and(|t| t.is_dir()) {
                return;
            }
        }
    }
    if p.exists() && p.parent().is_some() {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}
