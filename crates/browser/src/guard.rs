//! What stands between any web page the user visits and the API.
//!
//! * **Host names.** A page on another site can make the browser send requests to
//!   `127.0.0.1:8080`; after a DNS rebind it can even read the answers, since the
//!   browser then believes the server is that site. Only the names of the address
//!   the server is bound to are served, so a rebound name (`evil.example:8080`) is
//!   refused before any handler runs. An `Origin` header, when a browser sends one,
//!   must name one of the same hosts.
//! * **Content type.** Without a CORS preflight a page can only POST "simple"
//!   bodies (`text/plain`, forms). Requiring `Content-Type: application/json` on
//!   every POST forces the preflight, which this server never answers with an
//!   allow header, so cross-site writes fail.
//! * **Slow bodies.** A body must arrive within the body timeout and fit the body
//!   limit; it is read here, once, before the handler sees it.
//! * **Every error is JSON.** Rejections produced outside the handlers (axum's
//!   extractors, 404 and 405 of the router, the static file 404) are rewritten into
//!   the API's error object.

use crate::error::ApiError;
use crate::limits::BODY_LIMIT;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The `Host` values (and origins) the server answers to.
#[derive(Clone, Debug)]
pub struct Hosts {
    port: u16,
    /// Exact host names accepted (lower case, IPv6 in brackets), without the port.
    names: Vec<String>,
    /// Bound to every interface: any IP literal names this server (an IP literal
    /// cannot be rebound; only DNS names can).
    any_ip: bool,
}

impl Hosts {
    /// The names of the bound address: `127.0.0.1`, `localhost` and `[::1]` for a
    /// loopback address, the address itself otherwise, and for an unspecified
    /// address (`0.0.0.0`, `::`) the loopback names and any IP literal.
    pub fn for_addr(addr: SocketAddr) -> Hosts {
        let ip = addr.ip();
        let mut names = Vec::new();
        if ip.is_loopback() || ip.is_unspecified() {
            names.extend(["127.0.0.1", "localhost", "[::1]"].map(String::from));
        }
        if !ip.is_unspecified() {
            names.push(match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            });
        }
        Hosts {
            port: addr.port(),
            names,
            any_ip: ip.is_unspecified(),
        }
    }

    /// Whether `host` (a `Host` header value: name, then `:port`) names this server.
    /// The port is required, except that port 80 may be left out, as browsers do.
    pub fn accepts(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let (name, port) = match host.rsplit_once(':') {
            // `[::1]` alone: the colon is inside the brackets.
            Some((n, p)) if !p.contains(']') => (n, Some(p)),
            _ => (host.as_str(), None),
        };
        let port_ok = match port {
            Some(p) => p.parse::<u16>() == Ok(self.port) && !p.starts_with('+'),
            None => self.port == 80,
        };
        if !port_ok {
            return false;
        }
        if self.names.iter().any(|n| n == name) {
            return true;
        }
        self.any_ip && {
            let bare = name.trim_start_matches('[').trim_end_matches(']');
            bare.parse::<IpAddr>().is_ok() && (name.starts_with('[') == bare.contains(':'))
        }
    }

    fn accepts_origin(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|h| self.accepts(h))
    }

    /// What the error message lists.
    fn shown(&self) -> String {
        let mut v: Vec<String> = self
            .names
            .iter()
            .map(|n| format!("{n}:{}", self.port))
            .collect();
        if self.any_ip {
            v.push(format!("<any IP address>:{}", self.port));
        }
        v.join(", ")
    }
}

/// Refuse requests whose `Host` (or `Origin`) names another server.
pub async fn check_host(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_string()));
    let Some(host) = host else {
        return ApiError::bad_request("", "the request has no Host header").into_response();
    };
    // An absolute-form request target names a host too: it must agree.
    let uri_ok = req
        .uri()
        .authority()
        .is_none_or(|a| hosts.accepts(a.as_str()));
    if !hosts.accepts(&host) || !uri_ok {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "",
            format!(
                "this server answers only to the host names {} (the request named '{host}')",
                hosts.shown()
            ),
        )
        .into_response();
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let ok = origin.to_str().is_ok_and(|o| hosts.accepts_origin(o));
        if !ok {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "",
                "requests from pages of other origins are refused",
            )
            .into_response();
        }
    }
    next.run(req).await
}

fn is_json(req: &Request) -> bool {
    let Some(ct) = req.headers().get(header::CONTENT_TYPE) else {
        return false;
    };
    let Ok(ct) = ct.to_str() else { return false };
    let essence = ct.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Every POST must say `Content-Type: application/json` (even one without a body),
/// and its body must arrive within `timeout` and fit [`BODY_LIMIT`]. The body is
/// read here and handed on in memory.
pub async fn read_body(State(timeout): State<Duration>, req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    if !is_json(&req) {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "",
            "POST bodies must be sent with 'Content-Type: application/json'",
        )
        .into_response();
    }
    let (parts, body) = req.into_parts();
    let limited = http_body_util::Limited::new(body, BODY_LIMIT);
    let bytes = match tokio::time::timeout(timeout, limited.collect()).await {
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "",
                format!(
                    "the request body did not arrive within {} ms",
                    timeout.as_millis()
                ),
            )
            .into_response()
        }
        Ok(Err(e)) => {
            let too_large = e
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some();
            return if too_large {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "",
                    retroanim_session::body_too_large(BODY_LIMIT),
                )
            } else {
                ApiError::bad_request("", format!("cannot read the request body: {e}"))
            }
            .into_response();
        }
        Ok(Ok(c)) => c.to_bytes(),
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Largest non-JSON error body rewritten (axum's rejections are one sentence).
const REWRITE_LIMIT: usize = 4 << 10;

/// Turn any error answer that is not JSON yet into the API's error object, keeping
/// its status and its text as the message.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    let json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if json {
        return resp;
    }
    let (_, body) = resp.into_parts();
    let text = match http_body_util::Limited::new(body, REWRITE_LIMIT)
        .collect()
        .await
    {
        Ok(c) => String::from_utf8_lossy(&c.to_bytes()).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = if text.is_empty() {
        match status {
            StatusCode::METHOD_NOT_ALLOWED => "this endpoint does not take that method".into(),
            StatusCode::NOT_FOUND => "no such page".into(),
            s => s.canonical_reason().unwrap_or("error").to_string(),
        }
    } else {
        text
    };
    ApiError::new(status, "", message).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_the_port_are_the_only_hosts() {
        let h = Hosts::for_addr("127.0.0.1:8080".parse().unwrap());
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(h.accepts(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1",
            "127.0.0.1:8081",
            "localhost",
            "127.0.0.1:+8080",
            "localhost.:8080",
            "10.0.0.1:8080",
            "[::1]",
            "",
        ] {
            assert!(!h.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn every_interface_accepts_ip_literals_but_no_dns_name() {
        let h = Hosts::for_addr("0.0.0.0:9000".parse().unwrap());
        assert!(h.accepts("192.168.1.20:9000"));
        assert!(h.accepts("[fe80::1]:9000"));
        assert!(h.accepts("localhost:9000"));
        assert!(!h.accepts("fe80::1:9000"));
        assert!(!h.accepts("rebind.example:9000"));
        assert!(!h.accepts("192.168.1.20:9001"));
    }

    #[test]
    fn port_80_may_be_left_out() {
        let h = Hosts::for_addr("127.0.0.1:80".parse().unwrap());
        assert!(h.accepts("localhost"));
        assert!(h.accepts("[::1]"));
        assert!(h.accepts("localhost:80"));
    }

    #[test]
    fn origins_must_be_this_server() {
        let h = Hosts::for_addr("127.0.0.1:8080".parse().unwrap());
        assert!(h.accepts_origin("http://127.0.0.1:8080"));
        assert!(!h.accepts_origin("http://evil.example"));
        assert!(!h.accepts_origin("null"));
        assert!(!h.accepts_origin("https://127.0.0.1:8080"));
    }
}
