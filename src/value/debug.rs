//! `Debug` for values without recursion: an explicit stack of what is still to be written, so
//! that a value nested a hundred thousand levels deep prints on a small stack.
//!
//! The output is what `#[derive(Debug)]` printed (`Array([Number(1i64), Null])`,
//! `Object({"k": String("v")})`), and `{:#?}` lays it out as the derived form did: one field or
//! element per line, four spaces per level, a trailing comma after each. Every leaf (a bool, a
//! number, a string, a key, an element of a typed array or an extension's byte) is formatted
//! by its own `Debug` with the caller's formatter, so flags such as `{:x?}` reach them as they
//! did through the derived impls.

use std::fmt::{self, Debug, Formatter};

use super::int_map::IntKey;
use super::{Array, IntMap, Map, TypedArray, Value};

/// Writes the derived layout to a formatter, indenting lines in the pretty form.
struct Out<'a, 'b> {
    f: &'a mut Formatter<'b>,
    pretty: bool,
    /// Open fields and elements (pretty only): four spaces each at the start of a line.
    level: usize,
    /// The last thing written ended a line (pretty only).
    line_start: bool,
}

impl Out<'_, '_> {
    /// Writes the indentation if a line has just ended.
    fn indent(&mut self) -> fmt::Result {
        if self.pretty && self.line_start {
            const SPACES: &str = "                                                                ";
            let mut n = self.level.saturating_mul(4);
            while n > 0 {
                let k = n.min(SPACES.len());
                self.f.write_str(&SPACES[..k])?;
                n -= k;
            }
            self.line_start = false;
        }
        Ok(())
    }

    /// Writes punctuation or a name; `s` may end with a newline, never holds one before.
    fn text(&mut self, s: &str) -> fmt::Result {
        if s.is_empty() {
            return Ok(());
        }
        self.indent()?;
        self.f.write_str(s)?;
        self.line_start = s.ends_with('\n');
        Ok(())
    }

    /// Writes a leaf with its own `Debug` and the caller's formatter (leaves are one line).
    fn leaf(&mut self, x: &dyn Debug) -> fmt::Result {
        self.indent()?;
        x.fmt(self.f)
    }

    /// `Name(` of a one-field tuple variant.
    fn tuple_open(&mut self, name: &str) -> fmt::Result {
        self.text(name)?;
        if self.pretty {
            self.text("(\n")?;
            self.level += 1;
            Ok(())
        } else {
            self.text("(")
        }
    }

    /// The `)` of [`Self::tuple_open`].
    fn tuple_close(&mut self) -> fmt::Result {
        if self.pretty {
            self.text(",\n")?;
            self.level -= 1;
        }
        self.text(")")
    }

    /// `[` or `{` of a list or map with or without elements.
    fn seq_open(&mut self, open: &str, nonempty: bool) -> fmt::Result {
        self.text(open)?;
        if self.pretty && nonempty {
            self.text("\n")?;
            self.level += 1;
        }
        Ok(())
    }

    /// What goes before an element.
    fn item_start(&mut self, first: bool) -> fmt::Result {
        if !self.pretty && !first {
            self.text(", ")?;
        }
        Ok(())
    }

    /// What goes after an element.
    fn item_end(&mut self) -> fmt::Result {
        if self.pretty {
            self.text(",\n")?;
        }
        Ok(())
    }

    /// `]` or `}` of [`Self::seq_open`].
    fn seq_close(&mut self, close: &str, nonempty: bool) -> fmt::Result {
        if self.pretty && nonempty {
            self.level -= 1;
        }
        self.text(close)
    }

    /// A list of leaves (a typed array's elements, an extension's bytes): no nesting below.
    fn flat_list<T: Debug>(&mut self, items: &[T]) -> fmt::Result {
        self.seq_open("[", !items.is_empty())?;
        for (i, x) in items.iter().enumerate() {
            self.item_start(i == 0)?;
            self.leaf(x)?;
            self.item_end()?;
        }
        self.seq_close("]", !items.is_empty())
    }

    /// A typed array as its derived `Debug` writes it: `I32([1, 2])`.
    fn typed(&mut self, t: &TypedArray) -> fmt::Result {
        macro_rules! variants {
            ($($v:ident),*) => {
                match t {
                    $(TypedArray::$v(items) => {
                        self.tuple_open(stringify!($v))?;
                        self.flat_list(items)?;
                    })*
                }
            };
        }
        variants!(I8, I16, I32, I64, I128, U8, U16, U32, U64, U128, F16, BF16, F32, F64, Bool, Str);
        self.tuple_close()
    }
}

/// What is still to be written, innermost last.
enum Task<'a> {
    Value(&'a Value),
    Elems {
        rest: std::slice::Iter<'a, Value>,
        first: bool,
    },
    Members {
        rest: std::slice::Iter<'a, (String, Value)>,
        first: bool,
    },
    IntMembers {
        rest: std::slice::Iter<'a, (IntKey, Value)>,
        first: bool,
    },
    ItemEnd,
    SeqClose(&'static str, bool),
    TupleClose,
}

/// Opens a generic array's list and queues its elements and its close.
fn open_array<'a>(a: &'a Array, out: &mut Out<'_, '_>, stack: &mut Vec<Task<'a>>) -> fmt::Result {
    out.seq_open("[", !a.is_empty())?;
    stack.push(Task::SeqClose("]", !a.is_empty()));
    stack.push(Task::Elems {
        rest: a.iter(),
        first: true,
    });
    Ok(())
}

/// Opens a map and queues its members and its close.
fn open_map<'a>(m: &'a Map, out: &mut Out<'_, '_>, stack: &mut Vec<Task<'a>>) -> fmt::Result {
    out.seq_open("{", !m.is_empty())?;
    stack.push(Task::SeqClose("}", !m.is_empty()));
    stack.push(Task::Members {
        rest: m.entries.iter(),
        first: true,
    });
    Ok(())
}

/// Opens an integer-keyed map (`IntMap<u8>{`) and queues its members and its close.
fn open_int_map<'a>(
    m: &'a IntMap,
    out: &mut Out<'_, '_>,
    stack: &mut Vec<Task<'a>>,
) -> fmt::Result {
    out.text("IntMap<")?;
    out.text(m.kind().name())?;
    out.text(">")?;
    out.seq_open("{", !m.is_empty())?;
    stack.push(Task::SeqClose("}", !m.is_empty()));
    stack.push(Task::IntMembers {
        rest: m.entries().iter(),
        first: true,
    });
    Ok(())
}

/// Writes one value, queueing the children of a container.
fn value<'a>(v: &'a Value, out: &mut Out<'_, '_>, stack: &mut Vec<Task<'a>>) -> fmt::Result {
    let name = match v {
        Value::Null => return out.text("Null"),
        Value::Bool(_) => "Bool",
        Value::Number(_) => "Number",
        Value::String(_) => "String",
        Value::Array(_) => "Array",
        Value::Object(_) => "Object",
        Value::Typed(_) => "Typed",
        Value::IntObject(_) => "IntObject",
        Value::Extension(_) => "Extension",
    };
    out.tuple_open(name)?;
    match v {
        Value::Null => {}
        Value::Bool(b) => out.leaf(b)?,
        Value::Number(n) => out.leaf(n)?,
        Value::String(s) => out.leaf(s)?,
        Value::Typed(t) => out.typed(t)?,
        Value::Extension(bytes) => out.flat_list(bytes)?,
        Value::Array(a) => {
            stack.push(Task::TupleClose);
            return open_array(a, out, stack);
        }
        Value::Object(m) => {
            stack.push(Task::TupleClose);
            return open_map(m, out, stack);
        }
        Value::IntObject(m) => {
            stack.push(Task::TupleClose);
            return open_int_map(m, out, stack);
        }
    }
    out.tuple_close()
}

/// Runs the tasks to the end.
fn run<'a>(out: &mut Out<'_, '_>, mut stack: Vec<Task<'a>>) -> fmt::Result {
    while let Some(task) = stack.pop() {
        match task {
            Task::Value(v) => value(v, out, &mut stack)?,
            Task::Elems { mut rest, first } => {
                if let Some(v) = rest.next() {
                    out.item_start(first)?;
                    stack.push(Task::Elems { rest, first: false });
                    stack.push(Task::ItemEnd);
                    stack.push(Task::Value(v));
                }
            }
            Task::Members { mut rest, first } => {
                if let Some((k, v)) = rest.next() {
                    out.item_start(first)?;
                    out.leaf(&k.as_str())?;
                    out.text(": ")?;
                    stack.push(Task::Members { rest, first: false });
                    stack.push(Task::ItemEnd);
                    stack.push(Task::Value(v));
                }
            }
            Task::IntMembers { mut rest, first } => {
                if let Some((k, v)) = rest.next() {
                    out.item_start(first)?;
                    out.leaf(k)?;
                    out.text(": ")?;
                    stack.push(Task::IntMembers { rest, first: false });
                    stack.push(Task::ItemEnd);
                    stack.push(Task::Value(v));
                }
            }
            Task::ItemEnd => out.item_end()?,
            Task::SeqClose(close, nonempty) => out.seq_close(close, nonempty)?,
            Task::TupleClose => out.tuple_close()?,
        }
    }
    Ok(())
}

/// Starts the writer on `f`, lets `start` write the root and queue its children, and runs.
fn with_out<'a>(
    f: &mut Formatter<'_>,
    start: impl FnOnce(&mut Out<'_, '_>, &mut Vec<Task<'a>>) -> fmt::Result,
) -> fmt::Result {
    let pretty = f.alternate();
    let mut out = Out {
        f,
        pretty,
        level: 0,
        line_start: false,
    };
    let mut stack = Vec::new();
    start(&mut out, &mut stack)?;
    run(&mut out, stack)
}

impl Debug for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_out(f, |out, stack| value(self, out, stack))
    }
}

impl Debug for Array {
    /// The elements as a list: `[Null, Bool(true)]`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_out(f, |out, stack| open_array(self, out, stack))
    }
}

impl Debug for Map {
    /// The members as a map: `{"k": Null}`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_out(f, |out, stack| open_map(self, out, stack))
    }
}

impl Debug for IntMap {
    /// The key kind and the members: `IntMap<u8>{1: Null}`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_out(f, |out, stack| open_int_map(self, out, stack))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::NumKind;

    /// What `#[derive(Debug)]` on `Value` (and the old impls of the containers) printed, as a
    /// mirror type converted from a value.
    #[derive(Debug)]
    #[allow(dead_code)] // Read only by the derived `Debug`.
    enum Derived {
        Null,
        Bool(bool),
        Number(super::super::Num),
        String(String),
        Array(DerivedList),
        Object(DerivedMap),
        Typed(TypedArray),
        IntObject(DerivedIntMap),
        Extension(Vec<u8>),
    }

    struct DerivedList(Vec<Derived>);
    struct DerivedMap(Vec<(String, Derived)>);
    struct DerivedIntMap(NumKind, Vec<(IntKey, Derived)>);

    impl Debug for DerivedList {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            f.debug_list().entries(self.0.iter()).finish()
        }
    }

    impl Debug for DerivedMap {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            f.debug_map()
                .entries(self.0.iter().map(|(k, v)| (k.as_str(), v)))
                .finish()
        }
    }

    impl Debug for DerivedIntMap {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            write!(f, "IntMap<{}>", self.0.name())?;
            f.debug_map()
                .entries(self.1.iter().map(|(k, v)| (*k, v)))
                .finish()
        }
    }

    fn derived(v: &Value) -> Derived {
        match v {
            Value::Null => Derived::Null,
            Value::Bool(b) => Derived::Bool(*b),
            Value::Number(n) => Derived::Number(*n),
            Value::String(s) => Derived::String(s.clone()),
            Value::Array(a) => Derived::Array(DerivedList(a.iter().map(derived).collect())),
            Value::Object(m) => Derived::Object(DerivedMap(
                m.iter().map(|(k, v)| (k.to_string(), derived(v))).collect(),
            )),
            Value::Typed(t) => Derived::Typed(t.clone()),
            Value::IntObject(m) => Derived::IntObject(DerivedIntMap(
                m.kind(),
                m.iter().map(|(k, v)| (k, derived(v))).collect(),
            )),
            Value::Extension(b) => Derived::Extension(b.clone()),
        }
    }

    fn samples() -> Vec<Value> {
        let mut im = IntMap::new(NumKind::I16);
        im.insert(-3, Value::from("minus three"));
        im.insert(7, Value::from(vec![Value::Null, Value::from(0.5)]));
        let leaves = vec![
            Value::Null,
            Value::from(true),
            Value::from(-3i8),
            Value::from(1.5f32),
            Value::from(u128::MAX),
            Value::from("line\nbreak \"quoted\" \u{7f}"),
            Value::from(""),
            Value::from(vec![1i32, -2, 3]),
            Value::from(vec![true, false]),
            Value::from(vec!["a".to_string(), "b\n".to_string()]),
            Value::from(Vec::<f64>::new()),
            Value::Extension(vec![0x03, 0x40, 0xff]),
            Value::Extension(Vec::new()),
            Value::Array(Array::new()),
            Value::Object(Map::new()),
            Value::IntObject(IntMap::new(NumKind::U8)),
        ];
        let mut out = leaves.clone();
        out.push(Value::IntObject(im.clone()));
        out.push(Value::Array(leaves.iter().cloned().collect()));
        out.push(Value::from_iter([
            ("a", Value::Array(leaves.iter().cloned().collect())),
            ("b", Value::IntObject(im)),
            (
                "",
                Value::from_iter([("deeper", Value::from(vec![Value::from(vec![Value::Null])]))]),
            ),
        ]));
        out
    }

    #[test]
    fn debug_prints_what_the_derived_impl_printed() {
        for v in samples() {
            let d = derived(&v);
            assert_eq!(format!("{v:?}"), format!("{d:?}"));
            assert_eq!(format!("{v:#?}"), format!("{d:#?}"));
            // Flags reach the leaves as they did through the derived impls.
            assert_eq!(format!("{v:x?}"), format!("{d:x?}"));
            assert_eq!(format!("{v:#X?}"), format!("{d:#X?}"));
            assert_eq!(format!("{v:5?}"), format!("{d:5?}"));
            assert_eq!(format!("{v:#5?}"), format!("{d:#5?}"));
            if let Value::Array(a) = &v {
                let list = DerivedList(a.iter().map(derived).collect());
                assert_eq!(format!("{a:?}"), format!("{list:?}"));
                assert_eq!(format!("{a:#?}"), format!("{list:#?}"));
            }
            if let Value::Object(m) = &v {
                let map = DerivedMap(m.iter().map(|(k, v)| (k.to_string(), derived(v))).collect());
                assert_eq!(format!("{m:?}"), format!("{map:?}"));
                assert_eq!(format!("{m:#?}"), format!("{map:#?}"));
            }
            if let Value::IntObject(m) = &v {
                let map = DerivedIntMap(m.kind(), m.iter().map(|(k, v)| (k, derived(v))).collect());
                assert_eq!(format!("{m:?}"), format!("{map:?}"));
                assert_eq!(format!("{m:#?}"), format!("{map:#?}"));
            }
        }
    }

    #[test]
    fn debug_of_a_nested_value_by_hand() {
        let mut im = IntMap::new(NumKind::U8);
        im.insert(1u8, Value::Null);
        let v = Value::from_iter([
            ("a", Value::from(vec![Value::from(1), Value::from("x")])),
            ("b", Value::IntObject(im)),
            ("c", Value::from(vec![2u8])),
        ]);
        assert_eq!(
            format!("{v:?}"),
            r#"Object({"a": Array([Number(1i32), String("x")]), "b": IntObject(IntMap<u8>{1: Null}), "c": Typed(U8([2]))})"#
        );
        let pretty = r#"Object(
    {
        "a": Array(
            [
                Number(
                    1i32,
                ),
                String(
                    "x",
                ),
            ],
        ),
        "b": IntObject(
            IntMap<u8>{
                1: Null,
            },
        ),
        "c": Typed(
            U8(
                [
                    2,
                ],
            ),
        ),
    },
)"#;
        assert_eq!(format!("{v:#?}"), pretty);
        assert_eq!(format!("{:?}", Value::Array(Array::new())), "Array([])");
        assert_eq!(
            format!("{:#?}", Value::Object(Map::new())),
            "Object(\n    {},\n)"
        );
    }

    /// Nested `n` levels deep, alternating arrays, objects and integer-keyed objects.
    fn deep(n: usize) -> Value {
        let mut v = Value::from(1u8);
        for i in 0..n {
            v = match i % 3 {
                0 => Value::from(vec![v]),
                1 => Value::from_iter([("k", v)]),
                _ => {
                    let mut m = IntMap::new(NumKind::I32);
                    m.insert(-1, v);
                    Value::IntObject(m)
                }
            };
        }
        v
    }

    /// What `{:?}` prints for [`deep`]`(n)`.
    fn deep_expected(n: usize) -> String {
        let open = ["Array([", "Object({\"k\": ", "IntObject(IntMap<i32>{-1: "];
        let close = ["])", "})", "})"];
        let mut s = String::new();
        for i in (0..n).rev() {
            s.push_str(open[i % 3]);
        }
        s.push_str("Number(1u8)");
        for i in 0..n {
            s.push_str(close[i % 3]);
        }
        s
    }

    /// Runs `f` on a thread with a 256 KiB stack.
    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn debug_does_not_recurse() {
        const N: usize = 100_000;
        on_small_stack(|| {
            let v = deep(N);
            assert_eq!(format!("{v:?}"), deep_expected(N));
            if let Value::Array(a) = &v {
                let inner = deep_expected(N);
                assert_eq!(format!("{a:?}"), inner["Array(".len()..inner.len() - 1]);
            }
        });
    }

    #[test]
    fn pretty_debug_does_not_recurse() {
        // The pretty form is quadratic in the depth (every line is indented): a thousand
        // levels make 16 MB.
        const N: usize = 1000;
        let ours = on_small_stack(|| format!("{:#?}", deep(N)));
        // Two lines open each level and two close it (the last level's are the leaf's), each
        // indented four more spaces per tuple and per list or map.
        let lines: Vec<&str> = ours.lines().collect();
        assert_eq!(lines.len(), 4 * N + 3);
        assert_eq!(lines[0], "Array(");
        assert_eq!(lines[2 * N + 1], format!("{}1u8,", " ".repeat(8 * N + 4)));
        assert_eq!(lines[4 * N + 2], ")");
        // The derived form costs time in the depth for every byte (one pad adapter per level):
        // compare at a depth where it is still quick, on a stack that holds its recursion.
        const SHALLOW: usize = 150;
        let ours = on_small_stack(|| format!("{:#?}", deep(SHALLOW)));
        let derived = std::thread::Builder::new()
            .stack_size(64 * 1024 * 1024)
            .spawn(|| format!("{:#?}", derived(&deep(SHALLOW))))
            .unwrap()
            .join()
            .unwrap();
        assert!(ours == derived, "pretty form differs from the derived one");
    }
}
