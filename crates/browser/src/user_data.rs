//! The user's own game files, opened read-only at startup (`retroanim browse
//! --ac-dat PATH/client_portal.dat`): the DAT's directory is listed once, and only
//! decoded descriptions go out (motion table ids, the Setups naming each, figures),
//! never a record's stored bytes.

use retroanim_ac::inspect::user_dat::DatListing;
use retroanim_ac::records::dat::DatFile;
use retroanim_ac::records::RecordStore;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// An opened AC DAT: its path, the motion tables it holds and, for each, the Setups
/// whose default motion table it is (the listing the static page makes of a file
/// opened there too: [`DatListing`]).
pub struct AcDat {
    pub path: PathBuf,
    listing: DatListing,
    store: Mutex<RecordStore>,
}

impl std::fmt::Debug for AcDat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AcDat")
            .field("path", &self.path)
            .field("tables", &self.listing.tables.len())
            .field("setup_count", &self.listing.setup_count)
            .finish()
    }
}

impl AcDat {
    /// Open and list `path`. The error names the file (and for a wrong file, what the
    /// header holds instead of the DAT magic).
    pub fn open(path: &Path) -> Result<AcDat, String> {
        let mut dat = DatFile::open(path).map_err(|e| e.to_string())?;
        let listing = DatListing::read(&mut dat)?;
        let store = RecordStore::from_dat_file(dat);
        // Absolute, so that sessions read it wherever the server was started.
        let path = path
            .canonicalize()
            .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        Ok(AcDat {
            path,
            listing,
            store: Mutex::new(store),
        })
    }

    /// Motion table id → Setup ids naming it (sorted).
    pub fn tables(&self) -> &BTreeMap<u32, Vec<u32>> {
        &self.listing.tables
    }

    /// How many Setups the DAT holds.
    pub fn setup_count(&self) -> usize {
        self.listing.setup_count
    }

    /// The listing the AC view shows.
    pub fn listing(&self) -> Value {
        self.listing.to_json(&self.path.display().to_string())
    }

    /// The figure of Setup `setup` (any Setup naming `table` when `None`) for `table`.
    pub fn figure(&self, table: u32, setup: Option<u32>) -> Result<Value, String> {
        let mut store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        self.listing
            .figure(&mut store, &self.path.display().to_string(), table, setup)
    }
}
