//! The connection side: the listening socket, the accept loop and the per
//! connection bounds (open connections, head size, read and write timeouts).
//!
//! axum's `serve` offers none of these knobs, so connections are driven with
//! hyper's HTTP/1 server directly.
//!
//! A client that opens every connection slot and never finishes a head would
//! otherwise lock everyone out until its head timeouts fire (and then again as it
//! reopens). So a new connection that finds every slot taken waits briefly
//! ([`CONNECTION_WAIT`]) while the server closes, for it, the connection that has been
//! waiting longest for a request head, once that wait has passed
//! [`HEAD_IDLE_EVICTABLE`]. A connection serving a request is never closed for
//! another; only when none is head-idle does the newcomer get 503.

use crate::limits::{Options, BACKLOG, CONNECTION_WAIT, HEAD_IDLE_EVICTABLE, HEAD_LIMIT};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

/// Bind `addr` with the server's listen backlog.
pub fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    // A restarted server may rebind while old connections sit in TIME_WAIT.
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    Ok(socket.into())
}

/// Give an already listening socket the server's backlog (Linux applies a second
/// `listen` to a listening socket as a new backlog).
pub fn raise_backlog(listener: &TcpListener) -> io::Result<()> {
    socket2::SockRef::from(listener).listen(BACKLOG)
}

/// A stream whose writes fail once they make no progress for `limit`: a client
/// that stops reading its response frees its connection.
struct StallLimit {
    inner: TcpStream,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl StallLimit {
    fn check<T>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if r.is_ready() {
            self.stalled = None;
            return r;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for StallLimit {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for StallLimit {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write(cx, buf);
        me.check(cx, r)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_flush(cx);
        me.check(cx, r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_shutdown(cx);
        me.check(cx, r)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write_vectored(cx, bufs);
        me.check(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// The answer to a connection over the cap, written without hyper.
fn full() -> Vec<u8> {
    let body = r#"{"error":"too many open connections; try again","at":"","file":null}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// One open connection as the eviction rule sees it.
struct Conn {
    /// Since when it has been waiting for a request head; `None` while it serves a
    /// request or once it has been chosen to close.
    idle_since: Mutex<Option<Instant>>,
    /// Wakes the connection's task to close it.
    close: Notify,
}

impl Conn {
    fn set_idle(&self, since: Option<Instant>) {
        if let Ok(mut s) = self.idle_since.lock() {
            *s = since;
        }
    }
}

/// The open connections, by accept number.
#[derive(Default)]
struct Conns {
    open: Mutex<HashMap<u64, Arc<Conn>>>,
    /// New connections waiting for a slot (bounded: beyond, 503 at once).
    waiting: AtomicUsize,
}

impl Conns {
    /// Close the connection that has waited longest for a request head, if it has
    /// waited at least [`HEAD_IDLE_EVICTABLE`]. True when one was chosen.
    fn evict_oldest_idle(&self) -> bool {
        let Ok(open) = self.open.lock() else {
            return false;
        };
        let now = Instant::now();
        let victim = open
            .values()
            .filter_map(|c| {
                let since = (*c.idle_since.lock().ok()?)?;
                (now.saturating_duration_since(since) >= HEAD_IDLE_EVICTABLE).then_some((since, c))
            })
            .min_by_key(|(since, _)| *since);
        match victim {
            Some((_, c)) => {
                c.set_idle(None);
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Marks its connection busy while a request is served: made when hyper hands the
/// service a complete head, dropped with the response body once it is sent.
struct Busy(Arc<Conn>);

impl Busy {
    fn start(conn: &Arc<Conn>) -> Busy {
        conn.set_idle(None);
        Busy(conn.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        // Back to waiting for the next head (keep-alive).
        self.0.set_idle(Some(Instant::now()));
    }
}

/// A response body that keeps its connection marked busy until it is dropped.
struct TrackedBody<B> {
    body: B,
    _busy: Busy,
}

impl<B: http_body::Body + Unpin> http_body::Body for TrackedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<B::Data>, B::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// The app as a hyper service that tells its connection when a request is served.
struct Tracked<S> {
    inner: S,
    conn: Arc<Conn>,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S, B> hyper::service::Service<hyper::Request<hyper::body::Incoming>> for Tracked<S>
where
    S: hyper::service::Service<
        hyper::Request<hyper::body::Incoming>,
        Response = hyper::Response<B>,
    >,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
{
    type Response = hyper::Response<TrackedBody<B>>;
    type Error = S::Error;
    type Future = BoxFuture<Result<Self::Response, S::Error>>;

    fn call(&self, req: hyper::Request<hyper::body::Incoming>) -> Self::Future {
        let busy = Busy::start(&self.conn);
        let fut = self.inner.call(req);
        Box::pin(async move {
            let resp = fut.await?;
            Ok(resp.map(|body| TrackedBody { body, _busy: busy }))
        })
    }
}

/// Refuse a connection over the cap: answer 503, then let the client's request drain
/// before closing (closing a socket with unread input sends a reset, which would make
/// the client lose the answer).
async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(&full()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        while tokio::io::AsyncReadExt::read(&mut stream, &mut sink).await? > 0 {}
        Ok::<_, io::Error>(())
    })
    .await;
}

/// Wait up to [`CONNECTION_WAIT`] for a slot, closing head-idle connections to make
/// one: one at a time, another only if the freed slot went to someone else.
async fn wait_for_slot(slots: &Arc<Semaphore>, conns: &Conns) -> Option<OwnedSemaphorePermit> {
    let deadline = tokio::time::Instant::now() + CONNECTION_WAIT;
    loop {
        if let Ok(p) = slots.clone().try_acquire_owned() {
            return Some(p);
        }
        let evicted = conns.evict_oldest_idle();
        let pause = if evicted {
            Duration::from_millis(100)
        } else {
            Duration::from_millis(20)
        };
        let until = (tokio::time::Instant::now() + pause).min(deadline);
        if let Ok(Ok(p)) = tokio::time::timeout_at(until, slots.clone().acquire_owned()).await {
            return Some(p);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
    }
}

/// Accept connections until `stop` resolves.
pub async fn run(
    listener: tokio::net::TcpListener,
    app: Router,
    opts: Options,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    let max = opts.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let conns = Arc::new(Conns::default());
    let mut next_id: u64 = 0;
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(opts.header_timeout)
        .max_buf_size(HEAD_LIMIT)
        .keep_alive(true);
    let http = Arc::new(http);
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                // Out of file descriptors and the like: wait, the condition passes
                // as connections close.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => return Ok(()),
        };
        let _ = stream.set_nodelay(true);
        next_id = next_id.wrapping_add(1);
        let id = next_id;
        let (app, http, slots, conns) = (app.clone(), http.clone(), slots.clone(), conns.clone());
        let write_timeout = opts.write_timeout;
        if let Ok(permit) = slots.clone().try_acquire_owned() {
            tokio::spawn(serve(stream, permit, id, app, http, conns, write_timeout));
            continue;
        }
        // Every slot is taken: wait for one (bounded number of waiters), making room
        // by closing a connection stalled in its head.
        if conns.waiting.fetch_add(1, Ordering::Relaxed) >= max {
            conns.waiting.fetch_sub(1, Ordering::Relaxed);
            tokio::spawn(refuse(stream));
            continue;
        }
        tokio::spawn(async move {
            let permit = wait_for_slot(&slots, &conns).await;
            conns.waiting.fetch_sub(1, Ordering::Relaxed);
            match permit {
                Some(permit) => serve(stream, permit, id, app, http, conns, write_timeout).await,
                None => refuse(stream).await,
            }
        });
    }
}

/// Serve one connection in its slot until it ends or is closed for a newcomer.
async fn serve(
    stream: TcpStream,
    permit: OwnedSemaphorePermit,
    id: u64,
    app: Router,
    http: Arc<hyper::server::conn::http1::Builder>,
    conns: Arc<Conns>,
    write_timeout: Duration,
) {
    let conn = Arc::new(Conn {
        idle_since: Mutex::new(Some(Instant::now())),
        close: Notify::new(),
    });
    if let Ok(mut open) = conns.open.lock() {
        open.insert(id, conn.clone());
    }
    let io = TokioIo::new(StallLimit {
        inner: stream,
        limit: write_timeout,
        stalled: None,
    });
    let service = Tracked {
        inner: TowerToHyperService::new(app),
        conn: conn.clone(),
    };
    tokio::select! {
        _ = http.serve_connection(io, service) => {}
        _ = conn.close.notified() => {}
    }
    if let Ok(mut open) = conns.open.lock() {
        open.remove(&id);
    }
    drop(permit);
}
