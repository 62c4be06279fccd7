//! Fuzz target `pretty_minify`: see `structio_fuzz::shapes::oracles::pretty_minify` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::pretty_minify(data));
