//! The frame table limit (docs/limits.md, actor section): a RAAN table must fit the
//! 2^20 frames a 20-bit `show_frame` reference addresses (A1).

use retroanim_actor::error::FaultKind;
use retroanim_actor::inspect::inspect_file;
use retroanim_actor::load::load_set;
use serde_json::{json, Value};

fn set_with_raan(raan: Value) -> Value {
    json!({"map": {"width": 18, "height": 18},
        "models": [{"name": "big", "raan": raan,
                    "groups": [{"group": 0, "header": 1, "commands": [
                        {"op": "show_frame", "ref": 0}, {"op": "end_animation"}]}]}],
        "actors": []})
}

#[test]
fn a01_a_frame_count_of_2_pow_64_minus_1_is_refused_naming_the_entry() {
    let f = load_set(&set_with_raan(json!([{"model": 3, "frames": 2},
                                           {"model": 4, "frames": u64::MAX}])))
    .unwrap_err();
    assert_eq!(f.kind, FaultKind::BadValue);
    assert_eq!(f.at, "models[0].raan[1].frames");
    assert_eq!(
        f.to_string(),
        "models[0].raan[1].frames: bad_value in 'big': entry 1 (model 4, 18446744073709551615 \
         frames) brings the frame table past the 1048576 frames a 20-bit show_frame reference \
         can address"
    );
}

#[test]
fn a01_the_table_may_hold_exactly_2_pow_20_frames_and_no_more() {
    let ok = load_set(&set_with_raan(json!([{"model": 3, "frames": 1_048_000},
                                            {"model": 4, "frames": 576}])));
    assert!(ok.is_ok());
    let f = load_set(&set_with_raan(json!([{"model": 3, "frames": 1_048_000},
                                           {"model": 4, "frames": 577}])))
    .unwrap_err();
    assert_eq!(f.at, "models[0].raan[1].frames");
}

#[test]
fn inspect_of_an_oversized_frame_table_is_a_located_error_not_a_wrapped_range() {
    let path =
        std::env::temp_dir().join(format!("retroanim-actor-raan-{}.json", std::process::id()));
    let doc = set_with_raan(json!([{"model": 4, "frames": u64::MAX}]));
    std::fs::write(&path, doc.to_string()).unwrap();
    let e = inspect_file(&path, false).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(e.at, "models[0].raan[0].frames");
    assert!(e.message.starts_with("bad_value"), "{}", e.message);
}

#[test]
fn a_set_that_is_not_an_object_is_located_at_its_root() {
    // Issue 21: a fault of the document as a whole used to carry an empty location.
    let f = load_set(&json!(7)).unwrap_err();
    assert_eq!(f.at, "(root)");
    assert_eq!(f.kind, FaultKind::BadValue);
    let f = load_set(&json!({"models": [], "actors": []})).unwrap_err();
    assert_eq!(f.at, "(root)");
    assert_eq!(f.message, "missing field `map`");
}
