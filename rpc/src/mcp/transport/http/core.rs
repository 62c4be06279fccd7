//! [`HttpCore`] for this crate's [`Server`], shared behind an `Arc`: each session (or each
//! stateless request) is a [`Connection`], and each POST's message is handed to it with an
//! [`Outbox`] of that POST's own, so the notifications a call causes and its response go to
//! the POST that carried the call, and the POST's stream ends when the call has answered.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::HttpCore;
use crate::mcp::{Connection, Outbox, Server};

impl HttpCore for Arc<Server> {
    type Session = Connection;

    fn open(&self) -> Connection {
        let mut connection = Connection::new(self.clone());
        // A `subscriptions/listen` stream is its POST's response, which outlives the
        // connection of a request without a session.
        connection.let_streams_outlive();
        connection
    }

    fn post(&self, session: &mut Connection, body: &[u8], frames: mpsc::UnboundedSender<Vec<u8>>) {
        session.handle(body, Outbox::from(frames));
    }

    fn listen(&self, session: &mut Connection, frames: mpsc::UnboundedSender<Vec<u8>>) -> bool {
        if session.has_session_outbox() {
            return false;
        }
        session.set_session_outbox(Some(Outbox::from(frames)));
        true
    }

    fn closing(&self) {
        self.hub().close_listeners();
    }
}
