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

/// The server's capabilities: tools, whose list does not change.
#[derive(structio::Reflect)]
pub(super) struct ServerCapabilities {
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
    pub(super) meta: Option<RoutedMeta>,
}

/// The modern envelope read in the routing pass: [`Meta`] with each member kept as what the
/// route needs of it (whether the version is one this server speaks, whether the others are
/// objects), not as text, so that the routing envelope stays small to move. A version that is
/// not a string fails the read, and the message goes the general way, which refuses it.
/// Members in the order the official Python SDK writes them.
#[derive(structio::Reflect)]
pub(super) struct RoutedMeta {
    #[structio(rename = "io.modelcontextprotocol/protocolVersion")]
    pub(super) protocol_version: Option<Spoken>,
    #[structio(rename = "io.modelcontextprotocol/clientInfo")]
    pub(super) client_info: Option<Kind>,
    #[structio(rename = "io.modelcontextprotocol/clientCapabilities")]
    pub(super) client_capabilities: Option<Kind>,
}

impl RoutedMeta {
    /// Whether the envelope is one [`Server::modern`](super::Server::modern) accepts as it
    /// stands (a version this server speaks, the capabilities an object, the client info absent
    /// or an object).
    #[inline]
    pub(super) fn fits(&self) -> bool {
        self.protocol_version == Some(Spoken(true))
            && self.client_capabilities == Some(Kind::Object)
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
}

/// [`CallToolRequestParams`] with the modern envelope, read in one walk by the general way.
#[derive(structio::Reflect)]
pub(super) struct CallWithMeta<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) arguments: Option<RawJson<'a>>,
    #[structio(rename = "_meta")]
    pub(super) meta: Option<Meta<'a>>,
}

/// The `tools/list` result.
#[derive(structio::Reflect)]
pub(super) struct ListToolsResult<'a> {
    pub(super) tools: Vec<Tool<'a>>,
}

/// One tool of the catalog.
#[derive(structio::Reflect)]
pub(super) struct Tool<'a> {
    pub(super) name: &'a str,
    pub(super) description: &'a str,
    #[structio(rename = "inputSchema")]
    pub(super) input_schema: RawJson<'a>,
    #[structio(rename = "outputSchema")]
    pub(super) output_schema: Option<RawJson<'a>>,
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
