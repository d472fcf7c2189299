//! The three real engines behind the API, on the bundled sample assets: each view's
//! default session plays steps, and the exported trace is exactly what the generic
//! runner (`retroanim run`) writes for the exported scenario placed in
//! `assets/<engine>/scenarios/`.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use retroanim_core::{Scenario, ScenarioError};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tower::ServiceExt;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn copy_of_assets(engine: &str) -> PathBuf {
    // One folder per call: tests run in parallel, and two of them copying the same engine's
    // assets into one folder would remove each other's files.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("engines-{}-{n}", std::process::id()));
    let to = root.join(engine);
    let _ = std::fs::remove_dir_all(&to);
    copy_dir(&assets().join(engine), &to);
    to
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Vec<u8>) {
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
    (
        status,
        resp.into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
}

async fn json_call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (s, b) = call(app, method, uri, body).await;
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

/// Play `steps` in a default session of `engine`, then check the exported trace
/// against `run` on the exported scenario. Returns the session's lines.
async fn play_and_compare(
    engine: &str,
    steps: Value,
    run: fn(&Scenario) -> Result<Vec<Value>, ScenarioError>,
) -> Vec<Value> {
    let app = retroanim_browser::router(&assets());
    let (s, v) = json_call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"engine": engine})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["lines"][0]["step"], 0);
    assert_eq!(v["lines"][0]["op"], "setup");
    let (s, v) = json_call(
        &app,
        "POST",
        &format!("/api/sessions/{id}/steps"),
        Some(json!({ "steps": steps })),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let n = steps.as_array().unwrap().len();
    assert_eq!(v["step_count"], n);

    let (_, trace) = call(&app, "GET", &format!("/api/sessions/{id}/trace"), None).await;
    let (_, exported) = json_call(&app, "GET", &format!("/api/sessions/{id}/scenario"), None).await;
    assert_eq!(exported["steps"], steps);
    // Where a user would save it: assets/<engine>/scenarios/ (made in a copy, so the
    // test works whether or not the checkout has that folder).
    let dir = copy_of_assets(engine).join("scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = Scenario::from_value(exported, "exported.json", dir).unwrap();
    let expected = run(&scenario).unwrap();
    let trace = String::from_utf8(trace).unwrap();
    assert_eq!(trace, retroanim_core::trace::to_jsonl(&expected));
    assert_eq!(trace.lines().count(), n + 1);
    expected
}

#[tokio::test]
async fn herc_request_walk_and_export() {
    let lines = play_and_compare(
        "herc",
        json!([
            {"op": "request", "thread": 0, "seq": 1, "frame": -1, "stop_on_arrival": true},
            {"op": "step_ms", "ms": 40},
            {"op": "step_ms", "ms": 40},
            {"op": "set_rate", "thread": 0, "rate": -256},
            {"op": "step_ms", "ms": 40}
        ]),
        retroanim_core::run_scenario::<retroanim_herc::scenario::HercSim>,
    )
    .await;
    assert_eq!(lines[1]["threads"][0]["target_seq"], 1);
}

#[tokio::test]
async fn ac_run_and_export() {
    let lines = play_and_compare(
        "ac",
        json!([
            {"op": "do_motion", "motion": "0x45000005", "hold_key": "run"},
            {"op": "tick", "dt": 0.04},
            {"op": "tick", "dt": 0.04},
            {"op": "interpolate_to", "origin": [0.0, 5.0, 0.0]},
            {"op": "tick", "dt": 0.04}
        ]),
        retroanim_core::run_scenario::<retroanim_ac::AcSim>,
    )
    .await;
    // Walk with the run hold key plays RunForward (the run hold key promotes Walk for that call only).
    assert_eq!(lines[1]["table"]["substate"], "0x44000007");
}

/// The first server-loop op after plain ticks: the session replays its steps with the
/// `server` and `wire` keys (`"rebuilt": true`), so the trace is still what `retroanim
/// run` writes for the exported scenario; the last UpdateMotion is offered on its own.
#[tokio::test]
async fn ac_jump_after_ticks_replays_the_lines_and_offers_the_update_motion() {
    let app = retroanim_browser::router(&assets());
    let (_, v) = json_call(&app, "POST", "/api/sessions", Some(json!({"engine": "ac"}))).await;
    let id = v["id"].as_str().unwrap().to_string();
    let steps = format!("/api/sessions/{id}/steps");
    let (s, v) = json_call(
        &app,
        "POST",
        &steps,
        Some(json!({"steps": [{"op": "tick", "dt": 0.04}]})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v.get("rebuilt"), None);
    assert_eq!(v["lines"][0].get("server"), None);
    let (_, none) = json_call(
        &app,
        "GET",
        &format!("/api/sessions/{id}/update_motion"),
        None,
    )
    .await;
    assert_eq!(none["hex"], Value::Null);
    let (s, v) = json_call(
        &app,
        "POST",
        &steps,
        Some(json!({"steps": [{"op": "charge_jump"}, {"op": "jump", "extent": 0.5}, {"op": "movement_data"}, {"op": "tick", "dt": 0.04}]})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rebuilt"], true);
    assert_eq!(v["step_count"], 5);
    let (_, lines) = json_call(&app, "GET", &format!("/api/sessions/{id}/lines"), None).await;
    assert!(
        lines["lines"][1]["server"].is_object(),
        "the first tick's line was replayed with the server key"
    );
    let wire = lines["lines"][4]["wire"][0].as_str().unwrap().to_string();
    // UpdateMotion's opcode 0xF74C, little-endian.
    assert!(wire.starts_with("4cf70000"), "{wire}");
    let (_, um) = json_call(
        &app,
        "GET",
        &format!("/api/sessions/{id}/update_motion"),
        None,
    )
    .await;
    assert_eq!(um["hex"], wire);
    assert_eq!(um["step"], 4);
    assert_eq!(um["bytes"], wire.len() / 2);

    let (_, trace) = call(&app, "GET", &format!("/api/sessions/{id}/trace"), None).await;
    let (_, exported) = json_call(&app, "GET", &format!("/api/sessions/{id}/scenario"), None).await;
    let dir = copy_of_assets("ac").join("scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = Scenario::from_value(exported, "exported.json", dir).unwrap();
    let expected = retroanim_core::run_scenario::<retroanim_ac::AcSim>(&scenario).unwrap();
    assert_eq!(
        String::from_utf8(trace).unwrap(),
        retroanim_core::trace::to_jsonl(&expected)
    );
}

#[tokio::test]
async fn actor_forced_request_and_export() {
    let lines = play_and_compare(
        "actor",
        json!([
            {"op": "update"},
            {"op": "force_request", "actor": "flag_a", "group": 10, "modifier": 0},
            {"op": "set_frame_scale", "q8": 512},
            {"op": "update"}
        ]),
        retroanim_core::run_scenario::<retroanim_actor::scenario::ActorSim>,
    )
    .await;
    let a = lines[2]["actors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == "flag_a")
        .unwrap();
    assert_eq!(a["anim"]["current"], 10);
}

#[tokio::test]
async fn engine_step_errors_name_the_field() {
    let app = retroanim_browser::router(&assets());
    for (engine, step, at) in [
        ("herc", json!({"op": "step_ms", "ms": "x"}), "steps[0].ms"),
        ("ac", json!({"op": "tick"}), "steps[0]"),
        ("actor", json!({"op": "warp"}), "steps[0].op"),
    ] {
        let (_, v) = json_call(
            &app,
            "POST",
            "/api/sessions",
            Some(json!({"engine": engine})),
        )
        .await;
        let id = v["id"].as_str().unwrap().to_string();
        let (s, v) = json_call(
            &app,
            "POST",
            &format!("/api/sessions/{id}/steps"),
            Some(json!({"steps": [step]})),
        )
        .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{engine}: {v}");
        assert_eq!(v["at"], at, "{engine}: {v}");
    }
}

#[tokio::test]
async fn asset_descriptions_for_the_panels() {
    let app = retroanim_browser::router(&assets());
    let mut got = Vec::new();
    for engine in ["herc", "ac", "actor"] {
        let (_, v) = json_call(
            &app,
            "POST",
            "/api/sessions",
            Some(json!({"engine": engine})),
        )
        .await;
        let id = v["id"].as_str().unwrap().to_string();
        let (s, v) = json_call(&app, "GET", &format!("/api/sessions/{id}/assets"), None).await;
        assert_eq!(s, StatusCode::OK, "{engine}: {v}");
        got.push(v["assets"].clone());
    }
    assert_eq!(got[0]["nodes"][1]["name"], "pelvis");
    assert_eq!(got[0]["sequences"][1]["name"], "walk");
    assert_eq!(got[1]["table"]["id"], "0x09000001");
    assert!(got[2]["models"][0]["raan"][0]["vertices"].is_array());
}

#[tokio::test]
async fn sample_scenarios_load_as_uploads() {
    // The actor sample scenario names its set as "../flag2.json", as scenario files
    // inside assets/actor/scenarios/ do.
    let app = retroanim_browser::router(&assets());
    let text =
        std::fs::read_to_string(assets().join("actor/scenarios/flag2_two_cycles.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let n = doc["steps"].as_array().unwrap().len();
    let (s, v) = json_call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"engine": "actor", "scenario": doc, "replay": true})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["lines"].as_array().unwrap().len(), n + 1);
}

#[tokio::test]
async fn herc_mech_scenarios_replay_like_retroanim_run() {
    // The mech extension (setup.mech) runs on MechSim, as retroanim_herc::run picks it.
    let app = retroanim_browser::router(&assets());
    let path = assets().join("herc/scenarios/mech_walk_and_steer.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (s, v) = json_call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"engine": "herc", "scenario": doc, "replay": true})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (_, trace) = call(&app, "GET", &format!("/api/sessions/{id}/trace"), None).await;
    let expected = retroanim_herc::run(&Scenario::from_file(&path).unwrap()).unwrap();
    assert_eq!(
        String::from_utf8(trace).unwrap(),
        retroanim_core::trace::to_jsonl(&expected)
    );
    assert!(v["lines"][0]["mech"].is_object());
}

#[tokio::test]
async fn herc_mech_paths_are_confined_too() {
    let app = retroanim_browser::router(&assets());
    for (mech, at) in [
        (
            json!({"chassis": "/etc/passwd"}),
            "scenario.setup.mech.chassis",
        ),
        (
            json!({"chassis": "../../../Cargo.toml"}),
            "scenario.setup.mech.chassis",
        ),
        (
            json!({"chassis": "../biped.chassis.json", "shape": "../../../Cargo.toml"}),
            "scenario.setup.mech.shape",
        ),
        (
            json!({"chassis": "entry", "vol": "../../x.vol"}),
            "scenario.setup.mech.vol",
        ),
    ] {
        let scenario = json!({"asset": "../biped.json", "setup": {"mech": mech}});
        let (s, v) = json_call(
            &app,
            "POST",
            "/api/sessions",
            Some(json!({"engine": "herc", "scenario": scenario})),
        )
        .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["at"], at, "{v}");
    }
}

/// The sample humanoid's figure, as the AC view draws it: the Setup naming motion
/// table 0x09000001, one box mesh per part, and the part frames of the table's clips.
/// Expected values are the sample source's (assets/ac/humanoid.json): eight parts,
/// pelvis the root at (0, 0, 1), the torso's parent the pelvis, a box of 24 corners.
#[tokio::test]
async fn the_ac_figure_is_the_setup_naming_the_table_with_its_part_meshes() {
    let app = retroanim_browser::router(&assets());
    let (_, v) = json_call(&app, "POST", "/api/sessions", Some(json!({"engine": "ac"}))).await;
    let id = v["id"].as_str().unwrap().to_string();
    let (s, v) = json_call(&app, "GET", &format!("/api/sessions/{id}/figure"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let f = &v["figure"];
    assert_eq!(f["setup"]["id"], "0x02000001");
    assert_eq!(f["setup"]["parts"].as_array().unwrap().len(), 8);
    assert_eq!(f["setup"]["parts"][0], "0x01000101");
    assert_eq!(f["setup"]["parents"][0], Value::Null);
    assert_eq!(f["setup"]["parents"][1], 0);
    assert_eq!(f["setup"]["parents"][7], 4);
    assert_eq!(
        f["setup"]["placement"][0],
        json!([0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    );
    let pelvis = &f["meshes"]["0x01000101"];
    assert_eq!(pelvis["vertices"].as_array().unwrap().len(), 24);
    assert_eq!(pelvis["polygons"].as_array().unwrap().len(), 6);
    // Face +x of the 0.3 × 0.18 × 0.16 pelvis box, first corner (+x, -y, -z).
    assert_eq!(pelvis["vertices"][0], json!([0.15, -0.09, -0.08]));
    assert_eq!(pelvis["polygons"][0]["vertices"], json!([0, 1, 2, 3]));
    // Every clip of the table is there, each frame with one placement per part.
    let ready = f["anims"]["0x03000101"].as_array().unwrap();
    assert!(!ready.is_empty());
    assert_eq!(ready[0].as_array().unwrap().len(), 8);
    // Other engines have no figure.
    let (_, v) = json_call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"engine": "herc"})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_string();
    let (s, _) = json_call(&app, "GET", &format!("/api/sessions/{id}/figure"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
