//! The JSON API (documented in docs/browser.md).

use crate::body::JsonBody;
use crate::engines::{self, EngineDef};
use crate::error::ApiError;
use crate::limits::{Options, BODY_LIMIT};
use crate::session::{self, Budget, Session, Store, MAX_STEPS, MAX_STEPS_PER_CALL};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

/// Shared server state.
#[derive(Clone)]
pub struct AppState {
    pub engines: &'static [EngineDef],
    /// Canonical per-engine asset folders, in table order (`None`: missing).
    pub folders: Arc<Vec<Option<PathBuf>>>,
    pub store: Arc<Mutex<Store>>,
    pub opts: Arc<Options>,
    /// Requests running engine work now (see `Options::engine_slots`).
    engine_slots: Arc<Semaphore>,
    download_slots: Arc<Semaphore>,
}

/// A session's lock and an engine slot, both held for one request's engine work.
struct EngineTurn {
    session: OwnedMutexGuard<Session>,
    _slot: OwnedSemaphorePermit,
}

fn busy(what: &str, opts: &Options) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "",
        format!(
            "the server is busy: {what} did not come free within {} ms; try again",
            opts.queue_wait.as_millis()
        ),
    )
}

fn join_error(e: tokio::task::JoinError) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "",
        format!("the engine stopped: {e}"),
    )
}

impl AppState {
    pub fn new(
        engines: &'static [EngineDef],
        assets_root: &std::path::Path,
        opts: Options,
    ) -> AppState {
        let folders = engines
            .iter()
            .map(|e| engines::folder(assets_root, e).canonicalize().ok())
            .collect::<Vec<_>>();
        AppState {
            engines,
            folders: Arc::new(folders),
            store: Arc::new(Mutex::new(Store::default())),
            engine_slots: Arc::new(Semaphore::new(opts.engine_slots.max(1))),
            download_slots: Arc::new(Semaphore::new(opts.download_slots.max(1))),
            opts: Arc::new(opts),
        }
    }

    fn budget(&self) -> Budget {
        Budget::new(self.opts.work_time, self.opts.output_bytes)
    }

    fn work_ms(&self) -> u128 {
        self.opts.work_time.as_millis()
    }

    /// Wait (without blocking an async worker) for an engine slot.
    async fn engine_slot(&self, deadline: Instant) -> Result<OwnedSemaphorePermit, ApiError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(wait, self.engine_slots.clone().acquire_owned()).await {
            Ok(Ok(p)) => Ok(p),
            _ => Err(busy("an engine slot", &self.opts)),
        }
    }

    /// A session's lock, waited for without blocking an async worker.
    /// The session's engine and a copy of its scenario, taken under the session's lock
    /// (released before any engine work).
    async fn session_scenario(
        &self,
        id: &str,
    ) -> Result<(&'static EngineDef, retroanim_core::Scenario), ApiError> {
        let s = self
            .lock_session(id, Instant::now() + self.opts.queue_wait)
            .await?;
        Ok((s.engine, s.scenario().clone()))
    }

    /// A description of a session's assets (`f`), worked out on a blocking thread that
    /// holds an engine slot; its error is located at the engine's asset field.
    async fn describe(
        &self,
        engine: &'static EngineDef,
        f: impl FnOnce() -> Result<Value, String> + Send + 'static,
    ) -> Result<Value, ApiError> {
        let slot = self
            .engine_slot(Instant::now() + self.opts.queue_wait)
            .await?;
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            f()
        })
        .await
        .map_err(join_error)?
        .map_err(|m| ApiError::unprocessable(engine.asset_field, m))
    }

    async fn lock_session(
        &self,
        id: &str,
        deadline: Instant,
    ) -> Result<OwnedMutexGuard<Session>, ApiError> {
        let s = self.session(id)?;
        let wait = deadline.saturating_duration_since(Instant::now());
        tokio::time::timeout(wait, s.lock_owned())
            .await
            .map_err(|_| busy(&format!("session '{id}'"), &self.opts))
    }

    /// The session's lock, then an engine slot (in that order, so that a request
    /// waiting for a busy session holds no slot).
    async fn engine_turn(&self, id: &str) -> Result<EngineTurn, ApiError> {
        let deadline = Instant::now() + self.opts.queue_wait;
        let session = self.lock_session(id, deadline).await?;
        let slot = self.engine_slot(deadline).await?;
        Ok(EngineTurn {
            session,
            _slot: slot,
        })
    }

    fn download_slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.download_slots
            .clone()
            .try_acquire_owned()
            .map_err(|_| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "",
                    format!(
                        "too many downloads at once (at most {}); try again when one has finished",
                        self.opts.download_slots
                    ),
                )
            })
    }

    fn folder(&self, engine: &EngineDef) -> Option<&PathBuf> {
        let i = self.engines.iter().position(|e| e.name == engine.name)?;
        self.folders.get(i)?.as_ref()
    }

    fn session(&self, id: &str) -> Result<Arc<tokio::sync::Mutex<Session>>, ApiError> {
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
            "body_bytes": BODY_LIMIT,
            "steps_per_session": MAX_STEPS,
            "steps_per_request": MAX_STEPS_PER_CALL,
            "sessions": session::MAX_SESSIONS,
            "trace_bytes": session::MAX_TOTAL_BYTES,
            "request_output_bytes": st.opts.output_bytes,
            "request_work_ms": st.work_ms(),
            "lines_bytes": MAX_LINES_BYTES,
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
) -> Result<Response, ApiError> {
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
    let dat = st.opts.ac_dat.as_ref().map(|d| d.path.clone());
    let doc = crate::es2::expand(engine.name, doc, st.opts.es2.as_deref())
        .map_err(|(at, m)| ApiError::unprocessable(at, m))?;
    let prepared = session::prepare(engine, doc, folder, dat.as_deref())?;
    let replay = req.replay;
    let mut budget = st.budget();
    let slot = st.engine_slot(Instant::now() + st.opts.queue_wait).await?;
    // Loading and checking up to MAX_STEPS steps is CPU work: keep it off the async workers.
    let (s, lines, pending) = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let mut s = session::start(engine, &prepared)?;
        // Play every step once, so that a bad step is reported now with its path
        // instead of halfway through the page's replay.
        s.apply(&prepared.steps, "scenario", &mut budget)?;
        s.take_rebuilt();
        if replay {
            let (lines, _) = s.lines_text(0, usize::MAX, usize::MAX);
            Ok::<_, ApiError>((s, lines, Vec::new()))
        } else {
            s.reset().map_err(ApiError::from)?;
            let (lines, _) = s.lines_text(0, usize::MAX, usize::MAX);
            Ok((s, lines, prepared.steps))
        }
    })
    .await
    .map_err(join_error)??;
    let head = json!({
        "engine": engine.name,
        "scenario": s.doc(),
        "pending_steps": pending,
        "step_count": s.step_count(),
    });
    let id = lock(&st.store).insert(s);
    Ok(json_with(
        head,
        &[("id", &Value::String(id).to_string()), ("lines", &lines)],
    ))
}

/// A JSON object: `head`'s fields, then fields whose values are JSON text already
/// (trace lines are kept as text; turning them back into `Value`s would cost
/// several times their size).
fn json_with(head: Value, raw: &[(&str, &str)]) -> Response {
    let mut out = head.to_string();
    out.pop(); // the closing brace
    for (k, v) in raw {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&Value::String((*k).to_string()).to_string());
        out.push(':');
        out.push_str(v);
    }
    out.push('}');
    ([(header::CONTENT_TYPE, "application/json")], out).into_response()
}

/// `GET /api/sessions/{id}`
pub async fn get_session(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = st
        .lock_session(&id, Instant::now() + st.opts.queue_wait)
        .await?;
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
) -> Result<Response, ApiError> {
    if req.steps.len() > MAX_STEPS_PER_CALL {
        return Err(ApiError::unprocessable(
            "steps",
            format!(
                "too many steps in one request ({}; at most {MAX_STEPS_PER_CALL})",
                req.steps.len()
            ),
        ));
    }
    let turn = st.engine_turn(&id).await?;
    let mut budget = st.budget();
    let (lines, step_count, bytes, rebuilt) = tokio::task::spawn_blocking(move || {
        let mut turn = turn;
        let s = &mut turn.session;
        let first = s.line_count();
        let result = s.apply(&req.steps, "", &mut budget).map_err(ApiError::from);
        // The steps before a refused one are kept: the store must see their size.
        let bytes = s.bytes();
        let rebuilt = s.take_rebuilt();
        match result {
            Ok(_) => {
                let (lines, _) = s.lines_text(first, usize::MAX, usize::MAX);
                Ok((lines, s.step_count(), bytes, rebuilt))
            }
            Err(e) => Err((e, bytes)),
        }
    })
    .await
    .map_err(join_error)?
    .map_err(|(e, bytes)| {
        lock(&st.store).resized(&id, bytes);
        e
    })?;
    lock(&st.store).resized(&id, bytes);
    // `rebuilt`: the lines played before were replaced (docs/browser.md): fetch them again.
    let head = if rebuilt {
        json!({ "step_count": step_count, "rebuilt": true })
    } else {
        json!({ "step_count": step_count })
    };
    Ok(json_with(head, &[("lines", &lines)]))
}

/// `POST /api/sessions/{id}/reset`
pub async fn reset_session(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let turn = st.engine_turn(&id).await?;
    let (line, bytes) = tokio::task::spawn_blocking(move || {
        let mut turn = turn;
        let s = &mut turn.session;
        s.reset().map_err(ApiError::from)?;
        Ok::<_, ApiError>((s.last_line().clone(), s.bytes()))
    })
    .await
    .map_err(join_error)??;
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
/// Trace text one `lines` request returns at most (it stops after the line that
/// reaches it; `from` + the count returned is where to go on).
pub const MAX_LINES_BYTES: usize = 1 << 20;

/// `GET /api/sessions/{id}/lines?from=A&to=B` (trace lines A..B, B exclusive)
pub async fn get_lines(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
    q: Result<Query<LinesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad_request("query", e.body_text()))?;
    let s = st
        .lock_session(&id, Instant::now() + st.opts.queue_wait)
        .await?;
    let total = s.line_count();
    let from = q.from.min(total);
    let to =
        q.to.unwrap_or(total)
            .clamp(from, total)
            .min(from + MAX_LINES_PER_CALL);
    let (lines, _) = s.lines_text(from, to, MAX_LINES_BYTES);
    drop(s);
    Ok(json_with(
        json!({ "from": from, "total": total }),
        &[("lines", &lines)],
    ))
}

/// `GET /api/sessions/{id}/trace`: the JSON Lines trace, as a download.
pub async fn get_trace(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let slot = st.download_slot()?;
    let s = st.session(&id)?;
    let (name, body) = crate::download::trace(s, slot, st.opts.queue_wait).await?;
    Ok(download(body, "application/x-ndjson", &name))
}

/// `GET /api/sessions/{id}/scenario`: the scenario with the steps played, as a download.
pub async fn get_scenario(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let slot = st.download_slot()?;
    let s = st
        .lock_session(&id, Instant::now() + st.opts.queue_wait)
        .await?;
    let name = format!("{}-scenario.json", s.engine.name);
    let text = serde_json::to_string_pretty(&s.scenario_with_steps()).unwrap_or_default();
    drop(s);
    drop(slot);
    Ok(download(
        axum::body::Body::from(text + "\n"),
        "application/json",
        &name,
    ))
}

/// `GET /api/sessions/{id}/assets`: the engine's description of the session's assets.
pub async fn get_assets(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (engine, scenario) = st.session_scenario(&id).await?;
    let info = engine.info.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "",
            format!("no asset description for engine '{}'", engine.name),
        )
    })?;
    let v = st.describe(engine, move || info(&scenario)).await?;
    Ok(Json(json!({ "engine": engine.name, "assets": v })))
}

/// `GET /api/sessions/{id}/figure`: the AC creature of the session, for drawing (the
/// Setup naming the session's motion table, its part meshes and the part frames of
/// the table's animations). Other engines have none.
pub async fn get_figure(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (engine, scenario) = st.session_scenario(&id).await?;
    if engine.name != "ac" {
        return Err(ApiError::not_found(format!(
            "engine '{}' has no figure (only ac sessions do)",
            engine.name
        )));
    }
    let v = st
        .describe(engine, move || crate::figure::ac(&scenario))
        .await?;
    Ok(Json(json!({ "engine": engine.name, "figure": v })))
}

/// `GET /api/sessions/{id}/update_motion`: the last message the session's engine wrote
/// (the AC server loop's `wire` key, hex) and its step; `{"hex": null}` before any.
pub async fn get_update_motion(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = st
        .lock_session(&id, Instant::now() + st.opts.queue_wait)
        .await?;
    Ok(Json(retroanim_session::update_motion_json(
        s.engine.name,
        s.last_wire(),
    )))
}

/// A download's file name and the `.glb` bytes, or what is wrong.
type GltfAnswer = Result<(String, Vec<u8>), String>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GltfQuery {
    root_motion: Option<String>,
    skinned: Option<bool>,
    setup: Option<String>,
}

/// `GET /api/sessions/{id}/gltf[?root_motion=in-place|baked][&skinned=true][&setup=0x02……]`:
/// the session's model and every clip it can play (an AC Setup with its motion table, a
/// HERC shape's sequences, an actor set's groups), as a `.glb` download (docs/export.md).
/// `setup` is for AC sessions; actor sets have no root motion.
pub async fn get_gltf(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
    q: Result<Query<GltfQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::unprocessable("query", e.body_text()))?;
    let baked = match q.root_motion.as_deref() {
        None | Some("in-place") => false,
        Some("baked") => true,
        Some(other) => {
            return Err(ApiError::unprocessable(
                "query.root_motion",
                format!("'{other}' is neither in-place nor baked"),
            ))
        }
    };
    let setup = q
        .setup
        .as_deref()
        .map(|s| {
            retroanim_session::doc::parse_id(s).ok_or_else(|| {
                ApiError::unprocessable(
                    "query.setup",
                    format!("'{s}' is not an id such as 0x02000001"),
                )
            })
        })
        .transpose()?;
    let skinned = q.skinned.unwrap_or(false);
    let (engine, scenario) = st.session_scenario(&id).await?;
    let export: Box<dyn FnOnce() -> GltfAnswer + Send> = match engine.name {
        "ac" => {
            let dat = st.opts.ac_dat.clone();
            let root_motion = if baked {
                retroanim_gltf::ac::RootMotion::Baked
            } else {
                retroanim_gltf::ac::RootMotion::InPlace
            };
            Box::new(move || {
                crate::gltf_export::ac(
                    &scenario,
                    setup,
                    dat.as_deref().map(|d| d.tables()),
                    root_motion,
                    skinned,
                )
            })
        }
        "herc" => {
            let es2 = st.opts.es2.clone();
            let root_motion = if baked {
                retroanim_gltf::herc::RootMotion::Baked
            } else {
                retroanim_gltf::herc::RootMotion::InPlace
            };
            Box::new(move || {
                crate::gltf_export::herc(&scenario, es2.as_deref(), root_motion, skinned)
            })
        }
        "actor" => Box::new(move || crate::gltf_export::actor(&scenario, skinned)),
        other => {
            return Err(ApiError::not_found(format!(
                "engine '{other}' has no glTF export"
            )))
        }
    };
    let slot = st.engine_slot(Instant::now() + st.opts.queue_wait).await?;
    let (name, glb) = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        export()
    })
    .await
    .map_err(join_error)?
    .map_err(|m| ApiError::unprocessable(engine.asset_field, m))?;
    Ok(download(
        axum::body::Body::from(glb),
        "model/gltf-binary",
        &name,
    ))
}

/// `GET /api/sessions/{id}/meshes`: the DTS meshes a herc session draws (docs/browser.md),
/// each with the node whose world transform places it. Other engines have none.
pub async fn get_meshes(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (engine, scenario) = st.session_scenario(&id).await?;
    if engine.name != "herc" {
        return Err(ApiError::not_found(format!(
            "engine '{}' has no DTS meshes (only herc sessions do)",
            engine.name
        )));
    }
    let es2 = st.opts.es2.clone();
    let mut v = st
        .describe(engine, move || {
            crate::es2::session_meshes(&scenario, es2.as_deref())
        })
        .await?;
    v["engine"] = json!(engine.name);
    Ok(Json(v))
}

/// `GET /api/herc/es2`: the shapes of the user's Earthsiege 2 folder, or `{"open": false}`
/// without `--es2` (asked on every load, like `/api/ac/dat`).
pub async fn get_es2(State(st): State<AppState>) -> Json<Value> {
    match &st.opts.es2 {
        Some(f) => {
            let mut v = f.listing();
            v["open"] = json!(true);
            Json(v)
        }
        None => Json(json!({
            "open": false,
            "how": "start with `retroanim browse --es2 PATH` (the Earthsiege 2 folder holding SIMVOL0.VOL)",
        })),
    }
}

fn ac_dat(st: &AppState) -> Result<Arc<crate::user_data::AcDat>, ApiError> {
    st.opts.ac_dat.clone().ok_or_else(|| {
        ApiError::not_found("no AC DAT is open (start with `retroanim browse --ac-dat PATH`)")
    })
}

/// `GET /api/ac/dat`: the motion tables of the user's DAT, each with the Setups
/// naming it.
///
/// Without `--ac-dat` it answers `{"open": false}` (the page asks on every load; a 404
/// would be an error in its console).
pub async fn get_ac_dat(State(st): State<AppState>) -> Json<Value> {
    match &st.opts.ac_dat {
        Some(d) => {
            let mut v = d.listing();
            v["open"] = json!(true);
            Json(v)
        }
        None => Json(json!({
            "open": false,
            "how": "start with `retroanim browse --ac-dat PATH/client_portal.dat`",
        })),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureQuery {
    table: String,
    setup: Option<String>,
}

/// `GET /api/ac/dat/figure?table=0x09……[&setup=0x02……]`: a figure from the user's DAT.
pub async fn get_ac_dat_figure(
    State(st): State<AppState>,
    q: Result<Query<FigureQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let dat = ac_dat(&st)?;
    let Query(q) = q.map_err(|e| ApiError::unprocessable("query", e.body_text()))?;
    let id = |s: &str, at: &str| {
        retroanim_session::doc::parse_id(s).ok_or_else(|| {
            ApiError::unprocessable(at, format!("'{s}' is not an id such as 0x09000001"))
        })
    };
    let table = id(&q.table, "query.table")?;
    let setup = q
        .setup
        .as_deref()
        .map(|s| id(s, "query.setup"))
        .transpose()?;
    let slot = st.engine_slot(Instant::now() + st.opts.queue_wait).await?;
    let v = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        dat.figure(table, setup)
    })
    .await
    .map_err(join_error)?
    .map_err(|m| ApiError::unprocessable("query", m))?;
    Ok(Json(json!({ "figure": v })))
}

fn download(body: axum::body::Body, mime: &'static str, name: &str) -> Response {
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
    let text = retroanim_core::input::read_regular(&path, BODY_LIMIT as u64)
        .ok()
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
