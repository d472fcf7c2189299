//! The JSON API, driven through the router with a stand-in engine (a counter), so
//! that validation, path confinement and trace export are tested without depending
//! on any real engine's rules.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use retroanim_browser::{router_with, AssetKind, EngineDef};
use retroanim_core::{DynSimulation, Scenario, ScenarioError, Simulation};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::PathBuf;
use tower::ServiceExt;

struct Counter {
    n: i64,
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Step {
    Add {
        by: i64,
    },
    /// Changes the state, then fails: the session must not keep the change.
    AddThenFail {
        by: i64,
    },
}

#[derive(Serialize)]
struct Line {
    step: usize,
    op: &'static str,
    n: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Asset {
    start: i64,
}

impl Simulation for Counter {
    type Step = Step;
    type Line = Line;
    fn load(s: &Scenario) -> Result<Self, ScenarioError> {
        let asset: Asset = match s.raw("asset") {
            Some(Value::String(p)) => {
                let text = std::fs::read_to_string(s.resolve(p))
                    .map_err(|e| s.error("asset", e.to_string()))?;
                serde_json::from_str(&text).map_err(|e| ScenarioError::new(p, "", e.to_string()))?
            }
            Some(v) => retroanim_core::scenario::from_value_at(v, &s.file, "asset")?,
            None => return Err(s.error("asset", "missing field")),
        };
        // A path field the browser does not know about: read relative to the scenario.
        if let Some(Value::String(p)) = s.raw("extra") {
            std::fs::read(s.resolve(p)).map_err(|e| s.error("extra", e.to_string()))?;
        }
        let bonus: i64 = s.field::<i64>("setup")?.unwrap_or(0);
        Ok(Counter {
            n: asset.start + bonus,
        })
    }
    fn snapshot(&self) -> Line {
        Line {
            step: 0,
            op: "setup",
            n: self.n,
        }
    }
    fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        match step {
            Step::Add { by } => self.n += by,
            Step::AddThenFail { by } => {
                self.n += by;
                return Err(ScenarioError::new("", at, "failed on purpose"));
            }
        }
        Ok(Line {
            step: index,
            op: "add",
            n: self.n,
        })
    }
}

fn load_counter(s: &Scenario) -> Result<Box<dyn DynSimulation>, ScenarioError> {
    retroanim_core::sim::load_dyn::<Counter>(s)
}

fn describe(s: &Scenario) -> Result<Value, String> {
    Ok(json!({"described": s.raw("asset").is_some_and(Value::is_string)}))
}

static TABLE: [EngineDef; 2] = [
    EngineDef {
        name: "counter",
        asset_field: "asset",
        asset_kind: AssetKind::File,
        inline_allowed: true,
        asset_default: None,
        extra_paths: None,
        load: Some(load_counter),
        info: Some(describe),
        default_scenario: Some(r#"{"engine":"counter","asset":"start.json","setup":1}"#),
        more_scenarios: &[],
    },
    EngineDef {
        name: "ghost",
        asset_field: "asset",
        asset_kind: AssetKind::File,
        inline_allowed: true,
        asset_default: None,
        extra_paths: None,
        load: None,
        info: None,
        default_scenario: None,
        more_scenarios: &[],
    },
];

/// An assets root with `counter/start.json`, a file outside the engine folder and a
/// symlink that leads to it.
fn assets_root(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "retroanim-browser-api-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("counter/sub")).unwrap();
    std::fs::write(root.join("counter/start.json"), r#"{"start":10}"#).unwrap();
    std::fs::write(root.join("counter/sub/five.json"), r#"{"start":5}"#).unwrap();
    std::fs::write(root.join("secret.json"), r#"{"start":666}"#).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("secret.json"), root.join("counter/link.json")).unwrap();
    root
}

struct App {
    router: axum::Router,
}

impl App {
    fn new(tag: &str) -> App {
        App {
            router: router_with(&TABLE, &assets_root(tag)),
        }
    }

    async fn call(&self, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Vec<u8>) {
        let mut req = Request::builder().method(method).uri(uri);
        // The server wants the JSON content type on every POST, bodiless ones too.
        if body.is_some() || method == "POST" {
            req = req.header("content-type", "application/json");
        }
        let req = req.body(Body::from(body.unwrap_or_default())).unwrap();
        let resp = self.router.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let bytes = resp
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        (status, bytes)
    }

    async fn json(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (s, b) = self.call(method, uri, body.map(|v| v.to_string())).await;
        let v = serde_json::from_slice(&b).unwrap_or_else(|_| {
            panic!("not JSON: {}", String::from_utf8_lossy(&b));
        });
        (s, v)
    }

    async fn session(&self, scenario: Option<Value>) -> String {
        let mut body = json!({"engine": "counter"});
        if let Some(s) = scenario {
            body["scenario"] = s;
        }
        let (s, v) = self.json("POST", "/api/sessions", Some(body)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v["id"].as_str().unwrap().to_string()
    }
}

#[tokio::test]
async fn engines_are_listed_with_their_state() {
    let app = App::new("list");
    let (s, v) = app.json("GET", "/api/engines", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["engines"][0]["name"], "counter");
    assert_eq!(v["engines"][0]["built"], true);
    assert_eq!(v["engines"][0]["assets_present"], true);
    assert_eq!(v["engines"][1]["built"], false);
    assert_eq!(v["engines"][1]["assets_present"], false);
    assert_eq!(v["limits"]["body_bytes"], 1 << 20);
}

#[tokio::test]
async fn default_session_steps_and_trace_export() {
    let app = App::new("steps");
    let id = app.session(None).await;
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/sessions/{id}/steps"),
            Some(json!({"steps": [{"op": "add", "by": 2}, {"op": "add", "by": -5}]})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["lines"],
        json!([{"step":1,"op":"add","n":13},{"step":2,"op":"add","n":8}])
    );
    assert_eq!(v["step_count"], 2);

    let (s, b) = app
        .call("GET", &format!("/api/sessions/{id}/trace"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        String::from_utf8(b).unwrap(),
        "{\"step\":0,\"op\":\"setup\",\"n\":11}\n{\"step\":1,\"op\":\"add\",\"n\":13}\n{\"step\":2,\"op\":\"add\",\"n\":8}\n"
    );

    let (s, v) = app
        .json("GET", &format!("/api/sessions/{id}/scenario"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v,
        json!({"engine":"counter","asset":"start.json","setup":1,
               "steps":[{"op":"add","by":2},{"op":"add","by":-5}]})
    );

    let (_, v) = app
        .json(
            "GET",
            &format!("/api/sessions/{id}/lines?from=1&to=2"),
            None,
        )
        .await;
    assert_eq!(
        v,
        json!({"from":1,"lines":[{"step":1,"op":"add","n":13}],"total":3})
    );

    let (s, v) = app
        .json("POST", &format!("/api/sessions/{id}/reset"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["line"], json!({"step":0,"op":"setup","n":11}));

    let (s, v) = app
        .json("GET", &format!("/api/sessions/{id}/assets"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["assets"], json!({"described": true}));

    let (s, _) = app
        .call("DELETE", &format!("/api/sessions/{id}"), None)
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.json("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("no session"));
}

#[tokio::test]
async fn exported_trace_equals_the_generic_runner() {
    let app = App::new("runner");
    let id = app
        .session(Some(json!({"asset": "sub/five.json", "setup": 3})))
        .await;
    let steps = json!([{"op":"add","by":7},{"op":"add","by":1}]);
    app.json(
        "POST",
        &format!("/api/sessions/{id}/steps"),
        Some(json!({ "steps": steps })),
    )
    .await;
    let (_, trace) = app
        .call("GET", &format!("/api/sessions/{id}/trace"), None)
        .await;
    let (_, exported) = app
        .json("GET", &format!("/api/sessions/{id}/scenario"), None)
        .await;
    let dir = assets_root("runner").join("counter");
    let scenario = Scenario::from_value(exported, "x.json", dir).unwrap();
    let expected = retroanim_core::run_scenario::<Counter>(&scenario).unwrap();
    assert_eq!(
        String::from_utf8(trace).unwrap(),
        retroanim_core::trace::to_jsonl(&expected)
    );
}

#[tokio::test]
async fn a_failing_step_is_located_and_leaves_the_session_unchanged() {
    let app = App::new("fail");
    let id = app.session(None).await;
    let uri = format!("/api/sessions/{id}/steps");
    let (s, v) = app
        .json(
            "POST",
            &uri,
            Some(json!({"steps": [{"op": "add", "by": 1}, {"op": "add", "by": "x"}]})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "steps[1].by");
    // The first step of the request was applied and kept.
    let (_, v) = app.json("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(v["step_count"], 1);
    assert_eq!(v["line"]["n"], 12);

    let (s, v) = app
        .json(
            "POST",
            &uri,
            Some(json!({"steps": [{"op": "add_then_fail", "by": 100}]})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "steps[0]");
    assert_eq!(v["error"], "failed on purpose");
    let (_, v) = app
        .json(
            "POST",
            &uri,
            Some(json!({"steps": [{"op": "add", "by": 0}]})),
        )
        .await;
    assert_eq!(
        v["lines"][0]["n"], 12,
        "the failed step's change was dropped"
    );

    let (s, v) = app
        .json("POST", &uri, Some(json!({"steps": [{"op": "jump"}]})))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "steps[0].op");
    assert!(v["error"].as_str().unwrap().contains("unknown variant"));
}

#[tokio::test]
async fn bodies_are_validated() {
    let app = App::new("bodies");
    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "bogus": 1})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `bogus`"),
        "{v}"
    );

    let (s, v) = app
        .json("POST", "/api/sessions", Some(json!({"engine": 3})))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["at"], "engine");

    let (s, b) = app
        .call("POST", "/api/sessions", Some("{\"engine\": ".into()))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(v["at"], "line 1, column 11");
    assert!(v["error"].as_str().unwrap().starts_with("malformed JSON"));

    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "scenario": []})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["at"], "scenario");

    let id = app.session(None).await;
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/sessions/{id}/steps"),
            Some(json!({"steps": [], "extra": true})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("unknown field `extra`"));

    let many: Vec<Value> = (0..1001).map(|_| json!({"op":"add","by":1})).collect();
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/sessions/{id}/steps"),
            Some(json!({ "steps": many })),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "steps");

    let (s, v) = app
        .json("GET", &format!("/api/sessions/{id}/lines?from=x"), None)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["at"], "query");
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let app = App::new("large");
    let big = format!(
        "{{\"engine\":\"counter\",\"scenario\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(1 << 20)
    );
    let (s, b) = app.call("POST", "/api/sessions", Some(big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert!(v["error"].as_str().unwrap().contains("too large"));
}

#[tokio::test]
async fn asset_paths_cannot_leave_the_asset_folder() {
    let app = App::new("escape");
    let secret = assets_root("escape-abs").join("secret.json");
    for (path, needle) in [
        ("../secret.json", "outside"),
        ("../../secret.json", "outside"),
        ("sub/../../../secret.json", "outside"),
        (secret.to_str().unwrap(), "absolute"),
        ("/etc/passwd", "absolute"),
        ("nope.json", "no such asset"),
        ("sub", "not a file"),
        #[cfg(unix)]
        ("link.json", "outside"),
    ] {
        let (s, v) = app
            .json(
                "POST",
                "/api/sessions",
                Some(json!({"engine": "counter", "scenario": {"asset": path}})),
            )
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {v}");
        assert_eq!(v["at"], "scenario.asset", "{path}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{path}: {v}");
    }
    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "scenario": {"asset": 5}})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "scenario.asset");
    // An inline asset needs no path at all.
    let id = app.session(Some(json!({"asset": {"start": 40}}))).await;
    let (_, v) = app.json("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(v["line"]["n"], 40);
}

#[tokio::test]
async fn uploaded_scenarios_are_checked_then_handed_back_or_replayed() {
    let app = App::new("upload");
    let scenario = json!({"engine": "counter", "asset": "start.json", "note": "informative",
                          "steps": [{"op": "add", "by": 1}, {"op": "add", "by": 2}]});
    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "scenario": scenario})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["lines"], json!([{"step":0,"op":"setup","n":10}]));
    assert_eq!(v["pending_steps"], scenario["steps"]);
    assert_eq!(v["step_count"], 0);

    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "scenario": scenario, "replay": true})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["lines"].as_array().unwrap().len(), 3);
    assert_eq!(v["lines"][2]["n"], 13);
    assert_eq!(v["pending_steps"], json!([]));

    let bad = json!({"asset": "start.json", "steps": [{"op": "add", "by": 1}, {"op": "add"}]});
    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "scenario": bad})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "scenario.steps[1]");
    assert!(
        v["error"].as_str().unwrap().contains("missing field `by`"),
        "{v}"
    );

    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(
                json!({"engine": "counter", "scenario": {"engine": "herc", "asset": "start.json"}}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "scenario.engine");

    let (s, v) = app
        .json(
            "POST",
            "/api/sessions",
            Some(json!({"engine": "counter", "scenario": {"asset": "start.json", "setup": "x"}})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["at"], "scenario.setup");
}

#[tokio::test]
async fn unbuilt_and_unknown_engines_say_so() {
    let app = App::new("ghost");
    let (s, v) = app
        .json("POST", "/api/sessions", Some(json!({"engine": "ghost"})))
        .await;
    assert_eq!(s, StatusCode::NOT_IMPLEMENTED);
    assert!(v["error"].as_str().unwrap().contains("not built"));
    let (s, v) = app
        .json("POST", "/api/sessions", Some(json!({"engine": "zork"})))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("counter, ghost"));
    let (s, v) = app.json("GET", "/api/nothing", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("docs/browser.md"));
}

#[tokio::test]
async fn the_page_and_vendored_three_are_embedded() {
    let app = App::new("static");
    let (s, b) = app.call("GET", "/", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(String::from_utf8(b).unwrap().contains("<title>retroanim"));
    let (s, b) = app
        .call("GET", "/static/vendor/three.module.min.js", None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(b.len() > 100_000);
    let (s, _) = app.call("GET", "/static/../Cargo.toml", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn trailing_garbage_is_refused() {
    let app = App::new("trailing");
    let (s, b) = app
        .call(
            "POST",
            "/api/sessions",
            Some("{\"engine\":\"counter\"} x".into()),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert!(v["error"].as_str().unwrap().contains("trailing"), "{v}");
}

#[tokio::test]
async fn the_oldest_session_is_dropped_when_the_store_is_full() {
    let app = App::new("evict");
    let first = app.session(None).await;
    for _ in 0..32 {
        app.session(None).await;
    }
    let (s, _) = app
        .json("GET", &format!("/api/sessions/{first}"), None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_session_holds_at_most_30000_steps() {
    let app = App::new("full");
    let id = app.session(None).await;
    let uri = format!("/api/sessions/{id}/steps");
    let batch: Vec<Value> = (0..1000).map(|_| json!({"op": "add", "by": 1})).collect();
    for _ in 0..30 {
        let (s, _) = app
            .json("POST", &uri, Some(json!({ "steps": batch })))
            .await;
        assert_eq!(s, StatusCode::OK);
    }
    let (s, v) = app
        .json(
            "POST",
            &uri,
            Some(json!({"steps": [{"op": "add", "by": 1}]})),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("reset"), "{v}");
    let (_, v) = app.json("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(v["step_count"], 30_000);
    assert_eq!(v["line"]["n"], 30_011);
}

#[tokio::test]
async fn path_fields_the_browser_does_not_know_cannot_be_followed() {
    let app = App::new("unknown-path");
    for extra in ["start.json", "../start.json", "../../secret.json"] {
        let (s, v) = app
            .json(
                "POST",
                "/api/sessions",
                Some(json!({"engine": "counter", "scenario": {"asset": "start.json", "extra": extra}})),
            )
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{extra}: {v}");
        assert_eq!(v["at"], "scenario.extra", "{extra}");
    }
}

#[tokio::test]
async fn sample_scenarios_are_listed_and_served_by_name_only() {
    let root = assets_root("samples");
    std::fs::create_dir_all(root.join("counter/scenarios")).unwrap();
    std::fs::write(
        root.join("counter/scenarios/b.json"),
        r#"{"engine":"counter","asset":"../start.json","steps":[{"op":"add","by":1}]}"#,
    )
    .unwrap();
    std::fs::write(root.join("counter/scenarios/a.json"), "{}").unwrap();
    std::fs::write(root.join("counter/scenarios/notes.txt"), "x").unwrap();
    let app = App {
        router: router_with(&TABLE, &root),
    };
    let (s, v) = app.json("GET", "/api/engines/counter/samples", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v, json!({"samples": ["a.json", "b.json"]}));
    let (s, v) = app
        .json("GET", "/api/engines/counter/samples/b.json", None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["steps"][0]["by"], 1);
    for bad in [
        "notes.txt",
        "..%2Fstart.json",
        "..%2F..%2Fsecret.json",
        "c.json",
    ] {
        let (s, _) = app
            .json("GET", &format!("/api/engines/counter/samples/{bad}"), None)
            .await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{bad}");
    }
    let (s, _) = app.json("GET", "/api/engines/zork/samples", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
