//! The model cache: HERC shapes made from one model file (a JSON asset, or one entry of
//! a VOL archive) share one parsed model instead of reading and parsing the file once
//! per shape.
//!
//! The key is the file's canonical path, its identity (device, inode, size and
//! modification time) and the VOL entry, so a file changed since is read again. A
//! model lives as long as a shape made from it; the index keeps weak references only,
//! so it holds no model no shape uses. It is locked only while a shape is being made,
//! and the file is read and parsed with it unlocked.

use crate::record_cache::FileIdentity;
use crate::weak_index::WeakIndex;
use retroanim_herc::model::LoadError;
use retroanim_herc::Model;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ModelKey {
    path: PathBuf,
    identity: FileIdentity,
    /// The VOL entry; `None` for a JSON asset.
    entry: Option<String>,
}

/// One parsed model file, shared by the shapes made from it.
pub(crate) struct SharedModel {
    key: Option<ModelKey>,
    pub(crate) model: Model,
}

static MODELS: WeakIndex<ModelKey, SharedModel> = WeakIndex::new();

impl Drop for SharedModel {
    fn drop(&mut self) {
        if let Some(key) = &self.key {
            MODELS.forget(key);
        }
    }
}

/// The model of `path` (the entry `entry` of a VOL archive, or a JSON asset when
/// `entry` is `None`), parsed once for every live shape made from the same file.
pub(crate) fn load(path: &str, entry: Option<&str>) -> Result<Arc<SharedModel>, LoadError> {
    let read = || match entry {
        Some(e) => Model::from_vol(path, e),
        None => Model::from_json_file(path),
    };
    let resolved = std::fs::canonicalize(path)
        .ok()
        .and_then(|p| FileIdentity::of(&p).map(|id| (p, id)));
    let Some((canonical, identity)) = resolved else {
        // Reported by the reader, naming the path as given.
        return Ok(Arc::new(SharedModel {
            key: None,
            model: read()?,
        }));
    };
    let key = ModelKey {
        path: canonical,
        identity,
        entry: entry.map(str::to_owned),
    };
    MODELS.get_or_make(key.clone(), || {
        Ok(SharedModel {
            key: Some(key),
            model: read()?,
        })
    })
}
