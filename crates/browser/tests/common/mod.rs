//! A real server on a free port of 127.0.0.1, and a minimal HTTP/1.1 client over
//! plain sockets (so that tests can also misbehave: wrong Host, slow heads, slow
//! bodies, unread downloads).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]
#![allow(dead_code)]

use retroanim_browser::Options;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::time::Duration;

/// Start the server with `opts` on a thread; it runs until the test process ends.
pub fn start(opts: Options) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let addr = listener.local_addr().unwrap();
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    std::thread::spawn(move || {
        if let Err(e) = retroanim_browser::serve_listener_with(listener, &assets, opts) {
            eprintln!("server stopped: {e:#}");
        }
    });
    addr
}

pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// Read one response (Content-Length or chunked) from `s`.
pub fn read_reply(s: &mut TcpStream) -> std::io::Result<Reply> {
    read_reply_into(s, true).map(|(r, _)| r)
}

/// A GET whose body is counted, not kept (a client's memory is not the server's):
/// the reply (with an empty body) and the body's length.
pub fn get_counted(addr: SocketAddr, path: &str) -> std::io::Result<(Reply, usize)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    read_reply_into(&mut s, false)
}

fn read_reply_into(s: &mut TcpStream, keep: bool) -> std::io::Result<(Reply, usize)> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "closed before the head ended",
            ));
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut reply = Reply {
        status,
        head,
        body: Vec::new(),
    };
    let mut counted = 0;
    if let Some(n) = reply.header("content-length") {
        let n: usize = n.parse().unwrap();
        let mut body = vec![0; n];
        s.read_exact(&mut body)?;
        counted = n;
        if keep {
            reply.body = body;
        }
    } else if reply
        .header("transfer-encoding")
        .is_some_and(|t| t.contains("chunked"))
    {
        loop {
            let mut line = Vec::new();
            while !line.ends_with(b"\r\n") {
                if s.read(&mut byte)? == 0 {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "closed inside a chunked body",
                    ));
                }
                line.push(byte[0]);
            }
            let size = usize::from_str_radix(String::from_utf8_lossy(&line).trim(), 16)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            let mut chunk = vec![0; size + 2];
            s.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            counted += size;
            if keep {
                reply.body.extend_from_slice(&chunk[..size]);
            }
        }
    }
    Ok((reply, counted))
}

/// One request on a new connection, with `extra` header lines (each ending in CRLF).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
    body: Option<&str>,
) -> std::io::Result<Reply> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.unwrap_or("");
    let host = if extra.to_ascii_lowercase().contains("host:") {
        String::new()
    } else {
        format!("Host: {addr}\r\n")
    };
    write!(
        s,
        "{method} {path} HTTP/1.1\r\n{host}{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    read_reply(&mut s)
}

pub fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, "", None).expect("GET")
}

pub fn post_json(addr: SocketAddr, path: &str, body: &str) -> Reply {
    request(
        addr,
        "POST",
        path,
        "Content-Type: application/json\r\n",
        Some(body),
    )
    .expect("POST")
}

/// A new herc session on the default scenario; its id.
pub fn herc_session(addr: SocketAddr) -> String {
    let r = post_json(addr, "/api/sessions", r#"{"engine":"herc"}"#);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    r.json()["id"].as_str().unwrap().to_string()
}

/// `n` herc clock steps of `ms` milliseconds, as a steps body.
pub fn herc_steps(n: usize, ms: u64) -> String {
    let one = format!(r#"{{"op":"step_ms","ms":{ms}}}"#);
    format!(r#"{{"steps":[{}]}}"#, vec![one; n].join(","))
}

/// This process's current and peak resident set, in KiB.
pub fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
