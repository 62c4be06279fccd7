//! `subscriptions/listen` (revision 2026-07-28, feature `async`): the acknowledgement naming
//! what the server agreed to send, the notifications on the stream (each naming it in
//! `_meta`), the end of a stream (cancelled, its receiver gone, the input over, the server
//! closing it gracefully), and the answers without a connection and in the handshake era.

use std::sync::Arc;
use std::time::Duration;

use structio_rpc::mcp::{
    Connection, Outbox, ResourceContents, ResourceError, ResourceOptions, Server,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::mpsc::UnboundedReceiver;

use super::subscriptions::next_line;

const WAIT: Duration = Duration::from_secs(10);

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn server() -> Server {
    Server::new("listen", "1")
        .resource("test://a", "a", ResourceOptions::new(), |r| {
            Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "A"))
        })
        .resource("test://b", "b", ResourceOptions::new(), |r| {
            Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "B"))
        })
        .subscriptions(true)
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A `subscriptions/listen` request `id` asking for `notifications` (a JSON object's text).
fn listen(id: &str, notifications: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"subscriptions/listen","params":{{{META},"notifications":{notifications}}}}}"#
    )
}

/// The acknowledgement of the stream `id` agreeing to `agreed`.
fn acknowledged(id: &str, agreed: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}},"notifications":{agreed}}}}}"#
    )
}

/// `method` on the stream `id`, with `rest` after the `_meta`.
fn on_stream(method: &str, id: &str, rest: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"{method}","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}}{rest}}}}}"#
    )
}

fn text(frame: Vec<u8>) -> String {
    String::from_utf8(frame).unwrap()
}

/// Opens a stream on `connection`; the stream's receiver, its acknowledgement taken.
async fn open(
    connection: &mut Connection,
    id: &str,
    asked: &str,
    agreed: &str,
) -> UnboundedReceiver<Vec<u8>> {
    let (outbox, mut frames) = Outbox::channel();
    connection.handle(listen(id, asked).as_bytes(), outbox);
    let ack = tokio::time::timeout(WAIT, frames.recv())
        .await
        .expect("an acknowledgement in time")
        .expect("an acknowledgement");
    assert_eq!(text(ack), acknowledged(id, agreed));
    frames
}

#[test]
fn acknowledged_with_what_is_agreed_then_notified() {
    rt().block_on(async {
        let mut server = server();
        let notifier = server.notifier();
        let server = Arc::new(server);
        let mut connection = Connection::new(server.clone());
        // No prompts: `promptsListChanged` is not agreed; an unknown URI is left out.
        let mut frames = open(
            &mut connection,
            "7",
            r#"{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["test://a","test://nope"]}"#,
            r#"{"toolsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["test://a"]}"#,
        )
        .await;
        // A second stream, with a string id, asking for the tools only.
        let mut tools_only = open(
            &mut connection,
            r#""t""#,
            r#"{"toolsListChanged":true,"resourcesListChanged":false}"#,
            r#"{"toolsListChanged":true}"#,
        )
        .await;

        assert_eq!(notifier.tools_changed(), 2);
        assert_eq!(
            text(frames.try_recv().unwrap()),
            on_stream("notifications/tools/list_changed", "7", "")
        );
        assert_eq!(
            text(tools_only.try_recv().unwrap()),
            on_stream("notifications/tools/list_changed", r#""t""#, "")
        );
        assert_eq!(notifier.resources_changed(), 1);
        assert_eq!(
            text(frames.try_recv().unwrap()),
            on_stream("notifications/resources/list_changed", "7", "")
        );
        assert_eq!(notifier.prompts_changed(), 0);
        assert_eq!(notifier.resource_updated("test://a"), 1);
        assert_eq!(
            text(frames.try_recv().unwrap()),
            on_stream(
                "notifications/resources/updated",
                "7",
                r#","uri":"test://a""#
            )
        );
        assert_eq!(notifier.resource_updated("test://b"), 0);
        assert_eq!(frames.try_recv(), Err(TryRecvError::Empty));
        assert_eq!(tools_only.try_recv(), Err(TryRecvError::Empty));
        assert_eq!(notifier.streams(), 2);

        // The client cancels the first stream: it is never answered, and its outbox is
        // dropped, so its receiver ends.
        let (outbox, mut none) = Outbox::channel();
        connection.handle(
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#,
            outbox,
        );
        assert!(none.recv().await.is_none());
        assert!(frames.recv().await.is_none());
        assert_eq!(notifier.streams(), 1);
        assert_eq!(notifier.tools_changed(), 1);

        // A stream whose receiver went away is dropped.
        drop(tools_only);
        assert_eq!(notifier.tools_changed(), 0);
        assert_eq!(notifier.streams(), 0);
    });
}

#[test]
fn a_stream_ends_with_its_connection_or_gracefully() {
    rt().block_on(async {
        let mut server = server();
        let notifier = server.notifier();
        let server = Arc::new(server);
        let mut connection = Connection::new(server.clone());
        let mut frames = open(
            &mut connection,
            "1",
            r#"{"toolsListChanged":true}"#,
            r#"{"toolsListChanged":true}"#,
        )
        .await;
        drop(connection);
        assert!(frames.recv().await.is_none());
        assert_eq!(notifier.streams(), 0);

        // The server ends the streams: each answered with the closing result.
        let mut connection = Connection::new(server.clone());
        let mut frames = open(&mut connection, "2", "{}", "{}").await;
        assert_eq!(notifier.close_streams(), 1);
        assert_eq!(
            text(frames.recv().await.unwrap()),
            r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":2}}}"#
        );
        assert!(frames.recv().await.is_none());
        assert_eq!(notifier.tools_changed(), 0);
    });
}

#[test]
fn nothing_agreed_without_notifications() {
    rt().block_on(async {
        // No notifier, no subscriptions: acknowledged, nothing agreed.
        let server = Arc::new(Server::new("plain", "1").resource(
            "test://a",
            "a",
            ResourceOptions::new(),
            |r| Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "A")),
        ));
        let mut connection = Connection::new(server);
        let mut frames = open(
            &mut connection,
            "3",
            r#"{"toolsListChanged":true,"resourceSubscriptions":["test://a"]}"#,
            "{}",
        )
        .await;
        assert_eq!(frames.try_recv(), Err(TryRecvError::Empty));
    });
}

#[test]
fn without_a_connection_and_in_the_handshake_era() {
    let mut server = server();
    let _notifier = server.notifier();
    // Through `handle_line`, which cannot send later: acknowledged with nothing agreed, never
    // answered.
    let mut out = Vec::new();
    server.handle_line(
        listen("4", r#"{"toolsListChanged":true}"#).as_bytes(),
        &mut out,
    );
    assert_eq!(text(out), acknowledged("4", "{}") + "\n");

    // `notifications` is required.
    let mut out = Vec::new();
    server.handle_line(
        format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{{{META}}}}}"#
        )
        .as_bytes(),
        &mut out,
    );
    let answer = text(out);
    assert!(answer.contains(r#""code":-32602"#), "{answer}");
    assert!(answer.contains("notifications"), "{answer}");

    // The handshake era has no such method.
    let rt = rt();
    rt.block_on(async {
        let mut connection = Connection::new(Arc::new(server));
        let (outbox, mut frames) = Outbox::channel();
        connection.handle(
            br#"{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{}}}"#,
            outbox,
        );
        let answer = text(frames.recv().await.unwrap());
        assert!(answer.contains(r#""code":-32601"#), "{answer}");
    });
}

#[test]
fn stdio_streams_end_with_the_input() {
    rt().block_on(async {
        let mut server = server();
        let notifier = server.notifier();
        let server = Arc::new(server);
        let (mut input, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_out) = tokio::io::duplex(1 << 16);
        let client = async {
            let mut lines = BufReader::new(client_out).lines();
            input
                .write_all(format!("{}\n", listen("9", r#"{"toolsListChanged":true}"#)).as_bytes())
                .await
                .unwrap();
            assert_eq!(
                next_line(&mut lines).await,
                acknowledged("9", r#"{"toolsListChanged":true}"#)
            );
            assert_eq!(notifier.tools_changed(), 1);
            assert_eq!(
                next_line(&mut lines).await,
                on_stream("notifications/tools/list_changed", "9", "")
            );
            // The input ends: the stream ends with it, and the transport returns.
            drop(input);
            lines
        };
        let serving = server.clone().serve_async(server_in, server_out);
        let (served, _lines) = tokio::time::timeout(WAIT, async { tokio::join!(serving, client) })
            .await
            .expect("the transport ends with its input");
        served.unwrap();
        assert_eq!(notifier.streams(), 0);
    });
}

/// A server with a notifier on a loopback port (`options`), and a `subscriptions/listen`
/// stream asking for the tools' changes, POSTed on a new connection, its answer left to read.
#[cfg(feature = "http")]
fn http_listen(
    options: structio_rpc::mcp::HttpOptions,
) -> (
    super::http::Running,
    structio_rpc::mcp::Notifier,
    std::net::TcpStream,
) {
    use super::http::{request, start_with, ACCEPT_BOTH, JSON};

    let mut server = server();
    let notifier = server.notifier();
    let running = start_with(server, options);
    let stream = request(
        running.addr,
        "POST",
        &[ACCEPT_BOTH, JSON],
        &listen("1", r#"{"toolsListChanged":true}"#),
    );
    (running, notifier, stream)
}

/// Reads `stream` into `seen` until it holds `needle`; all of it, as text.
#[cfg(feature = "http")]
fn read_until(stream: &mut std::net::TcpStream, seen: &mut Vec<u8>, needle: &str) -> String {
    use std::io::Read;

    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(seen).contains(needle) {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "the stream ended: {}", String::from_utf8_lossy(seen));
        seen.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(seen).into_owned()
}

/// Over Streamable HTTP a stream is its POST's response (an SSE stream): acknowledged, then
/// carrying the notifications; when the server stops, the stream is answered with the closing
/// result and ends, so the shutdown does not wait out its grace for it.
#[cfg(feature = "http")]
#[test]
fn http_stream_is_the_post_response_and_ends_gracefully() {
    use std::io::Read;
    use structio_rpc::mcp::HttpOptions;

    let (running, notifier, mut stream) =
        http_listen(HttpOptions::new().shutdown_grace(Duration::from_secs(30)));
    let mut seen = Vec::new();
    let ack = acknowledged("1", r#"{"toolsListChanged":true}"#);
    let got = read_until(&mut stream, &mut seen, &ack);
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    assert!(
        got.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{got}"
    );
    assert_eq!(notifier.tools_changed(), 1);
    let changed = on_stream("notifications/tools/list_changed", "1", "");
    read_until(&mut stream, &mut seen, &changed);

    let stopping = std::time::Instant::now();
    drop(running);
    assert!(
        stopping.elapsed() < Duration::from_secs(10),
        "the shutdown waited {:?}",
        stopping.elapsed()
    );
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).unwrap();
    let rest = String::from_utf8_lossy(&rest);
    assert!(
        rest.contains(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#),
        "{rest}"
    );
}

/// A `subscriptions/listen` stream over HTTP (a POST's SSE response) silent for the
/// keep-alive interval gets a comment line, so that proxies keep it open.
#[cfg(feature = "http")]
#[test]
fn http_stream_keep_alive() {
    use structio_rpc::mcp::HttpOptions;

    let (_running, _notifier, mut stream) =
        http_listen(HttpOptions::new().keep_alive(Duration::from_millis(50)));
    let seen = read_until(&mut stream, &mut Vec::new(), ": keep-alive\n\n");
    let ack = seen
        .find("subscriptions/acknowledged")
        .expect("the acknowledgement");
    assert!(ack < seen.find(": keep-alive").unwrap(), "{seen}");
}
