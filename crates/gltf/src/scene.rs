//! The engine-neutral picture an exporter hands to the writer.
//!
//! Everything here is already in glTF's frame: right-handed, +Y up, metres, quaternions as
//! `[x, y, z, w]`. Converting from an engine's own axes (AC is +Z up; DTS shapes are +Z up
//! in fixed point) is the exporter's job, so the writer never has to know which engine a
//! scene came from.

/// A whole export: one model, its clips, and what glTF cannot hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    /// The asset's name (the Setup id, the shape name, the actor set).
    pub name: String,
    /// Nodes in any order; a node's parent, if any, is an index into this list.
    pub nodes: Vec<Node>,
    pub meshes: Vec<Mesh>,
    pub clips: Vec<Clip>,
    /// The state graph and timed events no glTF clip can hold; written to the asset's
    /// `extras` and, by the CLI, to the sidecar JSON.
    pub sidecar: serde_json::Value,
}

/// One node: a rigid part, a DTS node, or an actor's morphing body.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub name: String,
    pub parent: Option<usize>,
    /// The rest pose, used where no clip animates the node.
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
    pub scale: [f32; 3],
    pub mesh: Option<usize>,
}

impl Node {
    /// A node at the origin with no rotation, unit scale and no mesh.
    pub fn new(name: impl Into<String>, parent: Option<usize>) -> Self {
        Node {
            name: name.into(),
            parent,
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
            mesh: None,
        }
    }
}

/// A triangle mesh in its node's space.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    pub name: String,
    pub positions: Vec<[f32; 3]>,
    /// Per vertex, or empty to let the importer compute flat normals.
    pub normals: Vec<[f32; 3]>,
    /// Per vertex, or empty.
    pub uvs: Vec<[f32; 2]>,
    /// Three per triangle, counter-clockwise seen from the front.
    pub indices: Vec<u32>,
    /// A single colour for the whole mesh (linear RGBA), when the source has no texture.
    pub base_color: [f32; 4],
    /// Morph targets as position offsets per vertex (actor frames).
    pub morph_targets: Vec<MorphTarget>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MorphTarget {
    pub name: String,
    pub position_offsets: Vec<[f32; 3]>,
}

/// One named animation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clip {
    /// The engine's own name for it (`NonCombat.WalkForward`, a DTS sequence name, a RAGR
    /// group), never a node number.
    pub name: String,
    pub channels: Vec<Channel>,
}

/// The keys of one property of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    pub node: usize,
    pub property: Property,
    pub interpolation: Interpolation,
    /// Seconds from the clip's start.
    pub times: Vec<f32>,
    /// Flattened values: 3 per key for translation and scale, 4 for rotation, one per morph
    /// target for weights.
    pub values: Vec<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Property {
    Translation,
    Rotation,
    Scale,
    Weights,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    Step,
    Linear,
}
