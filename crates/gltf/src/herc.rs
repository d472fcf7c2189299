//! HERC export: a DTS shape's nodes and meshes, and one clip per sequence, baked by running
//! the DBSIM animation threads at the game's 25 Hz.
//!
//! Each clip is one thread playing its sequence from frame 0 at 1× through
//! [`AnimatedShape::step_ms`]`(40)`, which is what the game does every simulation step. The
//! key at time `k · 0.04 s` is the pose after `k` steps: every node's Q14 world matrix as the
//! engine built it (its sine table, its rounding), converted to floats and turned back into
//! a local translation and rotation under the parent as glTF will place it, so that a
//! viewer composing the keys down the tree lands on the engine's matrices. The engine holds
//! that pose until its next step, so the keys are STEP: a LINEAR clip would show poses the
//! game never draws between two steps.
//!
//! Node `i` of the glTF is DTS node `i`. Node 0 carries ground movement in DBSIM; here it
//! is the root every parentless node hangs from, and with [`RootMotion::Baked`] it is
//! keyed with the machine's place (the `SimObject` the root motion moves), so a walk walks
//! away. With [`RootMotion::InPlace`] node 0 stays at the origin and the movement per clip
//! goes to the sidecar. Nodes keep their DTS parents, so the cockpit node is in the tree
//! like any other.

use crate::scene::{Channel, Clip, Interpolation, Mesh, Node, Property, Scene};
use retroanim_herc::anim_list::{Keyframe, SeqClass};
use retroanim_herc::formats::bitmap::BitmapArray;
use retroanim_herc::formats::dts::DtsFile;
use retroanim_herc::formats::group::ShapeMesh;
use retroanim_herc::formats::material::{material, material_rgb, poly_sides, Material};
use retroanim_herc::formats::palette::Palette;
use retroanim_herc::inspect::meshes::ShapeMaterials;
use retroanim_herc::object::SimObject;
use retroanim_herc::transform::Transform3;
use retroanim_herc::{AnimatedShape, ControlError, LoadError, Model};
use serde_json::{json, Value};

/// Milliseconds per simulation step: the game's 25 Hz.
pub const STEP_MS: i64 = 40;
/// Seconds between two keys.
pub const KEY_SECONDS: f64 = 0.04;
/// The default size of one DTS unit. DTS files carry no unit; a centimetre makes the
/// sample biped about 6 m tall, the size of a HERC.
pub const METRES_PER_UNIT: f64 = 0.01;

/// The most keyed values (keys × nodes, summed over the clips) an export may hold: ten
/// times what the largest shipped shapes need, so that a hostile file cannot ask for
/// gigabytes (a sequence may last 32767 ticks, a model hold 32767 nodes and sequences).
pub const MAX_KEYED_VALUES: usize = 20_000_000;

/// Where the ground movement goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootMotion {
    /// The machine walks on the spot; the movement of each clip is in the sidecar.
    #[default]
    InPlace,
    /// Node 0 is keyed with the machine's place, as root motion moves it.
    Baked,
}

/// How to export.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub root_motion: RootMotion,
    /// The size of one DTS unit in metres.
    pub metres_per_unit: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            root_motion: RootMotion::InPlace,
            metres_per_unit: METRES_PER_UNIT,
        }
    }
}

/// Why a shape could not be exported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The shape's meshes could not be decoded (file, record, byte offset).
    #[error("{0}")]
    Meshes(retroanim_core::ScenarioError),
    /// A name list does not match the model.
    #[error("{file}: {message}")]
    Names { file: String, message: String },
    /// The clips would hold more than [`MAX_KEYED_VALUES`].
    #[error("{file}: {keys} node keys in all, more than {MAX_KEYED_VALUES}")]
    TooLarge { file: String, keys: usize },
    /// The engine refused a call while baking (a model the loader accepted never does).
    #[error("sequence {sequence}: {error}")]
    Engine {
        sequence: String,
        error: ControlError,
    },
}

/// A shape to export: its animation model, the names of its nodes and sequences, and the
/// meshes its DTS draws.
#[derive(Clone, Debug)]
pub struct HercAsset {
    /// The shape's name (the scene's name and node 0's when the model names none).
    pub name: String,
    pub model: Model,
    /// One per node.
    pub node_names: Vec<String>,
    /// One per sequence: the clips' names.
    pub sequence_names: Vec<String>,
    pub meshes: Vec<ShapeMesh>,
    /// The palette and bitmap array the shape is drawn with (H82), when known: a mesh's
    /// base colour is then the colour most of its polygons are drawn in
    /// ([`HercAsset::with_materials`]); without them colours are guessed by surface value.
    pub palette: Option<Palette>,
    pub bitmaps: Option<BitmapArray>,
}

impl HercAsset {
    /// A shape read from a DTS file (loose or as a VOL entry with its prefix). DTS files
    /// carry no names: nodes are called `node N` and sequences `seq N`.
    pub fn from_dts(bytes: &[u8], label: &str, name: &str) -> Result<HercAsset, ExportError> {
        let (dts, list) = DtsFile::load_anim_list(bytes, label).map_err(LoadError::from)?;
        let meshes = retroanim_herc::formats::group::shape_meshes(&dts, label)
            .map_err(ExportError::Meshes)?;
        let node_names = (0..list.nodes().len())
            .map(|i| format!("node {i}"))
            .collect();
        let sequence_names = (0..list.sequences().len())
            .map(|i| format!("seq {i}"))
            .collect();
        Ok(HercAsset {
            name: name.to_string(),
            model: Model::from(list),
            node_names,
            sequence_names,
            meshes,
            palette: None,
            bitmaps: None,
        })
    }

    /// The shape drawn with `materials` (the palette and bank a viewer found for it).
    pub fn with_materials(mut self, materials: &ShapeMaterials) -> HercAsset {
        self.palette = materials.palette.as_ref().map(|(p, _)| p.clone());
        self.bitmaps = materials.bitmaps.as_ref().map(|(b, _)| b.clone());
        self
    }

    /// A shape from an asset JSON (the form of `assets/herc/biped.json`: node and
    /// sequence names are taken from it) and, when given, the DTS file that draws it (its
    /// meshes are used, its animation is not).
    pub fn from_json(
        text: &str,
        label: &str,
        dts: Option<(&[u8], &str)>,
    ) -> Result<HercAsset, ExportError> {
        let model = Model::from_json_str(text, label)?;
        // The loader accepted the text, so it is JSON.
        let doc: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let list = model.anim_list();
        let names = |key: &str, count: usize, fallback: &str| -> Vec<String> {
            let given = doc.get(key).and_then(Value::as_array);
            (0..count)
                .map(|i| {
                    given
                        .and_then(|a| a.get(i))
                        .and_then(|v| v.get("name"))
                        .and_then(Value::as_str)
                        .map_or_else(|| format!("{fallback} {i}"), str::to_string)
                })
                .collect()
        };
        let node_names = names("nodes", list.nodes().len(), "node");
        let sequence_names = names("sequences", list.sequences().len(), "seq");
        let meshes = match dts {
            Some((bytes, dts_label)) => {
                let file = DtsFile::read(bytes, dts_label).map_err(ExportError::Meshes)?;
                retroanim_herc::formats::group::shape_meshes(&file, dts_label)
                    .map_err(ExportError::Meshes)?
            }
            None => Vec::new(),
        };
        let name = doc
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or(label)
            .to_string();
        Ok(HercAsset {
            name,
            model,
            node_names,
            sequence_names,
            meshes,
            palette: None,
            bitmaps: None,
        })
    }
}

/// DTS axes to glTF's: DTS is +Z up with the machine facing +Y and +X to its right;
/// glTF is +Y up with the front facing +Z, so its right is −X. `(x, y, z) → (−x, z, y)`
/// is a proper rotation (determinant +1), so windings and handedness are kept.
pub fn axes(v: [f64; 3]) -> [f64; 3] {
    [-v[0], v[2], v[1]]
}

/// A DTS angle (65536 to a turn) in radians.
pub fn radians(a: i16) -> f64 {
    f64::from(a) * std::f64::consts::TAU / 65536.0
}

/// The rotation of FromEuler(x, y, z) as a unit quaternion `[x, y, z, w]` in DTS axes:
/// DBSIM turns a row vector about Y (roll) first, then X (pitch), then Z (heading), each
/// the right-handed way, so for column vectors the rotation is `Rz · Rx · Ry`.
pub fn euler_quaternion(x: i16, y: i16, z: i16) -> [f64; 4] {
    let half = |a: i16| {
        let h = radians(a) / 2.0;
        (h.sin(), h.cos())
    };
    let (sx, cx) = half(x);
    let (sy, cy) = half(y);
    let (sz, cz) = half(z);
    let qz = [0.0, 0.0, sz, cz];
    let qx = [sx, 0.0, 0.0, cx];
    let qy = [0.0, sy, 0.0, cy];
    product(product(qz, qx), qy)
}

/// The Hamilton product `a · b` of `[x, y, z, w]` quaternions.
fn product(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// A DTS rotation in glTF axes: the axis turns with [`axes`], the angle stays.
fn rotation_to_gltf(q: [f64; 4]) -> [f64; 4] {
    let [x, y, z] = axes([q[0], q[1], q[2]]);
    [x, y, z, q[3]]
}

/// A local record as glTF translation (metres) and rotation.
fn local_trs(k: &Keyframe, scale: f64) -> ([f32; 3], [f64; 4]) {
    let t = axes([k[3], k[4], k[5]].map(f64::from)).map(|v| (v * scale) as f32);
    (t, rotation_to_gltf(euler_quaternion(k[0], k[1], k[2])))
}

/// A rotation (row-major, for column vectors) and a translation.
type Affine = ([[f64; 3]; 3], [f64; 3]);

const IDENTITY: Affine = (
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    [0.0; 3],
);

fn mat_mul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    std::array::from_fn(|r| std::array::from_fn(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum()))
}

fn mat_vec(a: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|r| (0..3).map(|k| a[r][k] * v[k]).sum())
}

fn transpose(a: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    std::array::from_fn(|r| std::array::from_fn(|c| a[c][r]))
}

/// `a` then placed by `parent`.
fn compose(parent: &Affine, a: &Affine) -> Affine {
    let t = mat_vec(&parent.0, a.1);
    (
        mat_mul(&parent.0, &a.0),
        std::array::from_fn(|i| t[i] + parent.1[i]),
    )
}

/// A Q14 transform (row vectors, `p' = p·M + t`) as floats for column vectors.
fn q14_affine(t: &Transform3) -> Affine {
    let rows = t.rows();
    (
        std::array::from_fn(|r| std::array::from_fn(|c| f64::from(rows[c][r]) / 16384.0)),
        t.t.map(f64::from),
    )
}

/// A DTS-axes transform in glTF axes (`C·R·Cᵀ`, see [`axes`]) with translation in metres.
fn affine_to_gltf(a: &Affine, scale: f64) -> Affine {
    let rows = a.0.map(axes);
    let r = transpose(&transpose(&rows).map(axes));
    (r, axes(a.1).map(|v| v * scale))
}

/// The rotation nearest `m` (the orthogonal factor of its polar decomposition), for a Q14
/// matrix whose rounded entries are not quite orthonormal: Newton's iteration
/// `R ← (R + R⁻ᵀ) / 2`, which converges quadratically from so close a start.
fn nearest_rotation(m: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut r = *m;
    for _ in 0..6 {
        let c = |i: usize, j: usize| {
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            r[i1][j1] * r[i2][j2] - r[i1][j2] * r[i2][j1]
        };
        let cof: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| c(i, j)));
        let det: f64 = (0..3).map(|j| r[0][j] * cof[0][j]).sum();
        if det.abs() < 1e-12 {
            break;
        }
        // R⁻ᵀ = cofactor matrix / det.
        r = std::array::from_fn(|i| std::array::from_fn(|j| (r[i][j] + cof[i][j] / det) / 2.0));
    }
    r
}

/// The unit quaternion `[x, y, z, w]` of rotation matrix `m`.
fn quaternion_of(m: &[[f64; 3]; 3]) -> [f64; 4] {
    let tr = m[0][0] + m[1][1] + m[2][2];
    let q = if tr > 0.0 {
        let s = (tr + 1.0).sqrt() * 2.0;
        [
            (m[2][1] - m[1][2]) / s,
            (m[0][2] - m[2][0]) / s,
            (m[1][0] - m[0][1]) / s,
            s / 4.0,
        ]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt() * 2.0;
        [
            s / 4.0,
            (m[0][1] + m[1][0]) / s,
            (m[0][2] + m[2][0]) / s,
            (m[2][1] - m[1][2]) / s,
        ]
    } else if m[1][1] > m[2][2] {
        let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt() * 2.0;
        [
            (m[0][1] + m[1][0]) / s,
            s / 4.0,
            (m[1][2] + m[2][1]) / s,
            (m[0][2] - m[2][0]) / s,
        ]
    } else {
        let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt() * 2.0;
        [
            (m[0][2] + m[2][0]) / s,
            (m[1][2] + m[2][1]) / s,
            s / 4.0,
            (m[1][0] - m[0][1]) / s,
        ]
    };
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// The rotation matrix of unit quaternion `q`.
fn quaternion_matrix(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [x, y, z, w] = q;
    [
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
    ]
}

/// The local translation and rotation (glTF axes, f32 as written) that put a node whose
/// parent sits at `parent` (as a viewer computes it from the written keys) at `target`,
/// and where the node then is.
fn local_under(parent: &Affine, target: &Affine) -> ([f32; 3], [f64; 4], Affine) {
    let inv = transpose(&parent.0);
    let rot = mat_mul(&inv, &nearest_rotation(&target.0));
    let d: [f64; 3] = std::array::from_fn(|i| target.1[i] - parent.1[i]);
    let t = mat_vec(&inv, d).map(|v| v as f32);
    let q = quaternion_of(&rot).map(|v| f64::from(v as f32));
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    let q = q.map(|v| v / n);
    let placed = compose(parent, &(quaternion_matrix(q), t.map(f64::from)));
    (t, q, placed)
}

/// What one step of the bake recorded.
struct Key {
    /// Every node's Q14 world matrix (node 0: the step's root motion, unused here).
    world: Vec<Transform3>,
    object: SimObject,
    frame: i16,
    acc: i16,
    in_transition: bool,
}

/// The number of steps a clip of `ticks` animation ticks takes at 1×: enough steps for
/// the thread to have played every tick once (a step is 31 ticks, H20).
fn steps_for(ticks: i32, ticks_per_step: i32) -> usize {
    usize::try_from((ticks + ticks_per_step - 1) / ticks_per_step.max(1)).unwrap_or(0)
}

/// Animation ticks one 40 ms step advances a thread at 1×.
pub fn ticks_per_step() -> i32 {
    let c = retroanim_herc::clock::clock_for(STEP_MS);
    i32::from(retroanim_herc::clock::thread_step(
        c.anim_delta,
        retroanim_herc::RATE_1X,
    ))
}

/// Runs sequence `seq` on one thread from frame 0 and records the pose after every step.
fn bake(model: &Model, seq: i16) -> Result<Vec<Key>, ControlError> {
    let list = model.anim_list();
    let ticks = list.sequence(seq).map_or(0, |s| s.total_duration());
    let steps = steps_for(ticks, ticks_per_step());
    let mut herc = AnimatedShape::new(model);
    let thread = herc.add_thread(seq)?;
    let record = |h: &AnimatedShape| {
        let th = h.thread(thread);
        Key {
            world: h.world().to_vec(),
            object: h.object(),
            frame: th.map_or(0, |t| t.frame),
            acc: th.map_or(0, |t| t.acc),
            in_transition: th.is_some_and(|t| t.in_transition()),
        }
    };
    let mut keys = Vec::with_capacity(steps + 1);
    keys.push(record(&herc));
    for _ in 0..steps {
        herc.step_ms(STEP_MS)?;
        keys.push(record(&herc));
    }
    Ok(keys)
}

/// Rotation keys with a continuous sign (each within 90° of the one before in 4-D).
fn continuous(quats: impl Iterator<Item = [f64; 4]>) -> Vec<f32> {
    let mut out = Vec::new();
    let mut prev: Option<[f64; 4]> = None;
    for q in quats {
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        let mut q = q.map(|v| v / n);
        if let Some(p) = prev {
            if p.iter().zip(&q).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                q = q.map(|v| -v);
            }
        }
        prev = Some(q);
        out.extend(q.map(|v| v as f32));
    }
    out
}

/// The linear RGBA colour the model browser gives DTS colour number `n` (hue `47·n`,
/// saturation 32 %, lightness 58 %): DTS palettes belong to the game's files.
pub fn colour(n: i16) -> [f32; 4] {
    let h = f64::from((i32::from(n) * 47).rem_euclid(360));
    let (s, l) = (0.32, 0.58);
    let c = (1.0 - (2.0 * l - 1.0_f64).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let linear = |v: f64| {
        let v = v + m;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    [linear(r) as f32, linear(g) as f32, linear(b) as f32, 1.0]
}

/// The linear RGBA of an 8-bit sRGB colour.
fn linear_rgb(c: [u8; 3]) -> [f32; 4] {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    [lin(c[0]) as f32, lin(c[1]) as f32, lin(c[2]) as f32, 1.0]
}

/// One glTF mesh per DTS group, its polygons (those with three or more vertices and a
/// visible front) fanned into triangles, only the points they use, in glTF axes and metres.
/// Its base colour is the colour most of its polygons are drawn in through the shape's
/// palette (a textured polygon counts with its frame's mean colour; glTF gets no textures);
/// without a palette, the model browser's guessed hue for the first polygon's surface
/// value. Returns (DTS node, mesh) pairs; a group in the shape's own space (negative
/// transform id) goes on node 0.
fn meshes(asset: &HercAsset, scale: f64) -> Vec<(usize, Mesh)> {
    let nodes = asset.model.node_count();
    let mut out = Vec::new();
    for (gi, m) in asset.meshes.iter().enumerate() {
        let g = &m.geometry;
        let node = usize::try_from(m.transform_id)
            .ok()
            .filter(|&n| n < nodes)
            .unwrap_or(0);
        let drawn: Vec<usize> = (0..g.polys.len())
            .filter(|&i| g.polys[i].vertex_count >= 3)
            .filter(|&i| !poly_sides(g, i).0.is_some_and(|s| s.hidden()))
            .collect();
        let mut counted: Vec<([u8; 3], usize)> = Vec::new();
        for &i in &drawn {
            let front = poly_sides(g, i).0;
            let look = front.map_or(Material::None, |s| material(g.polys[i].tag, s.value));
            if let Some(c) = material_rgb(look, asset.palette.as_ref(), asset.bitmaps.as_ref()) {
                match counted.iter_mut().find(|(k, _)| *k == c) {
                    Some((_, n)) => *n += 1,
                    None => counted.push((c, 1)),
                }
            }
        }
        // The most frequent colour; the first seen among equals.
        let best = counted
            .iter()
            .fold(None::<&([u8; 3], usize)>, |b, x| match b {
                Some(b) if b.1 >= x.1 => Some(b),
                _ => Some(x),
            })
            .map(|(c, _)| *c);
        let base_color = match best {
            Some(c) => linear_rgb(c),
            None => colour(
                drawn
                    .first()
                    .and_then(|&i| poly_sides(g, i).0.map(|s| s.value).or(g.polys[i].color))
                    .unwrap_or(0),
            ),
        };
        let mut used: Vec<i16> = Vec::new();
        let mut indices = Vec::new();
        for &i in &drawn {
            let pts: Vec<u32> = g
                .poly_points(i)
                .iter()
                .filter(|&&p| usize::try_from(p).is_ok_and(|p| p < g.points.len()))
                .map(|&p| {
                    let at = used.iter().position(|&u| u == p).unwrap_or_else(|| {
                        used.push(p);
                        used.len() - 1
                    });
                    at as u32
                })
                .collect();
            for k in 1..pts.len().saturating_sub(1) {
                indices.extend([pts[0], pts[k], pts[k + 1]]);
            }
        }
        if indices.is_empty() {
            continue;
        }
        let positions = used
            .iter()
            .map(|&p| {
                let v = g.points[p as usize].map(f64::from);
                axes(v).map(|v| (v * scale) as f32)
            })
            .collect();
        out.push((
            node,
            Mesh {
                name: format!("{} group {gi}", asset.node_names[node]),
                positions,
                indices,
                base_color,
                ..Mesh::default()
            },
        ));
    }
    out
}

/// `names` with a repeated one made unique (`walk`, `walk #2`): glTF viewers find clips and
/// nodes by name, and an asset's informative names may repeat.
fn unique(names: &[String]) -> Vec<String> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    names
        .iter()
        .map(|n| {
            let count = seen.entry(n.as_str()).or_insert(0);
            *count += 1;
            if *count == 1 {
                n.clone()
            } else {
                format!("{n} #{count}")
            }
        })
        .collect()
}

/// The exported scene: nodes, meshes, one clip per sequence and the sidecar.
pub fn export(asset: &HercAsset, options: &Options) -> Result<Scene, ExportError> {
    let model = &asset.model;
    let list = model.anim_list();
    let n_nodes = list.nodes().len();
    let n_seqs = list.sequences().len();
    if asset.node_names.len() != n_nodes || asset.sequence_names.len() != n_seqs {
        return Err(ExportError::Names {
            file: asset.name.clone(),
            message: format!(
                "{} node names for {n_nodes} nodes, {} sequence names for {n_seqs} sequences",
                asset.node_names.len(),
                asset.sequence_names.len()
            ),
        });
    }
    let node_names = unique(&asset.node_names);
    let clip_names = unique(&asset.sequence_names);
    let scale = options.metres_per_unit;
    let tps = ticks_per_step();
    let keyed: usize = list
        .sequences()
        .iter()
        .map(|s| (steps_for(s.total_duration(), tps) + 1).saturating_mul(n_nodes))
        .fold(0, usize::saturating_add);
    if keyed > MAX_KEYED_VALUES {
        return Err(ExportError::TooLarge {
            file: asset.name.clone(),
            keys: keyed,
        });
    }

    // Nodes: DTS node i is glTF node i; parentless nodes hang from node 0.
    let rest = list.rest_keys();
    let mut nodes: Vec<Node> = list
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let parent = match usize::try_from(n.parent) {
                Ok(p) => Some(p),
                Err(_) if i == 0 => None,
                Err(_) => Some(0),
            };
            let mut node = Node::new(node_names[i].clone(), parent);
            if i > 0 {
                let (t, r) = local_trs(&rest[i], scale);
                node.translation = t;
                node.rotation = continuous(std::iter::once(r))
                    .try_into()
                    .unwrap_or([0.0, 0.0, 0.0, 1.0]);
            }
            node
        })
        .collect();
    let mut scene_meshes = Vec::new();
    for (node, mesh) in meshes(asset, scale) {
        let index = scene_meshes.len();
        scene_meshes.push(mesh);
        if nodes[node].mesh.is_none() {
            nodes[node].mesh = Some(index);
        } else {
            let mut extra = Node::new(format!("{} mesh {index}", nodes[node].name), Some(node));
            extra.mesh = Some(index);
            nodes.push(extra);
        }
    }

    let mut clips = Vec::with_capacity(n_seqs);
    let mut sidecar_seqs = Vec::with_capacity(n_seqs);
    for (s, seq) in list.sequences().iter().enumerate() {
        let name = &clip_names[s];
        let keys = bake(model, s as i16).map_err(|error| ExportError::Engine {
            sequence: name.clone(),
            error,
        })?;
        let times: Vec<f32> = (0..keys.len())
            .map(|k| (k as f64 * KEY_SECONDS) as f32)
            .collect();
        // Per key, per node: the local keys, placing each node under its parent as the
        // viewer will have placed the parent from the written (f32) keys, so no rounding
        // accumulates down the tree.
        let mut t_keys = vec![Vec::with_capacity(keys.len() * 3); n_nodes];
        let mut r_keys = vec![Vec::with_capacity(keys.len()); n_nodes];
        for key in &keys {
            let object = match options.root_motion {
                RootMotion::Baked => q14_affine(&key.object.transform()),
                RootMotion::InPlace => q14_affine(&Transform3::IDENTITY),
            };
            let mut placed: Vec<Affine> = vec![IDENTITY; n_nodes];
            let (t, q, at) = local_under(&IDENTITY, &affine_to_gltf(&object, scale));
            placed[0] = at;
            t_keys[0].extend(t);
            r_keys[0].push(q);
            for &n in list.parent_first() {
                let n = usize::from(n);
                if n == 0 {
                    continue;
                }
                let target = compose(&object, &q14_affine(&key.world[n]));
                let parent = usize::try_from(list.nodes()[n].parent).unwrap_or(0);
                let (t, q, at) = local_under(&placed[parent], &affine_to_gltf(&target, scale));
                placed[n] = at;
                t_keys[n].extend(t);
                r_keys[n].push(q);
            }
        }
        let mut channels = Vec::new();
        let first = if options.root_motion == RootMotion::Baked {
            0
        } else {
            1
        };
        for node in first..n_nodes {
            for (property, values) in [
                (Property::Translation, std::mem::take(&mut t_keys[node])),
                (Property::Rotation, continuous(r_keys[node].drain(..))),
            ] {
                channels.push(Channel {
                    node,
                    property,
                    interpolation: Interpolation::Step,
                    times: times.clone(),
                    values,
                });
            }
        }
        clips.push(Clip {
            name: name.clone(),
            channels,
        });
        sidecar_seqs.push(sequence_sidecar(
            asset,
            &clip_names,
            s,
            seq,
            &keys,
            tps,
            scale,
        ));
    }

    let sidecar = json!({
        "engine": "herc",
        "shape": asset.name,
        "axes": "glTF = (-x, z, y) of DTS: DTS is +Z up, facing +Y, +X to the right",
        "metres_per_unit": options.metres_per_unit,
        "root_motion": match options.root_motion {
            RootMotion::InPlace => "in-place",
            RootMotion::Baked => "baked",
        },
        "key_seconds": KEY_SECONDS,
        "ticks_per_key": tps,
        "interpolation": "STEP",
        "nodes": list.nodes().iter().enumerate().map(|(i, n)| json!({
            "name": node_names[i], "dts_parent": n.parent,
        })).collect::<Vec<_>>(),
        "sequences": sidecar_seqs,
    });
    Ok(Scene {
        name: asset.name.clone(),
        nodes,
        meshes: scene_meshes,
        clips,
        sidecar,
    })
}

/// What glTF cannot hold of one sequence: its class and priority, per frame the
/// transitions it offers (destination, duration, movement key), the times its frames
/// start in the clip (from the bake), and the movement over the clip.
fn sequence_sidecar(
    asset: &HercAsset,
    clip_names: &[String],
    s: usize,
    seq: &retroanim_herc::anim_list::Sequence,
    keys: &[Key],
    tps: i32,
    scale: f64,
) -> Value {
    let list = asset.model.anim_list();
    let seconds_per_tick = KEY_SECONDS / f64::from(tps);
    let frames: Vec<Value> = seq
        .frames
        .iter()
        .enumerate()
        .map(|(f, fr)| {
            let first = usize::try_from(fr.first_transition).unwrap_or(0);
            let count = usize::try_from(fr.transition_count).unwrap_or(0);
            let transitions: Vec<Value> = list
                .transitions()
                .iter()
                .skip(first)
                .take(count)
                .map(|t| {
                    let key = list.keyframe(t.key);
                    let (tr, rot) = local_trs(&key, scale);
                    json!({
                        "to": usize::try_from(t.dest_seq).ok().and_then(|d| clip_names.get(d)),
                        "to_sequence": t.dest_seq,
                        "to_frame": t.dest_frame,
                        "duration_ticks": t.duration,
                        "duration_seconds": f64::from(t.duration) * seconds_per_tick,
                        "movement_key": {
                            "index": t.key,
                            "record": key,
                            "translation": tr,
                            "rotation": continuous(std::iter::once(rot)),
                        },
                    })
                })
                .collect();
            json!({"frame": f, "duration_ticks": fr.duration, "transitions": transitions})
        })
        .collect();
    // A frame starts `acc` ticks before the first key that shows it.
    let mut events = Vec::new();
    let mut shown: Option<(i16, bool)> = None;
    for (k, key) in keys.iter().enumerate() {
        let now = (key.frame, key.in_transition);
        if shown != Some(now) {
            let time = k as f64 * KEY_SECONDS - f64::from(key.acc) * seconds_per_tick;
            events.push(json!({
                "time": time.max(0.0),
                "event": if key.in_transition { "transition_frame" } else { "frame" },
                "frame": key.frame,
            }));
            shown = Some(now);
        }
    }
    let last = keys.last().map(|k| k.object).unwrap_or_default();
    let (moved, turned, _) = local_under(
        &IDENTITY,
        &affine_to_gltf(&q14_affine(&last.transform()), scale),
    );
    json!({
        "name": clip_names[s],
        "index": s,
        "class": match seq.class { SeqClass::Cyclic => "cyclic", SeqClass::OneShot => "one_shot" },
        "priority": seq.priority,
        "ground": seq.ground,
        "ticks": seq.total_duration(),
        "keys": keys.len(),
        "frames": frames,
        "events": events,
        "movement": {"translation": moved, "rotation": continuous(std::iter::once(turned))},
    })
}
