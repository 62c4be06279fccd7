//! structio's side of `benches/compare.sh`: the seven Glaze benchmark documents timed exactly as
//! baseline-cpp times Glaze (reused destination value and output buffer, prettify and minify
//! included; best of REPS loops of at least SECONDS), printing one `doc<TAB>op<TAB>MB/s` line
//! per cell.
//!
//! ```text
//! cargo bench --bench mbps -- [DIR] [SECONDS] [REPS]
//! ```
//! DIR holds NAME.json, NAME.pretty.json and NAME.beve (default: `STRUCTIO_BENCH_DIR`, else the
//! copies in formats/); SECONDS defaults to 0.5 and REPS to 5, as in baseline-cpp. MB = 10^6
//! bytes; JSON read, write and prettify count the compact JSON size, minify the pretty size,
//! BEVE read and write the BEVE size.

mod common;

use common::shapes::{Flat, Mixed};
use common::{best_mbps, doc_dirs, load_doc, DocFiles};
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use structio::ReflectOwned;

fn time_doc<T: ReflectOwned + Default>(name: &str, f: &DocFiles, seconds: f64, reps: u32) {
    let mut value = T::default();
    structio::read_json(&mut value, &f.json[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    let mut ok = true;
    let report = |op: &str, mbps: f64| {
        println!("{name}\t{op}\t{mbps:.0}");
        std::io::stdout().flush().ok();
    };
    let j = &f.json[..];
    report(
        "json_read",
        best_mbps(j.len(), seconds, reps, || {
            ok &= structio::read_json(&mut value, j).is_ok();
        }),
    );
    report(
        "json_write",
        best_mbps(j.len(), seconds, reps, || {
            out.clear();
            structio::write_json(&value, &mut out);
            black_box(&out);
        }),
    );
    report(
        "prettify",
        best_mbps(j.len(), seconds, reps, || {
            out.clear();
            ok &= structio::json::prettify_into(j, &mut out).is_ok();
            black_box(&out);
        }),
    );
    let p = &f.pretty[..];
    report(
        "minify",
        best_mbps(p.len(), seconds, reps, || {
            out.clear();
            ok &= structio::json::minify_into(p, &mut out).is_ok();
            black_box(&out);
        }),
    );
    let b = &f.beve[..];
    report(
        "beve_read",
        best_mbps(b.len(), seconds, reps, || {
            ok &= structio::read_beve(&mut value, b).is_ok();
        }),
    );
    report(
        "beve_write",
        best_mbps(b.len(), seconds, reps, || {
            out.clear();
            structio::write_beve(&value, &mut out);
            black_box(&out);
        }),
    );
    assert!(ok, "{name}: an operation failed while timing");
}

fn main() {
    // `cargo bench` passes `--bench`; everything starting with `-` is ignored.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (json_dir, beve_dir) = match args.first() {
        Some(d) => (PathBuf::from(d), PathBuf::from(d)),
        None => doc_dirs(),
    };
    let seconds: f64 = args.get(1).map_or(0.5, |s| s.parse().expect("SECONDS"));
    let reps: u32 = args.get(2).map_or(5, |s| s.parse().expect("REPS"));
    let load = |name: &str| load_doc(&json_dir, &beve_dir, name);
    time_doc::<Mixed>("mixed", &load("mixed"), seconds, reps);
    time_doc::<Flat<String>>("strings", &load("strings"), seconds, reps);
    time_doc::<Flat<u64>>("uints", &load("uints"), seconds, reps);
    time_doc::<Flat<i64>>("ints", &load("ints"), seconds, reps);
    time_doc::<Flat<f64>>("doubles", &load("doubles"), seconds, reps);
    time_doc::<Flat<f64>>("exact_decimals", &load("exact_decimals"), seconds, reps);
    time_doc::<Flat<bool>>("bools", &load("bools"), seconds, reps);
}
