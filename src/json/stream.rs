//! JSON through `std::io`: [`to_writer`] and [`from_reader`] for one value; NDJSON one record
//! at a time ([`JsonLines::from_reader`], a [`LinesReader`]) and the elements of one top-level
//! array one at a time ([`array_iter`], an [`ArrayIter`]), both in memory bounded by the
//! longest record, however long the input.
//!
//! A stream reader keeps the input in a buffer of 64 KiB that grows only to hold a longer
//! record. It finds where a record ends with a quick scan that does not check it (strings to
//! their closing quote, containers to the bracket that closes the first, numbers and literals
//! to the next whitespace or punctuation), resumed where it stopped as more input arrives, so a
//! record costs one scan however it is cut; the record is then read exactly as the in-memory
//! reader ([`JsonLines`]) reads it, which checks it. Errors give offsets, lines and columns in
//! the whole stream. A record longer than the limit (1 GiB unless set with
//! [`LinesReader::max_record_len`]) is an error of category [`Limit`](crate::Category::Limit)
//! once that much of it has been read.

use std::io::{Read, Write};
use std::marker::PhantomData;

use super::lines::{same_line, skip_gap, JsonLines};
use super::read::JsonReader;
use super::skip::{is_ws, skip_ws, walk, NoEmit};
use super::string::valid_prefix;
use super::Options;
use crate::error::{Code, Error, PathSegment, Result};
use crate::io::{read_all, Framed, Source, CHUNK};
use crate::reflect::{ReadOptions, Reader, Reflect};
use crate::simd::json_scan::eq_bits16;
use crate::ReflectOwned;

/// Writes `v` as compact JSON to `w`, streamed through an [`IoSink`](crate::IoSink): the text
/// goes out in 64 KiB chunks as it is made (memory stays bounded whatever the size of `v`), and
/// `w` is flushed at the end. An I/O failure is an error of category
/// [`Io`](crate::Category::Io); what was written before it stays written.
///
/// ```
/// let mut out = Vec::new();
/// structio::json::to_writer(&mut out, &("a", [1, 2])).unwrap();
/// assert_eq!(out, br#"["a",[1,2]]"#);
/// ```
pub fn to_writer<'de, T: Reflect<'de>, W: Write>(w: W, v: &T) -> Result<()> {
    to_writer_with(w, v, &Options::DEFAULT)
}

/// [`to_writer`] with options (`pretty`, float style, null members).
///
/// ```
/// let pretty = structio::json::Options { pretty: true, ..Default::default() };
/// let mut out = Vec::new();
/// structio::json::to_writer_with(&mut out, &[1, 2], &pretty).unwrap();
/// assert_eq!(out, b"[\n   1,\n   2\n]");
/// ```
pub fn to_writer_with<'de, T: Reflect<'de>, W: Write>(w: W, v: &T, opts: &Options) -> Result<()> {
    let mut sink = crate::IoSink::new(w);
    super::write_to(v, &mut sink, opts);
    crate::io::finish(sink)
}

/// Reads all of `r`, then a `T` from it as [`from_json`](super::from_json) does. An I/O
/// failure is an error of category [`Io`](crate::Category::Io) (no value is returned; the
/// `io::Error` is [`Error::io_error`]).
///
/// ```
/// let v: Vec<u32> = structio::json::from_reader(&b"[1, 2]"[..]).unwrap();
/// assert_eq!(v, [1, 2]);
/// let file = std::io::Cursor::new("{\"a\": 1}");
/// let m: std::collections::BTreeMap<String, u8> = structio::json::from_reader(file).unwrap();
/// assert_eq!(m["a"], 1);
/// ```
pub fn from_reader<T: ReflectOwned, R: Read>(r: R) -> Result<T> {
    from_reader_with(r, &Options::DEFAULT)
}

/// [`from_reader`] with options.
///
/// ```
/// use structio::json::Options;
/// use structio::{ReadOptions, UnknownKeys};
///
/// #[derive(structio::Reflect, Default, Debug)]
/// struct Id { id: u32 }
///
/// let opts = Options {
///     read: ReadOptions { unknown_keys: UnknownKeys::Skip, ..Default::default() },
///     ..Default::default()
/// };
/// let v: Id = structio::json::from_reader_with(&br#"{"id": 3, "x": []}"#[..], &opts).unwrap();
/// assert_eq!(v.id, 3);
/// ```
pub fn from_reader_with<T: ReflectOwned, R: Read>(r: R, opts: &Options) -> Result<T> {
    let bytes = read_all(r)?;
    super::from_json_with(&bytes, opts)
}

/// A record as long as this is checked in full before more of it is read, and again at every
/// doubling, so that malformed input is reported early rather than read up to the limit.
const CHECK_FROM: usize = 64 * 1024;

/// `e`, found at an offset from `buf[h]` (`h` at least `head`), located in the stream: line
/// and column counted in the whole stream, and the source line shown from its start when the
/// buffer still holds it.
#[cold]
pub(super) fn place<R>(src: &Source<R>, e: Error, h: usize) -> Error {
    let (line, line_start) = src.line_of(h);
    // From the start of the line, or of the buffer if that is where the line is cut; no line
    // break comes between there and `h`.
    let c = line_start.saturating_sub(src.base).min(h);
    let e = e.shift(h - c, 1, 1).locate_in_text(src.context(c));
    let from = src.base + c;
    e.shift(from, line, from - line_start + 1)
}

/// Finds where the JSON value at the start of a buffer ends, without checking it, resuming
/// where it stopped when the buffer has grown.
#[derive(Debug, Default)]
struct Scan {
    /// Where to go on (for a container, the start of a 16-byte block).
    pos: usize,
    /// Bytes after the value that [`Framed::Ends`] counts in (the one after a scalar).
    tail: usize,
    /// Open containers at `pos`.
    depth: usize,
    /// Whether `pos` is inside a string.
    in_str: bool,
    /// Whether the byte at `pos` is escaped by a backslash before it.
    escaped: bool,
}

impl Scan {
    /// Where the value at the start of `s` ends, as far as `s` tells (`eof`: nothing follows
    /// `s`). [`Framed::Whole`] when the reader is to take all of `s` (it then reports an
    /// error): a value cut by the end of the input, or nested deeper than `max_depth`.
    fn step(&mut self, s: &[u8], max_depth: usize, eof: bool) -> Framed {
        let more = if eof { Framed::Whole } else { Framed::More };
        let Some(&first) = s.first() else {
            return more;
        };
        match first {
            b'[' | b'{' => self.container(s, max_depth).unwrap_or(more),
            b'"' => match string_end(s, self.pos.max(1)) {
                Ok(end) => Framed::Ends(end),
                Err(at) => {
                    self.pos = at;
                    more
                }
            },
            _ => {
                // A number, a literal or a stray byte: up to the next whitespace or
                // punctuation (the first byte always belongs to it), which is taken too.
                let from = self.pos.max(1);
                let stop = s[from..].iter().position(|&b| {
                    is_ws(b) || matches!(b, b',' | b':' | b'[' | b']' | b'{' | b'}' | b'"')
                });
                match stop {
                    // With the byte after it: what the reader makes of the scalar can depend
                    // on it (`-` then a line break is an invalid number, not a cut one).
                    Some(k) => {
                        self.tail = 1;
                        Framed::Ends(from + k + 1)
                    }
                    None if eof => Framed::Ends(s.len()),
                    None => {
                        self.pos = s.len();
                        Framed::More
                    }
                }
            }
        }
    }

    /// [`Scan::step`] for an array or object: sixteen bytes at a time, as masks of their
    /// quotes, backslashes and brackets (strings found by a prefix XOR of the unescaped
    /// quotes), walking only the brackets outside strings. `None`: the end is not in `s`.
    /// The last, partial block is looked at padded with spaces, and looked at again once
    /// more bytes arrived.
    fn container(&mut self, s: &[u8], max_depth: usize) -> Option<Framed> {
        loop {
            let i = self.pos;
            let mut block = [b' '; 16];
            let full = match s.get(i..i + 16) {
                Some(b) => {
                    block.copy_from_slice(b);
                    true
                }
                None if i < s.len() => {
                    block[..s.len() - i].copy_from_slice(&s[i..]);
                    false
                }
                None => return None,
            };
            let mut folded = block;
            for b in &mut folded {
                // `{` and `}` are `[` and `]` with bit 5 set.
                *b &= !0x20;
            }
            let quotes = eq_bits16(&block, &[b'"'; 16]);
            let backslashes = eq_bits16(&block, &[b'\\'; 16]);
            let opens = eq_bits16(&folded, &[b'['; 16]);
            let closes = eq_bits16(&folded, &[b']'; 16]);
            // The bytes escaped by a backslash: each run of backslashes escapes the byte
            // after it when it is odd (simdjson's `find_escaped`, on sixteen bits).
            const EVEN: u16 = 0x5555;
            let carried = u16::from(self.escaped);
            let bs = backslashes as u16 & !carried;
            let follows = bs << 1 | carried;
            let odd_starts = bs & !EVEN & !follows;
            let (even_runs, escaped_next) = odd_starts.overflowing_add(bs);
            let escaped = (EVEN ^ (even_runs << 1)) & follows;
            // Inside a string: from an opening quote (included) to its closing one.
            let mut inside = quotes as u16 & !escaped;
            inside ^= inside << 1;
            inside ^= inside << 2;
            inside ^= inside << 4;
            inside ^= inside << 8;
            if self.in_str {
                inside = !inside;
            }
            let mut depth = self.depth;
            let opens = opens as u16 & !inside;
            let closes = closes as u16 & !inside;
            let mut brackets = opens | closes;
            while brackets != 0 {
                let k = brackets.trailing_zeros();
                if opens >> k & 1 != 0 {
                    depth += 1;
                    if depth > max_depth {
                        return Some(Framed::Whole);
                    }
                } else {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(Framed::Ends(i + k as usize + 1));
                    }
                }
                brackets &= brackets - 1;
            }
            if !full {
                return None;
            }
            self.depth = depth;
            self.in_str = inside >> 15 != 0;
            self.escaped = escaped_next;
            self.pos = i + 16;
        }
    }
}

/// `0x01` in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte of a word.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `w` equal to `b`, as their high bits; the lowest one set is exact (bits above
/// a match may be set falsely, which the callers never look at).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn bytes_eq(w: u64, b: u8) -> u64 {
    let x = w ^ (ONES * u64::from(b));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The eight bytes at `i` as a little-endian word, if there are eight.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn word(s: &[u8], i: usize) -> Option<u64> {
    s.get(i..i + 8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
}

/// The first `"` or `\\` at or after `i` (`s.len()` if none), eight bytes at a time.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn next_quote_or_escape(s: &[u8], mut i: usize) -> usize {
    while let Some(w) = word(s, i) {
        let m = bytes_eq(w, b'"') | bytes_eq(w, b'\\');
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = s.get(i) {
        if b == b'"' || b == b'\\' {
            break;
        }
        i += 1;
    }
    i
}

/// The offset after the closing quote of the string whose text starts at `i`, or (`Err`) where
/// to go on once more bytes arrived. (Control bytes and bad UTF-8 are the reader's to report.)
#[inline]
fn string_end(s: &[u8], mut i: usize) -> std::result::Result<usize, usize> {
    loop {
        i = next_quote_or_escape(s, i);
        match s.get(i) {
            None => return Err(i),
            Some(b'"') => return Ok(i + 1),
            _ => {
                if i + 1 >= s.len() {
                    return Err(i);
                }
                i += 2;
            }
        }
    }
}

/// The error of the value at the start of `s`, inside `depth` containers, if it is malformed
/// whatever follows `s`: the full check, whose errors on a value cut short are all
/// end-of-input ones, except invalid UTF-8 in the last three bytes (a character cut in two).
fn malformed(s: &[u8], depth: usize, max_depth: usize) -> Option<Error> {
    match walk(s, valid_prefix(s), 0, depth, max_depth, &mut NoEmit) {
        Ok(_) => None,
        Err(e) if e.is_eof() => None,
        Err(e) if matches!(e.code(), Code::InvalidUtf8) && e.offset() + 4 > s.len() => None,
        Err(e) => Some(e),
    }
}

/// Gathers the value at the start of `src`'s data (inside `depth` containers) until it is
/// whole: its length, or the length of the data when the reader is to report an error (with
/// that error, when the full check found it). A value longer than the limit is an error at
/// offset 0 (of the data).
pub(super) fn gather<R: Read>(
    src: &mut Source<R>,
    opts: &ReadOptions,
    depth: usize,
) -> Result<(usize, Option<Error>)> {
    let max_depth = opts.max_depth;
    let mut scan = Scan::default();
    let mut check = CHECK_FROM;
    loop {
        let data = src.data();
        match scan.step(data, max_depth.saturating_sub(depth), src.at_eof()) {
            Framed::Ends(n) => {
                src.check_record(0, n - scan.tail)?;
                return Ok((n, None));
            }
            Framed::Whole => return Ok((data.len(), None)),
            Framed::More => {}
        }
        if data.len() >= check {
            if let Some(e) = malformed(data, depth, max_depth) {
                let want = data.len() + CHUNK;
                src.read_ahead(want)?;
                return Ok((src.data().len(), Some(e)));
            }
            check = check.saturating_mul(2);
        }
        src.check_record(0, data.len())?;
        src.fill()?;
    }
}

/// NDJSON read from an [`std::io::Read`] one record at a time, in memory bounded by the longest
/// record (see [`JsonLines::from_reader`]). Records are read as [`JsonLines`] reads them; errors
/// give offsets, lines and columns in the whole stream and the record's index as the first
/// step of the path. After an error the iteration ends.
pub struct LinesReader<R> {
    src: Source<R>,
    opts: ReadOptions,
    /// Records handed out.
    index: usize,
    done: bool,
    /// Whether a line break was passed since the last record (true before the first).
    line_break: bool,
    /// Where the previous record ended.
    end: usize,
}

impl<R> std::fmt::Debug for LinesReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinesReader")
            .field("offset", &self.end)
            .field("index", &self.index)
            .field("done", &self.done)
            .finish()
    }
}

impl JsonLines<'_> {
    /// NDJSON from `r`, one record at a time, in memory bounded by the longest record: the
    /// counterpart of [`JsonLines::new`] for input too large to hold (a file of many
    /// gigabytes, a pipe, a socket). `r` needs no buffering of its own: the reader reads 64 KiB
    /// at a time. A record is handed out as soon as its last byte has been read (a number
    /// at the top level, once the byte after it has).
    ///
    /// ```
    /// use structio::json::JsonLines;
    ///
    /// #[derive(structio::Reflect, Default, Debug, PartialEq)]
    /// struct Event { id: u32, kind: String }
    ///
    /// let input = std::io::Cursor::new("{\"id\":1,\"kind\":\"open\"}\n{\"id\":2,\"kind\":\"close\"}\n");
    /// let mut lines = JsonLines::from_reader(input);
    /// let mut ids = Vec::new();
    /// while let Some(e) = lines.read::<Event>() {
    ///     ids.push(e.unwrap().id);
    /// }
    /// assert_eq!(ids, [1, 2]);
    ///
    /// // Errors are placed in the whole stream.
    /// let mut lines = JsonLines::from_reader(&b"[1]\n[2]\n[3, x]"[..]);
    /// let mut v: Vec<u8> = Vec::new();
    /// while let Some(r) = lines.read_into(&mut v) {
    ///     if let Err(e) = r {
    ///         assert_eq!(e.to_string(), "expected a value at 3:5 (byte 12), path $[2][1]\n   [3, x]\n       ^");
    ///     }
    /// }
    /// ```
    pub fn from_reader<R: Read>(r: R) -> LinesReader<R> {
        JsonLines::from_reader_with(r, ReadOptions::default())
    }

    /// [`JsonLines::from_reader`] with `opts` (unknown keys, depth limit, ...), used for every
    /// record.
    ///
    /// ```
    /// use structio::json::JsonLines;
    /// use structio::ReadOptions;
    ///
    /// let opts = ReadOptions { max_depth: 1, ..Default::default() };
    /// let mut lines = JsonLines::from_reader_with(&b"[1]\n[[2]]"[..], opts);
    /// assert_eq!(lines.read::<Vec<u8>>().unwrap().unwrap(), [1]);
    /// let e = lines.read::<Vec<Vec<u8>>>().unwrap().unwrap_err();
    /// assert_eq!(e.message(), "nesting deeper than the limit of 1");
    /// ```
    pub fn from_reader_with<R: Read>(r: R, opts: ReadOptions) -> LinesReader<R> {
        LinesReader {
            src: Source::text(r),
            opts,
            index: 0,
            done: false,
            line_break: true,
            end: 0,
        }
    }
}

impl<R: Read> LinesReader<R> {
    /// Sets the longest record accepted, in bytes (default 1 GiB): a longer one is an error
    /// of category [`Limit`](crate::Category::Limit) once `bytes` of it have been read, so that
    /// memory stays bounded whatever the input.
    ///
    /// ```
    /// let input = format!("[1]\n[{}]", "1,".repeat(1000) + "1");
    /// let mut lines = structio::json::JsonLines::from_reader(input.as_bytes()).max_record_len(1000);
    /// assert_eq!(lines.read::<Vec<u8>>().unwrap().unwrap(), [1]);
    /// let e = lines.read::<Vec<u8>>().unwrap().unwrap_err();
    /// assert_eq!(e.category(), structio::Category::Limit);
    /// assert_eq!(e.message(), "record larger than the limit of 1000 bytes");
    /// assert_eq!((e.offset(), e.path()), (4, "$[1]".to_string()));
    /// ```
    pub fn max_record_len(mut self, bytes: usize) -> LinesReader<R> {
        self.src.max_record = bytes;
        self
    }

    /// The stream offset where the previous record ended (0 before the first).
    ///
    /// ```
    /// let mut lines = structio::json::JsonLines::from_reader(&b" 1 \n 22 \n"[..]);
    /// assert_eq!(lines.offset(), 0);
    /// lines.read::<u8>().unwrap().unwrap();
    /// assert_eq!((lines.offset(), lines.index()), (2, 1));
    /// lines.read::<u8>().unwrap().unwrap();
    /// assert_eq!((lines.offset(), lines.index()), (7, 2));
    /// ```
    pub fn offset(&self) -> usize {
        self.end
    }

    /// How many records were handed out so far.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Reads the next record as a new `T`; `None` at the end. `T` may borrow from the record
    /// (`&str`, `Cow<str>`) until the next call.
    ///
    /// ```
    /// let mut lines = structio::json::JsonLines::from_reader(&b"\"ab\"\n\"cd\""[..]);
    /// let mut all = String::new();
    /// while let Some(s) = lines.read::<&str>() {
    ///     all.push_str(s.unwrap()); // borrowed from the reader's buffer
    /// }
    /// assert_eq!(all, "abcd");
    /// ```
    pub fn read<'a, T: Reflect<'a>>(&'a mut self) -> Option<Result<T>> {
        let mut v = crate::read::Fresh::new();
        self.read_into(&mut v).map(|r| r.and_then(|()| v.take()))
    }

    /// Reads the next record into `v` (members it leaves out keep their values, buffers are
    /// reused); `None` at the end, `v` untouched.
    ///
    /// ```
    /// let mut lines = structio::json::JsonLines::from_reader(&b"[1, 2, 3]\n[4]"[..]);
    /// let mut v: Vec<u32> = Vec::new();
    /// let mut sum = 0;
    /// while let Some(r) = lines.read_into(&mut v) {
    ///     r.unwrap();
    ///     sum += v.iter().sum::<u32>();
    /// }
    /// assert_eq!(sum, 10);
    /// ```
    pub fn read_into<'a, T: Reflect<'a>>(&'a mut self, v: &mut T) -> Option<Result<()>> {
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
        let buf: &'a [u8] = &self.src.buf;
        let mut lines = JsonLines::resume(&buf[h..h + n], self.opts, self.index);
        match lines.read_into(v) {
            Some(Ok(())) => {
                let used = lines.offset();
                self.src.head = h + used;
                self.end = at + used;
                self.index += 1;
                self.line_break = false;
                Some(Ok(()))
            }
            Some(Err(e)) => {
                self.done = true;
                let e = match malformed {
                    // The reader ran into the end of the bytes at hand before the error the
                    // full check found: that error is the one the whole input gives.
                    Some(m) if e.is_eof() && cut => m.push_path(PathSegment::Index(self.index)),
                    _ => e,
                };
                Some(Err(place(&self.src, e, h)))
            }
            // Not reached: the window starts at a record.
            None => {
                self.done = true;
                None
            }
        }
    }

    /// Moves to the next record and gathers it: its length at the start of the data (and the
    /// error the full check found in it), `None` when only whitespace is left.
    fn frame(&mut self) -> Result<Option<(usize, Option<Error>)>> {
        loop {
            let data = self.src.data();
            let (i, line_break) = skip_gap(data, 0, self.line_break);
            let rest = data.len() - i;
            self.line_break = line_break;
            self.src.head += i;
            if rest > 0 {
                break;
            }
            if !self.src.fill()? {
                return Ok(None);
            }
        }
        if !self.line_break {
            return Err(self.locate(same_line(0)));
        }
        gather(&mut self.src, &self.opts, 0)
            .map(Some)
            .map_err(|e| match e.category() {
                crate::Category::Io => e,
                _ => self.locate(e.push_path(PathSegment::Index(self.index))),
            })
    }

    /// `e`, at an offset in the data, located in the stream.
    #[cold]
    fn locate(&self, e: Error) -> Error {
        place(&self.src, e, self.src.head)
    }
}

/// The elements of the one JSON array that `r` holds, read one at a time as `T`s, in memory
/// bounded by the longest element (see [`ArrayIter`]).
///
/// ```
/// let input = std::io::Cursor::new(" [ {\"a\": 1}, {\"a\": 2} ] ");
/// let all: Result<Vec<std::collections::BTreeMap<String, u8>>, _> =
///     structio::json::array_iter(input).collect();
/// assert_eq!(all.unwrap()[1]["a"], 2);
///
/// let mut it = structio::json::array_iter::<u8, _>(&b"[1, 2, 300]"[..]);
/// assert_eq!(it.next().unwrap().unwrap(), 1);
/// assert_eq!(it.next().unwrap().unwrap(), 2);
/// let e = it.next().unwrap().unwrap_err();
/// assert_eq!(e.to_string(), "number out of range for u8 at 1:8 (byte 7), path $[2]\n   [1, 2, 300]\n          ^");
/// assert!(it.next().is_none());
/// ```
pub fn array_iter<T: ReflectOwned, R: Read>(r: R) -> ArrayIter<R, T> {
    array_iter_with(r, ReadOptions::default())
}

/// [`array_iter`] with `opts` (unknown keys, depth limit counting the array, ...).
///
/// ```
/// let opts = structio::ReadOptions { max_depth: 2, ..Default::default() };
/// let mut it = structio::json::array_iter_with::<Vec<Vec<u8>>, _>(&b"[[], [[1]]]"[..], opts);
/// assert!(it.next().unwrap().is_ok());
/// let e = it.next().unwrap().unwrap_err();
/// assert_eq!((e.message(), e.path()), ("nesting deeper than the limit of 2".into(), "$[1][0]".into()));
/// ```
pub fn array_iter_with<T: ReflectOwned, R: Read>(r: R, opts: ReadOptions) -> ArrayIter<R, T> {
    ArrayIter {
        src: Source::text(r),
        opts,
        index: 0,
        state: State::Start,
        _t: PhantomData,
    }
}

/// Where an [`ArrayIter`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the `[`.
    Start,
    /// After the `[`.
    First,
    /// After an element.
    Next,
    /// After the `]` or an error.
    Done,
}

/// The elements of one top-level JSON array read from an [`std::io::Read`] one at a time, as
/// `T`s, in memory bounded by the longest element (made by [`array_iter`]). Whitespace may
/// surround every element, and only whitespace may follow the array. Each element is read as
/// [`from_json::<Vec<T>>`](super::from_json) reads it, with the same errors (offsets, lines and
/// columns in the whole input, the element's index first in the path); after an error the
/// iteration ends. Elements longer than the limit (1 GiB unless set with
/// [`ArrayIter::max_record_len`]) are an error.
pub struct ArrayIter<R, T> {
    src: Source<R>,
    opts: ReadOptions,
    index: usize,
    state: State,
    _t: PhantomData<fn() -> T>,
}

impl<R, T> std::fmt::Debug for ArrayIter<R, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayIter")
            .field("index", &self.index)
            .field("state", &self.state)
            .finish()
    }
}

impl<R: Read, T: ReflectOwned> ArrayIter<R, T> {
    /// Sets the longest element accepted, in bytes (default 1 GiB; see
    /// [`LinesReader::max_record_len`]).
    ///
    /// ```
    /// let mut it = structio::json::array_iter::<String, _>(&b"[\"short\", \"longer one\"]"[..])
    ///     .max_record_len(9);
    /// assert_eq!(it.next().unwrap().unwrap(), "short");
    /// assert_eq!(it.next().unwrap().unwrap_err().category(), structio::Category::Limit);
    /// ```
    pub fn max_record_len(mut self, bytes: usize) -> ArrayIter<R, T> {
        self.src.max_record = bytes;
        self
    }

    /// How many elements were handed out so far.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Reads the next element into `v` (members it leaves out keep their values, buffers are
    /// reused); `None` after the last, `v` untouched.
    ///
    /// ```
    /// let mut it = structio::json::array_iter::<String, _>(&b"[\"a\", \"b\"]"[..]);
    /// let mut s = String::new();
    /// while let Some(r) = it.read_into(&mut s) {
    ///     r.unwrap();
    /// }
    /// assert_eq!((s.as_str(), it.index()), ("b", 2));
    /// ```
    pub fn read_into(&mut self, v: &mut T) -> Option<Result<()>> {
        self.read_into_any(v)
    }

    /// [`ArrayIter::read_into`] for any owned type (the iterator reads a new `T` through
    /// [`crate::read::Fresh`]).
    fn read_into_any<U: ReflectOwned>(&mut self, v: &mut U) -> Option<Result<()>> {
        if self.state == State::Done {
            return None;
        }
        let res = match self.frame() {
            Ok(Some((n, malformed))) => self.read_element(n, malformed, v).map(|()| true),
            Ok(None) => Ok(false),
            Err(e) => Err(e),
        };
        match res {
            Ok(true) => Some(Ok(())),
            Ok(false) => {
                self.state = State::Done;
                None
            }
            Err(e) => {
                self.state = State::Done;
                Some(Err(e))
            }
        }
    }

    /// Reads the element that is the first `n` bytes of the data into `v` (`malformed`: the
    /// error the full check found in them).
    fn read_element<U: ReflectOwned>(
        &mut self,
        n: usize,
        malformed: Option<Error>,
        v: &mut U,
    ) -> Result<()> {
        let h = self.src.head;
        let cut = !self.src.at_eof();
        let window = &self.src.buf[h..h + n];
        let mut r = JsonReader::new(window, self.opts).nested(1);
        match v.read(&mut r) {
            Ok(()) => {
                let used = r.pos();
                self.src.head = h + used;
                self.index += 1;
                self.state = State::Next;
                Ok(())
            }
            Err(e) => {
                let e = match malformed {
                    // As for [`LinesReader::read_into`].
                    Some(m) if e.is_eof() && cut => m,
                    _ => e,
                };
                let e = e.push_path(PathSegment::Index(self.index));
                Err(place(&self.src, e, h))
            }
        }
    }

    /// Moves over the punctuation to the next element and gathers it: its length at the start
    /// of the data (and the error the full check found in it); `None` after the closing `]`
    /// (and the whitespace to the end).
    fn frame(&mut self) -> Result<Option<(usize, Option<Error>)>> {
        if self.state == State::Start {
            match self.peek()? {
                Some(b'[') => {
                    self.src.head += 1;
                    self.state = State::First;
                }
                Some(_) => {
                    let mut r = JsonReader::new(self.src.data(), self.opts);
                    let e = r.invalid_type("an array");
                    return Err(self.locate(e));
                }
                None => return Err(self.locate(Error::new(Code::UnexpectedEnd, 0))),
            }
        }
        match (self.state, self.peek()?) {
            (_, None) => return Err(self.locate(Error::new(Code::UnexpectedEnd, 0))),
            (_, Some(b']')) => {
                self.src.head += 1;
                self.finish()?;
                return Ok(None);
            }
            (State::Next, Some(b',')) => {
                self.src.head += 1;
                if self.peek()?.is_none() {
                    let e = Error::new(Code::UnexpectedEnd, 0);
                    return Err(self.locate(e.push_path(PathSegment::Index(self.index))));
                }
            }
            (State::Next, Some(_)) => {
                return Err(self.locate(Error::new(Code::ExpectedCommaOrEnd("]"), 0)));
            }
            _ => {}
        }
        gather(&mut self.src, &self.opts, 1)
            .map(Some)
            .map_err(|e| match e.category() {
                crate::Category::Io => e,
                _ => self.locate(e.push_path(PathSegment::Index(self.index))),
            })
    }

    /// Checks that only whitespace follows the array.
    fn finish(&mut self) -> Result<()> {
        match self.peek()? {
            None => Ok(()),
            Some(_) => Err(self.locate(Error::new(Code::TrailingCharacters, 0))),
        }
    }

    /// Moves over whitespace (reading more as needed) to the next byte; `None` at the end of
    /// the input.
    fn peek(&mut self) -> Result<Option<u8>> {
        loop {
            let data = self.src.data();
            let i = skip_ws(data, 0);
            let next = data.get(i).copied();
            self.src.head += i;
            if next.is_some() {
                return Ok(next);
            }
            if !self.src.fill()? {
                return Ok(None);
            }
        }
    }

    /// `e`, at an offset in the data, located in the stream.
    #[cold]
    fn locate(&self, e: Error) -> Error {
        place(&self.src, e, self.src.head)
    }
}

impl<R: Read, T: ReflectOwned> Iterator for ArrayIter<R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        let mut v = crate::read::Fresh::<T>::new();
        self.read_into_any(&mut v)
            .map(|r| r.and_then(|()| v.take()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The golden JSON documents and a few of every token kind.
    fn docs() -> Vec<Vec<u8>> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/formats");
        let mut docs: Vec<Vec<u8>> = std::fs::read_dir(format!("{root}/json/bench"))
            .unwrap()
            .chain(std::fs::read_dir(format!("{root}/beve/exchange")).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| std::fs::read(p).unwrap())
            // (One exchange file holds a raw control byte in a string, as Glaze writes it.)
            .filter(|d| crate::json::validate(d).is_ok())
            .collect();
        docs.push(
            "[\"a\\u00e9\\ud83d\\ude00\\\"\\\\\\n\", \"\u{e9}\u{1F600}\", -1.5e-10, 0, 1E+2, true, false, null, {}, [], {\"k\": [[]]}]"
                .as_bytes()
                .to_vec(),
        );
        docs.push(b"\"just a string \\\" with a quote\"".to_vec());
        docs
    }

    /// Every cut of a well-formed document leaves the full check undecided, so that a stream
    /// reader never reports a good record as malformed because it has not all arrived.
    #[test]
    fn no_cut_of_a_good_document_is_malformed() {
        for doc in docs() {
            assert!(malformed(&doc, 0, 256).is_none());
            let step = doc.len() / 3000 + 1;
            for cut in (0..doc.len()).step_by(step) {
                let m = malformed(&doc[..cut], 0, 256);
                assert!(m.is_none(), "cut {cut}: {m:?}");
            }
        }
    }

    /// The scan finds the end the full check finds, fed at once or a few bytes at a time.
    #[test]
    fn the_scan_ends_where_the_value_ends() {
        for doc in docs() {
            let end = walk(&doc, valid_prefix(&doc), 0, 0, 256, &mut NoEmit).unwrap();
            let scalar = !matches!(doc[0], b'[' | b'{' | b'"');
            for piece in [1, 7, 4096, doc.len()] {
                let mut scan = Scan::default();
                let mut have = 0;
                let got = loop {
                    have = (have + piece).min(doc.len());
                    match scan.step(&doc[..have], 256, have == doc.len()) {
                        Framed::Ends(n) => break n,
                        Framed::More => assert!(have < doc.len()),
                        Framed::Whole => panic!("whole at {have}"),
                    }
                };
                assert_eq!(got - scan.tail, end, "in pieces of {piece}");
                assert_eq!(scan.tail, usize::from(scalar && end < doc.len()));
            }
        }
        // Deeper than the limit: the reader is to report it.
        let deep = b"[[[[1]]]]";
        assert_eq!(Scan::default().step(deep, 3, false), Framed::Whole);
        assert_eq!(Scan::default().step(deep, 4, false), Framed::Ends(9));
        // A scalar takes the byte after it; at the end of the input there is none.
        assert_eq!(Scan::default().step(b"-12 ", 256, false), Framed::Ends(4));
        assert_eq!(Scan::default().step(b"-12", 256, false), Framed::More);
        assert_eq!(Scan::default().step(b"-12", 256, true), Framed::Ends(3));
        assert_eq!(Scan::default().step(b"] ", 256, false), Framed::Ends(2));
        // An escape cut after its backslash waits for the escaped byte.
        let mut scan = Scan::default();
        assert_eq!(scan.step(b"\"a\\", 256, false), Framed::More);
        assert_eq!(scan.step(b"\"a\\\"\"", 256, false), Framed::Ends(5));
        assert_eq!(
            Scan::default().step(b"[\"]\\\"]\"]", 256, false),
            Framed::Ends(8)
        );
        // Cut containers and strings at the end of the input: the reader reports them.
        assert_eq!(Scan::default().step(b"[1,", 256, true), Framed::Whole);
        assert_eq!(Scan::default().step(b"\"ab", 256, true), Framed::Whole);
    }

    /// Runs of backslashes and quotes at every position around the 16-byte blocks, and
    /// brackets inside strings: the scan ends where the value ends.
    #[test]
    fn escapes_and_quotes_across_blocks() {
        for pad in 0..40 {
            for run in 0..7 {
                for tail in ["", "]", "\\\"", "[{\\\"}]"] {
                    let text = format!(
                        "[{}\"{}{}{}\", {{\"k]\": [\"{}\"]}}] x",
                        " ".repeat(pad % 17),
                        "a".repeat(pad),
                        "\\\\".repeat(run),
                        tail,
                        "\\\"".repeat(run),
                    );
                    let doc = text.as_bytes();
                    let end = walk(doc, valid_prefix(doc), 0, 0, 256, &mut NoEmit)
                        .unwrap_or_else(|e| panic!("{text}: {e}"));
                    for piece in [1, 3, 16, 17, doc.len()] {
                        let mut scan = Scan::default();
                        let mut have = 0;
                        let got = loop {
                            have = (have + piece).min(doc.len());
                            if let Framed::Ends(n) = scan.step(&doc[..have], 256, false) {
                                break n;
                            }
                            assert!(have < doc.len(), "{text}");
                        };
                        assert_eq!(got, end, "{text} in pieces of {piece}");
                    }
                }
            }
        }
    }

    #[test]
    fn malformed_values_are_found_whatever_follows() {
        assert!(malformed(b"[1, x", 0, 256).is_some());
        assert!(malformed(b"[[[[", 0, 2).is_some());
        assert!(malformed(b"[1, 2", 0, 256).is_none());
        // A character cut in two is not yet invalid; a bad byte before the last three is.
        assert!(malformed(b"[\"\xF0\x9F\x98", 0, 256).is_none());
        assert!(malformed(b"[\"\xFFabcd", 0, 256).is_some());
    }
}
