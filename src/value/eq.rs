//! Structural equality, without recursion (a worklist of pairs), so it works at any depth.
//!
//! Equality is by meaning, not by encoding: numbers by value across kinds, a typed array equals
//! a generic array of equal elements, objects ignore member order, and an integer-keyed object
//! equals a string-keyed one whose keys are its keys in decimal (what JSON makes of it). So a
//! `Value` read from BEVE equals the `Value` read back from its JSON form, extensions aside.

use super::{Array, IntMap, Map, Num, TypedArray, Value};

/// Pairs still to compare.
type Work<'a> = Vec<(&'a Value, &'a Value)>;

/// Compares `a` and `b` at the top level, queueing the pairs of children.
fn shallow<'a>(a: &'a Value, b: &'a Value, work: &mut Work<'a>) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Extension(x), Value::Extension(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => queue_arrays(x, y, work),
        (Value::Typed(x), Value::Typed(y)) => x == y,
        (Value::Typed(t), Value::Array(a)) | (Value::Array(a), Value::Typed(t)) => {
            t.len() == a.len() && a.iter().enumerate().all(|(i, v)| t.elem_eq(i, v))
        }
        (Value::Object(x), Value::Object(y)) => queue_maps(x, y, work),
        (Value::IntObject(x), Value::IntObject(y)) => queue_int_maps(x, y, work),
        (Value::IntObject(x), Value::Object(y)) | (Value::Object(y), Value::IntObject(x)) => {
            queue_mixed_maps(x, y, work)
        }
        _ => false,
    }
}

fn queue_arrays<'a>(x: &'a Array, y: &'a Array, work: &mut Work<'a>) -> bool {
    if x.len() != y.len() {
        return false;
    }
    work.extend(x.iter().zip(y.iter()));
    true
}

fn queue_maps<'a>(x: &'a Map, y: &'a Map, work: &mut Work<'a>) -> bool {
    if x.len() != y.len() {
        return false;
    }
    // Keys are unique and the lengths match, so "every key of x is in y" means equal key sets.
    for (k, v) in x {
        match y.get(k) {
            Some(w) => work.push((v, w)),
            None => return false,
        }
    }
    true
}

fn queue_int_maps<'a>(x: &'a IntMap, y: &'a IntMap, work: &mut Work<'a>) -> bool {
    if x.len() != y.len() {
        return false;
    }
    for (k, v) in x.iter() {
        match y.get(k) {
            Some(w) => work.push((v, w)),
            None => return false,
        }
    }
    true
}

fn queue_mixed_maps<'a>(x: &'a IntMap, y: &'a Map, work: &mut Work<'a>) -> bool {
    if x.len() != y.len() {
        return false;
    }
    for (k, v) in x.iter() {
        match y.get(&k.to_string()) {
            Some(w) => work.push((v, w)),
            None => return false,
        }
    }
    true
}

/// Runs the worklist to the end.
fn run(mut work: Work<'_>) -> bool {
    while let Some((a, b)) = work.pop() {
        if !shallow(a, b, &mut work) {
            return false;
        }
    }
    true
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        run(vec![(self, other)])
    }
}

impl PartialEq for Array {
    fn eq(&self, other: &Array) -> bool {
        let mut work = Vec::new();
        queue_arrays(self, other, &mut work) && run(work)
    }
}

impl PartialEq for Map {
    /// Same keys with equal values, in any order.
    fn eq(&self, other: &Map) -> bool {
        let mut work = Vec::new();
        queue_maps(self, other, &mut work) && run(work)
    }
}

impl PartialEq for IntMap {
    /// Same keys with equal values, in any order, whatever the key kinds.
    fn eq(&self, other: &IntMap) -> bool {
        let mut work = Vec::new();
        queue_int_maps(self, other, &mut work) && run(work)
    }
}

/// `value == 5`, `value == "text"`, `value == true` and the reverse.
macro_rules! eq_primitive {
    ($($t:ty => |$v:ident, $o:ident| $e:expr),* $(,)?) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                let ($v, $o) = (self, other);
                $e
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}

macro_rules! eq_number {
    ($($t:ty),*) => {$(
        eq_primitive!($t => |v, o| matches!(v, Value::Number(n) if *n == Num::from(*o)));
    )*};
}

eq_number!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);

eq_primitive! {
    bool => |v, o| v.as_bool() == Some(*o),
    str => |v, o| v.as_str() == Some(o),
    &str => |v, o| v.as_str() == Some(*o),
    String => |v, o| v.as_str() == Some(o.as_str()),
    Num => |v, o| v.as_number() == Some(*o),
    TypedArray => |v, o| matches!(v, Value::Typed(t) if t == o),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::NumKind;

    #[test]
    fn structural_equality() {
        let a = Value::from_iter([("x", Value::from(1)), ("y", Value::from(vec![Value::Null]))]);
        let b = Value::from_iter([
            ("y", Value::from(vec![Value::Null])),
            ("x", Value::from(1u8)),
        ]);
        assert_eq!(a, b);
        let c = Value::from_iter([("y", Value::from(vec![Value::Null])), ("x", Value::from(2))]);
        assert_ne!(a, c);
        let d = Value::from_iter([("x", Value::from(1))]);
        assert_ne!(a, d);
        assert_ne!(Value::Null, Value::from(false));
        assert_ne!(Value::from("1"), Value::from(1));
        assert_eq!(Value::Extension(vec![1, 2]), Value::Extension(vec![1, 2]));
        assert_ne!(Value::Extension(vec![1, 2]), Value::Extension(vec![1]));
    }

    #[test]
    fn typed_equals_generic() {
        let typed = Value::from(vec![1i32, 2]);
        let generic = Value::from(vec![Value::from(1), Value::from(2.0)]);
        assert_eq!(typed, generic);
        assert_eq!(generic, typed);
        assert_ne!(typed, Value::from(vec![Value::from(1)]));
        assert_ne!(typed, Value::from(vec![Value::from(1), Value::from("2")]));
        assert_eq!(
            Value::from(vec![true, false]),
            Value::from(vec![Value::from(true), Value::from(false)])
        );
        assert_eq!(
            Value::from(vec!["a".to_string()]),
            Value::from(vec![Value::from("a")])
        );
        assert_ne!(Value::from(vec![true]), Value::from(vec![Value::from(1)]));
    }

    #[test]
    fn int_keyed_equals_decimal_keys() {
        let mut m = IntMap::new(NumKind::I64);
        m.insert(-3, Value::from("a"));
        m.insert(10, Value::from("b"));
        let ints = Value::IntObject(m.clone());
        let strs = Value::from_iter([("10", "b"), ("-3", "a")]);
        assert_eq!(ints, strs);
        assert_eq!(strs, ints);
        assert_ne!(ints, Value::from_iter([("10", "b"), ("-03", "a")]));
        let mut n = IntMap::new(NumKind::U8);
        n.insert(10u8, Value::from("b"));
        assert_ne!(m, n);
        m.remove(-3);
        assert_eq!(m, n);
    }

    #[test]
    fn primitives() {
        assert_eq!(Value::from(5u8), 5);
        assert_eq!(5, Value::from(5i64));
        assert_eq!(Value::from(0.5), 0.5);
        assert_eq!(Value::from("s"), "s");
        assert_eq!("s", Value::from("s"));
        assert_eq!(Value::from("s"), String::from("s"));
        assert_eq!(Value::from(true), true);
        assert_ne!(Value::from(1), true);
        assert_eq!(Value::from(vec![1u8]), TypedArray::from(vec![1u8]));
    }

    #[test]
    fn deep_equality_does_not_overflow() {
        let build = || {
            let mut v = Value::from(0);
            for _ in 0..200_000 {
                v = Value::from(vec![v]);
            }
            v
        };
        let (a, b) = (build(), build());
        assert_eq!(a, b);
    }
}
