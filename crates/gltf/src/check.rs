//! The rules glTF imposes on a scene, checked and applied in one place before anything is
//! written: indices in range, no parent cycles, finite numbers, strictly increasing
//! non-negative key times, unit quaternions with a continuous sign, one channel per node and
//! property in a clip, value counts that match the key counts.

use std::collections::HashSet;

use crate::scene::{Channel, Clip, Mesh, Node, Property, Scene};
use crate::Error;

/// What the writer needs beyond the scene itself: normalised copies and the tree.
pub(crate) struct Checked {
    /// Each node's rest rotation, normalised.
    pub rest_rotations: Vec<[f32; 4]>,
    /// Each mesh's normals, normalised (empty where the mesh has none).
    pub normals: Vec<Vec<[f32; 3]>>,
    /// Each clip's channels' output values: rotations normalised with continuous sign.
    pub outputs: Vec<Vec<Vec<f32>>>,
    /// Nodes without a parent, in scene order.
    pub roots: Vec<usize>,
    /// Each node's children, in scene order.
    pub children: Vec<Vec<usize>>,
}

pub(crate) fn check(scene: &Scene) -> Result<Checked, Error> {
    let n = scene.nodes.len();
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    let mut rest_rotations = Vec::with_capacity(n);
    for (i, node) in scene.nodes.iter().enumerate() {
        let at = || node_at(i, node);
        match node.parent {
            None => roots.push(i),
            Some(p) if p >= n => {
                return Err(Error::invalid(
                    at(),
                    format!("parent {p} out of range ({n} nodes)"),
                ))
            }
            Some(p) => children[p].push(i),
        }
        finite(&node.translation, at, "translation")?;
        finite(&node.scale, at, "scale")?;
        rest_rotations.push(
            unit(node.rotation).ok_or_else(|| {
                Error::invalid(at(), "rest rotation is zero-length or not finite")
            })?,
        );
        if let Some(m) = node.mesh {
            if m >= scene.meshes.len() {
                return Err(Error::invalid(
                    at(),
                    format!("mesh {m} out of range ({} meshes)", scene.meshes.len()),
                ));
            }
        }
    }
    for (i, node) in scene.nodes.iter().enumerate() {
        let mut at = node.parent;
        let mut steps = 0;
        while let Some(p) = at {
            steps += 1;
            if steps > n {
                return Err(Error::invalid(node_at(i, node), "its parents form a cycle"));
            }
            at = scene.nodes[p].parent;
        }
    }
    let normals = scene
        .meshes
        .iter()
        .enumerate()
        .map(|(i, mesh)| check_mesh(i, mesh))
        .collect::<Result<Vec<_>, _>>()?;
    let mut names = HashSet::new();
    let mut outputs = Vec::with_capacity(scene.clips.len());
    for clip in &scene.clips {
        if clip.name.is_empty() {
            return Err(Error::invalid("a clip", "has no name"));
        }
        if !names.insert(clip.name.as_str()) {
            return Err(Error::invalid(
                format!("clip \"{}\"", clip.name),
                "another clip has the same name (tools bind clips by name)",
            ));
        }
        outputs.push(check_clip(scene, clip)?);
    }
    Ok(Checked {
        rest_rotations,
        normals,
        outputs,
        roots,
        children,
    })
}

fn node_at(i: usize, node: &Node) -> String {
    format!("node {i} \"{}\"", node.name)
}

fn finite(values: &[f32], at: impl Fn() -> String, what: &str) -> Result<(), Error> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(k) => Err(Error::invalid(
            at(),
            format!("{what} value {k} is not finite ({})", values[k]),
        )),
    }
}

/// `q` scaled to unit length, or None when it has no direction.
pub(crate) fn unit(q: [f32; 4]) -> Option<[f32; 4]> {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if !len.is_finite() || len == 0.0 {
        return None;
    }
    Some(q.map(|c| c / len))
}

fn unit3(v: [f32; 3]) -> Option<[f32; 3]> {
    let len = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    if !len.is_finite() || len == 0.0 {
        return None;
    }
    Some(v.map(|c| c / len))
}

fn check_mesh(i: usize, mesh: &Mesh) -> Result<Vec<[f32; 3]>, Error> {
    let at = || format!("mesh {i} \"{}\"", mesh.name);
    let count = mesh.positions.len();
    if count == 0 || mesh.indices.is_empty() {
        return Err(Error::invalid(at(), "has no vertices or no triangles"));
    }
    if !mesh.indices.len().is_multiple_of(3) {
        return Err(Error::invalid(
            at(),
            format!(
                "{} indices is not a whole number of triangles",
                mesh.indices.len()
            ),
        ));
    }
    if let Some(k) = mesh.indices.iter().position(|&v| v as usize >= count) {
        return Err(Error::invalid(
            at(),
            format!(
                "index {k} is {} but there are {count} vertices",
                mesh.indices[k]
            ),
        ));
    }
    finite(mesh.positions.as_flattened(), at, "position")?;
    finite(mesh.uvs.as_flattened(), at, "uv")?;
    for (what, len) in [("normals", mesh.normals.len()), ("uvs", mesh.uvs.len())] {
        if len != 0 && len != count {
            return Err(Error::invalid(
                at(),
                format!("{len} {what} for {count} vertices"),
            ));
        }
    }
    if let Some(k) = mesh
        .base_color
        .iter()
        .position(|c| !(0.0..=1.0).contains(c))
    {
        return Err(Error::invalid(
            at(),
            format!(
                "base colour component {k} is {} (must be 0..=1)",
                mesh.base_color[k]
            ),
        ));
    }
    for (t, target) in mesh.morph_targets.iter().enumerate() {
        if target.position_offsets.len() != count {
            return Err(Error::invalid(
                at(),
                format!(
                    "morph target {t} \"{}\" has {} offsets for {count} vertices",
                    target.name,
                    target.position_offsets.len()
                ),
            ));
        }
        finite(target.position_offsets.as_flattened(), at, "morph offset")?;
    }
    mesh.normals
        .iter()
        .enumerate()
        .map(|(k, &n)| {
            unit3(n).ok_or_else(|| {
                Error::invalid(at(), format!("normal {k} is zero-length or not finite"))
            })
        })
        .collect()
}

/// Values per key of a channel's property on `node`.
pub(crate) fn components(scene: &Scene, node: &Node, property: Property) -> usize {
    match property {
        Property::Translation | Property::Scale => 3,
        Property::Rotation => 4,
        Property::Weights => node
            .mesh
            .and_then(|m| scene.meshes.get(m))
            .map_or(0, |m| m.morph_targets.len()),
    }
}

fn check_clip(scene: &Scene, clip: &Clip) -> Result<Vec<Vec<f32>>, Error> {
    if clip.channels.is_empty() {
        return Err(Error::invalid(
            format!("clip \"{}\"", clip.name),
            "has no channels (glTF needs at least one)",
        ));
    }
    let mut targets = HashSet::new();
    clip.channels
        .iter()
        .enumerate()
        .map(|(c, channel)| {
            let node = scene.nodes.get(channel.node);
            let at = || {
                let name = node.map_or("?", |n| n.name.as_str());
                format!(
                    "clip \"{}\" channel {c} (node {} \"{name}\" {:?})",
                    clip.name, channel.node, channel.property
                )
            };
            let Some(node) = node else {
                return Err(Error::invalid(
                    at(),
                    format!("node out of range ({} nodes)", scene.nodes.len()),
                ));
            };
            if !targets.insert((channel.node, channel.property)) {
                return Err(Error::invalid(
                    at(),
                    "an earlier channel of this clip animates the same node and property",
                ));
            }
            check_channel(channel, components(scene, node, channel.property), at)
        })
        .collect()
}

fn check_channel(
    channel: &Channel,
    width: usize,
    at: impl Fn() -> String,
) -> Result<Vec<f32>, Error> {
    if width == 0 {
        return Err(Error::invalid(
            at(),
            "weights on a node whose mesh has no morph targets",
        ));
    }
    let times = &channel.times;
    if times.is_empty() {
        return Err(Error::invalid(at(), "has no keys"));
    }
    finite(times, &at, "key time")?;
    if times[0] < 0.0 {
        return Err(Error::invalid(
            at(),
            format!("first key time {} is negative", times[0]),
        ));
    }
    if let Some(k) = times.windows(2).position(|w| w[1] <= w[0]) {
        return Err(Error::invalid(
            at(),
            format!(
                "key times not strictly increasing at key {} ({} after {})",
                k + 1,
                times[k + 1],
                times[k]
            ),
        ));
    }
    if channel.values.len() != times.len() * width {
        return Err(Error::invalid(
            at(),
            format!(
                "{} values for {} keys of {width} components",
                channel.values.len(),
                times.len()
            ),
        ));
    }
    finite(&channel.values, &at, "output")?;
    let mut values = channel.values.clone();
    if channel.property == Property::Rotation {
        let mut previous: Option<[f32; 4]> = None;
        for (k, key) in values.chunks_exact_mut(4).enumerate() {
            let mut q = unit([key[0], key[1], key[2], key[3]])
                .ok_or_else(|| Error::invalid(at(), format!("rotation key {k} is zero-length")))?;
            // q and -q are the same rotation; interpolating between keys of opposite
            // sign would take the long way round, so each key takes its predecessor's side.
            if let Some(p) = previous {
                if p.iter().zip(&q).map(|(a, b)| a * b).sum::<f32>() < 0.0 {
                    q = q.map(|c| -c);
                }
            }
            key.copy_from_slice(&q);
            previous = Some(q);
        }
    }
    Ok(values)
}
