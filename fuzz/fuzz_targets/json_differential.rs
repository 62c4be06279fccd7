//! Fuzz target `json_differential`: see `structio_fuzz::shapes::differential::json_differential` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(
    |data: &[u8]| structio_fuzz::shapes::differential::json_differential(data)
);
