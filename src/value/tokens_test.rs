//! Reading and writing values through a token-stream format: a minimal [`Writer`] and
//! [`Reader`] that record the calls, so `Reflect for Value` is tested without either backend,
//! event by event (the BEVE byte-identity property in miniature).

use half::f16;

use super::{IntMap, Map, Value};
use crate::error::{Code, Error, Result};
use crate::number::{NumKind, Number, Wire};
use crate::reflect::{
    EnumInfo, FieldsInfo, Key, KeyKind, ReadOptions, Reader, Reflect, Str, ValueKind, Writer,
};
use structio_keys::Probe;

/// One writer call.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Null,
    Bool(bool),
    Num(NumKind, Wire),
    Str(String),
    BeginArray(usize),
    EndArray,
    BeginMap(usize, KeyKind),
    Key(String),
    IntKey(NumKind, Wire),
    EndObject,
    Sep,
    Typed(NumKind, Vec<Wire>),
    Bools(Vec<bool>),
    Strs(Vec<String>),
    Beve(Vec<u8>),
}

#[derive(Default)]
struct TokWriter(Vec<Tok>);

impl Writer for TokWriter {
    fn write_null_members(&self) -> bool {
        false
    }
    fn null(&mut self) {
        self.0.push(Tok::Null)
    }
    fn bool(&mut self, v: bool) {
        self.0.push(Tok::Bool(v))
    }
    fn number<N: Number>(&mut self, v: N) {
        self.0.push(Tok::Num(N::KIND, v.to_wire()))
    }
    fn str(&mut self, v: &str) {
        self.0.push(Tok::Str(v.to_owned()))
    }
    fn begin_array(&mut self, len: usize) {
        self.0.push(Tok::BeginArray(len))
    }
    fn end_array(&mut self) {
        self.0.push(Tok::EndArray)
    }
    fn begin_map(&mut self, len: usize, keys: KeyKind) {
        self.0.push(Tok::BeginMap(len, keys))
    }
    fn key(&mut self, k: &str) {
        self.0.push(Tok::Key(k.to_owned()))
    }
    fn int_key<N: Number>(&mut self, k: N) {
        self.0.push(Tok::IntKey(N::KIND, k.to_wire()))
    }
    fn enum_key(&mut self, name: &str, _: i128, _: NumKind) {
        self.key(name)
    }
    fn end_object(&mut self) {
        self.0.push(Tok::EndObject)
    }
    fn sep(&mut self) {
        self.0.push(Tok::Sep)
    }
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        self.0.push(Tok::Typed(
            N::KIND,
            items.iter().map(|x| x.to_wire()).collect(),
        ))
    }
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        self.0
            .push(Tok::Typed(N::KIND, items.map(|x| x.to_wire()).collect()))
    }
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        self.0.push(Tok::Bools(items.collect()))
    }
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.0.push(Tok::Strs(items.map(str::to_owned).collect()))
    }
    fn unit_variant(&mut self, name: &str, _: i128, _: NumKind) {
        self.str(name)
    }
    fn raw_json(&mut self, text: &str) {
        self.str(text)
    }
    fn raw_beve(&mut self, bytes: &[u8]) {
        self.0.push(Tok::Beve(bytes.to_vec()))
    }
}

fn tokens<'de, T: Reflect<'de>>(v: &T) -> Vec<Tok> {
    let mut w = TokWriter::default();
    v.write(&mut w);
    w.0
}

/// Reads tokens back. With `json_numbers`, numbers report no kind (as JSON's reader does).
struct TokReader<'de> {
    toks: &'de [Tok],
    pos: usize,
    depth: usize,
    opts: ReadOptions,
    json_numbers: bool,
}

impl<'de> TokReader<'de> {
    fn new(toks: &'de [Tok]) -> Self {
        TokReader {
            toks,
            pos: 0,
            depth: 0,
            opts: ReadOptions::default(),
            json_numbers: false,
        }
    }
    fn tok(&self) -> Result<&'de Tok> {
        self.toks
            .get(self.pos)
            .ok_or_else(|| Error::new(Code::UnexpectedEnd, self.pos))
    }
    fn take(&mut self) -> Result<&'de Tok> {
        let t = self.tok()?;
        self.pos += 1;
        Ok(t)
    }
    fn bad(&self) -> Error {
        Error::new(Code::ExpectedValue, self.pos)
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.opts.max_depth {
            return Err(Error::new(Code::DepthLimit(self.opts.max_depth), self.pos));
        }
        Ok(())
    }
    fn skip_sep(&mut self) {
        if self.toks.get(self.pos) == Some(&Tok::Sep) {
            self.pos += 1;
        }
    }
}

impl<'de> Reader<'de> for TokReader<'de> {
    type Seq = ();
    type Map = ();
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
        Ok(match self.tok()? {
            Tok::Null => ValueKind::Null,
            Tok::Bool(_) => ValueKind::Bool,
            Tok::Num(k, _) => ValueKind::Number((!self.json_numbers).then_some(*k)),
            Tok::Str(_) => ValueKind::String,
            Tok::BeginArray(_) => ValueKind::Array,
            Tok::BeginMap(_, KeyKind::Str) => ValueKind::Object,
            Tok::BeginMap(_, KeyKind::Int(k)) => ValueKind::IntKeyObject(*k),
            Tok::Typed(k, _) => ValueKind::TypedArray(*k),
            Tok::Bools(_) => ValueKind::BoolArray,
            Tok::Strs(_) => ValueKind::StrArray,
            Tok::Beve(b) => ValueKind::Extension(b[0]),
            _ => return Err(self.bad()),
        })
    }
    fn take_null(&mut self) -> Result<bool> {
        let null = self.tok()? == &Tok::Null;
        self.pos += usize::from(null);
        Ok(null)
    }
    fn read_bool(&mut self) -> Result<bool> {
        match self.take()? {
            Tok::Bool(b) => Ok(*b),
            _ => Err(self.bad()),
        }
    }
    fn read_number<N: Number>(&mut self) -> Result<N> {
        let at = self.pos;
        match self.take()? {
            Tok::Num(_, w) => {
                N::from_wire(*w).ok_or_else(|| Error::new(Code::NumberOutOfRange("n"), at))
            }
            _ => Err(self.bad()),
        }
    }
    fn read_wire_number(&mut self) -> Result<Wire> {
        match self.take()? {
            Tok::Num(_, w) => Ok(*w),
            _ => Err(self.bad()),
        }
    }
    fn read_str(&mut self) -> Result<Str<'de, '_>> {
        match self.take()? {
            Tok::Str(s) => Ok(Str::Borrowed(s)),
            _ => Err(self.bad()),
        }
    }
    fn begin_array(&mut self) -> Result<()> {
        match self.take()? {
            Tok::BeginArray(_) => self.enter(),
            _ => Err(self.bad()),
        }
    }
    fn next_element(&mut self, _: &mut ()) -> Result<bool> {
        self.skip_sep();
        if self.tok()? == &Tok::EndArray {
            self.pos += 1;
            self.depth -= 1;
            return Ok(false);
        }
        Ok(true)
    }
    fn remaining_hint(&self, _: &()) -> Option<usize> {
        match self.toks.get(self.pos - 1) {
            Some(Tok::BeginArray(n)) => Some(*n),
            _ => None,
        }
    }
    fn begin_object(&mut self) -> Result<()> {
        match self.take()? {
            Tok::BeginMap(..) => self.enter(),
            _ => Err(self.bad()),
        }
    }
    fn next_field(&mut self, m: &mut ()) -> Result<Option<&[u8]>> {
        Ok(match self.next_key(m)? {
            Some(Key::Str(Str::Borrowed(s))) => Some(s.as_bytes()),
            _ => None,
        })
    }
    fn next_key(&mut self, _: &mut ()) -> Result<Option<Key<'de, '_>>> {
        self.skip_sep();
        match self.take()? {
            Tok::EndObject => {
                self.depth -= 1;
                Ok(None)
            }
            Tok::Key(k) => Ok(Some(Key::Str(Str::Borrowed(k)))),
            Tok::IntKey(_, w) => Ok(Some(Key::Int(*w))),
            _ => Err(self.bad()),
        }
    }
    fn skip_value(&mut self) -> Result<()> {
        super::reflect::read_value(self).map(drop)
    }
    fn read_unit_variant(&mut self, _: &EnumInfo) -> Result<usize> {
        Err(self.bad())
    }
    fn read_typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        match self.take()? {
            Tok::Typed(_, ws) => {
                out.clear();
                out.extend(ws.iter().map(|w| N::from_wire(*w).unwrap_or_default()));
                Ok(())
            }
            _ => Err(self.bad()),
        }
    }
    fn read_bool_vec(&mut self, out: &mut Vec<bool>) -> Result<()> {
        match self.take()? {
            Tok::Bools(b) => {
                out.clone_from(b);
                Ok(())
            }
            _ => Err(self.bad()),
        }
    }
    fn read_str_seq<F>(&mut self, mut each: F) -> Result<usize>
    where
        F: FnMut(usize, Str<'de, '_>) -> Result<()>,
    {
        match self.take()? {
            Tok::Strs(s) => {
                for (i, x) in s.iter().enumerate() {
                    each(i, Str::Borrowed(x))?;
                }
                Ok(s.len())
            }
            _ => Err(self.bad()),
        }
    }
    fn read_raw_json(&mut self) -> Result<Str<'de, '_>> {
        self.read_str()
    }
    fn read_extension(&mut self) -> Result<&'de [u8]> {
        match self.take()? {
            Tok::Beve(b) => Ok(b),
            _ => Err(self.bad()),
        }
    }
}

fn read_tokens(toks: &[Tok]) -> Result<Value> {
    let mut r = TokReader::new(toks);
    let mut v = Value::Null;
    v.read(&mut r)?;
    assert_eq!(r.pos, toks.len(), "every token consumed");
    assert_eq!(r.depth, 0);
    Ok(v)
}

/// A value with one of everything.
fn rich() -> Value {
    let mut ints = IntMap::new(NumKind::U16);
    ints.insert(7u16, Value::from("seven"));
    ints.insert(65535u16, Value::from(vec![Value::Null, Value::from(-1i8)]));
    let mut m = Map::new();
    m.insert("null", Value::Null);
    m.insert("t", Value::from(true));
    m.insert("i8", Value::from(-5i8));
    m.insert("u64", Value::from(u64::MAX));
    m.insert("i128", Value::from(i128::MIN));
    m.insert("f16", Value::from(f16::from_f32(0.5)));
    m.insert("f32", Value::from(0.1f32));
    m.insert("s", Value::from("text"));
    m.insert("empty_array", Value::from(Vec::<Value>::new()));
    m.insert("empty_typed", Value::from(Vec::<i32>::new()));
    m.insert("typed", Value::from(vec![1.5f64, -0.0]));
    m.insert("bools", Value::from(vec![true, false, true]));
    m.insert("strs", Value::from(vec!["a", "b"]));
    m.insert("ints", Value::IntObject(ints));
    m.insert(
        "ext",
        Value::Extension(vec![0x1e, 0x60, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]),
    );
    m.insert(
        "nested",
        Value::from_iter([("a", Value::from(vec![Value::from(Map::new())]))]),
    );
    Value::Object(m)
}

#[test]
fn writes_every_kind_as_the_formats_expect() {
    let toks = tokens(&rich());
    assert_eq!(toks[0], Tok::BeginMap(16, KeyKind::Str));
    assert!(toks.contains(&Tok::Num(NumKind::I8, Wire::Int(-5))));
    assert!(toks.contains(&Tok::Num(NumKind::U64, Wire::Uint(u64::MAX as u128))));
    assert!(toks.contains(&Tok::Typed(NumKind::I32, vec![])));
    assert!(toks.contains(&Tok::Bools(vec![true, false, true])));
    assert!(toks.contains(&Tok::Strs(vec!["a".into(), "b".into()])));
    assert!(toks.contains(&Tok::BeginMap(2, KeyKind::Int(NumKind::U16))));
    assert!(toks.contains(&Tok::IntKey(NumKind::U16, Wire::Uint(65535))));
    assert!(toks.contains(&Tok::Beve(vec![0x1e, 0x60, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f])));
    // Null members are written: a Value object is data, not a struct with optional fields.
    assert_eq!(toks[1..3], [Tok::Key("null".into()), Tok::Null]);
    // Separators only between members.
    assert_eq!(toks[3], Tok::Sep);
    assert_eq!(toks.iter().filter(|t| **t == Tok::Sep).count(), 15 + 1 + 1);
}

#[test]
fn tokens_round_trip_exactly() {
    let v = rich();
    let toks = tokens(&v);
    let back = read_tokens(&toks).unwrap();
    assert_eq!(back, v);
    assert_eq!(
        tokens(&back),
        toks,
        "writing what was read gives the same events"
    );
}

#[test]
fn json_numbers_become_i64_u64_or_f64() {
    let toks = tokens(&Value::from(vec![
        Value::from(5u8),
        Value::from(u64::MAX),
        Value::from(-1i128 << 100),
        Value::from(0.5f64),
    ]));
    let mut r = TokReader::new(&toks);
    r.json_numbers = true;
    let mut v = Value::Null;
    v.read(&mut r).unwrap();
    let kinds: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_number().unwrap().kind())
        .collect();
    assert_eq!(
        kinds,
        [NumKind::I64, NumKind::U64, NumKind::I128, NumKind::F64]
    );
}

#[test]
fn repeated_keys_keep_the_last_value_or_fail_when_asked() {
    let toks = vec![
        Tok::BeginMap(3, KeyKind::Str),
        Tok::Key("a".into()),
        Tok::Num(NumKind::I64, Wire::Int(1)),
        Tok::Key("b".into()),
        Tok::Null,
        Tok::Key("a".into()),
        Tok::Num(NumKind::I64, Wire::Int(2)),
        Tok::EndObject,
    ];
    let v = read_tokens(&toks).unwrap();
    assert_eq!(v["a"], 2);
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["a", "b"]
    );
    let mut r = TokReader::new(&toks);
    r.opts.error_on_duplicate_keys = true;
    let e = Value::read(&mut Value::Null, &mut r).unwrap_err();
    assert_eq!(e.message(), "duplicate key `a`");
}

#[test]
fn errors_carry_the_path() {
    let toks = vec![
        Tok::BeginMap(1, KeyKind::Str),
        Tok::Key("a".into()),
        Tok::BeginArray(2),
        Tok::Null,
        Tok::BeginMap(1, KeyKind::Int(NumKind::I8)),
        Tok::IntKey(NumKind::I8, Wire::Int(-3)),
        Tok::EndArray, // not a value
    ];
    let e = read_tokens(&toks).unwrap_err();
    assert_eq!(e.path(), "$[\"a\"][1][\"-3\"]");
    let toks = vec![
        Tok::BeginMap(1, KeyKind::Int(NumKind::U8)),
        Tok::IntKey(NumKind::U8, Wire::Uint(300)),
    ];
    assert_eq!(
        read_tokens(&toks).unwrap_err().message(),
        "number out of range for u8"
    );
    let toks = vec![
        Tok::BeginMap(1, KeyKind::Str),
        Tok::IntKey(NumKind::U8, Wire::Uint(3)),
    ];
    assert_eq!(
        read_tokens(&toks).unwrap_err().message(),
        "expected a string key, found an integer key"
    );
    let toks = vec![Tok::BeginArray(1), Tok::Null];
    assert!(read_tokens(&toks).unwrap_err().is_eof());
}

/// Opens `depth` arrays, then closes them.
fn nested_tokens(depth: usize) -> Vec<Tok> {
    let mut toks = vec![Tok::BeginArray(1); depth];
    toks[depth - 1] = Tok::BeginArray(0);
    toks.extend(std::iter::repeat_n(Tok::EndArray, depth));
    toks
}

#[test]
fn reading_stops_at_the_depth_limit() {
    let toks = nested_tokens(257);
    let e = read_tokens(&toks).unwrap_err();
    assert_eq!(e.message(), "nesting deeper than the limit of 256");
    assert_eq!(e.path_segments().len(), 256);
    assert!(read_tokens(&nested_tokens(256)).is_ok());
}

#[test]
fn reading_and_writing_do_not_recurse() {
    // A limit far above what recursion on a 2 MiB test stack could reach.
    const DEEP: usize = 200_000;
    let toks = nested_tokens(DEEP);
    let mut r = TokReader::new(&toks);
    r.opts.max_depth = DEEP;
    let mut v = Value::Null;
    v.read(&mut r).unwrap();
    assert!(tokens(&v) == toks, "written back as read");
    let mut copy = Value::Null;
    let mut r = TokReader::new(&toks);
    r.opts.max_depth = DEEP;
    copy.read(&mut r).unwrap();
    assert!(v == copy);
}

/// A struct with `Value` fields, written as the derive would write it.
#[derive(Default, Debug, PartialEq)]
struct Envelope {
    id: u32,
    body: Value,
    meta: Map,
}

const ENVELOPE: FieldsInfo = FieldsInfo {
    names: &["id", "body", "meta"],
    optional: &[],
    keys: &["id", "body", "meta"],
    key_field: &[0, 1, 2],
    probe: Probe::Linear,
    plain: true,
};

impl<'de> Reflect<'de> for Envelope {
    fn write<W: Writer>(&self, w: &mut W) {
        w.begin_object(3);
        w.key("id");
        self.id.write(w);
        w.sep();
        w.key("body");
        self.body.write(w);
        w.sep();
        w.key("meta");
        self.meta.write(w);
        w.end_object();
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        crate::read::read_fields(r, &ENVELOPE, None, |m, r| match m {
            crate::read::Member::Index(0) => self.id.read(r),
            crate::read::Member::Index(1) => self.body.read(r),
            crate::read::Member::Index(_) => self.meta.read(r),
            _ => Ok(()),
        })
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = <Self as Default>::default();
        v.read(r)?;
        Ok(v)
    }
}

#[test]
fn values_are_fields_of_structs() {
    let e = Envelope {
        id: 3,
        body: rich(),
        meta: Map::from_iter([("k", Value::from(vec![1u8, 2]))]),
    };
    let toks = tokens(&e);
    let mut r = TokReader::new(&toks);
    let mut back = Envelope::default();
    back.read(&mut r).unwrap();
    assert_eq!(back, e);
    // A Map field refuses a value that is not an object, and says where.
    let toks = vec![
        Tok::BeginMap(1, KeyKind::Str),
        Tok::Key("meta".into()),
        Tok::Num(NumKind::I64, Wire::Int(1)),
        Tok::EndObject,
    ];
    let err = Envelope::default()
        .read(&mut TokReader::new(&toks))
        .unwrap_err();
    assert_eq!(err.message(), "expected an object, found a number");
    assert_eq!(err.path(), "$.meta");
}

#[test]
fn std_containers_of_values() {
    let v: Vec<Option<Value>> = vec![Some(rich()), None, Some(Value::from(1))];
    let toks = tokens(&v);
    let mut back: Vec<Option<Value>> = Vec::new();
    back.read(&mut TokReader::new(&toks)).unwrap();
    assert_eq!(back, v);
    let m: std::collections::BTreeMap<String, Value> =
        [("x".to_string(), rich())].into_iter().collect();
    let toks = tokens(&m);
    let mut back = std::collections::BTreeMap::new();
    back.read(&mut TokReader::new(&toks)).unwrap();
    assert_eq!(back, m);
}

/// Reads `toks` into a default `T`, with JSON-like numbers (no kinds).
fn read_json_like<T: for<'de> Reflect<'de> + Default>(toks: &[Tok]) -> Result<T> {
    let mut r = TokReader::new(toks);
    r.json_numbers = true;
    let mut v = T::default();
    v.read(&mut r)?;
    Ok(v)
}

#[test]
fn container_fields_take_what_the_other_format_wrote() {
    use super::{Array, TypedArray};
    // A typed array written as a generic array (JSON) reads back into a TypedArray field,
    // keeping the field's element type when every element fits it.
    let generic = tokens(&Value::from(vec![Value::from(1u8), Value::from(2u8)]));
    let mut t = TypedArray::U16(Vec::new());
    let mut r = TokReader::new(&generic);
    r.json_numbers = true;
    t.read(&mut r).unwrap();
    assert_eq!(t, TypedArray::U16(vec![1, 2]));
    assert_eq!(
        read_json_like::<TypedArray>(&generic).unwrap(),
        TypedArray::F64(vec![1.0, 2.0])
    );
    let mixed = tokens(&Value::from(vec![Value::from(1), Value::from("x")]));
    let e = read_json_like::<TypedArray>(&mixed).unwrap_err();
    assert_eq!(
        e.message(),
        "expected an array of numbers, booleans or strings, found an array of mixed values"
    );
    // A typed array into an Array field becomes values.
    let typed = tokens(&Value::from(vec![true, false]));
    let a = read_json_like::<Array>(&typed).unwrap();
    assert_eq!(*a, vec![Value::from(true), Value::from(false)]);
    // Integer keys written as strings (JSON) read back into an IntMap field of the field's
    // key type; an integer-keyed object reads into a Map field with decimal keys.
    let mut ints = IntMap::new(NumKind::I16);
    ints.insert(-5, Value::from("a"));
    let strs = tokens(&Value::from_iter([("-5", "a")]));
    let mut m = IntMap::new(NumKind::I16);
    m.read(&mut TokReader::new(&strs)).unwrap();
    assert_eq!(m, ints);
    assert_eq!(m.kind(), NumKind::I16);
    let mut narrow = IntMap::new(NumKind::U8);
    let e = narrow.read(&mut TokReader::new(&strs)).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.path().as_str()),
        ("number out of range for u8", "$[\"-5\"]")
    );
    let bad = tokens(&Value::from_iter([("x", 1)]));
    let e = narrow.read(&mut TokReader::new(&bad)).unwrap_err();
    assert_eq!(e.message(), "expected an integer for an integer map key");
    let as_map = read_json_like::<Map>(&tokens(&ints)).unwrap();
    assert_eq!(as_map["-5"], "a");
    // Round trips of each container on its own.
    let t = TypedArray::from(vec![1.5f32]);
    assert_eq!(read_tokens_as::<TypedArray>(&tokens(&t)), t);
    assert_eq!(
        read_tokens_as::<IntMap>(&tokens(&ints)).kind(),
        NumKind::I16
    );
    let arr: Array = (0..3).map(Value::from).collect();
    assert_eq!(read_tokens_as::<Array>(&tokens(&arr)), arr);
    let e = read_json_like::<Array>(&tokens(&Value::Null)).unwrap_err();
    assert_eq!(e.message(), "expected an array, found null");
}

fn read_tokens_as<T: for<'de> Reflect<'de> + Default>(toks: &[Tok]) -> T {
    let mut v = T::default();
    v.read(&mut TokReader::new(toks)).unwrap();
    v
}
