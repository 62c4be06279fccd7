//! The stdio transport: one JSON-RPC message per line in, one response per line out. It knows
//! the framing (lines, their bound, the reads and writes); every message goes to the core's
//! [`Server::handle_line`].

use std::io::{self, ErrorKind, Read, Write};

use crate::mcp::Server;

/// Bytes read from the input at a time.
const CHUNK: usize = 64 * 1024;

impl Server {
    /// Serves the process's stdin and stdout until stdin ends (or stdout is closed): the MCP
    /// stdio transport. Only response frames are written to stdout; the server writes nothing
    /// else there (write logs to stderr). A server with a problem ([`Server::check`]: a tool
    /// that could not be added) does not start: the problem is returned as an error of kind
    /// `InvalidInput` (its inner error a [`BuildError`](crate::mcp::BuildError)).
    ///
    /// This is the transport without the `async` feature: one message at a time, each tool
    /// call answered before the next line is read.
    #[cfg(not(feature = "async"))]
    pub fn serve_stdio(&mut self) -> io::Result<()> {
        let stdin = io::stdin();
        let stdout = io::stdout();
        self.serve(stdin.lock(), stdout.lock())
    }

    /// Serves `input` and `output` as [`Server::serve_stdio`] serves stdin and stdout: each
    /// line of `input` (a trailing `\r` is dropped, empty lines are skipped) is one JSON-RPC
    /// message, each response is one line of `output`. Responses are written and flushed
    /// whenever the input has no complete line left, so a client that sends one request at a
    /// time gets each answer at once, and pipelined requests are answered in large writes.
    ///
    /// A line longer than [`Server::max_line`] (not counting its `\n` or `\r\n`) is read
    /// through without being kept and answered with a `-32600` error, so memory stays bounded
    /// by the limit. Returns at the end of `input` (an unfinished last line is handled as a
    /// line), or when `output` is closed (`BrokenPipe`); other I/O errors are returned. As
    /// with [`Server::serve_stdio`], a server with a problem does not start.
    pub fn serve<R: Read, W: Write>(&mut self, mut input: R, mut output: W) -> io::Result<()> {
        self.check()
            .map_err(|e| io::Error::new(ErrorKind::InvalidInput, e))?;
        let mut buf = vec![0u8; CHUNK];
        let mut lines = Lines::new(self.line_limit());
        let mut out: Vec<u8> = Vec::with_capacity(CHUNK);
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            lines.feed(&buf[..n], |line| match line {
                Some(line) => line_in(self, line, &mut out),
                None => self.too_long(&mut out),
            });
            if !out.is_empty() {
                if !send(&mut output, &out)? {
                    return Ok(());
                }
                out.clear();
            }
        }
        lines.finish(|line| match line {
            Some(line) => line_in(self, line, &mut out),
            None => self.too_long(&mut out),
        });
        send(&mut output, &out)?;
        Ok(())
    }
}

/// Whether the line `kept` followed by `part` is within `limit` ([`Server::max_line`]), not
/// counting a `\r` it ends with (the line break is `\n` or `\r\n`, and the limit is on the
/// message).
#[inline]
fn fits(limit: usize, kept: &[u8], part: &[u8]) -> bool {
    let len = kept.len() + part.len();
    if len <= limit {
        return true;
    }
    len == limit + 1 && part.last().or(kept.last()) == Some(&b'\r')
}

/// The line framing of both stdio loops: the input's chunks cut into lines (without their
/// `\n`), each line over the limit ([`Server::max_line`]) read through without being kept.
struct Lines {
    limit: usize,
    /// The start of a line that continues in the next chunk.
    line: Vec<u8>,
    /// Whether the line being read has passed the limit (its bytes are dropped).
    overlong: bool,
}

impl Lines {
    fn new(limit: usize) -> Lines {
        Lines {
            limit,
            line: Vec::new(),
            overlong: false,
        }
    }

    /// Cuts `chunk` into lines: `each(Some(line))` for every line it completes, `each(None)`
    /// for a line over the limit.
    #[inline]
    fn feed(&mut self, mut chunk: &[u8], mut each: impl FnMut(Option<&[u8]>)) {
        while let Some(nl) = chunk.iter().position(|&b| b == b'\n') {
            let part = &chunk[..nl];
            chunk = &chunk[nl + 1..];
            if self.overlong || !fits(self.limit, &self.line, part) {
                self.overlong = false;
                self.line.clear();
                each(None);
            } else if self.line.is_empty() {
                each(Some(part));
            } else {
                self.line.extend_from_slice(part);
                each(Some(&self.line));
                self.line.clear();
            }
        }
        if !self.overlong {
            // A `\r` ending the chunk may be the first half of a `\r\n`: kept, the line may
            // hold one byte more than the limit until the next chunk tells.
            if !fits(self.limit, &self.line, chunk) {
                self.overlong = true;
                self.line = Vec::new();
            } else {
                self.line.extend_from_slice(chunk);
            }
        }
    }

    /// The end of the input: an unfinished last line is a line (`each` as in [`Lines::feed`]).
    fn finish(&mut self, mut each: impl FnMut(Option<&[u8]>)) {
        if self.overlong {
            each(None);
        } else if !self.line.is_empty() {
            each(Some(&self.line));
        }
        self.overlong = false;
        self.line.clear();
    }
}

/// One line, without its `\n`, to the server: a trailing `\r` dropped, blank lines skipped.
#[inline]
fn line_in(server: &mut Server, line: &[u8], out: &mut Vec<u8>) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
        return;
    }
    server.handle_line(line, out);
}

/// Writes and flushes `bytes`; `false` if the reader went away.
fn send<W: Write>(output: &mut W, bytes: &[u8]) -> io::Result<bool> {
    if bytes.is_empty() {
        return Ok(true);
    }
    match output.write_all(bytes).and_then(|()| output.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(feature = "async")]
mod concurrent {
    use std::io::{self, ErrorKind};
    use std::sync::Arc;

    use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

    use super::{Lines, CHUNK};
    use crate::mcp::{Connection, Outbox, Server};

    impl Server {
        /// Serves the process's stdin and stdout until stdin ends (or stdout is closed): the
        /// MCP stdio transport, tool calls run concurrently (see [`Server::serve_async`]: stdin
        /// is read on its own, and responses are written as calls complete). A Tokio runtime
        /// of its own runs it (on a thread of its own when this thread is in a runtime
        /// already); use [`Server::serve_stdio_async`] in an asynchronous program. Only
        /// JSON-RPC frames are written to stdout (write logs to stderr). A server with a
        /// problem ([`Server::check`]) does not start: the problem is returned as an error of
        /// kind `InvalidInput` (its inner error a [`BuildError`](crate::mcp::BuildError)).
        ///
        /// The server is shared with the calls while it serves, and is back in `self` when
        /// this returns (unless a tool's blocking thread still holds it after its call was
        /// cancelled and the second given to the runtime to stop has passed: then `self` is
        /// left a server without tools). A server whose tools are all plain `Fn(A)`
        /// functions, each answered where its line is read in any case, is served by the
        /// synchronous loop ([`Server::serve`]): the same answers, without a runtime.
        pub fn serve_stdio(&mut self) -> io::Result<()> {
            self.check()
                .map_err(|e| io::Error::new(ErrorKind::InvalidInput, e))?;
            if !self.runs_tasks() {
                // Every tool is a plain `Fn(A)`, answered where its line is read either way:
                // the synchronous loop gives the same answers without a runtime or threads.
                let stdin = io::stdin();
                let stdout = io::stdout();
                return self.serve(stdin.lock(), stdout.lock());
            }
            crate::mcp::transport::on_own_runtime(self, "stdio", |server| {
                server.serve_stdio_async()
            })
        }

        /// [`Server::serve_stdio`] in an asynchronous program: serves Tokio's stdin and stdout
        /// ([`Server::serve_async`]) in the current runtime.
        pub async fn serve_stdio_async(self: Arc<Self>) -> io::Result<()> {
            self.check()
                .map_err(|e| io::Error::new(ErrorKind::InvalidInput, e))?;
            let mut stdout = StdoutThread::spawn();
            let served = self.serve_loop(StdinChunks::spawn(), &mut stdout).await;
            stdout.finish().await;
            served
        }

        /// Serves `input` and `output`, one JSON-RPC message per line each way, as
        /// [`Server::serve`] does (a trailing `\r` dropped, empty lines skipped, a line over
        /// [`Server::max_line`] read through and answered with `-32600`), but concurrently,
        /// through one [`Connection`]: each message is handled as soon as its line is read,
        /// tool calls run on tasks of their own (at most [`Server::max_in_flight`] at once),
        /// and every frame (responses, progress and log notifications) is written as it
        /// comes, several at once when several are ready. Returns when the input has ended and
        /// every call has been answered, or when `output` is closed (`BrokenPipe`); other I/O
        /// errors are returned. A server with a problem does not start.
        pub async fn serve_async<R, W>(self: Arc<Self>, input: R, output: W) -> io::Result<()>
        where
            R: AsyncRead + Unpin,
            W: AsyncWrite + Unpin,
        {
            self.check()
                .map_err(|e| io::Error::new(ErrorKind::InvalidInput, e))?;
            self.serve_loop(input, &mut Writer(output)).await
        }

        /// [`Server::serve_async`] writing to `output`.
        async fn serve_loop<R, S>(self: Arc<Self>, mut input: R, output: &mut S) -> io::Result<()>
        where
            R: AsyncRead + Unpin,
            S: Sink,
        {
            let mut connection = Connection::new(self.clone());
            let (outbox, mut frames) = Outbox::channel();
            // The notifications not tied to a request go to stdout too.
            connection.set_session_outbox(Some(outbox.clone()));
            let mut outbox = Some(outbox);
            let mut buf = vec![0u8; CHUNK];
            let mut lines = Lines::new(self.line_limit());
            let mut pending: Vec<u8> = Vec::with_capacity(CHUNK);
            loop {
                tokio::select! {
                    biased;
                    frame = frames.recv() => {
                        let Some(frame) = frame else { break };
                        pending.extend_from_slice(&frame);
                        pending.push(b'\n');
                        while let Ok(frame) = frames.try_recv() {
                            pending.extend_from_slice(&frame);
                            pending.push(b'\n');
                        }
                        if !output.put(&mut pending).await? {
                            return Ok(());
                        }
                    }
                    read = input.read(&mut buf), if outbox.is_some() => {
                        let n = match read {
                            Ok(n) => n,
                            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                            Err(e) => return Err(e),
                        };
                        let Some(out) = outbox.as_ref() else { continue };
                        let mut each = |line: Option<&[u8]>| match line {
                            Some(line) => line_in(&mut connection, line, &mut pending, out),
                            None => self.too_long(&mut pending),
                        };
                        if n == 0 {
                            lines.finish(&mut each);
                            // The input is over: the calls in flight hold the last clones.
                            connection.set_session_outbox(None);
                            connection.end_streams();
                            outbox = None;
                        } else {
                            lines.feed(&buf[..n], &mut each);
                        }
                        // The answers given at once, written when the chunk has no complete
                        // line left (pipelined requests in large writes).
                        if !output.put(&mut pending).await? {
                            return Ok(());
                        }
                    }
                }
            }
            Ok(())
        }
    }

    /// Where the transport writes its frames.
    trait Sink {
        /// Writes (and flushes) `pending` and empties it; `false` if the reader went away.
        async fn put(&mut self, pending: &mut Vec<u8>) -> io::Result<bool>;
    }

    /// An [`AsyncWrite`] as a [`Sink`].
    struct Writer<W>(W);

    impl<W: AsyncWrite + Unpin> Sink for Writer<W> {
        async fn put(&mut self, pending: &mut Vec<u8>) -> io::Result<bool> {
            if pending.is_empty() {
                return Ok(true);
            }
            let sent = match self.0.write_all(pending).await {
                Ok(()) => self.0.flush().await,
                Err(e) => Err(e),
            };
            pending.clear();
            match sent {
                Ok(()) => Ok(true),
                Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(false),
                Err(e) => Err(e),
            }
        }
    }

    /// Stdout written by a thread of its own: the buffers handed over a short channel (a
    /// slow reader holds the transport back), each written and flushed; the thread stops at
    /// the first error (a closed stdout), and the transport then stops.
    struct StdoutThread {
        buffers: Option<tokio::sync::mpsc::Sender<Vec<u8>>>,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    impl StdoutThread {
        fn spawn() -> StdoutThread {
            let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<u8>>(2);
            let thread = std::thread::spawn(move || {
                use std::io::Write;
                let mut stdout = io::stdout().lock();
                while let Some(bytes) = rx.blocking_recv() {
                    if stdout
                        .write_all(&bytes)
                        .and_then(|()| stdout.flush())
                        .is_err()
                    {
                        return;
                    }
                }
            });
            StdoutThread {
                buffers: Some(tx),
                thread: Some(thread),
            }
        }

        /// Waits until everything handed over has been written.
        async fn finish(&mut self) {
            self.buffers = None;
            if let Some(thread) = self.thread.take() {
                let _ = tokio::task::spawn_blocking(move || thread.join()).await;
            }
        }
    }

    impl Sink for StdoutThread {
        async fn put(&mut self, pending: &mut Vec<u8>) -> io::Result<bool> {
            if pending.is_empty() {
                return Ok(true);
            }
            let bytes = std::mem::replace(pending, Vec::with_capacity(CHUNK));
            match &self.buffers {
                Some(tx) => Ok(tx.send(bytes).await.is_ok()),
                None => Ok(false),
            }
        }
    }

    /// Stdin read by a thread of its own, in large chunks, handed over a channel: one thread
    /// switch per chunk, where Tokio's `Stdin` takes a blocking task per read.
    struct StdinChunks {
        chunks: tokio::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
        /// What is left of the last chunk.
        rest: Vec<u8>,
        at: usize,
    }

    impl StdinChunks {
        fn spawn() -> StdinChunks {
            let (tx, rx) = tokio::sync::mpsc::channel(4);
            std::thread::spawn(move || {
                use std::io::Read;
                let mut stdin = io::stdin().lock();
                loop {
                    let mut buf = vec![0u8; CHUNK];
                    let read = match stdin.read(&mut buf) {
                        Ok(n) => {
                            buf.truncate(n);
                            Ok(buf)
                        }
                        Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                        Err(e) => Err(e),
                    };
                    let end = !matches!(&read, Ok(b) if !b.is_empty());
                    if tx.blocking_send(read).is_err() || end {
                        return;
                    }
                }
            });
            StdinChunks {
                chunks: rx,
                rest: Vec::new(),
                at: 0,
            }
        }
    }

    impl AsyncRead for StdinChunks {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<io::Result<()>> {
            use std::task::Poll;
            let this = &mut *self;
            if this.at == this.rest.len() {
                match this.chunks.poll_recv(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(None) => return Poll::Ready(Ok(())),
                    Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(e)),
                    Poll::Ready(Some(Ok(chunk))) => {
                        this.rest = chunk;
                        this.at = 0;
                    }
                }
            }
            let n = buf.remaining().min(this.rest.len() - this.at);
            buf.put_slice(&this.rest[this.at..this.at + n]);
            this.at += n;
            Poll::Ready(Ok(()))
        }
    }

    /// One line, without its `\n`, to the connection: a trailing `\r` dropped, blank lines
    /// skipped; the answer given at once appended to `pending`.
    fn line_in(connection: &mut Connection, line: &[u8], pending: &mut Vec<u8>, outbox: &Outbox) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return;
        }
        connection.handle_into(line, pending, outbox);
    }
}
