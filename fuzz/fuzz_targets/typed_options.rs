//! Fuzz target `typed_options`: see `structio_fuzz::shapes::oracles::typed_options` for the
//! properties checked (the first byte selects the read options, the format and the shape).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::typed_options(data));
