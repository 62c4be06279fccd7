//! Prompts: a typed function behind a name, whose argument type's members are the prompt's
//! arguments, returning [`PromptMessage`]s; and the completion of a prompt's argument or a
//! resource template's variable ([`CompletionRequest`]).

use super::protocol::{self, PromptArgument, Role};
use super::tool::{arguments_message, read_arguments};
use super::{Content, ToolError};

/// One message of a prompt (MCP's `PromptMessage`): who says it ([`Role`]) and a content
/// block ([`Content`]: text, an image, audio, a resource link or an embedded resource).
///
/// ```
/// use structio_rpc::mcp::{Content, PromptMessage, Role};
///
/// let m = PromptMessage::user("Review this code");
/// assert_eq!(m.role, Role::User);
/// assert_eq!(m.content, Content::text("Review this code"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message of the user.
    pub fn user(content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message of the assistant.
    pub fn assistant(content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// What a completion function is given: the value typed so far for the argument or variable,
/// and the values of the others the client has already resolved (`context.arguments`).
/// (Later revisions of this crate may give it more, such as the request's context, through
/// new methods.)
#[derive(Debug)]
pub struct CompletionRequest<'a> {
    value: &'a str,
    context: &'a [(String, String)],
}

impl<'a> CompletionRequest<'a> {
    /// A completion of `value`, the others being `context`.
    pub(super) fn new(value: &'a str, context: &'a [(String, String)]) -> CompletionRequest<'a> {
        CompletionRequest { value, context }
    }

    /// The value typed so far.
    pub fn value(&self) -> &'a str {
        self.value
    }

    /// The value the client has already given the argument or variable `name`, if any.
    pub fn argument(&self, name: &str) -> Option<&'a str> {
        self.context
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A completion function.
pub(super) type Complete = Box<dyn Fn(&CompletionRequest<'_>) -> Vec<String> + Send + Sync>;

/// A plain prompt's function: the arguments' JSON text in, its messages out, or why the
/// arguments are refused (the report of arguments that do not fit the type, or the
/// function's [`ToolError`], as text).
pub(super) type PlainGet = Box<dyn Fn(&str) -> Result<Vec<PromptMessage>, String> + Send + Sync>;

/// The function of a prompt taking a [`Context`](super::Context): the arguments' JSON text
/// and the context in, its messages out, or its [`ToolError`] (which may end the request
/// with an `InputRequiredResult` in revision 2026-07-28).
#[cfg(feature = "async")]
pub(super) type ContextGet =
    Box<dyn Fn(&str, super::Context) -> Result<Vec<PromptMessage>, ToolError> + Send + Sync>;

/// A prompt's function.
pub(super) enum Get {
    /// `Fn(T) -> Result<Vec<PromptMessage>, ToolError>`.
    Plain(PlainGet),
    /// An async function taking a [`Context`](super::Context) (feature `async`), which may ask
    /// the client for input in revision 2026-07-28.
    #[cfg(feature = "async")]
    WithContext(ContextGet),
}

/// A registered prompt.
pub(super) struct Prompt {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) arguments: Vec<PromptArgument>,
    pub(super) get: Get,
}

impl Prompt {
    /// A prompt calling `f` with arguments read as a `T`.
    pub(super) fn new<T, F>(name: &str, description: &str, f: F) -> Prompt
    where
        T: structio::ReflectOwned + structio::JsonSchema + 'static,
        F: Fn(T) -> Result<Vec<PromptMessage>, ToolError> + Send + Sync + 'static,
    {
        let label = name.to_owned();
        Prompt {
            name: name.to_owned(),
            description: description.to_owned(),
            arguments: arguments_of(&structio::json_schema::<T>()),
            get: Get::Plain(Box::new(move |args: &str| {
                let args: T = read_arguments(args)
                    .map_err(|report| arguments_message("prompt", &label, &report))?;
                f(args).map_err(|e| e.to_string())
            })),
        }
    }

    /// A prompt calling the asynchronous `f` with the request's [`Context`](super::Context)
    /// and arguments read as a `T`, driven to its end where the request is read.
    #[cfg(feature = "async")]
    pub(super) fn with_context<T, F, Fut>(name: &str, description: &str, f: F) -> Prompt
    where
        T: structio::ReflectOwned + structio::JsonSchema + 'static,
        F: Fn(super::Context, T) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<Vec<PromptMessage>, ToolError>> + Send + 'static,
    {
        let label = name.to_owned();
        Prompt {
            name: name.to_owned(),
            description: description.to_owned(),
            arguments: arguments_of(&structio::json_schema::<T>()),
            get: Get::WithContext(Box::new(move |args: &str, ctx| {
                let args: T = read_arguments(args).map_err(|report| {
                    ToolError::new(arguments_message("prompt", &label, &report))
                })?;
                super::context::drive(f(ctx, args))
            })),
        }
    }

    /// As `prompts/list` shows it.
    pub(super) fn listed(&self) -> protocol::Prompt<'_> {
        protocol::Prompt {
            name: &self.name,
            description: &self.description,
            arguments: self.arguments.clone(),
        }
    }
}

/// The arguments of a prompt from the JSON Schema of its argument type: its properties in
/// order, each with its description (the member's doc comment) and whether it is required
/// (a member that is not an `Option`).
fn arguments_of(schema: &structio::Value) -> Vec<PromptArgument> {
    use structio::Value;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| PromptArgument {
            name: name.to_owned(),
            description: property
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            required: required.contains(&name),
        })
        .collect()
}

/// What a completion is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Target {
    /// A prompt's argument: (prompt, argument).
    Prompt(String, String),
    /// A resource template's variable: (template, variable).
    Template(String, String),
}

/// A registered completion.
pub(super) struct Completion {
    pub(super) target: Target,
    pub(super) complete: Complete,
}

/// The most values a completion result holds (MCP's `CompleteResult`).
pub(super) const MAX_COMPLETIONS: usize = 100;
