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

/// Serves `server` through `serve` on a multi-threaded Tokio runtime of its own (built on a
/// thread of its own when the caller already runs inside a runtime, where blocking is not
/// allowed), the server moved into an `Arc` while it serves and put back into `server` when
/// `serve` returns. The runtime is given a second to stop; a call still holding the server
/// after that (a blocking tool whose call was cancelled) leaves `server` a server without
/// tools. `what` names the transport in the error of a panic.
#[cfg(feature = "async")]
fn on_own_runtime<F, Fut>(server: &mut super::Server, what: &str, serve: F) -> std::io::Result<()>
where
    F: FnOnce(std::sync::Arc<super::Server>) -> Fut + Send,
    Fut: std::future::Future<Output = std::io::Result<()>>,
{
    use std::sync::Arc;
    let shared = Arc::new(std::mem::replace(server, super::Server::new("", "")));
    let run = |shared: Arc<super::Server>| -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        let served = runtime.block_on(serve(shared));
        runtime.shutdown_timeout(std::time::Duration::from_secs(1));
        served
    };
    let served = if tokio::runtime::Handle::try_current().is_ok() {
        std::thread::scope(|s| {
            s.spawn(|| run(shared.clone())).join().unwrap_or_else(|_| {
                Err(std::io::Error::other(format!(
                    "the {what} transport panicked"
                )))
            })
        })
    } else {
        run(shared.clone())
    };
    if let Ok(shared) = Arc::try_unwrap(shared) {
        *server = shared;
    }
    served
}
