//! An Earthsiege 2 folder's VOL archives as the model browser lists them, on either site
//! (`retroanim browse --es2 PATH` and the static page's file input): every DTS shape and
//! chassis record, a shape's animation list as the asset JSON a herc scenario plays
//! (`"asset_es2": {"vol", "entry"}`), and its meshes. Only decoded descriptions leave
//! this module, never an archive's or an entry's stored bytes.

use crate::anim_list::{AnimList, SeqClass};
use crate::formats::dts::DtsFile;
use crate::formats::group::shape_meshes;
use crate::formats::vol::VolArchive;
use crate::inspect::meshes::meshes_json;
use serde_json::{json, Value};

/// The archive every Earthsiege 2 folder has; a folder without it is refused.
pub const SIMVOL: &str = "SIMVOL0.VOL";
/// Archives larger than this are not read.
pub const MAX_VOL_BYTES: u64 = 256 << 20;
/// A chassis record's content size (F8).
const CHASSIS_BYTES: usize = 216;

/// One DTS entry of an archive, as listed at startup.
#[derive(Clone, Debug)]
pub struct ShapeListing {
    /// `dir\NAME.DTS`, as the archive names it.
    pub entry: String,
    pub nodes: usize,
    pub sequences: usize,
    /// TSGroups root 0 draws.
    pub meshes: usize,
    /// The reader's located message when the shape cannot be played.
    pub error: Option<String>,
    /// The entry's content, kept from the listing (a shape is small; its archive is not
    /// read again), never served.
    bytes: Vec<u8>,
}

/// One VOL archive of the folder.
#[derive(Clone, Debug)]
pub struct VolListing {
    /// The file name inside the folder.
    pub file: String,
    pub shapes: Vec<ShapeListing>,
    /// Entries of the chassis record's size in a `dat` directory.
    pub chassis: Vec<String>,
    /// The reader's located message when the archive cannot be read.
    pub error: Option<String>,
}

/// The listed archives of one folder (or of the files a page's user opened).
#[derive(Clone, Debug, Default)]
pub struct Es2Listing {
    /// What messages call the folder.
    pub folder: String,
    pub vols: Vec<VolListing>,
}

fn full_name(vol: &VolArchive, i: usize) -> String {
    let e = &vol.entries[i];
    match vol.directories.get(usize::from(e.directory)) {
        Some(d) if !d.is_empty() => format!("{d}\\{}", e.name()),
        _ => e.name(),
    }
}

fn is_dts(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".dts")
}

/// The shapes and chassis records of one archive's bytes, `label` naming it in messages.
pub fn list_vol(bytes: &[u8], label: &str) -> Result<(Vec<ShapeListing>, Vec<String>), String> {
    let vol = VolArchive::read(bytes, label).map_err(|e| e.to_string())?;
    let mut shapes = Vec::new();
    let mut chassis = Vec::new();
    for (i, e) in vol.entries.iter().enumerate() {
        let name = full_name(&vol, i);
        if is_dts(&name) {
            let mut s = ShapeListing {
                entry: name.clone(),
                nodes: 0,
                sequences: 0,
                meshes: 0,
                error: None,
                bytes: Vec::new(),
            };
            let at = format!("{label}:{name}");
            let read = if e.is_stored() {
                DtsFile::load_anim_list(&e.content, &at)
                    .and_then(|(dts, list)| {
                        shape_meshes(&dts, &at)
                            .map(|m| (list.nodes().len(), list.sequences().len(), m.len()))
                    })
                    .map_err(|x| x.to_string())
            } else {
                Err(format!(
                    "{at}: compressed entries (method {}) are not read",
                    e.compression
                ))
            };
            match read {
                Ok((n, q, m)) => {
                    (s.nodes, s.sequences, s.meshes) = (n, q, m);
                    s.bytes = e.content.clone();
                }
                Err(m) => s.error = Some(m),
            }
            shapes.push(s);
        } else if e.content.len() == CHASSIS_BYTES && name.to_ascii_lowercase().starts_with("dat\\")
        {
            chassis.push(name);
        }
    }
    Ok((shapes, chassis))
}

impl Es2Listing {
    /// List `files` (archive name, its bytes or why they could not be read), in name
    /// order. Without SIMVOL0.VOL, or when it does not read, the folder is refused with a
    /// located message; another archive that does not read is listed with its message.
    /// `label` gives an archive's name in messages.
    pub fn from_archives(
        folder: String,
        mut files: Vec<(String, Result<Vec<u8>, String>)>,
        label: &dyn Fn(&str) -> String,
    ) -> Result<Es2Listing, String> {
        files.sort_by_key(|(n, _)| n.to_ascii_uppercase());
        if !files.iter().any(|(f, _)| f.eq_ignore_ascii_case(SIMVOL)) {
            let found = if files.is_empty() {
                "no .VOL files".to_string()
            } else {
                format!(
                    "found {}",
                    files
                        .iter()
                        .map(|(f, _)| f.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(format!(
                "{folder}: no {SIMVOL} in this folder ({found}); give the Earthsiege 2 folder"
            ));
        }
        let mut vols = Vec::new();
        for (f, bytes) in files {
            let listed = bytes.and_then(|b| list_vol(&b, &label(&f)));
            let (shapes, chassis, error) = match listed {
                Ok((s, c)) => (s, c, None),
                Err(m) if f.eq_ignore_ascii_case(SIMVOL) => return Err(m),
                Err(m) => (Vec::new(), Vec::new(), Some(m)),
            };
            vols.push(VolListing {
                file: f,
                shapes,
                chassis,
                error,
            });
        }
        Ok(Es2Listing { folder, vols })
    }

    /// How many shapes the folder's archives hold.
    pub fn shape_count(&self) -> usize {
        self.vols.iter().map(|v| v.shapes.len()).sum()
    }

    /// Located messages of the archives and shapes that cannot be used.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for v in &self.vols {
            out.extend(v.error.clone());
            out.extend(v.shapes.iter().filter_map(|s| s.error.clone()));
        }
        out
    }

    /// The listing the herc view shows.
    pub fn listing(&self) -> Value {
        let vols: Vec<Value> = self
            .vols
            .iter()
            .map(|v| {
                json!({
                    "file": v.file,
                    "error": v.error,
                    "chassis": v.chassis,
                    "shapes": v.shapes.iter().map(|s| json!({
                        "entry": s.entry, "nodes": s.nodes, "sequences": s.sequences,
                        "meshes": s.meshes, "error": s.error,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({"folder": self.folder.to_string(), "vols": vols})
    }

    /// The DTS entry `entry` of archive `vol` (a shape the listing names as playable), with
    /// its label for messages.
    pub fn dts(&self, vol: &str, entry: &str) -> Result<(DtsFile, AnimList, String), String> {
        let (bytes, at) = self.shape_bytes(vol, entry)?;
        let (dts, list) = DtsFile::load_anim_list(bytes, &at).map_err(|e| e.to_string())?;
        Ok((dts, list, at))
    }

    /// The stored content of a playable shape, with its label (`VOL:entry`).
    pub fn shape_bytes(&self, vol: &str, entry: &str) -> Result<(&[u8], String), String> {
        let v = self
            .vols
            .iter()
            .find(|v| v.file.eq_ignore_ascii_case(vol))
            .ok_or_else(|| format!("{}: no archive {vol:?} in the folder", self.folder))?;
        let s = v
            .shapes
            .iter()
            .find(|s| s.entry.eq_ignore_ascii_case(entry) && s.error.is_none())
            .ok_or_else(|| {
                format!(
                    "{}: {entry:?} is not a playable shape of {}",
                    self.folder, v.file
                )
            })?;
        Ok((&s.bytes, format!("{}:{}", v.file, s.entry)))
    }

    /// The meshes of the shape an `asset_es2` field names.
    pub fn meshes(&self, asset_es2: &Value) -> Result<Value, String> {
        let (vol, entry) = es2_ref(asset_es2)?;
        let (dts, _, source) = self.dts(&vol, &entry)?;
        let meshes = shape_meshes(&dts, &source).map_err(|e| e.to_string())?;
        Ok(json!({"source": source, "meshes": meshes_json(&meshes)}))
    }
}

/// The asset JSON (the form of `assets/herc/biped.json`) of a model read from a DTS: nodes
/// are named `node N` (DTS files carry no names), sequences `seq N`.
pub fn asset_json(list: &AnimList, source: &str) -> Value {
    let nodes: Vec<Value> = list
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": format!("node {i}"), "parent": n.parent, "rest": n.rest}))
        .collect();
    let sequences: Vec<Value> = list
        .sequences()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let w = s.columns.len();
            let frames: Vec<Value> = s
                .frames
                .iter()
                .enumerate()
                .map(|(f, fr)| {
                    json!({
                        "duration": fr.duration,
                        "first_transition": fr.first_transition,
                        "transition_count": fr.transition_count,
                        "keys": s.keys.get(f * w..(f + 1) * w).unwrap_or(&[]),
                    })
                })
                .collect();
            json!({
                "name": format!("seq {i}"),
                "class": match s.class { SeqClass::Cyclic => "cyclic", SeqClass::OneShot => "one_shot" },
                "priority": s.priority,
                "ground": s.ground,
                "columns": s.columns,
                "frames": frames,
            })
        })
        .collect();
    let transitions: Vec<Value> = list
        .transitions()
        .iter()
        .map(|t| json!({"duration": t.duration, "dest_seq": t.dest_seq, "dest_frame": t.dest_frame, "key": t.key}))
        .collect();
    json!({
        "name": source,
        "note": format!("read from {source} (DTS: node and sequence names are numbers)"),
        "nodes": nodes,
        "keyframes": list.keyframes(),
        "sequences": sequences,
        "transitions": transitions,
    })
}

/// The `{vol, entry}` an `asset_es2` field names, or a message for `scenario.asset_es2`.
pub fn es2_ref(v: &Value) -> Result<(String, String), String> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    match (s("vol"), s("entry")) {
        (Some(vol), Some(entry)) => Ok((vol, entry)),
        _ => Err(
            "expected {\"vol\": \"SIMVOL0.VOL\", \"entry\": \"dts\\\\NAME.DTS\"} (a shape the ES2 listing names)"
                .into(),
        ),
    }
}

/// A herc scenario naming a shape of the ES2 folder (`"asset_es2": {"vol", "entry"}`) gets
/// that shape's animation list as its inline `asset` (the field stays, naming the source).
/// Other scenarios are returned unchanged. Errors: `(JSON path, message)`.
pub fn expand(
    engine: &str,
    mut doc: Value,
    es2: Option<&Es2Listing>,
    how: &str,
) -> Result<Value, (String, String)> {
    let Some(r) = doc.get("asset_es2") else {
        return Ok(doc);
    };
    let at = "scenario.asset_es2".to_string();
    if engine != "herc" {
        return Err((
            at,
            "only herc scenarios read the Earthsiege 2 folder".into(),
        ));
    }
    let (vol, entry) = es2_ref(r).map_err(|m| (at.clone(), m))?;
    let es2 = es2.ok_or_else(|| {
        (
            at.clone(),
            format!("no Earthsiege 2 folder is open ({how})"),
        )
    })?;
    let (_, list, source) = es2.dts(&vol, &entry).map_err(|m| (at, m))?;
    doc["asset"] = asset_json(&list, &source);
    Ok(doc)
}
