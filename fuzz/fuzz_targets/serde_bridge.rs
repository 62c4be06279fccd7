//! Fuzz target `serde_bridge`: see `structio_fuzz::serde_bridge::check` for the properties
//! checked (the serde bridge reads any bytes cleanly, writes what structio's derive writes, and
//! reads its own output back).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::serde_bridge::check(data));
