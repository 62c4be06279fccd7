//! Tools added and removed while the server serves (`Server::live_tools`, feature `async`):
//! the lists and calls of both eras after each change, the announcements (the handshake
//! era's session outbox, revision 2026-07-28's `subscriptions/listen` streams), refused
//! names, a call in flight keeping its tool, a tool adding a tool, and concurrent adds.

use std::sync::Arc;
use std::time::Duration;

use structio_rpc::mcp::{
    BuildErrorKind, Connection, Context, LiveTools, Outbox, Server, ToolError,
};
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::mpsc::UnboundedReceiver;

use super::subscriptions::ask;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

const TOOLS_CHANGED: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

#[derive(structio::Reflect)]
struct Text {
    text: String,
}

#[derive(structio::Reflect)]
struct Pair {
    left: i64,
    right: i64,
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn call(id: u32, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
}

/// The names of the tools a `tools/list` answer lists (not the server's, in `_meta`).
fn names_listed(answer: &str) -> Vec<String> {
    let tools = &answer[..answer.find(r#""_meta""#).unwrap_or(answer.len())];
    tools
        .split(r#"{"name":""#)
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
        .collect()
}

fn text(frame: Vec<u8>) -> String {
    String::from_utf8(frame).unwrap()
}

/// A server with `add`, and its live tools.
fn server() -> (Server, LiveTools) {
    let mut server = Server::new("live", "1").tool("add", "Adds", |p: Pair| {
        Ok::<_, ToolError>(p.left.wrapping_add(p.right))
    });
    let tools = server.live_tools();
    (server, tools)
}

/// An initialized handshake connection with a session outbox; the outbox's receiver.
async fn handshake(server: &Arc<Server>) -> (Connection, UnboundedReceiver<Vec<u8>>) {
    let mut connection = Connection::new(server.clone());
    let (session, notes) = Outbox::channel();
    connection.set_session_outbox(Some(session));
    let answer = ask(&mut connection, INITIALIZE).await;
    assert!(
        answer.contains(r#""tools":{"listChanged":true}"#),
        "{answer}"
    );
    (connection, notes)
}

#[test]
fn changes_are_served_and_announced_in_both_eras() {
    rt().block_on(async {
        let (server, tools) = server();
        let server = Arc::new(server);
        let (mut old, mut notes) = handshake(&server).await;
        let mut modern = Connection::new(server.clone());
        let (outbox, mut stream) = Outbox::channel();
        modern.handle(
            format!(
                r#"{{"jsonrpc":"2.0","id":"s","method":"subscriptions/listen","params":{{{META},"notifications":{{"toolsListChanged":true}}}}}}"#
            )
            .as_bytes(),
            outbox,
        );
        assert!(text(stream.recv().await.unwrap()).contains(r#""notifications":{"toolsListChanged":true}"#));

        let list = ask(&mut old, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).await;
        assert_eq!(names_listed(&list), ["add"]);

        tools
            .add("echo", "Says it back", |t: Text| Ok::<_, ToolError>(t.text))
            .unwrap();
        assert_eq!(text(notes.try_recv().unwrap()), TOOLS_CHANGED);
        assert_eq!(
            text(stream.try_recv().unwrap()),
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}}"#
        );
        assert_eq!(tools.names(), ["add", "echo"]);
        assert_eq!(server.tool_names().collect::<Vec<_>>(), ["add", "echo"]);

        // Both eras list it, with its schema, and call it.
        let list = ask(&mut old, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#).await;
        assert_eq!(names_listed(&list), ["add", "echo"]);
        assert!(list.contains(r#""required":["text"]"#), "{list}");
        let answer = ask(&mut old, &call(3, "echo", r#"{"text":"hi"}"#)).await;
        assert!(answer.contains(r#""content":[{"type":"text","text":"hi"}]"#), "{answer}");
        let list = ask(
            &mut modern,
            &format!(r#"{{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{{{META}}}}}"#),
        )
        .await;
        assert_eq!(names_listed(&list), ["add", "echo"]);
        assert!(list.contains(r#""resultType":"complete""#), "{list}");
        assert!(list.ends_with(r#""io.modelcontextprotocol/serverInfo":{"name":"live","version":"1"}}}}"#), "{list}");

        // Removed: no longer listed or called; the fixed tool too can be removed.
        assert!(tools.remove("echo"));
        assert!(!tools.remove("echo"));
        assert_eq!(text(notes.try_recv().unwrap()), TOOLS_CHANGED);
        assert_eq!(notes.try_recv(), Err(TryRecvError::Empty));
        let answer = ask(&mut old, &call(5, "echo", r#"{"text":"hi"}"#)).await;
        assert!(answer.contains("Unknown tool: echo"), "{answer}");
        assert!(tools.remove("add"));
        let list = ask(&mut old, r#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#).await;
        assert_eq!(list, r#"{"jsonrpc":"2.0","id":6,"result":{"tools":[]}}"#);
    });
}

#[test]
fn refused_names_change_nothing() {
    let (mut server, tools) = server();
    let err = tools
        .add("add", "Again", |p: Pair| Ok::<_, ToolError>(p.left))
        .unwrap_err();
    assert_eq!(err.kind(), BuildErrorKind::DuplicateToolName);
    let err = tools
        .add("no spaces", "Bad", |p: Pair| Ok::<_, ToolError>(p.left))
        .unwrap_err();
    assert_eq!(err.kind(), BuildErrorKind::InvalidToolName);
    assert_eq!(tools.names(), ["add"]);
    // The builder after the handle was taken adds to the same list, and refuses a taken name.
    server = server
        .tool("echo", "Says it back", |t: Text| Ok::<_, ToolError>(t.text))
        .tool("add", "Again", |p: Pair| Ok::<_, ToolError>(p.left));
    assert_eq!(tools.names(), ["add", "echo"]);
    assert_eq!(
        server.check().unwrap_err().kind(),
        BuildErrorKind::DuplicateToolName
    );
    // A paged list reads the live tools too.
    let mut server = server.page_size(1);
    let mut out = Vec::new();
    server.handle_line(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        &mut out,
    );
    let answer = String::from_utf8(out).unwrap();
    assert_eq!(names_listed(&answer), ["add"]);
    assert!(answer.contains("nextCursor"), "{answer}");
}

#[test]
fn a_call_in_flight_keeps_its_tool() {
    rt().block_on(async {
        let (mut server, _) = server();
        let tools = server.live_tools();
        tools
            .add("wait", "Waits", |_ctx: Context, t: Text| async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok::<_, ToolError>(t.text)
            })
            .unwrap();
        let mut connection = Connection::new(Arc::new(server));
        let (outbox, mut frames) = Outbox::channel();
        connection.handle(call(1, "wait", r#"{"text":"done"}"#).as_bytes(), outbox);
        assert!(tools.remove("wait"));
        let answer = text(frames.recv().await.unwrap());
        assert!(answer.contains(r#""text":"done""#), "{answer}");
    });
}

#[test]
fn a_tool_adds_a_tool() {
    rt().block_on(async {
        let (mut server, _) = server();
        let tools = server.live_tools();
        let handle = tools.clone();
        tools
            .add("unlock", "Adds `secret`", move |_: Text| {
                let added = handle
                    .add("secret", "The secret", |_: Text| Ok::<_, ToolError>("42"))
                    .is_ok();
                Ok::<_, ToolError>(added)
            })
            .unwrap();
        let server = Arc::new(server);
        let (mut connection, mut notes) = handshake(&server).await;
        // Announced twice: `unlock` was added before the connection; `secret` now.
        let answer = ask(&mut connection, &call(1, "unlock", r#"{"text":""}"#)).await;
        assert!(
            answer.contains(r#""structuredContent":{"result":true}"#),
            "{answer}"
        );
        assert_eq!(text(notes.try_recv().unwrap()), TOOLS_CHANGED);
        let answer = ask(&mut connection, &call(2, "secret", r#"{"text":""}"#)).await;
        assert!(answer.contains(r#""text":"42""#), "{answer}");
        // Twice: the name is taken.
        let answer = ask(&mut connection, &call(3, "unlock", r#"{"text":""}"#)).await;
        assert!(
            answer.contains(r#""structuredContent":{"result":false}"#),
            "{answer}"
        );
    });
}

#[test]
fn concurrent_adds_of_one_name_one_wins() {
    let (_server, tools) = server();
    for round in 0..20 {
        let name = format!("t{round}");
        let wins: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    let tools = tools.clone();
                    let name = name.clone();
                    s.spawn(move || {
                        tools
                            .add(&name, "", |t: Text| Ok::<_, ToolError>(t.text))
                            .is_ok() as usize
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        assert_eq!(wins, 1, "{name}");
    }
    assert_eq!(tools.names().len(), 21);
}
