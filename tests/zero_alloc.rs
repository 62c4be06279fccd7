//! Reading into an existing value reuses its buffers: after the first read, reading the same
//! document again allocates nothing, for every benchmark document, in both formats.
//!
//! A counting global allocator makes this a test of behaviour, not of timing.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Flat, Mixed};
use structio::Reflect;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to the system allocator unchanged; the counter is a side effect.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f`. Tests in this binary run one at a time (see `main` below), so the
/// count is not disturbed by another test's thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
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
