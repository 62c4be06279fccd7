//! Fuzz target `limits`: see `structio_fuzz::shapes::limits::limits` for the properties checked
//! (one re-read budget per delimited sequence, bounded reservations for large elements, no
//! stack overflow for types with large inline data or with the depth limit lifted).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| structio_fuzz::shapes::limits::limits(data));
