//! Maps: `HashMap` and `BTreeMap` with string, integer or unit-enum keys.
//!
//! Reading into an existing map keeps entries the document does not mention (as Glaze does)
//! and reads into the values of keys it does, reusing their buffers.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use crate::error::{PathSegment, Result};
use crate::reflect::{Key, MapKey, Reader, Reflect, Writer};

/// Writes `len` entries as one object.
#[inline]
fn write_entries<'a, 'de, K, V, W, I>(len: usize, entries: I, w: &mut W)
where
    K: MapKey<'de> + 'a,
    V: Reflect<'de> + 'a,
    W: Writer,
    I: Iterator<Item = (&'a K, &'a V)>,
{
    w.begin_map(len, K::KIND);
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            w.sep();
        }
        k.write_key(w);
        v.write(w);
    }
    w.end_object();
}

/// The path segment naming a key, for errors inside its value.
#[cold]
fn key_segment(key: &Key<'_, '_>) -> PathSegment {
    match key {
        Key::Str(s) => PathSegment::Key(s.as_str().to_string()),
        Key::Int(w) => PathSegment::Key(match w {
            crate::number::Wire::Int(v) => v.to_string(),
            crate::number::Wire::Uint(v) => v.to_string(),
            crate::number::Wire::F32(v) => v.to_string(),
            crate::number::Wire::F64(v) => v.to_string(),
        }),
    }
}

/// Reads an object, handing each key and the reader to `entry`.
#[inline]
fn read_entries<'de, K, R, F>(r: &mut R, mut entry: F) -> Result<()>
where
    K: MapKey<'de>,
    R: Reader<'de>,
    F: FnMut(K, &mut R) -> Result<()>,
{
    let mut map = r.begin_object()?;
    loop {
        let at = r.offset();
        let (key, seg) = match r.next_key(&mut map)? {
            None => return Ok(()),
            Some(k) => {
                let seg = key_segment_lazy(&k);
                (K::from_key(k, at)?, seg)
            }
        };
        entry(key, r).map_err(|e| e.push_path(seg.into_segment()))?;
    }
}

/// A key kept cheaply for building a path segment only if an error happens.
enum LazySegment {
    Str(String),
    Int(crate::number::Wire),
}

impl LazySegment {
    #[cold]
    fn into_segment(self) -> PathSegment {
        match self {
            LazySegment::Str(s) => PathSegment::Key(s),
            LazySegment::Int(w) => key_segment(&Key::Int(w)),
        }
    }
}

/// Integer keys are copied for free; string keys are copied only for maps (the value read can
/// fail deep inside and the path must name the key).
#[inline]
fn key_segment_lazy(k: &Key<'_, '_>) -> LazySegment {
    match k {
        Key::Str(s) => LazySegment::Str(s.as_str().to_string()),
        Key::Int(w) => LazySegment::Int(*w),
    }
}

impl<'de, K, V, S> Reflect<'de> for HashMap<K, V, S>
where
    K: MapKey<'de> + Eq + Hash,
    V: Reflect<'de> + Default,
    S: BuildHasher + Default,
{
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_entries(self.len(), self.iter(), w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        read_entries(r, |k: K, r: &mut R| self.entry(k).or_default().read(r))
    }
}

impl<'de, K, V> Reflect<'de> for BTreeMap<K, V>
where
    K: MapKey<'de> + Ord,
    V: Reflect<'de> + Default,
{
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_entries(self.len(), self.iter(), w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        read_entries(r, |k: K, r: &mut R| self.entry(k).or_default().read(r))
    }
}
