//! The workspace's `rust-version` is true: no locked dependency (dev-dependencies
//! included) declares a newer minimum toolchain, and at least one needs exactly it, so
//! it is also the oldest toolchain the lockfile builds with.

use serde_json::Value;
use std::process::Command;

fn padded(s: &str) -> Vec<u32> {
    let mut v: Vec<u32> = s.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    v.resize(3, 0);
    v
}

#[test]
fn rust_version_is_the_newest_minimum_of_the_locked_dependencies() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Not `--offline`: the metadata needs every locked package's manifest, and a build on
    // Linux never downloads the Windows-only ones (`windows-sys`, `anstyle-wincon`), so on
    // a fresh machine cargo fetches them here (as `cargo fetch` would).
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let packages = meta["packages"].as_array().unwrap();
    let ours = packages
        .iter()
        .find(|p| p["name"] == "retroanim-core")
        .unwrap();
    let declared = padded(ours["rust_version"].as_str().expect("rust-version is set"));
    let mut newest = (vec![0, 0, 0], String::new());
    for p in packages {
        let Some(rv) = p["rust_version"].as_str() else {
            continue;
        };
        if members.contains(&p["id"].as_str().unwrap()) {
            assert_eq!(padded(rv), declared, "{} inherits rust-version", p["name"]);
            continue;
        }
        let rv = padded(rv);
        assert!(
            rv <= declared,
            "{} {} needs Rust {rv:?}, newer than the declared {declared:?}",
            p["name"],
            p["version"]
        );
        if rv > newest.0 {
            newest = (rv, p["name"].to_string());
        }
    }
    assert_eq!(
        newest.0, declared,
        "the newest dependency minimum ({}) is older than rust-version: lower it",
        newest.1
    );
}
