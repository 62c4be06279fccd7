//! What a running tool call sees of its request ([`Context`]: progress, cancellation, log
//! messages, the request's id), and where a connection's outgoing frames go ([`Outbox`]).

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::sync::Notify;

use super::client::{Peer, RequestError};
use super::input::Round;
use super::tool::{Called, Started, TaskCall};
use super::LogLevel;
use crate::Id;

/// A sender of outgoing frames: each frame one complete JSON-RPC message (a response or a
/// notification) without a line break; the transport frames it. Cheap to clone. Everything
/// caused by a message given to [`Connection::handle`](super::Connection::handle) (its
/// response, and for a tool call its progress and log notifications and its later response)
/// goes to the outbox given with it; a running call holds a clone until it has answered, so
/// the receiver ends when the message's work is done and every clone has been dropped.
#[derive(Debug, Clone)]
pub struct Outbox(UnboundedSender<Vec<u8>>);

impl Outbox {
    /// A new outbox and the receiving end of its frames.
    pub fn channel() -> (Outbox, UnboundedReceiver<Vec<u8>>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Outbox(tx), rx)
    }

    /// Sends one frame; a receiver that went away drops it.
    pub(crate) fn send(&self, frame: Vec<u8>) {
        let _ = self.0.send(frame);
    }

    /// Whether the receiver went away.
    pub(crate) fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

impl From<UnboundedSender<Vec<u8>>> for Outbox {
    fn from(sender: UnboundedSender<Vec<u8>>) -> Outbox {
        Outbox(sender)
    }
}

/// The cancellation of one call: a flag and the tasks waiting for it.
#[derive(Debug, Default)]
pub(super) struct Cancel {
    flag: AtomicBool,
    notify: Notify,
}

impl Cancel {
    /// Cancels the call (again: nothing more).
    pub(super) fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Whether the call was cancelled.
    pub(super) fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Completes when the call is cancelled.
    pub(super) async fn cancelled(&self) {
        loop {
            let notified = self.notify.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// No log level set yet: every log message is sent.
pub(super) const NO_LEVEL: u8 = u8::MAX;

/// A connection's log level, shared with its running calls (`NO_LEVEL`: not set).
pub(super) type SharedLevel = Arc<AtomicU8>;

/// What a tool that takes it (`|ctx: Context, args: A| ...`, sync or async; see
/// [`Server::tool`](super::Server::tool)) knows of its call: the request's id, whether the
/// client cancelled it, and the means to report progress and send log messages to the client,
/// and to send it requests and await their answers ([`Context::sample`], [`Context::elicit`],
/// [`Context::request`]). Cheap to clone.
///
/// A call made through [`Server::handle_line`](super::Server::handle_line) has no outbox: its
/// progress and log messages go nowhere and it is never cancelled. A call made through a
/// connection ([`Connection`](super::Connection), [`Server::serve_stdio`](super::Server::serve_stdio))
/// sends them to the connection's client.
#[derive(Debug, Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    id: Id<'static>,
    /// The request's `params._meta.progressToken`, as JSON text.
    progress_token: Option<String>,
    outbox: Option<Outbox>,
    cancel: Arc<Cancel>,
    level: Option<Logs>,
    /// The connection's requests to its client, when the call has a connection.
    peer: Option<Arc<Peer>>,
    /// Revision 2026-07-28: the answers given so far and the means to ask for more.
    round: Option<Box<Round>>,
}

/// Which log messages a call may send.
#[derive(Debug)]
pub(super) enum Logs {
    /// The handshake era: the connection's level (`logging/setLevel`), shared.
    Connection(SharedLevel),
    /// Revision 2026-07-28: the level the request opted in to in its `_meta`
    /// (`io.modelcontextprotocol/logLevel`); none: no log message at all.
    Request(Option<LogLevel>),
}

impl Context {
    /// The context of the call `id` on a connection.
    pub(super) fn new(
        id: Id<'static>,
        progress_token: Option<String>,
        outbox: Outbox,
        cancel: Arc<Cancel>,
        level: Logs,
        peer: Arc<Peer>,
        round: Option<Box<Round>>,
    ) -> Context {
        Context {
            inner: Arc::new(Inner {
                id,
                progress_token,
                outbox: Some(outbox),
                cancel,
                level: Some(level),
                peer: Some(peer),
                round,
            }),
        }
    }

    /// The context of a call with nowhere to send anything (through `handle_line`).
    pub(super) fn detached(id: Id<'static>, round: Option<Box<Round>>) -> Context {
        Context {
            inner: Arc::new(Inner {
                id,
                progress_token: None,
                outbox: None,
                cancel: Arc::new(Cancel::default()),
                level: None,
                peer: None,
                round,
            }),
        }
    }

    /// The call's round of revision 2026-07-28's multi round-trip requests; `None` in the
    /// handshake era.
    pub(super) fn round(&self) -> Option<&Round> {
        self.inner.round.as_deref()
    }

    /// The id of the `tools/call` request.
    pub fn request_id(&self) -> &Id<'static> {
        &self.inner.id
    }

    /// Whether the client cancelled the call (`notifications/cancelled`), or its deadline
    /// passed ([`Server::call_timeout`](super::Server::call_timeout)). A cancelled call is
    /// never answered; a tool should stop at the next chance.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancel.is_cancelled()
    }

    /// Completes when the call is cancelled (at once if it was): for `tokio::select!` beside
    /// the tool's work.
    pub async fn cancelled(&self) {
        self.inner.cancel.cancelled().await
    }

    /// Whether the request asked for progress notifications (it carried a
    /// `params._meta.progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.inner.progress_token.is_some() && self.inner.outbox.is_some()
    }

    /// Reports progress: sends `notifications/progress` with the request's `progressToken`,
    /// `progress` = `done`, and `total` and `message` when given. Sends nothing when the
    /// request carried no progress token, or once the call is cancelled. `done` should grow
    /// from one report to the next.
    pub fn progress(&self, done: impl Into<f64>, total: Option<f64>, message: Option<&str>) {
        let (Some(token), Some(outbox)) = (&self.inner.progress_token, &self.inner.outbox) else {
            return;
        };
        if self.is_cancelled() {
            return;
        }
        let mut frame =
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"#
                .to_vec();
        frame.extend_from_slice(token.as_bytes());
        frame.extend_from_slice(br#","progress":"#);
        write_number(done.into(), &mut frame);
        if let Some(total) = total {
            frame.extend_from_slice(br#","total":"#);
            write_number(total, &mut frame);
        }
        if let Some(message) = message {
            frame.extend_from_slice(br#","message":"#);
            structio::write_json(&message, &mut frame);
        }
        frame.extend_from_slice(b"}}");
        outbox.send(frame);
    }

    /// Whether a log message at `level` would be sent: the call has a client, and `level` is
    /// at or above the one the client set: in the handshake era with `logging/setLevel` (any
    /// level, when it set none); in revision 2026-07-28 in the request's `_meta`
    /// (`io.modelcontextprotocol/logLevel`; none, when the request set none: logging is
    /// opted in to per request there).
    pub fn logs(&self, level: LogLevel) -> bool {
        let (Some(_), Some(logs)) = (&self.inner.outbox, &self.inner.level) else {
            return false;
        };
        match logs {
            Logs::Connection(set) => {
                let set = set.load(Ordering::Relaxed);
                set == NO_LEVEL || level as u8 >= set
            }
            Logs::Request(set) => set.is_some_and(|set| level >= set),
        }
    }

    /// Sends a log message to the client (`notifications/message` with `level` and `data`,
    /// any JSON value), when `level` passes the one the client set ([`Context::logs`]).
    pub fn log(&self, level: LogLevel, data: impl Into<structio::Value>) {
        if !self.logs(level) {
            return;
        }
        let Some(outbox) = &self.inner.outbox else {
            return;
        };
        let mut frame =
            br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"#.to_vec();
        structio::write_json(&level.as_str(), &mut frame);
        frame.extend_from_slice(br#","data":"#);
        structio::write_json(&data.into(), &mut frame);
        frame.extend_from_slice(b"}}");
        outbox.send(frame);
    }
}

impl Context {
    /// Sends the request `method` with `params` (a JSON object, as text) to the client and
    /// waits for its answer: the `result`, as JSON text. The request goes out on the call's
    /// outbox (over HTTP, on the stream of the POST that carried the call) with an id the
    /// server issues, unique on the connection; the client's response, handed to
    /// [`Connection::handle`](super::Connection::handle) like any message, completes it.
    ///
    /// Fails when the call has no client connection (it was made through
    /// [`Server::handle_line`](super::Server::handle_line)), in the stateless revision
    /// 2026-07-28 (which has no requests from server to client), when the client did not
    /// declare the capability the method needs in `initialize` (`sampling` for
    /// `sampling/createMessage`, `elicitation` for `elicitation/create`, `roots` for
    /// `roots/list`), when the client answers with an error, and when the call is cancelled
    /// while it waits (the client is then sent `notifications/cancelled` for the request).
    /// [`Context::sample`] and [`Context::elicit`] are built on it; [`Context::ask`] and its
    /// kin too in the handshake era, and ask revision 2026-07-28's way in that revision.
    pub async fn request(&self, method: &str, params: &str) -> Result<String, RequestError> {
        let (Some(outbox), Some(peer)) = (&self.inner.outbox, &self.inner.peer) else {
            return Err(RequestError::NoClient);
        };
        if matches!(self.inner.level, Some(Logs::Request(_))) {
            return Err(RequestError::Stateless);
        }
        peer.check(method)?;
        if self.is_cancelled() {
            return Err(RequestError::Cancelled);
        }
        let (id, reply) = peer.register();
        let mut waiting = Waiting {
            peer,
            outbox,
            id,
            done: false,
        };
        let mut frame = br#"{"jsonrpc":"2.0","id":"#.to_vec();
        structio::write_json(&id, &mut frame);
        frame.extend_from_slice(br#","method":"#);
        structio::write_json(&method, &mut frame);
        let params = params.trim();
        if !params.is_empty() {
            frame.extend_from_slice(br#","params":"#);
            frame.extend_from_slice(params.as_bytes());
        }
        frame.push(b'}');
        outbox.send(frame);
        let reply = tokio::select! {
            reply = reply => reply,
            () = self.cancelled() => return Err(RequestError::Cancelled),
        };
        waiting.done = true;
        match reply {
            Ok(reply) => reply,
            Err(_) => Err(RequestError::Closed),
        }
    }
}

/// A request of the server's waiting for its answer: dropped unanswered (the call cancelled,
/// its task aborted), it leaves the connection's table and the client is told.
struct Waiting<'a> {
    peer: &'a Peer,
    outbox: &'a Outbox,
    id: u64,
    done: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if self.peer.forget(self.id) {
            let mut frame =
                br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"#
                    .to_vec();
            structio::write_json(&self.id, &mut frame);
            frame.extend_from_slice(br#","reason":"the tool call was cancelled"}}"#);
            self.outbox.send(frame);
        }
    }
}

/// `n` as JSON: an integer when it is one.
fn write_number(n: f64, out: &mut Vec<u8>) {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        structio::write_json(&(n as i64), out);
    } else if n.is_finite() {
        structio::write_json(&n, out);
    } else {
        out.extend_from_slice(b"0");
    }
}

/// Runs a tool taking a [`Context`], or asynchronous, where the request is read
/// ([`Server::handle_line`](super::Server::handle_line)): with a detached context; a future
/// is driven to its end on this thread, in a Tokio runtime of this thread's own when no
/// runtime is running here (so that Tokio's timers and I/O work), else by a minimal executor.
pub(super) fn run_here(
    call: &TaskCall,
    args: &str,
    id: &Id<'_>,
    round: Option<Box<Round>>,
) -> Called {
    match call(args, Context::detached(id.clone().into_owned(), round)) {
        Started::Ready(called) => called,
        Started::Pending(future) => drive(future),
    }
}

/// Drives `future` to its end on this thread: in a Tokio runtime of this thread's own when no
/// runtime is running here (so that Tokio's timers and I/O work), else by a minimal executor.
pub(super) fn drive<F: std::future::Future>(future: F) -> F::Output {
    if tokio::runtime::Handle::try_current().is_ok() {
        return block_on(future);
    }
    thread_local! {
        static RUNTIME: Option<tokio::runtime::Runtime> = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .ok();
    }
    RUNTIME.with(|rt| match rt {
        Some(rt) => rt.block_on(future),
        None => block_on(future),
    })
}

/// Drives `future` to its end on this thread, parking it while the future waits.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::task::Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = std::task::Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

/// What a `tools/call` message asks for in its `params._meta`: the progress token, as JSON
/// text, when it is a string or a number; the log level (revision 2026-07-28's
/// `io.modelcontextprotocol/logLevel`), when it names one.
pub(super) fn request_meta(message: &[u8]) -> (Option<String>, Option<LogLevel>) {
    #[derive(structio::Reflect)]
    struct Message<'a> {
        params: Option<Params<'a>>,
    }
    #[derive(structio::Reflect)]
    struct Params<'a> {
        #[structio(rename = "_meta")]
        meta: Option<RequestMeta<'a>>,
    }
    #[derive(structio::Reflect)]
    struct RequestMeta<'a> {
        #[structio(rename = "progressToken")]
        progress_token: Option<structio::RawJson<'a>>,
        #[structio(rename = "io.modelcontextprotocol/logLevel")]
        log_level: Option<structio::RawJson<'a>>,
    }
    let Ok(message) =
        structio::json::from_json_with::<Message<'_>>(message, &super::protocol::skip())
    else {
        return (None, None);
    };
    let Some(meta) = message.params.and_then(|p| p.meta) else {
        return (None, None);
    };
    let token = meta.progress_token.and_then(|t| {
        let text = t.get().trim();
        matches!(text.as_bytes().first(), Some(b'"' | b'-' | b'0'..=b'9')).then(|| text.to_owned())
    });
    let level = meta
        .log_level
        .and_then(|l| l.parse::<std::borrow::Cow<'_, str>>().ok())
        .and_then(|l| LogLevel::parse(&l));
    (token, level)
}
