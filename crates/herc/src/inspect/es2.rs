//! An Earthsiege 2 folder's VOL archives as the model browser lists them, on either site
//! (`retroanim browse --es2 PATH` and the static page's file input): every DTS shape and
//! chassis record, a shape's animation list as the asset JSON a herc scenario plays
//! (`"asset_es2": {"vol", "entry"}`), and its meshes. Only decoded descriptions leave
//! this module, never an archive's or an entry's stored bytes.

use crate::anim_list::{AnimList, SeqClass};
use crate::formats::chassis::ChassisRecord;
use crate::formats::dts::DtsFile;
use crate::formats::group::shape_meshes;
use crate::formats::vol::VolArchive;
use crate::inspect::meshes::{materials_json, meshes_json, ShapeMaterials};
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
    /// What the shapes are drawn and named with, kept from the listing, never served.
    extras: VolExtras,
}

/// The entries of an archive that name and colour its shapes (H82, H85).
#[derive(Clone, Debug, Default)]
struct VolExtras {
    /// Chassis records that read, by entry name (`dat\NAME.DAT`).
    records: Vec<(String, ChassisRecord)>,
    /// Theater palettes (`WORLD*.DPL`), by entry name, with their content.
    palettes: Vec<(String, Vec<u8>)>,
    /// The texture banks (`dba\LIGHT.DBA` … `dba\NEWHERCS.DBA`), by entry name, with their
    /// content; other bitmap arrays (interface art) are not kept.
    banks: Vec<(String, Vec<u8>)>,
}

/// The file-name part of an entry name, without its extension, upper case.
fn entry_stem(entry: &str) -> String {
    let name = entry.rsplit(['\\', '/']).next().unwrap_or(entry);
    name.rsplit_once('.')
        .map_or(name, |(s, _)| s)
        .to_ascii_uppercase()
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
    read_vol(bytes, label).map(|(s, c, _)| (s, c))
}

type VolContents = (Vec<ShapeListing>, Vec<String>, VolExtras);

fn read_vol(bytes: &[u8], label: &str) -> Result<VolContents, String> {
    let vol = VolArchive::read(bytes, label).map_err(|e| e.to_string())?;
    let mut shapes = Vec::new();
    let mut chassis = Vec::new();
    let mut extras = VolExtras::default();
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
            if let Ok(r) = ChassisRecord::read(&e.content, &name) {
                extras.records.push((name.clone(), r));
            }
            chassis.push(name);
        } else if e.is_stored() {
            let lower = name.to_ascii_lowercase();
            let file = lower.rsplit('\\').next().unwrap_or(&lower);
            if file.starts_with("world") && file.ends_with(".dpl") {
                extras.palettes.push((name, e.content.clone()));
            } else if lower.starts_with("dba\\")
                && file.ends_with(".dba")
                && crate::formats::chassis::TEXTURE_BANKS.contains(&entry_stem(&name).as_str())
            {
                extras.banks.push((name, e.content.clone()));
            }
        }
    }
    Ok((shapes, chassis, extras))
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
            let listed = bytes.and_then(|b| read_vol(&b, &label(&f)));
            let (shapes, chassis, extras, error) = match listed {
                Ok((s, c, x)) => (s, c, x, None),
                Err(m) if f.eq_ignore_ascii_case(SIMVOL) => return Err(m),
                Err(m) => (Vec::new(), Vec::new(), VolExtras::default(), Some(m)),
            };
            vols.push(VolListing {
                file: f,
                shapes,
                chassis,
                error,
                extras,
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

    /// The meshes of the shape an `asset_es2` field names, with the materials DBSIM would
    /// draw it with ([`Es2Listing::materials`]).
    pub fn meshes(&self, asset_es2: &Value) -> Result<Value, String> {
        let (vol, entry) = es2_ref(asset_es2)?;
        let (dts, _, source) = self.dts(&vol, &entry)?;
        let meshes = shape_meshes(&dts, &source).map_err(|e| e.to_string())?;
        let mats = self.materials(&entry);
        Ok(json!({
            "source": source,
            "meshes": meshes_json(&meshes, &mats),
            "materials": materials_json(&meshes, &mats),
        }))
    }

    /// The chassis record with the shape's stem (`dts\SAMSON.DTS` → `dat\SAMSON.DAT`) in
    /// any archive, with its entry name.
    pub fn chassis_for(&self, shape_entry: &str) -> Option<(&str, &ChassisRecord)> {
        let stem = entry_stem(shape_entry);
        self.vols
            .iter()
            .flat_map(|v| v.extras.records.iter())
            .find(|(n, _)| entry_stem(n) == stem)
            .map(|(n, r)| (n.as_str(), r))
    }

    /// What a shape is drawn with, as DBSIM chooses it (docs/herc-formats.md): the theater
    /// palette (the first `WORLD*.DPL` of the folder in archive and entry order, standing
    /// in for the mission's theater), and the texture bank the shape's chassis record
    /// names (rec 148) from a `dba` directory. A shape without a chassis record gets no
    /// bank (its textured faces take no texture).
    pub fn materials(&self, shape_entry: &str) -> ShapeMaterials {
        let mut palettes: Vec<(String, &Vec<u8>)> = self
            .vols
            .iter()
            .flat_map(|v| {
                v.extras
                    .palettes
                    .iter()
                    .map(move |(n, b)| (format!("{}:{n}", v.file), b))
            })
            .collect();
        palettes.sort_by_key(|(n, _)| n.to_ascii_uppercase());
        let dpl = palettes.into_iter().next().map(|(n, b)| (b.clone(), n));
        let bank = self
            .chassis_for(shape_entry)
            .and_then(|(_, r)| r.texture_bank());
        let dba = bank.and_then(|bank| {
            self.vols.iter().find_map(|v| {
                v.extras
                    .banks
                    .iter()
                    .find(|(n, _)| entry_stem(n) == bank)
                    .map(|(n, b)| (b.clone(), format!("{}:{n}", v.file)))
            })
        });
        ShapeMaterials::read(dpl, dba)
    }
}

/// H85: what an ES2 shape's nodes and sequences are called. DTS files carry no names; the
/// chassis record with the shape's stem names sequences by their role (the name the
/// sample biped gives the same role): rec 12 `walk`, 14 `run`, 16 `idle` (the forward
/// step-off the machine stands in), 18 `idle_reverse`, 26 `twist`, 34 `pitch`, 68 `death`,
/// 122 `turn`; the first role in that order names a sequence with several. Its camera part
/// (rec 10) names the node it resolves to `cockpit`. Everything else is numbered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShapeNames {
    /// Sequence index → name.
    pub sequences: Vec<(usize, String)>,
    /// Node index → name.
    pub nodes: Vec<(usize, String)>,
    /// The chassis entry the names come from.
    pub source: Option<String>,
}

impl ShapeNames {
    /// The names `record` (entry `source`) gives a shape `dts` with `list`.
    pub fn from_chassis(
        record: &ChassisRecord,
        source: &str,
        dts: &DtsFile,
        list: &AnimList,
    ) -> ShapeNames {
        const ROLE_NAMES: [(&str, &str); 8] = [
            ("walk", "walk"),
            ("run", "run"),
            ("step off forward", "idle"),
            ("step off reverse", "idle_reverse"),
            ("torso twist", "twist"),
            ("torso pitch", "pitch"),
            ("going down", "death"),
            ("turn in place", "turn"),
        ];
        let mut sequences: Vec<(usize, String)> = Vec::new();
        for (seq, role) in record.sequence_roles() {
            let Ok(i) = usize::try_from(seq) else {
                continue;
            };
            if i >= list.sequences().len() || sequences.iter().any(|(k, _)| *k == i) {
                continue;
            }
            let name = ROLE_NAMES
                .iter()
                .find(|(r, _)| *r == role)
                .map_or(role, |(_, n)| n);
            sequences.push((i, name.to_string()));
        }
        let nodes = dts
            .part_transform_id(record.camera_part)
            .and_then(|t| usize::try_from(t).ok())
            .filter(|&n| n < list.nodes().len())
            .map(|n| vec![(n, "cockpit".to_string())])
            .unwrap_or_default();
        ShapeNames {
            sequences,
            nodes,
            source: Some(source.to_string()),
        }
    }
}

/// The asset JSON (the form of `assets/herc/biped.json`) of a model read from a DTS: nodes
/// and sequences take the names `names` gives them (H85), the others are `node N` and
/// `seq N` (DTS files carry no names).
pub fn asset_json(list: &AnimList, source: &str, names: &ShapeNames) -> Value {
    let named =
        |v: &[(usize, String)], i: usize| v.iter().find(|(k, _)| *k == i).map(|(_, n)| n.clone());
    let nodes: Vec<Value> = list
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let name = named(&names.nodes, i).unwrap_or_else(|| format!("node {i}"));
            json!({"name": name, "parent": n.parent, "rest": n.rest})
        })
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
                "name": named(&names.sequences, i).unwrap_or_else(|| format!("seq {i}")),
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
    let note = match &names.source {
        Some(c) => format!("read from {source}; sequence roles and the cockpit node named by the chassis record {c} (DTS files carry no names; the others are numbers)"),
        None => format!("read from {source} (DTS: node and sequence names are numbers)"),
    };
    json!({
        "name": source,
        "note": note,
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
    let (dts, list, source) = es2.dts(&vol, &entry).map_err(|m| (at, m))?;
    let names = es2
        .chassis_for(&entry)
        .map(|(n, r)| ShapeNames::from_chassis(r, n, &dts, &list))
        .unwrap_or_default();
    doc["asset"] = asset_json(&list, &source, &names);
    Ok(doc)
}
