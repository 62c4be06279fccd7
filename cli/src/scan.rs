//! Walking a document through structio's generic [`Reader`] without building it as a
//! [`Value`]: [`Tally`] gathers the statistics of `structio stats`, [`Pick`] finds the part
//! `--path` names and keeps only that. Both implement [`Reflect`], so `from_json` and
//! `from_beve` drive them over either format; memory stays at the input plus one leaf (or the
//! part picked).
//!
//! Scalars, typed arrays and extensions are read as `Value`s one at a time; arrays and objects
//! are walked with an explicit stack, so depth costs no call stack.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use structio::value::IntKey;
use structio::{Key, NumKind, Reader, Reflect, Value, ValueKind, Wire, Writer};

use crate::path::{describe, render, shown, sized, Step};
use crate::stats::Stats;

/// An open container.
enum Frame<S, M> {
    /// An array and the elements seen so far.
    Array(S, usize),
    /// An object, the members seen so far, and what it is ("an object", "an integer-keyed
    /// object").
    Object(M, usize, &'static str),
}

/// One member or element of the top-level container: its path, what it is, and the bytes
/// it takes in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// `$.key` or `$[3]`.
    pub path: String,
    /// "an array of 3 elements", "a string", ...
    pub what: String,
    /// Its size in the input (JSON: its text, without the separator after it).
    pub bytes: u64,
    /// Its position among the parts, so that equal sizes keep the document's order.
    index: u64,
}

impl Ord for Part {
    /// Larger first: more bytes, or as many and earlier in the document.
    fn cmp(&self, other: &Part) -> std::cmp::Ordering {
        self.bytes
            .cmp(&other.bytes)
            .then(other.index.cmp(&self.index))
    }
}

impl PartialOrd for Part {
    fn partial_cmp(&self, other: &Part) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The statistics of a document, and its largest top-level parts. Memory is bounded by the
/// number of parts asked for, not by the document: each part is measured as the walk
/// leaves it, and kept (its path and description) only while it is among the largest.
pub struct Tally<'a> {
    /// Counts and sizes.
    pub stats: Stats,
    /// How many of the largest parts to keep.
    top: usize,
    /// The largest parts so far, at most `top`, the smallest of them on top of the heap.
    largest: BinaryHeap<Reverse<Part>>,
    /// How many parts the top-level container has.
    pub part_count: u64,
    /// Their bytes in all.
    pub part_bytes: u64,
    /// JSON input, whose parts are measured without the separator after them.
    json: Option<&'a [u8]>,
}

impl<'a> Tally<'a> {
    /// A tally that keeps the `top` largest parts. `json` is the input when it is JSON text:
    /// a JSON reader's offset after a value is that of the next token, past whitespace and a
    /// comma, which are then taken off the part's size.
    pub fn new(top: usize, json: Option<&'a [u8]>) -> Tally<'a> {
        Tally {
            stats: Stats::default(),
            top,
            largest: BinaryHeap::with_capacity(top.min(1024)),
            part_count: 0,
            part_bytes: 0,
            json,
        }
    }

    /// The largest parts, largest first (equal sizes in document order).
    pub fn largest(&self) -> Vec<&Part> {
        let mut v: Vec<&Part> = self.largest.iter().map(|p| &p.0).collect();
        v.sort_by(|a, b| b.cmp(a));
        v
    }

    /// How many parts are left out of [`Tally::largest`], and their bytes.
    pub fn rest(&self) -> (u64, u64) {
        let kept: u64 = self.largest.iter().map(|p| p.0.bytes).sum();
        (
            self.part_count - self.largest.len() as u64,
            self.part_bytes - kept,
        )
    }

    /// The size of the part from `start` to `end` (where the reader went on after it).
    fn measure(&self, start: usize, end: usize) -> u64 {
        let Some(input) = self.json else {
            return (end - start) as u64;
        };
        let mut end = end.min(input.len());
        let ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        while end > start && ws(input[end - 1]) {
            end -= 1;
        }
        if end > start && input[end - 1] == b',' {
            end -= 1;
        }
        while end > start && ws(input[end - 1]) {
            end -= 1;
        }
        (end - start) as u64
    }

    /// Counts a part that ran from `start` to `end`, and keeps it if it is among the largest
    /// (`what` is only asked for then).
    fn offer(&mut self, path: String, what: impl FnOnce() -> String, start: usize, end: usize) {
        let bytes = self.measure(start, end);
        let index = self.part_count;
        self.part_count += 1;
        self.part_bytes += bytes;
        if self.top == 0 {
            return;
        }
        if self.largest.len() >= self.top {
            // Full: a part as large as the smallest kept one comes later, and stays out.
            match self.largest.peek() {
                Some(smallest) if bytes > smallest.0.bytes => {
                    self.largest.pop();
                }
                _ => return,
            }
        }
        self.largest.push(Reverse(Part {
            path,
            what: what(),
            bytes,
            index,
        }));
    }
}

impl<'de> Reflect<'de> for Tally<'_> {
    /// A tally is only ever read; written, it is `null`.
    fn write<W: Writer>(&self, w: &mut W) {
        w.null();
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        let mut stack: Vec<Frame<R::Seq, R::Map>> = Vec::new();
        // The top-level part being read: its path and where it started.
        let mut part: Option<(String, usize)> = None;
        loop {
            match r.peek_kind()? {
                ValueKind::Array => {
                    let seq = r.begin_array()?;
                    stack.push(Frame::Array(seq, 0));
                }
                ValueKind::Object => {
                    let map = r.begin_object()?;
                    stack.push(Frame::Object(map, 0, "an object"));
                }
                ValueKind::IntKeyObject(_) => {
                    let map = r.begin_object()?;
                    stack.push(Frame::Object(map, 0, "an integer-keyed object"));
                }
                ValueKind::String if !(stack.len() == 1 && part.is_some()) => {
                    let n = r.read_str()?.as_str().len();
                    self.stats.strings.add(n);
                    *self.stats.kinds.entry("string") += 1;
                }
                ValueKind::Number(kind) if !(stack.len() == 1 && part.is_some()) => {
                    let w = r.read_wire_number()?;
                    *self.stats.numbers.entry(number_kind(kind, w)) += 1;
                    *self.stats.kinds.entry("number") += 1;
                }
                _ => {
                    let mut v = Value::Null;
                    v.read(r)?;
                    self.stats.leaf(&v, stack.len());
                    if stack.len() == 1 {
                        if let Some((path, start)) = part.take() {
                            self.offer(path, || describe(&v), start, r.offset());
                        }
                    }
                }
            }
            // Move on to the next child, closing the containers that ended.
            loop {
                let depth = stack.len();
                let Some(top) = stack.last_mut() else {
                    return Ok(());
                };
                // The path of the next child, named only at the top level (`None` at the end).
                let next = match top {
                    Frame::Array(seq, n) => {
                        if r.next_element(seq)? {
                            *n += 1;
                            Some((depth == 1).then(|| format!("$[{}]", *n - 1)))
                        } else {
                            None
                        }
                    }
                    Frame::Object(map, n, _) => match r.next_key(map)? {
                        Some(key) => {
                            *n += 1;
                            Some((depth == 1).then(|| match key {
                                Key::Str(s) => render(&[Step::Key(s.as_str().to_string())]),
                                Key::Int(w) => match IntKey::from_wire(w) {
                                    Some(k) => format!("$[{k}]"),
                                    None => "$[?]".to_string(),
                                },
                            }))
                        }
                        None => None,
                    },
                };
                match next {
                    Some(path) => {
                        if let Some(path) = path {
                            part = Some((path, r.offset()));
                        }
                        break;
                    }
                    None => {
                        let (what, n) = match stack.pop() {
                            Some(Frame::Array(_, n)) => ("an array", n),
                            Some(Frame::Object(_, n, what)) => (what, n),
                            None => unreachable!("the stack had a top"),
                        };
                        self.stats.container(what, n, depth);
                        if depth == 2 {
                            if let Some((path, start)) = part.take() {
                                self.offer(path, || sized(what, n), start, r.offset());
                            }
                        }
                    }
                }
            }
        }
    }

    /// A new tally counts the document and keeps none of its parts (for those, read into a
    /// [`Tally::new`]).
    fn read_new<R: Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let mut v = Tally::new(0, None);
        v.read(r)?;
        Ok(v)
    }
}

/// The name of a number's kind: BEVE says it; for JSON it is the kind `Value` gives it (`i64`,
/// else `u64`, else `i128`/`u128`; `f64` for fractions and exponents).
fn number_kind(kind: Option<NumKind>, w: Wire) -> &'static str {
    if let Some(k) = kind {
        return k.name();
    }
    match w {
        Wire::Int(i) if i64::try_from(i).is_ok() => "i64",
        Wire::Int(_) => "i128",
        Wire::Uint(u) if i64::try_from(u).is_ok() => "i64",
        Wire::Uint(u) if u64::try_from(u).is_ok() => "u64",
        Wire::Uint(_) => "u128",
        Wire::F32(_) => "f32",
        Wire::F64(_) => "f64",
    }
}

/// The part of a document a path names: `found`, or why there is none in `missing`.
#[derive(Default)]
pub struct Pick {
    /// The path.
    pub steps: Vec<Step>,
    /// The part, when the document has it.
    pub found: Option<Value>,
    /// Why not, otherwise.
    pub missing: Option<String>,
}

impl Pick {
    /// A pick of `steps`.
    pub fn new(steps: Vec<Step>) -> Pick {
        Pick {
            steps,
            found: None,
            missing: None,
        }
    }
}

/// Whether a key read from the document is the one `step` names.
fn key_matches(key: &Key<'_, '_>, step: &Step) -> bool {
    match (key, step) {
        (Key::Str(s), Step::Key(k)) => s.as_str() == k,
        (Key::Str(s), Step::Index(i)) => s.as_str() == i.to_string(),
        (Key::Int(w), Step::Index(i)) => IntKey::from_wire(*w) == Some(IntKey::from(*i)),
        (Key::Int(w), Step::Key(k)) => {
            IntKey::parse(k).is_some_and(|k| IntKey::from_wire(*w) == Some(k))
        }
    }
}

impl<'de> Reflect<'de> for Pick {
    /// A pick is only ever read; written, it is `null`.
    fn write<W: Writer>(&self, w: &mut W) {
        w.null();
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        let mut open: Vec<Frame<R::Seq, R::Map>> = Vec::new();
        let mut i = 0;
        // Descend while the document has the next step.
        while i < self.steps.len() {
            let step = &self.steps[i];
            let here = shown(&self.steps[..i]);
            let missing = |what: String| {
                format!(
                    "no `{}` in the document: `{here}` is {what}",
                    shown(&self.steps[..=i])
                )
            };
            match (r.peek_kind()?, step) {
                (ValueKind::Array, Step::Index(want)) => {
                    let mut seq = r.begin_array()?;
                    let mut n = 0usize;
                    let mut hit = false;
                    while r.next_element(&mut seq)? {
                        if i128::try_from(n).is_ok_and(|n| n == *want) {
                            hit = true;
                            break;
                        }
                        r.skip_value()?;
                        n += 1;
                    }
                    if !hit {
                        self.missing = Some(missing(sized("an array", n)));
                        break;
                    }
                    open.push(Frame::Array(seq, n));
                }
                (kind @ (ValueKind::Object | ValueKind::IntKeyObject(_)), _) => {
                    let what = match kind {
                        ValueKind::Object => "an object",
                        _ => "an integer-keyed object",
                    };
                    let mut map = r.begin_object()?;
                    let mut n = 0usize;
                    let mut hit = false;
                    while let Some(key) = r.next_key(&mut map)? {
                        n += 1;
                        if key_matches(&key, step) {
                            hit = true;
                            break;
                        }
                        r.skip_value()?;
                    }
                    if !hit {
                        self.missing = Some(missing(sized(what, n)));
                        break;
                    }
                    open.push(Frame::Object(map, n, what));
                }
                _ => {
                    // A leaf, or an array asked for a key: read it to say what it is (and to
                    // index a typed array).
                    let mut v = Value::Null;
                    v.read(r)?;
                    match crate::path::find(&v, &self.steps[i..]) {
                        Ok(part) => self.found = Some(part.into_owned()),
                        Err(m) => self.missing = Some(rebase(&m, &self.steps[..i])),
                    }
                    break;
                }
            }
            i += 1;
        }
        if i == self.steps.len() && self.found.is_none() && self.missing.is_none() {
            let mut v = Value::Null;
            v.read(r)?;
            self.found = Some(v);
        }
        // Read what is left of the open containers, so the whole document is checked.
        while let Some(frame) = open.pop() {
            match frame {
                Frame::Array(mut seq, _) => {
                    while r.next_element(&mut seq)? {
                        r.skip_value()?;
                    }
                }
                Frame::Object(mut map, _, _) => {
                    while r.next_key(&mut map)?.is_some() {
                        r.skip_value()?;
                    }
                }
            }
        }
        Ok(())
    }

    fn read_new<R: Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

/// A message from [`crate::path::find`] on a value found at `prefix`, with its paths made
/// absolute (`$` there is `prefix` here).
fn rebase(message: &str, prefix: &[Step]) -> String {
    let base = shown(prefix);
    message.replace("`$", &format!("`{base}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(json: &str, path: &str) -> Result<String, String> {
        let steps = crate::path::parse(path).unwrap();
        let mut p = Pick::new(steps.clone());
        structio::read_json(&mut p, json).map_err(|e| e.to_string())?;
        let beve = structio::to_beve(&structio::from_json::<Value>(json).unwrap());
        let mut q = Pick::new(steps);
        structio::read_beve(&mut q, &beve).map_err(|e| e.to_string())?;
        let a = match (p.found, p.missing) {
            (Some(v), _) => Ok(structio::to_json(&v)),
            (None, m) => Err(m.unwrap_or_default()),
        };
        let b = match (q.found, q.missing) {
            (Some(v), _) => Ok(structio::to_json(&v)),
            (None, m) => Err(m.unwrap_or_default()),
        };
        assert_eq!(a, b, "JSON and BEVE agree");
        a
    }

    #[test]
    fn picks_parts_in_both_formats() {
        let doc = r#"{"a":[10,{"b c":[1.5,2.5]}],"n":1,"s":"x"}"#;
        assert_eq!(pick(doc, "$").unwrap(), doc);
        assert_eq!(pick(doc, "$.a[0]").unwrap(), "10");
        assert_eq!(pick(doc, "$.a[1][\"b c\"]").unwrap(), "[1.5,2.5]");
        assert_eq!(pick(doc, "$.a[1][\"b c\"][1]").unwrap(), "2.5");
        assert_eq!(pick(doc, "/a/1/b c/0").unwrap(), "1.5");
        assert_eq!(
            pick(doc, "$.a[5]").unwrap_err(),
            "no `$.a[5]` in the document: `$.a` is an array of 2 elements"
        );
        assert_eq!(
            pick(doc, "$.zz").unwrap_err(),
            "no `$.zz` in the document: `$` is an object with 3 members"
        );
        assert_eq!(
            pick(doc, "$.n.x").unwrap_err(),
            "no `$.n.x` in the document: `$.n` is a number"
        );
        assert_eq!(
            pick(doc, "$.a[1][\"b c\"][7]").unwrap_err(),
            "no `$.a[1][\"b c\"][7]` in the document: `$.a[1][\"b c\"]` is an array of 2 elements"
        );
    }

    #[test]
    fn picks_check_the_whole_document() {
        let steps = crate::path::parse("$.a").unwrap();
        let mut p = Pick::new(steps);
        assert!(structio::read_json(&mut p, r#"{"a":1,"b":[1,}"#).is_err());
    }

    fn tally_json(doc: &str, top: usize) -> Tally<'_> {
        let mut t = Tally::new(top, Some(doc.as_bytes()));
        structio::read_json(&mut t, doc).unwrap();
        t
    }

    fn tally_beve(beve: &[u8], top: usize) -> Tally<'static> {
        let mut t = Tally::new(top, None);
        structio::read_beve(&mut t, beve).unwrap();
        t
    }

    /// The parts kept, in document order: `(path, bytes)`.
    fn in_order(t: &Tally) -> Vec<(String, u64)> {
        let mut v = t.largest();
        v.sort_by_key(|p| p.index);
        v.iter().map(|p| (p.path.clone(), p.bytes)).collect()
    }

    #[test]
    fn tally_keeps_only_the_top_parts() {
        // 5,000 elements of sizes that rise and fall: the three largest are kept, not all.
        let items: Vec<String> = (0..5000u32)
            .map(|i| format!("\"{}\"", "x".repeat(((i * 7919) % 97) as usize)))
            .collect();
        let doc = format!("[{}]", items.join(", "));
        let all = tally_json(&doc, usize::MAX);
        let t = tally_json(&doc, 3);
        assert_eq!(t.largest.len(), 3, "only the top 3 parts are retained");
        assert_eq!(all.largest.len(), 5000);
        // The same three the full list starts with, ties in document order.
        let want: Vec<&Part> = all.largest().into_iter().take(3).collect();
        assert_eq!(t.largest(), want);
        assert_eq!(want[0].bytes, 98);
        assert!(want[0].index < want[1].index && want[1].index < want[2].index);
        // What is left out is still counted.
        assert_eq!(t.part_count, 5000);
        assert_eq!(t.part_bytes, all.part_bytes);
        let (rest, rest_bytes) = t.rest();
        assert_eq!(rest, 4997);
        assert_eq!(
            rest_bytes + want.iter().map(|p| p.bytes).sum::<u64>(),
            t.part_bytes
        );
        // --top 0 keeps none.
        assert!(tally_json(&doc, 0).largest().is_empty());

        // BEVE nulls, as many as in a megabyte: still 3 kept.
        let n = 1 << 20;
        let mut beve = structio::beve::BeveWriter::new(Vec::new());
        beve.begin_array(n);
        let mut beve = beve.into_inner();
        beve.resize(beve.len() + n, 0);
        let t = tally_beve(&beve, 3);
        assert_eq!(t.largest.len(), 3);
        assert_eq!(t.part_count, n as u64);
        assert_eq!(
            in_order(&t),
            [("$[0]".into(), 1), ("$[1]".into(), 1), ("$[2]".into(), 1)]
        );
    }

    #[test]
    fn tally_matches_the_value_walk_on_beve_kinds() {
        use structio::value::IntMap;
        let mut ints = IntMap::new(NumKind::U16);
        ints.insert(7u16, Value::from("seven"));
        ints.insert(9u16, Value::from(vec![true, false]));
        let v = Value::from_iter([
            ("u8", Value::from(200u8)),
            ("f32", Value::from(1.5f32)),
            ("i128", Value::from(-5i128)),
            ("typed", Value::from(vec![1u32, 2, 3])),
            ("strs", Value::from(vec!["a", "bc"])),
            ("ints", Value::from(ints)),
            ("deep", Value::from(vec![Value::from(vec![Value::Null])])),
        ]);
        let beve = structio::to_beve(&v);
        let t = tally_beve(&beve, usize::MAX);
        let back: Value = structio::from_beve(&beve).unwrap();
        assert_eq!(format!("{:?}", t.stats), format!("{:?}", Stats::of(&back)));
        assert_eq!(t.stats.numbers["u32"], 3);
        assert_eq!(t.stats.kinds["integer-keyed object"], 1);
        let sizes = in_order(&t).iter().map(|p| p.1).collect::<Vec<_>>();
        let each: Vec<u64> = back
            .as_object()
            .unwrap()
            .values()
            .map(|x| structio::beve::beve_size(x) as u64)
            .collect();
        assert_eq!(sizes, each);
    }

    #[test]
    fn tally_matches_the_value_walk_and_measures_parts() {
        let doc = r#"{"a":[1,2.5,"xyz"],"b":{"c":null,"d":[[]]},"e":true}"#;
        let v: Value = structio::from_json(doc).unwrap();
        let want = Stats::of(&v);
        let t = tally_json(doc, usize::MAX);
        assert_eq!(format!("{:?}", t.stats), format!("{want:?}"));
        let parts = in_order(&t);
        assert_eq!(
            parts,
            [("$.a".into(), 13), ("$.b".into(), 19), ("$.e".into(), 4)]
        );

        let pretty = structio::prettify(doc).unwrap();
        let t = tally_json(&pretty, usize::MAX);
        let sizes: Vec<_> = in_order(&t).iter().map(|p| p.1).collect();
        // Counted by hand from the pretty text: the parts as they stand in the file.
        assert_eq!(sizes, [38, 56, 4], "{pretty}");

        let beve = structio::to_beve(&v);
        let t = tally_beve(&beve, usize::MAX);
        assert_eq!(format!("{:?}", t.stats), format!("{want:?}"));
        let sizes: Vec<_> = in_order(&t).iter().map(|p| p.1).collect();
        let each: Vec<u64> = ["a", "b", "e"]
            .iter()
            .map(|k| structio::beve::beve_size(&v[*k]) as u64)
            .collect();
        assert_eq!(sizes, each);
    }
}
