//! The user's own game files, opened read-only at startup (`retroanim browse
//! --ac-dat PATH/client_portal.dat`): the DAT's directory is listed once, and only
//! decoded descriptions go out (motion table ids, the Setups naming each, figures),
//! never a record's stored bytes.

use crate::info::hex;
use retroanim_ac::inspect::drawing;
use retroanim_ac::records::dat::DatFile;
use retroanim_ac::records::{read_setup, RecordStore};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// An opened AC DAT: its path, the motion tables it holds and, for each, the Setups
/// whose default motion table it is.
pub struct AcDat {
    pub path: PathBuf,
    /// Motion table id → Setup ids naming it (sorted).
    pub tables: BTreeMap<u32, Vec<u32>>,
    pub setup_count: usize,
    /// Setups that could not be read, with the reader's located message.
    pub unreadable_setups: Vec<String>,
    store: Mutex<RecordStore>,
}

impl std::fmt::Debug for AcDat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AcDat")
            .field("path", &self.path)
            .field("tables", &self.tables.len())
            .field("setup_count", &self.setup_count)
            .finish()
    }
}

impl AcDat {
    /// Open and list `path`. The error names the file (and for a wrong file, what the
    /// header holds instead of the DAT magic).
    pub fn open(path: &Path) -> Result<AcDat, String> {
        let mut dat = DatFile::open(path).map_err(|e| e.to_string())?;
        let entries = dat.entries().map_err(|e| e.to_string())?;
        let mut tables: BTreeMap<u32, Vec<u32>> = entries
            .iter()
            .filter(|e| e.object_id >> 24 == 0x09)
            .map(|e| (e.object_id, Vec::new()))
            .collect();
        let mut setup_count = 0;
        let mut unreadable_setups = Vec::new();
        for e in entries.iter().filter(|e| e.object_id >> 24 == 0x02) {
            setup_count += 1;
            let s = dat
                .read_entry(e)
                .map_err(|x| x.to_string())
                .and_then(|b| read_setup(&b, dat.name()).map_err(|x| x.to_string()));
            match s {
                Ok(s) => {
                    if let Some(users) = tables.get_mut(&s.default_motion_table) {
                        users.push(s.id);
                    }
                }
                Err(m) => unreadable_setups.push(m),
            }
        }
        let store = RecordStore::from_dat(path).map_err(|e| e.to_string())?;
        // Absolute, so that sessions read it wherever the server was started.
        let path = path
            .canonicalize()
            .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        Ok(AcDat {
            path,
            tables,
            setup_count,
            unreadable_setups,
            store: Mutex::new(store),
        })
    }

    /// The listing the AC view shows.
    pub fn listing(&self) -> Value {
        let tables: Vec<Value> = self
            .tables
            .iter()
            .map(|(t, s)| json!({"id": hex(*t), "setups": s.iter().map(|x| hex(*x)).collect::<Vec<_>>()}))
            .collect();
        json!({
            "file": self.path.display().to_string(),
            "tables": tables,
            "setup_count": self.setup_count,
            "unreadable_setups": self.unreadable_setups.len(),
            "first_unreadable_setup": self.unreadable_setups.first(),
        })
    }

    /// The figure of Setup `setup` (any Setup naming `table` when `None`) for `table`.
    pub fn figure(&self, table: u32, setup: Option<u32>) -> Result<Value, String> {
        let users = self
            .tables
            .get(&table)
            .ok_or_else(|| format!("{}: no motion table {}", self.path.display(), hex(table)))?;
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        drawing::figure(&mut store, users, table, setup)
    }
}
