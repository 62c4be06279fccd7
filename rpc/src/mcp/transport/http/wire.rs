//! What the Streamable HTTP transport reads and writes on the wire: the checks of a request's
//! headers (`Origin`, `Host`, `Accept`, `Content-Type`), the classification of a POST body
//! (requests, notifications, responses, not JSON), and the response bodies: empty, one JSON
//! message, or an SSE stream of frames.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::Frame;
use hyper::header::{HeaderMap, HeaderValue, ACCEPT, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Response, StatusCode};
use structio::Value;
use tokio::sync::mpsc;

use super::SESSION_HEADER;
use crate::mcp::PROTOCOL_VERSION_KEY;

/// What a POST body holds.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    /// Not JSON.
    Invalid,
    /// At least one request (or a message that is none of the three, which the core answers
    /// with an error): `initialize` among them, a request naming its revision in
    /// `params._meta` (the stateless era) among them.
    Requests { initialize: bool, modern: bool },
    /// Notifications only (perhaps with responses).
    Notifications,
    /// Responses only.
    Responses,
}

/// Reads `body` as far as the transport needs.
pub(super) fn classify(body: &[u8]) -> Kind {
    let Ok(value) = structio::json::from_json::<Value>(body) else {
        return Kind::Invalid;
    };
    match &value {
        Value::Array(items) if !items.is_empty() => {
            let (mut requests, mut notifications) = (false, false);
            let (mut initialize, mut modern) = (false, false);
            for item in items.iter() {
                match one(item) {
                    Kind::Requests {
                        initialize: i,
                        modern: m,
                    } => {
                        requests = true;
                        initialize |= i;
                        modern |= m;
                    }
                    Kind::Notifications => notifications = true,
                    _ => {}
                }
            }
            if requests {
                Kind::Requests { initialize, modern }
            } else if notifications {
                Kind::Notifications
            } else {
                Kind::Responses
            }
        }
        other => one(other),
    }
}

/// One message's kind.
fn one(message: &Value) -> Kind {
    let Some(object) = message.as_object() else {
        return Kind::Requests {
            initialize: false,
            modern: false,
        };
    };
    match (object.get("method"), object.get("id")) {
        (Some(method), Some(_)) => Kind::Requests {
            initialize: method.as_str() == Some("initialize"),
            modern: object
                .get("params")
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get(PROTOCOL_VERSION_KEY))
                .is_some(),
        },
        (Some(_), None) => Kind::Notifications,
        (None, Some(_)) if object.get("result").is_some() || object.get("error").is_some() => {
            Kind::Responses
        }
        _ => Kind::Requests {
            initialize: false,
            modern: false,
        },
    }
}

/// The member of a frame that tells a response from a notification or a request; the rest of
/// the frame is skipped, not built.
#[derive(structio::Reflect)]
struct FrameKind<'a> {
    method: Option<std::borrow::Cow<'a, str>>,
}

/// Whether `frame` is a JSON-RPC notification or request (a call's progress or log message, a
/// request of the server's to the client), not a response: what the server sends before a
/// call's answer, so a POST's SSE stream starts with it.
pub(super) fn is_notice(frame: &[u8]) -> bool {
    structio::json::from_json_with::<FrameKind<'_>>(frame, &crate::mcp::protocol::skip())
        .is_ok_and(|f| f.method.is_some())
}

/// Whether `frame` is one JSON-RPC error response.
pub(super) fn is_error(frame: &[u8]) -> bool {
    structio::json::from_json::<Value>(frame)
        .ok()
        .and_then(|v| v.as_object().map(|o| o.get("error").is_some()))
        .unwrap_or(false)
}

/// The HTTP status of a single JSON answer in revision 2026-07-28, whose transport gives some
/// errors their own (Streamable HTTP, "Protocol Version Header", and the errors' schema):
/// `400 Bad Request` for a header mismatch (`-32020`), a missing client capability
/// (`-32021`) and an unsupported protocol version (`-32022`); `404 Not Found` for a method the
/// server does not implement (`-32601`, which a client tells from a legacy server's `404` by
/// its JSON-RPC body); `200` for everything else, results and other errors alike.
pub(super) fn modern_status(frame: &[u8]) -> StatusCode {
    #[derive(structio::Reflect)]
    struct Code {
        code: i64,
    }
    #[derive(structio::Reflect)]
    struct ErrorOnly {
        error: Option<Code>,
    }
    let options = structio::json::Options {
        read: structio::ReadOptions {
            unknown_keys: structio::UnknownKeys::Skip,
            ..structio::ReadOptions::default()
        },
        ..structio::json::Options::default()
    };
    let code = structio::json::from_json_with::<ErrorOnly>(frame, &options)
        .ok()
        .and_then(|e| e.error)
        .map(|e| e.code);
    match code {
        Some(-32022..=-32020) => StatusCode::BAD_REQUEST,
        Some(-32601) => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}

/// The request's session id, if it names one (as visible ASCII).
pub(super) fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok())
}

/// The request's `Content-Length`, if it has a valid one.
pub(super) fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// Whether `Accept` lists both `application/json` and `text/event-stream` (or wildcards
/// covering them).
pub(super) fn accepts_both(headers: &HeaderMap) -> bool {
    let (mut json, mut sse) = (false, false);
    for value in headers.get_all(ACCEPT) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let media = item
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            match media.as_str() {
                "*/*" => {
                    json = true;
                    sse = true;
                }
                "application/json" | "application/*" => json = true,
                "text/event-stream" | "text/*" => sse = true,
                _ => {}
            }
        }
    }
    json && sse
}

/// Whether `Accept` lists `text/event-stream` (or a wildcard covering it).
pub(super) fn accepts_sse(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|item| {
            item.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .any(|media| matches!(media.as_str(), "*/*" | "text/*" | "text/event-stream"))
}

/// Whether `Content-Type` is `application/json` (parameters allowed).
pub(super) fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

/// Whether `host` (a host name, without port, lowercase) is a loopback name.
fn loopback(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "[::1]" | "::1")
}

/// The host of `authority` (`host[:port]`, `[v6][:port]`), lowercase.
fn host_of(authority: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => authority[..=end].to_owned(),
            None => authority,
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host.to_owned(),
        _ => authority,
    }
}

/// Whether the request may come from its `Origin`: no `Origin` (not a browser), a loopback
/// origin (`http` or `https`, any port), or one of `allowed` (lowercase).
pub(super) fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(hyper::header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().to_ascii_lowercase();
    if allowed.iter().any(|a| a.trim_end_matches('/') == origin) {
        return true;
    }
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    rest.is_some_and(|authority| !authority.contains('/') && loopback(&host_of(authority)))
}

/// Whether the request's `Host` is a loopback name or one of `allowed` (lowercase); a request
/// without `Host` (HTTP/1.0) is let through.
pub(super) fn host_allowed(headers: &HeaderMap, allowed: Option<&[String]>) -> bool {
    let Some(host) = headers.get(hyper::header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let host = host_of(host);
    loopback(&host) || allowed.is_some_and(|a| a.contains(&host))
}

/// A response body: nothing, one message, or an SSE stream.
pub(crate) enum Body {
    /// One chunk, then the end (`None` once sent).
    Full(Option<Bytes>),
    /// SSE events already framed, then one event per frame from the core until its stream
    /// ends, and a comment when none came for `interval` (a long stream: a call that takes
    /// time, a `subscriptions/listen` stream; the timer is made the first time the stream
    /// waits).
    Sse {
        ready: VecDeque<Bytes>,
        frames: mpsc::UnboundedReceiver<Vec<u8>>,
        quiet: Option<Pin<Box<tokio::time::Sleep>>>,
        interval: std::time::Duration,
    },
    /// A standalone stream: events already framed, and a comment when none came for
    /// `interval` ([`HttpOptions::keep_alive`](super::HttpOptions::keep_alive)), so that a
    /// client gone away is noticed by the write that fails.
    Events {
        events: mpsc::UnboundedReceiver<Bytes>,
        quiet: Pin<Box<tokio::time::Sleep>>,
        interval: std::time::Duration,
    },
}

/// The comment line sent on a stream silent for its keep-alive interval.
const KEEP_ALIVE_LINE: &[u8] = b": keep-alive\n\n";

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Body::Full(chunk) => Poll::Ready(chunk.take().map(|c| Ok(Frame::data(c)))),
            Body::Events {
                events,
                quiet,
                interval,
            } => match events.poll_recv(cx) {
                Poll::Ready(Some(event)) => {
                    let next = tokio::time::Instant::now() + *interval;
                    quiet.as_mut().reset(next);
                    Poll::Ready(Some(Ok(Frame::data(event))))
                }
                Poll::Ready(None) => Poll::Ready(None),
                Poll::Pending => match std::future::Future::poll(quiet.as_mut(), cx) {
                    Poll::Ready(()) => {
                        let next = tokio::time::Instant::now() + *interval;
                        quiet.as_mut().reset(next);
                        Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(KEEP_ALIVE_LINE)))))
                    }
                    Poll::Pending => Poll::Pending,
                },
            },
            Body::Sse {
                ready,
                frames,
                quiet,
                interval,
            } => {
                if let Some(event) = ready.pop_front() {
                    return Poll::Ready(Some(Ok(Frame::data(event))));
                }
                match frames.poll_recv(cx) {
                    Poll::Ready(Some(frame)) => {
                        if let Some(quiet) = quiet {
                            quiet
                                .as_mut()
                                .reset(tokio::time::Instant::now() + *interval);
                        }
                        Poll::Ready(Some(Ok(Frame::data(event(&frame)))))
                    }
                    Poll::Ready(None) => Poll::Ready(None),
                    Poll::Pending => {
                        let quiet =
                            quiet.get_or_insert_with(|| Box::pin(tokio::time::sleep(*interval)));
                        match std::future::Future::poll(quiet.as_mut(), cx) {
                            Poll::Ready(()) => {
                                let next = tokio::time::Instant::now() + *interval;
                                quiet.as_mut().reset(next);
                                Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(
                                    KEEP_ALIVE_LINE,
                                )))))
                            }
                            Poll::Pending => Poll::Pending,
                        }
                    }
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Body::Full(None))
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        match self {
            Body::Full(Some(c)) => hyper::body::SizeHint::with_exact(c.len() as u64),
            Body::Full(None) => hyper::body::SizeHint::with_exact(0),
            Body::Sse { .. } | Body::Events { .. } => hyper::body::SizeHint::default(),
        }
    }
}

/// One SSE event of type `message` carrying `frame` (a line break in it, which a frame
/// should not have, starts another `data:` line, so the event carries the frame as it is).
pub(super) fn event(frame: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(frame.len() + 24);
    out.extend_from_slice(b"event: message\n");
    for line in frame.split(|&b| b == b'\n') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
        out.push(b'\n');
    }
    out.push(b'\n');
    Bytes::from(out)
}

/// A response with `status` and a plain-text body (empty: no `Content-Type`).
pub(super) fn status(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut res = Response::new(Body::Full(
        (!text.is_empty()).then(|| Bytes::from_static(text.as_bytes())),
    ));
    *res.status_mut() = status;
    if !text.is_empty() {
        res.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    }
    res
}

/// A response with `status` and a JSON-RPC error without an id as its body.
pub(super) fn rpc_error(status: StatusCode, code: i32, message: &str) -> Response<Body> {
    json(status, error_body(code, message))
}

/// A JSON-RPC error without an id.
fn error_body(code: i32, message: &str) -> Vec<u8> {
    let mut text = Vec::new();
    text.extend_from_slice(br#"{"jsonrpc":"2.0","id":null,"error":{"code":"#);
    text.extend_from_slice(code.to_string().as_bytes());
    text.extend_from_slice(br#","message":"#);
    text.extend_from_slice(structio::json::to_json(&message.to_owned()).as_bytes());
    text.extend_from_slice(b"}}");
    text
}

/// The whole answer, as bytes for the socket, to a connection past
/// [`HttpOptions::max_connections`](super::HttpOptions::max_connections), written without
/// hyper and before the request is read (no hyper connection, no parsing is spent on it):
/// `503` with `Retry-After: 1`, `Connection: close` and a JSON-RPC error like the
/// transport's others. No `Date`: RFC 9110 (6.6.1) lets a `5xx` go without one.
pub(super) fn refusal() -> Bytes {
    let body = error_body(-32603, "Service Unavailable: too many connections");
    let mut out = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Bytes::from(out)
}

/// A response with `status` and one JSON message as its body.
pub(super) fn json(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    let mut res = Response::new(Body::Full(Some(Bytes::from(body))));
    *res.status_mut() = status;
    res.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

/// A `200` SSE stream: `first`, `second`, then the rest of `frames`, one event each, and a
/// comment line whenever none came for `keep_alive`.
pub(super) fn sse(
    first: Vec<u8>,
    second: Option<Vec<u8>>,
    frames: mpsc::UnboundedReceiver<Vec<u8>>,
    keep_alive: std::time::Duration,
) -> Response<Body> {
    let mut ready = VecDeque::from([event(&first)]);
    ready.extend(second.as_deref().map(event));
    sse_response(Body::Sse {
        ready,
        frames,
        quiet: None,
        interval: keep_alive,
    })
}

/// A `200` standalone SSE stream: every event of `events` (framed), until every sender is
/// dropped, and a comment line whenever none came for `keep_alive`.
pub(super) fn stream(
    events: mpsc::UnboundedReceiver<Bytes>,
    keep_alive: std::time::Duration,
) -> Response<Body> {
    sse_response(Body::Events {
        events,
        quiet: Box::pin(tokio::time::sleep(keep_alive)),
        interval: keep_alive,
    })
}

fn sse_response(body: Body) -> Response<Body> {
    let mut res = Response::new(body);
    let headers = res.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

/// [`event`] with the line `id: {id}` first.
pub(super) fn event_with_id(id: u64, frame: &[u8]) -> Bytes {
    let mut out = format!("id: {id}\n").into_bytes();
    out.extend_from_slice(&event(frame));
    Bytes::from(out)
}
