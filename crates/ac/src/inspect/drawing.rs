//! The figure of a motion table, for drawing (the model browser's AC view, served by
//! its server and by its WebAssembly page alike): the Setup that names the table
//! (parts, parents, default scales, the default placement), each part's GfxObj mesh
//! (vertex positions and polygons; untextured), and the part frames of every clip the
//! table plays, so that a page can pose the parts at any tick from a trace line's
//! Sequence state (current clip and frame number).
//!
//! Read-only: records are decoded here and only their geometry goes out, never the
//! stored bytes. Work is bounded by the limits below.

use crate::math::{AFrame, Vec3};
use crate::records::{read_gfxobj, read_setup, MotionData, MotionTable, RecordStore, SetupRecord};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// A figure with more parts than this is not described (shipped Setups have < 100).
pub const MAX_PARTS: usize = 256;
/// Vertices and polygons per GfxObj above this are not sent.
pub const MAX_MESH_ITEMS: usize = 65_536;
/// Part frames (frames × parts) over all clips above this are not sent.
pub const MAX_PART_FRAMES: usize = 1 << 20;

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
        polygons.push(json!({"vertices": ids, "double_sided": p.sides_type != 0}));
    }
    Ok(json!({"id": hex(id), "vertices": vertices, "polygons": polygons}))
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
