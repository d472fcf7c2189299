//! Decides whether the glTF crate's tool checks can run here (see `retroanim-testkit`): the
//! Khronos validator test needs node and the `gltf-validator` npm package (`npm ci` in
//! `crates/gltf/validator`); the three.js check needs Chromium, node and `npm ci` in
//! `crates/gltf/threejs`; the Blender check needs Blender and numpy. When one is missing its
//! tests are compiled as ignored, with how to install it, unless `RETROANIM_NO_SKIP` is set;
//! then they run and fail on the missing piece.

use retroanim_testkit::{gate, BLENDER, BLENDER_NUMPY, CHROMIUM, GLTF_VALIDATOR, NODE, THREE_JS};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    gate("missing_gltf_validator", &[NODE, GLTF_VALIDATOR]);
    gate("missing_threejs", &[CHROMIUM, NODE, THREE_JS]);
    gate("missing_blender", &[BLENDER, BLENDER_NUMPY]);
}
