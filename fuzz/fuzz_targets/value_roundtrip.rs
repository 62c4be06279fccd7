//! Fuzz target `value_roundtrip`: builds an arbitrary `Value` and checks
//! `structio_fuzz::shapes::oracles::value_roundtrip` on it.
#![no_main]

use arbitrary::Unstructured;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(v) = structio_fuzz::gen::value(&mut u, 0) {
        structio_fuzz::shapes::oracles::value_roundtrip(&v);
    }
});
