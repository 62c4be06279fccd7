//! The session table of the Streamable HTTP transport: ids (128 random bits from the
//! operating system, in hex: visible ASCII), each session's state, expiry of unused sessions,
//! and the bound on their number.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One session: its state (locked while a POST of the session runs) and when it was last used.
struct Entry<S> {
    state: Arc<Mutex<S>>,
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
