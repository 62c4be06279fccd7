//! [`Value`]: a dynamic value for documents whose shape is not known at compile time, in both
//! formats.
//!
//! A `Value` keeps what each format says exactly, so that reading and writing it back changes
//! nothing:
//!
//! | document | `Value` | written back |
//! |---|---|---|
//! | `null`, `true` | [`Value::Null`], [`Value::Bool`] | the same |
//! | a number | [`Value::Number`] holding a [`Num`] of the exact wire kind (BEVE: the header's `i8`..`u128`, `f16`, `bf16`, `f32`, `f64`; JSON: `i64`, else `u64`, else `i128`/`u128`, `f64` for fractions and exponents) | the same kind |
//! | a string | [`Value::String`] | the same |
//! | JSON array, BEVE generic array | [`Value::Array`] | a generic array |
//! | BEVE typed array (numeric, bool, string) | [`Value::Typed`] holding a [`TypedArray`] | the same typed array in BEVE, a plain array in JSON |
//! | object with string keys | [`Value::Object`] holding a [`Map`] (insertion order kept; a repeated key keeps the last value) | every member, nulls included, in order |
//! | BEVE object with integer keys | [`Value::IntObject`] holding an [`IntMap`] | the same key width in BEVE, quoted keys in JSON |
//! | BEVE extension (complex, matrix, v1 type tag) | [`Value::Extension`] holding the value's bytes | the same bytes in BEVE; JSON transcodes them |
//!
//! So BEVE -> `Value` -> BEVE is byte-identical for every Glaze-written file, and JSON ->
//! `Value` -> JSON gives the same values (whitespace and number spelling aside). A `Value` can be
//! a field of a derived struct, in either format.
//!
//! ```
//! use structio::{Map, Value};
//!
//! let mut v = Value::from_iter([("name", Value::from("probe")), ("tags", Value::from(vec![Value::from(1)]))]);
//! assert_eq!(v["name"], "probe");
//! assert_eq!(v["tags"][0].as_i64(), Some(1));
//! assert!(v["missing"].is_null());
//! v["tags"].as_array_mut().unwrap().push(Value::from(2.5));
//! v["new"] = Value::from(true); // IndexMut inserts into objects
//! assert_eq!(v.pointer("/tags/1").and_then(Value::as_f64), Some(2.5));
//! assert!(matches!(v, Value::Object(ref m) if m.len() == 3));
//! ```
//!
//! Reading, writing, equality, dropping, `Clone`, `Debug` and `Display` do not recurse, so they
//! work at any depth (reading stops at the reader's depth limit, 256 by default, which
//! [`ReadOptions::max_depth`](crate::ReadOptions::max_depth) lifts).

#![forbid(unsafe_code)]

mod access;
mod array;
mod clone;
mod convert;
mod debug;
mod display;
mod drop;
mod eq;
mod from;
mod index;
mod int_map;
pub(crate) mod json_patch;
mod macros;
mod map;
mod number;
mod parts;
mod reflect;
pub(crate) mod typed;

#[cfg(test)]
mod tokens_test;

pub use access::ValueIndex;
pub use array::Array;
pub use convert::{
    from_value, from_value_ref, from_value_ref_with, from_value_with, to_value, ValueMap, ValuePos,
    ValueReader, ValueSeq, ValueWriter,
};
pub use int_map::{IntKey, IntMap, KeyOutOfRange};
pub use json_patch::{diff, merge_patch, patch, PatchFailure};
pub use map::{Map, MapIntoIter, MapIter, MapIterMut};
pub use number::Num;
pub use typed::TypedArray;

/// Any JSON or BEVE value. See the [module documentation](self) for how each format's values
/// map to the variants.
///
/// `Clone` and `Debug` are written out rather than derived so that they do not recurse; `Debug`
/// prints what the derived impl would (`Array([Number(1i64), Null])`, and the same layout with
/// `{:#?}`).
#[derive(Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, with its exact kind.
    Number(Num),
    /// A string.
    String(String),
    /// A generic array (every JSON array; a BEVE array whose elements carry their own headers).
    Array(Array),
    /// An object with string keys.
    Object(Map),
    /// A BEVE typed array: numeric, packed bool or string elements.
    Typed(TypedArray),
    /// A BEVE object with integer keys.
    IntObject(IntMap),
    /// A complete BEVE extension value (header byte `0x?6` first: complex numbers, matrices,
    /// v1 type tags), kept verbatim. BEVE writes these bytes as they are; JSON transcodes them
    /// (a complex number becomes `[re, im]`, a matrix an object), or writes `null` if they are
    /// not one valid BEVE value. [`Value::extension`] builds one after checking the bytes.
    Extension(Vec<u8>),
}

/// What immutable indexing returns for a missing key or element.
pub(crate) static NULL: Value = Value::Null;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_small() {
        assert!(
            std::mem::size_of::<Value>() <= 40,
            "{}",
            std::mem::size_of::<Value>()
        );
        assert_eq!(std::mem::size_of::<Map>(), 32);
        assert_eq!(std::mem::size_of::<IntMap>(), 32);
    }

    #[test]
    fn value_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Value>();
    }
}
