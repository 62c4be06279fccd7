//! Typed read and write of the JSON corpus (`twitter.json`, `citm_catalog.json`, `canada.json`
//! from `STRUCTIO_CORPUS_DIR`, else `tests/data/corpus`) and of a JSON-RPC `tools/call` message
//! with borrowed strings, side by side with serde_json (`float_roundtrip`), sonic-rs and
//! simd-json in the same run.
//!
//! Setup reads each file with every library into the same Rust type and fails loudly unless
//! every library succeeds and structio's value equals serde_json's.
//!
//! `structio` reads into a fresh value like the other libraries; `structio_reuse` reads into one
//! reused value (strings and vectors keep their buffers). simd-json parses in place, so each of
//! its reads first copies the input into a reused buffer (counted in its time) and reuses its
//! internal buffers. Writes all go to one reused `Vec<u8>`. Throughput counts the input file.
//!
//! `cargo bench --bench corpus [-- FILTER]`, e.g. `-- twitter/read`.

mod common;

use common::corpus::{Canada, CitmCatalog, ToolsCall, Twitter, TOOLS_CALL};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::hint::black_box;
use std::time::Duration;
use structio::ReflectOwned;

/// Reads `text` with every library; panics unless all succeed and structio equals serde_json.
/// Also checks that what structio writes reads back (with serde_json) as the same value.
fn checked<T>(name: &str, text: &[u8]) -> T
where
    T: ReflectOwned + DeserializeOwned + Serialize + Default + PartialEq + Debug,
{
    let ours: T = structio::from_json(text).unwrap_or_else(|e| panic!("{name}: structio: {e}"));
    let serde: T =
        serde_json::from_slice(text).unwrap_or_else(|e| panic!("{name}: serde_json: {e}"));
    assert!(
        ours == serde,
        "{name}: structio and serde_json read different values"
    );
    let sonic: T = sonic_rs::from_slice(text).unwrap_or_else(|e| panic!("{name}: sonic-rs: {e}"));
    let mut buf = text.to_vec();
    let simd: T =
        simd_json::serde::from_slice(&mut buf).unwrap_or_else(|e| panic!("{name}: simd-json: {e}"));
    for (lib, v) in [("sonic-rs", &sonic), ("simd-json", &simd)] {
        if *v != serde {
            eprintln!("note: {name}: {lib} reads a value different from serde_json's");
        }
    }
    let written = structio::to_json(&ours);
    let back: T = serde_json::from_str(&written)
        .unwrap_or_else(|e| panic!("{name}: structio's output does not read back: {e}"));
    assert!(
        back == ours,
        "{name}: structio's output reads back differently"
    );
    ours
}

/// `write/LIB` for each library into one reused `Vec<u8>` of `capacity` bytes.
fn bench_writes<'de, T>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    value: &T,
    capacity: usize,
) where
    T: structio::Reflect<'de> + Serialize,
{
    let mut out = Vec::with_capacity(capacity);
    g.bench_function("write/structio", |b| {
        b.iter(|| {
            out.clear();
            structio::write_json(black_box(value), &mut out);
            black_box(&out);
        })
    });
    g.bench_function("write/serde_json", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(value)).unwrap();
            black_box(&out);
        })
    });
    g.bench_function("write/sonic_rs", |b| {
        b.iter(|| {
            out.clear();
            sonic_rs::to_writer(&mut out, black_box(value)).unwrap();
            black_box(&out);
        })
    });
    g.bench_function("write/simd_json", |b| {
        b.iter(|| {
            out.clear();
            simd_json::serde::to_writer(&mut out, black_box(value)).unwrap();
            black_box(&out);
        })
    });
}

fn bench_file<T>(c: &mut Criterion, name: &str, text: &[u8])
where
    T: ReflectOwned + DeserializeOwned + Serialize + Default + PartialEq + Debug,
{
    let value: T = checked(name, text);
    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_millis(1500))
        .warm_up_time(Duration::from_millis(300))
        .sample_size(20)
        .throughput(Throughput::Bytes(text.len() as u64));

    g.bench_function("read/structio", |b| {
        b.iter(|| structio::from_json::<T>(black_box(text)).unwrap())
    });
    let mut reused = T::default();
    g.bench_function("read/structio_reuse", |b| {
        b.iter(|| structio::read_json(&mut reused, black_box(text)).unwrap())
    });
    g.bench_function("read/serde_json", |b| {
        b.iter(|| serde_json::from_slice::<T>(black_box(text)).unwrap())
    });
    g.bench_function("read/sonic_rs", |b| {
        b.iter(|| sonic_rs::from_slice::<T>(black_box(text)).unwrap())
    });
    let mut buf = Vec::with_capacity(text.len());
    let mut buffers = simd_json::Buffers::new(text.len());
    g.bench_function("read/simd_json", |b| {
        b.iter(|| {
            buf.clear();
            buf.extend_from_slice(black_box(text));
            simd_json::serde::from_slice_with_buffers::<T>(&mut buf, &mut buffers).unwrap()
        })
    });

    bench_writes(&mut g, &value, 2 * text.len());
    g.finish();
}

fn corpus(c: &mut Criterion) {
    match common::corpus_dir() {
        None => {
            eprintln!("skipping twitter/citm_catalog/canada: no corpus (set STRUCTIO_CORPUS_DIR)")
        }
        Some(dir) => {
            let read = |f: &str| std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
            bench_file::<Twitter>(c, "twitter", &read("twitter.json"));
            bench_file::<CitmCatalog>(c, "citm_catalog", &read("citm_catalog.json"));
            bench_file::<Canada>(c, "canada", &read("canada.json"));
        }
    }
    tools_call(c);
}

/// The `tools/call` message into a struct of borrowed strings: time per message.
fn tools_call(c: &mut Criterion) {
    let text = TOOLS_CALL.as_bytes();
    let ours: ToolsCall<'_> = structio::from_json(text).expect("tools/call: structio");
    let serde: ToolsCall<'_> = serde_json::from_slice(text).expect("tools/call: serde_json");
    assert_eq!(ours, serde, "tools/call: structio and serde_json differ");
    let sonic: ToolsCall<'_> = sonic_rs::from_slice(text).expect("tools/call: sonic-rs");
    assert_eq!(sonic, serde, "tools/call: sonic-rs differs");
    let mut check = text.to_vec();
    let simd: ToolsCall<'_> = simd_json::serde::from_slice(&mut check).expect("tools/call: simd");
    assert_eq!(simd, serde, "tools/call: simd-json differs");
    assert_eq!(
        structio::to_json(&ours),
        TOOLS_CALL,
        "tools/call: structio writes other text"
    );

    let mut g = c.benchmark_group("tools_call");
    g.measurement_time(Duration::from_millis(1000))
        .warm_up_time(Duration::from_millis(300))
        .sample_size(30);
    g.bench_function("read/structio", |b| {
        b.iter(|| structio::from_json::<ToolsCall<'_>>(black_box(text)).unwrap())
    });
    g.bench_function("read/serde_json", |b| {
        b.iter(|| serde_json::from_slice::<ToolsCall<'_>>(black_box(text)).unwrap())
    });
    g.bench_function("read/sonic_rs", |b| {
        b.iter(|| sonic_rs::from_slice::<ToolsCall<'_>>(black_box(text)).unwrap())
    });
    let mut buf = Vec::with_capacity(text.len());
    let mut buffers = simd_json::Buffers::new(text.len());
    g.bench_function("read/simd_json", |b| {
        b.iter(|| {
            buf.clear();
            buf.extend_from_slice(black_box(text));
            let v: ToolsCall<'_> =
                simd_json::serde::from_slice_with_buffers(&mut buf, &mut buffers).unwrap();
            black_box(v.id)
        })
    });
    bench_writes(&mut g, &ours, 256);
    g.finish();
}

criterion_group!(benches, corpus);
criterion_main!(benches);
