//! Trace downloads, streamed.
//!
//! A download never copies the whole trace: a task copies a chunk of lines at a
//! time while holding the session's lock only for that copy, and hands it to the
//! response through a channel of one chunk (so a slow reader holds a couple of
//! chunks, not the trace). The task keeps only a weak reference to the session: a
//! session dropped from the store (deleted, or evicted by the memory budget) is
//! freed at once, and its download stops short. A reset under a running download
//! stops it short too, since the lines it was sending are gone. A download that
//! stops short ends with a body error, which the client sees as a truncated
//! transfer, never as a complete but wrong trace.

use crate::error::ApiError;
use crate::limits::DOWNLOAD_CHUNK;
use crate::session::Session;
use axum::body::{Body, Bytes};
use http_body::Frame;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{mpsc, Mutex, OwnedSemaphorePermit};

/// Why a download stopped short.
#[derive(Debug)]
pub struct Cut(&'static str);

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Cut {}

type Chunk = Result<Bytes, Cut>;

struct ChunkBody(mpsc::Receiver<Chunk>);

impl http_body::Body for ChunkBody {
    type Data = Bytes;
    type Error = Cut;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Cut>>> {
        self.0
            .poll_recv(cx)
            .map(|c| c.map(|chunk| chunk.map(Frame::data)))
    }
}

/// The download's file name and body. `slot` is held until the body is done.
pub async fn trace(
    session: Arc<Mutex<Session>>,
    slot: OwnedSemaphorePermit,
    wait: Duration,
) -> Result<(String, Body), ApiError> {
    let (name, total, generation) = {
        let s = tokio::time::timeout(wait, session.lock())
            .await
            .map_err(|_| {
                ApiError::new(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "",
                    "the server is busy: the session did not come free; try again",
                )
            })?;
        (
            format!("{}-trace.jsonl", s.engine.name),
            s.line_count(),
            s.generation(),
        )
    };
    let weak = Arc::downgrade(&session);
    drop(session);
    let (tx, rx) = mpsc::channel(1);
    tokio::spawn(produce(weak, total, generation, tx, slot));
    Ok((name, Body::new(ChunkBody(rx))))
}

async fn produce(
    weak: Weak<Mutex<Session>>,
    total: usize,
    generation: u64,
    tx: mpsc::Sender<Chunk>,
    _slot: OwnedSemaphorePermit,
) {
    let mut next = 0;
    while next < total {
        let chunk = match weak.upgrade() {
            None => Err(Cut("the session was closed during the download")),
            Some(s) => {
                let s = s.lock().await;
                if s.generation() != generation {
                    Err(Cut("the session was reset during the download"))
                } else {
                    let (bytes, end) = s.jsonl_chunk(next, total, DOWNLOAD_CHUNK);
                    next = end;
                    Ok(Bytes::from(bytes))
                }
            }
        };
        let stop = chunk.is_err();
        // A receiver gone means the client went away: nothing more to do.
        if tx.send(chunk).await.is_err() || stop {
            return;
        }
    }
}
