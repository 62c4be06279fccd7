//! Shapes and oracles shared by the reliability tests (`hostile`, `regressions`, `differential`)
//! and the fuzz targets (`fuzz/src/lib.rs` includes this module by path), so that a fuzz
//! finding replays under `cargo test` against the same types and the same checks.
#![allow(dead_code)]

pub mod boundary;
pub mod canonical;
pub mod differential;
pub mod everything;
pub mod limits;
pub mod more;
pub mod oracles;
pub mod patch;
pub mod pointer;
pub mod streams;
pub mod tree;
pub mod values;
