//! Engine-specific descriptions of a session's assets, for the page's extra panels:
//! HERC part and sequence names, the actor set (groups, scripts, informative vertex
//! frames), the AC motion table listing.

use retroanim_ac::inspect::table_listing;
use retroanim_ac::records::RecordStore;
use retroanim_core::Scenario;
use retroanim_session::doc::parse_id;
use serde_json::Value;
use std::path::Path;

/// Asset files larger than this are not described (the engines reject them anyway).
const MAX_ASSET_BYTES: u64 = 16 << 20;

/// Read a JSON asset given as an inline object or a confined absolute path.
fn json_asset(asset: &Value) -> Result<Value, String> {
    match asset {
        Value::Object(_) => Ok(asset.clone()),
        Value::String(path) => {
            let text = retroanim_core::input::read_text(Path::new(path), MAX_ASSET_BYTES)
                .map_err(|e| format!("cannot open asset: {}", e.reason()))?;
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

/// The AC motion table of the scenario's setup, listed for browsing
/// ([`retroanim_ac::inspect::table_listing`], shared with the WebAssembly page).
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
    table_listing::table(&mut store, id)
}

pub(crate) fn hex(id: u32) -> String {
    format!("0x{id:08x}")
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
