//! The figure of a motion table, for drawing (the model browser's AC view, served by
//! its server and by its WebAssembly page alike): the Setup that names the table
//! (parts, parents, default scales, the default placement), each part's GfxObj mesh
//! (vertex positions, polygons with their surface and UVs), the surfaces' images decoded
//! to RGBA (or their solid colours), and the part frames of every clip the table plays,
//! so that a page can pose the parts at any tick from a trace line's Sequence state
//! (current clip and frame number).
//!
//! Read-only: records are decoded here and only their geometry goes out, never the
//! stored bytes. Work is bounded by the limits below.

use crate::math::{AFrame, Vec3};
use crate::records::render_surface::decode_rgba;
use crate::records::{
    read_gfxobj, read_palette, read_render_surface, read_setup, read_surface, read_surface_texture,
    MotionData, MotionTable, RecordStore, SetupRecord,
};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// A figure with more parts than this is not described (shipped Setups have < 100).
pub const MAX_PARTS: usize = 256;
/// Vertices and polygons per GfxObj above this are not sent.
pub const MAX_MESH_ITEMS: usize = 65_536;
/// Part frames (frames × parts) over all clips above this are not sent.
pub const MAX_PART_FRAMES: usize = 1 << 20;
/// Surfaces described per figure at most.
pub const MAX_SURFACES: usize = 256;
/// Decoded texels (width × height) over all of a figure's images at most; an image
/// past the budget is described without its pixels.
pub const MAX_TEXELS: usize = 4 << 20;
/// Images wider or taller than this are not sent (retail images stop at 512).
pub const MAX_IMAGE_SIDE: i32 = 1024;

/// `0x%08x`, as ids print everywhere in the browser.
pub fn hex(id: u32) -> String {
    format!("0x{id:08x}")
}

/// An f32 as the shortest decimal that reads back to it (as the traces print them),
/// not its f64 widening; a non-finite value (a broken record) is `null`.
fn num(x: f32) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    x.to_string()
        .parse::<f64>()
        .map_or(Value::Null, |v| json!(v))
}

fn frame_json(f: &AFrame) -> Value {
    let o = f.origin;
    let q = f.orientation;
    Value::Array([o.x, o.y, o.z, q.w, q.x, q.y, q.z].map(num).to_vec())
}

fn vec_json(v: Vec3) -> Value {
    Value::Array([v.x, v.y, v.z].map(num).to_vec())
}

/// Every motion data entry of a table: cycles, modifiers, links.
pub fn all_data(t: &MotionTable) -> impl Iterator<Item = &MotionData> {
    t.cycles
        .iter()
        .map(|(_, d)| d)
        .chain(t.modifiers.iter().map(|(_, d)| d))
        .chain(t.links.iter().flat_map(|(_, l)| l.iter().map(|(_, d)| d)))
}

/// The ids of the clips a table names, sorted, each once.
pub fn clip_ids(t: &MotionTable) -> Vec<u32> {
    let mut ids: Vec<u32> = all_data(t)
        .flat_map(|d| d.anims.iter().map(|a| a.anim_id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The first Setup among `ids` (in the order given) whose default motion table is `table`.
pub fn setup_naming(
    store: &mut RecordStore,
    ids: &[u32],
    table: u32,
) -> Result<Option<SetupRecord>, String> {
    for &id in ids {
        let (bytes, file) = store.raw(id).map_err(|e| e.to_string())?;
        let s = read_setup(&bytes, &file).map_err(|e| e.to_string())?;
        if s.default_motion_table == table {
            return Ok(Some(s));
        }
    }
    Ok(None)
}

fn mesh_json(store: &mut RecordStore, id: u32) -> Result<Value, String> {
    let (bytes, file) = store.raw(id).map_err(|e| e.to_string())?;
    let g = read_gfxobj(&bytes, &file).map_err(|e| e.to_string())?;
    if g.vertices.len() > MAX_MESH_ITEMS || g.polygons.len() > MAX_MESH_ITEMS {
        return Err(format!(
            "{file}: GfxObj {} has {} vertices and {} polygons (at most {MAX_MESH_ITEMS} each are drawn)",
            hex(id),
            g.vertices.len(),
            g.polygons.len()
        ));
    }
    // Polygons name vertices by id; the page indexes the position list.
    let index: HashMap<u16, usize> = g
        .vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id, i))
        .collect();
    let vertices: Vec<Value> = g.vertices.iter().map(|v| vec_json(v.origin)).collect();
    let mut polygons = Vec::with_capacity(g.polygons.len());
    for (pi, p) in g.polygons.iter().enumerate() {
        let mut ids = Vec::with_capacity(p.vertex_ids.len());
        for &v in &p.vertex_ids {
            let i = u16::try_from(v).ok().and_then(|v| index.get(&v)).ok_or_else(|| {
                format!(
                    "{file}: GfxObj {} polygon {pi} names vertex {v}, which the record does not hold",
                    hex(id)
                )
            })?;
            ids.push(*i);
        }
        let mut poly = json!({"vertices": ids, "double_sided": p.sides_type != 0});
        let surface = usize::try_from(p.pos_surface)
            .ok()
            .and_then(|i| g.surfaces.get(i));
        if let Some(s) = surface {
            poly["surface"] = json!(hex(*s));
        }
        // Each corner picks one of its vertex's UV pairs; a pick the vertex lacks leaves
        // the polygon without UVs (drawn in the surface's colour).
        if p.pos_uv.len() == ids.len() {
            let uvs: Option<Vec<Value>> = ids
                .iter()
                .zip(&p.pos_uv)
                .map(|(&vi, &k)| {
                    g.vertices[vi]
                        .uvs
                        .get(usize::from(k))
                        .map(|uv| Value::Array(vec![num(uv[0]), num(uv[1])]))
                })
                .collect();
            if let Some(uvs) = uvs {
                poly["uvs"] = Value::Array(uvs);
            }
        }
        polygons.push(poly);
    }
    let surfaces: Vec<String> = g.surfaces.iter().map(|s| hex(*s)).collect();
    Ok(json!({"id": hex(id), "vertices": vertices, "polygons": polygons, "surfaces": surfaces}))
}

/// Standard base64 (with padding), for RGBA bytes inside JSON.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One surface for drawing: an image (`width`, `height`, `format`, `rgba` as base64 rows,
/// top row first), a solid `color` (`[r, g, b, a]`), or an `error` saying why neither
/// could be had (a missing or broken record: the part is then drawn untextured).
fn surface_json(store: &mut RecordStore, id: u32, budget: &mut usize) -> Value {
    match surface_image(store, id, budget) {
        Ok(v) => v,
        Err(e) => json!({"id": hex(id), "error": e}),
    }
}

fn surface_image(store: &mut RecordStore, id: u32, budget: &mut usize) -> Result<Value, String> {
    let (bytes, file) = store.raw(id).map_err(|e| e.to_string())?;
    let s = read_surface(&bytes, id, &file).map_err(|e| e.to_string())?;
    if !s.is_image() {
        let [b, g, r, a] = s.color.to_le_bytes();
        return Ok(json!({"id": hex(id), "color": [r, g, b, a]}));
    }
    let (bytes, file) = store.raw(s.texture_id).map_err(|e| e.to_string())?;
    let t = read_surface_texture(&bytes, &file).map_err(|e| e.to_string())?;
    let first = *t
        .render_surfaces
        .first()
        .ok_or_else(|| format!("{file}: SurfaceTexture {} lists no images", hex(t.id)))?;
    let (bytes, file) = store.raw(first).map_err(|e| e.to_string())?;
    let r = read_render_surface(&bytes, &file).map_err(|e| e.to_string())?;
    if !(1..=MAX_IMAGE_SIDE).contains(&r.width) || !(1..=MAX_IMAGE_SIDE).contains(&r.height) {
        return Err(format!(
            "{file}: image {}×{} is larger than {MAX_IMAGE_SIDE} on a side (not sent)",
            r.width, r.height
        ));
    }
    let texels = (r.width * r.height) as usize;
    if texels > *budget {
        return Err(format!(
            "{file}: the figure's images pass {MAX_TEXELS} texels (not sent)"
        ));
    }
    *budget -= texels;
    // The Surface's palette first, else the image's own default.
    let palette_id = Some(s.palette_id)
        .filter(|&p| p != 0)
        .or(r.default_palette.filter(|&p| p != 0));
    let palette = match palette_id {
        Some(p) => {
            let (bytes, file) = store.raw(p).map_err(|e| e.to_string())?;
            Some(read_palette(&bytes, &file).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let rgba = decode_rgba(&r, palette.as_ref(), &file).map_err(|e| e.to_string())?;
    Ok(json!({
        "id": hex(id),
        "image": hex(r.id),
        "width": r.width,
        "height": r.height,
        "format": crate::records::render_surface::format_name(r.format),
        "rgba": base64(&rgba),
    }))
}

/// The figure of motion table `table`: Setup `chosen`, or else the first of
/// `setup_ids` that names the table as its default. `setup` is `null` (with a
/// `reason`) when none does.
pub fn figure(
    store: &mut RecordStore,
    setup_ids: &[u32],
    table: u32,
    chosen: Option<u32>,
) -> Result<Value, String> {
    let setup = match chosen {
        Some(id) => {
            let (bytes, file) = store.raw(id).map_err(|e| e.to_string())?;
            Some(read_setup(&bytes, &file).map_err(|e| e.to_string())?)
        }
        None => setup_naming(store, setup_ids, table)?,
    };
    let Some(setup) = setup else {
        return Ok(json!({
            "motion_table": hex(table),
            "setup": null,
            "reason": format!("no Setup record names motion table {} as its default", hex(table)),
        }));
    };
    if setup.parts.len() > MAX_PARTS {
        return Err(format!(
            "Setup {} has {} parts (at most {MAX_PARTS} are drawn)",
            hex(setup.id),
            setup.parts.len()
        ));
    }
    let mut meshes = Map::new();
    for &p in &setup.parts {
        if !meshes.contains_key(&hex(p)) {
            meshes.insert(hex(p), mesh_json(store, p)?);
        }
    }
    let mut surfaces = Map::new();
    let mut budget = MAX_TEXELS;
    let wanted: Vec<String> = meshes
        .values()
        .flat_map(|m| m["surfaces"].as_array().cloned().unwrap_or_default())
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect();
    for s in wanted {
        if surfaces.len() >= MAX_SURFACES || surfaces.contains_key(&s) {
            continue;
        }
        let Some(id) = s
            .strip_prefix("0x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
        else {
            continue;
        };
        surfaces.insert(s, surface_json(store, id, &mut budget));
    }
    // The default placement (key 0), else the first one the Setup lists.
    let placement = setup
        .placement_frames
        .iter()
        .find(|p| p.key == 0)
        .or(setup.placement_frames.first());
    let t = store.motion_table(table).map_err(|e| e.to_string())?;
    let mut anims = Map::new();
    let mut budget = MAX_PART_FRAMES;
    for a in clip_ids(&t) {
        let Ok(anim) = store.animation(a) else {
            continue; // a missing clip is the engine's matter; it plays without parts
        };
        let n = anim
            .part_frames
            .iter()
            .map(|f| f.parts.len())
            .sum::<usize>();
        if n > budget {
            return Err(format!(
                "the animations of motion table {} hold more than {MAX_PART_FRAMES} part frames",
                hex(table)
            ));
        }
        budget -= n;
        let frames: Vec<Value> = anim
            .part_frames
            .iter()
            .map(|f| Value::Array(f.parts.iter().map(frame_json).collect()))
            .collect();
        anims.insert(hex(a), Value::Array(frames));
    }
    let parents: Vec<Value> = (0..setup.parts.len())
        .map(|i| match setup.parent_index.get(i) {
            Some(&p) if (p as usize) < setup.parts.len() => json!(p),
            _ => Value::Null,
        })
        .collect();
    Ok(json!({
        "motion_table": hex(table),
        "setup": {
            "id": hex(setup.id),
            "parts": setup.parts.iter().map(|p| hex(*p)).collect::<Vec<_>>(),
            "parents": parents,
            "default_scale": setup.default_scale.iter().map(|s| vec_json(*s)).collect::<Vec<_>>(),
            "placement": placement.map(|p| p.frames.iter().map(frame_json).collect::<Vec<_>>()),
            "height": num(setup.height),
        },
        "meshes": meshes,
        "surfaces": surfaces,
        "anims": anims,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_store() -> (RecordStore, Vec<u32>) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
        let mut records = Vec::new();
        let mut setups = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = e.file_name().into_string().unwrap();
            let id = u32::from_str_radix(name.trim_end_matches(".bin"), 16).unwrap();
            if id >> 24 == 0x02 {
                setups.push(id);
            }
            let bytes = retroanim_core::input::read_kind(
                &e.path(),
                retroanim_core::input::FileKind::Record,
            )
            .unwrap();
            records.push((id, name, bytes));
        }
        setups.sort_unstable();
        (RecordStore::from_bytes(records), setups)
    }

    #[test]
    fn the_sample_figure_is_described_from_records_in_memory() {
        let (mut store, setups) = sample_store();
        assert_eq!(setups, [0x0200_0001]);
        let f = figure(&mut store, &setups, 0x0900_0001, None).unwrap();
        assert_eq!(f["setup"]["id"], "0x02000001");
        // The sample humanoid: eight box parts 0x01000101..0x01000108.
        assert_eq!(f["setup"]["parts"].as_array().unwrap().len(), 8);
        assert_eq!(f["setup"]["parts"][0], "0x01000101");
        // A box: 24 vertices, 6 quads.
        let mesh = &f["meshes"]["0x01000101"];
        assert_eq!(mesh["vertices"].as_array().unwrap().len(), 24);
        assert_eq!(mesh["polygons"].as_array().unwrap().len(), 6);
        assert!(f["anims"]["0x03000101"].is_array());
        // The pelvis box is textured: each face maps the whole image, top left first
        // at its last corner (u right, v down).
        assert_eq!(mesh["surfaces"][0], "0x08000105");
        assert_eq!(mesh["polygons"][0]["surface"], "0x08000105");
        assert_eq!(
            mesh["polygons"][0]["uvs"],
            json!([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
        );
        // Its DXT3 image: 16×16, checker of 0xff302010 and 0xffd0b020 in 4-texel cells;
        // the first texel is 0x302010 through RGB565 (6, 8, 2) = (0x31, 0x20, 0x10).
        let img = &f["surfaces"]["0x08000105"];
        assert_eq!(
            (img["width"].as_i64(), img["format"].as_str()),
            (Some(16), Some("DXT3"))
        );
        let rgba = img["rgba"].as_str().unwrap();
        assert_eq!(rgba.len(), 16 * 16 * 4 / 3 * 4 + 4);
        assert!(rgba.starts_with(&base64(&[0x31, 0x20, 0x10, 255, 0x31, 0x20])));
        assert_eq!(f["surfaces"].as_object().unwrap().len(), 6);
    }

    #[test]
    fn base64_pads_to_whole_quads() {
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"M"), "TQ==");
        assert_eq!(base64(b""), "");
    }

    #[test]
    fn a_missing_surface_is_described_with_its_error_not_a_failure() {
        let (store, _) = sample_store();
        let mut store = store;
        let mut budget = MAX_TEXELS;
        let v = surface_json(&mut store, 0x0800_0001, &mut budget);
        assert_eq!(v["id"], "0x08000001");
        assert!(v["error"].as_str().unwrap().contains("not found"), "{v}");
    }

    #[test]
    fn a_table_no_setup_names_has_no_figure() {
        let (mut store, setups) = sample_store();
        let f = figure(&mut store, &setups, 0x0900_0002, None).unwrap();
        assert_eq!(f["setup"], Value::Null);
        assert_eq!(
            f["reason"],
            "no Setup record names motion table 0x09000002 as its default"
        );
    }
}
