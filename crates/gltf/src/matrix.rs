//! The little 4×4 algebra the skinned mode needs: rest-pose world matrices, their inverses
//! (the skin's inverse bind matrices) and moving vertices into world space.
//!
//! Matrices are column-major `[f32; 16]`, as glTF stores them.

use crate::check::unit;
use crate::scene::{Node, Scene};

pub(crate) type Mat4 = [f32; 16];

const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// T · R · S of a node's rest pose.
pub(crate) fn local(node: &Node) -> Mat4 {
    let [x, y, z, w] = unit(node.rotation).unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let [sx, sy, sz] = node.scale;
    let [tx, ty, tz] = node.translation;
    [
        (1.0 - 2.0 * (y * y + z * z)) * sx,
        (2.0 * (x * y + z * w)) * sx,
        (2.0 * (x * z - y * w)) * sx,
        0.0,
        (2.0 * (x * y - z * w)) * sy,
        (1.0 - 2.0 * (x * x + z * z)) * sy,
        (2.0 * (y * z + x * w)) * sy,
        0.0,
        (2.0 * (x * z + y * w)) * sz,
        (2.0 * (y * z - x * w)) * sz,
        (1.0 - 2.0 * (x * x + y * y)) * sz,
        0.0,
        tx,
        ty,
        tz,
        1.0,
    ]
}

pub(crate) fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            out[col * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum();
        }
    }
    out
}

/// Each node's rest-pose world matrix. The scene has been checked: parents are in range and
/// acyclic.
pub(crate) fn rest_world(scene: &Scene) -> Vec<Mat4> {
    let mut world: Vec<Option<Mat4>> = vec![None; scene.nodes.len()];
    for start in 0..scene.nodes.len() {
        let mut chain = vec![start];
        while let Some(p) = scene.nodes[*chain.last().unwrap_or(&start)].parent {
            if world[p].is_some() {
                break;
            }
            chain.push(p);
        }
        for &i in chain.iter().rev() {
            if world[i].is_some() {
                continue;
            }
            let parent = scene.nodes[i]
                .parent
                .and_then(|p| world[p])
                .unwrap_or(IDENTITY);
            world[i] = Some(mul(&parent, &local(&scene.nodes[i])));
        }
    }
    world.into_iter().map(|m| m.unwrap_or(IDENTITY)).collect()
}

pub(crate) fn point(m: &Mat4, p: [f32; 3]) -> [f32; 3] {
    [0, 1, 2].map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
}

/// A normal carried by `m`: through the inverse transpose of its linear part, renormalised
/// (a zero result, from a zero scale, keeps the original).
pub(crate) fn normal(m: &Mat4, n: [f32; 3]) -> [f32; 3] {
    let inv = inverse_affine(m);
    // The inverse transpose applied to n is n applied to the inverse's rows.
    let v = [0, 1, 2].map(|c| inv[c * 4] * n[0] + inv[c * 4 + 1] * n[1] + inv[c * 4 + 2] * n[2]);
    let len = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        v.map(|c| c / len)
    } else {
        n
    }
}

/// The inverse of an affine matrix (last row 0 0 0 1); a singular one (a zero scale) gives
/// the identity, which leaves that part's vertices where the skin puts them.
pub(crate) fn inverse_affine(m: &Mat4) -> Mat4 {
    let a = |r: usize, c: usize| m[c * 4 + r];
    let cof =
        |r0: usize, r1: usize, c0: usize, c1: usize| a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0);
    let det = a(0, 0) * cof(1, 2, 1, 2) - a(0, 1) * cof(1, 2, 0, 2) + a(0, 2) * cof(1, 2, 0, 1);
    if det == 0.0 || !det.is_finite() {
        return IDENTITY;
    }
    // inv[r][c] = cofactor(c, r) / det
    let inv3 = [
        [cof(1, 2, 1, 2), -cof(0, 2, 1, 2), cof(0, 1, 1, 2)],
        [-cof(1, 2, 0, 2), cof(0, 2, 0, 2), -cof(0, 1, 0, 2)],
        [cof(1, 2, 0, 1), -cof(0, 2, 0, 1), cof(0, 1, 0, 1)],
    ]
    .map(|row| row.map(|v| v / det));
    let t = [a(0, 3), a(1, 3), a(2, 3)];
    let mut out = IDENTITY;
    for r in 0..3 {
        for c in 0..3 {
            out[c * 4 + r] = inv3[r][c];
        }
        out[12 + r] = -(inv3[r][0] * t[0] + inv3[r][1] * t[1] + inv3[r][2] * t[2]);
    }
    out
}
