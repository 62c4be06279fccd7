//! What the types written as text of their own (addresses, dates, UUIDs in JSON) share: a
//! buffer on the stack to format into, reading a string and parsing it with the error that
//! names the type and the text, and writing many of them as one array (BEVE's string array).

use std::fmt;

use crate::error::{Code, Error, Result};
use crate::reflect::{Reader, Writer};

/// A short text formatted on the stack (no allocation): at most `N` bytes.
pub(crate) struct Buf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Buf<N> {
    /// An empty buffer.
    #[inline]
    pub(crate) fn new() -> Self {
        Buf {
            bytes: [0; N],
            len: 0,
        }
    }

    /// Appends ASCII bytes (the date and time writers' digits and signs).
    #[inline]
    pub(crate) fn push(&mut self, b: u8) {
        if self.len < N {
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }

    /// Appends `v` as exactly `width` decimal digits (zero-padded; higher digits are dropped).
    #[inline]
    pub(crate) fn digits(&mut self, mut v: u64, width: usize) {
        let start = self.len;
        for _ in 0..width {
            self.push(b'0');
        }
        let mut i = self.len;
        while i > start {
            i -= 1;
            self.bytes[i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    }

    /// The text.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        // Only whole UTF-8 sequences are ever appended (`write_str` refuses what does not fit).
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl<const N: usize> fmt::Write for Buf<N> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > N {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Writes `v`'s `Display` text as a string: formatted on the stack when it fits in 64 bytes (an
/// address always does), else in a `String`.
#[inline]
pub(crate) fn write_display<W: Writer, T: fmt::Display + ?Sized>(v: &T, w: &mut W) {
    let mut buf = Buf::<64>::new();
    if fmt::Write::write_fmt(&mut buf, format_args!("{v}")).is_ok() {
        w.str(buf.as_str())
    } else {
        w.str(&v.to_string())
    }
}

/// The error for `text`, which is not a valid `what`, read at `at`.
#[cold]
#[inline(never)]
pub(crate) fn invalid(what: &'static str, text: &str, at: usize) -> Error {
    Error::new(Code::InvalidText(what, text.to_string()), at)
}

/// Reads a string and parses it with `parse`; text it refuses is an error at the string naming
/// `what` and quoting the text.
#[inline]
pub(crate) fn read_parsed<'de, R, T, F>(r: &mut R, what: &'static str, parse: F) -> Result<T>
where
    R: Reader<'de>,
    F: FnOnce(&str) -> Option<T>,
{
    let mark = r.save();
    let s = r.read_str()?;
    match parse(s.as_str()) {
        Some(v) => Ok(v),
        None => {
            let text = s.as_str().to_string();
            Err(invalid(what, &text, crate::read::offset_at(r, mark)))
        }
    }
}

/// Writes `items` as one array of strings, each formatted by `text` into the buffer it is
/// given (returning `false` for an item written as `null`, such as a path that is not UTF-8):
/// BEVE's string array when every item is text (as Glaze writes a `std::vector<std::string>`),
/// else a generic array.
pub(crate) fn write_texts<'a, T, W, I, F>(items: I, w: &mut W, mut text: F)
where
    T: 'a,
    W: Writer,
    I: ExactSizeIterator<Item = &'a T>,
    F: FnMut(&T, &mut String) -> bool,
{
    let mut all = String::new();
    let mut ranges: Vec<Option<(usize, usize)>> = Vec::with_capacity(items.len());
    for item in items {
        let start = all.len();
        if text(item, &mut all) {
            ranges.push(Some((start, all.len())));
        } else {
            all.truncate(start);
            ranges.push(None);
        }
    }
    let piece = |r: &Option<(usize, usize)>| r.map(|(a, b)| all.get(a..b).unwrap_or(""));
    if ranges.iter().all(Option::is_some) {
        w.str_array(ranges.iter().map(|r| piece(r).unwrap_or("")));
        return;
    }
    w.begin_array(ranges.len());
    for (i, r) in ranges.iter().enumerate() {
        if i > 0 {
            w.sep();
        }
        match piece(r) {
            Some(s) => w.str(s),
            None => w.null(),
        }
    }
    w.end_array();
}

/// `Reflect::read` for a type without a buffer to reuse: the value [`Reflect::read_new`]
/// reads. `$de` is the impl's document lifetime.
///
/// [`Reflect::read_new`]: crate::reflect::Reflect::read_new
macro_rules! read_via_new {
    ($de:lifetime) => {
        #[inline]
        fn read<R: $crate::reflect::Reader<$de>>(
            &mut self,
            r: &mut R,
        ) -> $crate::error::Result<()> {
            *self = <Self as $crate::reflect::Reflect<$de>>::read_new(r)?;
            Ok(())
        }
    };
}
pub(crate) use read_via_new;
