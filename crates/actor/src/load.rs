//! Reading and validating an actor set (format and load checks in docs/actor.md). Loading builds
//! a new [`ActorSet`] or returns the first fault; nothing existing is touched, so a
//! failed load changes nothing.

use crate::error::{FaultKind, LoadFault};
use crate::raan::{RaanEntry, RaanTable, REF_MAX};
use crate::ragr::decode_group;
use crate::resources::{ActorFlags, ActorSet, ActorSpec, ModelTable, Script, ScriptCmd};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

/// Map sizes the format allows, in cells per axis.
pub const MAP_MIN: i64 = 18;
pub const MAP_MAX: i64 = 4096;
/// World units per map cell.
pub const CELL: i64 = 512;

#[derive(Deserialize)]
struct SetDoc {
    map: MapDoc,
    #[serde(default)]
    models: Vec<ModelDoc>,
    #[serde(default)]
    scripts: Vec<ScriptDoc>,
    actors: Vec<ActorDoc>,
}

#[derive(Deserialize)]
struct MapDoc {
    width: i64,
    height: i64,
}

#[derive(Deserialize)]
struct ModelDoc {
    name: String,
    raan: Vec<RaanDoc>,
    groups: Vec<GroupDoc>,
}

#[derive(Deserialize)]
struct RaanDoc {
    model: u64,
    frames: u64,
}

#[derive(Deserialize)]
struct GroupDoc {
    group: u8,
    header: u16,
    commands: Vec<Value>,
}

#[derive(Deserialize)]
struct ScriptDoc {
    name: String,
    commands: Vec<Value>,
}

#[derive(Deserialize)]
struct ActorDoc {
    id: String,
    pos: [i64; 2],
    #[serde(default)]
    activation: u8,
    #[serde(default)]
    attr113: u8,
    #[serde(default)]
    attr44: u8,
    #[serde(default)]
    state_default: Option<u8>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    script: Option<String>,
    #[serde(default)]
    static_model: bool,
    #[serde(default)]
    walk: Option<[i64; 2]>,
    #[serde(default)]
    flags: FlagsDoc,
}

#[derive(Deserialize, Default)]
struct FlagsDoc {
    #[serde(default)]
    excluded: bool,
    #[serde(default)]
    anim_update_excluded: bool,
    #[serde(default)]
    script_suppressed: bool,
}

/// Read and validate an actor set given as JSON.
pub fn load_set(value: &Value) -> Result<ActorSet, LoadFault> {
    // A fault of the set as a whole (not an object, a missing top-level field) has no
    // path of its own: it is located at `(root)`.
    let doc: SetDoc = retroanim_core::scenario::from_value_at(value, "", "").map_err(|e| {
        let at = if e.at.is_empty() {
            "(root)".to_string()
        } else {
            e.at
        };
        LoadFault::new(FaultKind::BadValue, at, e.message)
    })?;
    for (axis, v) in [("width", doc.map.width), ("height", doc.map.height)] {
        if !(MAP_MIN..=MAP_MAX).contains(&v) {
            return Err(LoadFault::new(
                FaultKind::BadValue,
                format!("map.{axis}"),
                format!("{v} cells is outside {MAP_MIN} … {MAP_MAX}"),
            ));
        }
    }
    let models = load_models(&doc.models)?;
    let scripts = load_scripts(&doc.scripts)?;
    let actors = load_actors(&doc, &models, &scripts)?;
    Ok(ActorSet {
        width: doc.map.width,
        height: doc.map.height,
        models,
        scripts,
        actors,
    })
}

/// The concatenated frame table must fit the 2^20 frames a 20-bit `ShowFrame`
/// reference can address (A1; limit in docs/limits.md): frames past that could never
/// be shown, and counts near 2^64 would wrap every range computed from them.
fn check_frame_table(raan: &RaanTable, at: &str) -> Result<(), LoadFault> {
    let mut total = 0u64;
    for (i, e) in raan.entries.iter().enumerate() {
        total = total.saturating_add(e.frames);
        if total > REF_MAX + 1 {
            return Err(LoadFault::new(
                FaultKind::BadValue,
                format!("{at}.raan[{i}].frames"),
                format!(
                    "entry {i} (model {}, {} frames) brings the frame table past the {} frames \
                     a 20-bit show_frame reference can address",
                    e.model,
                    e.frames,
                    REF_MAX + 1
                ),
            ));
        }
    }
    Ok(())
}

fn load_models(docs: &[ModelDoc]) -> Result<Vec<ModelTable>, LoadFault> {
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut models = Vec::with_capacity(docs.len());
    for (mi, m) in docs.iter().enumerate() {
        let at = format!("models[{mi}]");
        if names.insert(m.name.as_str(), mi).is_some() {
            return Err(LoadFault::new(
                FaultKind::DuplicateName,
                format!("{at}.name"),
                format!("model name '{}' is used twice", m.name),
            )
            .in_model(&m.name));
        }
        let raan = RaanTable {
            entries: m
                .raan
                .iter()
                .map(|e| RaanEntry {
                    model: e.model,
                    frames: e.frames,
                })
                .collect(),
        };
        check_frame_table(&raan, &at).map_err(|f| f.in_model(&m.name))?;
        let mut model = ModelTable::new(m.name.clone(), raan);
        for (gi, g) in m.groups.iter().enumerate() {
            let gat = format!("{at}.groups[{gi}]");
            let cmds = decode_group(g.group, &g.commands, &model.raan, &gat)
                .map_err(|f| f.in_model(&m.name))?;
            if !model.add_group(g.group, g.header, &cmds) {
                return Err(LoadFault::new(
                    FaultKind::DuplicateName,
                    format!("{gat}.group"),
                    format!("group {} is defined twice", g.group),
                )
                .in_model(&m.name)
                .in_group(g.group, None));
            }
        }
        models.push(model);
    }
    Ok(models)
}

fn load_scripts(docs: &[ScriptDoc]) -> Result<Vec<Script>, LoadFault> {
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut scripts = Vec::with_capacity(docs.len());
    for (si, s) in docs.iter().enumerate() {
        let at = format!("scripts[{si}]");
        let fault = |path: String, command: Option<usize>, msg: String| {
            let mut f = LoadFault::new(FaultKind::BadScript, path, msg).in_model(&s.name);
            f.command = command;
            f
        };
        if names.insert(s.name.as_str(), si).is_some() {
            return Err(LoadFault::new(
                FaultKind::DuplicateName,
                format!("{at}.name"),
                format!("script name '{}' is used twice", s.name),
            )
            .in_model(&s.name));
        }
        let n = s.commands.len();
        if n == 0 || n > u16::MAX as usize {
            return Err(fault(
                format!("{at}.commands"),
                None,
                format!("{n} commands; a script needs 1 … {}", u16::MAX),
            ));
        }
        let mut cmds = Vec::with_capacity(n);
        for (ci, raw) in s.commands.iter().enumerate() {
            let cat = format!("{at}.commands[{ci}]");
            let byte = |key: &str| {
                raw.get(key)
                    .and_then(Value::as_u64)
                    .filter(|v| *v <= 255)
                    .map(|v| v as u8)
                    .ok_or_else(|| {
                        fault(
                            format!("{cat}.{key}"),
                            Some(ci),
                            format!("{key} must be an integer 0 … 255"),
                        )
                    })
            };
            let cmd = match raw.get("op").and_then(Value::as_str) {
                Some("push_animation") => ScriptCmd::PushAnimation {
                    group: byte("group")?,
                    count: byte("count")?,
                },
                Some("end") => {
                    let t = raw
                        .get("target")
                        .and_then(Value::as_u64)
                        .filter(|t| *t < n as u64);
                    match t {
                        Some(t) => ScriptCmd::End { target: t as u16 },
                        None => {
                            return Err(fault(
                                format!("{cat}.target"),
                                Some(ci),
                                format!("end target must be a command index 0 … {}", n - 1),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(fault(
                        format!("{cat}.op"),
                        Some(ci),
                        "script commands are push_animation and end".to_string(),
                    ))
                }
            };
            cmds.push(cmd);
        }
        if !matches!(cmds.last(), Some(ScriptCmd::End { .. })) {
            return Err(fault(
                format!("{at}.commands[{}]", n - 1),
                Some(n - 1),
                "a script's last command must be end".to_string(),
            ));
        }
        scripts.push(Script {
            name: s.name.clone(),
            cmds,
        });
    }
    Ok(scripts)
}

fn load_actors(
    doc: &SetDoc,
    models: &[ModelTable],
    scripts: &[Script],
) -> Result<Vec<ActorSpec>, LoadFault> {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut actors = Vec::with_capacity(doc.actors.len());
    for (ai, a) in doc.actors.iter().enumerate() {
        let at = format!("actors[{ai}]");
        if ids.insert(a.id.as_str(), ai).is_some() {
            return Err(LoadFault::new(
                FaultKind::DuplicateName,
                format!("{at}.id"),
                format!("actor id '{}' is used twice", a.id),
            ));
        }
        let limits = [doc.map.width * CELL, doc.map.height * CELL];
        for (axis, &limit) in limits.iter().enumerate() {
            if !(0..limit).contains(&a.pos[axis]) {
                return Err(LoadFault::new(
                    FaultKind::PositionOffMap,
                    format!("{at}.pos[{axis}]"),
                    format!("{} is outside the map (0 … {})", a.pos[axis], limit - 1),
                ));
            }
        }
        let model = match &a.model {
            None => None,
            Some(name) => match models.iter().position(|m| &m.name == name) {
                Some(i) => Some(i),
                None => {
                    return Err(LoadFault::new(
                        FaultKind::UnknownModel,
                        format!("{at}.model"),
                        format!("no model named '{name}'"),
                    )
                    .in_model(name))
                }
            },
        };
        let script = match &a.script {
            None => None,
            Some(name) => match scripts.iter().position(|s| &s.name == name) {
                Some(i) => Some(i),
                None => {
                    return Err(LoadFault::new(
                        FaultKind::UnknownScript,
                        format!("{at}.script"),
                        format!("no script named '{name}'"),
                    )
                    .in_model(name))
                }
            },
        };
        actors.push(ActorSpec {
            id: a.id.clone(),
            pos: a.pos,
            activation: a.activation,
            attr113: a.attr113,
            attr44: a.attr44,
            state_default: a.state_default,
            model,
            script,
            static_model: a.static_model,
            walk: a.walk,
            flags: ActorFlags {
                excluded: a.flags.excluded,
                anim_update_excluded: a.flags.anim_update_excluded,
                script_suppressed: a.flags.script_suppressed,
            },
        });
    }
    Ok(actors)
}
