//! Shared code for the fuzz targets: the `Everything` shape and the oracles come from the main
//! crate's tests (`tests/shapes`), so a finding replays under `cargo test`; the `Value`
//! generator for the round-trip target and the serde bridge's oracle (`serde_bridge`, which
//! needs structio's `serde` feature) live here.

#[path = "../../tests/shapes/mod.rs"]
pub mod shapes;

pub mod boundary;
pub mod gen;
pub mod serde_bridge;
