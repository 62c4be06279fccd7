//! Consecutive JSON values in one text (`{..} {..}\n{..}`, `1 2 3`), as serde_json's
//! `StreamDeserializer` and Glaze's `json_stream_reader` read them: [`values`] over a buffer,
//! [`values_from_reader`] over an [`std::io::Read`] in bounded memory.
//!
//! Values are separated by any JSON whitespace, or by nothing when that is unambiguous, as
//! serde_json decides it: an array, object or string may be followed right away by the next
//! value (`[1][2]`, `"a""b"`, `{}[]`); a number or a literal (`true`, `false`, `null`) must be
//! followed by whitespace, the end of the input, or one of `"[]{},:` (`1"a"` is two values,
//! `1true` and `truefalse` are errors). A stray `]`, `}`, `,` or `:` where a value starts is
//! an error. Whitespace alone, or nothing, holds no values.

use std::io::Read;
use std::marker::PhantomData;

use super::read::JsonReader;
use super::skip::{is_ws, skip_ws};
use super::stream::{gather, place};
use super::Options;
use crate::error::{Code, Error, PathSegment, Result};
use crate::io::Source;
use crate::reflect::{ReadOptions, Reader, Reflect};
use crate::ReflectOwned;

/// Whether `b`, right after a number or a literal, separates it from what follows.
#[inline]
fn ends_scalar(b: u8) -> bool {
    is_ws(b) || matches!(b, b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':')
}

/// The error for a number or literal at `at` followed by a byte that does not end it.
#[cold]
fn not_separated(at: usize) -> Error {
    Error::new(
        Code::Malformed("expected whitespace or the end after a number or literal"),
        at,
    )
}

/// Reads the value that starts at `start` of `input` (the text of `reader`, `start` not
/// whitespace): the value and the offset just after its last byte. Errors are not located
/// (offsets in `input`) and carry no index.
fn read_value<'de, T: Reflect<'de>>(
    reader: &mut JsonReader<'de, '_>,
    input: &[u8],
    start: usize,
) -> Result<(T, usize)> {
    reader.seek(start);
    let v = T::read_new(reader)?;
    // The reader may have moved over whitespace after the value.
    let mut end = reader.pos();
    while end > start && is_ws(input[end - 1]) {
        end -= 1;
    }
    if !matches!(input[start], b'[' | b'{' | b'"') {
        if let Some(&b) = input.get(end) {
            if !ends_scalar(b) {
                return Err(not_separated(end));
            }
        }
    }
    Ok((v, end))
}

/// An iterator over the consecutive JSON values of `input`, each read as a `T` (which may
/// borrow from `input`, as with [`from_json`](super::from_json)). See [`Values`] for how values
/// are separated and what errors say.
///
/// ```
/// #[derive(structio::Reflect, Debug, PartialEq)]
/// struct Event<'a> { id: u32, kind: &'a str }
///
/// let input = "{\"id\":1,\"kind\":\"open\"} {\"id\":2,\"kind\":\"close\"}\n\t{\"id\":3,\"kind\":\"x\"}";
/// let mut it = structio::json::values::<Event>(input);
/// assert_eq!(it.next().unwrap().unwrap(), Event { id: 1, kind: "open" });
/// assert_eq!(it.offset(), 22); // just after the first value
/// let rest: Vec<Event> = it.map(Result::unwrap).collect();
/// assert_eq!(rest[1].kind, "x"); // borrowed from `input`
///
/// // Numbers need whitespace between them; arrays, objects and strings do not.
/// let n: Vec<u8> = structio::json::values("1 2\n3").map(Result::unwrap).collect();
/// assert_eq!(n, [1, 2, 3]);
/// let v: Vec<Vec<u8>> = structio::json::values("[1][2]").map(Result::unwrap).collect();
/// assert_eq!(v, [[1], [2]]);
///
/// // An error ends the iteration; it is placed in the whole input, the value's index first
/// // in its path.
/// let mut it = structio::json::values::<Vec<u8>>("[1]\n[2, 300]\n[3]");
/// assert!(it.next().unwrap().is_ok());
/// let e = it.next().unwrap().unwrap_err();
/// assert_eq!(e.to_string(), "number out of range for u8 at 2:5 (byte 8), path $[1][1]\n   [2, 300]\n       ^");
/// assert!(it.next().is_none());
/// ```
pub fn values<'de, T: Reflect<'de>>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Values<'de, T> {
    values_with(input, &Options::DEFAULT)
}

/// [`values`] with options (unknown keys, depth limit, ...: `opts.read`), used for every value.
///
/// ```
/// use structio::json::Options;
/// use structio::ReadOptions;
///
/// let opts = Options { read: ReadOptions { max_depth: 1, ..Default::default() }, ..Default::default() };
/// let mut it = structio::json::values_with::<structio::Value>("[1] [[2]]", &opts);
/// assert!(it.next().unwrap().is_ok());
/// let e = it.next().unwrap().unwrap_err();
/// assert_eq!(e.message(), "nesting deeper than the limit of 1");
/// ```
pub fn values_with<'de, T: Reflect<'de>>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &Options,
) -> Values<'de, T> {
    let input = input.as_ref();
    let mut jsonc = None;
    if opts.comments_on() {
        jsonc = Some(Jsonc::new(input));
    }
    Values {
        reader: JsonReader::new(input, opts.read),
        input,
        jsonc,
        pos: 0,
        index: 0,
        done: false,
        _t: PhantomData,
    }
}

/// The consecutive JSON values of a text, each read as a `T` (made by [`values`]).
///
/// Each value is read as [`from_json`](super::from_json) reads a text that holds only it, and
/// handed out as soon as it is read; the text after it is looked at only when the next is
/// asked for (a value followed by garbage is handed out, the garbage is the next item's
/// error). Whitespace may come before, between and after values; a number or a literal must
/// be followed by whitespace, the end, or one of `"[]{},:` (as serde_json's
/// `StreamDeserializer` requires). Errors give the offset, line and column in the whole input,
/// and the value's index as the first step of the path (`$[3].id`). After an error the
/// iteration ends.
pub struct Values<'de, T> {
    reader: JsonReader<'de, 'de>,
    input: &'de [u8],
    /// Reading with comments ([`ReadOptions::comments`]): the input with its comments blanked
    /// out, which the values are read from.
    jsonc: Option<Box<Jsonc>>,
    /// Just after the previous value (0 before the first).
    pos: usize,
    /// Values handed out.
    index: usize,
    done: bool,
    _t: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Values<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Values")
            .field("offset", &self.pos)
            .field("index", &self.index)
            .field("done", &self.done)
            .finish()
    }
}

impl<T> Values<'_, T> {
    /// The byte offset just after the last value read (0 before the first): where the next
    /// is looked for. An error leaves it where it was.
    ///
    /// ```
    /// let mut it = structio::json::values::<u8>(" 1  22 \n");
    /// assert_eq!(it.offset(), 0);
    /// it.next();
    /// assert_eq!(it.offset(), 2);
    /// it.next();
    /// assert_eq!(it.offset(), 6);
    /// assert!(it.next().is_none());
    /// assert_eq!(it.offset(), 6);
    /// ```
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// How many values were handed out so far.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// What [`Values`] keeps to read text with comments.
struct Jsonc {
    /// The input with its comments blanked out (the input itself when `None`: no comments).
    blanked: Option<Vec<u8>>,
    /// What [`super::comments::blank_into`] reported (a block comment without its end,
    /// invalid UTF-8 in a comment; the input is blanked up to it), after where that comment
    /// starts: the error of the value that reaches the comment.
    open: Option<(usize, Error)>,
}

impl Jsonc {
    #[cold]
    fn new(input: &[u8]) -> Box<Jsonc> {
        let mut blanked = None;
        let open = super::comments::blank_into(input, &mut blanked).err();
        Box::new(Jsonc { blanked, open })
    }
}

impl<'de, T: Reflect<'de>> Values<'de, T> {
    /// [`Iterator::next`] reading with comments: each value by a reader of the blanked text.
    #[inline(never)]
    fn next_jsonc(&mut self) -> Option<Result<T>> {
        let jsonc = self.jsonc.as_deref_mut()?;
        let scan = jsonc.blanked.as_deref().unwrap_or(self.input);
        let start = skip_ws(scan, self.pos);
        let open_at = jsonc.open.as_ref().map_or(usize::MAX, |o| o.0);
        if start >= scan.len() && open_at == usize::MAX {
            self.done = true;
            return None;
        }
        let mut reader = JsonReader::blanked(self.input, scan, *self.reader.options());
        let read = if start >= open_at {
            Err(Error::new(Code::ExpectedValue, start))
        } else {
            read_value::<T>(&mut reader, scan, start)
        };
        match read {
            Ok((v, end)) => {
                self.pos = end;
                self.index += 1;
                Some(Ok(v))
            }
            Err(e) => {
                self.done = true;
                // A value that runs into what the blanking stopped at (an unterminated block
                // comment, invalid UTF-8 in a comment) fails at or after it: that is the error.
                let e = match jsonc.open.take() {
                    Some((_, open)) if e.offset() >= open_at => open,
                    _ => e,
                };
                let e = e.push_path(PathSegment::Index(self.index));
                Some(Err(e.locate_in_text(self.input)))
            }
        }
    }
}

impl<'de, T: Reflect<'de>> Iterator for Values<'de, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        if self.jsonc.is_some() {
            return self.next_jsonc();
        }
        let start = skip_ws(self.input, self.pos);
        if start >= self.input.len() {
            self.done = true;
            return None;
        }
        match read_value::<T>(&mut self.reader, self.input, start) {
            Ok((v, end)) => {
                self.pos = end;
                self.index += 1;
                Some(Ok(v))
            }
            Err(e) => {
                self.done = true;
                let e = e.push_path(PathSegment::Index(self.index));
                Some(Err(e.locate_in_text(self.input)))
            }
        }
    }
}

/// The consecutive JSON values that `r` holds, read one at a time as `T`s, in memory bounded
/// by the longest value (see [`ValuesReader`]): the counterpart of [`values`] for input too
/// large to hold (a file of many gigabytes, a pipe, a socket).
///
/// ```
/// #[derive(structio::Reflect, Debug, PartialEq)]
/// struct Event { id: u32, kind: String }
///
/// let input = std::io::Cursor::new("{\"id\":1,\"kind\":\"open\"}{\"id\":2,\"kind\":\"close\"}\n");
/// let ids: Vec<u32> = structio::json::values_from_reader::<Event, _>(input)
///     .map(|e| e.unwrap().id)
///     .collect();
/// assert_eq!(ids, [1, 2]);
///
/// // The same items and errors as `values` on the whole input.
/// let mut it = structio::json::values_from_reader::<u8, _>(&b"1 2\n3x"[..]);
/// assert_eq!(it.next().unwrap().unwrap(), 1);
/// assert_eq!(it.next().unwrap().unwrap(), 2);
/// assert_eq!(it.offset(), 3);
/// let e = it.next().unwrap().unwrap_err();
/// assert_eq!((e.offset(), e.line_column(), e.path()), (5, Some((2, 2)), "$[2]".to_string()));
/// assert!(it.next().is_none());
/// ```
pub fn values_from_reader<T: ReflectOwned, R: Read>(r: R) -> ValuesReader<R, T> {
    values_from_reader_with(r, &Options::DEFAULT)
}

/// [`values_from_reader`] with options (`opts.read`), used for every value.
///
/// ```
/// use structio::json::Options;
/// use structio::{ReadOptions, UnknownKeys};
///
/// #[derive(structio::Reflect, Debug)]
/// struct Id { id: u32 }
///
/// let opts = Options {
///     read: ReadOptions { unknown_keys: UnknownKeys::Skip, ..Default::default() },
///     ..Default::default()
/// };
/// let input = &b"{\"id\": 1, \"x\": []} {\"id\": 2}"[..];
/// let ids: Vec<u32> = structio::json::values_from_reader_with::<Id, _>(input, &opts)
///     .map(|r| r.unwrap().id)
///     .collect();
/// assert_eq!(ids, [1, 2]);
/// ```
pub fn values_from_reader_with<T: ReflectOwned, R: Read>(
    r: R,
    opts: &Options,
) -> ValuesReader<R, T> {
    ValuesReader {
        src: Source::text(r),
        opts: opts.read,
        index: 0,
        done: false,
        end: 0,
        _t: PhantomData,
    }
}

/// The consecutive JSON values of an [`std::io::Read`], read one at a time as owned `T`s (made
/// by [`values_from_reader`]), with the same items and the same errors as [`Values`] on the
/// whole input. The reader keeps the input in a buffer of 64 KiB that grows only to hold a
/// longer value (as [`LinesReader`](super::LinesReader) does), so memory is bounded by the
/// longest value plus a chunk. A value longer than the limit (1 GiB unless set with
/// [`ValuesReader::max_record_len`]) is an error of category
/// [`Limit`](crate::Category::Limit) once that much of it has been read. A value is handed out
/// as soon as its last byte has been read (a number or literal, once the byte after it has).
pub struct ValuesReader<R, T> {
    src: Source<R>,
    opts: ReadOptions,
    /// Values handed out.
    index: usize,
    done: bool,
    /// The stream offset just after the previous value.
    end: usize,
    _t: PhantomData<fn() -> T>,
}

impl<R, T> std::fmt::Debug for ValuesReader<R, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValuesReader")
            .field("offset", &self.end)
            .field("index", &self.index)
            .field("done", &self.done)
            .finish()
    }
}

impl<R: Read, T: ReflectOwned> ValuesReader<R, T> {
    /// Sets the longest value accepted, in bytes (default 1 GiB): a longer one is an error of
    /// category [`Limit`](crate::Category::Limit) once `bytes` of it have been read, so that
    /// memory stays bounded whatever the input.
    ///
    /// ```
    /// let input = format!("[1] [{}]", "1,".repeat(1000) + "1");
    /// let mut it = structio::json::values_from_reader::<Vec<u8>, _>(input.as_bytes())
    ///     .max_record_len(1000);
    /// assert_eq!(it.next().unwrap().unwrap(), [1]);
    /// let e = it.next().unwrap().unwrap_err();
    /// assert_eq!(e.category(), structio::Category::Limit);
    /// assert_eq!(e.message(), "record larger than the limit of 1000 bytes");
    /// assert_eq!((e.offset(), e.path()), (4, "$[1]".to_string()));
    /// assert!(it.next().is_none());
    /// ```
    pub fn max_record_len(mut self, bytes: usize) -> ValuesReader<R, T> {
        self.src.max_record = bytes;
        self
    }

    /// The stream offset just after the last value read (0 before the first).
    pub fn offset(&self) -> usize {
        self.end
    }

    /// How many values were handed out so far.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Moves over whitespace to the next value and gathers it: its length at the start of the
    /// data (and the error the full check found in it), `None` when only whitespace is left.
    fn frame(&mut self) -> Result<Option<(usize, Option<Error>)>> {
        loop {
            let data = self.src.data();
            let (i, len) = (skip_ws(data, 0), data.len());
            self.src.head += i;
            if i < len {
                break;
            }
            if !self.src.fill()? {
                return Ok(None);
            }
        }
        gather(&mut self.src, &self.opts, 0)
            .map(Some)
            .map_err(|e| match e.category() {
                crate::Category::Io => e,
                _ => place(
                    &self.src,
                    e.push_path(PathSegment::Index(self.index)),
                    self.src.head,
                ),
            })
    }
}

impl<R: Read, T: ReflectOwned> Iterator for ValuesReader<R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        let (n, malformed) = match self.frame() {
            Ok(Some(framed)) => framed,
            Ok(None) => {
                self.done = true;
                return None;
            }
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let h = self.src.head;
        let at = self.src.offset();
        let cut = !self.src.at_eof();
        let window = &self.src.buf[h..h + n];
        let mut reader = JsonReader::new(window, self.opts);
        match read_value::<T>(&mut reader, window, 0) {
            Ok((v, used)) => {
                self.src.head = h + used;
                self.end = at + used;
                self.index += 1;
                Some(Ok(v))
            }
            Err(e) => {
                self.done = true;
                let e = match malformed {
                    // The reader ran into the end of the bytes at hand before the error the
                    // full check found: that error is the one the whole input gives.
                    Some(m) if e.is_eof() && cut => m,
                    _ => e,
                };
                let e = e.push_path(PathSegment::Index(self.index));
                Some(Err(place(&self.src, e, h)))
            }
        }
    }
}
