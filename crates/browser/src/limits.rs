//! Every bound the server puts on what a client can make it do, in one place, so
//! that docs/browser.md and docs/limits.md can list them and tests can shorten the
//! timeouts.
//!
//! The memory the server holds is bounded whatever the requests are: trace text by
//! the session store's budget, engine work by the number of engine slots times the
//! per-request output budget, request bodies by the connection cap times the body
//! limit, downloads by the download slots times a few chunks.

use std::time::Duration;

/// Largest request body accepted (an uploaded scenario with an inline asset fits); the
/// page's limit too.
pub const BODY_LIMIT: usize = retroanim_session::MAX_BODY_BYTES;
/// Largest request head (request line and headers) hyper buffers.
pub const HEAD_LIMIT: usize = 64 << 10;
/// Listen backlog asked of the kernel (it may cap it at `net.core.somaxconn`).
pub const BACKLOG: i32 = 1024;
/// Trace text a single request may make the engine produce by default (the step
/// whose line crosses it is kept, the next ones are refused): the most one session may
/// hold ([`retroanim_session::MAX_TRACE_BYTES`]), so the one documented budget decides
/// and an upload of up to `MAX_STEPS` steps is not cut short by a second, smaller one.
/// Tests shorten it through [`Options::output_bytes`].
pub const REQUEST_OUTPUT_BYTES: usize = retroanim_session::MAX_TRACE_BYTES;
/// Largest chunk a trace download sends at once (a longer line goes whole).
pub const DOWNLOAD_CHUNK: usize = 64 << 10;
/// A connection waiting this long for a request head (a new one that has sent none,
/// or a kept-alive one between requests) may be closed to make room for a new
/// connection when every slot is taken. A well-behaved client sends its head within
/// milliseconds of connecting; a stalled one cannot hold a slot past this while
/// others wait.
pub const HEAD_IDLE_EVICTABLE: Duration = Duration::from_millis(250);
/// How long a new connection that finds every slot taken waits for one (while the
/// server closes head-idle connections for it) before it gets 503.
pub const CONNECTION_WAIT: Duration = Duration::from_millis(500);

/// The timeouts and concurrency bounds of a running server.
#[derive(Clone, Debug)]
pub struct Options {
    /// A request's head (request line and headers) must arrive within this; it also
    /// bounds how long a kept-alive connection may sit idle.
    pub header_timeout: Duration,
    /// A request's body must arrive within this once its head has (408 otherwise).
    pub body_timeout: Duration,
    /// A response write that makes no progress for this long drops the connection
    /// (a client that stops reading a download).
    pub write_timeout: Duration,
    /// Engine time one request may use; checked before each step, so one more step
    /// (bounded by the engine's own per-step caps) may run past it.
    pub work_time: Duration,
    /// Trace and step text one request may make the session produce
    /// ([`REQUEST_OUTPUT_BYTES`]).
    pub output_bytes: usize,
    /// Requests running engine work at once (each on a blocking thread, never on
    /// the async workers that answer the other requests).
    pub engine_slots: usize,
    /// How long a request waits for an engine slot or its session before 503.
    pub queue_wait: Duration,
    /// Trace downloads streaming at once (503 beyond).
    pub download_slots: usize,
    /// Open connections; beyond, a new connection gets a 503 and is closed.
    pub max_connections: usize,
    /// The user's AC DAT (`--ac-dat`), opened and listed at startup.
    pub ac_dat: Option<std::sync::Arc<crate::user_data::AcDat>>,
    /// The user's Earthsiege 2 folder (`--es2`), opened and listed at startup.
    pub es2: Option<std::sync::Arc<crate::es2::Es2Folder>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
            work_time: Duration::from_secs(5),
            output_bytes: REQUEST_OUTPUT_BYTES,
            engine_slots: 2,
            queue_wait: Duration::from_secs(15),
            download_slots: 8,
            max_connections: 128,
            ac_dat: None,
            es2: None,
        }
    }
}
