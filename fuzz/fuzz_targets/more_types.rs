//! Fuzz target `more_types`: see `structio_fuzz::shapes::more::more_types` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::more::more_types(data));
