//! The connection side: the listening socket, the accept loop and the per
//! connection bounds (open connections, head size, read and write timeouts).
//!
//! axum's `serve` offers none of these knobs, so connections are driven with
//! hyper's HTTP/1 server directly.

use crate::limits::{Options, BACKLOG, HEAD_LIMIT};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
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

/// Accept connections until `stop` resolves.
pub async fn run(
    listener: tokio::net::TcpListener,
    app: Router,
    opts: Options,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(opts.max_connections.max(1)));
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
        let Ok(permit) = slots.clone().try_acquire_owned() else {
            tokio::spawn(async move {
                let mut stream = stream;
                // Answer, then let the client's request drain before closing: closing
                // a socket with unread input sends a reset, which would make the
                // client lose the answer.
                let _ = tokio::time::timeout(Duration::from_secs(1), async {
                    stream.write_all(&full()).await?;
                    stream.shutdown().await?;
                    let mut sink = [0u8; 1024];
                    while tokio::io::AsyncReadExt::read(&mut stream, &mut sink).await? > 0 {}
                    Ok::<_, io::Error>(())
                })
                .await;
            });
            continue;
        };
        let io = TokioIo::new(StallLimit {
            inner: stream,
            limit: opts.write_timeout,
            stalled: None,
        });
        let service = TowerToHyperService::new(app.clone());
        let http = http.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let _ = http.serve_connection(io, service).await;
        });
    }
}
