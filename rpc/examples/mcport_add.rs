//! mcport 0.6.1's `add` server (its example `math.rs`), for the whole-process stdio benchmark
//! (`rpc/benches/stdio.rs`) against `mcp_server`.

use mcport::{tool, tools, McpServer};

/// Adds two signed 32-bit integers.
#[tool]
fn add(left: i32, right: i32) -> i64 {
    i64::from(left) + i64::from(right)
}

fn main() -> std::io::Result<()> {
    McpServer::new("math", env!("CARGO_PKG_VERSION"))
        .tools(tools![add])
        .serve()
}
