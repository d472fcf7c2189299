//! The record store: loads MotionTable and Animation records by id, lazily, and
//! caches them. Sources: a directory of `<id as 8 lowercase hex>.bin` files
//! (`<id>.bin` files), records held in memory, or a DAT container.
//!
//! A failed load caches nothing and changes nothing already loaded.

use super::dat::DatFile;
use super::error::RecordError;
use super::reader::{read_animation, read_motion_table};
use super::types::{Animation, MotionTable};
use retroanim_core::input::{self, FileKind};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

enum Source {
    Dir(PathBuf),
    Memory,
    /// Stored records by id, each with the name its errors report.
    Bytes(HashMap<u32, (String, Vec<u8>)>),
    Dat(Box<DatFile>),
}

/// Records by id, loaded on first use.
pub struct RecordStore {
    source: Source,
    tables: HashMap<u32, Arc<MotionTable>>,
    anims: HashMap<u32, Arc<Animation>>,
    /// The last record file the guarded reader refused: its id, the file name its
    /// error carries and why (naming the path), so that a scenario can report it at
    /// the field that named the folder.
    unreadable: Option<(u32, String, String)>,
}

/// The file name a record has in a record directory: `09000e00.bin`.
pub fn record_file_name(id: u32) -> String {
    format!("{id:08x}.bin")
}

impl RecordStore {
    /// Records stored one per file as `<dir>/<id as 8 lowercase hex>.bin`.
    pub fn from_dir(dir: impl Into<PathBuf>) -> RecordStore {
        RecordStore::with_source(Source::Dir(dir.into()))
    }

    /// Records already in memory (tests, tools); ids not given here are not found.
    pub fn from_records(
        tables: impl IntoIterator<Item = MotionTable>,
        anims: impl IntoIterator<Item = Animation>,
    ) -> RecordStore {
        let mut s = RecordStore::with_source(Source::Memory);
        for t in tables {
            s.tables.insert(t.id, Arc::new(t));
        }
        for a in anims {
            s.anims.insert(a.id, Arc::new(a));
        }
        s
    }

    /// Records as stored bytes held in memory, read on demand like files (a build with
    /// no file system, such as the WebAssembly page): `(id, name for errors, bytes)`.
    pub fn from_bytes(records: impl IntoIterator<Item = (u32, String, Vec<u8>)>) -> RecordStore {
        let map = records
            .into_iter()
            .map(|(id, name, bytes)| (id, (name, bytes)))
            .collect();
        RecordStore::with_source(Source::Bytes(map))
    }

    /// Records inside a DAT container such as the user's own `client_portal.dat`.
    /// Opens the file and checks its header; records are read on demand.
    pub fn from_dat(path: impl AsRef<Path>) -> Result<RecordStore, RecordError> {
        let dat = DatFile::open(path.as_ref())?;
        Ok(RecordStore::from_dat_file(dat))
    }

    /// Records inside a container already open (one read through
    /// [`DatFile::from_source`], such as a file of the WebAssembly page's user).
    pub fn from_dat_file(dat: DatFile) -> RecordStore {
        RecordStore::with_source(Source::Dat(Box::new(dat)))
    }

    fn with_source(source: Source) -> RecordStore {
        RecordStore {
            source,
            tables: HashMap::new(),
            anims: HashMap::new(),
            unreadable: None,
        }
    }

    /// The raw bytes of record `id` and the file name to report errors with.
    pub fn raw(&mut self, id: u32) -> Result<(Vec<u8>, String), RecordError> {
        match &mut self.source {
            Source::Dir(dir) => {
                let path = dir.join(record_file_name(id));
                let file = path.display().to_string();
                match input::read_kind(&path, FileKind::Record) {
                    Ok(bytes) => Ok((bytes, file)),
                    Err(e) if e.is_not_found() => Err(RecordError::NotFound { file, id }),
                    Err(e) => {
                        let file = input::printable(&file);
                        self.unreadable = Some((id, file.clone(), e.naming(&path)));
                        Err(RecordError::Container {
                            file,
                            message: e.to_string(),
                        })
                    }
                }
            }
            Source::Memory => Err(RecordError::NotFound {
                file: "<memory>".to_string(),
                id,
            }),
            Source::Bytes(map) => match map.get(&id) {
                Some((name, bytes)) => Ok((bytes.clone(), name.clone())),
                None => Err(RecordError::NotFound {
                    file: "<memory>".to_string(),
                    id,
                }),
            },
            Source::Dat(dat) => {
                let bytes = dat.read_record(id)?;
                Ok((bytes, dat.name().to_string()))
            }
        }
    }

    /// The record file the last refused read could not read (a FIFO, a device, a
    /// directory, a file over [`input::MAX_RECORD_BYTES`]...): its id, the file name
    /// its error carries, and the reason naming the path. A scenario reports it at
    /// `asset_dir`.
    pub fn unreadable(&self) -> Option<(u32, &str, &str)> {
        self.unreadable
            .as_ref()
            .map(|(id, file, why)| (*id, file.as_str(), why.as_str()))
    }

    /// MotionTable `id`; an unknown id is [`RecordError::NotFound`].
    pub fn motion_table(&mut self, id: u32) -> Result<Arc<MotionTable>, RecordError> {
        if let Some(t) = self.tables.get(&id) {
            return Ok(Arc::clone(t));
        }
        let (bytes, file) = self.raw(id)?;
        let t = read_motion_table(&bytes, &file)?;
        check_id(&file, id, t.id)?;
        let t = Arc::new(t);
        self.tables.insert(id, Arc::clone(&t));
        Ok(t)
    }

    /// Animation `id`; an unknown id is [`RecordError::NotFound`].
    pub fn animation(&mut self, id: u32) -> Result<Arc<Animation>, RecordError> {
        if let Some(a) = self.anims.get(&id) {
            return Ok(Arc::clone(a));
        }
        let (bytes, file) = self.raw(id)?;
        let a = read_animation(&bytes, &file)?;
        check_id(&file, id, a.id)?;
        let a = Arc::new(a);
        self.anims.insert(id, Arc::clone(&a));
        Ok(a)
    }

    /// `DatDatabase.ReadFromDat` for a MotionTable: an absent id yields (and caches) a
    /// default-constructed, empty table (Q55); malformed records are still errors.
    pub fn motion_table_or_empty(&mut self, id: u32) -> Result<Arc<MotionTable>, RecordError> {
        match self.motion_table(id) {
            Err(RecordError::NotFound { .. }) => {
                let t = Arc::new(MotionTable::default());
                self.tables.insert(id, Arc::clone(&t));
                Ok(t)
            }
            other => other,
        }
    }

    /// `DatDatabase.ReadFromDat` for an Animation: an absent id yields (and caches) an
    /// empty animation with id 0 and no frames (Q55); malformed records are still errors.
    pub fn animation_or_empty(&mut self, id: u32) -> Result<Arc<Animation>, RecordError> {
        match self.animation(id) {
            Err(RecordError::NotFound { .. }) => {
                let a = Arc::new(Animation::default());
                self.anims.insert(id, Arc::clone(&a));
                Ok(a)
            }
            other => other,
        }
    }
}

fn check_id(file: &str, wanted: u32, found: u32) -> Result<(), RecordError> {
    if wanted == found {
        Ok(())
    } else {
        Err(RecordError::Malformed {
            file: file.to_string(),
            id: Some(found),
            offset: 0,
            message: format!(
                "asked for record 0x{wanted:08x} but the record's id is 0x{found:08x}"
            ),
        })
    }
}
