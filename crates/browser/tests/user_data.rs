//! `retroanim browse --ac-dat FILE`: the user's DAT opened read-only. Checked on a DAT
//! written by the project's own writer from the sample records (no game data here).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use retroanim_ac::records::dat::write_dat;
use retroanim_browser::limits::Options;
use retroanim_browser::user_data::AcDat;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower::ServiceExt;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retroanim-user-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every sample record (motion table, clips, Setup, part boxes) in one DAT, written
/// under `name` (one per test: tests run in parallel).
fn sample_dat(name: &str) -> PathBuf {
    let mut records = Vec::new();
    for e in std::fs::read_dir(assets().join("ac/records")).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        records.push((
            u32::from_str_radix(&stem, 16).unwrap(),
            std::fs::read(&p).unwrap(),
        ));
    }
    records.sort_by_key(|r| r.0);
    let path = temp(name);
    std::fs::write(&path, write_dat(&records, 1024, 62)).unwrap();
    path
}

async fn get(app: &axum::Router, uri: &str) -> (StatusCode, Value) {
    let resp = app
        .clone()
        .oneshot(Request::builder().uri(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let s = resp.status();
    let b = resp.into_body().collect().await.unwrap().to_bytes();
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_dat_lists_its_motion_tables_with_the_setups_naming_them() {
    let dat = AcDat::open(&sample_dat("listing.dat")).unwrap();
    let opts = Options {
        ac_dat: Some(Arc::new(dat)),
        ..Options::default()
    };
    let app = retroanim_browser::router_with_options(&retroanim_browser::ENGINES, &assets(), opts);
    let (s, v) = get(&app, "/api/ac/dat").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["tables"],
        json!([{"id": "0x09000001", "setups": ["0x02000001"]}])
    );
    assert_eq!(v["setup_count"], 1);
    assert_eq!(v["unreadable_setups"], 0);
    // The figure of the table's Setup, from the DAT: the humanoid's eight boxes.
    let (s, v) = get(&app, "/api/ac/dat/figure?table=0x09000001").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["figure"]["setup"]["id"], "0x02000001");
    assert_eq!(v["figure"]["setup"]["parts"].as_array().unwrap().len(), 8);
    assert_eq!(
        v["figure"]["setup"]["placement"][2],
        json!([0.0, 0.0, 1.7, 1.0, 0.0, 0.0, 0.0])
    );
    assert_eq!(
        v["figure"]["meshes"]["0x01000103"]["vertices"]
            .as_array()
            .unwrap()
            .len(),
        24
    );
    // A table the DAT does not hold is a located refusal.
    let (s, v) = get(&app, "/api/ac/dat/figure?table=0x09000002").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("no motion table 0x09000002"),
        "{v}"
    );
}

#[tokio::test]
async fn without_a_dat_the_endpoints_say_how_to_open_one() {
    let app = retroanim_browser::router(&assets());
    let (s, v) = get(&app, "/api/ac/dat").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["open"], false);
    assert!(v["how"].as_str().unwrap().contains("--ac-dat"), "{v}");
    let (s, v) = get(&app, "/api/ac/dat/figure?table=0x09000001").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("--ac-dat"), "{v}");
}

#[test]
fn a_file_that_is_not_a_dat_is_refused_naming_the_magic() {
    let p = temp("not_a.dat");
    std::fs::write(&p, vec![0x11u8; 2048]).unwrap();
    let e = AcDat::open(&p).unwrap_err();
    assert!(e.contains("not_a.dat"), "{e}");
    assert!(e.contains("0x11111111"), "{e}");
    let e = AcDat::open(&temp("missing.dat")).unwrap_err();
    assert!(
        e.contains("missing.dat") && e.contains("cannot open"),
        "{e}"
    );
}

async fn post(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let resp = app
        .clone()
        .oneshot(
            Request::builder()
                .method("POST")
                .uri(uri)
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    let s = resp.status();
    let b = resp.into_body().collect().await.unwrap().to_bytes();
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

/// A motion table played from the DAT gives the trace the same table gives from the
/// record folder: the records are the same bytes, only their container differs.
#[tokio::test]
async fn a_motion_table_of_the_dat_plays_as_it_does_from_the_record_folder() {
    let dat = AcDat::open(&sample_dat("playing.dat")).unwrap();
    let opts = Options {
        ac_dat: Some(Arc::new(dat)),
        ..Options::default()
    };
    let app = retroanim_browser::router_with_options(&retroanim_browser::ENGINES, &assets(), opts);
    let steps = json!([
        {"op": "do_motion", "motion": "0x45000005", "hold_key": "run"},
        {"op": "tick", "dt": 0.04}, {"op": "tick", "dt": 0.04}, {"op": "tick", "dt": 0.04}
    ]);
    let setup = json!({"motion_table": "0x09000001", "contact": true, "on_walkable": true, "in_cell": true});
    let mut lines = Vec::new();
    for source in [
        json!({"asset_dat": "user"}),
        json!({"asset_dir": "records"}),
    ] {
        let mut scenario = json!({"engine": "ac", "setup": setup, "steps": steps});
        for (k, v) in source.as_object().unwrap() {
            scenario[k] = v.clone();
        }
        let (s, v) = post(
            &app,
            "/api/sessions",
            json!({"engine": "ac", "scenario": scenario, "replay": true}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["step_count"], 4, "{v}");
        lines.push(v["lines"].clone());
    }
    assert_eq!(lines[0], lines[1]);
    // The run command promoted to RunForward, from the DAT's table.
    assert_eq!(lines[0][4]["table"]["substate"], "0x44000007");
    // Any other DAT path is refused, located.
    let (s, v) = post(
        &app,
        "/api/sessions",
        json!({"engine": "ac", "scenario": {"engine": "ac", "asset_dat": "/etc/passwd", "setup": setup}}),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v.to_string().contains("asset_dat"), "{v}");
}
