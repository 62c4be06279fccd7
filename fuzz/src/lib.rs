//! Shared code for the fuzz targets: the `Everything` shape and the oracles come from the main
//! crate's tests (`tests/shapes`), so a finding replays under `cargo test`; the `Value`
//! generator for the round-trip target, the serde bridge's oracle (`serde_bridge`, which
//! needs structio's `serde` feature) and the MCP server's (`rpc`, on structio-rpc) live here.

#[path = "../../tests/shapes/mod.rs"]
pub mod shapes;

pub mod gen;
pub mod rpc;
pub mod serde_bridge;
