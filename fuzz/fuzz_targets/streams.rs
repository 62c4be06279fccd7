//! Fuzz target `streams`: see `structio_fuzz::shapes::streams::streams` for the properties
//! checked (the stream readers fed in pieces hand out what the in-memory readers hand out, in
//! NDJSON, delimited BEVE and JSON arrays).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::streams::streams(data));
