//! The record cache: AC worlds opened on one DAT file or one records folder share one
//! reader and the motion sets it has parsed, so a server opening a world per landblock
//! parses each motion table (and its animations) once, not once per world.
//!
//! - **Key.** A source is shared when its canonical path and its identity (device,
//!   inode, size and modification time of the DAT file or of the folder) are the same
//!   at open. A DAT replaced or rewritten since is another source, never served from
//!   the old one's cache. In a folder, a record file rewritten in place does not change
//!   the folder, so each motion set also remembers the identity of every file it was
//!   read from (its table and its animations) and is re-checked when a world first
//!   asks for it: a changed file makes the source read its records afresh.
//! - **Bound.** At most 256 motion sets (`MAX_SETS`) per source; the oldest is dropped from
//!   the cache (worlds using it keep theirs) when another is loaded. The reader keeps
//!   each record it has read once, so it holds at most the source's own records. A
//!   source lives while a world opened on it lives; the index of open sources keeps
//!   only weak references, and a source leaves it when its last world is freed.
//! - **Locks.** Loading takes the source's own reader lock (one load at a time per
//!   source, so four threads asking for one table load it once) and never a world's
//!   lock. The index of sources is locked only while a world is opened; nothing on a
//!   tick or a creature call touches it.
//! - Records given as bytes (`ra_ac_world_new_records`) and paths that cannot be
//!   resolved get a source of their own, shared with no other world, which behaves
//!   exactly as a world's own reader did before.

use crate::weak_index::WeakIndex;
use retroanim_ac::loader::LoadError;
use retroanim_ac::records::store::record_file_name;
use retroanim_ac::{Loader, MotionSet};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Motion sets one source keeps parsed at most.
pub(crate) const MAX_SETS: usize = 256;

/// Who a file is: a different value means the file was replaced or rewritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FileIdentity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
}

impl FileIdentity {
    pub(crate) fn of(path: &Path) -> Option<FileIdentity> {
        let m = std::fs::metadata(path).ok()?;
        Some(FileIdentity::from_metadata(&m))
    }

    #[cfg(unix)]
    fn from_metadata(m: &std::fs::Metadata) -> FileIdentity {
        use std::os::unix::fs::MetadataExt;
        FileIdentity {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        }
    }

    #[cfg(not(unix))]
    fn from_metadata(m: &std::fs::Metadata) -> FileIdentity {
        let mtime_ns = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i128);
        FileIdentity {
            dev: 0,
            ino: 0,
            size: m.len(),
            mtime_ns,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Dir,
    Dat,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SourceKey {
    kind: Kind,
    path: PathBuf,
    identity: FileIdentity,
}

/// A parsed motion set and, for a folder, the files it was read from as they were.
struct Cached {
    set: MotionSet,
    files: Vec<(PathBuf, Option<FileIdentity>)>,
}

/// Whether every file is still the one the set was read from.
fn unchanged(files: &[(PathBuf, Option<FileIdentity>)]) -> bool {
    files
        .iter()
        .all(|(path, was)| FileIdentity::of(path) == *was)
}

#[derive(Default)]
struct Sets {
    by_table: HashMap<u32, Cached>,
    /// Table ids in the order they were cached, oldest first.
    order: VecDeque<u32>,
}

/// One opened record source, shared by every world opened on it.
pub(crate) struct RecordSource {
    /// Its entry in the index of open sources; `None` for a private source.
    key: Option<SourceKey>,
    /// The records folder whose files are checked, for a folder source.
    dir: Option<PathBuf>,
    loader: Mutex<Loader>,
    sets: Mutex<Sets>,
    loads: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The open sources by key.
static SOURCES: WeakIndex<SourceKey, RecordSource> = WeakIndex::new();

impl RecordSource {
    fn new(key: Option<SourceKey>, dir: Option<PathBuf>, loader: Loader) -> RecordSource {
        RecordSource {
            key,
            dir,
            loader: Mutex::new(loader),
            sets: Mutex::new(Sets::default()),
            loads: AtomicU64::new(0),
        }
    }

    /// A source shared with no other world.
    pub(crate) fn private(loader: Loader) -> Arc<RecordSource> {
        Arc::new(RecordSource::new(None, None, loader))
    }

    /// The source of a records folder, shared with the worlds already open on it.
    pub(crate) fn open_dir(dir: &str) -> Arc<RecordSource> {
        let resolved = std::fs::canonicalize(dir)
            .ok()
            .and_then(|p| FileIdentity::of(&p).map(|id| (p, id)));
        let Some((path, identity)) = resolved else {
            // Reported when a table is first loaded, as it always was.
            return RecordSource::private(Loader::from_dir(dir));
        };
        let key = SourceKey {
            kind: Kind::Dir,
            path,
            identity,
        };
        // Errors keep naming the folder as the first world to open it spelled it.
        SOURCES
            .get_or_make(key.clone(), || {
                Ok::<_, Infallible>(RecordSource::new(
                    Some(key),
                    Some(PathBuf::from(dir)),
                    Loader::from_dir(dir),
                ))
            })
            .unwrap_or_else(|never| match never {})
    }

    /// The source of a DAT file, shared with the worlds already open on it.
    pub(crate) fn open_dat(path: &str) -> Result<Arc<RecordSource>, LoadError> {
        let resolved = std::fs::canonicalize(path)
            .ok()
            .and_then(|p| FileIdentity::of(&p).map(|id| (p, id)));
        let Some((canonical, identity)) = resolved else {
            return Ok(RecordSource::private(Loader::from_dat(path)?));
        };
        let key = SourceKey {
            kind: Kind::Dat,
            path: canonical,
            identity,
        };
        SOURCES.get_or_make(key.clone(), || {
            Ok(RecordSource::new(Some(key), None, Loader::from_dat(path)?))
        })
    }

    /// Motion table `id` with its animations, parsed once for every world on this source.
    pub(crate) fn motion_set(&self, id: u32) -> Result<MotionSet, LoadError> {
        if let Some(set) = self.current(id) {
            return Ok(set);
        }
        let mut loader = lock(&self.loader);
        // Another thread may have loaded it while this one waited for the reader.
        if let Some(set) = self.current(id) {
            return Ok(set);
        }
        if lock(&self.sets).by_table.contains_key(&id) {
            // A file changed under the cached set: read every record afresh.
            if let Some(dir) = &self.dir {
                *loader = Loader::from_dir(dir);
            }
            let mut sets = lock(&self.sets);
            sets.by_table.remove(&id);
            sets.order.retain(|t| *t != id);
        }
        let set = loader.load(id)?;
        self.loads.fetch_add(1, Ordering::Relaxed);
        let files = match &self.dir {
            Some(dir) => files_of(&mut loader, dir, id),
            None => Vec::new(),
        };
        // Cached before the reader is let go, so that a thread waiting for it finds
        // the set instead of loading it again.
        let mut sets = lock(&self.sets);
        if sets.order.len() >= MAX_SETS {
            if let Some(oldest) = sets.order.pop_front() {
                sets.by_table.remove(&oldest);
            }
        }
        sets.order.push_back(id);
        sets.by_table.insert(
            id,
            Cached {
                set: set.clone(),
                files,
            },
        );
        drop(sets);
        drop(loader);
        Ok(set)
    }

    /// The cached set of table `id` if its files are unchanged. The files are checked
    /// with the cache unlocked.
    fn current(&self, id: u32) -> Option<MotionSet> {
        let (set, files) = {
            let sets = lock(&self.sets);
            let c = sets.by_table.get(&id)?;
            if c.files.is_empty() {
                return Some(c.set.clone());
            }
            (c.set.clone(), c.files.clone())
        };
        unchanged(&files).then_some(set)
    }

    fn stats(&self) -> SourceStats {
        SourceStats {
            loads: self.loads.load(Ordering::Relaxed),
            cached_sets: lock(&self.sets).order.len(),
        }
    }
}

/// The files a folder's motion set was read from (its table and every animation it
/// names), with their identities now.
fn files_of(loader: &mut Loader, dir: &Path, id: u32) -> Vec<(PathBuf, Option<FileIdentity>)> {
    let mut ids = vec![id];
    if let Ok(t) = loader.store().motion_table(id) {
        let mut add = |md: &retroanim_ac::records::MotionData| {
            ids.extend(md.anims.iter().map(|a| a.anim_id));
        };
        t.cycles.iter().for_each(|(_, md)| add(md));
        t.modifiers.iter().for_each(|(_, md)| add(md));
        t.links
            .iter()
            .for_each(|(_, inner)| inner.iter().for_each(|(_, md)| add(md)));
    }
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .map(|r| {
            let path = dir.join(record_file_name(r));
            let identity = FileIdentity::of(&path);
            (path, identity)
        })
        .collect()
}

impl Drop for RecordSource {
    /// The last world on the source is gone: so is its entry in the index.
    fn drop(&mut self) {
        if let Some(key) = &self.key {
            SOURCES.forget(key);
        }
    }
}

/// What a world's record source has done (for tests and diagnostics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceStats {
    /// Motion sets parsed from the source's records since it was opened, by every
    /// world sharing it.
    pub loads: u64,
    /// Motion sets the cache holds now (at most 256).
    pub cached_sets: usize,
}

/// The record source statistics of `world`; `None` for a handle that names no world.
pub fn source_stats(world: crate::ac::RaAcWorld) -> Option<SourceStats> {
    crate::handle::with_own(&crate::ac::WORLDS, world, |w| Ok(Arc::clone(&w.records)))
        .ok()
        .map(|s| s.stats())
}

/// Whether two worlds read their records through one shared source.
pub fn same_source(a: crate::ac::RaAcWorld, b: crate::ac::RaAcWorld) -> bool {
    let source =
        |w| crate::handle::with_own(&crate::ac::WORLDS, w, |w| Ok(Arc::clone(&w.records))).ok();
    match (source(a), source(b)) {
        (Some(x), Some(y)) => Arc::ptr_eq(&x, &y),
        _ => false,
    }
}

/// The motion set `world` drives its creatures of table `table_id` with, once one was
/// added (`None` before, or for a handle that names no world). Two worlds sharing a
/// source hold the same parsed set (`Arc::ptr_eq` on its `table` and `anims`).
pub fn world_motion_set(world: crate::ac::RaAcWorld, table_id: u32) -> Option<MotionSet> {
    crate::handle::with_own(&crate::ac::WORLDS, world, |w| {
        Ok(w.tables.iter().find(|t| t.table_id() == table_id).cloned())
    })
    .ok()
    .flatten()
}

#[cfg(test)]
mod tests {
    // Listing the sample folder is the test's only direct file access; the records
    // themselves are read through core's guarded reader, as library code reads them.
    #![allow(clippy::disallowed_methods)]

    use super::*;

    /// The sample humanoid's animations and `n` copies of its motion table under the ids
    /// 0x09000001, 0x09000002, ...
    fn tables(n: u32) -> RecordSource {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
        let mut records = Vec::new();
        let mut table = None;
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            if name.starts_with("03") {
                records.push(retroanim_core::input::read_regular(&p, 1 << 20).unwrap());
            } else if name == "09000001.bin" {
                table = Some(retroanim_core::input::read_regular(&p, 1 << 20).unwrap());
            }
        }
        let table = table.unwrap();
        for k in 0..n {
            let mut t = table.clone();
            t[..4].copy_from_slice(&(0x0900_0001 + k).to_le_bytes());
            records.push(t);
        }
        let loader = Loader::from_bytes("<test>", records.iter().map(Vec::as_slice)).unwrap();
        RecordSource::new(None, None, loader)
    }

    #[test]
    fn the_cache_keeps_at_most_max_sets_and_drops_the_oldest_first() {
        let n = MAX_SETS as u32 + 1;
        let source = tables(n);
        let first = source.motion_set(0x0900_0001).unwrap();
        for k in 1..n {
            source.motion_set(0x0900_0001 + k).unwrap();
        }
        assert_eq!(
            source.stats(),
            SourceStats {
                loads: 257,
                cached_sets: 256
            }
        );
        // The second table is still cached; the first, loaded earliest, was dropped and
        // is read again (a new parse, not the set its first user still holds).
        source.motion_set(0x0900_0002).unwrap();
        assert_eq!(source.stats().loads, 257);
        let again = source.motion_set(0x0900_0001).unwrap();
        assert_eq!(source.stats().loads, 258);
        assert!(!Arc::ptr_eq(&first.table, &again.table));
        assert_eq!(source.stats().cached_sets, 256);
    }
}
