//! `structio stats`: what a document is made of: values by type, number kinds, string and
//! container sizes, nesting depth, and the bytes each top-level part takes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;

use structio::value::TypedArray;
use structio::{Reflect, Value};

use crate::files::Format;
use crate::json_out::{JsonOut, Layout};

/// Counts and sizes gathered over a whole document.
#[derive(Debug, Default)]
pub struct Stats {
    /// Values of each kind ("null", "string", ...), typed arrays counted once each.
    pub kinds: BTreeMap<&'static str, u64>,
    /// Numbers by wire kind (`i64`, `f64`, ...), typed array elements included.
    pub numbers: BTreeMap<&'static str, u64>,
    /// Strings: how many, total bytes, longest.
    pub strings: Sizes,
    /// Generic arrays: element counts.
    pub arrays: Sizes,
    /// Typed arrays: element counts, per element kind.
    pub typed: BTreeMap<&'static str, Sizes>,
    /// Objects (both key kinds): member counts.
    pub objects: Sizes,
    /// BEVE extension values: their byte sizes.
    pub extensions: Sizes,
    /// Deepest nesting of containers (a scalar document has depth 0).
    pub max_depth: usize,
}

/// How many of something, their total and their largest size.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sizes {
    /// How many.
    pub count: u64,
    /// Sum of the sizes.
    pub total: u64,
    /// Largest size.
    pub max: u64,
}

impl Sizes {
    fn add(&mut self, n: usize) {
        self.count += 1;
        self.total += n as u64;
        self.max = self.max.max(n as u64);
    }

    fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total as f64 / self.count as f64
        }
    }
}

/// The name of a typed array's element kind.
fn typed_kind(t: &TypedArray) -> &'static str {
    match t.num_kind() {
        Some(k) => k.name(),
        None if matches!(t, TypedArray::Bool(_)) => "bool",
        None => "string",
    }
}

impl Stats {
    /// Walks `root` (without recursion: documents may be deep).
    pub fn of(root: &Value) -> Stats {
        let mut s = Stats::default();
        let mut stack: Vec<(&Value, usize)> = vec![(root, 0)];
        while let Some((v, depth)) = stack.pop() {
            let kind = match v {
                Value::Null => "null",
                Value::Bool(_) => "bool",
                Value::Number(n) => {
                    *s.numbers.entry(n.kind().name()).or_default() += 1;
                    "number"
                }
                Value::String(t) => {
                    s.strings.add(t.len());
                    "string"
                }
                Value::Array(a) => {
                    s.arrays.add(a.len());
                    s.max_depth = s.max_depth.max(depth + 1);
                    stack.extend(a.iter().map(|x| (x, depth + 1)));
                    "array"
                }
                Value::Object(m) => {
                    s.objects.add(m.len());
                    s.max_depth = s.max_depth.max(depth + 1);
                    stack.extend(m.values().map(|x| (x, depth + 1)));
                    "object"
                }
                Value::IntObject(m) => {
                    s.objects.add(m.len());
                    s.max_depth = s.max_depth.max(depth + 1);
                    stack.extend(m.values().map(|x| (x, depth + 1)));
                    "integer-keyed object"
                }
                Value::Typed(t) => {
                    let k = typed_kind(t);
                    s.typed.entry(k).or_default().add(t.len());
                    s.max_depth = s.max_depth.max(depth + 1);
                    match t {
                        TypedArray::Str(items) => items.iter().for_each(|x| s.strings.add(x.len())),
                        TypedArray::Bool(_) => {}
                        _ => *s.numbers.entry(k).or_default() += t.len() as u64,
                    }
                    "typed array"
                }
                Value::Extension(b) => {
                    s.extensions.add(b.len());
                    "extension"
                }
            };
            *s.kinds.entry(kind).or_default() += 1;
        }
        s
    }
}

/// One top-level part of a document and the bytes it takes in a format.
pub struct Part {
    /// `$.key` or `$[3]`.
    pub path: String,
    /// What it is ("an array of 3 elements").
    pub what: String,
    /// Encoded size.
    pub bytes: u64,
}

/// An `io::Write` that only counts.
struct Count(u64);

impl io::Write for Count {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0 += b.len() as u64;
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The encoded size of `v` in `format` (compact JSON, or BEVE as written by default).
pub fn encoded_size(v: &Value, format: Format) -> u64 {
    match format {
        Format::Beve => structio::beve::beve_size(v) as u64,
        Format::Json => {
            let mut w = JsonOut::new(
                Count(0),
                Layout {
                    pretty: false,
                    indent: 0,
                    color: false,
                },
            );
            v.write(&mut w);
            w.finish().map_or(0, |c| c.0)
        }
    }
}

/// The top-level parts of `root` (members of an object, elements of an array) with their
/// sizes, largest first.
pub fn parts(root: &Value, format: Format) -> Vec<Part> {
    let part = |path: String, v: &Value| Part {
        path,
        what: crate::path::describe(v),
        bytes: encoded_size(v, format),
    };
    let mut out: Vec<Part> = match root {
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| part(crate::path::render(&[crate::path::Step::Key(k.into())]), v))
            .collect(),
        Value::IntObject(m) => m.iter().map(|(k, v)| part(format!("$[{k}]"), v)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| part(format!("$[{i}]"), v))
            .collect(),
        _ => Vec::new(),
    };
    out.sort_by_key(|p| std::cmp::Reverse(p.bytes));
    out
}

/// Thousands separators for counts.
fn n(x: u64) -> String {
    let d = x.to_string();
    let mut s = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i) % 3 == 0 {
            s.push(',');
        }
        s.push(c);
    }
    s
}

/// The report `structio stats` prints.
pub fn report(name: &str, format: Format, size: usize, root: &Value, top: usize) -> String {
    let s = Stats::of(root);
    let mut r = String::new();
    let total: u64 = s.kinds.values().sum();
    let _ = writeln!(r, "{name}: {} bytes of {}", n(size as u64), format.name());
    let _ = writeln!(r, "{} values, nesting depth {}", n(total), s.max_depth);
    let _ = writeln!(r, "\nvalues by type:");
    for (kind, count) in &s.kinds {
        let _ = writeln!(r, "  {kind:<22}{:>14}", n(*count));
    }
    if !s.numbers.is_empty() {
        let _ = writeln!(r, "\nnumbers by kind (typed array elements included):");
        for (kind, count) in &s.numbers {
            let _ = writeln!(r, "  {kind:<22}{:>14}", n(*count));
        }
    }
    let sizes = |r: &mut String, label: &str, unit: &str, z: &Sizes| {
        if z.count > 0 {
            let _ = writeln!(
                r,
                "  {label:<22}{:>14}   {} {unit} in all, largest {}, mean {:.1}",
                n(z.count),
                n(z.total),
                n(z.max),
                z.mean()
            );
        }
    };
    if s.strings.count + s.arrays.count + s.objects.count + s.extensions.count > 0
        || !s.typed.is_empty()
    {
        let _ = writeln!(r, "\nsizes:");
        sizes(&mut r, "strings", "bytes", &s.strings);
        sizes(&mut r, "arrays", "elements", &s.arrays);
        for (kind, z) in &s.typed {
            sizes(&mut r, &format!("typed arrays of {kind}"), "elements", z);
        }
        sizes(&mut r, "objects", "members", &s.objects);
        sizes(&mut r, "extensions", "bytes", &s.extensions);
    }
    let parts = parts(root, format);
    if !parts.is_empty() {
        let unit = match format {
            Format::Json => "bytes of compact JSON",
            Format::Beve => "bytes of BEVE",
        };
        let _ = writeln!(r, "\ntop-level parts, largest first ({unit}):");
        for p in parts.iter().take(top) {
            let _ = writeln!(r, "  {:<30}{:>14}   {}", p.path, n(p.bytes), p.what);
        }
        if parts.len() > top {
            let rest: u64 = parts[top..].iter().map(|p| p.bytes).sum();
            let _ = writeln!(
                r,
                "  ... {} more parts, {} bytes",
                n((parts.len() - top) as u64),
                n(rest)
            );
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes() {
        let v: Value =
            structio::from_json(r#"{"a":[1,2.5,"xyz"],"b":{"c":null,"d":[[]]},"e":true}"#).unwrap();
        let s = Stats::of(&v);
        assert_eq!(s.kinds["number"], 2);
        assert_eq!(s.kinds["array"], 3);
        assert_eq!(s.kinds["object"], 2);
        assert_eq!(s.numbers["i64"], 1);
        assert_eq!(s.numbers["f64"], 1);
        assert_eq!((s.strings.count, s.strings.total, s.strings.max), (1, 3, 3));
        assert_eq!((s.arrays.count, s.arrays.total, s.arrays.max), (3, 4, 3));
        assert_eq!(s.max_depth, 4);
        let p = parts(&v, Format::Json);
        assert_eq!(p[0].path, "$.b");
        assert_eq!(p[0].bytes, r#"{"c":null,"d":[[]]}"#.len() as u64);
        assert_eq!(p[1].path, "$.a");
        assert_eq!(p[1].bytes, r#"[1,2.5,"xyz"]"#.len() as u64);
        assert_eq!(p.iter().map(|p| p.bytes).sum::<u64>(), 13 + 19 + 4);
        let b = parts(&v, Format::Beve);
        assert_eq!(b.iter().find(|p| p.path == "$.e").map(|p| p.bytes), Some(1));
    }

    #[test]
    fn typed_arrays_count_their_elements() {
        let v = Value::from_iter([("xs", Value::from(vec![1.0f32, 2.0]))]);
        let s = Stats::of(&v);
        assert_eq!(s.numbers["f32"], 2);
        assert_eq!(s.typed["f32"].total, 2);
        assert_eq!(s.max_depth, 2);
    }

    #[test]
    fn numbers_get_separators() {
        assert_eq!(n(0), "0");
        assert_eq!(n(999), "999");
        assert_eq!(n(1000), "1,000");
        assert_eq!(n(1234567), "1,234,567");
    }
}
