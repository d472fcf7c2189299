//! Live sessions in the page: the sessions of the server ([`retroanim_session::Session`]:
//! the steps played and the trace line each produced, a failing step keeping nothing
//! of itself), with the page's engines.

use crate::engines::Engine;

pub use retroanim_session::{MAX_SESSIONS, MAX_STEPS, MAX_STEPS_PER_CALL};

/// A live session of one of the page's engines.
pub type Session = retroanim_session::Session<Engine>;
