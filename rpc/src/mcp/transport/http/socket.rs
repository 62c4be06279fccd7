//! A connection's socket as hyper reads it: the end of the client's input is held back while
//! an answer to a `POST` is in progress, so that a client that shuts down its writing side once
//! its request is sent (half-close) still gets the answer.
//!
//! hyper's own `half_close` option is not used: it stops hyper reading during every message,
//! so a client that closes its connection while a `GET` stream is open would be noticed only
//! by the writes that fail (the next keep-alive lines), holding its connection (one of
//! [`HttpOptions::max_connections`](super::HttpOptions::max_connections)) and keeping its
//! session's stream open meanwhile. Here the end of input is held back only while a `POST` is
//! answered (from its head to the end of its answer); elsewhere hyper sees it at once, as
//! before. The cost: a client that closes the whole connection during a `POST` is noticed by
//! the first write that fails (the call's answer or its next event); one that closes in the
//! middle of its body is answered `400` at once (see [`HalfClose::input_ended`]).

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;

/// What a connection's service and its [`Socket`] share.
#[derive(Default)]
pub(super) struct HalfClose {
    /// The answers to `POST`s in progress ([`Hold`]s alive).
    answering: AtomicUsize,
    /// Whether the client's input has ended.
    ended: AtomicBool,
    /// Told when the client's input ends.
    ended_notify: Notify,
    /// hyper's read, waiting for the end of input to be told.
    reader: Mutex<Option<Waker>>,
}

impl HalfClose {
    /// Holds back the end of input until the [`Hold`] is dropped.
    pub(super) fn hold(self: &Arc<Self>) -> Hold {
        self.answering.fetch_add(1, Ordering::SeqCst);
        Hold(self.clone())
    }

    /// Completes once the client's input has ended (at once if it has).
    pub(super) async fn input_ended(&self) {
        loop {
            let notified = self.ended_notify.notified();
            if self.ended.load(Ordering::SeqCst) {
                return;
            }
            notified.await;
        }
    }

    fn reader(&self) -> std::sync::MutexGuard<'_, Option<Waker>> {
        // Nothing panics while it is locked; a poisoned lock is used as it was left.
        self.reader.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Holds back the end of the client's input while alive (an answer to a `POST` in
/// progress); dropped, it lets hyper see it.
pub(super) struct Hold(Arc<HalfClose>);

impl Drop for Hold {
    fn drop(&mut self) {
        if self.0.answering.fetch_sub(1, Ordering::SeqCst) == 1 {
            if let Some(reader) = self.0.reader().take() {
                reader.wake();
            }
        }
    }
}

/// A connection's TCP stream, whose end of input is held back while a [`Hold`] is alive.
pub(super) struct Socket {
    stream: TcpStream,
    shared: Arc<HalfClose>,
}

impl Socket {
    /// `stream`, sharing `shared` with the connection's service.
    pub(super) fn new(stream: TcpStream, shared: Arc<HalfClose>) -> Socket {
        Socket { stream, shared }
    }
}

impl AsyncRead for Socket {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.shared.ended.load(Ordering::SeqCst) {
            let before = buf.filled().len();
            match Pin::new(&mut this.stream).poll_read(cx, buf) {
                Poll::Ready(Ok(())) if buf.filled().len() == before && buf.remaining() > 0 => {
                    this.shared.ended.store(true, Ordering::SeqCst);
                    this.shared.ended_notify.notify_waiters();
                }
                other => return other,
            }
        }
        // The end of input: told once no answer is in progress (the check again after the
        // waker is stored, so that a `Hold` dropped in between is not missed).
        if this.shared.answering.load(Ordering::SeqCst) == 0 {
            return Poll::Ready(Ok(()));
        }
        *this.shared.reader() = Some(cx.waker().clone());
        if this.shared.answering.load(Ordering::SeqCst) == 0 {
            return Poll::Ready(Ok(()));
        }
        Poll::Pending
    }
}

impl AsyncWrite for Socket {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// A response body that holds back the end of the client's input (a [`Hold`]) until it is
/// dropped: hyper drops it once the answer is written.
pub(super) struct Answer {
    /// The answer.
    pub(super) body: super::wire::Body,
    /// Dropped with the body: the end of input is told.
    pub(super) _hold: Option<Hold>,
}

impl hyper::body::Body for Answer {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<bytes::Bytes>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}
