//! The oracle of the `rpc_line` target: any bytes given to the MCP server of structio-rpc, as
//! one line (`Server::handle_line`) and as a stream cut into lines (`Server::serve`, with a
//! small line limit so that over-long lines are exercised).
//!
//! - Nothing panics.
//! - Each answer is one line holding one well-formed JSON value (a response, or an array of
//!   them for a batch); a line gets at most one answer.
//! - After any input, the server still answers: a `ping` on a handshake connection (or one
//!   whose era is not decided yet), a `server/discover` on a revision 2026-07-28 connection.
//! - `handle_line` (one pass for the usual messages) answers exactly as `handle_line_deferred`
//!   (every message read the general way), and leaves the connection in the same era: on a
//!   fresh server, and on servers whose first request opened each era.
//! - The answer to a single message carries the message's id whenever it can be determined
//!   (JSON-RPC 2.0 allows null only when it cannot), whatever else is wrong with it: when
//!   serde_json (not structio) reads the line as one object whose `id` members are strings,
//!   nulls or integers in `i64`, a non-batch answer other than a parse error has the last of
//!   them as its id; with no `id`, or one that is a boolean, an array or an object, null.
//! - `serve` answers a line with the too-long error exactly when the line is longer than the
//!   limit without its line break (`\n`, or `\r\n`).
//! - The concurrent core (`Connection::handle`, as the HTTP transport and the concurrent stdio
//!   run it) sends exactly `handle_line`'s answer as its one frame, and answers a ping after.
//!
//! `rpc_http` (the `rpc_http` target) is at the end.

use structio_rpc::mcp::{Era, Server, ToolError};

/// The arguments of `add`.
#[derive(structio::Reflect)]
pub struct Add {
    pub left: i32,
    pub right: i32,
}

/// The arguments of `search`.
#[derive(structio::Reflect)]
pub struct Search {
    pub query: String,
    pub limit: u32,
}

/// A server with the example's two tools.
pub fn server(max_line: usize) -> Server {
    Server::new("fuzz", "0")
        .max_line(max_line)
        .max_batch(8)
        .tool("add", "Adds two integers", |a: Add| {
            a.left
                .checked_add(a.right)
                .ok_or_else(|| ToolError::new("overflow"))
        })
        .tool("search", "Searches", |s: Search| {
            if s.limit == 0 || s.limit > 100 || s.query.is_empty() || s.query.chars().count() > 64 {
                return Err(ToolError::invalid("$", "out of bounds"));
            }
            Ok((0..s.limit)
                .map(|i| format!("{} {i}", s.query))
                .collect::<Vec<_>>())
        })
}

const PING: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const PONG: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
/// A `server/discover` of revision 2026-07-28: opens a modern connection, and is answered on one.
const DISCOVER: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// An `initialize`: opens a handshake connection.
const INITIALIZE: &[u8] =
    br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;

/// Checks that `s` still answers, as its era prescribes.
fn still_serving(s: &mut Server) {
    let mut out = Vec::new();
    if s.era() == Some(Era::Modern) {
        assert!(s.handle_line(DISCOVER, &mut out));
        let text = String::from_utf8_lossy(&out);
        assert!(
            text.contains(r#""supportedVersions":["2026-07-28"]"#),
            "no discover result: {text}"
        );
    } else {
        assert!(s.handle_line(PING, &mut out));
        assert_eq!(out, PONG);
    }
}

/// `data` to a routed and a deferred server after `opener` (if any): the same answer, the same
/// era.
fn same_answers(data: &[u8], opener: Option<&[u8]>) -> Server {
    let (mut routed, mut deferred) = (server(256), server(256));
    if let Some(line) = opener {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        routed.handle_line(line, &mut a);
        deferred.handle_line_deferred(line, &mut b);
        assert!(a == b, "the opener's answers differ");
    }
    let (mut out, mut general) = (Vec::new(), Vec::new());
    routed.handle_line(data, &mut out);
    deferred.handle_line_deferred(data, &mut general);
    assert!(
        out == general,
        "routed and deferred answers differ (opener {:?}):\n{}\n{}",
        opener.map(String::from_utf8_lossy),
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&general)
    );
    assert_eq!(
        routed.era(),
        deferred.era(),
        "routed and deferred eras differ"
    );
    lines_are_json(&out);
    assert!(
        out.iter().filter(|&&b| b == b'\n').count() <= 1,
        "one answer per line"
    );
    answers_with_the_id(data, &out);
    routed
}

/// The top-level `id` members of `data`, in order, when serde_json reads it as one JSON
/// object (an independent reading); `None` when it does not.
fn top_level_ids(data: &[u8]) -> Option<Vec<serde_json::Value>> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Ids(Vec<serde_json::Value>);
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Ids;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ids, A::Error> {
            let mut ids = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                if key == "id" {
                    ids.push(map.next_value()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(Ids(ids))
        }
    }
    impl<'de> serde::Deserialize<'de> for Ids {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ids, D::Error> {
            d.deserialize_map(V)
        }
    }
    serde_json::from_slice::<Ids>(data).ok().map(|ids| ids.0)
}

/// Checks the id of the answer `out` (one line, or nothing) to the single message `data`.
fn answers_with_the_id(data: &[u8], out: &[u8]) {
    if out.first() != Some(&b'{') {
        return; // no answer, or a batch's
    }
    let Some(ids) = top_level_ids(data) else {
        return;
    };
    let answer: serde_json::Value =
        serde_json::from_slice(&out[..out.len() - 1]).expect("the answer is JSON");
    if answer["error"]["code"] == -32700 {
        return;
    }
    let got = &answer["id"];
    let valid = |id: &serde_json::Value| id.is_string() || id.is_null() || id.is_i64();
    // A number that is not an i64 to serde_json (`-0`, `1.0`, `1e400`, beyond i64) is read
    // or refused by the id's own rules; only the others decide.
    if ids.iter().any(|id| !id.is_number() && !valid(id)) || ids.is_empty() {
        assert!(
            got.is_null(),
            "an answer with id {got} to a message without a valid id: {}",
            String::from_utf8_lossy(out)
        );
    } else if ids.iter().all(valid) {
        let last = &ids[ids.len() - 1];
        assert!(
            got == last,
            "the answer's id is {got}, the message's {last}: {}",
            String::from_utf8_lossy(out)
        );
    }
}

/// Checks that `serve` (limit `max_line`) refused as too long exactly the lines of `data`
/// longer than the limit without their line break.
fn too_long_exactly_past_the_limit(data: &[u8], out: &[u8], max_line: usize) {
    let refusal = format!(
        r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32600,"message":"Invalid Request: a message longer than {max_line} bytes"}}}}"#
    );
    let refused = out
        .split(|&b| b == b'\n')
        .filter(|l| *l == refusal.as_bytes())
        .count();
    let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let over = lines
        .iter()
        .filter(|l| l.strip_suffix(b"\r").unwrap_or(l).len() > max_line)
        .count();
    assert_eq!(
        refused, over,
        "lines refused as too long, and lines past the limit"
    );
}

/// Checks that `out` is lines of well-formed JSON.
fn lines_are_json(out: &[u8]) {
    if out.is_empty() {
        return;
    }
    assert_eq!(out.last(), Some(&b'\n'), "an answer ends its line");
    for line in out[..out.len() - 1].split(|&b| b == b'\n') {
        if let Err(e) = structio::json::validate(line) {
            panic!(
                "answer is not JSON ({e}): {}",
                String::from_utf8_lossy(line)
            );
        }
    }
}

/// The oracle.
pub fn rpc_line(data: &[u8]) {
    let mut s = same_answers(data, None);
    still_serving(&mut s);
    for opener in [DISCOVER, INITIALIZE] {
        let mut s = same_answers(data, Some(opener));
        still_serving(&mut s);
    }

    let mut s = server(256);
    let mut out = Vec::new();
    s.serve(data, &mut out)
        .expect("writing to a Vec cannot fail");
    lines_are_json(&out);
    too_long_exactly_past_the_limit(data, &out, 256);
    let lines = data.split(|&b| b == b'\n').count();
    assert!(
        out.iter().filter(|&&b| b == b'\n').count() <= lines,
        "at most one answer a line"
    );
    still_serving(&mut s);

    #[cfg(feature = "async")]
    concurrent_core_agrees(data);
}

/// The concurrent core's answers to `data`, on a fresh connection (what the HTTP transport and
/// the concurrent stdio run): the frames equal `handle_line`'s answer without its line break
/// (the tools here are plain, so answered at once), and the connection still answers after.
#[cfg(feature = "async")]
fn concurrent_core_agrees(data: &[u8]) {
    use std::sync::Arc;
    use structio_rpc::mcp::{Connection, Outbox};
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
    }
    let mut line = Vec::new();
    server(256).handle_line(data, &mut line);
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    RUNTIME.with(|runtime| {
        runtime.block_on(async {
            let mut connection = Connection::new(Arc::new(server(256)));
            let frames = |connection: &mut Connection, message: &[u8]| {
                let (outbox, mut rx) = Outbox::channel();
                connection.handle(message, outbox);
                let mut frames = Vec::new();
                while let Ok(frame) = rx.try_recv() {
                    frames.push(frame);
                }
                frames
            };
            let got = frames(&mut connection, data);
            let expected: Vec<Vec<u8>> = if line.is_empty() {
                Vec::new()
            } else {
                vec![line]
            };
            assert!(
                got == expected,
                "the concurrent core answers otherwise:\n{:?}\n{:?}",
                got.iter()
                    .map(|f| String::from_utf8_lossy(f))
                    .collect::<Vec<_>>(),
                expected
                    .iter()
                    .map(|f| String::from_utf8_lossy(f))
                    .collect::<Vec<_>>()
            );
            if connection.era() == Some(Era::Modern) {
                let got = frames(&mut connection, DISCOVER);
                assert!(
                    got.len() == 1
                        && String::from_utf8_lossy(&got[0])
                            .contains(r#""supportedVersions":["2026-07-28"]"#),
                    "no discover result on the connection"
                );
            } else {
                let got = frames(&mut connection, PING);
                assert_eq!(got, vec![PONG[..PONG.len() - 1].to_vec()], "no pong");
            }
        })
    });
}

/// A server on a loopback port for [`rpc_http`], started once per process: its address and a
/// session id.
#[cfg(feature = "http")]
fn http_server() -> &'static (tokio::runtime::Runtime, std::net::SocketAddr, String) {
    use std::sync::{Arc, OnceLock};
    use std::time::Duration;
    use structio_rpc::mcp::HttpOptions;
    static SERVER: OnceLock<(tokio::runtime::Runtime, std::net::SocketAddr, String)> =
        OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        let options = HttpOptions::new()
            .max_body(64 << 10)
            .max_connections(64)
            .header_timeout(Duration::from_millis(250))
            .body_timeout(Duration::from_millis(250));
        runtime.spawn(Arc::new(server(256)).serve_http_async(
            listener,
            options,
            std::future::pending(),
        ));
        let (status, head, _) = http_exchange(addr, &post(None, INITIALIZE));
        assert_eq!(status, Some(200), "initialize: {head}");
        let session = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("mcp-session-id")
                    .then(|| value.trim().to_owned())
            })
            .expect("a session id");
        let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let (status, head, _) = http_exchange(addr, &post(Some(&session), initialized));
        assert_eq!(status, Some(202), "initialized: {head}");
        (runtime, addr, session)
    })
}

/// A well-formed POST of `body` (with the session, if any), closing the connection after.
#[cfg(feature = "http")]
fn post(session: Option<&str>, body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    )
    .into_bytes();
    if let Some(id) = session {
        request.extend_from_slice(format!("Mcp-Session-Id: {id}\r\n").as_bytes());
    }
    request.extend_from_slice(b"\r\n");
    request.extend_from_slice(body);
    request
}

/// Sends `raw` on a new connection and reads until the server closes: the first status (if
/// anything came back), the head and the rest. Panics if neither an answer nor the close comes
/// within 10 s (the server's timeouts are 250 ms; it closes a kept-alive connection that
/// starts no new request within them). The sending side stays open: hyper drops a request
/// whose client half-closes (`half_close` is off).
#[cfg(feature = "http")]
fn http_exchange(addr: std::net::SocketAddr, raw: &[u8]) -> (Option<u16>, String, Vec<u8>) {
    use std::io::{ErrorKind, Read, Write};
    use std::time::{Duration, Instant};
    const LIMIT: Duration = Duration::from_secs(10);
    let mut stream = std::net::TcpStream::connect(addr).expect("a connection");
    stream.set_read_timeout(Some(LIMIT)).expect("a timeout");
    // The server may answer and close before reading everything.
    let _ = stream.write_all(raw);
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::BrokenPipe) => {
                break
            }
            // libFuzzer's timer signal interrupts the read: go on reading, within the limit.
            Err(e) if e.kind() == ErrorKind::Interrupted && started.elapsed() < LIMIT => {}
            Err(e) => panic!(
                "neither an answer nor the close after {:?} ({e}); got {:?}",
                started.elapsed(),
                String::from_utf8_lossy(&got)
            ),
        }
    }
    if got.is_empty() {
        return (None, String::new(), got);
    }
    let end = got
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(got.len());
    let head = String::from_utf8_lossy(&got[..end]).into_owned();
    let status = head
        .strip_prefix("HTTP/1.1 ")
        // hyper answers an HTTP/1.0 request in HTTP/1.0.
        .or_else(|| head.strip_prefix("HTTP/1.0 "))
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse::<u16>().ok());
    assert!(
        status.is_some(),
        "an answer without a status line: {:?}",
        String::from_utf8_lossy(&got[..got.len().min(300)])
    );
    let rest = got[(end + 4).min(got.len())..].to_vec();
    (status, head, rest)
}

/// The oracle of the `rpc_http` target: any bytes to the Streamable HTTP transport
/// (`serve_http_async` on a loopback port), as the raw bytes of a request and as the body of a
/// well-formed POST in a session.
///
/// - An answer (or the close) comes within the timeout; anything that comes starts with a
///   status line.
/// - No 5xx but 503 (capacity).
/// - A normal request is answered after each.
#[cfg(feature = "http")]
pub fn rpc_http(data: &[u8]) {
    let (_, addr, session) = http_server();
    let ok = |status: Option<u16>, what: &str, head: &str| {
        if let Some(s) = status {
            assert!(
                !(500..600).contains(&s) || s == 503,
                "{s} for the {what}: {head}"
            );
        }
    };
    let (status, head, _) = http_exchange(*addr, data);
    ok(status, "raw request", &head);
    let (status, head, _) = http_exchange(*addr, &post(Some(session), data));
    assert!(status.is_some(), "no answer to a well-formed POST");
    ok(status, "body", &head);
    let (status, head, rest) = http_exchange(*addr, &post(Some(session), PING));
    assert_eq!(status, Some(200), "ping: {head}");
    assert!(
        String::from_utf8_lossy(&rest).contains(r#""result":{}"#),
        "no pong: {}",
        String::from_utf8_lossy(&rest)
    );
}
