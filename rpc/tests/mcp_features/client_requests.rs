//! Requests from the server to the client (feature `async`), through a `Connection`: the
//! request frame a tool's `Context::sample` / `Context::elicit` sends on the call's outbox,
//! the client's response handed to the connection and routed back to the waiting call;
//! decline and cancel; an error answer; a capability the client did not declare; a response
//! for an id nobody waits for (ignored); the call cancelled while it waits (the client is
//! told, a late answer is ignored); the stateless era refusing them.

use std::sync::Arc;

use structio::Value;
use structio_rpc::mcp::{
    Connection, Context, Elicitation, Outbox, RequestError, SamplingRequest, Server, ToolError,
};

use crate::async_tools::{ends, next};

#[derive(structio::Reflect)]
struct Prompt {
    prompt: String,
}

#[derive(structio::Reflect)]
struct Nothing {}

/// What `ask` elicits.
#[derive(structio::Reflect, Debug, PartialEq)]
struct Info {
    name: String,
    age: u32,
    nickname: Option<String>,
}

fn json(text: &str) -> Value {
    structio::from_json::<Value>(text).unwrap()
}

/// The server of these tests: `sample` (sampling), `ask` (elicitation of [`Info`]) and
/// `roots` (a raw `roots/list`).
fn server() -> Arc<Server> {
    Arc::new(
        Server::new("t", "1")
            .tool("sample", "Samples", |ctx: Context, p: Prompt| async move {
                let answer = ctx.sample(&SamplingRequest::new(50).user(p.prompt)).await?;
                Ok::<_, ToolError>(format!(
                    "LLM said {} ({})",
                    answer.text().unwrap_or("?"),
                    answer.model
                ))
            })
            .tool("ask", "Asks", |ctx: Context, _: Nothing| async move {
                let answer = ctx.elicit::<Info>("Who are you?").await;
                Ok::<_, ToolError>(match answer {
                    Ok(Elicitation::Accept(info)) => {
                        format!("accepted {} {} {:?}", info.name, info.age, info.nickname)
                    }
                    Ok(Elicitation::Decline) => "declined".to_owned(),
                    Ok(Elicitation::Cancel) => "cancelled".to_owned(),
                    Err(RequestError::Cancelled) => "cancel seen".to_owned(),
                    Err(e) => format!("failed: {e}"),
                })
            })
            .tool(
                "roots",
                "Lists roots",
                |ctx: Context, _: Nothing| async move {
                    let result = ctx.request("roots/list", "{}").await?;
                    Ok::<_, ToolError>(result)
                },
            ),
    )
}

/// A connection to [`server`], initialized with the client capabilities `caps`.
async fn connect(caps: &str) -> Connection {
    let mut c = Connection::new(server());
    let (out, mut frames) = Outbox::channel();
    c.handle(
        format!(r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{caps},"clientInfo":{{"name":"c","version":"1"}}}}}}"#).as_bytes(),
        out,
    );
    assert!(next(&mut frames)
        .await
        .contains(r#""protocolVersion":"2025-11-25""#));
    c
}

fn call(id: u32, name: &str, arguments: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#)
        .into_bytes()
}

/// Hands `message` (a response) to the connection: nothing is sent back.
async fn answer(c: &mut Connection, message: &str) {
    let (out, mut frames) = Outbox::channel();
    c.handle(message.as_bytes(), out);
    assert_eq!(ends(&mut frames).await, Vec::<String>::new());
}

/// The id of a request frame, checking the envelope.
fn request_id(frame: &Value, method: &str) -> u64 {
    assert_eq!(frame["jsonrpc"].as_str(), Some("2.0"), "{frame:?}");
    assert_eq!(frame["method"].as_str(), Some(method), "{frame:?}");
    frame["id"].as_u64().expect("a numeric id")
}

/// The text of the tool result in the response `frame` to call `id`.
fn result_text(frame: &str, id: u32) -> String {
    let v = json(frame);
    assert_eq!(v["id"].as_u64(), Some(id as u64), "{frame}");
    v["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {frame}"))
        .to_owned()
}

#[tokio::test]
async fn sampling_request_goes_out_and_its_answer_comes_back() {
    let mut c = connect(r#"{"sampling":{}}"#).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "sample", r#"{"prompt":"hello"}"#), out);
    let request = json(&next(&mut frames).await);
    let id = request_id(&request, "sampling/createMessage");
    let params = &request["params"];
    assert_eq!(params["maxTokens"].as_u64(), Some(50));
    assert_eq!(params["messages"][0]["role"].as_str(), Some("user"));
    assert_eq!(
        params["messages"][0]["content"]["type"].as_str(),
        Some("text")
    );
    assert_eq!(
        params["messages"][0]["content"]["text"].as_str(),
        Some("hello")
    );
    assert!(params.get("systemPrompt").is_none(), "{request:?}");
    assert_eq!(c.requests_waiting(), 1);
    answer(
        &mut c,
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"role":"assistant","content":{{"type":"text","text":"hi there"}},"model":"m-1","stopReason":"endTurn"}}}}"#),
    )
    .await;
    let response = next(&mut frames).await;
    assert_eq!(result_text(&response, 1), "LLM said hi there (m-1)");
    assert_eq!(ends(&mut frames).await, Vec::<String>::new());
    assert_eq!(c.requests_waiting(), 0);
}

#[tokio::test]
async fn server_request_ids_are_unique_on_the_connection() {
    let mut c = connect(r#"{"sampling":{}}"#).await;
    let (out1, mut frames1) = Outbox::channel();
    c.handle(&call(1, "sample", r#"{"prompt":"a"}"#), out1);
    let (out2, mut frames2) = Outbox::channel();
    c.handle(&call(2, "sample", r#"{"prompt":"b"}"#), out2);
    let first = json(&next(&mut frames1).await);
    let second = json(&next(&mut frames2).await);
    let (id1, id2) = (
        request_id(&first, "sampling/createMessage"),
        request_id(&second, "sampling/createMessage"),
    );
    assert_ne!(id1, id2);
    // Answered in the other order, each answer reaches its own call.
    for (id, text) in [(id2, "to b"), (id1, "to a")] {
        answer(&mut c, &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"role":"assistant","content":{{"type":"text","text":"{text}"}},"model":"m"}}}}"#)).await;
    }
    assert_eq!(
        result_text(&next(&mut frames1).await, 1),
        "LLM said to a (m)"
    );
    assert_eq!(
        result_text(&next(&mut frames2).await, 2),
        "LLM said to b (m)"
    );
}

#[tokio::test]
async fn elicitation_sends_the_derived_schema_and_reads_the_content() {
    let mut c = connect(r#"{"elicitation":{}}"#).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "ask", "{}"), out);
    let request = json(&next(&mut frames).await);
    let id = request_id(&request, "elicitation/create");
    assert_eq!(request["params"]["message"].as_str(), Some("Who are you?"));
    let schema = &request["params"]["requestedSchema"];
    assert_eq!(schema["type"].as_str(), Some("object"), "{request:?}");
    assert_eq!(
        schema["properties"]["name"]["type"].as_str(),
        Some("string"),
        "{request:?}"
    );
    assert_eq!(
        schema["properties"]["age"]["type"].as_str(),
        Some("integer"),
        "{request:?}"
    );
    assert!(schema.get("$defs").is_none(), "{request:?}");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        required.contains(&"name") && required.contains(&"age"),
        "{request:?}"
    );
    assert!(!required.contains(&"nickname"), "{request:?}");
    answer(
        &mut c,
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"action":"accept","content":{{"name":"Ann","age":7}}}}}}"#),
    )
    .await;
    assert_eq!(
        result_text(&next(&mut frames).await, 1),
        "accepted Ann 7 None"
    );
}

#[tokio::test]
async fn decline_and_cancel_are_told_apart() {
    let mut c = connect(r#"{"elicitation":{"form":{}}}"#).await;
    for (n, action, expected) in [(1, "decline", "declined"), (2, "cancel", "cancelled")] {
        let (out, mut frames) = Outbox::channel();
        c.handle(&call(n, "ask", "{}"), out);
        let id = request_id(&json(&next(&mut frames).await), "elicitation/create");
        answer(
            &mut c,
            &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"action":"{action}"}}}}"#),
        )
        .await;
        assert_eq!(result_text(&next(&mut frames).await, n), expected);
    }
}

#[tokio::test]
async fn a_client_error_fails_the_request() {
    let mut c = connect(r#"{"sampling":{}}"#).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "sample", r#"{"prompt":"x"}"#), out);
    let id = request_id(&json(&next(&mut frames).await), "sampling/createMessage");
    answer(
        &mut c,
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-1,"message":"User rejected sampling"}}}}"#),
    )
    .await;
    let response = next(&mut frames).await;
    let v = json(&response);
    assert_eq!(v["result"]["isError"].as_bool(), Some(true), "{response}");
    assert!(response.contains("User rejected sampling"), "{response}");
    assert!(response.contains("-1"), "{response}");
}

#[tokio::test]
async fn a_capability_not_declared_is_an_error_and_nothing_is_sent() {
    let mut c = connect(r#"{"roots":{}}"#).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "sample", r#"{"prompt":"x"}"#), out);
    let response = next(&mut frames).await;
    assert_eq!(
        json(&response)["result"]["isError"].as_bool(),
        Some(true),
        "{response}"
    );
    assert!(response.contains("sampling capability"), "{response}");
    assert_eq!(ends(&mut frames).await, Vec::<String>::new());

    let (out, mut frames) = Outbox::channel();
    c.handle(&call(2, "ask", "{}"), out);
    let response = next(&mut frames).await;
    assert!(
        result_text(&response, 2).contains("elicitation capability"),
        "{response}"
    );
    assert_eq!(c.requests_waiting(), 0);

    // Elicitation in URL mode only takes no forms.
    let mut url_only = connect(r#"{"elicitation":{"url":{}}}"#).await;
    let (out, mut frames) = Outbox::channel();
    url_only.handle(&call(9, "ask", "{}"), out);
    let response = next(&mut frames).await;
    assert!(
        result_text(&response, 9).contains("elicitation capability"),
        "{response}"
    );

    // `roots` was declared: the raw request goes out and its result comes back as text.
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(3, "roots", "{}"), out);
    let id = request_id(&json(&next(&mut frames).await), "roots/list");
    answer(
        &mut c,
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"roots":[]}}}}"#),
    )
    .await;
    assert_eq!(result_text(&next(&mut frames).await, 3), r#"{"roots":[]}"#);
}

#[tokio::test]
async fn a_response_for_an_unknown_id_is_ignored() {
    let mut c = connect(r#"{"sampling":{}}"#).await;
    answer(&mut c, r#"{"jsonrpc":"2.0","id":999,"result":{}}"#).await;
    answer(
        &mut c,
        r#"{"jsonrpc":"2.0","id":"nope","error":{"code":1,"message":"x"}}"#,
    )
    .await;
    answer(&mut c, r#"[{"jsonrpc":"2.0","id":5,"result":{}}]"#).await;
    // The connection goes on serving.
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, out);
    assert_eq!(
        next(&mut frames).await,
        r#"{"jsonrpc":"2.0","id":7,"result":{}}"#
    );
}

#[tokio::test]
async fn a_call_cancelled_while_it_waits_tells_the_client_and_ignores_the_late_answer() {
    let mut c = connect(r#"{"elicitation":{}}"#).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(4, "ask", "{}"), out);
    let id = request_id(&json(&next(&mut frames).await), "elicitation/create");
    assert_eq!(c.requests_waiting(), 1);
    let (cancel_out, mut cancel_frames) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#,
        cancel_out,
    );
    assert_eq!(ends(&mut cancel_frames).await, Vec::<String>::new());
    // The call is never answered; the client is told its request is withdrawn.
    let rest = ends(&mut frames).await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    let note = json(&rest[0]);
    assert_eq!(
        note["method"].as_str(),
        Some("notifications/cancelled"),
        "{rest:?}"
    );
    assert_eq!(note["params"]["requestId"].as_u64(), Some(id), "{rest:?}");
    assert_eq!(c.requests_waiting(), 0);
    answer(
        &mut c,
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"action":"accept","content":{{"name":"x","age":1}}}}}}"#),
    )
    .await;
}

#[tokio::test]
async fn the_stateless_era_refuses_requests_to_the_client() {
    let c = Connection::new(server());
    let mut c = c;
    let (out, mut frames) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"roots","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{},"sampling":{}}}}}"#,
        out,
    );
    let response = next(&mut frames).await;
    assert!(response.contains(r#""isError":true"#), "{response}");
    assert!(response.contains("2026-07-28"), "{response}");
    assert_eq!(ends(&mut frames).await, Vec::<String>::new());
}

#[test]
fn a_call_without_a_connection_has_no_client() {
    let mut server = Server::new("t", "1").tool(
        "roots",
        "Lists roots",
        |ctx: Context, _: Nothing| async move {
            Ok::<_, ToolError>(ctx.request("roots/list", "{}").await?)
        },
    );
    let mut out = Vec::new();
    server.handle_line(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"roots","arguments":{}}}"#,
        &mut out,
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#""isError":true"#), "{text}");
    assert!(text.contains("no client connection"), "{text}");
}

#[tokio::test]
async fn a_connection_dropped_fails_the_waiting_request() {
    let mut c = connect(r#"{"sampling":{}}"#).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(&call(1, "sample", r#"{"prompt":"x"}"#), out);
    request_id(&json(&next(&mut frames).await), "sampling/createMessage");
    drop(c);
    let response = next(&mut frames).await;
    assert!(response.contains(r#""isError":true"#), "{response}");
    assert!(response.contains("connection closed"), "{response}");
    assert_eq!(ends(&mut frames).await, Vec::<String>::new());
}
