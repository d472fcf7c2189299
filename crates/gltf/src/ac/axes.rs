//! AC's axes to glTF's.
//!
//! AC (and ACE) use right-handed axes with +X to the creature's right, +Y forward and +Z
//! up. glTF is right-handed with +Y up and a model facing +Z, so its right is −X. The
//! conversion is the proper rotation (determinant +1)
//!
//! ```text
//!         [ -1  0  0 ]
//!     M = [  0  0  1 ]      (x, y, z)_AC  ->  (-x, z, y)_glTF
//!         [  0  1  0 ]
//! ```
//!
//! It only swaps and negates components, so it is exact in f32 and keeps triangle winding.
//! A node's local transform `T·R·S` becomes `M·T·R·S·Mᵀ`: translations and vertices go
//! through `M`, a quaternion's vector part goes through `M` (an axial vector under a proper
//! rotation) and keeps its `w`, and a scale's components are permuted.

use retroanim_ac::math::{Quat, Vec3};

/// A point or direction in AC axes, in glTF axes.
pub fn vec(v: Vec3) -> [f32; 3] {
    [0.0 - v.x, v.z, v.y]
}

/// An AC quaternion (`w, x, y, z`), in glTF axes and order (`[x, y, z, w]`).
pub fn quat(q: Quat) -> [f32; 4] {
    [0.0 - q.x, q.z, q.y, q.w]
}

/// A per-axis scale in AC axes, in glTF axes.
pub fn scale(s: Vec3) -> [f32; 3] {
    [s.x, s.z, s.y]
}
