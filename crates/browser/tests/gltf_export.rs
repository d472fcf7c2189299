//! `GET /api/sessions/{id}/gltf`: the AC session's Setup and motion table as a .glb
//! download, the same bytes `retroanim export-gltf ac` writes for the sample.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tower::ServiceExt;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Option<String>, Vec<u8>) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let resp = app
        .clone()
        .oneshot(req.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let disposition = resp
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let bytes = resp
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    (status, disposition, bytes)
}

async fn session(app: &axum::Router, engine: &str) -> String {
    let (s, _, b) = call(
        app,
        "POST",
        "/api/sessions",
        Some(json!({ "engine": engine })),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let v: Value = serde_json::from_slice(&b).unwrap();
    v["id"].as_str().unwrap().to_string()
}

/// The JSON chunk of a .glb.
fn gltf_json(glb: &[u8]) -> Value {
    let (json, _) = retroanim_gltf::chunks(glb).expect("a .glb");
    serde_json::from_slice(json).unwrap()
}

#[tokio::test]
async fn an_ac_session_downloads_its_setup_and_clips_as_glb() {
    let app = retroanim_browser::router(&assets());
    let id = session(&app, "ac").await;
    let (s, disposition, glb) = call(&app, "GET", &format!("/api/sessions/{id}/gltf"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        disposition.as_deref(),
        Some("attachment; filename=\"ac-0x02000001-0x09000001.glb\"")
    );
    assert_eq!(&glb[0..4], b"glTF");
    let doc = gltf_json(&glb);
    // The sample humanoid: root + 8 parts, 28 clips, the sidecar in extras.
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 9);
    assert_eq!(doc["animations"].as_array().unwrap().len(), 28);
    assert_eq!(doc["animations"][1]["name"], "NonCombat.WalkForward");
    assert_eq!(doc["extras"]["root_motion"], "in-place");

    let uri = format!("/api/sessions/{id}/gltf?root_motion=baked&skinned=true");
    let (s, _, glb) = call(&app, "GET", &uri, None).await;
    assert_eq!(s, StatusCode::OK);
    let doc = gltf_json(&glb);
    assert_eq!(doc["extras"]["root_motion"], "baked");
    assert_eq!(doc["skins"][0]["joints"].as_array().unwrap().len(), 8);
}

#[tokio::test]
async fn bad_gltf_requests_get_json_errors() {
    let app = retroanim_browser::router(&assets());
    let id = session(&app, "ac").await;
    let uri = format!("/api/sessions/{id}/gltf?root_motion=sideways");
    let (s, _, b) = call(&app, "GET", &uri, None).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(v["at"], "query.root_motion", "{v}");
    let uri = format!("/api/sessions/{id}/gltf?setup=0x02000777");
    let (s, _, b) = call(&app, "GET", &uri, None).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let v: Value = serde_json::from_slice(&b).unwrap();
    let message = v["error"].as_str().unwrap();
    assert!(
        message.contains("02000777.bin") && message.contains("not found"),
        "{v}"
    );
    let (s, _, _) = call(&app, "GET", "/api/sessions/nosuch/gltf", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

fn clip_names(doc: &Value) -> Vec<&str> {
    doc["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_herc_session_downloads_its_shape_with_one_clip_per_sequence() {
    let app = retroanim_browser::router(&assets());
    let id = session(&app, "herc").await;
    let (s, disposition, glb) = call(&app, "GET", &format!("/api/sessions/{id}/gltf"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        disposition.as_deref(),
        Some("attachment; filename=\"herc-biped.glb\"")
    );
    assert_eq!(&glb[0..4], b"glTF");
    let doc = gltf_json(&glb);
    // The sample biped's eight sequences by name, its DTS meshes drawn (biped.dts beside it).
    assert_eq!(
        clip_names(&doc),
        [
            "idle",
            "walk",
            "run",
            "turn",
            "stop",
            "twist",
            "pitch",
            "idle_reverse"
        ]
    );
    assert!(!doc["meshes"].as_array().unwrap().is_empty());
    assert_eq!(doc["extras"]["engine"], "herc");
    assert_eq!(doc["extras"]["root_motion"], "in-place");
    let uri = format!("/api/sessions/{id}/gltf?root_motion=baked");
    let (s, _, glb) = call(&app, "GET", &uri, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(gltf_json(&glb)["extras"]["root_motion"], "baked");
}

#[tokio::test]
async fn an_actor_session_downloads_its_set_with_one_clip_per_group() {
    let app = retroanim_browser::router(&assets());
    let id = session(&app, "actor").await;
    let (s, disposition, glb) = call(&app, "GET", &format!("/api/sessions/{id}/gltf"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        disposition.as_deref(),
        Some("attachment; filename=\"actor-flag2.glb\"")
    );
    assert_eq!(&glb[0..4], b"glTF");
    let doc = gltf_json(&glb);
    // The three RAGR groups of the sample flag, by their names in flag2.json.
    assert_eq!(clip_names(&doc), ["idle", "wave", "gust"]);
    assert_eq!(doc["extras"]["engine"], "actor");
}
