//! The transports: each knows bytes and framing only, and drives the server core through its
//! message-at-a-time interface ([`Server::handle_line`](super::Server::handle_line), or with
//! the feature `async` a `Connection`'s `handle`, which sends what a message causes to an
//! `Outbox`; and the answer to a message over the bound,
//! [`Server::max_line`](super::Server::max_line)); the core knows no transport.
//!
//! - `stdio`: one JSON-RPC message per line on stdin, one frame per line on stdout
//!   ([`Server::serve_stdio`](super::Server::serve_stdio),
//!   [`Server::serve`](super::Server::serve); with `async`, `Server::serve_stdio_async` and
//!   `Server::serve_async`, every message given a clone of one outbox whose frames go to
//!   stdout, which is also the connection's session outbox, for the notifications not tied
//!   to a request).
//! - `http` (feature `http`): the Streamable HTTP transport
//!   ([`Server::serve_http`](super::Server::serve_http),
//!   [`Server::serve_http_async`](super::Server::serve_http_async)): each session is a
//!   `Connection`, each POST's frames go to that POST's own `Outbox`, and a session's `GET`
//!   opens its standalone SSE stream, the connection's session outbox.

#[cfg(feature = "http")]
pub(crate) mod http;
mod stdio;
