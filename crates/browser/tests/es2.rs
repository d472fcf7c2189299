//! `retroanim browse --es2 DIR` and the herc view's DTS meshes. Checked on a folder written
//! by the project's own VOL writer from the sample biped (its DTS with box meshes, and its
//! chassis record); no game data here.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use retroanim_browser::es2::Es2Folder;
use retroanim_browser::limits::Options;
use retroanim_herc::formats::vol::{VolArchive, VolEntry};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower::ServiceExt;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// A fresh folder for one test (tests run in parallel).
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("retroanim-es2-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// SIMVOL0.VOL holding dts\BIPED.DTS (the sample biped with its box meshes),
/// dat\BIPED.DAT (its chassis record), a theater palette dpl\WORLD1.DPL and the texture
/// bank its chassis names, dba\LIGHT.DBA (the sample's own palette and textures).
fn simvol() -> Vec<u8> {
    let herc = assets().join("herc");
    VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into(), "dat".into(), "dpl".into(), "dba".into()],
        entries: vec![
            VolEntry::stored(
                "BIPED.DTS",
                0,
                std::fs::read(herc.join("biped.dts")).unwrap(),
            )
            .unwrap(),
            VolEntry::stored(
                "BIPED.DAT",
                1,
                std::fs::read(herc.join("biped.chassis.bin")).unwrap(),
            )
            .unwrap(),
            VolEntry::stored(
                "WORLD1.DPL",
                2,
                std::fs::read(herc.join("biped.dpl")).unwrap(),
            )
            .unwrap(),
            VolEntry::stored(
                "LIGHT.DBA",
                3,
                std::fs::read(herc.join("biped.dba")).unwrap(),
            )
            .unwrap(),
        ],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap()
}

fn es2_folder(name: &str) -> PathBuf {
    let dir = folder(name);
    std::fs::write(dir.join("SIMVOL0.VOL"), simvol()).unwrap();
    dir
}

fn app_with(es2: Option<Es2Folder>) -> axum::Router {
    let opts = Options {
        es2: es2.map(Arc::new),
        ..Options::default()
    };
    retroanim_browser::router_with_options(&retroanim_browser::ENGINES, &assets(), opts)
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    let body = match body {
        Some(b) => {
            req = req.header("content-type", "application/json");
            Body::from(b.to_string())
        }
        None => Body::empty(),
    };
    let resp = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let s = resp.status();
    let b = resp.into_body().collect().await.unwrap().to_bytes();
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

async fn start(app: &axum::Router, scenario: Value) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        "/api/sessions",
        Some(json!({"engine": "herc", "scenario": scenario, "replay": true})),
    )
    .await
}

#[tokio::test]
async fn the_folder_lists_every_shape_and_chassis_of_its_archives() {
    let dir = es2_folder("listing");
    // Another archive that is not a VOL: listed with its located error, not refused.
    std::fs::write(dir.join("OTHER.VOL"), b"NOTAVOL.........").unwrap();
    let es2 = Es2Folder::open(&dir).unwrap();
    assert_eq!(es2.shape_count(), 1);
    let app = app_with(Some(es2));
    let (s, v) = call(&app, "GET", "/api/herc/es2", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["open"], true);
    let vols = v["vols"].as_array().unwrap();
    assert_eq!(vols.len(), 2);
    assert_eq!(vols[0]["file"], "OTHER.VOL");
    let err = vols[0]["error"].as_str().unwrap();
    assert!(err.contains("OTHER.VOL") && err.contains("byte 0"), "{err}");
    assert_eq!(vols[1]["file"], "SIMVOL0.VOL");
    assert_eq!(vols[1]["error"], Value::Null);
    // The sample biped: 15 nodes, 8 sequences, 14 box groups.
    assert_eq!(
        vols[1]["shapes"],
        json!([{"entry": "dts\\BIPED.DTS", "nodes": 15, "sequences": 8, "meshes": 14, "error": null}])
    );
    assert_eq!(vols[1]["chassis"], json!(["dat\\BIPED.DAT"]));
}

/// A shape of the folder plays exactly as the same model from biped.json, and its meshes
/// come from the DTS inside the archive.
#[tokio::test]
async fn a_shape_of_the_folder_plays_as_its_asset_json_and_serves_its_meshes() {
    let app = app_with(Some(Es2Folder::open(&es2_folder("playing")).unwrap()));
    let steps = json!([
        {"op": "request", "thread": 0, "seq": 1},
        {"op": "step_ms", "ms": 40}, {"op": "step_ms", "ms": 40}, {"op": "step_ms", "ms": 40}
    ]);
    let setup = json!({"threads": [{"seq": 0, "rate": 256}]});
    let (s, from_es2) = start(
        &app,
        json!({"engine": "herc", "asset_es2": {"vol": "simvol0.vol", "entry": "dts\\biped.dts"},
               "setup": setup, "steps": steps}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{from_es2}");
    let (s, from_json) = start(
        &app,
        json!({"engine": "herc", "asset": "biped.json", "setup": setup, "steps": steps}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{from_json}");
    let a = from_es2["lines"].as_array().unwrap();
    let b = from_json["lines"].as_array().unwrap();
    assert_eq!(a.len(), 5);
    assert_eq!(a, b);
    // The asset description names nodes and sequences by number (DTS files carry no names).
    let id = from_es2["id"].as_str().unwrap();
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/assets"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // H85: dat\BIPED.DAT names the sequences by role and its camera part's node; the
    // other nodes are numbered.
    assert_eq!(
        v["assets"]["nodes"][3],
        json!({"name": "cockpit", "parent": 2, "rest": 3})
    );
    assert_eq!(v["assets"]["nodes"][2]["name"], "node 2");
    assert_eq!(v["assets"]["sequences"][1]["name"], "walk");
    assert_eq!(v["assets"]["sequences"][7]["name"], "idle_reverse");
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/meshes"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["source"], "SIMVOL0.VOL:dts\\BIPED.DTS");
    let meshes = v["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 14);
    // The pelvis box (node 1): corner 0 is (−80, −45, −30); face −x is corners 0, 4, 6, 2,
    // textured with frame 0 of the chassis's bank (rec 148 = 0: dba\LIGHT.DBA); its top
    // is palette index 1 of the theater palette dpl\WORLD1.DPL: (22, 26, 32) → (88, 104, 128).
    assert_eq!(meshes[0]["node"], 1);
    assert_eq!(meshes[0]["points"][0], json!([-80, -45, -30]));
    assert_eq!(meshes[0]["polys"][0]["points"], json!([0, 4, 6, 2]));
    assert_eq!(meshes[0]["polys"][0]["frame"], 0);
    assert_eq!(meshes[0]["polys"][5]["rgb"], json!([88, 104, 128]));
    assert_eq!(v["materials"]["palette"], "SIMVOL0.VOL:dpl\\WORLD1.DPL");
    assert_eq!(v["materials"]["bitmaps"], "SIMVOL0.VOL:dba\\LIGHT.DBA");
    assert_eq!(v["materials"]["textures"].as_object().unwrap().len(), 4);
    assert_eq!(meshes[13]["node"], 14);
}

#[tokio::test]
async fn the_sample_biped_draws_the_dts_next_to_its_asset() {
    let app = app_with(None);
    let (s, v) = start(
        &app,
        json!({"engine": "herc", "asset": "biped.json", "setup": {"threads": [{"seq": 0, "rate": 256}]}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap();
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/meshes"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["source"], "biped.dts");
    assert_eq!(v["meshes"].as_array().unwrap().len(), 14);
    // The gun mount (node 14): corner 7 is (15, 140, 15).
    assert_eq!(v["meshes"][13]["points"][7], json!([15, 140, 15]));
    let asset: Value =
        serde_json::from_str(&std::fs::read_to_string(assets().join("herc/biped.json")).unwrap())
            .unwrap();
    // A mech scenario draws the DTS it animates (`setup.mech.shape`), even with an inline
    // asset (which has no `.dts` beside it).
    let (s, v) = start(
        &app,
        json!({"engine": "herc", "asset": asset,
               "setup": {"mech": {"chassis": "biped.chassis.json", "shape": "biped.dts"}}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap();
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/meshes"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["source"], "biped.dts");
    assert_eq!(v["meshes"][2]["node"], 3);
    // An inline asset has no DTS: no meshes, not an error.
    let (s, v) = start(
        &app,
        json!({"engine": "herc", "asset": asset, "setup": {"threads": [{"seq": 0, "rate": 256}]}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap();
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/meshes"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"engine": "herc", "source": null, "meshes": []}));
    // Other engines have no DTS meshes.
    let (s, v) = call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"engine": "actor"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap();
    let (s, _) = call(&app, "GET", &format!("/api/sessions/{id}/meshes"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn es2_references_are_refused_located() {
    // Without --es2.
    let app = app_with(None);
    let (s, v) = call(&app, "GET", "/api/herc/es2", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["open"], false);
    assert!(v["how"].as_str().unwrap().contains("--es2"), "{v}");
    let scenario = json!({"engine": "herc", "asset_es2": {"vol": "SIMVOL0.VOL", "entry": "dts\\BIPED.DTS"},
                          "setup": {"threads": [{"seq": 0, "rate": 256}]}});
    let (s, v) = start(&app, scenario.clone()).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "scenario.asset_es2", "{v}");
    assert!(v["error"].as_str().unwrap().contains("--es2"), "{v}");
    // With the folder: an entry it does not hold, an archive it does not have.
    let app = app_with(Some(Es2Folder::open(&es2_folder("refusals")).unwrap()));
    let (s, v) = start(&app, scenario.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    for (r, what) in [
        (
            json!({"vol": "SIMVOL0.VOL", "entry": "dts\\NOPE.DTS"}),
            "not a playable shape",
        ),
        (
            json!({"vol": "../x.vol", "entry": "dts\\BIPED.DTS"}),
            "no archive",
        ),
        (json!("SIMVOL0.VOL"), "expected {\"vol\""),
    ] {
        let mut bad = scenario.clone();
        bad["asset_es2"] = r;
        let (s, v) = start(&app, bad).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["at"], "scenario.asset_es2", "{v}");
        assert!(v["error"].as_str().unwrap().contains(what), "{v}");
    }
    // Only herc reads the folder.
    let (s, v) = call(
        &app,
        "POST",
        "/api/sessions",
        Some(
            json!({"engine": "actor", "scenario": {"engine": "actor", "assets": "flag2.json",
            "asset_es2": {"vol": "SIMVOL0.VOL", "entry": "dts\\BIPED.DTS"}}}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["at"], "scenario.asset_es2", "{v}");
}

#[test]
fn a_missing_or_wrong_folder_is_refused_naming_it() {
    let root = folder("wrong");
    let e = Es2Folder::open(&root.join("missing")).unwrap_err();
    assert!(e.contains("missing") && e.contains("cannot open"), "{e}");
    // A file, not a folder.
    let file = root.join("SIMVOL0.VOL");
    std::fs::write(&file, simvol()).unwrap();
    let e = Es2Folder::open(&file).unwrap_err();
    assert!(
        e.contains("SIMVOL0.VOL") && e.contains("not a folder"),
        "{e}"
    );
    // A folder without SIMVOL0.VOL names what it found.
    let other = folder("no-simvol");
    std::fs::write(other.join("SHELL0.VOL"), simvol()).unwrap();
    let e = Es2Folder::open(&other).unwrap_err();
    assert!(
        e.contains("no SIMVOL0.VOL in this folder (found SHELL0.VOL)"),
        "{e}"
    );
    // A SIMVOL0.VOL that is not an archive: the VOL reader's located message.
    let bad = folder("bad-simvol");
    std::fs::write(bad.join("SIMVOL0.VOL"), b"VOLX....").unwrap();
    let e = Es2Folder::open(&bad).unwrap_err();
    assert!(e.contains("SIMVOL0.VOL") && e.contains("byte 0"), "{e}");
}
