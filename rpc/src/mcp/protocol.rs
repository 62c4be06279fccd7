//! The protocol's messages, as the server reads and writes them: derived types named as in the
//! specification's schema (revisions 2025-11-25 and 2026-07-28), holding what this server
//! reads of a request (other members are skipped) and writes of a result. Also what the
//! routing pass reads of a message ([`Routed`]), and the reading helpers the methods share.

use std::borrow::Cow;

use structio::json::Options;
use structio::{RawJson, ReadOptions, UnknownKeys};

use super::MODERN_PROTOCOL_VERSIONS;
use crate::dispatch::Fault;
use crate::{code, ErrorObject};

/// Whether `value` is a JSON object.
pub(super) fn is_object(value: RawJson<'_>) -> bool {
    value.get().starts_with('{')
}

/// The options for reading what a method needs: other members skipped.
#[inline]
pub(super) fn skip() -> Options {
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
pub(super) fn read_params<'a, T: structio::Reflect<'a>>(
    params: Option<RawJson<'a>>,
) -> Result<T, Fault> {
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

/// The modern envelope of a request, as the general way reads it: `params._meta`'s protocol
/// members, each kept as text (any JSON value; a `null` one counts as absent). The members are
/// read into the same nesting as [`RoutedMeta`], so that both ways agree on any input.
#[derive(structio::Reflect)]
pub(super) struct Meta<'a> {
    #[structio(rename = "io.modelcontextprotocol/protocolVersion")]
    pub(super) protocol_version: Option<RawJson<'a>>,
    #[structio(rename = "io.modelcontextprotocol/clientInfo")]
    pub(super) client_info: Option<RawJson<'a>>,
    #[structio(rename = "io.modelcontextprotocol/clientCapabilities")]
    pub(super) client_capabilities: Option<RawJson<'a>>,
}

impl<'a> Meta<'a> {
    /// The `_meta` object of `params`; `None` when `params` is not an object or its `_meta`
    /// is absent, `null` or not an object.
    pub(super) fn of(params: Option<RawJson<'a>>) -> Option<Meta<'a>> {
        let text = params?.get();
        structio::json::from_json_with::<MetaOf<'a>>(text, &skip())
            .ok()?
            .meta
    }
}

/// The `_meta` member of `params`, other members skipped.
#[derive(structio::Reflect)]
pub(super) struct MetaOf<'a> {
    #[structio(rename = "_meta")]
    pub(super) meta: Option<Meta<'a>>,
}

/// What `initialize` reads of its parameters.
#[derive(structio::Reflect)]
pub(super) struct InitializeRequestParams<'a> {
    #[structio(rename = "protocolVersion")]
    pub(super) protocol_version: Cow<'a, str>,
}

/// The `initialize` result.
#[derive(structio::Reflect)]
pub(super) struct InitializeResult<'a> {
    #[structio(rename = "protocolVersion")]
    pub(super) protocol_version: &'a str,
    pub(super) capabilities: ServerCapabilities,
    #[structio(rename = "serverInfo")]
    pub(super) server_info: Implementation<'a>,
    pub(super) instructions: Option<&'a str>,
}

/// The server's capabilities, in the specification's order: completions, prompts and
/// resources when the server has them, and tools; no list changes.
#[derive(structio::Reflect)]
pub(super) struct ServerCapabilities {
    pub(super) completions: Option<CompletionsCapability>,
    pub(super) logging: Option<LoggingCapability>,
    pub(super) prompts: Option<PromptsCapability>,
    pub(super) resources: Option<ResourcesCapability>,
    pub(super) tools: ToolsCapability,
}

/// The `tools` capability.
#[derive(structio::Reflect)]
pub(super) struct ToolsCapability {
    #[structio(rename = "listChanged")]
    pub(super) list_changed: bool,
}

/// A name and a version (`serverInfo`).
#[derive(structio::Reflect)]
pub(super) struct Implementation<'a> {
    pub(super) name: &'a str,
    pub(super) version: &'a str,
}

/// The members of `params` the server routes on, read in the same pass as the envelope by
/// [`Server::routed`](super::Server::routed): those of `initialize` and `tools/call`, and the
/// modern envelope in `_meta` (others skipped). Each method reads the same members as it does
/// from the deferred parameters ([`InitializeRequestParams`], [`CallToolRequestParams`],
/// [`Meta`]), kept as small as the route allows (strings borrowed: one with an escape fails
/// the read; the envelope's members as [`RoutedMeta`] keeps them), so that the envelope is cheap to move; a message whose
/// parameters do not read this way goes the general way, which gives the same answer.
/// `_meta` comes last, as the official Python SDK writes it.
#[derive(structio::Reflect)]
pub(super) struct Routed<'a> {
    #[structio(rename = "protocolVersion")]
    pub(super) protocol_version: Option<&'a str>,
    pub(super) name: Option<&'a str>,
    pub(super) arguments: Option<RawJson<'a>>,
    #[structio(rename = "_meta")]
    pub(super) meta: Option<RoutedMeta<'a>>,
    /// Revision 2026-07-28's retry of a call: the client's answers and the server's state
    /// (a retry goes the general way, which reads them). Declared after `_meta`, so that the
    /// usual call (`name`, `arguments`, `_meta`) meets its members in declaration order.
    /// (Only their presence is used; each is read through as a [`Kind`].)
    #[structio(rename = "inputResponses")]
    pub(super) input_responses: Option<Kind>,
    #[structio(rename = "requestState")]
    pub(super) request_state: Option<Kind>,
}

/// The modern envelope read in the routing pass: [`Meta`] with the version and the client
/// info kept as what the route needs of them (whether the version is one this server speaks,
/// whether the info is an object), not as text, so that the routing envelope stays small to
/// move; the capabilities as text (a call that asks the client for input reads them). A version that is
/// not a string fails the read, and the message goes the general way, which refuses it.
/// Members in the order the official Python SDK writes them.
#[derive(structio::Reflect)]
pub(super) struct RoutedMeta<'a> {
    #[structio(rename = "io.modelcontextprotocol/protocolVersion")]
    pub(super) protocol_version: Option<Spoken>,
    #[structio(rename = "io.modelcontextprotocol/clientInfo")]
    pub(super) client_info: Option<Kind>,
    #[structio(rename = "io.modelcontextprotocol/clientCapabilities")]
    pub(super) client_capabilities: Option<RawJson<'a>>,
}

impl RoutedMeta<'_> {
    /// Whether the envelope is one [`Server::modern`](super::Server::modern) accepts as it
    /// stands (a version this server speaks, the capabilities an object, the client info absent
    /// or an object).
    #[inline]
    pub(super) fn fits(&self) -> bool {
        self.protocol_version == Some(Spoken(true))
            && self.client_capabilities.is_some_and(is_object)
            && matches!(self.client_info, None | Some(Kind::Object))
    }
}

/// A protocol version string as the routing pass keeps it: whether it is one of
/// [`MODERN_PROTOCOL_VERSIONS`]. Only read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Spoken(pub(super) bool);

impl<'de> structio::Reflect<'de> for Spoken {
    fn write<W: structio::Writer>(&self, w: &mut W) {
        w.null()
    }
    fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }
    #[inline]
    fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let v = Cow::<'de, str>::read_new(r)?;
        Ok(Spoken(MODERN_PROTOCOL_VERSIONS.contains(&v.as_ref())))
    }
}

/// Whether a JSON value is an object, as the routing pass keeps it (the value is read
/// through, validated, not kept). Only read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Object,
    Other,
}

impl<'de> structio::Reflect<'de> for Kind {
    fn write<W: structio::Writer>(&self, w: &mut W) {
        w.null()
    }
    fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }
    #[inline]
    fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let v = RawJson::read_new(r)?;
        Ok(if is_object(v) {
            Kind::Object
        } else {
            Kind::Other
        })
    }
}

/// The `server/discover` result (revision 2026-07-28), before its cache hints and close.
#[derive(structio::Reflect)]
pub(super) struct DiscoverResult<'a> {
    #[structio(rename = "supportedVersions")]
    pub(super) supported_versions: [&'a str; 1],
    pub(super) capabilities: ServerCapabilities,
    pub(super) instructions: Option<&'a str>,
}

/// The `tools/call` parameters this server reads (`_meta` and others are skipped).
#[derive(structio::Reflect)]
pub(super) struct CallToolRequestParams<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) arguments: Option<RawJson<'a>>,
    /// Revision 2026-07-28's `InputResponseRequestParams`: the client's answers.
    #[structio(rename = "inputResponses")]
    pub(super) input_responses: Option<RawJson<'a>>,
    /// ... and the state the server gave, echoed.
    #[structio(rename = "requestState")]
    pub(super) request_state: Option<RawJson<'a>>,
}

/// [`CallToolRequestParams`] with the modern envelope, read in one walk by the general way.
#[derive(structio::Reflect)]
pub(super) struct CallWithMeta<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) arguments: Option<RawJson<'a>>,
    #[structio(rename = "inputResponses")]
    pub(super) input_responses: Option<RawJson<'a>>,
    #[structio(rename = "requestState")]
    pub(super) request_state: Option<RawJson<'a>>,
    #[structio(rename = "_meta")]
    pub(super) meta: Option<Meta<'a>>,
}

/// The `tools/list` result.
#[derive(structio::Reflect)]
pub(super) struct ListToolsResult<'a> {
    pub(super) tools: Vec<Tool<'a>>,
    #[structio(rename = "nextCursor")]
    pub(super) next_cursor: Option<String>,
}

/// The notifications a `subscriptions/listen` stream asks for (revision 2026-07-28's
/// `SubscriptionFilter`), and those the server agreed to send on it; an absent member asks for
/// nothing.
#[derive(structio::Reflect, Debug, Default, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "async"), allow(dead_code))]
pub(super) struct SubscriptionFilter {
    #[structio(rename = "toolsListChanged")]
    pub(super) tools_list_changed: Option<bool>,
    #[structio(rename = "promptsListChanged")]
    pub(super) prompts_list_changed: Option<bool>,
    #[structio(rename = "resourcesListChanged")]
    pub(super) resources_list_changed: Option<bool>,
    #[structio(rename = "resourceSubscriptions")]
    pub(super) resource_subscriptions: Option<Vec<String>>,
}

/// The `subscriptions/listen` parameters (revision 2026-07-28).
#[derive(structio::Reflect)]
#[cfg_attr(not(feature = "async"), allow(dead_code))]
pub(super) struct ListenRequestParams {
    pub(super) notifications: SubscriptionFilter,
}

/// The `resources/list` result.
#[derive(structio::Reflect)]
pub(super) struct ListResourcesResult<'a> {
    pub(super) resources: Vec<Resource<'a>>,
    #[structio(rename = "nextCursor")]
    pub(super) next_cursor: Option<String>,
}

/// The `resources/templates/list` result.
#[derive(structio::Reflect)]
pub(super) struct ListResourceTemplatesResult<'a> {
    #[structio(rename = "resourceTemplates")]
    pub(super) resource_templates: Vec<ResourceTemplate<'a>>,
    #[structio(rename = "nextCursor")]
    pub(super) next_cursor: Option<String>,
}

/// One tool of the catalog (`Tool`), members in the specification's order; what is unset is
/// left out.
#[derive(structio::Reflect)]
pub(super) struct Tool<'a> {
    pub(super) name: &'a str,
    pub(super) title: Option<&'a str>,
    pub(super) description: &'a str,
    #[structio(rename = "inputSchema")]
    pub(super) input_schema: RawJson<'a>,
    #[structio(rename = "outputSchema")]
    pub(super) output_schema: Option<RawJson<'a>>,
    pub(super) annotations: Option<ToolAnnotations>,
    #[structio(skip_if = "Vec::is_empty", default)]
    pub(super) icons: Vec<Icon>,
}

/// Hints about a tool's behaviour, listed with it in `tools/list` (MCP's `ToolAnnotations`):
/// each is optional and left out of the JSON when unset. They are hints: a client must not
/// trust them from a server it does not trust. (The defaults the specification gives a client
/// for an unset hint are in each member's description.)
///
/// ```
/// use structio_rpc::mcp::ToolAnnotations;
///
/// let hints = ToolAnnotations::new().read_only(true).open_world(false);
/// assert_eq!(structio::to_json(&hints), r#"{"readOnlyHint":true,"openWorldHint":false}"#);
/// ```
#[derive(structio::Reflect, Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// A human-readable title for the tool (a client shows the tool's own `title` first, then
    /// this, then its name).
    pub title: Option<String>,
    /// `readOnlyHint`: the tool does not modify its environment (unset: `false`).
    #[structio(rename = "readOnlyHint")]
    pub read_only_hint: Option<bool>,
    /// `destructiveHint`: the tool may perform destructive updates (`false`: only additive
    /// ones); meaningful when it is not read-only (unset: `true`).
    #[structio(rename = "destructiveHint")]
    pub destructive_hint: Option<bool>,
    /// `idempotentHint`: calling the tool again with the same arguments has no further
    /// effect; meaningful when it is not read-only (unset: `false`).
    #[structio(rename = "idempotentHint")]
    pub idempotent_hint: Option<bool>,
    /// `openWorldHint`: the tool may interact with an open world of external entities (a web
    /// search), rather than a closed domain (a memory) (unset: `true`).
    #[structio(rename = "openWorldHint")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// No hints set.
    pub fn new() -> ToolAnnotations {
        ToolAnnotations::default()
    }

    /// With `title`.
    pub fn title(mut self, title: impl Into<String>) -> ToolAnnotations {
        self.title = Some(title.into());
        self
    }

    /// With `readOnlyHint`.
    pub fn read_only(mut self, hint: bool) -> ToolAnnotations {
        self.read_only_hint = Some(hint);
        self
    }

    /// With `destructiveHint`.
    pub fn destructive(mut self, hint: bool) -> ToolAnnotations {
        self.destructive_hint = Some(hint);
        self
    }

    /// With `idempotentHint`.
    pub fn idempotent(mut self, hint: bool) -> ToolAnnotations {
        self.idempotent_hint = Some(hint);
        self
    }

    /// With `openWorldHint`.
    pub fn open_world(mut self, hint: bool) -> ToolAnnotations {
        self.open_world_hint = Some(hint);
        self
    }
}

/// An icon a client may show for a tool (MCP's `Icon`): its `src` (an HTTP(S) URL or a `data:`
/// URI), and optionally its `mimeType`, the `sizes` it fits (`"48x48"`, `"any"`) and the
/// `theme` it is drawn for; what is unset is left out of the JSON.
///
/// ```
/// use structio_rpc::mcp::{Icon, IconTheme};
///
/// let icon = Icon::new("https://example.com/add.png").mime_type("image/png").size("48x48").theme(IconTheme::Dark);
/// assert_eq!(
///     structio::to_json(&icon),
///     r#"{"src":"https://example.com/add.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}"#
/// );
/// ```
#[derive(structio::Reflect, Debug, Clone, PartialEq, Eq)]
pub struct Icon {
    /// The icon's URI: an HTTP or HTTPS URL, or a `data:` URI holding the image in base64.
    pub src: String,
    /// `mimeType`: the image's type, when the source's is missing or generic (`"image/png"`).
    #[structio(rename = "mimeType")]
    pub mime_type: Option<String>,
    /// The sizes the icon may be shown at (`"48x48"`, or `"any"` for a scalable image); empty
    /// (left out): any size.
    #[structio(skip_if = "Vec::is_empty", default)]
    pub sizes: Vec<String>,
    /// The background the icon is drawn for; unset: any.
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// The icon at `src`, with nothing else set.
    pub fn new(src: impl Into<String>) -> Icon {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// With `mimeType`.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Icon {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// With one more size (`"48x48"`, `"any"`).
    pub fn size(mut self, size: impl Into<String>) -> Icon {
        self.sizes.push(size.into());
        self
    }

    /// With `theme`.
    pub fn theme(mut self, theme: IconTheme) -> Icon {
        self.theme = Some(theme);
        self
    }
}

/// The background an [`Icon`] is drawn for: `"light"` or `"dark"`.
#[derive(structio::Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[structio(rename_all = "lowercase")]
pub enum IconTheme {
    /// Drawn for a light background.
    Light,
    /// Drawn for a dark background.
    Dark,
}

/// A text content block.
#[derive(structio::Reflect)]
pub(super) struct TextContent<'a> {
    #[structio(rename = "type")]
    pub(super) kind: &'a str,
    pub(super) text: &'a str,
}

/// A tool execution error: text content and `isError: true`.
#[derive(structio::Reflect)]
pub(super) struct CallToolErrorResult<'a> {
    pub(super) content: [TextContent<'a>; 1],
    #[structio(rename = "isError")]
    pub(super) is_error: bool,
}

/// A content block of a tool's result (`ContentBlock`: `TextContent`, `ImageContent`,
/// `AudioContent`, `ResourceLink`, `EmbeddedResource`), owned, as [`super::Content`] holds it.
/// Binary data is already base64 text.
#[derive(structio::Reflect, Debug, Clone, PartialEq, Eq)]
#[structio(tag = "type", rename_all = "snake_case")]
pub(super) enum ContentBlock {
    Text {
        text: String,
    },
    Image {
        data: String,
        #[structio(rename = "mimeType")]
        mime_type: String,
    },
    Audio {
        data: String,
        #[structio(rename = "mimeType")]
        mime_type: String,
    },
    ResourceLink {
        uri: String,
        name: String,
        description: Option<String>,
        #[structio(rename = "mimeType")]
        mime_type: Option<String>,
    },
    Resource {
        resource: ResourceContents,
    },
}

/// The contents of an embedded resource: `TextResourceContents` (`text`) or
/// `BlobResourceContents` (`blob`, base64); exactly one of the two is set.
#[derive(structio::Reflect, Debug, Clone, PartialEq, Eq)]
pub(super) struct ResourceContents {
    pub(super) uri: String,
    #[structio(rename = "mimeType")]
    pub(super) mime_type: Option<String>,
    pub(super) text: Option<String>,
    pub(super) blob: Option<String>,
}

/// Who a piece of data is for, and who says a prompt's message (MCP's `Role`): `"user"` or
/// `"assistant"`.
#[derive(structio::Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[structio(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The assistant (the model).
    Assistant,
}

/// Hints about a resource for the client (MCP's `Annotations`): whom it is for, how
/// important it is (0 to 1), when it last changed (ISO 8601); each left out when unset.
///
/// ```
/// use structio_rpc::mcp::{Annotations, Role};
///
/// let hints = Annotations::new().audience(Role::User).priority(0.5).last_modified("2025-01-12T15:00:58Z");
/// assert_eq!(
///     structio::to_json(&hints),
///     r#"{"audience":["user"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"}"#
/// );
/// ```
#[derive(structio::Reflect, Debug, Clone, Default, PartialEq)]
pub struct Annotations {
    /// `audience`: who the data is for (empty: left out).
    #[structio(skip_if = "Vec::is_empty", default)]
    pub audience: Vec<Role>,
    /// `priority`: how important the data is, from 0 (least) to 1 (most: required).
    pub priority: Option<f64>,
    /// `lastModified`: when the data last changed, an ISO 8601 timestamp.
    #[structio(rename = "lastModified")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// No hints set.
    pub fn new() -> Annotations {
        Annotations::default()
    }

    /// With one more role in `audience`.
    pub fn audience(mut self, role: Role) -> Annotations {
        self.audience.push(role);
        self
    }

    /// With `priority` (0 to 1).
    pub fn priority(mut self, priority: f64) -> Annotations {
        self.priority = Some(priority);
        self
    }

    /// With `lastModified` (ISO 8601).
    pub fn last_modified(mut self, when: impl Into<String>) -> Annotations {
        self.last_modified = Some(when.into());
        self
    }
}

/// The `resources` capability.
#[derive(structio::Reflect)]
pub(super) struct ResourcesCapability {
    /// `true` when the server takes `resources/subscribe`; left out otherwise.
    pub(super) subscribe: Option<bool>,
    #[structio(rename = "listChanged")]
    pub(super) list_changed: bool,
}

/// The `prompts` capability.
#[derive(structio::Reflect)]
pub(super) struct PromptsCapability {
    #[structio(rename = "listChanged")]
    pub(super) list_changed: bool,
}

/// The `completions` capability: an empty object.
#[derive(structio::Reflect)]
pub(super) struct CompletionsCapability {}

/// The `logging` capability (empty): the server takes `logging/setLevel` and sends
/// `notifications/message`.
#[derive(structio::Reflect)]
pub(super) struct LoggingCapability {}

/// The parameters of `notifications/cancelled` (the request to cancel; `reason` skipped).
#[cfg(feature = "async")]
#[derive(structio::Reflect)]
pub(super) struct CancelledParams<'a> {
    #[structio(rename = "requestId")]
    pub(super) request_id: crate::Id<'a>,
}

/// The parameters of `logging/setLevel`.
#[derive(structio::Reflect)]
pub(super) struct SetLevelRequestParams<'a> {
    pub(super) level: Cow<'a, str>,
}

/// The parameters of a list method (`cursor`; others skipped).
#[derive(structio::Reflect)]
pub(super) struct PaginatedRequestParams<'a> {
    pub(super) cursor: Option<Cow<'a, str>>,
}

/// One resource of `resources/list` (`Resource`); what is unset is left out.
#[derive(structio::Reflect)]
pub(super) struct Resource<'a> {
    pub(super) uri: &'a str,
    pub(super) name: &'a str,
    pub(super) title: Option<&'a str>,
    pub(super) description: Option<&'a str>,
    #[structio(rename = "mimeType")]
    pub(super) mime_type: Option<&'a str>,
    pub(super) size: Option<u64>,
    pub(super) annotations: Option<Annotations>,
    #[structio(skip_if = "Vec::is_empty", default)]
    pub(super) icons: Vec<Icon>,
}

/// One template of `resources/templates/list` (`ResourceTemplate`); what is unset is left out.
#[derive(structio::Reflect)]
pub(super) struct ResourceTemplate<'a> {
    #[structio(rename = "uriTemplate")]
    pub(super) uri_template: &'a str,
    pub(super) name: &'a str,
    pub(super) title: Option<&'a str>,
    pub(super) description: Option<&'a str>,
    #[structio(rename = "mimeType")]
    pub(super) mime_type: Option<&'a str>,
    pub(super) annotations: Option<Annotations>,
    #[structio(skip_if = "Vec::is_empty", default)]
    pub(super) icons: Vec<Icon>,
}

/// The `resources/read` parameters this server reads.
#[derive(structio::Reflect)]
pub(super) struct ReadResourceRequestParams<'a> {
    pub(super) uri: Cow<'a, str>,
    /// Revision 2026-07-28's echoed state (this server mints none for a read).
    #[structio(rename = "requestState")]
    pub(super) request_state: Option<RawJson<'a>>,
}

/// The `resources/read` result, before the modern era's close.
#[derive(structio::Reflect)]
pub(super) struct ReadResourceResult {
    pub(super) contents: Vec<ResourceContents>,
}

/// One argument of a prompt (`PromptArgument`).
#[derive(structio::Reflect, Debug, Clone, PartialEq, Eq)]
pub(super) struct PromptArgument {
    pub(super) name: String,
    pub(super) description: Option<String>,
    pub(super) required: bool,
}

/// One prompt of `prompts/list` (`Prompt`); arguments left out when there are none.
#[derive(structio::Reflect)]
pub(super) struct Prompt<'a> {
    pub(super) name: &'a str,
    pub(super) description: &'a str,
    #[structio(skip_if = "Vec::is_empty", default)]
    pub(super) arguments: Vec<PromptArgument>,
}

/// The `prompts/list` result.
#[derive(structio::Reflect)]
pub(super) struct ListPromptsResult<'a> {
    pub(super) prompts: Vec<Prompt<'a>>,
    #[structio(rename = "nextCursor")]
    pub(super) next_cursor: Option<String>,
}

/// The `prompts/get` parameters this server reads.
#[derive(structio::Reflect)]
pub(super) struct GetPromptRequestParams<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) arguments: Option<RawJson<'a>>,
    /// Revision 2026-07-28's `InputResponseRequestParams` (a prompt taking a `Context`).
    #[structio(rename = "inputResponses")]
    pub(super) input_responses: Option<RawJson<'a>>,
    #[structio(rename = "requestState")]
    pub(super) request_state: Option<RawJson<'a>>,
}

/// One message of a `prompts/get` result (`PromptMessage`).
#[derive(structio::Reflect)]
pub(super) struct PromptMessage {
    pub(super) role: Role,
    pub(super) content: ContentBlock,
}

/// The `prompts/get` result.
#[derive(structio::Reflect)]
pub(super) struct GetPromptResult<'a> {
    pub(super) description: &'a str,
    pub(super) messages: Vec<PromptMessage>,
}

/// The `completion/complete` parameters this server reads.
#[derive(structio::Reflect)]
pub(super) struct CompleteRequestParams<'a> {
    #[structio(rename = "ref")]
    pub(super) reference: CompleteReference<'a>,
    pub(super) argument: CompleteArgument<'a>,
    pub(super) context: Option<CompleteContext>,
}

/// A completion's `ref`: `{"type":"ref/prompt","name":...}` or
/// `{"type":"ref/resource","uri":...}`.
#[derive(structio::Reflect)]
pub(super) struct CompleteReference<'a> {
    #[structio(rename = "type")]
    pub(super) kind: Cow<'a, str>,
    pub(super) name: Option<Cow<'a, str>>,
    pub(super) uri: Option<Cow<'a, str>>,
}

/// A completion's `argument`.
#[derive(structio::Reflect)]
pub(super) struct CompleteArgument<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) value: Cow<'a, str>,
}

/// A completion's `context`.
#[derive(structio::Reflect)]
pub(super) struct CompleteContext {
    pub(super) arguments: Option<std::collections::BTreeMap<String, String>>,
}

/// The `completion/complete` result.
#[derive(structio::Reflect)]
pub(super) struct CompleteResult {
    pub(super) completion: Completion,
}

/// The values of a completion.
#[derive(structio::Reflect)]
pub(super) struct Completion {
    pub(super) values: Vec<String>,
    pub(super) total: usize,
    #[structio(rename = "hasMore")]
    pub(super) has_more: bool,
}
