//! Writes one corpus document (`twitter`, `citm_catalog` or `canada` from `tests/data/corpus`,
//! or `STRUCTIO_CORPUS_DIR`) N times as JSON and prints the time per write: a harness for
//! profilers. The writes run inside a function named `measured`, so callgrind can count exactly
//! them:
//! `valgrind --tool=callgrind --toggle-collect='*measured*' target/release/examples/corpus_write canada 2`.
//!
//! `DOC` may also be `tools_call`: the JSON-RPC message of the corpus bench, from its struct of
//! borrowed strings.
//!
//! `cargo run --release --example corpus_write -- DOC [N]`

#[path = "../benches/common/corpus.rs"]
#[allow(dead_code)]
mod corpus;

use std::time::Instant;

#[inline(never)]
fn measured<'de, T: structio::Reflect<'de>>(n: usize, v: &T, out: &mut Vec<u8>) {
    for _ in 0..n {
        out.clear();
        structio::write_json(v, out);
        std::hint::black_box(&out);
    }
}

fn run<T: for<'de> structio::Reflect<'de> + Default>(text: &[u8], n: usize) {
    let mut v = T::default();
    structio::json::read_json(&mut v, text).expect("the corpus file reads");
    let mut out = Vec::with_capacity(text.len());
    let t = Instant::now();
    measured(n, &v, &mut out);
    let per = t.elapsed() / n.max(1) as u32;
    println!("{} bytes written, {per:?} per write", out.len());
}

fn main() {
    let mut args = std::env::args().skip(1);
    let doc = args.next().unwrap_or_else(|| "canada".to_string());
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    if doc == "tools_call" {
        let v: corpus::ToolsCall<'_> =
            structio::from_json(corpus::TOOLS_CALL).expect("tools/call reads");
        let mut out = Vec::with_capacity(256);
        let t = Instant::now();
        measured(n, &v, &mut out);
        println!("tools/call: {:?} per write", t.elapsed() / n.max(1) as u32);
        return;
    }
    let dir = std::env::var("STRUCTIO_CORPUS_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus").into());
    let path = format!("{dir}/{doc}.json");
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match doc.as_str() {
        "twitter" => run::<corpus::Twitter>(&text, n),
        "citm_catalog" => run::<corpus::CitmCatalog>(&text, n),
        "canada" => run::<corpus::Canada>(&text, n),
        other => panic!("unknown document {other} (twitter, citm_catalog or canada)"),
    }
}
