//! Round-trip helpers shared by the derive tests.

use std::fmt::Debug;

use structio::ReflectOwned;

/// Writes `v` as JSON (which must be `json`), reads it back, and round-trips it through BEVE.
#[track_caller]
pub fn both<T>(v: &T, json: &str)
where
    T: ReflectOwned + Default + PartialEq + Debug,
{
    assert_eq!(structio::to_json(v), json, "JSON text");
    assert_eq!(&from_json::<T>(json), v, "JSON read");
    beve(v);
}

/// Round-trips `v` through BEVE; every proper prefix of its encoding is an end-of-input error.
#[track_caller]
pub fn beve<T>(v: &T)
where
    T: ReflectOwned + Default + PartialEq + Debug,
{
    let bytes = structio::to_beve(v);
    let back: T = structio::from_beve::<T>(&bytes).unwrap_or_else(|e| panic!("BEVE read: {e}"));
    assert_eq!(&back, v, "BEVE read");
    for end in 0..bytes.len() {
        match structio::from_beve::<T>(&bytes[..end]) {
            Ok(v) => panic!("BEVE prefix {:02x?} read as {v:?}", &bytes[..end]),
            Err(e) => assert!(e.is_eof(), "BEVE prefix {:02x?}: {e}", &bytes[..end]),
        }
    }
}

/// Reads JSON that must be valid for `T`.
#[track_caller]
pub fn from_json<T: ReflectOwned + Default>(json: &str) -> T {
    structio::from_json::<T>(json).unwrap_or_else(|e| panic!("reading {json}: {e}"))
}

/// Reads JSON that must fail; returns the error's message and path.
#[track_caller]
pub fn json_error<T: ReflectOwned + Default + Debug>(json: &str) -> (String, String) {
    match structio::from_json::<T>(json) {
        Ok(v) => panic!("reading {json} should fail, got {v:?}"),
        Err(e) => (e.message(), e.path()),
    }
}

/// Every proper prefix of a valid document is an end-of-input error, whatever the type does
/// (untagged enums try several variants; none may turn a truncation into another error).
#[track_caller]
pub fn prefixes_are_eof<T: ReflectOwned + Default + Debug>(json: &str) {
    for end in 0..json.len() {
        if !json.is_char_boundary(end) {
            continue;
        }
        let prefix = &json[..end];
        match structio::from_json::<T>(prefix) {
            Ok(v) => panic!("prefix {prefix:?} read as {v:?}"),
            Err(e) => assert!(e.is_eof(), "prefix {prefix:?}: {e}"),
        }
    }
}
