//! Fuzz target `beve_to_json`: see `structio_fuzz::shapes::oracles::beve_to_json` for the
//! properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::beve_to_json(data));
