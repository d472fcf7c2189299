//! The server's error shape, so the page shows the same messages in both modes:
//! an HTTP-like status, the JSON path of the fault and a message.

use retroanim_core::ScenarioError;
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub at: String,
    pub message: String,
    pub file: Option<String>,
}

impl ApiError {
    pub fn new(status: u16, at: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            at: at.into(),
            message: message.into(),
            file: None,
        }
    }

    pub fn bad_request(at: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::new(400, at, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, "", message)
    }

    pub fn unprocessable(at: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::new(422, at, message)
    }

    /// An engine error, placed under `prefix` unless it lies in another file.
    pub fn from_scenario(e: ScenarioError, prefix: &str) -> ApiError {
        let in_body =
            e.file.is_empty() || e.file == crate::engines::SCENARIO_LABEL || e.file == "<step>";
        ApiError {
            status: 422,
            at: if in_body {
                retroanim_core::scenario::join_path(prefix, &e.at)
            } else {
                e.at
            },
            message: e.message,
            file: (!in_body).then_some(e.file),
        }
    }

    pub fn body(&self) -> Value {
        json!({ "error": self.message, "at": self.at, "file": self.file })
    }
}
