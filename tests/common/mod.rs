//! Shared helpers for the integration tests: where the golden files are, and the Rust shapes of
//! the seven Glaze benchmark documents.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared` beside the repository, when present (it is not in a user's clone).
pub fn shared() -> Option<PathBuf> {
    let p = root().join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        None
    }
}

/// Reads a file under the repository root; panics with the path if it is missing.
pub fn read(rel: &str) -> Vec<u8> {
    let p = root().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The names of the seven benchmark documents.
pub const DOCS: [&str; 7] = [
    "mixed",
    "strings",
    "uints",
    "ints",
    "doubles",
    "exact_decimals",
    "bools",
];

/// One element of the `mixed` document (C++ `test_struct`).
#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
#[structio(rename_all = "camelCase")]
pub struct TestStruct {
    pub test_strings: Vec<String>,
    pub test_uints: Vec<u64>,
    pub test_doubles: Vec<f64>,
    pub test_ints: Vec<i64>,
    pub test_bools: Vec<bool>,
}

/// Twenty-six fields `a` to `z` of one type: the shape of every benchmark document.
#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
pub struct Az<T> {
    pub a: T,
    pub b: T,
    pub c: T,
    pub d: T,
    pub e: T,
    pub f: T,
    pub g: T,
    pub h: T,
    pub i: T,
    pub j: T,
    pub k: T,
    pub l: T,
    pub m: T,
    pub n: T,
    pub o: T,
    pub p: T,
    pub q: T,
    pub r: T,
    pub s: T,
    pub t: T,
    pub u: T,
    pub v: T,
    pub w: T,
    pub x: T,
    pub y: T,
    pub z: T,
}

/// The `mixed` document.
pub type Mixed = Az<Vec<TestStruct>>;
/// The single-type documents.
pub type Flat<T> = Az<Vec<T>>;
