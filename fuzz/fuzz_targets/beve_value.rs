//! Fuzz target `beve_value`: see `structio_fuzz::shapes::oracles::beve_value` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::beve_value(data));
