//! Building values: `From` for primitives, strings, containers, and `FromIterator`.
//!
//! A `Vec` of numbers, `bool`s or `String`s becomes a [`TypedArray`], as the same `Vec` in a
//! derived struct would be written; a `Vec<Value>` becomes a generic array.

use std::borrow::Cow;

use half::{bf16, f16};

use super::{Array, IntMap, Map, Num, TypedArray, Value};

macro_rules! from_number {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            #[inline]
            fn from(v: $t) -> Value {
                Value::Number(Num::from(v))
            }
        }
    )*};
}

from_number!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f16, bf16, f32, f64);

macro_rules! from_typed {
    ($($t:ty),*) => {$(
        impl From<Vec<$t>> for Value {
            #[inline]
            fn from(v: Vec<$t>) -> Value {
                Value::Typed(TypedArray::from(v))
            }
        }
        impl From<&[$t]> for Value {
            #[inline]
            fn from(v: &[$t]) -> Value {
                Value::Typed(TypedArray::from(v))
            }
        }
    )*};
}

from_typed!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, f16, bf16, f32, f64, bool, String);

impl From<Num> for Value {
    fn from(n: Num) -> Value {
        Value::Number(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Value {
        Value::String(s.into_owned())
    }
}

impl From<char> for Value {
    /// A one-character string, as structio writes a `char`.
    fn from(c: char) -> Value {
        Value::String(c.to_string())
    }
}

impl From<()> for Value {
    /// `null`.
    fn from(_: ()) -> Value {
        Value::Null
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// The value, or `null` for `None`.
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Value {
        Value::Array(Array::from(v))
    }
}

impl From<Vec<&str>> for Value {
    /// A string array.
    fn from(v: Vec<&str>) -> Value {
        Value::Typed(TypedArray::from(v))
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Value {
        Value::Array(a)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl From<IntMap> for Value {
    fn from(m: IntMap) -> Value {
        Value::IntObject(m)
    }
}

impl From<TypedArray> for Value {
    fn from(t: TypedArray) -> Value {
        Value::Typed(t)
    }
}

impl FromIterator<Value> for Value {
    /// A generic array.
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Value {
        Value::Array(iter.into_iter().collect())
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Value {
    /// An object; a repeated key keeps its first position and its last value.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Value {
        Value::Object(iter.into_iter().collect())
    }
}

impl std::str::FromStr for Value {
    type Err = crate::Error;
    /// Reads JSON text.
    fn from_str(s: &str) -> crate::Result<Value> {
        crate::from_json(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::NumKind;

    #[test]
    fn from_primitives_keeps_kinds() {
        assert_eq!(
            Value::from(1u16).as_number().map(|n| n.kind()),
            Some(NumKind::U16)
        );
        assert_eq!(
            Value::from(1usize).as_number().map(|n| n.kind()),
            Some(NumKind::U64)
        );
        assert_eq!(
            Value::from(f16::ONE).as_number().map(|n| n.kind()),
            Some(NumKind::F16)
        );
        assert_eq!(Value::from(bf16::ONE), 1);
        assert_eq!(Value::from('x'), "x");
        assert_eq!(Value::from(()), Value::Null);
        assert_eq!(Value::from(None::<i32>), Value::Null);
        assert_eq!(Value::from(Some("a")), "a");
        assert_eq!(Value::from(Cow::Borrowed("c")), "c");
        assert_eq!(Value::from(String::from("s")), "s");
    }

    #[test]
    fn from_containers() {
        assert!(matches!(
            Value::from(vec![1.0f32]),
            Value::Typed(TypedArray::F32(_))
        ));
        assert!(matches!(
            Value::from(&[1u8][..]),
            Value::Typed(TypedArray::U8(_))
        ));
        assert!(matches!(
            Value::from(vec!["a"]),
            Value::Typed(TypedArray::Str(_))
        ));
        assert!(matches!(Value::from(vec![Value::Null]), Value::Array(_)));
        assert!(matches!(Value::from(Map::new()), Value::Object(_)));
        assert!(matches!(
            Value::from(IntMap::new(NumKind::U8)),
            Value::IntObject(_)
        ));
        let a: Value = (0..3).map(Value::from).collect();
        assert_eq!(a.len(), Some(3));
        let o: Value = [("a", 1), ("b", 2), ("a", 3)].into_iter().collect();
        assert_eq!(
            o.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(o["a"], 3);
    }
}
