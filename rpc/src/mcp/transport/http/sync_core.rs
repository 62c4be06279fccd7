//! [`HttpCore`] for this crate's synchronous [`Server`]: one server serves every session, each
//! session's state ([`Connection`]: the revision agreed, the era) swapped in for its messages.
//! The server's tools, resources and prompts are plain closures (neither `Send` nor `Sync`), so
//! the server stays in the future that [`Server::serve_http_async`] returns, and the
//! connections' tasks hand it their POST bodies as jobs, one at a time; that future runs
//! each job with `block_in_place`, off the reactor's other tasks.

use std::future::Future;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};

use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::HttpCore;
use crate::mcp::server::Connection;
use crate::mcp::Server;

/// One POST body for the server, with its session's state, where its frames go and where the
/// session's new state goes.
pub(super) struct Job {
    state: Connection,
    body: Vec<u8>,
    frames: mpsc::UnboundedSender<Vec<u8>>,
    reply: std::sync::mpsc::SyncSender<Connection>,
}

/// The connections' side: sends jobs to the future holding the server.
pub(super) struct SyncCore {
    jobs: mpsc::UnboundedSender<Job>,
}

impl SyncCore {
    /// A core and the receiving end of its jobs, for [`run`].
    pub(super) fn new() -> (SyncCore, mpsc::UnboundedReceiver<Job>) {
        let (jobs, rx) = mpsc::unbounded_channel();
        (SyncCore { jobs }, rx)
    }
}

impl HttpCore for SyncCore {
    type Session = Connection;

    fn open(&self) -> Connection {
        Connection::default()
    }

    fn post(&self, session: &mut Connection, body: &[u8], frames: mpsc::UnboundedSender<Vec<u8>>) {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        let job = Job {
            state: *session,
            body: body.to_vec(),
            frames,
            reply,
        };
        // The server gone (shut down): the job, and its frames' sender, are dropped.
        if self.jobs.send(job).is_ok() {
            if let Ok(state) = answer.recv() {
                *session = state;
            }
        }
    }
}

/// Runs `server` on the jobs until the connections' task `accept` ends; when `shutdown`
/// completes, tells it to stop (through `stop`) and goes on with the jobs of the connections
/// that finish.
pub(super) async fn run(
    server: &mut Server,
    mut jobs: mpsc::UnboundedReceiver<Job>,
    shutdown: impl Future<Output = ()>,
    stop: watch::Sender<bool>,
    mut accept: JoinHandle<io::Result<()>>,
) -> io::Result<()> {
    let mut shutdown = std::pin::pin!(shutdown);
    let (mut stopping, mut closed) = (false, false);
    let multi = Handle::current().runtime_flavor() == RuntimeFlavor::MultiThread;
    loop {
        tokio::select! {
            job = jobs.recv(), if !closed => match job {
                Some(job) if multi => tokio::task::block_in_place(|| handle(server, job)),
                Some(job) => handle(server, job),
                None => closed = true,
            },
            () = &mut shutdown, if !stopping => {
                stopping = true;
                let _ = stop.send(true);
            }
            done = &mut accept => return done.map_err(io::Error::other)?,
        }
    }
}

/// One job: the session's state in, the body to the server, the frame out, the state back.
fn handle(server: &mut Server, job: Job) {
    let saved = server.swap_connection(job.state);
    let mut out = Vec::new();
    let answered = catch_unwind(AssertUnwindSafe(|| server.handle_line(&job.body, &mut out)));
    let state = server.swap_connection(saved);
    if answered.is_err() {
        // A handler panicked: the request is answered with an internal error (its id is not
        // known here).
        out.clear();
        out.extend_from_slice(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}"#,
        );
    }
    if out.last() == Some(&b'\n') {
        out.pop();
    }
    if !out.is_empty() {
        let _ = job.frames.send(out);
    }
    let _ = job.reply.send(state);
}
