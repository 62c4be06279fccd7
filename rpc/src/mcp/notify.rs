//! Notifications not tied to a request (feature `async`): the resource subscriptions of each
//! connection, each connection's session outbox (the handshake era), the `subscriptions/listen`
//! streams (revision 2026-07-28), and the [`Notifier`] a program uses to announce a change
//! while the server serves (`notifications/resources/updated`,
//! `notifications/{tools,resources,prompts}/list_changed`).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::context::Outbox;
use super::protocol::SubscriptionFilter;
use super::SUBSCRIPTION_ID_KEY;

/// The connections of one server, as the notifier sees them.
#[derive(Debug, Default)]
pub(super) struct Hub {
    peers: Mutex<HashMap<u64, Peer>>,
    next: AtomicU64,
    /// The open `subscriptions/listen` streams of every connection.
    listeners: Mutex<Vec<Listener>>,
}

/// Which list changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    fn name(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Resources => "resources",
            ListKind::Prompts => "prompts",
        }
    }
}

/// One `subscriptions/listen` stream (revision 2026-07-28): the connection that opened it, the
/// request's id (its subscription id) as JSON text, what the server agreed to send on it, and
/// where its frames go.
#[derive(Debug)]
struct Listener {
    connection: u64,
    id: String,
    filter: SubscriptionFilter,
    outbox: Outbox,
}

impl Listener {
    fn wants(&self, list: ListKind) -> bool {
        let f = &self.filter;
        match list {
            ListKind::Tools => f.tools_list_changed,
            ListKind::Resources => f.resources_list_changed,
            ListKind::Prompts => f.prompts_list_changed,
        }
        .unwrap_or(false)
    }
}

/// `notifications/subscriptions/acknowledged` of the subscription `id` (JSON text), with
/// what the server agreed to send on it.
pub(super) fn acknowledgement(id: &str, agreed: &SubscriptionFilter) -> Vec<u8> {
    let mut rest = br#","notifications":"#.to_vec();
    structio::write_json(agreed, &mut rest);
    on_subscription("notifications/subscriptions/acknowledged", id, &rest)
}

/// A notification on the subscription `id` (JSON text): `params` opens with the `_meta`
/// naming the subscription, followed by `rest` (`,"uri":...`, or nothing).
fn on_subscription(method: &str, id: &str, rest: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(128 + rest.len());
    frame.extend_from_slice(br#"{"jsonrpc":"2.0","method":""#);
    frame.extend_from_slice(method.as_bytes());
    frame.extend_from_slice(br#"","params":{"_meta":{""#);
    frame.extend_from_slice(SUBSCRIPTION_ID_KEY.as_bytes());
    frame.extend_from_slice(br#"":"#);
    frame.extend_from_slice(id.as_bytes());
    frame.push(b'}');
    frame.extend_from_slice(rest);
    frame.extend_from_slice(b"}}");
    frame
}

/// One connection: where its notifications go, whether it may be sent them yet, and the URIs
/// it subscribed to.
#[derive(Debug, Default)]
struct Peer {
    /// The session outbox, if the transport gave one.
    outbox: Option<Outbox>,
    /// The connection is initialized in the handshake era: notifications may be sent to it.
    live: bool,
    subscribed: HashSet<String>,
}

impl Hub {
    fn peers(&self) -> MutexGuard<'_, HashMap<u64, Peer>> {
        // Nothing panics while the table is locked; a poisoned lock is used as it was left.
        self.peers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new connection's key.
    pub(super) fn join(&self) -> u64 {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        self.peers().insert(key, Peer::default());
        key
    }

    /// The connection `key` is gone.
    pub(super) fn leave(&self, key: u64) {
        self.peers().remove(&key);
    }

    /// Sets the session outbox of `key` (none: notifications are dropped).
    pub(super) fn set_outbox(&self, key: u64, outbox: Option<Outbox>) {
        if let Some(peer) = self.peers().get_mut(&key) {
            peer.outbox = outbox;
        }
    }

    /// Whether `key` has a session outbox whose receiver is still there.
    pub(super) fn has_outbox(&self, key: u64) -> bool {
        self.peers()
            .get(&key)
            .and_then(|p| p.outbox.as_ref())
            .is_some_and(|o| !o.is_closed())
    }

    /// Records what the connection `key` became: `live`, and the subscriptions (`true`) and
    /// unsubscriptions (`false`) of `changes`, in order.
    pub(super) fn update(&self, key: u64, live: bool, changes: Vec<(String, bool)>) {
        if let Some(peer) = self.peers().get_mut(&key) {
            peer.live = live;
            for (uri, on) in changes {
                if on {
                    peer.subscribed.insert(uri);
                } else {
                    peer.subscribed.remove(&uri);
                }
            }
        }
    }

    fn listeners(&self) -> MutexGuard<'_, Vec<Listener>> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens the `subscriptions/listen` stream `id` (JSON text) of the connection `key`:
    /// `notifications/subscriptions/acknowledged` with `filter` (what the server agreed to
    /// send) goes to `outbox` first, then the notifications `filter` picks, each naming `id`.
    /// A stream whose receiver went away is dropped at the next notification or listen.
    pub(super) fn listen(&self, key: u64, id: String, filter: SubscriptionFilter, outbox: Outbox) {
        // Under the lock, so that no notification of the stream comes before its
        // acknowledgement, and none sent after the acknowledgement misses it.
        let mut listeners = self.listeners();
        outbox.send(acknowledgement(&id, &filter));
        listeners.retain(|l| !l.outbox.is_closed());
        listeners.push(Listener {
            connection: key,
            id,
            filter,
            outbox,
        });
    }

    /// Ends the stream `id` (JSON text) of the connection `key` (the client cancelled it);
    /// whether it was open.
    pub(super) fn unlisten(&self, key: u64, id: &str) -> bool {
        let mut listeners = self.listeners();
        let before = listeners.len();
        listeners.retain(|l| !(l.connection == key && l.id == id));
        listeners.len() != before
    }

    /// Ends every stream of the connection `key`.
    pub(super) fn unlisten_all(&self, key: u64) {
        self.listeners().retain(|l| l.connection != key);
    }

    /// How many `subscriptions/listen` streams are open.
    pub(super) fn listening(&self) -> usize {
        let mut listeners = self.listeners();
        listeners.retain(|l| !l.outbox.is_closed());
        listeners.len()
    }

    /// Ends every stream gracefully (the server shuts down): each is answered with the
    /// `subscriptions/listen` result of revision 2026-07-28 (`resultType` `complete`, its
    /// subscription id in `_meta`), and its outbox dropped; how many.
    pub(super) fn close_listeners(&self) -> usize {
        let listeners = std::mem::take(&mut *self.listeners());
        for l in &listeners {
            let mut frame = br#"{"jsonrpc":"2.0","id":"#.to_vec();
            frame.extend_from_slice(l.id.as_bytes());
            frame.extend_from_slice(br#","result":{"resultType":"complete","_meta":{""#);
            frame.extend_from_slice(SUBSCRIPTION_ID_KEY.as_bytes());
            frame.extend_from_slice(br#"":"#);
            frame.extend_from_slice(l.id.as_bytes());
            frame.extend_from_slice(b"}}}");
            l.outbox.send(frame);
        }
        listeners.len()
    }

    /// Sends a notification to every stream that `to` picks, each frame made by `frame` from
    /// the stream's id; how many.
    fn send_listeners(
        &self,
        to: impl Fn(&Listener) -> bool,
        frame: impl Fn(&str) -> Vec<u8>,
    ) -> usize {
        let mut listeners = self.listeners();
        listeners.retain(|l| !l.outbox.is_closed());
        let mut sent = 0;
        for l in listeners.iter().filter(|l| to(l)) {
            l.outbox.send(frame(&l.id));
            sent += 1;
        }
        sent
    }

    /// Sends `notifications/{list}/list_changed` to every live connection with a session
    /// outbox, and on every stream that asked for it; how many.
    pub(super) fn list_changed(&self, list: ListKind) -> usize {
        let method = format!("notifications/{}/list_changed", list.name());
        let frame = format!(r#"{{"jsonrpc":"2.0","method":"{method}"}}"#);
        self.send(frame.as_bytes(), |_| true)
            + self.send_listeners(|l| l.wants(list), |id| on_subscription(&method, id, b""))
    }

    /// Sends `notifications/resources/updated` with `uri` to every live connection
    /// subscribed to it, and on every stream that asked for it; how many.
    pub(super) fn resource_updated(&self, uri: &str) -> usize {
        let mut rest = br#","uri":"#.to_vec();
        structio::write_json(&uri, &mut rest);
        let mut frame =
            br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"#.to_vec();
        frame.extend_from_slice(&rest[1..]);
        frame.extend_from_slice(b"}}");
        let subscribed = |l: &Listener| {
            l.filter
                .resource_subscriptions
                .as_ref()
                .is_some_and(|uris| uris.iter().any(|u| u == uri))
        };
        self.send(&frame, |p| p.subscribed.contains(uri))
            + self.send_listeners(subscribed, |id| {
                on_subscription("notifications/resources/updated", id, &rest)
            })
    }

    /// Sends `frame` to every live connection with a session outbox that `to` picks; how many.
    fn send(&self, frame: &[u8], to: impl Fn(&Peer) -> bool) -> usize {
        let outboxes: Vec<Outbox> = self
            .peers()
            .values()
            .filter(|p| p.live && to(p))
            .filter_map(|p| p.outbox.clone())
            .filter(|o| !o.is_closed())
            .collect();
        for outbox in &outboxes {
            outbox.send(frame.to_vec());
        }
        outboxes.len()
    }
}

/// A cloneable handle announcing changes to the clients of a running server
/// ([`Server::notifier`](super::Server::notifier)): each method sends one notification to
/// every connection of the handshake era that is initialized and has a session outbox
/// (stdio: stdout; Streamable HTTP: the session's standalone `GET` stream, when the client
/// opened one), and on every `subscriptions/listen` stream of revision 2026-07-28 that asked
/// for it (each notification naming its stream in `_meta`), and returns to how many it was
/// sent. Taking a notifier makes the server advertise `listChanged: true` for its tools, and
/// for its resources and prompts when it has them (in `initialize` and `server/discover`).
///
/// A `subscriptions/listen` request (revision 2026-07-28, `params.notifications` saying which
/// notifications the stream wants) is acknowledged with
/// `notifications/subscriptions/acknowledged` naming what the server agreed to send: list
/// changes when it has a notifier (or [`LiveTools`](super::LiveTools)) and the list, and
/// updates of the resources it has when it serves subscriptions. The stream stays open, never
/// answered, until the client cancels it (`notifications/cancelled` naming the request, on
/// stdio), its transport closes (HTTP: the client closes the POST's response stream), or the
/// server ends it ([`Notifier::close_streams`], done by the HTTP transport when it stops).
///
/// ```
/// use std::sync::Arc;
/// use structio_rpc::mcp::{Connection, Outbox, ResourceContents, ResourceError, ResourceOptions, Server};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let mut server = Server::new("files", "1")
///     .resource("file:///a.txt", "a", ResourceOptions::new(), |r| {
///         Ok::<_, ResourceError>(ResourceContents::text(r.uri(), "A"))
///     })
///     .subscriptions(true);
/// let notifier = server.notifier();
/// let mut connection = Connection::new(Arc::new(server));
/// let (session, mut notes) = Outbox::channel();
/// connection.set_session_outbox(Some(session));
/// let (outbox, mut frames) = Outbox::channel();
/// connection.handle(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#, outbox.clone());
/// connection.handle(br#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a.txt"}}"#, outbox);
/// assert!(std::str::from_utf8(&frames.recv().await.unwrap()).unwrap().contains(r#""subscribe":true"#));
/// assert_eq!(frames.recv().await.unwrap(), br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
///
/// assert_eq!(notifier.resource_updated("file:///a.txt"), 1);
/// assert_eq!(
///     notes.recv().await.unwrap(),
///     br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a.txt"}}"#
/// );
/// assert_eq!(notifier.resource_updated("file:///b.txt"), 0); // nobody subscribed
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct Notifier {
    hub: Arc<Hub>,
}

impl Notifier {
    /// The notifier of the connections in `hub`.
    pub(super) fn new(hub: Arc<Hub>) -> Notifier {
        Notifier { hub }
    }

    /// Sends `notifications/resources/updated` with `uri` to every connection subscribed to
    /// `uri` (`resources/subscribe` in the handshake era, see
    /// [`Server::subscriptions`](super::Server::subscriptions); `resourceSubscriptions` on a
    /// `subscriptions/listen` stream of revision 2026-07-28); returns to how many connections
    /// and streams.
    pub fn resource_updated(&self, uri: &str) -> usize {
        self.hub.resource_updated(uri)
    }

    /// Sends `notifications/tools/list_changed` to every connection (and every
    /// `subscriptions/listen` stream that asked for `toolsListChanged`); returns to how many.
    pub fn tools_changed(&self) -> usize {
        self.hub.list_changed(ListKind::Tools)
    }

    /// Sends `notifications/resources/list_changed` to every connection (and every
    /// `subscriptions/listen` stream that asked for `resourcesListChanged`); returns to how
    /// many.
    pub fn resources_changed(&self) -> usize {
        self.hub.list_changed(ListKind::Resources)
    }

    /// How many `subscriptions/listen` streams (revision 2026-07-28) are open, on every
    /// connection.
    pub fn streams(&self) -> usize {
        self.hub.listening()
    }

    /// Ends every `subscriptions/listen` stream (revision 2026-07-28) gracefully, as a server
    /// shutting down should: each is answered with its `subscriptions/listen` result
    /// (`"resultType":"complete"`, its subscription id in `_meta`), and nothing more is sent
    /// on it (an HTTP stream ends); returns how many. The Streamable HTTP transport does it
    /// when it stops.
    pub fn close_streams(&self) -> usize {
        self.hub.close_listeners()
    }

    /// Sends `notifications/prompts/list_changed` to every connection (and every
    /// `subscriptions/listen` stream that asked for `promptsListChanged`); returns to how
    /// many.
    pub fn prompts_changed(&self) -> usize {
        self.hub.list_changed(ListKind::Prompts)
    }
}
