//! Dropping without recursion.
//!
//! The containers ([`Array`], [`Map`], [`IntMap`]) implement `Drop`: when one holds a non-empty
//! container, its children are moved onto a heap stack and emptied one by one, so every value
//! is dropped after its children were taken out of it, and drop glue never goes more than one
//! level deep. `Value` itself has no `Drop`, so its variants can still be moved out of in a
//! `match`.

use super::{Array, IntMap, Map, Value};

/// Whether dropping `v` would go deeper than one level.
#[inline]
fn is_nested(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.0.is_empty(),
        Value::Object(m) => !m.is_empty(),
        Value::IntObject(m) => !m.is_empty(),
        _ => false,
    }
}

/// Drops the values in `stack` and everything below them, children before parents.
fn drain(mut stack: Vec<Value>) {
    while let Some(mut v) = stack.pop() {
        match &mut v {
            Value::Array(a) => stack.extend(a.0.drain(..).filter(is_nested)),
            Value::Object(m) => stack.extend(
                m.take_entries()
                    .into_iter()
                    .map(|(_, v)| v)
                    .filter(is_nested),
            ),
            Value::IntObject(m) => stack.extend(
                m.take_entries()
                    .into_iter()
                    .map(|(_, v)| v)
                    .filter(is_nested),
            ),
            _ => {}
        }
        // `v` is now shallow and drops here without recursing.
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.0.iter().any(is_nested) {
            let mut items = std::mem::take(&mut self.0);
            items.retain(is_nested);
            drain(items);
        }
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        if self.values().any(is_nested) {
            drain(
                self.take_entries()
                    .into_iter()
                    .map(|(_, v)| v)
                    .filter(is_nested)
                    .collect(),
            );
        }
    }
}

impl Drop for IntMap {
    fn drop(&mut self) {
        if self.values().any(is_nested) {
            drain(
                self.take_entries()
                    .into_iter()
                    .map(|(_, v)| v)
                    .filter(is_nested)
                    .collect(),
            );
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
