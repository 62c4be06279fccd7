//! Asynchronous and concurrent tools (feature `async`): through a `Connection`, calls run on
//! tasks of their own while other requests are answered; `max_in_flight` bounds them (a call
//! past the bound waits, then runs); `notifications/cancelled` stops a call (never answered,
//! its progress stops); `call_timeout` answers a call that runs too long with an error
//! result; a panic is `-32603`; progress goes out only for a request with a `progressToken`;
//! log messages pass the level set by `logging/setLevel`. Bounds are generous (seconds) and
//! only bound waits that succeed at once when the code is right.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use structio_rpc::mcp::{Connection, Context, LogLevel, Outbox, Server, ToolError};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::{Notify, Semaphore};

use crate::common::{Add, Sum};

/// How long a frame that should come may take.
pub(crate) const WAIT: Duration = Duration::from_secs(10);

/// The arguments of the test tools that take none.
#[derive(structio::Reflect)]
struct Nothing {}

/// The next frame, as text; fails the test after [`WAIT`].
pub(crate) async fn next(frames: &mut UnboundedReceiver<Vec<u8>>) -> String {
    let frame = tokio::time::timeout(WAIT, frames.recv())
        .await
        .expect("a frame in time")
        .expect("a frame, not the end");
    String::from_utf8(frame).unwrap()
}

/// Whether the receiver ends (every clone of its outbox dropped) within [`WAIT`] with no
/// further frame; the frames that came instead.
pub(crate) async fn ends(frames: &mut UnboundedReceiver<Vec<u8>>) -> Vec<String> {
    let mut got = Vec::new();
    loop {
        match tokio::time::timeout(WAIT, frames.recv()).await {
            Ok(Some(f)) => got.push(String::from_utf8(f).unwrap()),
            Ok(None) => return got,
            Err(_) => panic!("the outbox was not dropped; frames: {got:?}"),
        }
    }
}

/// A `tools/call` of `name` with id `id`, `extra` added to its params.
fn call(id: u32, name: &str, extra: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{}}{extra}}}}}"#)
        .into_bytes()
}

fn ping(id: u32) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#).into_bytes()
}

fn cancel(id: u32) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"test"}}}}"#)
        .into_bytes()
}

#[tokio::test]
async fn a_ping_is_answered_while_a_tool_waits() {
    let gate = Arc::new(Notify::new());
    let g = gate.clone();
    let server = Server::new("t", "1").tool("wait", "Waits", move |_: Nothing| {
        let g = g.clone();
        async move {
            g.notified().await;
            Ok::<_, ToolError>("released")
        }
    });
    let mut c = Connection::new(Arc::new(server));
    let (call_out, mut call_frames) = Outbox::channel();
    c.handle(&call(1, "wait", ""), call_out);
    let (ping_out, mut ping_frames) = Outbox::channel();
    c.handle(&ping(2), ping_out);
    assert_eq!(
        next(&mut ping_frames).await,
        r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
    );
    assert!(ends(&mut ping_frames).await.is_empty());
    // The call has not answered: it waits.
    assert!(call_frames.try_recv().is_err());
    assert_eq!(c.calls_in_flight(), 1);
    gate.notify_one();
    let answer = next(&mut call_frames).await;
    assert!(
        answer.starts_with(
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"released"}]"#
        ),
        "{answer}"
    );
    assert!(ends(&mut call_frames).await.is_empty());
    assert_eq!(c.calls_in_flight(), 0);
}

#[tokio::test]
async fn a_call_past_max_in_flight_waits_then_runs() {
    let started = Arc::new(AtomicUsize::new(0));
    let gate = Arc::new(Semaphore::new(0));
    let (s, g) = (started.clone(), gate.clone());
    let server = Server::new("t", "1")
        .max_in_flight(2)
        .tool("hold", "Holds", move |_: Nothing| {
            let (s, g) = (s.clone(), g.clone());
            async move {
                s.fetch_add(1, Ordering::SeqCst);
                g.acquire().await.unwrap().forget();
                Ok::<_, ToolError>(1)
            }
        });
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    for id in 1..=3 {
        c.handle(&call(id, "hold", ""), out.clone());
    }
    drop(out);
    let until = |n: usize| {
        let started = started.clone();
        async move {
            tokio::time::timeout(WAIT, async {
                while started.load(Ordering::SeqCst) < n {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            })
            .await
            .expect("the calls started in time");
        }
    };
    until(2).await;
    // The third call waits for a place: it has not started, nor been dropped.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(started.load(Ordering::SeqCst), 2);
    assert_eq!(c.calls_in_flight(), 3);
    gate.add_permits(1);
    until(3).await;
    gate.add_permits(2);
    let mut ids: Vec<String> = Vec::new();
    for _ in 0..3 {
        let f = next(&mut frames).await;
        assert!(f.contains(r#""isError":false"#), "{f}");
        ids.push(f[..f.find(",\"result\"").unwrap()].to_owned());
    }
    ids.sort();
    assert_eq!(ids.len(), 3);
    assert!(ends(&mut frames).await.is_empty());
}

#[tokio::test]
async fn a_cancelled_call_is_never_answered_and_its_progress_stops() {
    let server = Server::new("t", "1").tool(
        "forever",
        "Runs until cancelled",
        |ctx: Context, _: Nothing| async move {
            let mut step = 0u32;
            while !ctx.is_cancelled() {
                step += 1;
                ctx.progress(step, None, Some("working"));
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            // Reported after the cancellation: never sent.
            ctx.progress(step + 1, None, None);
            Ok::<_, ToolError>("stopped")
        },
    );
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    c.handle(
        &call(7, "forever", r#","_meta":{"progressToken":"p7"}"#),
        out,
    );
    for _ in 0..3 {
        let f = next(&mut frames).await;
        assert!(f.starts_with(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p7","progress":"#), "{f}");
        assert!(f.ends_with(r#","message":"working"}}"#), "{f}");
    }
    let (none, mut nothing) = Outbox::channel();
    c.handle(&cancel(7), none);
    assert!(ends(&mut nothing).await.is_empty());
    // What was sent before the cancellation was handled may still be read; then nothing more.
    while frames.try_recv().is_ok() {}
    let after = ends(&mut frames).await;
    assert!(after.is_empty(), "after the cancellation: {after:?}");
    assert_eq!(c.calls_in_flight(), 0);
}

#[tokio::test]
async fn a_sync_tool_taking_a_context_sees_the_cancellation() {
    let server = Server::new("t", "1").tool(
        "spin",
        "Spins until cancelled",
        |ctx: Context, _: Nothing| {
            let start = std::time::Instant::now();
            while !ctx.is_cancelled() {
                assert!(start.elapsed() < WAIT, "never cancelled");
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok::<_, ToolError>("stopped")
        },
    );
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(3, "spin", ""), out);
    tokio::time::sleep(Duration::from_millis(50)).await;
    c.handle(&cancel(3), Outbox::channel().0);
    assert!(ends(&mut frames).await.is_empty());
}

#[tokio::test]
async fn a_call_past_its_deadline_is_an_error_result() {
    let server = Server::new("t", "1")
        .call_timeout(Duration::from_millis(50))
        .tool("sleep", "Sleeps", |_: Nothing| async {
            tokio::time::sleep(Duration::from_secs(60)).await;
            Ok::<_, ToolError>("woke")
        })
        .tool_with_schema("quick", "Quick", "{}", None, |ctx: Context, _: Nothing| {
            Ok::<_, ToolError>(ctx.request_id().to_string())
        });
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    let start = std::time::Instant::now();
    c.handle(&call(1, "sleep", ""), out.clone());
    c.handle(&call(2, "quick", ""), out);
    let mut got = [next(&mut frames).await, next(&mut frames).await];
    got.sort();
    assert_eq!(
        got[0],
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"tool `sleep` did not finish within 50 ms"}],"isError":true}}"#
    );
    assert_eq!(
        got[1],
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"2"}],"isError":false}}"#
    );
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(ends(&mut frames).await.is_empty());
}

#[tokio::test]
async fn a_panicking_tool_is_an_internal_error_and_the_server_goes_on() {
    let server = Server::new("t", "1")
        .tool("boom", "Panics", |_: Nothing| async {
            if true {
                panic!("boom");
            }
            Ok::<_, ToolError>(0)
        })
        .tool(
            "sync_boom",
            "Panics",
            |_: Nothing| -> Result<i32, ToolError> { panic!("boom") },
        )
        .tool(
            "context_boom",
            "Panics on a blocking thread",
            |_: Context, _: Nothing| -> Result<i32, ToolError> { panic!("boom") },
        )
        .tool("add", "Adds", |a: Add| {
            Ok::<_, ToolError>(Sum {
                result: a.left + a.right,
            })
        });
    let mut c = Connection::new(Arc::new(server));
    for (id, name) in [(1, "boom"), (2, "sync_boom"), (4, "context_boom")] {
        let (out, mut frames) = Outbox::channel();
        c.handle(&call(id, name, ""), out);
        assert_eq!(
            next(&mut frames).await,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"Internal error: tool `{name}` panicked"}}}}"#
            )
        );
        assert!(ends(&mut frames).await.is_empty());
    }
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":3}}}"#, out);
    assert!(next(&mut frames)
        .await
        .contains(r#""structuredContent":{"result":5}"#));
}

/// A tool reporting three steps of progress.
fn stepper() -> Server {
    Server::new("t", "1").tool(
        "steps",
        "Three steps",
        |ctx: Context, _: Nothing| async move {
            for step in 1..=3u32 {
                ctx.progress(step, Some(3.0), None);
            }
            Ok::<_, ToolError>(Sum { result: 3 })
        },
    )
}

#[tokio::test]
async fn progress_goes_out_only_for_a_request_with_a_token() {
    let mut c = Connection::new(Arc::new(stepper()));
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "steps", ""), out);
    let got = ends(&mut frames).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with(r#"{"jsonrpc":"2.0","id":1,"result""#));

    let (out, mut frames) = Outbox::channel();
    c.handle(&call(2, "steps", r#","_meta":{"progressToken":42}"#), out);
    let got = ends(&mut frames).await;
    assert_eq!(
        got[..3],
        [1, 2, 3].map(|n| format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":42,"progress":{n},"total":3}}}}"#))
    );
    assert!(
        got[3].starts_with(r#"{"jsonrpc":"2.0","id":2,"result""#),
        "{got:?}"
    );
    assert_eq!(got.len(), 4);
}

#[tokio::test]
async fn log_messages_pass_the_level_the_client_set() {
    let server = Server::new("t", "1").tool("chatty", "Logs", |ctx: Context, _: Nothing| {
        ctx.log(LogLevel::Debug, "a debug message");
        ctx.log(LogLevel::Info, "an info message");
        ctx.log(LogLevel::Error, "an error message");
        Ok::<_, ToolError>(0)
    });
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#, out);
    assert!(next(&mut frames)
        .await
        .contains(r#""capabilities":{"logging":{},"tools""#));

    // No level set: every message.
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "chatty", ""), out);
    let got = ends(&mut frames).await;
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(
        got[0],
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","data":"a debug message"}}"#
    );

    let (out, mut frames) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}"#,
        out,
    );
    assert_eq!(
        next(&mut frames).await,
        r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
    );
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(3, "chatty", ""), out);
    let got = ends(&mut frames).await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        got[0],
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"an error message"}}"#
    );

    let (out, mut frames) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"loud"}}"#,
        out,
    );
    assert!(next(&mut frames)
        .await
        .contains(r#""error":{"code":-32602"#));
}

#[test]
fn handle_line_runs_async_tools_and_context_tools() {
    let mut server = stepper().tool("nap", "Naps", |_: Nothing| async {
        tokio::time::sleep(Duration::from_millis(1)).await;
        Ok::<_, ToolError>("rested")
    });
    let mut out = Vec::new();
    server.handle_line(
        &call(1, "steps", r#","_meta":{"progressToken":1}"#),
        &mut out,
    );
    assert_eq!(
        String::from_utf8(std::mem::take(&mut out)).unwrap(),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"result\\\":3}\"}],\"structuredContent\":{\"result\":3},\"isError\":false}}\n"
    );
    server.handle_line(&call(2, "nap", ""), &mut out);
    assert!(String::from_utf8(out)
        .unwrap()
        .contains(r#""text":"rested""#));
}

#[tokio::test]
async fn the_concurrent_stdio_transport_answers_a_ping_while_a_call_runs() {
    let gate = Arc::new(Notify::new());
    let g = gate.clone();
    let server = Arc::new(Server::new("t", "1").max_line(1024).tool(
        "wait",
        "Waits",
        move |_: Nothing| {
            let g = g.clone();
            async move {
                g.notified().await;
                Ok::<_, ToolError>("released")
            }
        },
    ));
    let (client, transport) = tokio::io::duplex(1 << 16);
    let (input, output) = tokio::io::split(transport);
    let served = tokio::spawn(server.serve_async(input, output));
    let (mut from_server, mut to_server) = tokio::io::split(client);
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let long = format!("{}\n", "x".repeat(3000));
    to_server.write_all(&call(1, "wait", "")).await.unwrap();
    to_server.write_all(b"\r\n\n").await.unwrap();
    to_server.write_all(&ping(2)).await.unwrap();
    to_server.write_all(b"\n").await.unwrap();
    let mut lines = tokio::io::BufReader::new(&mut from_server).lines();
    let first = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(first, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    to_server.write_all(long.as_bytes()).await.unwrap();
    let second = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(second.contains(r#""code":-32600"#), "{second}");
    gate.notify_one();
    let third = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(
        third.starts_with(
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"released"}]"#
        ),
        "{third}"
    );
    to_server.shutdown().await.unwrap();
    drop(to_server);
    assert!(tokio::time::timeout(WAIT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .is_none());
    tokio::time::timeout(WAIT, served)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn the_calls_of_a_batch_are_answered_in_the_batch() {
    let server = Server::new("t", "1").tool("add", "Adds", |a: Add| {
        Ok::<_, ToolError>(Sum {
            result: a.left + a.right,
        })
    });
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"left":3,"right":4}}}]"#, out);
    let got = ends(&mut frames).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with(r#"[{"jsonrpc":"2.0","id":1,"result""#),
        "{got:?}"
    );
    assert!(
        got[0].contains(r#""structuredContent":{"result":7}"#),
        "{got:?}"
    );
}

#[tokio::test]
async fn a_plain_tool_is_answered_within_handle() {
    let server = Server::new("t", "1").tool("add", "Adds", |a: Add| {
        Ok::<_, ToolError>(Sum {
            result: a.left + a.right,
        })
    });
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}}"#, out);
    // Already sent, and the outbox already dropped: no task holds it.
    let frame = String::from_utf8(frames.try_recv().unwrap()).unwrap();
    assert!(
        frame.contains(r#""structuredContent":{"result":3}"#),
        "{frame}"
    );
    assert!(frames.try_recv().is_err());
    assert!(frames.recv().await.is_none());
}

#[tokio::test]
async fn in_revision_2026_07_28_a_request_opts_in_to_log_messages() {
    let server = Server::new("t", "1").tool("chatty", "Logs", |ctx: Context, _: Nothing| {
        ctx.log(LogLevel::Debug, "a debug message");
        ctx.log(LogLevel::Error, "an error message");
        Ok::<_, ToolError>(0)
    });
    let mut c = Connection::new(Arc::new(server));
    let meta = |extra: &str| {
        format!(
            r#","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}{extra}}}"#
        )
    };
    // No level in the request: no log message.
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "chatty", &meta("")), out);
    let got = ends(&mut frames).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].contains(r#""resultType":"complete""#), "{got:?}");
    let (out, mut frames) = Outbox::channel();
    c.handle(
        &call(
            2,
            "chatty",
            &meta(r#","io.modelcontextprotocol/logLevel":"info""#),
        ),
        out,
    );
    let got = ends(&mut frames).await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        got[0],
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"an error message"}}"#
    );
    // `logging/setLevel` is not a method of revision 2026-07-28.
    let (out, mut frames) = Outbox::channel();
    let set = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{{"level":"debug"{}}}}}"#,
        meta("")
    );
    c.handle(set.as_bytes(), out);
    assert!(next(&mut frames).await.contains(r#""code":-32601"#));
}

#[tokio::test]
async fn an_async_closure_is_a_tool() {
    let server = Server::new("t", "1").tool("add", "Adds", async |a: Add| {
        tokio::task::yield_now().await;
        Ok::<_, ToolError>(Sum {
            result: a.left + a.right,
        })
    });
    let mut c = Connection::new(Arc::new(server));
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}}"#, out);
    let got = ends(&mut frames).await;
    assert!(
        got[0].contains(r#""structuredContent":{"result":3}"#),
        "{got:?}"
    );
}
