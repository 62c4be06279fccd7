//! Boundary parsing: what collecting every problem costs, against the trusted readers and
//! against the Rust peer (serde_json followed by `garde`, two passes).
//!
//! Documents: (a) the aggregate Reified.Schema measures (seven primitive fields, one nested
//! record, two collections, constraints on name and age), (b) a record of 24 fields, (c)
//! lists of 10^3 and 10^5 such records. Rows per document and format: trusted `from_json` /
//! `from_beve`, `parse` on valid input, `parse` with every field invalid, and (JSON)
//! `serde_json::from_slice` then `garde::Validate::validate`.
//!
//! A counting allocator prints the allocations of one read of each row first (the target:
//! `parse` on valid input allocates no more than `from_json`).
//!
//! `cargo bench --bench boundary` (pin it: `taskset -c 1 cargo bench --bench boundary`); a
//! filter as argument picks rows, as with any criterion bench.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use garde::Validate;
use serde::Deserialize;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every method forwards to the system allocator unchanged; the counter is a side effect.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[derive(structio::Reflect, Deserialize, Validate, Debug, Clone, PartialEq)]
struct Address {
    #[garde(skip)]
    street: String,
    #[garde(skip)]
    city: String,
    #[garde(skip)]
    zip: String,
}

/// (a): seven primitive fields, one nested record, two collections; name and age constrained.
#[derive(structio::Reflect, Deserialize, Validate, Debug, Clone, PartialEq)]
struct Person {
    #[garde(skip)]
    id: u64,
    #[structio(length(min = 1, max = 64))]
    #[garde(length(chars, min = 1, max = 64))]
    name: String,
    #[structio(range(min = 0, max = 150))]
    #[garde(range(min = 0, max = 150))]
    age: u32,
    #[garde(skip)]
    email: String,
    #[garde(skip)]
    active: bool,
    #[garde(skip)]
    score: f64,
    #[garde(skip)]
    rank: i32,
    #[garde(dive)]
    address: Address,
    #[garde(skip)]
    tags: Vec<String>,
    #[garde(skip)]
    scores: Vec<f64>,
}

/// (b): 24 fields, eight of them constrained.
#[derive(structio::Reflect, Deserialize, Validate, Debug, Clone, PartialEq)]
struct Wide {
    #[garde(skip)]
    f00: u64,
    #[structio(length(min = 1, max = 32))]
    #[garde(length(chars, min = 1, max = 32))]
    f01: String,
    #[structio(range(min = 0, max = 1000))]
    #[garde(range(min = 0, max = 1000))]
    f02: i32,
    #[garde(skip)]
    f03: f64,
    #[garde(skip)]
    f04: bool,
    #[structio(length(max = 64))]
    #[garde(length(chars, max = 64))]
    f05: String,
    #[garde(skip)]
    f06: u32,
    #[structio(range(min = -1.0, max = 1.0))]
    #[garde(range(min = -1.0, max = 1.0))]
    f07: f64,
    #[garde(skip)]
    f08: String,
    #[garde(skip)]
    f09: i64,
    #[structio(length(max = 8))]
    #[garde(length(max = 8))]
    f10: Vec<u32>,
    #[garde(skip)]
    f11: bool,
    #[structio(range(max = 255))]
    #[garde(range(max = 255))]
    f12: u16,
    #[garde(skip)]
    f13: String,
    #[garde(skip)]
    f14: f32,
    #[structio(length(min = 1, max = 16))]
    #[garde(length(chars, min = 1, max = 16))]
    f15: String,
    #[garde(skip)]
    f16: u8,
    #[garde(skip)]
    f17: i16,
    #[structio(range(min = 1))]
    #[garde(range(min = 1))]
    f18: u64,
    #[garde(skip)]
    f19: String,
    #[garde(skip)]
    f20: Vec<String>,
    #[garde(skip)]
    f21: bool,
    #[garde(skip)]
    f22: f64,
    #[garde(skip)]
    f23: String,
}

fn person(i: u64) -> Person {
    Person {
        id: i,
        name: format!("Person {i}"),
        age: (i % 100) as u32,
        email: format!("person{i}@example.com"),
        active: i % 2 == 0,
        score: i as f64 * 0.25,
        rank: -(i as i32),
        address: Address {
            street: "1 Main Street".into(),
            city: "Springfield".into(),
            zip: "12345".into(),
        },
        tags: vec!["a".into(), "bb".into(), "ccc".into()],
        scores: vec![1.5, 2.5, 3.5],
    }
}

fn wide(i: u64) -> Wide {
    Wide {
        f00: i,
        f01: format!("record-{i}"),
        f02: (i % 1000) as i32,
        f03: i as f64 / 3.0,
        f04: true,
        f05: "a description of modest length".into(),
        f06: 7,
        f07: 0.5,
        f08: "free text".into(),
        f09: -(i as i64),
        f10: vec![1, 2, 3],
        f11: false,
        f12: 200,
        f13: "more text".into(),
        f14: 1.25,
        f15: "short".into(),
        f16: 8,
        f17: -16,
        f18: 1 + i,
        f19: "x".into(),
        f20: vec!["p".into(), "q".into()],
        f21: true,
        f22: 3.75,
        f23: "the end".into(),
    }
}

/// `doc` with every member replaced by a value that breaks its constraint or its type.
fn broken(doc: &str) -> String {
    let mut v: structio::Value = structio::from_json(doc).unwrap();
    fn each(v: &mut structio::Value) {
        match v {
            structio::Value::Array(a) => a.iter_mut().for_each(each),
            structio::Value::Object(m) => {
                for (_, x) in m.iter_mut() {
                    *x = match x {
                        structio::Value::String(_) => structio::Value::from(""),
                        structio::Value::Number(_) => structio::Value::from("nan"),
                        structio::Value::Bool(_) => structio::Value::from(3u8),
                        other => {
                            each(other);
                            continue;
                        }
                    };
                }
            }
            _ => {}
        }
    }
    each(&mut v);
    structio::to_json(&v)
}

fn rows<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: structio::ReflectOwned
        + serde::de::DeserializeOwned
        + Validate
        + PartialEq
        + std::fmt::Debug,
    <T as Validate>::Context: Default,
{
    let json = structio::to_json(value);
    let bad_json = broken(&json);
    let beve = structio::to_beve(value);
    let bad_value: structio::Value = structio::from_json(&bad_json).unwrap();
    let bad_beve = structio::to_beve(&bad_value);
    assert_eq!(&structio::from_json::<T>(&json).unwrap(), value);
    assert_eq!(&structio::json::parse::<T>(&json).unwrap(), value);
    assert_eq!(&structio::beve::parse::<T>(&beve).unwrap(), value);
    let peer: T = serde_json::from_slice(json.as_bytes()).unwrap();
    peer.validate().unwrap();
    let report = structio::json::parse::<T>(&bad_json).unwrap_err();
    println!(
        "{name}: {} bytes of JSON; every field invalid: {} issues{}; allocations per read: \
         from_json {}, parse {}, parse (invalid) {}, serde_json+garde {}; from_beve {}, \
         beve::parse {}",
        json.len(),
        report.issues().len(),
        if report.is_truncated() {
            " (capped)"
        } else {
            ""
        },
        allocations(|| drop(black_box(structio::from_json::<T>(&json)))),
        allocations(|| drop(black_box(structio::json::parse::<T>(&json)))),
        allocations(|| drop(black_box(structio::json::parse::<T>(&bad_json)))),
        allocations(|| {
            let v: T = serde_json::from_slice(json.as_bytes()).unwrap();
            drop(black_box(v.validate()));
        }),
        allocations(|| drop(black_box(structio::from_beve::<T>(&beve)))),
        allocations(|| drop(black_box(structio::beve::parse::<T>(&beve)))),
    );

    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("json/from_json", |b| {
        b.iter(|| structio::from_json::<T>(black_box(&json)).unwrap())
    });
    g.bench_function("json/parse valid", |b| {
        b.iter(|| structio::json::parse::<T>(black_box(&json)).unwrap())
    });
    g.bench_function("json/parse invalid", |b| {
        b.iter(|| structio::json::parse::<T>(black_box(&bad_json)).unwrap_err())
    });
    g.bench_function("json/serde_json+garde", |b| {
        b.iter(|| {
            let v: T = serde_json::from_slice(black_box(json.as_bytes())).unwrap();
            v.validate().unwrap();
            v
        })
    });
    g.bench_function("beve/from_beve", |b| {
        b.iter(|| structio::from_beve::<T>(black_box(&beve)).unwrap())
    });
    g.bench_function("beve/parse valid", |b| {
        b.iter(|| structio::beve::parse::<T>(black_box(&beve)).unwrap())
    });
    g.bench_function("beve/parse invalid", |b| {
        b.iter(|| structio::beve::parse::<T>(black_box(&bad_beve)).unwrap_err())
    });
    g.finish();
}

fn boundary(c: &mut Criterion) {
    rows(c, "aggregate", &person(7));
    rows(c, "wide24", &wide(7));
    rows(c, "wide24x1e3", &(0..1000).map(wide).collect::<Vec<_>>());
    rows(c, "wide24x1e5", &(0..100_000).map(wide).collect::<Vec<_>>());
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = boundary
}
criterion_main!(benches);
