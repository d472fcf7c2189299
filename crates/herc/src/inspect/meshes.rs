//! The meshes of a herc session, for drawing (the model browser's herc view, served by
//! its server and by its WebAssembly page alike): the TSGroups a DTS shape draws
//! ([`shape_meshes`]), each with the node whose world transform places it, its points in
//! node space and its polygons.
//!
//! Read-only: shapes are decoded here and only their geometry goes out, never the stored
//! bytes. Which shape a scenario draws is decided by [`scenario_meshes`]; how its files are
//! read (a confined file system, files built into a module) is the caller's.

use crate::formats::dts::DtsFile;
use crate::formats::group::{shape_meshes, ShapeMesh};
use crate::formats::vol::VolArchive;
use serde_json::{json, Value};
use std::path::Path;

/// Reads a file a scenario names (a path as the caller resolved it): `Ok(None)` when
/// there is no such file, `Err` with a sentence when it exists but cannot be read.
pub type ReadFile<'a> = &'a dyn Fn(&str) -> Result<Option<Vec<u8>>, String>;

/// Meshes as the page draws them: per group the node (transform id) placing it, its part
/// id, its points (node space) and its polygons as point indices with their colour index
/// and the front colour of the surface entry that index names (when it exists). Polygons
/// without vertices are left out.
pub fn meshes_json(meshes: &[ShapeMesh]) -> Value {
    let groups: Vec<Value> = meshes
        .iter()
        .map(|m| {
            let g = &m.geometry;
            let polys: Vec<Value> = (0..g.polys.len())
                .filter(|&i| g.polys[i].vertex_count > 0)
                .map(|i| {
                    let p = &g.polys[i];
                    let surface = p
                        .color
                        .and_then(|c| usize::try_from(c).ok())
                        .and_then(|c| g.surfaces.get(c))
                        .map(|s| s.front_color);
                    json!({"points": g.poly_points(i), "color": p.color, "surface_color": surface})
                })
                .collect();
            json!({
                "node": m.transform_id,
                "part": m.part_id,
                "points": g.points,
                "polys": polys,
            })
        })
        .collect();
    Value::Array(groups)
}

/// [`meshes_json`] of the DTS file `bytes`; errors name `label` and the byte offset.
pub fn dts_meshes(bytes: &[u8], label: &str) -> Result<Value, String> {
    let dts = DtsFile::read(bytes, label).map_err(|e| e.to_string())?;
    let meshes = shape_meshes(&dts, label).map_err(|e| e.to_string())?;
    Ok(meshes_json(&meshes))
}

/// The last component of `p`, so that messages and listings name no host folders.
pub fn file_name(p: &str) -> String {
    Path::new(p)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_string())
}

/// The DTS meshes a herc scenario draws, `{"source", "meshes"}`, from the file
/// [`scenario_dts`] finds. `{"source": null, "meshes": []}` when there is none.
pub fn scenario_meshes(doc: &Value, read: ReadFile) -> Result<Value, String> {
    match scenario_dts(doc, read)? {
        Some((bytes, source)) => {
            Ok(json!({"meshes": dts_meshes(&bytes, &source)?, "source": source}))
        }
        None => Ok(json!({"source": null, "meshes": []})),
    }
}

/// The DTS file a herc scenario draws, with the name it goes by: the mech extension's
/// `setup.mech.shape` (a DTS file, or an entry of the `setup.mech.vol` archive); else the
/// `.dts` file beside a JSON asset file with the same stem (`biped.json` → `biped.dts`).
/// `None` when there is none (an inline asset, or no DTS beside it). `doc` is the
/// scenario with its paths resolved for `read`; the name is the file's last component
/// (and the archive entry), so that it names no host folders.
pub fn scenario_dts(doc: &Value, read: ReadFile) -> Result<Option<(Vec<u8>, String)>, String> {
    let need = |p: &str| -> Result<Vec<u8>, String> {
        read(p)?.ok_or_else(|| format!("{}: no such file", file_name(p)))
    };
    let mech = doc.pointer("/setup/mech");
    if let Some(Value::String(shape)) = mech.and_then(|m| m.get("shape")) {
        return match mech.and_then(|m| m.get("vol")) {
            Some(Value::String(vol)) => {
                let name = file_name(vol);
                let archive = VolArchive::read(&need(vol)?, &name).map_err(|e| e.to_string())?;
                let e = archive
                    .find(shape)
                    .ok_or_else(|| format!("{name}: entry {shape}: not found"))?;
                Ok(Some((e.content.to_vec(), format!("{name}:{shape}"))))
            }
            _ => Ok(Some((need(shape)?, file_name(shape)))),
        };
    }
    if let Some(Value::String(asset)) = doc.get("asset") {
        let p = Path::new(asset);
        if p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        {
            let dts = p.with_extension("dts").display().to_string();
            if let Some(bytes) = read(&dts)? {
                return Ok(Some((bytes, file_name(&dts))));
            }
        }
    }
    Ok(None)
}
