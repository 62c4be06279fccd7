//! Typed values to and from a [`Value`] without JSON text in between: [`to_value`] writes a
//! value through [`ValueWriter`], a [`Writer`] that builds the tree; [`from_value_ref`] reads one
//! through [`ValueReader`], a [`Reader`] that walks a `&Value`. Both go through the derive's own
//! write and read code, so a `Value` read into a type checks what [`crate::from_json`] checks
//! (types, ranges, missing and unknown keys, `#[structio(...)]` constraints), and errors carry
//! the path of the value (`$.a[3].b`).
//!
//! What the tree holds (see also the guide, "Converting between Value and your types"):
//! - numbers keep their exact kind (`u64::MAX` stays a `u64`, `i128` an `i128`, an `f32` an
//!   `f32`); numeric, `bool` and string arrays that a type writes as one array become
//!   [`Value::Typed`]; maps with integer keys become [`Value::IntObject`];
//! - everything else is what JSON makes of it: a unit enum variant is its name (a string), a
//!   complex number `[re, im]`, a matrix `[extents, data]`, a type with a separate binary form
//!   (a UUID) its text form, a [`crate::RawJson`] the value its text holds. So
//!   `to_beve(&to_value(&x))` differs from `to_beve(&x)` for those kinds (BEVE writes a unit
//!   variant as an integer, complex numbers and matrices as extensions);
//! - reading accepts what JSON reading accepts, plus what only a tree can hold: typed arrays,
//!   integer-keyed objects (their keys are integers: they read into maps with integer keys),
//!   and a unit variant given by its discriminant (what BEVE writes).

use std::fmt::Write as _;

use super::number::by_kind;
use super::typed::with_typed;
use super::{Array, IntKey, IntMap, Map, Num, TypedArray, Value};
use crate::error::{Code, Error, Result};
use crate::number::{NumKind, Number, Wire};
use crate::reflect::{
    EnumInfo, Key, KeyKind, ReadOptions, Reader, Reflect, Str, ValueKind, Writer,
};
use crate::ReflectOwned;

// ---------------------------------------------------------------------------------------------
// Entry points

/// The value as a [`Value`] tree, built directly (no JSON text in between): what
/// `from_json::<Value>(&to_json(v))` gives, by [`Value`]'s equality, except that numbers keep
/// their exact kind (an `f32` stays an `f32`, so it need not equal the `f64` its JSON text
/// reads as), numeric, `bool` and string arrays are [`Value::Typed`], maps with integer keys
/// [`Value::IntObject`], and non-finite floats stay as they are (JSON writes `null`).
///
/// Everything else is what JSON makes of it: a unit enum variant is its name (a string), a
/// complex number `[re, im]`, a matrix `[extents, data]`, a type with a separate binary form
/// (a UUID) its text form, a [`crate::RawJson`] the value its text holds. So
/// `to_beve(&to_value(&x))` differs from `to_beve(&x)` for those kinds (BEVE writes a unit
/// variant as an integer, complex numbers and matrices as extensions); each still reads back
/// into its type with [`from_value`].
///
/// ```
/// #[derive(structio::Reflect, Debug, PartialEq)]
/// struct Point { x: i32, label: String }
///
/// let v = structio::to_value(&Point { x: -1, label: "a".into() });
/// assert_eq!(v["x"].as_i64(), Some(-1));
/// assert_eq!(v["label"], "a");
/// let back: Point = structio::from_value(v).unwrap();
/// assert_eq!(back, Point { x: -1, label: "a".into() });
/// ```
pub fn to_value<'de, T: Reflect<'de>>(v: &T) -> Value {
    let mut w = ValueWriter::new();
    v.write(&mut w);
    w.finish()
}

/// Reads a `T` from a [`Value`], with the default [`ReadOptions`]; see [`from_value_ref_with`].
/// The value is consumed, but its strings are copied into the result (the [`Reader`] interface
/// hands out text to copy, not strings to take), so this costs what [`from_value_ref`] costs.
pub fn from_value<T: ReflectOwned>(v: Value) -> Result<T> {
    from_value_ref_with(&v, &ReadOptions::DEFAULT)
}

/// [`from_value`] with options.
pub fn from_value_with<T: ReflectOwned>(v: Value, opts: &ReadOptions) -> Result<T> {
    from_value_ref_with(&v, opts)
}

/// Reads a `T` from a borrowed [`Value`], with the default [`ReadOptions`]; see
/// [`from_value_ref_with`]. `T` may borrow strings from the tree (`&'v str`, `Cow<'v, str>`).
pub fn from_value_ref<'v, T: Reflect<'v>>(v: &'v Value) -> Result<T> {
    from_value_ref_with(v, &ReadOptions::DEFAULT)
}

/// Reads a `T` from a borrowed [`Value`] with `opts`, as [`crate::json::from_json_with`] reads it
/// from JSON text: the same checks (types, ranges, unknown, missing and duplicate keys, depth,
/// `#[structio(...)]` constraints) and the same error messages, with the path of the value
/// that failed. An error's [`Error::offset`] is the index of that value in a pre-order walk
/// of the tree (its message says "at value N (pre-order)"), not a byte offset.
///
/// Numbers convert as JSON numbers do: an integer target takes a float that is a whole number
/// in its range (`1.0` is `1`); a float target rounds an integer or a wider float to nearest.
/// A float the tree holds is already rounded to its kind, so for a `Value` read from JSON text,
/// a number written with a fraction or an exponent whose decimal value is not exactly an `f64`
/// (`1.00000000000000001`, `1e30`) can read differently than from the text itself (which an
/// integer target reads by its exact decimal value), and an `f32` target rounds the `f64`
/// instead of the decimal (the two differ by one unit in the last place in rare cases).
///
/// A borrowed [`crate::RawJson`] cannot be read (the tree holds no JSON text to borrow); a
/// [`crate::RawJsonBuf`] can (its text is the subtree written as compact JSON).
pub fn from_value_ref_with<'v, T: Reflect<'v>>(v: &'v Value, opts: &ReadOptions) -> Result<T> {
    let mut r = ValueReader::with_options(v, *opts);
    T::read_new(&mut r).map_err(value_error)
}

/// Marks an error as one of a read from a tree (its offset counts values), and words the one
/// error only a tree gives.
#[cold]
fn value_error(e: Error) -> Error {
    let e = if matches!(e.code(), Code::BorrowedEscape) {
        e.with_code(Code::Custom(
            "a borrowed RawJson cannot be read from a Value, which holds no JSON text \
             (use RawJsonBuf)"
                .to_string(),
        ))
    } else {
        e
    };
    e.in_value()
}

// ---------------------------------------------------------------------------------------------
// Writer

/// A container being built.
enum Frame {
    Array(Vec<Value>),
    Object(Map, Option<String>),
    IntObject(IntMap, Option<IntKey>),
}

impl Default for Frame {
    fn default() -> Self {
        Frame::Array(Vec::new())
    }
}

/// Open containers kept inline: building a tree up to this deep allocates nothing but the
/// tree.
const INLINE_FRAMES: usize = 16;

/// A [`Writer`] that builds a [`Value`] (what [`to_value`] uses): `v.write(&mut w)`, then
/// [`ValueWriter::finish`]. It answers the format questions as the JSON writer does (human
/// readable, not binary, `None` members left out), keeps numbers of their exact kind and
/// typed arrays typed (see [`to_value`]).
pub struct ValueWriter {
    inline: [Frame; INLINE_FRAMES],
    more: Vec<Frame>,
    depth: usize,
    root: Option<Value>,
}

impl Default for ValueWriter {
    fn default() -> Self {
        ValueWriter::new()
    }
}

impl std::fmt::Debug for ValueWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValueWriter")
            .field("open", &self.depth)
            .finish_non_exhaustive()
    }
}

impl ValueWriter {
    /// A writer with nothing written.
    pub fn new() -> ValueWriter {
        ValueWriter {
            inline: Default::default(),
            more: Vec::new(),
            depth: 0,
            root: None,
        }
    }

    /// The value written (`null` if nothing was; containers still open are closed).
    pub fn finish(mut self) -> Value {
        while self.depth > 0 {
            self.close();
        }
        self.root.take().unwrap_or_default()
    }

    fn top(&mut self) -> Option<&mut Frame> {
        match self.depth {
            0 => None,
            d if d <= INLINE_FRAMES => Some(&mut self.inline[d - 1]),
            _ => self.more.last_mut(),
        }
    }

    fn open(&mut self, f: Frame) {
        if self.depth < INLINE_FRAMES {
            self.inline[self.depth] = f;
        } else {
            self.more.push(f);
        }
        self.depth += 1;
    }

    /// Closes the innermost container and puts it in its parent.
    fn close(&mut self) {
        let f = match self.depth {
            0 => return,
            d if d <= INLINE_FRAMES => std::mem::take(&mut self.inline[d - 1]),
            _ => self.more.pop().unwrap_or_default(),
        };
        self.depth -= 1;
        self.put(match f {
            Frame::Array(items) => Value::Array(Array::from(items)),
            Frame::Object(m, _) => Value::Object(m),
            Frame::IntObject(m, _) => Value::IntObject(m),
        });
    }

    /// Puts a finished value where it goes: the next element or member of the innermost
    /// container, or the root.
    fn put(&mut self, v: Value) {
        match self.top() {
            None => self.root = Some(v),
            Some(Frame::Array(items)) => items.push(v),
            Some(Frame::Object(m, key)) => {
                m.insert(key.take().unwrap_or_default(), v);
            }
            Some(Frame::IntObject(m, key)) => {
                let k = key.take().unwrap_or(IntKey::from(0u8));
                // The key was checked against the kind when it was given.
                let _ = m.try_insert(k, v);
            }
        }
    }

    /// Sets the key of the next member to the text `k`; an integer-keyed object given a text
    /// key (a map keyed by a unit enum writes names) becomes a string-keyed one.
    fn text_key(&mut self, k: &str) {
        let Some(top) = self.top() else { return };
        if let Frame::IntObject(m, _) = top {
            let mut obj = Map::with_capacity(m.len());
            for (ik, v) in m.take_entries() {
                obj.insert(ik.to_string(), v);
            }
            *top = Frame::Object(obj, None);
        }
        if let Frame::Object(_, key) = top {
            *key = Some(k.to_owned());
        }
    }
}

/// `items` as a typed array of their own kind.
fn typed_of<N: Number>(items: &[N]) -> TypedArray {
    by_kind!(N::KIND, T => TypedArray::from(bytemuck::cast_slice::<N, T>(items).to_vec()))
}

/// A number of its own kind.
fn num_of<N: Number>(v: N) -> Num {
    by_kind!(N::KIND, T => Num::from(bytemuck::cast::<N, T>(v)))
}

impl Writer for ValueWriter {
    fn write_null_members(&self) -> bool {
        false
    }
    fn null(&mut self) {
        self.put(Value::Null);
    }
    fn bool(&mut self, v: bool) {
        self.put(Value::Bool(v));
    }
    fn number<N: Number>(&mut self, v: N) {
        self.put(Value::Number(num_of(v)));
    }
    fn str(&mut self, v: &str) {
        self.put(Value::String(v.to_owned()));
    }
    fn begin_array(&mut self, len: usize) {
        self.open(Frame::Array(Vec::with_capacity(len)));
    }
    fn end_array(&mut self) {
        self.close();
    }
    fn begin_map(&mut self, len: usize, keys: KeyKind) {
        match keys {
            KeyKind::Int(kind) if !kind.is_float() => {
                self.open(Frame::IntObject(IntMap::new(kind), None))
            }
            _ => self.open(Frame::Object(Map::with_capacity(len), None)),
        }
    }
    fn key(&mut self, k: &str) {
        self.text_key(k);
    }
    fn int_key<N: Number>(&mut self, k: N) {
        let key = match k.to_wire() {
            Wire::Int(i) => IntKey::from(i),
            Wire::Uint(u) => IntKey::from(u),
            Wire::F32(_) | Wire::F64(_) => return self.text_key(&crate::to_json(&num_of(k))),
        };
        match self.top() {
            Some(Frame::IntObject(m, slot)) if key.fits(m.kind()) => *slot = Some(key),
            _ => self.text_key(&key.to_string()),
        }
    }
    fn enum_key(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.text_key(name);
    }
    fn end_object(&mut self) {
        self.close();
    }
    fn sep(&mut self) {}
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        self.put(Value::Typed(typed_of(items)));
    }
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        let v: Vec<N> = items.collect();
        self.put(Value::Typed(typed_of(&v)));
    }
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        self.put(Value::Typed(TypedArray::Bool(items.collect())));
    }
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.put(Value::Typed(TypedArray::Str(
            items.map(str::to_owned).collect(),
        )));
    }
    fn unit_variant(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.str(name);
    }
    /// The value the text holds (text that is not one JSON value stays a string).
    fn raw_json(&mut self, text: &str) {
        let v = crate::from_json::<Value>(text).unwrap_or_else(|_| Value::String(text.into()));
        self.put(v);
    }
    fn keeps_beve_extensions(&self) -> bool {
        true
    }
    /// A [`Value::Extension`] holding the bytes, so that `to_value(&v) == v` for every tree.
    fn raw_beve(&mut self, bytes: &[u8]) {
        self.put(Value::Extension(bytes.to_vec()));
    }
}

// ---------------------------------------------------------------------------------------------
// Reader

/// The value a [`ValueReader`] reads next: a node of the tree, or an element of a typed array.
#[derive(Clone, Copy)]
enum Item<'v> {
    Value(&'v Value),
    Num(Num),
    Bool(bool),
    Str(&'v str),
    /// Nothing: the value was read, or a container ended.
    Done,
}

/// A saved position of a [`ValueReader`] ([`Reader::save`]).
#[derive(Clone, Copy)]
pub struct ValuePos<'v> {
    cur: Item<'v>,
    depth: usize,
    at: usize,
}

impl std::fmt::Debug for ValuePos<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValuePos")
            .field("depth", &self.depth)
            .field("at", &self.at)
            .finish_non_exhaustive()
    }
}

/// The state of an array a [`ValueReader`] reads: the elements and the next one's index.
#[derive(Debug)]
pub struct ValueSeq<'v> {
    items: SeqItems<'v>,
    next: usize,
}

#[derive(Debug)]
enum SeqItems<'v> {
    Values(&'v [Value]),
    Typed(&'v TypedArray),
}

impl<'v> SeqItems<'v> {
    fn len(&self) -> usize {
        match self {
            SeqItems::Values(v) => v.len(),
            SeqItems::Typed(t) => t.len(),
        }
    }

    fn item(&self, i: usize) -> Item<'v> {
        match *self {
            SeqItems::Values(v) => v.get(i).map_or(Item::Done, Item::Value),
            SeqItems::Typed(t) => match t {
                TypedArray::Bool(b) => b.get(i).map_or(Item::Done, |&b| Item::Bool(b)),
                TypedArray::Str(s) => s.get(i).map_or(Item::Done, |s| Item::Str(s)),
                _ => t.num(i).map_or(Item::Done, Item::Num),
            },
        }
    }
}

/// The state of an object a [`ValueReader`] reads: the members and the next one's index.
#[derive(Debug)]
pub struct ValueMap<'v> {
    entries: MapEntries<'v>,
    next: usize,
}

#[derive(Debug)]
enum MapEntries<'v> {
    Str(&'v [(String, Value)]),
    Int(&'v [(IntKey, Value)]),
}

/// A [`Reader`] that walks a borrowed [`Value`] (what [`from_value_ref`] uses): strings are
/// borrowed from the tree, and [`Reader::offset`] is the index of the next value in a
/// pre-order walk of the tree (the root is 0; a container comes before its elements; each
/// element of a typed array counts as one value), so that error offsets and the untagged
/// enums' re-read budget count values instead of bytes. It answers the format questions as
/// the JSON reader does ([`Reader::is_human_readable`] is `true`).
pub struct ValueReader<'v> {
    root: &'v Value,
    cur: Item<'v>,
    depth: usize,
    at: usize,
    opts: ReadOptions,
    /// Values of the tree, counted when the untagged enums first re-read (`None` before).
    total: Option<usize>,
    reread: usize,
    /// Text made for the reader's callers: an integer key as a field name, raw JSON.
    scratch: String,
}

impl std::fmt::Debug for ValueReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValueReader")
            .field("depth", &self.depth)
            .field("at", &self.at)
            .finish_non_exhaustive()
    }
}

impl<'v> ValueReader<'v> {
    /// A reader of `v` with the default options.
    pub fn new(v: &'v Value) -> ValueReader<'v> {
        ValueReader::with_options(v, ReadOptions::DEFAULT)
    }

    /// A reader of `v` with `opts`.
    pub fn with_options(v: &'v Value, opts: ReadOptions) -> ValueReader<'v> {
        ValueReader {
            root: v,
            cur: Item::Value(v),
            depth: 0,
            at: 0,
            opts,
            total: None,
            reread: 0,
            scratch: String::new(),
        }
    }

    /// The value at the current position, consumed (`n` values counted).
    #[inline]
    fn consume(&mut self, n: usize) {
        self.cur = Item::Done;
        self.at += n;
    }

    /// Enters a container (depth and stack checks).
    #[inline]
    fn enter(&mut self) -> Result<()> {
        if self.depth >= self.opts.max_depth {
            return Err(Error::new(Code::DepthLimit(self.opts.max_depth), self.at));
        }
        self.depth += 1;
        if self.depth > crate::read::STACK_CHECK_DEPTH {
            crate::read::stack_left(crate::read::STACK_RED_ZONE, self.at)?;
        }
        Ok(())
    }

    /// The number at the current position, if it is one.
    #[inline]
    fn num(&self) -> Option<Num> {
        match self.cur {
            Item::Value(Value::Number(n)) => Some(*n),
            Item::Num(n) => Some(n),
            _ => None,
        }
    }

    /// The text at the current position, if it is a string.
    #[inline]
    fn text(&self) -> Option<&'v str> {
        match self.cur {
            Item::Value(Value::String(s)) => Some(s),
            Item::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// The kind of a node.
fn kind_of(v: &Value) -> ValueKind {
    match v {
        Value::Null => ValueKind::Null,
        Value::Bool(_) => ValueKind::Bool,
        Value::Number(n) => ValueKind::Number(Some(n.kind())),
        Value::String(_) => ValueKind::String,
        Value::Array(_) => ValueKind::Array,
        Value::Object(_) => ValueKind::Object,
        Value::Typed(t) => match t {
            TypedArray::Bool(_) => ValueKind::BoolArray,
            TypedArray::Str(_) => ValueKind::StrArray,
            _ => t.num_kind().map_or(ValueKind::Array, ValueKind::TypedArray),
        },
        Value::IntObject(m) => ValueKind::IntKeyObject(m.kind()),
        Value::Extension(b) => ValueKind::Extension(b.first().copied().unwrap_or(0)),
    }
}

/// The children of a container, for counting.
enum Kids<'a> {
    Values(std::slice::Iter<'a, Value>),
    Members(std::slice::Iter<'a, (String, Value)>),
    IntMembers(std::slice::Iter<'a, (IntKey, Value)>),
}

impl<'a> Kids<'a> {
    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Kids::Values(it) => it.next(),
            Kids::Members(it) => it.next().map(|(_, v)| v),
            Kids::IntMembers(it) => it.next().map(|(_, v)| v),
        }
    }
}

/// The number of values in the subtree `v` (itself included), checking that it nests at most
/// `room` containers deep (the depth left, as a reader's skip checks it; the error is at
/// `at`). Without recursion; the memory it takes grows with the depth, not the size.
fn subtree_size(v: &Value, room: usize, max_depth: usize, at: usize) -> Result<usize> {
    let mut n = 0usize;
    let mut stack: Vec<Kids<'_>> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            n += 1;
            let kids = match v {
                Value::Array(a) => Some(Kids::Values(a.iter())),
                Value::Object(m) => Some(Kids::Members(m.entries.iter())),
                Value::IntObject(m) => Some(Kids::IntMembers(m.entries().iter())),
                Value::Typed(t) => {
                    if room == stack.len() {
                        return Err(Error::new(Code::DepthLimit(max_depth), at));
                    }
                    n += t.len();
                    None
                }
                _ => None,
            };
            if let Some(kids) = kids {
                if room == stack.len() {
                    return Err(Error::new(Code::DepthLimit(max_depth), at));
                }
                stack.push(kids);
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(n);
        };
        match top.next() {
            Some(v) => next = Some(v),
            None => {
                stack.pop();
            }
        }
    }
}

/// 2^127 and 2^128: a whole float in `[-2^127, 2^127)` converts to an `i128` exactly, one in
/// `[0, 2^128)` to a `u128`.
const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
const TWO_128: f64 = 340_282_366_920_938_463_463_374_607_431_768_211_456.0;

/// `n` as an `N`, as a JSON number converts: integers in range, a float that is a whole number
/// into an integer type (by its exact value), any number into a float type (rounded).
#[inline]
fn number<N: Number>(n: Num, at: usize) -> Result<N> {
    let w = n.to_wire();
    match N::from_wire(w) {
        Some(v) => Ok(v),
        None => number_slow::<N>(w, at),
    }
}

/// [`number`]'s other cases: a whole float into an integer type, or the error.
#[cold]
fn number_slow<N: Number>(w: Wire, at: usize) -> Result<N> {
    let out_of_range = || Error::new(Code::NumberOutOfRange(N::KIND.name()), at);
    let f = match w {
        Wire::F32(x) => f64::from(x),
        Wire::F64(x) => x,
        Wire::Int(_) | Wire::Uint(_) => return Err(out_of_range()),
    };
    if N::KIND.is_float() {
        return Err(out_of_range());
    }
    if !f.is_finite() || f.trunc() != f {
        return Err(Error::new(Code::ExpectedInteger(N::KIND.name()), at));
    }
    let whole = if (-TWO_127..TWO_127).contains(&f) {
        Wire::Int(f as i128)
    } else if (0.0..TWO_128).contains(&f) {
        Wire::Uint(f as u128)
    } else {
        return Err(out_of_range());
    };
    N::from_wire(whole).ok_or_else(out_of_range)
}

/// A slice of `N` when `v` holds elements of `N`'s kind.
#[inline]
fn same_kind<N: Number, T: Number>(v: &[T]) -> Option<&[N]> {
    (N::KIND == T::KIND).then(|| bytemuck::cast_slice::<T, N>(v))
}

impl<'v> Reader<'v> for ValueReader<'v> {
    type Seq = ValueSeq<'v>;
    type Map = ValueMap<'v>;
    type Pos = ValuePos<'v>;

    fn options(&self) -> &ReadOptions {
        &self.opts
    }

    /// The index of the next value in a pre-order walk of the tree.
    fn offset(&self) -> usize {
        self.at
    }

    fn save(&self) -> ValuePos<'v> {
        ValuePos {
            cur: self.cur,
            depth: self.depth,
            at: self.at,
        }
    }

    fn restore(&mut self, pos: ValuePos<'v>) {
        self.cur = pos.cur;
        self.depth = pos.depth;
        self.at = pos.at;
    }

    /// Counts values, not bytes: the budget is the same multiple of the tree's size as the
    /// text readers give their input.
    fn charge_reread(&mut self, values: usize) -> Result<()> {
        let total = match self.total {
            Some(t) => t,
            None => {
                let t = subtree_size(self.root, usize::MAX, usize::MAX, 0)?;
                self.total = Some(t);
                t
            }
        };
        crate::reflect::charge_reread(&mut self.reread, values, total, self.at)
    }

    fn peek_kind(&mut self) -> Result<ValueKind> {
        Ok(match self.cur {
            Item::Value(v) => kind_of(v),
            Item::Num(n) => ValueKind::Number(Some(n.kind())),
            Item::Bool(_) => ValueKind::Bool,
            Item::Str(_) => ValueKind::String,
            Item::Done => return Err(Error::new(Code::UnexpectedEnd, self.at)),
        })
    }

    fn take_null(&mut self) -> Result<bool> {
        if let Item::Value(Value::Null) = self.cur {
            self.consume(1);
            return Ok(true);
        }
        Ok(false)
    }

    fn read_bool(&mut self) -> Result<bool> {
        match self.cur {
            Item::Value(Value::Bool(b)) => {
                let b = *b;
                self.consume(1);
                Ok(b)
            }
            Item::Bool(b) => {
                self.consume(1);
                Ok(b)
            }
            _ => Err(self.invalid_type("a boolean")),
        }
    }

    fn read_number<N: Number>(&mut self) -> Result<N> {
        let Some(n) = self.num() else {
            return Err(self.invalid_type("a number"));
        };
        let v = number::<N>(n, self.at)?;
        self.consume(1);
        Ok(v)
    }

    fn read_wire_number(&mut self) -> Result<Wire> {
        let Some(n) = self.num() else {
            return Err(self.invalid_type("a number"));
        };
        self.consume(1);
        Ok(n.to_wire())
    }

    fn read_str(&mut self) -> Result<Str<'v, '_>> {
        let Some(s) = self.text() else {
            return Err(self.invalid_type("a string"));
        };
        self.consume(1);
        Ok(Str::Borrowed(s))
    }

    fn begin_array(&mut self) -> Result<ValueSeq<'v>> {
        let items = match self.cur {
            Item::Value(Value::Array(a)) => SeqItems::Values(a),
            Item::Value(Value::Typed(t)) => SeqItems::Typed(t),
            _ => return Err(self.invalid_type("an array")),
        };
        self.enter()?;
        self.consume(1);
        Ok(ValueSeq { items, next: 0 })
    }

    fn next_element(&mut self, seq: &mut ValueSeq<'v>) -> Result<bool> {
        if seq.next < seq.items.len() {
            self.cur = seq.items.item(seq.next);
            seq.next += 1;
            return Ok(true);
        }
        self.cur = Item::Done;
        self.depth = self.depth.saturating_sub(1);
        Ok(false)
    }

    fn remaining_hint(&self, seq: &ValueSeq<'v>) -> Option<usize> {
        Some(seq.items.len() - seq.next)
    }

    fn begin_object(&mut self) -> Result<ValueMap<'v>> {
        let entries = match self.cur {
            Item::Value(Value::Object(m)) => MapEntries::Str(&m.entries),
            Item::Value(Value::IntObject(m)) => MapEntries::Int(m.entries()),
            _ => return Err(self.invalid_type("an object")),
        };
        self.enter()?;
        self.consume(1);
        Ok(ValueMap { entries, next: 0 })
    }

    fn next_field(&mut self, map: &mut ValueMap<'v>) -> Result<Option<&[u8]>> {
        let i = map.next;
        match map.entries {
            MapEntries::Str(e) => match e.get(i) {
                Some((k, v)) => {
                    map.next += 1;
                    self.cur = Item::Value(v);
                    Ok(Some(k.as_bytes()))
                }
                None => self.end_map(),
            },
            MapEntries::Int(e) => match e.get(i) {
                Some((k, v)) => {
                    map.next += 1;
                    self.cur = Item::Value(v);
                    self.scratch.clear();
                    let _ = write!(self.scratch, "{k}");
                    Ok(Some(self.scratch.as_bytes()))
                }
                None => self.end_map(),
            },
        }
    }

    fn next_key(&mut self, map: &mut ValueMap<'v>) -> Result<Option<Key<'v, '_>>> {
        let i = map.next;
        match map.entries {
            MapEntries::Str(e) => match e.get(i) {
                Some((k, v)) => {
                    map.next += 1;
                    self.cur = Item::Value(v);
                    Ok(Some(Key::Str(Str::Borrowed(k))))
                }
                None => self.end_map(),
            },
            MapEntries::Int(e) => match e.get(i) {
                Some((k, v)) => {
                    map.next += 1;
                    self.cur = Item::Value(v);
                    Ok(Some(Key::Int(k.to_wire())))
                }
                None => self.end_map(),
            },
        }
    }

    fn skip_value(&mut self) -> Result<()> {
        let n = match self.cur {
            Item::Value(v) => {
                let room = self.opts.max_depth.saturating_sub(self.depth);
                subtree_size(v, room, self.opts.max_depth, self.at)?
            }
            Item::Num(_) | Item::Bool(_) | Item::Str(_) => 1,
            Item::Done => return Err(Error::new(Code::UnexpectedEnd, self.at)),
        };
        self.consume(n);
        Ok(())
    }

    /// A variant's name, or (what BEVE writes) its discriminant.
    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize> {
        let at = self.at;
        if let Some(name) = self.text() {
            self.consume(1);
            return info
                .by_name(name.as_bytes())
                .ok_or_else(|| Error::new(Code::UnknownVariant(name.to_string()), at));
        }
        if let Some(n) = self.num() {
            let found = n.as_i128().and_then(|d| info.by_discriminant(d));
            return match found {
                Some(i) => {
                    self.consume(1);
                    Ok(i)
                }
                None => Err(Error::new(Code::UnknownVariant(crate::to_json(&n)), at)),
            };
        }
        Err(self.invalid_type("a string"))
    }

    fn read_typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        if let Item::Value(Value::Typed(t)) = self.cur {
            let same = with_typed!(t, v => same_kind::<N, _>(v), _b => None, _s => None);
            if let Some(src) = same {
                self.enter()?;
                self.depth -= 1;
                out.clear();
                out.extend_from_slice(src);
                self.consume(1 + src.len());
                return Ok(());
            }
        }
        crate::read::read_numbers_generic(self, out)
    }

    /// A typed array of `N`'s kind is borrowed from the tree; anything else is read into an
    /// owned vector.
    fn read_typed_cow<N: Number>(&mut self, out: &mut std::borrow::Cow<'v, [N]>) -> Result<()> {
        if let Item::Value(Value::Typed(t)) = self.cur {
            let same = with_typed!(t, v => same_kind::<N, _>(v), _b => None, _s => None);
            if let Some(src) = same {
                self.enter()?;
                self.depth -= 1;
                *out = std::borrow::Cow::Borrowed(src);
                self.consume(1 + src.len());
                return Ok(());
            }
        }
        self.read_typed_vec(out.to_mut())
    }

    /// The subtree as compact JSON, made in the reader's buffer (so that only a
    /// [`crate::RawJsonBuf`], not a borrowed [`crate::RawJson`], can take it).
    fn read_raw_json(&mut self) -> Result<Str<'v, '_>> {
        let n = match self.cur {
            Item::Value(v) => {
                let n = subtree_size(v, usize::MAX, usize::MAX, self.at)?;
                self.scratch = crate::to_json(v);
                n
            }
            Item::Num(x) => {
                self.scratch = crate::to_json(&x);
                1
            }
            Item::Bool(b) => {
                self.scratch = crate::to_json(&b);
                1
            }
            Item::Str(s) => {
                self.scratch = crate::to_json(&s);
                1
            }
            Item::Done => return Err(Error::new(Code::UnexpectedEnd, self.at)),
        };
        self.consume(n);
        Ok(Str::Transient(&self.scratch))
    }

    fn read_extension(&mut self) -> Result<&'v [u8]> {
        match self.cur {
            Item::Value(Value::Extension(b)) => {
                self.consume(1);
                Ok(b)
            }
            _ => Err(self.invalid_type("a BEVE extension value")),
        }
    }
}

impl<'v> ValueReader<'v> {
    /// The end of an object.
    #[inline]
    fn end_map<K>(&mut self) -> Result<Option<K>> {
        self.cur = Item::Done;
        self.depth = self.depth.saturating_sub(1);
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_convert_as_json_numbers_do() {
        assert_eq!(number::<u8>(Num::from(1.0f64), 0).unwrap(), 1);
        assert_eq!(number::<u8>(Num::from(-0.0f64), 0).unwrap(), 0);
        assert_eq!(number::<i8>(Num::from(-128.0f32), 0).unwrap(), -128);
        assert!(number::<u8>(Num::from(1.5f64), 0).is_err());
        assert!(number::<u8>(Num::from(256.0f64), 0).is_err());
        assert!(number::<u8>(Num::from(f64::NAN), 0).is_err());
        assert!(number::<u64>(Num::from(1e300f64), 0).is_err());
        assert_eq!(number::<u64>(Num::from(u64::MAX), 0).unwrap(), u64::MAX);
        assert_eq!(number::<i64>(Num::from(i64::MIN), 0).unwrap(), i64::MIN);
        assert_eq!(
            number::<u128>(Num::from(2f64.powi(100)), 0).unwrap(),
            1u128 << 100
        );
        assert_eq!(
            number::<i128>(Num::from(-(2f64.powi(127))), 0).unwrap(),
            i128::MIN
        );
        assert_eq!(number::<f32>(Num::from(3u8), 0).unwrap(), 3.0);
        assert!(number::<f32>(Num::from(1e300f64), 0).is_err());
    }

    #[test]
    fn subtree_sizes_count_every_value() {
        let v: Value = crate::from_json(r#"{"a":[1,2,{"b":null}],"c":"x"}"#).unwrap();
        // object, a, 1, 2, {b}, null, c
        assert_eq!(subtree_size(&v, 10, 10, 0).unwrap(), 7);
        assert!(subtree_size(&v, 2, 2, 0).is_err());
        assert_eq!(subtree_size(&v, 3, 3, 0).unwrap(), 7);
    }
}
