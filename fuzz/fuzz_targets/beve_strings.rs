//! Fuzz target `beve_strings`: see `structio_fuzz::shapes::oracles::beve_strings` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::beve_strings(data));
