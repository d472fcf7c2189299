//! The engines the browser knows, and how each one is driven.
//!
//! Everything the server does with an engine goes through this table: the generic
//! `DynSimulation` loader (the same `Simulation` impl `retroanim run` uses), the
//! scenario field that names its assets, and an optional description of the assets
//! for the page's engine-specific panels.

use crate::error::ApiError;
use crate::paths::{self, Kind};
use retroanim_core::{DynSimulation, Scenario, ScenarioError};
use retroanim_session::doc::{resolve_mech_paths, AssetField};
use serde_json::Value;
use std::path::Path;

/// Builds a live simulation from a scenario whose asset paths are already confined.
pub use retroanim_session::session::LoadFn;

/// Confines asset paths an engine reads from other scenario fields than its main
/// asset field (the herc mech extension's chassis, VOL and DTS); edits the document
/// the engine will load. Errors are located in the request body.
pub type ExtraPathsFn = fn(&mut Value, &Path) -> Result<(), ApiError>;

/// Describes a session's assets for the page (part names, motion tables, frames).
/// Gets the session's scenario with its asset field already confined (an absolute
/// path string or an inline object).
pub type InfoFn = fn(&Scenario) -> Result<Value, String>;

/// One engine.
pub struct EngineDef {
    pub name: &'static str,
    /// The scenario field that names the assets (`asset`, `asset_dir`, `assets`).
    pub asset_field: &'static str,
    /// What a path in that field names.
    pub asset_kind: Kind,
    /// Whether the field may hold the asset itself as an inline JSON object.
    pub inline_allowed: bool,
    /// What an absent asset field means to the engine (`None`: it is required).
    pub asset_default: Option<&'static str>,
    /// Other path-valued scenario fields the engine reads.
    pub extra_paths: Option<ExtraPathsFn>,
    /// `None` while the engine is not built into this browser.
    pub load: Option<LoadFn>,
    pub info: Option<InfoFn>,
    /// The starting scenario of the view (no steps), paths relative to the engine's
    /// asset folder.
    pub default_scenario: Option<&'static str>,
    /// Other built-in starting points the view offers, by name.
    pub more_scenarios: &'static [(&'static str, &'static str)],
}

impl EngineDef {
    pub fn built(&self) -> bool {
        self.load.is_some()
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

/// The three engines, in tab order.
pub static ENGINES: [EngineDef; 3] = [
    EngineDef {
        name: "herc",
        asset_field: "asset",
        asset_kind: Kind::File,
        inline_allowed: true,
        asset_default: None,
        extra_paths: Some(herc_mech_paths),
        load: Some(load_herc),
        info: Some(crate::info::herc),
        default_scenario: Some(include_str!("../scenarios/herc.json")),
        more_scenarios: &[("mech", include_str!("../scenarios/herc_mech.json"))],
    },
    EngineDef {
        name: "ac",
        asset_field: "asset_dir",
        asset_kind: Kind::Dir,
        inline_allowed: false,
        asset_default: Some("."),
        extra_paths: None,
        load: Some(retroanim_core::sim::load_dyn::<retroanim_ac::AcSim>),
        info: Some(crate::info::ac),
        default_scenario: Some(include_str!("../scenarios/ac.json")),
        more_scenarios: &[("world", include_str!("../scenarios/ac_world.json"))],
    },
    EngineDef {
        name: "actor",
        asset_field: "assets",
        asset_kind: Kind::File,
        inline_allowed: true,
        asset_default: None,
        extra_paths: None,
        load: Some(retroanim_core::sim::load_dyn::<retroanim_actor::scenario::ActorSim>),
        info: Some(crate::info::actor),
        default_scenario: Some(include_str!("../scenarios/actor.json")),
        more_scenarios: &[],
    },
];

/// Look an engine up by name.
pub fn find(table: &'static [EngineDef], name: &str) -> Option<&'static EngineDef> {
    table.iter().find(|e| e.name == name)
}

/// The engine's asset folder under the assets root.
pub fn folder(root: &Path, engine: &EngineDef) -> std::path::PathBuf {
    root.join(engine.name)
}

/// What `retroanim run` does for herc (`retroanim_herc::run`): a scenario whose setup
/// has a `mech` block is the three-thread mech extension, any other the conformance
/// runner.
fn load_herc(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
    if retroanim_herc::mech_scenario::is_mech_scenario(s) {
        retroanim_core::sim::load_dyn::<retroanim_herc::mech_scenario::MechSim>(s)
    } else {
        retroanim_core::sim::load_dyn::<retroanim_herc::scenario::HercSim>(s)
    }
}

/// The mech extension's files, confined to the engine's folder
/// ([`retroanim_session::doc::resolve_mech_paths`] says which fields are paths).
fn herc_mech_paths(doc: &mut Value, folder: &Path) -> Result<(), ApiError> {
    Ok(resolve_mech_paths(doc, &|rel| {
        paths::confine(folder, rel, Kind::File).map(|p| p.display().to_string())
    })?)
}
