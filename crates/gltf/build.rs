//! Decides whether the Khronos validator test can run here (see `retroanim-testkit`): it
//! needs node and the `gltf-validator` npm package (installed by `npm ci` in
//! `crates/gltf/validator`). When one is missing the test is compiled as ignored, with how
//! to install it, unless `RETROANIM_NO_SKIP` is set; then it runs and fails on the missing
//! piece.

use retroanim_testkit::{gate, GLTF_VALIDATOR, NODE};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    gate("missing_gltf_validator", &[NODE, GLTF_VALIDATOR]);
}
