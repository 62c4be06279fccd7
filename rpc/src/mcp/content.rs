//! Content blocks: what a tool returns when its result is not (only) data of a type: text, an
//! image, audio, a link to a resource, a resource embedded in the result (the specification's
//! `ContentBlock`, revisions 2025-11-25 and 2026-07-28). Prompts and resources will use the same
//! blocks.

use structio::schema::SchemaGenerator;
use structio::Value;

use super::protocol::{ContentBlock, ResourceContents};

/// One block of a tool's result: text, an image, audio, a link to a resource, or an embedded
/// resource (MCP's `ContentBlock`). A tool returning a `Content` or a `Vec<Content>` answers
/// with those blocks as its `content`, and no `structuredContent` (see
/// [`IntoToolResult`](super::IntoToolResult)).
///
/// ```
/// use structio_rpc::mcp::{Content, EmbeddedResource, ResourceLink};
///
/// let blocks = vec![
///     Content::text("two files"),
///     Content::image([0x89, b'P', b'N', b'G'], "image/png"),
///     Content::resource_link(ResourceLink::new("file:///src/main.rs", "main.rs").mime_type("text/x-rust")),
///     Content::embedded(EmbeddedResource::text("file:///notes.txt", "hello").mime_type("text/plain")),
/// ];
/// assert_eq!(
///     blocks[1].to_json(),
///     r#"{"type":"image","data":"iVBORw==","mimeType":"image/png"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content(pub(super) ContentBlock);

impl Content {
    /// A text block: `{"type":"text","text":...}`.
    pub fn text(text: impl Into<String>) -> Content {
        Content(ContentBlock::Text { text: text.into() })
    }

    /// An image block: `{"type":"image","data":...,"mimeType":...}`, `data` being `bytes` in
    /// base64 (RFC 4648, with padding) and `mime_type` the image's type (`"image/png"`).
    pub fn image(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Content {
        Content(ContentBlock::Image {
            data: base64(bytes.as_ref()),
            mime_type: mime_type.into(),
        })
    }

    /// An audio block: `{"type":"audio","data":...,"mimeType":...}`, `data` being `bytes` in
    /// base64 and `mime_type` the audio's type (`"audio/wav"`).
    pub fn audio(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Content {
        Content(ContentBlock::Audio {
            data: base64(bytes.as_ref()),
            mime_type: mime_type.into(),
        })
    }

    /// A link to a resource: `{"type":"resource_link","uri":...,"name":...}`, with the link's
    /// `description` and `mimeType` when set.
    pub fn resource_link(link: ResourceLink) -> Content {
        Content(ContentBlock::ResourceLink {
            uri: link.uri,
            name: link.name,
            description: link.description,
            mime_type: link.mime_type,
        })
    }

    /// A resource embedded in the result: `{"type":"resource","resource":{"uri":...,
    /// "mimeType":...,"text":...}}` (or `"blob"`, base64, for binary contents).
    pub fn embedded(resource: EmbeddedResource) -> Content {
        Content(ContentBlock::Resource {
            resource: resource.0,
        })
    }

    /// The block as JSON, as a result carries it.
    pub fn to_json(&self) -> String {
        structio::to_json(&self.0)
    }
}

impl From<String> for Content {
    /// A text block.
    fn from(text: String) -> Content {
        Content::text(text)
    }
}

impl From<&str> for Content {
    /// A text block.
    fn from(text: &str) -> Content {
        Content::text(text)
    }
}

impl From<ResourceLink> for Content {
    fn from(link: ResourceLink) -> Content {
        Content::resource_link(link)
    }
}

impl From<EmbeddedResource> for Content {
    fn from(resource: EmbeddedResource) -> Content {
        Content::embedded(resource)
    }
}

impl structio::JsonSchema for Content {
    /// The schema of a content block: an object whose `type` is one of the five kinds. (A
    /// tool's content results list no `outputSchema`; this is for a `Content` nested in other
    /// data.)
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        gen.named("ContentBlock", |_| {
            structio::from_json(
                r#"{"type":"object","properties":{"type":{"enum":["text","image","audio","resource_link","resource"]}},"required":["type"]}"#,
            )
            .unwrap_or_default()
        })
    }
}

/// A link to a resource, for [`Content::resource_link`]: its `uri` and `name`, and optionally a
/// `description` and a `mimeType` (MCP's `ResourceLink`).
///
/// ```
/// use structio_rpc::mcp::{Content, ResourceLink};
///
/// let link = ResourceLink::new("file:///project/src/main.rs", "main.rs")
///     .description("Primary application entry point")
///     .mime_type("text/x-rust");
/// assert_eq!(
///     Content::resource_link(link).to_json(),
///     concat!(
///         r#"{"type":"resource_link","uri":"file:///project/src/main.rs","name":"main.rs","#,
///         r#""description":"Primary application entry point","mimeType":"text/x-rust"}"#
///     )
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceLink {
    uri: String,
    name: String,
    description: Option<String>,
    mime_type: Option<String>,
}

impl ResourceLink {
    /// A link to the resource at `uri`, named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> ResourceLink {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
        }
    }

    /// The same link with a description of the resource.
    pub fn description(mut self, description: impl Into<String>) -> ResourceLink {
        self.description = Some(description.into());
        self
    }

    /// The same link with the resource's MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> ResourceLink {
        self.mime_type = Some(mime_type.into());
        self
    }
}

/// The contents of a resource, embedded in a result by [`Content::embedded`]: its `uri`, and its
/// contents as text or as bytes (sent in base64), with an optional `mimeType` (MCP's
/// `EmbeddedResource`, holding `TextResourceContents` or `BlobResourceContents`).
///
/// ```
/// use structio_rpc::mcp::{Content, EmbeddedResource};
///
/// let text = EmbeddedResource::text("file:///notes.txt", "hello").mime_type("text/plain");
/// assert_eq!(
///     Content::embedded(text).to_json(),
///     r#"{"type":"resource","resource":{"uri":"file:///notes.txt","mimeType":"text/plain","text":"hello"}}"#
/// );
/// let blob = EmbeddedResource::blob("file:///one.bin", [1, 2, 3]);
/// assert_eq!(
///     Content::embedded(blob).to_json(),
///     r#"{"type":"resource","resource":{"uri":"file:///one.bin","blob":"AQID"}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedResource(pub(super) ResourceContents);

impl EmbeddedResource {
    /// The resource at `uri`, whose contents are `text`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> EmbeddedResource {
        EmbeddedResource(ResourceContents {
            uri: uri.into(),
            mime_type: None,
            text: Some(text.into()),
            blob: None,
        })
    }

    /// The resource at `uri`, whose contents are `bytes` (sent in base64 as `blob`).
    pub fn blob(uri: impl Into<String>, bytes: impl AsRef<[u8]>) -> EmbeddedResource {
        EmbeddedResource(ResourceContents {
            uri: uri.into(),
            mime_type: None,
            text: None,
            blob: Some(base64(bytes.as_ref())),
        })
    }

    /// The same resource with its MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> EmbeddedResource {
        self.0.mime_type = Some(mime_type.into());
        self
    }
}

/// `bytes` in standard base64 (RFC 4648, padded), as MCP's `data` and `blob` fields hold them.
pub(super) fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::base64;

    /// RFC 4648, section 10.
    #[test]
    fn base64_test_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
        }
        assert_eq!(base64(&[0xfb, 0xff, 0xbf]), "+/+/");
        assert_eq!(base64(&[0; 4]), "AAAAAA==");
    }
}
