//! The herc side of the user's own files and of drawing: the Earthsiege 2 folder opened
//! read-only at startup (`retroanim browse --es2 PATH`), whose VOL archives are listed once
//! (every DTS shape and chassis record, [`Es2Listing`], shared with the static page), and
//! the DTS meshes of a herc session.
//!
//! Only decoded descriptions leave the server (shape listings, the animation list as asset
//! JSON, mesh points and polygons), never an archive's or an entry's stored bytes.

use retroanim_core::input::{self, FileKind};
use retroanim_core::Scenario;
use retroanim_gltf::herc::HercAsset;
use retroanim_herc::inspect::es2::ShapeNames;
use retroanim_herc::inspect::meshes::{
    file_name, scenario_dts, scenario_materials, scenario_meshes,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub use retroanim_herc::inspect::es2::{
    asset_json, Es2Listing, ShapeListing, VolListing, MAX_VOL_BYTES, SIMVOL,
};

/// How a visitor of the server opens a folder (the message when none is open).
const HOW: &str = "start with `retroanim browse --es2 PATH`";

/// An opened Earthsiege 2 folder.
#[derive(Clone, Debug)]
pub struct Es2Folder {
    /// Canonical.
    pub path: PathBuf,
    pub listing: Es2Listing,
}

fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    use retroanim_core::input::{read_regular, InputError};
    read_regular(path, MAX_VOL_BYTES).map_err(|e| match e {
        InputError::TooLarge { .. } | InputError::Grew { .. } => format!(
            "{}: larger than {MAX_VOL_BYTES} bytes, not read",
            path.display()
        ),
        InputError::Io(_) => format!("{}: cannot open: {}", path.display(), e.reason()),
        _ => format!("{}: {e}", path.display()),
    })
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
        let names: Vec<String> = std::fs::read_dir(&path)
            .map_err(|e| format!("{}: cannot list: {e}", path.display()))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.to_ascii_lowercase().ends_with(".vol"))
            .collect();
        // The listing asks for SIMVOL0.VOL before anything is read.
        let has_simvol = names.iter().any(|f| f.eq_ignore_ascii_case(SIMVOL));
        let files = names
            .into_iter()
            .map(|f| {
                let bytes = if has_simvol {
                    read_capped(&path.join(&f))
                } else {
                    Ok(Vec::new())
                };
                (f, bytes)
            })
            .collect();
        let label = |f: &str| path.join(f).display().to_string();
        let listing = Es2Listing::from_archives(path.display().to_string(), files, &label)?;
        Ok(Es2Folder { path, listing })
    }

    /// How many shapes the folder's archives hold.
    pub fn shape_count(&self) -> usize {
        self.listing.shape_count()
    }

    /// Located messages of the archives and shapes that cannot be used.
    pub fn problems(&self) -> Vec<String> {
        self.listing.problems()
    }

    /// The listing the herc view shows.
    pub fn listing(&self) -> Value {
        self.listing.listing()
    }
}

/// A herc scenario naming a shape of the ES2 folder (`"asset_es2": {"vol", "entry"}`) gets
/// that shape's animation list as its inline `asset` (the field stays, naming the source).
/// Other scenarios are returned unchanged. Errors: `(JSON path, message)`.
pub fn expand(
    engine: &str,
    doc: Value,
    es2: Option<&Es2Folder>,
) -> Result<Value, (String, String)> {
    retroanim_herc::inspect::es2::expand(engine, doc, es2.map(|f| &f.listing), HOW)
}

/// The DTS meshes of a herc session (its scenario with confined, absolute paths): the ES2
/// shape it plays; else what [`scenario_meshes`] finds (the mech extension's
/// `setup.mech.shape`, loose or an entry of `setup.mech.vol`; else the `.dts` file next
/// to a JSON asset file with the same stem), the same code the WebAssembly page uses.
/// `{"source": null, "meshes": []}` when there is none.
pub fn session_meshes(s: &Scenario, es2: Option<&Es2Folder>) -> Result<Value, String> {
    if let Some(r) = s.raw("asset_es2") {
        let es2 = es2.ok_or("no Earthsiege 2 folder is open")?;
        return es2.listing.meshes(r);
    }
    scenario_meshes(&s.doc, &|p| {
        if Path::new(p).is_file() {
            read_capped(Path::new(p)).map(Some)
        } else {
            Ok(None)
        }
    })
}

/// The herc session's shape for the glTF export, with the palette and bank the view draws it
/// with: the ES2 shape it plays (named as the view names it, H85: roles from its chassis
/// record, else `node N`, `seq N`); else its asset JSON (a file, or inline) drawn by the DTS
/// [`scenario_dts`] finds.
pub fn session_shape(s: &Scenario, es2: Option<&Es2Folder>) -> Result<HercAsset, String> {
    if let Some(r) = s.raw("asset_es2") {
        let (vol, entry) = retroanim_herc::inspect::es2::es2_ref(r)?;
        let es2 = es2.ok_or("no Earthsiege 2 folder is open")?;
        let (bytes, source) = es2.listing.shape_bytes(&vol, &entry)?;
        let name = entry.rsplit(['\\', '/']).next().unwrap_or(&entry);
        let name = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let mut asset = HercAsset::from_dts(bytes, &source, name).map_err(|e| e.to_string())?;
        // The names and materials the view shows (H85, H82).
        if let Some((chassis, record)) = es2.listing.chassis_for(&entry) {
            let (dts, list, _) = es2.listing.dts(&vol, &entry)?;
            let names = ShapeNames::from_chassis(record, chassis, &dts, &list);
            for (i, n) in names.sequences {
                asset.sequence_names[i] = n;
            }
            for (i, n) in names.nodes {
                asset.node_names[i] = n;
            }
        }
        return Ok(asset.with_materials(&es2.listing.materials(&entry)));
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
    let read = |p: &str| {
        if Path::new(p).is_file() {
            read_capped(Path::new(p)).map(Some)
        } else {
            Ok(None)
        }
    };
    let dts = scenario_dts(&s.doc, &read)?;
    let materials = scenario_materials(&s.doc, &read)?;
    HercAsset::from_json(
        &text,
        &label,
        dts.as_ref().map(|(b, l)| (&b[..], l.as_str())),
    )
    .map(|a| a.with_materials(&materials))
    .map_err(|e| e.to_string())
}
