//! The allocation targets of the MCP server: once its buffers have grown, answering `ping`,
//! `initialize`, `tools/list` and a `tools/call` whose arguments fit allocates nothing (the
//! target is none for `ping`, at most one for a typed `tools/call`).
//!
//! A counting global allocator makes this a test of behaviour, not of timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use structio_rpc::mcp::{Server, ToolError};

struct Counting;

thread_local! {
    /// Allocations made by this thread (the test harness's other threads may allocate while a
    /// test runs). A const-initialised `Cell<usize>` needs no destructor.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Counts one allocation on this thread (not during thread-local teardown).
fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to the system allocator unchanged; the counter is a side effect.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[derive(structio::Reflect)]
struct Add {
    left: i32,
    right: i32,
}

#[derive(structio::Reflect)]
struct Sum {
    result: i32,
}

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
