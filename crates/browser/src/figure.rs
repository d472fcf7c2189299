//! The AC figure of a session, for drawing: described by
//! [`retroanim_ac::inspect::drawing`] (shared with the WebAssembly page) from the
//! session's record folder, where the Setup naming the motion table is looked for.

use crate::info::hex;
use retroanim_ac::inspect::drawing;
use retroanim_ac::records::RecordStore;
use retroanim_core::Scenario;
use retroanim_session::doc::ac_dir_and_table;
use serde_json::{json, Value};
use std::path::Path;

/// At most this many Setup records are looked at to find the one naming the table
/// (a record folder is small; this bounds the work on a large one).
const MAX_SETUPS_SCANNED: usize = 4096;

/// Setup ids in a record folder (`02xxxxxx.bin`), sorted.
pub(crate) fn setups_in_dir(dir: &Path) -> Vec<u32> {
    let mut ids: Vec<u32> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_SETUPS_SCANNED * 16)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".bin")?;
            if stem.len() != 8 || !stem.starts_with("02") {
                return None;
            }
            u32::from_str_radix(stem, 16).ok()
        })
        .collect();
    ids.sort_unstable();
    ids.truncate(MAX_SETUPS_SCANNED);
    ids
}

/// The figure of an AC session whose assets are a record folder.
pub fn ac(s: &Scenario) -> Result<Value, String> {
    let (dir, table) = ac_dir_and_table(s)?;
    if let Some(Value::String(_)) = s.raw("asset_dat") {
        // A DAT holds thousands of Setups: the page picks one from the DAT listing
        // (`GET /api/ac/dat/figure`) rather than having every one read here.
        return Ok(json!({
            "motion_table": hex(table),
            "setup": null,
            "reason": "the session plays a motion table of the user's DAT: choose a Setup from the DAT list",
        }));
    }
    let mut store = RecordStore::from_dir(dir);
    drawing::figure(&mut store, &setups_in_dir(Path::new(dir)), table, None)
}
