//! retroanim-gltf-wasm: the model browser's glTF export for the static site
//! (`retroanim export-site`), as a WebAssembly module of its own.
//!
//! The main module (`retroanim-wasm`) runs the sessions and stays small; this one holds
//! the glTF writer and the sample assets, and the page fetches it only when a visitor
//! clicks **Export glTF**. The page hands it what it already has, the session's engine
//! and scenario document (its asset paths relative, as the main module took them), and
//! gets back the same `.glb` the server's `GET /api/sessions/{id}/gltf` answers for the
//! sample: an AC Setup with its motion table, a HERC shape with its DTS meshes, an actor
//! set. Interface: [`exports`]; [`export`] is the same call for Rust.

mod assets;
pub mod exports;

use retroanim_ac::inspect::drawing;
use retroanim_ac::records::RecordStore;
use retroanim_ac::Loader;
use retroanim_gltf::herc::HercAsset;
use retroanim_gltf::{write_glb, WriteOptions};
use retroanim_herc::inspect::meshes::{file_name, scenario_dts, scenario_materials};
use serde_json::Value;

/// The JavaScript glue that fetches the module and offers `exportGltf(id)`.
pub const GLUE_JS: &str = include_str!("../js/retroanim-gltf-wasm.js");

/// The session of `engine` playing `scenario`, exported: the download's file name and
/// the `.glb` bytes, or a sentence naming what is wrong.
pub fn export(engine: &str, scenario: &Value) -> Result<(String, Vec<u8>), String> {
    let (name, scene) = match engine {
        "ac" => ac(scenario)?,
        "herc" => {
            let asset = herc(scenario)?;
            let scene = retroanim_gltf::herc::export(&asset, &Default::default())
                .map_err(|e| e.to_string())?;
            // A shape of the visitor's ES2 folder is named `VOL:dir\\NAME.DTS`; the download is
            // named after NAME, as the server names it.
            let short = asset
                .name
                .rsplit([':', '\\', '/'])
                .next()
                .unwrap_or(&asset.name);
            let short = match short.rsplit_once('.') {
                Some((stem, ext)) if ext.eq_ignore_ascii_case("dts") => stem,
                _ => short,
            };
            (format!("herc-{short}"), scene)
        }
        "actor" => {
            let (text, label) = json_asset("actor", scenario, "assets")?;
            let asset = retroanim_gltf::actor::ActorAsset::from_json(&text, &label)
                .map_err(|e| e.to_string())?;
            let scene = retroanim_gltf::actor::export(&asset, &Default::default())
                .map_err(|e| e.to_string())?;
            (format!("actor-{}", asset.name), scene)
        }
        other => return Err(format!("engine '{other}' has no glTF export")),
    };
    let glb = write_glb(&scene, &WriteOptions::default()).map_err(|e| e.to_string())?;
    Ok((format!("{}.glb", file_safe(&name)), glb))
}

/// The scenario's JSON asset in `field`: a built-in file (its text and name) or inline.
fn json_asset(engine: &str, scenario: &Value, field: &str) -> Result<(String, String), String> {
    match scenario.get(field) {
        Some(Value::String(rel)) => {
            let path = assets::resolve(engine, rel)?;
            let bytes = assets::file(&path).unwrap_or_default();
            let text = String::from_utf8(bytes.to_vec())
                .map_err(|_| format!("built-in asset {path} is not UTF-8"))?;
            Ok((text, file_name(&path)))
        }
        Some(v @ Value::Object(_)) => Ok((v.to_string(), field.to_string())),
        _ => Err(format!(
            "scenario.{field}: expected a path relative to the asset folder, or the asset itself"
        )),
    }
}

/// The HERC shape: the asset JSON drawn by the DTS the scenario names (its mech shape, or
/// the `.dts` beside the asset file), found among the built-in files as the main module
/// finds the meshes it draws.
fn herc(scenario: &Value) -> Result<HercAsset, String> {
    let (text, label) = json_asset("herc", scenario, "asset")?;
    let mut resolved = scenario.clone();
    if let Some(Value::String(rel)) = scenario.get("asset") {
        resolved["asset"] = Value::String(assets::resolve("herc", rel)?);
    }
    retroanim_session::doc::resolve_mech_paths(&mut resolved, &|rel| assets::resolve("herc", rel))
        .map_err(|e| format!("{}: {}", e.at, e.message))?;
    let read =
        |p: &str| -> Result<Option<Vec<u8>>, String> { Ok(assets::file(p).map(<[u8]>::to_vec)) };
    let dts = scenario_dts(&resolved, &read)?;
    let materials = scenario_materials(&resolved, &read)?;
    HercAsset::from_json(
        &text,
        &label,
        dts.as_ref().map(|(b, l)| (&b[..], l.as_str())),
    )
    .map(|a| a.with_materials(&materials))
    .map_err(|e| e.to_string())
}

/// The AC Setup and motion table: the session's table, drawn by the first Setup (by id)
/// of its built-in records folder whose default table it is.
fn ac(scenario: &Value) -> Result<(String, retroanim_gltf::Scene), String> {
    let rel = match scenario.get("asset_dir") {
        None => ".",
        Some(Value::String(rel)) => rel.as_str(),
        Some(_) => return Err("scenario.asset_dir: expected a path".into()),
    };
    let dir = assets::resolve_dir("ac", rel)?;
    let table = scenario
        .pointer("/setup/motion_table")
        .and_then(Value::as_str)
        .and_then(retroanim_session::doc::parse_id)
        .ok_or("scenario.setup.motion_table must be an id such as \"0x09000001\"")?;
    let records: Vec<(u32, String, Vec<u8>)> = assets::files_in(&dir)
        .filter_map(|(name, bytes)| {
            let id = name
                .strip_suffix(".bin")
                .filter(|h| h.len() == 8)
                .and_then(|h| u32::from_str_radix(h, 16).ok())?;
            Some((id, format!("{dir}/{name}"), bytes.to_vec()))
        })
        .collect();
    let mut setups: Vec<u32> = records
        .iter()
        .map(|r| r.0)
        .filter(|id| id >> 24 == 0x02)
        .collect();
    setups.sort_unstable();
    let mut loader = Loader::from_store(RecordStore::from_bytes(records));
    let setup = drawing::setup_naming(loader.store(), &setups, table)?.map(|s| s.id);
    let scene = retroanim_gltf::ac::export(&mut loader, setup, table, &Default::default())
        .map_err(|e| e.to_string())?;
    let name = match setup {
        Some(id) => format!("ac-0x{id:08x}-0x{table:08x}"),
        None => format!("ac-0x{table:08x}"),
    };
    Ok((name, scene))
}

/// A name as a download's file name: letters, digits, `-`, `_` and `.`; others become `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}
