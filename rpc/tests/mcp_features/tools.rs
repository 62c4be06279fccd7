//! Tool metadata (`title`, `annotations`, `icons`) in `tools/list` of both eras, and the checks
//! of tool names (the MCP specification's rule, revision 2025-11-25: 1 to 128 characters of
//! `A-Z a-z 0-9 _ - .`, unique): a bad name is an error value, never a panic.

use structio_rpc::mcp::{
    BuildErrorKind, Icon, IconTheme, Server, ToolAnnotations, ToolError, ToolOptions, MAX_TOOL_NAME,
};

use crate::common::{add, Add, Sum};

/// The `_meta` envelope of revision 2026-07-28.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The catalog entry of `add` without metadata: its name, description and schemas.
fn bare_entry(name: &str) -> String {
    let input = structio::to_json(&structio::json_schema::<Add>());
    let output = structio::to_json(&structio::json_schema::<Sum>());
    format!(
        r#"{{"name":"{name}","description":"Adds","inputSchema":{input},"outputSchema":{output}}}"#
    )
}

/// The `tools/list` result in the handshake era, and the modern one's `tools` member, as text.
fn catalogs(server: impl Fn() -> Server) -> (String, String) {
    let mut out = Vec::new();
    server().handle_line(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        &mut out,
    );
    let handshake = String::from_utf8(out).unwrap();
    let mut out = Vec::new();
    let modern = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#);
    server().handle_line(modern.as_bytes(), &mut out);
    (handshake, String::from_utf8(out).unwrap())
}

#[test]
fn metadata_is_listed_in_both_eras() {
    let make = || {
        Server::new("t", "1")
            .tool_with(
                "add",
                "Adds",
                ToolOptions::new()
                    .title("Add two integers")
                    .annotations(
                        ToolAnnotations::new()
                            .title("Adder")
                            .read_only(true)
                            .destructive(false)
                            .idempotent(true)
                            .open_world(false),
                    )
                    .icon(
                        Icon::new("https://example.com/add.png")
                            .mime_type("image/png")
                            .size("48x48")
                            .size("96x96")
                            .theme(IconTheme::Light),
                    )
                    .icon(Icon::new("data:image/svg+xml;base64,PHN2Zz4=")),
                add,
            )
            .tool_with(
                "plain",
                "Adds",
                ToolOptions::new().annotations(ToolAnnotations::new().read_only(true)),
                add,
            )
            .tool("bare", "Adds", add)
    };
    let input = structio::to_json(&structio::json_schema::<Add>());
    let output = structio::to_json(&structio::json_schema::<Sum>());
    let add_entry = format!(
        concat!(
            r#"{{"name":"add","title":"Add two integers","description":"Adds","inputSchema":{},"#,
            r#""outputSchema":{},"annotations":{{"title":"Adder","readOnlyHint":true,"#,
            r#""destructiveHint":false,"idempotentHint":true,"openWorldHint":false}},"#,
            r#""icons":[{{"src":"https://example.com/add.png","mimeType":"image/png","#,
            r#""sizes":["48x48","96x96"],"theme":"light"}},"#,
            r#"{{"src":"data:image/svg+xml;base64,PHN2Zz4="}}]}}"#
        ),
        input, output
    );
    let plain_entry = format!(
        r#"{{"name":"plain","description":"Adds","inputSchema":{input},"outputSchema":{output},"annotations":{{"readOnlyHint":true}}}}"#
    );
    let tools = format!(
        r#"{{"tools":[{add_entry},{plain_entry},{}]"#,
        bare_entry("bare")
    );
    let (handshake, modern) = catalogs(make);
    assert_eq!(
        handshake,
        format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{tools}}}}}\n")
    );
    assert!(
        modern.starts_with(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{tools},"ttlMs":0"#
        )),
        "{modern}"
    );
    // Read back, as a client would.
    let r = crate::common::answer(handshake.as_bytes()).outcome.unwrap();
    assert_eq!(
        r["tools"][0]["annotations"]["readOnlyHint"].as_bool(),
        Some(true)
    );
    assert_eq!(
        r["tools"][0]["icons"][1].as_object().map(|o| o.len()),
        Some(1)
    );
}

#[test]
fn tools_without_metadata_are_listed_as_before() {
    let (handshake, _) = catalogs(|| Server::new("t", "1").tool("add", "Adds", add));
    assert_eq!(
        handshake,
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"tools\":[{}]}}}}\n",
            bare_entry("add")
        )
    );
}

#[test]
fn good_names() {
    let long = "a".repeat(MAX_TOOL_NAME);
    let names = [
        "getUser",
        "DATA_EXPORT_v2",
        "admin.tools.list",
        "a",
        "-_.",
        &long,
    ];
    let mut server = Server::new("t", "1");
    for name in names {
        server = server.tool(name, "Adds", add);
    }
    assert_eq!(server.check(), Ok(()));
    assert!(server.problems().is_empty());
    assert_eq!(server.tool_names().collect::<Vec<_>>(), names);
    // Case matters: `Add` and `add` are two tools.
    let s = Server::new("t", "1")
        .tool("add", "Adds", add)
        .tool("Add", "Adds", add);
    assert_eq!(s.check(), Ok(()));
}

#[test]
fn bad_names_are_errors() {
    let long = "a".repeat(MAX_TOOL_NAME + 1);
    for (name, kind, says) in [
        ("", BuildErrorKind::InvalidToolName, "empty"),
        (
            long.as_str(),
            BuildErrorKind::InvalidToolName,
            "129 characters",
        ),
        ("get user", BuildErrorKind::InvalidToolName, "' '"),
        ("tools/add", BuildErrorKind::InvalidToolName, "'/'"),
        ("add,sub", BuildErrorKind::InvalidToolName, "','"),
        ("é", BuildErrorKind::InvalidToolName, "'é'"),
        ("add", BuildErrorKind::DuplicateToolName, "was added before"),
    ] {
        let server = Server::new("t", "1")
            .tool("add", "Adds", add)
            .tool(name, "Adds", add);
        let e = server.check().unwrap_err();
        assert_eq!(e.kind(), kind, "{name:?}: {e}");
        assert_eq!(e.tool(), name);
        assert!(e.to_string().contains(says), "{name:?}: {e}");
        // The tool is left out, the first `add` stays, and the server still answers.
        assert_eq!(server.tool_names().collect::<Vec<_>>(), ["add"], "{name:?}");
        assert_eq!(server.problems(), [e]);
    }
}

#[test]
fn every_problem_is_kept_and_the_first_reported() {
    let server = Server::new("t", "1")
        .tool("a b", "Adds", add)
        .tool("add", "Adds", add)
        .tool("add", "Adds again", add)
        .tool_with_schema("raw", "Adds", "{not json", None, add)
        .tool_with_schema(
            "text",
            "Greets",
            r#"{"type":"object"}"#,
            Some(r#"{"type":"object"}"#),
            |_: Add| Ok::<_, ToolError>("hello"),
        );
    let kinds: Vec<_> = server.problems().iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            BuildErrorKind::InvalidToolName,
            BuildErrorKind::DuplicateToolName,
            BuildErrorKind::InvalidSchema,
            BuildErrorKind::OutputSchemaWithoutStructuredResults,
        ]
    );
    assert_eq!(server.check().unwrap_err().tool(), "a b");
    assert_eq!(server.tool_names().collect::<Vec<_>>(), ["add"]);
}

#[test]
fn serving_does_not_start_with_a_problem() {
    let mut server = Server::new("t", "1").tool("bad name", "Adds", add);
    let mut out = Vec::new();
    let e = server
        .serve(
            &br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#[..],
            &mut out,
        )
        .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(e.to_string().contains("bad name"), "{e}");
    let inner = e
        .get_ref()
        .and_then(|e| e.downcast_ref::<structio_rpc::mcp::BuildError>());
    assert_eq!(
        inner.map(|e| e.kind()),
        Some(BuildErrorKind::InvalidToolName)
    );
    assert!(out.is_empty(), "nothing is answered");
}
