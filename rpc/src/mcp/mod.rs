//! An MCP (Model Context Protocol) tool server over stdio, in both protocol eras: the
//! handshake revisions (2024-11-05 to 2025-11-25: `initialize` with protocol version
//! negotiation, `ping`) and the stateless revision 2026-07-28 (the version and the client's
//! capabilities in every request's `params._meta`, `server/discover`); in both, `tools/list`
//! (the catalog written once), `tools/call` with typed arguments, notifications, and a clean
//! exit at the end of input. The client's first request decides the era of the connection
//! (see [`Era`]).
//!
//! Besides tools, a server may offer resources (fixed ones and RFC 6570 level 1 templates:
//! `resources/list`, `resources/templates/list`, `resources/read`), prompts (`prompts/list`,
//! `prompts/get`, arguments from a derived type) and completions of prompt arguments and
//! template variables (`completion/complete`), in both eras; each capability is advertised
//! only when the server has it. The lists can be paged ([`Server::page_size`]).
//!
//! A tool's result is what its type says ([`IntoToolResult`]): a derived type is structured
//! content (below), a `String` plain text, a [`Content`] or `Vec<Content>` content blocks
//! (text, images, audio, resource links, embedded resources). [`Server::tool_with`] lists a
//! tool with a title, hints and icons ([`ToolOptions`]); every tool's name is checked against
//! the specification, a problem recorded as a [`BuildError`] ([`Server::check`]).
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
//! writes only JSON-RPC frames to stdout (responses, and with the feature `async` the calls'
//! progress and log notifications), and returns when the input ends.
//!
//! With the default feature `async` (Tokio), tools may be asynchronous and may take a
//! `Context` first (progress, cancellation, log messages, the request's id, and requests to
//! the client: `Context::sample`, `Context::elicit`; in both eras, `Context::ask` and its kin,
//! which in revision 2026-07-28 end the call with an `InputRequiredResult` and read the
//! answers from the client's retry: multi round-trip requests), and calls run
//! concurrently: a `Connection` holds one client's state over a server shared behind an
//! `Arc`, and `Connection::handle` sends everything a message causes to the `Outbox` given
//! with it; [`Server::serve_stdio`] serves stdio through one ([`Server::max_in_flight`],
//! [`Server::call_timeout`]). [`Server::handle_line`] stays the synchronous path.
//! [`Server::subscriptions`] serves resource subscriptions, and a [`Notifier`]
//! ([`Server::notifier`]) announces changes while the server serves (resources updated, lists
//! changed), through each connection's session outbox ([`Connection::set_session_outbox`]:
//! stdout for stdio, the session's `GET` stream for Streamable HTTP), and on the
//! `subscriptions/listen` streams of revision 2026-07-28. [`LiveTools`]
//! ([`Server::live_tools`]) adds and removes tools while the server serves.
//!
//! # Where things are
//!
//! - this module: the protocol-version constants, and the public items re-exported;
//! - `protocol`: the protocol's messages, as derived types named as in the specification
//!   (`InitializeResult`, `ListToolsResult`, `CallToolRequestParams`, ...; public:
//!   [`ToolAnnotations`], [`Icon`]);
//! - `server`: the server core: [`Server`] (the builder, the routing of both eras, the
//!   capabilities, the answers written once), [`Era`], [`CacheScope`];
//! - `tool`: tools: the registry entry (a typed function behind a name, its schemas, its
//!   [`ToolOptions`]), what a tool may return ([`IntoToolResult`]), [`ToolError`], and the
//!   checks of a tool's name ([`BuildError`]);
//! - `content`: content blocks ([`Content`]: text, image, audio, resource links, embedded
//!   resources), for tool results and prompt messages;
//! - `resource`: resources and resource templates ([`Server::resource`],
//!   [`Server::resource_template`]): [`ResourceOptions`], what a read is given
//!   ([`ResourceRequest`]) and returns ([`ResourceContents`], [`ResourceError`]), the checks
//!   of a URI and of an RFC 6570 level 1 template, the matching of a URI;
//! - `prompt`: prompts ([`Server::prompt`], [`PromptMessage`]) and the completion of their
//!   arguments and of templates' variables ([`CompletionRequest`]);
//! - `log`: [`LogLevel`];
//! - `context` (feature `async`): `Context`, `Outbox`, the cancellation of a call;
//! - `client` (feature `async`): the handshake era's requests to the client (`Context::sample`,
//!   `Context::elicit`, `Context::request`) and the connection's table of their answers;
//! - `input` (feature `async`): input asked in both eras (`Context::ask`, `InputRequest`,
//!   `InputRequired`, `Answer`), revision 2026-07-28's multi round-trip requests and the
//!   sealed `requestState`;
//! - `connection` (feature `async`): `Connection`, the calls in flight and their tasks;
//! - `notify` (feature `async`): `Notifier`, the connections' resource subscriptions and
//!   session outboxes, and revision 2026-07-28's `subscriptions/listen` streams, for the
//!   notifications not tied to a request;
//! - `live` (feature `async`): [`LiveTools`], tools added and removed while the server serves;
//! - `transport`: the transports, which know bytes and framing only and drive the core through
//!   [`Server::handle_line`] (`transport::stdio`: [`Server::serve_stdio`], [`Server::serve`]).
//!   The core knows no transport.

#![forbid(unsafe_code)]

#[cfg(feature = "async")]
mod client;
#[cfg(feature = "async")]
mod connection;
mod content;
#[cfg(feature = "async")]
mod context;
#[cfg(feature = "async")]
mod input;
#[cfg(feature = "async")]
mod live;
mod log;
#[cfg(feature = "async")]
mod notify;
mod prompt;
mod protocol;
mod resource;
mod server;
mod tool;
mod transport;

#[cfg(feature = "async")]
pub use client::{Elicitation, RequestError, SamplingMessage, SamplingRequest, SamplingResult};
#[cfg(feature = "async")]
pub use connection::Connection;
pub use content::{Content, EmbeddedResource, ResourceLink};
#[cfg(feature = "async")]
pub use context::{Context, Outbox};
#[cfg(feature = "async")]
pub use input::{
    Answer, InputRequest, InputRequired, Root, DEFAULT_REQUEST_STATE_TTL, MIN_REQUEST_STATE_KEY,
};
#[cfg(feature = "async")]
pub use live::LiveTools;
pub use log::LogLevel;
#[cfg(feature = "async")]
pub use notify::Notifier;
pub use prompt::{CompletionRequest, PromptMessage};
pub use protocol::{Annotations, Icon, IconTheme, Role, ToolAnnotations};
pub use resource::{ResourceContents, ResourceError, ResourceOptions, ResourceRequest};
pub use server::{CacheScope, Era, Server, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_LINE};
#[cfg(feature = "async")]
pub use tool::{Async, AsyncWithContext, WithContext};
pub use tool::{
    BuildError, BuildErrorKind, ContentResult, IntoToolResult, Plain, ReflectResult, ToolError,
    ToolHandler, ToolOptions, MAX_TOOL_NAME,
};
#[cfg(feature = "http")]
pub use transport::http::HttpOptions;

/// The protocol revisions this server negotiates through `initialize` (the handshake era),
/// newest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The newest handshake revision: what `initialize` offers a client that asks for a revision
/// it does not know.
pub const LATEST_PROTOCOL_VERSION: &str = PROTOCOL_VERSIONS[0];

/// The revisions this server speaks with the per-request envelope (the modern era, no
/// handshake): the version a request names in `params._meta`, the `supportedVersions` of
/// `server/discover`, the `supported` list of a [`UNSUPPORTED_PROTOCOL_VERSION`] error.
pub const MODERN_PROTOCOL_VERSIONS: [&str; 1] = ["2026-07-28"];

/// The error code of a request naming a protocol version this server does not speak in the
/// modern era, or of `initialize` on a modern connection (`UnsupportedProtocolVersionError`,
/// revision 2026-07-28); its data is `{"supported": [...], "requested": "..."}`.
pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;

/// The error code of a read of a resource that does not exist in the handshake revisions
/// ("Resource not found", revision 2025-11-25; its data is `{"uri": "..."}`). Revision
/// 2026-07-28 answers it with `-32602` (invalid params) instead.
pub const RESOURCE_NOT_FOUND: i32 = -32002;

/// The error code of a request the server cannot serve without a capability the client did
/// not declare in its `params._meta` (`MissingRequiredClientCapabilityError`, revision
/// 2026-07-28): a tool asking for input the client cannot give; its data is
/// `{"requiredCapabilities": {...}}`.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;

/// The `params._meta` member naming a modern request's protocol version.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The `params._meta` member holding a modern request's client capabilities (required).
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// The `params._meta` member holding a modern request's client name and version (optional).
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";

/// The `params._meta` member naming the `subscriptions/listen` stream (revision 2026-07-28) a
/// notification belongs to: the JSON-RPC id of the `subscriptions/listen` request.
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";
