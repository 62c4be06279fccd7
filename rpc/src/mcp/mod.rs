//! An MCP (Model Context Protocol) tool server over stdio: `initialize` with protocol version
//! negotiation, `ping`, `tools/list` (the catalog written once), `tools/call` with typed
//! arguments, notifications, and a clean exit at the end of input.
//!
//! ```
//! use structio_rpc::mcp::{Server, ToolError};
//!
//! #[derive(structio::Reflect)]
//! struct Add { left: i32, right: i32 }
//! #[derive(structio::Reflect)]
//! struct Sum { result: i32 }
//!
//! let mut server = Server::new("calc", "1.0.0").tool("add", "Adds two integers", |a: Add| {
//!     a.left.checked_add(a.right).map(|result| Sum { result }).ok_or_else(|| ToolError::new("overflow"))
//! });
//! let mut out = Vec::new();
//! server.handle_line(
//!     br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":3}}}"#,
//!     &mut out,
//! );
//! assert_eq!(
//!     std::str::from_utf8(&out).unwrap(),
//!     concat!(
//!         r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"result\":5}"}],"#,
//!         r#""structuredContent":{"result":5},"isError":false}}"#,
//!         "\n"
//!     )
//! );
//! ```
//!
//! The transport ([`Server::serve_stdio`]) reads one JSON-RPC message per line (a line longer
//! than [`Server::max_line`] is read through without being kept, and answered with an error),
//! writes only response frames to stdout, and returns when the input ends.

#![forbid(unsafe_code)]

mod stdio;
mod tool;

use std::borrow::Cow;

use structio::json::Options;
use structio::{RawJson, ReadOptions, UnknownKeys};

use crate::dispatch::{dispatch, Fault, Limits};
use crate::response::write_raw_result;
use crate::{code, ErrorObject, Id, Request};
pub use tool::ToolError;
use tool::{CallError, Tool};

/// The protocol revisions this server negotiates through `initialize`, newest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The newest protocol revision this server speaks, offered to a client that asks for one it
/// does not know.
pub const LATEST_PROTOCOL_VERSION: &str = PROTOCOL_VERSIONS[0];

/// The default bound on one input line, in bytes (4 MiB).
pub const DEFAULT_MAX_LINE: usize = 4 << 20;

/// An MCP server offering tools, built from typed functions (see the [module](self) example).
pub struct Server {
    name: String,
    version: String,
    instructions: Option<String>,
    tools: Vec<Tool>,
    limits: Limits,
    max_line: usize,
    /// The `tools/list` result, written when first needed after the last change to the tools.
    catalog: Option<Vec<u8>>,
    /// A tool's result, as JSON.
    scratch: Vec<u8>,
    /// The revision agreed in `initialize`, if it has been.
    protocol: Option<&'static str>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.name)
            .field("version", &self.version)
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .field("max_line", &self.max_line)
            .field("protocol", &self.protocol)
            .finish()
    }
}

impl Server {
    /// A server named `name` at `version` (its `serverInfo`), with no tools yet.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Server {
        Server {
            name: name.into(),
            version: version.into(),
            instructions: None,
            tools: Vec::new(),
            limits: Limits::default(),
            max_line: DEFAULT_MAX_LINE,
            catalog: None,
            scratch: Vec::new(),
            protocol: None,
        }
    }

    /// Instructions for the client, sent in the `initialize` result.
    pub fn instructions(mut self, text: impl Into<String>) -> Server {
        self.instructions = Some(text.into());
        self
    }

    /// The bound on one input line in bytes (default [`DEFAULT_MAX_LINE`]). A longer line is
    /// read through without being kept and answered with a `-32600` error; memory stays
    /// bounded by it.
    pub fn max_line(mut self, bytes: usize) -> Server {
        self.max_line = bytes.max(1);
        self
    }

    /// The most requests accepted in one JSON-RPC batch (default 1024).
    pub fn max_batch(mut self, requests: usize) -> Server {
        self.limits.max_batch = requests;
        self
    }

    /// Adds a tool: `call` takes the arguments as an `A` (read from the call's `arguments`
    /// object; a call without arguments reads `{}`) and returns an `R` or a [`ToolError`].
    ///
    /// The arguments are read with the trusted reader, and arguments it refuses again with the
    /// boundary parser ([`structio::json::parse`], which accepts exactly the same, with the
    /// same value, and names every problem); both check the constraints declared on `A`'s
    /// members. Arguments that fit take no allocation. Arguments that do not fit `A` (a
    /// missing or unknown member, a wrong type, a number out of range, a broken constraint)
    /// are a tool execution error, as the MCP specification prescribes (revision 2025-11-25):
    /// a result with `isError: true` whose text names every offending member by its path
    /// (`$.left`), one a line, so that the model can correct the call; the tool is not called.
    /// A [`ToolError`] returned by `call` is reported the same way.
    ///
    /// The result's `structuredContent` is `R` written as JSON (an `R` that is not written as
    /// an object is wrapped as `{"result": value}`, since structured content is an object),
    /// and its text content is the same bytes as a string.
    ///
    /// The catalog entry's `inputSchema` is `A`'s JSON Schema and its `outputSchema` `R`'s
    /// ([`structio::json_schema`], draft 2020-12, constraints included; for an `R` that is
    /// not an object, the schema of `{"result": value}`), so a client can check calls and
    /// results against them.
    pub fn tool<A, R, F>(self, name: &str, description: &str, call: F) -> Server
    where
        A: structio::ReflectOwned + structio::JsonSchema + 'static,
        R: structio::ReflectOwned + structio::JsonSchema + 'static,
        F: Fn(A) -> Result<R, ToolError> + 'static,
    {
        let input = structio::to_json(&structio::json_schema::<A>());
        let output = structio::to_json(&object_schema(structio::json_schema::<R>()));
        self.tool_with_schema(name, description, &input, Some(&output), call)
    }

    /// [`Server::tool`] with the tool's JSON Schemas given as JSON text: `input_schema` for the
    /// arguments, and `output_schema` for the structured result, if any (a client checks
    /// results against it). Panics if a schema is not one well-formed JSON value.
    pub fn tool_with_schema<A, R, F>(
        mut self,
        name: &str,
        description: &str,
        input_schema: &str,
        output_schema: Option<&str>,
        call: F,
    ) -> Server
    where
        A: structio::ReflectOwned + 'static,
        R: structio::ReflectOwned + 'static,
        F: Fn(A) -> Result<R, ToolError> + 'static,
    {
        for s in std::iter::once(input_schema).chain(output_schema) {
            if let Err(e) = structio::json::validate(s.as_bytes()) {
                panic!("the schema of tool `{name}` is not JSON: {e}");
            }
        }
        self.tools.push(Tool::new(
            name,
            description,
            input_schema.to_owned(),
            output_schema.map(str::to_owned),
            call,
        ));
        self.catalog = None;
        self
    }

    /// The names of the tools, in the order they were added.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    /// The protocol revision agreed in `initialize`, once it has been.
    pub fn protocol_version(&self) -> Option<&'static str> {
        self.protocol
    }

    /// Handles one line (one JSON-RPC message, without its line break) and appends the
    /// response, followed by a line break, to `out`; nothing for a notification. Any input is
    /// answered as the JSON-RPC specification prescribes (see [`crate::dispatch`]); nothing
    /// panics. Returns whether a response was written.
    pub fn handle_line(&mut self, line: &[u8], out: &mut Vec<u8>) -> bool {
        self.answer(line, out, true)
    }

    /// [`Server::handle_line`] with every message read the general way: the deferred envelope
    /// ([`Request`] with `params` kept as text, read again by the method), never the one-pass
    /// routing. It gives the same answers, byte for byte, more slowly; tests and the fuzz
    /// target compare the two.
    pub fn handle_line_deferred(&mut self, line: &[u8], out: &mut Vec<u8>) -> bool {
        self.answer(line, out, false)
    }

    /// [`Server::handle_line`] (`route`: the usual messages in one pass, see
    /// [`Server::routed`]) or [`Server::handle_line_deferred`].
    #[inline(always)]
    fn answer(&mut self, line: &[u8], out: &mut Vec<u8>, route: bool) -> bool {
        if self.catalog.is_none() {
            self.catalog = Some(self.write_catalog());
        }
        let start = out.len();
        if !(route && self.routed(line, out)) {
            let limits = self.limits;
            dispatch(line, out, &limits, |req, out| self.request(req, out));
        }
        let wrote = out.len() > start;
        if wrote {
            out.push(b'\n');
        }
        wrote
    }

    /// The usual message answered in one pass: the envelope read with the members of `params`
    /// the server routes on ([`Routed`]), so that `params` is walked once, not once as text and
    /// again for its members. Returns `false`, having written nothing, for anything else (a
    /// batch, a message that does not read this way, a method this path does not take, a
    /// member a method needs left out): [`dispatch`] then reads it the general way, which
    /// gives the same answer, and the error the specification prescribes for bad input.
    #[inline]
    fn routed(&mut self, line: &[u8], out: &mut Vec<u8>) -> bool {
        let Ok(req) = structio::json::from_json_with::<Request<'_, Routed<'_>>>(line, &skip())
        else {
            return false;
        };
        let Some(id) = &req.id else {
            // A notification: never answered (see `request`).
            return true;
        };
        let params = req.params.as_ref();
        let mark = out.len();
        let res = match req.method.as_ref() {
            "tools/call" => match params.and_then(|p| p.name.as_deref()) {
                Some(name) => self.call(id, name, params.and_then(|p| p.arguments), out),
                None => return false,
            },
            "ping" | "tools/list" => {
                self.request(&Request::new(id.borrowed(), req.method.as_ref(), None), out)
            }
            "initialize" => match params.and_then(|p| p.protocol_version.as_deref()) {
                Some(version) => self.initialize(id, version, out),
                None => return false,
            },
            _ => return false,
        };
        if let Err(fault) = res {
            out.truncate(mark);
            crate::write_error(out, id, &fault);
        }
        true
    }

    /// The response to a line longer than [`Server::max_line`] (with its line break).
    #[cold]
    pub(crate) fn too_long(&self, out: &mut Vec<u8>) {
        let fault: Fault = ErrorObject::new(
            code::INVALID_REQUEST,
            format!(
                "Invalid Request: a message longer than {} bytes",
                self.max_line
            ),
        );
        crate::write_error(out, &Id::Null, &fault);
        out.push(b'\n');
    }

    /// One request or notification.
    #[inline]
    fn request(&mut self, req: &Request<'_>, out: &mut Vec<u8>) -> Result<(), Fault> {
        let Some(id) = &req.id else {
            // Notifications (`notifications/initialized`, `notifications/cancelled`, ...) need
            // no answer; the server keeps no state that they change.
            return Ok(());
        };
        match req.method.as_ref() {
            "tools/call" => {
                let params: CallParams = read_params(req.params)?;
                self.call(id, &params.name, params.arguments, out)
            }
            "ping" => {
                write_raw_result(out, id, b"{}");
                Ok(())
            }
            "tools/list" => {
                let catalog = self.catalog.get_or_insert_with(Vec::new);
                write_raw_result(out, id, catalog);
                Ok(())
            }
            "initialize" => {
                let params: InitializeParams = read_params(req.params)?;
                self.initialize(id, &params.protocol_version, out)
            }
            m => Err(ErrorObject::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: {}", clip(m)),
            )),
        }
    }

    /// `initialize`, the client asking for revision `asked`: the client's revision if this
    /// server speaks it, else the newest.
    #[cold]
    fn initialize(&mut self, id: &Id<'_>, asked: &str, out: &mut Vec<u8>) -> Result<(), Fault> {
        let version = PROTOCOL_VERSIONS
            .iter()
            .copied()
            .find(|v| *v == asked)
            .unwrap_or(LATEST_PROTOCOL_VERSION);
        self.protocol = Some(version);
        let result = InitializeResult {
            protocol_version: version,
            capabilities: Capabilities {
                tools: ToolsCapability {
                    list_changed: false,
                },
            },
            server_info: Implementation {
                name: &self.name,
                version: &self.version,
            },
            instructions: self.instructions.as_deref(),
        };
        crate::write_result(out, id, &result);
        Ok(())
    }

    /// `tools/call` of the tool `name` with `arguments` (`{}` when there are none).
    #[inline]
    fn call(
        &mut self,
        id: &Id<'_>,
        name: &str,
        arguments: Option<RawJson<'_>>,
        out: &mut Vec<u8>,
    ) -> Result<(), Fault> {
        let Some(tool) = self.tools.iter().find(|t| t.name == name) else {
            return Err(ErrorObject::new(
                code::INVALID_PARAMS,
                format!("Unknown tool: {}", clip(name)),
            ));
        };
        let args = arguments.map_or("{}", |a| a.get());
        let scratch = &mut self.scratch;
        scratch.clear();
        // A tool that panics is answered with an internal error; the server keeps serving.
        let called =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (tool.call)(args, scratch)));
        let Ok(called) = called else {
            return Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                format!("Internal error: tool `{}` panicked", tool.name),
            ));
        };
        match called {
            Ok(()) => {
                if scratch.first() != Some(&b'{') {
                    scratch.splice(0..0, br#"{"result":"#.iter().copied());
                    scratch.push(b'}');
                }
                out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
                structio::write_json(id, out);
                out.extend_from_slice(br#","result":{"content":[{"type":"text","text":"#);
                // structio writes UTF-8 only; the check is a formality on a short result.
                let text = std::str::from_utf8(scratch).unwrap_or("");
                structio::write_json(&text, out);
                out.extend_from_slice(br#"}],"structuredContent":"#);
                out.extend_from_slice(scratch);
                out.extend_from_slice(br#","isError":false}}"#);
            }
            Err(e) => {
                let text = match e {
                    CallError::Arguments(e) => tool::arguments_message(&tool.name, &e),
                    CallError::Tool(e) => e.to_string(),
                };
                let result = ErrorResult {
                    content: [TextContent {
                        kind: "text",
                        text: &text,
                    }],
                    is_error: true,
                };
                crate::write_result(out, id, &result);
            }
        }
        Ok(())
    }

    /// The `tools/list` result.
    fn write_catalog(&self) -> Vec<u8> {
        let list = ToolList {
            tools: self
                .tools
                .iter()
                .map(|t| ToolEntry {
                    name: &t.name,
                    description: &t.description,
                    input_schema: RawJson::new(&t.input_schema).unwrap_or_default(),
                    output_schema: t
                        .output_schema
                        .as_deref()
                        .and_then(|s| RawJson::new(s).ok()),
                })
                .collect(),
        };
        let mut out = Vec::new();
        structio::write_json(&list, &mut out);
        out
    }
}

/// `schema` as the schema of an object: itself when it describes objects, else the schema of
/// `{"result": value}` (how a result that is not an object is sent as structured content).
fn object_schema(schema: structio::Value) -> structio::Value {
    use structio::{Map, Value};
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        return schema;
    }
    let mut inner = schema;
    let mut root = Map::new();
    if let Value::Object(m) = &mut inner {
        for key in ["$schema", "$defs"] {
            if let Some(v) = m.remove(key) {
                root.insert(key, v);
            }
        }
    }
    root.insert("type", Value::from("object"));
    root.insert("properties", Value::from_iter([("result", inner)]));
    root.insert("required", Value::from(vec!["result"]));
    Value::Object(root)
}

/// At most 64 bytes of a name a client sent, for a message.
fn clip(s: &str) -> &str {
    let mut end = s.len().min(64);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The options for reading what a method needs: other members skipped.
#[inline]
fn skip() -> Options {
    Options {
        read: ReadOptions {
            unknown_keys: UnknownKeys::Skip,
            ..ReadOptions::default()
        },
        ..Options::default()
    }
}

/// The parameters of a method read into `T`, other members skipped; `-32602` if they do not
/// fit.
fn read_params<'a, T: structio::Reflect<'a>>(params: Option<RawJson<'a>>) -> Result<T, Fault> {
    let text = params.map_or("{}", |p| p.get());
    structio::json::from_json_with(text, &skip()).map_err(|e| {
        let at = if e.path_segments().is_empty() {
            String::new()
        } else {
            format!(" at {}", e.path())
        };
        ErrorObject::new(
            code::INVALID_PARAMS,
            format!("Invalid params: {}{at}", e.message()),
        )
    })
}

/// What `initialize` reads of its parameters.
#[derive(structio::Reflect)]
struct InitializeParams<'a> {
    #[structio(rename = "protocolVersion")]
    protocol_version: Cow<'a, str>,
}

/// The `initialize` result.
#[derive(structio::Reflect)]
struct InitializeResult<'a> {
    #[structio(rename = "protocolVersion")]
    protocol_version: &'a str,
    capabilities: Capabilities,
    #[structio(rename = "serverInfo")]
    server_info: Implementation<'a>,
    instructions: Option<&'a str>,
}

/// The server's capabilities: tools, whose list does not change.
#[derive(structio::Reflect)]
struct Capabilities {
    tools: ToolsCapability,
}

/// The `tools` capability.
#[derive(structio::Reflect)]
struct ToolsCapability {
    #[structio(rename = "listChanged")]
    list_changed: bool,
}

/// A name and a version (`serverInfo`).
#[derive(structio::Reflect)]
struct Implementation<'a> {
    name: &'a str,
    version: &'a str,
}

/// The members of `params` the server routes on, read in the same pass as the envelope by
/// [`Server::routed`]: those of `initialize` and `tools/call` (others skipped). Each method
/// reads the same members, of the same types, as it does from the deferred parameters
/// ([`InitializeParams`], [`CallParams`]); a message whose parameters do not read this way
/// goes the general way.
#[derive(structio::Reflect)]
struct Routed<'a> {
    #[structio(rename = "protocolVersion")]
    protocol_version: Option<Cow<'a, str>>,
    name: Option<Cow<'a, str>>,
    arguments: Option<RawJson<'a>>,
}

/// The `tools/call` parameters this server reads (`_meta` and others are skipped).
#[derive(structio::Reflect)]
struct CallParams<'a> {
    name: Cow<'a, str>,
    arguments: Option<RawJson<'a>>,
}

/// The `tools/list` result.
#[derive(structio::Reflect)]
struct ToolList<'a> {
    tools: Vec<ToolEntry<'a>>,
}

/// One tool of the catalog.
#[derive(structio::Reflect)]
struct ToolEntry<'a> {
    name: &'a str,
    description: &'a str,
    #[structio(rename = "inputSchema")]
    input_schema: RawJson<'a>,
    #[structio(rename = "outputSchema")]
    output_schema: Option<RawJson<'a>>,
}

/// A text content block.
#[derive(structio::Reflect)]
struct TextContent<'a> {
    #[structio(rename = "type")]
    kind: &'a str,
    text: &'a str,
}

/// A tool execution error: text content and `isError: true`.
#[derive(structio::Reflect)]
struct ErrorResult<'a> {
    content: [TextContent<'a>; 1],
    #[structio(rename = "isError")]
    is_error: bool,
}
