//! The Streamable HTTP transport (feature `http`) through real TCP connections: a raw HTTP/1.1
//! client on `std::net::TcpStream` against `Server::serve_http_async` on its own thread.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use structio_rpc::mcp::{Context, HttpOptions, SamplingRequest, Server, ToolError};

#[derive(structio::Reflect)]
struct Add {
    left: i32,
    right: i32,
}

#[derive(structio::Reflect)]
struct Sum {
    result: i32,
}

#[derive(structio::Reflect)]
struct Wait {
    ms: u64,
}

#[derive(structio::Reflect)]
struct Prompt {
    prompt: String,
}

pub(crate) fn server() -> Server {
    Server::new("http-test", "1.0.0")
        .tool("add", "Adds two integers", |a: Add| {
            a.left
                .checked_add(a.right)
                .map(|result| Sum { result })
                .ok_or_else(|| ToolError::new("overflow"))
        })
        .tool("wait", "Sleeps, then answers", |w: Wait| {
            std::thread::sleep(Duration::from_millis(w.ms.min(5_000)));
            Ok::<_, ToolError>("done".to_owned())
        })
        .tool(
            "sample",
            "Asks the client's model",
            |ctx: Context, p: Prompt| async move {
                let answer = ctx.sample(&SamplingRequest::new(10).user(p.prompt)).await?;
                Ok::<_, ToolError>(format!("LLM said {}", answer.text().unwrap_or("?")))
            },
        )
}

/// A server on a loopback port, on its own thread; stopped (gracefully) when dropped.
pub(crate) struct Running {
    pub(crate) addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

pub(crate) fn start(options: HttpOptions) -> Running {
    start_with(server(), options)
}

/// [`start`] with another server.
pub(crate) fn start_with(server: Server, options: HttpOptions) -> Running {
    start_on(server, options, 1024)
}

/// [`start_with`] on a listener with this backlog (`TcpListener::bind`'s is 1024).
pub(crate) fn start_on(server: Server, options: HttpOptions, backlog: u32) -> Running {
    let (tx, rx) = mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.set_reuseaddr(true).unwrap();
            socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
            let listener = socket.listen(backlog).unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            std::sync::Arc::new(server)
                .serve_http_async(listener, options, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
    });
    Running {
        addr: rx.recv().unwrap(),
        stop: Some(stop),
        thread: Some(thread),
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop.take().unwrap().send(());
        let _ = self.thread.take().unwrap().join();
    }
}

/// A response: status, headers (names lowercase), body (chunked transfer decoded).
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub(crate) const ACCEPT_BOTH: (&str, &str) = ("Accept", "application/json, text/event-stream");
pub(crate) const JSON: (&str, &str) = ("Content-Type", "application/json");

/// One HTTP/1.1 request written on a new connection (`Connection: close`, reads timing out
/// after 20 s), its answer left to read.
pub(crate) fn request(
    addr: SocketAddr,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = format!(
        "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n",
        addr.port(),
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

/// One HTTP/1.1 request on a new connection (`Connection: close`), read to its end.
pub(crate) fn send(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut stream = request(addr, method, headers, body);
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse(&raw)
}

pub(crate) fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").expect("a complete head");
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_ascii_lowercase(), v.trim().to_owned())
        })
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let mut body = String::new();
        let mut rest = rest;
        loop {
            let (size, after) = rest.split_once("\r\n").unwrap();
            let size = usize::from_str_radix(size.trim(), 16).unwrap();
            if size == 0 {
                break;
            }
            body.push_str(&after[..size]);
            rest = &after[size + 2..];
        }
        body
    } else {
        rest.to_owned()
    };
    Reply {
        status,
        headers,
        body,
    }
}

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// Initializes a session; its id.
pub(crate) fn initialize(addr: SocketAddr) -> String {
    let reply = send(addr, "POST", &[ACCEPT_BOTH, JSON], INITIALIZE);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(reply.body.contains(r#""protocolVersion":"2025-11-25""#));
    let id = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    assert!(id.len() >= 32 && id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
    let reply = send(
        addr,
        "POST",
        &[ACCEPT_BOTH, JSON, ("Mcp-Session-Id", &id)],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(reply.status, 202, "{reply:?}");
    assert!(reply.body.is_empty());
    id
}

pub(crate) fn call_add(addr: SocketAddr, session: &str, id: u32) -> Reply {
    send(
        addr,
        "POST",
        &[
            ACCEPT_BOTH,
            JSON,
            ("Mcp-Session-Id", session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        &format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"left":2,"right":3}}}}}}"#
        ),
    )
}

#[test]
fn session_lifecycle() {
    let server = start(HttpOptions::new());
    let session = initialize(server.addr);
    let reply = call_add(server.addr, &session, 1);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(reply
        .body
        .starts_with(r#"{"jsonrpc":"2.0","id":1,"result":"#));
    assert!(reply.body.contains(r#""structuredContent":{"result":5}"#));
    // Two sessions are independent; ids differ.
    let other = initialize(server.addr);
    assert_ne!(session, other);
    // DELETE ends the session: then 404.
    let reply = send(server.addr, "DELETE", &[("Mcp-Session-Id", &session)], "");
    assert_eq!(reply.status, 200);
    assert_eq!(call_add(server.addr, &session, 2).status, 404);
    assert_eq!(
        send(server.addr, "DELETE", &[("Mcp-Session-Id", &session)], "").status,
        404
    );
    assert_eq!(call_add(server.addr, &other, 3).status, 200);
}

#[test]
fn session_errors() {
    let server = start(HttpOptions::new());
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    // No session id: 400.
    let reply = send(server.addr, "POST", &[ACCEPT_BOTH, JSON], body);
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains(r#""code":-32600"#));
    // Unknown session id: 404.
    let reply = send(
        server.addr,
        "POST",
        &[ACCEPT_BOTH, JSON, ("Mcp-Session-Id", "nope")],
        body,
    );
    assert_eq!(reply.status, 404);
    // DELETE without one: 400.
    assert_eq!(send(server.addr, "DELETE", &[], "").status, 400);
    // An unsupported protocol version: 400.
    let session = initialize(server.addr);
    let reply = send(
        server.addr,
        "POST",
        &[
            ACCEPT_BOTH,
            JSON,
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "1999-01-01"),
        ],
        body,
    );
    assert_eq!(reply.status, 400);
}

#[test]
fn refused_initialize_opens_no_session() {
    let server = start(HttpOptions::new());
    let reply = send(
        server.addr,
        "POST",
        &[ACCEPT_BOTH, JSON],
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.body.contains(r#""error""#), "{reply:?}");
    assert!(reply.header("mcp-session-id").is_none());
}

#[test]
fn expired_session() {
    let server = start(HttpOptions::new().session_idle(Duration::from_millis(200)));
    let session = initialize(server.addr);
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(call_add(server.addr, &session, 1).status, 404);
}

#[test]
fn header_checks() {
    let server = start(HttpOptions::new().allow_origin("https://app.example"));
    // A foreign origin: 403, before anything else.
    let reply = send(
        server.addr,
        "POST",
        &[ACCEPT_BOTH, JSON, ("Origin", "http://evil.example.com")],
        INITIALIZE,
    );
    assert_eq!(reply.status, 403);
    // Localhost origins and the configured one are served.
    for origin in [
        "http://localhost:3000",
        "http://127.0.0.1",
        "https://[::1]:8443",
        "https://app.example",
    ] {
        let reply = send(
            server.addr,
            "POST",
            &[ACCEPT_BOTH, JSON, ("Origin", origin)],
            INITIALIZE,
        );
        assert_eq!(reply.status, 200, "{origin}: {reply:?}");
    }
    // Accept without text/event-stream: 406.
    let reply = send(
        server.addr,
        "POST",
        &[("Accept", "application/json"), JSON],
        INITIALIZE,
    );
    assert_eq!(reply.status, 406);
    // Content-Type not JSON: 415.
    let reply = send(
        server.addr,
        "POST",
        &[ACCEPT_BOTH, ("Content-Type", "text/plain")],
        INITIALIZE,
    );
    assert_eq!(reply.status, 415);
    // GET without a session: 400; in the stateless revision: 405, as another method; another
    // path: 404.
    let reply = send(server.addr, "GET", &[("Accept", "text/event-stream")], "");
    assert_eq!(reply.status, 400);
    let reply = send(
        server.addr,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
        ],
        "",
    );
    assert_eq!(reply.status, 405);
    assert_eq!(reply.header("allow"), Some("GET, POST, DELETE"));
    let reply = send(server.addr, "PUT", &[ACCEPT_BOTH], "");
    assert_eq!(reply.status, 405);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .write_all(b"GET /other HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    assert_eq!(parse(&raw).status, 404);
}

#[test]
fn bad_bodies() {
    let server = start(HttpOptions::new().max_body(1024));
    // Over the limit: 413 (by Content-Length, before reading it).
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","pad":"{}"}}"#,
        "x".repeat(2000)
    );
    let reply = send(server.addr, "POST", &[ACCEPT_BOTH, JSON], &big);
    assert_eq!(reply.status, 413);
    // Not JSON: 400 with the JSON-RPC parse error.
    let reply = send(server.addr, "POST", &[ACCEPT_BOTH, JSON], "{not json");
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains(r#""code":-32700"#), "{reply:?}");
    // A response from the client (to no request of the server's): 202 in a session, 400
    // without one.
    let response = r#"{"jsonrpc":"2.0","id":5,"result":{}}"#;
    let reply = send(server.addr, "POST", &[ACCEPT_BOTH, JSON], response);
    assert_eq!(reply.status, 400);
    let session = initialize(server.addr);
    let reply = send(
        server.addr,
        "POST",
        &[ACCEPT_BOTH, JSON, ("Mcp-Session-Id", &session)],
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
    );
    assert_eq!(reply.status, 202);
    // An unknown method: 200 with the JSON-RPC error.
    let reply = send(
        server.addr,
        "POST",
        &[ACCEPT_BOTH, JSON, ("Mcp-Session-Id", &session)],
        r#"{"jsonrpc":"2.0","id":6,"method":"nope"}"#,
    );
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains(r#""code":-32601"#));
}

#[test]
fn oversized_chunked_body() {
    let server = start(HttpOptions::new().max_body(1024));
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let chunk = "x".repeat(4096);
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
        chunk.len()
    );
    // The server may answer and close before reading it all.
    let _ = stream.write_all(request.as_bytes());
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    assert_eq!(parse(&raw).status, 413);
}

#[test]
fn oversized_headers() {
    let server = start(HttpOptions::new().max_header(2048));
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Pad: {}\r\n\r\n",
        "y".repeat(10_000)
    );
    let _ = stream.write_all(request.as_bytes());
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    assert_eq!(parse(&raw).status, 431);
}

#[test]
fn stateless_era() {
    let server = start(HttpOptions::new());
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":20,"right":22},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    for version in [None, Some("2026-07-28")] {
        let mut headers = vec![ACCEPT_BOTH, JSON];
        if let Some(v) = version {
            headers.push(("MCP-Protocol-Version", v));
        }
        let reply = send(server.addr, "POST", &headers, body);
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(reply.header("mcp-session-id").is_none());
        assert!(
            reply.body.contains(r#""structuredContent":{"result":42}"#),
            "{reply:?}"
        );
        assert!(
            reply.body.contains(r#""resultType":"complete""#),
            "{reply:?}"
        );
    }
    let discover = r#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let reply = send(server.addr, "POST", &[ACCEPT_BOTH, JSON], discover);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.body.contains("supportedVersions"), "{reply:?}");
}

/// More clients at once than `max_connections`: those refused try again, and every one is
/// answered.
#[test]
fn many_connections() {
    let server = start(HttpOptions::new().max_connections(8));
    let session = initialize(server.addr);
    let addr = server.addr;
    let threads: Vec<_> = (0..32)
        .map(|i| {
            let session = session.clone();
            std::thread::spawn(move || {
                // Past the bound a connection is refused (`503`): the client tries again.
                let started = std::time::Instant::now();
                let reply = loop {
                    let reply = call_add(addr, &session, i);
                    if reply.status != 503 {
                        break reply;
                    }
                    assert!(started.elapsed() < Duration::from_secs(10), "{reply:?}");
                    std::thread::sleep(Duration::from_millis(5));
                };
                assert_eq!(reply.status, 200, "{reply:?}");
                assert!(reply
                    .body
                    .starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{i},"#)));
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn keep_alive_connection() {
    let server = start(HttpOptions::new());
    let session = initialize(server.addr);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    for i in 0..3 {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#);
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let expected = format!(r#"{{"jsonrpc":"2.0","id":{i},"result":{{}}}}"#);
        let mut raw = Vec::new();
        let mut buf = [0u8; 1024];
        while !String::from_utf8_lossy(&raw).ends_with(&expected) {
            let n = stream.read(&mut buf).unwrap();
            assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&raw));
            raw.extend_from_slice(&buf[..n]);
        }
        assert_eq!(parse(&raw).status, 200);
    }
}

#[test]
fn disconnect_mid_request() {
    let server = start(HttpOptions::new());
    let session = initialize(server.addr);
    // A client sends a slow call and goes away before the answer.
    {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        let body = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"wait","arguments":{"ms":300}}}"#;
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
    }
    // A client that stops in the middle of its body.
    {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
            .unwrap();
    }
    // Another client is served.
    let other = initialize(server.addr);
    let reply = call_add(server.addr, &other, 1);
    assert_eq!(reply.status, 200);
    let reply = call_add(server.addr, &session, 2);
    assert_eq!(reply.status, 200);
}

#[test]
fn slow_body_times_out() {
    let server = start(HttpOptions::new().body_timeout(Duration::from_millis(200)));
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        .unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    assert_eq!(parse(&raw).status, 408);
}

/// A tool asking the client's model: its request goes out on the call's SSE stream at once,
/// the client's answer is POSTed (`202`, no body) and reaches the waiting call, whose
/// response then ends the same stream.
#[test]
fn sampling_round_trip() {
    let server = start(HttpOptions::new());
    let addr = server.addr;
    let init = INITIALIZE.replace(r#""capabilities":{}"#, r#""capabilities":{"sampling":{}}"#);
    let reply = send(addr, "POST", &[ACCEPT_BOTH, JSON], &init);
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let headers = [
        ACCEPT_BOTH,
        JSON,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    // The call, on a connection read as its stream comes.
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sample","arguments":{"prompt":"hello"}}}"#;
    let mut stream = request(addr, "POST", &headers, body);
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    let request = r#""id":1,"method":"sampling/createMessage""#;
    while !String::from_utf8_lossy(&raw).contains(request) {
        let n = stream.read(&mut buf).expect("the sampling request in time");
        assert!(n > 0, "the stream ended: {}", String::from_utf8_lossy(&raw));
        raw.extend_from_slice(&buf[..n]);
    }
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}"#;
    let reply = send(addr, "POST", &headers, answer);
    assert_eq!(reply.status, 202, "{reply:?}");
    assert!(reply.body.is_empty(), "{reply:?}");
    stream
        .read_to_end(&mut raw)
        .expect("the call's response in time");
    let reply = parse(&raw);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let request_at = reply.body.find("sampling/createMessage").unwrap();
    let response_at = reply
        .body
        .find(r#""id":5,"result":{"content":[{"type":"text","text":"LLM said hi"}]"#)
        .unwrap_or_else(|| panic!("{reply:?}"));
    assert!(request_at < response_at);
}

/// The head of a response read off `stream` (up to its blank line): status, head text.
fn read_head(stream: &mut TcpStream) -> (u16, String) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "the head ended early");
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase())
}

/// Reads `stream` (a chunked SSE body) until the text read holds `needle`; all of it. Fails
/// after 20 s (the stream's comment lines would otherwise keep a read going).
fn read_until(stream: &mut TcpStream, needle: &str) -> String {
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    let start = std::time::Instant::now();
    while !String::from_utf8_lossy(&text).contains(needle) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no {needle:?} in {}",
            String::from_utf8_lossy(&text)
        );
        let n = stream.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "the stream ended: {}",
            String::from_utf8_lossy(&text)
        );
        text.extend_from_slice(&buf[..n]);
    }
    String::from_utf8(text).unwrap()
}

/// A session's standalone GET stream: opened with the head read; `409` for a second one;
/// `notifications/resources/updated` for a subscribed URI, and `list_changed`, arrive on it
/// as SSE events with ids; an unsubscribed URI sends nothing; a client resuming with
/// `Last-Event-ID` is sent the events after it.
#[test]
fn get_stream_carries_notifications() {
    use structio_rpc::mcp::{ResourceContents, ResourceError, ResourceOptions};

    let mut server = server()
        .resource("test://watched", "watched", ResourceOptions::new(), |r| {
            Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "w"))
        })
        .subscriptions(true);
    let notifier = server.notifier();
    let server = start_with(server, HttpOptions::new());
    let session = initialize(server.addr);
    let session_headers = [
        ACCEPT_BOTH,
        JSON,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];

    // GET with an unknown session: 404; without Accept: text/event-stream: 406.
    let reply = send(
        server.addr,
        "GET",
        &[("Accept", "text/event-stream"), ("Mcp-Session-Id", "nope")],
        "",
    );
    assert_eq!(reply.status, 404);
    let reply = send(
        server.addr,
        "GET",
        &[("Accept", "application/json"), ("Mcp-Session-Id", &session)],
        "",
    );
    assert_eq!(reply.status, 406);

    let mut stream = open_stream(server.addr, &session, None);

    // One stream at a time.
    assert_eq!(get_status(server.addr, &session), 409);

    // Not subscribed yet: nobody to tell.
    assert_eq!(notifier.resource_updated("test://watched"), 0);
    let reply = send(
        server.addr,
        "POST",
        &session_headers,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"test://watched"}}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert_eq!(notifier.resource_updated("test://watched"), 1);
    // (A read that does not find the event fails after the read timeout.)
    read_until(
        &mut stream,
        "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"test://watched\"}}\n\n",
    );

    // Unsubscribed: nothing; the next event on the stream is the list change, id 2.
    let reply = send(
        server.addr,
        "POST",
        &session_headers,
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"test://watched"}}"#,
    );
    assert_eq!(reply.body, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    assert_eq!(notifier.resource_updated("test://watched"), 0);
    assert_eq!(notifier.tools_changed(), 1);
    let got = read_until(
        &mut stream,
        "id: 2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n",
    );
    assert!(!got.contains("resources/updated"), "{got}");

    // The client goes away; an event comes meanwhile (kept for the session); the client
    // resumes with Last-Event-ID and is sent what it missed, first.
    drop(stream);
    assert_eq!(notifier.resources_changed(), 1);
    let mut resumed = open_stream(server.addr, &session, Some(2));
    read_until(
        &mut resumed,
        "id: 3\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}\n\n",
    );
    // A GET without Last-Event-ID while it is open: 409.
    assert_eq!(get_status(server.addr, &session), 409);
    // From the start: every kept event, in order.
    let mut again = open_stream(server.addr, &session, Some(0));
    let got = read_until(&mut again, "id: 3\n");
    let (one, two) = (got.find("id: 1\n").unwrap(), got.find("id: 2\n").unwrap());
    assert!(one < two && two < got.find("id: 3\n").unwrap(), "{got}");
}

/// The status of a GET of `session`'s stream (the head only: a `200` stream is not read).
fn get_status(addr: SocketAddr, session: &str) -> u16 {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
        .write_all(
            format!(
                "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\n\
                 Mcp-Session-Id: {session}\r\nConnection: close\r\n\r\n",
                addr.port()
            )
            .as_bytes(),
        )
        .unwrap();
    read_head(&mut stream).0
}

/// Opens `session`'s standalone stream (resuming after `last`, if given); the stream, its
/// head read (`200`, `text/event-stream`).
fn open_stream(addr: SocketAddr, session: &str, last: Option<u64>) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let last = last.map_or(String::new(), |l| format!("Last-Event-ID: {l}\r\n"));
    stream
        .write_all(
            format!(
                "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\n\
                 Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n{last}\r\n",
                addr.port()
            )
            .as_bytes(),
        )
        .unwrap();
    let (status, head) = read_head(&mut stream);
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    stream
}

/// An idle standalone stream gets the keep-alive comment line within the interval set, and
/// again after it.
#[test]
fn keep_alive_line_on_an_idle_stream() {
    let interval = Duration::from_millis(100);
    let server = start(HttpOptions::new().keep_alive(interval));
    let session = initialize(server.addr);
    let mut stream = open_stream(server.addr, &session, None);
    let opened = std::time::Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_millis(1_500)))
        .unwrap();
    let mut text = Vec::new();
    let mut buf = [0u8; 256];
    for count in 1..=2u32 {
        while String::from_utf8_lossy(&text)
            .matches(": keep-alive\n\n")
            .count()
            < count as usize
        {
            let n = stream.read(&mut buf).unwrap_or_else(|e| {
                panic!(
                    "no keep-alive line {count} after {:?} ({e}): {:?}",
                    opened.elapsed(),
                    String::from_utf8_lossy(&text)
                )
            });
            assert!(n > 0, "the stream ended");
            text.extend_from_slice(&buf[..n]);
        }
        // Not before the interval has passed (the timer is armed before the head is read).
        assert!(
            opened.elapsed() >= interval * (count - 1),
            "{:?}",
            opened.elapsed()
        );
    }
    assert!(
        opened.elapsed() < Duration::from_millis(1_500),
        "{:?}",
        opened.elapsed()
    );
}

/// The `id:` of every SSE event in `text` (a chunked stream as read), in order.
fn event_ids(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .map(|id| id.trim().parse().unwrap())
        .collect()
}

/// A GET of `session`'s stream resuming after `last`, on a connection closed after the
/// answer: the whole answer when it is not `200` (the stream itself is not read).
fn resume_refused(addr: SocketAddr, session: &str, last: u64) -> Reply {
    let mut stream = request(
        addr,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", session),
            ("Last-Event-ID", &last.to_string()),
        ],
        "",
    );
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse(&raw)
}

/// More events than the session keeps (256 of 300): a resumption inside the window replays
/// exactly the events after its id (the oldest kept id's predecessor included); one before
/// it is refused `409`, naming the oldest kept id, and ends the open stream, so that the
/// client's next `GET`, without `Last-Event-ID`, opens one; an id never given out, `400`.
#[test]
fn resumption_outside_the_kept_events() {
    let mut server = server();
    let notifier = server.notifier();
    let server = start_with(server, HttpOptions::new());
    let addr = server.addr;
    let session = initialize(addr);
    let mut stream = open_stream(addr, &session, None);
    for _ in 0..300 {
        assert_eq!(notifier.tools_changed(), 1);
    }
    let got = read_until(&mut stream, "id: 300\n");
    assert_eq!(event_ids(&got), (1..=300).collect::<Vec<_>>());
    drop(stream);

    // Inside the window: exactly the later events, in order.
    let last_event = "id: 300\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
    let mut resumed = open_stream(addr, &session, Some(200));
    let got = read_until(&mut resumed, last_event);
    assert_eq!(event_ids(&got), (201..=300).collect::<Vec<_>>());
    // Ids 45 to 300 are kept: after 44 nothing is lost.
    let mut resumed = open_stream(addr, &session, Some(44));
    let got = read_until(&mut resumed, last_event);
    assert_eq!(event_ids(&got), (45..=300).collect::<Vec<_>>());

    // Event 44 is gone: refused, nothing replayed.
    let reply = resume_refused(addr, &session, 43);
    assert_eq!(reply.status, 409, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(
        reply
            .body
            .contains("no longer kept (the oldest kept is 45)"),
        "{reply:?}"
    );
    assert!(!reply.body.contains("id: "), "{reply:?}");
    let reply = resume_refused(addr, &session, 0);
    assert_eq!(reply.status, 409, "{reply:?}");
    // The stream resumed after 44 was ended by the refused resumption: it ends (the chunked
    // body's last chunk) with nothing more, and a plain GET is not a second stream.
    let mut rest = Vec::new();
    let mut buf = [0u8; 1024];
    while !rest.ends_with(b"0\r\n\r\n") {
        let n = resumed.read(&mut buf).unwrap();
        assert!(n > 0, "{}", String::from_utf8_lossy(&rest));
        rest.extend_from_slice(&buf[..n]);
    }
    assert!(!String::from_utf8_lossy(&rest).contains("id: "));
    assert_eq!(get_status(addr, &session), 200);

    // An id the session never gave out.
    let reply = resume_refused(addr, &session, 301);
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(reply.body.contains("Last-Event-ID"), "{reply:?}");
}

/// Past `max_connections`, a connection is answered `503` at once (with `Retry-After` and a
/// JSON-RPC error) and closed, while those within the bound are served; once one of them
/// closes, a new connection is served.
#[test]
fn connections_past_the_bound_are_refused() {
    let server = start(HttpOptions::new().max_connections(2));
    let addr = server.addr;
    // Two connections, idle: the bound is reached.
    let mut first = TcpStream::connect(addr).unwrap();
    first
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let second = TcpStream::connect(addr).unwrap();
    let discover = r#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let headers = [ACCEPT_BOTH, JSON, ("MCP-Protocol-Version", "2026-07-28")];
    for _ in 0..3 {
        let started = std::time::Instant::now();
        let reply = send(addr, "POST", &headers, discover);
        assert_eq!(reply.status, 503, "{reply:?}");
        assert_eq!(reply.header("retry-after"), Some("1"), "{reply:?}");
        assert_eq!(reply.header("connection"), Some("close"), "{reply:?}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(
            reply.body,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Service Unavailable: too many connections"}}"#
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
    // A connection within the bound is served.
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: {}\r\n\r\n{discover}",
        discover.len()
    );
    first.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&raw).contains("supportedVersions") {
        let n = first.read(&mut buf).unwrap();
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&raw));
        raw.extend_from_slice(&buf[..n]);
    }
    assert_eq!(parse(&raw).status, 200);
    // One goes: a new connection is served (as soon as the server has seen it go).
    drop(second);
    let started = std::time::Instant::now();
    loop {
        let reply = send(addr, "POST", &headers, discover);
        if reply.status == 200 {
            assert!(reply.body.contains("supportedVersions"), "{reply:?}");
            break;
        }
        assert_eq!(reply.status, 503, "{reply:?}");
        assert!(started.elapsed() < Duration::from_secs(2), "still refused");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A client that shuts down its writing side once its request is sent still gets the answer,
/// even one that takes a while (an asynchronous tool: the connection's task waits for it, and
/// sees the end of input meanwhile). A request with `Connection: close` would pass without
/// half-close support (hyper stops reading after such a request): this one is kept alive.
#[test]
fn half_closed_client_gets_its_answer() {
    let server = start_with(
        server().tool(
            "nap",
            "Sleeps (async), then answers",
            |w: Wait| async move {
                tokio::time::sleep(Duration::from_millis(w.ms.min(5_000))).await;
                Ok::<_, ToolError>("done".to_owned())
            },
        ),
        HttpOptions::new(),
    );
    let session = initialize(server.addr);
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nap","arguments":{"ms":200}}}"#;
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    assert!(!raw.is_empty(), "the connection was closed with no answer");
    let reply = parse(&raw);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(
        reply
            .body
            .starts_with(r#"{"jsonrpc":"2.0","id":7,"result":"#),
        "{reply:?}"
    );
    assert!(reply.body.contains("done"), "{reply:?}");
}

/// A client that shuts down its writing side in the middle of its body is answered `400` at
/// once (not after the body's timeout).
#[test]
fn half_closed_in_the_middle_of_a_body() {
    let server = start(HttpOptions::new());
    let session = initialize(server.addr);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let started = std::time::Instant::now();
    stream
        .write_all(
            format!(
                "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: {session}\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\""
            )
            .as_bytes(),
        )
        .unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let reply = parse(&raw);
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(reply.body.contains("the body ended early"), "{reply:?}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

/// A client that closes its standalone stream's connection is noticed at once (no write
/// needed): the session's next `GET`, without `Last-Event-ID`, opens a stream, not `409`.
#[test]
fn a_closed_get_stream_is_noticed() {
    let server = start(HttpOptions::new());
    let session = initialize(server.addr);
    let stream = open_stream(server.addr, &session, None);
    assert_eq!(get_status(server.addr, &session), 409);
    drop(stream);
    let started = std::time::Instant::now();
    loop {
        match get_status(server.addr, &session) {
            200 => break,
            409 if started.elapsed() < Duration::from_secs(2) => {
                std::thread::sleep(Duration::from_millis(10))
            }
            status => panic!("{status} after {:?}", started.elapsed()),
        }
    }
}

/// `keep_alive(Duration::MAX)`: no comment line in practice, and an event still goes out (the
/// interval is bounded, so that the next line's time can be computed).
#[test]
fn keep_alive_never() {
    let mut server = server();
    let notifier = server.notifier();
    let server = start_with(server, HttpOptions::new().keep_alive(Duration::MAX));
    let session = initialize(server.addr);
    let mut stream = open_stream(server.addr, &session, None);
    assert_eq!(notifier.tools_changed(), 1);
    let got = read_until(&mut stream, "id: 1\n");
    assert!(!got.contains("keep-alive"), "{got}");
    assert_eq!(notifier.tools_changed(), 1);
    read_until(&mut stream, "id: 2\n");
}

/// Revision 2026-07-28 over HTTP gives some errors their own status: `404` for a method the
/// server does not implement, `400` for an unsupported protocol version and for a missing
/// client capability; results and other errors `200`. The handshake era's errors stay `200`.
#[test]
fn modern_error_statuses() {
    #[derive(structio::Reflect)]
    struct Quantity {
        quantity: u32,
    }
    let server = server().tool(
        "order",
        "Asks how many",
        |ctx: Context, _: Wait| async move {
            ctx.ask::<Quantity>("quantity", "How many?").await?;
            Ok::<_, ToolError>("ordered".to_owned())
        },
    );
    let running = start_with(server, HttpOptions::new());
    let post = |version: &str, method: &str, params: &str| {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{params}"_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        );
        send(running.addr, "POST", &[ACCEPT_BOTH, JSON], &body)
    };
    let reply = post("2026-07-28", "nope/nope", "");
    assert_eq!(reply.status, 404, "{reply:?}");
    assert!(reply.body.contains(r#""code":-32601"#), "{reply:?}");
    let reply = post("2099-01-01", "tools/list", "");
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(reply.body.contains(r#""code":-32022"#), "{reply:?}");
    let reply = post(
        "2026-07-28",
        "tools/call",
        r#""name":"order","arguments":{"ms":0},"#,
    );
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(reply.body.contains(r#""code":-32021"#), "{reply:?}");
    for params in [
        r#""name":"add","arguments":{"left":1,"right":2},"#,
        r#""name":"add","arguments":{"left":"one"},"#,
        r#""name":"nonesuch","#,
    ] {
        let reply = post("2026-07-28", "tools/call", params);
        assert_eq!(reply.status, 200, "{params} {reply:?}");
    }
    // The handshake era: a method not found is a JSON-RPC error with 200.
    let session = initialize(running.addr);
    let reply = send(
        running.addr,
        "POST",
        &[
            ACCEPT_BOTH,
            JSON,
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        r#"{"jsonrpc":"2.0","id":2,"method":"nope/nope"}"#,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.body.contains(r#""code":-32601"#), "{reply:?}");
}
