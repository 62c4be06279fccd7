//! Tools: a typed function behind a name (the registry entry), what its result may be
//! ([`IntoToolResult`]), and the errors a call reports ([`ToolError`]).

use std::any::{Any, TypeId};
use std::fmt;

#[cfg(feature = "async")]
use super::Context;
use super::{Content, Icon, ToolAnnotations};
use sealed::Shape;

/// What a tool reports when a call fails: a message, and the arguments at fault by path. The
/// client receives it as a tool execution error (`isError: true`, the text below), which the
/// model sees and can act on.
///
/// ```
/// use structio_rpc::mcp::ToolError;
/// let e = ToolError::invalid("$.query", "must hold 1 to 64 characters")
///     .and("$.limit", "must be between 1 and 100");
/// assert_eq!(
///     e.to_string(),
///     "invalid arguments:\n$.query: must hold 1 to 64 characters\n$.limit: must be between 1 and 100"
/// );
/// assert_eq!(ToolError::new("the index is offline").to_string(), "the index is offline");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    issues: Vec<(String, String)>,
    /// How the call ends when not as a tool execution error (`None`): (made by a
    /// [`Context`]) an input-required result or a protocol error. Boxed, so that the error a
    /// tool returns, moved on every call's way back, stays small.
    end: Option<Box<End>>,
}

/// [`End::Failed`], for [`ToolError::end`] to lend.
static FAILED: End = End::Failed;

/// How a [`ToolError`] ends its call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "async"), allow(dead_code))]
pub(super) enum End {
    /// A tool execution error (`isError: true`).
    Failed,
    /// Revision 2026-07-28's `InputRequiredResult`: its members after `resultType`
    /// (`"inputRequests":{...},"requestState":"..."`), as JSON text.
    InputRequired(String),
    /// A JSON-RPC error: code, message, `data` as JSON text.
    Protocol(i32, String, Option<String>),
}

impl ToolError {
    /// A failure described by `message`.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            issues: Vec::new(),
            end: None,
        }
    }

    /// A call ending as `end` says, described by `message` (what [`fmt::Display`] shows).
    #[cfg_attr(not(feature = "async"), allow(dead_code))]
    pub(super) fn ending(message: impl Into<String>, end: End) -> ToolError {
        ToolError {
            end: (end != End::Failed).then(|| Box::new(end)),
            ..ToolError::new(message)
        }
    }

    /// How the call ends.
    pub(super) fn end(&self) -> &End {
        self.end.as_deref().unwrap_or(&FAILED)
    }

    /// Whether this is no failure but revision 2026-07-28's request for more input (made by
    /// [`Context::ask`](super::Context::ask) and its kin, or
    /// [`Context::input_required`](super::Context::input_required)): the call then ends
    /// with an `InputRequiredResult`. A tool that catches errors should pass this one on.
    pub fn is_input_required(&self) -> bool {
        matches!(self.end(), End::InputRequired(_))
    }

    /// The argument at `path` (`$.query`) is not acceptable, for the reason `message`.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> ToolError {
        ToolError::new("invalid arguments").and(path, message)
    }

    /// The same error naming one more argument at fault.
    pub fn and(mut self, path: impl Into<String>, message: impl Into<String>) -> ToolError {
        self.issues.push((path.into(), message.into()));
        self
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The arguments at fault: (path, reason).
    pub fn issues(&self) -> &[(String, String)] {
        &self.issues
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.issues.is_empty() {
            f.write_str(":")?;
        }
        for (path, message) in &self.issues {
            write!(f, "\n{path}: {message}")?;
        }
        Ok(())
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> ToolError {
        ToolError::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> ToolError {
        ToolError::new(message)
    }
}

/// What a tool lists besides its name, description and schemas (`tools/list`, both eras): a
/// display `title`, behaviour hints ([`ToolAnnotations`]) and [`Icon`]s; each left out when
/// unset. Given to [`Server::tool_with`](super::Server::tool_with).
///
/// ```
/// use structio_rpc::mcp::{Icon, ToolAnnotations, ToolOptions};
///
/// let options = ToolOptions::new()
///     .title("Add two integers")
///     .annotations(ToolAnnotations::new().read_only(true))
///     .icon(Icon::new("https://example.com/add.svg").size("any"));
/// // The same, with the fields:
/// let same = ToolOptions {
///     title: Some("Add two integers".into()),
///     annotations: Some(ToolAnnotations { read_only_hint: Some(true), ..Default::default() }),
///     icons: vec![Icon::new("https://example.com/add.svg").size("any")],
/// };
/// assert_eq!(options, same);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolOptions {
    /// `title`: a human-readable name for display (a client shows it before
    /// `annotations.title`, and either before the tool's name).
    pub title: Option<String>,
    /// `annotations`: hints about the tool's behaviour.
    pub annotations: Option<ToolAnnotations>,
    /// `icons`: icons a client may show for the tool (none: left out).
    pub icons: Vec<Icon>,
}

impl ToolOptions {
    /// Nothing set.
    pub fn new() -> ToolOptions {
        ToolOptions::default()
    }

    /// With `title`.
    pub fn title(mut self, title: impl Into<String>) -> ToolOptions {
        self.title = Some(title.into());
        self
    }

    /// With `annotations`.
    pub fn annotations(mut self, annotations: ToolAnnotations) -> ToolOptions {
        self.annotations = Some(annotations);
        self
    }

    /// With one more icon.
    pub fn icon(mut self, icon: Icon) -> ToolOptions {
        self.icons.push(icon);
        self
    }
}

/// The most characters in a tool name (MCP 2025-11-25, "Tool names").
pub const MAX_TOOL_NAME: usize = 128;

/// A problem in how a [`Server`](super::Server) was built: a tool (or a resource) that could
/// not be added. The tool is left out (an earlier tool of the same name stays), the problem is recorded, and
/// [`Server::check`](super::Server::check) returns the first one, as do
/// [`Server::serve_stdio`](super::Server::serve_stdio) and
/// [`Server::serve`](super::Server::serve) (as an `io::Error` of kind `InvalidInput`, before
/// reading anything).
///
/// ```
/// use structio_rpc::mcp::{BuildErrorKind, Server, ToolError};
///
/// #[derive(structio::Reflect)]
/// struct Name { name: String }
///
/// let greet = |n: Name| Ok::<_, ToolError>(format!("Hello, {}!", n.name));
/// let server = Server::new("demo", "1")
///     .tool("greet", "Greets", greet)
///     .tool("greet", "Greets again", greet)
///     .tool("say hello", "Greets", greet);
/// let e = server.check().unwrap_err();
/// assert_eq!(e.kind(), BuildErrorKind::DuplicateToolName);
/// assert_eq!(e.tool(), "greet");
/// assert_eq!(server.problems().len(), 2);
/// assert_eq!(server.problems()[1].kind(), BuildErrorKind::InvalidToolName);
/// assert_eq!(server.tool_names().collect::<Vec<_>>(), ["greet"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    kind: BuildErrorKind,
    tool: String,
    message: String,
}

/// What is wrong, in a [`BuildError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// The name is not 1 to 128 characters of `A-Z`, `a-z`, `0-9`, `_`, `-`, `.` (the MCP
    /// specification's rule, revision 2025-11-25, "Tool names").
    InvalidToolName,
    /// A tool of that name was added before (names are unique within a server, and
    /// case-sensitive).
    DuplicateToolName,
    /// A schema given as text ([`Server::tool_with_schema`](super::Server::tool_with_schema))
    /// is not one well-formed JSON value.
    InvalidSchema,
    /// An output schema was given for a tool whose results are not structured content
    /// ([`IntoToolResult`]).
    OutputSchemaWithoutStructuredResults,
    /// A resource's URI is not an absolute URI (a scheme, a colon, no space)
    /// ([`Server::resource`](super::Server::resource)).
    InvalidResourceUri,
    /// A resource at that URI was added before.
    DuplicateResourceUri,
    /// A resource template is not an RFC 6570 level 1 template this server reads
    /// ([`Server::resource_template`](super::Server::resource_template)).
    InvalidResourceTemplate,
    /// The same resource template was added before.
    DuplicateResourceTemplate,
    /// A prompt's name is empty ([`Server::prompt`](super::Server::prompt)).
    InvalidPromptName,
    /// A prompt of that name was added before.
    DuplicatePromptName,
    /// A completion names a prompt argument or a template variable the server does not have
    /// (yet: the prompt or template is added first)
    /// ([`Server::complete_prompt_argument`](super::Server::complete_prompt_argument),
    /// [`Server::complete_template_variable`](super::Server::complete_template_variable)).
    UnknownCompletionTarget,
    /// A key given to [`Server::request_state_key`](super::Server::request_state_key) is
    /// shorter than `MIN_REQUEST_STATE_KEY` bytes (the
    /// server keeps its own random key).
    ShortRequestStateKey,
}

impl BuildError {
    pub(super) fn new(kind: BuildErrorKind, tool: &str, message: String) -> BuildError {
        BuildError {
            kind,
            tool: tool.to_owned(),
            message,
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> BuildErrorKind {
        self.kind
    }

    /// The name of the tool, or the URI or template of the resource, that was not added (as
    /// given).
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BuildError {}

/// Why `name` is not a tool name the MCP specification allows (revision 2025-11-25, "Tool
/// names": 1 to 128 characters, each an ASCII letter, a digit, `_`, `-` or `.`), if it is not.
pub(super) fn tool_name_problem(name: &str) -> Option<String> {
    const RULE: &str = "a tool name has 1 to 128 characters, each of A-Z, a-z, 0-9, _, - and .";
    if name.is_empty() {
        return Some(format!("the tool name is empty: {RULE}"));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Some(format!("the tool name {name:?} holds {c:?}: {RULE}"));
    }
    if name.len() > MAX_TOOL_NAME {
        return Some(format!(
            "the tool name {:?}... has {} characters: {RULE}",
            &name[..16],
            name.len()
        ));
    }
    None
}

/// Why a call gave no result.
pub(super) enum CallError {
    /// The arguments do not fit the tool's argument type or break its constraints.
    Arguments(structio::Report),
    /// The tool reported an error.
    Tool(ToolError),
    /// The call did not finish within the server's deadline
    /// ([`Server::call_timeout`](super::Server::call_timeout)).
    #[cfg(feature = "async")]
    TimedOut(std::time::Duration),
}

/// A plain tool's function: the arguments' JSON text in, the result appended to the buffer
/// (see [`Shape`]).
pub(super) type SyncCall =
    Box<dyn Fn(&str, &mut Vec<u8>) -> Result<Shape, CallError> + Send + Sync>;

/// What a call gives: the result's JSON (see [`Shape`]) and its shape, or why there is none.
#[cfg(feature = "async")]
pub(super) type Called = Result<(Vec<u8>, Shape), CallError>;

/// A running asynchronous call.
#[cfg(feature = "async")]
pub(super) type ToolFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Called> + Send>>;

/// What calling a tool that takes a [`Context`] or is asynchronous gives at once: the outcome
/// (a synchronous tool, or arguments that do not fit), or the future that runs the call.
#[cfg(feature = "async")]
pub(super) enum Started {
    /// Done.
    Ready(Called),
    /// To be awaited.
    Pending(ToolFuture),
}

/// A tool taking a [`Context`], or asynchronous: the arguments' JSON text and the call's
/// context in, the call started.
#[cfg(feature = "async")]
pub(super) type TaskCall = Box<dyn Fn(&str, Context) -> Started + Send + Sync>;

/// How a tool is called.
pub(super) enum Call {
    /// A plain function (`Fn(A) -> Result<R, ToolError>`): called where the request is read
    /// ([`Server::handle_line`](super::Server::handle_line)), or on a blocking thread of a
    /// connection.
    Sync(SyncCall),
    /// A function taking a [`Context`] (`blocking`: synchronous, run on a blocking thread of
    /// a connection), or an asynchronous one.
    #[cfg(feature = "async")]
    Task {
        /// Whether the function is synchronous.
        blocking: bool,
        /// The function.
        call: TaskCall,
    },
}

/// A registered tool.
pub(super) struct Tool {
    pub(super) name: String,
    pub(super) description: String,
    /// JSON text.
    pub(super) input_schema: String,
    /// JSON text.
    pub(super) output_schema: Option<String>,
    /// Title, annotations, icons.
    pub(super) options: ToolOptions,
    pub(super) call: Call,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("context", &self.takes_context())
            .finish_non_exhaustive()
    }
}

impl Tool {
    /// The tool `name` calling `call`, with its schemas as JSON text; `taken`: a tool of that
    /// name is there already. The problem, if the tool cannot be added.
    pub(super) fn build<M, F>(
        name: &str,
        description: &str,
        options: ToolOptions,
        schemas: (&str, Option<&str>),
        call: F,
        taken: bool,
    ) -> Result<Tool, BuildError>
    where
        F: ToolHandler<M>,
    {
        let (input_schema, output_schema) = schemas;
        let problem = if let Some(why) = tool_name_problem(name) {
            Some((BuildErrorKind::InvalidToolName, why))
        } else if taken {
            Some((
                BuildErrorKind::DuplicateToolName,
                format!("a tool named {name:?} was added before; tool names are unique"),
            ))
        } else if let Some(e) = std::iter::once(input_schema)
            .chain(output_schema)
            .find_map(|s| structio::json::validate(s.as_bytes()).err())
        {
            Some((
                BuildErrorKind::InvalidSchema,
                format!("a schema of tool {name:?} is not JSON: {e}"),
            ))
        } else if output_schema.is_some() && !<F::Output as sealed::Sealed<F::Kind>>::structured() {
            Some((
                BuildErrorKind::OutputSchemaWithoutStructuredResults,
                format!(
                    "tool {name:?} has an output schema, but its results are not structured content"
                ),
            ))
        } else {
            None
        };
        if let Some((kind, message)) = problem {
            return Err(BuildError::new(kind, name, message));
        }
        Ok(Tool {
            name: name.to_owned(),
            description: description.to_owned(),
            input_schema: input_schema.to_owned(),
            output_schema: output_schema.map(str::to_owned),
            options,
            call: sealed::IntoCall::into_call(call).0,
        })
    }

    /// The schemas of `F`'s arguments and, when its results are structured content, of its
    /// results, as JSON text.
    pub(super) fn schemas<M, F>() -> (String, Option<String>)
    where
        F: ToolHandler<M>,
        F::Args: structio::JsonSchema,
        F::Output: structio::JsonSchema,
    {
        let input = structio::to_json(&structio::json_schema::<F::Args>());
        let output = <F::Output as sealed::Sealed<F::Kind>>::structured()
            .then(|| structio::to_json(&object_schema(structio::json_schema::<F::Output>())));
        (input, output)
    }

    /// As `tools/list` shows it.
    pub(super) fn listed(&self) -> super::protocol::Tool<'_> {
        super::protocol::Tool {
            name: &self.name,
            title: self.options.title.as_deref(),
            description: &self.description,
            input_schema: structio::RawJson::new(&self.input_schema).unwrap_or_default(),
            output_schema: self
                .output_schema
                .as_deref()
                .and_then(|s| structio::RawJson::new(s).ok()),
            annotations: self.options.annotations.clone(),
            icons: self.options.icons.clone(),
        }
    }

    /// Whether the tool takes a [`Context`] (and so may log).
    pub(super) fn takes_context(&self) -> bool {
        match self.call {
            Call::Sync(_) => false,
            #[cfg(feature = "async")]
            Call::Task { .. } => true,
        }
    }
}

/// A function that can be a tool ([`Server::tool`](super::Server::tool)): `Fn(A) ->
/// Result<R, ToolError>`, and with the `async` feature also `Fn(Context, A) -> Result<R,
/// ToolError>`, an `async fn(A) -> Result<R, ToolError>` (or a closure returning such a
/// future) and an `async fn(Context, A) -> Result<R, ToolError>`; `A` is read from the call's
/// arguments, `R` is sent as its type says ([`IntoToolResult`]).
///
/// `M` is a marker the compiler infers (one of [`Plain`], and with `async`, `WithContext`,
/// `Async`, `AsyncWithContext`, each with the argument and result types); it is never
/// written. The trait is sealed.
pub trait ToolHandler<M>: sealed::IntoCall<M> + Send + Sync + Sized + 'static {
    /// The arguments' type.
    type Args: structio::ReflectOwned + 'static;
    /// The result's type.
    type Output: IntoToolResult<Self::Kind>;
    /// The result's marker ([`ReflectResult`] or [`ContentResult`]).
    type Kind;
}

/// The marker of [`ToolHandler`] for `Fn(A) -> Result<R, ToolError>`. Never written.
#[derive(Debug)]
pub enum Plain {}

impl<F, A, R, K> sealed::IntoCall<(Plain, A, R, K)> for F
where
    F: Fn(A) -> Result<R, ToolError> + Send + Sync + 'static,
    A: structio::ReflectOwned + 'static,
    R: IntoToolResult<K>,
{
    fn into_call(self) -> sealed::Registered {
        sealed::Registered(Call::Sync(Box::new(
            move |args: &str, out: &mut Vec<u8>| {
                let args: A = read_arguments(args).map_err(CallError::Arguments)?;
                let result = self(args).map_err(CallError::Tool)?;
                Ok(result.write_result(out))
            },
        )))
    }
}

impl<F, A, R, K> ToolHandler<(Plain, A, R, K)> for F
where
    F: Fn(A) -> Result<R, ToolError> + Send + Sync + 'static,
    A: structio::ReflectOwned + 'static,
    R: IntoToolResult<K>,
{
    type Args = A;
    type Output = R;
    type Kind = K;
}

#[cfg(feature = "async")]
pub use handlers::{Async, AsyncWithContext, WithContext};

#[cfg(feature = "async")]
mod handlers {
    use std::future::Future;

    use super::{
        read_arguments, sealed, Call, CallError, Called, Context, IntoToolResult, Started,
        ToolError, ToolHandler,
    };

    /// The result of a call, as its JSON and shape.
    fn written<R: IntoToolResult<K>, K>(result: Result<R, ToolError>) -> Called {
        let result = result.map_err(CallError::Tool)?;
        let mut out = Vec::new();
        let shape = sealed::Sealed::write_result(result, &mut out);
        Ok((out, shape))
    }

    /// The marker of [`ToolHandler`] for `Fn(Context, A) -> Result<R, ToolError>`. Never
    /// written.
    #[derive(Debug)]
    pub enum WithContext {}

    /// The marker of [`ToolHandler`] for `Fn(A) -> impl Future<Output = Result<R,
    /// ToolError>>` (an `async fn(A)`). Never written.
    #[derive(Debug)]
    pub enum Async {}

    /// The marker of [`ToolHandler`] for `Fn(Context, A) -> impl Future<Output = Result<R,
    /// ToolError>>` (an `async fn(Context, A)`). Never written.
    #[derive(Debug)]
    pub enum AsyncWithContext {}

    impl<F, A, R, K> sealed::IntoCall<(WithContext, A, R, K)> for F
    where
        F: Fn(Context, A) -> Result<R, ToolError> + Send + Sync + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        fn into_call(self) -> sealed::Registered {
            sealed::Registered(Call::Task {
                blocking: true,
                call: Box::new(move |args: &str, ctx: Context| {
                    Started::Ready(match read_arguments::<A>(args) {
                        Ok(args) => written(self(ctx, args)),
                        Err(e) => Err(CallError::Arguments(e)),
                    })
                }),
            })
        }
    }

    impl<F, A, R, K> ToolHandler<(WithContext, A, R, K)> for F
    where
        F: Fn(Context, A) -> Result<R, ToolError> + Send + Sync + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        type Args = A;
        type Output = R;
        type Kind = K;
    }

    impl<F, A, R, K, Fut> sealed::IntoCall<(Async, A, R, K, Fut)> for F
    where
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        fn into_call(self) -> sealed::Registered {
            async_task(move |_: Context, args: A| self(args))
        }
    }

    impl<F, A, R, K, Fut> ToolHandler<(Async, A, R, K, Fut)> for F
    where
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        type Args = A;
        type Output = R;
        type Kind = K;
    }

    impl<F, A, R, K, Fut> sealed::IntoCall<(AsyncWithContext, A, R, K, Fut)> for F
    where
        F: Fn(Context, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        fn into_call(self) -> sealed::Registered {
            async_task(self)
        }
    }

    impl<F, A, R, K, Fut> ToolHandler<(AsyncWithContext, A, R, K, Fut)> for F
    where
        F: Fn(Context, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        type Args = A;
        type Output = R;
        type Kind = K;
    }

    /// What both asynchronous forms register: a task reading the arguments, then running the
    /// function's future with the call's [`Context`] (a function without one ignores it).
    fn async_task<F, A, R, K, Fut>(f: F) -> sealed::Registered
    where
        F: Fn(Context, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        A: structio::ReflectOwned + 'static,
        R: IntoToolResult<K>,
    {
        sealed::Registered(Call::Task {
            blocking: false,
            call: Box::new(
                move |args: &str, ctx: Context| match read_arguments::<A>(args) {
                    Ok(args) => {
                        let running = f(ctx, args);
                        Started::Pending(Box::pin(async move { written(running.await) }))
                    }
                    Err(e) => Started::Ready(Err(CallError::Arguments(e))),
                },
            ),
        })
    }
}

/// What a tool's function may return (in `Ok`): the trait decides, by the type, at compile time,
/// how the result is sent and whether the tool lists an `outputSchema`.
///
/// - **A type that implements [`structio::Reflect`]** (a derived struct or enum, a `Vec`, a
///   number, ...): structured content. The result's `structuredContent` is the value written as
///   JSON (one that is not a JSON object is wrapped as `{"result": value}`, since structured
///   content is an object), its `content` one text block holding the same JSON, and the tool's
///   `outputSchema` the type's JSON Schema ([`Server::tool`](super::Server::tool)).
/// - **`String` and `&'static str`**: one text block holding the string, no
///   `structuredContent`, no `outputSchema`.
/// - **[`Content`]**: that one block; **`Vec<Content>`**: those blocks, in order (text, images,
///   audio, resource links and embedded resources mixed); no `structuredContent`, no
///   `outputSchema`.
///
/// `K` is a marker the compiler infers ([`ReflectResult`] or [`ContentResult`]); it is never
/// written. (`String` and `&'static str` implement `Reflect` too: they are the `Reflect` types
/// sent as plain text, told apart by their type id, a constant of each instance of the generic
/// code, so the choice costs nothing at run time. Stable Rust cannot say "every `Reflect` type
/// but `String`" in a trait's impls.) The trait is sealed: to send something else, return
/// `Content` or `Vec<Content>`.
///
/// ```
/// use structio_rpc::mcp::{Content, Server, ToolError};
///
/// #[derive(structio::Reflect)]
/// struct Name { name: String }
///
/// let mut server = Server::new("demo", "1")
///     .tool("greet", "Greets", |n: Name| Ok::<_, ToolError>(format!("Hello, {}!", n.name)))
///     .tool("logo", "The logo", |_: Name| {
///         Ok::<_, ToolError>(vec![Content::text("the logo:"), Content::image([1, 2, 3], "image/png")])
///     });
/// let mut out = Vec::new();
/// server.handle_line(
///     br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}"#,
///     &mut out,
/// );
/// assert_eq!(
///     std::str::from_utf8(&out).unwrap(),
///     concat!(
///         r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada!"}],"#,
///         r#""isError":false}}"#,
///         "\n"
///     )
/// );
/// ```
pub trait IntoToolResult<K>: sealed::Sealed<K> + Sized + 'static {}

/// The marker of [`IntoToolResult`] for a type that implements [`structio::Reflect`]: its value
/// as structured content (`String` and `&'static str`: plain text). Never written; the
/// compiler infers it.
#[derive(Debug)]
pub enum ReflectResult {}

/// The marker of [`IntoToolResult`] for content blocks ([`Content`], `Vec<Content>`). Never
/// written; the compiler infers it.
#[derive(Debug)]
pub enum ContentResult {}

pub(super) mod sealed {
    /// How a result was written by [`Sealed::write_result`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Shape {
        /// A JSON value: the structured content, its text copied into a text block.
        Structured,
        /// A JSON array of content blocks: the result's `content`, as it stands.
        Content,
    }

    /// How a [`ToolHandler`](super::ToolHandler) is called; not to be implemented elsewhere.
    pub trait IntoCall<M> {
        /// The function as the registry calls it.
        fn into_call(self) -> Registered;
    }

    /// A tool's function as the registry calls it.
    pub struct Registered(pub(in crate::mcp) super::Call);

    /// What [`IntoToolResult`](super::IntoToolResult) does; not to be implemented elsewhere.
    pub trait Sealed<K> {
        /// Whether results of this type are structured content (the tool lists an
        /// `outputSchema`).
        fn structured() -> bool;
        /// Appends the result to `out`: a JSON value (structured) or a JSON array of content
        /// blocks, as the returned shape says.
        fn write_result(self, out: &mut Vec<u8>) -> Shape;
    }
}

/// Whether `T` is `String` or `&'static str`, the `Reflect` types sent as plain text: a
/// constant of each instance of the generic code.
#[inline(always)]
fn is_text<T: 'static>() -> bool {
    TypeId::of::<T>() == TypeId::of::<String>() || TypeId::of::<T>() == TypeId::of::<&str>()
}

// `Reflect<'static>`, not `ReflectOwned`: writing needs no lifetime, and `&'static str` is
// `Reflect<'static>` only (a bound it could not meet would make its marker ambiguous).
impl<T: structio::Reflect<'static> + 'static> IntoToolResult<ReflectResult> for T {}

impl<T: structio::Reflect<'static> + 'static> sealed::Sealed<ReflectResult> for T {
    #[inline]
    fn structured() -> bool {
        !is_text::<T>()
    }

    #[inline]
    fn write_result(self, out: &mut Vec<u8>) -> Shape {
        if is_text::<T>() {
            let any = &self as &dyn Any;
            if let Some(text) = any.downcast_ref::<String>() {
                write_text(text, out);
                return Shape::Content;
            }
            if let Some(text) = any.downcast_ref::<&str>() {
                write_text(text, out);
                return Shape::Content;
            }
        }
        structio::write_json(&self, out);
        Shape::Structured
    }
}

impl IntoToolResult<ContentResult> for Content {}

impl sealed::Sealed<ContentResult> for Content {
    fn structured() -> bool {
        false
    }

    fn write_result(self, out: &mut Vec<u8>) -> Shape {
        out.push(b'[');
        structio::write_json(&self.0, out);
        out.push(b']');
        Shape::Content
    }
}

impl IntoToolResult<ContentResult> for Vec<Content> {}

impl sealed::Sealed<ContentResult> for Vec<Content> {
    fn structured() -> bool {
        false
    }

    fn write_result(self, out: &mut Vec<u8>) -> Shape {
        out.push(b'[');
        for (i, block) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            structio::write_json(&block.0, out);
        }
        out.push(b']');
        Shape::Content
    }
}

/// `[{"type":"text","text":...}]`: one text block holding `text`.
fn write_text(text: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(br#"[{"type":"text","text":"#);
    structio::write_json(&text, out);
    out.extend_from_slice(b"}]");
}

/// Reads a tool's arguments; arguments that do not fit get the boundary parser's report, in
/// which every problem (a wrong type, a missing or unknown member, a broken constraint) is
/// named, not only the first.
///
/// The trusted reader goes first: it accepts exactly what the boundary parser accepts, with the
/// same value (`structio::json::parse`'s contract, which the `boundary` fuzz target checks), and
/// it keeps no report, so arguments that fit are read without an allocation; the boundary
/// parser reads again only arguments that do not.
#[inline]
pub(super) fn read_arguments<A: structio::ReflectOwned>(text: &str) -> Result<A, structio::Report> {
    if let Ok(args) = structio::from_json(text) {
        return Ok(args);
    }
    structio::json::parse(text)
}

/// The text of the error for arguments that do not fit `kind` (`tool`, `prompt`) `name`:
/// every offending member by its path, one a line.
#[cold]
pub(super) fn arguments_message(kind: &str, name: &str, report: &structio::Report) -> String {
    let mut text = format!("invalid arguments for {kind} `{name}`:");
    for issue in report.issues() {
        text.push('\n');
        text.push_str(issue.path());
        text.push_str(": ");
        text.push_str(issue.message());
    }
    text
}

/// `schema` as the schema of an object: itself when it describes objects, else the schema of
/// `{"result": value}` (how a result that is not an object is sent as structured content).
pub(super) fn object_schema(schema: structio::Value) -> structio::Value {
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
