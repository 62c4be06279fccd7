//! Resources and resource templates (`resources/list`, `resources/templates/list`,
//! `resources/read`), and the paging of the lists, in both eras, with the exact JSON of each
//! answer (MCP revisions 2025-11-25 and 2026-07-28).

use structio_rpc::mcp::{
    Annotations, BuildErrorKind, ResourceContents, ResourceError, ResourceOptions, Role, Server,
    ToolError,
};

/// A server with two fixed resources, a template and a tool.
fn server() -> Server {
    #[derive(structio::Reflect)]
    struct Nothing {}
    Server::new("res", "1")
        .tool("noop", "Does nothing", |_: Nothing| {
            Ok::<_, ToolError>("ok")
        })
        .resource(
            "test://static/readme",
            "readme",
            ResourceOptions::new()
                .title("Read me")
                .description("What this is")
                .mime_type("text/plain")
                .size(5)
                .annotations(Annotations::new().audience(Role::User).priority(0.5)),
            |r| Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "hello")),
        )
        .resource("test://static/logo", "logo", ResourceOptions::new(), |r| {
            Ok(ResourceContents::blob(r.uri(), [1, 2, 3]))
        })
        .resource_template(
            "test://template/{id}/data",
            "data",
            ResourceOptions::new().mime_type("application/json"),
            |r| match r.variable("id") {
                Some("missing") => Err(ResourceError::not_found()),
                Some("broken") => Err(ResourceError::new("the store is offline")),
                Some("panics") => panic!("a read that panics"),
                Some(id) => Ok(ResourceContents::text(
                    r.uri(),
                    format!("{{\"id\":\"{id}\"}}"),
                )),
                None => Err(ResourceError::not_found()),
            },
        )
}

/// Each line's answer, the routed way and the general way giving the same bytes.
fn answers(make: impl Fn() -> Server, lines: &[&str]) -> Vec<String> {
    let (mut a, mut b) = (make(), make());
    lines
        .iter()
        .map(|line| {
            let (mut out, mut general) = (Vec::new(), Vec::new());
            a.handle_line(line.as_bytes(), &mut out);
            b.handle_line_deferred(line.as_bytes(), &mut general);
            let out = String::from_utf8(out).unwrap();
            assert_eq!(out, String::from_utf8(general).unwrap(), "{line}");
            out.trim_end().to_owned()
        })
        .collect()
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
const STAMP: &str = r#""resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"res","version":"1"}}"#;
const HINTS: &str = r#""ttlMs":0,"cacheScope":"private""#;

/// A modern request of `method` with `params` members (before `_meta`).
fn modern(id: u32, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{META}}}}}"#)
}

const RESOURCES: &str = concat!(
    r#"[{"uri":"test://static/readme","name":"readme","title":"Read me","description":"What this is","#,
    r#""mimeType":"text/plain","size":5,"annotations":{"audience":["user"],"priority":0.5}},"#,
    r#"{"uri":"test://static/logo","name":"logo"}]"#
);
const TEMPLATES: &str =
    r#"[{"uriTemplate":"test://template/{id}/data","name":"data","mimeType":"application/json"}]"#;

#[test]
fn handshake_era() {
    let out = answers(
        server,
        &[
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"resources/templates/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"test://static/readme"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"test://static/logo"}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"test://template/a%2Fb/data"}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"test://nothing"}}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"test://template/missing/data"}}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"test://template/broken/data"}}"#,
            r#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"test://template/panics/data"}}"#,
            r#"{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":11,"method":"resources/list","params":{"cursor":"nope"}}"#,
        ],
    );
    assert_eq!(
        out[0],
        concat!(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":"#,
            r#"{"resources":{"listChanged":false},"tools":{"listChanged":false}},"#,
            r#""serverInfo":{"name":"res","version":"1"}}}"#
        )
    );
    assert_eq!(
        out[1],
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"resources":{RESOURCES}}}}}"#)
    );
    assert_eq!(
        out[2],
        format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"resourceTemplates":{TEMPLATES}}}}}"#)
    );
    assert_eq!(
        out[3],
        r#"{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"test://static/readme","mimeType":"text/plain","text":"hello"}]}}"#
    );
    assert_eq!(
        out[4],
        r#"{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"test://static/logo","blob":"AQID"}]}}"#
    );
    assert_eq!(
        out[5],
        r#"{"jsonrpc":"2.0","id":5,"result":{"contents":[{"uri":"test://template/a%2Fb/data","mimeType":"application/json","text":"{\"id\":\"a/b\"}"}]}}"#
    );
    assert_eq!(
        out[6],
        r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"test://nothing"}}}"#
    );
    assert_eq!(
        out[7],
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"test://template/missing/data"}}}"#
    );
    assert_eq!(
        out[8],
        r#"{"jsonrpc":"2.0","id":8,"error":{"code":-32603,"message":"the store is offline"}}"#
    );
    assert_eq!(
        out[9],
        r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"Internal error: the read of test://template/panics/data panicked"}}"#
    );
    assert!(
        out[10].starts_with(
            r#"{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params: "#
        ),
        "{}",
        out[10]
    );
    assert_eq!(
        out[11],
        r#"{"jsonrpc":"2.0","id":11,"error":{"code":-32602,"message":"Invalid params: the cursor \"nope\" is not one this server gave"}}"#
    );
}

#[test]
fn modern_era() {
    let lines = [
        modern(1, "server/discover", ""),
        modern(2, "resources/list", ""),
        modern(3, "resources/templates/list", ""),
        modern(4, "resources/read", r#""uri":"test://template/7/data""#),
        modern(5, "resources/read", r#""uri":"test://nothing""#),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = answers(server, &lines);
    assert_eq!(
        out[0],
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"supportedVersions":["2026-07-28"],"capabilities":"#,
                r#"{{"resources":{{"listChanged":false}},"tools":{{"listChanged":false}}}},{},{}}}}}"#
            ),
            HINTS, STAMP
        )
    );
    assert_eq!(
        out[1],
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resources":{RESOURCES},{HINTS},{STAMP}}}}}"#
        )
    );
    assert_eq!(
        out[2],
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"resourceTemplates":{TEMPLATES},{HINTS},{STAMP}}}}}"#
        )
    );
    assert_eq!(
        out[3],
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"result":{{"contents":[{{"uri":"test://template/7/data","mimeType":"application/json","text":"{{\"id\":\"7\"}}"}}],{HINTS},{STAMP}}}}}"#
        )
    );
    assert_eq!(
        out[4],
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"test://nothing"}}}"#
    );
}

#[test]
fn without_resources_the_methods_are_not_found() {
    let out = answers(
        || Server::new("none", "1"),
        &[
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://a"}}"#,
        ],
    );
    assert_eq!(
        out[0],
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false}},"serverInfo":{"name":"none","version":"1"}}}"#
    );
    assert_eq!(
        out[1],
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: resources/list"}}"#
    );
    assert_eq!(
        out[2],
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: resources/read"}}"#
    );
}

#[test]
fn uris_and_templates_are_checked() {
    let read = |r: &structio_rpc::mcp::ResourceRequest<'_>| {
        Ok::<_, ResourceError>(ResourceContents::text(r.uri(), ""))
    };
    let server = Server::new("s", "1")
        .resource("test://a", "a", ResourceOptions::new(), read)
        .resource("test://a", "again", ResourceOptions::new(), read)
        .resource("no scheme", "b", ResourceOptions::new(), read)
        .resource_template("test://{x}", "x", ResourceOptions::new(), read)
        .resource_template("test://{x}", "x again", ResourceOptions::new(), read)
        .resource_template("test://{+x}", "level 2", ResourceOptions::new(), read)
        .resource_template(
            "test://{x}{y}",
            "side by side",
            ResourceOptions::new(),
            read,
        );
    let kinds: Vec<_> = server
        .problems()
        .iter()
        .map(|p| (p.kind(), p.tool().to_owned()))
        .collect();
    assert_eq!(
        kinds,
        [
            (BuildErrorKind::DuplicateResourceUri, "test://a".to_owned()),
            (BuildErrorKind::InvalidResourceUri, "no scheme".to_owned()),
            (
                BuildErrorKind::DuplicateResourceTemplate,
                "test://{x}".to_owned()
            ),
            (
                BuildErrorKind::InvalidResourceTemplate,
                "test://{+x}".to_owned()
            ),
            (
                BuildErrorKind::InvalidResourceTemplate,
                "test://{x}{y}".to_owned()
            ),
        ]
    );
    assert_eq!(
        server.check().unwrap_err().kind(),
        BuildErrorKind::DuplicateResourceUri
    );
}

/// A server with five resources, three tools and two templates, paged by two.
fn paged() -> Server {
    #[derive(structio::Reflect)]
    struct Nothing {}
    let read = |r: &structio_rpc::mcp::ResourceRequest<'_>| {
        Ok::<_, ResourceError>(ResourceContents::text(r.uri(), ""))
    };
    let mut s = Server::new("res", "1").page_size(2);
    for i in 0..5 {
        s = s.resource(
            &format!("test://r/{i}"),
            &format!("r{i}"),
            ResourceOptions::new(),
            read,
        );
    }
    for i in 0..3 {
        s = s.tool(&format!("t{i}"), "T", |_: Nothing| Ok::<_, ToolError>("ok"));
    }
    s.resource_template("test://a/{x}", "a", ResourceOptions::new(), read)
        .resource_template("test://b/{x}", "b", ResourceOptions::new(), read)
}

#[test]
fn paging() {
    // The cursors: base64 of "resources/list:2", "resources/list:4", "tools/list:2".
    let r2 = "cmVzb3VyY2VzL2xpc3Q6Mg==";
    let r4 = "cmVzb3VyY2VzL2xpc3Q6NA==";
    let t2 = "dG9vbHMvbGlzdDoy";
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#.to_owned(),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{{"cursor":"{r2}"}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{{"cursor":"{r4}"}}}}"#
        ),
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#.to_owned(),
        format!(r#"{{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{{"cursor":"{t2}"}}}}"#),
        // A cursor of another list is refused.
        format!(r#"{{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{{"cursor":"{r2}"}}}}"#),
        r#"{"jsonrpc":"2.0","id":7,"method":"resources/templates/list"}"#.to_owned(),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = answers(paged, &lines);
    assert_eq!(
        out[0],
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resources":[{{"uri":"test://r/0","name":"r0"}},{{"uri":"test://r/1","name":"r1"}}],"nextCursor":"{r2}"}}}}"#
        )
    );
    assert_eq!(
        out[1],
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resources":[{{"uri":"test://r/2","name":"r2"}},{{"uri":"test://r/3","name":"r3"}}],"nextCursor":"{r4}"}}}}"#
        )
    );
    assert_eq!(
        out[2],
        r#"{"jsonrpc":"2.0","id":3,"result":{"resources":[{"uri":"test://r/4","name":"r4"}]}}"#
    );
    assert!(
        out[3].contains(r#"{"name":"t1","#)
            && !out[3].contains(r#"{"name":"t2","#)
            && out[3].ends_with(&format!(r#"}}}}],"nextCursor":"{t2}"}}}}"#)),
        "{}",
        out[3]
    );
    assert!(
        out[4].contains(r#""name":"t2""#) && !out[4].contains("nextCursor"),
        "{}",
        out[4]
    );
    assert_eq!(
        out[5],
        format!(
            r#"{{"jsonrpc":"2.0","id":6,"error":{{"code":-32602,"message":"Invalid params: the cursor \"{r2}\" is not one this server gave"}}}}"#
        )
    );
    assert_eq!(
        out[6],
        r#"{"jsonrpc":"2.0","id":7,"result":{"resourceTemplates":[{"uriTemplate":"test://a/{x}","name":"a"},{"uriTemplate":"test://b/{x}","name":"b"}]}}"#
    );
    // The modern era: the cursor before the cache hints.
    let line = modern(8, "resources/list", &format!(r#""cursor":"{r2}""#));
    let out = answers(paged, &[&line]);
    assert_eq!(
        out[0],
        format!(
            r#"{{"jsonrpc":"2.0","id":8,"result":{{"resources":[{{"uri":"test://r/2","name":"r2"}},{{"uri":"test://r/3","name":"r3"}}],"nextCursor":"{r4}",{HINTS},{STAMP}}}}}"#
        )
    );
}
