//! Helpers shared by the derive tests: `both` (the check of the case table in `table.rs` for a
//! value of any test) and the JSON reading and error helpers.

use std::fmt::Debug;

use structio::ReflectOwned;

use super::table::check;

/// Checks `v` against its exact JSON text and exact BEVE bytes (`beve` in hex, with `//`
/// comments), both written and read back, as every case of the table in `table.rs` is (see
/// [`check`] for what is checked).
#[track_caller]
pub fn both<T>(v: &T, json: &str, beve: &str)
where
    T: ReflectOwned + PartialEq + Debug,
{
    if let Err(failures) = check(v, json, beve, &[]) {
        panic!("{failures}");
    }
}

/// Reads JSON that must be valid for `T`.
#[track_caller]
pub fn from_json<T: ReflectOwned>(json: &str) -> T {
    structio::from_json::<T>(json).unwrap_or_else(|e| panic!("reading {json}: {e}"))
}

/// Reads JSON that must fail; returns the error's message and path.
#[track_caller]
pub fn json_error<T: ReflectOwned + Debug>(json: &str) -> (String, String) {
    match structio::from_json::<T>(json) {
        Ok(v) => panic!("reading {json} should fail, got {v:?}"),
        Err(e) => (e.message(), e.path()),
    }
}

/// Every proper prefix of a valid document is an end-of-input error, whatever the type does
/// (untagged enums try several variants; none may turn a truncation into another error).
#[track_caller]
pub fn prefixes_are_eof<T: ReflectOwned + Debug>(json: &str) {
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

/// Reads JSON under Glaze's rule for members a document leaves out
/// (`error_on_missing_keys: false`: they take their type's default value).
#[track_caller]
pub fn from_json_glaze<T: ReflectOwned>(json: &str) -> T {
    structio::json::from_json_with::<T>(json, &glaze_rule())
        .unwrap_or_else(|e| panic!("reading {json}: {e}"))
}

/// JSON options with Glaze's rule for members a document leaves out.
pub fn glaze_rule() -> structio::json::Options {
    structio::json::Options {
        read: structio::ReadOptions {
            error_on_missing_keys: false,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// BEVE options with Glaze's rule for members a document leaves out.
pub fn glaze_rule_beve() -> structio::beve::Options {
    structio::beve::Options {
        read: structio::ReadOptions {
            error_on_missing_keys: false,
            ..Default::default()
        },
        ..Default::default()
    }
}
