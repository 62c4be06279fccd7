//! The reflection trait and the two narrow interfaces a format backend implements.
//!
//! [`Reflect`] is what `#[derive(Reflect)]` emits, once per type. It knows the *shape* of a value
//! (fields, elements, variants) and nothing about bytes. A backend plugs in by implementing
//! [`Writer`] (values to bytes) and [`Reader`] (bytes to values); the walk over fields lives once,
//! in [`crate::read`], and drives both.
//!
//! The methods with default bodies (`write_slice`, `read_vec`, ...) exist so that containers can
//! pick a format's bulk form: a `Vec<f64>` becomes one BEVE typed array moved with one copy,
//! while a `Vec<MyStruct>` stays a generic array. Numeric, `bool` and string types override them.

use std::borrow::Cow;

use crate::error::Result;
use crate::impls::matrix::Layout;
use crate::number::{NumKind, Number, Wire};
use structio_keys::Probe;

/// A type that structio can write and read in every format.
///
/// `'de` is the lifetime of the input document: types that borrow from it (`&'de str`,
/// `Cow<'de, str>`, `Cow<'de, [f64]>`, [`crate::RawJson`]) implement `Reflect<'de>` only for
/// that lifetime; owned types implement it for every `'de`.
///
/// Usually derived: `#[derive(structio::Reflect)]`.
pub trait Reflect<'de>: Sized {
    /// Writes the value.
    fn write<W: Writer>(&self, w: &mut W);

    /// Reads a value into `self`, reusing its buffers (String, Vec, the elements of a Vec):
    /// the result is what [`Reflect::read_new`] gives for the same document (unless
    /// [`ReadOptions::merge`] asks to merge the document into the value).
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()>;

    /// Reads a new value, with nothing to reuse. A derived struct is built from its members,
    /// so that no member type needs `Default`; a type with a natural default usually
    /// implements this as `let mut v = Self::default(); v.read(r)?; Ok(v)`.
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self>;

    /// The value of this type when nothing was read, if it has one: `Some(Default::default())`
    /// for the std types with a natural default (numbers, strings, collections), `Some(None)`
    /// for `Option`, field by field for a derived struct, the `#[default]` variant for a
    /// derived enum; `None` (this default) for a type without one (`NonZeroU32`, `Ipv4Addr`,
    /// a struct with such a member).
    ///
    /// A struct member a document leaves out takes it under
    /// `ReadOptions { error_on_missing_keys: false, .. }`: a required member without one is
    /// still reported as missing.
    #[inline]
    fn default_value() -> Option<Self> {
        None
    }

    /// Whether [`Reflect::default_value`] always returns `Some`: a constant, so that code
    /// which starts from the default value compiles only that way. A derived struct's
    /// `read_new` reads into its default value in place when it has one, else builds the value
    /// member by member; in debug builds, when every member says `true`, the second way is not
    /// compiled (release builds drop it in optimisation). `false` by default; a type whose
    /// `default_value` is always `Some` should say so (every type of this crate and every
    /// derived type does). It must not be `true` for a type whose `default_value` may return
    /// `None`: in a debug build, reading a derived struct with a member of that type as a new
    /// value would then fail with an error naming the struct (a release build builds the value
    /// member by member instead).
    const HAS_DEFAULT_VALUE: bool = false;

    /// `N` default values in an array, when this type can make one without allocating: the
    /// numbers, `bool`, `char` and `()` (`Copy` types) override it; `[T; N]` reads a new array
    /// into it in place (one bulk copy for numbers in BEVE). `None` by default.
    #[inline]
    fn default_array<const N: usize>() -> Option<[Self; N]> {
        None
    }

    /// Whether a struct member holding this value is left out when written (`None`).
    #[inline]
    fn is_absent(&self) -> bool {
        false
    }

    /// Whether [`Self::is_absent`] can be true for some value (`Option`, and what wraps one).
    /// Maps leave entries with absent values out, as Glaze does; for types where this is
    /// `false` they skip the check.
    const MAY_BE_ABSENT: bool = false;

    /// Whether a derived struct reads a member of this type with the read inlined into its
    /// own code (`true`, the default) or through one call shared by every struct with such a
    /// member (`false`: one copy of the read per type and reader instead of one per struct).
    /// The types whose read is long (strings, floating-point numbers, maps, sequences of such) say
    /// `false`, which keeps the compile time of many derived types down at the cost of a call
    /// per member; a hint only: the value read is the same either way.
    const INLINE_MEMBER: bool = true;

    /// Whether [`crate::from_json`] first reads this type with a reader of the canonical layout
    /// alone (no whitespace between tokens, no escapes in strings, and for a struct marked
    /// `#[structio(canonical)]` its members in declaration order): a reader that skips no
    /// whitespace, unescapes nothing and checks the UTF-8 of the strings it reads instead of
    /// the whole input up front. On any other input that read stops at the first difference
    /// and the document is read again the ordinary way, which gives the same value or the
    /// error. `#[structio(canonical)]` sets it; `false` by default.
    const CANONICAL: bool = false;

    /// Reads a new value when the input holds it in the reader's canonical layout
    /// ([`Reader::CANONICAL`]), inside a fast-path attempt ([`crate::read::attempt`]) or the
    /// first pass of [`crate::from_json`] over a canonical type: `Ok(None)` on the first
    /// difference from the layout, which ends the attempt or the pass (the reader's position
    /// is then left to the caller to restore). A struct marked `canonical` reads its members
    /// this way, so that the fast path of nested canonical structs is one piece of code with
    /// no fallback in the middle. A derived unit-only enum of at most eight variants, named
    /// without characters JSON escapes, compares each quoted name with the input and returns
    /// `Ok(None)` for anything else. Every other type reads itself as [`Self::read_new`] does
    /// (this default).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_new_canonical<R: Reader<'de>>(r: &mut R) -> Result<Option<Self>> {
        Self::read_new(r).map(Some)
    }

    /// Writes `items` as one array. Numbers override this with a typed array (one bulk copy in
    /// BEVE), `bool` with a packed bool array, strings with a string array.
    #[inline]
    fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
        Self::write_iter(items.iter(), w)
    }

    /// Writes the items of a container that is not one contiguous slice as one array.
    #[inline]
    fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
        Self: 'a,
    {
        w.begin_array(items.len());
        for (i, x) in items.enumerate() {
            if i > 0 {
                w.sep();
            }
            x.write(w);
        }
        w.end_array();
    }

    /// Writes `rows`, fixed-size arrays of this type (a `Vec<[f64; 2]>` of points, say), as one
    /// array of arrays. Numbers override this with [`Writer::typed_rows`], so that a text
    /// writer can lay out all the rows in one pass; the default writes each row with
    /// [`Reflect::write_slice`], as a generic array of them.
    #[inline]
    fn write_rows<const N: usize, W: Writer>(rows: &[[Self; N]], w: &mut W) {
        w.begin_array(rows.len());
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                w.sep();
            }
            Self::write_slice(row, w);
        }
        w.end_array();
    }

    /// Reads an array into `out`, reusing its elements and capacity; the length becomes the
    /// number of elements read.
    #[inline]
    fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
        crate::read::read_vec_generic(out, r)
    }

    /// Reads an array of exactly `out.len()` elements into `out` (for `[T; N]`).
    #[inline]
    fn read_slice<R: Reader<'de>>(out: &mut [Self], r: &mut R) -> Result<()> {
        crate::read::read_slice_generic(out, r)
    }

    /// Reads an array into `out` (for `Cow<'de, [T]>`). Numbers override this to borrow from
    /// the input where the format lays them out ready to use (BEVE's aligned typed arrays);
    /// the default reads into an owned vector, reusing the one `out` holds.
    #[inline]
    fn read_cow<R: Reader<'de>>(out: &mut Cow<'de, [Self]>, r: &mut R) -> Result<()>
    where
        Self: Clone,
    {
        if let Cow::Borrowed(_) = out {
            *out = Cow::Owned(Vec::new());
        }
        Self::read_vec(out.to_mut(), r)
    }
}

/// A type that can be the key of a map: strings are object keys in both formats; integers are
/// quoted in JSON and raw little-endian keys of BEVE's integer-keyed objects; unit-only enums
/// are their name in JSON and their integer in BEVE.
pub trait MapKey<'de>: Sized {
    /// What kind of keys a map of this key type has.
    const KIND: KeyKind;
    /// Writes the value as a key.
    fn write_key<W: Writer>(&self, w: &mut W);
    /// Converts a key read from the document. `offset` is where the key started.
    fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self>;
    /// Reads the value of the entry under `key` with `read`: into the value `map` holds under
    /// it ([`MapEntry::Held`]), or as a new value ([`MapEntry::New`], then inserted). The
    /// default builds the key with [`MapKey::from_key`] and looks it up; the string types
    /// override it to look the key up by `&str` first, so that reading into a map which
    /// already holds the key allocates nothing.
    #[inline]
    fn read_entry<M, V, F>(map: &mut M, key: Key<'de, '_>, offset: usize, read: F) -> Result<()>
    where
        M: KeyedMap<Self, V>,
        F: FnOnce(MapEntry<'_, Self, V>) -> Result<Option<V>>,
    {
        read_keyed(map, Self::from_key(key, offset)?, read)
    }
}

/// Where [`MapKey::read_entry`] reads the value of an entry.
#[derive(Debug)]
pub enum MapEntry<'m, K, V> {
    /// Into the value the map holds under the key (the reader returns `None`).
    Held(&'m mut V),
    /// As a new value, for the key given here (the reader returns `Some(value)`, which is
    /// inserted; the key names the entry in an error's path).
    New(&'m K),
}

/// Reads the entry under `key` of `map` with `read` (see [`MapKey::read_entry`]).
#[inline]
pub fn read_keyed<K, V, M, F>(map: &mut M, key: K, read: F) -> Result<()>
where
    M: KeyedMap<K, V>,
    F: FnOnce(MapEntry<'_, K, V>) -> Result<Option<V>>,
{
    if let Some(held) = map.get_mut(&key) {
        return read(MapEntry::Held(held)).map(drop);
    }
    read_new_entry(map, key, read)
}

/// Reads the entry under `key`, which `map` does not hold, with `read` (as a new value) and
/// inserts it.
#[inline]
pub fn read_new_entry<K, V, M, F>(map: &mut M, key: K, read: F) -> Result<()>
where
    M: KeyedMap<K, V>,
    F: FnOnce(MapEntry<'_, K, V>) -> Result<Option<V>>,
{
    if let Some(v) = read(MapEntry::New(&key))? {
        map.insert_new(key, v);
    }
    Ok(())
}

/// A map that [`MapKey::read_entry`] can find entries in: `HashMap` and `BTreeMap`.
pub trait KeyedMap<K, V> {
    /// Inserts `value` under `key` (which the map does not hold).
    fn insert_new(&mut self, key: K, value: V);
    /// The value under `key`, if there is one.
    fn get_mut(&mut self, key: &K) -> Option<&mut V>;
    /// The value under a key equal to `q`, if there is one.
    fn find_mut<Q>(&mut self, q: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Ord + ?Sized;
}

/// The key type of a map, which BEVE writes in the object header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// String keys.
    Str,
    /// Integer keys of the given width and signedness.
    Int(NumKind),
}

/// A string read from the document: borrowed from the input when it could be (no escapes), or
/// held in the reader's scratch space until the next read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Str<'de, 's> {
    /// A slice of the input, valid for `'de`.
    Borrowed(&'de str),
    /// Unescaped text in the reader's scratch buffer.
    Transient(&'s str),
}

impl<'de, 's> Str<'de, 's> {
    /// The text.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn as_str(&self) -> &str {
        match *self {
            Str::Borrowed(s) => s,
            Str::Transient(s) => s,
        }
    }

    /// The text as a `Cow`: borrowed from the input, or an owned copy of transient text.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn into_cow(self) -> std::borrow::Cow<'de, str> {
        match self {
            Str::Borrowed(s) => std::borrow::Cow::Borrowed(s),
            Str::Transient(s) => std::borrow::Cow::Owned(s.to_owned()),
        }
    }
}

/// A map key read from the document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Key<'de, 's> {
    /// A string key (every JSON key, BEVE string-keyed objects).
    Str(Str<'de, 's>),
    /// An integer key (BEVE integer-keyed objects).
    Int(Wire),
}

/// The next key of a struct, as [`Reader::next_field_guess`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextField<'k> {
    /// The key is the one guessed (the field after the last one read).
    Guessed,
    /// Another key, as raw bytes (compared, not stored).
    Other(&'k [u8]),
}

impl<'k> NextField<'k> {
    /// `key` compared with `guess`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn of(key: &'k [u8], guess: &str) -> NextField<'k> {
        if crate::read::key_eq(guess.as_bytes(), key) {
            NextField::Guessed
        } else {
            NextField::Other(key)
        }
    }
}

/// What the next value in the document is, as far as a reader can tell without consuming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number; BEVE knows its wire kind, JSON does not (`None`).
    Number(Option<NumKind>),
    /// A string.
    String,
    /// An array (JSON array, BEVE generic array).
    Array,
    /// An array known up front to hold only numbers of the given kind (BEVE's typed arrays,
    /// plain or aligned). A format that cannot tell (JSON) reports [`ValueKind::Array`].
    TypedArray(NumKind),
    /// An array known up front to hold only booleans (BEVE's packed bool arrays).
    BoolArray,
    /// An array known up front to hold only strings (BEVE's string arrays).
    StrArray,
    /// An object with string keys.
    Object,
    /// An object whose keys are integers of the given kind (BEVE's integer-keyed objects; JSON
    /// keys are always strings).
    IntKeyObject(NumKind),
    /// A value of a kind outside this list that the format defines for itself, with the
    /// format's tag for it (BEVE's extensions: complex, matrix, legacy type tag, with their
    /// header byte). [`crate::Value`] keeps such values verbatim.
    Extension(u8),
}

impl ValueKind {
    /// A short name for error messages ("a string", "an array", ...).
    pub fn describe(self) -> &'static str {
        match self {
            ValueKind::Null => "null",
            ValueKind::Bool => "a boolean",
            ValueKind::Number(_) => "a number",
            ValueKind::String => "a string",
            ValueKind::Array
            | ValueKind::TypedArray(_)
            | ValueKind::BoolArray
            | ValueKind::StrArray => "an array",
            ValueKind::Object | ValueKind::IntKeyObject(_) => "an object",
            ValueKind::Extension(_) => "an extension value",
        }
    }
}

/// What to do with a key the target struct does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownKeys {
    /// Report an error naming the key (the default, as in Glaze).
    #[default]
    Error,
    /// Skip the value, still checking that it is well-formed.
    Skip,
}

/// Options every reader honours. Format options embed these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Unknown keys: error (default) or skip.
    pub unknown_keys: UnknownKeys,
    /// Report a struct member the document leaves out (default: `true`), unless it may be left
    /// out: an `Option` member, a member marked `#[structio(default)]` or
    /// `#[structio(default = "path")]`, or any member of a struct marked
    /// `#[structio(default)]`. Those take their default (`None`, the function's value, the
    /// member of the struct's `Default`), so that no value is ever made up silently.
    ///
    /// `false` is Glaze's rule: a member left out keeps the value it has (reading into an
    /// existing value) or takes its type's [`Reflect::default_value`] (reading a new value;
    /// a member whose type has none is still reported).
    pub error_on_missing_keys: bool,
    /// Report a key that appears twice in one object (default: the last one wins).
    pub error_on_duplicate_keys: bool,
    /// Deepest nesting of arrays and objects accepted (default 256).
    pub max_depth: usize,
    /// Reading into an existing value merges the document into it, as Glaze does: struct
    /// members the document leaves out keep their values (an `Option` stays `Some`), and map
    /// entries it does not mention stay in the map. Default `false`: reading into a used value
    /// gives exactly what reading into a new one gives (a left-out `Option` member becomes
    /// `None`, a map holds the document's entries only), still reusing its buffers.
    pub merge: bool,
    /// JSON only: accept comments (JSONC), `//` to the end of the line and `/* */`, wherever
    /// whitespace may stand, as Glaze's `read_jsonc` does (default `false`: a comment is an
    /// error, as in RFC 8259). A comment inside a string is the string's text; block comments
    /// do not nest; a `/*` without its `*/` is an error at the `/*`. Every in-memory JSON
    /// reader honours it ([`from_json_with`](crate::json::from_json_with),
    /// [`read_json_with`](crate::json::read_json_with), [`json::parse_with`](crate::json::parse_with),
    /// [`json::values_with`](crate::json::values_with),
    /// [`json::validate_with`](crate::json::validate_with)); NDJSON and the stream readers
    /// over `std::io::Read` do not ([`from_reader_with`](crate::json::from_reader_with), which
    /// reads the whole input first, does). BEVE has no comments and ignores it.
    pub comments: bool,
}

impl ReadOptions {
    /// The defaults (see each field), as a constant.
    pub const DEFAULT: ReadOptions = ReadOptions {
        unknown_keys: UnknownKeys::Error,
        error_on_missing_keys: true,
        error_on_duplicate_keys: false,
        max_depth: 256,
        merge: false,
        comments: false,
    };
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// How many times its length a reader lets untagged enums re-read the input (see
/// [`Reader::charge_reread`]).
pub(crate) const REREAD_FACTOR: usize = 64;

/// The number of bytes a reader of `len` bytes lets untagged enums re-read: `REREAD_FACTOR`
/// times the input, plus a little for tiny inputs.
pub(crate) fn reread_budget(len: usize) -> usize {
    len.saturating_mul(REREAD_FACTOR).saturating_add(4096)
}

/// [`Reader::charge_reread`] for a reader of `len` bytes that has re-read `reread` bytes so far:
/// adds `bytes`, and past [`reread_budget`] reports the limit at `at`.
pub(crate) fn charge_reread(reread: &mut usize, bytes: usize, len: usize, at: usize) -> Result<()> {
    *reread = reread.saturating_add(bytes);
    if *reread > reread_budget(len) {
        return Err(crate::error::Error::new(
            crate::error::Code::RereadLimit(REREAD_FACTOR),
            at,
        ));
    }
    Ok(())
}

/// Static description of a unit-only enum, emitted by the derive.
#[derive(Debug)]
pub struct EnumInfo {
    /// The Rust type name, for messages.
    pub name: &'static str,
    /// Variant names as written (after `rename`/`rename_all`), in declaration order, then the
    /// aliases accepted on input (so an index from [`EnumInfo::by_name`] may point past the
    /// variants; the derive maps it back).
    pub names: &'static [&'static str],
    /// Perfect-hash probe over `names`.
    pub probe: Probe<&'static [u16]>,
    /// The discriminant of each entry of `names` (an alias has its variant's; the variant
    /// itself comes first, so [`EnumInfo::by_discriminant`] finds it).
    pub discriminants: &'static [i128],
    /// The integer type BEVE writes (`#[repr]`, or `i32` without one).
    pub repr: NumKind,
}

impl EnumInfo {
    /// The variant index whose name is `name`.
    #[inline]
    pub fn by_name(&self, name: &[u8]) -> Option<usize> {
        self.probe.find(self.names, name)
    }

    /// The variant index whose discriminant is `value`.
    #[inline]
    pub fn by_discriminant(&self, value: i128) -> Option<usize> {
        self.discriminants.iter().position(|&d| d == value)
    }
}

/// Static description of the keyed fields of a struct (or of a struct variant), emitted by the
/// derive and consumed by [`crate::read`].
#[derive(Debug)]
pub struct FieldsInfo {
    /// Field names as written, one per field, in declaration order.
    pub names: &'static [&'static str],
    /// For each field, whether it may be missing even under
    /// [`ReadOptions::error_on_missing_keys`] (`Option` members, which are left out when `None`,
    /// and members with a `#[structio(default)]`, on themselves or on their struct). Empty when
    /// no field may.
    pub optional: &'static [bool],
    /// Every accepted key: the names, then the aliases.
    pub keys: &'static [&'static str],
    /// For each entry of `keys`, the field it sets.
    pub key_field: &'static [u16],
    /// Perfect-hash probe over `keys`.
    pub probe: Probe<&'static [u16]>,
    /// Whether every name is plain JSON text (no `"`, `\\` or byte below 0x20), so a text
    /// format can confirm a guessed key by comparing the input's bytes with the name.
    pub plain: bool,
}

/// The name of a struct member as written (after `rename`/`rename_all`), known when the type
/// was derived. The derive builds one in a constant for every member it writes, so what
/// [`FieldName::is_plain`] says is worked out at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldName {
    name: &'static str,
    plain: bool,
}

impl FieldName {
    /// The name `name`.
    pub const fn new(name: &'static str) -> FieldName {
        FieldName {
            name,
            plain: structio_keys::is_plain(name.as_bytes()),
        }
    }

    /// The name.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub const fn as_str(&self) -> &'static str {
        self.name
    }

    /// Whether the name holds no `"`, no `\\` and no control character below U+0020: text
    /// that a quoting format (JSON) writes between its quotes as it is.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub const fn is_plain(&self) -> bool {
        self.plain
    }
}

/// What [`Writer::begin_open`] starts: an array, an object with keys of a kind, or the object
/// of a struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// A generic array.
    Array,
    /// An object with keys of the given kind (a map).
    Map(KeyKind),
    /// The object of a struct (or of a struct variant).
    Struct,
}

/// A backend's output side: turns values into bytes.
///
/// The walk calls `sep` between the elements of an array and between the members of an object
/// (never before the first), so a text format knows where its commas go.
pub trait Writer {
    /// Whether [`Self::typed_array`], [`Self::bool_array`] and [`Self::str_array`] write
    /// something other than a generic array of the same values (BEVE: a typed array; JSON: no,
    /// `false`). The serde bridge, which gets a sequence's elements one at a time, gathers
    /// them to hand them over whole only when this is `true`. Default `true`.
    const PACKS_ARRAYS: bool = true;
    /// Whether derived structs are written as arrays of their members instead of objects
    /// (BEVE's [`crate::beve::Options::structs_as_arrays`]). A constant, checked once per
    /// struct written, so that a writer without it runs the object code alone. Default
    /// `false`.
    const STRUCTS_AS_ARRAYS: bool = false;
    /// Whether `None` struct members are written as null (true) or left out (false, default).
    fn write_null_members(&self) -> bool;
    /// Whether this writer drops everything it is given (default `false`). A walk that feeds
    /// such a writer, such as skipping a BEVE value, checks values without collecting them.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn discards(&self) -> bool {
        false
    }
    /// Whether this writer writes a binary format (BEVE: `true`; default `false`). A type with
    /// a compact binary form besides its text form writes the one or the other: a
    /// `uuid::Uuid` is its 16 bytes in BEVE and its hyphenated text in JSON.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn is_binary(&self) -> bool {
        false
    }
    /// Writes null.
    fn null(&mut self);
    /// Writes a boolean.
    fn bool(&mut self, v: bool);
    /// Writes a number.
    fn number<N: Number>(&mut self, v: N);
    /// Writes a string.
    fn str(&mut self, v: &str);
    /// Writes a `char` (a one-character string in both formats).
    #[inline]
    fn char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.str(c.encode_utf8(&mut buf));
    }
    /// Starts a generic array of `len` elements.
    fn begin_array(&mut self, len: usize);
    /// Ends the array.
    fn end_array(&mut self);
    /// Starts an object with `len` members and string keys.
    #[inline]
    fn begin_object(&mut self, len: usize) {
        self.begin_map(len, KeyKind::Str)
    }
    /// Starts the object of a struct or of a struct-like enum variant with `len` members
    /// (ended by [`Self::end_object`]): as [`Self::begin_object`], except that the pretty JSON
    /// writer lays an empty one out as Glaze lays out an empty struct (`{`, a newline and the
    /// inner indent, a newline and the outer indent, `}`), where an empty map stays `{}`.
    #[inline]
    fn begin_struct(&mut self, len: usize) {
        self.begin_object(len)
    }
    /// Starts an object with `len` members whose keys are of kind `keys`.
    fn begin_map(&mut self, len: usize, keys: KeyKind);
    /// Starts a non-empty map of which only `written` entries are written (the others hold
    /// absent values, left out as Glaze leaves them out): as [`Self::begin_map`], except that
    /// the pretty JSON writer lays a map left with no entries out as Glaze does (`{`, a newline
    /// and the inner indent, a newline and the outer indent, `}`), as for an empty struct.
    #[inline]
    fn begin_sparse_map(&mut self, written: usize, keys: KeyKind) {
        self.begin_map(written, keys)
    }
    /// Starts an array or object whose element count is known only when it ends, and returns
    /// a mark to give [`Self::end_open`]. The serde bridge starts every struct and map this
    /// way (a member whose value is `None` is left out, as a derived struct leaves it out, but
    /// only its value shows that) and every sequence of unknown length. `hint` is the count
    /// announced, if any.
    ///
    /// The default starts it with [`Self::begin_array`], [`Self::begin_map`] or
    /// [`Self::begin_struct`] and `hint` (0 when unknown), which is right for a format that
    /// writes no counts; a format that writes counts up front overrides this pair (BEVE
    /// writes the hint and corrects it at the end).
    #[inline]
    fn begin_open(&mut self, what: Open, hint: Option<usize>) -> usize {
        let n = hint.unwrap_or(0);
        match what {
            Open::Array => self.begin_array(n),
            Open::Map(keys) => self.begin_map(n, keys),
            Open::Struct => self.begin_struct(n),
        }
        0
    }
    /// Ends a container started with [`Self::begin_open`] (`mark` is what it returned, `hint`
    /// what it was given) after `count` elements or members. `left_out` says that members
    /// holding absent values were left out of a map: the pretty JSON writer then lays a map
    /// left with no entries out as [`Self::begin_sparse_map`] does. The default ends it with
    /// [`Self::end_array`] or [`Self::end_object`].
    #[inline]
    fn end_open(
        &mut self,
        what: Open,
        mark: usize,
        hint: Option<usize>,
        count: usize,
        left_out: bool,
    ) {
        let _ = (mark, hint, count, left_out);
        match what {
            Open::Array => self.end_array(),
            Open::Map(_) | Open::Struct => self.end_object(),
        }
    }
    /// Whether the format is meant to be read by people (JSON) rather than being a compact
    /// binary encoding (BEVE): what the serde bridge answers to
    /// `serde::Serializer::is_human_readable`, so that types which write themselves
    /// differently for the two (addresses, UUIDs, times) pick the form that suits the format.
    /// Default `true`.
    #[inline]
    fn is_human_readable(&self) -> bool {
        true
    }
    /// Writes a string key (followed by the member's value).
    fn key(&mut self, k: &str);
    /// Writes the key of a struct member, a name known when the type was derived. A text
    /// format can use [`FieldName::is_plain`] (worked out at compile time) to copy the name
    /// without looking at it. The default writes it as any other key.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn field_key(&mut self, name: FieldName) {
        self.key(name.as_str());
    }
    /// Writes an integer key.
    fn int_key<N: Number>(&mut self, k: N);
    /// Writes the key of a map keyed by a unit-only enum: its name in text formats, its
    /// integer in binary ones.
    fn enum_key(&mut self, name: &str, value: i128, repr: NumKind);
    /// Ends the object.
    fn end_object(&mut self);
    /// Separates two elements or two members.
    fn sep(&mut self);
    /// Writes a contiguous numeric array.
    fn typed_array<N: Number>(&mut self, items: &[N]);
    /// Writes rows of numbers (a `&[[f64; 2]]`, say) as an array of numeric arrays. The default
    /// is a generic array of [`Writer::typed_array`]s (what BEVE writes); a text writer
    /// overrides it to write all the rows in one pass.
    #[inline]
    fn typed_rows<N: Number, const M: usize>(&mut self, rows: &[[N; M]]) {
        self.begin_array(rows.len());
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                self.sep();
            }
            self.typed_array(row);
        }
        self.end_array();
    }
    /// Writes a complex number, components `re` and `im`. The default is a two-element array
    /// (`[re,im]`, the JSON form, which the pretty JSON writer keeps on one line as Glaze
    /// does); BEVE writes its complex extension.
    #[inline]
    fn complex<N: Number>(&mut self, re: N, im: N) {
        self.begin_array(2);
        self.number(re);
        self.sep();
        self.number(im);
        self.end_array();
    }
    /// Writes an array of complex numbers, each `[re, im]`. The default is an array of
    /// [`Writer::complex`]; BEVE writes one complex-array extension (one copy).
    #[inline]
    fn complex_array<N: Number>(&mut self, items: &[[N; 2]]) {
        self.begin_array(items.len());
        for (i, &[re, im]) in items.iter().enumerate() {
            if i > 0 {
                self.sep();
            }
            self.complex(re, im);
        }
        self.end_array();
    }
    /// Writes a dense N-dimensional array of numbers: the size of each dimension (`extents`)
    /// and the elements in `layout` order. The default is `[extents, data]`, two numeric
    /// arrays (the JSON form Glaze uses for dynamic Eigen matrices); BEVE writes its matrix
    /// extension.
    #[inline]
    fn matrix<N: Number>(&mut self, layout: Layout, extents: &[u64], data: &[N]) {
        let _ = layout;
        self.begin_array(2);
        self.typed_array(extents);
        self.sep();
        self.typed_array(data);
        self.end_array();
    }
    /// Writes a numeric array from an iterator.
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I);
    /// Writes a bool array.
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I);
    /// Writes an array of strings.
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I);
    /// Writes a variant of a unit-only enum: its name in text formats, its integer (of the
    /// `repr` width) in binary ones.
    fn unit_variant(&mut self, name: &str, value: i128, repr: NumKind);
    /// Writes a verbatim JSON fragment (BEVE stores it as a string).
    fn raw_json(&mut self, text: &str);
    /// Whether [`Writer::raw_beve`] copies BEVE bytes verbatim (the BEVE writer does). BEVE
    /// transcoding then hands extension values (matrix, complex, legacy type tag) over whole
    /// instead of projecting them to plain values (`{"layout":..}`, `[re,im]`, `{"index":..}`).
    #[inline]
    fn keeps_beve_extensions(&self) -> bool {
        false
    }
    /// Writes one complete BEVE value given as bytes (an extension such as a matrix or complex
    /// number that [`crate::Value`] keeps verbatim). BEVE copies the bytes; other formats
    /// transcode them (this default), writing `null` if they are not valid BEVE.
    fn raw_beve(&mut self, bytes: &[u8])
    where
        Self: Sized,
    {
        if crate::beve::transcode(bytes, self).is_err() {
            self.null();
        }
    }
}

/// A backend's input side: turns bytes into values.
///
/// Arrays and objects are read with a small state value owned by the caller (`Seq`, `Map`):
/// `let mut s = r.begin_array()?; while r.next_element(&mut s)? { ... }`. The nesting depth is
/// counted in `begin_*` and released when `next_*` reports the end.
pub trait Reader<'de> {
    /// State of an array being read.
    type Seq;
    /// State of an object being read.
    type Map;
    /// A saved position, for readers that must look ahead and come back.
    type Pos: Copy;

    /// Whether this reader collects problems instead of stopping at the first: `true` only
    /// for the reader behind [`crate::json::parse`] and [`crate::beve::parse`], which wraps a
    /// format's reader. The walk takes its collecting paths only when this is `true`, so the
    /// other readers are compiled with no added work.
    const COLLECTS: bool = false;
    /// The record of problems of a collecting reader (`None` for the others).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn collector(&mut self) -> Option<&mut crate::report::Collector> {
        None
    }

    /// The options in force.
    fn options(&self) -> &ReadOptions;
    /// The current byte offset in the input.
    fn offset(&self) -> usize;
    /// Saves the position (including the depth).
    fn save(&self) -> Self::Pos;
    /// Returns to a saved position.
    fn restore(&mut self, pos: Self::Pos);
    /// Accounts for `bytes` of input about to be read again (an untagged enum trying its next
    /// variant after a failed one). A reader may refuse once the input has been re-read more
    /// than a fixed multiple of its length, so that backtracking stays linear in the input
    /// instead of exponential in the nesting. Default: no limit.
    fn charge_reread(&mut self, bytes: usize) -> Result<()> {
        let _ = bytes;
        Ok(())
    }

    /// What the next value is, without consuming it.
    fn peek_kind(&mut self) -> Result<ValueKind>;
    /// Consumes a null if the next value is one.
    fn take_null(&mut self) -> Result<bool>;
    /// Reads a boolean.
    fn read_bool(&mut self) -> Result<bool>;
    /// Reads a number into `N`, checking its range.
    fn read_number<N: Number>(&mut self) -> Result<N>;
    /// Reads a number as it is on the wire: JSON integers without fraction or exponent become
    /// `Int`/`Uint`, other numbers `F64`.
    fn read_wire_number(&mut self) -> Result<Wire>;
    /// Reads a string.
    fn read_str(&mut self) -> Result<Str<'de, '_>>;
    /// Reads a string into `out`, replacing its contents (its buffer is reused). Readers that
    /// unescape text can write it straight into `out` instead of into a scratch buffer first.
    #[inline]
    fn read_string_into(&mut self, out: &mut String) -> Result<()> {
        let s = self.read_str()?;
        out.clear();
        out.push_str(s.as_str());
        Ok(())
    }
    /// Reads an array of strings into `out`, reusing its strings' buffers; its length becomes
    /// the count.
    #[inline]
    fn read_string_vec(&mut self, out: &mut Vec<String>) -> Result<()>
    where
        Self: Sized,
    {
        let n = self.read_str_seq(|i, s| {
            string_slot(out, i).push_str(s.as_str());
            Ok(())
        })?;
        out.truncate(n);
        Ok(())
    }
    /// Reads a `char` (a one-character string).
    #[inline]
    fn read_char(&mut self) -> Result<char> {
        let at = self.offset();
        let s = self.read_str()?;
        let mut it = s.as_str().chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(crate::error::Error::new(
                crate::error::Code::InvalidChar,
                at,
            )),
        }
    }

    /// Starts reading an array.
    fn begin_array(&mut self) -> Result<Self::Seq>;
    /// Moves to the next element; `false` at the end of the array.
    fn next_element(&mut self, seq: &mut Self::Seq) -> Result<bool>;
    /// How many elements remain, when the format says so up front (BEVE), for reserving.
    fn remaining_hint(&self, seq: &Self::Seq) -> Option<usize>;

    /// Starts reading an object.
    fn begin_object(&mut self) -> Result<Self::Map>;
    /// The next key of a struct, as raw bytes (compared, not stored), or `None` at the end.
    fn next_field(&mut self, map: &mut Self::Map) -> Result<Option<&[u8]>>;
    /// [`next_field`](Reader::next_field) with a guess: [`NextField::Guessed`] when the key is
    /// `guess` (a field's wire name), which a format may confirm without decoding the key.
    /// `plain` says `guess` has no character a JSON string would escape (see
    /// [`FieldsInfo::plain`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field_guess(
        &mut self,
        map: &mut Self::Map,
        guess: &str,
        plain: bool,
    ) -> Result<Option<NextField<'_>>> {
        let _ = plain;
        Ok(self.next_field(map)?.map(|key| NextField::of(key, guess)))
    }
    /// Whether this format has a canonical text layout that [`Reader::take_exact`] can match
    /// (JSON: compact, keys in declaration order). `false` (this default) makes
    /// [`crate::read::read_canonical`] go straight to the ordinary walk.
    const CANONICAL: bool = false;

    /// Whether a fast-path attempt ([`crate::read::attempt`]) has failed with an error in this
    /// document (or, in JSON, met whitespace where the canonical layout has none: the
    /// document is laid out otherwise, and the attempts to come would fail the same way). The
    /// canonical paths of derived structs ([`crate::read::try_canonical`]) are then
    /// skipped: such attempts nest, one that fails deep inside nested values makes every
    /// enclosing one fail too, and without this each level would read its subtree twice (once
    /// tried, once the ordinary way), twice as often per level of nesting. `false` by default
    /// (for readers without a canonical layout).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn attempts_stopped(&self) -> bool {
        false
    }

    /// Records that the fast-path attempts are to stop (see [`Reader::attempts_stopped`]);
    /// [`crate::read::attempt`] calls it when an attempt fails with an error.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn stop_attempts(&mut self) {}

    /// Consumes `text` if the input continues with exactly these bytes, for the canonical
    /// fast path of a struct (`"key":` after the opening brace, `,"key":` after a member): one
    /// comparison of a constant, with nothing scanned. Formats without a canonical layout keep
    /// this default (`false`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_exact(&mut self, text: &[u8]) -> bool {
        let _ = text;
        false
    }
    /// The next key of a map, validated, or `None` at the end.
    fn next_key(&mut self, map: &mut Self::Map) -> Result<Option<Key<'de, '_>>>;
    /// Skips the value of the current member or element, checking it is well-formed.
    fn skip_value(&mut self) -> Result<()>;

    /// Reads a unit-only enum variant: a name in text formats, an integer in binary ones.
    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize>;

    /// Reads a numeric array into `out` (reused; its length becomes the count).
    #[inline]
    fn read_typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        crate::read::read_numbers_generic(self, out)
    }
    /// Reads a numeric array of exactly `out.len()` elements.
    #[inline]
    fn read_typed_slice<N: Number>(&mut self, out: &mut [N]) -> Result<()> {
        crate::read::read_numbers_into_slice_generic(self, out)
    }
    /// Reads a numeric array that may borrow from the input (aligned BEVE arrays do).
    #[inline]
    fn read_typed_cow<N: Number>(&mut self, out: &mut Cow<'de, [N]>) -> Result<()> {
        self.read_typed_vec(out.to_mut())
    }
    /// Reads an array of booleans.
    #[inline]
    fn read_bool_vec(&mut self, out: &mut Vec<bool>) -> Result<()> {
        crate::read::read_bools_generic(self, out)
    }
    /// Reads an array of strings, calling `each(index, text)` for every element; returns the
    /// count.
    #[inline]
    fn read_str_seq<F>(&mut self, mut each: F) -> Result<usize>
    where
        F: FnMut(usize, Str<'de, '_>) -> Result<()>,
        Self: Sized,
    {
        let mut seq = self.begin_array()?;
        let mut n = 0;
        while self.next_element(&mut seq)? {
            let s = self
                .read_str()
                .map_err(|e| e.push_path(crate::error::PathSegment::Index(n)))?;
            each(n, s).map_err(|e| e.push_path(crate::error::PathSegment::Index(n)))?;
            n += 1;
        }
        Ok(n)
    }
    /// Reads a verbatim JSON fragment (JSON: the validated text; BEVE: a string holding it).
    fn read_raw_json(&mut self) -> Result<Str<'de, '_>>;

    /// Reads a complex number, `[re, im]`. The default reads a two-element array of numbers;
    /// BEVE also reads its complex extension.
    #[inline]
    fn read_complex<N: Number>(&mut self) -> Result<[N; 2]>
    where
        Self: Sized,
    {
        crate::read::read_complex_generic(self)
    }
    /// Reads an array of complex numbers into `out` (reused; its length becomes the count).
    /// The default reads an array of [`Reader::read_complex`]; BEVE also reads its complex-array
    /// extension (one copy).
    #[inline]
    fn read_complex_vec<N: Number>(&mut self, out: &mut Vec<[N; 2]>) -> Result<()>
    where
        Self: Sized,
    {
        crate::read::read_complex_vec_generic(self, out)
    }
    /// Reads a dense N-dimensional array of numbers into `extents` and `data` (both reused),
    /// and returns its layout when the format records one. The default reads `[extents, data]`
    /// (two numeric arrays; no layout: `None`); BEVE also reads its matrix extension. The
    /// caller checks that the data fits the extents.
    #[inline]
    fn read_matrix<N: Number>(
        &mut self,
        extents: &mut Vec<u64>,
        data: &mut Vec<N>,
    ) -> Result<Option<Layout>>
    where
        Self: Sized,
    {
        crate::read::read_matrix_generic(self, extents, data)
    }

    /// Consumes the next value, which must be a BEVE extension (header `0x?6`), and returns its
    /// complete bytes, header included. Formats without extensions report a type error.
    fn read_extension(&mut self) -> Result<&'de [u8]> {
        Err(self.invalid_type("a BEVE extension value"))
    }

    /// Whether the format is meant to be read by people (JSON) rather than being a compact
    /// binary encoding (BEVE): what the serde bridge answers to
    /// `serde::Deserializer::is_human_readable` (see [`Writer::is_human_readable`]). Default
    /// `true`.
    #[inline]
    fn is_human_readable(&self) -> bool {
        true
    }

    /// Builds a "wrong type" error for the value at the current position.
    #[cold]
    fn invalid_type(&mut self, expected: &'static str) -> crate::error::Error {
        let at = self.offset();
        let found = match self.peek_kind() {
            Ok(k) => k.describe(),
            Err(e) => return e,
        };
        crate::error::Error::new(crate::error::Code::InvalidType { expected, found }, at)
    }
}

/// String `i` of `out`, cleared, for reading an array of strings into reused buffers (a new
/// one when `out` holds exactly `i` strings).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn string_slot(out: &mut Vec<String>, i: usize) -> &mut String {
    if i == out.len() {
        out.push(String::new());
    }
    let dst = &mut out[i];
    dst.clear();
    dst
}
