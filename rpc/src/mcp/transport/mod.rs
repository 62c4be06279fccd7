//! The transports: each knows bytes and framing only, and drives the server core through its
//! message-at-a-time interface ([`Server::handle_line`](super::Server::handle_line), and the
//! answer to a message over the bound, [`Server::max_line`](super::Server::max_line)); the core
//! knows no transport.
//!
//! - `stdio`: one JSON-RPC message per line on stdin, one response per line on stdout
//!   ([`Server::serve_stdio`](super::Server::serve_stdio),
//!   [`Server::serve`](super::Server::serve)).
//! - `http` (feature `http`): the Streamable HTTP transport
//!   ([`Server::serve_http`](super::Server::serve_http),
//!   [`Server::serve_http_async`](super::Server::serve_http_async)); it drives a core through
//!   its own trait, `HttpCore`, implemented for the sync server in `http::sync_core`.

#[cfg(feature = "http")]
pub(crate) mod http;
mod stdio;
