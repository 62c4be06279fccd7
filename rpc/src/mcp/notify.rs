//! Notifications not tied to a request (feature `async`): the resource subscriptions of each
//! connection, each connection's session outbox, and the [`Notifier`] a program uses to
//! announce a change while the server serves (`notifications/resources/updated`,
//! `notifications/{tools,resources,prompts}/list_changed`).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::context::Outbox;

/// The connections of one server, as the notifier sees them.
#[derive(Debug, Default)]
pub(super) struct Hub {
    peers: Mutex<HashMap<u64, Peer>>,
    next: AtomicU64,
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
/// every connection that is initialized (the handshake era: revision 2026-07-28 has no
/// notifications outside a request) and has a session outbox (stdio: stdout; Streamable HTTP:
/// the session's standalone `GET` stream, when the client opened one), and returns to how
/// many connections it was sent. Taking a notifier makes the server advertise
/// `listChanged: true` for its tools, and for its resources and prompts when it has them.
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
    /// `uri` (`resources/subscribe`, see [`Server::subscriptions`](super::Server::subscriptions));
    /// returns to how many.
    pub fn resource_updated(&self, uri: &str) -> usize {
        let mut frame =
            br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"#
                .to_vec();
        structio::write_json(&uri, &mut frame);
        frame.extend_from_slice(b"}}");
        self.hub.send(&frame, |p| p.subscribed.contains(uri))
    }

    /// Sends `notifications/tools/list_changed` to every connection; returns to how many.
    pub fn tools_changed(&self) -> usize {
        self.list_changed("tools")
    }

    /// Sends `notifications/resources/list_changed` to every connection; returns to how many.
    pub fn resources_changed(&self) -> usize {
        self.list_changed("resources")
    }

    /// Sends `notifications/prompts/list_changed` to every connection; returns to how many.
    pub fn prompts_changed(&self) -> usize {
        self.list_changed("prompts")
    }

    fn list_changed(&self, what: &str) -> usize {
        let frame = format!(r#"{{"jsonrpc":"2.0","method":"notifications/{what}/list_changed"}}"#);
        self.hub.send(frame.as_bytes(), |_| true)
    }
}
