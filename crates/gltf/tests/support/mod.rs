//! What the engines say, for the export tests and the three.js and Blender checks: world
//! matrices of every node, computed from the engines' own state after running them, by a
//! path of their own (rotation matrices from sines and cosines, composed down the tree)
//! rather than the exporter's quaternions.

#![allow(dead_code)]

use retroanim_gltf::herc::{HercAsset, RootMotion};
use retroanim_herc::transform::Transform3;
use retroanim_herc::{AnimatedShape, Model};
use std::path::PathBuf;

/// A column-major 4×4 matrix (glTF's and three.js's order).
pub type Mat4 = [f64; 16];

pub fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The bundled sample biped: biped.json's animation and names, biped.dts's boxes.
pub fn sample_biped() -> HercAsset {
    let dir = repository().join("assets/herc");
    let json = std::fs::read_to_string(dir.join("biped.json")).expect("biped.json");
    let dts = std::fs::read(dir.join("biped.dts")).expect("biped.dts");
    HercAsset::from_json(&json, "biped.json", Some((&dts, "biped.dts"))).expect("the sample")
}

fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

/// A rotation (row-major 3×3, column-vector convention) and a translation as a matrix.
fn affine(rot: [[f64; 3]; 3], t: [f64; 3]) -> Mat4 {
    let mut m = [0.0; 16];
    for r in 0..3 {
        for c in 0..3 {
            m[c * 4 + r] = rot[r][c];
        }
        m[12 + r] = t[r];
    }
    m[15] = 1.0;
    m
}

/// DTS → glTF: `M' = C·M·Cᵀ` with `C(x, y, z) = (−x, z, y)`, translations in metres.
fn to_gltf(m: &Mat4, metres: f64) -> Mat4 {
    let c = affine(
        [[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
        [0.0; 3],
    );
    let mut ct = c;
    // C is symmetric and its own inverse.
    ct[15] = 1.0;
    let mut out = mul(&mul(&c, m), &ct);
    for v in &mut out[12..15] {
        *v *= metres;
    }
    out
}

/// FromEuler(x, y, z) as a float matrix: `Rz · Rx · Ry` for column vectors, angles in
/// 65536ths of a turn.
fn euler_matrix(x: i16, y: i16, z: i16) -> [[f64; 3]; 3] {
    let a = |v: i16| f64::from(v) * std::f64::consts::TAU / 65536.0;
    let (sx, cx) = a(x).sin_cos();
    let (sy, cy) = a(y).sin_cos();
    let (sz, cz) = a(z).sin_cos();
    let rz = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    let rx = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
    let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
    let m3 = |a: [[f64; 3]; 3], b: [[f64; 3]; 3]| {
        let mut o = [[0.0; 3]; 3];
        for (r, row) in o.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = (0..3).map(|k| a[r][k] * b[k][c]).sum();
            }
        }
        o
    };
    m3(m3(rz, rx), ry)
}

/// A Q14 transform (row vectors, `p' = p·M + t`) as a float matrix for column vectors.
fn q14_matrix(t: &Transform3) -> Mat4 {
    let rows = t.rows();
    let mut rot = [[0.0; 3]; 3];
    for (r, row) in rot.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = f64::from(rows[c][r]) / 16384.0;
        }
    }
    affine(rot, t.t.map(f64::from))
}

/// The pose of every node after each of `steps` 40 ms steps of one thread playing
/// `seq` from frame 0, in glTF axes: `(from_locals, from_q14)`, per key, per node. The
/// first is the engine's local records composed in f64 (what a glTF viewer must show); the
/// second is the engine's own Q14 world matrices, which carry DBSIM's rounding.
pub fn herc_poses(
    model: &Model,
    seq: i16,
    steps: usize,
    root_motion: RootMotion,
    metres: f64,
) -> Vec<(Vec<Mat4>, Vec<Mat4>)> {
    let list = model.anim_list();
    let nodes = list.nodes();
    let mut herc = AnimatedShape::new(model);
    herc.add_thread(seq).expect("a thread");
    let mut out = Vec::new();
    for k in 0..=steps {
        if k > 0 {
            herc.step_ms(40).expect("a step");
        }
        let o = herc.object();
        let object = match root_motion {
            RootMotion::Baked => {
                let [x, y, z] = o.euler;
                affine(euler_matrix(x, y, z), o.position.map(f64::from))
            }
            RootMotion::InPlace => affine(euler_matrix(0, 0, 0), [0.0; 3]),
        };
        let object_q14 = match root_motion {
            RootMotion::Baked => q14_matrix(&o.transform()),
            RootMotion::InPlace => q14_matrix(&Transform3::IDENTITY),
        };
        let locals = herc.shape().locals();
        let mut world = vec![[0.0; 16]; nodes.len()];
        world[0] = object;
        for &n in list.parent_first() {
            let n = usize::from(n);
            if n == 0 {
                continue;
            }
            let [rx, ry, rz, tx, ty, tz] = locals[n];
            let local = affine(euler_matrix(rx, ry, rz), [tx, ty, tz].map(f64::from));
            let parent = usize::try_from(nodes[n].parent).unwrap_or(0);
            world[n] = mul(&world[parent], &local);
        }
        let q14: Vec<Mat4> = (0..nodes.len())
            .map(|n| {
                if n == 0 {
                    object_q14
                } else {
                    mul(&object_q14, &q14_matrix(&herc.world()[n]))
                }
            })
            .collect();
        out.push((
            world.iter().map(|m| to_gltf(m, metres)).collect(),
            q14.iter().map(|m| to_gltf(m, metres)).collect(),
        ));
    }
    out
}

/// The largest difference between two matrices: rotation parts as they are, translations
/// divided by `length` (so that one tolerance serves both).
pub fn difference(a: &Mat4, b: &Mat4, length: f64) -> f64 {
    (0..16)
        .map(|i| {
            let d = (a[i] - b[i]).abs();
            if (12..15).contains(&i) {
                d / length
            } else {
                d
            }
        })
        .fold(0.0, f64::max)
}

/// The largest difference between the rotation parts of two matrices.
pub fn rotation_difference(a: &Mat4, b: &Mat4) -> f64 {
    (0..12)
        .filter(|i| i % 4 != 3)
        .map(|i| (a[i] - b[i]).abs())
        .fold(0.0, f64::max)
}

/// The largest difference between the translations of two matrices.
pub fn translation_difference(a: &Mat4, b: &Mat4) -> f64 {
    (12..15).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

/// How far a matrix's rotation part is from a rotation: the largest entry of `MᵀM − I`.
pub fn orthogonality_defect(m: &Mat4) -> f64 {
    let mut worst = 0.0f64;
    for i in 0..3 {
        for j in 0..3 {
            let dot: f64 = (0..3).map(|k| m[i * 4 + k] * m[j * 4 + k]).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((dot - want).abs());
        }
    }
    worst
}

/// World matrices of a glTF scene's nodes at key `k` of clip `c`, from the scene's own
/// rest values and STEP keys: what a viewer computes.
pub fn scene_world(scene: &retroanim_gltf::Scene, c: usize, k: usize) -> Vec<Mat4> {
    use retroanim_gltf::Property;
    let n = scene.nodes.len();
    let mut t: Vec<[f64; 3]> = scene
        .nodes
        .iter()
        .map(|x| x.translation.map(f64::from))
        .collect();
    let mut r: Vec<[f64; 4]> = scene
        .nodes
        .iter()
        .map(|x| x.rotation.map(f64::from))
        .collect();
    for ch in &scene.clips[c].channels {
        match ch.property {
            Property::Translation => {
                t[ch.node] = std::array::from_fn(|i| f64::from(ch.values[k * 3 + i]))
            }
            Property::Rotation => {
                r[ch.node] = std::array::from_fn(|i| f64::from(ch.values[k * 4 + i]))
            }
            _ => {}
        }
    }
    let local = |i: usize| {
        let [x, y, z, w] = r[i];
        let rot = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - z * w),
                2.0 * (x * z + y * w),
            ],
            [
                2.0 * (x * y + z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - x * w),
            ],
            [
                2.0 * (x * z - y * w),
                2.0 * (y * z + x * w),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        affine(rot, t[i])
    };
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    fn get(
        i: usize,
        scene: &retroanim_gltf::Scene,
        world: &mut Vec<Option<Mat4>>,
        local: &dyn Fn(usize) -> Mat4,
    ) -> Mat4 {
        if let Some(m) = world[i] {
            return m;
        }
        let m = match scene.nodes[i].parent {
            Some(p) => mul(&get(p, scene, world, local), &local(i)),
            None => local(i),
        };
        world[i] = Some(m);
        m
    }
    (0..n).map(|i| get(i, scene, &mut world, &local)).collect()
}
