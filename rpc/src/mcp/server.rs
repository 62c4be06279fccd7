//! The server core: [`Server`] (the builder, the routing of both protocol eras, the
//! capabilities, the answers written once), the connection's [`Era`], and the cache hints'
//! [`CacheScope`]. It answers one message at a time ([`Server::handle_line`]); it knows no
//! transport.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use structio::RawJson;

#[cfg(feature = "async")]
use super::input::{Round, StateKey};
use super::log::LogLevel;
use super::prompt::{self, Completion, CompletionRequest, PromptMessage, Target, MAX_COMPLETIONS};
#[cfg(feature = "async")]
use super::protocol::CancelledParams;
#[cfg(feature = "async")]
use super::protocol::SubscriptionFilter;
use super::protocol::{
    self, is_object, read_params, skip, CallToolErrorResult, CallToolRequestParams, CallWithMeta,
    CompleteRequestParams, CompleteResult, CompletionsCapability, DiscoverResult,
    GetPromptRequestParams, GetPromptResult, Implementation, InitializeRequestParams,
    InitializeResult, ListToolsResult, LoggingCapability, Meta, PaginatedRequestParams,
    PromptsCapability, ReadResourceRequestParams, ReadResourceResult, ResourcesCapability, Routed,
    RoutedMeta, ServerCapabilities, SetLevelRequestParams, TextContent, ToolsCapability,
};
use super::resource::{
    self, parse_template, uri_problem, ResourceContents, ResourceError, ResourceOptions,
    ResourceRequest, Template,
};
use super::tool::sealed::Shape;
use super::tool::{
    self, BuildError, BuildErrorKind, Call, CallError, End, Tool, ToolHandler, ToolOptions,
};
use super::{
    ToolError, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LATEST_PROTOCOL_VERSION,
    MODERN_PROTOCOL_VERSIONS, PROTOCOL_VERSIONS, PROTOCOL_VERSION_KEY, RESOURCE_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::dispatch::{dispatch, Fault, Limits};
use crate::response::write_raw_result;
use crate::{code, ErrorObject, Id, Request};

/// The protocol era of a connection, decided by the client's first request (as the official
/// Python SDK's dual-era server decides it): a request whose `params._meta` names a protocol
/// version ([`PROTOCOL_VERSION_KEY`]), other than `initialize`, opens a [`Era::Modern`]
/// connection; any other request opens a [`Era::Handshake`] one. Notifications and input that
/// is not a request decide nothing. Then the other era's requests are refused: `initialize`
/// on a modern connection with [`UNSUPPORTED_PROTOCOL_VERSION`] (naming the versions served),
/// a request carrying the modern envelope on a handshake connection with `-32600`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// The handshake revisions ([`PROTOCOL_VERSIONS`]): `initialize`, `ping`, `tools/list`,
    /// `tools/call` (and the resource, prompt and completion methods the server has).
    Handshake,
    /// Revision 2026-07-28 ([`MODERN_PROTOCOL_VERSIONS`]): every request names its version
    /// and the client's capabilities in `params._meta`; `server/discover`, `tools/list`,
    /// `tools/call` (and the resource, prompt and completion methods the server has); each
    /// result carries `resultType` and the server's name and version.
    Modern,
}

/// Who may keep a cached list, `resources/read` or `server/discover` result (revision 2026-07-28's
/// `cacheScope`), as HTTP's `Cache-Control: public` and `private`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// Any client or intermediary may cache the result and serve it to anyone.
    Public,
    /// The result may be reused only within the authorization context that received it.
    Private,
}

/// The default bound on the tool calls running at once on one connection
/// ([`Server::max_in_flight`]).
pub const DEFAULT_MAX_IN_FLIGHT: usize = 64;

/// The default bound on one input line, in bytes, without its line break (4 MiB).
pub const DEFAULT_MAX_LINE: usize = 4 << 20;

/// An MCP server offering tools, resources and prompts, built from typed functions (see the [module](crate::mcp)
/// example).
pub struct Server {
    name: String,
    version: String,
    instructions: Option<String>,
    /// The tools, in the order they were added (none once a [`LiveTools`](super::LiveTools)
    /// handle was taken: they are in its table).
    tools: Vec<Arc<Tool>>,
    /// The tools' table shared with the [`LiveTools`](super::LiveTools) handle, once taken.
    #[cfg(feature = "async")]
    live: Option<Arc<super::live::Shared>>,
    /// The fixed resources, in the order they were added.
    resources: Vec<resource::Resource>,
    /// The resource templates, in the order they were added.
    templates: Vec<Template>,
    /// The prompts, in the order they were added.
    prompts: Vec<prompt::Prompt>,
    /// The completions of prompt arguments and template variables.
    completions: Vec<Completion>,
    /// The most items a list method returns at once; `None`: all of them.
    page_size: Option<usize>,
    /// The tools that could not be added, and why, in the order they were added.
    problems: Vec<BuildError>,
    limits: Limits,
    max_line: usize,
    /// The most tool calls running at once on one connection.
    max_in_flight: usize,
    /// The deadline of one tool call on a connection, if any.
    call_timeout: Option<std::time::Duration>,
    /// `tools/list` and `server/discover` cache hints: milliseconds, scope.
    cache: (u64, CacheScope),
    /// The constant parts of the answers, written when first needed after the last change to
    /// the server.
    pub(super) written: OnceLock<Written>,
    /// The state of the connection [`Server::handle_line`] serves, boxed so that lending it to
    /// the core for a message moves a pointer, not the session (`None` only while lent).
    session: Option<Box<Session>>,
    /// The connections' session outboxes and subscriptions, shared with the notifiers.
    #[cfg(feature = "async")]
    hub: std::sync::Arc<super::notify::Hub>,
    /// Whether `resources/subscribe` is served ([`Server::subscriptions`]).
    #[cfg(feature = "async")]
    subscriptions: bool,
    /// Whether a [`Notifier`](super::Notifier) was taken: the lists' `listChanged` is `true`.
    #[cfg(feature = "async")]
    list_changed: bool,
    /// The key sealing revision 2026-07-28's `requestState`, and its lifetime.
    #[cfg(feature = "async")]
    state_key: std::sync::Arc<StateKey>,
}

/// What belongs to one connection, not to the server: the protocol revision and era agreed,
/// the log level the client set, a buffer for tool results. [`Server::handle_line`] serves
/// the server's own; each `Connection` has one.
#[derive(Debug, Default)]
pub(super) struct Session {
    /// The revision agreed in `initialize`, if it has been.
    pub(super) protocol: Option<&'static str>,
    /// The era of the connection, once the first request has decided it.
    pub(super) era: Option<Era>,
    /// The lowest level of the log messages the client wants (`logging/setLevel`); `None`:
    /// not set (every message is sent).
    #[cfg_attr(not(feature = "async"), allow(dead_code))]
    pub(super) log_level: Option<LogLevel>,
    /// A tool's result, as JSON: a value, or an array of content blocks.
    pub(super) scratch: Vec<u8>,
    /// The subscriptions (`true`) and unsubscriptions (`false`) of the last message, for the
    /// connection to record.
    #[cfg(feature = "async")]
    pub(super) subscribing: Vec<(String, bool)>,
}

/// A server answering for one connection: the shared registry and that connection's
/// [`Session`]. The routing is written on it; it reads the registry's fields through `Deref`.
pub(super) struct Core<'a> {
    pub(super) server: &'a Server,
    pub(super) sess: &'a mut Session,
    /// Where a `tools/call` is put aside instead of being run, when the caller runs calls
    /// itself (a `Connection`); `None`: run at once, as [`Server::handle_line`] does.
    #[cfg_attr(not(feature = "async"), allow(dead_code))]
    pub(super) defer: Option<&'a mut Aside>,
}

impl std::ops::Deref for Core<'_> {
    type Target = Server;
    #[inline(always)]
    fn deref(&self) -> &Server {
        self.server
    }
}

/// What a message gives a caller that runs calls itself (a `Connection`): a call to run, a
/// call to cancel.
#[derive(Debug, Default)]
#[cfg_attr(not(feature = "async"), allow(dead_code))]
pub(super) struct Aside {
    /// A `tools/call` of a tool that is asynchronous or takes a `Context`.
    pub(super) call: Option<Deferred>,
    /// The request id named by `notifications/cancelled`, as JSON text.
    pub(super) cancelled: Option<String>,
    /// A `subscriptions/listen` request (revision 2026-07-28) to open: its id, and what the
    /// server agreed to send on it.
    #[cfg(feature = "async")]
    pub(super) listen: Option<(Id<'static>, SubscriptionFilter)>,
}

/// The tools as one message sees them ([`Server::tools_now`]).
pub(super) enum ToolsNow<'a> {
    /// The server's own.
    Fixed(&'a [Arc<Tool>]),
    /// A snapshot of the [`LiveTools`](super::LiveTools) table.
    #[cfg(feature = "async")]
    Live(Arc<super::live::Table>),
}

impl std::ops::Deref for ToolsNow<'_> {
    type Target = [Arc<Tool>];
    #[inline(always)]
    fn deref(&self) -> &[Arc<Tool>] {
        match self {
            ToolsNow::Fixed(tools) => tools,
            #[cfg(feature = "async")]
            ToolsNow::Live(table) => &table.tools,
        }
    }
}

/// A `tools/call` put aside for its caller to run: the tool, its arguments as JSON
/// text, the request's id, and whether the result is closed as revision 2026-07-28 prescribes.
#[derive(Debug)]
#[cfg_attr(not(feature = "async"), allow(dead_code))]
pub(super) struct Deferred {
    pub(super) tool: Arc<Tool>,
    pub(super) arguments: String,
    pub(super) id: Id<'static>,
    pub(super) modern: bool,
    /// Revision 2026-07-28: the call's answers so far and its means to ask for more.
    #[cfg(feature = "async")]
    pub(super) round: Option<Box<Round>>,
}

/// What a request of revision 2026-07-28 brings for its multi round-trip requests: the
/// client's `inputResponses` and the `requestState` it echoes (as text), and the client's
/// capabilities from `params._meta`. Empty in the handshake era.
#[derive(Debug, Default, Clone, Copy)]
#[cfg_attr(not(feature = "async"), allow(dead_code))]
pub(super) struct Inbound<'a> {
    pub(super) responses: Option<RawJson<'a>>,
    pub(super) state: Option<RawJson<'a>>,
    pub(super) capabilities: Option<RawJson<'a>>,
}

/// The constant parts of the answers, written once.
pub(super) struct Written {
    /// The `tools/list` result of the handshake era.
    catalog: Vec<u8>,
    /// The `tools/list` result of the modern era (cache hints, `resultType`, server info).
    modern_catalog: Vec<u8>,
    /// The `server/discover` result.
    discover: Vec<u8>,
    /// What closes every modern result: `,"resultType":"complete","_meta":{...serverInfo}`.
    stamp: Vec<u8>,
    /// The cache hints of the modern era's cacheable results: `,"ttlMs":...,"cacheScope":...`.
    hints: Vec<u8>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("tools", &self.tool_names().collect::<Vec<_>>())
            .field(
                "resources",
                &self.resources.iter().map(|r| &r.uri).collect::<Vec<_>>(),
            )
            .field(
                "templates",
                &self
                    .templates
                    .iter()
                    .map(|t| &t.template)
                    .collect::<Vec<_>>(),
            )
            .field(
                "prompts",
                &self.prompts.iter().map(|p| &p.name).collect::<Vec<_>>(),
            )
            .field("problems", &self.problems)
            .field("max_line", &self.max_line)
            .field("protocol", &self.protocol_version())
            .field("era", &self.era())
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
            #[cfg(feature = "async")]
            live: None,
            resources: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            completions: Vec::new(),
            page_size: None,
            problems: Vec::new(),
            limits: Limits::default(),
            max_line: DEFAULT_MAX_LINE,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            call_timeout: None,
            cache: (0, CacheScope::Private),
            written: OnceLock::new(),
            session: Some(Box::default()),
            #[cfg(feature = "async")]
            hub: Default::default(),
            #[cfg(feature = "async")]
            subscriptions: false,
            #[cfg(feature = "async")]
            list_changed: false,
            #[cfg(feature = "async")]
            state_key: std::sync::Arc::new(StateKey::random()),
        }
    }

    /// The key that seals the `requestState` of revision 2026-07-28's multi round-trip
    /// requests ([`Context::ask`](super::Context::ask)) with HMAC-SHA256 (feature `async`):
    /// at least [`MIN_REQUEST_STATE_KEY`](super::MIN_REQUEST_STATE_KEY) random bytes, kept
    /// secret. By default each server draws its own from the operating system when it is
    /// made, so that a state minted by one process verifies only in that process: give the
    /// same key to every instance when a retry may reach another (several processes behind a
    /// balancer), or must survive a restart. A shorter key is not taken: the default stays,
    /// and the problem is recorded ([`BuildErrorKind::ShortRequestStateKey`]).
    #[cfg(feature = "async")]
    pub fn request_state_key(mut self, key: impl AsRef<[u8]>) -> Server {
        let key = key.as_ref();
        if key.len() < super::MIN_REQUEST_STATE_KEY {
            self.problems.push(BuildError::new(
                BuildErrorKind::ShortRequestStateKey,
                "",
                format!(
                    "a requestState key has at least {} bytes; this one has {}",
                    super::MIN_REQUEST_STATE_KEY,
                    key.len()
                ),
            ));
            return self;
        }
        self.state_key = std::sync::Arc::new(StateKey::given(key, self.state_key.ttl));
        self
    }

    /// How long a `requestState` the server mints stays valid (feature `async`; default
    /// [`DEFAULT_REQUEST_STATE_TTL`](super::DEFAULT_REQUEST_STATE_TTL), ten minutes): each
    /// round seals a new one, so this bounds the time the client takes to answer one round,
    /// not the whole call. A retry bearing an older state is refused (`-32602`).
    #[cfg(feature = "async")]
    pub fn request_state_ttl(mut self, ttl: std::time::Duration) -> Server {
        self.state_key = std::sync::Arc::new(self.state_key.with_ttl(ttl));
        self
    }

    /// Whether the server serves `resources/subscribe` and `resources/unsubscribe` (default
    /// no; feature `async`) in the handshake era, and the `resourceSubscriptions` of a
    /// `subscriptions/listen` stream in revision 2026-07-28, and advertises
    /// `resources.subscribe: true` when it has resources. A subscription belongs to its connection
    /// ([`Connection`](super::Connection)); [`Notifier::resource_updated`](super::Notifier::resource_updated)
    /// sends `notifications/resources/updated` to the connections subscribed to a URI.
    /// Subscribing to a URI that no resource has and no template matches is answered with
    /// "Resource not found" (`-32002`); unsubscribing from a URI not subscribed to is answered
    /// `{}`. Through [`Server::handle_line`], which has no connection, both are answered and
    /// nothing is recorded.
    #[cfg(feature = "async")]
    pub fn subscriptions(mut self, on: bool) -> Server {
        self.subscriptions = on;
        self.written = OnceLock::new();
        self
    }

    /// A [`Notifier`](super::Notifier) for this server's connections (feature `async`), to
    /// announce changes while the server serves: the resources updated, the lists changed.
    /// Take it before serving (the server is then shared): from then on the server advertises
    /// `listChanged: true` for its tools, and for its resources and prompts when it has them,
    /// in `initialize` and in `server/discover` (revision 2026-07-28, whose clients ask for
    /// the notifications on a `subscriptions/listen` stream).
    #[cfg(feature = "async")]
    pub fn notifier(&mut self) -> super::Notifier {
        self.list_changed = true;
        self.written = OnceLock::new();
        super::Notifier::new(self.hub.clone())
    }

    /// A [`LiveTools`](super::LiveTools) handle (feature `async`), to add and remove tools
    /// while the server serves, each change announced to the clients with
    /// `notifications/tools/list_changed`. Take it before serving (the server is then
    /// shared); every handle taken from one server changes the same tools. From then on the
    /// server advertises `tools.listChanged: true`, the tools added with [`Server::tool`] and
    /// the handle's are one list, and [`Server::serve_stdio`] serves through a connection
    /// (which the notifications need).
    #[cfg(feature = "async")]
    pub fn live_tools(&mut self) -> super::LiveTools {
        let tools = std::mem::take(&mut self.tools);
        let shared = self
            .live
            .get_or_insert_with(|| Arc::new(super::live::Shared::new(tools)))
            .clone();
        self.written = OnceLock::new();
        super::LiveTools::new(shared, self.hub.clone())
    }

    /// Whether a tool is named `name`.
    fn has_tool(&self, name: &str) -> bool {
        self.tools_now().iter().any(|t| t.name == name)
    }

    /// Adds `tool` (its name checked).
    fn push_tool(&mut self, tool: Tool) {
        #[cfg(feature = "async")]
        if let Some(live) = &self.live {
            // Added while the server is built: nobody to tell yet.
            let _ = live.add(&tool.name.clone(), |_| Ok(tool));
            return;
        }
        self.tools.push(Arc::new(tool));
    }

    /// The tools as a message sees them: the server's own, or a snapshot of the
    /// [`LiveTools`](super::LiveTools) table.
    #[inline(always)]
    pub(super) fn tools_now(&self) -> ToolsNow<'_> {
        #[cfg(feature = "async")]
        if let Some(live) = &self.live {
            return ToolsNow::Live(live.table());
        }
        ToolsNow::Fixed(&self.tools)
    }

    /// The connections' table, for a new connection.
    #[cfg(feature = "async")]
    pub(super) fn hub(&self) -> &std::sync::Arc<super::notify::Hub> {
        &self.hub
    }

    /// Instructions for the client, sent in the `initialize` and `server/discover` results.
    pub fn instructions(mut self, text: impl Into<String>) -> Server {
        self.instructions = Some(text.into());
        self.written = OnceLock::new();
        self
    }

    /// The cache hints of the modern era's lists, `resources/read` and `server/discover`
    /// results: how long
    /// a client may consider them fresh (`ttlMs`, in milliseconds; 0: stale at once) and who
    /// may keep them (`cacheScope`). The default is 0 and [`CacheScope::Private`], as the
    /// official Python SDK's: nothing is cached unless the server says so.
    pub fn cache_hints(mut self, ttl_ms: u64, scope: CacheScope) -> Server {
        self.cache = (ttl_ms, scope);
        self.written = OnceLock::new();
        self
    }

    /// The bound on one input line in bytes, not counting its line break (`\n` or `\r\n`)
    /// (default [`DEFAULT_MAX_LINE`]). A longer line is read through without being kept and
    /// answered with a `-32600` error; memory stays bounded by it.
    pub fn max_line(mut self, bytes: usize) -> Server {
        self.max_line = bytes.max(1);
        self
    }

    /// The most tool calls that run at once on one connection (at least 1; default
    /// [`DEFAULT_MAX_IN_FLIGHT`]): a call past the bound waits until one finishes, and is
    /// never dropped; other requests are answered meanwhile. It bounds the calls a
    /// `Connection` runs concurrently ([`Server::serve_stdio`] with the `async` feature);
    /// [`Server::handle_line`] runs one call at a time.
    pub fn max_in_flight(mut self, calls: usize) -> Server {
        self.max_in_flight = calls.max(1);
        self
    }

    /// The deadline of one tool call run by a `Connection` (default: none): a call still
    /// running after `limit` is stopped (an asynchronous tool is dropped at its next
    /// `.await`; a tool taking a `Context` sees it cancelled) and answered with a tool
    /// execution error (`isError: true`) saying so.
    pub fn call_timeout(mut self, limit: std::time::Duration) -> Server {
        self.call_timeout = Some(limit);
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
    /// With the feature `async` (on by default), `call` may also be asynchronous (`async fn(A)
    /// -> Result<R, ToolError>`, or a closure returning such a future), and may take a
    /// `Context` first (`|ctx: Context, a: A| ...`, synchronous or asynchronous), through
    /// which it reports progress, sees a cancellation and sends log messages (see
    /// [`ToolHandler`]). Through a `Connection` ([`Server::serve_stdio`]) such a call runs on a
    /// task of its own (a synchronous one on a blocking thread), concurrently with others;
    /// a plain `Fn(A)` tool, meant to be quick, is answered at once where the message is
    /// handled, as [`Server::handle_line`] answers it (a tool that blocks or waits should be
    /// asynchronous or take a `Context`). Through [`Server::handle_line`] every call runs one
    /// at a time, an asynchronous tool driven to its end on the calling thread.
    ///
    /// The name must be 1 to 128 characters of `A-Z a-z 0-9 _ - .` and not taken (the MCP
    /// specification's rule, revision 2025-11-25): otherwise the tool is left out and the
    /// problem recorded, for [`Server::check`] and the serving calls to report (see
    /// [`BuildError`]); the builder goes on, so that a chain of `.tool(..)` calls stays a
    /// chain.
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
    /// What the result is sent as is decided by its type ([`IntoToolResult`](super::IntoToolResult)): a type that
    /// implements [`structio::Reflect`] (a derived struct, a `Vec`, ...) is structured content:
    /// the result's `structuredContent` is `R` written as JSON (an `R` that is not written as
    /// an object is wrapped as `{"result": value}`, since structured content is an object),
    /// and its text content is the same bytes as a string. A `String` or `&'static str` is one
    /// text block, a [`Content`](super::Content) one block of any kind, a `Vec<Content>`
    /// those blocks; these have no `structuredContent`.
    ///
    /// The catalog entry's `inputSchema` is `A`'s JSON Schema and, for a structured result,
    /// its `outputSchema` `R`'s ([`structio::json_schema`], draft 2020-12, constraints
    /// included; for an `R` that is not an object, the schema of `{"result": value}`), so a
    /// client can check calls and results against them; content results list no
    /// `outputSchema`.
    pub fn tool<M, F>(self, name: &str, description: &str, call: F) -> Server
    where
        F: ToolHandler<M>,
        F::Args: structio::JsonSchema,
        F::Output: structio::JsonSchema,
    {
        self.tool_with(name, description, ToolOptions::default(), call)
    }

    /// [`Server::tool`] with a title, behaviour hints and icons ([`ToolOptions`]), listed with
    /// the tool in `tools/list` (both eras).
    ///
    /// ```
    /// use structio_rpc::mcp::{Server, ToolAnnotations, ToolError, ToolOptions};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Add { left: i32, right: i32 }
    ///
    /// let mut server = Server::new("calc", "1").tool_with(
    ///     "add",
    ///     "Adds two integers",
    ///     ToolOptions::new()
    ///         .title("Add two integers")
    ///         .annotations(ToolAnnotations::new().read_only(true)),
    ///     |a: Add| Ok::<_, ToolError>(a.left.wrapping_add(a.right)),
    /// );
    /// let mut out = Vec::new();
    /// server.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, &mut out);
    /// let text = String::from_utf8(out).unwrap();
    /// assert!(text.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","title":"Add two integers","#));
    /// assert!(text.contains(r#","annotations":{"readOnlyHint":true}}]}}"#));
    /// ```
    pub fn tool_with<M, F>(
        self,
        name: &str,
        description: &str,
        options: ToolOptions,
        call: F,
    ) -> Server
    where
        F: ToolHandler<M>,
        F::Args: structio::JsonSchema,
        F::Output: structio::JsonSchema,
    {
        let (input, output) = Tool::schemas::<M, F>();
        self.add_tool(name, description, options, &input, output.as_deref(), call)
    }

    /// [`Server::tool`] with the tool's JSON Schemas given as JSON text: `input_schema` for the
    /// arguments, and `output_schema` for the structured result, if any (a client checks
    /// results against it). A schema that is not one well-formed JSON value, or an
    /// `output_schema` for a result type that is not sent as structured content
    /// ([`IntoToolResult`](super::IntoToolResult)), is a problem like a bad name: the tool is left out and
    /// [`Server::check`] reports it ([`BuildError`]).
    pub fn tool_with_schema<M, F>(
        self,
        name: &str,
        description: &str,
        input_schema: &str,
        output_schema: Option<&str>,
        call: F,
    ) -> Server
    where
        F: ToolHandler<M>,
    {
        let options = ToolOptions::default();
        self.add_tool(
            name,
            description,
            options,
            input_schema,
            output_schema,
            call,
        )
    }

    /// Adds the tool, or records why it cannot be added.
    fn add_tool<M, F>(
        mut self,
        name: &str,
        description: &str,
        options: ToolOptions,
        input_schema: &str,
        output_schema: Option<&str>,
        call: F,
    ) -> Server
    where
        F: ToolHandler<M>,
    {
        let taken = self.has_tool(name);
        match Tool::build(
            name,
            description,
            options,
            (input_schema, output_schema),
            call,
            taken,
        ) {
            Ok(tool) => self.push_tool(tool),
            Err(problem) => self.problems.push(problem),
        }
        self.written = OnceLock::new();
        self
    }

    /// Adds a fixed resource: the resource at `uri`, named `name` (both listed in
    /// `resources/list`, with what `options` sets), whose contents `read` returns when a
    /// client reads `uri` (`resources/read`). The server then advertises the `resources`
    /// capability.
    ///
    /// `uri` must be an absolute URI (a scheme, a colon, no space) and not taken by another
    /// resource: otherwise the resource is left out and the problem recorded, as for a tool
    /// ([`BuildError`], [`Server::check`]). A read that returns [`ResourceError::not_found`]
    /// is answered with the specification's "Resource not found" error (`-32002` in the
    /// handshake era, `-32602` in the modern one, the URI in its data), another error with
    /// `-32603` and its message. Contents returned without a MIME type are given the one in
    /// `options`.
    ///
    /// ```
    /// use structio_rpc::mcp::{ResourceContents, ResourceError, ResourceOptions, Server};
    ///
    /// let mut server = Server::new("docs", "1").resource(
    ///     "file:///README.md",
    ///     "README.md",
    ///     ResourceOptions::new().mime_type("text/markdown"),
    ///     |r| Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "Hello")),
    /// );
    /// let mut out = Vec::new();
    /// server.handle_line(
    ///     br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///README.md"}}"#,
    ///     &mut out,
    /// );
    /// assert_eq!(
    ///     std::str::from_utf8(&out).unwrap(),
    ///     concat!(
    ///         r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"file:///README.md","#,
    ///         r#""mimeType":"text/markdown","text":"Hello"}]}}"#,
    ///         "\n"
    ///     )
    /// );
    /// ```
    pub fn resource<F>(mut self, uri: &str, name: &str, options: ResourceOptions, read: F) -> Server
    where
        F: Fn(&ResourceRequest<'_>) -> Result<ResourceContents, ResourceError>
            + Send
            + Sync
            + 'static,
    {
        let problem = if let Some(why) = uri_problem(uri) {
            Some((BuildErrorKind::InvalidResourceUri, why))
        } else if self.resources.iter().any(|r| r.uri == uri) {
            Some((
                BuildErrorKind::DuplicateResourceUri,
                format!("a resource at {uri:?} was added before; resource URIs are unique"),
            ))
        } else {
            None
        };
        if let Some((kind, message)) = problem {
            self.problems.push(BuildError::new(kind, uri, message));
            return self;
        }
        self.resources.push(resource::Resource {
            uri: uri.to_owned(),
            name: name.to_owned(),
            options,
            read: Box::new(read),
        });
        self.written = OnceLock::new();
        self
    }

    /// Adds a resource template: the resources whose URIs match `uri_template`, an RFC 6570
    /// level 1 template (`test://items/{id}/data`: literal text and `{name}` variables),
    /// listed in `resources/templates/list` under `name` with what `options` sets (`size`
    /// aside). A read of a URI that no fixed resource has and that matches the template calls
    /// `read`, which finds each variable's value, percent-decoded, by name
    /// ([`ResourceRequest::variable`]); a variable matches one or more characters other than
    /// `/`, `?` and `#`. Templates are tried in the order they were added.
    ///
    /// The template must have a scheme, braces that pair, variable names of letters, digits,
    /// `_` and `.`, at least one variable, none twice and no two side by side, and must not be
    /// taken: otherwise it is left out and the problem recorded ([`BuildError`]).
    ///
    /// ```
    /// use structio_rpc::mcp::{ResourceContents, ResourceError, ResourceOptions, Server};
    ///
    /// let mut server = Server::new("items", "1").resource_template(
    ///     "test://items/{id}",
    ///     "item",
    ///     ResourceOptions::new().mime_type("text/plain"),
    ///     |r| match r.variable("id") {
    ///         Some(id) if id.parse::<u32>().is_ok() => Ok(ResourceContents::text(r.uri(), format!("item {id}"))),
    ///         _ => Err(ResourceError::not_found()),
    ///     },
    /// );
    /// let mut out = Vec::new();
    /// server.handle_line(
    ///     br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://items/7"}}"#,
    ///     &mut out,
    /// );
    /// assert!(std::str::from_utf8(&out).unwrap().contains(r#""text":"item 7""#));
    /// ```
    pub fn resource_template<F>(
        mut self,
        uri_template: &str,
        name: &str,
        options: ResourceOptions,
        read: F,
    ) -> Server
    where
        F: Fn(&ResourceRequest<'_>) -> Result<ResourceContents, ResourceError>
            + Send
            + Sync
            + 'static,
    {
        let parts = match parse_template(uri_template) {
            Ok(_) if self.templates.iter().any(|t| t.template == uri_template) => Err((
                BuildErrorKind::DuplicateResourceTemplate,
                format!(
                    "a resource template {uri_template:?} was added before; templates are unique"
                ),
            )),
            Ok(parts) => Ok(parts),
            Err(why) => Err((BuildErrorKind::InvalidResourceTemplate, why)),
        };
        let parts = match parts {
            Ok(parts) => parts,
            Err((kind, message)) => {
                self.problems
                    .push(BuildError::new(kind, uri_template, message));
                return self;
            }
        };
        self.templates.push(Template {
            template: uri_template.to_owned(),
            parts,
            name: name.to_owned(),
            options,
            read: Box::new(read),
        });
        self.written = OnceLock::new();
        self
    }

    /// Adds a prompt: `get` takes the arguments as a `T` and returns the prompt's messages
    /// (`prompts/get`), or a [`ToolError`], answered with `-32602` (invalid params) and its
    /// text. The prompt's `arguments` in `prompts/list` are `T`'s members, from its JSON
    /// Schema: each member's name, its doc comment as `description`, and `required` for a
    /// member that is not an `Option`. A client sends every argument as a string, so `T`'s
    /// members are `String`s and `Option<String>`s; arguments that do not fit `T` (a required
    /// one missing, an unknown one) are answered with `-32602`, naming each by its path. The
    /// server then advertises the `prompts` capability.
    ///
    /// A name that is empty or taken is a problem like a tool's ([`BuildError`]).
    ///
    /// ```
    /// use structio_rpc::mcp::{PromptMessage, Server, ToolError};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Review {
    ///     /// The code to review
    ///     code: String,
    ///     /// What to look at first
    ///     focus: Option<String>,
    /// }
    ///
    /// let mut server = Server::new("reviews", "1").prompt("review", "Asks for a code review", |a: Review| {
    ///     let focus = a.focus.map(|f| format!(", {f} first")).unwrap_or_default();
    ///     Ok::<_, ToolError>(vec![PromptMessage::user(format!("Review this code{focus}:\n{}", a.code))])
    /// });
    /// let mut out = Vec::new();
    /// server.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#, &mut out);
    /// assert_eq!(
    ///     std::str::from_utf8(&out).unwrap(),
    ///     concat!(
    ///         r#"{"jsonrpc":"2.0","id":1,"result":{"prompts":[{"name":"review","description":"Asks for a code review","#,
    ///         r#""arguments":[{"name":"code","description":"The code to review","required":true},"#,
    ///         r#"{"name":"focus","description":"What to look at first","required":false}]}]}}"#,
    ///         "\n"
    ///     )
    /// );
    /// ```
    pub fn prompt<T, F>(self, name: &str, description: &str, get: F) -> Server
    where
        T: structio::ReflectOwned + structio::JsonSchema + 'static,
        F: Fn(T) -> Result<Vec<PromptMessage>, ToolError> + Send + Sync + 'static,
    {
        self.add_prompt(prompt::Prompt::new(name, description, get))
    }

    /// Adds a prompt whose asynchronous `get` takes the request's
    /// [`Context`](super::Context) first (feature `async`), as [`Server::prompt`] otherwise:
    /// in revision 2026-07-28 it may ask the client for input
    /// ([`Context::ask`](super::Context::ask) and its kin), and `prompts/get` is then answered
    /// with an `InputRequiredResult` until the client's retry brings the answers (the
    /// `requestState` sealed and bound as a tool's). `get` runs where the request is read,
    /// to its end: it should not wait on anything but the input it asks for. In the handshake
    /// era a prompt has no connection to send requests on: asking fails there (the error
    /// answers `prompts/get` with `-32602`); [`Context::multi_round`](super::Context::multi_round)
    /// tells the eras apart.
    ///
    /// ```
    /// use structio_rpc::mcp::{Context, Elicitation, PromptMessage, Server, ToolError};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Topic { topic: String }
    /// #[derive(structio::Reflect)]
    /// struct Level { level: String }
    ///
    /// let mut server = Server::new("s", "1").prompt_with_context("explain", "Explains a topic", |ctx: Context, t: Topic| async move {
    ///     let level = match ctx.ask::<Level>("level", "For whom?").await? {
    ///         Elicitation::Accept(l) => l.level,
    ///         _ => "anyone".to_owned(),
    ///     };
    ///     Ok::<_, ToolError>(vec![PromptMessage::user(format!("Explain {} to {level}", t.topic))])
    /// });
    /// let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}"#;
    /// let mut out = Vec::new();
    /// server.handle_line(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{{"name":"explain","arguments":{{"topic":"tides"}},{meta}}}}}"#).as_bytes(), &mut out);
    /// let first = String::from_utf8(out).unwrap();
    /// assert!(first.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"level":"#));
    /// let state = first.split(r#""requestState":"#).nth(1).unwrap().split(',').next().unwrap();
    /// let mut out = Vec::new();
    /// server.handle_line(format!(r#"{{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{{"name":"explain","arguments":{{"topic":"tides"}},"inputResponses":{{"level":{{"action":"accept","content":{{"level":"a child"}}}}}},"requestState":{state},{meta}}}}}"#).as_bytes(), &mut out);
    /// assert!(String::from_utf8(out).unwrap().contains(r#""text":"Explain tides to a child""#));
    /// ```
    #[cfg(feature = "async")]
    pub fn prompt_with_context<T, F, Fut>(self, name: &str, description: &str, get: F) -> Server
    where
        T: structio::ReflectOwned + structio::JsonSchema + 'static,
        F: Fn(super::Context, T) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<Vec<PromptMessage>, ToolError>> + Send + 'static,
    {
        self.add_prompt(prompt::Prompt::with_context(name, description, get))
    }

    /// Adds `prompt`, unless its name is empty or taken (a problem recorded).
    fn add_prompt(mut self, prompt: prompt::Prompt) -> Server {
        let name = prompt.name.as_str();
        let problem = if name.is_empty() {
            Some((
                BuildErrorKind::InvalidPromptName,
                "the prompt name is empty".to_owned(),
            ))
        } else if self.prompts.iter().any(|p| p.name == name) {
            Some((
                BuildErrorKind::DuplicatePromptName,
                format!("a prompt named {name:?} was added before; prompt names are unique"),
            ))
        } else {
            None
        };
        if let Some((kind, message)) = problem {
            self.problems.push(BuildError::new(kind, name, message));
            return self;
        }
        self.prompts.push(prompt);
        self.written = OnceLock::new();
        self
    }

    /// Completes the argument `argument` of the prompt `prompt` (`completion/complete` with
    /// a `ref/prompt`): `complete` is given the value typed so far and the arguments already
    /// given ([`CompletionRequest`]) and returns the values that fit, best first; the client
    /// receives the first 100, with the `total` and whether there are more (`hasMore`). The
    /// server then advertises the `completions` capability.
    ///
    /// The prompt must have been added before, with that argument: otherwise the completion
    /// is left out and the problem recorded ([`BuildErrorKind::UnknownCompletionTarget`]).
    /// An argument without a completion completes to no values.
    ///
    /// ```
    /// use structio_rpc::mcp::{PromptMessage, Server, ToolError};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Greet { language: String }
    ///
    /// let mut server = Server::new("greeter", "1")
    ///     .prompt("greet", "Greets", |a: Greet| Ok::<_, ToolError>(vec![PromptMessage::user(a.language)]))
    ///     .complete_prompt_argument("greet", "language", |r| {
    ///         ["English", "Esperanto", "French"].iter().filter(|l| l.starts_with(r.value())).map(|l| l.to_string()).collect()
    ///     });
    /// let mut out = Vec::new();
    /// server.handle_line(
    ///     br#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"language","value":"E"}}}"#,
    ///     &mut out,
    /// );
    /// assert_eq!(
    ///     std::str::from_utf8(&out).unwrap(),
    ///     concat!(
    ///         r#"{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["English","Esperanto"],"total":2,"hasMore":false}}}"#,
    ///         "\n"
    ///     )
    /// );
    /// ```
    pub fn complete_prompt_argument<F>(self, prompt: &str, argument: &str, complete: F) -> Server
    where
        F: Fn(&CompletionRequest<'_>) -> Vec<String> + Send + Sync + 'static,
    {
        let known = self
            .prompts
            .iter()
            .any(|p| p.name == prompt && p.arguments.iter().any(|a| a.name == argument));
        let target = Target::Prompt(prompt.to_owned(), argument.to_owned());
        self.add_completion(known, target, Box::new(complete))
    }

    /// Completes the variable `variable` of the resource template `uri_template`
    /// (`completion/complete` with a `ref/resource` naming the template), as
    /// [`Server::complete_prompt_argument`] does a prompt's argument. The template must have
    /// been added before, with that variable.
    pub fn complete_template_variable<F>(
        self,
        uri_template: &str,
        variable: &str,
        complete: F,
    ) -> Server
    where
        F: Fn(&CompletionRequest<'_>) -> Vec<String> + Send + Sync + 'static,
    {
        let known = self
            .templates
            .iter()
            .any(|t| t.template == uri_template && t.has_variable(variable));
        let target = Target::Template(uri_template.to_owned(), variable.to_owned());
        self.add_completion(known, target, Box::new(complete))
    }

    /// Adds the completion, or records why it cannot be added.
    fn add_completion(mut self, known: bool, target: Target, complete: prompt::Complete) -> Server {
        let (Target::Prompt(of, what) | Target::Template(of, what)) = &target;
        if !known {
            let kind = match target {
                Target::Prompt(..) => "prompt",
                Target::Template(..) => "resource template",
            };
            self.problems.push(BuildError::new(
                BuildErrorKind::UnknownCompletionTarget,
                of,
                format!("a completion of {what:?} of the {kind} {of:?}, which the server does not have (add it first)"),
            ));
            return self;
        }
        self.completions.retain(|c| c.target != target);
        self.completions.push(Completion { target, complete });
        self.written = OnceLock::new();
        self
    }

    /// The most items `tools/list`, `resources/list`, `resources/templates/list` and
    /// `prompts/list` return in one answer (at least 1); when there are more, the answer carries an opaque
    /// `nextCursor`, which the client sends back as `cursor` for the next page (a cursor this
    /// server did not give is refused with `-32602`). The default is no paging: every item in
    /// one answer.
    pub fn page_size(mut self, items: usize) -> Server {
        self.page_size = Some(items.max(1));
        self.written = OnceLock::new();
        self
    }

    /// The first problem met while the server was built (a tool left out: a bad or taken
    /// name, a schema that is not JSON, ...), if any: what [`Server::serve_stdio`] and
    /// [`Server::serve`] return before serving. Call it before [`Server::handle_line`] when
    /// driving the server by hand: that serves the tools that were added, whatever the
    /// problems.
    pub fn check(&self) -> Result<(), BuildError> {
        match self.problems.first() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Every problem met while the server was built, in the order the tools were added (see
    /// [`Server::check`]).
    pub fn problems(&self) -> &[BuildError] {
        &self.problems
    }

    /// The names of the tools, in the order they were added (now, for a server whose
    /// [`LiveTools`](super::LiveTools) handle was taken).
    pub fn tool_names(&self) -> impl Iterator<Item = String> {
        let names: Vec<String> = self.tools_now().iter().map(|t| t.name.clone()).collect();
        names.into_iter()
    }

    /// The protocol revision agreed in `initialize`, once it has been.
    pub fn protocol_version(&self) -> Option<&'static str> {
        self.session.as_ref().and_then(|s| s.protocol)
    }

    /// The era of the connection, once the client's first request has decided it (see
    /// [`Era`]).
    pub fn era(&self) -> Option<Era> {
        self.session.as_ref().and_then(|s| s.era)
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
    /// [`Core::routed`]) or [`Server::handle_line_deferred`], for the server's own session.
    #[inline(always)]
    fn answer(&mut self, line: &[u8], out: &mut Vec<u8>, route: bool) -> bool {
        // (Only a panic out of an earlier answer, which nothing should cause, leaves none.)
        let mut sess = self.session.take().unwrap_or_default();
        let wrote = Core {
            server: self,
            sess: &mut sess,
            defer: None,
        }
        .answer(line, out, route);
        // No connection records the subscriptions.
        #[cfg(feature = "async")]
        sess.subscribing.clear();
        self.session = Some(sess);
        wrote
    }

    /// [`Server::max_in_flight`].
    #[cfg_attr(not(feature = "async"), allow(dead_code))]
    pub(super) fn in_flight_bound(&self) -> usize {
        self.max_in_flight
    }

    /// [`Server::call_timeout`].
    #[cfg_attr(not(feature = "async"), allow(dead_code))]
    pub(super) fn call_deadline(&self) -> Option<std::time::Duration> {
        self.call_timeout
    }

    /// The bound on one message, in bytes ([`Server::max_line`]), for the transports.
    #[inline]
    pub(crate) fn line_limit(&self) -> usize {
        self.max_line
    }

    /// The response to a message longer than [`Server::max_line`] (with its line break), for
    /// the transports.
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
}

impl Core<'_> {
    /// One message answered (see [`Server::answer`]).
    #[inline(always)]
    pub(super) fn answer(&mut self, line: &[u8], out: &mut Vec<u8>, route: bool) -> bool {
        let server = self.server;
        server.written.get_or_init(|| server.write_constants());
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
    /// the server routes on ([`Routed`], the modern era's `_meta` included), so that `params`
    /// is walked once, not once as text and again for its members. Returns `false`, having
    /// written nothing and changed nothing, for anything else (a batch, a message that does not
    /// read this way, a method this path does not take, a member a method needs left out, a
    /// request the connection's era refuses): [`dispatch`] then reads it the general way,
    /// which gives the same answer, and the error the specification prescribes for bad input.
    #[inline]
    fn routed(&mut self, line: &[u8], out: &mut Vec<u8>) -> bool {
        let Ok(req) = structio::json::from_json_with::<Request<'_, Routed<'_>>>(line, &skip())
        else {
            return false;
        };
        let Some(id) = &req.id else {
            // A connection's cancellations are read the general way (see `request`).
            #[cfg(feature = "async")]
            if self.defer.is_some() && req.method == "notifications/cancelled" {
                return false;
            }
            // A notification: never answered, decides no era (see `request`).
            return true;
        };
        let method = req.method.as_ref();
        let params = req.params.as_ref();
        let meta = params.and_then(|p| p.meta.as_ref());
        let claims_modern =
            meta.is_some_and(|m| m.protocol_version.is_some()) && method != "initialize";
        let mark = out.len();
        let res = if !claims_modern && self.sess.era != Some(Era::Modern) {
            // The handshake era, or the first request, which opens it.
            match method {
                "tools/call" => {
                    let Some(name) = params.and_then(|p| p.name) else {
                        return false;
                    };
                    self.sess.era = Some(Era::Handshake);
                    let arguments = params.and_then(|p| p.arguments);
                    self.call(id, name, arguments, false, Inbound::default(), out)
                }
                "ping" | "tools/list" => {
                    if self.page_size.is_some() && method == "tools/list" {
                        // Paged: the cursor is read the general way.
                        return false;
                    }
                    self.sess.era = Some(Era::Handshake);
                    if method == "tools/list" {
                        self.catalog(id, false, out);
                    } else {
                        write_raw_result(out, id, b"{}");
                    }
                    Ok(())
                }
                "initialize" => {
                    let Some(asked) = params.and_then(|p| p.protocol_version) else {
                        return false;
                    };
                    self.sess.era = Some(Era::Handshake);
                    self.initialize(id, asked, out)
                }
                _ => return false,
            }
        } else if self.sess.era != Some(Era::Handshake) && meta.is_some_and(RoutedMeta::fits) {
            // The modern era, or the first request, which opens it (an envelope that fits
            // names a version, so the request claims the modern era unless it is
            // `initialize`, which this path does not take).
            match method {
                "tools/call" => {
                    let Some(name) = params.and_then(|p| p.name) else {
                        return false;
                    };
                    if params
                        .is_some_and(|p| p.input_responses.is_some() || p.request_state.is_some())
                    {
                        // A retry: its members are read the general way.
                        return false;
                    }
                    self.sess.era = Some(Era::Modern);
                    let inbound = Inbound {
                        responses: None,
                        state: None,
                        capabilities: meta.and_then(|m| m.client_capabilities),
                    };
                    let arguments = params.and_then(|p| p.arguments);
                    self.call(id, name, arguments, true, inbound, out)
                }
                "tools/list" | "server/discover" => {
                    if self.page_size.is_some() && method == "tools/list" {
                        return false;
                    }
                    self.sess.era = Some(Era::Modern);
                    self.modern_constant(id, method, out)
                }
                _ => return false,
            }
        } else {
            return false;
        };
        if let Err(fault) = res {
            out.truncate(mark);
            crate::write_error(out, id, &fault);
        }
        true
    }

    /// One request or notification: the era decided by the first request (see [`Era`]), then
    /// the request answered in the connection's era.
    #[inline]
    fn request(&mut self, req: &Request<'_>, out: &mut Vec<u8>) -> Result<(), Fault> {
        let Some(id) = &req.id else {
            // Notifications (`notifications/initialized`, `notifications/cancelled`, ...) need
            // no answer and decide no era; a connection is told the call to cancel.
            #[cfg(feature = "async")]
            if let (Some(aside), "notifications/cancelled") =
                (self.defer.as_deref_mut(), req.method.as_ref())
            {
                aside.cancelled = read_params::<CancelledParams>(req.params)
                    .ok()
                    .map(|p| structio::to_json(&p.request_id));
            }
            return Ok(());
        };
        let method = req.method.as_ref();
        // The modern envelope, read in the same walk of `params` as what the method needs
        // where it can be: `initialize` never claims the modern era, `tools/call` reads its
        // members with `_meta` (parameters that do not read so are read again, each part on
        // its own, for the error the method gives them).
        let mut call = None;
        let meta = match method {
            "initialize" => None,
            "tools/call" => match read_params::<CallWithMeta>(req.params) {
                Ok(c) => {
                    call = Some(CallToolRequestParams {
                        name: c.name,
                        arguments: c.arguments,
                        input_responses: c.input_responses,
                        request_state: c.request_state,
                    });
                    c.meta
                }
                Err(_) => Meta::of(req.params),
            },
            _ => Meta::of(req.params),
        };
        let claims_modern =
            meta.as_ref().is_some_and(|m| m.protocol_version.is_some()) && method != "initialize";
        let era = *self.sess.era.get_or_insert(if claims_modern {
            Era::Modern
        } else {
            Era::Handshake
        });
        match era {
            Era::Handshake if claims_modern => Err(ErrorObject::new(
                code::INVALID_REQUEST,
                "Invalid Request: this connection speaks the handshake revisions \
                 (its first request carried no io.modelcontextprotocol/protocolVersion); \
                 requests carrying the 2026-07-28 envelope are refused on it",
            )),
            Era::Handshake => self.handshake(id, method, req.params, call, out),
            Era::Modern => self.modern(id, method, req.params, call, meta.as_ref(), out),
        }
    }

    /// A request of the handshake era (`call`: the `tools/call` parameters, if already read).
    #[inline]
    fn handshake(
        &mut self,
        id: &Id<'_>,
        method: &str,
        params: Option<RawJson<'_>>,
        call: Option<CallToolRequestParams<'_>>,
        out: &mut Vec<u8>,
    ) -> Result<(), Fault> {
        match method {
            "tools/call" => {
                let params = match call {
                    Some(call) => call,
                    None => read_params::<CallToolRequestParams>(params)?,
                };
                // `inputResponses` and `requestState` are revision 2026-07-28's.
                self.call(
                    id,
                    &params.name,
                    params.arguments,
                    false,
                    Inbound::default(),
                    out,
                )
            }
            "tools/list" if self.page_size.is_some() => self.other(id, method, params, None, out),
            "ping" => {
                write_raw_result(out, id, b"{}");
                Ok(())
            }
            "tools/list" => {
                self.catalog(id, false, out);
                Ok(())
            }
            "initialize" => {
                let params: InitializeRequestParams = read_params(params)?;
                self.initialize(id, &params.protocol_version, out)
            }
            m => self.other(id, m, params, None, out),
        }
    }

    /// A request of the modern era: its envelope (`params._meta`) checked as revision
    /// 2026-07-28 prescribes and in the official Python SDK's order (the required members
    /// present, the version a string, a version this server speaks, the capabilities and
    /// client info objects), then the method.
    fn modern(
        &mut self,
        id: &Id<'_>,
        method: &str,
        params: Option<RawJson<'_>>,
        call: Option<CallToolRequestParams<'_>>,
        meta: Option<&Meta<'_>>,
        out: &mut Vec<u8>,
    ) -> Result<(), Fault> {
        if method == "initialize" {
            return Err(initialize_refused(params));
        }
        let Some(meta) = meta else {
            return Err(invalid_params(format!(
                "params._meta must be an object holding the required members \
                 {PROTOCOL_VERSION_KEY} and {CLIENT_CAPABILITIES_KEY}"
            )));
        };
        let (Some(version), Some(capabilities)) = (meta.protocol_version, meta.client_capabilities)
        else {
            let missing: Vec<&str> = [
                (meta.protocol_version.is_none(), PROTOCOL_VERSION_KEY),
                (meta.client_capabilities.is_none(), CLIENT_CAPABILITIES_KEY),
            ]
            .into_iter()
            .filter_map(|(missing, key)| missing.then_some(key))
            .collect();
            return Err(invalid_params(format!(
                "params._meta lacks the required member(s) {}",
                missing.join(", ")
            )));
        };
        let Ok(version) = version.parse::<Cow<'_, str>>() else {
            return Err(invalid_params(format!(
                "params._meta's {PROTOCOL_VERSION_KEY} must be a string"
            )));
        };
        if !MODERN_PROTOCOL_VERSIONS.contains(&version.as_ref()) {
            return Err(unsupported_version(Some(&version)));
        }
        if !is_object(capabilities) {
            return Err(invalid_params(format!(
                "params._meta's {CLIENT_CAPABILITIES_KEY} must be an object"
            )));
        }
        if meta.client_info.is_some_and(|i| !is_object(i)) {
            return Err(invalid_params(format!(
                "params._meta's {CLIENT_INFO_KEY} must be an object"
            )));
        }
        match method {
            "tools/call" => {
                let params = match call {
                    Some(call) => call,
                    None => read_params::<CallToolRequestParams>(params)?,
                };
                let inbound = Inbound {
                    responses: params.input_responses,
                    state: params.request_state,
                    capabilities: Some(capabilities),
                };
                self.call(id, &params.name, params.arguments, true, inbound, out)
            }
            "tools/list" if self.page_size.is_some() => {
                self.other(id, method, params, Some(capabilities), out)
            }
            "tools/list" | "server/discover" => self.modern_constant(id, method, out),
            // `ping` is not a method of revision 2026-07-28.
            m => self.other(id, m, params, Some(capabilities), out),
        }
    }

    /// The methods both eras share besides the tools' own: the lists (and `tools/list` when
    /// it is paged), `resources/read`; `capabilities` (the modern era: the client's, from
    /// `_meta`): results closed as revision 2026-07-28 prescribes. A method of a capability
    /// the server does not have is not found.
    #[cold]
    fn other(
        &mut self,
        id: &Id<'_>,
        method: &str,
        params: Option<RawJson<'_>>,
        capabilities: Option<RawJson<'_>>,
        out: &mut Vec<u8>,
    ) -> Result<(), Fault> {
        let modern = capabilities.is_some();
        let has_resources = !(self.resources.is_empty() && self.templates.is_empty());
        let (result, cacheable) = match method {
            "tools/list" => {
                let cursor = read_params::<PaginatedRequestParams>(params)?.cursor;
                let all = self.tools_now();
                let (tools, next_cursor) = self.page(&all, cursor.as_deref(), method)?;
                let list = ListToolsResult {
                    tools: tools.iter().map(|t| t.listed()).collect(),
                    next_cursor,
                };
                (structio::to_json(&list), true)
            }
            "resources/list" if has_resources => {
                let cursor = read_params::<PaginatedRequestParams>(params)?.cursor;
                let (items, next_cursor) = self.page(&self.resources, cursor.as_deref(), method)?;
                let list = protocol::ListResourcesResult {
                    resources: items.iter().map(resource::Resource::listed).collect(),
                    next_cursor,
                };
                (structio::to_json(&list), true)
            }
            "resources/templates/list" if has_resources => {
                let cursor = read_params::<PaginatedRequestParams>(params)?.cursor;
                let (items, next_cursor) = self.page(&self.templates, cursor.as_deref(), method)?;
                let list = protocol::ListResourceTemplatesResult {
                    resource_templates: items.iter().map(Template::listed).collect(),
                    next_cursor,
                };
                (structio::to_json(&list), true)
            }
            "resources/read" if has_resources => {
                let params: ReadResourceRequestParams = read_params(params)?;
                if modern && params.request_state.is_some() {
                    // This server mints no state for a read: none it is given verifies.
                    return Err(invalid_state());
                }
                let contents = self.read(&params.uri, modern)?;
                (structio::to_json(&ReadResourceResult { contents }), true)
            }
            #[cfg(feature = "async")]
            "resources/subscribe" | "resources/unsubscribe"
                if !modern && has_resources && self.subscriptions =>
            {
                let params: ReadResourceRequestParams = read_params(params)?;
                let on = method == "resources/subscribe";
                let uri = params.uri.into_owned();
                if on && !self.exists(&uri) {
                    return Err(resource_not_found(&uri, false));
                }
                self.sess.subscribing.push((uri, on));
                ("{}".to_owned(), false)
            }
            "prompts/list" if !self.prompts.is_empty() => {
                let cursor = read_params::<PaginatedRequestParams>(params)?.cursor;
                let (items, next_cursor) = self.page(&self.prompts, cursor.as_deref(), method)?;
                let list = protocol::ListPromptsResult {
                    prompts: items.iter().map(prompt::Prompt::listed).collect(),
                    next_cursor,
                };
                (structio::to_json(&list), true)
            }
            "prompts/get" if !self.prompts.is_empty() => {
                let params: GetPromptRequestParams = read_params(params)?;
                let inbound = Inbound {
                    responses: params.input_responses,
                    state: params.request_state,
                    capabilities,
                };
                let (result, closed) =
                    self.get_prompt(id, &params.name, params.arguments, modern, inbound)?;
                if closed {
                    // An `InputRequiredResult`, closed already.
                    write_raw_result(out, id, result.as_bytes());
                    return Ok(());
                }
                (result, false)
            }
            "completion/complete" if !self.completions.is_empty() => {
                let params: CompleteRequestParams = read_params(params)?;
                (self.complete(params)?, false)
            }
            // Revision 2026-07-28 has no `logging/setLevel`: a request opts in to log messages
            // in its `_meta`.
            "logging/setLevel" if !modern && self.has_logging() => {
                let params: SetLevelRequestParams = read_params(params)?;
                let Some(level) = LogLevel::parse(&params.level) else {
                    return Err(invalid_params(format!(
                        "unknown log level {:?}: one of debug, info, notice, warning, error, \
                         critical, alert, emergency",
                        clip(&params.level)
                    )));
                };
                self.sess.log_level = Some(level);
                ("{}".to_owned(), false)
            }
            #[cfg(feature = "async")]
            "subscriptions/listen" if modern => {
                let params: protocol::ListenRequestParams = read_params(params)?;
                let agreed = self.agreed(params.notifications, self.defer.is_some());
                match self.defer.as_deref_mut() {
                    Some(aside) => aside.listen = Some((id.clone().into_owned(), agreed)),
                    // No connection, so nothing can be sent: the stream is acknowledged with
                    // nothing agreed, and stays open.
                    None => out.extend_from_slice(&super::notify::acknowledgement(
                        &structio::to_json(id),
                        &agreed,
                    )),
                }
                return Ok(());
            }
            m => return Err(method_not_found(m)),
        };
        let written = self.written.get();
        let mut result = result.into_bytes();
        if modern {
            result.pop();
            if cacheable {
                result.extend_from_slice(written.map_or(&[][..], |w| &w.hints));
            }
            result.extend_from_slice(written.map_or(&[][..], |w| &w.stamp));
            result.push(b'}');
        }
        write_raw_result(out, id, &result);
        Ok(())
    }

    /// What the server agrees to send on a `subscriptions/listen` stream that `asked` for
    /// these notifications: those it sends (list changes when it has a notifier or live tools
    /// and the list, resource updates of the URIs it has when it has subscriptions); nothing
    /// when it cannot send any (`deliverable` false: no connection).
    #[cfg(feature = "async")]
    fn agreed(&self, asked: SubscriptionFilter, deliverable: bool) -> SubscriptionFilter {
        if !deliverable {
            return SubscriptionFilter::default();
        }
        let has_resources = !(self.resources.is_empty() && self.templates.is_empty());
        let on = |asked: Option<bool>, sent: bool| (asked == Some(true) && sent).then_some(true);
        SubscriptionFilter {
            tools_list_changed: on(
                asked.tools_list_changed,
                self.list_changed || self.has_live_tools(),
            ),
            prompts_list_changed: on(
                asked.prompts_list_changed,
                self.list_changed && !self.prompts.is_empty(),
            ),
            resources_list_changed: on(
                asked.resources_list_changed,
                self.list_changed && has_resources,
            ),
            resource_subscriptions: asked
                .resource_subscriptions
                .filter(|_| self.subscriptions && has_resources)
                .map(|uris| uris.into_iter().filter(|u| self.exists(u)).collect()),
        }
    }

    /// The `prompts/get` result of the prompt `name` with `arguments` (`{}` when there are
    /// none), as JSON, and whether it is closed already (revision 2026-07-28's
    /// `InputRequiredResult`, from a prompt taking a `Context`; `modern`, `inbound`: its multi
    /// round-trip members, a `requestState` verified before the prompt runs).
    fn get_prompt(
        &self,
        id: &Id<'_>,
        name: &str,
        arguments: Option<RawJson<'_>>,
        modern: bool,
        inbound: Inbound<'_>,
    ) -> Result<(String, bool), Fault> {
        let Some(prompt) = self.prompts.iter().find(|p| p.name == name) else {
            return Err(invalid_params(format!("Unknown prompt: {}", clip(name))));
        };
        let args = arguments.map_or("{}", |a| a.get());
        #[cfg(feature = "async")]
        let round = match (&prompt.get, modern) {
            (prompt::Get::WithContext(_), true) => Some(Box::new(Round::new(
                &self.state_key,
                "prompts/get",
                &prompt.name,
                args,
                inbound.responses,
                inbound.state,
                inbound.capabilities,
            )?)),
            _ => None,
        };
        #[cfg(feature = "async")]
        let mints = round.is_some();
        #[cfg(not(feature = "async"))]
        let mints = false;
        if modern && !mints && inbound.state.is_some() {
            // This prompt mints no state: none it is given verifies.
            return Err(invalid_state());
        }
        // A prompt that panics is answered with an internal error; the server keeps serving.
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &prompt.get {
            prompt::Get::Plain(get) => get(args).map_err(ToolError::new),
            #[cfg(feature = "async")]
            prompt::Get::WithContext(get) => {
                let ctx = super::Context::detached(id.clone().into_owned(), round);
                get(args, ctx)
            }
        }));
        #[cfg(not(feature = "async"))]
        let _ = id;
        match got {
            Ok(Ok(messages)) => Ok((
                structio::to_json(&GetPromptResult {
                    description: &prompt.description,
                    messages: messages
                        .into_iter()
                        .map(|m| protocol::PromptMessage {
                            role: m.role,
                            content: m.content.0,
                        })
                        .collect(),
                }),
                false,
            )),
            Ok(Err(e)) => match e.end() {
                End::Failed => Err(invalid_params(e.to_string())),
                End::InputRequired(body) if modern => Ok((self.input_required(body), true)),
                end => Err(self.ended_fault(&prompt.name, "prompt", end)),
            },
            Err(_) => Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                format!("Internal error: prompt `{}` panicked", prompt.name),
            )),
        }
    }

    /// The `completion/complete` result, as JSON: the first [`MAX_COMPLETIONS`] values, the
    /// total, whether there are more; no values for an argument without a completion;
    /// `-32602` for a prompt or template the server does not have.
    fn complete(&self, params: CompleteRequestParams<'_>) -> Result<String, Fault> {
        let reference = &params.reference;
        let argument = params.argument.name.into_owned();
        let target = match (reference.kind.as_ref(), &reference.name, &reference.uri) {
            ("ref/prompt", Some(name), _) => {
                if !self.prompts.iter().any(|p| p.name == name.as_ref()) {
                    return Err(invalid_params(format!("Unknown prompt: {}", clip(name))));
                }
                Target::Prompt(name.to_string(), argument)
            }
            ("ref/resource", _, Some(uri)) => {
                if !self.templates.iter().any(|t| t.template == uri.as_ref()) {
                    return Err(invalid_params(format!(
                        "Unknown resource template: {}",
                        clip(uri)
                    )));
                }
                Target::Template(uri.to_string(), argument)
            }
            _ => {
                return Err(invalid_params(
                    "ref must be {\"type\":\"ref/prompt\",\"name\":...} or \
                     {\"type\":\"ref/resource\",\"uri\":...}"
                        .to_owned(),
                ))
            }
        };
        let context: Vec<(String, String)> = params
            .context
            .and_then(|c| c.arguments)
            .map(|a| a.into_iter().collect())
            .unwrap_or_default();
        let mut values = match self.completions.iter().find(|c| c.target == target) {
            Some(c) => {
                let request = CompletionRequest::new(&params.argument.value, &context);
                let complete = &c.complete;
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| complete(&request)))
                    .map_err(|_| {
                        ErrorObject::new(
                            code::INTERNAL_ERROR,
                            "Internal error: a completion panicked",
                        )
                    })?
            }
            None => Vec::new(),
        };
        let total = values.len();
        values.truncate(MAX_COMPLETIONS);
        Ok(structio::to_json(&CompleteResult {
            completion: protocol::Completion {
                values,
                total,
                has_more: total > MAX_COMPLETIONS,
            },
        }))
    }

    /// One page of `items` from `cursor` (the whole list when the server does not page), and
    /// the cursor of the next page; `-32602` for a cursor this server did not give for
    /// `method`.
    fn page<'s, T>(
        &self,
        items: &'s [T],
        cursor: Option<&str>,
        method: &str,
    ) -> Result<(&'s [T], Option<String>), Fault> {
        let start = match cursor {
            None => 0,
            Some(c) => decode_cursor(c, method)
                .filter(|&at| at <= items.len())
                .ok_or_else(|| {
                    invalid_params(format!(
                        "the cursor {:?} is not one this server gave",
                        clip(c)
                    ))
                })?,
        };
        let rest = &items[start..];
        let size = self.page_size.unwrap_or(usize::MAX);
        if rest.len() <= size {
            return Ok((rest, None));
        }
        Ok((&rest[..size], Some(encode_cursor(start + size, method))))
    }

    /// Whether a resource has `uri` or a template matches it.
    #[cfg(feature = "async")]
    fn exists(&self, uri: &str) -> bool {
        self.resources.iter().any(|r| r.uri == uri)
            || self.templates.iter().any(|t| t.matches(uri).is_some())
    }

    /// The contents of the resource at `uri`: a fixed resource's, else the first matching
    /// template's; `modern`: the not-found error of revision 2026-07-28.
    fn read(&self, uri: &str, modern: bool) -> Result<Vec<protocol::ResourceContents>, Fault> {
        let (variables, read, options) =
            if let Some(r) = self.resources.iter().find(|r| r.uri == uri) {
                (Vec::new(), &r.read, &r.options)
            } else if let Some((t, v)) = self
                .templates
                .iter()
                .find_map(|t| t.matches(uri).map(|v| (t, v)))
            {
                (v, &t.read, &t.options)
            } else {
                return Err(resource_not_found(uri, modern));
            };
        let request = ResourceRequest::new(uri, &variables);
        // A read that panics is answered with an internal error; the server keeps serving.
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(&request)));
        match read {
            Ok(Ok(contents)) => Ok(contents
                .0
                .into_iter()
                .map(|c| {
                    let mut c = c.0;
                    if c.mime_type.is_none() {
                        c.mime_type.clone_from(&options.mime_type);
                    }
                    c
                })
                .collect()),
            Ok(Err(e)) if e.is_not_found() => Err(resource_not_found(uri, modern)),
            Ok(Err(e)) => Err(ErrorObject::new(code::INTERNAL_ERROR, e.message)),
            Err(_) => Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                format!("Internal error: the read of {} panicked", clip(uri)),
            )),
        }
    }

    /// The modern era's `tools/list` or `server/discover` result, written once.
    #[inline]
    fn modern_constant(&self, id: &Id<'_>, method: &str, out: &mut Vec<u8>) -> Result<(), Fault> {
        if method == "tools/list" {
            self.catalog(id, true, out);
        } else {
            let written = self.written.get();
            write_raw_result(out, id, written.map_or(&[][..], |w| &w.discover));
        }
        Ok(())
    }

    /// The unpaged `tools/list` result (`modern`: closed as revision 2026-07-28 prescribes),
    /// written once, or from the [`LiveTools`](super::LiveTools) table as it is now.
    #[inline(always)]
    fn catalog(&self, id: &Id<'_>, modern: bool, out: &mut Vec<u8>) {
        let written = self.written.get();
        #[cfg(feature = "async")]
        if let Some(live) = &self.live {
            let table = live.table();
            let catalog = &table.catalog;
            if !modern {
                write_raw_result(out, id, catalog);
                return;
            }
            let mut result = catalog[..catalog.len() - 1].to_vec();
            if let Some(w) = written {
                result.extend_from_slice(&w.hints);
                result.extend_from_slice(&w.stamp);
            }
            result.push(b'}');
            write_raw_result(out, id, &result);
            return;
        }
        let result = match written {
            Some(w) if modern => &w.modern_catalog[..],
            Some(w) => &w.catalog[..],
            None => &[][..],
        };
        write_raw_result(out, id, result);
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
        self.sess.protocol = Some(version);
        let result = InitializeResult {
            protocol_version: version,
            capabilities: self.capabilities(),
            server_info: self.implementation(),
            instructions: self.instructions.as_deref(),
        };
        crate::write_result(out, id, &result);
        Ok(())
    }

    /// `tools/call` of the tool `name` with `arguments` (`{}` when there are none); `modern`:
    /// the result closed as revision 2026-07-28 prescribes (`resultType`, server info), and
    /// `inbound` its multi round-trip members (a `requestState` verified before the tool
    /// runs: one that does not is refused with `-32602`). A caller that runs calls itself (a
    /// `Connection`) has the call put aside instead.
    #[inline]
    fn call(
        &mut self,
        id: &Id<'_>,
        name: &str,
        arguments: Option<RawJson<'_>>,
        modern: bool,
        inbound: Inbound<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), Fault> {
        let server = self.server;
        let tools = server.tools_now();
        let Some(tool) = tools.iter().find(|t| t.name == name) else {
            return Err(ErrorObject::new(
                code::INVALID_PARAMS,
                format!("Unknown tool: {}", clip(name)),
            ));
        };
        let args = arguments.map_or("{}", |a| a.get());
        // Revision 2026-07-28: the state verified whatever the tool (a plain tool never mints
        // one); a tool that takes a `Context` gets the round, answers and all.
        #[cfg(feature = "async")]
        let round = match (&tool.call, modern) {
            (Call::Task { .. }, true) => Some(Box::new(Round::new(
                &server.state_key,
                "tools/call",
                &tool.name,
                args,
                inbound.responses,
                inbound.state,
                inbound.capabilities,
            )?)),
            _ => {
                if modern && inbound.state.is_some() {
                    return Err(invalid_state());
                }
                None
            }
        };
        #[cfg(not(feature = "async"))]
        if modern && inbound.state.is_some() {
            // No tool here can mint a state: none verifies.
            return Err(invalid_state());
        }
        // A plain synchronous tool is answered here, at once, as `handle_line` answers it;
        // a tool taking a `Context`, or asynchronous, is put aside for the connection's task.
        #[cfg(feature = "async")]
        if let (Some(aside), Call::Task { .. }) = (self.defer.as_deref_mut(), &tool.call) {
            if aside.call.is_none() {
                aside.call = Some(Deferred {
                    tool: tool.clone(),
                    arguments: args.to_owned(),
                    id: id.clone().into_owned(),
                    modern,
                    round,
                });
                return Ok(());
            }
        }
        let scratch = &mut self.sess.scratch;
        scratch.clear();
        // A tool that panics is answered with an internal error; the server keeps serving.
        let called = match &tool.call {
            Call::Sync(call) => {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(args, scratch)))
            }
            #[cfg(feature = "async")]
            Call::Task { call, .. } => {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    super::context::run_here(call, args, id, round).map(|(bytes, shape)| {
                        scratch.extend_from_slice(&bytes);
                        shape
                    })
                }))
            }
        };
        let Ok(called) = called else {
            return Err(tool_panicked(&tool.name));
        };
        server.write_called(id, &tool.name, called, scratch, modern, out);
        Ok(())
    }
}

impl Server {
    /// The response to a `tools/call` of the tool `name` with the outcome `called` (the
    /// result's JSON in `scratch`, see [`Shape`]); `modern`: the result closed as revision
    /// 2026-07-28 prescribes.
    #[inline]
    pub(super) fn write_called(
        &self,
        id: &Id<'_>,
        name: &str,
        called: Result<Shape, CallError>,
        scratch: &mut Vec<u8>,
        modern: bool,
        out: &mut Vec<u8>,
    ) {
        match called {
            Ok(shape) => {
                out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
                structio::write_json(id, out);
                if shape == Shape::Structured {
                    if scratch.first() != Some(&b'{') {
                        scratch.splice(0..0, br#"{"result":"#.iter().copied());
                        scratch.push(b'}');
                    }
                    out.extend_from_slice(br#","result":{"content":[{"type":"text","text":"#);
                    // structio writes UTF-8 only; the check is a formality on a short result.
                    let text = std::str::from_utf8(scratch).unwrap_or("");
                    structio::write_json(&text, out);
                    out.extend_from_slice(br#"}],"structuredContent":"#);
                } else {
                    out.extend_from_slice(br#","result":{"content":"#);
                }
                out.extend_from_slice(scratch);
                if modern {
                    out.extend_from_slice(br#","isError":false"#);
                    out.extend_from_slice(self.written.get().map_or(&[][..], |w| &w.stamp));
                    out.extend_from_slice(b"}}");
                } else {
                    out.extend_from_slice(br#","isError":false}}"#);
                }
            }
            Err(CallError::Tool(e)) if *e.end() != End::Failed => {
                self.write_ended(id, name, e.end(), modern, out)
            }
            Err(e) => {
                let text = match e {
                    CallError::Arguments(e) => tool::arguments_message("tool", name, &e),
                    CallError::Tool(e) => e.to_string(),
                    #[cfg(feature = "async")]
                    CallError::TimedOut(after) => format!(
                        "tool `{name}` did not finish within {} ms",
                        after.as_millis()
                    ),
                };
                let result = CallToolErrorResult {
                    content: [TextContent {
                        kind: "text",
                        text: &text,
                    }],
                    is_error: true,
                };
                crate::write_result(out, id, &result);
                if let (true, Some(w)) = (modern, self.written.get()) {
                    // `...,"isError":true}}`: the stamp goes inside the result object.
                    out.truncate(out.len() - 2);
                    out.extend_from_slice(&w.stamp);
                    out.extend_from_slice(b"}}");
                }
            }
        }
    }

    /// The response to a call that ended other than by a result or a tool execution error:
    /// revision 2026-07-28's `InputRequiredResult` (`modern`; a handshake-era call cannot end
    /// so, and is answered with `-32603`), or a JSON-RPC error.
    #[cold]
    fn write_ended(&self, id: &Id<'_>, name: &str, end: &End, modern: bool, out: &mut Vec<u8>) {
        match end {
            End::InputRequired(body) if modern => {
                write_raw_result(out, id, self.input_required(body).as_bytes());
            }
            end => crate::write_error(out, id, &self.ended_fault(name, "tool", end)),
        }
    }

    /// Revision 2026-07-28's `InputRequiredResult` with `body` (its members after
    /// `resultType`), closed with the server's `_meta`, as JSON.
    #[cold]
    fn input_required(&self, body: &str) -> String {
        let mut result = r#"{"resultType":"input_required""#.to_owned();
        result.push_str(body);
        // The stamp's `_meta` (server info), without its `resultType`.
        let stamp = self.written.get().map_or(&[][..], |w| &w.stamp);
        let meta = stamp.strip_prefix(COMPLETE).unwrap_or(stamp);
        result.push_str(std::str::from_utf8(meta).unwrap_or_default());
        result.push('}');
        result
    }

    /// The error answering a request whose function (a `kind`, `tool` or `prompt`, named
    /// `name`) ended as `end` other than by an `InputRequiredResult` it may send: the
    /// protocol error it carries, or `-32603` for an `InputRequiredResult` in the handshake
    /// era (which has none).
    #[cold]
    fn ended_fault(&self, name: &str, kind: &str, end: &End) -> Fault {
        match end {
            End::Protocol(code, message, data) => {
                let mut fault: Fault = ErrorObject::new(*code, message.clone());
                fault.data = data
                    .as_deref()
                    .and_then(|d| structio::json::from_json::<structio::Value>(d).ok());
                fault
            }
            End::InputRequired(_) | End::Failed => ErrorObject::new(
                code::INTERNAL_ERROR,
                format!(
                    "Internal error: {kind} `{}` ended with an input-required result, which \
                     only revision 2026-07-28 has",
                    clip(name)
                ),
            ),
        }
    }

    /// The server's capabilities: `completions`, `prompts` and `resources` when it has
    /// them, and `tools`; in the handshake era (`handshake`), `subscribe` and `listChanged`
    /// when the server has subscriptions and a notifier.
    fn capabilities(&self) -> ServerCapabilities {
        let has_resources = !(self.resources.is_empty() && self.templates.is_empty());
        #[cfg(feature = "async")]
        let (subscribe, list_changed) = (self.subscriptions.then_some(true), self.list_changed);
        #[cfg(not(feature = "async"))]
        let (subscribe, list_changed) = (None, false);
        let tools_changed = list_changed || self.has_live_tools();
        ServerCapabilities {
            completions: (!self.completions.is_empty()).then_some(CompletionsCapability {}),
            logging: self.has_logging().then_some(LoggingCapability {}),
            prompts: (!self.prompts.is_empty()).then_some(PromptsCapability { list_changed }),
            resources: has_resources.then_some(ResourcesCapability {
                subscribe,
                list_changed,
            }),
            tools: ToolsCapability {
                list_changed: tools_changed,
            },
        }
    }

    /// Whether a [`LiveTools`](super::LiveTools) handle was taken.
    fn has_live_tools(&self) -> bool {
        #[cfg(feature = "async")]
        return self.live.is_some();
        #[cfg(not(feature = "async"))]
        false
    }

    /// Whether the server takes `logging/setLevel` (and advertises `logging`): when a tool
    /// takes a `Context`, through which it may log, or may be added
    /// ([`LiveTools`](super::LiveTools)).
    fn has_logging(&self) -> bool {
        self.has_live_tools() || self.tools.iter().any(|t| t.takes_context())
    }

    /// Whether the server needs a connection: a tool is asynchronous or takes a `Context` (a
    /// call a connection runs on a task of its own), or may be added, or the server sends
    /// notifications not tied to a request ([`Server::notifier`], [`Server::subscriptions`]).
    /// Without one, every answer is given where its message is read, and a transport may serve
    /// the synchronous way ([`Server::handle_line`]) with the same answers.
    #[cfg_attr(not(feature = "async"), allow(dead_code))]
    pub(crate) fn runs_tasks(&self) -> bool {
        #[cfg(feature = "async")]
        if self.list_changed || self.subscriptions {
            return true;
        }
        self.has_logging()
    }

    /// The server's name and version (`serverInfo`).
    fn implementation(&self) -> Implementation<'_> {
        Implementation {
            name: &self.name,
            version: &self.version,
        }
    }

    /// The constant parts of the answers: the catalog in both eras, the `server/discover`
    /// result, and the close of every modern result.
    fn write_constants(&self) -> Written {
        let list = ListToolsResult {
            tools: self.tools.iter().map(|t| t.listed()).collect(),
            next_cursor: None,
        };
        let mut catalog = Vec::new();
        structio::write_json(&list, &mut catalog);

        let mut stamp = COMPLETE.to_vec();
        stamp.extend_from_slice(br#","_meta":{"io.modelcontextprotocol/serverInfo":"#);
        structio::write_json(&self.implementation(), &mut stamp);
        stamp.push(b'}');

        let mut hints = br#","ttlMs":"#.to_vec();
        structio::write_json(&self.cache.0, &mut hints);
        hints.extend_from_slice(match self.cache.1 {
            CacheScope::Public => br#","cacheScope":"public""#.as_slice(),
            CacheScope::Private => br#","cacheScope":"private""#.as_slice(),
        });

        // An object's text with `hints` and `stamp` added before its closing brace.
        let close = |object: &[u8]| {
            let mut v = object[..object.len() - 1].to_vec();
            v.extend_from_slice(&hints);
            v.extend_from_slice(&stamp);
            v.push(b'}');
            v
        };
        let modern_catalog = close(&catalog);
        let mut discover = Vec::new();
        structio::write_json(
            &DiscoverResult {
                supported_versions: MODERN_PROTOCOL_VERSIONS,
                capabilities: self.capabilities(),
                instructions: self.instructions.as_deref(),
            },
            &mut discover,
        );
        let discover = close(&discover);
        Written {
            catalog,
            modern_catalog,
            discover,
            stamp,
            hints,
        }
    }
}

/// The error of a read of `uri`, which no resource has: "Resource not found", the URI in
/// its data; `-32002` in the handshake revisions, `-32602` in revision 2026-07-28.
#[cold]
fn resource_not_found(uri: &str, modern: bool) -> Fault {
    use structio::{Map, Value};
    let code = if modern {
        code::INVALID_PARAMS
    } else {
        RESOURCE_NOT_FOUND
    };
    let mut fault: Fault = ErrorObject::new(code, "Resource not found");
    let mut data = Map::new();
    data.insert("uri", Value::from(uri));
    fault.data = Some(Value::Object(data));
    fault
}

/// The cursor of the list of `method` from item `at`: `method:at` in base64, which a client
/// is not to read.
fn encode_cursor(at: usize, method: &str) -> String {
    super::content::base64(format!("{method}:{at}").as_bytes())
}

/// The item a cursor given for `method` points to, if it is one.
fn decode_cursor(cursor: &str, method: &str) -> Option<usize> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(cursor)
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let at = text.strip_prefix(method)?.strip_prefix(':')?;
    if !at.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    at.parse().ok()
}

/// How the stamp of a modern result begins (its `_meta` follows).
const COMPLETE: &[u8] = br#","resultType":"complete""#;

/// `-32602` for a `requestState` refused: one message for every cause (tampered, expired,
/// minted for another method or tool, or by another key), so that the client is not told
/// which check failed.
#[cold]
pub(super) fn invalid_state() -> Fault {
    ErrorObject::new(code::INVALID_PARAMS, "Invalid or expired requestState")
}

/// `-32603` for a call of the tool `name` that panicked.
#[cold]
pub(super) fn tool_panicked(name: &str) -> Fault {
    ErrorObject::new(
        code::INTERNAL_ERROR,
        format!("Internal error: tool `{name}` panicked"),
    )
}

/// `-32601` for the method `m`.
fn method_not_found(m: &str) -> Fault {
    ErrorObject::new(
        code::METHOD_NOT_FOUND,
        format!("Method not found: {}", clip(m)),
    )
}

/// `-32602` with `what`.
#[cold]
fn invalid_params(what: String) -> Fault {
    ErrorObject::new(code::INVALID_PARAMS, format!("Invalid params: {what}"))
}

/// [`UNSUPPORTED_PROTOCOL_VERSION`], naming the versions served and the one `requested`.
#[cold]
fn unsupported_version(requested: Option<&str>) -> Fault {
    use structio::{Map, Value};
    let mut data = Map::new();
    data.insert("supported", Value::from(MODERN_PROTOCOL_VERSIONS.to_vec()));
    if let Some(v) = requested {
        data.insert("requested", Value::from(v));
    }
    let mut fault: Fault =
        ErrorObject::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version");
    fault.data = Some(Value::Object(data));
    fault
}

/// The answer to `initialize` on a modern connection: [`UNSUPPORTED_PROTOCOL_VERSION`] with
/// the versions served (and the one asked for, when it is a string), as the official Python
/// SDK answers it, so that a handshake client can tell its user what to use.
#[cold]
fn initialize_refused(params: Option<RawJson<'_>>) -> Fault {
    let asked = read_params::<InitializeRequestParams>(params).ok();
    let mut fault = unsupported_version(asked.as_ref().map(|p| p.protocol_version.as_ref()));
    fault.message = Cow::Borrowed(
        "Unsupported protocol version: this connection speaks revision 2026-07-28, \
         which has no initialize handshake",
    );
    fault
}

/// At most 64 bytes of a name a client sent, for a message.
fn clip(s: &str) -> &str {
    let mut end = s.len().min(64);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
