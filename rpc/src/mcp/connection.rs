//! One client's connection to a shared [`Server`]: its [`Session`] (era, protocol, log level)
//! and its tool calls in flight, run concurrently on Tokio tasks. The core of every
//! concurrent transport: [`Connection::handle`] takes one message and an [`Outbox`], and
//! everything the message causes goes to that outbox.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use super::client::Peer;
use super::context::{self, Cancel, Context, Logs, Outbox, SharedLevel, NO_LEVEL};
use super::server::{tool_panicked, Aside, Core, Deferred, Server, Session};
use super::tool::{Call, CallError, Called, Started};
use super::Era;

/// The calls in flight on a connection, by the JSON text of their request's id.
type InFlight = Arc<Mutex<HashMap<String, Arc<Cancel>>>>;

/// One client's connection to a [`Server`] shared behind an `Arc` (one server serves many
/// connections): the connection's era, protocol revision and log level, and its tool calls in
/// flight. Calls of tools that are asynchronous or take a [`Context`] run concurrently on
/// Tokio tasks (a synchronous one on a blocking thread), at most [`Server::max_in_flight`] at a
/// time on one connection (a call past the bound waits for one to finish; none is dropped);
/// every other request is answered at once, also while calls run. A plain `Fn(A)` tool, meant
/// to be quick, is answered at once, where the message is handled, as
/// [`Server::handle_line`] answers it: a tool that blocks or waits should be asynchronous or
/// take a `Context`.
///
/// ```
/// use std::sync::Arc;
/// use structio_rpc::mcp::{Connection, Context, Outbox, Server, ToolError};
///
/// #[derive(structio::Reflect)]
/// struct Add { left: i32, right: i32 }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = Arc::new(Server::new("calc", "1").tool("add", "Adds", |ctx: Context, a: Add| async move {
///     ctx.progress(1, Some(1.0), None);
///     Ok::<_, ToolError>(a.left + a.right)
/// }));
/// let mut connection = Connection::new(server);
/// let (outbox, mut frames) = Outbox::channel();
/// connection.handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":3}}}"#, outbox);
/// let frame = frames.recv().await.unwrap();
/// assert!(std::str::from_utf8(&frame).unwrap().contains(r#""structuredContent":{"result":5}"#));
/// assert!(frames.recv().await.is_none()); // the call answered: every clone of the outbox dropped
/// # });
/// ```
pub struct Connection {
    server: Arc<Server>,
    session: Session,
    level: SharedLevel,
    in_flight: InFlight,
    permits: Arc<Semaphore>,
    /// The server's requests to the client, waiting for their answers.
    peer: Arc<Peer>,
    /// This connection's key in the server's table of connections (`notify`), and whether
    /// it was last recorded live.
    hub_key: (u64, bool),
    /// Whether its `subscriptions/listen` streams outlive it (each POST's stream of the
    /// Streamable HTTP transport), rather than end with it (stdio).
    streams_outlive: bool,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("server", &self.server)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Drop for Connection {
    /// The server's requests still waiting for the client's answers fail
    /// ([`RequestError::Closed`](super::RequestError::Closed)): no answer can come now; and
    /// the connection leaves the server's table of connections (no more notifications).
    fn drop(&mut self) {
        self.peer.close();
        let hub = self.server.hub();
        hub.leave(self.hub_key.0);
        if !self.streams_outlive {
            hub.unlisten_all(self.hub_key.0);
        }
    }
}

impl Connection {
    /// A new connection to `server`, no era decided yet.
    pub fn new(server: Arc<Server>) -> Connection {
        let permits = Arc::new(Semaphore::new(server.in_flight_bound()));
        let hub_key = (server.hub().join(), false);
        Connection {
            server,
            session: Session::default(),
            level: Arc::new(AtomicU8::new(NO_LEVEL)),
            in_flight: Arc::default(),
            permits,
            peer: Arc::default(),
            hub_key,
            streams_outlive: false,
        }
    }

    /// Lets the connection's `subscriptions/listen` streams (revision 2026-07-28) outlive it:
    /// each ends when the receiver of its outbox goes away (the transport's stream closed) or
    /// the client cancels it, not when the connection is dropped. For a transport whose
    /// connection is one request (Streamable HTTP without sessions).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn let_streams_outlive(&mut self) {
        self.streams_outlive = true;
    }

    /// Ends the connection's `subscriptions/listen` streams (the input is over), without an
    /// answer.
    pub(crate) fn end_streams(&mut self) {
        self.server.hub().unlisten_all(self.hub_key.0);
    }

    /// Where the notifications not tied to a request go ([`Notifier`](super::Notifier):
    /// resources updated, lists changed), once the connection is initialized in the handshake
    /// era: the transport's session outbox (stdio: stdout; Streamable HTTP: the session's
    /// standalone `GET` stream). `None` (the default): they are dropped. The connection
    /// keeps the outbox until it is replaced or the connection is dropped.
    pub fn set_session_outbox(&mut self, outbox: Option<Outbox>) {
        self.server.hub().set_outbox(self.hub_key.0, outbox);
    }

    /// Whether the connection has a session outbox whose receiver is still there.
    pub fn has_session_outbox(&self) -> bool {
        self.server.hub().has_outbox(self.hub_key.0)
    }

    /// The server this connection is to.
    pub fn server(&self) -> &Arc<Server> {
        &self.server
    }

    /// The era of the connection, once the client's first request has decided it.
    pub fn era(&self) -> Option<Era> {
        self.session.era
    }

    /// The protocol revision agreed in `initialize`, once it has been.
    pub fn protocol_version(&self) -> Option<&'static str> {
        self.session.protocol
    }

    /// How many tool calls are running or waiting on this connection.
    pub fn calls_in_flight(&self) -> usize {
        self.in_flight.lock().map_or(0, |m| m.len())
    }

    /// How many of the server's requests to the client ([`Context::request`]) wait for their
    /// answers.
    pub fn requests_waiting(&self) -> usize {
        self.peer.waiting()
    }

    /// Handles one message (one JSON-RPC message, without framing), sending everything it
    /// causes to `outbox`, each frame one JSON-RPC message without a line break: the response
    /// to a request, at once (a plain `Fn(A)` tool's too); for a `tools/call` of a tool that is
    /// asynchronous or takes a [`Context`], the call is started on a Tokio task, which
    /// sends its progress and log notifications and then its response, and holds a clone of
    /// `outbox` until then. `notifications/cancelled` naming a call in flight cancels it: its
    /// [`Context`] reports it cancelled, its progress notifications stop, and it is never
    /// answered. A tool that panics is answered with a `-32603` error.
    ///
    /// The calls of a JSON-RPC batch (which revision 2025-06-18 removed) are run one after
    /// the other, as [`Server::handle_line`] runs them, and answered in the batch's response.
    ///
    /// Must be called within a Tokio runtime (it spawns the calls' tasks).
    pub fn handle(&mut self, message: &[u8], outbox: Outbox) {
        let mut out = Vec::new();
        self.handle_into(message, &mut out, &outbox);
        if out.last() == Some(&b'\n') {
            out.pop();
        }
        if !out.is_empty() {
            outbox.send(out);
        }
    }

    /// [`Connection::handle`] for a transport that frames lines: the immediate response, if
    /// any, appended to `out` with its line break (no frame of its own, no clone of the
    /// outbox); a call started on a task gets a clone of `outbox` for what it sends later.
    pub(crate) fn handle_into(&mut self, message: &[u8], out: &mut Vec<u8>, outbox: &Outbox) {
        // The client's answers to the server's requests go to the calls waiting for them.
        if self.peer.route(message) {
            return;
        }
        self.peer.initialize(message);
        let mut aside = Aside::default();
        // The calls of a batch (which revision 2025-06-18 removed) are answered in the
        // batch's response, one at a time; a single call runs on a task.
        let single = message.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        Core {
            server: &self.server,
            sess: &mut self.session,
            defer: single.then_some(&mut aside),
        }
        .answer(message, out, true);
        if let Some(id) = aside.cancelled {
            if let Some(cancel) = self.in_flight.lock().ok().and_then(|mut m| m.remove(&id)) {
                cancel.cancel();
            } else {
                // A `subscriptions/listen` stream cancelled ends without an answer.
                self.server.hub().unlisten(self.hub_key.0, &id);
            }
        }
        if let Some((id, agreed)) = aside.listen {
            let id = structio::to_json(&id);
            self.server
                .hub()
                .listen(self.hub_key.0, id, agreed, outbox.clone());
        }
        let live =
            self.session.era == Some(super::Era::Handshake) && self.session.protocol.is_some();
        if live != self.hub_key.1 || !self.session.subscribing.is_empty() {
            let changes = std::mem::take(&mut self.session.subscribing);
            self.server.hub().update(self.hub_key.0, live, changes);
            self.hub_key.1 = live;
        }
        let level = self.session.log_level.map_or(NO_LEVEL, |l| l as u8);
        self.level.store(level, Ordering::Relaxed);
        if let Some(call) = aside.call {
            let (token, level) = context::request_meta(message);
            let logs = if call.modern {
                Logs::Request(level)
            } else {
                Logs::Connection(self.level.clone())
            };
            self.spawn(call, token, logs, outbox.clone());
        }
    }

    /// Starts a call on a task of its own.
    fn spawn(
        &self,
        mut call: Deferred,
        progress_token: Option<String>,
        logs: Logs,
        outbox: Outbox,
    ) {
        let key = structio::to_json(&call.id);
        let cancel = Arc::new(Cancel::default());
        if let Ok(mut m) = self.in_flight.lock() {
            // A request id used twice: the earlier call can no longer be told apart.
            m.insert(key.clone(), cancel.clone());
        }
        let server = self.server.clone();
        let permits = self.permits.clone();
        let in_flight = self.in_flight.clone();
        let peer = self.peer.clone();
        let round = call.round.take();
        tokio::spawn(async move {
            let permit = tokio::select! {
                p = permits.acquire_owned() => p.ok(),
                () = cancel.cancelled() => None,
            };
            let ctx = Context::new(
                call.id.clone(),
                progress_token,
                outbox.clone(),
                cancel.clone(),
                logs,
                peer,
                round,
            );
            let outcome = match permit {
                Some(_) => run(&server, &call, ctx, &cancel).await,
                None => Outcome::Cancelled,
            };
            drop(permit);
            if let Ok(mut m) = in_flight.lock() {
                if m.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cancel)) {
                    m.remove(&key);
                }
            }
            if cancel.is_cancelled()
                && !matches!(outcome, Outcome::Done(Err(CallError::TimedOut(_))))
            {
                return;
            }
            let name = &call.tool.name;
            let mut out = Vec::new();
            match outcome {
                Outcome::Done(called) => {
                    let (mut scratch, called) = match called {
                        Ok((bytes, shape)) => (bytes, Ok(shape)),
                        Err(e) => (Vec::new(), Err(e)),
                    };
                    server.write_called(
                        &call.id,
                        name,
                        called,
                        &mut scratch,
                        call.modern,
                        &mut out,
                    );
                }
                Outcome::Panicked => {
                    crate::write_error(&mut out, &call.id, &tool_panicked(name));
                }
                Outcome::Cancelled => return,
            }
            outbox.send(out);
        });
    }
}

/// How a call ended.
enum Outcome {
    Done(Called),
    Panicked,
    Cancelled,
}

/// Runs the call: a synchronous tool on a blocking thread, an asynchronous one on a task of
/// its own (so that a panic is caught and a cancellation drops it), within the server's
/// deadline, until the call is cancelled.
async fn run(server: &Arc<Server>, call: &Deferred, ctx: Context, cancel: &Arc<Cancel>) -> Outcome {
    let mut task = match &call.tool.call {
        Call::Task {
            blocking: false,
            call: f,
        } => match f(&call.arguments, ctx) {
            Started::Ready(called) => return Outcome::Done(called),
            Started::Pending(future) => tokio::spawn(future),
        },
        _ => {
            let tool = call.tool.clone();
            let args = call.arguments.clone();
            tokio::task::spawn_blocking(move || match &tool.call {
                Call::Sync(f) => {
                    let mut out = Vec::new();
                    f(&args, &mut out).map(|shape| (out, shape))
                }
                Call::Task { call: f, .. } => match f(&args, ctx) {
                    Started::Ready(called) => called,
                    Started::Pending(_) => Err(CallError::Tool("not a blocking tool".into())),
                },
            })
        }
    };
    let deadline = server.call_deadline();
    let joined = tokio::select! {
        joined = &mut task => joined,
        () = cancel.cancelled() => {
            task.abort();
            return Outcome::Cancelled;
        }
        () = sleep_or_never(deadline) => {
            task.abort();
            // The tool sees its call cancelled; its progress stops.
            cancel.cancel();
            let after = deadline.unwrap_or_default();
            return Outcome::Done(Err(CallError::TimedOut(after)));
        }
    };
    match joined {
        Ok(called) => Outcome::Done(called),
        Err(e) if e.is_panic() => Outcome::Panicked,
        Err(_) => Outcome::Cancelled,
    }
}

/// Completes after `deadline`, or never.
async fn sleep_or_never(deadline: Option<std::time::Duration>) {
    match deadline {
        Some(d) => tokio::time::sleep(d).await,
        None => std::future::pending().await,
    }
}
