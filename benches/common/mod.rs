//! Shared by the bench targets: where the documents are, their Rust shapes, the corpus types,
//! and Glaze's timing method (best of N loops of at least S seconds).
#![allow(dead_code)]

pub mod corpus;

/// The Rust shapes of the seven Glaze benchmark documents (`Mixed`, `Flat<T>`), shared with the
/// golden tests.
#[path = "../../tests/common/mod.rs"]
pub mod shapes;

use std::path::{Path, PathBuf};
use std::time::Instant;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The three files of one benchmark document, read into memory.
pub struct DocFiles {
    /// Compact JSON as Glaze writes it.
    pub json: Vec<u8>,
    /// The same, prettified by Glaze.
    pub pretty: Vec<u8>,
    /// BEVE as Glaze writes it.
    pub beve: Vec<u8>,
}

/// Where the documents are: `STRUCTIO_BENCH_DIR` (NAME.json, NAME.pretty.json and NAME.beve in
/// one folder, as `baseline-cpp generate` writes them), else the copies in the repository.
/// Returns (folder of the JSON files, folder of the BEVE files).
pub fn doc_dirs() -> (PathBuf, PathBuf) {
    match std::env::var_os("STRUCTIO_BENCH_DIR") {
        Some(d) if !d.is_empty() => (PathBuf::from(&d), PathBuf::from(d)),
        _ => (
            root().join("formats/json/bench"),
            root().join("formats/beve/bench"),
        ),
    }
}

fn slurp(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Reads the three files of document `name` from `json_dir` and `beve_dir`.
pub fn load_doc(json_dir: &Path, beve_dir: &Path, name: &str) -> DocFiles {
    DocFiles {
        json: slurp(&json_dir.join(format!("{name}.json"))),
        pretty: slurp(&json_dir.join(format!("{name}.pretty.json"))),
        beve: slurp(&beve_dir.join(format!("{name}.beve"))),
    }
}

/// The JSON corpus folder: `STRUCTIO_CORPUS_DIR` if set, else the repository's copy in
/// `tests/data/corpus`, when present.
pub fn corpus_dir() -> Option<PathBuf> {
    let p = match std::env::var_os("STRUCTIO_CORPUS_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => root().join("tests/data/corpus"),
    };
    p.is_dir().then_some(p)
}

/// Runs `op` in loops of at least `seconds`, `reps` times, and returns the best MB/s
/// (MB = 10^6 bytes) for `bytes` bytes per call: the method of baseline-cpp's `best_mbps`.
pub fn best_mbps(bytes: usize, seconds: f64, reps: u32, mut op: impl FnMut()) -> f64 {
    let mut best = 0f64;
    for _ in 0..reps {
        let start = Instant::now();
        let mut iters = 0u64;
        let elapsed = loop {
            op();
            iters += 1;
            let e = start.elapsed().as_secs_f64();
            if e >= seconds {
                break e;
            }
        };
        best = best.max(bytes as f64 * iters as f64 / elapsed / 1e6);
    }
    best
}
