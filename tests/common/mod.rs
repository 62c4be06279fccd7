//! Shared helpers for the integration tests: where the golden files are, and the Rust shapes of
//! the seven Glaze benchmark documents.
#![allow(dead_code)]

mod files;
#[allow(unused_imports)]
pub use files::{data, list, path, read, root, DOCS};

/// One element of the `mixed` document (C++ `test_struct`). The serde derives (same names)
/// let the serde bridge's tests compare it with structio's own.
#[derive(
    structio::Reflect, serde::Serialize, serde::Deserialize, Default, Debug, Clone, PartialEq,
)]
#[structio(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct TestStruct {
    pub test_strings: Vec<String>,
    pub test_uints: Vec<u64>,
    pub test_doubles: Vec<f64>,
    pub test_ints: Vec<i64>,
    pub test_bools: Vec<bool>,
}

/// Twenty-six fields `a` to `z` of one type: the shape of every benchmark document.
#[derive(
    structio::Reflect, serde::Serialize, serde::Deserialize, Default, Debug, Clone, PartialEq,
)]
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
