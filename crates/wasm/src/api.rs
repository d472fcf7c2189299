//! The model browser's JSON API (the routes `retroanim browse` serves under `/api`),
//! answered in the page: same paths, same bodies, same error shape, so the page's
//! code runs unchanged on either transport.

use crate::embedded;
use crate::engines::{self, Engine, ENGINES};
use crate::error::ApiError;
use crate::session::{Session, MAX_SESSIONS, MAX_STEPS, MAX_STEPS_PER_CALL};
use crate::user_files;
use retroanim_session::doc::check;
use serde_json::{json, Map, Value};

/// An answer: a status and a JSON body, a file to download, or nothing (204).
#[derive(Debug, PartialEq)]
pub enum Answer {
    Json(u16, Value),
    Download {
        text: String,
        mime: &'static str,
        filename: String,
    },
    Empty,
}

impl Answer {
    /// The envelope the JS glue reads: `{"status", "json"}` or
    /// `{"status", "text", "mime", "filename"}`.
    pub fn envelope(&self) -> Value {
        match self {
            Answer::Json(status, body) => json!({ "status": status, "json": body }),
            Answer::Download {
                text,
                mime,
                filename,
            } => json!({ "status": 200, "text": text, "mime": mime, "filename": filename }),
            Answer::Empty => json!({ "status": 204 }),
        }
    }
}

struct Entry {
    id: String,
    used: u64,
    session: Session,
}

/// Every open session of the page.
#[derive(Default)]
pub struct Api {
    next_id: u64,
    clock: u64,
    sessions: Vec<Entry>,
}

fn builtin(engine: &Engine, file: &str) -> Result<Value, ApiError> {
    let text = embedded::start(file).ok_or_else(|| {
        ApiError::new(
            503,
            "",
            format!(
                "the starting scenario {file} of '{}' is not built in",
                engine.name
            ),
        )
    })?;
    serde_json::from_str(text).map_err(|e| {
        ApiError::new(
            500,
            "",
            format!("a built-in scenario of '{}' is broken: {e}", engine.name),
        )
    })
}

fn ok(v: Value) -> Result<Answer, ApiError> {
    Ok(Answer::Json(200, v))
}

impl Api {
    /// Answer `method path` (query string included) with an optional JSON body.
    pub fn handle(&mut self, method: &str, path: &str, body: Option<Value>) -> Answer {
        match self.route(method, path, body) {
            Ok(a) => a,
            Err(e) => Answer::Json(e.status, e.body()),
        }
    }

    /// The envelope for a request envelope `{"method", "path", "body"}` given as text.
    pub fn handle_text(&mut self, request: &str) -> String {
        let answer = match serde_json::from_str::<Value>(request) {
            Ok(Value::Object(mut r)) => {
                let method = r
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("GET")
                    .to_string();
                let path = r
                    .get("path")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let body = r.remove("body").filter(|b| !b.is_null());
                self.handle(&method, &path, body)
            }
            Ok(_) => Answer::Json(
                400,
                ApiError::bad_request("", "a request must be a JSON object").body(),
            ),
            Err(e) => Answer::Json(
                400,
                ApiError::bad_request("", format!("the request is not JSON: {e}")).body(),
            ),
        };
        answer.envelope().to_string()
    }

    fn route(&mut self, method: &str, path: &str, body: Option<Value>) -> Result<Answer, ApiError> {
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", ["engines"]) => self.list_engines(),
            ("GET", ["engines", e, "samples"]) => {
                let engine = engine_with_assets(e)?;
                ok(json!({ "samples": sample_names(engine) }))
            }
            ("GET", ["engines", e, "samples", file]) => {
                get_sample(engine_with_assets(e)?, &decode(file))
            }
            ("POST", ["sessions"]) => self.create(body),
            ("GET", ["ac", "dat"]) => ok(user_files::listing_json()),
            ("POST", ["ac", "dat"]) => ok(user_files::open(body)?),
            ("GET", ["ac", "dat", "figure"]) => ok(user_files::figure(query)?),
            ("GET", ["herc", "es2"]) => ok(user_files::es2_json()),
            ("POST", ["herc", "es2"]) => ok(user_files::open_es2(body)?),
            ("GET", ["sessions", id]) => {
                let s = self.session(id)?;
                ok(json!({
                    "id": id,
                    "engine": s.engine.name,
                    "scenario": s.doc(),
                    "step_count": s.step_count(),
                    "line": s.last_line(),
                }))
            }
            ("DELETE", ["sessions", id]) => {
                let before = self.sessions.len();
                self.sessions.retain(|e| e.id != *id);
                if self.sessions.len() < before {
                    Ok(Answer::Empty)
                } else {
                    Err(ApiError::not_found(format!("no session '{id}'")))
                }
            }
            ("POST", ["sessions", id, "steps"]) => {
                let steps = steps_of(body)?;
                let s = self.session(id)?;
                let mut lines = Vec::new();
                s.apply(&steps, "", &mut lines)?;
                let mut answer = json!({ "lines": lines, "step_count": s.step_count() });
                // The lines played before were replaced: the page fetches them again.
                if s.take_rebuilt() {
                    answer["rebuilt"] = json!(true);
                }
                ok(answer)
            }
            ("POST", ["sessions", id, "reset"]) => {
                let s = self.session(id)?;
                s.reset()?;
                ok(json!({ "line": s.last_line(), "step_count": 0 }))
            }
            ("GET", ["sessions", id, "lines"]) => {
                let (from, to) = lines_query(query)?;
                let s = self.session(id)?;
                let total = s.line_count();
                let from = from.min(total);
                let to = to.unwrap_or(total).clamp(from, total).min(from + 5_000);
                ok(json!({ "from": from, "lines": s.lines(from, to), "total": total }))
            }
            ("GET", ["sessions", id, "trace"]) => {
                let s = self.session(id)?;
                Ok(Answer::Download {
                    text: s.trace_jsonl(),
                    mime: "application/x-ndjson",
                    filename: format!("{}-trace.jsonl", s.engine.name),
                })
            }
            ("GET", ["sessions", id, "scenario"]) => {
                let s = self.session(id)?;
                let text =
                    serde_json::to_string_pretty(&s.scenario_with_steps()).unwrap_or_default();
                Ok(Answer::Download {
                    text: text + "\n",
                    mime: "application/json",
                    filename: format!("{}-scenario.json", s.engine.name),
                })
            }
            ("GET", ["sessions", id, "assets"]) => {
                let s = self.session(id)?;
                let name = s.engine.name;
                let field = s.engine.asset_field;
                match (name, s.scenario().raw(field)) {
                    // The JSON assets are what the server describes them as: the files as written.
                    ("herc" | "actor", Some(v @ Value::Object(_))) => {
                        ok(json!({ "engine": name, "assets": v }))
                    }
                    // The motion table listing, as the server describes it.
                    ("ac", _) => {
                        let v = engines::ac_table(s.scenario())
                            .map_err(|m| ApiError::unprocessable(field, m))?;
                        ok(json!({ "engine": name, "assets": v }))
                    }
                    _ => Err(ApiError::new(
                        501,
                        "",
                        format!("the static page has no asset description for engine '{name}'"),
                    )),
                }
            }
            ("GET", ["sessions", id, "figure"]) => {
                let s = self.session(id)?;
                let name = s.engine.name;
                if name != "ac" {
                    return Err(ApiError::not_found(format!(
                        "engine '{name}' has no figure (only ac sessions do)"
                    )));
                }
                let figure = engines::ac_figure(s.scenario())
                    .map_err(|m| ApiError::unprocessable(s.engine.asset_field, m))?;
                ok(json!({ "engine": name, "figure": figure }))
            }
            ("GET", ["sessions", id, "update_motion"]) => {
                let s = self.session(id)?;
                ok(retroanim_session::update_motion_json(
                    s.engine.name,
                    s.last_wire(),
                ))
            }
            ("GET", ["sessions", id, "meshes"]) => {
                let s = self.session(id)?;
                let name = s.engine.name;
                if name != "herc" {
                    return Err(ApiError::not_found(format!(
                        "engine '{name}' has no DTS meshes (only herc sessions do)"
                    )));
                }
                let mut v = engines::herc_meshes(s.doc())?;
                v["engine"] = json!(name);
                ok(v)
            }
            _ => Err(ApiError::not_found(
                "no such API endpoint (see docs/browser.md)",
            )),
        }
    }

    fn list_engines(&self) -> Result<Answer, ApiError> {
        let mut out = Vec::new();
        for e in ENGINES.iter() {
            let more = e
                .more
                .iter()
                .map(|(name, file)| Ok(((*name).to_string(), builtin(e, file)?)))
                .collect::<Result<Map<_, _>, ApiError>>()?;
            out.push(json!({
                "name": e.name,
                "built": true,
                "assets_present": embedded::has_engine(e.name),
                "asset_field": e.asset_field,
                "default_scenario": builtin(e, e.start).ok(),
                "more_scenarios": more,
            }));
        }
        ok(json!({
            "engines": out,
            "limits": {
                "steps_per_session": MAX_STEPS,
                "steps_per_request": MAX_STEPS_PER_CALL,
                "sessions": MAX_SESSIONS,
            },
            "transport": "wasm",
        }))
    }

    fn create(&mut self, body: Option<Value>) -> Result<Answer, ApiError> {
        let Some(Value::Object(mut req)) = body else {
            return Err(ApiError::bad_request("", "expected a JSON object"));
        };
        if let Some(k) = req
            .keys()
            .find(|k| !["engine", "scenario", "replay"].contains(&k.as_str()))
        {
            return Err(ApiError::bad_request(k.clone(), "unknown field"));
        }
        let name = req
            .get("engine")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let engine = engines::find(&name).ok_or_else(|| {
            ApiError::unprocessable(
                "engine",
                format!("unknown engine '{name}' (expected one of: herc, ac, actor)"),
            )
        })?;
        let replay = match req.get("replay") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(ApiError::bad_request("replay", "expected true or false")),
        };
        let doc = match req.remove("scenario") {
            Some(d) if !d.is_null() => d,
            _ => builtin(engine, engine.start)?,
        };
        let doc = user_files::es2_expand(engine.name, doc)?;
        let (doc, steps) = check(engine.checked_field(), doc)?;
        let doc = Value::Object(doc);
        let scenario = engine.scenario(&doc)?;
        let mut s = engine.start(doc, scenario)?;
        // Every step once now, so a bad step is reported with its path at once.
        s.apply(&steps, "scenario", &mut ())?;
        s.take_rebuilt();
        let pending = if replay {
            Vec::new()
        } else {
            s.reset()?;
            steps
        };
        let lines = s.lines(0, usize::MAX);
        let answer = json!({
            "engine": engine.name,
            "scenario": s.doc(),
            "lines": lines,
            "pending_steps": pending,
            "step_count": s.step_count(),
        });
        let id = self.insert(s);
        let mut answer = answer;
        answer["id"] = json!(id);
        ok(answer)
    }

    fn insert(&mut self, session: Session) -> String {
        if self.sessions.len() >= MAX_SESSIONS {
            if let Some(i) = (0..self.sessions.len()).min_by_key(|&i| self.sessions[i].used) {
                self.sessions.remove(i);
            }
        }
        self.next_id += 1;
        self.clock += 1;
        let id = format!("s{}", self.next_id);
        self.sessions.push(Entry {
            id: id.clone(),
            used: self.clock,
            session,
        });
        id
    }

    fn session(&mut self, id: &str) -> Result<&mut Session, ApiError> {
        self.clock += 1;
        let clock = self.clock;
        let e = self
            .sessions
            .iter_mut()
            .find(|e| e.id == id)
            .ok_or_else(|| {
                ApiError::not_found(format!("no session '{id}' (it may have expired)"))
            })?;
        e.used = clock;
        Ok(&mut e.session)
    }
}

fn steps_of(body: Option<Value>) -> Result<Vec<Value>, ApiError> {
    let Some(Value::Object(mut b)) = body else {
        return Err(ApiError::bad_request(
            "",
            "expected a JSON object with 'steps'",
        ));
    };
    if let Some(k) = b.keys().find(|k| k.as_str() != "steps") {
        return Err(ApiError::bad_request(k.clone(), "unknown field"));
    }
    let Some(Value::Array(steps)) = b.remove("steps") else {
        return Err(ApiError::bad_request("steps", "expected an array of steps"));
    };
    if steps.len() > MAX_STEPS_PER_CALL {
        return Err(ApiError::unprocessable(
            "steps",
            format!(
                "too many steps in one request ({}; at most {MAX_STEPS_PER_CALL})",
                steps.len()
            ),
        ));
    }
    Ok(steps)
}

fn lines_query(q: &str) -> Result<(usize, Option<usize>), ApiError> {
    let (mut from, mut to) = (0, None);
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let n: usize = v.parse().map_err(|_| {
            ApiError::bad_request("query", format!("{k}: expected a whole number, got '{v}'"))
        })?;
        match k {
            "from" => from = n,
            "to" => to = Some(n),
            _ => {
                return Err(ApiError::bad_request(
                    "query",
                    format!("unknown field '{k}'"),
                ))
            }
        }
    }
    Ok((from, to))
}

/// `%XX` escapes of a path segment (the page encodes sample names).
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (b[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn engine_with_assets(name: &str) -> Result<&'static Engine, ApiError> {
    let e =
        engines::find(name).ok_or_else(|| ApiError::not_found(format!("no engine '{name}'")))?;
    if !embedded::has_engine(name) {
        return Err(ApiError::not_found(format!("no asset folder for '{name}'")));
    }
    Ok(e)
}

/// The sample scenarios built in for an engine (`assets/<engine>/scenarios/*.json`), by name.
fn sample_names(engine: &Engine) -> Vec<String> {
    let mut names: Vec<String> = embedded::files_in(&format!("{}/scenarios", engine.name))
        .map(|(n, _)| n.to_string())
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

fn get_sample(engine: &Engine, file: &str) -> Result<Answer, ApiError> {
    if !sample_names(engine).iter().any(|n| n == file) {
        return Err(ApiError::not_found(format!("no sample scenario '{file}'")));
    }
    let text = embedded::text(&format!("{}/scenarios/{file}", engine.name)).unwrap_or_default();
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| ApiError::unprocessable("", format!("sample '{file}' is not JSON: {e}")))?;
    ok(doc)
}
