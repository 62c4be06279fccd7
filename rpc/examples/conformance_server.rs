//! The fixtures of the official MCP conformance suite's server scenarios
//! (npm `@modelcontextprotocol/conformance`, version 0.1.13), with the names, texts, URIs,
//! MIME types and payloads of the suite's reference server (its `everything-server`), for
//! the suite to be run against this crate's server.
//!
//! What is here is what the server can express today:
//!
//! - tools: `test_simple_text` (one text block), `test_image_content` (a 1x1 PNG),
//!   `test_audio_content` (a WAV header), `test_embedded_resource` (an embedded text
//!   resource), `test_multiple_content_types` (text, image and an embedded JSON resource),
//!   `test_error_handling` (a tool execution error, `isError: true`) and
//!   `json_schema_2020_12_tool` (an input schema with `$schema`, `$defs` and
//!   `additionalProperties`, listed as written);
//! - resources: `test://static-text`, `test://static-binary` (the PNG as a `blob`),
//!   `test://watched-resource`, and the template `test://template/{id}/data`;
//! - prompts: `test_simple_prompt`, `test_prompt_with_arguments` (`arg1`, `arg2`, whose
//!   `arg1` completes), `test_prompt_with_embedded_resource` (`resourceUri`) and
//!   `test_prompt_with_image`.
//!
//! With the feature `async`, the tools `test_tool_with_logging` (three `info` log messages,
//! 50 ms apart) and `test_tool_with_progress` (progress 0, 50 and 100 of 100, 50 ms apart),
//! which take a `Context`, so `logging/setLevel` is served too.
//!
//! With the feature `async` too, the tools that ask the client (requests from the server to
//! the client): `test_sampling` (`prompt`), `test_elicitation` (`message`),
//! `test_elicitation_sep1034_defaults` and `test_elicitation_sep1330_enums`.
//!
//! The scenarios' other fixtures need what the server does not have yet, and are left out
//! until it has it: `test_reconnection` (an SSE stream closed in the middle of a call).
//!
//! With the feature `async`, `resources/subscribe` and `resources/unsubscribe` are served
//! (`Server::subscriptions`), so `test://watched-resource` may be subscribed to (scenarios
//! resources-subscribe, resources-unsubscribe).
//!
//! The suite reaches a server over Streamable HTTP only: with `--http ADDR` (and the `http`
//! feature) the example serves the fixtures at `http://ADDR/mcp`, and `.ci/run` runs the
//! suite against it (baseline: `rpc/tests/conformance/expected-failures.yaml`).
//! `rpc/tests/mcp_features/conformance.rs` also sends the suite's requests to [`server`]
//! through `Server::handle_line` and checks the answers as the suite checks them.
//!
//! Run it over stdio: `cargo run --release -p structio-rpc --example conformance_server` (no
//! arguments), then write JSON-RPC messages to its stdin, one per line:
//!
//! ```text
//! {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}
//! {"jsonrpc":"2.0","method":"notifications/initialized"}
//! {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text"}}
//! ```
//!
//! Over HTTP: `cargo run --release -p structio-rpc --features http --example
//! conformance_server -- --http 127.0.0.1:PORT`, then
//! `npx @modelcontextprotocol/conformance@0.1.13 server --url http://127.0.0.1:PORT/mcp
//! --suite all`: all 32 server scenarios (without `--suite all`, the two the suite calls
//! pending, `json-schema-2020-12` and `server-sse-polling`, are skipped). It prints each
//! scenario's passed and failed checks and a `Total: N passed, M failed` line, and exits
//! with 1 when a check failed.

use structio_rpc::mcp::{
    Content, EmbeddedResource, PromptMessage, ResourceContents, ResourceError, ResourceOptions,
    Server, ToolError,
};

/// The reference server's image: a 1x1 PNG (one red pixel, RGBA), sent in base64 as
/// `iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==`.
pub const TEST_PNG: [u8; 70] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x05, 0x02, 0x00, 0x5f, 0xc8, 0xf1, 0xd2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// The reference server's audio: a WAV header (PCM, mono, 8000 Hz, 16 bits), sent in base64
/// as `UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=`. Its `data` chunk
/// announces 2 bytes and holds none, as the reference's does: the bytes are the reference's.
pub const TEST_WAV: [u8; 44] = [
    0x52, 0x49, 0x46, 0x46, 0x26, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20,
    0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x40, 0x1f, 0x00, 0x00, 0x00, 0x7d, 0x00, 0x00,
    0x02, 0x00, 0x10, 0x00, 0x64, 0x61, 0x74, 0x61, 0x02, 0x00, 0x00, 0x00,
];

/// The input schema of `json_schema_2020_12_tool`, as the suite's `json-schema-2020-12`
/// scenario expects it listed: `$schema` (the 2020-12 dialect), `$defs` with `address`, and
/// `additionalProperties: false`.
pub const JSON_SCHEMA_2020_12: &str = concat!(
    r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","#,
    r#""$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"#,
    r#""city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"#,
    r##""address":{"$ref":"#/$defs/address"}},"additionalProperties":false}"##
);

/// No arguments: an empty object (or no `arguments` at all).
#[derive(structio::Reflect)]
struct NoArguments {}

/// The arguments of `json_schema_2020_12_tool`, as its schema describes them.
#[derive(structio::Reflect)]
struct Person {
    #[structio(skip_if = "Option::is_none")]
    name: Option<String>,
    #[structio(skip_if = "Option::is_none")]
    address: Option<Address>,
}

/// The `address` of a [`Person`] (`#/$defs/address`).
#[derive(structio::Reflect)]
struct Address {
    #[structio(skip_if = "Option::is_none")]
    street: Option<String>,
    #[structio(skip_if = "Option::is_none")]
    city: Option<String>,
}

/// The arguments of `test_prompt_with_arguments`.
#[derive(structio::Reflect)]
struct TwoArguments {
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
}

/// The arguments of `test_prompt_with_embedded_resource`.
#[derive(structio::Reflect)]
struct EmbedArguments {
    /// URI of the resource to embed
    #[structio(rename = "resourceUri")]
    resource_uri: String,
}

/// What a read of `test://template/{id}/data` holds (as JSON, in this order).
#[derive(structio::Reflect)]
struct TemplateData<'a> {
    id: &'a str,
    #[structio(rename = "templateTest")]
    template_test: bool,
    data: String,
}

/// The server with every fixture above (and, with the feature `async`, the tools that send
/// notifications while they run).
pub fn server() -> Server {
    let server = fixtures();
    // The subscription scenarios subscribe to `test://watched-resource` (and unsubscribe).
    #[cfg(feature = "async")]
    let server = asking::tools(notifying::tools(server)).subscriptions(true);
    server
}

/// The tools that ask the client (scenarios tools-call-sampling, tools-call-elicitation,
/// elicitation-sep1034-defaults and elicitation-sep1330-enums): requests from the server to
/// the client, which need the `async` feature.
#[cfg(feature = "async")]
mod asking {
    use structio_rpc::mcp::{Context, Elicitation, SamplingRequest, Server, ToolError};

    use super::NoArguments;

    /// `test_sampling`'s argument.
    #[derive(structio::Reflect)]
    struct SamplingArguments {
        /// The prompt to send to the LLM
        prompt: String,
    }

    /// `test_elicitation`'s argument.
    #[derive(structio::Reflect)]
    struct ElicitationArguments {
        /// The message to show the user
        message: String,
    }

    /// `test_elicitation`'s `requestedSchema`.
    const USER_SCHEMA: &str = r#"{"type":"object","properties":{"username":{"type":"string","description":"User's response"},"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}"#;

    /// `test_elicitation_sep1034_defaults`'s: a default for every primitive type.
    const DEFAULTS_SCHEMA: &str = r#"{"type":"object","properties":{"name":{"type":"string","description":"User name","default":"John Doe"},"age":{"type":"integer","description":"User age","default":30},"score":{"type":"number","description":"User score","default":95.5},"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},"verified":{"type":"boolean","description":"Verification status","default":true}}}"#;

    /// `test_elicitation_sep1330_enums`'s: the five forms of enum.
    const ENUMS_SCHEMA: &str = r#"{"type":"object","properties":{"untitledSingle":{"type":"string","description":"Untitled single-select","enum":["option1","option2","option3"]},"titledSingle":{"type":"string","description":"Titled single-select","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},"legacyEnum":{"type":"string","description":"Legacy titled enum","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},"untitledMulti":{"type":"array","description":"Untitled multi-select","items":{"type":"string","enum":["option1","option2","option3"]}},"titledMulti":{"type":"array","description":"Titled multi-select","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}"#;

    /// `action=..., content=...` of an answer to `elicitation/create`.
    fn describe(answer: &Elicitation<structio::Value>) -> String {
        match answer {
            Elicitation::Accept(content) => {
                format!("action=accept, content={}", structio::to_json(content))
            }
            Elicitation::Decline => "action=decline, content={}".to_owned(),
            Elicitation::Cancel => "action=cancel, content={}".to_owned(),
        }
    }

    /// `server` with `test_sampling`, `test_elicitation`, `test_elicitation_sep1034_defaults`
    /// and `test_elicitation_sep1330_enums`.
    pub fn tools(server: Server) -> Server {
        server
            .tool(
                "test_sampling",
                "Tests server-initiated sampling (LLM completion request)",
                |ctx: Context, args: SamplingArguments| async move {
                    let answer = ctx
                        .sample(&SamplingRequest::new(100).user(args.prompt))
                        .await?;
                    Ok::<_, ToolError>(format!(
                        "LLM response: {}",
                        answer.text().unwrap_or_default()
                    ))
                },
            )
            .tool(
                "test_elicitation",
                "Tests server-initiated elicitation (user input request)",
                |ctx: Context, args: ElicitationArguments| async move {
                    let answer = ctx.elicit_with_schema(&args.message, USER_SCHEMA).await?;
                    Ok::<_, ToolError>(format!("User response: {}", describe(&answer)))
                },
            )
            .tool(
                "test_elicitation_sep1034_defaults",
                "Tests elicitation with default values per SEP-1034",
                |ctx: Context, _: NoArguments| async move {
                    let answer = ctx
                        .elicit_with_schema(
                            "Please review and update the form fields with defaults",
                            DEFAULTS_SCHEMA,
                        )
                        .await?;
                    Ok::<_, ToolError>(format!("Elicitation completed: {}", describe(&answer)))
                },
            )
            .tool(
                "test_elicitation_sep1330_enums",
                "Tests elicitation with enum schema improvements per SEP-1330",
                |ctx: Context, _: NoArguments| async move {
                    let answer = ctx
                        .elicit_with_schema(
                            "Please select options from the enum fields",
                            ENUMS_SCHEMA,
                        )
                        .await?;
                    Ok::<_, ToolError>(format!("Elicitation completed: {}", describe(&answer)))
                },
            )
    }
}

/// The tools that send notifications while they run (scenarios tools-call-with-logging,
/// tools-call-with-progress and, as a tool takes a `Context`, logging-set-level): they need
/// the `async` feature.
#[cfg(feature = "async")]
mod notifying {
    use std::time::Duration;

    use structio_rpc::mcp::{Context, LogLevel, Server, ToolError};

    use super::NoArguments;

    /// The reference server's pause between two notifications.
    const PAUSE: Duration = Duration::from_millis(50);

    /// `server` with `test_tool_with_logging` and `test_tool_with_progress`.
    pub fn tools(server: Server) -> Server {
        server
            .tool(
                "test_tool_with_logging",
                "Tests tool that emits log messages during execution",
                |ctx: Context, _: NoArguments| async move {
                    ctx.log(LogLevel::Info, "Tool execution started");
                    tokio::time::sleep(PAUSE).await;
                    ctx.log(LogLevel::Info, "Tool processing data");
                    tokio::time::sleep(PAUSE).await;
                    ctx.log(LogLevel::Info, "Tool execution completed");
                    Ok::<_, ToolError>("Tool with logging executed successfully")
                },
            )
            .tool(
                "test_tool_with_progress",
                "Tests tool that reports progress notifications",
                |ctx: Context, _: NoArguments| async move {
                    for done in [0u32, 50, 100] {
                        if done > 0 {
                            tokio::time::sleep(PAUSE).await;
                        }
                        ctx.progress(done, Some(100.0), None);
                    }
                    Ok::<_, ToolError>("Tool with progress executed successfully")
                },
            )
    }
}

/// The fixtures the sync API expresses.
fn fixtures() -> Server {
    Server::new("structio-conformance-server", env!("CARGO_PKG_VERSION"))
        // Tools (scenarios tools-list, tools-call-*, json-schema-2020-12).
        .tool(
            "test_simple_text",
            "Tests simple text content response",
            |_: NoArguments| Ok::<_, ToolError>("This is a simple text response for testing."),
        )
        .tool(
            "test_image_content",
            "Tests image content response",
            |_: NoArguments| Ok::<_, ToolError>(Content::image(TEST_PNG, "image/png")),
        )
        .tool(
            "test_audio_content",
            "Tests audio content response",
            |_: NoArguments| Ok::<_, ToolError>(Content::audio(TEST_WAV, "audio/wav")),
        )
        .tool(
            "test_embedded_resource",
            "Tests embedded resource content response",
            |_: NoArguments| {
                Ok::<_, ToolError>(Content::embedded(
                    EmbeddedResource::text(
                        "test://embedded-resource",
                        "This is an embedded resource content.",
                    )
                    .mime_type("text/plain"),
                ))
            },
        )
        .tool(
            "test_multiple_content_types",
            "Tests response with multiple content types (text, image, resource)",
            |_: NoArguments| {
                Ok::<_, ToolError>(vec![
                    Content::text("Multiple content types test:"),
                    Content::image(TEST_PNG, "image/png"),
                    Content::embedded(
                        EmbeddedResource::text(
                            "test://mixed-content-resource",
                            r#"{"test":"data","value":123}"#,
                        )
                        .mime_type("application/json"),
                    ),
                ])
            },
        )
        .tool(
            "test_error_handling",
            "Tests error response handling",
            |_: NoArguments| {
                Err::<&'static str, _>(ToolError::new(
                    "This tool intentionally returns an error for testing",
                ))
            },
        )
        .tool_with_schema(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
            JSON_SCHEMA_2020_12,
            None,
            |p: Person| {
                Ok::<_, ToolError>(format!(
                    "JSON Schema 2020-12 tool called with: {}",
                    structio::to_json(&p)
                ))
            },
        )
        // Resources (scenarios resources-*).
        .resource(
            "test://static-text",
            "static-text",
            ResourceOptions::new()
                .title("Static Text Resource")
                .description("A static text resource for testing")
                .mime_type("text/plain"),
            |r| {
                Ok::<_, ResourceError>(ResourceContents::text(
                    r.uri(),
                    "This is the content of the static text resource.",
                ))
            },
        )
        .resource(
            "test://static-binary",
            "static-binary",
            ResourceOptions::new()
                .title("Static Binary Resource")
                .description("A static binary resource (image) for testing")
                .mime_type("image/png"),
            |r| Ok::<_, ResourceError>(ResourceContents::blob(r.uri(), TEST_PNG)),
        )
        .resource(
            "test://watched-resource",
            "watched-resource",
            ResourceOptions::new()
                .title("Watched Resource")
                .description("The resource the subscription scenarios subscribe to")
                .mime_type("text/plain"),
            |r| Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "Watched resource content")),
        )
        .resource_template(
            "test://template/{id}/data",
            "template",
            ResourceOptions::new()
                .title("Resource Template")
                .description("A resource template with parameter substitution")
                .mime_type("application/json"),
            |r| {
                let id = r.variable("id").unwrap_or_default();
                let data = TemplateData {
                    id,
                    template_test: true,
                    data: format!("Data for ID: {id}"),
                };
                Ok::<_, ResourceError>(ResourceContents::text(r.uri(), structio::to_json(&data)))
            },
        )
        // Prompts and completion (scenarios prompts-*, completion-complete).
        .prompt(
            "test_simple_prompt",
            "A simple prompt without arguments",
            |_: NoArguments| {
                Ok::<_, ToolError>(vec![PromptMessage::user(
                    "This is a simple prompt for testing.",
                )])
            },
        )
        .prompt(
            "test_prompt_with_arguments",
            "A prompt with required arguments",
            |a: TwoArguments| {
                Ok::<_, ToolError>(vec![PromptMessage::user(format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    a.arg1, a.arg2
                ))])
            },
        )
        .prompt(
            "test_prompt_with_embedded_resource",
            "A prompt that includes an embedded resource",
            |a: EmbedArguments| {
                Ok::<_, ToolError>(vec![
                    PromptMessage::user(Content::embedded(
                        EmbeddedResource::text(
                            a.resource_uri,
                            "Embedded resource content for testing.",
                        )
                        .mime_type("text/plain"),
                    )),
                    PromptMessage::user("Please process the embedded resource above."),
                ])
            },
        )
        .prompt(
            "test_prompt_with_image",
            "A prompt that includes image content",
            |_: NoArguments| {
                Ok::<_, ToolError>(vec![
                    PromptMessage::user(Content::image(TEST_PNG, "image/png")),
                    PromptMessage::user("Please analyze the image above."),
                ])
            },
        )
        .complete_prompt_argument("test_prompt_with_arguments", "arg1", |r| {
            // The values of the suite's description of completion; the scenario sends
            // "test", which completes to none (as the reference server answers).
            ["paris", "park", "party"]
                .iter()
                .filter(|v| v.starts_with(r.value()))
                .map(|v| v.to_string())
                .collect()
        })
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => server().serve_stdio(),
        [flag, addr] if flag == "--http" => serve_http(addr),
        _ => {
            eprintln!(
                "usage: conformance_server [--http ADDR]: serves MCP over stdin and stdout, or \
                 with --http over Streamable HTTP at http://ADDR/mcp (feature `http`); got \
                 {args:?}"
            );
            std::process::exit(2);
        }
    }
}

/// `--http ADDR`: the fixtures at `http://ADDR/mcp`, until the process is ended.
#[cfg(feature = "http")]
fn serve_http(addr: &str) -> std::io::Result<()> {
    eprintln!("conformance_server: serving http://{addr}/mcp");
    server().serve_http(addr)
}

/// `--http ADDR` without the `http` feature: refused.
#[cfg(not(feature = "http"))]
fn serve_http(_: &str) -> std::io::Result<()> {
    eprintln!("conformance_server: --http needs the `http` feature (--features http)");
    std::process::exit(2);
}
