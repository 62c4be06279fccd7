//! Throughput of the JSON backend on the seven Glaze benchmark documents, printed as
//! `name<TAB>case<TAB>MB/s` like the Glaze baseline binary. Every case writes into one reused
//! output buffer, as Glaze's benchmark does. MB/s is measured on the compact
//! document's size for every case (minify: on the pretty input's size too, as `minify_in`).
//!
//! `cargo run --release --example json_mbps -- [SECONDS] [REPS] [DOC...]`; with
//! `JSON_MBPS_CASE=json_write` (say) only that case is timed (reading always runs, to fill the
//! value).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Az, Flat, Mixed};
use std::time::{Duration, Instant};

/// Calls `f` `n` times: what an instruction count (`valgrind --tool=callgrind
/// --toggle-collect='*measured*'`) looks at.
#[inline(never)]
fn measured(n: usize, f: &mut impl FnMut()) {
    for _ in 0..n {
        f();
    }
}

/// Best MB/s of `reps` rounds of `secs` seconds each, `bytes` per call. A negative `secs` means
/// exactly `-secs` calls once (for instruction counts).
fn best(case: &str, secs: f64, reps: usize, bytes: usize, mut f: impl FnMut()) -> f64 {
    if std::env::var("JSON_MBPS_CASE").is_ok_and(|c| c != case) {
        if case == "json_read" {
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
    let json = common::read(&format!("formats/json/bench/{name}.json"));
    let pretty = common::read(&format!("formats/json/bench/{name}.pretty.json"));
    let n = json.len();
    let mut v = T::default();
    let row = |case: &str, mbps: f64| println!("{name}\t{case}\t{mbps:.0}");
    row(
        "json_read",
        best("json_read", secs, reps, n, || {
            structio::json::read_json(&mut v, &json[..]).unwrap()
        }),
    );
    let mut out = Vec::with_capacity(2 * n);
    row(
        "json_write",
        best("json_write", secs, reps, n, || {
            out.clear();
            structio::json::write_json(&v, &mut out);
        }),
    );
    row(
        "prettify",
        best("prettify", secs, reps, n, || {
            out.clear();
            structio::json::prettify_into(&json[..], &mut out).unwrap();
            std::hint::black_box(&out);
        }),
    );
    let m = best("minify", secs, reps, n, || {
        out.clear();
        structio::json::minify_into(&pretty[..], &mut out).unwrap();
        std::hint::black_box(&out);
    });
    row("minify", m);
    row("minify_in", m * pretty.len() as f64 / n as f64);
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
