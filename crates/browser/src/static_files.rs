//! The page, embedded in the binary so that `retroanim browse` needs nothing but
//! itself (no CDN, no files next to the binary).

use axum::extract::Path as UrlPath;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// (path under /static/, content type, bytes)
pub const FILES: &[(&str, &str, &[u8])] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../static/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/api.js"),
    ),
    (
        "session.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/session.js"),
    ),
    (
        "herc.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/herc.js"),
    ),
    (
        "ac.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/ac.js"),
    ),
    (
        "ac_world.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/ac_world.js"),
    ),
    (
        "ac_figure.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/ac_figure.js"),
    ),
    (
        "ac_dat.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/ac_dat.js"),
    ),
    (
        "user_files.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/user_files.js"),
    ),
    (
        "actor.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/actor.js"),
    ),
    (
        "vendor/three.module.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/vendor/three.module.min.js"),
    ),
    (
        "vendor/OrbitControls.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../static/vendor/OrbitControls.js"),
    ),
    (
        "vendor/three-LICENSE",
        "text/plain; charset=utf-8",
        include_bytes!("../static/vendor/three-LICENSE"),
    ),
];

/// The page itself (`GET /`).
pub const INDEX: &str = include_str!("../static/index.html");

/// `GET /`
pub async fn index() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX).into_response()
}

/// `GET /static/{*path}`
pub async fn file(UrlPath(path): UrlPath<String>) -> Response {
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, mime, bytes)) => (
            [
                (header::CONTENT_TYPE, *mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
