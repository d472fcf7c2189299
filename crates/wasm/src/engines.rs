//! The three engines with their assets built in: how a scenario document that names
//! bundled files becomes a live simulation without a file system.
//!
//! The JSON assets (a HERC model, a HERC chassis, an actor set) are handed to the
//! engines inline, which their scenario formats allow. The AC records folder becomes
//! an in-memory record store. Binary HERC chassis, VOL and DTS files are not offered:
//! the static page only carries the JSON samples.

use crate::embedded;
use crate::error::ApiError;
use retroanim_ac::inspect::{drawing, table_listing};
use retroanim_ac::records::RecordStore;
use retroanim_ac::scenario::Setup;
use retroanim_ac::AcSim;
use retroanim_core::{DynSimulation, Scenario, ScenarioError};
use serde_json::Value;
use std::path::PathBuf;

/// The label scenario errors carry (as in the server).
pub const SCENARIO_LABEL: &str = "scenario";

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

    pub fn load(&self, s: &Scenario) -> Result<Box<dyn DynSimulation>, ApiError> {
        (self.load)(s).map_err(|e| ApiError::from_scenario(e, "scenario"))
    }
}

/// Parse a built-in JSON file for an inline field.
fn inline_json(engine: &str, at: &str, rel: &str) -> Result<Value, ApiError> {
    let path = embedded::resolve(engine, rel, false).map_err(|m| ApiError::unprocessable(at, m))?;
    if !path.to_ascii_lowercase().ends_with(".json") {
        return Err(ApiError::unprocessable(
            at,
            format!("'{rel}' is a binary asset; the static page loads only the JSON samples"),
        ));
    }
    let bytes = embedded::file(&path).unwrap_or_default();
    serde_json::from_slice(bytes)
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
    let Some(Value::Object(mech)) = doc.pointer_mut("/setup/mech") else {
        return Ok(());
    };
    for f in ["vol", "shape"] {
        if mech.get(f).is_some_and(|v| !v.is_null()) {
            return Err(ApiError::unprocessable(
                format!("scenario.setup.mech.{f}"),
                "VOL and DTS files are not built into the static page; use the JSON chassis sample",
            ));
        }
    }
    if let Some(Value::String(rel)) = mech.get("chassis") {
        let v = inline_json("herc", "scenario.setup.mech.chassis", rel)?;
        mech.insert("chassis".into(), v);
    }
    Ok(())
}

/// What `retroanim run` does for herc: a `mech` setup is the mech extension.
fn load_herc(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
    if retroanim_herc::mech_sim::is_mech_scenario(s) {
        retroanim_core::sim::load_dyn::<retroanim_herc::mech_sim::MechSim>(s)
    } else {
        retroanim_core::sim::load_dyn::<retroanim_herc::scenario::HercSim>(s)
    }
}

fn resolve_actor(doc: &mut Value) -> Result<(), ApiError> {
    inline_field(doc, "actor", "assets")
}

/// The records folder becomes its path under `assets/` (read by [`load_ac`]).
fn resolve_ac(doc: &mut Value) -> Result<(), ApiError> {
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
    let dir: String = s.field("asset_dir")?.unwrap_or_default();
    let mut store = memory_store(&dir);
    Ok(Box::new(AcSim::load_with(s, &setup, &mut store)?))
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

/// The motion table of an AC session, listed for the page's table panel
/// (`GET /sessions/{id}/assets`), as the server lists it.
pub fn ac_table(s: &Scenario) -> Result<Value, String> {
    let (dir, table) = ac_dir_and_table(s)?;
    table_listing::table(&mut memory_store(dir), table)
}

/// The session's built-in record folder and its setup's motion table id.
fn ac_dir_and_table(s: &Scenario) -> Result<(&str, u32), String> {
    let Some(Value::String(dir)) = s.raw("asset_dir") else {
        return Err("asset_dir must be a path".into());
    };
    let table = s
        .raw("setup")
        .and_then(|v| v.get("motion_table"))
        .and_then(Value::as_str)
        .and_then(|t| t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")))
        .and_then(|t| u32::from_str_radix(t, 16).ok())
        .ok_or("setup.motion_table must be an id such as \"0x09000001\"")?;
    Ok((dir, table))
}

/// The AC creature of a session for drawing (`GET /sessions/{id}/figure`), described
/// as the server describes it: the first Setup of the built-in folder (by id) whose
/// default motion table is the session's, its meshes and the table's clip frames.
pub fn ac_figure(s: &Scenario) -> Result<Value, String> {
    let (dir, table) = ac_dir_and_table(s)?;
    let mut setups: Vec<u32> = records_in(dir)
        .map(|(id, _, _)| id)
        .filter(|id| id >> 24 == 0x02)
        .collect();
    setups.sort_unstable();
    let mut store = memory_store(dir);
    drawing::figure(&mut store, &setups, table, None)
}
