//! The engines the browser knows, and how each one is driven.
//!
//! Everything the server does with an engine goes through this table: the generic
//! `DynSimulation` loader (the same `Simulation` impl `retroanim run` uses), the
//! scenario field that names its assets, and an optional description of the assets
//! for the page's engine-specific panels.

use crate::paths::Kind;
use retroanim_core::{DynSimulation, Scenario, ScenarioError};
use serde_json::Value;
use std::path::Path;

/// Builds a live simulation from a scenario whose asset paths are already confined.
pub type LoadFn = fn(&Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError>;

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
    /// `None` while the engine is not built into this browser.
    pub load: Option<LoadFn>,
    pub info: Option<InfoFn>,
    /// The starting scenario of the view (no steps), paths relative to the engine's
    /// asset folder.
    pub default_scenario: Option<&'static str>,
}

impl EngineDef {
    pub fn built(&self) -> bool {
        self.load.is_some()
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
        load: Some(retroanim_core::sim::load_dyn::<retroanim_herc::scenario::HercSim>),
        info: Some(crate::info::herc),
        default_scenario: Some(include_str!("../scenarios/herc.json")),
    },
    EngineDef {
        name: "ac",
        asset_field: "asset_dir",
        asset_kind: Kind::Dir,
        inline_allowed: false,
        asset_default: Some("."),
        load: Some(retroanim_core::sim::load_dyn::<retroanim_ac::AcSim>),
        info: Some(crate::info::ac),
        default_scenario: Some(include_str!("../scenarios/ac.json")),
    },
    EngineDef {
        name: "actor",
        asset_field: "assets",
        asset_kind: Kind::File,
        inline_allowed: true,
        asset_default: None,
        load: Some(retroanim_core::sim::load_dyn::<retroanim_actor::scenario::ActorSim>),
        info: Some(crate::info::actor),
        default_scenario: Some(include_str!("../scenarios/actor.json")),
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
