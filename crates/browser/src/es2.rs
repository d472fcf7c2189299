//! The herc side of the user's own files and of drawing: the Earthsiege 2 folder opened
//! read-only at startup (`retroanim browse --es2 PATH`), whose VOL archives are listed once
//! (every DTS shape and chassis record), and the DTS meshes of a herc session.
//!
//! Only decoded descriptions leave the server (shape listings, the animation list as asset
//! JSON, mesh points and polygons), never an archive's or an entry's stored bytes.

use retroanim_core::input::{self, FileKind};
use retroanim_core::Scenario;
use retroanim_gltf::herc::HercAsset;
use retroanim_herc::anim_list::{AnimList, SeqClass};
use retroanim_herc::formats::dts::DtsFile;
use retroanim_herc::formats::group::shape_meshes;
use retroanim_herc::formats::vol::VolArchive;
use retroanim_herc::inspect::meshes::{file_name, meshes_json, scenario_dts, scenario_meshes};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The archive every Earthsiege 2 folder has; a folder without it is refused.
pub const SIMVOL: &str = "SIMVOL0.VOL";
/// Archives and DTS files larger than this are not read.
const MAX_FILE_BYTES: u64 = 256 << 20;
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
    /// The entry's content, kept from startup (a shape is small; its archive is not read
    /// again), never served.
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

/// An opened Earthsiege 2 folder.
#[derive(Clone, Debug)]
pub struct Es2Folder {
    /// Canonical.
    pub path: PathBuf,
    pub vols: Vec<VolListing>,
}

fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    use retroanim_core::input::{read_regular, InputError};
    read_regular(path, MAX_FILE_BYTES).map_err(|e| match e {
        InputError::TooLarge { .. } | InputError::Grew { .. } => format!(
            "{}: larger than {MAX_FILE_BYTES} bytes, not read",
            path.display()
        ),
        InputError::Io(_) => format!("{}: cannot open: {}", path.display(), e.reason()),
        _ => format!("{}: {e}", path.display()),
    })
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

fn list_vol(bytes: &[u8], label: &str) -> Result<(Vec<ShapeListing>, Vec<String>), String> {
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

impl Es2Folder {
    /// Open and list `path`: every `*.VOL` file in it (not in sub-folders). A missing
    /// path, a file instead of a folder, a folder without SIMVOL0.VOL and an unreadable
    /// SIMVOL0.VOL are refused with a located message; another unreadable archive, or a
    /// shape that does not play, is listed with its message.
    pub fn open(path: &Path) -> Result<Es2Folder, String> {
        let meta =
            std::fs::metadata(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        if !meta.is_dir() {
            return Err(format!(
                "{}: not a folder (give the Earthsiege 2 folder that holds {SIMVOL})",
                path.display()
            ));
        }
        let path = path
            .canonicalize()
            .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        let mut files: Vec<String> = std::fs::read_dir(&path)
            .map_err(|e| format!("{}: cannot list: {e}", path.display()))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.to_ascii_lowercase().ends_with(".vol"))
            .collect();
        files.sort_by_key(|n| n.to_ascii_uppercase());
        if !files.iter().any(|f| f.eq_ignore_ascii_case(SIMVOL)) {
            let found = if files.is_empty() {
                "no .VOL files".to_string()
            } else {
                format!("found {}", files.join(", "))
            };
            return Err(format!(
                "{}: no {SIMVOL} in this folder ({found}); give the Earthsiege 2 folder",
                path.display()
            ));
        }
        let mut vols = Vec::new();
        for f in files {
            let p = path.join(&f);
            let listed = read_capped(&p).and_then(|b| list_vol(&b, &p.display().to_string()));
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
        Ok(Es2Folder { path, vols })
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
        json!({"folder": self.path.display().to_string(), "vols": vols})
    }

    /// The DTS entry `entry` of archive `vol` (a shape the listing names as playable), with
    /// its label for messages.
    fn dts(&self, vol: &str, entry: &str) -> Result<(DtsFile, AnimList, String), String> {
        let (bytes, at) = self.shape_bytes(vol, entry)?;
        let (dts, list) = DtsFile::load_anim_list(bytes, &at).map_err(|e| e.to_string())?;
        Ok((dts, list, at))
    }

    /// The stored content of a playable shape, with its label (`VOL:entry`).
    fn shape_bytes(&self, vol: &str, entry: &str) -> Result<(&[u8], String), String> {
        let v = self
            .vols
            .iter()
            .find(|v| v.file.eq_ignore_ascii_case(vol))
            .ok_or_else(|| format!("{}: no archive {vol:?} in the folder", self.path.display()))?;
        let s = v
            .shapes
            .iter()
            .find(|s| s.entry.eq_ignore_ascii_case(entry) && s.error.is_none())
            .ok_or_else(|| {
                format!(
                    "{}: {entry:?} is not a playable shape of {}",
                    self.path.display(),
                    v.file
                )
            })?;
        Ok((&s.bytes, format!("{}:{}", v.file, s.entry)))
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
fn es2_ref(v: &Value) -> Result<(String, String), String> {
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
    es2: Option<&Es2Folder>,
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
            "no Earthsiege 2 folder is open (start with `retroanim browse --es2 PATH`)".to_string(),
        )
    })?;
    let (_, list, source) = es2.dts(&vol, &entry).map_err(|m| (at, m))?;
    doc["asset"] = asset_json(&list, &source);
    Ok(doc)
}

/// The DTS meshes of a herc session (its scenario with confined, absolute paths): the ES2
/// shape it plays; else what [`scenario_meshes`] finds (the mech extension's
/// `setup.mech.shape`, loose or an entry of `setup.mech.vol`; else the `.dts` file next
/// to a JSON asset file with the same stem), the same code the WebAssembly page uses.
/// `{"source": null, "meshes": []}` when there is none.
pub fn session_meshes(s: &Scenario, es2: Option<&Es2Folder>) -> Result<Value, String> {
    if let Some(r) = s.raw("asset_es2") {
        let (vol, entry) = es2_ref(r)?;
        let es2 = es2.ok_or("no Earthsiege 2 folder is open")?;
        let (dts, _, source) = es2.dts(&vol, &entry)?;
        let meshes = shape_meshes(&dts, &source).map_err(|e| e.to_string())?;
        return Ok(json!({"source": source, "meshes": meshes_json(&meshes)}));
    }
    scenario_meshes(&s.doc, &|p| {
        if Path::new(p).is_file() {
            read_capped(Path::new(p)).map(Some)
        } else {
            Ok(None)
        }
    })
}

/// The herc session's shape for the glTF export: the ES2 shape it plays (named `node N`,
/// `seq N` as DTS files carry no names); else its asset JSON (a file, or inline) drawn by
/// the DTS [`scenario_dts`] finds.
pub fn session_shape(s: &Scenario, es2: Option<&Es2Folder>) -> Result<HercAsset, String> {
    if let Some(r) = s.raw("asset_es2") {
        let (vol, entry) = es2_ref(r)?;
        let es2 = es2.ok_or("no Earthsiege 2 folder is open")?;
        let (bytes, source) = es2.shape_bytes(&vol, &entry)?;
        let name = entry.rsplit(['\\', '/']).next().unwrap_or(&entry);
        let name = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        return HercAsset::from_dts(bytes, &source, name).map_err(|e| e.to_string());
    }
    let (text, label) = match s.raw("asset") {
        Some(Value::String(rel)) => {
            let path = s.resolve(rel);
            let text =
                input::read_text_kind(&path, FileKind::JsonAsset).map_err(|e| e.naming(&path))?;
            (text, file_name(rel))
        }
        Some(v @ Value::Object(_)) => (v.to_string(), "asset".to_string()),
        _ => return Err("expected a path or an asset object".into()),
    };
    let dts = scenario_dts(&s.doc, &|p| {
        if Path::new(p).is_file() {
            read_capped(Path::new(p)).map(Some)
        } else {
            Ok(None)
        }
    })?;
    HercAsset::from_json(
        &text,
        &label,
        dts.as_ref().map(|(b, l)| (&b[..], l.as_str())),
    )
    .map_err(|e| e.to_string())
}
