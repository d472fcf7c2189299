//! What can be wrong with a scene handed to the writer.

/// Why a scene could not be written. Each message names the clip, channel, node or mesh it is
/// about, so an exporter's bug is found without a debugger.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Error {
    /// The scene breaks a rule glTF (or this writer) imposes.
    #[error("{at}: {what}")]
    Invalid {
        /// Where: `clip "NonCombat.WalkForward" channel 3 (node "part 2" rotation)`.
        at: String,
        /// What: `key times not strictly increasing at key 4 (0.5 after 0.5)`.
        what: String,
    },
    /// A binary glTF stores its lengths in 32 bits.
    #[error("the scene needs {bytes} bytes, more than a .glb can hold (4 GiB)")]
    TooLarge {
        /// The size the file would have had.
        bytes: u64,
    },
}

impl Error {
    pub(crate) fn invalid(at: impl Into<String>, what: impl Into<String>) -> Self {
        Error::Invalid {
            at: at.into(),
            what: what.into(),
        }
    }
}
