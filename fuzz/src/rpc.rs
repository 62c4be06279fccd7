//! The oracle of the `rpc_line` target: any bytes given to the MCP server of structio-rpc, as
//! one line (`Server::handle_line`) and as a stream cut into lines (`Server::serve`, with a
//! small line limit so that over-long lines are exercised).
//!
//! - Nothing panics.
//! - Each answer is one line holding one well-formed JSON value (a response, or an array of
//!   them for a batch); a line gets at most one answer.
//! - After any input, the server still answers a `ping`.
//! - `handle_line` (one pass for the usual messages) answers exactly as `handle_line_deferred`
//!   (every message read the general way).

use structio_rpc::mcp::{Server, ToolError};

/// The arguments of `add`.
#[derive(structio::Reflect)]
pub struct Add {
    pub left: i32,
    pub right: i32,
}

/// The arguments of `search`.
#[derive(structio::Reflect)]
pub struct Search {
    pub query: String,
    pub limit: u32,
}

/// A server with the example's two tools.
pub fn server(max_line: usize) -> Server {
    Server::new("fuzz", "0")
        .max_line(max_line)
        .max_batch(8)
        .tool("add", "Adds two integers", |a: Add| {
            a.left
                .checked_add(a.right)
                .ok_or_else(|| ToolError::new("overflow"))
        })
        .tool("search", "Searches", |s: Search| {
            if s.limit == 0 || s.limit > 100 || s.query.is_empty() || s.query.chars().count() > 64 {
                return Err(ToolError::invalid("$", "out of bounds"));
            }
            Ok((0..s.limit)
                .map(|i| format!("{} {i}", s.query))
                .collect::<Vec<_>>())
        })
}

const PING: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const PONG: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";

/// Checks that `out` is lines of well-formed JSON.
fn lines_are_json(out: &[u8]) {
    if out.is_empty() {
        return;
    }
    assert_eq!(out.last(), Some(&b'\n'), "an answer ends its line");
    for line in out[..out.len() - 1].split(|&b| b == b'\n') {
        if let Err(e) = structio::json::validate(line) {
            panic!(
                "answer is not JSON ({e}): {}",
                String::from_utf8_lossy(line)
            );
        }
    }
}

/// The oracle.
pub fn rpc_line(data: &[u8]) {
    let mut s = server(256);
    let mut out = Vec::new();
    s.handle_line(data, &mut out);
    // The one-pass routing answers exactly as the general way does.
    let mut general = Vec::new();
    server(256).handle_line_deferred(data, &mut general);
    assert!(
        out == general,
        "routed and deferred answers differ:\n{}\n{}",
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&general)
    );
    lines_are_json(&out);
    assert!(
        out.iter().filter(|&&b| b == b'\n').count() <= 1,
        "one answer per line"
    );
    out.clear();
    assert!(s.handle_line(PING, &mut out));
    assert_eq!(out, PONG);

    let mut s = server(256);
    out.clear();
    s.serve(data, &mut out)
        .expect("writing to a Vec cannot fail");
    lines_are_json(&out);
    let lines = data.split(|&b| b == b'\n').count();
    assert!(
        out.iter().filter(|&&b| b == b'\n').count() <= lines,
        "at most one answer a line"
    );
    out.clear();
    assert!(s.handle_line(PING, &mut out));
    assert_eq!(out, PONG);
}
