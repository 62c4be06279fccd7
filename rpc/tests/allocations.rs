//! The allocation targets of the MCP server: once its buffers have grown, answering `ping`,
//! `initialize`, `tools/list` and a `tools/call` whose arguments fit allocates nothing (the
//! target is none for `ping`, at most one for a typed `tools/call`); in revision 2026-07-28,
//! `server/discover`, `tools/list` and such a `tools/call` with its `_meta` envelope neither.
//!
//! A counting global allocator makes this a test of behaviour, not of timing.

use structio_rpc::mcp::{Server, ToolError};

#[path = "../../benches/common/counting.rs"]
mod counting;

use counting::total as allocations;

mod common;

use common::{Add, Sum};

/// Allocations made by answering `line` once more, after a first answer grew the buffers.
fn allocations_of(server: &mut Server, line: &str) -> usize {
    let mut out = Vec::with_capacity(4096);
    assert!(server.handle_line(line.as_bytes(), &mut out), "{line}");
    out.clear();
    let before = allocations();
    assert!(server.handle_line(line.as_bytes(), &mut out), "{line}");
    let n = allocations() - before;
    assert!(!out.is_empty());
    n
}

#[test]
fn the_usual_messages_allocate_nothing() {
    let mut s = Server::new("alloc", "1").tool("add", "Adds", |a: Add| {
        Ok::<_, ToolError>(Sum {
            result: a.left.wrapping_add(a.right),
        })
    });
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40}}}"#,
        r#"{ "jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": { "arguments": { "right": 40, "left": 2 }, "name": "add" } }"#,
    ] {
        assert_eq!(allocations_of(&mut s, line), 0, "{line}");
    }
    // The count is live: arguments that do not fit get a report, which allocates.
    let bad = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"left":"two"}}}"#;
    assert!(allocations_of(&mut s, bad) > 0);
}

#[test]
fn the_usual_messages_of_revision_2026_07_28_allocate_nothing() {
    let mut s = Server::new("alloc", "1").tool("add", "Adds", |a: Add| {
        Ok::<_, ToolError>(Sum {
            result: a.left.wrapping_add(a.right),
        })
    });
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}"#;
    for line in [
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"add","arguments":{{"left":2,"right":40}},{meta}}}}}"#
        ),
        format!(
            r#"{{ "jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {{ {meta}, "arguments": {{ "right": 40, "left": 2 }}, "name": "add" }} }}"#
        ),
    ] {
        assert_eq!(allocations_of(&mut s, &line), 0, "{line}");
    }
    assert_eq!(s.era(), Some(structio_rpc::mcp::Era::Modern));
    // The count is live: arguments that do not fit get a report, which allocates.
    let bad = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"add","arguments":{{"left":"two"}},{meta}}}}}"#
    );
    assert!(allocations_of(&mut s, &bad) > 0);
}
