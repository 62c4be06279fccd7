//! Requests from the server to the client (revision 2025-11-25): sampling
//! ([`Context::sample`]), elicitation ([`Context::elicit`]) and any other
//! ([`Context::request`]); the connection's table of those waiting for their answers
//! ([`Peer`]), and the routing of the client's responses to them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

use structio::{JsonSchema, RawJson, ReflectOwned, Value};
use tokio::sync::oneshot;

use super::context::Context;
use super::protocol::skip;
use super::tool::ToolError;
use super::Role;

/// Why a request to the client ([`Context::request`], [`Context::sample`],
/// [`Context::elicit`]) has no answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RequestError {
    /// The call has no client connection: it was made through
    /// [`Server::handle_line`](super::Server::handle_line).
    NoClient,
    /// The connection speaks the stateless revision 2026-07-28, which has no requests from
    /// the server to the client.
    Stateless,
    /// The client did not declare the capability the request needs in `initialize`.
    Unsupported {
        /// The capability: `sampling`, `elicitation` or `roots`.
        capability: &'static str,
    },
    /// The client answered with a JSON-RPC error.
    Client {
        /// The error's code.
        code: i64,
        /// The error's message.
        message: String,
        /// The error's `data`, as JSON text, if any.
        data: Option<String>,
    },
    /// The call was cancelled (or its deadline passed) while it waited for the answer.
    Cancelled,
    /// The connection went away before the answer came.
    Closed,
    /// The answer did not read as the method's result.
    Invalid(String),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::NoClient => {
                f.write_str("the call has no client connection to send a request to")
            }
            RequestError::Stateless => f.write_str(
                "requests from the server to the client are not allowed in the stateless \
                 revision 2026-07-28",
            ),
            RequestError::Unsupported { capability } => {
                write!(f, "the client did not declare the {capability} capability")
            }
            RequestError::Client { code, message, .. } => {
                write!(f, "the client answered with error {code}: {message}")
            }
            RequestError::Cancelled => {
                f.write_str("the call was cancelled while it waited for the client")
            }
            RequestError::Closed => f.write_str("the connection closed before the client answered"),
            RequestError::Invalid(why) => write!(f, "the client's answer did not read: {why}"),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<RequestError> for ToolError {
    fn from(e: RequestError) -> ToolError {
        ToolError::new(e.to_string())
    }
}

/// The parameters of `sampling/createMessage`: the conversation to continue and how. Build it
/// with [`SamplingRequest::new`] and [`SamplingRequest::user`]; every optional member is left
/// out when `None`.
#[derive(structio::Reflect, Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the model may generate.
    #[structio(rename = "maxTokens")]
    pub max_tokens: u32,
    /// The system prompt the server asks for (the client may change or ignore it).
    #[structio(rename = "systemPrompt")]
    pub system_prompt: Option<String>,
    /// The sampling temperature.
    pub temperature: Option<f64>,
    /// Sequences that stop the generation.
    #[structio(rename = "stopSequences")]
    pub stop_sequences: Option<Vec<String>>,
    /// The server's model preferences (MCP's `ModelPreferences`), as JSON.
    #[structio(rename = "modelPreferences")]
    pub model_preferences: Option<Value>,
    /// Metadata passed to the model's provider, as JSON.
    pub metadata: Option<Value>,
}

impl SamplingRequest {
    /// A request with no messages yet, for at most `max_tokens` tokens.
    pub fn new(max_tokens: u32) -> SamplingRequest {
        SamplingRequest {
            messages: Vec::new(),
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: None,
            model_preferences: None,
            metadata: None,
        }
    }

    /// Adds a user message of text.
    pub fn user(mut self, text: impl Into<String>) -> SamplingRequest {
        self.messages.push(SamplingMessage::text(Role::User, text));
        self
    }

    /// Adds an assistant message of text.
    pub fn assistant(mut self, text: impl Into<String>) -> SamplingRequest {
        self.messages
            .push(SamplingMessage::text(Role::Assistant, text));
        self
    }

    /// Sets the system prompt.
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> SamplingRequest {
        self.system_prompt = Some(prompt.into());
        self
    }
}

/// One message of a [`SamplingRequest`]: who says it and its content (MCP's text, image or
/// audio content, as JSON).
#[derive(structio::Reflect, Debug, Clone, PartialEq)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// The content, as JSON: `{"type":"text","text":...}`, an image or an audio block.
    pub content: Value,
}

impl SamplingMessage {
    /// A message of text.
    pub fn text(role: Role, text: impl Into<String>) -> SamplingMessage {
        SamplingMessage {
            role,
            content: Value::from_iter([
                ("type", Value::from("text")),
                ("text", Value::from(text.into())),
            ]),
        }
    }
}

/// The client's answer to `sampling/createMessage`.
#[derive(structio::Reflect, Debug, Clone, PartialEq)]
pub struct SamplingResult {
    /// Who says the generated message (the assistant).
    pub role: Role,
    /// The generated content, as JSON (a content block, or an array of them).
    pub content: Value,
    /// The model that generated it.
    pub model: String,
    /// Why the generation stopped (`endTurn`, `stopSequence`, `maxTokens`, ...), if said.
    #[structio(rename = "stopReason")]
    pub stop_reason: Option<String>,
}

impl SamplingResult {
    /// The text of the generated content: its first text block's.
    pub fn text(&self) -> Option<&str> {
        fn text_of(block: &Value) -> Option<&str> {
            if block.get("type").and_then(Value::as_str) != Some("text") {
                return None;
            }
            block.get("text").and_then(Value::as_str)
        }
        match self.content.as_array() {
            Some(blocks) => blocks.iter().find_map(text_of),
            None => text_of(&self.content),
        }
    }
}

/// The user's answer to `elicitation/create`: the `action` taken, and for `accept` the
/// `content` read as `T`.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation<T> {
    /// The user submitted the form: its content.
    Accept(T),
    /// The user declined to answer.
    Decline,
    /// The user dismissed the request without choosing.
    Cancel,
}

impl Context {
    /// Asks the client to sample its language model (`sampling/createMessage`) and waits for
    /// the answer. Fails as [`Context::request`] does, and when the client did not declare
    /// the `sampling` capability.
    ///
    /// A tool that asks the client's model, driven through a [`Connection`](super::Connection)
    /// (a transport does the same with its bytes): the request goes out on the call's outbox,
    /// and the client's response, handed to the connection, completes the call.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use structio_rpc::mcp::{Connection, Context, Outbox, SamplingRequest, Server, ToolError};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Summarize { text: String }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let server = Server::new("s", "1").tool("summarize", "Summarizes", |ctx: Context, a: Summarize| async move {
    ///     let request = SamplingRequest::new(100).user(format!("Summarize: {}", a.text));
    ///     let answer = ctx.sample(&request).await?; // fails without the `sampling` capability
    ///     Ok::<_, ToolError>(answer.text().unwrap_or_default().to_owned())
    /// });
    /// let mut connection = Connection::new(Arc::new(server));
    /// let (outbox, mut frames) = Outbox::channel();
    /// connection.handle(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}"#, outbox);
    /// frames.recv().await.unwrap();
    ///
    /// let (outbox, mut frames) = Outbox::channel();
    /// connection.handle(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"summarize","arguments":{"text":"a long story"}}}"#, outbox);
    /// // The server's request, with an id of its own, on the call's outbox.
    /// let request = String::from_utf8(frames.recv().await.unwrap()).unwrap();
    /// assert_eq!(request, r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Summarize: a long story"}}],"maxTokens":100}}"#);
    /// // The client's answer, handed to the connection like any message (nothing is sent back).
    /// let (outbox, _) = Outbox::channel();
    /// connection.handle(br#"{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"A story."},"model":"m"}}"#, outbox);
    /// let response = String::from_utf8(frames.recv().await.unwrap()).unwrap();
    /// assert!(response.starts_with(r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"A story."}]"#));
    /// # });
    /// ```
    pub async fn sample(&self, request: &SamplingRequest) -> Result<SamplingResult, RequestError> {
        let result = self
            .request("sampling/createMessage", &structio::to_json(request))
            .await?;
        structio::json::from_json_with::<SamplingResult>(&result, &skip())
            .map_err(|e| RequestError::Invalid(e.to_string()))
    }

    /// Asks the user for input (`elicitation/create`, form mode) with `message` and a
    /// `requestedSchema` made from `T`'s derive ([`structio::json_schema`], kept to the flat
    /// object of primitive members elicitation allows: `type`, `properties`, `required`), and
    /// waits for the answer, whose `content` is read as `T`. Fails as [`Context::request`]
    /// does, and when the client did not declare the `elicitation` capability with form mode
    /// (`{}`, or one listing `form`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use structio_rpc::mcp::{Connection, Context, Elicitation, Outbox, Server, ToolError};
    ///
    /// #[derive(structio::Reflect)]
    /// struct Contact { name: String, age: u32 }
    /// #[derive(structio::Reflect)]
    /// struct NoArguments {}
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let server = Server::new("s", "1").tool("register", "Asks who the user is", |ctx: Context, _: NoArguments| async move {
    ///     Ok::<_, ToolError>(match ctx.elicit::<Contact>("Who are you?").await? {
    ///         Elicitation::Accept(c) => format!("hello {} ({})", c.name, c.age),
    ///         Elicitation::Decline | Elicitation::Cancel => "no answer".to_owned(),
    ///     })
    /// });
    /// let mut connection = Connection::new(Arc::new(server));
    /// let (outbox, mut frames) = Outbox::channel();
    /// connection.handle(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}"#, outbox);
    /// frames.recv().await.unwrap();
    ///
    /// let (outbox, mut frames) = Outbox::channel();
    /// connection.handle(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"register","arguments":{}}}"#, outbox);
    /// let request = String::from_utf8(frames.recv().await.unwrap()).unwrap();
    /// assert!(request.starts_with(r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Who are you?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}"#));
    /// let (outbox, _) = Outbox::channel();
    /// connection.handle(br#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ann","age":7}}}"#, outbox);
    /// let response = String::from_utf8(frames.recv().await.unwrap()).unwrap();
    /// assert!(response.contains(r#""text":"hello Ann (7)""#));
    /// # });
    /// ```
    pub async fn elicit<T: ReflectOwned + JsonSchema>(
        &self,
        message: &str,
    ) -> Result<Elicitation<T>, RequestError> {
        let schema = structio::to_json(&elicitation_schema(structio::json_schema::<T>()));
        self.elicit_with_schema(message, &schema).await
    }

    /// [`Context::elicit`] with a `requestedSchema` given as JSON text, for schemas the derive
    /// does not make (defaults, titled enums, ...); the answer's `content` is read as `T`
    /// (a [`Value`] takes anything).
    pub async fn elicit_with_schema<T: ReflectOwned>(
        &self,
        message: &str,
        schema: &str,
    ) -> Result<Elicitation<T>, RequestError> {
        let mut params = br#"{"message":"#.to_vec();
        structio::write_json(&message, &mut params);
        params.extend_from_slice(br#","requestedSchema":"#);
        params.extend_from_slice(schema.trim().as_bytes());
        params.push(b'}');
        let params = String::from_utf8(params).unwrap_or_default();
        let result = self.request("elicitation/create", &params).await?;
        read_elicitation(&result)
    }
}

/// The answer to `elicitation/create`, its content read as `T`.
fn read_elicitation<T: ReflectOwned>(result: &str) -> Result<Elicitation<T>, RequestError> {
    #[derive(structio::Reflect)]
    struct ElicitResult<'a> {
        action: String,
        content: Option<RawJson<'a>>,
    }
    let invalid = |e: structio::Error| RequestError::Invalid(e.to_string());
    let answer =
        structio::json::from_json_with::<ElicitResult<'_>>(result, &skip()).map_err(invalid)?;
    match answer.action.as_str() {
        "accept" => {
            let content = answer.content.as_ref().map_or("{}", |c| c.get());
            structio::json::from_json_with::<T>(content, &skip())
                .map(Elicitation::Accept)
                .map_err(invalid)
        }
        "decline" => Ok(Elicitation::Decline),
        "cancel" => Ok(Elicitation::Cancel),
        other => Err(RequestError::Invalid(format!("unknown action {other:?}"))),
    }
}

/// A derived type's schema as elicitation's `requestedSchema`: `type`, `properties` (an
/// optional member's `anyOf` with `null` reduced to the other schema) and `required`.
pub(super) fn elicitation_schema(schema: Value) -> Value {
    let mut out = structio::Map::new();
    out.insert("type", Value::from("object"));
    let mut properties = structio::Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props.iter() {
            properties.insert(name, without_null(prop.clone()));
        }
    }
    out.insert("properties", Value::Object(properties));
    if let Some(required) = schema.get("required") {
        out.insert("required", required.clone());
    }
    Value::Object(out)
}

/// `{"anyOf": [s, {"type": "null"}]}` (or the other way round) as `s`; else the schema.
fn without_null(schema: Value) -> Value {
    let is_null = |s: &Value| s.get("type").and_then(Value::as_str) == Some("null");
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        if any.len() == 2 {
            if is_null(&any[1]) {
                return any[0].clone();
            }
            if is_null(&any[0]) {
                return any[1].clone();
            }
        }
    }
    schema
}

/// What a client answers a request with: its `result` as JSON text, or why there is none.
type Reply = Result<String, RequestError>;

/// The capabilities a client declared in `initialize`, as bits.
pub(super) const SAMPLING: u8 = 1;
pub(super) const ELICITATION: u8 = 2;
pub(super) const ROOTS: u8 = 4;

/// The capabilities declared in `caps` (a `ClientCapabilities` object, as JSON text), as
/// bits: `sampling`, `roots` when present and not `null`; `elicitation` when it takes forms
/// (what `elicit` asks for): `{}` (form, as before modes), or one that lists `form` (a client
/// declaring `url` mode only takes no forms).
pub(super) fn capability_bits(caps: &str) -> u8 {
    #[derive(structio::Reflect)]
    struct Capabilities<'a> {
        sampling: Option<RawJson<'a>>,
        elicitation: Option<RawJson<'a>>,
        roots: Option<RawJson<'a>>,
    }
    let Ok(caps) = structio::json::from_json_with::<Capabilities<'_>>(caps, &skip()) else {
        return 0;
    };
    let has = |c: &Option<RawJson<'_>>| c.as_ref().is_some_and(|c| c.get().trim() != "null");
    let mut bits = 0;
    if has(&caps.sampling) {
        bits |= SAMPLING;
    }
    let form = caps.elicitation.as_ref().is_some_and(|e| {
        match structio::json::from_json::<Value>(e.get()) {
            Ok(Value::Object(modes)) => modes.get("form").is_some() || modes.get("url").is_none(),
            _ => false,
        }
    });
    if form {
        bits |= ELICITATION;
    }
    if has(&caps.roots) {
        bits |= ROOTS;
    }
    bits
}

/// A connection's side of its requests to the client: the ids it issues, the requests
/// waiting for their answers, and the capabilities the client declared. Shared by the
/// connection (which routes responses to it) and the contexts of its calls.
#[derive(Debug, Default)]
pub(super) struct Peer {
    next: AtomicU64,
    pending: Mutex<HashMap<u64, oneshot::Sender<Reply>>>,
    capabilities: AtomicU8,
}

impl Peer {
    /// Whether the client declared what `method` needs.
    pub(super) fn check(&self, method: &str) -> Result<(), RequestError> {
        let (bit, capability) = match method {
            "sampling/createMessage" => (SAMPLING, "sampling"),
            "elicitation/create" => (ELICITATION, "elicitation"),
            "roots/list" => (ROOTS, "roots"),
            _ => return Ok(()),
        };
        if self.capabilities.load(Ordering::Relaxed) & bit == 0 {
            return Err(RequestError::Unsupported { capability });
        }
        Ok(())
    }

    /// A new request: its id, and where its answer will come.
    pub(super) fn register(&self) -> (u64, oneshot::Receiver<Reply>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let (tx, rx) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id, tx);
        }
        (id, rx)
    }

    /// Forgets the request `id`; whether it was still waiting.
    pub(super) fn forget(&self, id: u64) -> bool {
        self.pending
            .lock()
            .ok()
            .and_then(|mut p| p.remove(&id))
            .is_some()
    }

    /// Fails every request still waiting: the connection is gone.
    pub(super) fn close(&self) {
        if let Ok(mut pending) = self.pending.lock() {
            // Dropping the senders: each waiting request ends as `RequestError::Closed`.
            pending.clear();
        }
    }

    /// How many requests wait for their answers.
    pub(super) fn waiting(&self) -> usize {
        self.pending.lock().map_or(0, |p| p.len())
    }

    /// Reads the client's capabilities from `message`, when it is `initialize`.
    pub(super) fn initialize(&self, message: &[u8]) {
        #[derive(structio::Reflect)]
        struct Message<'a> {
            method: Option<RawJson<'a>>,
            params: Option<Params<'a>>,
        }
        #[derive(structio::Reflect)]
        struct Params<'a> {
            capabilities: Option<RawJson<'a>>,
        }
        // Only an `initialize` is read a second time here.
        if !may_hold(message, b"\"initialize\"") {
            return;
        }
        let Ok(message) = structio::json::from_json_with::<Message<'_>>(message, &skip()) else {
            return;
        };
        if message.method.as_ref().map(|m| m.get().trim()) != Some("\"initialize\"") {
            return;
        }
        let bits = message
            .params
            .and_then(|p| p.capabilities)
            .map_or(0, |caps| capability_bits(caps.get()));
        self.capabilities.store(bits, Ordering::Relaxed);
    }

    /// Takes `message` when it is a response (or a batch of responses): each completes the
    /// request it answers; one answering no waiting request is ignored. Returns whether the
    /// message was taken.
    pub(super) fn route(&self, message: &[u8]) -> bool {
        // A response has a `result` or an `error` member: a message holding neither is a
        // request or a notification, and is not read a second time here.
        if !may_hold(message, b"\"result\"") && !may_hold(message, b"\"error\"") {
            return false;
        }
        match message.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => match read_response(message) {
                Some(response) => {
                    self.complete(response);
                    true
                }
                None => false,
            },
            Some(b'[') => {
                let Ok(items) = structio::json::from_json::<Vec<RawJson<'_>>>(message) else {
                    return false;
                };
                let responses: Option<Vec<_>> = items
                    .iter()
                    .map(|item| read_response(item.get().as_bytes()))
                    .collect();
                match responses {
                    Some(responses) if !responses.is_empty() => {
                        responses.into_iter().for_each(|r| self.complete(r));
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Completes the request `response` answers, if it waits.
    fn complete(&self, (id, reply): (Option<u64>, Reply)) {
        let Some(id) = id else {
            return;
        };
        let waiting = self.pending.lock().ok().and_then(|mut p| p.remove(&id));
        if let Some(tx) = waiting {
            let _ = tx.send(reply);
        }
    }
}

/// `message` as a response: the id it answers (when it is one this server could have
/// issued) and its result or error; `None` when it is not a response.
fn read_response(message: &[u8]) -> Option<(Option<u64>, Reply)> {
    #[derive(structio::Reflect)]
    struct Response<'a> {
        id: Option<RawJson<'a>>,
        method: Option<RawJson<'a>>,
        result: Option<RawJson<'a>>,
        error: Option<RawJson<'a>>,
    }
    #[derive(structio::Reflect)]
    struct ErrorObject<'a> {
        code: i64,
        message: String,
        data: Option<RawJson<'a>>,
    }
    let response = structio::json::from_json_with::<Response<'_>>(message, &skip()).ok()?;
    if response.method.is_some() || response.id.is_none() {
        return None;
    }
    let id = response.id.as_ref().and_then(|id| {
        let text = id.get().trim();
        text.trim_matches('"').parse::<u64>().ok()
    });
    let reply = match (response.result, response.error) {
        (Some(result), None) => Ok(result.get().to_owned()),
        (None, Some(error)) => Err(
            match structio::json::from_json_with::<ErrorObject<'_>>(error.get(), &skip()) {
                Ok(e) => RequestError::Client {
                    code: e.code,
                    message: e.message,
                    data: e.data.map(|d| d.get().to_owned()),
                },
                Err(e) => RequestError::Invalid(e.to_string()),
            },
        ),
        _ => return None,
    };
    Some((id, reply))
}

/// Whether `message` may hold the JSON token `needle` (a quoted key or string without
/// escapes): when its bytes appear in it, and whenever the message holds a `\`, with which an
/// escaped key or string could spell it. `false` is certain, so the message need not be read
/// for it.
fn may_hold(message: &[u8], needle: &[u8]) -> bool {
    memchr::memchr(b'\\', message).is_some() || memchr::memmem::find(message, needle).is_some()
}
