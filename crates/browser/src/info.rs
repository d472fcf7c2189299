//! Engine-specific descriptions of a session's assets, for the page's extra panels:
//! HERC part and sequence names, the actor set (groups, scripts, informative vertex
//! frames), the AC motion table listing.

use serde_json::Value;
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

/// The HERC asset (D1 model) as written, including its informative `name` keys.
pub fn herc(asset: &Value) -> Result<Value, String> {
    json_asset(asset)
}

/// The actor set as written, including informative vertex frames.
pub fn actor(asset: &Value) -> Result<Value, String> {
    json_asset(asset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_assets_are_returned_as_they_are() {
        let a = json!({"nodes": [{"name": "root", "parent": -1, "rest": 0}]});
        assert_eq!(herc(&a).unwrap(), a);
        assert!(actor(&json!(3)).is_err());
        assert!(herc(&json!("/nonexistent/retroanim.json"))
            .unwrap_err()
            .starts_with("cannot open asset"));
    }
}
