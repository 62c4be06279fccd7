//! The tools the MCP server tests register: the example's `add` (and `search`), and `boom`,
//! which panics. Each test file uses what it needs of them.
#![allow(dead_code)]

use structio_rpc::mcp::{Server, ToolError};

/// The arguments of `add`.
#[derive(structio::Reflect)]
pub struct Add {
    pub left: i32,
    pub right: i32,
}

/// The result of `add`.
#[derive(structio::Reflect)]
pub struct Sum {
    pub result: i32,
}

/// The arguments of `search`.
#[derive(structio::Reflect)]
pub struct Search {
    pub query: String,
    pub limit: u32,
}

/// `add`: the sum, or a tool error when it overflows.
pub fn add(a: Add) -> Result<Sum, ToolError> {
    a.left
        .checked_add(a.right)
        .map(|result| Sum { result })
        .ok_or_else(|| ToolError::new("overflow"))
}

/// `search`: `limit` strings made from the query.
pub fn search(s: Search) -> Result<Vec<String>, ToolError> {
    if s.limit == 0 || s.limit > 100 {
        return Err(ToolError::invalid("$.limit", "must be between 1 and 100"));
    }
    Ok((0..s.limit).map(|i| format!("{} {i}", s.query)).collect())
}

/// `boom`: panics (the server answers with an internal error and goes on).
pub fn boom(_: Add) -> Result<Sum, ToolError> {
    panic!("boom")
}

/// A server named `test` with `add` and `boom`.
pub fn add_server() -> Server {
    Server::new("test", "0.1.0")
        .tool("add", "Adds two integers", add)
        .tool("boom", "Panics", boom)
}

/// The one answer line in `out` (ending with its line break), read back as a response that
/// owns its parts.
pub fn answer(out: &[u8]) -> structio_rpc::Response<'static, structio::Value, structio::Value> {
    assert_eq!(out.last(), Some(&b'\n'));
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
    let r: structio_rpc::Response<structio::Value, structio::Value> =
        structio::from_json(&out[..out.len() - 1])
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(out)));
    structio_rpc::Response {
        id: r.id.into_owned(),
        outcome: r.outcome.map_err(|e| structio_rpc::ErrorObject {
            code: e.code,
            message: e.message.into_owned().into(),
            data: e.data,
        }),
    }
}
