//! Prompts (`prompts/list`, `prompts/get`) and completions (`completion/complete`) in both
//! eras, with the exact JSON of each answer (MCP revisions 2025-11-25 and 2026-07-28).

use structio_rpc::mcp::{
    BuildErrorKind, Content, EmbeddedResource, PromptMessage, ResourceContents, ResourceError,
    ResourceOptions, Server, ToolError,
};

/// The arguments of the `review` prompt.
#[derive(structio::Reflect)]
struct Review {
    /// The code to review
    code: String,
    /// The language it is in
    language: Option<String>,
}

/// A server with two prompts, a template and completions of each.
fn server() -> Server {
    #[derive(structio::Reflect)]
    struct Nothing {}
    Server::new("p", "1")
        .prompt("review", "Asks for a review", |a: Review| {
            if a.code == "fail" {
                return Err(ToolError::invalid("$.code", "must not be fail"));
            }
            if a.code == "panic" {
                panic!("a prompt that panics");
            }
            let language = a.language.unwrap_or_else(|| "code".to_owned());
            Ok(vec![
                PromptMessage::user(format!("Review this {language}:")),
                PromptMessage::user(Content::embedded(
                    EmbeddedResource::text("test://code", a.code).mime_type("text/plain"),
                )),
                PromptMessage::assistant("Sure."),
            ])
        })
        .prompt("plain", "No arguments", |_: Nothing| {
            Ok::<_, ToolError>(vec![PromptMessage::user(Content::image(
                [1, 2],
                "image/png",
            ))])
        })
        .resource_template(
            "test://items/{kind}/{id}",
            "item",
            ResourceOptions::new(),
            |r| Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "")),
        )
        .complete_prompt_argument("review", "language", |r| {
            ["python", "perl", "rust"]
                .iter()
                .filter(|l| l.starts_with(r.value()))
                .map(|l| l.to_string())
                .collect()
        })
        .complete_template_variable("test://items/{kind}/{id}", "id", |r| {
            let kind = r.argument("kind").unwrap_or("none");
            (0..150)
                .map(|i| format!("{kind}-{i}"))
                .filter(|v| v.starts_with(r.value()))
                .collect()
        })
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
const STAMP: &str = r#""resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"p","version":"1"}}"#;
const HINTS: &str = r#""ttlMs":0,"cacheScope":"private""#;

/// A modern request of `method` with `params` members (before `_meta`).
fn modern(id: u32, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{META}}}}}"#)
}

const PROMPTS: &str = concat!(
    r#"[{"name":"review","description":"Asks for a review","arguments":["#,
    r#"{"name":"code","description":"The code to review","required":true},"#,
    r#"{"name":"language","description":"The language it is in","required":false}]},"#,
    r#"{"name":"plain","description":"No arguments"}]"#
);
const REVIEW: &str = concat!(
    r#"{"description":"Asks for a review","messages":["#,
    r#"{"role":"user","content":{"type":"text","text":"Review this rust:"}},"#,
    r#"{"role":"user","content":{"type":"resource","resource":{"uri":"test://code","mimeType":"text/plain","text":"fn main() {}"}}},"#,
    r#"{"role":"assistant","content":{"type":"text","text":"Sure."}}]"#
);

#[test]
fn handshake_era() {
    let out = answers(
        server,
        &[
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"review","arguments":{"code":"fn main() {}","language":"rust"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"plain"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"review","arguments":{"language":"rust"}}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"nope"}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"review","arguments":{"code":"fail"}}}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"review","arguments":{"code":"panic"}}}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"p"}}}"#,
            r#"{"jsonrpc":"2.0","id":9,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"code","value":""}}}"#,
            r#"{"jsonrpc":"2.0","id":10,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"test://items/{kind}/{id}"},"argument":{"name":"id","value":"book-1"},"context":{"arguments":{"kind":"book"}}}}"#,
            r#"{"jsonrpc":"2.0","id":11,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"test://items/{kind}/{id}"},"argument":{"name":"id","value":""}}}"#,
            r#"{"jsonrpc":"2.0","id":12,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}}"#,
            r#"{"jsonrpc":"2.0","id":13,"method":"completion/complete","params":{"ref":{"type":"ref/other"},"argument":{"name":"x","value":""}}}"#,
        ],
    );
    assert_eq!(
        out[0],
        concat!(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":"#,
            r#"{"completions":{},"prompts":{"listChanged":false},"resources":{"listChanged":false},"tools":{"listChanged":false}},"#,
            r#""serverInfo":{"name":"p","version":"1"}}}"#
        )
    );
    assert_eq!(
        out[1],
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"prompts":{PROMPTS}}}}}"#)
    );
    assert_eq!(
        out[2],
        format!(r#"{{"jsonrpc":"2.0","id":2,"result":{REVIEW}}}}}"#)
    );
    assert_eq!(
        out[3],
        r#"{"jsonrpc":"2.0","id":3,"result":{"description":"No arguments","messages":[{"role":"user","content":{"type":"image","data":"AQI=","mimeType":"image/png"}}]}}"#
    );
    assert!(
        out[4].starts_with(r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: invalid arguments for prompt `review`:\n$"#),
        "{}",
        out[4]
    );
    assert!(out[4].contains("code"), "{}", out[4]);
    assert_eq!(
        out[5],
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params: Unknown prompt: nope"}}"#
    );
    assert_eq!(
        out[6],
        r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: invalid arguments:\n$.code: must not be fail"}}"#
    );
    assert_eq!(
        out[7],
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: prompt `review` panicked"}}"#
    );
    assert_eq!(
        out[8],
        r#"{"jsonrpc":"2.0","id":8,"result":{"completion":{"values":["python","perl"],"total":2,"hasMore":false}}}"#
    );
    assert_eq!(
        out[9],
        r#"{"jsonrpc":"2.0","id":9,"result":{"completion":{"values":[],"total":0,"hasMore":false}}}"#
    );
    let ten: Vec<String> = std::iter::once("book-1".to_owned())
        .chain((10..20).map(|i| format!("book-{i}")))
        .chain((100..150).map(|i| format!("book-{i}")))
        .map(|v| format!("\"{v}\""))
        .collect();
    assert_eq!(
        out[10],
        format!(
            r#"{{"jsonrpc":"2.0","id":10,"result":{{"completion":{{"values":[{}],"total":61,"hasMore":false}}}}}}"#,
            ten.join(",")
        )
    );
    assert!(
        out[11].contains(r#""none-99"],"total":150,"hasMore":true}}}"#),
        "{}",
        out[11]
    );
    assert_eq!(
        out[12],
        r#"{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"Invalid params: Unknown prompt: nope"}}"#
    );
    assert!(
        out[13].starts_with(r#"{"jsonrpc":"2.0","id":13,"error":{"code":-32602,"#),
        "{}",
        out[13]
    );
}

#[test]
fn modern_era() {
    let lines = [
        modern(1, "server/discover", ""),
        modern(2, "prompts/list", ""),
        modern(
            3,
            "prompts/get",
            r#""name":"review","arguments":{"code":"fn main() {}","language":"rust"}"#,
        ),
        modern(
            4,
            "completion/complete",
            r#""ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"r"}"#,
        ),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = answers(server, &lines);
    assert_eq!(
        out[0],
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"supportedVersions":["2026-07-28"],"capabilities":"#,
                r#"{{"completions":{{}},"prompts":{{"listChanged":false}},"resources":{{"listChanged":false}},"tools":{{"listChanged":false}}}},{},{}}}}}"#
            ),
            HINTS, STAMP
        )
    );
    assert_eq!(
        out[1],
        format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"prompts":{PROMPTS},{HINTS},{STAMP}}}}}"#)
    );
    assert_eq!(
        out[2],
        format!(r#"{{"jsonrpc":"2.0","id":3,"result":{REVIEW},{STAMP}}}}}"#)
    );
    assert_eq!(
        out[3],
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"result":{{"completion":{{"values":["rust"],"total":1,"hasMore":false}},{STAMP}}}}}"#
        )
    );
}

#[test]
fn prompts_and_completions_are_checked() {
    let get = |_: Review| Ok::<_, ToolError>(Vec::new());
    let server = Server::new("s", "1")
        .prompt("review", "R", get)
        .prompt("review", "again", get)
        .prompt("", "empty", get)
        .complete_prompt_argument("review", "nope", |_| Vec::new())
        .complete_prompt_argument("missing", "code", |_| Vec::new())
        .complete_template_variable("test://{x}", "x", |_| Vec::new());
    let kinds: Vec<_> = server.problems().iter().map(|p| p.kind()).collect();
    assert_eq!(
        kinds,
        [
            BuildErrorKind::DuplicatePromptName,
            BuildErrorKind::InvalidPromptName,
            BuildErrorKind::UnknownCompletionTarget,
            BuildErrorKind::UnknownCompletionTarget,
            BuildErrorKind::UnknownCompletionTarget,
        ]
    );
    // Without completions, completion/complete is not a method of the server.
    let out = answers(
        || Server::new("s", "1").prompt("review", "R", get),
        &[
            r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"code","value":""}}}"#,
        ],
    );
    assert_eq!(
        out[0],
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: completion/complete"}}"#
    );
}

#[test]
fn prompts_are_paged() {
    #[derive(structio::Reflect)]
    struct Nothing {}
    let make = || {
        (0..3).fold(Server::new("s", "1").page_size(2), |s, i| {
            s.prompt(&format!("p{i}"), "P", |_: Nothing| {
                Ok::<_, ToolError>(Vec::new())
            })
        })
    };
    // base64 of "prompts/list:2"
    let out = answers(
        make,
        &[
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"prompts/list","params":{"cursor":"cHJvbXB0cy9saXN0OjI="}}"#,
        ],
    );
    assert_eq!(
        out[0],
        r#"{"jsonrpc":"2.0","id":1,"result":{"prompts":[{"name":"p0","description":"P"},{"name":"p1","description":"P"}],"nextCursor":"cHJvbXB0cy9saXN0OjI="}}"#
    );
    assert_eq!(
        out[1],
        r#"{"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"p2","description":"P"}]}}"#
    );
}
