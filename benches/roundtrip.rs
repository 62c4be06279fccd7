//! The seven Glaze benchmark documents (`mixed`, `strings`, `uints`, `ints`, `doubles`,
//! `exact_decimals`, `bools`): JSON read into a reused value, JSON write into a reused buffer,
//! prettify, minify (of the pretty file), BEVE read, BEVE write.
//!
//! Files come from `STRUCTIO_BENCH_DIR` (NAME.json, NAME.pretty.json, NAME.beve, as
//! `baseline-cpp generate` writes them), else from formats/json/bench and formats/beve/bench.
//! Throughput is in bytes of the document, as baseline-cpp counts it: JSON read, write and
//! prettify the compact JSON size, minify the pretty size, BEVE read and write the BEVE size.
//!
//! `cargo bench --bench roundtrip [-- FILTER]`, e.g. `-- mixed/json_read`.

mod common;

use common::shapes::{Flat, Mixed};
use common::{doc_dirs, load_doc, DocFiles};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use structio::ReflectOwned;

fn bench_doc<T: ReflectOwned + Default>(c: &mut Criterion, name: &str) {
    let (json_dir, beve_dir) = doc_dirs();
    let DocFiles { json, pretty, beve } = load_doc(&json_dir, &beve_dir, name);
    let mut value = T::default();
    structio::read_json(&mut value, &json[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();

    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_millis(1500))
        .warm_up_time(Duration::from_millis(300))
        .sample_size(20);

    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("json_read", |b| {
        b.iter(|| structio::read_json(&mut value, black_box(&json[..])).unwrap())
    });
    g.bench_function("json_write", |b| {
        b.iter(|| {
            out.clear();
            structio::write_json(&value, &mut out);
            black_box(&out);
        })
    });
    g.bench_function("prettify", |b| {
        b.iter(|| structio::prettify(black_box(&json[..])).unwrap())
    });

    g.throughput(Throughput::Bytes(pretty.len() as u64));
    g.bench_function("minify", |b| {
        b.iter(|| structio::minify(black_box(&pretty[..])).unwrap())
    });

    g.throughput(Throughput::Bytes(beve.len() as u64));
    g.bench_function("beve_read", |b| {
        b.iter(|| structio::read_beve(&mut value, black_box(&beve[..])).unwrap())
    });
    g.bench_function("beve_write", |b| {
        b.iter(|| {
            out.clear();
            structio::write_beve(&value, &mut out);
            black_box(&out);
        })
    });
    g.finish();
}

fn roundtrip(c: &mut Criterion) {
    bench_doc::<Mixed>(c, "mixed");
    bench_doc::<Flat<String>>(c, "strings");
    bench_doc::<Flat<u64>>(c, "uints");
    bench_doc::<Flat<i64>>(c, "ints");
    bench_doc::<Flat<f64>>(c, "doubles");
    bench_doc::<Flat<f64>>(c, "exact_decimals");
    bench_doc::<Flat<bool>>(c, "bools");
}

criterion_group!(benches, roundtrip);
criterion_main!(benches);
