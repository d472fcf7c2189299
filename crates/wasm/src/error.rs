//! The server's error shape, so the page shows the same messages in both modes: the
//! one both transports share ([`retroanim_session::ApiError`]).

pub use retroanim_session::ApiError;
