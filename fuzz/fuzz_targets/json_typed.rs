//! Fuzz target `json_typed`: see `structio_fuzz::shapes::oracles::json_typed` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::json_typed(data));
