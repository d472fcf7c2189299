//! `retroanim inspect` for actor sets: the set as the loader resolved it (reference
//! ranges of the RAAN table, every group command with its patched frame pair, scripts,
//! actors and their storage), as text or JSON.

use crate::load::{load_set, CELL};
use crate::ragr::Cmd;
use crate::resources::{ActorSet, ScriptCmd};
use retroanim_core::input::{self, FileKind};
use retroanim_core::ScenarioError;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// True for a JSON file whose top level looks like an actor set (`map` and `actors`).
pub fn recognises(path: &Path) -> bool {
    if path.extension().and_then(|e| e.to_str()) != Some("json") {
        return false;
    }
    let Ok(text) = input::read_text_kind(path, FileKind::Whole) else {
        return false;
    };
    serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v.as_object().cloned())
        .is_some_and(|o| o.contains_key("map") && o.contains_key("actors"))
}

/// Load and describe an actor set file; a fault is reported with the file and JSON path.
pub fn inspect_file(path: &Path, as_json: bool) -> Result<String, ScenarioError> {
    let file = path.display().to_string();
    let text = input::read_text_kind(path, FileKind::Whole).map_err(|e| e.at(&file))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        ScenarioError::new(
            &file,
            format!("line {}, column {}", e.line(), e.column()),
            "malformed JSON",
        )
    })?;
    let set = load_set(&value).map_err(|f| {
        ScenarioError::new(
            &file,
            f.at.clone(),
            format!("{}: {}", f.kind.name(), f.message),
        )
    })?;
    if as_json {
        Ok(format!("{:#}\n", describe_json(&set)))
    } else {
        Ok(describe_text(&set, &file))
    }
}

fn cmd_text(c: &Cmd) -> String {
    match *c {
        Cmd::ShowFrame { handle, index } => format!("show_frame ({handle}, {index})"),
        Cmd::BreakPoint => "break_point".into(),
        Cmd::GoToPrevious { target } => format!("go_to_previous {target}"),
        Cmd::GoToFuture { target } => format!("go_to_future {target}"),
        Cmd::EndAnimation => "end_animation".into(),
    }
}

fn cmd_json(c: &Cmd) -> Value {
    match *c {
        Cmd::ShowFrame { handle, index } => {
            json!({"op": "show_frame", "frame": [handle, index]})
        }
        Cmd::BreakPoint => json!({"op": "break_point"}),
        Cmd::GoToPrevious { target } => json!({"op": "go_to_previous", "target": target}),
        Cmd::GoToFuture { target } => json!({"op": "go_to_future", "target": target}),
        Cmd::EndAnimation => json!({"op": "end_animation"}),
    }
}

fn script_text(c: &ScriptCmd) -> String {
    match *c {
        ScriptCmd::PushAnimation { group, count } => format!("push_animation({group}, {count})"),
        ScriptCmd::End { target } => format!("end({target})"),
    }
}

/// The text rendering.
pub fn describe_text(set: &ActorSet, file: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "actor set {file}: map {} x {} cells ({} x {} units)",
        set.width,
        set.height,
        set.width * CELL,
        set.height * CELL
    );
    for m in &set.models {
        let _ = writeln!(
            s,
            "model {}: RAAN table of {} frames",
            m.name,
            m.raan.total_frames()
        );
        let mut base = 0u64;
        for e in &m.raan.entries {
            if e.frames == 0 {
                let _ = writeln!(s, "  (model {} contributes no frames)", e.model);
            } else {
                let _ = writeln!(
                    s,
                    "  refs {}-{} -> model {} frames 0-{}",
                    base,
                    base.saturating_add(e.frames - 1),
                    e.model,
                    e.frames - 1
                );
            }
            base = base.saturating_add(e.frames);
        }
        for g in m.groups() {
            let _ = writeln!(
                s,
                "  group {} header 0x{:04X} (frame countdown {}), {} commands",
                g.number,
                g.header,
                g.low_byte(),
                g.len
            );
            for (i, c) in m.commands(g).iter().enumerate() {
                let _ = writeln!(s, "    {i:>3} {}", cmd_text(c));
            }
        }
    }
    for sc in &set.scripts {
        let _ = writeln!(s, "script {}: {} commands", sc.name, sc.cmds.len());
        for (i, c) in sc.cmds.iter().enumerate() {
            let _ = writeln!(s, "  {i:>3} {}", script_text(c));
        }
    }
    for a in &set.actors {
        let storage = if a.activation == 0 {
            "map cell".to_string()
        } else {
            format!("persistent list (activation {})", a.activation)
        };
        let model = a
            .model
            .map_or("none (no animation state)", |i| set.models[i].name.as_str());
        let script = a.script.map_or("none", |i| set.scripts[i].name.as_str());
        let _ = writeln!(
            s,
            "actor {}: pos ({}, {}) cell ({}, {}), {storage}, attr113 {} attr44 {}, model {model}, script {script}{}{}",
            a.id,
            a.pos[0],
            a.pos[1],
            a.pos[0].div_euclid(CELL),
            a.pos[1].div_euclid(CELL),
            a.attr113,
            a.attr44,
            if a.static_model { ", static model" } else { "" },
            a.walk
                .map(|w| format!(", walks ({}, {}) per tick", w[0], w[1]))
                .unwrap_or_default(),
        );
    }
    s
}

/// The JSON rendering: the resolved set.
pub fn describe_json(set: &ActorSet) -> Value {
    json!({
        "map": {"width": set.width, "height": set.height},
        "models": set.models.iter().map(|m| json!({
            "name": m.name,
            "total_frames": m.raan.total_frames(),
            "raan": m.raan.entries.iter().map(|e| json!({"model": e.model, "frames": e.frames})).collect::<Vec<_>>(),
            "groups": m.groups().iter().map(|g| json!({
                "group": g.number,
                "header": g.header,
                "countdown": g.low_byte(),
                "commands": m.commands(g).iter().map(cmd_json).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "scripts": set.scripts.iter().map(|sc| json!({
            "name": sc.name,
            "commands": sc.cmds.iter().map(|c| match *c {
                ScriptCmd::PushAnimation { group, count } => json!({"op": "push_animation", "group": group, "count": count}),
                ScriptCmd::End { target } => json!({"op": "end", "target": target}),
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "actors": set.actors.iter().map(|a| json!({
            "id": a.id,
            "pos": a.pos,
            "cell": [a.pos[0].div_euclid(CELL), a.pos[1].div_euclid(CELL)],
            "activation": a.activation,
            "storage": if a.activation == 0 { "map_cell" } else { "persistent" },
            "attr113": a.attr113,
            "attr44": a.attr44,
            "model": a.model.map(|i| set.models[i].name.clone()),
            "script": a.script.map(|i| set.scripts[i].name.clone()),
            "static_model": a.static_model,
            "walk": a.walk,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/actor/flag2.json")
    }

    #[test]
    fn sample_set_is_recognised_and_described() {
        assert!(recognises(&sample()));
        assert!(!recognises(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("Cargo.toml")
                .as_path()
        ));
        let text = inspect_file(&sample(), false).unwrap();
        assert!(text.contains("refs 4-6 -> model 41 frames 0-2"), "{text}");
        assert!(text.contains("group 10 header 0x0202 (frame countdown 2), 6 commands"));
        assert!(text.contains("  1 push_animation(10, 1)"));
        let v: Value = serde_json::from_str(&inspect_file(&sample(), true).unwrap()).unwrap();
        assert_eq!(
            v["models"][0]["groups"][2]["commands"][1],
            json!({"op": "show_frame", "frame": [41, 0]})
        );
    }

    #[test]
    fn broken_set_reports_file_and_json_path() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/assets");
        let e = inspect_file(&dir.join("load_bad_target.json"), false).unwrap_err();
        assert_eq!(e.at, "models[0].groups[1].commands[1].target");
        assert!(e.message.starts_with("bad_target"), "{}", e.message);
    }
}
