//! Strings: `String`, `Box<str>`, `Rc<str>`, `Arc<str>`, `&'de str` (borrowed, so text with escapes
//! is an error) and `Cow<'de, str>` (borrowed when the text has no escapes).

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

use crate::error::{Code, Error, Result};
use crate::reflect::{
    read_keyed, read_new_entry, Key, KeyKind, KeyedMap, MapEntry, MapKey, Reader, Reflect, Str,
    Writer,
};

/// Writes a string slice type as a string array (BEVE `0x3C`).
macro_rules! str_array_methods {
    () => {
        #[inline]
        fn write_iter<'i, W: Writer, I>(items: I, w: &mut W)
        where
            I: ExactSizeIterator<Item = &'i Self>,
            Self: 'i,
        {
            w.str_array(items.map(|s| &**s))
        }
    };
}

impl<'de> Reflect<'de> for String {
    const INLINE_MEMBER: bool = false;
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.str(self)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        r.read_string_into(self)
    }
    crate::impls::new_from_default!('de);
    str_array_methods!();
    #[inline]
    fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
        r.read_string_vec(out)
    }
}

/// The borrowed text of `s`, or the error for text that had escapes.
#[inline]
fn borrowed<'de>(s: Str<'de, '_>, at: usize) -> Result<&'de str> {
    match s {
        Str::Borrowed(b) => Ok(b),
        Str::Transient(_) => Err(Error::new(Code::BorrowedEscape, at)),
    }
}

impl<'de: 'a, 'a> Reflect<'de> for &'a str {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.str(self)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        // Where the string starts is only worked out for the error (3% of reading a small
        // message when computed up front).
        let mark = r.save();
        match r.read_str()? {
            Str::Borrowed(b) => Ok(b),
            Str::Transient(_) => Err(escaped_text(r, mark)),
        }
    }
    #[inline]
    fn default_value() -> Option<Self> {
        Some("")
    }
    const HAS_DEFAULT_VALUE: bool = true;
    str_array_methods!();
}

/// The error for text a `&str` cannot borrow (it has escapes), starting at `mark`.
#[cold]
#[inline(never)]
fn escaped_text<'de, R: Reader<'de>>(r: &mut R, mark: R::Pos) -> Error {
    Error::new(Code::BorrowedEscape, crate::read::offset_at(r, mark))
}

/// Keeps borrowed text borrowed and copies transient text, reusing an owned buffer.
#[inline]
fn set_cow<'de>(dst: &mut Cow<'de, str>, s: Str<'de, '_>) {
    match s {
        Str::Borrowed(b) => *dst = Cow::Borrowed(b),
        Str::Transient(t) => match dst {
            Cow::Owned(o) => {
                o.clear();
                o.push_str(t);
            }
            Cow::Borrowed(_) => *dst = Cow::Owned(t.to_string()),
        },
    }
}

impl<'de: 'a, 'a> Reflect<'de> for Cow<'a, str> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.str(self)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let s = r.read_str()?;
        // Widen 'a to 'de through a local: `self` lives for 'a, which 'de outlives.
        let mut tmp: Cow<'de, str> = Cow::Borrowed("");
        if let Cow::Owned(o) = self {
            tmp = Cow::Owned(std::mem::take(o));
        }
        set_cow(&mut tmp, s);
        *self = tmp;
        Ok(())
    }
    /// Borrows the text when the input holds it as it is, else owns a copy: what reading into
    /// a default (borrowed, empty) value gives, without building one first.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        Ok(r.read_str()?.into_cow())
    }
    /// [`Self::read_new`], always inlined: with the rest of a canonical struct (there it saves
    /// a call and the copy of its result; in the ordinary read it would make the reader's code
    /// larger).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_new_canonical<R: Reader<'de>>(r: &mut R) -> Result<Option<Self>> {
        Ok(Some(r.read_str()?.into_cow()))
    }

    #[inline]
    fn default_value() -> Option<Self> {
        Some(Cow::Borrowed(""))
    }
    const HAS_DEFAULT_VALUE: bool = true;
    str_array_methods!();
}

/// The writing half of `MapKey` for the string types: a string key, written as it is.
/// Entries are looked up by the key's text first, so a key the map holds is not copied.
macro_rules! str_key_methods {
    () => {
        const KIND: KeyKind = KeyKind::Str;
        #[inline]
        fn write_key<W: Writer>(&self, w: &mut W) {
            w.key(self)
        }
        #[inline]
        fn read_entry<M, V, F>(map: &mut M, key: Key<'de, '_>, offset: usize, read: F) -> Result<()>
        where
            M: KeyedMap<Self, V>,
            F: FnOnce(MapEntry<'_, Self, V>) -> Result<Option<V>>,
        {
            if let Key::Str(s) = key {
                if let Some(held) = map.find_mut(s.as_str()) {
                    return read(MapEntry::Held(held)).map(drop);
                }
                // Not held: no second lookup.
                return read_new_entry(map, Self::from_key(key, offset)?, read);
            }
            read_keyed(map, Self::from_key(key, offset)?, read)
        }
    };
}

impl<'de> MapKey<'de> for String {
    str_key_methods!();
    #[inline]
    fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
        match key {
            Key::Str(s) => Ok(s.as_str().to_string()),
            Key::Int(_) => Err(Error::new(
                Code::InvalidType {
                    expected: "a string key",
                    found: "an integer key",
                },
                offset,
            )),
        }
    }
}

/// `Reflect` and `MapKey` for text owned behind a pointer, `Box<str>`, `Rc<str>` and
/// `Arc<str>`: written as a string; reading makes a new allocation holding the text (none of
/// the three can grow in place). As map keys, a key the map holds is found by its text and
/// not allocated again.
macro_rules! pointer_text {
    ($($ptr:ident),+) => {$(
        impl<'de> Reflect<'de> for $ptr<str> {
            #[inline]
            fn write<W: Writer>(&self, w: &mut W) {
                w.str(self)
            }
            #[inline]
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                *self = r.read_str()?.as_str().into();
                Ok(())
            }
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                Ok(r.read_str()?.as_str().into())
            }
            #[inline]
            fn default_value() -> Option<Self> {
                Some("".into())
            }
            const HAS_DEFAULT_VALUE: bool = true;
            str_array_methods!();
        }

        impl<'de> MapKey<'de> for $ptr<str> {
            str_key_methods!();
            #[inline]
            fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
                match key {
                    Key::Str(s) => Ok(s.as_str().into()),
                    Key::Int(_) => String::from_key(key, offset).map(|_| "".into()),
                }
            }
        }
    )+};
}

pointer_text!(Box, Rc, Arc);

impl<'de: 'a, 'a> MapKey<'de> for &'a str {
    str_key_methods!();
    #[inline]
    fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
        match key {
            Key::Str(s) => borrowed(s, offset),
            Key::Int(_) => String::from_key(key, offset).map(|_| ""),
        }
    }
}

impl<'de: 'a, 'a> MapKey<'de> for Cow<'a, str> {
    str_key_methods!();
    #[inline]
    fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
        match key {
            Key::Str(Str::Borrowed(b)) => Ok(Cow::Borrowed(b)),
            other => String::from_key(other, offset).map(Cow::Owned),
        }
    }
}
