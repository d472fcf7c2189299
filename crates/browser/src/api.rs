//! The JSON API (documented in docs/browser.md).

use crate::body::JsonBody;
use crate::engines::{self, EngineDef};
use crate::error::ApiError;
use crate::session::{self, Session, Store, MAX_STEPS, MAX_STEPS_PER_CALL};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Shared server state.
#[derive(Clone)]
pub struct AppState {
    pub engines: &'static [EngineDef],
    /// Canonical per-engine asset folders, in table order (`None`: missing).
    pub folders: Arc<Vec<Option<PathBuf>>>,
    pub store: Arc<Mutex<Store>>,
}

impl AppState {
    pub fn new(engines: &'static [EngineDef], assets_root: &std::path::Path) -> AppState {
        let folders = engines
            .iter()
            .map(|e| engines::folder(assets_root, e).canonicalize().ok())
            .collect::<Vec<_>>();
        AppState {
            engines,
            folders: Arc::new(folders),
            store: Arc::new(Mutex::new(Store::default())),
        }
    }

    fn folder(&self, engine: &EngineDef) -> Option<&PathBuf> {
        let i = self.engines.iter().position(|e| e.name == engine.name)?;
        self.folders.get(i)?.as_ref()
    }

    fn session(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        lock(&self.store)
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("no session '{id}' (it may have expired)")))
    }
}

/// A poisoned lock only means a handler panicked mid-step; the data is still the
/// last consistent state we wrote, so keep serving it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn builtin(engine: &EngineDef, text: &str) -> Result<Value, ApiError> {
    serde_json::from_str(text).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "",
            format!("a built-in scenario of '{}' is broken: {e}", engine.name),
        )
    })
}

fn default_doc(engine: &EngineDef) -> Result<Option<Value>, ApiError> {
    engine
        .default_scenario
        .map(|text| builtin(engine, text))
        .transpose()
}

/// `GET /api/engines`
pub async fn list_engines(State(st): State<AppState>) -> Result<Json<Value>, ApiError> {
    let mut out = Vec::new();
    for e in st.engines.iter() {
        out.push(json!({
            "name": e.name,
            "built": e.built(),
            "assets_present": st.folder(e).is_some(),
            "asset_field": e.asset_field,
            "default_scenario": default_doc(e)?,
            "more_scenarios": e
                .more_scenarios
                .iter()
                .map(|(name, text)| Ok((name.to_string(), builtin(e, text)?)))
                .collect::<Result<serde_json::Map<_, _>, ApiError>>()?,
        }));
    }
    Ok(Json(json!({
        "engines": out,
        "limits": {
            "body_bytes": crate::BODY_LIMIT,
            "steps_per_session": MAX_STEPS,
            "steps_per_request": MAX_STEPS_PER_CALL,
            "sessions": session::MAX_SESSIONS,
            "trace_bytes": session::MAX_TOTAL_BYTES,
        }
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateSession {
    engine: String,
    #[serde(default)]
    scenario: Option<Value>,
    /// Apply the scenario's steps now (true) or only check them and hand them back
    /// for the page to play one at a time (false).
    #[serde(default)]
    replay: bool,
}

/// `POST /api/sessions`
pub async fn create_session(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<CreateSession>,
) -> Result<Json<Value>, ApiError> {
    let engine = engines::find(st.engines, &req.engine).ok_or_else(|| {
        let names: Vec<&str> = st.engines.iter().map(|e| e.name).collect();
        ApiError::unprocessable(
            "engine",
            format!(
                "unknown engine '{}' (expected one of: {})",
                req.engine,
                names.join(", ")
            ),
        )
    })?;
    if !engine.built() {
        return Err(session::not_built(engine));
    }
    let folder = st.folder(engine).ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "",
            format!(
                "the asset folder of '{}' is missing (expected assets/{} under the assets root)",
                engine.name, engine.name
            ),
        )
    })?;
    let doc = match req.scenario {
        Some(d) => d,
        None => default_doc(engine)?.ok_or_else(|| {
            ApiError::unprocessable(
                "scenario",
                format!("engine '{}' has no default scenario: send one", engine.name),
            )
        })?,
    };
    let prepared = session::prepare(engine, doc, folder)?;
    let replay = req.replay;
    // Loading and checking up to MAX_STEPS steps is CPU work: keep it off the async workers.
    let (s, lines, pending) = tokio::task::spawn_blocking(move || {
        let mut s = Session::start(engine, &prepared)?;
        // Play every step once, so that a bad step is reported now with its path
        // instead of halfway through the page's replay.
        s.apply(&prepared.steps, "scenario")?;
        if replay {
            let lines = s.lines(0, usize::MAX);
            Ok::<_, ApiError>((s, lines, Vec::new()))
        } else {
            s.reset()?;
            let lines = s.lines(0, usize::MAX);
            Ok((s, lines, prepared.steps))
        }
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "", e.to_string()))??;
    let engine_name = engine.name;
    let scenario = s.doc().clone();
    let step_count = s.step_count();
    let id = lock(&st.store).insert(s);
    Ok(Json(json!({
        "id": id,
        "engine": engine_name,
        "scenario": scenario,
        "lines": lines,
        "pending_steps": pending,
        "step_count": step_count,
    })))
}

/// `GET /api/sessions/{id}`
pub async fn get_session(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = st.session(&id)?;
    let s = lock(&s);
    Ok(Json(json!({
        "id": id,
        "engine": s.engine.name,
        "scenario": s.doc(),
        "step_count": s.step_count(),
        "line": s.last_line(),
    })))
}

/// `DELETE /api/sessions/{id}`
pub async fn delete_session(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<StatusCode, ApiError> {
    if lock(&st.store).remove(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(format!("no session '{id}'")))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepsBody {
    steps: Vec<Value>,
}

/// `POST /api/sessions/{id}/steps`
pub async fn apply_steps(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
    JsonBody(req): JsonBody<StepsBody>,
) -> Result<Json<Value>, ApiError> {
    if req.steps.len() > MAX_STEPS_PER_CALL {
        return Err(ApiError::unprocessable(
            "steps",
            format!(
                "too many steps in one request ({}; at most {MAX_STEPS_PER_CALL})",
                req.steps.len()
            ),
        ));
    }
    let s = st.session(&id)?;
    let (lines, step_count, bytes) = {
        let mut s = lock(&s);
        let lines = s.apply(&req.steps, "")?;
        (lines, s.step_count(), s.bytes())
    };
    lock(&st.store).resized(&id, bytes);
    Ok(Json(json!({
        "lines": lines,
        "step_count": step_count,
    })))
}

/// `POST /api/sessions/{id}/reset`
pub async fn reset_session(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = st.session(&id)?;
    let (line, bytes) = {
        let mut s = lock(&s);
        s.reset()?;
        (s.last_line().clone(), s.bytes())
    };
    lock(&st.store).resized(&id, bytes);
    Ok(Json(json!({ "line": line, "step_count": 0 })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinesQuery {
    #[serde(default)]
    from: usize,
    to: Option<usize>,
}

/// Lines one `lines` request returns at most.
const MAX_LINES_PER_CALL: usize = 5_000;

/// `GET /api/sessions/{id}/lines?from=A&to=B` (trace lines A..B, B exclusive)
pub async fn get_lines(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
    q: Result<Query<LinesQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad_request("query", e.body_text()))?;
    let s = st.session(&id)?;
    let s = lock(&s);
    let total = s.line_count();
    let from = q.from.min(total);
    let to =
        q.to.unwrap_or(total)
            .clamp(from, total)
            .min(from + MAX_LINES_PER_CALL);
    Ok(Json(
        json!({ "from": from, "lines": s.lines(from, to), "total": total }),
    ))
}

/// `GET /api/sessions/{id}/trace`: the JSON Lines trace, as a download.
pub async fn get_trace(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let s = st.session(&id)?;
    let s = lock(&s);
    let name = format!("{}-trace.jsonl", s.engine.name);
    Ok(download(s.trace_jsonl(), "application/x-ndjson", &name))
}

/// `GET /api/sessions/{id}/scenario`: the scenario with the steps played, as a download.
pub async fn get_scenario(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let s = st.session(&id)?;
    let s = lock(&s);
    let name = format!("{}-scenario.json", s.engine.name);
    let text = serde_json::to_string_pretty(&s.scenario_with_steps()).unwrap_or_default();
    Ok(download(text + "\n", "application/json", &name))
}

/// `GET /api/sessions/{id}/assets`: the engine's description of the session's assets.
pub async fn get_assets(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = st.session(&id)?;
    let (engine, scenario) = {
        let s = lock(&s);
        (s.engine, s.scenario().clone())
    };
    let info = engine.info.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "",
            format!("no asset description for engine '{}'", engine.name),
        )
    })?;
    let v = tokio::task::spawn_blocking(move || info(&scenario))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "", e.to_string()))?
        .map_err(|m| ApiError::unprocessable(engine.asset_field, m))?;
    Ok(Json(json!({ "engine": engine.name, "assets": v })))
}

fn download(body: String, mime: &'static str, name: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// Unknown `/api/...` paths answer in JSON too.
pub async fn api_not_found() -> ApiError {
    ApiError::not_found("no such API endpoint (see docs/browser.md)")
}

/// Sample scenario files an engine folder offers (`assets/<engine>/scenarios/*.json`),
/// sorted by name.
fn sample_names(folder: &std::path::Path) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(folder.join("scenarios")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = dir
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

fn engine_and_folder(st: &AppState, name: &str) -> Result<(&'static EngineDef, PathBuf), ApiError> {
    let engine = engines::find(st.engines, name)
        .ok_or_else(|| ApiError::not_found(format!("no engine '{name}'")))?;
    let folder = st
        .folder(engine)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("no asset folder for '{name}'")))?;
    Ok((engine, folder))
}

/// `GET /api/engines/{engine}/samples`
pub async fn list_samples(
    State(st): State<AppState>,
    UrlPath(name): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (_, folder) = engine_and_folder(&st, &name)?;
    Ok(Json(json!({ "samples": sample_names(&folder) })))
}

/// `GET /api/engines/{engine}/samples/{file}`: one sample scenario, as written. Only
/// names the listing offers are served.
pub async fn get_sample(
    State(st): State<AppState>,
    UrlPath((name, file)): UrlPath<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let (_, folder) = engine_and_folder(&st, &name)?;
    if !sample_names(&folder).contains(&file) {
        return Err(ApiError::not_found(format!("no sample scenario '{file}'")));
    }
    let path = crate::paths::confine(&folder, &file, crate::paths::Kind::File)
        .map_err(ApiError::not_found)?;
    let text = std::fs::read(&path)
        .ok()
        .filter(|b| b.len() <= crate::BODY_LIMIT)
        .ok_or_else(|| {
            ApiError::unprocessable(
                "",
                format!("cannot read sample '{file}' (or it is larger than the body limit)"),
            )
        })?;
    let doc: Value = serde_json::from_slice(&text)
        .map_err(|e| ApiError::unprocessable("", format!("sample '{file}' is not JSON: {e}")))?;
    Ok(Json(doc))
}
