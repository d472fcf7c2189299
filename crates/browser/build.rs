//! Decides whether the browser end-to-end test can run here (see `retroanim-testkit`): it
//! needs Chromium, node and playwright-core (installed by `npm ci` in `crates/browser/e2e`).
//! When one is missing the test is compiled as ignored, with how to install it, unless
//! `RETROANIM_NO_SKIP` is set; then it runs and fails on the missing piece.

use retroanim_testkit::{gate, CHROMIUM, NODE, PLAYWRIGHT};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    gate("missing_browser", &[CHROMIUM, NODE, PLAYWRIGHT]);
}
