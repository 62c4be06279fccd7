//! `Reflect` for the containers of a [`Value`] on their own, so that a struct field can be a
//! [`Map`], an [`Array`], an [`IntMap`] or a [`TypedArray`].
//!
//! Each is read as a `Value` and then fitted, so that what one format writes the other reads
//! back: an `Array` field takes a BEVE typed array (as values), a `Map` field an integer-keyed
//! object (keys in decimal), an `IntMap` field a JSON object whose keys are integers of the
//! map's key type, and a `TypedArray` field a JSON array whose elements convert exactly (to the
//! field's current element type when they all fit it).

use super::reflect::{read_value, write_int_key, write_typed, write_value};
use super::{Array, IntKey, IntMap, Map, TypedArray, Value};
use crate::error::{Code, Error, PathSegment, Result};
use crate::fields::{Fields, NO_FIELDS};
use crate::reflect::{FieldsInfo, KeyKind, Reader, Reflect, ValueKind, Writer};

/// A container that can be a field on its own.
trait Part: Sized {
    /// What the document must hold, for messages.
    const EXPECTED: &'static str;
    /// Whether a value of this kind can be fitted.
    fn accepts(kind: ValueKind) -> bool;
    fn write_part<W: Writer>(&self, w: &mut W);
    /// Takes the value that was read (it starts at byte `at`).
    fn set(&mut self, v: Value, at: usize) -> Result<()>;
}

/// The error for a value that was read but does not fit.
#[cold]
fn mismatch(expected: &'static str, found: &'static str, at: usize) -> Error {
    Error::new(Code::InvalidType { expected, found }, at)
}

macro_rules! reflect_part {
    ($($t:ty),*) => {$(
        impl<'de> Reflect<'de> for $t {
            fn write<W: Writer>(&self, w: &mut W) {
                self.write_part(w)
            }
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                if !<$t>::accepts(r.peek_kind()?) {
                    return Err(r.invalid_type(<$t>::EXPECTED));
                }
                let at = r.offset();
                let v = read_value(r)?;
                self.set(v, at)
            }
            crate::impls::new_from_default!('de);
        }
    )*};
}

reflect_part!(Array, Map, IntMap, TypedArray);

impl Part for Array {
    const EXPECTED: &'static str = "an array";
    fn accepts(kind: ValueKind) -> bool {
        matches!(
            kind,
            ValueKind::Array
                | ValueKind::TypedArray(_)
                | ValueKind::BoolArray
                | ValueKind::StrArray
        )
    }
    fn write_part<W: Writer>(&self, w: &mut W) {
        w.begin_array(self.len());
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                w.sep();
            }
            write_value(v, w);
        }
        w.end_array();
    }
    fn set(&mut self, v: Value, at: usize) -> Result<()> {
        *self = match v {
            Value::Array(a) => a,
            Value::Typed(t) => Array::from(t.to_values()),
            other => return Err(mismatch(Self::EXPECTED, other.describe(), at)),
        };
        Ok(())
    }
}

impl Part for Map {
    const EXPECTED: &'static str = "an object";
    fn accepts(kind: ValueKind) -> bool {
        matches!(kind, ValueKind::Object | ValueKind::IntKeyObject(_))
    }
    fn write_part<W: Writer>(&self, w: &mut W) {
        w.begin_object(self.len());
        self.write_members(w, false);
        w.end_object();
    }
    fn set(&mut self, v: Value, at: usize) -> Result<()> {
        *self = match v {
            Value::Object(m) => m,
            Value::IntObject(mut m) => m.drain().map(|(k, v)| (k.to_string(), v)).collect(),
            other => return Err(mismatch(Self::EXPECTED, other.describe(), at)),
        };
        Ok(())
    }
}

/// A flattened `Map` keeps every key no other member of the struct takes.
impl<'de> Fields<'de> for Map {
    const INFO: &'static FieldsInfo = &NO_FIELDS;
    const REST: bool = true;
    #[inline]
    fn count_members<W: Writer>(&self, _: &W) -> usize {
        self.len()
    }
    fn write_members<W: Writer>(&self, w: &mut W, lead: bool) -> bool {
        for (i, (k, v)) in self.iter().enumerate() {
            if lead || i > 0 {
                w.sep();
            }
            w.key(k);
            write_value(v, w);
        }
        !self.is_empty()
    }
    #[inline]
    fn read_member<R: Reader<'de>>(&mut self, _: usize, _: &mut R) -> Result<()> {
        Ok(())
    }
    fn read_rest<R: Reader<'de>>(&mut self, key: &str, _: usize, r: &mut R) -> Result<()> {
        self.get_or_insert_with(key, || Value::Null)
            .read(r)
            .map_err(|e| e.push_path(PathSegment::Key(key.to_string())))
    }
    fn clear_rest(&mut self) {
        self.clear();
    }
}

impl Part for IntMap {
    const EXPECTED: &'static str = "an object with integer keys";
    fn accepts(kind: ValueKind) -> bool {
        matches!(kind, ValueKind::Object | ValueKind::IntKeyObject(_))
    }
    fn write_part<W: Writer>(&self, w: &mut W) {
        w.begin_map(self.len(), KeyKind::Int(self.kind()));
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                w.sep();
            }
            write_int_key(self.kind(), k, w);
            write_value(v, w);
        }
        w.end_object();
    }
    /// A string-keyed object (JSON) takes the field's key type; every key must be an integer
    /// of that type.
    fn set(&mut self, v: Value, at: usize) -> Result<()> {
        *self = match v {
            Value::IntObject(m) => m,
            Value::Object(m) => {
                let kind = self.kind();
                let mut out = IntMap::new(kind);
                for (k, v) in m {
                    let key = IntKey::parse(&k).ok_or_else(|| {
                        Error::new(Code::ExpectedInteger("an integer map key"), at)
                            .push_path(PathSegment::Key(k.clone()))
                    })?;
                    if let Err(e) = out.try_insert(key, v) {
                        return Err(Error::new(Code::NumberOutOfRange(e.kind.name()), at)
                            .push_path(PathSegment::Key(k)));
                    }
                }
                out
            }
            other => return Err(mismatch(Self::EXPECTED, other.describe(), at)),
        };
        Ok(())
    }
}

impl Part for TypedArray {
    const EXPECTED: &'static str = "an array";
    fn accepts(kind: ValueKind) -> bool {
        Array::accepts(kind)
    }
    fn write_part<W: Writer>(&self, w: &mut W) {
        write_typed(self, w)
    }
    /// A generic array (JSON) keeps the field's element type when every element converts to
    /// it exactly, and otherwise takes the type [`TypedArray::from_values`] picks.
    fn set(&mut self, v: Value, at: usize) -> Result<()> {
        *self = match v {
            Value::Typed(t) => t,
            Value::Array(a) => TypedArray::from_values_like(&a, self)
                .or_else(|| TypedArray::from_values(&a))
                .ok_or_else(|| {
                    mismatch(
                        "an array of numbers, booleans or strings",
                        "an array of mixed values",
                        at,
                    )
                })?,
            other => return Err(mismatch(Self::EXPECTED, other.describe(), at)),
        };
        Ok(())
    }
}
