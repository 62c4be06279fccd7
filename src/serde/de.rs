//! The serde `Deserializer` over any structio [`Reader`]: each serde request becomes the reader
//! call a derived type makes for the same value, and errors leave with structio's offset and
//! path.
//!
//! - Strings the reader can borrow (JSON without escapes, every BEVE string) are visited with
//!   `visit_borrowed_str`, so `&'de str` fields work; others with `visit_str`.
//! - Struct keys are matched against the struct's field names (the one after the last one
//!   read first, as the derive does) and handed to the visitor as the static name; a key no
//!   field has is an error under [`UnknownKeys::Error`] (structio's default) and is handed to
//!   the visitor under [`UnknownKeys::Skip`] (serde then ignores it, or reports it for
//!   `deny_unknown_fields`).
//! - Errors get the path the derive gives them: `.field` for struct members and enum
//!   variants, `[3]` for elements, `["key"]` for map entries. An error a `Visitor` or a
//!   `Deserialize` impl makes has no offset; it gets that of the value it was given (the key,
//!   for an error about a key; the end of the object, for a missing field).

use std::borrow::Cow;

use ::serde::de::value::{BorrowedBytesDeserializer, BorrowedStrDeserializer, U32Deserializer};
use ::serde::de::{
    self, DeserializeSeed, Deserializer as _, EnumAccess, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};

use super::ser::{by_num_kind, EXTENSION};
use crate::error::{Code, Error, PathSegment, Result};
use crate::number::{NumKind, Number, Wire};
use crate::read::offset_at;
use crate::reflect::{Key, MapKey, NextField, Reader, Str, UnknownKeys, ValueKind};

/// The deserializer: a reader, borrowed for one value.
pub(crate) struct De<'r, R> {
    pub(crate) r: &'r mut R,
}

/// `e` with the offset of the value at `mark` when it has none yet.
#[cold]
#[inline(never)]
pub(crate) fn placed<'de, R: Reader<'de>>(e: Error, r: &mut R, mark: R::Pos) -> Error {
    if e.is_unplaced() {
        let at = offset_at(r, mark);
        e.place(at)
    } else {
        e
    }
}

/// `e` with the reader's current offset when it has none yet.
#[cold]
#[inline(never)]
fn placed_here<'de, R: Reader<'de>>(e: Error, r: &mut R) -> Error {
    if e.is_unplaced() {
        let at = r.offset();
        e.place(at)
    } else {
        e
    }
}

/// Visits a JSON number by the rule [`crate::Value`] reads them with: `i64` when it fits,
/// else `u64`, else `i128`/`u128`; `f64` for fractions and exponents.
#[inline]
fn visit_json_number<'de, V: Visitor<'de>>(w: Wire, visitor: V) -> Result<V::Value> {
    match w {
        Wire::Int(v) => match i64::try_from(v) {
            Ok(i) => visitor.visit_i64(i),
            Err(_) => visitor.visit_i128(v),
        },
        Wire::Uint(v) => match i64::try_from(v) {
            Ok(i) => visitor.visit_i64(i),
            Err(_) => match u64::try_from(v) {
                Ok(u) => visitor.visit_u64(u),
                Err(_) => visitor.visit_u128(v),
            },
        },
        Wire::F32(v) => visitor.visit_f32(v),
        Wire::F64(v) => visitor.visit_f64(v),
    }
}

/// Visits a number of a known kind with the visit method of that type (`f16` and `bf16` as
/// `f32`, the narrowest serde type that holds them).
#[inline]
fn visit_kind<'de, V: Visitor<'de>>(kind: NumKind, w: Wire, visitor: V) -> Result<V::Value> {
    // The reader produced `w` from a number of this kind, so the conversions succeed.
    match kind {
        NumKind::I8 => visitor.visit_i8(i8::from_wire(w).unwrap_or_default()),
        NumKind::I16 => visitor.visit_i16(i16::from_wire(w).unwrap_or_default()),
        NumKind::I32 => visitor.visit_i32(i32::from_wire(w).unwrap_or_default()),
        NumKind::I64 => visitor.visit_i64(i64::from_wire(w).unwrap_or_default()),
        NumKind::I128 => visitor.visit_i128(i128::from_wire(w).unwrap_or_default()),
        NumKind::U8 => visitor.visit_u8(u8::from_wire(w).unwrap_or_default()),
        NumKind::U16 => visitor.visit_u16(u16::from_wire(w).unwrap_or_default()),
        NumKind::U32 => visitor.visit_u32(u32::from_wire(w).unwrap_or_default()),
        NumKind::U64 => visitor.visit_u64(u64::from_wire(w).unwrap_or_default()),
        NumKind::U128 => visitor.visit_u128(u128::from_wire(w).unwrap_or_default()),
        NumKind::F16 | NumKind::BF16 | NumKind::F32 => {
            visitor.visit_f32(f32::from_wire(w).unwrap_or_default())
        }
        NumKind::F64 => visitor.visit_f64(f64::from_wire(w).unwrap_or_default()),
    }
}

/// Deserialize methods for numbers: the reader's `read_number`, then the visitor. A visitor's
/// error gets its offset from the caller: the element, member or document the number is
/// (every value is read from one of them, and starts where it does).
macro_rules! numbers {
    ($($method:ident => $visit:ident: $t:ty),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let v = self.r.read_number::<$t>()?;
            visitor.$visit(v)
        }
    )*};
}

impl<'de, R: Reader<'de>> de::Deserializer<'de> for De<'_, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.r;
        let mark = r.save();
        let res = match r.peek_kind()? {
            ValueKind::Null => {
                r.take_null()?;
                visitor.visit_unit()
            }
            ValueKind::Bool => {
                let b = r.read_bool()?;
                visitor.visit_bool(b)
            }
            ValueKind::Number(None) => {
                let w = r.read_wire_number()?;
                visit_json_number(w, visitor)
            }
            ValueKind::Number(Some(k)) => {
                let w = by_num_kind!(k, N => r.read_number::<N>()?.to_wire());
                visit_kind(k, w, visitor)
            }
            ValueKind::String => match r.read_str()? {
                Str::Borrowed(s) => visitor.visit_borrowed_str(s),
                Str::Transient(s) => visitor.visit_str(s),
            },
            ValueKind::Array
            | ValueKind::TypedArray(_)
            | ValueKind::BoolArray
            | ValueKind::StrArray => return seq(r, visitor),
            ValueKind::Object => return map(r, None, visitor),
            ValueKind::IntKeyObject(k) => return map(r, Some(k), visitor),
            ValueKind::Extension(_) => {
                let bytes = r.read_extension()?;
                visitor.visit_map(Extension(Some(bytes)))
            }
        };
        res.map_err(|e| placed(e, r, mark))
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let v = self.r.read_bool()?;
        visitor.visit_bool(v)
    }

    numbers!(deserialize_i8 => visit_i8: i8, deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32, deserialize_i64 => visit_i64: i64,
        deserialize_i128 => visit_i128: i128, deserialize_u8 => visit_u8: u8,
        deserialize_u16 => visit_u16: u16, deserialize_u32 => visit_u32: u32,
        deserialize_u64 => visit_u64: u64, deserialize_u128 => visit_u128: u128,
        deserialize_f32 => visit_f32: f32, deserialize_f64 => visit_f64: f64);

    #[inline]
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let c = self.r.read_char()?;
        visitor.visit_char(c)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.r.read_str()? {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Transient(s) => visitor.visit_str(s),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    /// A `u8` typed array (borrowed from BEVE input), an array of numbers, or a string's
    /// bytes.
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.r;
        let mark = r.save();
        let res = if r.peek_kind()? == ValueKind::String {
            match r.read_str()? {
                Str::Borrowed(s) => visitor.visit_borrowed_bytes(s.as_bytes()),
                Str::Transient(s) => visitor.visit_bytes(s.as_bytes()),
            }
        } else {
            let mut bytes = Cow::Borrowed(&[][..]);
            r.read_typed_cow::<u8>(&mut bytes)?;
            match bytes {
                Cow::Borrowed(b) => visitor.visit_borrowed_bytes(b),
                Cow::Owned(v) => visitor.visit_byte_buf(v),
            }
        };
        res.map_err(|e| placed(e, r, mark))
    }

    #[inline]
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.r;
        let mark = r.save();
        if r.take_null()? {
            visitor.visit_none().map_err(|e| placed(e, r, mark))
        } else {
            visitor.visit_some(De { r })
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.r;
        let mark = r.save();
        if !r.take_null()? {
            return Err(r.invalid_type("null"));
        }
        visitor.visit_unit().map_err(|e| placed(e, r, mark))
    }

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        seq(self.r, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        seq(self.r, visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        seq(self.r, visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.r;
        let kind = match r.peek_kind()? {
            ValueKind::IntKeyObject(k) => Some(k),
            _ => None,
        };
        map(r, kind, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let r = self.r;
        let map = r.begin_object()?;
        let skip_unknown = fields.is_empty() || r.options().unknown_keys == UnknownKeys::Skip;
        let mut acc = StructAccess {
            r,
            map,
            fields,
            skip_unknown,
            expect: 0,
            key: KeyText::None,
            buf: String::new(),
            key_mark: None,
            done: false,
        };
        match visitor.visit_map(&mut acc) {
            Ok(v) => {
                if !acc.done {
                    acc.rest()?;
                }
                Ok(v)
            }
            Err(e) => Err(acc.place(e)),
        }
    }

    /// A string names a unit variant; an object with one key names the variant and holds its
    /// payload (`{"name": payload}`); in BEVE an integer is a unit variant's index.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let r = self.r;
        let mark = r.save();
        match r.peek_kind()? {
            ValueKind::String => {
                let res = {
                    let s = r.read_str()?;
                    visitor.visit_enum(Bare::of(s, variants))
                };
                res.map_err(|e| placed(e, r, mark))
            }
            ValueKind::Number(_) => {
                let w = r.read_wire_number()?;
                visitor
                    .visit_enum(Bare::Index(variant_index(w)?))
                    .map_err(|e| placed(e, r, mark))
            }
            ValueKind::Object => {
                let mut map = r.begin_object()?;
                let v = visitor.visit_enum(External {
                    r: &mut *r,
                    map: &mut map,
                    variants,
                })?;
                let extra = r.save();
                let second = match r.next_key(&mut map)? {
                    None => return Ok(v),
                    Some(k) => crate::error::quoted_string(key_text(&k).as_ref()),
                };
                let at = offset_at(r, extra);
                Err(Error::new(
                    Code::Custom(format!("{ONE_KEY}, found a second key {second}")),
                    at,
                ))
            }
            _ => Err(r.invalid_type("a string or an object")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.r;
        match r.peek_kind()? {
            ValueKind::Number(_) => {
                let mark = r.save();
                let w = r.read_wire_number()?;
                visitor
                    .visit_u64(u64::from_wire(w).ok_or_else(|| {
                        Error::unplaced(Code::Custom("expected an identifier".into()))
                    })?)
                    .map_err(|e| placed(e, r, mark))
            }
            _ => De { r }.deserialize_str(visitor),
        }
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.r.skip_value()?;
        visitor.visit_unit()
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.r.is_human_readable()
    }
}

const ONE_KEY: &str = "expected an object with exactly one key naming the variant";

/// The index of a unit variant written as an integer (BEVE).
fn variant_index(w: Wire) -> Result<u32> {
    u32::from_wire(w).ok_or_else(|| {
        let shown = match w {
            Wire::Int(v) => v.to_string(),
            Wire::Uint(v) => v.to_string(),
            Wire::F32(v) => v.to_string(),
            Wire::F64(v) => v.to_string(),
        };
        Error::unplaced(Code::UnknownVariant(shown))
    })
}

/// The text of a key, for messages.
fn key_text<'a>(k: &'a Key<'_, '_>) -> Cow<'a, str> {
    match k {
        Key::Str(s) => Cow::Borrowed(s.as_str()),
        Key::Int(w) => Cow::Owned(wire_text(*w)),
    }
}

/// An integer key as text.
fn wire_text(w: Wire) -> String {
    match w {
        Wire::Int(v) => v.to_string(),
        Wire::Uint(v) => v.to_string(),
        Wire::F32(v) => v.to_string(),
        Wire::F64(v) => v.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Sequences.

/// Reads an array with `visitor`; elements left over are an error.
#[inline]
fn seq<'de, R: Reader<'de>, V: Visitor<'de>>(r: &mut R, visitor: V) -> Result<V::Value> {
    let seq = r.begin_array()?;
    let mut acc = SeqAccessor {
        r,
        seq,
        index: 0,
        done: false,
    };
    match visitor.visit_seq(&mut acc) {
        Ok(v) => {
            // A visitor that read a fixed number of elements (a tuple, an array) has not seen
            // the end yet.
            if !acc.done {
                let mark = acc.r.save();
                if acc.r.next_element(&mut acc.seq)? {
                    let at = offset_at(acc.r, mark);
                    return Err(acc.rest(at));
                }
            }
            Ok(v)
        }
        Err(e) => Err(placed_here(e, acc.r)),
    }
}

struct SeqAccessor<'r, 'de, R: Reader<'de>> {
    r: &'r mut R,
    seq: R::Seq,
    index: usize,
    done: bool,
}

impl<'de, R: Reader<'de>> SeqAccessor<'_, 'de, R> {
    /// After a visitor stopped early and an element is left (at `at`): the error counting the
    /// elements there are.
    #[cold]
    #[inline(never)]
    fn rest(&mut self, at: usize) -> Error {
        let mut found = self.index;
        loop {
            if let Err(e) = self.r.skip_value() {
                return e;
            }
            found += 1;
            match self.r.next_element(&mut self.seq) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return e,
            }
        }
        Error::new(
            Code::WrongLength {
                expected: self.index,
                found,
            },
            at,
        )
    }
}

impl<'de, R: Reader<'de>> SeqAccess<'de> for SeqAccessor<'_, 'de, R> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.done {
            return Ok(None);
        }
        if !self.r.next_element(&mut self.seq)? {
            self.done = true;
            return Ok(None);
        }
        let i = self.index;
        self.index += 1;
        let mark = self.r.save();
        match seed.deserialize(De { r: &mut *self.r }) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(placed(e, self.r, mark).push_path(PathSegment::Index(i))),
        }
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.r.remaining_hint(&self.seq)
    }
}

// ---------------------------------------------------------------------------------------------
// Maps and structs.

/// The key of the member being read, for the error path.
enum KeyText<'de> {
    None,
    /// A field name.
    Field(&'static str),
    /// A key borrowed from the input.
    Borrowed(&'de str),
    /// A key copied into the accessor's buffer (it was unescaped into the reader's scratch
    /// space, which reading the value reuses).
    Buf,
    /// An integer key.
    Int(Wire),
}

impl KeyText<'_> {
    /// The path segment naming the member.
    #[cold]
    fn segment(&self, buf: &str) -> PathSegment {
        match self {
            KeyText::None => PathSegment::Key(String::new()),
            KeyText::Field(f) => PathSegment::Field(f),
            KeyText::Borrowed(s) => PathSegment::Key(s.to_string()),
            KeyText::Buf => PathSegment::Key(buf.to_string()),
            KeyText::Int(w) => PathSegment::Key(wire_text(*w)),
        }
    }
}

/// Records `s` as the current key: borrowed, or copied into `buf`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn record<'de>(s: Str<'de, '_>, buf: &mut String) -> KeyText<'de> {
    match s {
        Str::Borrowed(b) => KeyText::Borrowed(b),
        Str::Transient(t) => {
            buf.clear();
            buf.push_str(t);
            KeyText::Buf
        }
    }
}

/// Reads an object with `visitor` (`kind`: the integer type of a BEVE integer-keyed object's
/// keys).
#[inline]
fn map<'de, R: Reader<'de>, V: Visitor<'de>>(
    r: &mut R,
    kind: Option<NumKind>,
    visitor: V,
) -> Result<V::Value> {
    let map = r.begin_object()?;
    let mut acc = MapAccessor {
        r,
        map,
        kind,
        key: KeyText::None,
        buf: String::new(),
        key_mark: None,
        done: false,
    };
    match visitor.visit_map(&mut acc) {
        Ok(v) => {
            if !acc.done {
                acc.rest()?;
            }
            Ok(v)
        }
        Err(e) => Err(acc.place(e)),
    }
}

struct MapAccessor<'r, 'de, R: Reader<'de>> {
    r: &'r mut R,
    map: R::Map,
    kind: Option<NumKind>,
    key: KeyText<'de>,
    buf: String,
    /// Where the last key read starts.
    key_mark: Option<R::Pos>,
    done: bool,
}

impl<'de, R: Reader<'de>> MapAccessor<'_, 'de, R> {
    /// Places a visitor's error: at the last key while the object is being read (a duplicate
    /// or unknown key), at its end afterwards (a missing one).
    #[cold]
    fn place(&mut self, e: Error) -> Error {
        match self.key_mark {
            Some(mark) if !self.done => placed(e, self.r, mark),
            _ => placed_here(e, self.r),
        }
    }

    /// After a visitor stopped early: the end of the object, or an error naming the next key.
    #[cold]
    fn rest(&mut self) -> Result<()> {
        rest_of_object(self.r, &mut self.map)
    }
}

/// The end of an object whose visitor stopped reading it, or an error naming the next key.
#[cold]
fn rest_of_object<'de, R: Reader<'de>>(r: &mut R, map: &mut R::Map) -> Result<()> {
    let mark = r.save();
    let key = match r.next_key(map)? {
        None => return Ok(()),
        Some(k) => key_text(&k).into_owned(),
    };
    Err(Error::new(Code::UnknownKey(key), offset_at(r, mark)))
}

impl<'de, R: Reader<'de>> MapAccess<'de> for MapAccessor<'_, 'de, R> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        let mark = self.r.save();
        self.key_mark = Some(mark);
        let res = match self.r.next_key(&mut self.map)? {
            None => {
                self.done = true;
                return Ok(None);
            }
            Some(Key::Str(s)) => {
                self.key = record(s, &mut self.buf);
                seed.deserialize(KeyDe {
                    key: Key::Str(s),
                    kind: None,
                })
            }
            Some(Key::Int(w)) => {
                self.key = KeyText::Int(w);
                seed.deserialize(KeyDe {
                    key: Key::Int(w),
                    kind: self.kind,
                })
            }
        };
        match res {
            Ok(k) => Ok(Some(k)),
            Err(e) => Err(placed(e, self.r, mark)),
        }
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let mark = self.r.save();
        match seed.deserialize(De { r: &mut *self.r }) {
            Ok(v) => Ok(v),
            Err(e) => Err(placed(e, self.r, mark).push_path(self.key.segment(&self.buf))),
        }
    }
}

struct StructAccess<'r, 'de, R: Reader<'de>> {
    r: &'r mut R,
    map: R::Map,
    fields: &'static [&'static str],
    /// Keys no field has go to the visitor (else they are errors).
    skip_unknown: bool,
    /// The field expected next (the one after the last one read).
    expect: usize,
    key: KeyText<'de>,
    buf: String,
    key_mark: Option<R::Pos>,
    done: bool,
}

impl<'de, R: Reader<'de>> StructAccess<'_, 'de, R> {
    /// As [`MapAccessor::place`].
    #[cold]
    fn place(&mut self, e: Error) -> Error {
        match self.key_mark {
            Some(mark) if !self.done => placed(e, self.r, mark),
            _ => placed_here(e, self.r),
        }
    }

    #[cold]
    fn rest(&mut self) -> Result<()> {
        rest_of_object(self.r, &mut self.map)
    }
}

impl<'de, R: Reader<'de>> MapAccess<'de> for StructAccess<'_, 'de, R> {
    type Error = Error;

    /// The key is first compared with the name of the field after the last one read (as the
    /// derive does: documents usually keep the declaration order), in its encoded form where
    /// the format can ([`Reader::next_field_guess`]: no unescaping, no UTF-8 check), then with
    /// every name.
    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        let mark = self.r.save();
        self.key_mark = Some(mark);
        let fields = self.fields;
        let next = match fields.get(self.expect) {
            Some(guess) => {
                let plain = structio_keys::is_plain(guess.as_bytes());
                self.r.next_field_guess(&mut self.map, guess, plain)?
            }
            None => self.r.next_field(&mut self.map)?.map(NextField::Other),
        };
        let found = match next {
            None => {
                self.done = true;
                return Ok(None);
            }
            Some(NextField::Guessed) => Some(self.expect),
            Some(NextField::Other(key)) => {
                match fields
                    .iter()
                    .position(|f| crate::read::key_eq(f.as_bytes(), key))
                {
                    Some(i) => Some(i),
                    None => {
                        // Keys the readers hand over are UTF-8 (checked, or within the checked
                        // text).
                        let text = std::str::from_utf8(key).unwrap_or_default();
                        let res = if self.skip_unknown {
                            self.key = KeyText::Buf;
                            self.buf.clear();
                            self.buf.push_str(text);
                            seed.deserialize(KeyDe {
                                key: Key::Str(Str::Transient(text)),
                                kind: None,
                            })
                        } else {
                            Err(Error::unplaced(Code::UnknownKey(text.to_string())))
                        };
                        return match res {
                            Ok(k) => Ok(Some(k)),
                            Err(e) => Err(placed(e, self.r, mark)),
                        };
                    }
                }
            }
        };
        let i = found.unwrap_or_default();
        self.expect = i + 1;
        self.key = KeyText::Field(fields[i]);
        match seed.deserialize(BorrowedStrDeserializer::<Error>::new(fields[i])) {
            Ok(k) => Ok(Some(k)),
            Err(e) => Err(placed(e, self.r, mark)),
        }
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let mark = self.r.save();
        match seed.deserialize(De { r: &mut *self.r }) {
            Ok(v) => Ok(v),
            Err(e) => Err(placed(e, self.r, mark).push_path(self.key.segment(&self.buf))),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Keys.

/// A map key as a deserializer: strings as they are (parsed for integer, float and bool
/// targets, as JSON writes those keys quoted), integers of a BEVE integer-keyed object as
/// numbers (their text for string targets).
struct KeyDe<'s, 'de> {
    key: Key<'de, 's>,
    /// The integer type of the object's keys, when the format says.
    kind: Option<NumKind>,
}

/// Deserialize methods of [`KeyDe`] for integers: the key converted as a map key of that
/// type would convert it.
macro_rules! key_ints {
    ($($method:ident => $visit:ident: $t:ty),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let v = <$t as MapKey<'de>>::from_key(self.key, 0).map_err(Error::unplace)?;
            visitor.$visit(v)
        }
    )*};
}

/// Deserialize methods of [`KeyDe`] for floats.
macro_rules! key_floats {
    ($($method:ident => $visit:ident: $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let v = match self.key {
                Key::Int(w) => <$t>::from_wire(w),
                Key::Str(s) => s.as_str().parse::<$t>().ok(),
            };
            match v {
                Some(v) => visitor.$visit(v),
                None => Err(Error::unplaced(Code::Custom("expected a number key".into()))),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for KeyDe<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.key {
            Key::Str(Str::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Key::Str(Str::Transient(s)) => visitor.visit_str(s),
            Key::Int(w) => match self.kind {
                Some(k) => visit_kind(k, w, visitor),
                None => visit_json_number(w, visitor),
            },
        }
    }

    key_ints!(deserialize_i8 => visit_i8: i8, deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32, deserialize_i64 => visit_i64: i64,
        deserialize_i128 => visit_i128: i128, deserialize_u8 => visit_u8: u8,
        deserialize_u16 => visit_u16: u16, deserialize_u32 => visit_u32: u32,
        deserialize_u64 => visit_u64: u64, deserialize_u128 => visit_u128: u128);

    key_floats!(deserialize_f32 => visit_f32: f32, deserialize_f64 => visit_f64: f64);

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.key {
            Key::Str(s) if s.as_str() == "true" => visitor.visit_bool(true),
            Key::Str(s) if s.as_str() == "false" => visitor.visit_bool(false),
            _ => Err(Error::unplaced(Code::Custom(
                "expected `true` or `false` as a key".into(),
            ))),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Key::Str(s) = self.key {
            let mut it = s.as_str().chars();
            if let (Some(c), None) = (it.next(), it.next()) {
                return visitor.visit_char(c);
            }
        }
        Err(Error::unplaced(Code::InvalidChar))
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.key {
            Key::Str(Str::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Key::Str(Str::Transient(s)) => visitor.visit_str(s),
            Key::Int(w) => visitor.visit_string(wire_text(w)),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.key {
            Key::Str(Str::Borrowed(s)) => visitor.visit_borrowed_bytes(s.as_bytes()),
            Key::Str(Str::Transient(s)) => visitor.visit_bytes(s.as_bytes()),
            Key::Int(_) => self.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    /// A unit variant: by name (string keys) or by index (BEVE integer keys).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.key {
            Key::Str(s) => visitor.visit_enum(Bare::of(s, variants)),
            Key::Int(w) => visitor.visit_enum(Bare::Index(variant_index(w)?)),
        }
    }

    ::serde::forward_to_deserialize_any! {
        unit unit_struct seq tuple tuple_struct map struct ignored_any
    }
}

// ---------------------------------------------------------------------------------------------
// Enums.

/// A unit variant given without payload: by name (a string) or by index (an integer).
enum Bare<'s, 'de> {
    /// The name is one of the enum's (so it is static).
    Known(&'static str),
    /// A name the enum does not have (the visitor reports it).
    Other(Str<'de, 's>),
    /// The index of the variant.
    Index(u32),
}

impl<'s, 'de> Bare<'s, 'de> {
    #[inline]
    fn of(s: Str<'de, 's>, variants: &'static [&'static str]) -> Self {
        match variants.iter().find(|&&v| v == s.as_str()) {
            Some(v) => Bare::Known(v),
            None => Bare::Other(s),
        }
    }
}

impl<'de> EnumAccess<'de> for Bare<'_, 'de> {
    type Error = Error;
    type Variant = UnitOnly;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, UnitOnly)> {
        let (v, name) = match self {
            Bare::Known(name) => (
                seed.deserialize(BorrowedStrDeserializer::<Error>::new(name))?,
                name,
            ),
            Bare::Other(s) => (
                seed.deserialize(KeyDe {
                    key: Key::Str(s),
                    kind: None,
                })?,
                "",
            ),
            Bare::Index(i) => (seed.deserialize(U32Deserializer::<Error>::new(i))?, ""),
        };
        Ok((v, UnitOnly(name)))
    }
}

/// The variant of a [`Bare`] name: a unit variant, or an error for one that holds data.
struct UnitOnly(&'static str);

impl UnitOnly {
    #[cold]
    fn needs_payload(&self) -> Error {
        Error::unplaced(Code::Custom(format!(
            "variant `{}` holds data: expected an object",
            self.0
        )))
    }
}

impl<'de> VariantAccess<'de> for UnitOnly {
    type Error = Error;

    #[inline]
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(self.needs_payload())
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(self.needs_payload())
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(self.needs_payload())
    }
}

/// An externally tagged variant: the one key of an object names it.
struct External<'a, 'de, R: Reader<'de>> {
    r: &'a mut R,
    map: &'a mut R::Map,
    variants: &'static [&'static str],
}

impl<'a, 'de, R: Reader<'de>> EnumAccess<'de> for External<'a, 'de, R> {
    type Error = Error;
    type Variant = Payload<'a, R>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Payload<'a, R>)> {
        let mark = self.r.save();
        let variants = self.variants;
        let (res, name) = match self.r.next_key(self.map)? {
            None => {
                let at = self.r.offset();
                return Err(Error::new(Code::Custom(ONE_KEY.into()), at));
            }
            Some(Key::Str(s)) => match variants.iter().find(|&&v| v == s.as_str()) {
                Some(&name) => (
                    seed.deserialize(BorrowedStrDeserializer::<Error>::new(name)),
                    name,
                ),
                None => (
                    seed.deserialize(KeyDe {
                        key: Key::Str(s),
                        kind: None,
                    }),
                    "",
                ),
            },
            Some(Key::Int(_)) => (
                Err(Error::unplaced(Code::InvalidType {
                    expected: "an object with string keys",
                    found: "an object with integer keys",
                })),
                "",
            ),
        };
        match res {
            Ok(v) => Ok((v, Payload { r: self.r, name })),
            Err(e) => Err(placed(e, self.r, mark)),
        }
    }
}

/// The payload of an externally tagged variant, under the variant's name in error paths.
struct Payload<'a, R> {
    r: &'a mut R,
    name: &'static str,
}

impl<'de, R: Reader<'de>> VariantAccess<'de> for Payload<'_, R> {
    type Error = Error;

    /// `{"name": null}`: the object form of a unit variant.
    fn unit_variant(self) -> Result<()> {
        if self.r.take_null()? {
            return Ok(());
        }
        Err(self
            .r
            .invalid_type("null")
            .push_path(PathSegment::Field(self.name)))
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let name = self.name;
        seed.deserialize(De { r: self.r })
            .map_err(|e| e.push_path(PathSegment::Field(name)))
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let name = self.name;
        De { r: self.r }
            .deserialize_tuple(len, visitor)
            .map_err(|e| e.push_path(PathSegment::Field(name)))
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let name = self.name;
        De { r: self.r }
            .deserialize_struct("", fields, visitor)
            .map_err(|e| e.push_path(PathSegment::Field(name)))
    }
}

// ---------------------------------------------------------------------------------------------
// BEVE extensions.

/// A BEVE extension value (complex number, matrix, v1 type tag) as the one-entry map
/// `{EXTENSION: bytes}`, which [`crate::Value`] turns back into [`crate::Value::Extension`].
struct Extension<'de>(Option<&'de [u8]>);

impl<'de> MapAccess<'de> for Extension<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(EXTENSION))
            .map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let bytes = self.0.take().unwrap_or_default();
        seed.deserialize(BorrowedBytesDeserializer::<Error>::new(bytes))
    }
}

// ---------------------------------------------------------------------------------------------
// A field left out.

/// The deserializer of a field a document leaves out: an `Option` reads `None` (serde's rule
/// for missing `Option` fields), every other type an error.
pub(crate) struct Missing;

impl<'de> de::Deserializer<'de> for Missing {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error::unplaced(Code::Custom("missing".into())))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_none()
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}
