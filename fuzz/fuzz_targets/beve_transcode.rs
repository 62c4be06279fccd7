//! Fuzz target `beve_transcode`: see `structio_fuzz::shapes::oracles::beve_transcode` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::oracles::beve_transcode(data));
