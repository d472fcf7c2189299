//! A motion table listed for browsing (the model browser's motion-table panel, served by
//! its server and by its WebAssembly page alike): styles with their default substates,
//! cycles, modifiers and links with their clips and velocities, the names of every id the
//! command-name table knows, and the frame count of each clip the table names.

use super::drawing::{clip_ids, hex};
use crate::records::command_names::{command_id, command_name, index_name};
use crate::records::{MotionData, MotionTable, RecordStore};
use serde_json::{json, Map, Value};

/// The listing of motion table `id` from `store`: `{"table": {...}}`, with
/// `anim_frames` (clip id → frame count) for the clips the store holds.
pub fn table(store: &mut RecordStore, id: u32) -> Result<Value, String> {
    let table = store.motion_table(id).map_err(|e| e.to_string())?;
    let mut listing = ac_listing(&table);
    // Frame counts of the clips the table names, so the page can show clip lengths.
    let mut frames = Map::new();
    for a in clip_ids(&table) {
        if let Ok(anim) = store.animation(a) {
            frames.insert(hex(a), json!(anim.num_frames));
        }
    }
    listing["anim_frames"] = Value::Object(frames);
    Ok(json!({ "table": listing }))
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

    #[test]
    fn keys_decode_to_styles_and_full_motion_ids() {
        // NonCombat (0x8000003d) + WalkForward (0x45000005) -> key 0x003d0005.
        assert_eq!(style_of(0x003d_0005), Some(0x8000_003d));
        assert_eq!(full_id(0x0005), Some(0x4500_0005));
        assert_eq!(style_of(0x0000_000d), None);
    }

    #[test]
    fn the_sample_motion_table_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
        let v = table(&mut RecordStore::from_dir(dir), 0x0900_0001).unwrap();
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
        // The walk cycle's clip 0x03000102 has 30 frames.
        assert_eq!(t["anim_frames"]["0x03000102"], 30);
    }
}
