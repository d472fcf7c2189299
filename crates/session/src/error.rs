//! The one error shape of the JSON API: an HTTP status, the JSON path of the fault
//! inside the request (or inside the scenario it carried), a message, and the file the
//! fault lies in when it is not the request itself.

use retroanim_core::ScenarioError;
use serde_json::{json, Value};

/// The label a scenario sent in a request carries in engine errors.
pub const SCENARIO_LABEL: &str = "scenario";

/// An API failure, rendered as `{"error": message, "at": path, "file": file}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (the page reports the same number).
    pub status: u16,
    /// JSON path of the fault in the request body (`steps[2].dt`), or empty.
    pub at: String,
    pub message: String,
    /// The file the fault lies in when it is not the request body itself (an asset).
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

    /// An engine's scenario or step error. Paths the engine reports are relative to
    /// the scenario document; `prefix` places them inside the request body
    /// (`scenario`), unless the error lies in another file (an asset), whose own
    /// location is kept.
    pub fn from_scenario(e: ScenarioError, prefix: &str) -> ApiError {
        let in_body = e.file.is_empty() || e.file == SCENARIO_LABEL || e.file == "<step>";
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

    /// The response body.
    pub fn body(&self) -> Value {
        json!({ "error": self.message, "at": self.at, "file": self.file })
    }
}
