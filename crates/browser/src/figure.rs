//! The AC figure of a session, for drawing: the Setup that names the session's motion
//! table (parts, parents, default scales, the default placement), each part's GfxObj
//! mesh (vertex positions and polygons; untextured), and the part frames of every
//! animation the table plays, so that the page can pose the parts at any tick from the
//! trace line's Sequence state (current animation and frame number).
//!
//! Read-only: records are decoded here and only their geometry goes out, never the
//! stored bytes.

use crate::info::{all_data, hex, parse_id};
use retroanim_ac::math::AFrame;
use retroanim_ac::records::{read_gfxobj, read_setup, RecordError, RecordStore, SetupRecord};
use retroanim_core::Scenario;
use serde_json::{json, Map, Value};
use std::path::Path;

/// At most this many Setup records are looked at to find the one naming the table
/// (a record folder is small; this bounds the work on a large one).
const MAX_SETUPS_SCANNED: usize = 4096;
/// A figure with more parts than this is not described (shipped Setups have < 100).
const MAX_PARTS: usize = 256;
/// Vertices and polygons per GfxObj above this are not sent.
const MAX_MESH_ITEMS: usize = 65_536;
/// Part frames (frames × parts) over all animations above this are not sent.
const MAX_PART_FRAMES: usize = 1 << 20;

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

fn vec_json(v: retroanim_ac::math::Vec3) -> Value {
    Value::Array([v.x, v.y, v.z].map(num).to_vec())
}

/// Setup ids in a record folder (`02xxxxxx.bin`), sorted.
fn setups_in_dir(dir: &Path) -> Vec<u32> {
    let mut ids: Vec<u32> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_SETUPS_SCANNED * 16)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".bin")?;
            if stem.len() != 8 || !stem.starts_with("02") {
                return None;
            }
            u32::from_str_radix(stem, 16).ok()
        })
        .collect();
    ids.sort_unstable();
    ids.truncate(MAX_SETUPS_SCANNED);
    ids
}

/// The first Setup (by id) whose default motion table is `table`, among `ids`.
pub(crate) fn setup_naming(
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
    let (bytes, file) = store.raw(id).map_err(|e: RecordError| e.to_string())?;
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
    let index: std::collections::HashMap<u16, usize> = g
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

/// Describe the figure of a Setup naming motion table `table`, looked for among
/// `setup_ids` (`None`: in the record folder `dir`). `figure` is `null` (with a
/// `reason`) when no Setup names the table.
pub(crate) fn describe(
    store: &mut RecordStore,
    setup_ids: Option<&[u32]>,
    dir: Option<&Path>,
    table: u32,
    chosen: Option<u32>,
) -> Result<Value, String> {
    let scanned;
    let ids: &[u32] = match (chosen, setup_ids, dir) {
        (Some(_), _, _) => &[],
        (None, Some(ids), _) => ids,
        (None, None, Some(d)) => {
            scanned = setups_in_dir(d);
            &scanned
        }
        (None, None, None) => &[],
    };
    let setup = match chosen {
        Some(id) => {
            let (bytes, file) = store.raw(id).map_err(|e| e.to_string())?;
            Some(read_setup(&bytes, &file).map_err(|e| e.to_string())?)
        }
        None => setup_naming(store, ids, table)?,
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
    let mut anim_ids: Vec<u32> = all_data(&t)
        .flat_map(|d| d.anims.iter().map(|a| a.anim_id))
        .collect();
    anim_ids.sort_unstable();
    anim_ids.dedup();
    let mut anims = Map::new();
    let mut budget = MAX_PART_FRAMES;
    for a in anim_ids {
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

/// The figure of an AC session whose assets are a record folder.
pub fn ac(s: &Scenario) -> Result<Value, String> {
    let Some(Value::String(dir)) = s.raw("asset_dir") else {
        return Err("asset_dir must be a path".into());
    };
    let table = s
        .raw("setup")
        .and_then(|v| v.get("motion_table"))
        .and_then(Value::as_str)
        .and_then(parse_id)
        .ok_or("setup.motion_table must be an id such as \"0x09000001\"")?;
    if let Some(Value::String(_)) = s.raw("asset_dat") {
        // A DAT holds thousands of Setups: the page picks one from the DAT listing
        // (`GET /api/ac/dat/figure`) rather than having every one read here.
        return Ok(json!({
            "motion_table": hex(table),
            "setup": null,
            "reason": "the session plays a motion table of the user's DAT: choose a Setup from the DAT list",
        }));
    }
    let mut store = RecordStore::from_dir(dir);
    describe(&mut store, None, Some(Path::new(dir)), table, None)
}
