//! Tool results by their type (`IntoToolResult`): plain text (`String`, `&'static str`), each
//! kind of content block (text, image, audio, resource link, embedded text and blob
//! resources), mixed content (`Vec<Content>`), and structured content (a derived type), each
//! answered with its exact JSON in both eras, the general way giving the same bytes; and the
//! catalog, which lists an `outputSchema` for structured results only.

use structio_rpc::mcp::{Content, EmbeddedResource, ResourceLink, Server, ToolError};

use crate::common::{Add, Sum};

/// The arguments of every content tool.
#[derive(structio::Reflect)]
struct Name {
    name: String,
}

/// A server with one tool per kind of result.
fn server() -> Server {
    Server::new("t", "1")
        .tool("greet", "Greets", |n: Name| {
            Ok::<_, ToolError>(format!("Hello, {}!", n.name))
        })
        .tool("static", "A fixed text", |_: Name| {
            Ok::<_, ToolError>("fixed \"text\"")
        })
        .tool("text", "A text block", |n: Name| {
            Ok::<_, ToolError>(Content::text(n.name))
        })
        .tool("image", "A PNG signature", |_: Name| {
            Ok::<_, ToolError>(Content::image(
                [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a],
                "image/png",
            ))
        })
        .tool("audio", "Two bytes of audio", |_: Name| {
            Ok::<_, ToolError>(Content::audio([0xff, 0x00], "audio/wav"))
        })
        .tool("link", "A resource link", |n: Name| {
            Ok::<_, ToolError>(Content::resource_link(
                ResourceLink::new(format!("file:///{}", n.name), n.name)
                    .description("a file")
                    .mime_type("text/x-rust"),
            ))
        })
        .tool("bare_link", "A resource link without options", |_: Name| {
            Ok::<_, ToolError>(Content::resource_link(ResourceLink::new("file:///a", "a")))
        })
        .tool("embedded_text", "An embedded text resource", |_: Name| {
            Ok::<_, ToolError>(Content::embedded(
                EmbeddedResource::text("file:///n.txt", "line 1\nline 2").mime_type("text/plain"),
            ))
        })
        .tool("embedded_blob", "An embedded binary resource", |_: Name| {
            Ok::<_, ToolError>(Content::embedded(EmbeddedResource::blob(
                "file:///b.bin",
                b"foobar",
            )))
        })
        .tool("mixed", "Text and an image", |n: Name| {
            Ok::<_, ToolError>(vec![
                Content::text(n.name),
                Content::image(b"fo", "image/gif"),
                Content::from("end"),
            ])
        })
        .tool("none", "No content", |_: Name| {
            Ok::<_, ToolError>(Vec::<Content>::new())
        })
        .tool("fails", "A tool error", |_: Name| {
            Err::<Content, _>(ToolError::new("no"))
        })
        .tool("add", "Adds", crate::common::add)
}

/// The `_meta` envelope of revision 2026-07-28.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// What closes every modern result of the server `t`.
const STAMP: &str = r#","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}}"#;

/// The answer line (without its line break) to a `tools/call` of `tool` with `arguments`, in
/// the handshake era or the modern one; the general way (`handle_line_deferred`) is checked to
/// give the same bytes.
fn call(tool: &str, arguments: &str, modern: bool) -> String {
    let meta = if modern {
        format!(",{META}")
    } else {
        String::new()
    };
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}{meta}}}}}"#
    );
    let (mut routed, mut general) = (Vec::new(), Vec::new());
    assert!(server().handle_line(line.as_bytes(), &mut routed));
    assert!(server().handle_line_deferred(line.as_bytes(), &mut general));
    let routed = String::from_utf8(routed).unwrap();
    assert_eq!(routed, String::from_utf8(general).unwrap(), "{line}");
    assert!(routed.ends_with('\n'));
    routed.trim_end().to_owned()
}

/// Checks the answer to `tool` in both eras: `{"jsonrpc":"2.0","id":7,"result":{RESULT}}`,
/// the modern one with the stamp before the result's closing brace.
fn check(tool: &str, result: &str) {
    let args = r#"{"name":"main.rs"}"#;
    let body = &result[..result.len() - 1];
    assert_eq!(
        call(tool, args, false),
        format!(r#"{{"jsonrpc":"2.0","id":7,"result":{result}}}"#),
        "{tool}, handshake era"
    );
    assert_eq!(
        call(tool, args, true),
        format!(r#"{{"jsonrpc":"2.0","id":7,"result":{body}{STAMP}}}}}"#),
        "{tool}, 2026-07-28"
    );
}

#[test]
fn a_string_is_one_text_block() {
    check(
        "greet",
        r#"{"content":[{"type":"text","text":"Hello, main.rs!"}],"isError":false}"#,
    );
    check(
        "static",
        r#"{"content":[{"type":"text","text":"fixed \"text\""}],"isError":false}"#,
    );
    check(
        "text",
        r#"{"content":[{"type":"text","text":"main.rs"}],"isError":false}"#,
    );
}

#[test]
fn image_and_audio_are_base64() {
    check(
        "image",
        r#"{"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"isError":false}"#,
    );
    check(
        "audio",
        r#"{"content":[{"type":"audio","data":"/wA=","mimeType":"audio/wav"}],"isError":false}"#,
    );
}

#[test]
fn resource_links() {
    check(
        "link",
        concat!(
            r#"{"content":[{"type":"resource_link","uri":"file:///main.rs","name":"main.rs","#,
            r#""description":"a file","mimeType":"text/x-rust"}],"isError":false}"#
        ),
    );
    check(
        "bare_link",
        r#"{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}],"isError":false}"#,
    );
}

#[test]
fn embedded_resources() {
    check(
        "embedded_text",
        concat!(
            r#"{"content":[{"type":"resource","resource":{"uri":"file:///n.txt","mimeType":"text/plain","#,
            r#""text":"line 1\nline 2"}}],"isError":false}"#
        ),
    );
    check(
        "embedded_blob",
        r#"{"content":[{"type":"resource","resource":{"uri":"file:///b.bin","blob":"Zm9vYmFy"}}],"isError":false}"#,
    );
}

#[test]
fn mixed_content_in_order() {
    check(
        "mixed",
        concat!(
            r#"{"content":[{"type":"text","text":"main.rs"},{"type":"image","data":"Zm8=","mimeType":"image/gif"},"#,
            r#"{"type":"text","text":"end"}],"isError":false}"#
        ),
    );
    check("none", r#"{"content":[],"isError":false}"#);
}

#[test]
fn errors_and_structured_results_are_unchanged() {
    check(
        "fails",
        r#"{"content":[{"type":"text","text":"no"}],"isError":true}"#,
    );
    let add = r#"{"left":2,"right":3}"#;
    assert_eq!(
        call("add", add, false),
        concat!(
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"result\":5}"}],"#,
            r#""structuredContent":{"result":5},"isError":false}}"#
        )
    );
    assert_eq!(
        call("add", add, true),
        format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":{{"content":[{{"type":"text","text":"{{\"result\":5}}"}}],"structuredContent":{{"result":5}},"isError":false{STAMP}}}}}"#
        )
    );
    // Arguments that do not fit a content tool are a tool execution error, as for any tool.
    let bad = call("greet", r#"{"name":3}"#, false);
    assert!(bad.contains(r#""isError":true"#), "{bad}");
    assert!(bad.contains("$.name"), "{bad}");
}

#[test]
fn only_structured_results_list_an_output_schema() {
    let mut s = server();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#),
    ] {
        let mut s2 = server();
        let mut out = Vec::new();
        s2.handle_line(line.as_bytes(), &mut out);
        let r = crate::common::answer(&out).outcome.unwrap();
        for tool in r["tools"].as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            assert_eq!(
                tool.get("outputSchema").is_some(),
                name == "add",
                "{name}: {}",
                structio::to_json(tool)
            );
            assert_eq!(tool["inputSchema"]["type"].as_str(), Some("object"));
        }
    }
    // The tools are called as listed.
    let mut out = Vec::new();
    s.handle_line(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":1}}}"#,
        &mut out,
    );
    assert!(String::from_utf8(out)
        .unwrap()
        .contains(r#""structuredContent":{"result":2}"#));
    let _: fn(Add) -> Result<Sum, ToolError> = crate::common::add;
}

#[test]
fn content_values() {
    assert_eq!(Content::from("a"), Content::text("a"));
    assert_eq!(Content::from(String::from("a")), Content::text("a"));
    assert_eq!(
        Content::from(ResourceLink::new("u", "n")),
        Content::resource_link(ResourceLink::new("u", "n"))
    );
    assert_eq!(
        Content::from(EmbeddedResource::text("u", "t")),
        Content::embedded(EmbeddedResource::text("u", "t"))
    );
    assert_eq!(
        Content::audio([], "audio/ogg").to_json(),
        r#"{"type":"audio","data":"","mimeType":"audio/ogg"}"#
    );
    // A Content nested in data has a schema (a content block).
    let schema = structio::json_schema::<Vec<Content>>();
    assert_eq!(
        schema["$defs"]["ContentBlock"]["required"][0].as_str(),
        Some("type")
    );
}
