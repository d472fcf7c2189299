//! Where `retroanim browse` finds its sample assets.
//!
//! In order: `--assets DIR`, `$RETROANIM_ASSETS`, `./assets` when the current directory
//! is a checkout's root, else the copy built into the binary, unpacked once into
//! `$XDG_CACHE_HOME/retroanim/` (or `~/.cache/retroanim/`) under a name that carries a
//! hash of the content, so an upgraded binary never serves stale files.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/embedded_assets.rs"));

/// The three engine folders a usable asset folder holds.
const ENGINE_DIRS: [&str; 3] = ["ac", "herc", "actor"];

pub fn resolve(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = flag {
        if !dir.is_dir() {
            bail!("--assets {}: not a directory", dir.display());
        }
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("RETROANIM_ASSETS") {
        return Ok(PathBuf::from(dir));
    }
    let here = PathBuf::from("assets");
    if ENGINE_DIRS.iter().all(|d| here.join(d).is_dir()) {
        return Ok(here);
    }
    unpack()
}

fn cache_base() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from);
    let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache"));
    xdg.filter(|p| p.is_absolute())
        .or(home)
        .map(|b| b.join("retroanim"))
}

/// FNV-1a over names and contents: a stable name for this set of assets.
fn content_hash() -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, bytes) in EMBEDDED {
        for b in name.bytes().chain([0]).chain(bytes.iter().copied()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn unpack() -> anyhow::Result<PathBuf> {
    if EMBEDDED.is_empty() {
        bail!("this retroanim was built without its sample assets; pass --assets DIR");
    }
    let Some(base) = cache_base() else {
        bail!("no cache directory (neither $XDG_CACHE_HOME nor $HOME is set); pass --assets DIR");
    };
    let dir = base.join(format!(
        "assets-{}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        content_hash()
    ));
    let done = dir.join(".complete");
    if done.is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&base).with_context(|| format!("cannot create {}", base.display()))?;
    // Unpack beside the final name, then rename: a crash never leaves a half folder
    // that a later run would take for complete.
    let staging = base.join(format!(".unpacking-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    for (name, bytes) in EMBEDDED {
        let path = staging.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    std::fs::write(staging.join(".complete"), b"")
        .with_context(|| format!("cannot write in {}", staging.display()))?;
    if std::fs::rename(&staging, &dir).is_err() {
        // Another retroanim unpacked the same assets first.
        let _ = std::fs::remove_dir_all(&staging);
        if !done.is_file() {
            bail!("cannot unpack the sample assets into {}", dir.display());
        }
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_asset_folder_is_embedded() {
        for d in ENGINE_DIRS {
            assert!(
                EMBEDDED
                    .iter()
                    .any(|(n, _)| n.starts_with(&format!("{d}/"))),
                "no {d}/ asset embedded"
            );
        }
        let biped = EMBEDDED.iter().find(|(n, _)| *n == "herc/biped.json");
        assert!(biped.is_some_and(|(_, b)| b.starts_with(b"{")));
    }
}
