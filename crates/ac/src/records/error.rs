//! Errors of the record readers, the DAT container and the record store.
//!
//! Every error names the file; parse errors also name the record id and the byte
//! offset inside the record (`{file}: record 0x09000001, byte 52: ...`).

use retroanim_core::ScenarioError;

/// A record could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The bytes do not hold a well-formed record.
    #[error("{file}: {}, byte {offset}: {message}", record_label(*.id))]
    Malformed {
        file: String,
        /// The record id, `None` when the bytes are too short to hold one.
        id: Option<u32>,
        /// Offset from the first byte of the record.
        offset: usize,
        message: String,
    },
    /// No record with this id exists in the source.
    #[error("{file}: record 0x{id:08x}: not found")]
    NotFound { file: String, id: u32 },
    /// The file or container itself is unusable (I/O error, bad DAT header or directory).
    #[error("{file}: {message}")]
    Container { file: String, message: String },
}

fn record_label(id: Option<u32>) -> String {
    match id {
        Some(id) => format!("record 0x{id:08x}"),
        None => "record (id unreadable)".to_string(),
    }
}

impl RecordError {
    /// The file named by the error.
    pub fn file(&self) -> &str {
        match self {
            RecordError::Malformed { file, .. }
            | RecordError::NotFound { file, .. }
            | RecordError::Container { file, .. } => file,
        }
    }
}

impl From<RecordError> for ScenarioError {
    fn from(e: RecordError) -> ScenarioError {
        match e {
            RecordError::Malformed {
                file,
                id,
                offset,
                message,
            } => ScenarioError::new(
                file,
                format!("{}, byte {offset}", record_label(id)),
                message,
            ),
            RecordError::NotFound { file, id } => {
                ScenarioError::new(file, format!("record 0x{id:08x}"), "not found")
            }
            RecordError::Container { file, message } => ScenarioError::new(file, "", message),
        }
    }
}
