//! The checks a scenario document passes before an engine loads it, the same on both
//! transports, and the asset fields beyond an engine's main one.

use crate::error::ApiError;
use crate::session::MAX_STEPS;
use retroanim_core::Scenario;
use serde_json::{Map, Value};

/// What the document checks need to know of an engine.
#[derive(Debug, Clone, Copy)]
pub struct AssetField {
    /// The engine's name (`herc`, `ac`, `actor`).
    pub engine: &'static str,
    /// The scenario field that names the assets (`asset`, `asset_dir`, `assets`).
    pub field: &'static str,
    /// What an absent asset field means to the engine (`None`: it is required).
    pub default: Option<&'static str>,
}

/// Check a scenario document sent for `engine`: an object whose `engine`, when given,
/// is this one (it is filled in otherwise), whose `steps`, when given, are an array of
/// at most [`MAX_STEPS`], and which has the asset field (its default filled in).
/// Returns the document without its steps, and the steps. Errors are located under
/// `scenario.` in the request.
pub fn check(engine: AssetField, doc: Value) -> Result<(Map<String, Value>, Vec<Value>), ApiError> {
    let Value::Object(mut obj) = doc else {
        return Err(ApiError::bad_request(
            "scenario",
            "a scenario must be a JSON object",
        ));
    };
    match obj.get("engine") {
        None => {
            obj.insert("engine".into(), Value::String(engine.engine.into()));
        }
        Some(Value::String(s)) if s == engine.engine => {}
        Some(other) => {
            return Err(ApiError::unprocessable(
                "scenario.engine",
                format!(
                    "this view plays engine '{}' but the scenario names {other}",
                    engine.engine
                ),
            ))
        }
    }
    let steps = match obj.remove("steps") {
        None => Vec::new(),
        Some(Value::Array(a)) => a,
        Some(_) => {
            return Err(ApiError::bad_request(
                "scenario.steps",
                "expected an array of steps",
            ))
        }
    };
    if steps.len() > MAX_STEPS {
        return Err(ApiError::unprocessable(
            "scenario.steps",
            format!("too many steps ({}; at most {MAX_STEPS})", steps.len()),
        ));
    }
    if !obj.contains_key(engine.field) {
        match engine.default {
            Some(d) => {
                obj.insert(engine.field.into(), Value::String(d.into()));
            }
            None => {
                return Err(ApiError::unprocessable(
                    format!("scenario.{}", engine.field),
                    "missing field",
                ))
            }
        }
    }
    Ok((obj, steps))
}

/// The HERC mech extension's files (`setup.mech`): `vol` when it is given (`chassis`
/// and `shape` then name entries inside it and are left alone), else `chassis` and
/// `shape`. Each path given as a string becomes what `resolve` makes of it; its error
/// is located at `scenario.setup.mech.<field>`. A chassis given inline stays inline.
pub fn resolve_mech_paths(
    doc: &mut Value,
    resolve: &dyn Fn(&str) -> Result<String, String>,
) -> Result<(), ApiError> {
    let Some(Value::Object(mech)) = doc.pointer_mut("/setup/mech") else {
        return Ok(());
    };
    let fields: &[&str] = if matches!(mech.get("vol"), Some(Value::String(_))) {
        &["vol"]
    } else {
        &["chassis", "shape"]
    };
    for f in fields {
        if let Some(Value::String(rel)) = mech.get(*f) {
            let path = resolve(rel)
                .map_err(|m| ApiError::unprocessable(format!("scenario.setup.mech.{f}"), m))?;
            mech.insert((*f).to_string(), Value::String(path));
        }
    }
    Ok(())
}

/// An AC record id written as `0x` and hexadecimal digits.
pub fn parse_id(s: &str) -> Option<u32> {
    let t = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    u32::from_str_radix(t, 16).ok()
}

/// An AC session's record folder (`asset_dir`) and its setup's motion table id, which
/// the figure of the session is looked up by.
pub fn ac_dir_and_table(s: &Scenario) -> Result<(&str, u32), String> {
    let Some(Value::String(dir)) = s.raw("asset_dir") else {
        return Err("asset_dir must be a path".into());
    };
    let table = s
        .raw("setup")
        .and_then(|v| v.get("motion_table"))
        .and_then(Value::as_str)
        .and_then(parse_id)
        .ok_or("setup.motion_table must be an id such as \"0x09000001\"")?;
    Ok((dir, table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ACTOR: AssetField = AssetField {
        engine: "actor",
        field: "assets",
        default: None,
    };

    #[test]
    fn the_engine_is_filled_in_and_the_steps_taken_out() {
        let (doc, steps) = check(
            ACTOR,
            json!({"assets": "a.json", "steps": [{"op": "update"}]}),
        )
        .unwrap();
        assert_eq!(
            Value::Object(doc),
            json!({"assets": "a.json", "engine": "actor"})
        );
        assert_eq!(steps, vec![json!({"op": "update"})]);
    }

    #[test]
    fn another_engine_a_bad_steps_value_and_a_missing_asset_are_located() {
        let e = check(ACTOR, json!({"engine": "herc"})).unwrap_err();
        assert_eq!((e.status, e.at.as_str()), (422, "scenario.engine"));
        assert_eq!(
            e.message,
            "this view plays engine 'actor' but the scenario names \"herc\""
        );
        let e = check(ACTOR, json!({"assets": {}, "steps": 3})).unwrap_err();
        assert_eq!((e.status, e.at.as_str()), (400, "scenario.steps"));
        let e = check(ACTOR, json!({})).unwrap_err();
        assert_eq!((e.status, e.at.as_str()), (422, "scenario.assets"));
        let ac = AssetField {
            engine: "ac",
            field: "asset_dir",
            default: Some("."),
        };
        assert_eq!(check(ac, json!({})).unwrap().0["asset_dir"], ".");
    }

    #[test]
    fn a_vol_leaves_the_chassis_and_shape_as_entry_names() {
        let mut doc = json!({"setup": {"mech": {"vol": "m.vol", "chassis": "c", "shape": "s"}}});
        resolve_mech_paths(&mut doc, &|rel| Ok(format!("/root/{rel}"))).unwrap();
        assert_eq!(
            doc["setup"]["mech"],
            json!({"vol": "/root/m.vol", "chassis": "c", "shape": "s"})
        );
        let mut doc = json!({"setup": {"mech": {"chassis": "c.json", "shape": "s.dts"}}});
        let e = resolve_mech_paths(&mut doc, &|rel| Err(format!("no {rel}"))).unwrap_err();
        assert_eq!(e.at, "scenario.setup.mech.chassis");
        assert_eq!(e.message, "no c.json");
    }

    #[test]
    fn ids_parse_only_with_their_prefix() {
        assert_eq!(parse_id("0x09000001"), Some(0x0900_0001));
        assert_eq!(parse_id("0X1f"), Some(0x1f));
        assert_eq!(parse_id("09000001"), None);
    }
}
