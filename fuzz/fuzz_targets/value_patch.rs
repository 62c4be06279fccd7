//! Fuzz target `value_patch`: see `structio_fuzz::shapes::patch::value_patch` for the
//! properties checked (a document and a JSON Patch built from the bytes: no panic, atomic on
//! failure, the same result as applying the operations one at a time, `diff` patches back).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::patch::value_patch(data));
