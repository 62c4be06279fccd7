//! The fixtures of `examples/conformance_server.rs` answer as the official MCP conformance
//! suite (npm `@modelcontextprotocol/conformance` 0.1.13) expects, without HTTP: each test
//! opens a connection as the suite's client does (the TypeScript SDK's `Client`:
//! `initialize` with id 0 and revision 2025-11-25, then `notifications/initialized`), sends
//! the request of one scenario with id 1, as the suite words it, and checks the answer byte
//! for byte: what the suite checks (named in each test) and the reference server's texts,
//! URIs, MIME types and payloads. The routed and the general way give the same bytes.
//!
//! The tools that notify while they run (feature `async`) are driven through a `Connection`.
//! The scenarios that need what the server does not have yet (requests to the client,
//! subscriptions, HTTP itself) are not here; see the example.

#[allow(dead_code)]
#[path = "../../examples/conformance_server.rs"]
mod example;

use structio::Value;

/// What the suite's client sends first on every connection.
const INITIALIZE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","#,
    r#""capabilities":{"sampling":{},"elicitation":{}},"#,
    r#""clientInfo":{"name":"conformance-test-client","version":"1.0.0"}}}"#
);

/// The notification that closes the handshake.
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// The answer to `request` (sent with id 1) on a new connection to the example's server, the
/// handshake done first; the routed and the general way give the same bytes.
fn scenario(request: &str) -> String {
    let (mut routed, mut general) = (example::server(), example::server());
    assert!(routed.check().is_ok(), "{:?}", routed.problems());
    let mut answers = Vec::new();
    for line in [INITIALIZE, INITIALIZED, request] {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let wrote = routed.handle_line(line.as_bytes(), &mut a);
        general.handle_line_deferred(line.as_bytes(), &mut b);
        assert_eq!(
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b),
            "{line}"
        );
        assert_eq!(wrote, line != INITIALIZED, "{line}");
        answers.push(String::from_utf8(a).unwrap().trim_end().to_owned());
    }
    assert_eq!(routed.protocol_version(), Some("2025-11-25"));
    answers.pop().unwrap()
}

/// The result of a scenario's answer, read back.
fn result(answer: &str) -> Value {
    let value: Value = structio::from_json(answer).unwrap();
    assert_eq!(value.get("id").and_then(Value::as_i64), Some(1), "{answer}");
    value
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("not a result: {answer}"))
}

/// server-initialize: the handshake completes (the SDK checks the revision is one it speaks
/// and reads the capabilities); ping: the result is `{}` (the SDK's `EmptyResultSchema`
/// refuses any other member).
#[test]
fn initialize_and_ping() {
    let mut server = example::server();
    let mut out = Vec::new();
    server.handle_line(INITIALIZE.as_bytes(), &mut out);
    // With `async`, tools take a `Context`, so the server logs (the `logging` capability),
    // and `test://watched-resource` may be subscribed to (`resources.subscribe`).
    let (logging, subscribe) = if cfg!(feature = "async") {
        (r#""logging":{},"#, r#""subscribe":true,"#)
    } else {
        ("", "")
    };
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"2025-11-25","#,
                r#""capabilities":{{"completions":{{}},{}"prompts":{{"listChanged":false}},"#,
                r#""resources":{{{}"listChanged":false}},"tools":{{"listChanged":false}}}},"#,
                r#""serverInfo":{{"name":"structio-conformance-server","version":"{}"}}}}}}"#,
                "\n"
            ),
            logging,
            subscribe,
            env!("CARGO_PKG_VERSION"),
        )
    );
    assert_eq!(
        scenario(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
    );
}

/// tools-list: every tool has a name, a description and an input schema (the SDK's
/// `ToolSchema` also wants the schema's `type` to be `"object"`); json-schema-2020-12:
/// `json_schema_2020_12_tool` is listed with its schema as written, `$schema` (the 2020-12
/// dialect), `$defs.address` and `additionalProperties: false` kept.
#[test]
fn tools_list() {
    let answer = scenario(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let result = result(&answer);
    let tools = result.get("tools").and_then(Value::as_array).unwrap();
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t.get("name").and_then(Value::as_str).unwrap())
        .collect();
    let mut expected = vec![
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_error_handling",
        "json_schema_2020_12_tool",
    ];
    if cfg!(feature = "async") {
        expected.extend([
            "test_tool_with_logging",
            "test_tool_with_progress",
            "test_sampling",
            "test_elicitation",
            "test_elicitation_sep1034_defaults",
            "test_elicitation_sep1330_enums",
        ]);
    }
    assert_eq!(names, expected);
    for tool in tools {
        let description = tool.get("description").and_then(Value::as_str);
        assert!(description.is_some_and(|d| !d.is_empty()), "{answer}");
        let schema = tool.get("inputSchema").unwrap();
        assert_eq!(
            schema.get("type").and_then(Value::as_str),
            Some("object"),
            "{answer}"
        );
        // No tool has an output schema: the suite's client would check results against it.
        assert!(tool.get("outputSchema").is_none(), "{answer}");
    }
    assert!(answer.contains(&format!(
        r#"{{"name":"json_schema_2020_12_tool","description":"Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)","inputSchema":{}}}"#,
        example::JSON_SCHEMA_2020_12
    )));
    let schema = tools[6].get("inputSchema").unwrap();
    assert_eq!(
        schema.get("$schema").and_then(Value::as_str),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
    assert!(schema.get("$defs").and_then(|d| d.get("address")).is_some());
    assert_eq!(
        schema.get("additionalProperties").and_then(Value::as_bool),
        Some(false)
    );
}

/// `iVBORw0KGgo...`: the reference server's 1x1 PNG in base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// The reference server's WAV header in base64.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// tools-call-*: each content tool as the suite calls it (`test_simple_text` without
/// `arguments`, the others with `{}`), answered with the reference server's blocks. The
/// suite checks: a text block with text (simple-text); an image block with data and
/// mimeType (image); an audio block whose mimeType is `audio/wav` (audio); a `resource`
/// block whose resource has uri, mimeType and text or blob (embedded-resource); at least two
/// blocks, among them text, image and resource (mixed-content); `isError: true` and a first
/// block with text (error).
#[test]
fn tool_calls() {
    let call = |name: &str, arguments: &str| {
        scenario(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{name}"{arguments}}}}}"#
        ))
    };
    let image = format!(r#"{{"type":"image","data":"{PNG}","mimeType":"image/png"}}"#);
    for (name, arguments, content, is_error) in [
        (
            "test_simple_text",
            "",
            r#"[{"type":"text","text":"This is a simple text response for testing."}]"#.to_owned(),
            false,
        ),
        (
            "test_image_content",
            r#","arguments":{}"#,
            format!("[{image}]"),
            false,
        ),
        (
            "test_audio_content",
            r#","arguments":{}"#,
            format!(r#"[{{"type":"audio","data":"{WAV}","mimeType":"audio/wav"}}]"#),
            false,
        ),
        (
            "test_embedded_resource",
            r#","arguments":{}"#,
            concat!(
                r#"[{"type":"resource","resource":{"uri":"test://embedded-resource","#,
                r#""mimeType":"text/plain","text":"This is an embedded resource content."}}]"#
            )
            .to_owned(),
            false,
        ),
        (
            "test_multiple_content_types",
            r#","arguments":{}"#,
            format!(
                concat!(
                    r#"[{{"type":"text","text":"Multiple content types test:"}},{}"#,
                    r#",{{"type":"resource","resource":{{"uri":"test://mixed-content-resource","#,
                    r#""mimeType":"application/json","text":"{{\"test\":\"data\",\"value\":123}}"}}}}]"#
                ),
                image
            ),
            false,
        ),
        (
            "test_error_handling",
            r#","arguments":{}"#,
            r#"[{"type":"text","text":"This tool intentionally returns an error for testing"}]"#
                .to_owned(),
            true,
        ),
    ] {
        assert_eq!(
            call(name, arguments),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":{content},"isError":{is_error}}}}}"#
            ),
            "{name}"
        );
    }
    // Not called by the suite: its arguments as its schema describes them, echoed.
    assert_eq!(
        call(
            "json_schema_2020_12_tool",
            r#","arguments":{"name":"Ada","address":{"city":"London"}}"#
        ),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"#,
            r#""JSON Schema 2020-12 tool called with: {\"name\":\"Ada\",\"address\":{\"city\":\"London\"}}"}],"#,
            r#""isError":false}}"#
        )
    );
}

/// resources-list: each resource has a uri and a name; resources-read-text and
/// resources-read-binary: the first contents have uri, mimeType and text (blob);
/// resources-templates-read: `test://template/123/data` has contents with a uri whose text
/// holds `123`.
#[test]
fn resources() {
    assert_eq!(
        scenario(r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resources":["#,
            r#"{"uri":"test://static-text","name":"static-text","title":"Static Text Resource","#,
            r#""description":"A static text resource for testing","mimeType":"text/plain"},"#,
            r#"{"uri":"test://static-binary","name":"static-binary","title":"Static Binary Resource","#,
            r#""description":"A static binary resource (image) for testing","mimeType":"image/png"},"#,
            r#"{"uri":"test://watched-resource","name":"watched-resource","title":"Watched Resource","#,
            r#""description":"The resource the subscription scenarios subscribe to","mimeType":"text/plain"}]}}"#
        )
    );
    assert_eq!(
        scenario(r#"{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}"#),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[{"uriTemplate":"test://template/{id}/data","#,
            r#""name":"template","title":"Resource Template","#,
            r#""description":"A resource template with parameter substitution","mimeType":"application/json"}]}}"#
        )
    );
    let read = |uri: &str| {
        scenario(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"{uri}"}}}}"#
        ))
    };
    assert_eq!(
        read("test://static-text"),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"test://static-text","#,
            r#""mimeType":"text/plain","text":"This is the content of the static text resource."}]}}"#
        )
    );
    assert_eq!(
        read("test://static-binary"),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{{"uri":"test://static-binary","mimeType":"image/png","blob":"{PNG}"}}]}}}}"#
        )
    );
    assert_eq!(
        read("test://template/123/data"),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"test://template/123/data","#,
            r#""mimeType":"application/json","#,
            r#""text":"{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}]}}"#
        )
    );
    assert_eq!(
        read("test://watched-resource"),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"test://watched-resource","#,
            r#""mimeType":"text/plain","text":"Watched resource content"}]}}"#
        )
    );
}

/// prompts-list: each prompt has a name and a description; prompts-get-simple: messages,
/// each with role and content; prompts-get-with-args: `testValue1` and `testValue2` in the
/// messages; prompts-get-embedded-resource: a message whose content is a `resource`;
/// prompts-get-with-image: a message whose content is an image with data and mimeType.
#[test]
fn prompts() {
    assert_eq!(
        scenario(r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"prompts":["#,
            r#"{"name":"test_simple_prompt","description":"A simple prompt without arguments"},"#,
            r#"{"name":"test_prompt_with_arguments","description":"A prompt with required arguments","arguments":["#,
            r#"{"name":"arg1","description":"First test argument","required":true},"#,
            r#"{"name":"arg2","description":"Second test argument","required":true}]},"#,
            r#"{"name":"test_prompt_with_embedded_resource","description":"A prompt that includes an embedded resource","#,
            r#""arguments":[{"name":"resourceUri","description":"URI of the resource to embed","required":true}]},"#,
            r#"{"name":"test_prompt_with_image","description":"A prompt that includes image content"}]}}"#
        )
    );
    let get = |name: &str, arguments: &str| {
        scenario(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{{"name":"{name}"{arguments}}}}}"#
        ))
    };
    assert_eq!(
        get("test_simple_prompt", ""),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"description":"A simple prompt without arguments","#,
            r#""messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]}}"#
        )
    );
    assert_eq!(
        get(
            "test_prompt_with_arguments",
            r#","arguments":{"arg1":"testValue1","arg2":"testValue2"}"#
        ),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"description":"A prompt with required arguments","#,
            r#""messages":[{"role":"user","content":{"type":"text","#,
            r#""text":"Prompt with arguments: arg1='testValue1', arg2='testValue2'"}}]}}"#
        )
    );
    assert_eq!(
        get(
            "test_prompt_with_embedded_resource",
            r#","arguments":{"resourceUri":"test://example-resource"}"#
        ),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"description":"A prompt that includes an embedded resource","#,
            r#""messages":[{"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","#,
            r#""mimeType":"text/plain","text":"Embedded resource content for testing."}}},"#,
            r#"{"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}]}}"#
        )
    );
    assert_eq!(
        get("test_prompt_with_image", ""),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"description":"A prompt that includes image content","#,
                r#""messages":[{{"role":"user","content":{{"type":"image","data":"{}","mimeType":"image/png"}}}},"#,
                r#"{{"role":"user","content":{{"type":"text","text":"Please analyze the image above."}}}}]}}}}"#
            ),
            PNG
        )
    );
}

/// completion-complete: `arg1` of `test_prompt_with_arguments` completed from `test`; the
/// suite checks `completion.values` is an array (the SDK: at most 100 strings).
#[test]
fn completion() {
    let complete = |value: &str| {
        scenario(&format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{{"#,
                r#""ref":{{"type":"ref/prompt","name":"test_prompt_with_arguments"}},"#,
                r#""argument":{{"name":"arg1","value":"{}"}}}}}}"#
            ),
            value
        ))
    };
    assert_eq!(
        complete("test"),
        r#"{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":[],"total":0,"hasMore":false}}}"#
    );
    assert_eq!(
        complete("par"),
        r#"{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["paris","park","party"],"total":3,"hasMore":false}}}"#
    );
}

/// tools-call-with-progress and tools-call-with-logging (feature `async`): through a
/// `Connection`, `test_tool_with_progress` sends progress 0, 50 and 100 of 100 for the
/// request's token, then its text; `test_tool_with_logging` sends its three `info` messages
/// (the level set to `debug` first, as the suite does), then its text.
#[cfg(feature = "async")]
#[tokio::test]
async fn tools_that_notify_while_they_run() {
    use std::sync::Arc;
    use structio_rpc::mcp::{Connection, Outbox};

    let mut connection = Connection::new(Arc::new(example::server()));
    let mut send = |line: &str| {
        let (outbox, frames) = Outbox::channel();
        connection.handle(line.as_bytes(), outbox);
        frames
    };
    let drain = |mut frames: tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>| async move {
        let mut all = Vec::new();
        while let Some(frame) = frames.recv().await {
            all.push(String::from_utf8(frame).unwrap());
        }
        all
    };
    drain(send(INITIALIZE)).await;
    drain(send(INITIALIZED)).await;
    let progress = drain(send(concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_tool_with_progress","#,
        r#""arguments":{},"_meta":{"progressToken":"progress-test-1"}}}"#
    )))
    .await;
    assert_eq!(progress.len(), 4, "{progress:?}");
    for (frame, done) in progress.iter().zip([0, 50, 100]) {
        assert_eq!(
            frame,
            &format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"progress-test-1","progress":{done},"total":100}}}}"#
            )
        );
    }
    assert!(
        progress[3].contains("Tool with progress executed successfully"),
        "{progress:?}"
    );
    let level = drain(send(
        r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}"#,
    ))
    .await;
    assert_eq!(level, [r#"{"jsonrpc":"2.0","id":2,"result":{}}"#]);
    let logs = drain(send(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{}}}"#,
    ))
    .await;
    assert_eq!(logs.len(), 4, "{logs:?}");
    for (frame, text) in logs.iter().zip([
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]) {
        assert!(
            frame.contains(r#""method":"notifications/message""#),
            "{frame}"
        );
        assert!(frame.contains(r#""level":"info""#), "{frame}");
        assert!(frame.contains(text), "{frame}");
    }
    assert!(logs[3].contains("Tool with logging executed successfully"));
}
