//! `Serialize` and `Deserialize` for [`Value`], for use with any serde format.
//!
//! A number keeps its kind (an `i8` stays an `i8`, `f16` and `bf16` become `f32`); a typed
//! array is a sequence of its elements; an integer-keyed object is a map with integer keys of
//! its key type; a BEVE extension value goes through the newtype struct
//! `"$structio::beve_extension"` holding its bytes (the bridge writes them verbatim, other
//! formats see the bytes). Reading, a map whose keys are integers becomes an integer-keyed
//! object (keyed by the type its format gives, `i64` when it gives none), and a map whose first
//! key is `"$structio::beve_extension"` an extension value again.

use std::fmt;

use ::serde::de::{self, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{SerializeMap, Serializer};
use ::serde::{Deserialize, Deserializer, Serialize};

use super::ser::EXTENSION;
use crate::number::{NumKind, Number, Wire};
use crate::value::{Array, IntKey, IntMap, Map, Num, TypedArray, Value};

/// Serializes a number of kind `kind` with the method of that type.
fn number<S: Serializer>(kind: NumKind, w: Wire, s: S) -> Result<S::Ok, S::Error> {
    // `w` comes from a number of this kind, so each conversion succeeds.
    match kind {
        NumKind::I8 => s.serialize_i8(i8::from_wire(w).unwrap_or_default()),
        NumKind::I16 => s.serialize_i16(i16::from_wire(w).unwrap_or_default()),
        NumKind::I32 => s.serialize_i32(i32::from_wire(w).unwrap_or_default()),
        NumKind::I64 => s.serialize_i64(i64::from_wire(w).unwrap_or_default()),
        NumKind::I128 => s.serialize_i128(i128::from_wire(w).unwrap_or_default()),
        NumKind::U8 => s.serialize_u8(u8::from_wire(w).unwrap_or_default()),
        NumKind::U16 => s.serialize_u16(u16::from_wire(w).unwrap_or_default()),
        NumKind::U32 => s.serialize_u32(u32::from_wire(w).unwrap_or_default()),
        NumKind::U64 => s.serialize_u64(u64::from_wire(w).unwrap_or_default()),
        NumKind::U128 => s.serialize_u128(u128::from_wire(w).unwrap_or_default()),
        NumKind::F16 | NumKind::BF16 | NumKind::F32 => {
            s.serialize_f32(f32::from_wire(w).unwrap_or_default())
        }
        NumKind::F64 => s.serialize_f64(f64::from_wire(w).unwrap_or_default()),
    }
}

/// An element of an `f16` or `bf16` typed array (as an `f32`).
struct Elem<N>(N);

impl<N: Number> Serialize for Elem<N> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        number(N::KIND, self.0.to_wire(), s)
    }
}

/// A key of an integer-keyed object, as an integer of the object's key type.
struct IntKeyOf(NumKind, IntKey);

impl Serialize for IntKeyOf {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        number(self.0, self.1.to_wire(), s)
    }
}

/// An integer key as the map's key type `N` (which it fits).
fn key<N: Number>(k: IntKey) -> N {
    N::from_wire(k.to_wire()).unwrap_or_default()
}

/// The bytes of an extension value.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        number(self.kind(), self.to_wire(), s)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(t) => s.serialize_str(t),
            Value::Array(a) => s.collect_seq(a.iter()),
            Value::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m.iter() {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Value::Typed(t) => match t {
                TypedArray::I8(v) => s.collect_seq(v),
                TypedArray::I16(v) => s.collect_seq(v),
                TypedArray::I32(v) => s.collect_seq(v),
                TypedArray::I64(v) => s.collect_seq(v),
                TypedArray::I128(v) => s.collect_seq(v),
                TypedArray::U8(v) => s.collect_seq(v),
                TypedArray::U16(v) => s.collect_seq(v),
                TypedArray::U32(v) => s.collect_seq(v),
                TypedArray::U64(v) => s.collect_seq(v),
                TypedArray::U128(v) => s.collect_seq(v),
                TypedArray::F16(v) => s.collect_seq(v.iter().map(|&x| Elem(x))),
                TypedArray::BF16(v) => s.collect_seq(v.iter().map(|&x| Elem(x))),
                TypedArray::F32(v) => s.collect_seq(v),
                TypedArray::F64(v) => s.collect_seq(v),
                TypedArray::Bool(v) => s.collect_seq(v),
                TypedArray::Str(v) => s.collect_seq(v),
            },
            // Keys of the map's integer type, so that an empty map keeps its key type (the
            // map only holds keys that fit it).
            Value::IntObject(m) => match m.kind() {
                NumKind::I8 => s.collect_map(m.iter().map(|(k, v)| (key::<i8>(k), v))),
                NumKind::I16 => s.collect_map(m.iter().map(|(k, v)| (key::<i16>(k), v))),
                NumKind::I32 => s.collect_map(m.iter().map(|(k, v)| (key::<i32>(k), v))),
                NumKind::I64 => s.collect_map(m.iter().map(|(k, v)| (key::<i64>(k), v))),
                NumKind::I128 => s.collect_map(m.iter().map(|(k, v)| (key::<i128>(k), v))),
                NumKind::U8 => s.collect_map(m.iter().map(|(k, v)| (key::<u8>(k), v))),
                NumKind::U16 => s.collect_map(m.iter().map(|(k, v)| (key::<u16>(k), v))),
                NumKind::U32 => s.collect_map(m.iter().map(|(k, v)| (key::<u32>(k), v))),
                NumKind::U64 => s.collect_map(m.iter().map(|(k, v)| (key::<u64>(k), v))),
                NumKind::U128 => s.collect_map(m.iter().map(|(k, v)| (key::<u128>(k), v))),
                kind => {
                    let mut map = s.serialize_map(Some(m.len()))?;
                    for (k, v) in m.iter() {
                        map.serialize_entry(&IntKeyOf(kind, k), v)?;
                    }
                    map.end()
                }
            },
            Value::Extension(bytes) => s.serialize_newtype_struct(EXTENSION, &Bytes(bytes)),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        match d.deserialize_any(ValueVisitor)? {
            Value::Number(n) => Ok(n),
            other => Err(de::Error::custom(format_args!(
                "expected a number, found {}",
                other.describe()
            ))),
        }
    }
}

/// Elements reserved up front at most, whatever a format announces.
const RESERVE_MAX: usize = 4096;

struct ValueVisitor;

/// Visit methods of numbers: a [`Num`] of that type.
macro_rules! visit_numbers {
    ($($method:ident: $t:ty),*) => {$(
        fn $method<E: de::Error>(self, v: $t) -> Result<Value, E> {
            Ok(Value::Number(Num::from(v)))
        }
    )*};
}

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    visit_numbers!(visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
        visit_u128: u128, visit_f32: f32, visit_f64: f64);

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Typed(TypedArray::U8(v.to_vec())))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Typed(TypedArray::U8(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(RESERVE_MAX));
        while let Some(v) = seq.next_element::<Value>()? {
            items.push(v);
        }
        Ok(Value::Array(Array::from(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        match map.next_key::<AnyKey>()? {
            None => Ok(Value::Object(Map::new())),
            Some(AnyKey::Str(k)) if k == EXTENSION => {
                let bytes = map.next_value::<ByteBuf>()?.0;
                Value::extension(bytes).map_err(|e| de::Error::custom(e.message()))
            }
            Some(AnyKey::Str(first)) => {
                let mut m = Map::new();
                let v = map.next_value::<Value>()?;
                m.insert(first, v);
                while let Some(k) = map.next_key::<AnyKey>()? {
                    let AnyKey::Str(k) = k else {
                        return Err(de::Error::custom(
                            "a map mixes string keys and integer keys",
                        ));
                    };
                    let v = map.next_value::<Value>()?;
                    m.insert(k, v);
                }
                Ok(Value::Object(m))
            }
            Some(AnyKey::Int(kind, first)) => {
                let mut m = IntMap::new(kind);
                let v = map.next_value::<Value>()?;
                insert_int(&mut m, first, v)?;
                while let Some(k) = map.next_key::<AnyKey>()? {
                    let AnyKey::Int(_, k) = k else {
                        return Err(de::Error::custom(
                            "a map mixes string keys and integer keys",
                        ));
                    };
                    let v = map.next_value::<Value>()?;
                    insert_int(&mut m, k, v)?;
                }
                Ok(Value::IntObject(m))
            }
        }
    }
}

/// Inserts an entry into an integer-keyed object, the key checked against its type.
fn insert_int<E: de::Error>(m: &mut IntMap, k: IntKey, v: Value) -> Result<(), E> {
    m.try_insert(k, v)
        .map(|_| ())
        .map_err(|e| E::custom(e.to_string()))
}

/// A map key: a string, or an integer of the type its format gives.
enum AnyKey {
    Str(String),
    Int(NumKind, IntKey),
}

impl<'de> Deserialize<'de> for AnyKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AnyKey, D::Error> {
        d.deserialize_any(AnyKeyVisitor)
    }
}

struct AnyKeyVisitor;

/// Visit methods of integer keys.
macro_rules! visit_int_keys {
    ($($method:ident: $t:ty),*) => {$(
        fn $method<E: de::Error>(self, v: $t) -> Result<AnyKey, E> {
            Ok(AnyKey::Int(<$t as Number>::KIND, IntKey::from(v)))
        }
    )*};
}

impl<'de> Visitor<'de> for AnyKeyVisitor {
    type Value = AnyKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or integer key")
    }

    visit_int_keys!(visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
        visit_u128: u128);

    fn visit_str<E: de::Error>(self, v: &str) -> Result<AnyKey, E> {
        Ok(AnyKey::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<AnyKey, E> {
        Ok(AnyKey::Str(v))
    }
}

/// Bytes, from serde's bytes or from a sequence of `u8`.
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ByteBuf, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ByteBuf, A::Error> {
                let mut v = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    v.push(b);
                }
                Ok(ByteBuf(v))
            }
        }
        d.deserialize_bytes(V)
    }
}
