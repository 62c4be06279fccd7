//! The serde bridge (`structio::serde`, feature `serde`) against serde_json (JSON) and the
//! `beve` crate (beve-rs, BEVE) on the corpus (`twitter.json`, `citm_catalog.json`,
//! `canada.json`), with the corpus types' serde derives: read and write, side by side, MB/s and
//! the bridge's ratio.
//!
//! Every cell is Glaze's method (best of `REPS` loops of at least `SECONDS`, as
//! `benches/common`'s `best_mbps`), the two sides taking turns loop by loop. Throughput counts the JSON file's bytes for every cell, BEVE
//! ones included, so that the numbers of one document compare across formats (a document per
//! second times its JSON size). Each library reads its own output (BEVE) or the file (JSON) into
//! a fresh value and writes into one reused `Vec<u8>`.
//!
//! `cargo bench --bench serde_bridge --features serde` (pin it: `taskset -c 1 cargo bench ...`);
//! `SECONDS=1 REPS=5` by default, set in the environment; a document name as argument and
//! `OPS=json-read,json-write,beve-read,beve-write` pick cells; `ITERS=N SIDE=bridge|other` runs
//! one side N times untimed, for `perf stat -e instructions`.

mod common;

use common::corpus::{Canada, CitmCatalog, Twitter};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::hint::black_box;

/// One row: the document, the operation, the bridge's and the other library's MB/s.
struct Row {
    doc: &'static str,
    op: &'static str,
    other: &'static str,
    bridge: f64,
    theirs: f64,
}

fn env(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn doc<T>(name: &'static str, rows: &mut Vec<Row>)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let secs = env("SECONDS", 1.0);
    let reps = env("REPS", 5.0) as u32;
    let dir = common::corpus_dir().expect("the corpus (tests/data/corpus)");
    let text = std::fs::read(dir.join(format!("{name}.json"))).unwrap();
    let n = text.len();

    // Every library reads the same value, and reads back what it writes.
    let v: T = structio::serde::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: T = serde_json::from_slice(&text).unwrap();
    assert!(
        v == theirs,
        "{name}: the bridge and serde_json read different values"
    );
    let ours_beve = structio::serde::to_beve(&v);
    let their_beve = beve::to_vec(&v).unwrap();
    assert!(structio::serde::from_beve::<T>(&ours_beve).unwrap() == v);
    assert!(
        beve::from_slice::<T>(&their_beve).unwrap() == v,
        "{name}: beve-rs round trip"
    );

    let mut out = Vec::with_capacity(4 * n);
    // `OPS=json-write,beve-read` runs only those cells (for profiling).
    let ops = std::env::var("OPS").unwrap_or_default();
    let mut run = |op: &'static str, other, bridge: &mut dyn FnMut(), theirs: &mut dyn FnMut()| {
        let key = op.to_lowercase().replace(' ', "-");
        if !ops.is_empty() && !ops.split(',').any(|o| o == key) {
            return;
        }
        // `ITERS=N SIDE=bridge|other`: N runs of one side, untimed (for instruction counts
        // with `perf stat`, which a busy host does not disturb).
        if let Ok(iters) = std::env::var("ITERS") {
            let iters: u64 = iters.parse().unwrap_or(1);
            let f: &mut dyn FnMut() = match std::env::var("SIDE").as_deref() {
                Ok("other") => theirs,
                _ => bridge,
            };
            for _ in 0..iters {
                f();
            }
            return;
        }
        // The two sides take turns, one loop each, so that a change in the host's load
        // between them does not favour one.
        let (mut b, mut t) = (0f64, 0f64);
        for _ in 0..reps {
            b = b.max(common::best_mbps(n, secs, 1, &mut *bridge));
            t = t.max(common::best_mbps(n, secs, 1, &mut *theirs));
        }
        rows.push(Row {
            doc: name,
            op,
            other,
            bridge: b,
            theirs: t,
        });
    };
    run(
        "JSON read",
        "serde_json",
        &mut || {
            black_box(structio::serde::from_json::<T>(black_box(&text[..])).unwrap());
        },
        &mut || {
            black_box(serde_json::from_slice::<T>(black_box(&text[..])).unwrap());
        },
    );
    let out_cell = std::cell::RefCell::new(&mut out);
    run(
        "JSON write",
        "serde_json",
        &mut || {
            let mut o = out_cell.borrow_mut();
            o.clear();
            structio::serde::write_json(black_box(&v), &mut o).unwrap();
            black_box(&o);
        },
        &mut || {
            let mut o = out_cell.borrow_mut();
            o.clear();
            serde_json::to_writer(&mut **o, black_box(&v)).unwrap();
            black_box(&o);
        },
    );
    run(
        "BEVE read",
        "beve-rs",
        &mut || {
            black_box(structio::serde::from_beve::<T>(black_box(&ours_beve[..])).unwrap());
        },
        &mut || {
            black_box(beve::from_slice::<T>(black_box(&their_beve[..])).unwrap());
        },
    );
    run(
        "BEVE write",
        "beve-rs",
        &mut || {
            let mut o = out_cell.borrow_mut();
            o.clear();
            structio::serde::write_beve(black_box(&v), &mut o).unwrap();
            black_box(&o);
        },
        &mut || {
            let mut o = out_cell.borrow_mut();
            o.clear();
            beve::to_vec_into(&mut o, black_box(&v)).unwrap();
            black_box(&o);
        },
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks documents.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let want = |d: &str| filter.is_empty() || filter.iter().any(|f| d.contains(f.as_str()));
    let mut rows = Vec::new();
    if want("twitter") {
        doc::<Twitter>("twitter", &mut rows);
    }
    if want("citm_catalog") {
        doc::<CitmCatalog>("citm_catalog", &mut rows);
    }
    if want("canada") {
        doc::<Canada>("canada", &mut rows);
    }
    println!("| document | operation | structio::serde MB/s | other | other MB/s | ratio |");
    println!("|---|---|---:|---|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {:.0} | {} | {:.0} | {:.2}x |",
            r.doc,
            r.op,
            r.bridge,
            r.other,
            r.theirs,
            r.bridge / r.theirs
        );
    }
}
