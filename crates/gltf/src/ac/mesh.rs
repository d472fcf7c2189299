//! A GfxObj's drawing polygons as a glTF triangle mesh.

use std::collections::HashMap;

use retroanim_ac::records::GfxObj;

use super::axes;
use super::Error;
use crate::scene::Mesh;

/// Whether meshes carry their texture coordinates (not until textures are exported).
const EXPORT_UVS: bool = false;

/// The flat grey every untextured part gets (the records name surfaces, not colours).
const PART_COLOUR: [f32; 4] = [0.8, 0.8, 0.8, 1.0];

/// Each polygon fanned into triangles from its first vertex, with the GfxObj's vertex
/// normals and the polygon's UVs; a double-sided polygon (sides type 1 or 2) also gets its
/// back face, wound the other way with negated normals. `None` when nothing is drawn.
pub fn gfxobj_mesh(g: &GfxObj) -> Result<Option<Mesh>, Error> {
    let by_id: HashMap<u16, usize> = g
        .vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id, i))
        .collect();
    let mut mesh = Mesh {
        name: format!("0x{:08x}", g.id),
        base_color: PART_COLOUR,
        ..Mesh::default()
    };
    let mut uvs = Vec::new();
    let mut every_uv = true;
    for (pi, p) in g.polygons.iter().enumerate() {
        if p.vertex_ids.len() < 3 {
            continue;
        }
        let mut corners = Vec::with_capacity(p.vertex_ids.len());
        for (k, &vid) in p.vertex_ids.iter().enumerate() {
            let v = u16::try_from(vid)
                .ok()
                .and_then(|vid| by_id.get(&vid))
                .map(|&i| &g.vertices[i])
                .ok_or_else(|| {
                    Error::invalid(
                        format!("GfxObj 0x{:08x} polygon {pi}", g.id),
                        format!("names vertex {vid}, which the record does not hold"),
                    )
                })?;
            let uv = p
                .pos_uv
                .get(k)
                .and_then(|&u| v.uvs.get(u as usize))
                .copied();
            corners.push((v.origin, v.normal, uv));
        }
        let sides: &[bool] = if p.sides_type == 0 {
            &[false]
        } else {
            &[false, true]
        };
        for &back in sides {
            let first = mesh.positions.len() as u32;
            for &(origin, normal, uv) in &corners {
                mesh.positions.push(axes::vec(origin));
                let n = axes::vec(normal);
                mesh.normals.push(if back { n.map(|c| -c) } else { n });
                every_uv &= uv.is_some();
                uvs.push(uv.unwrap_or([0.0, 0.0]));
            }
            for k in 1..corners.len() as u32 - 1 {
                if back {
                    mesh.indices.extend([first, first + k + 1, first + k]);
                } else {
                    mesh.indices.extend([first, first + k, first + k + 1]);
                }
            }
        }
    }
    if mesh.indices.is_empty() {
        return Ok(None);
    }
    // Texture coordinates only travel with a texture: the export writes no materials with
    // images yet, and coordinates that no material reads are an unused object to glTF's
    // validator. (Kept here, computed, for when the Surface records are exported.)
    if every_uv && EXPORT_UVS {
        mesh.uvs = uvs;
    }
    // A vertex without a usable normal (zero or not finite) leaves the importer to compute
    // them all.
    if mesh.normals.iter().any(|n| {
        let len = n.iter().map(|c| c * c).sum::<f32>();
        !(len.is_finite() && len > 0.0)
    }) {
        mesh.normals.clear();
    }
    Ok(Some(mesh))
}
