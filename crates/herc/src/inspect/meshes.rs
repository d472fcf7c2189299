//! The meshes of a herc session, for drawing (the model browser's herc view, served by
//! its server and by its WebAssembly page alike): the TSGroups a DTS shape draws
//! ([`shape_meshes`]), each with the node whose world transform places it, its points in
//! node space and its polygons.
//!
//! Read-only: shapes are decoded here and only their geometry goes out, never the stored
//! bytes. Which shape a scenario draws is decided by [`scenario_meshes`]; how its files are
//! read (a confined file system, files built into a module) is the caller's.

use crate::formats::bitmap::BitmapArray;
use crate::formats::dts::DtsFile;
use crate::formats::group::{shape_meshes, ShapeMesh};
use crate::formats::material::{
    frame_rgba, material, material_rgb, poly_sides, texture_corners, Material,
};
use crate::formats::palette::Palette;
use crate::formats::vol::VolArchive;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::path::Path;

/// The palette and bitmap array a shape is drawn with (H82), each with the name it goes
/// by, and the located messages of those that were found but could not be read.
#[derive(Clone, Debug, Default)]
pub struct ShapeMaterials {
    pub palette: Option<(Palette, String)>,
    pub bitmaps: Option<(BitmapArray, String)>,
    pub problems: Vec<String>,
}

impl ShapeMaterials {
    /// Read the palette and bitmap array files found for a shape (`None`: not there); a
    /// file that does not read is left out and its message kept in `problems`.
    pub fn read(dpl: Option<(Vec<u8>, String)>, dba: Option<(Vec<u8>, String)>) -> ShapeMaterials {
        let mut m = ShapeMaterials::default();
        if let Some((b, name)) = dpl {
            match Palette::read(&b, &name) {
                Ok(p) => m.palette = Some((p, name)),
                Err(e) => m.problems.push(e.to_string()),
            }
        }
        if let Some((b, name)) = dba {
            match BitmapArray::read(&b, &name) {
                Ok(a) => m.bitmaps = Some((a, name)),
                Err(e) => m.problems.push(e.to_string()),
            }
        }
        m
    }

    fn palette(&self) -> Option<&Palette> {
        self.palette.as_ref().map(|(p, _)| p)
    }

    fn bitmaps(&self) -> Option<&BitmapArray> {
        self.bitmaps.as_ref().map(|(a, _)| a)
    }
}

/// Standard base64 with padding, for image bytes inside JSON.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Reads a file a scenario names (a path as the caller resolved it): `Ok(None)` when
/// there is no such file, `Err` with a sentence when it exists but cannot be read.
pub type ReadFile<'a> = &'a dyn Fn(&str) -> Result<Option<Vec<u8>>, String>;

/// Meshes as the page draws them: per group the node (transform id) placing it, its part
/// id, its points (node space) and its polygons as point indices with their colour index
/// and the front value of the surface slot that index names (H82, when it exists), what
/// that value names (`kind`: `solid`, `shaded`, `textured`, `none`), the colour a viewer
/// draws it in through `mats` (`rgb`, or null), for a textured polygon its `frame` and
/// texture corners (`uv`, H84), and whether its front side is hidden. Polygons without
/// vertices are left out.
pub fn meshes_json(meshes: &[ShapeMesh], mats: &ShapeMaterials) -> Value {
    let groups: Vec<Value> = meshes
        .iter()
        .map(|m| {
            let g = &m.geometry;
            let polys: Vec<Value> = (0..g.polys.len())
                .filter(|&i| g.polys[i].vertex_count > 0)
                .map(|i| {
                    let p = &g.polys[i];
                    let (front, _) = poly_sides(g, i);
                    let mat = front.map_or(Material::None, |s| material(p.tag, s.value));
                    let rgb = material_rgb(mat, mats.palette(), mats.bitmaps());
                    let mut o = Map::new();
                    o.insert("points".into(), json!(g.poly_points(i)));
                    o.insert("color".into(), json!(p.color));
                    o.insert("surface_color".into(), json!(front.map(|s| s.value)));
                    o.insert("kind".into(), json!(mat.kind()));
                    o.insert("rgb".into(), json!(rgb));
                    o.insert("hidden".into(), json!(front.is_some_and(|s| s.hidden())));
                    if let Material::Frame(f) = mat {
                        o.insert("frame".into(), json!(f));
                        o.insert("uv".into(), json!(texture_corners(g.poly_points(i).len())));
                    }
                    Value::Object(o)
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

/// What the page needs of a shape's materials: the names of its palette and bitmap array
/// (null when none), the messages of those that did not read, and the RGBA image of every
/// frame a polygon of `meshes` names that decodes (`textures`, keyed by frame number:
/// `width`, `height`, `rgba` as base64 rows from the top, index 0 transparent).
pub fn materials_json(meshes: &[ShapeMesh], mats: &ShapeMaterials) -> Value {
    let mut used = BTreeSet::new();
    for m in meshes {
        let g = &m.geometry;
        for i in 0..g.polys.len() {
            if let (Some(s), _) = poly_sides(g, i) {
                if let Material::Frame(f) = material(g.polys[i].tag, s.value) {
                    used.extend(usize::try_from(f).ok());
                }
            }
        }
    }
    let mut textures = Map::new();
    let mut problems = mats.problems.clone();
    if let (Some(pal), Some((dba, name))) = (mats.palette(), mats.bitmaps.as_ref()) {
        for f in used {
            match frame_rgba(dba, f, pal) {
                Ok((w, h, rgba)) => {
                    textures.insert(
                        f.to_string(),
                        json!({"width": w, "height": h, "rgba": base64(&rgba)}),
                    );
                }
                Err(m) => problems.push(format!("{name}: frame {f}: {m}")),
            }
        }
    }
    json!({
        "palette": mats.palette.as_ref().map(|(_, n)| n),
        "bitmaps": mats.bitmaps.as_ref().map(|(_, n)| n),
        "textures": textures,
        "problems": problems,
    })
}

/// `{"meshes", "materials"}` of the DTS file `bytes` drawn with `mats`; errors name
/// `label` and the byte offset.
pub fn dts_meshes(bytes: &[u8], label: &str, mats: &ShapeMaterials) -> Result<Value, String> {
    let dts = DtsFile::read(bytes, label).map_err(|e| e.to_string())?;
    let meshes = shape_meshes(&dts, label).map_err(|e| e.to_string())?;
    Ok(json!({
        "meshes": meshes_json(&meshes, mats),
        "materials": materials_json(&meshes, mats),
    }))
}

/// The last component of `p`, so that messages and listings name no host folders.
pub fn file_name(p: &str) -> String {
    Path::new(p)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_string())
}

/// The DTS meshes a herc scenario draws, `{"source", "meshes", "materials"}`, from the
/// file [`scenario_dts`] finds, drawn with the materials [`scenario_materials`] finds.
/// `{"source": null, "meshes": []}` when there is none.
pub fn scenario_meshes(doc: &Value, read: ReadFile) -> Result<Value, String> {
    match scenario_dts(doc, read)? {
        Some((bytes, source)) => {
            let mats = scenario_materials(doc, read)?;
            let mut v = dts_meshes(&bytes, &source, &mats)?;
            v["source"] = json!(source);
            Ok(v)
        }
        None => Ok(json!({"source": null, "meshes": []})),
    }
}

/// The palette and bitmap array drawn with the shape [`scenario_dts`] finds: the files with
/// the shape's stem and the extensions `.dpl` and `.dba` beside it (`biped.dts` →
/// `biped.dpl`, `biped.dba`), or, for an archive's entry, the archive's entries with that
/// stem in any directory. A DTS names no palette or texture file (docs/herc-formats.md),
/// so this pairing is the viewer's convention, not the game's. Missing files give no
/// materials; files that do not read are reported in `problems`.
pub fn scenario_materials(doc: &Value, read: ReadFile) -> Result<ShapeMaterials, String> {
    let mech = doc.pointer("/setup/mech");
    let shape = mech.and_then(|m| m.get("shape")).and_then(Value::as_str);
    if let (Some(shape), Some(Value::String(vol))) = (shape, mech.and_then(|m| m.get("vol"))) {
        let Some(bytes) = read(vol)? else {
            return Ok(ShapeMaterials::default());
        };
        let name = file_name(vol);
        let archive = VolArchive::read(&bytes, &name).map_err(|e| e.to_string())?;
        let stem = stem(shape.rsplit(['\\', '/']).next().unwrap_or(shape));
        let entry = |ext: &str| {
            archive
                .entries
                .iter()
                .find(|e| e.name().eq_ignore_ascii_case(&format!("{stem}.{ext}")))
                .map(|e| (e.content.to_vec(), format!("{name}:{}", e.name())))
        };
        return Ok(ShapeMaterials::read(entry("dpl"), entry("dba")));
    }
    let dts = match (shape, doc.get("asset")) {
        (Some(shape), _) => shape.to_string(),
        (None, Some(Value::String(asset))) => {
            Path::new(asset).with_extension("dts").display().to_string()
        }
        _ => return Ok(ShapeMaterials::default()),
    };
    let beside = |ext: &str| -> Result<Option<(Vec<u8>, String)>, String> {
        let p = Path::new(&dts).with_extension(ext).display().to_string();
        Ok(read(&p)?.map(|b| (b, file_name(&p))))
    };
    Ok(ShapeMaterials::read(beside("dpl")?, beside("dba")?))
}

fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(s, _)| s)
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
