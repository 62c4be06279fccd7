//! Dropping without recursion.
//!
//! The containers ([`Array`], [`Map`], [`IntMap`]) implement `Drop`: when one holds a non-empty
//! container, the children that hold containers themselves are moved onto a heap stack and
//! emptied one by one, children before parents; everything else (leaves, and containers of
//! leaves) is dropped on the spot by plain drop glue, which then never goes more than one level
//! deep. `Value` itself has no `Drop`, so its variants can still be moved out of in a
//! `match`.

use super::{Array, IntMap, Map, Value};

/// Whether `v` is a container with something in it.
#[inline]
fn is_nested(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.0.is_empty(),
        Value::Object(m) => !m.is_empty(),
        Value::IntObject(m) => !m.is_empty(),
        _ => false,
    }
}

/// Whether dropping `v` would go more than one level down: it holds a non-empty container.
/// Anything else drops through plain drop glue (its own `Drop` finds nothing nested).
#[inline]
fn is_deep(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.0.iter().any(is_nested),
        Value::Object(m) => m.values().any(is_nested),
        Value::IntObject(m) => m.values().any(is_nested),
        _ => false,
    }
}

/// Moves the deep children onto `stack` and drops the others on the spot.
#[inline]
fn sort_children(children: impl Iterator<Item = Value>, stack: &mut Vec<Value>) {
    for c in children {
        if is_deep(&c) {
            stack.push(c);
        }
    }
}

/// Takes the children out of `v`, which is left shallow.
fn children_of(v: &mut Value, stack: &mut Vec<Value>) {
    match v {
        Value::Array(a) => sort_children(a.0.drain(..), stack),
        Value::Object(m) => sort_children(m.take_entries().into_iter().map(|(_, v)| v), stack),
        Value::IntObject(m) => sort_children(m.take_entries().into_iter().map(|(_, v)| v), stack),
        _ => {}
    }
}

/// Drops the values in `stack` and everything below them, children before parents.
fn drain(mut stack: Vec<Value>) {
    while let Some(mut v) = stack.pop() {
        children_of(&mut v, &mut stack);
        // `v` is now shallow and drops here without recursing.
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.0.iter().any(is_nested) {
            let mut stack = Vec::new();
            sort_children(self.0.drain(..), &mut stack);
            drain(stack);
        }
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        if self.values().any(is_nested) {
            let mut stack = Vec::new();
            sort_children(self.take_entries().into_iter().map(|(_, v)| v), &mut stack);
            drain(stack);
        }
    }
}

impl Drop for IntMap {
    fn drop(&mut self) {
        if self.values().any(is_nested) {
            let mut stack = Vec::new();
            sort_children(self.take_entries().into_iter().map(|(_, v)| v), &mut stack);
            drain(stack);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::NumKind;

    const DEEP: usize = 1_000_000;

    #[test]
    fn deep_arrays_drop_without_overflow() {
        let mut v = Value::Null;
        for _ in 0..DEEP {
            v = Value::Array(Array::from(vec![v, Value::from(1)]));
        }
        drop(v);
    }

    #[test]
    fn deep_objects_drop_without_overflow() {
        let mut v = Value::from("leaf");
        for i in 0..DEEP {
            let mut m = Map::new();
            m.insert("k", v);
            if i % 3 == 0 {
                let mut im = IntMap::new(NumKind::U8);
                im.insert(1u8, Value::Object(m));
                v = Value::IntObject(im);
            } else {
                v = Value::Object(m);
            }
        }
        drop(v);
    }

    #[test]
    fn deep_map_and_array_roots_drop_without_overflow() {
        let mut v = Value::Null;
        for _ in 0..DEEP {
            v = Value::Array(Array::from(vec![v]));
        }
        let mut m = Map::new();
        m.insert("deep", v);
        drop(m);
    }

    #[test]
    fn wide_values_drop() {
        let inner: Array = (0..1000)
            .map(|i| Value::from(vec![Value::from(i)]))
            .collect();
        let v = Value::Array((0..100).map(|_| Value::Array(inner.clone())).collect());
        drop(v);
    }
}
