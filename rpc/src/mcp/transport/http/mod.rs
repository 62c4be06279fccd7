//! The Streamable HTTP transport (MCP revision 2025-11-25, and the stateless revision
//! 2026-07-28), behind the `http` feature: one endpoint (`/mcp` by default) on hyper's HTTP/1.1
//! server.
//!
//! - `POST` carries one JSON-RPC message (or a batch, which the core answers as JSON-RPC
//!   prescribes). Notifications and responses are answered `202 Accepted` with no body; a
//!   request either with an `application/json` body (when its response is the only message it
//!   causes) or with an SSE stream (`text/event-stream`) carrying the notifications it causes
//!   and then its response.
//! - Sessions (the handshake era): `initialize` opens one, its response carries
//!   `Mcp-Session-Id`; later requests without the header get `400`, with an unknown or expired
//!   one `404`; `DELETE` ends a session. A request of the stateless era (the
//!   `MCP-Protocol-Version` header or the request's `params._meta` naming a revision of
//!   [`MODERN_PROTOCOL_VERSIONS`]) needs no session: each one is answered by a fresh state.
//!   Its single JSON answers take the statuses revision 2026-07-28 gives some errors: `400`
//!   for an unsupported protocol version (`-32022`) and a missing client capability
//!   (`-32021`), `404` for a method the server does not implement (`-32601`); `200`
//!   otherwise. A `subscriptions/listen` request is answered with its SSE stream, which
//!   lasts until the client closes it or the server stops.
//! - `GET` with `Accept: text/event-stream` and a session's `Mcp-Session-Id` opens the
//!   session's standalone SSE stream, which carries the notifications not tied to a request
//!   ([`Notifier`](crate::mcp::Notifier): resources updated, lists changed), each event with
//!   an `id:` (counted from 1 per session). The session keeps its last 256 events: a `GET`
//!   with `Last-Event-ID` is sent those after that id first, then the new ones. When some
//!   events after that id are no longer kept, the `GET` is answered `409` (a JSON-RPC error
//!   naming the oldest id kept) and nothing is replayed: the specification lets a server
//!   replay (it does not have to) but gives no way to say, on the stream, that events were
//!   lost, and a stream that skipped them silently would hide the loss; the client opens the
//!   stream again without the header and reads again what it watches. A `Last-Event-ID` past
//!   the last event numbered is answered `400`. One stream at a time per session: a second
//!   `GET` while one is open is answered `409`, unless it carries `Last-Event-ID` (a client
//!   resuming, whose old stream may not have been noticed gone): it then replaces the open
//!   one (and ends it even when the resumption is refused). A silent stream gets a comment
//!   line every 15 s ([`HttpOptions::keep_alive`]), so that proxies keep it and a client gone
//!   away without closing its connection is noticed. Without the header `400`, with an unknown session `404`, with
//!   `MCP-Protocol-Version: 2026-07-28` (the stateless revision, which has no such stream)
//!   `405`.
//! - Checks, each answered with the status the specification prescribes, never a panic or a
//!   hang: `Origin` (`403` for a foreign origin: DNS-rebinding protection) and, on a loopback
//!   listener, `Host`; `Accept` (`406`), `Content-Type` (`415`), `MCP-Protocol-Version`
//!   (`400` for an unsupported revision), the body's size (`413`), the headers' size (`431`),
//!   a slow body (`408`), the number of sessions (`503`), idle connections and sessions.
//! - Connections: at most [`HttpOptions::max_connections`] are served at once; one past the
//!   bound is answered at once `503 Service Unavailable` with `Retry-After: 1` and a JSON-RPC
//!   error, without its request being read, and closed, rather than left waiting in the
//!   listener's queue. A client may shut down its writing side once its `POST` is sent
//!   (half-close): it still gets the answer (hence a client that closes its connection
//!   during a `POST` is noticed by the first write that fails, not by the end of its input;
//!   one that closes a `GET` stream's connection is noticed at once).
//!
//! The transport drives a core through [`HttpCore`] only (this crate's [`Server`] in `core`:
//! each session a [`Connection`](crate::mcp::Connection), each POST's frames sent to an
//! [`Outbox`](crate::mcp::Outbox) of its own); it knows no `Server` internals. Tool calls run
//! as on any connection: concurrently when the tool is asynchronous or takes a `Context`, at
//! most [`Server::max_in_flight`] per session. Split by concern: this module (options, the
//! accept loop and the refusal past the bound, the routing of a request), `session` (the
//! session table), `wire` (headers, the body's classification, SSE framing, the response
//! body), `socket` (the connection's socket as hyper reads it: half-close).

mod core;
mod session;
mod socket;
mod wire;

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::ToSocketAddrs;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ALLOW};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch, Semaphore};

use crate::mcp::{Server, MODERN_PROTOCOL_VERSIONS, PROTOCOL_VERSIONS};
use session::{Resume, Sessions};
use socket::{Answer, HalfClose, Socket};
use wire::{Body, Kind};

/// The header carrying a session's id.
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";
/// The header naming the protocol revision of a request.
pub(crate) const VERSION_HEADER: &str = "mcp-protocol-version";

/// What the HTTP transport needs of a server core: a session's state, and the handling of
/// one POST body. The transport knows nothing else of the core.
pub(crate) trait HttpCore: Send + Sync + 'static {
    /// The state of one session (or of one stateless request).
    type Session: Send + 'static;
    /// A new session's state.
    fn open(&self) -> Self::Session;
    /// Handles one POST body; every frame it causes (notifications, then the response; each
    /// one JSON-RPC message without a line break) goes to `frames`; the POST's stream ends
    /// when every clone of `frames` is dropped. Called on the connection's task: it must not
    /// block for long (work that waits goes to tasks of the core's own).
    fn post(
        &self,
        session: &mut Self::Session,
        body: &[u8],
        frames: mpsc::UnboundedSender<Vec<u8>>,
    );
    /// Makes `frames` the session's standalone stream: the notifications not tied to a
    /// request go there until its receiver is dropped. `false`, changing nothing, when the
    /// session has a stream open already.
    fn listen(&self, session: &mut Self::Session, frames: mpsc::UnboundedSender<Vec<u8>>) -> bool;

    /// The server stops: ends what would keep a response open (the `subscriptions/listen`
    /// streams), before the connections are given their grace to finish.
    fn closing(&self) {}
}

/// The settings of the Streamable HTTP transport ([`Server::serve_http_with`],
/// [`Server::serve_http_async`]): a builder, every setting with a default.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    path: String,
    allowed_origins: Vec<String>,
    allowed_hosts: Option<Vec<String>>,
    max_body: usize,
    max_header: usize,
    max_connections: usize,
    max_sessions: usize,
    header_timeout: Duration,
    body_timeout: Duration,
    session_idle: Duration,
    shutdown_grace: Duration,
    keep_alive: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            path: "/mcp".to_owned(),
            allowed_origins: Vec::new(),
            allowed_hosts: None,
            max_body: 4 << 20,
            max_header: 16 << 10,
            max_connections: 1024,
            max_sessions: 10_000,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
            session_idle: Duration::from_secs(30 * 60),
            shutdown_grace: Duration::from_secs(10),
            keep_alive: Duration::from_secs(15),
        }
    }
}

impl HttpOptions {
    /// The defaults: endpoint `/mcp`; origins: none but localhost's; bodies up to 4 MiB,
    /// headers up to 16 KiB; 1024 connections, 10 000 sessions; 30 s to send the headers (and
    /// to start the next request on a kept-alive connection), 30 s to send a body; sessions
    /// expire after 30 minutes unused; 10 s for connections to finish at shutdown; a comment
    /// line on a standalone SSE stream silent for 15 s.
    pub fn new() -> HttpOptions {
        HttpOptions::default()
    }

    /// The endpoint's path (default `/mcp`); other paths are answered `404`.
    pub fn path(mut self, path: impl Into<String>) -> HttpOptions {
        self.path = path.into();
        self
    }

    /// Adds an origin (`scheme://host[:port]`, compared without regard to case) that may call
    /// the server besides localhost's (`http`/`https` on `localhost`, `127.0.0.1`, `[::1]`,
    /// any port). A request with another `Origin` header is answered `403`; one without the
    /// header (not from a browser) is served.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> HttpOptions {
        self.allowed_origins
            .push(origin.into().to_ascii_lowercase());
        self
    }

    /// Adds a host name (without port, compared without regard to case) a request's `Host`
    /// header may name. By default a server listening on a loopback address accepts only the
    /// loopback names (`localhost`, `127.0.0.1`, `[::1]`) and one listening elsewhere any
    /// host; once a host is added, only the loopback names and the added ones.
    pub fn allow_host(mut self, host: impl Into<String>) -> HttpOptions {
        self.allowed_hosts
            .get_or_insert_with(Vec::new)
            .push(host.into().to_ascii_lowercase());
        self
    }

    /// The largest request body, in bytes (default 4 MiB); a larger one is answered `413`.
    pub fn max_body(mut self, bytes: usize) -> HttpOptions {
        self.max_body = bytes;
        self
    }

    /// The largest request head (start line and headers), in bytes (default 16 KiB); a larger
    /// one is answered `431` and the connection closed.
    pub fn max_header(mut self, bytes: usize) -> HttpOptions {
        self.max_header = bytes.max(1024);
        self
    }

    /// The most connections served at once (default 1024). A connection past the bound is
    /// answered at once, without its request being read, `503 Service Unavailable` with
    /// `Retry-After: 1` and a JSON-RPC error, and closed; the connections within the bound
    /// are served as usual.
    pub fn max_connections(mut self, connections: usize) -> HttpOptions {
        self.max_connections = connections.max(1);
        self
    }

    /// The most sessions kept at once (default 10 000); an `initialize` beyond it, when no
    /// session has expired, is answered `503`.
    pub fn max_sessions(mut self, sessions: usize) -> HttpOptions {
        self.max_sessions = sessions.max(1);
        self
    }

    /// How long a client has to send a request's head, and a kept-alive connection may stay
    /// idle before its next request (default 30 s); then the connection is closed.
    pub fn header_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.header_timeout = timeout;
        self
    }

    /// How long a client has to send a request's body (default 30 s); a slower one is answered
    /// `408`.
    pub fn body_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.body_timeout = timeout;
        self
    }

    /// How long a session may stay unused before it expires (default 30 minutes); a request
    /// naming an expired session is answered `404`.
    pub fn session_idle(mut self, timeout: Duration) -> HttpOptions {
        self.session_idle = timeout;
        self
    }

    /// How long the connections in progress have to finish once shutdown is asked for
    /// (default 10 s); then they are dropped.
    pub fn shutdown_grace(mut self, timeout: Duration) -> HttpOptions {
        self.shutdown_grace = timeout;
        self
    }

    /// How long an SSE stream (a session's standalone `GET` stream, or a `POST`'s: a call that
    /// takes time, a `subscriptions/listen` stream) may stay silent before the server sends a
    /// comment line (`: keep-alive`) on it (default 15 s; at least 1 ms, at most a year:
    /// [`Duration::MAX`] sends none in practice).
    /// Clients ignore comments; the line keeps proxies from closing an idle stream, and the
    /// write that fails tells the server that a client has gone away without closing its
    /// connection (its network gone, say; one that closes is noticed at once).
    pub fn keep_alive(mut self, interval: Duration) -> HttpOptions {
        // Bounded above so that the next line's time is never past what `Instant` holds.
        self.keep_alive = interval.clamp(
            Duration::from_millis(1),
            Duration::from_secs(365 * 24 * 60 * 60),
        );
        self
    }
}

impl Server {
    /// Serves the Streamable HTTP transport at `http://addr/mcp` with the default
    /// [`HttpOptions`], blocking: builds a multi-threaded tokio runtime for the connections and
    /// the calls. Returns on an error binding `addr`; otherwise it serves until the process
    /// ends. A server with a problem ([`Server::check`]) does not start.
    pub fn serve_http(&mut self, addr: impl ToSocketAddrs) -> io::Result<()> {
        self.serve_http_with(addr, HttpOptions::new(), std::future::pending())
    }

    /// [`Server::serve_http`] with `options`, returning once `shutdown` completes and the
    /// connections in progress have finished (or [`HttpOptions::shutdown_grace`] has passed).
    /// The server is shared with the sessions while it serves, and is back in `self` when this
    /// returns (unless a call still holds it after the runtime's second to stop: then `self`
    /// is left a server without tools). Called inside a tokio runtime, it serves from a thread
    /// of its own.
    pub fn serve_http_with(
        &mut self,
        addr: impl ToSocketAddrs,
        options: HttpOptions,
        shutdown: impl Future<Output = ()> + Send,
    ) -> io::Result<()> {
        self.check()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        super::on_own_runtime(self, "HTTP", |server| async move {
            let listener = TcpListener::from_std(listener)?;
            server.serve_http_async(listener, options, shutdown).await
        })
    }

    /// Serves the Streamable HTTP transport on `listener` (the endpoint
    /// [`HttpOptions::path`]) in the current tokio runtime until `shutdown` completes, then
    /// stops accepting and returns once the connections in progress have finished (or
    /// [`HttpOptions::shutdown_grace`] has passed). Each session is a
    /// [`Connection`](crate::mcp::Connection) of its own; a message's frames (a call's
    /// progress and log notifications, then its response) go to the POST that carried it.
    /// A plain `Fn(A)` tool, a resource or a prompt is answered on the connection's task,
    /// where the POST's message is read (as over stdio); asynchronous tools and tools taking a
    /// `Context` run on tasks of their own. When the server stops, its `subscriptions/listen`
    /// streams are ended gracefully (each answered with the closing result) before the
    /// connections are given their grace. A server with a problem ([`Server::check`]) does
    /// not start.
    pub async fn serve_http_async(
        self: Arc<Self>,
        listener: TcpListener,
        options: HttpOptions,
        shutdown: impl Future<Output = ()>,
    ) -> io::Result<()> {
        self.check()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut accept = tokio::spawn(serve(listener, options, self, stop_rx));
        let mut shutdown = std::pin::pin!(shutdown);
        tokio::select! {
            done = &mut accept => return done.map_err(io::Error::other)?,
            () = &mut shutdown => {}
        }
        let _ = stop_tx.send(true);
        accept.await.map_err(io::Error::other)?
    }
}

/// What every connection's service shares.
struct Shared<C: HttpCore> {
    core: C,
    options: HttpOptions,
    sessions: Sessions<C::Session>,
    /// Whether `Host` is checked: the listener is on a loopback address, or hosts were added.
    check_host: bool,
}

/// Accepts connections on `listener` until `stop` turns true, serving each on its own task;
/// then waits (at most [`HttpOptions::shutdown_grace`]) for the connections to finish.
pub(crate) async fn serve<C: HttpCore>(
    listener: TcpListener,
    options: HttpOptions,
    core: C,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let local = listener.local_addr()?;
    let shared = Arc::new(Shared {
        check_host: local.ip().is_loopback() || options.allowed_hosts.is_some(),
        sessions: Sessions::new(options.max_sessions, options.session_idle),
        core,
        options,
    });
    let permits = Arc::new(Semaphore::new(shared.options.max_connections));
    // The refusals waiting for their client to finish sending (see `refuse`): as many as the
    // connections served at most, and at least 256.
    let refusals = Arc::new(Semaphore::new(shared.options.max_connections.max(256)));
    let refusal = wire::refusal();
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors, a connection reset before it was accepted: wait a
                    // little, then go on.
                    if !matches!(e.kind(), io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset) {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    continue;
                }
            },
            _ = stop.changed() => break,
        };
        // Past the bound: refused at once, rather than left in the listener's queue, where
        // the client would wait with no answer for as long as the connections within it last.
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            refuse(stream, refusal.clone(), &refusals);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let half = Arc::new(HalfClose::default());
        let socket = Socket::new(stream, half.clone());
        let for_service = shared.clone();
        let service = service_fn(move |req: Request<Incoming>| {
            let shared = for_service.clone();
            // A POST's answer holds back the end of the client's input (see `socket`): taken
            // here, as hyper hands the request over, before it reads on.
            let hold = (req.method() == Method::POST).then(|| half.hold());
            let half = half.clone();
            async move {
                let res = route(&shared, &half, req).await;
                Ok::<_, Infallible>(res.map(|body| Answer { body, _hold: hold }))
            }
        });
        let conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(shared.options.header_timeout)
            .max_buf_size(shared.options.max_header.max(8192))
            .max_header_size(shared.options.max_header)
            .serve_connection(TokioIo::new(socket), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    shared.core.closing();
    let grace = shared.options.shutdown_grace;
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(grace) => {}
    }
    Ok(())
}

/// How long a refused connection is given to finish sending its request once the refusal is
/// written, before it is closed.
const REFUSAL_LINGER: Duration = Duration::from_secs(1);

/// Answers a connection past [`HttpOptions::max_connections`] with `refusal` (`503`, written
/// before the request is read) and closes it. RFC 9112 (9.6) asks for a staged close: the
/// write side shut first, then what the client sends read and dropped until it closes (at most
/// [`REFUSAL_LINGER`]), for closing a socket with unread input resets the connection, and a
/// reset can destroy the answer before the client has read it. Such lingering refusals are
/// bounded by `lingering` (a flood spends at most that many tasks and a second each on them);
/// past it, the input already there is read, the answer written without waiting (a fresh
/// socket's buffer takes it whole) and the socket closed at once: a client whose request
/// comes after that may see a reset rather than the answer.
fn refuse(stream: tokio::net::TcpStream, refusal: Bytes, lingering: &Arc<Semaphore>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let Ok(slot) = lingering.clone().try_acquire_owned() else {
        if let Ok(stream) = stream.into_std() {
            // Non-blocking, as the listener's sockets are: never waits. What the client has
            // sent already (a request that waited in the listener's queue) is read first, so
            // that the close does not reset the connection; what comes later still does.
            let mut sink = [0u8; 4096];
            for _ in 0..16 {
                if !matches!(io::Read::read(&mut &stream, &mut sink), Ok(n) if n > 0) {
                    break;
                }
            }
            let _ = io::Write::write(&mut &stream, &refusal);
        }
        return;
    };
    tokio::spawn(async move {
        let mut stream = stream;
        let _ = tokio::time::timeout(REFUSAL_LINGER, async {
            stream.write_all(&refusal).await?;
            stream.shutdown().await?;
            let mut sink = [0u8; 1024];
            while stream.read(&mut sink).await? > 0 {}
            Ok::<_, io::Error>(())
        })
        .await;
        drop(slot);
    });
}

/// One HTTP request: the endpoint's checks, then the method.
async fn route<C: HttpCore>(
    shared: &Arc<Shared<C>>,
    half: &HalfClose,
    req: Request<Incoming>,
) -> Response<Body> {
    if req.uri().path() != shared.options.path {
        return wire::status(StatusCode::NOT_FOUND, "Not Found");
    }
    if !wire::origin_allowed(req.headers(), &shared.options.allowed_origins) {
        return wire::rpc_error(
            StatusCode::FORBIDDEN,
            -32600,
            "Forbidden: origin not allowed",
        );
    }
    if shared.check_host
        && !wire::host_allowed(req.headers(), shared.options.allowed_hosts.as_deref())
    {
        return wire::rpc_error(StatusCode::FORBIDDEN, -32600, "Forbidden: host not allowed");
    }
    match *req.method() {
        Method::POST => post(shared, half, req).await,
        Method::DELETE => delete(shared, &req),
        Method::GET => get(shared, &req).await,
        _ => not_allowed(),
    }
}

/// `405`, naming the methods served.
fn not_allowed() -> Response<Body> {
    let mut res = wire::status(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
    res.headers_mut()
        .insert(ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
    res
}

/// `GET`: the session's standalone SSE stream, carrying the notifications not tied to a
/// request, each event with an id; one at a time per session (`409` while one is open), but a
/// `GET` with `Last-Event-ID` (a client resuming, whose old stream may not have been noticed
/// gone yet) replaces the open one and is first sent the kept events after that id; `409`
/// when some of those are no longer kept, `400` for an id never given out (the open stream
/// ended all the same). The stateless revision 2026-07-28 has no such stream: `405`.
async fn get<C: HttpCore>(shared: &Arc<Shared<C>>, req: &Request<Incoming>) -> Response<Body> {
    let headers = req.headers();
    let modern = headers
        .get(VERSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| MODERN_PROTOCOL_VERSIONS.contains(&v));
    if modern {
        return not_allowed();
    }
    if !wire::accepts_sse(headers) {
        return wire::rpc_error(
            StatusCode::NOT_ACCEPTABLE,
            -32600,
            "Not Acceptable: Accept must list text/event-stream",
        );
    }
    let (state, events) = match wire::session_id(headers) {
        None => {
            return wire::rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                "Bad Request: Mcp-Session-Id header is required",
            )
        }
        Some(id) => match shared.sessions.get_with_events(id) {
            Some(found) => found,
            None => return wire::rpc_error(StatusCode::NOT_FOUND, -32001, "Session not found"),
        },
    };
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let (live, stream) = mpsc::unbounded_channel();
    let start = {
        // Nothing panics while the events are locked; a poisoned lock is used as it was left.
        let mut ev = events.lock().unwrap_or_else(|e| e.into_inner());
        if ev.is_open() && last.is_none() {
            return wire::rpc_error(
                StatusCode::CONFLICT,
                -32600,
                "Conflict: the session has a standalone SSE stream open already",
            );
        }
        match ev.open(live, last) {
            Resume::Opened => {}
            // The specification lets a server replay what a stream missed after
            // `Last-Event-ID` (MAY), never another stream's events, and says nothing of an id
            // older than what is kept. Opening the stream anyway would hide the loss: no MCP
            // message says "events were lost", an SSE comment or an event of another type
            // never reaches the client's code (EventSource and the SDKs drop them). So the
            // resumption is refused with a status every client sees (EventSource stops
            // reconnecting on it), and the client opens the stream again without
            // `Last-Event-ID`, knowing to read again what it watches (lists, resources).
            Resume::Lost { first } => {
                return wire::rpc_error(
                    StatusCode::CONFLICT,
                    -32600,
                    &format!(
                        "Conflict: the events after Last-Event-ID {} are no longer kept (the \
                         oldest kept is {first}); some were lost: open the stream without \
                         Last-Event-ID",
                        last.unwrap_or(0)
                    ),
                )
            }
            Resume::Unknown => {
                return wire::rpc_error(
                    StatusCode::BAD_REQUEST,
                    -32600,
                    "Bad Request: Last-Event-ID names no event of the session's stream",
                )
            }
        }
        !std::mem::replace(&mut ev.started, true)
    };
    if start {
        // The core's notifications for the session, numbered and kept, to the open stream.
        let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let task = shared.clone();
        // The session's lock is held while a POST of it is handed to the core: off the
        // reactor.
        let listening = tokio::task::spawn_blocking(move || {
            let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
            task.core.listen(&mut state, tx)
        })
        .await;
        if !matches!(listening, Ok(true)) {
            return wire::rpc_error(StatusCode::INTERNAL_SERVER_ERROR, -32603, "Internal error");
        }
        let events = events.clone();
        // Ends when the core drops its sender: the session is gone.
        tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                events
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(&frame);
            }
        });
    }
    wire::stream(stream, shared.options.keep_alive)
}

/// `DELETE`: ends the session named.
fn delete<C: HttpCore>(shared: &Shared<C>, req: &Request<Incoming>) -> Response<Body> {
    match wire::session_id(req.headers()) {
        None => wire::rpc_error(
            StatusCode::BAD_REQUEST,
            -32600,
            "Bad Request: Mcp-Session-Id header is required",
        ),
        Some(id) if shared.sessions.remove(id) => wire::status(StatusCode::OK, ""),
        Some(_) => wire::rpc_error(StatusCode::NOT_FOUND, -32001, "Session not found"),
    }
}

/// `POST`: one JSON-RPC message (or batch) to the core, answered `202`, with JSON or with an
/// SSE stream. A client whose input ends before its body has (its end is held back from
/// hyper: see `socket`) is answered `400` at once.
async fn post<C: HttpCore>(
    shared: &Arc<Shared<C>>,
    half: &HalfClose,
    req: Request<Incoming>,
) -> Response<Body> {
    let headers = req.headers();
    if !wire::accepts_both(headers) {
        return wire::rpc_error(
            StatusCode::NOT_ACCEPTABLE,
            -32600,
            "Not Acceptable: Accept must list application/json and text/event-stream",
        );
    }
    if !wire::is_json(headers) {
        return wire::rpc_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            -32600,
            "Unsupported Media Type: Content-Type must be application/json",
        );
    }
    let header_version = match headers.get(VERSION_HEADER).map(|v| v.to_str()) {
        None => None,
        Some(Ok(v)) if PROTOCOL_VERSIONS.contains(&v) || MODERN_PROTOCOL_VERSIONS.contains(&v) => {
            Some(v.to_owned())
        }
        Some(_) => {
            return wire::rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                "Bad Request: unsupported MCP-Protocol-Version",
            )
        }
    };
    let session_id = wire::session_id(headers).map(str::to_owned);
    if wire::content_length(headers).is_some_and(|n| n > shared.options.max_body as u64) {
        return too_large();
    }
    let limited = Limited::new(req.into_body(), shared.options.max_body);
    let collect = tokio::time::timeout(shared.options.body_timeout, limited.collect());
    let collected = tokio::select! {
        // The body first: hyper hands over its end before it reads the end of input.
        biased;
        collected = collect => collected,
        () = half.input_ended() => {
            return wire::rpc_error(StatusCode::BAD_REQUEST, -32600, "Bad Request: the body ended early")
        }
    };
    let body = match collected {
        Err(_) => return wire::rpc_error(StatusCode::REQUEST_TIMEOUT, -32600, "Request Timeout"),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
        Ok(Err(_)) => return wire::rpc_error(StatusCode::BAD_REQUEST, -32600, "Bad Request"),
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    let kind = wire::classify(&body);
    if let Kind::Invalid = kind {
        // Not JSON: the core's parse error, with 400.
        let state = shared.core.open();
        return match run(shared, Arc::new(Mutex::new(state)), body).await {
            Some(frames) => wire::json(StatusCode::BAD_REQUEST, frames.first),
            None => wire::rpc_error(StatusCode::BAD_REQUEST, -32700, "Parse error"),
        };
    }
    let modern = header_version
        .as_deref()
        .is_some_and(|v| MODERN_PROTOCOL_VERSIONS.contains(&v))
        || matches!(kind, Kind::Requests { modern: true, .. });
    let (state, mut new_id) = match (&session_id, kind) {
        (Some(id), _) => match shared.sessions.get(id) {
            Some(state) => (state, None),
            None => return wire::rpc_error(StatusCode::NOT_FOUND, -32001, "Session not found"),
        },
        (
            None,
            Kind::Requests {
                initialize: true, ..
            },
        ) => match shared.sessions.open(shared.core.open()) {
            Some((id, state)) => (state, Some(id)),
            None => {
                return wire::rpc_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    -32603,
                    "Service Unavailable: too many sessions",
                )
            }
        },
        (None, _) if modern => (Arc::new(Mutex::new(shared.core.open())), None),
        (None, _) => {
            return wire::rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                "Bad Request: Mcp-Session-Id header is required",
            )
        }
    };
    if let Kind::Responses = kind {
        // Answers to the server's requests to the client: handed to the session, which
        // completes the calls waiting for them; nothing is answered.
        let _ = run(shared, state, body).await;
        return wire::status(StatusCode::ACCEPTED, "");
    }
    let answer = run(shared, state, body).await;
    let mut res = match answer {
        None if matches!(kind, Kind::Notifications) => wire::status(StatusCode::ACCEPTED, ""),
        None => {
            if let Some(id) = &new_id {
                shared.sessions.remove(id);
            }
            return wire::rpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                -32603,
                "Service Unavailable: the server is shutting down",
            );
        }
        Some(frames) => match frames.rest {
            None => {
                if new_id.is_some() && wire::is_error(&frames.first) {
                    // `initialize` refused: no session.
                    if let Some(id) = new_id.take() {
                        shared.sessions.remove(&id);
                    }
                }
                let status = if modern && session_id.is_none() {
                    wire::modern_status(&frames.first)
                } else {
                    StatusCode::OK
                };
                wire::json(status, frames.first)
            }
            Some((second, rx)) => wire::sse(frames.first, second, rx, shared.options.keep_alive),
        },
    };
    if let Some(id) = new_id {
        if let Ok(v) = HeaderValue::from_str(&id) {
            res.headers_mut().insert(SESSION_HEADER, v);
        }
    }
    res
}

/// The rest of a POST's frames.
type Receiver = mpsc::UnboundedReceiver<Vec<u8>>;

/// The first frames of a POST's answer.
struct Frames {
    first: Vec<u8>,
    /// The second frame and the rest of the stream, if the stream did not end after one.
    /// (`None`: the stream started after the first frame.)
    rest: Option<(Option<Vec<u8>>, Receiver)>,
}

/// Hands `body` to the core, with the session's state locked, and waits for the first frames:
/// `None` if the stream ended without one. The core is called on this task: it answers at once
/// what it can (the lists, a plain `Fn(A)` tool, as the stdio transport does) and starts the
/// rest on tasks of its own, which hold `frames` until they have answered; a thread handoff
/// per request would cost more than the answer.
async fn run<C: HttpCore>(
    shared: &Arc<Shared<C>>,
    state: Arc<Mutex<C::Session>>,
    body: Bytes,
) -> Option<Frames> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    {
        // A poisoned lock: a core that panicked on this session before; its state is used as
        // it was left.
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        shared.core.post(&mut state, &body, tx);
    }
    let first = rx.recv().await?;
    if wire::is_notice(&first) {
        // A notification (a call's progress or log message) or a request of the server's to
        // the client (a call sampling, say): the call's answer comes later, perhaps only once
        // the client has answered, so the stream starts now.
        return Some(Frames {
            first,
            rest: Some((None, rx)),
        });
    }
    let rest = rx.recv().await.map(|second| (Some(second), rx));
    Some(Frames { first, rest })
}

fn too_large() -> Response<Body> {
    wire::rpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        -32600,
        "Payload Too Large: the body is over the server's limit",
    )
}

#[cfg(test)]
mod tests;
