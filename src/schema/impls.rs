//! [`JsonSchema`] for the std types that implement `Reflect` (and structio's own: `Value` and
//! its parts, `RawJson`, `Matrix`), and for the types of the optional features: each describes
//! the JSON the type's `Reflect` impl writes and reads.

use std::borrow::Cow;
use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize, Saturating, Wrapping,
};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use half::{bf16, f16};

use super::derive_support::{any, tuple};
use super::{array, object, JsonSchema, SchemaGenerator};
use crate::impls::matrix::Matrix;
use crate::impls::raw::{RawJson, RawJsonBuf};
use crate::number::Number;
use crate::value::{Array, IntMap, Map, Num, TypedArray, Value};

/// `{"type": name}`.
pub(crate) fn of_type(name: &str) -> Value {
    object([("type", Value::from(name))])
}

/// A string in the given `format`.
fn formatted(format: &str) -> Value {
    object([
        ("type", Value::from("string")),
        ("format", Value::from(format)),
    ])
}

/// An array whose elements are `items`.
fn array_of(items: Value) -> Value {
    object([("type", Value::from("array")), ("items", items)])
}

/// An array of distinct `items` (the sets).
fn set_of(items: Value) -> Value {
    object([
        ("type", Value::from("array")),
        ("items", items),
        ("uniqueItems", Value::Bool(true)),
    ])
}

/// An integer from `min` to `max`.
fn integer(min: Value, max: Value) -> Value {
    object([
        ("type", Value::from("integer")),
        ("minimum", min),
        ("maximum", max),
    ])
}

/// The keys of an object that hold integers, written in decimal: `signed` ones may have a
/// minus sign; `nonzero` ones are never `0`. The canonical spelling only (no exponent,
/// fraction, `+` or leading zero): exactly the keys the JSON reader takes (`int_key_text` in
/// `impls/primitive.rs`), so that the two agree; the range is left to the reader.
fn integer_key(signed: bool, nonzero: bool) -> Value {
    let pattern = match (signed, nonzero) {
        (false, false) => "^(0|[1-9][0-9]*)$",
        (true, false) => "^-?(0|[1-9][0-9]*)$",
        (false, true) => "^[1-9][0-9]*$",
        (true, true) => "^-?[1-9][0-9]*$",
    };
    object([
        ("type", Value::from("string")),
        ("pattern", Value::from(pattern)),
    ])
}

/// An object whose keys have the schema `keys` and whose values have the schema `values`.
/// `propertyNames` is left out for plain string keys.
fn map_of(keys: Value, values: Value) -> Value {
    let mut m = Map::new();
    m.insert("type", Value::from("object"));
    if keys != of_type("string") {
        m.insert("propertyNames", keys);
    }
    m.insert("additionalProperties", values);
    Value::Object(m)
}

/// `schema`, or `null`: the schema of an `Option` (the reader takes `null` as `None`). A
/// schema that is a plain type keeps it (`"type": ["string", "null"]`); others become
/// `anyOf` with `null`; one that already takes `null` is kept as it is.
pub(crate) fn nullable(schema: Value) -> Value {
    /// Keywords that `null` passes or that do not apply to it, so that adding `"null"` to
    /// `type` is enough.
    const PLAIN: &[&str] = &[
        "type",
        "format",
        "description",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "properties",
        "required",
        "additionalProperties",
        "propertyNames",
    ];
    let Some(m) = schema.as_object() else {
        return schema;
    };
    if m.is_empty() {
        return schema;
    }
    let types = m.get("type");
    let takes_null = match types {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(a)) => a.iter().any(|t| t == "null"),
        _ => false,
    };
    let null_variant = |k: &str| {
        m.get(k)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|v| v == &of_type("null")))
    };
    if (takes_null && m.keys().all(|k| PLAIN.contains(&k))) || null_variant("anyOf") {
        return schema;
    }
    if types.is_some() && m.keys().all(|k| PLAIN.contains(&k)) {
        let mut schema = schema;
        if let Some(m) = schema.as_object_mut() {
            let t = match m.get("type") {
                Some(Value::String(t)) => vec![Value::from(t.as_str()), Value::from("null")],
                Some(Value::Array(a)) => {
                    let mut a: Vec<Value> = a.iter().cloned().collect();
                    a.push(Value::from("null"));
                    a
                }
                _ => return schema,
            };
            m.insert("type", array(t));
        }
        return schema;
    }
    object([("anyOf", array(vec![schema, of_type("null")]))])
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl JsonSchema for $t {
            fn json_schema(_: &mut SchemaGenerator) -> Value {
                integer(Value::from(<$t>::MIN), Value::from(<$t>::MAX))
            }
            fn key_schema(_: &mut SchemaGenerator) -> Value {
                integer_key(<$t>::MIN != 0, false)
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl JsonSchema for $t {
            /// Any number: a value past the type's range is refused by the reader, but the
            /// largest finite value is spelled in more than one way, so no bound is given.
            fn json_schema(_: &mut SchemaGenerator) -> Value {
                of_type("number")
            }
        }
    )*};
}

floats!(f32, f64, f16, bf16);

macro_rules! nonzero {
    ($($nz:ident => $int:ty),* $(,)?) => {$(
        impl JsonSchema for $nz {
            fn json_schema(_: &mut SchemaGenerator) -> Value {
                if <$int>::MIN == 0 {
                    integer(Value::from(1 as $int), Value::from(<$int>::MAX))
                } else {
                    let mut s = integer(Value::from(<$int>::MIN), Value::from(<$int>::MAX));
                    if let Some(m) = s.as_object_mut() {
                        m.insert("not", object([("const", Value::from(0 as $int))]));
                    }
                    s
                }
            }
            fn key_schema(_: &mut SchemaGenerator) -> Value {
                integer_key(<$int>::MIN != 0, true)
            }
        }
    )*};
}

nonzero! {
    NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32, NonZeroU64 => u64,
    NonZeroU128 => u128, NonZeroUsize => usize, NonZeroI8 => i8, NonZeroI16 => i16,
    NonZeroI32 => i32, NonZeroI64 => i64, NonZeroI128 => i128, NonZeroIsize => isize,
}

impl JsonSchema for bool {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("boolean")
    }
}

impl JsonSchema for char {
    /// A string of one character (JSON Schema counts code points, as `char` does).
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        object([
            ("type", Value::from("string")),
            ("minLength", Value::from(1u8)),
            ("maxLength", Value::from(1u8)),
        ])
    }
}

impl JsonSchema for () {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("null")
    }
}

impl<T: ?Sized> JsonSchema for PhantomData<T> {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("null")
    }
}

macro_rules! strings {
    ($($t:ty),*) => {$(
        impl JsonSchema for $t {
            fn json_schema(_: &mut SchemaGenerator) -> Value {
                of_type("string")
            }
        }
    )*};
}

strings!(str, String, Box<str>, Rc<str>, Arc<str>);

impl JsonSchema for &str {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("string")
    }
}

impl JsonSchema for Cow<'_, str> {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("string")
    }
}

/// Types whose JSON is exactly their content's.
macro_rules! transparent {
    ($($w:ident),*) => {$(
        impl<T: JsonSchema> JsonSchema for $w<T> {
            fn json_schema(gen: &mut SchemaGenerator) -> Value {
                T::json_schema(gen)
            }
            fn key_schema(gen: &mut SchemaGenerator) -> Value {
                T::key_schema(gen)
            }
            fn may_be_absent() -> bool {
        T::may_be_absent()
    }
        }
    )*};
}

transparent!(Box, Rc, Arc, Wrapping, Saturating, Reverse);

impl<T: JsonSchema + Copy> JsonSchema for Cell<T> {
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        T::json_schema(gen)
    }
    fn may_be_absent() -> bool {
        T::may_be_absent()
    }
}

impl<T: JsonSchema> JsonSchema for Option<T> {
    /// `T` or `null`; a struct member of this type may be left out.
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        nullable(T::json_schema(gen))
    }
    fn may_be_absent() -> bool {
        true
    }
}

/// Sequences: an array of their elements.
macro_rules! sequences {
    ($($t:ty),*) => {$(
        impl<T: JsonSchema> JsonSchema for $t {
            fn json_schema(gen: &mut SchemaGenerator) -> Value {
                array_of(T::json_schema(gen))
            }
        }
    )*};
}

sequences!(Vec<T>, VecDeque<T>, LinkedList<T>, Box<[T]>, [T]);

impl<T: JsonSchema + Ord> JsonSchema for BinaryHeap<T> {
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        array_of(T::json_schema(gen))
    }
}

impl<T: JsonSchema + Clone> JsonSchema for Cow<'_, [T]> {
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        array_of(T::json_schema(gen))
    }
}

impl<T: JsonSchema, const N: usize> JsonSchema for [T; N] {
    /// An array of exactly `N` elements.
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        object([
            ("type", Value::from("array")),
            ("items", T::json_schema(gen)),
            ("minItems", Value::from(N)),
            ("maxItems", Value::from(N)),
        ])
    }
}

impl<T: JsonSchema, S> JsonSchema for HashSet<T, S> {
    /// An array of distinct elements. (Reading lets a repeated element collapse into one.)
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        set_of(T::json_schema(gen))
    }
}

impl<T: JsonSchema> JsonSchema for BTreeSet<T> {
    /// An array of distinct elements. (Reading lets a repeated element collapse into one.)
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        set_of(T::json_schema(gen))
    }
}

impl<K: JsonSchema, V: JsonSchema, S> JsonSchema for HashMap<K, V, S> {
    /// An object: keys as [`JsonSchema::key_schema`] of `K` says, values of `V`.
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        map_of(K::key_schema(gen), V::json_schema(gen))
    }
}

impl<K: JsonSchema, V: JsonSchema> JsonSchema for BTreeMap<K, V> {
    /// An object: keys as [`JsonSchema::key_schema`] of `K` says, values of `V`.
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        map_of(K::key_schema(gen), V::json_schema(gen))
    }
}

macro_rules! tuples {
    ($($name:ident)+) => {
        impl<$($name: JsonSchema),+> JsonSchema for ($($name,)+) {
            /// An array of exactly these elements, in order.
            fn json_schema(gen: &mut SchemaGenerator) -> Value {
                tuple(vec![$($name::json_schema(gen)),+])
            }
        }
    };
}

tuples!(A);
tuples!(A B);
tuples!(A B C);
tuples!(A B C D);
tuples!(A B C D E);
tuples!(A B C D E F);
tuples!(A B C D E F G);
tuples!(A B C D E F G H);
tuples!(A B C D E F G H I);
tuples!(A B C D E F G H I J);
tuples!(A B C D E F G H I J K);
tuples!(A B C D E F G H I J K L);

impl JsonSchema for Duration {
    /// Its count of nanoseconds, a non-negative integer.
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        object([
            ("type", Value::from("integer")),
            ("minimum", Value::from(0u8)),
        ])
    }
}

impl JsonSchema for SystemTime {
    /// A UTC timestamp, `2024-05-06T07:08:09.123456789Z` (format `date-time`; reading also
    /// takes text without an offset, meaning UTC).
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        formatted("date-time")
    }
}

impl JsonSchema for IpAddr {
    /// An IPv4 or IPv6 address.
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        object([
            ("type", Value::from("string")),
            (
                "anyOf",
                array(vec![
                    object([("format", Value::from("ipv4"))]),
                    object([("format", Value::from("ipv6"))]),
                ]),
            ),
        ])
    }
}

impl JsonSchema for Ipv4Addr {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        formatted("ipv4")
    }
}

impl JsonSchema for Ipv6Addr {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        formatted("ipv6")
    }
}

strings!(SocketAddr, SocketAddrV4, SocketAddrV6, PathBuf, Path);

impl JsonSchema for &Path {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("string")
    }
}

impl JsonSchema for Value {
    /// Any value.
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        any()
    }
}

impl JsonSchema for RawJson<'_> {
    /// Any value (kept as its JSON text).
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        any()
    }
}

impl JsonSchema for RawJsonBuf {
    /// Any value (kept as its JSON text).
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        any()
    }
}

impl JsonSchema for Num {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("number")
    }
}

impl JsonSchema for Array {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("array")
    }
}

impl JsonSchema for TypedArray {
    /// An array of numbers, booleans or strings.
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("array")
    }
}

impl JsonSchema for Map {
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        of_type("object")
    }
}

impl JsonSchema for IntMap {
    /// An object with integer keys.
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        object([
            ("type", Value::from("object")),
            ("propertyNames", integer_key(true, false)),
        ])
    }
}

/// The schema of a number of type `N` (an integer type with its range, or a float).
fn number<N: Number>(gen: &mut SchemaGenerator) -> Value {
    use crate::number::NumKind as K;
    match N::KIND {
        K::I8 => i8::json_schema(gen),
        K::I16 => i16::json_schema(gen),
        K::I32 => i32::json_schema(gen),
        K::I64 => i64::json_schema(gen),
        K::I128 => i128::json_schema(gen),
        K::U8 => u8::json_schema(gen),
        K::U16 => u16::json_schema(gen),
        K::U32 => u32::json_schema(gen),
        K::U64 => u64::json_schema(gen),
        K::U128 => u128::json_schema(gen),
        _ => of_type("number"),
    }
}

impl<T: Number> JsonSchema for Matrix<T> {
    /// `[extents, data]`: the size of each dimension, then the elements.
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        let extents = array_of(object([
            ("type", Value::from("integer")),
            ("minimum", Value::from(0u8)),
        ]));
        tuple(vec![extents, array_of(number::<T>(gen))])
    }
}

#[cfg(feature = "num-complex")]
impl<N: Number> JsonSchema for num_complex::Complex<N> {
    /// `[re, im]`.
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        tuple(vec![number::<N>(gen), number::<N>(gen)])
    }
}

#[cfg(feature = "serde")]
impl<T> JsonSchema for crate::serde::Serde<T> {
    /// Any value: what serde writes is not known here. A member of this type may be left out
    /// (serde's rule for a missing `Option`).
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        any()
    }
    fn may_be_absent() -> bool {
        true
    }
}

#[cfg(feature = "chrono")]
mod chrono_types {
    use super::{formatted, of_type, JsonSchema, SchemaGenerator, Value};
    use chrono::{
        DateTime, FixedOffset, Local, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Utc,
    };

    macro_rules! date_times {
        ($($tz:ty),*) => {$(
            impl JsonSchema for DateTime<$tz> {
                /// A timestamp with an offset (format `date-time`).
                fn json_schema(_: &mut SchemaGenerator) -> Value {
                    formatted("date-time")
                }
            }
        )*};
    }

    date_times!(Utc, FixedOffset, Local);

    impl JsonSchema for NaiveDateTime {
        /// A date and time without an offset, `2024-05-06T07:08:09.123456789`.
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            of_type("string")
        }
    }

    impl JsonSchema for NaiveDate {
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            formatted("date")
        }
    }

    impl JsonSchema for NaiveTime {
        /// A time of day without an offset, `07:08:09.123456789`.
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            of_type("string")
        }
    }

    impl JsonSchema for TimeDelta {
        /// Its count of nanoseconds.
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            of_type("integer")
        }
    }
}

#[cfg(feature = "time")]
mod time_types {
    use super::{formatted, of_type, JsonSchema, SchemaGenerator, Value};
    use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};

    impl JsonSchema for OffsetDateTime {
        /// A timestamp with an offset (format `date-time`).
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            formatted("date-time")
        }
    }

    impl JsonSchema for PrimitiveDateTime {
        /// A date and time without an offset.
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            of_type("string")
        }
    }

    impl JsonSchema for Date {
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            formatted("date")
        }
    }

    impl JsonSchema for Time {
        /// A time of day without an offset.
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            of_type("string")
        }
    }

    impl JsonSchema for Duration {
        /// Its count of nanoseconds.
        fn json_schema(_: &mut SchemaGenerator) -> Value {
            of_type("integer")
        }
    }
}

#[cfg(feature = "uuid")]
impl JsonSchema for uuid::Uuid {
    /// The hyphenated text (format `uuid`), as JSON writes it.
    fn json_schema(_: &mut SchemaGenerator) -> Value {
        formatted("uuid")
    }
}

#[cfg(feature = "indexmap")]
impl<K: JsonSchema, V: JsonSchema, S> JsonSchema for indexmap::IndexMap<K, V, S> {
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        map_of(K::key_schema(gen), V::json_schema(gen))
    }
}

#[cfg(feature = "indexmap")]
impl<T: JsonSchema, S> JsonSchema for indexmap::IndexSet<T, S> {
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        set_of(T::json_schema(gen))
    }
}

#[cfg(feature = "smallvec")]
impl<A: smallvec::Array> JsonSchema for smallvec::SmallVec<A>
where
    A::Item: JsonSchema,
{
    fn json_schema(gen: &mut SchemaGenerator) -> Value {
        array_of(<A::Item as JsonSchema>::json_schema(gen))
    }
}

#[cfg(feature = "bytes")]
mod bytes_types {
    use super::{array_of, JsonSchema, SchemaGenerator, Value};

    impl JsonSchema for bytes::Bytes {
        /// An array of bytes (numbers 0 to 255).
        fn json_schema(gen: &mut SchemaGenerator) -> Value {
            array_of(u8::json_schema(gen))
        }
    }

    impl JsonSchema for bytes::BytesMut {
        /// An array of bytes (numbers 0 to 255).
        fn json_schema(gen: &mut SchemaGenerator) -> Value {
            array_of(u8::json_schema(gen))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema<T: JsonSchema + ?Sized>() -> Value {
        T::json_schema(&mut SchemaGenerator::new())
    }

    #[test]
    fn options_add_null() {
        assert_eq!(
            structio_json(&schema::<Option<String>>()),
            r#"{"type":["string","null"]}"#
        );
        assert_eq!(
            structio_json(&schema::<Option<Option<u8>>>()),
            structio_json(&schema::<Option<u8>>())
        );
        assert_eq!(
            structio_json(&schema::<Option<Value>>()),
            "{}",
            "any value already takes null"
        );
        let nz = schema::<Option<NonZeroI8>>();
        assert_eq!(nz["anyOf"][1]["type"], "null");
        assert!(<Option<u8> as JsonSchema>::may_be_absent());
        assert!(<Box<Option<u8>> as JsonSchema>::may_be_absent());
        assert!(!<Vec<u8> as JsonSchema>::may_be_absent());
    }

    #[test]
    fn maps_describe_their_keys() {
        let m = schema::<HashMap<String, u8>>();
        assert!(m.get("propertyNames").is_none());
        assert_eq!(m["additionalProperties"]["maximum"].as_u64(), Some(255));
        let m = schema::<BTreeMap<i32, bool>>();
        assert_eq!(m["propertyNames"]["pattern"], "^-?(0|[1-9][0-9]*)$");
        let m = schema::<BTreeMap<NonZeroU8, bool>>();
        assert_eq!(m["propertyNames"]["pattern"], "^[1-9][0-9]*$");
    }

    #[test]
    fn fixed_lengths() {
        let a = schema::<[u8; 3]>();
        assert_eq!(a["minItems"].as_u64(), Some(3));
        assert_eq!(a["maxItems"].as_u64(), Some(3));
        let t = schema::<(u8, String)>();
        assert_eq!(t["prefixItems"][1]["type"], "string");
        assert_eq!(t["items"], false);
        let u = schema::<NonZeroU32>();
        assert_eq!(u["minimum"].as_u64(), Some(1));
        let i = schema::<NonZeroI16>();
        assert_eq!(i["not"]["const"].as_i64(), Some(0));
        assert_eq!(schema::<i128>()["minimum"].as_i128(), Some(i128::MIN));
    }

    fn structio_json(v: &Value) -> String {
        crate::to_json(v)
    }
}
