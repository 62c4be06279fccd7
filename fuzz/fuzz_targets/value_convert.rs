//! Fuzz target `value_convert`: see `structio_fuzz::shapes::oracles::value_convert` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::value_convert(data));
