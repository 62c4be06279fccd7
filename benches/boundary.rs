//! Boundary parsing: what collecting every problem costs, against the trusted readers and
//! against the Rust peers (serde_json or the `beve` crate, followed by `garde`: two passes).
//!
//! Documents: (a) the aggregate Reified.Schema measures (seven primitive fields, one nested
//! record, two collections, constraints on name and age), (b) a record of 24 fields, (c)
//! lists of 10^3 and 10^5 such records. Rows per document and format: trusted `from_json` /
//! `from_beve`, `parse` on valid input, `parse` with every field invalid, and the serde peer
//! followed by `garde::Validate::validate`: `serde_json::from_slice` for JSON,
//! `beve::from_slice` (the `beve` crate, reading what it wrote for the same value) for BEVE.
//!
//! Each document is first timed interleaved: rounds that time a batch of every row of a format
//! in turn, printing per row the allocations of one read (a counting allocator; the target:
//! `parse` on valid input allocates no more than `from_json`), the median time per read and
//! the median over rounds of its ratio to the trusted reader of the same round. Then the
//! criterion rows run one after another.
//!
//! `cargo bench --bench boundary` (pin it: `taskset -c 1 cargo bench --bench boundary`); a
//! filter as argument picks criterion rows, as with any criterion bench.
//! `BOUNDARY_ONLY=interleaved` prints only the interleaved table, `BOUNDARY_ONLY=criterion`
//! runs only the criterion rows.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use garde::Validate;

#[path = "common/counting.rs"]
mod counting;

use counting::allocations;

#[path = "common/boundary.rs"]
mod docs;
use docs::{broken, person, wide};

/// One side of a comparison: its name and one read (`true` when it gave what it should).
type Side<'a> = (&'static str, Box<dyn Fn() -> bool + 'a>);

/// Times `sides` interleaved: `ROUNDS` rounds, each timing a batch of reads of every side in
/// turn (starting with a different side each round), so that a change of machine load hits
/// every side alike. Prints, per side, the allocations of one read, the median time per read
/// and the median over rounds of its time over the first side's in the same round.
fn interleaved(name: &str, sides: &[Side<'_>]) {
    const ROUNDS: usize = 21;
    // A batch of the first side takes about 2 ms.
    let t = std::time::Instant::now();
    let mut calib = 0u32;
    while t.elapsed() < std::time::Duration::from_millis(20) {
        assert!((sides[0].1)());
        calib += 1;
    }
    let batch = (calib / 10).max(1);
    let mut times = vec![Vec::with_capacity(ROUNDS); sides.len()];
    for round in 0..ROUNDS {
        for k in 0..sides.len() {
            let s = (round + k) % sides.len();
            let t = std::time::Instant::now();
            for _ in 0..batch {
                assert!(black_box((sides[s].1)()), "{name} {}", sides[s].0);
            }
            times[s].push(t.elapsed().as_secs_f64() / f64::from(batch));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (s, (side, read)) in sides.iter().enumerate() {
        let allocs = allocations(|| assert!(read()));
        let ratios = times[s].iter().zip(&times[0]).map(|(a, b)| a / b).collect();
        println!(
            "{name:<22} {side:<24} {allocs:>8} allocs {:>12.2} us {:>6.2}x",
            median(times[s].clone()) * 1e6,
            median(ratios)
        );
    }
}

fn rows<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: structio::ReflectOwned
        + serde::de::DeserializeOwned
        + serde::Serialize
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
    // The BEVE peer reads what the `beve` crate writes for the same value.
    let their_beve = beve::to_vec(value).unwrap();
    assert_eq!(&beve::from_slice::<T>(&their_beve).unwrap(), value);
    let report = structio::json::parse::<T>(&bad_json).unwrap_err();
    println!(
        "{name}: {} bytes of JSON, {} of BEVE; every field invalid: {} issues{}",
        json.len(),
        beve.len(),
        report.issues().len(),
        if report.is_truncated() {
            " (capped)"
        } else {
            ""
        },
    );

    // The sides compared, each read as the criterion rows below read it.
    let from_json = || black_box(structio::from_json::<T>(black_box(&json))).is_ok();
    let parse_json = || black_box(structio::json::parse::<T>(black_box(&json))).is_ok();
    let parse_bad_json = || black_box(structio::json::parse::<T>(black_box(&bad_json))).is_err();
    let serde_garde = || {
        let v: T = serde_json::from_slice(black_box(json.as_bytes())).unwrap();
        black_box(v.validate()).is_ok()
    };
    let from_beve = || black_box(structio::from_beve::<T>(black_box(&beve))).is_ok();
    let parse_beve = || black_box(structio::beve::parse::<T>(black_box(&beve))).is_ok();
    let parse_bad_beve = || black_box(structio::beve::parse::<T>(black_box(&bad_beve))).is_err();
    let beve_garde = || {
        let v: T = beve::from_slice(black_box(&their_beve[..])).unwrap();
        black_box(v.validate()).is_ok()
    };

    // Interleaved first: time per read and the ratio to the trusted reader measured in the
    // same rounds (criterion's rows below run one after another).
    let only = std::env::var("BOUNDARY_ONLY").unwrap_or_default();
    if only != "criterion" {
        interleaved(
            &format!("{name} json"),
            &[
                ("from_json", Box::new(from_json)),
                ("parse valid", Box::new(parse_json)),
                ("parse invalid", Box::new(parse_bad_json)),
                ("serde_json+garde", Box::new(serde_garde)),
            ],
        );
        interleaved(
            &format!("{name} beve"),
            &[
                ("from_beve", Box::new(from_beve)),
                ("parse valid", Box::new(parse_beve)),
                ("parse invalid", Box::new(parse_bad_beve)),
                ("beve-rs+garde", Box::new(beve_garde)),
            ],
        );
    }
    if only == "interleaved" {
        return;
    }

    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("json/from_json", |b| b.iter(from_json));
    g.bench_function("json/parse valid", |b| b.iter(parse_json));
    g.bench_function("json/parse invalid", |b| b.iter(parse_bad_json));
    g.bench_function("json/serde_json+garde", |b| b.iter(serde_garde));
    g.bench_function("beve/from_beve", |b| b.iter(from_beve));
    g.bench_function("beve/parse valid", |b| b.iter(parse_beve));
    g.bench_function("beve/parse invalid", |b| b.iter(parse_bad_beve));
    g.bench_function("beve/beve-rs+garde", |b| b.iter(beve_garde));
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
