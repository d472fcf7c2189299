//! Loading a motion table together with every animation it can play, from a record
//! folder, a DAT container or record bytes held in memory.
//!
//! A creature needs both halves: the table decides which animations to queue, the
//! animations hold the part frames and hooks. Loading them as one [`MotionSet`] means a
//! missing animation is found when the table is loaded, not in the middle of a tick.

use crate::motion_table::MotionTableData;
use crate::records::reader::{read_animation, read_motion_table};
use crate::records::{MotionTable, RecordError, RecordStore};
use crate::sequence::AnimMap;
use retroanim_core::ScenarioError;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// What a missing animation id becomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingAnimations {
    /// Refuse the table, naming it and the missing id (default).
    #[default]
    Error,
    /// ACE's DAT cache behaviour: an empty animation (quirk Q13).
    Empty,
}

/// Why a motion table could not be loaded. Every variant names the file, the record
/// id and, for malformed bytes, the byte offset inside the record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The motion table itself is absent, malformed or unreadable.
    #[error("{0}")]
    Table(RecordError),
    /// An animation the table names is absent, malformed or unreadable.
    #[error("{source} (animation named by motion table 0x{table:08x})")]
    Animation {
        /// The motion table that names the animation.
        table: u32,
        source: RecordError,
    },
}

impl LoadError {
    /// The underlying record error.
    pub fn record_error(&self) -> &RecordError {
        match self {
            LoadError::Table(e) | LoadError::Animation { source: e, .. } => e,
        }
    }
}

/// A motion table and the animations it references, ready to drive any number of
/// creatures (cloning shares the data).
#[derive(Clone)]
pub struct MotionSet {
    /// The table in the form the motion table manager reads.
    pub table: Arc<MotionTableData>,
    /// Every animation the table can make the sequence play.
    pub anims: Arc<AnimMap>,
}

impl MotionSet {
    /// The motion table's id (`0x09……`).
    pub fn table_id(&self) -> u32 {
        self.table.id()
    }

    /// How many distinct animations were loaded.
    pub fn animation_count(&self) -> usize {
        self.anims.len()
    }
}

/// Loads [`MotionSet`]s from one record source, caching records between loads.
pub struct Loader {
    store: RecordStore,
    missing: MissingAnimations,
}

impl Loader {
    /// Records stored one per file as `<dir>/<id as 8 lowercase hex>.bin`.
    pub fn from_dir(dir: impl AsRef<Path>) -> Loader {
        Loader::from_store(RecordStore::from_dir(dir.as_ref()))
    }

    /// Records inside a DAT container such as the user's own `client_portal.dat`.
    pub fn from_dat(path: impl AsRef<Path>) -> Result<Loader, LoadError> {
        RecordStore::from_dat(path)
            .map(Loader::from_store)
            .map_err(LoadError::Table)
    }

    /// Records given as bytes: each is a MotionTable (`0x09……`) or an Animation
    /// (`0x03……`), told apart by the id in its first four bytes; GfxObj (`0x01……`),
    /// Setup (`0x02……`) and texture records (`0x04……`, `0x05……`, `0x06……`, and
    /// Surfaces, whose first word is a type with a zero top byte) are passed over. `label` names the
    /// source in errors (e.g. the archive they came from); the first bad record fails
    /// the whole call.
    pub fn from_bytes<'a>(
        label: &str,
        records: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<Loader, LoadError> {
        let mut tables = Vec::new();
        let mut anims = Vec::new();
        for (i, bytes) in records.into_iter().enumerate() {
            let file = format!("{label} #{i}");
            match bytes.get(..4) {
                Some(head) if head[3] == 0x09 => {
                    tables.push(read_motion_table(bytes, &file).map_err(LoadError::Table)?)
                }
                Some(head) if head[3] == 0x03 => {
                    anims.push(read_animation(bytes, &file).map_err(LoadError::Table)?)
                }
                // GfxObj, Setup and texture records (Palette, SurfaceTexture,
                // RenderSurface) sit beside the motion records in a record folder or DAT;
                // a motion set does not need them, so they are passed over. A Surface
                // (0x08……) starts with its type word, not its id; no id has a zero top
                // byte, so such bytes are taken for a Surface and passed over too.
                Some(head) if matches!(head[3], 0x00 | 0x01 | 0x02 | 0x04 | 0x05 | 0x06) => {}
                Some(head) => {
                    let id = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
                    return Err(LoadError::Table(RecordError::Malformed {
                        file,
                        id: Some(id),
                        offset: 0,
                        message: "neither a MotionTable (0x09……) nor an Animation (0x03……)"
                            .to_string(),
                    }));
                }
                None => {
                    return Err(LoadError::Table(RecordError::Malformed {
                        file,
                        id: None,
                        offset: 0,
                        message: format!("{} bytes cannot hold a record id", bytes.len()),
                    }))
                }
            }
        }
        Ok(Loader::from_store(RecordStore::from_records(tables, anims)))
    }

    /// Records from an already built store.
    pub fn from_store(store: RecordStore) -> Loader {
        Loader {
            store,
            missing: MissingAnimations::Error,
        }
    }

    /// Choose what a missing animation becomes (default: an error).
    pub fn missing_animations(mut self, missing: MissingAnimations) -> Loader {
        self.missing = missing;
        self
    }

    /// Load motion table `id` and every animation it references. A failed load leaves
    /// the records already cached untouched.
    pub fn load(&mut self, id: u32) -> Result<MotionSet, LoadError> {
        let (table, anims) = load_parts(&mut self.store, id, self.missing)?;
        Ok(MotionSet {
            table,
            anims: Arc::new(anims),
        })
    }

    /// The record store underneath, for reading other records by id.
    pub fn store(&mut self) -> &mut RecordStore {
        &mut self.store
    }
}

/// The table and its animations as the scenario runner builds its object from them.
pub(crate) fn load_parts(
    store: &mut RecordStore,
    id: u32,
    missing: MissingAnimations,
) -> Result<(Arc<MotionTableData>, AnimMap), LoadError> {
    let table = store.motion_table(id).map_err(LoadError::Table)?;
    let mut anims = AnimMap::new();
    for aid in referenced_animations(&table) {
        let a = match missing {
            MissingAnimations::Error => store.animation(aid),
            MissingAnimations::Empty => store.animation_or_empty(aid),
        }
        .map_err(|source| LoadError::Animation { table: id, source })?;
        anims.insert_as(aid, a);
    }
    Ok((Arc::new(MotionTableData::from(table.as_ref())), anims))
}

/// Scenario errors keep the record's file, id and offset in their location.
impl From<LoadError> for ScenarioError {
    fn from(e: LoadError) -> ScenarioError {
        match e {
            LoadError::Table(e) => ScenarioError::from(e),
            LoadError::Animation { table, source } => {
                let mut se = ScenarioError::from(source);
                se.message = format!(
                    "{} (animation named by motion table 0x{table:08x})",
                    se.message
                );
                se
            }
        }
    }
}

/// Every animation id a table can make the sequence play.
fn referenced_animations(t: &MotionTable) -> BTreeSet<u32> {
    let mut ids = BTreeSet::new();
    let mut add = |md: &crate::records::MotionData| {
        for a in &md.anims {
            ids.insert(a.anim_id);
        }
    };
    t.cycles.iter().for_each(|(_, md)| add(md));
    t.modifiers.iter().for_each(|(_, md)| add(md));
    t.links
        .iter()
        .for_each(|(_, inner)| inner.iter().for_each(|(_, md)| add(md)));
    ids
}
