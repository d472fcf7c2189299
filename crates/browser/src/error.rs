//! The one error shape of the JSON API: an HTTP status, the JSON path of the fault
//! inside the request (or inside the scenario it carried), and a message.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An API failure, rendered as `{"error": message, "at": path, "file": file}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// JSON path of the fault in the request body (`steps[2].dt`), or empty.
    pub at: String,
    pub message: String,
    /// The file the fault lies in when it is not the request body itself (an asset).
    pub file: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, at: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError {
            status,
            at: at.into(),
            message: message.into(),
            file: None,
        }
    }

    pub fn bad_request(at: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, at, message)
    }

    pub fn unprocessable(at: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, at, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "", message)
    }
}

/// The shared session's errors ([`retroanim_session::ApiError`]) carry the same
/// fields with a numeric status.
impl From<retroanim_session::ApiError> for ApiError {
    fn from(e: retroanim_session::ApiError) -> Self {
        ApiError {
            status: StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            at: e.at,
            message: e.message,
            file: e.file,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({
            "error": self.message,
            "at": self.at,
            "file": self.file,
        });
        (self.status, Json(body)).into_response()
    }
}
