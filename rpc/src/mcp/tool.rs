//! Tools: a typed function behind a name, and the errors a call reports.

use std::fmt;

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
}

impl ToolError {
    /// A failure described by `message`.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            issues: Vec::new(),
        }
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

/// Why a call gave no result.
pub(super) enum CallError {
    /// The arguments do not fit the tool's argument type or break its constraints.
    Arguments(structio::Report),
    /// The tool reported an error.
    Tool(ToolError),
}

/// A tool's function: the arguments' JSON text in, the result's JSON appended to the buffer.
type Call = Box<dyn Fn(&str, &mut Vec<u8>) -> Result<(), CallError>>;

/// A registered tool.
pub(super) struct Tool {
    pub(super) name: String,
    pub(super) description: String,
    /// JSON text.
    pub(super) input_schema: String,
    /// JSON text.
    pub(super) output_schema: Option<String>,
    pub(super) call: Call,
}

impl Tool {
    /// A tool calling `f` with arguments read as an `A`.
    pub(super) fn new<A, R, F>(
        name: &str,
        description: &str,
        input_schema: String,
        output_schema: Option<String>,
        f: F,
    ) -> Tool
    where
        A: structio::ReflectOwned + 'static,
        R: structio::ReflectOwned + 'static,
        F: Fn(A) -> Result<R, super::ToolError> + 'static,
    {
        Tool {
            name: name.to_owned(),
            description: description.to_owned(),
            input_schema,
            output_schema,
            call: Box::new(move |args: &str, out: &mut Vec<u8>| {
                let args: A = read_arguments(args).map_err(CallError::Arguments)?;
                let result = f(args).map_err(CallError::Tool)?;
                structio::write_json(&result, out);
                Ok(())
            }),
        }
    }
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
fn read_arguments<A: structio::ReflectOwned>(text: &str) -> Result<A, structio::Report> {
    if let Ok(args) = structio::from_json(text) {
        return Ok(args);
    }
    structio::json::parse(text)
}

/// The text of the tool execution error for arguments that do not fit: every offending member
/// by its path, one a line.
#[cold]
pub(super) fn arguments_message(tool: &str, report: &structio::Report) -> String {
    let mut text = format!("invalid arguments for tool `{tool}`:");
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
