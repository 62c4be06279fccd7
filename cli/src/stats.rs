//! `structio stats`: what a document is made of: values by type, number kinds, string and
//! container sizes, nesting depth, and the bytes each top-level part takes.

use std::fmt::Write as _;

use structio::value::TypedArray;
use structio::Value;

use crate::error::quote;
use crate::files::Format;
use crate::scan::Tally;

/// Counts and sizes gathered over a whole document.
#[derive(Debug, Default)]
pub struct Stats {
    /// Values of each kind ("null", "string", ...), typed arrays counted once each.
    pub kinds: Counts<u64>,
    /// Numbers by wire kind (`i64`, `f64`, ...), typed array elements included.
    pub numbers: Counts<u64>,
    /// Strings: how many, total bytes, longest.
    pub strings: Sizes,
    /// Generic arrays: element counts.
    pub arrays: Sizes,
    /// Typed arrays: element counts, per element kind.
    pub typed: Counts<Sizes>,
    /// Objects (both key kinds): member counts.
    pub objects: Sizes,
    /// BEVE extension values: their byte sizes.
    pub extensions: Sizes,
    /// Deepest nesting of containers (a scalar document has depth 0).
    pub max_depth: usize,
}

/// A few counters named by static strings. A linear scan over a handful of names beats a
/// tree map here: it runs once per value of documents with tens of millions of them.
#[derive(Clone)]
pub struct Counts<V>(Vec<(&'static str, V)>);

impl<V: std::fmt::Debug> std::fmt::Debug for Counts<V> {
    /// Sorted by name, so that equal counts print alike whatever order they were made in.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut v: Vec<_> = self.0.iter().collect();
        v.sort_by_key(|(n, _)| *n);
        f.debug_map()
            .entries(v.into_iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<V> Default for Counts<V> {
    fn default() -> Self {
        Counts(Vec::new())
    }
}

impl<V: Default> Counts<V> {
    /// The counter named `name`, created at its default.
    #[inline]
    pub fn entry(&mut self, name: &'static str) -> &mut V {
        let i = match self
            .0
            .iter()
            .position(|(n, _)| std::ptr::eq(*n, name) || *n == name)
        {
            Some(i) => i,
            None => {
                self.0.push((name, V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }

    /// The counters, sorted by name.
    pub fn sorted(&self) -> Vec<&(&'static str, V)> {
        let mut v: Vec<_> = self.0.iter().collect();
        v.sort_by_key(|(n, _)| *n);
        v
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<V> std::ops::Index<&str> for Counts<V> {
    type Output = V;
    fn index(&self, name: &str) -> &V {
        match self.0.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => v,
            None => panic!("no counter `{name}`"),
        }
    }
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
    /// Counts one of size `n`.
    pub fn add(&mut self, n: usize) {
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
    /// Walks `root` (without recursion: documents may be deep). The command walks the input
    /// instead ([`Tally`]); the tests check the two agree.
    #[cfg(test)]
    pub fn of(root: &Value) -> Stats {
        let mut s = Stats::default();
        // Each value with the number of containers around it; a container is counted when
        // its entry is popped, as a walk over the input counts it when it closes.
        let mut stack: Vec<(&Value, usize)> = vec![(root, 0)];
        while let Some((v, around)) = stack.pop() {
            match v {
                Value::Array(a) => {
                    s.container("an array", a.len(), around + 1);
                    stack.extend(a.iter().map(|x| (x, around + 1)));
                }
                Value::Object(m) => {
                    s.container("an object", m.len(), around + 1);
                    stack.extend(m.values().map(|x| (x, around + 1)));
                }
                Value::IntObject(m) => {
                    s.container("an integer-keyed object", m.len(), around + 1);
                    stack.extend(m.values().map(|x| (x, around + 1)));
                }
                leaf => s.leaf(leaf, around),
            }
        }
        s
    }

    /// Counts an array or object of `n` members at nesting `depth` (1 for the outermost);
    /// `what` is "an array", "an object" or "an integer-keyed object".
    pub fn container(&mut self, what: &str, n: usize, depth: usize) {
        let kind = match what {
            "an array" => {
                self.arrays.add(n);
                "array"
            }
            "an object" => {
                self.objects.add(n);
                "object"
            }
            _ => {
                self.objects.add(n);
                "integer-keyed object"
            }
        };
        *self.kinds.entry(kind) += 1;
        self.max_depth = self.max_depth.max(depth);
    }

    /// Counts a value that is not a generic container, inside `around` containers.
    pub fn leaf(&mut self, v: &Value, around: usize) {
        let kind = match v {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(n) => {
                *self.numbers.entry(n.kind().name()) += 1;
                "number"
            }
            Value::String(t) => {
                self.strings.add(t.len());
                "string"
            }
            Value::Typed(t) => {
                let k = typed_kind(t);
                self.typed.entry(k).add(t.len());
                self.max_depth = self.max_depth.max(around + 1);
                match t {
                    TypedArray::Str(items) => items.iter().for_each(|x| self.strings.add(x.len())),
                    TypedArray::Bool(_) => {}
                    _ => *self.numbers.entry(k) += t.len() as u64,
                }
                "typed array"
            }
            Value::Extension(b) => {
                self.extensions.add(b.len());
                "extension"
            }
            Value::Array(a) => return self.container("an array", a.len(), around + 1),
            Value::Object(m) => return self.container("an object", m.len(), around + 1),
            Value::IntObject(m) => {
                return self.container("an integer-keyed object", m.len(), around + 1)
            }
        };
        *self.kinds.entry(kind) += 1;
    }
}

/// Thousands separators for counts.
fn n(x: u64) -> String {
    let d = x.to_string();
    let mut s = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(c);
    }
    s
}

/// The report `structio stats` prints: the parts listed are those `tally` kept.
pub fn report(name: &str, format: Format, size: usize, tally: &Tally) -> String {
    let s = &tally.stats;
    let mut r = String::new();
    let total: u64 = s.kinds.0.iter().map(|(_, c)| c).sum();
    let _ = writeln!(r, "{name}: {} bytes of {}", n(size as u64), format.name());
    let _ = writeln!(r, "{} values, nesting depth {}", n(total), s.max_depth);
    let _ = writeln!(r, "\nvalues by type:");
    for (kind, count) in s.kinds.sorted() {
        let _ = writeln!(r, "  {kind:<22}{:>14}", n(*count));
    }
    if !s.numbers.is_empty() {
        let _ = writeln!(r, "\nnumbers by kind (typed array elements included):");
        for (kind, count) in s.numbers.sorted() {
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
        for (kind, z) in s.typed.sorted() {
            sizes(&mut r, &format!("typed arrays of {kind}"), "elements", z);
        }
        sizes(&mut r, "objects", "members", &s.objects);
        sizes(&mut r, "extensions", "bytes", &s.extensions);
    }
    let parts = tally.largest();
    let (rest, rest_bytes) = tally.rest();
    if tally.part_count > 0 {
        let _ = writeln!(r, "\ntop-level parts, largest first (bytes in the file):");
        for p in parts {
            let _ = writeln!(r, "  {:<30}{:>14}   {}", quote(&p.path), n(p.bytes), p.what);
        }
        if rest > 0 {
            let _ = writeln!(r, "  ... {} more parts, {} bytes", n(rest), n(rest_bytes));
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
