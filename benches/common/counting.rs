//! A counting global allocator for the tests, benches and examples that check or report
//! allocations: it forwards every call to the system allocator unchanged and counts, per
//! thread, each allocation and reallocation. Including this file (`#[path = ...] mod
//! counting;`) installs it as the program's global allocator.
//!
//! The count is per thread because a test harness's other threads may allocate while a test
//! runs; a const-initialised `Cell<usize>` needs no destructor, so the allocator can use it
//! safely, also during thread-local teardown (where counting stops).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting.
pub struct Counting;

thread_local! {
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

/// Allocations (and reallocations) this thread has made so far.
#[allow(dead_code)]
pub fn total() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations (and reallocations) made by `f` on this thread.
#[allow(dead_code)]
pub fn allocations(f: impl FnOnce()) -> usize {
    let before = total();
    f();
    total() - before
}
