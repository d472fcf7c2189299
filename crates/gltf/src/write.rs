//! Scene → binary glTF 2.0.

use std::collections::{BTreeMap, HashMap};

use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use json::{accessor, animation, buffer, mesh, Index};

use crate::check::{self, Checked};
use crate::glb;
use crate::matrix::{self, Mat4};
use crate::scene::{Interpolation, Property, Scene};
use crate::Error;

/// How to write a scene.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Write the rigid parts as one skinned mesh: every part that carries a mesh becomes a
    /// joint of one skin, and each vertex follows its own part's joint with weight 1. The
    /// node animation is unchanged; tools that want a single mesh (game engines' character
    /// importers) get one. Meshes with morph targets stay on their nodes.
    pub skinned: bool,
}

/// Writes `scene` as a binary glTF 2.0 (`.glb`).
///
/// Every rule glTF imposes is checked here, once, for every engine: see [`Error`] for what
/// is refused. Rotations are normalised and given a continuous sign across keys.
pub fn write_glb(scene: &Scene, options: &WriteOptions) -> Result<Vec<u8>, Error> {
    let checked = check::check(scene)?;
    let mut w = Writer::default();
    w.root.asset.generator = Some(format!("retroanim {}", env!("CARGO_PKG_VERSION")));
    if !scene.sidecar.is_null() {
        w.root.extras = Some(raw(&scene.sidecar));
    }
    let skinned = if options.skinned {
        skinned_parts(scene)
    } else {
        Vec::new()
    };
    let meshes = w.meshes(scene, &checked, &skinned);
    w.nodes(scene, &checked, &meshes, &skinned);
    w.clips(scene, &checked);
    let mut scene_roots: Vec<Index<json::Node>> = checked
        .roots
        .iter()
        .map(|&i| Index::new(i as u32))
        .collect();
    if !skinned.is_empty() {
        scene_roots.push(w.skin(scene, &checked, &skinned));
    }
    let name = (!scene.name.is_empty()).then(|| scene.name.clone());
    let index = w.root.push(json::Scene {
        extensions: None,
        extras: None,
        name,
        nodes: scene_roots,
    });
    w.root.scene = Some(index);
    if !w.bin.is_empty() {
        w.root.push(json::Buffer {
            byte_length: USize64(w.bin.len() as u64),
            name: None,
            uri: None,
            extensions: None,
            extras: None,
        });
    }
    let text = json::serialize::to_vec(&w.root)
        .map_err(|e| Error::invalid("the JSON chunk", e.to_string()))?;
    glb::frame(&text, &w.bin)
}

fn raw(value: &serde_json::Value) -> Box<serde_json::value::RawValue> {
    // A Value always serialises, so the fallback never applies; it keeps the writer panic-free.
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| {
        serde_json::value::RawValue::from_string("null".into()).unwrap_or_default()
    })
}

/// The nodes whose meshes join the skin, in node order.
fn skinned_parts(scene: &Scene) -> Vec<usize> {
    scene
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            n.mesh
                .is_some_and(|m| scene.meshes[m].morph_targets.is_empty())
        })
        .map(|(i, _)| i)
        .collect()
}

#[derive(Default)]
struct Writer {
    root: json::Root,
    bin: Vec<u8>,
    /// Key-time accessors already written, by the bits of their times: channels keyed at the
    /// same times share one input accessor.
    inputs: HashMap<Vec<u32>, Index<json::Accessor>>,
}

impl Writer {
    fn view(&mut self, bytes: &[u8], target: Option<buffer::Target>) -> Index<buffer::View> {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.bin.resize(self.bin.len().div_ceil(4) * 4, 0);
        self.root.push(buffer::View {
            buffer: Index::new(0),
            byte_length: USize64(bytes.len() as u64),
            byte_offset: Some(USize64(offset as u64)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: None,
        })
    }

    /// An accessor over f32 data, `width` components per element, with per-component bounds
    /// when `bounds` (POSITION and animation inputs must carry them).
    fn floats(
        &mut self,
        data: &[f32],
        ty: accessor::Type,
        bounds: bool,
        target: Option<buffer::Target>,
    ) -> Index<json::Accessor> {
        let width = ty.multiplicity();
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let (min, max) = if bounds {
            let mut min = vec![f32::INFINITY; width];
            let mut max = vec![f32::NEG_INFINITY; width];
            for element in data.chunks_exact(width) {
                for (k, &v) in element.iter().enumerate() {
                    min[k] = min[k].min(v);
                    max[k] = max[k].max(v);
                }
            }
            (Some(min.into()), Some(max.into()))
        } else {
            (None, None)
        };
        self.accessor(
            view,
            data.len() / width,
            accessor::ComponentType::F32,
            ty,
            min,
            max,
        )
    }

    fn accessor(
        &mut self,
        view: Index<buffer::View>,
        count: usize,
        component: accessor::ComponentType,
        ty: accessor::Type,
        min: Option<serde_json::Value>,
        max: Option<serde_json::Value>,
    ) -> Index<json::Accessor> {
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64(count as u64),
            component_type: Valid(accessor::GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Valid(ty),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    fn nodes(
        &mut self,
        scene: &Scene,
        checked: &Checked,
        meshes: &[Option<Index<json::Mesh>>],
        skinned: &[usize],
    ) {
        for (i, node) in scene.nodes.iter().enumerate() {
            let children = &checked.children[i];
            let rotation = checked.rest_rotations[i];
            let joins_skin = skinned.binary_search(&i).is_ok();
            self.root.push(json::Node {
                name: Some(node.name.clone()),
                children: (!children.is_empty())
                    .then(|| children.iter().map(|&c| Index::new(c as u32)).collect()),
                translation: (node.translation != [0.0; 3]).then_some(node.translation),
                rotation: (rotation != [0.0, 0.0, 0.0, 1.0])
                    .then_some(json::scene::UnitQuaternion(rotation)),
                scale: (node.scale != [1.0; 3]).then_some(node.scale),
                mesh: node.mesh.filter(|_| !joins_skin).and_then(|m| meshes[m]),
                ..Default::default()
            });
        }
    }

    /// Writes the meshes some unskinned node shows (an unused mesh would only draw the
    /// validator's attention) and returns each scene mesh's glTF index.
    fn meshes(
        &mut self,
        scene: &Scene,
        checked: &Checked,
        skinned: &[usize],
    ) -> Vec<Option<Index<json::Mesh>>> {
        let mut shown = vec![false; scene.meshes.len()];
        for (i, node) in scene.nodes.iter().enumerate() {
            if let (Some(m), false) = (node.mesh, skinned.binary_search(&i).is_ok()) {
                shown[m] = true;
            }
        }
        let mut indices = vec![None; scene.meshes.len()];
        for (i, m) in scene.meshes.iter().enumerate() {
            if !shown[i] {
                continue;
            }
            let primitive = self.primitive(m, &checked.normals[i], None);
            let weights = (!m.morph_targets.is_empty()).then(|| vec![0.0; m.morph_targets.len()]);
            let extras = (!m.morph_targets.is_empty()).then(|| {
                let names: Vec<&str> = m.morph_targets.iter().map(|t| t.name.as_str()).collect();
                raw(&serde_json::json!({ "targetNames": names }))
            });
            indices[i] = Some(self.root.push(json::Mesh {
                extensions: None,
                extras,
                name: Some(m.name.clone()),
                primitives: vec![primitive],
                weights,
            }));
        }
        indices
    }

    fn primitive(
        &mut self,
        m: &crate::scene::Mesh,
        normals: &[[f32; 3]],
        joint: Option<(u16, Mat4)>,
    ) -> mesh::Primitive {
        let (positions, normals) = match joint {
            None => (m.positions.clone(), normals.to_vec()),
            Some((_, world)) => (
                m.positions
                    .iter()
                    .map(|&p| matrix::point(&world, p))
                    .collect(),
                normals.iter().map(|&n| matrix::normal(&world, n)).collect(),
            ),
        };
        let array = Some(buffer::Target::ArrayBuffer);
        let mut attributes = BTreeMap::new();
        let position = self.floats(positions.as_flattened(), accessor::Type::Vec3, true, array);
        attributes.insert(Valid(mesh::Semantic::Positions), position);
        if !normals.is_empty() {
            let normal = self.floats(normals.as_flattened(), accessor::Type::Vec3, false, array);
            attributes.insert(Valid(mesh::Semantic::Normals), normal);
        }
        if !m.uvs.is_empty() {
            let uv = self.floats(m.uvs.as_flattened(), accessor::Type::Vec2, false, array);
            attributes.insert(Valid(mesh::Semantic::TexCoords(0)), uv);
        }
        if let Some((joint, _)) = joint {
            let count = m.positions.len();
            let bytes: Vec<u8> = (0..count)
                .flat_map(|_| [joint, 0, 0, 0])
                .flat_map(u16::to_le_bytes)
                .collect();
            let view = self.view(&bytes, array);
            let joints = self.accessor(
                view,
                count,
                accessor::ComponentType::U16,
                accessor::Type::Vec4,
                None,
                None,
            );
            attributes.insert(Valid(mesh::Semantic::Joints(0)), joints);
            let ones: Vec<f32> = (0..count).flat_map(|_| [1.0, 0.0, 0.0, 0.0]).collect();
            let weights = self.floats(&ones, accessor::Type::Vec4, false, array);
            attributes.insert(Valid(mesh::Semantic::Weights(0)), weights);
        }
        let index_bytes: Vec<u8> = m.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&index_bytes, Some(buffer::Target::ElementArrayBuffer));
        let indices = self.accessor(
            view,
            m.indices.len(),
            accessor::ComponentType::U32,
            accessor::Type::Scalar,
            None,
            None,
        );
        let targets = (!m.morph_targets.is_empty()).then(|| {
            m.morph_targets
                .iter()
                .map(|t| mesh::MorphTarget {
                    positions: Some(self.floats(
                        t.position_offsets.as_flattened(),
                        accessor::Type::Vec3,
                        true,
                        array,
                    )),
                    normals: None,
                    tangents: None,
                })
                .collect()
        });
        let material = self.root.push(json::Material {
            name: Some(m.name.clone()),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor(m.base_color),
                metallic_factor: json::material::StrengthFactor(0.0),
                ..Default::default()
            },
            ..Default::default()
        });
        mesh::Primitive {
            attributes,
            extensions: None,
            extras: None,
            indices: Some(indices),
            material: Some(material),
            mode: Valid(mesh::Mode::Triangles),
            targets,
        }
    }

    /// One skin over the meshed parts and one mesh holding every part's vertices at their
    /// rest place, each bound to its part with weight 1; returns the node that carries it.
    fn skin(&mut self, scene: &Scene, checked: &Checked, skinned: &[usize]) -> Index<json::Node> {
        let world = matrix::rest_world(scene);
        let mut primitives = Vec::with_capacity(skinned.len());
        let mut inverse_binds = Vec::with_capacity(skinned.len() * 16);
        for (joint, &node) in skinned.iter().enumerate() {
            let Some(m) = scene.nodes[node].mesh else {
                continue;
            };
            let joint = u16::try_from(joint).unwrap_or(u16::MAX);
            let bound = Some((joint, world[node]));
            primitives.push(self.primitive(&scene.meshes[m], &checked.normals[m], bound));
            inverse_binds.extend_from_slice(&matrix::inverse_affine(&world[node]));
        }
        let ibm = self.floats(&inverse_binds, accessor::Type::Mat4, false, None);
        let skin = self.root.push(json::Skin {
            extensions: None,
            extras: None,
            inverse_bind_matrices: Some(ibm),
            joints: skinned.iter().map(|&j| Index::new(j as u32)).collect(),
            name: Some(format!("{}.skin", scene.name)),
            skeleton: None,
        });
        let mesh = self.root.push(json::Mesh {
            extensions: None,
            extras: None,
            name: Some(format!("{}.skinned", scene.name)),
            primitives,
            weights: None,
        });
        self.root.push(json::Node {
            name: Some(format!("{}.skinned", scene.name)),
            mesh: Some(mesh),
            skin: Some(skin),
            ..Default::default()
        })
    }

    fn clips(&mut self, scene: &Scene, checked: &Checked) {
        for (clip, outputs) in scene.clips.iter().zip(&checked.outputs) {
            let mut channels = Vec::with_capacity(clip.channels.len());
            let mut samplers = Vec::with_capacity(clip.channels.len());
            for (c, (channel, values)) in clip.channels.iter().zip(outputs).enumerate() {
                let key: Vec<u32> = channel.times.iter().map(|t| t.to_bits()).collect();
                let input = match self.inputs.get(&key) {
                    Some(&index) => index,
                    None => {
                        let index = self.floats(&channel.times, accessor::Type::Scalar, true, None);
                        self.inputs.insert(key, index);
                        index
                    }
                };
                let ty = match channel.property {
                    Property::Translation | Property::Scale => accessor::Type::Vec3,
                    Property::Rotation => accessor::Type::Vec4,
                    Property::Weights => accessor::Type::Scalar,
                };
                let output = self.floats(values, ty, false, None);
                samplers.push(animation::Sampler {
                    extensions: None,
                    extras: None,
                    input,
                    interpolation: Valid(match channel.interpolation {
                        Interpolation::Step => animation::Interpolation::Step,
                        Interpolation::Linear => animation::Interpolation::Linear,
                    }),
                    output,
                });
                channels.push(animation::Channel {
                    sampler: Index::new(c as u32),
                    target: animation::Target {
                        extensions: None,
                        extras: None,
                        node: Index::new(channel.node as u32),
                        path: Valid(match channel.property {
                            Property::Translation => animation::Property::Translation,
                            Property::Rotation => animation::Property::Rotation,
                            Property::Scale => animation::Property::Scale,
                            Property::Weights => animation::Property::MorphTargetWeights,
                        }),
                    },
                    extensions: None,
                    extras: None,
                });
            }
            self.root.push(json::Animation {
                extensions: None,
                extras: None,
                channels,
                name: Some(clip.name.clone()),
                samplers,
            });
        }
    }
}
