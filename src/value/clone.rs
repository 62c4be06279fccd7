//! `Clone` for values without recursion: the copy is built bottom-up with an explicit stack
//! of the containers being copied, so a value nested a hundred thousand levels deep clones on
//! a small stack.
//!
//! [`Array`], [`Map`] and [`IntMap`] keep their derived `Clone`: it clones their elements one
//! by one through `Value::clone`, which is this one, so none of them recurses either.

use super::int_map::IntKey;
use super::{Array, IntMap, Map, Value};

/// A container being copied: the source's members still to copy and the copies made so far.
/// A map's last copied member holds `Value::Null` until its value's copy is finished.
enum Frame<'a> {
    Array {
        rest: std::slice::Iter<'a, Value>,
        done: Vec<Value>,
    },
    Map {
        src: &'a Map,
        rest: std::slice::Iter<'a, (String, Value)>,
        done: Vec<(String, Value)>,
    },
    IntMap {
        src: &'a IntMap,
        rest: std::slice::Iter<'a, (IntKey, Value)>,
        done: Vec<(IntKey, Value)>,
    },
}

impl<'a> Frame<'a> {
    /// The next member's value to copy, after setting its key (if any) aside.
    fn next_child(&mut self) -> Option<&'a Value> {
        match self {
            Frame::Array { rest, .. } => rest.next(),
            Frame::Map { rest, done, .. } => rest.next().map(|(k, v)| {
                done.push((k.clone(), Value::Null));
                v
            }),
            Frame::IntMap { rest, done, .. } => rest.next().map(|(k, v)| {
                done.push((*k, Value::Null));
                v
            }),
        }
    }

    /// Takes the copy of the value [`Self::next_child`] returned last.
    fn accept(&mut self, v: Value) {
        match self {
            Frame::Array { done, .. } => done.push(v),
            Frame::Map { done, .. } => {
                if let Some(last) = done.last_mut() {
                    last.1 = v;
                }
            }
            Frame::IntMap { done, .. } => {
                if let Some(last) = done.last_mut() {
                    last.1 = v;
                }
            }
        }
    }

    /// The finished copy.
    fn finish(self) -> Value {
        match self {
            Frame::Array { done, .. } => Value::Array(Array(done)),
            Frame::Map { src, done, .. } => Value::Object(src.clone_with_entries(done)),
            Frame::IntMap { src, done, .. } => Value::IntObject(src.clone_with_entries(done)),
        }
    }
}

/// The copy of a value without children, or the frame that copies a container with some.
fn start(v: &Value) -> Result<Value, Frame<'_>> {
    match v {
        Value::Array(a) if !a.is_empty() => Err(Frame::Array {
            rest: a.iter(),
            done: Vec::with_capacity(a.len()),
        }),
        Value::Object(m) if !m.is_empty() => Err(Frame::Map {
            src: m,
            rest: m.entries.iter(),
            done: Vec::with_capacity(m.len()),
        }),
        Value::IntObject(m) if !m.is_empty() => Err(Frame::IntMap {
            src: m,
            rest: m.entries().iter(),
            done: Vec::with_capacity(m.len()),
        }),
        Value::Null => Ok(Value::Null),
        Value::Bool(b) => Ok(Value::Bool(*b)),
        Value::Number(n) => Ok(Value::Number(*n)),
        Value::String(s) => Ok(Value::String(s.clone())),
        Value::Typed(t) => Ok(Value::Typed(t.clone())),
        Value::Extension(b) => Ok(Value::Extension(b.clone())),
        Value::Array(_) => Ok(Value::Array(Array::new())),
        Value::Object(m) => Ok(Value::Object(m.clone_with_entries(Vec::new()))),
        Value::IntObject(m) => Ok(Value::IntObject(m.clone_with_entries(Vec::new()))),
    }
}

impl Clone for Value {
    fn clone(&self) -> Value {
        let mut stack = match start(self) {
            Ok(v) => return v,
            Err(frame) => vec![frame],
        };
        while let Some(top) = stack.last_mut() {
            match top.next_child() {
                Some(child) => match start(child) {
                    Ok(v) => top.accept(v),
                    Err(frame) => stack.push(frame),
                },
                None => {
                    let done = stack.pop().map(Frame::finish).unwrap_or_default();
                    match stack.last_mut() {
                        Some(parent) => parent.accept(done),
                        None => return done,
                    }
                }
            }
        }
        // The loop returns when it finishes the root frame.
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::NumKind;

    #[test]
    fn clone_copies_every_variant_and_keeps_kinds() {
        let mut im = IntMap::new(NumKind::U16);
        for i in 0..40u16 {
            im.insert(i, Value::from(vec![Value::from(i), Value::Null]));
        }
        let mut big = Map::new();
        for i in 0..40 {
            big.insert(format!("k{i}"), Value::from(i));
        }
        let v = Value::from_iter([
            ("null", Value::Null),
            ("bool", Value::from(true)),
            ("num", Value::from(-3i8)),
            ("str", Value::from("s")),
            ("typed", Value::from(vec![1.5f32])),
            ("ext", Value::Extension(vec![3, 4])),
            ("empty", Value::Array(Array::new())),
            ("emptymap", Value::Object(Map::new())),
            ("emptyint", Value::IntObject(IntMap::new(NumKind::I8))),
            ("int", Value::IntObject(im)),
            ("big", Value::Object(big)),
        ]);
        let c = v.clone();
        assert_eq!(c, v);
        // Equality is by meaning; `Debug` shows kinds, key kinds and order exactly.
        assert_eq!(format!("{c:?}"), format!("{v:?}"));
        // The indexes came along: lookups in the large maps work.
        assert_eq!(c["big"]["k37"], 37);
        match &c["int"] {
            Value::IntObject(m) => {
                assert_eq!(m.kind(), NumKind::U16);
                assert_eq!(m.get(33).map(|v| v[0].clone()), Some(Value::from(33u16)));
            }
            other => panic!("{other:?}"),
        }
        match &c["emptyint"] {
            Value::IntObject(m) => assert_eq!(m.kind(), NumKind::I8),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clone_does_not_recurse() {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let mut v = Value::from("leaf");
                for i in 0..100_000 {
                    v = match i % 3 {
                        0 => Value::from(vec![Value::Null, v]),
                        1 => Value::from_iter([("k", v), ("z", Value::from(1))]),
                        _ => {
                            let mut m = IntMap::new(NumKind::I64);
                            m.insert(i, v);
                            Value::IntObject(m)
                        }
                    };
                }
                let c = v.clone();
                assert_eq!(c, v);
                // The containers' own clones go through `Value::clone` too.
                if let Value::Array(a) = &v {
                    assert_eq!(&a.clone(), a);
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
