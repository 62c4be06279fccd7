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
        // The start of a line that continues in the next chunk.
        let mut line: Vec<u8> = Vec::new();
        // Whether the line being read has passed the limit (its bytes are dropped).
        let mut overlong = false;
        let mut out: Vec<u8> = Vec::with_capacity(CHUNK);
        let limit = self.line_limit();
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let mut chunk = &buf[..n];
            while let Some(nl) = chunk.iter().position(|&b| b == b'\n') {
                let part = &chunk[..nl];
                chunk = &chunk[nl + 1..];
                if overlong || !fits(limit, &line, part) {
                    overlong = false;
                    line.clear();
                    self.too_long(&mut out);
                } else if line.is_empty() {
                    line_in(self, part, &mut out);
                } else {
                    line.extend_from_slice(part);
                    line_in(self, &line, &mut out);
                    line.clear();
                }
            }
            if !overlong {
                // A `\r` ending the chunk may be the first half of a `\r\n`: kept, the line
                // may hold one byte more than the limit until the next chunk tells.
                if !fits(limit, &line, chunk) {
                    overlong = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            if !out.is_empty() {
                if !send(&mut output, &out)? {
                    return Ok(());
                }
                out.clear();
            }
        }
        if overlong {
            self.too_long(&mut out);
        } else if !line.is_empty() {
            line_in(self, &line, &mut out);
        }
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
