//! Looking into a [`Value`]: `is_*`, `as_*`, `get`, indexing with `[]`, JSON pointers.

use half::{bf16, f16};

use super::{Array, IntKey, IntMap, Map, Num, TypedArray, Value, NULL};

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for super::IntKey {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

/// What can index a [`Value`]: `usize` (an array element, or a key of an integer-keyed
/// object), `&str`/`String` (a key of an object), [`IntKey`] (a key of an integer-keyed object,
/// negative ones too). Implemented only by structio.
pub trait ValueIndex: private::Sealed {
    /// The value at this index in `v`, if any.
    #[doc(hidden)]
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    /// The value at this index in `v`, mutably, if any.
    #[doc(hidden)]
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
    /// The value at this index in `v`, inserted as null if it is a missing key.
    #[doc(hidden)]
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value;
}

impl ValueIndex for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match v {
            Value::Array(a) => a.get(*self),
            Value::IntObject(m) => m.get(*self),
            _ => None,
        }
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        match v {
            Value::Array(a) => a.get_mut(*self),
            Value::IntObject(m) => m.get_mut(*self),
            _ => None,
        }
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        match v {
            Value::Array(a) => {
                let len = a.len();
                a.get_mut(*self).unwrap_or_else(|| {
                    panic!("index {self} out of bounds for an array of length {len}")
                })
            }
            Value::IntObject(m) => m.get_or_insert_with(*self, || Value::Null),
            other => panic!("cannot index {} with an integer", other.describe()),
        }
    }
}

impl ValueIndex for IntKey {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match v {
            Value::IntObject(m) => m.get(*self),
            _ => self
                .as_u64()
                .and_then(|i| usize::try_from(i).ok())?
                .index_into(v),
        }
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        match v {
            Value::IntObject(m) => m.get_mut(*self),
            _ => self
                .as_u64()
                .and_then(|i| usize::try_from(i).ok())?
                .index_into_mut(v),
        }
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        match v {
            Value::IntObject(m) => m.get_or_insert_with(*self, || Value::Null),
            other => panic!("cannot index {} with an integer key", other.describe()),
        }
    }
}

impl ValueIndex for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match v {
            Value::Object(m) => m.get(self),
            _ => None,
        }
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        match v {
            Value::Object(m) => m.get_mut(self),
            _ => None,
        }
    }
    /// A null becomes an empty object first, as in serde_json.
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_null() {
            *v = Value::Object(Map::new());
        }
        match v {
            Value::Object(m) => m.get_or_insert_with(self, || Value::Null),
            other => panic!("cannot index {} with a string key", other.describe()),
        }
    }
}

impl ValueIndex for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        self.as_str().index_or_insert(v)
    }
}

impl<T: ValueIndex + ?Sized> ValueIndex for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        (**self).index_or_insert(v)
    }
}

impl<I: ValueIndex> std::ops::Index<I> for Value {
    type Output = Value;
    /// The element or member at `index`, or `Value::Null` when there is none (a missing key,
    /// an index past the end, a value that is not a container, an element of a typed array).
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl<I: ValueIndex> std::ops::IndexMut<I> for Value {
    /// The element or member at `index`. A missing key is inserted as `null` (a `null` value
    /// indexed by a string first becomes an empty object).
    ///
    /// # Panics
    /// On an array index past the end, on a value of the wrong type (typed arrays included:
    /// convert them with [`TypedArray::to_values`]), and on an integer key that does not fit an
    /// integer-keyed object's key type.
    fn index_mut(&mut self, index: I) -> &mut Value {
        index.index_or_insert(self)
    }
}

/// Defines `as_*_slice` accessors for the numeric typed arrays.
macro_rules! slice_accessors {
    ($($name:ident: $t:ty => $variant:ident),*) => {$(
        #[doc = concat!("The elements of a typed array of `", stringify!($t), "`.")]
        pub fn $name(&self) -> Option<&[$t]> {
            match self {
                Value::Typed(TypedArray::$variant(v)) => Some(v),
                _ => None,
            }
        }
    )*};
}

impl Value {
    /// A short description of the kind of value, for messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            Value::Typed(_) => "a typed array",
            Value::IntObject(_) => "an integer-keyed object",
            Value::Extension(_) => "an extension value",
        }
    }

    /// The element or member at `index` (see [`ValueIndex`]), if there is one.
    ///
    /// ```
    /// let v: structio::Value = structio::from_json(r#"{"a": [10, 20]}"#).unwrap();
    /// assert_eq!(v.get("a").and_then(|a| a.get(1)), Some(&structio::Value::from(20)));
    /// assert_eq!(v.get("b"), None);
    /// ```
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// The element or member at `index`, mutably, if there is one.
    pub fn get_mut<I: ValueIndex>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// Follows a JSON pointer (RFC 6901): `""` is the value itself, `"/a/0"` the first element
    /// of member `a`; `~1` stands for `/` and `~0` for `~` in keys. Tokens index arrays as
    /// decimal numbers without leading zeros and integer-keyed objects as integers. A text that
    /// is not a pointer (not empty and not starting with `/`, or with a `~` followed by anything
    /// but `0` or `1`) finds nothing.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut v = self;
        for token in pointer_tokens(pointer)? {
            v = step(v, &token)?;
        }
        Some(v)
    }

    /// Follows a JSON pointer (see [`Value::pointer`]), mutably.
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut v = self;
        for token in pointer_tokens(pointer)? {
            v = step_mut(v, &token)?;
        }
        Some(v)
    }

    /// Takes the value out, leaving `Value::Null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether the value is a boolean.
    pub fn is_bool(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether the value is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether the value is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether the value is an array, generic or typed.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_) | Value::Typed(_))
    }

    /// Whether the value is an object, string- or integer-keyed.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_) | Value::IntObject(_))
    }

    /// Whether the value is a number that converts to `i64` without loss.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether the value is a number that converts to `u64` without loss.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether the value is a number of a floating-point kind.
    pub fn is_f64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_float())
    }

    /// The boolean, if the value is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if the value is one.
    pub fn as_number(&self) -> Option<Num> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is one that converts without loss (`3.0` does).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as a `u64`, if it is one that converts without loss.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as an `i128`, if it is one that converts without loss.
    pub fn as_i128(&self) -> Option<i128> {
        self.as_number()?.as_i128()
    }

    /// The number as a `u128`, if it is one that converts without loss.
    pub fn as_u128(&self) -> Option<u128> {
        self.as_number()?.as_u128()
    }

    /// The number as an `f64`, if it is one that converts without loss (every float does; an
    /// integer does when `f64` holds it exactly). See [`Num::as_f64_lossy`] for the nearest.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The string, mutably, if the value is one.
    pub fn as_string_mut(&mut self) -> Option<&mut String> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of a generic array. A typed array gives `None`: see [`Value::as_typed`]
    /// and the `as_*_slice` methods.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements of a generic array, mutably.
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The typed array, if the value is one.
    pub fn as_typed(&self) -> Option<&TypedArray> {
        match self {
            Value::Typed(t) => Some(t),
            _ => None,
        }
    }

    /// The typed array, mutably, if the value is one.
    pub fn as_typed_mut(&mut self) -> Option<&mut TypedArray> {
        match self {
            Value::Typed(t) => Some(t),
            _ => None,
        }
    }

    /// The number of elements of an array (generic or typed) or members of an object (string-
    /// or integer-keyed); `None` for other values.
    pub fn len(&self) -> Option<usize> {
        match self {
            Value::Array(a) => Some(a.len()),
            Value::Typed(t) => Some(t.len()),
            Value::Object(m) => Some(m.len()),
            Value::IntObject(m) => Some(m.len()),
            _ => None,
        }
    }

    /// Whether the value is an empty array or object (`false` for other values).
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    slice_accessors!(as_i8_slice: i8 => I8, as_i16_slice: i16 => I16, as_i32_slice: i32 => I32,
        as_i64_slice: i64 => I64, as_i128_slice: i128 => I128, as_u8_slice: u8 => U8,
        as_u16_slice: u16 => U16, as_u32_slice: u32 => U32, as_u64_slice: u64 => U64,
        as_u128_slice: u128 => U128, as_f16_slice: f16 => F16, as_bf16_slice: bf16 => BF16,
        as_f32_slice: f32 => F32, as_f64_slice: f64 => F64, as_bool_slice: bool => Bool,
        as_string_slice: String => Str);

    /// The members of a string-keyed object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The members of a string-keyed object, mutably.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The members of an integer-keyed object.
    pub fn as_int_object(&self) -> Option<&IntMap> {
        match self {
            Value::IntObject(m) => Some(m),
            _ => None,
        }
    }

    /// The members of an integer-keyed object, mutably.
    pub fn as_int_object_mut(&mut self) -> Option<&mut IntMap> {
        match self {
            Value::IntObject(m) => Some(m),
            _ => None,
        }
    }

    /// A [`Value::Extension`] holding `bytes`, after checking that they are exactly one valid
    /// BEVE extension value (a complex number, a matrix, a v1 type tag).
    ///
    /// ```
    /// use structio::Value;
    /// let mut c = vec![0x1e, 0x60]; // complex<f64>
    /// c.extend(1.0f64.to_le_bytes());
    /// c.extend(2.0f64.to_le_bytes());
    /// let v = Value::extension(c).unwrap();
    /// assert_eq!(v.to_string(), "[1,2]");
    /// assert!(Value::extension(vec![0x1e, 0x60, 0]).is_err()); // truncated
    /// assert!(Value::extension(vec![0x00]).is_err()); // null is not an extension
    /// ```
    pub fn extension(bytes: Vec<u8>) -> crate::Result<Value> {
        match crate::from_beve::<Value>(&bytes)? {
            Value::Extension(_) => Ok(Value::Extension(bytes)),
            other => Err(crate::error::Error::new(
                crate::error::Code::InvalidType {
                    expected: "a BEVE extension value",
                    found: other.describe(),
                },
                0,
            )),
        }
    }

    /// The bytes of a BEVE extension value, header included.
    pub fn as_extension(&self) -> Option<&[u8]> {
        match self {
            Value::Extension(b) => Some(b),
            _ => None,
        }
    }
}

/// The unescaped reference tokens of a JSON pointer; `None` if it is not one (neither empty
/// nor starting with `/`, or with a `~` not followed by `0` or `1`).
fn pointer_tokens(pointer: &str) -> Option<crate::pointer::Tokens<'_>> {
    crate::pointer::Pointer::parse(pointer)
        .ok()
        .map(crate::pointer::Pointer::tokens)
}

/// A pointer token as an array index: decimal digits, no leading zero, no sign.
fn token_index(t: &str) -> Option<usize> {
    crate::pointer::index(t).ok()
}

fn step<'v>(v: &'v Value, t: &str) -> Option<&'v Value> {
    match v {
        Value::Object(m) => m.get(t),
        Value::Array(a) => a.get(token_index(t)?),
        Value::IntObject(m) => m.get(IntKey::parse(t)?),
        _ => None,
    }
}

fn step_mut<'v>(v: &'v mut Value, t: &str) -> Option<&'v mut Value> {
    match v {
        Value::Object(m) => m.get_mut(t),
        Value::Array(a) => a.get_mut(token_index(t)?),
        Value::IntObject(m) => m.get_mut(IntKey::parse(t)?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::NumKind;

    fn sample() -> Value {
        let mut ints = IntMap::new(NumKind::I32);
        ints.insert(-4, Value::from("minus four"));
        ints.insert(7, Value::from("seven"));
        Value::from_iter([
            ("a", Value::from(vec![Value::from(1), Value::from("x")])),
            ("a/b", Value::from(1)),
            ("m~n", Value::from(2)),
            ("t", Value::from(vec![1.5f64, 2.5])),
            ("ints", Value::IntObject(ints)),
            ("n", Value::from(u64::MAX)),
        ])
    }

    #[test]
    fn index_get_and_missing() {
        let v = sample();
        assert_eq!(v["a"][0], 1);
        assert_eq!(v["a"][1].as_str(), Some("x"));
        assert!(v["a"][2].is_null());
        assert!(v["nope"]["deeper"][3].is_null());
        assert_eq!(v["ints"][7], "seven");
        assert_eq!(v["ints"][IntKey::from(-4)], "minus four");
        assert!(v["t"][0].is_null(), "typed arrays have no Value elements");
        assert_eq!(v.get("a").and_then(|a| a.get(1)), Some(&Value::from("x")));
        assert_eq!(v.get(0), None);
        assert_eq!(v["a"].get("k"), None);
        assert_eq!(
            v.get(String::from("n")).and_then(Value::as_u64),
            Some(u64::MAX)
        );
        assert_eq!(v["n"].as_i64(), None);
        assert_eq!(v["t"].as_f64_slice(), Some(&[1.5, 2.5][..]));
        assert_eq!(v["t"].as_f32_slice(), None);
        assert_eq!(
            v["t"].as_typed().and_then(|t| t.get(1)),
            Some(Value::from(2.5))
        );
        assert_eq!(v.len(), Some(6));
        assert_eq!(v["t"].len(), Some(2));
        assert!(v.is_object() && v["ints"].is_object() && v["t"].is_array());
        assert!(v["a"].as_array().is_some() && v["t"].as_array().is_none());
        assert!(v["ints"].as_int_object().is_some() && v["ints"].as_object().is_none());
    }

    #[test]
    fn index_mut_inserts() {
        let mut v = Value::Null;
        v["a"]["b"] = Value::from(1);
        assert_eq!(v["a"]["b"], 1);
        v["list"] = Value::from(vec![Value::Null]);
        v["list"][0] = Value::from("set");
        assert_eq!(v["list"][0], "set");
        let mut ints = IntMap::new(NumKind::U8);
        ints.insert(1u8, Value::Null);
        v["ints"] = Value::IntObject(ints);
        v["ints"][2] = Value::from(true);
        v["ints"][IntKey::from(3u8)] = Value::from(false);
        assert_eq!(v["ints"].len(), Some(3));
        *v.get_mut("a").unwrap() = Value::from(5);
        assert_eq!(v["a"], 5);
        assert_eq!(v["list"].take(), Value::from(vec![Value::from("set")]));
        assert!(v["list"].is_null());
        if let Some(s) = v.pointer_mut("/a") {
            *s = Value::from("p");
        }
        assert_eq!(v["a"], "p");
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn index_mut_past_the_end_panics() {
        let mut v = Value::from(vec![Value::Null]);
        v[1] = Value::Null;
    }

    #[test]
    #[should_panic(expected = "cannot index a typed array with an integer")]
    fn index_mut_into_typed_array_panics() {
        let mut v = Value::from(vec![1.0f64]);
        v[0] = Value::Null;
    }

    #[test]
    #[should_panic(expected = "cannot index a number with a string key")]
    fn index_mut_into_number_panics() {
        let mut v = Value::from(1);
        v["a"] = Value::Null;
    }

    #[test]
    fn pointers() {
        let v = sample();
        assert_eq!(v.pointer(""), Some(&v));
        assert_eq!(v.pointer("/a/1"), Some(&Value::from("x")));
        assert_eq!(v.pointer("/a~1b"), Some(&Value::from(1)));
        assert_eq!(v.pointer("/m~0n"), Some(&Value::from(2)));
        assert_eq!(v.pointer("/ints/-4"), Some(&Value::from("minus four")));
        assert_eq!(v.pointer("/ints/7"), Some(&Value::from("seven")));
        assert_eq!(v.pointer("/ints/07"), None);
        assert_eq!(v.pointer("/a/01"), None);
        assert_eq!(v.pointer("/a/-"), None);
        assert_eq!(v.pointer("/a/+1"), None);
        assert_eq!(v.pointer("a"), None);
        assert_eq!(v.pointer("/t/0"), None);
        assert_eq!(v.pointer("/missing"), None);
        // Strict RFC 6901: a `~` not followed by `0` or `1` makes no pointer.
        assert_eq!(v.pointer("/~2"), None);
        assert_eq!(v.pointer("/a~"), None);
    }

    #[test]
    fn as_accessors() {
        assert_eq!(Value::from(true).as_bool(), Some(true));
        assert_eq!(Value::from(1).as_bool(), None);
        assert_eq!(Value::from(2.0).as_i64(), Some(2));
        assert!(Value::from(2.0).is_f64() && Value::from(2.0).is_i64());
        assert!(!Value::from(2.5).is_i64() && !Value::from(-1).is_u64());
        assert_eq!(Value::from(-1i128).as_i128(), Some(-1));
        assert_eq!(Value::from(u128::MAX).as_u128(), Some(u128::MAX));
        assert_eq!(Value::from((1u64 << 53) + 1).as_f64(), None);
        let mut s = Value::from("ab");
        s.as_string_mut().unwrap().push('c');
        assert_eq!(s.as_str(), Some("abc"));
        assert_eq!(
            Value::Extension(vec![0x1e]).as_extension(),
            Some(&[0x1eu8][..])
        );
        assert_eq!(Value::from(vec![true]).as_bool_slice(), Some(&[true][..]));
        assert_eq!(
            Value::from(vec!["s".to_string()]).as_string_slice(),
            Some(&["s".to_string()][..])
        );
        assert!(Value::from(Vec::<Value>::new()).is_empty());
        assert!(!Value::Null.is_empty());
        let mut t = Value::from(vec![1u16]);
        if let Some(TypedArray::U16(v)) = t.as_typed_mut() {
            v.push(2);
        }
        assert_eq!(t.as_u16_slice(), Some(&[1u16, 2][..]));
        let mut o = Value::from_iter([("k", 1)]);
        o.as_object_mut().unwrap().insert("l", Value::Null);
        assert_eq!(o.as_object().map(Map::len), Some(2));
    }
}
