//! `retroanim inspect` for herc files: an asset JSON (D1), a `.DTS` shape (F2–F6), a VOL archive
//! (F1), a chassis record (F8, binary or JSON), a palette (`.DPL`, H80) or a bitmap or bitmap
//! array (`.DBM`, `.DBA`, H81). Text for people, `--json` for tools.
//! [`meshes`]: the DTS meshes a herc scenario draws, as the model browser sends them.

pub mod es2;
pub mod meshes;

use crate::anim_list::{AnimList, SeqClass};
use crate::chassis::ChassisRuntime;
use crate::formats::chassis::ChassisRecord;
use crate::formats::dts::DtsFile;
use crate::formats::vol::VolArchive;
use retroanim_core::ScenarioError;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

use crate::formats::chassis::CHASSIS_FILE_SIZES;

/// What kind of herc file `path` holds, judged by content (and the extension only to tell a
/// chassis record from other 216-byte files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HercFile {
    Asset,
    ChassisJson,
    Dts,
    Vol,
    ChassisBinary,
    Palette,
    Bitmap,
    BitmapArray,
}

/// Recognise a herc file; `None` for anything else.
pub fn recognise(path: &Path) -> Option<HercFile> {
    let bytes =
        retroanim_core::input::read_kind(path, retroanim_core::input::FileKind::Whole).ok()?;
    recognise_bytes(&bytes, &path.to_string_lossy())
}

/// [`recognise`] for bytes already read; `name` supplies the extension.
pub fn recognise_bytes(bytes: &[u8], name: &str) -> Option<HercFile> {
    let ext = Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if bytes.starts_with(b"VOLN") {
        return Some(HercFile::Vol);
    }
    if ext.as_deref() == Some("json") {
        let v: Value = serde_json::from_slice(bytes).ok()?;
        let o = v.as_object()?;
        if o.contains_key("keyframes") && o.contains_key("sequences") {
            return Some(HercFile::Asset);
        }
        if o.contains_key("max_turn_rate") && o.contains_key("stride_divisor") {
            return Some(HercFile::ChassisJson);
        }
        return None;
    }
    let body = crate::formats::vol::strip_entry_prefix(bytes);
    if ext.as_deref() == Some("dts") {
        let tag = u32::from_le_bytes(body.get(..4)?.try_into().ok()?);
        return matches!(tag >> 16, 0x14 | 0x1e).then_some(HercFile::Dts);
    }
    if matches!(ext.as_deref(), Some("dat") | Some("bin"))
        && CHASSIS_FILE_SIZES.contains(&bytes.len())
    {
        return Some(HercFile::ChassisBinary);
    }
    let tag = u32::from_le_bytes(body.get(..4)?.try_into().ok()?);
    match (ext.as_deref(), tag) {
        (
            Some("dpl"),
            crate::formats::palette::TAG_PALETTE | crate::formats::palette::TAG_PALETTE_ALT,
        ) => Some(HercFile::Palette),
        (Some("dbm"), crate::formats::bitmap::TAG_BITMAP) => Some(HercFile::Bitmap),
        (Some("dba"), crate::formats::bitmap::TAG_BITMAP_ARRAY) => Some(HercFile::BitmapArray),
        _ => None,
    }
}

/// Whether `retroanim inspect` should hand `path` to this engine.
pub fn recognises(path: &Path) -> bool {
    recognise(path).is_some()
}

/// Describe a herc file as text, or as one JSON document.
pub fn inspect_file(path: &Path, json: bool) -> Result<String, ScenarioError> {
    let file = path.display().to_string();
    let bytes = retroanim_core::input::read_kind(path, retroanim_core::input::FileKind::Whole)
        .map_err(|e| e.at(&file))?;
    inspect_bytes(&bytes, &file, json)
}

/// [`inspect_file`] for bytes already read; `file` names them (and gives the extension).
pub fn inspect_bytes(bytes: &[u8], file: &str, json: bool) -> Result<String, ScenarioError> {
    let value = match recognise_bytes(bytes, file) {
        Some(HercFile::Asset) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let doc: Value = serde_json::from_str(&text)
                .map_err(|e| ScenarioError::new(file, "", format!("malformed JSON: {e}")))?;
            let list = AnimList::from_json_value(&doc, file, "")?;
            anim_list_summary(&list, Some(&doc))
        }
        Some(HercFile::Dts) => {
            let (dts, list) = DtsFile::load_anim_list(bytes, file)?;
            let mut v = anim_list_summary(&list, None);
            v["roots"] = json!(dts.roots.len());
            let meshes = crate::formats::group::shape_meshes(&dts, file)?;
            v["meshes"] = json!({
                "groups": meshes.len(),
                "points": meshes.iter().map(|m| m.geometry.points.len()).sum::<usize>(),
                "polys": meshes.iter().map(|m| m.geometry.polys.iter().filter(|p| p.vertex_count > 0).count()).sum::<usize>(),
                "nodes": meshes.iter().map(|m| m.transform_id).collect::<Vec<_>>(),
                "materials": material_counts(&meshes),
            });
            v
        }
        Some(HercFile::Palette) => {
            let p = crate::formats::palette::Palette::read(bytes, file)?;
            json!({
                "kind": "palette",
                "colors": p.entries.len(),
                "rgb": p.entries.iter().map(|e| e.rgb()).collect::<Vec<_>>(),
                "ramps": p.ramps.as_ref().map(|r| r.iter().map(Vec::len).collect::<Vec<_>>()),
            })
        }
        Some(HercFile::Bitmap) => {
            let b = crate::formats::bitmap::Bitmap::read(bytes, file)?;
            json!({"kind": "bitmaps", "frames": [bitmap_summary(&b)]})
        }
        Some(HercFile::BitmapArray) => {
            let a = crate::formats::bitmap::BitmapArray::read(bytes, file)?;
            json!({"kind": "bitmaps", "frames": a.frames.iter().map(bitmap_summary).collect::<Vec<_>>()})
        }
        Some(HercFile::Vol) => {
            let vol = VolArchive::read(bytes, file)?;
            json!({
                "kind": "vol",
                "program_mask": vol.program_mask,
                "precedence": vol.precedence,
                "directories": vol.directories,
                "entries": vol.entries.iter().map(|e| json!({
                    "name": e.name(), "directory": e.directory, "size": e.content.len(),
                    "compression": e.compression})).collect::<Vec<_>>(),
            })
        }
        Some(HercFile::ChassisBinary) => chassis_summary(&ChassisRecord::read(bytes, file)?),
        Some(HercFile::ChassisJson) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            chassis_summary(&ChassisRecord::from_json_str(&text, file)?)
        }
        None => {
            return Err(ScenarioError::new(
                file,
                "",
                "not a herc asset, DTS, VOL, chassis record, palette or bitmap",
            ))
        }
    };
    if json {
        return Ok(format!("{value:#}\n"));
    }
    Ok(text_of(&value))
}

/// Describe one entry of a VOL archive (`dir\NAME` or `NAME`, case-insensitive), as
/// [`inspect_bytes`] describes a loose file of that name.
pub fn inspect_vol_entry(
    bytes: &[u8],
    file: &str,
    entry: &str,
    json: bool,
) -> Result<String, ScenarioError> {
    let vol = VolArchive::read(bytes, file)?;
    let Some(e) = vol.find(entry) else {
        let names: Vec<String> = vol.entries.iter().map(|e| e.name()).collect();
        return Err(ScenarioError::new(
            file,
            format!("entry {entry}"),
            format!("not found (entries: {})", names.join(", ")),
        ));
    };
    let label = format!("{file}:{}", e.name());
    if e.compression != crate::formats::vol::STORED {
        return Err(ScenarioError::new(
            &label,
            "",
            format!("compressed entries (method {}) are not read", e.compression),
        ));
    }
    inspect_bytes(&e.content, &label, json)
}

fn anim_list_summary(list: &AnimList, doc: Option<&Value>) -> Value {
    let name_of = |kind: &str, i: usize| -> Value {
        doc.and_then(|d| d.get(kind))
            .and_then(|a| a.get(i))
            .and_then(|x| x.get("name"))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let nodes: Vec<Value> = list
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"id": i, "name": name_of("nodes", i), "parent": n.parent, "rest": n.rest}))
        .collect();
    let sequences: Vec<Value> = list
        .sequences()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let transitions: Vec<Value> = s
                .frames
                .iter()
                .enumerate()
                .flat_map(|(f, fr)| {
                    let first = fr.first_transition as usize;
                    let count = fr.transition_count.max(0) as usize;
                    list.transitions()
                        .iter()
                        .skip(first)
                        .take(count)
                        .map(move |t| {
                            json!({"frame": f, "dest_seq": t.dest_seq, "dest_frame": t.dest_frame,
                                   "duration": t.duration, "key": t.key})
                        })
                })
                .collect();
            json!({
                "id": i,
                "name": s.name.clone().map_or(Value::Null, Value::String),
                "class": match s.class { SeqClass::Cyclic => "cyclic", SeqClass::OneShot => "one_shot" },
                "priority": s.priority,
                "ground": s.ground,
                "columns": s.columns,
                "durations": s.frames.iter().map(|f| f.duration).collect::<Vec<_>>(),
                "total_ticks": s.total_duration(),
                "transitions": transitions,
            })
        })
        .collect();
    json!({
        "kind": "anim_list",
        "nodes": nodes,
        "keyframes": list.keyframes().len(),
        "sequences": sequences,
        "transitions": list.transitions().len(),
    })
}

fn chassis_summary(rec: &ChassisRecord) -> Value {
    json!({
        "kind": "chassis",
        "raw": rec,
        "runtime": ChassisRuntime::from_record(rec),
    })
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// A compact human-readable rendering of the summaries above.
/// How many drawn polygons of `meshes` name each kind of material (H82).
fn material_counts(meshes: &[crate::formats::group::ShapeMesh]) -> Value {
    use crate::formats::material::{material, poly_sides, Material};
    let mut counts = serde_json::Map::new();
    for m in meshes {
        let g = &m.geometry;
        for (i, p) in g
            .polys
            .iter()
            .enumerate()
            .filter(|(_, p)| p.vertex_count > 0)
        {
            let kind = poly_sides(g, i)
                .0
                .map_or(Material::None, |s| material(p.tag, s.value))
                .kind();
            let n = counts.get(kind).and_then(Value::as_u64).unwrap_or(0);
            counts.insert(kind.into(), json!(n + 1));
        }
    }
    Value::Object(counts)
}

fn bitmap_summary(b: &crate::formats::bitmap::Bitmap) -> Value {
    json!({
        "width": b.cols, "height": b.rows, "bits_per_pixel": b.bits_per_pixel,
        "packing": b.packing, "flags": b.flags, "decoded": b.indices().is_ok(),
    })
}

fn text_of(v: &Value) -> String {
    let mut out = String::new();
    match v["kind"].as_str() {
        Some("palette") => {
            let ramps = v["ramps"].as_array();
            let _ = writeln!(
                out,
                "palette: {} colours, {}",
                v["colors"],
                ramps.map_or("no shade-ramp table".to_string(), |r| format!(
                    "{} shade ramps of lengths {}",
                    r.len(),
                    Value::Array(r.clone())
                ))
            );
            for (i, c) in v["rgb"]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .enumerate()
            {
                let _ = writeln!(out, "  {i:>3} {c}");
            }
        }
        Some("bitmaps") => {
            let frames = v["frames"].as_array().map_or(&[][..], Vec::as_slice);
            let _ = writeln!(out, "bitmaps: {} frames", frames.len());
            for (i, f) in frames.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  frame {i:>3}: {} x {}, {} bits per pixel, packing {}{}",
                    f["width"],
                    f["height"],
                    f["bits_per_pixel"],
                    f["packing"],
                    if f["decoded"] == true {
                        ""
                    } else {
                        " (not decoded)"
                    }
                );
            }
        }
        Some("anim_list") => {
            let nodes = v["nodes"].as_array().map_or(&[][..], Vec::as_slice);
            let _ = writeln!(
                out,
                "animation list: {} nodes, {} keyframes, {} sequences, {} transitions",
                nodes.len(),
                v["keyframes"],
                v["sequences"].as_array().map_or(0, Vec::len),
                v["transitions"]
            );
            if let Some(m) = v.get("meshes") {
                let _ = writeln!(
                    out,
                    "meshes (root 0): {} groups, {} points, {} polygons, on nodes {}",
                    m["groups"], m["points"], m["polys"], m["nodes"]
                );
                let _ = writeln!(out, "polygons by material (H82): {}", m["materials"]);
            }
            for n in nodes {
                let _ = writeln!(
                    out,
                    "  node {:>3} {:<16} parent {:>3}  rest key {}",
                    int(&n["id"]),
                    n["name"].as_str().unwrap_or("-"),
                    int(&n["parent"]),
                    n["rest"]
                );
            }
            for s in v["sequences"].as_array().map_or(&[][..], Vec::as_slice) {
                let _ = writeln!(
                    out,
                    "  seq {:>3} {:<14} {:<8} priority {:>3} ground {:<5} ticks {:>5} durations {} columns {}",
                    int(&s["id"]),
                    s["name"].as_str().unwrap_or("-"),
                    s["class"].as_str().unwrap_or(""),
                    int(&s["priority"]),
                    s["ground"].as_bool().unwrap_or(false),
                    int(&s["total_ticks"]),
                    s["durations"],
                    s["columns"]
                );
                for t in s["transitions"].as_array().map_or(&[][..], Vec::as_slice) {
                    let _ = writeln!(
                        out,
                        "      frame {} -> seq {} frame {} ({} ticks, movement key {})",
                        t["frame"], t["dest_seq"], t["dest_frame"], t["duration"], t["key"]
                    );
                }
            }
        }
        Some("vol") => {
            let dirs = v["directories"].as_array().map_or(&[][..], Vec::as_slice);
            let entries = v["entries"].as_array().map_or(&[][..], Vec::as_slice);
            let _ = writeln!(
                out,
                "VOL archive: program mask 0x{:08x}, precedence {}, {} directories, {} entries",
                int(&v["program_mask"]),
                int(&v["precedence"]),
                dirs.len(),
                entries.len()
            );
            for e in entries {
                let dir = dirs
                    .get(int(&e["directory"]) as usize)
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                let name = e["name"].as_str().unwrap_or("?");
                let path = if dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{dir}\\{name}")
                };
                let how = match int(&e["compression"]) {
                    c if c == i64::from(crate::formats::vol::STORED) => "stored".to_string(),
                    c => format!("compressed (method {c})"),
                };
                let _ = writeln!(out, "  {path:<24} {:>8} bytes  {how}", int(&e["size"]));
            }
        }
        Some("chassis") => {
            let name = v["raw"]["name"].as_str().unwrap_or("-");
            let _ = writeln!(out, "chassis record {name}");
            for part in ["raw", "runtime"] {
                let _ = writeln!(out, "{part}:");
                if let Some(o) = v[part].as_object() {
                    for (k, x) in o {
                        let _ = writeln!(out, "  {k:<28} {x}");
                    }
                }
            }
        }
        _ => {
            let _ = write!(out, "{v:#}");
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_palette_and_textures_are_recognised_and_summarised() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc");
        let dpl = root.join("biped.dpl");
        assert_eq!(recognise(&dpl), Some(HercFile::Palette));
        let v: Value = serde_json::from_str(&inspect_file(&dpl, true).unwrap()).unwrap();
        assert_eq!(v["colors"], 256);
        // Part colour 1, pelvis: 6-bit (22, 26, 32) → (88, 104, 128); five 8-step ramps.
        assert_eq!(v["rgb"][1], json!([88, 104, 128]));
        assert_eq!(v["ramps"], json!([8, 8, 8, 8, 8]));
        let dba = root.join("biped.dba");
        assert_eq!(recognise(&dba), Some(HercFile::BitmapArray));
        let text = inspect_file(&dba, false).unwrap();
        assert!(
            text.starts_with(
                "bitmaps: 4 frames\n  frame   0: 16 x 16, 8 bits per pixel, packing 0\n"
            ),
            "{text}"
        );
        // The biped's 14 boxes: 4 textured sides, 1 shaded underside, 1 solid top each.
        let dts = inspect_file(&root.join("biped.dts"), true).unwrap();
        let v: Value = serde_json::from_str(&dts).unwrap();
        assert_eq!(
            v["meshes"]["materials"],
            json!({"textured": 56, "shaded": 14, "solid": 14})
        );
    }

    #[test]
    fn sample_biped_is_recognised_and_summarised() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc/biped.json");
        assert_eq!(recognise(&path), Some(HercFile::Asset));
        let text = inspect_file(&path, false).unwrap();
        assert!(text.starts_with("animation list: 15 nodes"), "{text}");
        assert!(text.contains("walk"), "{text}");
        let v: Value = serde_json::from_str(&inspect_file(&path, true).unwrap()).unwrap();
        assert_eq!(v["sequences"][4]["class"], json!("one_shot"));
        assert_eq!(v["sequences"][1]["total_ticks"], json!(800));
        let chassis = path.with_file_name("biped.chassis.bin");
        assert_eq!(recognise(&chassis), Some(HercFile::ChassisBinary));
        let v: Value = serde_json::from_str(&inspect_file(&chassis, true).unwrap()).unwrap();
        assert_eq!(v["kind"], json!("chassis"));
        let scenario = path.with_file_name("scenarios").join("walk_25hz.json");
        assert_eq!(recognise(&scenario), None);
    }
}
