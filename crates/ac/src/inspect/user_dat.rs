//! A user's DAT container as the model browser lists it, on either site (`retroanim
//! browse --ac-dat` and the static page's file input): every motion table with the
//! Setups whose default table it is, and a figure of a chosen Setup. Only decoded
//! descriptions leave this module, never a record's stored bytes.

use crate::inspect::drawing;
use crate::records::dat::DatFile;
use crate::records::{read_setup, RecordStore};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The listing of one container, made once when it is opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatListing {
    /// Motion table id → Setup ids naming it (in id order).
    pub tables: BTreeMap<u32, Vec<u32>>,
    pub setup_count: usize,
    /// Setups that could not be read, each with the reader's located message.
    pub unreadable_setups: Vec<String>,
}

fn hex(id: u32) -> String {
    format!("0x{id:08x}")
}

impl DatListing {
    /// Walk the directory of `dat` and read every Setup (0x02…) for its default motion
    /// table. A directory that cannot be walked is an error; an unreadable Setup is
    /// counted and its message kept.
    pub fn read(dat: &mut DatFile) -> Result<DatListing, String> {
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
        Ok(DatListing {
            tables,
            setup_count,
            unreadable_setups,
        })
    }

    /// The JSON the AC view shows (`GET /api/ac/dat`), for the file shown as `file`.
    pub fn to_json(&self, file: &str) -> Value {
        let tables: Vec<Value> = self
            .tables
            .iter()
            .map(|(t, s)| json!({"id": hex(*t), "setups": s.iter().map(|x| hex(*x)).collect::<Vec<_>>()}))
            .collect();
        json!({
            "file": file,
            "tables": tables,
            "setup_count": self.setup_count,
            "unreadable_setups": self.unreadable_setups.len(),
            "first_unreadable_setup": self.unreadable_setups.first(),
        })
    }

    /// The figure of Setup `setup` (else the first Setup naming `table`) for `table`,
    /// read from `store` (the same container); `file` names it in errors.
    pub fn figure(
        &self,
        store: &mut RecordStore,
        file: &str,
        table: u32,
        setup: Option<u32>,
    ) -> Result<Value, String> {
        let users = self
            .tables
            .get(&table)
            .ok_or_else(|| format!("{file}: no motion table {}", hex(table)))?;
        drawing::figure(store, users, table, setup)
    }
}
