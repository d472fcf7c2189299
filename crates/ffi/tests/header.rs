//! The committed C header is exactly what cbindgen makes from the sources today, so a
//! changed signature cannot ship with a stale header.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use std::path::Path;

#[test]
fn committed_header_matches_a_fresh_cbindgen_generation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut fresh);
    let committed_path = dir.join("include/retroanim.h");
    if std::env::var_os("RETROANIM_BLESS").is_some() {
        std::fs::write(&committed_path, &fresh).expect("write header");
        return;
    }
    let committed = std::fs::read(&committed_path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/retroanim.h is stale: regenerate it with \
         RETROANIM_BLESS=1 cargo test -p retroanim-ffi --test header"
    );
}
