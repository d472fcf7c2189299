//! `GET /api/sessions/{id}/gltf`: the model and clips of what an AC session plays, as a
//! binary glTF 2.0 download (docs/export.md), the sidecar in the asset's `extras`.

use crate::info::hex;
use retroanim_ac::inspect::drawing;
use retroanim_ac::Loader;
use retroanim_core::Scenario;
use retroanim_gltf::ac::{Options, RootMotion};
use retroanim_gltf::{write_glb, WriteOptions};
use retroanim_session::doc::ac_dir_and_table;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The session's Setup (`setup`, else the first naming its table: in its record folder, or
/// in `dat_tables` for a session on the user's DAT) with its motion table, exported;
/// returns the file name and the bytes.
pub fn ac(
    s: &Scenario,
    setup: Option<u32>,
    dat_tables: Option<&BTreeMap<u32, Vec<u32>>>,
    root_motion: RootMotion,
    skinned: bool,
) -> Result<(String, Vec<u8>), String> {
    let (dir, table) = ac_dir_and_table(s)?;
    let (mut loader, setup) = match s.raw("asset_dat") {
        Some(Value::String(dat)) => {
            let setup = setup.or_else(|| {
                dat_tables
                    .and_then(|t| t.get(&table))
                    .and_then(|s| s.first().copied())
            });
            (Loader::from_dat(dat).map_err(|e| e.to_string())?, setup)
        }
        _ => {
            let mut loader = Loader::from_dir(dir);
            let setup = match setup {
                Some(id) => Some(id),
                None => {
                    let ids = crate::figure::setups_in_dir(Path::new(dir));
                    drawing::setup_naming(loader.store(), &ids, table)?.map(|s| s.id)
                }
            };
            (loader, setup)
        }
    };
    let scene = retroanim_gltf::ac::export(&mut loader, setup, table, &Options { root_motion })
        .map_err(|e| e.to_string())?;
    let glb = write_glb(&scene, &WriteOptions { skinned }).map_err(|e| e.to_string())?;
    let name = match setup {
        Some(id) => format!("ac-{}-{}.glb", hex(id), hex(table)),
        None => format!("ac-{}.glb", hex(table)),
    };
    Ok((name, glb))
}
