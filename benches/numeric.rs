//! BEVE numeric arrays (`f64` and `u64`, 10^3 to 10^7 elements): write into a reused buffer,
//! read into a reused `Vec`, aligned zero-copy read (`to_beve_aligned` read back as a borrowed
//! `Cow<[N]>`), against `memcpy` (`copy_from_slice`) of the same payload bytes.
//!
//! `cargo bench --bench numeric [-- FILTER]`, e.g. `-- f64/1000000`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;
use structio::ReflectOwned;

const SIZES: [usize; 5] = [1_000, 10_000, 100_000, 1_000_000, 10_000_000];

fn bench_kind<N>(c: &mut Criterion, kind: &str, make: impl Fn(usize) -> N)
where
    N: ReflectOwned + Default + Copy + PartialEq + std::fmt::Debug + bytemuck::Pod,
    for<'a> Cow<'a, [N]>: structio::Reflect<'a>,
{
    let mut g = c.benchmark_group(kind);
    g.measurement_time(Duration::from_millis(1500))
        .warm_up_time(Duration::from_millis(300))
        .sample_size(10);
    for n in SIZES {
        let data: Vec<N> = (0..n).map(&make).collect();
        let beve = structio::to_beve(&data);
        let aligned = structio::to_beve_aligned(&data);
        let payload = n * std::mem::size_of::<N>();

        // Setup checks: every path yields the data, and the aligned read really borrows.
        let mut back: Vec<N> = Vec::new();
        structio::read_beve(&mut back, &beve[..]).unwrap();
        assert!(back == data, "{kind}/{n}: BEVE read differs");
        let cow: Cow<'_, [N]> = structio::from_beve(aligned.as_slice()).unwrap();
        assert!(
            matches!(cow, Cow::Borrowed(_)),
            "{kind}/{n}: aligned read copied"
        );
        assert!(cow[..] == data[..], "{kind}/{n}: aligned read differs");

        g.throughput(Throughput::Bytes(beve.len() as u64));
        let mut out = Vec::with_capacity(beve.len());
        g.bench_function(BenchmarkId::new("write", n), |b| {
            b.iter(|| {
                out.clear();
                structio::write_beve(black_box(&data), &mut out);
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("read", n), |b| {
            b.iter(|| structio::read_beve(&mut back, black_box(&beve[..])).unwrap())
        });
        g.throughput(Throughput::Bytes(aligned.len() as u64));
        g.bench_function(BenchmarkId::new("read_aligned_zero_copy", n), |b| {
            b.iter(|| {
                let cow: Cow<'_, [N]> = structio::from_beve(black_box(aligned.as_slice())).unwrap();
                black_box(cow);
            })
        });
        g.throughput(Throughput::Bytes(payload as u64));
        let src = bytemuck::cast_slice::<N, u8>(&data).to_vec();
        let mut dst = vec![0u8; payload];
        g.bench_function(BenchmarkId::new("memcpy", n), |b| {
            b.iter(|| {
                dst.copy_from_slice(black_box(&src[..]));
                black_box(&dst);
            })
        });
    }
    g.finish();
}

fn numeric(c: &mut Criterion) {
    bench_kind::<f64>(c, "f64", |i| i as f64 * 1.000_000_1 - 0.5);
    bench_kind::<u64>(c, "u64", |i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
}

criterion_group!(benches, numeric);
criterion_main!(benches);
