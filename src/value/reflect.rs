//! `Reflect` for [`Value`] (and for its containers, so they can be fields too): writing and
//! reading through the generic [`Writer`] / [`Reader`], so it works in both formats and inside
//! derived structs.
//!
//! Both directions keep an explicit stack instead of recursing: writing works at any depth, and
//! reading is bounded by the reader's depth limit, not by the thread's stack.

use std::slice;

use super::number::{by_kind, read_num};
use super::{Array, IntKey, IntMap, Map, TypedArray, Value};
use crate::error::{Code, Error, PathSegment, Result};
use crate::number::{NumKind, Number};
use crate::reflect::{Key, KeyKind, Reader, Reflect, ValueKind, Writer};

/// Elements reserved up front at most, whatever count a document announces; the vector grows
/// past it as elements actually arrive.
const RESERVE_MAX: usize = 4096;

impl<'de> Reflect<'de> for Value {
    fn write<W: Writer>(&self, w: &mut W) {
        write_value(self, w)
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = read_value(r)?;
        Ok(())
    }

    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_value(r)
    }

    fn default_value() -> Option<Self> {
        Some(Value::default())
    }
    const HAS_DEFAULT_VALUE: bool = true;
}

/// A container being written: what is left of it.
enum WriteFrame<'a> {
    Array(slice::Iter<'a, Value>, bool),
    Object(slice::Iter<'a, (String, Value)>, bool),
    IntObject(NumKind, slice::Iter<'a, (IntKey, Value)>, bool),
}

/// Writes a value that is not a generic container.
fn write_leaf<W: Writer>(v: &Value, w: &mut W) {
    match v {
        Value::Null => w.null(),
        Value::Bool(b) => w.bool(*b),
        Value::Number(n) => n.write_to(w),
        Value::String(s) => w.str(s),
        Value::Typed(t) => write_typed(t, w),
        Value::Extension(bytes) => w.raw_beve(bytes),
        Value::Array(_) | Value::Object(_) | Value::IntObject(_) => {
            unreachable!("containers are written by write_value")
        }
    }
}

pub(crate) fn write_typed<W: Writer>(t: &TypedArray, w: &mut W) {
    super::typed::with_typed!(t,
        v => w.typed_array(v),
        b => w.bool_array(b.iter().copied()),
        s => w.str_array(s.iter().map(String::as_str)))
}

/// Writes an integer key of the map's kind.
pub(crate) fn write_int_key<W: Writer>(kind: NumKind, k: IntKey, w: &mut W) {
    // The map only holds keys that fit its kind, so the conversion cannot fail.
    by_kind!(kind, T => w.int_key(T::from_wire(k.to_wire()).unwrap_or_default()))
}

/// Writes `root` with an explicit stack of open containers.
pub(crate) fn write_value<W: Writer>(root: &Value, w: &mut W) {
    let mut stack: Vec<WriteFrame<'_>> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Array(a) => {
                    w.begin_array(a.len());
                    stack.push(WriteFrame::Array(a.iter(), true));
                }
                Value::Object(m) => {
                    w.begin_object(m.len());
                    stack.push(WriteFrame::Object(m.entries.iter(), true));
                }
                Value::IntObject(m) => {
                    w.begin_map(m.len(), KeyKind::Int(m.kind()));
                    stack.push(WriteFrame::IntObject(m.kind(), m.entries().iter(), true));
                }
                leaf => write_leaf(leaf, w),
            }
        }
        let Some(top) = stack.last_mut() else {
            return;
        };
        match top {
            WriteFrame::Array(items, first) => match items.next() {
                Some(v) => {
                    if !std::mem::take(first) {
                        w.sep();
                    }
                    next = Some(v);
                }
                None => {
                    w.end_array();
                    stack.pop();
                }
            },
            WriteFrame::Object(members, first) => match members.next() {
                Some((k, v)) => {
                    if !std::mem::take(first) {
                        w.sep();
                    }
                    w.key(k);
                    next = Some(v);
                }
                None => {
                    w.end_object();
                    stack.pop();
                }
            },
            WriteFrame::IntObject(kind, members, first) => match members.next() {
                Some((k, v)) => {
                    if !std::mem::take(first) {
                        w.sep();
                    }
                    write_int_key(*kind, *k, w);
                    next = Some(v);
                }
                None => {
                    w.end_object();
                    stack.pop();
                }
            },
        }
    }
}

/// A container being read: what was read so far, the reader's state, and the key whose value
/// is being read.
enum ReadFrame<S, M> {
    Array(Vec<Value>, S),
    Object(Map, M, Option<String>),
    IntObject(IntMap, M, Option<IntKey>),
}

impl<S, M> ReadFrame<S, M> {
    fn into_value(self) -> Value {
        match self {
            ReadFrame::Array(items, _) => Value::Array(Array::from(items)),
            ReadFrame::Object(m, _, _) => Value::Object(m),
            ReadFrame::IntObject(m, _, _) => Value::IntObject(m),
        }
    }

    /// The path segment of the value being read in this container, for errors.
    fn segment(&self) -> Option<PathSegment> {
        match self {
            ReadFrame::Array(items, _) => Some(PathSegment::Index(items.len())),
            ReadFrame::Object(_, _, key) => key.clone().map(PathSegment::Key),
            ReadFrame::IntObject(_, _, key) => key.map(|k| PathSegment::Key(k.to_string())),
        }
    }
}

/// Reads one complete value with an explicit stack of open containers; errors get the path to
/// where they happened.
pub(crate) fn read_value<'de, R: Reader<'de>>(r: &mut R) -> Result<Value> {
    let mut stack = Vec::new();
    read_loop(r, &mut stack).map_err(|mut e| {
        for frame in stack.iter().rev() {
            if let Some(seg) = frame.segment() {
                e = e.push_path(seg);
            }
        }
        e
    })
}

fn read_loop<'de, R: Reader<'de>>(
    r: &mut R,
    stack: &mut Vec<ReadFrame<R::Seq, R::Map>>,
) -> Result<Value> {
    loop {
        // The value at the current position: a leaf goes straight into its container (or is the
        // result), a container opens a frame.
        match r.peek_kind()? {
            ValueKind::Array => {
                let seq = r.begin_array()?;
                let reserve = r.remaining_hint(&seq).unwrap_or(0).min(RESERVE_MAX);
                stack.push(ReadFrame::Array(Vec::with_capacity(reserve), seq));
            }
            ValueKind::Object => {
                let state = r.begin_object()?;
                stack.push(ReadFrame::Object(Map::new(), state, None));
            }
            ValueKind::IntKeyObject(kind) => {
                if kind.is_float() {
                    return Err(r.invalid_type("an object with integer keys"));
                }
                let state = r.begin_object()?;
                stack.push(ReadFrame::IntObject(IntMap::new(kind), state, None));
            }
            kind => {
                let v = read_leaf(r, kind)?;
                let Some(top) = stack.last_mut() else {
                    return Ok(v);
                };
                accept(top, v, r)?;
            }
        }
        // Move to the next element or member, closing the containers that ended.
        while let Some(top) = stack.last_mut() {
            if advance(top, r)? {
                break;
            }
            let v = stack.pop().map_or(Value::Null, ReadFrame::into_value);
            let Some(parent) = stack.last_mut() else {
                return Ok(v);
            };
            accept(parent, v, r)?;
        }
    }
}

/// Stores a finished value in its container.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn accept<'de, R: Reader<'de>>(
    top: &mut ReadFrame<R::Seq, R::Map>,
    v: Value,
    r: &mut R,
) -> Result<()> {
    match top {
        ReadFrame::Array(items, _) => items.push(v),
        ReadFrame::Object(m, _, key) => {
            let k = key.take().unwrap_or_default();
            if r.options().error_on_duplicate_keys && m.contains_key(&k) {
                return Err(Error::new(Code::DuplicateKey(k), r.offset()));
            }
            m.insert(k, v);
        }
        ReadFrame::IntObject(m, _, key) => {
            let k = key.take().unwrap_or(IntKey::from(0u8));
            if r.options().error_on_duplicate_keys && m.contains_key(k) {
                return Err(Error::new(Code::DuplicateKey(k.to_string()), r.offset()));
            }
            if m.try_insert(k, v).is_err() {
                return Err(Error::new(
                    Code::NumberOutOfRange(m.kind().name()),
                    r.offset(),
                ));
            }
        }
    }
    Ok(())
}

/// Moves to the next element or member of the container; `false` at its end.
fn advance<'de, R: Reader<'de>>(top: &mut ReadFrame<R::Seq, R::Map>, r: &mut R) -> Result<bool> {
    match top {
        ReadFrame::Array(_, seq) => r.next_element(seq),
        ReadFrame::Object(_, state, key) => {
            let at = r.offset();
            match r.next_key(state)? {
                None => Ok(false),
                Some(Key::Str(s)) => {
                    *key = Some(s.as_str().to_owned());
                    Ok(true)
                }
                Some(Key::Int(_)) => Err(Error::new(
                    Code::InvalidType {
                        expected: "a string key",
                        found: "an integer key",
                    },
                    at,
                )),
            }
        }
        ReadFrame::IntObject(m, state, key) => {
            let at = r.offset();
            match r.next_key(state)? {
                None => Ok(false),
                Some(Key::Int(w)) => match IntKey::from_wire(w) {
                    Some(k) if k.fits(m.kind()) => {
                        *key = Some(k);
                        Ok(true)
                    }
                    _ => Err(Error::new(Code::NumberOutOfRange(m.kind().name()), at)),
                },
                Some(Key::Str(_)) => Err(Error::new(
                    Code::InvalidType {
                        expected: "an integer key",
                        found: "a string key",
                    },
                    at,
                )),
            }
        }
    }
}

/// Reads a value that is not a generic container.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn read_leaf<'de, R: Reader<'de>>(r: &mut R, kind: ValueKind) -> Result<Value> {
    Ok(match kind {
        ValueKind::Null => {
            if !r.take_null()? {
                return Err(r.invalid_type("null"));
            }
            Value::Null
        }
        ValueKind::Bool => Value::Bool(r.read_bool()?),
        ValueKind::Number(k) => Value::Number(read_num(r, k)?),
        ValueKind::String => Value::String(r.read_str()?.as_str().to_owned()),
        ValueKind::TypedArray(k) => Value::Typed(by_kind!(k, T => {
            let mut v = Vec::<T>::new();
            r.read_typed_vec(&mut v)?;
            TypedArray::from(v)
        })),
        ValueKind::BoolArray => {
            let mut v = Vec::new();
            r.read_bool_vec(&mut v)?;
            Value::Typed(TypedArray::Bool(v))
        }
        ValueKind::StrArray => {
            let mut v = Vec::new();
            r.read_str_seq(|_, s| {
                v.push(s.as_str().to_owned());
                Ok(())
            })?;
            Value::Typed(TypedArray::Str(v))
        }
        ValueKind::Extension(_) => Value::Extension(r.read_extension()?.to_vec()),
        ValueKind::Array | ValueKind::Object | ValueKind::IntKeyObject(_) => {
            unreachable!("containers are read by read_loop")
        }
    })
}
