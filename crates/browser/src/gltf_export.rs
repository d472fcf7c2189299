//! `GET /api/sessions/{id}/gltf`: the model and clips of what a session plays (an AC
//! Setup and motion table, a HERC shape, an actor set), as a binary glTF 2.0 download
//! (docs/export.md), the sidecar in the asset's `extras`.

use crate::info::hex;
use retroanim_ac::inspect::drawing;
use retroanim_ac::Loader;
use retroanim_core::input::{self, FileKind};
use retroanim_core::Scenario;
use retroanim_gltf::ac::{Options, RootMotion};
use retroanim_gltf::actor::ActorAsset;
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

/// The shape a herc session plays ([`crate::es2::session_shape`]: an ES2 shape, or the
/// asset JSON drawn by its DTS), exported with one clip per sequence.
pub fn herc(
    s: &Scenario,
    es2: Option<&crate::es2::Es2Folder>,
    root_motion: retroanim_gltf::herc::RootMotion,
    skinned: bool,
) -> Result<(String, Vec<u8>), String> {
    let asset = crate::es2::session_shape(s, es2)?;
    let options = retroanim_gltf::herc::Options {
        root_motion,
        ..Default::default()
    };
    let scene = retroanim_gltf::herc::export(&asset, &options).map_err(|e| e.to_string())?;
    let glb = write_glb(&scene, &WriteOptions { skinned }).map_err(|e| e.to_string())?;
    Ok((format!("herc-{}.glb", file_safe(&asset.name)), glb))
}

/// The actor set a session plays (its `assets`: a file, or inline), exported with one
/// clip per RAGR group.
pub fn actor(s: &Scenario, skinned: bool) -> Result<(String, Vec<u8>), String> {
    let (text, label) = match s.raw("assets") {
        Some(Value::String(rel)) => {
            let path = s.resolve(rel);
            let text =
                input::read_text_kind(&path, FileKind::JsonAsset).map_err(|e| e.naming(&path))?;
            let label = Path::new(rel)
                .file_name()
                .map_or_else(|| rel.clone(), |n| n.to_string_lossy().into_owned());
            (text, label)
        }
        Some(v @ Value::Object(_)) => (v.to_string(), "actor".to_string()),
        _ => return Err("expected a path or an actor set object".into()),
    };
    let asset = ActorAsset::from_json(&text, &label).map_err(|e| e.to_string())?;
    let scene =
        retroanim_gltf::actor::export(&asset, &Default::default()).map_err(|e| e.to_string())?;
    let glb = write_glb(&scene, &WriteOptions { skinned }).map_err(|e| e.to_string())?;
    Ok((format!("actor-{}.glb", file_safe(&asset.name)), glb))
}

/// A name as a download's file name: letters, digits, `-`, `_` and `.`; others become `_`.
fn file_safe(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "shape".into()
    } else {
        s
    }
}
