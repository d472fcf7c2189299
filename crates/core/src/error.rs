//! The one error shape every load and run reports: where (file, then a JSON path,
//! a line:column, or a record id and byte offset) and what.

use std::fmt;

/// A located error: `{file}: {at}: {message}`.
///
/// `at` is whatever pins the fault down inside the file: a JSON path such as
/// `steps[3].dt`, `line 4, column 7`, or `record 0x03000001, byte 52`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: String,
    pub at: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(file: impl Into<String>, at: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            file: file.into(),
            at: at.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.is_empty(), self.at.is_empty()) {
            (false, false) => write!(f, "{}: {}: {}", self.file, self.at, self.message),
            (false, true) => write!(f, "{}: {}", self.file, self.message),
            (true, false) => write!(f, "{}: {}", self.at, self.message),
            (true, true) => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}
