//! A third format, written outside the library: "trace", a line-per-token text format, built
//! only on structio's public `Writer` and `Reader` traits. It round-trips the seven Glaze
//! benchmark documents and a derived type using every enum representation, which shows that a
//! format plugs in without touching the core (`reflect.rs`, the read walk, `impls/`, the
//! derive). See docs/design.md, "Adding a format".
//!
//! The format, one token a line:
//! - `n` null, `t` / `f` booleans;
//! - `i -12`, `u 7`, `d 1.5` numbers (signed, unsigned, floating; `d` uses Rust's shortest
//!   round-trip text, so floats come back exact);
//! - `s 5:hello` a string, its length in bytes, then the bytes (which may hold newlines);
//! - `[ 3` ... `]` an array of 3 elements; `{ 2` ... `}` an object of 2 members, each a
//!   `k 1:a` key line followed by its value.

mod common;

use common::{Az, Flat, Mixed};
use structio::{
    EnumInfo, Error, Key, KeyKind, NumKind, Number, ReadOptions, Reader, Reflect, Result, Str,
    ValueKind, Wire, Writer,
};

// ---------------------------------------------------------------------------------------------
// Writer

/// Writes trace text into a `String`.
#[derive(Default)]
struct TraceWriter(String);

impl TraceWriter {
    fn line(&mut self, s: &str) {
        self.0.push_str(s);
        self.0.push('\n');
    }
    fn text(&mut self, tag: char, s: &str) {
        self.0.push(tag);
        self.0.push(' ');
        self.0.push_str(&s.len().to_string());
        self.0.push(':');
        self.0.push_str(s);
        self.0.push('\n');
    }
}

impl Writer for TraceWriter {
    fn write_null_members(&self) -> bool {
        false
    }
    fn null(&mut self) {
        self.line("n");
    }
    fn bool(&mut self, v: bool) {
        self.line(if v { "t" } else { "f" });
    }
    fn number<N: Number>(&mut self, v: N) {
        let line = match v.to_wire() {
            Wire::Int(i) => format!("i {i}"),
            Wire::Uint(u) => format!("u {u}"),
            Wire::F32(x) => format!("d {x:?}"),
            Wire::F64(x) => format!("d {x:?}"),
        };
        self.line(&line);
    }
    fn str(&mut self, v: &str) {
        self.text('s', v);
    }
    fn begin_array(&mut self, len: usize) {
        self.line(&format!("[ {len}"));
    }
    fn end_array(&mut self) {
        self.line("]");
    }
    fn begin_map(&mut self, len: usize, _keys: KeyKind) {
        self.line(&format!("{{ {len}"));
    }
    fn key(&mut self, k: &str) {
        self.text('k', k);
    }
    fn int_key<N: Number>(&mut self, k: N) {
        let text = match k.to_wire() {
            Wire::Int(i) => i.to_string(),
            Wire::Uint(u) => u.to_string(),
            Wire::F32(x) => format!("{x:?}"),
            Wire::F64(x) => format!("{x:?}"),
        };
        self.text('k', &text);
    }
    fn enum_key(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.key(name);
    }
    fn end_object(&mut self) {
        self.line("}");
    }
    fn sep(&mut self) {}
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        self.typed_array_iter(items.iter().copied());
    }
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        self.begin_array(items.len());
        for x in items {
            self.number(x);
        }
        self.end_array();
    }
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        self.begin_array(items.len());
        for b in items {
            self.bool(b);
        }
        self.end_array();
    }
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.begin_array(items.len());
        for s in items {
            self.str(s);
        }
        self.end_array();
    }
    fn unit_variant(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.str(name);
    }
    fn raw_json(&mut self, text: &str) {
        self.str(text);
    }
}

fn to_trace<'de, T: Reflect<'de>>(v: &T) -> String {
    let mut w = TraceWriter::default();
    v.write(&mut w);
    w.0
}

// ---------------------------------------------------------------------------------------------
// Reader

/// Reads trace text, borrowing strings and keys from it.
struct TraceReader<'de> {
    input: &'de str,
    pos: usize,
    depth: usize,
    opts: ReadOptions,
}

/// The elements (or members) left in an array (or object) being read.
struct Left(usize);

impl<'de> TraceReader<'de> {
    fn new(input: &'de str) -> Self {
        TraceReader {
            input,
            pos: 0,
            depth: 0,
            opts: ReadOptions::default(),
        }
    }

    fn err(&self, what: &str) -> Error {
        Error::custom(format!("trace: {what}"), self.pos)
    }

    /// The next line's tag character, without consuming it.
    fn peek_tag(&self) -> Result<u8> {
        self.input
            .as_bytes()
            .get(self.pos)
            .copied()
            .ok_or_else(|| self.err("unexpected end of input"))
    }

    /// Consumes a line of the form `TAG REST` (or `TAG` alone) and returns `REST`.
    fn line(&mut self, tag: u8) -> Result<&'de str> {
        if self.peek_tag()? != tag {
            return Err(self.err(&format!("expected `{}`", tag as char)));
        }
        let rest = &self.input[self.pos + 1..];
        let end = rest
            .find('\n')
            .ok_or_else(|| self.err("unterminated line"))?;
        self.pos += 1 + end + 1;
        Ok(rest[..end].trim_start())
    }

    /// Consumes a `TAG len:bytes` line and returns the bytes.
    fn text(&mut self, tag: u8) -> Result<&'de str> {
        if self.peek_tag()? != tag {
            return Err(self.err(&format!("expected `{}`", tag as char)));
        }
        let start = self.pos + 2;
        let rest = self.input.get(start..).ok_or_else(|| self.err("short"))?;
        let colon = rest.find(':').ok_or_else(|| self.err("no length"))?;
        let len: usize = rest[..colon].parse().map_err(|_| self.err("bad length"))?;
        let from = start + colon + 1;
        let s = self
            .input
            .get(from..from + len)
            .ok_or_else(|| self.err("string past the end"))?;
        if self.input.as_bytes().get(from + len) != Some(&b'\n') {
            return Err(self.err("unterminated string"));
        }
        self.pos = from + len + 1;
        Ok(s)
    }

    fn wire(&mut self) -> Result<Wire> {
        let at = self.pos;
        let bad = || Error::custom("trace: bad number", at);
        Ok(match self.peek_tag()? {
            b'i' => Wire::Int(self.line(b'i')?.parse().map_err(|_| bad())?),
            b'u' => Wire::Uint(self.line(b'u')?.parse().map_err(|_| bad())?),
            b'd' => Wire::F64(self.line(b'd')?.parse().map_err(|_| bad())?),
            _ => return Err(self.err("expected a number")),
        })
    }

    fn open(&mut self, tag: u8) -> Result<Left> {
        let n = self.line(tag)?.parse().map_err(|_| self.err("bad count"))?;
        if self.depth >= self.opts.max_depth {
            return Err(self.err("too deep"));
        }
        self.depth += 1;
        Ok(Left(n))
    }

    fn next(&mut self, left: &mut Left, close: u8) -> Result<bool> {
        if left.0 == 0 {
            self.line(close)?;
            self.depth -= 1;
            return Ok(false);
        }
        left.0 -= 1;
        Ok(true)
    }
}

impl<'de> Reader<'de> for TraceReader<'de> {
    type Seq = Left;
    type Map = Left;
    type Pos = (usize, usize);

    fn options(&self) -> &ReadOptions {
        &self.opts
    }
    fn offset(&self) -> usize {
        self.pos
    }
    fn save(&self) -> Self::Pos {
        (self.pos, self.depth)
    }
    fn restore(&mut self, pos: Self::Pos) {
        (self.pos, self.depth) = pos;
    }
    fn peek_kind(&mut self) -> Result<ValueKind> {
        Ok(match self.peek_tag()? {
            b'n' => ValueKind::Null,
            b't' | b'f' => ValueKind::Bool,
            b'i' | b'u' | b'd' => ValueKind::Number(None),
            b's' => ValueKind::String,
            b'[' => ValueKind::Array,
            b'{' => ValueKind::Object,
            _ => return Err(self.err("unknown token")),
        })
    }
    fn take_null(&mut self) -> Result<bool> {
        if self.peek_tag()? == b'n' {
            self.line(b'n')?;
            return Ok(true);
        }
        Ok(false)
    }
    fn read_bool(&mut self) -> Result<bool> {
        match self.peek_tag()? {
            b't' => self.line(b't').map(|_| true),
            b'f' => self.line(b'f').map(|_| false),
            _ => Err(self.invalid_type("a boolean")),
        }
    }
    fn read_number<N: Number>(&mut self) -> Result<N> {
        let at = self.pos;
        let w = self.wire()?;
        N::from_wire(w).ok_or_else(|| Error::custom("trace: number out of range", at))
    }
    fn read_wire_number(&mut self) -> Result<Wire> {
        self.wire()
    }
    fn read_str(&mut self) -> Result<Str<'de, '_>> {
        if self.peek_tag()? != b's' {
            return Err(self.invalid_type("a string"));
        }
        self.text(b's').map(Str::Borrowed)
    }
    fn begin_array(&mut self) -> Result<Left> {
        if self.peek_tag()? != b'[' {
            return Err(self.invalid_type("an array"));
        }
        self.open(b'[')
    }
    fn next_element(&mut self, seq: &mut Left) -> Result<bool> {
        self.next(seq, b']')
    }
    fn remaining_hint(&self, seq: &Left) -> Option<usize> {
        Some(seq.0)
    }
    fn begin_object(&mut self) -> Result<Left> {
        if self.peek_tag()? != b'{' {
            return Err(self.invalid_type("an object"));
        }
        self.open(b'{')
    }
    fn next_field(&mut self, map: &mut Left) -> Result<Option<&[u8]>> {
        if !self.next(map, b'}')? {
            return Ok(None);
        }
        self.text(b'k').map(|k| Some(k.as_bytes()))
    }
    fn next_key(&mut self, map: &mut Left) -> Result<Option<Key<'de, '_>>> {
        if !self.next(map, b'}')? {
            return Ok(None);
        }
        self.text(b'k').map(|k| Some(Key::Str(Str::Borrowed(k))))
    }
    fn skip_value(&mut self) -> Result<()> {
        match self.peek_kind()? {
            ValueKind::Array => {
                let mut s = self.begin_array()?;
                while self.next_element(&mut s)? {
                    self.skip_value()?;
                }
            }
            ValueKind::Object => {
                let mut m = self.begin_object()?;
                while self.next_field(&mut m)?.is_some() {
                    self.skip_value()?;
                }
            }
            ValueKind::String => {
                self.read_str()?;
            }
            ValueKind::Number(_) => {
                self.wire()?;
            }
            _ => {
                let tag = self.peek_tag()?;
                self.line(tag)?;
            }
        }
        Ok(())
    }
    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize> {
        let at = self.pos;
        let name = self.read_str()?.as_str().to_owned();
        info.by_name(name.as_bytes())
            .ok_or_else(|| Error::custom(format!("trace: unknown variant {name}"), at))
    }
    fn read_raw_json(&mut self) -> Result<Str<'de, '_>> {
        self.read_str()
    }
}

/// Reads one value of type `T` from trace text; the whole text must be used.
fn from_trace<'de, T: Reflect<'de> + Default>(text: &'de str) -> Result<T> {
    let mut r = TraceReader::new(text);
    let mut v = T::default();
    v.read(&mut r)?;
    if r.pos != text.len() {
        return Err(r.err("trailing tokens"));
    }
    Ok(v)
}

// ---------------------------------------------------------------------------------------------
// Tests

/// JSON document -> `T` -> trace -> `T` -> JSON: the same value, the same JSON bytes; and the
/// BEVE file read through the same type agrees.
fn round_trip<T>(name: &str)
where
    T: for<'de> Reflect<'de> + Default + PartialEq + std::fmt::Debug,
{
    let json = common::read(&format!("formats/json/bench/{name}.json"));
    let v: T = structio::from_json(&json[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let trace = to_trace(&v);
    let back: T = from_trace(&trace).unwrap_or_else(|e| panic!("{name} trace: {e}"));
    assert!(back == v, "{name}: the trace read back differs");
    assert!(
        structio::to_json(&back).as_bytes() == &json[..],
        "{name}: JSON after the trace is not byte-identical"
    );
    let beve = common::read(&format!("formats/beve/bench/{name}.beve"));
    assert!(structio::to_beve(&back) == beve, "{name}: BEVE differs");
}

#[test]
fn benchmark_documents_round_trip_through_a_third_format() {
    round_trip::<Mixed>("mixed");
    round_trip::<Flat<String>>("strings");
    round_trip::<Flat<u64>>("uints");
    round_trip::<Flat<i64>>("ints");
    round_trip::<Flat<f64>>("doubles");
    round_trip::<Flat<f64>>("exact_decimals");
    round_trip::<Flat<bool>>("bools");
}

#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
#[structio(tag = "kind")]
enum Internal {
    #[default]
    Empty,
    Named {
        id: u32,
        label: String,
    },
}

#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Adjacent {
    #[default]
    Off,
    Level(u8),
}

#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
#[structio(untagged)]
enum Untagged {
    #[default]
    Nothing,
    Number(f64),
    Text(String),
    Pair(i32, i32),
}

#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
enum External {
    #[default]
    Unit,
    Wrap(Vec<u16>),
    Point {
        x: i64,
        y: i64,
    },
}

#[derive(structio::Reflect, Default, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Color {
    #[default]
    Red,
    Green,
}

#[derive(structio::Reflect, Default, Debug, Clone, PartialEq)]
#[structio(rename_all = "camelCase")]
struct Everything {
    internal: Vec<Internal>,
    adjacent: Vec<Adjacent>,
    untagged: Vec<Untagged>,
    external: Vec<External>,
    colors: Vec<Color>,
    by_color: std::collections::BTreeMap<Color, String>,
    by_id: std::collections::BTreeMap<u32, bool>,
    maybe: Option<Box<Everything>>,
    #[structio(rename = "say \"hi\"\n")]
    odd_name: char,
    tuple: (u8, String, [f32; 2]),
}

#[test]
fn every_enum_representation_and_map_key_round_trips() {
    let inner = Everything {
        odd_name: 'x',
        ..Everything::default()
    };
    let v = Everything {
        internal: vec![
            Internal::Empty,
            Internal::Named {
                id: 7,
                label: "a\nb".into(),
            },
        ],
        adjacent: vec![Adjacent::Off, Adjacent::Level(3)],
        untagged: vec![
            Untagged::Nothing,
            Untagged::Number(-0.5),
            Untagged::Text("t".into()),
            Untagged::Pair(1, -2),
        ],
        external: vec![
            External::Unit,
            External::Wrap(vec![1, 2]),
            External::Point { x: -1, y: 1 },
        ],
        colors: vec![Color::Green, Color::Red],
        by_color: [(Color::Green, "g".to_string())].into_iter().collect(),
        by_id: [(5, true), (9, false)].into_iter().collect(),
        maybe: Some(Box::new(inner)),
        odd_name: 'é',
        tuple: (255, "s".into(), [1.5, -0.25]),
    };
    let trace = to_trace(&v);
    assert!(trace.contains("k 9:say \"hi\"\n\n"), "{trace}");
    let back: Everything = from_trace(&trace).unwrap_or_else(|e| panic!("{e}\n{trace}"));
    assert_eq!(back, v);
    // The same value through JSON and BEVE, for comparison.
    assert_eq!(
        structio::from_json::<Everything>(&structio::to_json(&v)).unwrap(),
        v
    );
    assert_eq!(
        structio::from_beve::<Everything>(&structio::to_beve(&v)).unwrap(),
        v
    );
}

#[test]
fn errors_of_the_third_format_carry_the_path() {
    let v = Az::<Vec<u8>> {
        c: vec![1, 2, 3],
        ..Az::default()
    };
    let trace = to_trace(&v).replacen("u 3", "u 300", 1);
    let e = from_trace::<Az<Vec<u8>>>(&trace).unwrap_err();
    assert_eq!(e.path(), "$.c[2]");
    assert!(e.message().contains("out of range"), "{}", e.message());
}
