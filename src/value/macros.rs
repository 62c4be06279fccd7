//! `structio::value!`: a [`Value`](super::Value) written as JSON in Rust code.

/// A [`Value`](crate::Value) written as JSON, like `serde_json::json!`.
///
/// - `null`, `true`, `false`, numbers and strings as in JSON; arrays `[..]` and objects
///   `{"key": value, ..}` nested to any depth; trailing commas are allowed.
/// - A literal gives the value that reading the same JSON text gives: `1` and `-7` are `i64`
///   numbers, an integer beyond `i64` is a `u64`, then an `i128`/`u128`, `2.5` and `1e3` are
///   `f64`, and `-0` is the float `-0.0`. A suffixed literal keeps its type (`1u8` is a `u8`
///   number, as `Value::from(1u8)` is). String literals may use Rust's escapes and raw strings.
/// - Any other Rust expression is a value through `Value::from` (see `src/value/from.rs`: numbers
///   of every type, `bool`, `&str`, `String`, `char`, `Option<T>`, `Vec<Value>`, `Vec` of
///   numbers, strings or `bool`s (a typed array), `Map`, another `Value`): `"n": count`,
///   `"v": x.len()`, `"list": [a, b + 1]`. A value made of several tokens ends at the next comma.
/// - A key is a string literal or, in parentheses, any expression that converts into a
///   `String`: `(name): 1`, `(format!("k{i}")): true`. A repeated key keeps its first place and
///   its last value, as in JSON reading.
///
/// Like `json!`, the macro recurses once per element, so an array or object literal of more
/// than about a hundred elements needs a higher `#![recursion_limit]`.
///
/// ```
/// use structio::{value, Value};
///
/// let name = "probe";
/// let tags = vec![Value::from("a"), Value::from("b")];
/// let v = value!({
///     "name": name,
///     "count": 3,
///     "ratio": -2.5,
///     "tags": tags,
///     "big": 18446744073709551615,
///     "nested": {"ok": true, "none": null, "list": [1, "two", [3.0], {}],},
///     (format!("k{}", 1)): name.len(),
/// });
/// let same: Value = structio::from_json(r#"{
///     "name": "probe", "count": 3, "ratio": -2.5, "tags": ["a", "b"],
///     "big": 18446744073709551615,
///     "nested": {"ok": true, "none": null, "list": [1, "two", [3.0], {}]},
///     "k1": 5
/// }"#).unwrap();
/// assert_eq!(v, same);
/// // Literals keep the number kind JSON reading gives them.
/// assert_eq!(structio::to_beve(&value!([1, -7, 2.5])), structio::to_beve(&same_as("[1, -7, 2.5]")));
/// # fn same_as(text: &str) -> Value { structio::from_json(text).unwrap() }
/// ```
#[macro_export]
macro_rules! value {
    ($($value:tt)+) => {
        $crate::__value!($($value)+)
    };
}

/// The workings of [`value!`]: not an API of its own.
#[macro_export]
#[doc(hidden)]
macro_rules! __value {
    // A single token: a literal, or an expression of one token (a name, a parenthesized
    // expression). Matched as `tt` first, because a `literal` fragment that fails to parse
    // (`-x`) would end the macro with an error instead of trying the next rule.
    (@one $l:literal) => {
        $crate::__private::value_literal!($crate, $l)
    };
    (@one $e:tt) => {
        <$crate::Value as ::core::convert::From<_>>::from($e)
    };
    (@neg $l:literal) => {
        $crate::__private::value_literal!($crate, - $l)
    };
    (@neg $e:tt) => {
        <$crate::Value as ::core::convert::From<_>>::from(- $e)
    };

    // Array elements: `@array [elements so far] rest`.
    (@array [$($elems:expr,)*]) => {
        ::std::vec![$($elems,)*]
    };
    (@array [$($elems:expr,)*] - $t:tt , $($rest:tt)*) => {
        $crate::__value!(@array [$($elems,)* $crate::__value!(- $t),] $($rest)*)
    };
    (@array [$($elems:expr,)*] - $t:tt) => {
        $crate::__value!(@array [$($elems,)* $crate::__value!(- $t),])
    };
    (@array [$($elems:expr,)*] $t:tt , $($rest:tt)*) => {
        $crate::__value!(@array [$($elems,)* $crate::__value!($t),] $($rest)*)
    };
    (@array [$($elems:expr,)*] $t:tt) => {
        $crate::__value!(@array [$($elems,)* $crate::__value!($t),])
    };
    (@array [$($elems:expr,)*] $e:expr , $($rest:tt)*) => {
        $crate::__value!(@array [$($elems,)* $crate::__value!(@expr $e),] $($rest)*)
    };
    (@array [$($elems:expr,)*] $e:expr) => {
        $crate::__value!(@array [$($elems,)* $crate::__value!(@expr $e),])
    };

    // Object members: `@object map rest`, then `@member map (key) rest` for the value.
    (@object $map:ident) => {};
    (@object $map:ident $key:literal : $($rest:tt)*) => {
        $crate::__value!(@member $map ($key) $($rest)*)
    };
    (@object $map:ident ($key:expr) : $($rest:tt)*) => {
        $crate::__value!(@member $map ($key) $($rest)*)
    };
    (@member $map:ident ($key:expr) - $t:tt , $($rest:tt)*) => {
        $map.insert($key, $crate::__value!(- $t));
        $crate::__value!(@object $map $($rest)*);
    };
    (@member $map:ident ($key:expr) - $t:tt) => {
        $map.insert($key, $crate::__value!(- $t));
    };
    (@member $map:ident ($key:expr) $t:tt , $($rest:tt)*) => {
        $map.insert($key, $crate::__value!($t));
        $crate::__value!(@object $map $($rest)*);
    };
    (@member $map:ident ($key:expr) $t:tt) => {
        $map.insert($key, $crate::__value!($t));
    };
    (@member $map:ident ($key:expr) $e:expr , $($rest:tt)*) => {
        $map.insert($key, $crate::__value!(@expr $e));
        $crate::__value!(@object $map $($rest)*);
    };
    (@member $map:ident ($key:expr) $e:expr) => {
        $map.insert($key, $crate::__value!(@expr $e));
    };

    (@expr $e:expr) => {
        <$crate::Value as ::core::convert::From<_>>::from($e)
    };

    // One value.
    (null) => {
        $crate::Value::Null
    };
    ([$($elems:tt)*]) => {
        $crate::Value::Array($crate::value::Array::from($crate::__value!(@array [] $($elems)*)))
    };
    ({$($members:tt)*}) => {{
        #[allow(unused_mut)]
        let mut map = $crate::Map::new();
        $crate::__value!(@object map $($members)*);
        $crate::Value::Object(map)
    }};
    (- $t:tt) => {
        $crate::__value!(@neg $t)
    };
    ($t:tt) => {
        $crate::__value!(@one $t)
    };
    ($e:expr) => {
        $crate::__value!(@expr $e)
    };
}
