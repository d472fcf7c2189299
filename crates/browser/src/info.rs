//! Engine-specific descriptions of a session's assets, for the page's extra panels:
//! HERC part and sequence names, the actor set (groups, scripts, informative vertex
//! frames), the AC motion table listing.

use retroanim_ac::records::command_names::{command_id, command_name, index_name};
use retroanim_ac::records::{MotionData, MotionTable, RecordStore};
use retroanim_core::Scenario;
use serde_json::{json, Map, Value};
use std::io::Read;

/// Asset files larger than this are not described (the engines reject them anyway).
const MAX_ASSET_BYTES: u64 = 16 << 20;

/// Read a JSON asset given as an inline object or a confined absolute path.
fn json_asset(asset: &Value) -> Result<Value, String> {
    match asset {
        Value::Object(_) => Ok(asset.clone()),
        Value::String(path) => {
            let f = std::fs::File::open(path).map_err(|e| format!("cannot open asset: {e}"))?;
            let mut text = String::new();
            f.take(MAX_ASSET_BYTES + 1)
                .read_to_string(&mut text)
                .map_err(|e| format!("cannot read asset: {e}"))?;
            if text.len() as u64 > MAX_ASSET_BYTES {
                return Err(format!("asset larger than {MAX_ASSET_BYTES} bytes"));
            }
            serde_json::from_str(&text).map_err(|e| format!("asset is not valid JSON: {e}"))
        }
        _ => Err("the asset must be a path or an inline object".into()),
    }
}

fn field<'a>(s: &'a Scenario, name: &str) -> Result<&'a Value, String> {
    s.raw(name)
        .ok_or_else(|| format!("the scenario has no '{name}'"))
}

/// The HERC asset (D1 model) as written, including its informative `name` keys.
pub fn herc(s: &Scenario) -> Result<Value, String> {
    json_asset(field(s, "asset")?)
}

/// The actor set as written, including informative vertex frames and group names.
pub fn actor(s: &Scenario) -> Result<Value, String> {
    json_asset(field(s, "assets")?)
}

/// The AC motion table of the scenario's setup, listed for browsing: styles, cycles,
/// modifiers and links with their animation clips, plus the names of every id.
pub fn ac(s: &Scenario) -> Result<Value, String> {
    let id = field(s, "setup")?
        .get("motion_table")
        .and_then(Value::as_str)
        .and_then(parse_id)
        .ok_or("setup.motion_table must be an id such as \"0x09000001\"")?;
    let mut store = match s.raw("asset_dat") {
        Some(Value::String(dat)) => RecordStore::from_dat(dat).map_err(|e| e.to_string())?,
        _ => {
            let Value::String(dir) = field(s, "asset_dir")? else {
                return Err("asset_dir must be a path".into());
            };
            RecordStore::from_dir(dir)
        }
    };
    let table = store.motion_table(id).map_err(|e| e.to_string())?;
    let mut listing = ac_listing(&table);
    // Frame counts of the clips the table names, so the page can show clip lengths.
    let mut frames = Map::new();
    let mut ids: Vec<u32> = all_data(&table)
        .flat_map(|d| d.anims.iter().map(|a| a.anim_id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    for a in ids {
        if let Ok(anim) = store.animation(a) {
            frames.insert(hex(a), json!(anim.num_frames));
        }
    }
    listing["anim_frames"] = Value::Object(frames);
    Ok(json!({ "table": listing }))
}

pub(crate) fn parse_id(s: &str) -> Option<u32> {
    let t = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    u32::from_str_radix(t, 16).ok()
}

pub(crate) fn hex(id: u32) -> String {
    format!("0x{id:08x}")
}

pub(crate) fn all_data(t: &MotionTable) -> impl Iterator<Item = &MotionData> {
    t.cycles
        .iter()
        .map(|(_, d)| d)
        .chain(t.modifiers.iter().map(|(_, d)| d))
        .chain(t.links.iter().flat_map(|(_, l)| l.iter().map(|(_, d)| d)))
}

/// A table key keeps only a command's low 24 bits; the full id (class bits included)
/// is recovered from the command-name table of `retroanim-ac`, when it names it.
fn full_id(index: u32) -> Option<u32> {
    index_name(index).and_then(command_id)
}

/// Style ids are `0x8000_0000 | low16`; keys keep the low 16 bits in their top half.
fn style_of(key: u32) -> Option<u32> {
    match key >> 16 {
        0 => None,
        low => Some(0x8000_0000 | low),
    }
}

fn data_json(d: &MotionData) -> Value {
    json!({
        "bitfield": d.bitfield,
        "flags": d.flags,
        "anims": d.anims.iter().map(|a| json!({
            "anim_id": hex(a.anim_id),
            "low_frame": a.low_frame,
            "high_frame": a.high_frame,
            "framerate": a.framerate,
        })).collect::<Vec<_>>(),
        "velocity": [d.velocity.x, d.velocity.y, d.velocity.z],
        "omega": [d.omega.x, d.omega.y, d.omega.z],
    })
}

fn ac_listing(t: &MotionTable) -> Value {
    let opt = |v: Option<u32>| v.map(hex);
    let mut names = Map::new();
    let mut name = |id: Option<u32>| {
        if let Some(id) = id {
            if let Some(n) = command_name(id) {
                names.insert(hex(id), json!(n));
            }
        }
    };
    name(Some(t.default_style));
    let styles: Vec<Value> = t
        .style_defaults
        .iter()
        .map(|(st, sub)| {
            name(Some(*st));
            name(Some(*sub));
            json!({"style": hex(*st), "default_substate": hex(*sub)})
        })
        .collect();
    let keyed = |key: u32, d: &MotionData, name: &mut dyn FnMut(Option<u32>)| {
        let motion = full_id(key & 0xFFFF);
        name(style_of(key));
        name(motion);
        json!({"key": hex(key), "style": opt(style_of(key)), "motion": opt(motion), "data": data_json(d)})
    };
    let cycles: Vec<Value> = t
        .cycles
        .iter()
        .map(|(k, d)| keyed(*k, d, &mut name))
        .collect();
    let modifiers: Vec<Value> = t
        .modifiers
        .iter()
        .map(|(k, d)| keyed(*k, d, &mut name))
        .collect();
    let mut links = Vec::new();
    for (outer, inner) in &t.links {
        let from = match outer & 0xFFFF {
            0 => None,
            i => full_id(i),
        };
        name(style_of(*outer));
        name(from);
        for (to, d) in inner {
            name(Some(*to));
            links.push(json!({
                "outer": hex(*outer),
                "style": opt(style_of(*outer)),
                "from": opt(from),
                "to": hex(*to),
                "data": data_json(d),
            }));
        }
    }
    json!({
        "id": hex(t.id),
        "default_style": hex(t.default_style),
        "styles": styles,
        "cycles": cycles,
        "modifiers": modifiers,
        "links": links,
        "names": names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scenario(doc: Value) -> Scenario {
        Scenario::from_value(doc, "s", std::path::PathBuf::from(".")).unwrap()
    }

    #[test]
    fn inline_assets_are_returned_as_they_are() {
        let a = json!({"nodes": [{"name": "root", "parent": -1, "rest": 0}]});
        assert_eq!(
            herc(&scenario(json!({"engine": "herc", "asset": a}))).unwrap(),
            a
        );
        assert!(actor(&scenario(json!({"engine": "actor", "assets": 3}))).is_err());
        assert!(herc(&scenario(
            json!({"engine": "herc", "asset": "/nonexistent/retroanim.json"})
        ))
        .unwrap_err()
        .starts_with("cannot open asset"));
    }

    #[test]
    fn ac_keys_decode_to_styles_and_full_motion_ids() {
        // NonCombat (0x8000003d) + WalkForward (0x45000005) -> key 0x003d0005.
        assert_eq!(style_of(0x003d_0005), Some(0x8000_003d));
        assert_eq!(full_id(0x0005), Some(0x4500_0005));
        assert_eq!(style_of(0x0000_000d), None);
        assert_eq!(parse_id("0x09000001"), Some(0x0900_0001));
        assert_eq!(parse_id("09000001"), None);
    }

    #[test]
    fn the_sample_motion_table_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
        let s = scenario(
            json!({"engine": "ac", "asset_dir": dir.display().to_string(),
                                "setup": {"motion_table": "0x09000001"}}),
        );
        let v = ac(&s).unwrap();
        let t = &v["table"];
        assert_eq!(t["id"], "0x09000001");
        assert_eq!(t["default_style"], "0x8000003d");
        assert_eq!(t["names"]["0x8000003d"], "NonCombat");
        assert!(t["cycles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["motion"] == "0x45000005" && c["style"] == "0x8000003d"));
        assert!(t["links"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["to"] == "0x13000087"));
    }
}
