//! Fuzz target `boundary`: see `structio_fuzz::shapes::boundary::check` for the properties checked
//! (`json::parse` accepts exactly what `from_json` accepts, and reports the same issues as
//! `beve::parse` of the same document).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::boundary::check(data));
