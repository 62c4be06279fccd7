//! Every proper prefix of a golden document is an error, read typed and as a `Value`, in both
//! formats. Small documents are cut at every byte; for the large benchmark documents every cut
//! within the first 2 KiB (where every kind of token has appeared), 48 evenly spaced cuts and
//! the last 32 (each cut costs a parse of up to the whole file, so all of them would take
//! minutes).

use crate::common::{self, Flat, Mixed, DOCS};
use crate::shapes::everything::{Everything, SAMPLE_JSON};
use structio::{ReflectOwned, Value};

/// The prefix lengths to try for a document of `n` bytes.
fn cuts(n: usize) -> Vec<usize> {
    if n <= 4096 {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..2048).collect();
    v.extend((1..48).map(|i| 2048 + (n - 2048 - 32) * i / 48));
    v.extend(n - 32..n);
    v
}

/// Whether a JSON document cut at `len` is still a complete value: only when what is cut off is
/// whitespace, or the document is a bare number (its prefixes are numbers too).
fn json_cut_may_be_valid(doc: &[u8], len: usize) -> bool {
    doc[len..].iter().all(|b| b.is_ascii_whitespace())
        || !matches!(
            doc.iter().find(|b| !b.is_ascii_whitespace()),
            Some(b'[' | b'{' | b'"')
        )
}

fn json_prefixes<T: ReflectOwned + Default + std::fmt::Debug>(name: &str, doc: &[u8]) {
    for len in cuts(doc.len()) {
        if json_cut_may_be_valid(doc, len) {
            continue;
        }
        let cut = &doc[..len];
        assert!(
            structio::from_json::<T>(cut).is_err(),
            "{name}: typed prefix {len} accepted"
        );
        assert!(
            structio::from_json::<Value>(cut).is_err(),
            "{name}: Value prefix {len} accepted"
        );
    }
}

fn beve_prefixes<T: ReflectOwned + Default + std::fmt::Debug>(name: &str, doc: &[u8]) {
    for len in cuts(doc.len()) {
        let cut = &doc[..len];
        assert!(
            structio::from_beve::<T>(cut).is_err(),
            "{name}: typed prefix {len} accepted"
        );
        assert!(
            structio::from_beve::<Value>(cut).is_err(),
            "{name}: Value prefix {len} accepted"
        );
    }
}

/// Runs `$check::<T>` with `T` the Rust type of the benchmark document `$doc`.
macro_rules! each_doc {
    ($check:ident, $doc:expr, $name:expr, $bytes:expr) => {
        match $doc {
            "mixed" => $check::<Mixed>($name, $bytes),
            "strings" => $check::<Flat<String>>($name, $bytes),
            "uints" => $check::<Flat<u64>>($name, $bytes),
            "ints" => $check::<Flat<i64>>($name, $bytes),
            "doubles" | "exact_decimals" => $check::<Flat<f64>>($name, $bytes),
            "bools" => $check::<Flat<bool>>($name, $bytes),
            other => panic!("unknown document {other}"),
        }
    };
}

#[test]
fn json_bench_documents() {
    for doc in DOCS {
        for suffix in ["json", "pretty.json"] {
            let name = format!("formats/json/bench/{doc}.{suffix}");
            let bytes = common::read(&name);
            each_doc!(json_prefixes, doc, &name, &bytes);
        }
    }
}

#[test]
fn beve_bench_documents() {
    for doc in DOCS {
        let name = format!("formats/beve/bench/{doc}.beve");
        let bytes = common::read(&name);
        each_doc!(beve_prefixes, doc, &name, &bytes);
    }
}

#[test]
fn everything_sample() {
    let json = SAMPLE_JSON.as_bytes();
    for len in 0..json.len() {
        let cut = &json[..len];
        assert!(
            structio::from_json::<Everything>(cut).is_err(),
            "typed prefix {len} accepted"
        );
        assert!(
            structio::from_json::<Value>(cut).is_err(),
            "Value prefix {len} accepted"
        );
    }
    let beve = common::read("tests/shapes/everything.beve");
    // `Everything` borrows; read the prefixes of a leaked copy so the borrow is 'static.
    let beve: &'static [u8] = Box::leak(beve.into_boxed_slice());
    for len in 0..beve.len() {
        let cut = &beve[..len];
        assert!(
            structio::from_beve::<Everything>(cut).is_err(),
            "typed prefix {len} accepted"
        );
        assert!(
            structio::from_beve::<Value>(cut).is_err(),
            "Value prefix {len} accepted"
        );
    }
}

/// The Glaze exchange pairs (`formats/beve/exchange`), as `Value`s (their C++ types have no Rust
/// twin here; the typed prefixes are covered by the derive tests).
#[test]
fn glaze_exchange_files() {
    let dir = common::path("formats/beve/exchange");
    let mut n = 0;
    for path in common::list(&dir, "") {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") if structio::from_json::<Value>(&bytes).is_ok() => {
                for len in cuts(bytes.len()) {
                    if !json_cut_may_be_valid(&bytes, len) {
                        let r = structio::from_json::<Value>(&bytes[..len]);
                        assert!(r.is_err(), "{name}: prefix {len} accepted");
                    }
                }
                n += 1;
            }
            Some("beve") if structio::from_beve::<Value>(&bytes).is_ok() => {
                for len in cuts(bytes.len()) {
                    let r = structio::from_beve::<Value>(&bytes[..len]);
                    assert!(r.is_err(), "{name}: prefix {len} accepted");
                }
                n += 1;
            }
            _ => {}
        }
    }
    assert!(n > 20, "only {n} exchange files read");
}
