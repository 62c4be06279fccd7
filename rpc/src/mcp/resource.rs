//! Resources: a fixed resource or a resource template (RFC 6570, level 1) behind a read
//! function, what a listing shows of them ([`ResourceOptions`]), what a read is given
//! ([`ResourceRequest`]) and returns ([`ResourceContents`]), and the checks of a URI and a
//! template when they are added.

use std::fmt;

use super::content::EmbeddedResource;
use super::protocol::{self, Annotations};
use super::Icon;

/// What a resource or a resource template lists besides its URI (or template) and name
/// (`resources/list`, `resources/templates/list`, both eras): a display `title`, a
/// `description`, the `mimeType` of its contents, its `size` in bytes (fixed resources
/// only), [`Annotations`] and [`Icon`]s; each left out when unset. Given to
/// [`Server::resource`](super::Server::resource) and
/// [`Server::resource_template`](super::Server::resource_template).
///
/// ```
/// use structio_rpc::mcp::{Annotations, ResourceOptions, Role};
///
/// let options = ResourceOptions::new()
///     .title("Project README")
///     .mime_type("text/markdown")
///     .annotations(Annotations::new().audience(Role::User).priority(0.8));
/// assert_eq!(options.mime_type.as_deref(), Some("text/markdown"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResourceOptions {
    /// `title`: a human-readable name for display.
    pub title: Option<String>,
    /// `description`: what the resource holds.
    pub description: Option<String>,
    /// `mimeType`: the type of the contents; also given to contents a read returns without
    /// one.
    pub mime_type: Option<String>,
    /// `size`: the size of the raw contents in bytes, before base64 (listed for a fixed
    /// resource only: a template has no `size`).
    pub size: Option<u64>,
    /// `annotations`: hints for the client (audience, priority, last modification).
    pub annotations: Option<Annotations>,
    /// `icons`: icons a client may show (none: left out).
    pub icons: Vec<Icon>,
}

impl ResourceOptions {
    /// Nothing set.
    pub fn new() -> ResourceOptions {
        ResourceOptions::default()
    }

    /// With `title`.
    pub fn title(mut self, title: impl Into<String>) -> ResourceOptions {
        self.title = Some(title.into());
        self
    }

    /// With `description`.
    pub fn description(mut self, description: impl Into<String>) -> ResourceOptions {
        self.description = Some(description.into());
        self
    }

    /// With `mimeType`.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> ResourceOptions {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// With `size`, in bytes.
    pub fn size(mut self, bytes: u64) -> ResourceOptions {
        self.size = Some(bytes);
        self
    }

    /// With `annotations`.
    pub fn annotations(mut self, annotations: Annotations) -> ResourceOptions {
        self.annotations = Some(annotations);
        self
    }

    /// With one more icon.
    pub fn icon(mut self, icon: Icon) -> ResourceOptions {
        self.icons.push(icon);
        self
    }
}

/// What a read function is given: the URI read and, for a template, the values of its
/// variables, percent-decoded. (Later revisions of this crate may give it more, such as the
/// request's context, through new methods.)
#[derive(Debug)]
pub struct ResourceRequest<'a> {
    uri: &'a str,
    variables: &'a [(String, String)],
}

impl<'a> ResourceRequest<'a> {
    /// A read of `uri`, the template's variables `variables`.
    pub(super) fn new(uri: &'a str, variables: &'a [(String, String)]) -> ResourceRequest<'a> {
        ResourceRequest { uri, variables }
    }

    /// The URI the client read.
    pub fn uri(&self) -> &'a str {
        self.uri
    }

    /// The value of the template variable `name` (percent-decoded); `None` for a fixed
    /// resource or a name the template does not hold.
    pub fn variable(&self, name: &str) -> Option<&'a str> {
        self.variables
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every variable of the template, (name, value), in the template's order.
    pub fn variables(&self) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.variables.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

/// What a read returns: the resource's contents, one or more [`EmbeddedResource`]s (text, or
/// bytes sent as a base64 `blob`), the `contents` of the `resources/read` result.
///
/// ```
/// use structio_rpc::mcp::{EmbeddedResource, ResourceContents};
///
/// let one: ResourceContents = EmbeddedResource::text("test://a", "hello").into();
/// let two = ResourceContents::from(vec![
///     EmbeddedResource::text("test://a", "hello"),
///     EmbeddedResource::blob("test://b", [1, 2, 3]),
/// ]);
/// assert_eq!(one.len(), 1);
/// assert_eq!(two.len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResourceContents(pub(super) Vec<EmbeddedResource>);

impl ResourceContents {
    /// The text `text` at `uri`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> ResourceContents {
        EmbeddedResource::text(uri, text).into()
    }

    /// The bytes `bytes` at `uri`, sent in base64.
    pub fn blob(uri: impl Into<String>, bytes: impl AsRef<[u8]>) -> ResourceContents {
        EmbeddedResource::blob(uri, bytes).into()
    }

    /// How many contents.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<EmbeddedResource> for ResourceContents {
    fn from(resource: EmbeddedResource) -> ResourceContents {
        ResourceContents(vec![resource])
    }
}

impl From<Vec<EmbeddedResource>> for ResourceContents {
    fn from(resources: Vec<EmbeddedResource>) -> ResourceContents {
        ResourceContents(resources)
    }
}

/// Why a read gave no contents: the resource does not exist (answered with the
/// specification's "Resource not found": `-32002` in the handshake revisions, `-32602` in
/// revision 2026-07-28, the URI in its data), or it could not be read (`-32603`, with the
/// message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceError {
    pub(super) not_found: bool,
    pub(super) message: String,
}

impl ResourceError {
    /// The resource does not exist (a template matched, but nothing is behind the values).
    pub fn not_found() -> ResourceError {
        ResourceError {
            not_found: true,
            message: "Resource not found".to_owned(),
        }
    }

    /// The resource could not be read, for the reason `message`.
    pub fn new(message: impl Into<String>) -> ResourceError {
        ResourceError {
            not_found: false,
            message: message.into(),
        }
    }

    /// Whether the resource does not exist.
    pub fn is_not_found(&self) -> bool {
        self.not_found
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ResourceError {}

impl From<String> for ResourceError {
    fn from(message: String) -> ResourceError {
        ResourceError::new(message)
    }
}

impl From<&str> for ResourceError {
    fn from(message: &str) -> ResourceError {
        ResourceError::new(message)
    }
}

/// A read function.
pub(super) type Read =
    Box<dyn Fn(&ResourceRequest<'_>) -> Result<ResourceContents, ResourceError> + Send + Sync>;

/// A registered fixed resource.
pub(super) struct Resource {
    pub(super) uri: String,
    pub(super) name: String,
    pub(super) options: ResourceOptions,
    pub(super) read: Read,
}

/// A registered resource template.
pub(super) struct Template {
    pub(super) template: String,
    pub(super) parts: Vec<Part>,
    pub(super) name: String,
    pub(super) options: ResourceOptions,
    pub(super) read: Read,
}

impl Resource {
    /// As `resources/list` shows it.
    pub(super) fn listed(&self) -> protocol::Resource<'_> {
        protocol::Resource {
            uri: &self.uri,
            name: &self.name,
            title: self.options.title.as_deref(),
            description: self.options.description.as_deref(),
            mime_type: self.options.mime_type.as_deref(),
            size: self.options.size,
            annotations: self.options.annotations.clone(),
            icons: self.options.icons.clone(),
        }
    }
}

impl Template {
    /// As `resources/templates/list` shows it.
    pub(super) fn listed(&self) -> protocol::ResourceTemplate<'_> {
        protocol::ResourceTemplate {
            uri_template: &self.template,
            name: &self.name,
            title: self.options.title.as_deref(),
            description: self.options.description.as_deref(),
            mime_type: self.options.mime_type.as_deref(),
            annotations: self.options.annotations.clone(),
            icons: self.options.icons.clone(),
        }
    }

    /// Whether the template has the variable `name`.
    pub(super) fn has_variable(&self, name: &str) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Variable(n) if n == name))
    }

    /// The variables' values (percent-decoded) if `uri` matches the template: each variable
    /// takes one or more characters other than `/`, `?` and `#`, and the literal text between
    /// them must be there as written.
    pub(super) fn matches(&self, uri: &str) -> Option<Vec<(String, String)>> {
        let mut values = Vec::new();
        match_parts(&self.parts, uri, &mut values).then_some(values)
    }
}

/// A piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Part {
    /// Text matched as written.
    Literal(String),
    /// `{name}`.
    Variable(String),
}

/// Whether `uri` matches `parts`, the values pushed to `values`.
fn match_parts(parts: &[Part], uri: &str, values: &mut Vec<(String, String)>) -> bool {
    match parts.split_first() {
        None => uri.is_empty(),
        Some((Part::Literal(l), rest)) => uri
            .strip_prefix(l.as_str())
            .is_some_and(|tail| match_parts(rest, tail, values)),
        Some((Part::Variable(name), rest)) => {
            // The longest run a variable may take, then shorter ones until the rest matches.
            let run = uri.find(['/', '?', '#']).unwrap_or(uri.len());
            let mut end = run;
            while end > 0 {
                if uri.is_char_boundary(end) {
                    let mark = values.len();
                    if let Some(value) = percent_decode(&uri[..end]) {
                        values.push((name.clone(), value));
                        if match_parts(rest, &uri[end..], values) {
                            return true;
                        }
                    }
                    values.truncate(mark);
                }
                end -= 1;
            }
            false
        }
    }
}

/// `text` with its `%XX` escapes decoded; `None` when an escape is broken or the bytes are
/// not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    // `%` must start an escape of two hexadecimal digits; the `percent-encoding` crate would
    // leave a malformed one as it is.
    let bytes = text.as_bytes();
    let malformed = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if malformed {
        return None;
    }
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

/// Why `uri` is not an absolute URI (RFC 3986: a scheme of a letter then letters, digits,
/// `+`, `-`, `.`, a colon, then no space or control character), if it is not.
pub(super) fn uri_problem(uri: &str) -> Option<String> {
    let scheme_end = uri.find(':');
    let scheme = scheme_end.map_or("", |i| &uri[..i]);
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Some(format!(
            "the resource URI {uri:?} has no scheme: a URI starts with a scheme and a colon \
             (file:, https:, test:, ...)"
        ));
    }
    if let Some(c) = uri.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!("the resource URI {uri:?} holds {c:?}"));
    }
    None
}

/// The parts of `template`, an RFC 6570 level 1 URI template (literal text and `{name}`
/// variables), or why it is not one this server reads: a URI's scheme, braces that pair,
/// variable names of letters, digits, `_` and `.` (no operator: `{+x}`, `{?x}` and the like
/// are levels 2 and 3), at least one variable, none twice, no two variables side by side.
pub(super) fn parse_template(template: &str) -> Result<Vec<Part>, String> {
    if let Some(why) = uri_problem(template) {
        return Err(why.replace("resource URI", "resource template"));
    }
    let mut parts = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            Some(i) if rest.as_bytes()[i] == b'}' => {
                return Err(format!("the template {template:?} has a `}}` without `{{`"));
            }
            Some(i) => {
                if i > 0 {
                    parts.push(Part::Literal(rest[..i].to_owned()));
                }
                let Some(close) = rest[i..].find('}') else {
                    return Err(format!("the template {template:?} has a `{{` without `}}`"));
                };
                let name = &rest[i + 1..i + close];
                let valid = !name.is_empty()
                    && !name.starts_with('.')
                    && !name.ends_with('.')
                    && !name.contains("..")
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
                if !valid {
                    return Err(format!(
                        "the template {template:?} has the expression {{{name}}}: this server \
                         reads level 1 templates, whose expressions are {{name}}, the name of \
                         letters, digits, _ and ."
                    ));
                }
                if matches!(parts.last(), Some(Part::Variable(_))) {
                    return Err(format!(
                        "the template {template:?} has two variables side by side, which no \
                         URI tells apart"
                    ));
                }
                if parts.iter().any(|p| *p == Part::Variable(name.to_owned())) {
                    return Err(format!(
                        "the template {template:?} has the variable {name:?} twice"
                    ));
                }
                parts.push(Part::Variable(name.to_owned()));
                rest = &rest[i + close + 1..];
            }
            None => {
                parts.push(Part::Literal(rest.to_owned()));
                rest = "";
            }
        }
    }
    if !parts.iter().any(|p| matches!(p, Part::Variable(_))) {
        return Err(format!(
            "the template {template:?} has no variable: add it with Server::resource"
        ));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(t: &str) -> Template {
        Template {
            template: t.to_owned(),
            parts: parse_template(t).unwrap(),
            name: "t".to_owned(),
            options: ResourceOptions::default(),
            read: Box::new(|_| Ok(ResourceContents::default())),
        }
    }

    #[test]
    fn templates_match() {
        let t = template("test://template/{id}/data");
        assert_eq!(
            t.matches("test://template/42/data"),
            Some(vec![("id".into(), "42".into())])
        );
        assert_eq!(
            t.matches("test://template/a%20b/data"),
            Some(vec![("id".into(), "a b".into())])
        );
        assert_eq!(t.matches("test://template//data"), None);
        assert_eq!(t.matches("test://template/4/2/data"), None);
        assert_eq!(t.matches("test://template/42/data/"), None);
        assert_eq!(t.matches("test://template/%zz/data"), None);
        assert_eq!(t.matches("test://template/%+1/data"), None);
        assert_eq!(t.matches("test://template/%4/data"), None);
        assert_eq!(t.matches("test://template/%ff/data"), None, "not UTF-8");
        let t = template("file:///{dir}/{name}.txt");
        assert_eq!(
            t.matches("file:///docs/a.b.txt"),
            Some(vec![
                ("dir".into(), "docs".into()),
                ("name".into(), "a.b".into())
            ])
        );
    }

    #[test]
    fn templates_checked() {
        for bad in [
            "test://{a}{b}",
            "test://{+a}",
            "test://{a",
            "test://a}",
            "test://{a}/{a}",
            "test://plain",
            "{a}://x",
            "test://{}",
        ] {
            assert!(parse_template(bad).is_err(), "{bad}");
        }
        assert!(uri_problem("test://a b").is_some());
        assert!(uri_problem("no-scheme").is_some());
        assert!(uri_problem("file:///a.txt").is_none());
    }
}
