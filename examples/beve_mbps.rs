//! Throughput of the BEVE backend on the seven Glaze benchmark documents, printed as
//! `name<TAB>case<TAB>MB/s` like the Glaze baseline binary (MB/s of the BEVE size).
//!
//! `cargo run --release --example beve_mbps -- [SECONDS] [REPS] [DOC...]`; with
//! `BEVE_MBPS_CASE=beve_write` (say) only that case is timed (reading always runs, to fill the
//! value). A negative SECONDS runs exactly that many calls once, for instruction counts
//! (`valgrind --tool=callgrind --toggle-collect='*measured*'`).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Az, Flat, Mixed};
use std::time::{Duration, Instant};

/// Calls `f` `n` times: what an instruction count looks at.
#[inline(never)]
fn measured(n: usize, f: &mut impl FnMut()) {
    for _ in 0..n {
        f();
    }
}

/// Best MB/s of `reps` rounds of `secs` seconds each, `bytes` per call. A negative `secs` means
/// exactly `-secs` calls once (for instruction counts).
fn best(case: &str, secs: f64, reps: usize, bytes: usize, mut f: impl FnMut()) -> f64 {
    if std::env::var("BEVE_MBPS_CASE").is_ok_and(|c| c != case) {
        if case == "beve_read" {
            f();
        }
        return 0.0;
    }
    f();
    if secs < 0.0 {
        measured(-secs as usize, &mut f);
        return 0.0;
    }
    let mut best = f64::MAX;
    for _ in 0..reps {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < Duration::from_secs_f64(secs) {
            for _ in 0..8 {
                f();
            }
            calls += 8;
        }
        best = best.min(start.elapsed().as_secs_f64() / calls as f64);
    }
    bytes as f64 / best / 1e6
}

fn doc<T>(name: &str, secs: f64, reps: usize)
where
    T: for<'de> structio::Reflect<'de> + Default,
{
    let beve = common::read(&format!("formats/beve/bench/{name}.beve"));
    let n = beve.len();
    let mut v = T::default();
    let row = |case: &str, mbps: f64| println!("{name}\t{case}\t{mbps:.0}");
    row(
        "beve_read",
        best("beve_read", secs, reps, n, || {
            structio::read_beve(&mut v, &beve[..]).unwrap()
        }),
    );
    let mut out = Vec::with_capacity(2 * n);
    row(
        "beve_write",
        best("beve_write", secs, reps, n, || {
            out.clear();
            structio::write_beve(&v, &mut out);
        }),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let secs: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(0.3);
    let reps: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let only: Vec<&str> = args.iter().skip(2).map(|s| s.as_str()).collect();
    let want = |d: &str| only.is_empty() || only.contains(&d);
    if want("mixed") {
        doc::<Mixed>("mixed", secs, reps);
    }
    if want("strings") {
        doc::<Flat<String>>("strings", secs, reps);
    }
    if want("uints") {
        doc::<Flat<u64>>("uints", secs, reps);
    }
    if want("ints") {
        doc::<Flat<i64>>("ints", secs, reps);
    }
    if want("doubles") {
        doc::<Flat<f64>>("doubles", secs, reps);
    }
    if want("exact_decimals") {
        doc::<Flat<f64>>("exact_decimals", secs, reps);
    }
    if want("bools") {
        doc::<Az<Vec<bool>>>("bools", secs, reps);
    }
}
