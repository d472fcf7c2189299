//! The three engines with their assets built in: how a scenario document that names
//! bundled files becomes a live simulation without a file system.
//!
//! The JSON assets (a HERC model, an actor set) are handed to the engines inline, which
//! their scenario formats allow. The HERC mech extension's files (chassis, VOL, DTS;
//! binary or JSON) are read from the built-in assets through
//! [`MechSim::load_with`](retroanim_herc::mech_scenario::MechSim::load_with). The AC records
//! folder becomes an in-memory record store.

use crate::embedded;
use crate::error::ApiError;
use crate::session::Session;
use crate::user_files::{self, USER_DAT};
use retroanim_ac::inspect::{drawing, table_listing};
use retroanim_ac::motion_table::MotionTableData;
use retroanim_ac::records::RecordStore;
use retroanim_ac::scenario::{load_table, MissingAnimations, Setup};
use retroanim_ac::sequence::AnimMap;
use retroanim_ac::AcSim;
use retroanim_core::{DynSimulation, Scenario, ScenarioError};
use retroanim_herc::inspect::meshes::scenario_meshes;
use retroanim_session::doc::{ac_dir_and_table, resolve_mech_paths, AssetField};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

pub use retroanim_session::SCENARIO_LABEL;

/// One engine of the page.
pub struct Engine {
    pub name: &'static str,
    /// The scenario field that names the assets.
    pub asset_field: &'static str,
    /// What an absent asset field means (`None`: it is required).
    pub asset_default: Option<&'static str>,
    /// The browser's starting scenario (file name among the embedded starts).
    pub start: &'static str,
    /// Other starting points by name.
    pub more: &'static [(&'static str, &'static str)],
    /// Replace the document's asset paths by what the engine can load in memory.
    resolve: fn(&mut Value) -> Result<(), ApiError>,
    load: fn(&Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError>,
}

pub static ENGINES: [Engine; 3] = [
    Engine {
        name: "herc",
        asset_field: "asset",
        asset_default: None,
        start: "herc.json",
        more: &[("mech", "herc_mech.json")],
        resolve: resolve_herc,
        load: load_herc,
    },
    Engine {
        name: "ac",
        asset_field: "asset_dir",
        asset_default: Some("."),
        start: "ac.json",
        more: &[("world", "ac_world.json")],
        resolve: resolve_ac,
        load: load_ac,
    },
    Engine {
        name: "actor",
        asset_field: "assets",
        asset_default: None,
        start: "actor.json",
        more: &[],
        resolve: resolve_actor,
        load: retroanim_core::sim::load_dyn::<retroanim_actor::scenario::ActorSim>,
    },
];

pub fn find(name: &str) -> Option<&'static Engine> {
    ENGINES.iter().find(|e| e.name == name)
}

impl Engine {
    /// Check `doc` (an object with the asset field present) and build the scenario the
    /// engine loads. Errors are located under `scenario.` in the request.
    pub fn scenario(&self, doc: &Value) -> Result<Scenario, ApiError> {
        let mut resolved = doc.clone();
        (self.resolve)(&mut resolved)?;
        // No file system: a path the resolution above left alone cannot be opened.
        Scenario::from_value(resolved, SCENARIO_LABEL, PathBuf::from("/.no-file-system"))
            .map_err(|e| ApiError::from_scenario(e, "scenario"))
    }

    /// Start a session of this engine on a checked document and its scenario.
    pub fn start(&'static self, doc: Value, scenario: Scenario) -> Result<Session, ApiError> {
        Session::start(self, self.load, doc, scenario)
    }

    /// What the shared scenario checks need of the engine.
    pub fn checked_field(&self) -> AssetField {
        AssetField {
            engine: self.name,
            field: self.asset_field,
            default: self.asset_default,
        }
    }
}

/// Parse a built-in JSON file for an inline field.
fn inline_json(engine: &str, at: &str, rel: &str) -> Result<Value, ApiError> {
    let path = embedded::resolve(engine, rel, false).map_err(|m| ApiError::unprocessable(at, m))?;
    if !path.to_ascii_lowercase().ends_with(".json") {
        return Err(ApiError::unprocessable(
            at,
            format!(
                "'{rel}' is not a JSON file; this field takes a JSON asset (or the asset inline)"
            ),
        ));
    }
    serde_json::from_str(embedded::text(&path).unwrap_or_default())
        .map_err(|e| ApiError::unprocessable(at, format!("built-in asset {path} is not JSON: {e}")))
}

/// Inline the asset field when it is a path; an inline object is kept.
fn inline_field(doc: &mut Value, engine: &str, field: &str) -> Result<(), ApiError> {
    let at = format!("scenario.{field}");
    match doc.get(field) {
        Some(Value::String(rel)) => {
            let v = inline_json(engine, &at, rel)?;
            doc[field] = v;
            Ok(())
        }
        Some(Value::Object(_)) => Ok(()),
        Some(_) => Err(ApiError::unprocessable(
            at,
            "expected a path relative to the asset folder, or the asset itself as an object",
        )),
        None => Err(ApiError::unprocessable(at, "missing field")),
    }
}

fn resolve_herc(doc: &mut Value) -> Result<(), ApiError> {
    inline_field(doc, "herc", "asset")?;
    herc_mech_paths(doc)
}

/// The mech extension's files become their paths under `assets/` (read by
/// [`load_herc`] through [`built_in_file`]), as the server confines them
/// ([`resolve_mech_paths`] says which fields are paths).
fn herc_mech_paths(doc: &mut Value) -> Result<(), ApiError> {
    resolve_mech_paths(doc, &|rel| embedded::resolve("herc", rel, false))
}

/// A built-in file by the path [`herc_mech_paths`] gave it (its errors name that path).
fn built_in_file(path: &str) -> Result<(Vec<u8>, String), String> {
    embedded::file(path)
        .map(|b| (b.to_vec(), path.to_string()))
        .ok_or_else(|| format!("no file '{path}' among the assets built into this page"))
}

/// What `retroanim run` does for herc: a `mech` setup is the mech extension (its
/// chassis, VOL and DTS files read from the built-in assets).
fn load_herc(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
    if retroanim_herc::mech_scenario::is_mech_scenario(s) {
        Ok(Box::new(retroanim_herc::mech_scenario::MechSim::load_with(
            s,
            &built_in_file,
        )?))
    } else {
        retroanim_core::sim::load_dyn::<retroanim_herc::scenario::HercSim>(s)
    }
}

/// The DTS meshes a herc session draws (`GET /sessions/{id}/meshes`), found and described
/// as the server does ([`scenario_meshes`]) among the built-in files: the mech
/// extension's `setup.mech.shape` (loose or in `setup.mech.vol`), else the `.dts` beside
/// the JSON asset file (`biped.json` → `biped.dts`). `doc` is the session's document as
/// given (its paths relative).
pub fn herc_meshes(doc: &Value) -> Result<Value, ApiError> {
    if let Some(m) = user_files::es2_meshes(doc) {
        return m.map_err(|m| ApiError::unprocessable("asset_es2", m));
    }
    let mut resolved = doc.clone();
    if let Some(Value::String(rel)) = doc.get("asset") {
        let path = embedded::resolve("herc", rel, false)
            .map_err(|m| ApiError::unprocessable("scenario.asset", m))?;
        resolved["asset"] = Value::String(path);
    }
    herc_mech_paths(&mut resolved)?;
    scenario_meshes(&resolved, &|p| Ok(embedded::file(p).map(<[u8]>::to_vec)))
        .map_err(|m| ApiError::unprocessable("asset", m))
}

fn resolve_actor(doc: &mut Value) -> Result<(), ApiError> {
    inline_field(doc, "actor", "assets")
}

/// The records folder becomes its path under `assets/` (read by [`load_ac`]); an
/// `asset_dat` may only be `"user"`, the DAT the page's user opened.
fn resolve_ac(doc: &mut Value) -> Result<(), ApiError> {
    match doc.get("asset_dat") {
        None => {}
        Some(Value::String(s)) if s == USER_DAT => {}
        Some(_) => {
            return Err(ApiError::unprocessable(
                "scenario.asset_dat",
                format!("expected \"{USER_DAT}\" (the DAT opened in the page); the page reads no other file"),
            ))
        }
    }
    let at = "scenario.asset_dir";
    let Some(Value::String(rel)) = doc.get("asset_dir") else {
        return Err(ApiError::unprocessable(
            at,
            "expected a path relative to the asset folder",
        ));
    };
    let dir = embedded::resolve("ac", rel, true).map_err(|m| ApiError::unprocessable(at, m))?;
    doc["asset_dir"] = Value::String(dir);
    Ok(())
}

/// [`AcSim`]'s own loading ([`AcSim::load_with`]: the same checks and the same
/// several-object setup as `retroanim run`) with the records of the built-in folder in
/// memory: every `<id as 8 hex digits>.bin` file there, read on demand.
fn load_ac(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
    let setup: Setup = s
        .field("setup")?
        .ok_or_else(|| s.error("setup", "missing field"))?;
    let mut store = store_of(s).map_err(|m| s.error("asset_dat", m))?;
    Ok(Box::new(AcSim::load_with(s, &setup, &mut store)?))
}

/// The records of an AC scenario: the user's DAT for `asset_dat: "user"`, else the
/// built-in folder of `asset_dir`.
fn store_of(s: &Scenario) -> Result<RecordStore, String> {
    if s.raw("asset_dat").is_some() {
        return user_files::store();
    }
    let dir = match s.raw("asset_dir") {
        Some(Value::String(d)) => d.as_str(),
        _ => "",
    };
    Ok(memory_store(dir))
}

/// The built-in record folder `dir` as a record store (errors name `dir/<file>`).
fn memory_store(dir: &str) -> RecordStore {
    RecordStore::from_bytes(
        records_in(dir).map(|(id, name, bytes)| (id, format!("{dir}/{name}"), bytes.to_vec())),
    )
}

/// The ids of the records in built-in folder `dir` (`<id as 8 hex digits>.bin`), with
/// their file names and bytes.
fn records_in(dir: &str) -> impl Iterator<Item = (u32, &'static str, &'static [u8])> + '_ {
    embedded::files_in(dir).filter_map(|(name, bytes)| {
        let id = name
            .strip_suffix(".bin")
            .filter(|h| h.len() == 8)
            .and_then(|h| u32::from_str_radix(h, 16).ok())?;
        Some((id, name, bytes))
    })
}

/// The sample humanoid's motion table (`assets/ac/records/09000001.bin`) and its
/// animations, for the page's `retroanim bench ac` world: the same table the native bench
/// compiles from its bundled source (the two checksums agree), read from the built-in
/// records so that the module carries no authoring compiler.
pub fn bench_table() -> Result<(Arc<MotionTableData>, AnimMap), String> {
    load_table(
        &mut memory_store(BENCH_RECORDS),
        BENCH_TABLE,
        MissingAnimations::Error,
    )
    .map_err(|e| e.to_string())
}

/// Where the sample humanoid's records are built in, and its motion table's id.
const BENCH_RECORDS: &str = "ac/records";
const BENCH_TABLE: u32 = 0x0900_0001;

/// The motion table of an AC session, listed for the page's table panel
/// (`GET /sessions/{id}/assets`), as the server lists it.
pub fn ac_table(s: &Scenario) -> Result<Value, String> {
    let (_, table) = ac_dir_and_table(s)?;
    table_listing::table(&mut store_of(s)?, table)
}

/// The AC creature of a session for drawing (`GET /sessions/{id}/figure`), described
/// as the server describes it: the first Setup of the built-in folder (by id) whose
/// default motion table is the session's, its meshes and the table's clip frames.
pub fn ac_figure(s: &Scenario) -> Result<Value, String> {
    let (dir, table) = ac_dir_and_table(s)?;
    if s.raw("asset_dat").is_some() {
        // As on the server: the page picks a Setup from the DAT listing
        // (`GET /ac/dat/figure`) rather than having every one read here.
        return Ok(serde_json::json!({
            "motion_table": format!("0x{table:08x}"),
            "setup": null,
            "reason": "the session plays a motion table of the user's DAT: choose a Setup from the DAT list",
        }));
    }
    let mut setups: Vec<u32> = records_in(dir)
        .map(|(id, _, _)| id)
        .filter(|id| id >> 24 == 0x02)
        .collect();
    setups.sort_unstable();
    let mut store = memory_store(dir);
    drawing::figure(&mut store, &setups, table, None)
}
