//! The MCP server's features past the core routing (`mcp.rs`, `mcp_2026.rs`): tool results by
//! type, tool metadata and names, resources and templates, prompts and completions, and the
//! official conformance suite's fixtures (`examples/conformance_server.rs`), and the Streamable
//! HTTP transport (feature `http`), resource subscriptions and notifications (feature `async`). One test binary
//! for all of them: each binary links the crates once more in CI's release build.

#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "async")]
mod async_tools;
#[cfg(feature = "async")]
mod client_requests;
mod conformance;
mod content;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
mod http_hostile;
#[cfg(feature = "async")]
mod listen;
#[cfg(feature = "async")]
mod live_tools;
mod prompts;
mod resources;
#[cfg(feature = "async")]
mod subscriptions;
mod tools;
