//! Fuzz target `json_get`: see `structio_fuzz::shapes::pointer::json_get` for the properties
//! checked (`json::get` and `beve::get` against `from_json::<Value>` + `Value::pointer`, never
//! a panic).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::pointer::json_get(data));
