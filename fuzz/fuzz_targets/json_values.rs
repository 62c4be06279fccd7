//! Fuzz target `json_values`: see `structio_fuzz::shapes::values::values_oracle` for the
//! properties checked (`json::values` hands out what `from_json` reads from each value alone;
//! `json::values_from_reader` fed in pieces hands out the same items and errors).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::values::values_oracle(data));
