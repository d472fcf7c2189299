//! JSON request bodies with located errors.
//!
//! axum's own `Json` extractor answers a bad body with plain text and no path; the
//! page and API users need to know which field was wrong, so bodies are read as
//! bytes (bounded by the router's body limit) and deserialized through
//! `serde_path_to_error`.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// A request body of type `T`; unknown fields are rejected by `T` itself
/// (`#[serde(deny_unknown_fields)]`).
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            let status = e.status();
            let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
                retroanim_session::body_too_large(crate::limits::BODY_LIMIT)
            } else {
                e.body_text()
            };
            ApiError::new(status, "", message)
        })?;
        parse(&bytes).map(JsonBody)
    }
}

/// Parse a JSON document into `T`, naming the JSON path of the first fault.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            ApiError::bad_request(
                format!("line {}, column {}", inner.line(), inner.column()),
                format!("malformed JSON: {}", strip_position(&inner.to_string())),
            )
        } else {
            let at = if path == "." { String::new() } else { path };
            ApiError::bad_request(at, strip_position(&inner.to_string()))
        }
    })?;
    de.end().map_err(|e| {
        ApiError::bad_request(
            format!("line {}, column {}", e.line(), e.column()),
            "trailing characters after the JSON document",
        )
    })?;
    Ok(value)
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}
