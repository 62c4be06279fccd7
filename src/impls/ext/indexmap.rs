//! `indexmap::IndexMap` and `IndexSet` (feature `indexmap`): the same wire as `HashMap` and
//! `HashSet` (an object with string or integer keys, an array), with the order kept: written
//! in the map's order, read in the document's.
//!
//! Reading into a map that holds entries empties it first (its capacity is kept), so that it
//! ends up in the document's order, as a fresh read; under [`crate::ReadOptions::merge`] the
//! entries it holds stay where they are, those the document names are read into, and new
//! keys are appended. A key the document repeats keeps its place and its last value, or is an
//! error under [`crate::ReadOptions::error_on_duplicate_keys`].

use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};

use indexmap::{IndexMap, IndexSet};

use crate::error::{Code, Error, PathSegment, Result};
use crate::number::Wire;
use crate::reflect::{Key, MapKey, Reader, Reflect, Str, Writer};

/// The text of a key read from the document, for error messages and paths.
#[cold]
#[inline(never)]
fn key_text(key: &Key<'_, '_>) -> String {
    match key {
        Key::Str(s) => s.as_str().to_string(),
        Key::Int(Wire::Int(v)) => v.to_string(),
        Key::Int(Wire::Uint(v)) => v.to_string(),
        Key::Int(Wire::F32(v)) => v.to_string(),
        Key::Int(Wire::F64(v)) => v.to_string(),
    }
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

impl<'de, K, V, S> Reflect<'de> for IndexMap<K, V, S>
where
    K: MapKey<'de> + Eq + Hash,
    V: Reflect<'de>,
    S: BuildHasher + Default,
{
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        crate::impls::map::write_entries(self.iter(), w)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let merge = r.options().merge;
        let check = r.options().error_on_duplicate_keys;
        if !merge {
            self.clear();
        }
        // Under merge with the duplicate check: the entries the document has named.
        let mut named: HashSet<usize> = HashSet::new();
        // A JSON key with escapes is decoded into the reader's scratch space, which reading
        // the value reuses: such a key is copied here first.
        let mut unescaped = String::new();
        let mut object = r.begin_object()?;
        loop {
            let key_at = r.offset();
            let Some(key) = r.next_key(&mut object)? else {
                return Ok(());
            };
            let key = detach(key, &mut unescaped);
            let k = K::from_key(key, key_at)?;
            let named_at = |e: crate::error::Error| e.push_path(PathSegment::Key(key_text(&key)));
            let Some(index) = self.get_index_of(&k) else {
                // A new key: its value read new and appended.
                let v = V::read_new(r).map_err(named_at)?;
                let (index, _) = self.insert_full(k, v);
                if check && merge {
                    named.insert(index);
                }
                continue;
            };
            if check && (!merge || !named.insert(index)) {
                return Err(Error::new(Code::DuplicateKey(key_text(&key)), key_at));
            }
            if let Some((_, v)) = self.get_index_mut(index) {
                v.read(r).map_err(named_at)?;
            }
        }
    }
    crate::impls::new_from_default!('de);
}

impl<'de, T, S> Reflect<'de> for IndexSet<T, S>
where
    T: Reflect<'de> + Eq + Hash,
    S: BuildHasher + Default,
{
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        T::write_iter(self.iter(), w)
    }
    /// Read as an array (so numbers and strings take their bulk paths), then replacing the
    /// contents in the document's order; a repeated element keeps its first place.
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let mut v = Vec::new();
        T::read_vec(&mut v, r)?;
        self.clear();
        self.extend(v);
        Ok(())
    }
    crate::impls::new_from_default!('de);
}
