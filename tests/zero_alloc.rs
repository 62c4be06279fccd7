//! Reading into an existing value reuses its buffers: after the first read, reading the same
//! document again allocates nothing, for every benchmark document, in both formats.
//!
//! A counting global allocator makes this a test of behaviour, not of timing.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::{Flat, Mixed};
use structio::Reflect;

struct Counting;

thread_local! {
    /// Allocations made by this thread. Per thread, because the test harness's main thread may
    /// allocate while a test runs (that made the count flaky on a busy machine). A const-
    /// initialised `Cell<usize>` needs no destructor, so the allocator can use it safely.
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

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

fn settles<T>(name: &str)
where
    T: for<'de> Reflect<'de> + Default,
{
    let json = common::read(&format!("formats/json/bench/{name}.json"));
    let beve = common::read(&format!("formats/beve/bench/{name}.beve"));
    let mut v = T::default();
    structio::read_json(&mut v, &json[..]).unwrap();
    structio::read_json(&mut v, &json[..]).unwrap();
    let n = allocations(|| structio::read_json(&mut v, &json[..]).unwrap());
    assert_eq!(
        n, 0,
        "{name}: read_json allocated {n} times on a warm value"
    );
    structio::read_beve(&mut v, &beve[..]).unwrap();
    structio::read_beve(&mut v, &beve[..]).unwrap();
    let n = allocations(|| structio::read_beve(&mut v, &beve[..]).unwrap());
    assert_eq!(
        n, 0,
        "{name}: read_beve allocated {n} times on a warm value"
    );

    let mut out = Vec::new();
    structio::write_json(&v, &mut out);
    let n = allocations(|| {
        out.clear();
        structio::write_json(&v, &mut out);
    });
    assert_eq!(
        n, 0,
        "{name}: write_json allocated {n} times into a warm buffer"
    );
    out.clear();
    structio::write_beve(&v, &mut out);
    let n = allocations(|| {
        out.clear();
        structio::write_beve(&v, &mut out);
    });
    assert_eq!(
        n, 0,
        "{name}: write_beve allocated {n} times into a warm buffer"
    );
}

#[test]
fn reads_and_writes_settle_into_zero_allocations() {
    // One test function so that no other test thread allocates while we count.
    settles::<Mixed>("mixed");
    settles::<Flat<String>>("strings");
    settles::<Flat<u64>>("uints");
    settles::<Flat<i64>>("ints");
    settles::<Flat<f64>>("doubles");
    settles::<Flat<f64>>("exact_decimals");
    settles::<Flat<bool>>("bools");
}

#[test]
fn the_counter_counts() {
    let n = allocations(|| drop(std::hint::black_box(vec![1u8; 10])));
    assert_eq!(n, 1);
}
