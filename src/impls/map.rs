//! Maps: `HashMap` and `BTreeMap` with string, integer or unit-enum keys.
//!
//! A map with string keys can also be a `#[structio(flatten)]` field ([`Fields`]): its entries
//! are written as members of the struct, and the keys no other member takes are read into it.
//!
//! Reading into an existing map reads into the values of keys it already holds, reusing their
//! buffers, and leaves it holding the document's entries only (under
//! [`crate::ReadOptions::merge`] the entries the document does not mention stay, as in Glaze). No key is copied for the
//! error path: the path segment of a failing entry is made from the stored key, on the cold path.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use crate::error::{Code, Error, PathSegment, Result};
use crate::fields::{Fields, NO_FIELDS};
use crate::number::{NumKind, Number, Wire};
use crate::reflect::{
    read_keyed, FieldsInfo, Key, KeyKind, KeyedMap, MapEntry, MapKey, Reader, Reflect, Str, Writer,
};

/// Writes `entries` as one object; entries holding an absent value (`None`) are left out
/// unless the writer writes null members.
#[inline]
pub(crate) fn write_entries<'a, 'de, K, V, W, I>(entries: I, w: &mut W)
where
    K: MapKey<'de> + 'a,
    V: Reflect<'de> + 'a,
    W: Writer,
    I: ExactSizeIterator<Item = (&'a K, &'a V)> + Clone,
{
    // Glaze leaves entries holding null (an empty optional) out of maps as out of structs.
    let len = entries.len();
    let written = count_entries(entries.clone(), w);
    if written < len {
        w.begin_sparse_map(written, K::KIND);
    } else {
        w.begin_map(len, K::KIND);
    }
    write_members(entries, w, false);
    w.end_object();
}

/// `key`, with a string held in the reader's scratch space copied into `keep`, so that the
/// reader can go on while the key is in use.
#[inline]
fn detach<'de, 'k>(key: Key<'de, '_>, keep: &'k mut String) -> Key<'de, 'k> {
    match key {
        Key::Str(Str::Transient(t)) => {
            keep.clear();
            keep.push_str(t);
            Key::Str(Str::Transient(keep))
        }
        Key::Str(Str::Borrowed(b)) => Key::Str(Str::Borrowed(b)),
        Key::Int(w) => Key::Int(w),
    }
}

/// The text of `key` as written (the same for every spelling the key is read from).
#[cold]
#[inline(never)]
fn key_text<'de, K: MapKey<'de>>(key: &K) -> String {
    let mut text = KeyOnly(String::new());
    key.write_key(&mut text);
    text.0
}

/// The path segment naming `key`, for an error inside its value.
#[cold]
#[inline(never)]
fn segment<'de, K: MapKey<'de>>(key: &K) -> PathSegment {
    PathSegment::Key(key_text(key))
}

/// Under [`crate::ReadOptions::error_on_duplicate_keys`]: the keys of the object being read, to
/// report one that comes again (the map alone cannot tell, since reading into an existing map
/// keeps its entries).
#[cold]
#[inline(never)]
fn check_unique<'de, K: MapKey<'de>>(
    seen: &mut std::collections::HashSet<String>,
    key: &K,
    at: usize,
) -> Result<()> {
    let text = key_text(key);
    if seen.contains(&text) {
        return Err(Error::new(Code::DuplicateKey(text), at));
    }
    seen.insert(text);
    Ok(())
}

/// Adds the key of the entry whose value lives at `at` to the error's path. Found by address
/// on the cold path, so the hot path keeps no copy of the key.
#[cold]
#[inline(never)]
fn name_entry<'a, 'de, K, V, I>(e: Error, entries: I, at: *const V) -> Error
where
    K: MapKey<'de> + 'a,
    V: 'a,
    I: Iterator<Item = (&'a K, &'a V)>,
{
    match entries.into_iter().find(|(_, v)| std::ptr::eq(*v, at)) {
        Some((k, _)) => e.push_path(segment(k)),
        None => e,
    }
}

/// The body of `Reflect` for a map: entries written in iteration order; read as
/// [`read_map`] does.
macro_rules! map_methods {
    () => {
        #[inline]
        fn write<W: Writer>(&self, w: &mut W) {
            write_entries(self.iter(), w)
        }
        #[inline]
        fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
            read_map(self, r)
        }
        crate::impls::new_from_default!('de);
    };
}

/// What [`read_map`] needs of a std map besides [`KeyedMap`].
trait StdMap<'de, K: MapKey<'de>, V>: KeyedMap<K, V> {
    fn len(&self) -> usize;
    fn clear(&mut self);
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a K, &'a V)>
    where
        K: 'a,
        V: 'a;
}

/// Reads an object into `map`: each entry into the slot of its key, reusing the value already
/// there (a repeated key reads into the same slot again, or is an error under
/// `error_on_duplicate_keys`), an error naming the key in its path.
///
/// The map ends up holding the document's entries only, as a fresh read would: when it held
/// entries before, the keys read are tallied (a sum of their hashes, under a key chosen for
/// this read) and compared with the map's afterwards; on any difference (an entry the document
/// left out, or a key it repeated) the map is emptied and the object read again. Under
/// [`crate::ReadOptions::merge`] the entries the document leaves out stay.
#[inline]
fn read_map<'de, M, K, V, R>(map: &mut M, r: &mut R) -> Result<()>
where
    M: StdMap<'de, K, V>,
    K: MapKey<'de>,
    V: Reflect<'de>,
    R: Reader<'de>,
{
    if map.len() == 0 || r.options().merge {
        return read_entries(map, r, None);
    }
    let mark = r.save();
    let start = r.offset();
    let mut tally = Tally::new();
    read_entries(map, r, Some(&mut tally))?;
    if map.len() == tally.count && tally.matches(map.entries().map(|(k, _)| k)) {
        return Ok(());
    }
    again(map, r, mark, start)
}

/// Empties `map` and reads the object at `mark` into it again (charged to the reader's
/// re-read budget, like a backtracking enum).
#[cold]
#[inline(never)]
fn again<'de, M, K, V, R>(map: &mut M, r: &mut R, mark: R::Pos, start: usize) -> Result<()>
where
    M: StdMap<'de, K, V>,
    K: MapKey<'de>,
    V: Reflect<'de>,
    R: Reader<'de>,
{
    r.charge_reread(r.offset().saturating_sub(start))?;
    map.clear();
    r.restore(mark);
    read_entries(map, r, None)
}

/// The loop of [`read_map`]; with a tally, each key read is added to it.
#[inline]
fn read_entries<'de, M, K, V, R>(
    map: &mut M,
    r: &mut R,
    mut tally: Option<&mut Tally>,
) -> Result<()>
where
    M: StdMap<'de, K, V>,
    K: MapKey<'de>,
    V: Reflect<'de>,
    R: Reader<'de>,
{
    // The keys seen so far, only under `error_on_duplicate_keys`.
    let mut seen = r
        .options()
        .error_on_duplicate_keys
        .then(std::collections::HashSet::new);
    // A JSON key with escapes is decoded into the reader's scratch space, which reading
    // the value reuses: such a key is copied here first (no other key is copied).
    let mut unescaped = String::new();
    let mut object = r.begin_object()?;
    loop {
        let key_at = r.offset();
        let Some(key) = r.next_key(&mut object)? else {
            return Ok(());
        };
        let key = detach(key, &mut unescaped);
        if let Some(t) = tally.as_deref_mut() {
            t.add_read(&key);
        }
        // Where the value read lives, to name its key should reading it fail.
        let mut at: *const V = std::ptr::null();
        let read = |entry: MapEntry<'_, K, V>| match entry {
            MapEntry::Held(held) => {
                at = held;
                held.read(r).map(|()| None)
            }
            MapEntry::New(k) => V::read_new(r)
                .map(Some)
                .map_err(|e| e.push_path(segment(k))),
        };
        let done = match &mut seen {
            None => K::read_entry(map, key, key_at, read),
            Some(seen) => K::from_key(key, key_at).and_then(|k| {
                check_unique(seen, &k, key_at)?;
                read_keyed(map, k, read)
            }),
        };
        done.map_err(|e| name_entry(e, map.entries(), at))?;
    }
}

/// The keys read into a map that held entries before: how many, and the sum of their hashes
/// (of the key's text as written, integers in decimal), keyed anew for each read so that no
/// document can be made to collide with the entries it leaves out.
struct Tally {
    state: std::collections::hash_map::RandomState,
    count: usize,
    sum: u64,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            state: std::collections::hash_map::RandomState::new(),
            count: 0,
            sum: 0,
        }
    }

    /// Adds a key read from the document.
    fn add_read(&mut self, key: &Key<'_, '_>) {
        let mut h = KeyOnly(self.state.build_hasher());
        match key {
            Key::Str(s) => h.0.text(s.as_str()),
            Key::Int(w) => h.wire(*w),
        }
        self.count += 1;
        self.sum = self.sum.wrapping_add(std::hash::Hasher::finish(&h.0));
    }

    /// Whether `keys` (the map's, after reading) hash to the same sum.
    fn matches<'a, 'de, K: MapKey<'de> + 'a>(&self, keys: impl Iterator<Item = &'a K>) -> bool {
        let mut sum = 0u64;
        for k in keys {
            let mut h = KeyOnly(self.state.build_hasher());
            k.write_key(&mut h);
            sum = sum.wrapping_add(std::hash::Hasher::finish(&h.0));
        }
        sum == self.sum
    }
}

/// `KeyedMap` for a std map type: `entry` and `get_mut`.
macro_rules! keyed_map {
    ($map:ty, $($bound:tt)*) => {
        impl<$($bound)*> KeyedMap<K, V> for $map {
            #[inline]
            fn insert_new(&mut self, key: K, value: V) {
                self.insert(key, value);
            }
            #[inline]
            fn get_mut(&mut self, key: &K) -> Option<&mut V> {
                <$map>::get_mut(self, key)
            }
            #[inline]
            fn find_mut<Q>(&mut self, q: &Q) -> Option<&mut V>
            where
                K: Borrow<Q>,
                Q: Hash + Ord + ?Sized,
            {
                self.get_mut(q)
            }
        }
    };
}

keyed_map!(HashMap<K, V, S>, K: Eq + Hash, V, S: BuildHasher);
keyed_map!(BTreeMap<K, V>, K: Ord, V);

impl<'de, K: MapKey<'de> + Eq + Hash, V, S: BuildHasher> StdMap<'de, K, V> for HashMap<K, V, S> {
    fn len(&self) -> usize {
        HashMap::len(self)
    }
    fn clear(&mut self) {
        HashMap::clear(self)
    }
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a K, &'a V)>
    where
        K: 'a,
        V: 'a,
    {
        self.iter()
    }
}

impl<'de, K: MapKey<'de> + Ord, V> StdMap<'de, K, V> for BTreeMap<K, V> {
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    fn clear(&mut self) {
        BTreeMap::clear(self)
    }
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a K, &'a V)>
    where
        K: 'a,
        V: 'a,
    {
        self.iter()
    }
}

impl<'de, K, V, S> Reflect<'de> for HashMap<K, V, S>
where
    K: MapKey<'de> + Eq + Hash,
    V: Reflect<'de>,
    S: BuildHasher + Default,
{
    const INLINE_MEMBER: bool = false;
    map_methods!();
}

impl<'de, K, V> Reflect<'de> for BTreeMap<K, V>
where
    K: MapKey<'de> + Ord,
    V: Reflect<'de>,
{
    const INLINE_MEMBER: bool = false;
    map_methods!();
}

/// Where [`KeyOnly`] puts the text of a key.
trait KeySink {
    fn text(&mut self, s: &str);
}

/// Keeps the text: to name a key in an error path.
impl KeySink for String {
    fn text(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// Hashes the text: to tally keys (see [`Tally`]).
impl KeySink for std::collections::hash_map::DefaultHasher {
    fn text(&mut self, s: &str) {
        std::hash::Hasher::write(self, s.as_bytes());
    }
}

/// A writer that passes only the text of one key (string, integer in decimal, or enum name) to
/// its sink; everything but the key methods is ignored.
struct KeyOnly<S>(S);

impl<S: KeySink> KeyOnly<S> {
    fn wire(&mut self, w: Wire) {
        match w {
            Wire::Int(v) => self.0.text(itoa::Buffer::new().format(v)),
            Wire::Uint(v) => self.0.text(itoa::Buffer::new().format(v)),
            Wire::F32(v) => self.0.text(&v.to_string()),
            Wire::F64(v) => self.0.text(&v.to_string()),
        }
    }
}

impl<S: KeySink> Writer for KeyOnly<S> {
    fn write_null_members(&self) -> bool {
        false
    }
    fn null(&mut self) {}
    fn bool(&mut self, _: bool) {}
    fn number<N: Number>(&mut self, _: N) {}
    fn str(&mut self, _: &str) {}
    fn begin_array(&mut self, _: usize) {}
    fn end_array(&mut self) {}
    fn begin_map(&mut self, _: usize, _: KeyKind) {}
    fn key(&mut self, k: &str) {
        self.0.text(k);
    }
    fn int_key<N: Number>(&mut self, k: N) {
        self.wire(k.to_wire());
    }
    fn enum_key(&mut self, name: &str, _: i128, _: NumKind) {
        self.0.text(name);
    }
    fn end_object(&mut self) {}
    fn sep(&mut self) {}
    fn typed_array<N: Number>(&mut self, _: &[N]) {}
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, _: I) {}
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, _: I) {}
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, _: I) {}
    fn unit_variant(&mut self, _: &str, _: i128, _: NumKind) {}
    fn raw_json(&mut self, _: &str) {}
    fn raw_beve(&mut self, _: &[u8]) {}
}

/// `Fields` for a std map with string keys: no members of its own; its entries are written as
/// members, and every key no other member takes is read into it (`REST`).
macro_rules! rest_map {
    ($map:ty, $($bound:tt)*) => {
        impl<'de, $($bound)*> Fields<'de> for $map {
            const INFO: &'static FieldsInfo = &NO_FIELDS;
            const REST: bool = true;
            #[inline]
            fn count_members<W: Writer>(&self, w: &W) -> usize {
                count_entries(self.iter(), w)
            }
            #[inline]
            fn write_members<W: Writer>(&self, w: &mut W, lead: bool) -> bool {
                write_members(self.iter(), w, lead)
            }
            #[inline]
            fn read_member<R: Reader<'de>>(&mut self, _: usize, _: &mut R) -> Result<()> {
                Ok(())
            }
            #[inline]
            fn read_rest<R: Reader<'de>>(&mut self, key: &str, offset: usize, r: &mut R) -> Result<()> {
                let read = |entry: MapEntry<'_, K, V>| match entry {
                    MapEntry::Held(held) => held.read(r).map(|()| None),
                    MapEntry::New(_) => V::read_new(r).map(Some),
                };
                K::read_entry(self, Key::Str(Str::Transient(key)), offset, read)
                    .map_err(|e| e.push_path(PathSegment::Key(key.to_string())))
            }
            #[inline]
            fn clear_rest(&mut self) {
                self.clear();
            }
        }
    };
}

rest_map!(HashMap<K, V, S>, K: OwnedStrKey<'de> + Eq + Hash, V: Reflect<'de>, S: BuildHasher + Default);
rest_map!(BTreeMap<K, V>, K: OwnedStrKey<'de> + Ord, V: Reflect<'de>);

/// The key types of a map that can be flattened into a struct: string keys (the struct is an
/// object with string keys) that own their text (a kept key is a copy).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key type of a `#[structio(flatten)]` map",
    label = "not an owned string",
    note = "a flattened map's members share the struct's object, whose keys are strings: use `String`, `Box<str>`, `Rc<str>`, `Arc<str>` or `Cow<str>` keys"
)]
pub trait OwnedStrKey<'de>: MapKey<'de> {}

impl<'de> OwnedStrKey<'de> for String {}
impl<'de> OwnedStrKey<'de> for Box<str> {}
impl<'de> OwnedStrKey<'de> for std::rc::Rc<str> {}
impl<'de> OwnedStrKey<'de> for std::sync::Arc<str> {}
impl<'de: 'a, 'a> OwnedStrKey<'de> for std::borrow::Cow<'a, str> {}

/// How many of `entries` a struct writes as members: those holding an absent value (`None`)
/// are left out unless the writer writes null members, as in a map.
#[inline]
fn count_entries<'a, 'de, K, V, W, I>(entries: I, w: &W) -> usize
where
    K: 'a,
    V: Reflect<'de> + 'a,
    W: Writer,
    I: ExactSizeIterator<Item = (&'a K, &'a V)>,
{
    if V::MAY_BE_ABSENT && !w.write_null_members() {
        entries.filter(|(_, v)| !v.is_absent()).count()
    } else {
        entries.len()
    }
}

/// Writes `entries` as members of a struct (see [`count_entries`]), `sep` before each when
/// `lead` (members came before) or after the first; returns whether it wrote any.
#[inline]
fn write_members<'a, 'de, K, V, W, I>(entries: I, w: &mut W, lead: bool) -> bool
where
    K: MapKey<'de> + 'a,
    V: Reflect<'de> + 'a,
    W: Writer,
    I: Iterator<Item = (&'a K, &'a V)>,
{
    let skip_absent = V::MAY_BE_ABSENT && !w.write_null_members();
    let mut wrote = false;
    for (k, v) in entries {
        if skip_absent && v.is_absent() {
            continue;
        }
        if lead || wrote {
            w.sep();
        }
        k.write_key(w);
        v.write(w);
        wrote = true;
    }
    wrote
}
