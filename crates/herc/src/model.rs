//! Loading a HERC model: the animation list (nodes, keyframes, sequences, transitions)
//! from the asset JSON format or from a DTS shape, loose or inside a VOL archive.

use crate::anim_list::AnimList;
use crate::formats::dts::DtsFile;
use crate::formats::vol::VolArchive;
use retroanim_core::ScenarioError;
use std::path::Path;
use std::sync::Arc;

/// Why a model could not be loaded: the file, where in it (JSON path, record and byte
/// offset, or VOL entry) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LoadError(ScenarioError);

impl LoadError {
    /// The file named by the error.
    pub fn file(&self) -> &str {
        &self.0.file
    }

    /// Where in the file: a JSON path, `record ANSequence, byte 96`, ...
    pub fn location(&self) -> &str {
        &self.0.at
    }

    /// What is wrong there.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl From<ScenarioError> for LoadError {
    fn from(e: ScenarioError) -> LoadError {
        LoadError(e)
    }
}

impl From<LoadError> for ScenarioError {
    fn from(e: LoadError) -> ScenarioError {
        e.0
    }
}

/// A loaded, validated model. Cloning shares it; any number of
/// [`crate::AnimatedShape`]s can play it at once.
#[derive(Clone, Debug)]
pub struct Model {
    list: Arc<AnimList>,
}

impl Model {
    /// An asset JSON file (the format of `assets/herc/biped.json`).
    pub fn from_json_file(path: impl AsRef<Path>) -> Result<Model, LoadError> {
        Ok(Model::from(AnimList::from_json_file(path.as_ref())?))
    }

    /// Asset JSON text; `label` names it in errors.
    pub fn from_json_str(text: &str, label: &str) -> Result<Model, LoadError> {
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            ScenarioError::new(
                label,
                format!("line {}, column {}", e.line(), e.column()),
                format!("malformed JSON: {e}"),
            )
        })?;
        Ok(Model::from(AnimList::from_json_value(&doc, label, "")?))
    }

    /// The bytes of a DTS shape (loose, or as extracted from a VOL with its entry
    /// prefix); the animation list of its first `ANShape`.
    pub fn from_dts_bytes(bytes: &[u8], label: &str) -> Result<Model, LoadError> {
        let (_, list) = DtsFile::load_anim_list(bytes, label)?;
        Ok(Model::from(list))
    }

    /// The DTS entry `entry` (`dts\BIPED.DTS`, case-insensitive; the directory may be
    /// left out) of the VOL archive at `vol`.
    pub fn from_vol(vol: impl AsRef<Path>, entry: &str) -> Result<Model, LoadError> {
        let file = vol.as_ref().display().to_string();
        let bytes =
            retroanim_core::input::read_kind(vol.as_ref(), retroanim_core::input::FileKind::Binary)
                .map_err(|e| e.at(&file))?;
        Model::from_vol_bytes(&bytes, &file, entry)
    }

    /// Like [`Model::from_vol`], from the archive's bytes; `label` names it in errors.
    pub fn from_vol_bytes(bytes: &[u8], label: &str, entry: &str) -> Result<Model, LoadError> {
        let archive = VolArchive::read(bytes, label)?;
        let e = archive.find(entry).ok_or_else(|| {
            ScenarioError::new(label, entry, format!("the archive has no entry {entry:?}"))
        })?;
        Model::from_dts_bytes(&e.content, &format!("{label}:{entry}"))
    }

    /// The animation list, for the DBSIM-shaped API ([`crate::shape_instance`],
    /// [`crate::thread`]).
    pub fn anim_list(&self) -> &AnimList {
        &self.list
    }

    /// How many nodes (parts) the model has; world matrices come one per node.
    pub fn node_count(&self) -> usize {
        self.list.nodes().len()
    }

    /// How many sequences it has (sequence ids are `0..count`).
    pub fn sequence_count(&self) -> usize {
        self.list.sequences().len()
    }

    /// The id of the sequence named `name` in the asset JSON (names are informative,
    /// DTS files carry none).
    pub fn sequence_named(&self, name: &str) -> Option<i16> {
        self.list
            .sequences()
            .iter()
            .position(|s| s.name.as_deref() == Some(name))
            .and_then(|i| i16::try_from(i).ok())
    }
}

impl From<AnimList> for Model {
    fn from(list: AnimList) -> Model {
        Model {
            list: Arc::new(list),
        }
    }
}
