//! Reads one corpus document (`twitter`, `citm_catalog` or `canada` from `tests/data/corpus`,
//! or `STRUCTIO_CORPUS_DIR`) N times as JSON into a fresh value (as `from_json` does) and prints
//! the time per read: a harness for profilers. With a third argument `reuse` each read goes into
//! one reused value instead. The reads run inside a function named `measured`, so callgrind can
//! count exactly them:
//! `valgrind --tool=callgrind --toggle-collect='*measured*' target/release/examples/corpus_read twitter 2`.
//!
//! `DOC` may also be `tools_call`: the JSON-RPC message of the corpus bench, into borrowed
//! strings.
//!
//! `cargo run --release --example corpus_read -- DOC [N] [reuse]`

#[path = "../benches/common/corpus.rs"]
#[allow(dead_code)]
mod corpus;

use std::hint::black_box;
use std::time::Instant;

#[inline(never)]
fn measured<T: for<'de> structio::Reflect<'de> + Default>(n: usize, text: &[u8], reuse: bool) {
    let mut kept = T::default();
    for _ in 0..n {
        if reuse {
            structio::json::read_json(&mut kept, black_box(text)).expect("the corpus file reads");
        } else {
            let v: T = structio::from_json(black_box(text)).expect("the corpus file reads");
            black_box(&v);
        }
    }
    black_box(&kept);
}

fn run<T: for<'de> structio::Reflect<'de> + Default + Clone>(text: &[u8], n: usize, reuse: bool) {
    if std::env::var_os("CORPUS_READ_CLONE").is_some() {
        // The floor of building a fresh value: cloning one (the same allocations) and dropping it.
        let v: T = structio::from_json(text).expect("the corpus file reads");
        let t = Instant::now();
        for _ in 0..n {
            black_box(black_box(&v).clone());
        }
        println!("clone and drop: {:?}", t.elapsed() / n.max(1) as u32);
    }
    let t = Instant::now();
    measured::<T>(n, text, reuse);
    let per = t.elapsed() / n.max(1) as u32;
    let mbps = text.len() as f64 / per.as_secs_f64() / 1e6;
    println!(
        "{} bytes read, {per:?} per read ({mbps:.0} MB/s)",
        text.len()
    );
}

/// The `tools/call` message read `n` times into a struct of borrowed strings.
#[inline(never)]
fn measured_tools_call(n: usize) {
    for _ in 0..n {
        let text = black_box(corpus::TOOLS_CALL);
        let v: corpus::ToolsCall<'_> = structio::from_json(text).expect("tools/call reads");
        black_box(&v);
    }
}

fn main() {
    if std::env::var_os("CORPUS_READ_SIZES").is_some() {
        println!(
            "Status {} User {}",
            size_of::<corpus::Status>(),
            size_of::<corpus::User>()
        );
    }
    let mut args = std::env::args().skip(1);
    let doc = args.next().unwrap_or_else(|| "twitter".to_string());
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let reuse = args.next().as_deref() == Some("reuse");
    if doc == "tools_call" {
        let t = Instant::now();
        measured_tools_call(n);
        println!("tools/call: {:?} per read", t.elapsed() / n.max(1) as u32);
        return;
    }
    let dir = std::env::var("STRUCTIO_CORPUS_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus").into());
    let path = format!("{dir}/{doc}.json");
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match doc.as_str() {
        "twitter" => run::<corpus::Twitter>(&text, n, reuse),
        "citm_catalog" => run::<corpus::CitmCatalog>(&text, n, reuse),
        "canada" => run::<corpus::Canada>(&text, n, reuse),
        other => panic!("unknown document {other} (twitter, citm_catalog or canada)"),
    }
}
