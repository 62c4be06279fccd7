//! The session table of the Streamable HTTP transport: ids (128 random bits from the
//! operating system, in hex: visible ASCII), each session's state and the events of its
//! standalone stream, expiry of unused sessions, and the bound on their number.
//!
//! A session keeps the last [`KEPT_EVENTS`] events of its standalone stream, for a client
//! resuming with `Last-Event-ID`. A resumption after an id older than the oldest kept event's
//! predecessor is refused ([`Resume::Lost`]) rather than served what is kept: the events in
//! between are lost, and the specification offers no message to tell the client so on the
//! stream; the refusal is the only sign a client cannot miss (see `get` in the module above).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::mpsc;

/// How many events of its standalone stream a session keeps for a client resuming with
/// `Last-Event-ID`.
pub(super) const KEPT_EVENTS: usize = 256;

/// The events of a session's standalone `GET` stream: numbered from 1 as they come from the
/// core, the last [`KEPT_EVENTS`] kept, each sent to the stream open now, if any.
#[derive(Debug, Default)]
pub(super) struct Events {
    /// Whether the core sends the session's notifications here yet (on the first `GET`).
    pub(super) started: bool,
    /// The id of the next event.
    next_id: u64,
    /// The last events, framed, by id.
    kept: VecDeque<(u64, Bytes)>,
    /// The open stream's sender, if any.
    live: Option<mpsc::UnboundedSender<Bytes>>,
}

impl Events {
    /// Whether a stream is open (its receiver still there).
    pub(super) fn is_open(&self) -> bool {
        self.live.as_ref().is_some_and(|l| !l.is_closed())
    }

    /// `live` becomes the open stream (the one before it ends), sent first the kept events
    /// after `last` (a resumption's `Last-Event-ID`), if given. [`Resume::Lost`] when events
    /// after `last` are no longer kept, [`Resume::Unknown`] when `last` is past the last event
    /// numbered: then nothing is sent, `live` is dropped, and the open stream, if any, is
    /// ended all the same (the client resuming has given it up; its next `GET`, without
    /// `Last-Event-ID`, is not refused as a second stream).
    pub(super) fn open(&mut self, live: mpsc::UnboundedSender<Bytes>, last: Option<u64>) -> Resume {
        if let Some(last) = last {
            // The first id still kept (the next one when none is).
            let first = self.kept.front().map_or(self.next_id + 1, |(id, _)| *id);
            let refused = if last > self.next_id {
                Some(Resume::Unknown)
            } else if last.saturating_add(1) < first {
                Some(Resume::Lost { first })
            } else {
                None
            };
            if let Some(refused) = refused {
                self.live = None;
                return refused;
            }
            for (_, event) in self.kept.iter().filter(|(id, _)| *id > last) {
                let _ = live.send(event.clone());
            }
        }
        self.live = Some(live);
        Resume::Opened
    }

    /// One frame from the core: numbered, kept, sent to the open stream.
    pub(super) fn push(&mut self, frame: &[u8]) {
        self.next_id += 1;
        let id = self.next_id;
        let event = super::wire::event_with_id(id, frame);
        if self.kept.len() == KEPT_EVENTS {
            self.kept.pop_front();
        }
        self.kept.push_back((id, event.clone()));
        if let Some(live) = &self.live {
            let _ = live.send(event);
        }
    }
}

/// What [`Events::open`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resume {
    /// The stream is open, sent the kept events after `Last-Event-ID`, if given.
    Opened,
    /// Events after `Last-Event-ID` are gone (the oldest kept is `first`): no stream.
    Lost { first: u64 },
    /// `Last-Event-ID` names no event numbered yet: no stream.
    Unknown,
}

/// The events of one session's standalone stream, shared with the task that numbers them.
pub(super) type SharedEvents = Arc<Mutex<Events>>;

/// One session: its state (locked while a POST of the session runs), the events of its
/// standalone stream, and when it was last used.
struct Entry<S> {
    state: Arc<Mutex<S>>,
    events: SharedEvents,
    used: Instant,
}

/// The sessions of one server, by id.
pub(super) struct Sessions<S> {
    map: Mutex<HashMap<String, Entry<S>>>,
    max: usize,
    idle: Duration,
}

impl<S> Sessions<S> {
    /// An empty table keeping at most `max` sessions, each for `idle` after its last use.
    pub(super) fn new(max: usize, idle: Duration) -> Sessions<S> {
        Sessions {
            map: Mutex::new(HashMap::new()),
            max,
            idle,
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry<S>>> {
        // The table's operations do not panic while it is locked; a poisoned lock is used
        // as it was left.
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new session holding `state`: its id and its state, or `None` when the table is full
    /// (after dropping the expired sessions) or the system's random source failed.
    pub(super) fn open(&self, state: S) -> Option<(String, Arc<Mutex<S>>)> {
        let id = new_id()?;
        let mut map = self.map();
        if map.len() >= self.max {
            let now = Instant::now();
            map.retain(|_, e| now.duration_since(e.used) < self.idle);
            if map.len() >= self.max {
                return None;
            }
        }
        let state = Arc::new(Mutex::new(state));
        map.insert(
            id.clone(),
            Entry {
                state: state.clone(),
                events: Arc::default(),
                used: Instant::now(),
            },
        );
        Some((id, state))
    }

    /// The state of session `id`, marked used; `None` if there is no such session or it has
    /// expired (it is then dropped).
    pub(super) fn get(&self, id: &str) -> Option<Arc<Mutex<S>>> {
        let mut map = self.map();
        let now = Instant::now();
        let entry = map.get_mut(id)?;
        if now.duration_since(entry.used) >= self.idle {
            map.remove(id);
            return None;
        }
        entry.used = now;
        Some(entry.state.clone())
    }

    /// [`Sessions::get`] with the events of the session's standalone stream.
    pub(super) fn get_with_events(&self, id: &str) -> Option<(Arc<Mutex<S>>, SharedEvents)> {
        let state = self.get(id)?;
        let events = self.map().get(id)?.events.clone();
        Some((state, events))
    }

    /// Ends session `id`; whether it existed (and had not expired).
    pub(super) fn remove(&self, id: &str) -> bool {
        let entry = self.map().remove(id);
        entry.is_some_and(|e| e.used.elapsed() < self.idle)
    }
}

/// A session id: 16 bytes from the operating system's random source, as 32 hex digits.
fn new_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    let mut id = String::with_capacity(32);
    for b in bytes {
        id.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        id.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    Some(id)
}
