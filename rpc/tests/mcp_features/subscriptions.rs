//! Resource subscriptions and the notifications not tied to a request (feature `async`):
//! `resources/subscribe` and `resources/unsubscribe` and their answers, the capabilities only
//! when enabled, `Notifier::resource_updated` reaching the subscribed connections only, the
//! `list_changed` notifications, and stdio's session outbox. Each notification is sent
//! synchronously into its outbox, so what did not come is checked with `try_recv`, without
//! waiting.

use std::sync::Arc;
use std::time::Duration;

use structio_rpc::mcp::{
    Connection, Notifier, Outbox, ResourceContents, ResourceError, ResourceOptions, Server,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::mpsc::UnboundedReceiver;

const WAIT: Duration = Duration::from_secs(10);

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

const UPDATED_A: &str =
    r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://a"}}"#;

fn server() -> Server {
    Server::new("subs", "1")
        .resource("test://a", "a", ResourceOptions::new(), |r| {
            Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "A"))
        })
        .resource("test://b", "b", ResourceOptions::new(), |r| {
            Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "B"))
        })
        .resource_template("test://items/{id}", "item", ResourceOptions::new(), |r| {
            Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "item"))
        })
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The answer to `message` on `connection`, as text.
pub(crate) async fn ask(connection: &mut Connection, message: &str) -> String {
    let (outbox, mut frames) = Outbox::channel();
    connection.handle(message.as_bytes(), outbox);
    let frame = tokio::time::timeout(WAIT, frames.recv())
        .await
        .expect("an answer in time")
        .expect("an answer");
    String::from_utf8(frame).unwrap()
}

fn subscribe(id: u32, uri: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/subscribe","params":{{"uri":"{uri}"}}}}"#
    )
}

fn unsubscribe(id: u32, uri: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/unsubscribe","params":{{"uri":"{uri}"}}}}"#
    )
}

/// A connection to `server`, initialized, with a session outbox; the outbox's receiver.
async fn connect(server: &Arc<Server>) -> (Connection, UnboundedReceiver<Vec<u8>>) {
    let mut connection = Connection::new(server.clone());
    let (session, notes) = Outbox::channel();
    connection.set_session_outbox(Some(session));
    assert!(connection.has_session_outbox());
    let answer = ask(&mut connection, INITIALIZE).await;
    assert!(answer.contains(r#""result""#), "{answer}");
    (connection, notes)
}

fn text(frame: Vec<u8>) -> String {
    String::from_utf8(frame).unwrap()
}

#[test]
fn capabilities_only_when_enabled() {
    rt().block_on(async {
        // Off by default: the capability as before, the methods not found.
        let mut plain = Connection::new(Arc::new(server()));
        let answer = ask(&mut plain, INITIALIZE).await;
        assert!(
            answer.contains(
                r#""resources":{"listChanged":false},"tools":{"listChanged":false}}"#
            ),
            "{answer}"
        );
        assert!(!answer.contains("subscribe"), "{answer}");
        let answer = ask(&mut plain, &subscribe(1, "test://a")).await;
        assert!(answer.contains(r#""code":-32601"#), "{answer}");

        // Subscriptions on: `subscribe: true`, no list changes yet.
        let mut on = Connection::new(Arc::new(server().subscriptions(true)));
        let answer = ask(&mut on, INITIALIZE).await;
        assert!(
            answer.contains(
                r#""resources":{"subscribe":true,"listChanged":false},"tools":{"listChanged":false}}"#
            ),
            "{answer}"
        );

        // A notifier taken: `listChanged: true`.
        let mut server = server().subscriptions(true);
        let _notifier: Notifier = server.notifier();
        let mut both = Connection::new(Arc::new(server));
        let answer = ask(&mut both, INITIALIZE).await;
        assert!(
            answer.contains(
                r#""resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true}}"#
            ),
            "{answer}"
        );

        // Revision 2026-07-28: the same capabilities (what a `subscriptions/listen` stream may
        // ask for), and no `resources/subscribe`, which that stream replaces.
        let mut modern = Connection::new(both.server().clone());
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        let answer = ask(
            &mut modern,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#),
        )
        .await;
        assert!(
            answer.contains(
                r#""resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true}}"#
            ),
            "{answer}"
        );
        let answer = ask(
            &mut modern,
            &format!(r#"{{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{{"uri":"test://a",{meta}}}}}"#),
        )
        .await;
        assert!(answer.contains(r#""code":-32601"#), "{answer}");
    });
}

#[test]
fn subscribe_and_unsubscribe_answers() {
    rt().block_on(async {
        let server = Arc::new(server().subscriptions(true));
        let (mut c, _notes) = connect(&server).await;
        assert_eq!(
            ask(&mut c, &subscribe(1, "test://a")).await,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        // A URI a template matches.
        assert_eq!(
            ask(&mut c, &subscribe(2, "test://items/7")).await,
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
        );
        // No such resource: the specification's "Resource not found".
        assert_eq!(
            ask(&mut c, &subscribe(3, "test://nothing")).await,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"test://nothing"}}}"#
        );
        // Missing uri: invalid params.
        let answer = ask(
            &mut c,
            r#"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{}}"#,
        )
        .await;
        assert!(answer.contains(r#""code":-32602"#), "{answer}");
        assert_eq!(
            ask(&mut c, &unsubscribe(5, "test://a")).await,
            r#"{"jsonrpc":"2.0","id":5,"result":{}}"#
        );
        // Not subscribed (or unknown): nothing to undo.
        assert_eq!(
            ask(&mut c, &unsubscribe(6, "test://nothing")).await,
            r#"{"jsonrpc":"2.0","id":6,"result":{}}"#
        );
    });
    // Through `handle_line` (no connection): answered, nothing recorded.
    let mut server = server().subscriptions(true);
    let mut out = Vec::new();
    server.handle_line(INITIALIZE.as_bytes(), &mut out);
    out.clear();
    server.handle_line(subscribe(1, "test://a").as_bytes(), &mut out);
    assert_eq!(out, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
}

#[test]
fn updates_reach_subscribers_only() {
    rt().block_on(async {
        let mut server = server().subscriptions(true);
        let notifier = server.notifier();
        let server = Arc::new(server);
        let (mut a, mut a_notes) = connect(&server).await;
        let (mut b, mut b_notes) = connect(&server).await;
        ask(&mut a, &subscribe(1, "test://a")).await;
        ask(&mut b, &subscribe(1, "test://b")).await;

        assert_eq!(notifier.resource_updated("test://a"), 1);
        assert_eq!(text(a_notes.try_recv().unwrap()), UPDATED_A);
        assert_eq!(b_notes.try_recv(), Err(TryRecvError::Empty));

        // A template's URI, subscribed to as it is.
        ask(&mut b, &subscribe(2, "test://items/7")).await;
        assert_eq!(notifier.resource_updated("test://items/7"), 1);
        assert!(text(b_notes.try_recv().unwrap()).contains(r#""uri":"test://items/7""#));
        assert_eq!(notifier.resource_updated("test://items/8"), 0);

        // Unsubscribed: nothing more.
        ask(&mut a, &unsubscribe(2, "test://a")).await;
        assert_eq!(notifier.resource_updated("test://a"), 0);
        assert_eq!(a_notes.try_recv(), Err(TryRecvError::Empty));

        // A subscription belongs to its connection: gone with it.
        assert_eq!(notifier.resource_updated("test://b"), 1);
        drop(b);
        assert_eq!(notifier.resource_updated("test://b"), 0);
        assert!(text(b_notes.try_recv().unwrap()).contains(r#""uri":"test://b""#));
        assert_eq!(b_notes.try_recv(), Err(TryRecvError::Disconnected));
    });
}

#[test]
fn list_changed() {
    rt().block_on(async {
        let mut server = server().subscriptions(true);
        let notifier = server.notifier();
        let server = Arc::new(server);
        let (_a, mut a_notes) = connect(&server).await;
        let (_b, mut b_notes) = connect(&server).await;
        // Not initialized yet: told nothing.
        let mut fresh = Connection::new(server.clone());
        let (session, mut fresh_notes) = Outbox::channel();
        fresh.set_session_outbox(Some(session));
        // Initialized, but no session outbox: nowhere to tell it.
        let mut silent = Connection::new(server.clone());
        ask(&mut silent, INITIALIZE).await;
        assert!(!silent.has_session_outbox());

        assert_eq!(notifier.tools_changed(), 2);
        assert_eq!(notifier.resources_changed(), 2);
        assert_eq!(notifier.prompts_changed(), 2);
        for notes in [&mut a_notes, &mut b_notes] {
            for what in ["tools", "resources", "prompts"] {
                assert_eq!(
                    text(notes.try_recv().unwrap()),
                    format!(r#"{{"jsonrpc":"2.0","method":"notifications/{what}/list_changed"}}"#)
                );
            }
            assert_eq!(notes.try_recv(), Err(TryRecvError::Empty));
        }
        assert_eq!(fresh_notes.try_recv(), Err(TryRecvError::Empty));

        // A session outbox whose receiver went away is skipped.
        drop(b_notes);
        assert_eq!(notifier.tools_changed(), 1);
    });
}

/// The next line of `lines`; fails the test after [`WAIT`].
pub(crate) async fn next_line<R: tokio::io::AsyncBufRead + Unpin>(
    lines: &mut tokio::io::Lines<R>,
) -> String {
    tokio::time::timeout(WAIT, lines.next_line())
        .await
        .expect("a line in time")
        .unwrap()
        .expect("a line")
}

#[test]
fn stdio_carries_notifications() {
    rt().block_on(async {
        let mut server = server().subscriptions(true);
        let notifier = server.notifier();
        let server = Arc::new(server);
        let (mut input, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_out) = tokio::io::duplex(1 << 16);
        let client = async {
            let mut lines = BufReader::new(client_out).lines();
            input
                .write_all(format!("{INITIALIZE}\n{}\n", subscribe(1, "test://a")).as_bytes())
                .await
                .unwrap();
            assert!(next_line(&mut lines).await.contains(r#""id":0"#));
            assert_eq!(
                next_line(&mut lines).await,
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
            );
            assert_eq!(notifier.resource_updated("test://a"), 1);
            assert_eq!(notifier.resource_updated("test://b"), 0);
            assert_eq!(next_line(&mut lines).await, UPDATED_A);
            // The input ends: the transport returns (the session outbox does not keep it
            // open).
            drop(input);
            lines
        };
        let serving = server.serve_async(server_in, server_out);
        let (served, _lines) = tokio::time::timeout(WAIT, async { tokio::join!(serving, client) })
            .await
            .expect("the transport ends with its input");
        served.unwrap();
        assert_eq!(notifier.tools_changed(), 0);
    });
}
