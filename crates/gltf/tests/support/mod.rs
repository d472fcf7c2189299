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
        let locals = herc.shape().locals(list);
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

/// `m` with its rotation part replaced by the nearest rotation (the orthogonal polar
/// factor), by the Newton–Schulz iteration `R ← R·(3I − RᵀR)/2`.
pub fn orthonormalised(m: &Mat4) -> Mat4 {
    let mut r = [[0.0f64; 3]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = m[j * 4 + i];
        }
    }
    for _ in 0..8 {
        let mut rtr = [[0.0f64; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                rtr[i][j] = (0..3).map(|k| r[k][i] * r[k][j]).sum();
            }
        }
        let mut next = [[0.0f64; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                next[i][j] = (0..3)
                    .map(|k| r[i][k] * (if k == j { 3.0 } else { 0.0 } - rtr[k][j]) / 2.0)
                    .sum();
            }
        }
        r = next;
    }
    let mut out = *m;
    for i in 0..3 {
        for j in 0..3 {
            out[j * 4 + i] = r[i][j];
        }
    }
    out
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

/// One exported sample for the viewer checks, with what the engine says at chosen keys.
pub struct Sample {
    /// The file name it is written under (`biped.glb`).
    pub file: String,
    pub glb: Vec<u8>,
    /// The scene it was written from (node names, clips and their keys).
    pub scene: retroanim_gltf::Scene,
    pub checks: Vec<Check>,
}

/// One clip at one key: the time to sample and what each node must show there.
pub struct Check {
    pub clip: String,
    pub key: usize,
    /// The key's time in seconds.
    pub time: f64,
    /// Seconds from this key to the next (a viewer samples half a step after the key, where
    /// a STEP key holds).
    pub step: f64,
    /// How many keys the clip has.
    pub keys: usize,
    pub expect: Expect,
}

pub enum Expect {
    /// Per glTF node: its world matrix and how far its rotation entries may be (the engine
    /// matrix's own departure from a rotation, for a Q14 matrix).
    Nodes(Vec<(usize, Mat4, f64)>),
    /// A node's morph weights.
    Weights(usize, Vec<f64>),
}

/// The bundled HERC biped (in place and with baked root motion) and actor flag, exported
/// and written, with the engine's poses at the first keys, a middle one and the last of
/// several clips.
pub fn samples() -> Vec<Sample> {
    use retroanim_gltf::{herc, write_glb};
    let mut out = Vec::new();
    let biped = sample_biped();
    for (file, root_motion, clips) in [
        (
            "biped.glb",
            RootMotion::InPlace,
            &["idle", "walk", "run", "turn", "stop", "twist", "pitch"][..],
        ),
        (
            "biped_baked.glb",
            RootMotion::Baked,
            &["walk", "turn", "stop"][..],
        ),
    ] {
        let options = herc::Options {
            root_motion,
            ..herc::Options::default()
        };
        let scene = herc::export(&biped, &options).expect("the biped exports");
        let glb = write_glb(&scene, &Default::default()).expect("the biped writes");
        let mut checks = Vec::new();
        for &clip in clips {
            let seq = biped.model.sequence_named(clip).expect("a sequence");
            let c = scene.clips.iter().position(|x| x.name == clip).unwrap();
            let keys = scene.clips[c].channels[0].times.len();
            let poses = herc_poses(&biped.model, seq, keys - 1, root_motion, 0.01);
            for key in [0, 1, 2, keys / 2, keys - 1] {
                let nodes = poses[key]
                    .1
                    .iter()
                    .enumerate()
                    .map(|(n, m)| (n, *m, orthogonality_defect(m)))
                    .collect();
                checks.push(Check {
                    clip: clip.to_string(),
                    key,
                    time: key as f64 * 0.04,
                    step: 0.04,
                    keys,
                    expect: Expect::Nodes(nodes),
                });
            }
        }
        out.push(Sample {
            file: file.to_string(),
            glb,
            scene,
            checks,
        });
    }
    out.push(flag_sample());
    out.push(humanoid_sample());
    out
}

/// The bundled AC humanoid (Setup 0x02000001, motion table 0x09000001), exported by
/// gltfa's AC exporter, checked at chosen keys of two cycles and two links against the
/// part frames the engine's Sequence shows when played in 1/30 s updates from the clip's
/// start to half a frame after the key.
fn humanoid_sample() -> Sample {
    use retroanim_ac::math::{AFrame, Vec3};
    use retroanim_ac::motion_table::add_motion;
    use retroanim_ac::sequence::Sequence;
    use retroanim_gltf::write_glb;
    const SETUP: u32 = 0x0200_0001;
    const TABLE: u32 = 0x0900_0001;
    let mut loader = retroanim_ac::Loader::from_dir(repository().join("assets/ac/records"));
    let scene = retroanim_gltf::ac::export(&mut loader, Some(SETUP), TABLE, &Default::default())
        .expect("the humanoid exports");
    let glb = write_glb(&scene, &Default::default()).expect("the humanoid writes");
    let motions = loader.load(TABLE).expect("the table loads");
    let records = loader.store().motion_table(TABLE).expect("the table reads");
    let (bytes, file) = loader.store().raw(SETUP).expect("the Setup");
    let setup = retroanim_ac::records::read_setup(&bytes, &file).expect("the Setup reads");
    let cycle = |key: u32| &records.cycles.iter().find(|c| c.0 == key).unwrap().1;
    let link = |from: u32, to: u32| {
        let inner = &records.links.iter().find(|l| l.0 == from).unwrap().1;
        &inner.iter().find(|l| l.0 == to).unwrap().1
    };
    let rate = 30.0;
    let mut checks = Vec::new();
    for (clip, md) in [
        ("NonCombat.WalkForward", cycle(0x003d_0005)),
        ("NonCombat.RunForward", cycle(0x003d_0007)),
        ("NonCombat.Ready→Wave", link(0x003d_0003, 0x1300_0087)),
        (
            "SwordCombat.Ready→TripleThrustLow",
            link(0x003e_0003, 0x1000_0128),
        ),
    ] {
        let c = scene.clips.iter().position(|x| x.name == clip).unwrap();
        let keys = scene.clips[c].channels[0].times.len();
        // The last key holds the last frame to the clip's end; the frames before it are
        // one 30th of a second each.
        for key in [0, 1, 2, keys / 2, keys - 2] {
            let time = key as f64 / rate;
            let mut seq = Sequence::new();
            add_motion(&mut seq, Some(md), 1.0, &*motions.anims);
            let mut left = time + 0.5 / rate;
            let mut hooks = Vec::new();
            while left > 1e-9 {
                let dt = left.min(1.0 / rate);
                let mut offset = AFrame::IDENTITY;
                seq.update(dt as f32, Some(&mut offset), &mut hooks);
                left -= dt;
            }
            let ci = seq.curr().expect("a playing node");
            let parts = &seq.nodes()[ci]
                .part_frame(seq.curr_frame_number())
                .expect("a part frame")
                .parts;
            let nodes = parts
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let s = setup.default_scale.get(i).copied().unwrap_or(Vec3 {
                        x: 1.0,
                        y: 1.0,
                        z: 1.0,
                    });
                    (i + 1, ac_matrix(f, s), 0.0)
                })
                .collect();
            checks.push(Check {
                clip: clip.to_string(),
                key,
                time,
                step: 1.0 / rate,
                keys,
                expect: Expect::Nodes(nodes),
            });
        }
    }
    Sample {
        file: "humanoid.glb".to_string(),
        glb,
        scene,
        checks,
    }
}

/// An AC part frame with its scale (`T · R · S`, AC axes: +Z up, +Y forward) as a glTF-axes
/// matrix (metres: AC's unit).
fn ac_matrix(f: &retroanim_ac::math::AFrame, s: retroanim_ac::math::Vec3) -> Mat4 {
    let q = f.orientation;
    let (w, x, y, z) = (
        f64::from(q.w),
        f64::from(q.x),
        f64::from(q.y),
        f64::from(q.z),
    );
    let n = (w * w + x * x + y * y + z * z).sqrt();
    let (w, x, y, z) = (w / n, x / n, y / n, z / n);
    let r = [
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
    let scale = [f64::from(s.x), f64::from(s.y), f64::from(s.z)];
    let rs: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| r[i][j] * scale[j]));
    let o = f.origin;
    to_gltf(
        &affine(rs, [f64::from(o.x), f64::from(o.y), f64::from(o.z)]),
        1.0,
    )
}

/// The flag: every key of every group, the weights one-hot on the frame flag_a selects
/// when forced onto the group (scripts off), update after update.
fn flag_sample() -> Sample {
    use retroanim_gltf::{actor, write_glb};
    let text = std::fs::read_to_string(repository().join("assets/actor/flag2.json")).unwrap();
    let asset = actor::ActorAsset::from_json(&text, "flag2.json").expect("the flag loads");
    let scene = actor::export(&asset, &actor::Options::default()).expect("the flag exports");
    let glb = write_glb(&scene, &Default::default()).expect("the flag writes");
    let targets: Vec<[u16; 2]> = asset.meshes[0]
        .frames
        .iter()
        .map(|(h, i, _)| [*h, *i])
        .collect();
    let mut checks = Vec::new();
    for (clip, group) in [("idle", 0u8), ("wave", 1), ("gust", 10)] {
        let keys = scene
            .clips
            .iter()
            .find(|c| c.name == clip)
            .map(|c| c.channels[0].times.len())
            .unwrap();
        let mut stage = retroanim_actor::Stage::builder(asset.set.clone())
            .view([2660, 2860])
            .scripts(false)
            .build()
            .unwrap();
        stage.force_request("flag_a", group, 0).unwrap();
        for key in 0..keys {
            if key > 0 {
                stage.update().unwrap();
            }
            let frame = stage.frame("flag_a").unwrap();
            let weights = targets
                .iter()
                .map(|t| if Some(*t) == frame { 1.0 } else { 0.0 })
                .collect();
            checks.push(Check {
                clip: clip.to_string(),
                key,
                time: key as f64 * 0.04,
                step: 0.04,
                keys,
                expect: Expect::Weights(0, weights),
            });
        }
    }
    Sample {
        file: "flag2.glb".to_string(),
        glb,
        scene,
        checks,
    }
}

/// The largest differences a viewer showed: (rotation entry from the engine's matrix,
/// rotation entry from that matrix orthonormalised, translation in metres, morph weight),
/// after checking each against its tolerance. `nodes` and `weights` are indexed
/// by glTF node; `who` names the viewer in messages.
pub fn compare(
    who: &str,
    sample: &Sample,
    check: &Check,
    nodes: &[Option<Mat4>],
    weights: &[Option<Vec<f64>>],
    tolerance: f64,
) -> (f64, f64, f64, f64) {
    let at = format!(
        "{who}: {} clip {} key {}",
        sample.file, check.clip, check.key
    );
    let (mut rot, mut ortho, mut moved, mut weight) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    match &check.expect {
        Expect::Nodes(want) => {
            for (n, m, defect) in want {
                let got = nodes
                    .get(*n)
                    .and_then(|g| g.as_ref())
                    .unwrap_or_else(|| panic!("{at}: no node {n}"));
                let r = rotation_difference(got, m);
                let o = rotation_difference(got, &orthonormalised(m));
                let t = translation_difference(got, m);
                assert!(
                    r <= defect + tolerance && o <= tolerance && t <= tolerance,
                    "{at} node {n}: rotation {r:e} (allowed {:e}), {o:e} from the nearest \
                     rotation, translation {t:e} m\n got {got:?}\n want {m:?}",
                    defect + tolerance
                );
                rot = rot.max(r);
                ortho = ortho.max(o);
                moved = moved.max(t);
            }
        }
        Expect::Weights(n, want) => {
            let got = weights
                .get(*n)
                .and_then(|g| g.as_ref())
                .unwrap_or_else(|| panic!("{at}: no weights on node {n}"));
            assert_eq!(got.len(), want.len(), "{at}");
            for (g, w) in got.iter().zip(want) {
                let d = (g - w).abs();
                assert!(d <= tolerance, "{at}: weights {got:?}, want {want:?}");
                weight = weight.max(d);
            }
        }
    }
    (rot, ortho, moved, weight)
}
