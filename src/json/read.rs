//! [`JsonReader`]: the [`Reader`] over JSON text.
//!
//! The reader is a byte slice and an index. The input's UTF-8 is checked once, up front; strings
//! without escapes are then borrowed from it as `&str`, and strings with escapes are unescaped
//! into one scratch `String` the reader owns. Arrays and objects count their depth against
//! [`ReadOptions::max_depth`].

use crate::error::{Code, Error, PathSegment, Result};
use crate::number::{Number, Wire};
use crate::reflect::{EnumInfo, Key, NextField, ReadOptions, Reader, Str, ValueKind};

use super::skip::{eof, is_ws, literal, skip_ws, walk, NoEmit};
use super::string::{find_special, slice, valid_prefix};
use crate::number::parse::{int_element, read_float, read_int, read_wire};
use crate::simd::json_string::unescape::{read_fresh_string, read_string_into};

/// `true,` as a little-endian word.
const TRUE_COMMA: u64 = u64::from_le_bytes(*b"true,\0\0\0");
/// `false,` as a little-endian word.
const FALSE_COMMA: u64 = u64::from_le_bytes(*b"false,\0\0");

/// The kind of the value whose first byte is `b`; `None` if no value starts with it.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn kind_of(b: u8) -> Option<ValueKind> {
    Some(match b {
        b'n' => ValueKind::Null,
        b't' | b'f' => ValueKind::Bool,
        b'-' | b'0'..=b'9' => ValueKind::Number(None),
        b'"' => ValueKind::String,
        b'[' => ValueKind::Array,
        b'{' => ValueKind::Object,
        _ => return None,
    })
}

/// Reads JSON text.
pub(crate) struct JsonReader<'de, 's> {
    /// The bytes scanned: the input, or (reading JSON with comments) a copy of it with every
    /// comment blanked out, byte for byte, so that offsets and the text of strings stay those
    /// of the input.
    s: &'s [u8],
    /// The longest valid UTF-8 prefix of the input (all of it unless the input is bad; the
    /// first string reaching past it holds the first invalid byte). Strings are borrowed from
    /// it.
    text: &'de str,
    pos: usize,
    depth: usize,
    opts: ReadOptions,
    scratch: String,
    /// Bytes re-read by untagged enums so far (see [`Reader::charge_reread`]), and in the top
    /// bit ([`STOPPED`]) whether a fast-path attempt failed with an error (see
    /// [`Reader::attempts_stopped`]). One word for both: with a field of its own for the flag,
    /// the float array reads were 2-5% slower (the same instructions, laid out otherwise).
    reread: usize,
}

/// The bit of [`JsonReader::reread`] that records a failed fast-path attempt.
const STOPPED: usize = 1 << (usize::BITS - 1);

thread_local! {
    /// The scratch buffer of the last reader on this thread, handed to the next one so that a
    /// loop of reads settles into zero allocations.
    static SCRATCH: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

impl Drop for JsonReader<'_, '_> {
    fn drop(&mut self) {
        let scratch = std::mem::take(&mut self.scratch);
        // Keep modest buffers only: a one-off megabyte string should not stay pinned.
        if scratch.capacity() <= 1 << 16 {
            let _ = SCRATCH.try_with(|c| c.set(scratch));
        }
    }
}

/// Where a string read by [`JsonReader::string_bytes`] is.
enum Text {
    /// `s[start..end]`, no escapes.
    Input(usize, usize),
    /// In the scratch buffer.
    Scratch,
}

/// Where a fast run over array elements stopped.
enum Run {
    /// At this position, before an element the general step must read.
    Stopped(usize),
    /// The array's closing `]` is at this position.
    Closed(usize),
}

impl<'de> JsonReader<'de, 'de> {
    /// A reader at the start of `s`, borrowing this thread's scratch buffer.
    pub(crate) fn new(s: &'de [u8], opts: ReadOptions) -> Self {
        JsonReader {
            s,
            text: valid_prefix(s),
            pos: 0,
            depth: 0,
            opts,
            scratch: SCRATCH.try_with(std::cell::Cell::take).unwrap_or_default(),
            reread: 0,
        }
    }
}

impl<'de, 's> JsonReader<'de, 's> {
    /// Opens an array: `[` (else a type error), then true if `]` closes it at once
    /// (whitespace allowed between), the position left at the first element otherwise.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn array_open(&mut self) -> Result<bool> {
        if self.peek()? != b'[' {
            return Err(self.invalid_type("an array"));
        }
        self.enter()?;
        self.pos = skip_ws(self.s, self.pos);
        if self.s.get(self.pos) == Some(&b']') {
            self.end();
            return Ok(true);
        }
        Ok(false)
    }

    /// After an array element: `,` (false, another element follows) or `]` (true, the array
    /// is closed), whitespace allowed before either. The separator usually follows the value
    /// directly, so whitespace is only skipped when it does not.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn array_sep(&mut self) -> Result<bool> {
        let s = self.s;
        let mut b = s.get(self.pos).copied();
        if !matches!(b, Some(b',' | b']')) {
            self.pos = skip_ws(s, self.pos);
            b = s.get(self.pos).copied();
        }
        match b {
            Some(b',') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b']') => {
                self.end();
                Ok(true)
            }
            Some(_) => Err(Error::new(Code::ExpectedCommaOrEnd("]"), self.pos)),
            None => Err(eof(s)),
        }
    }

    /// The loop both typed array readers share: `[`, then by turns a fast run (`fast` pushes
    /// the elements it can take, each with its separator, from a position, and says where it
    /// stopped or where the closing `]` is) and one element through the general step `slow`
    /// (whitespace, anything unusual, and every error, reported as the general path always
    /// has, with the element's index in the path) followed by its separator.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn fast_array<T>(
        &mut self,
        out: &mut Vec<T>,
        mut fast: impl FnMut(&'s [u8], usize, &mut Vec<T>) -> Run,
        mut slow: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<()> {
        out.clear();
        if self.array_open()? {
            return Ok(());
        }
        let s = self.s;
        loop {
            match fast(s, self.pos, out) {
                Run::Stopped(i) => self.pos = i,
                Run::Closed(end) => {
                    self.pos = end;
                    self.end();
                    return Ok(());
                }
            }
            let v = slow(self).map_err(|e| e.push_path(PathSegment::Index(out.len())))?;
            out.push(v);
            if self.array_sep()? {
                return Ok(());
            }
        }
    }

    /// A reader of `input` that scans `s`: `input` with its comments blanked out
    /// ([`super::comments::blank`]), so that strings without escapes are still borrowed from
    /// `input` (their bytes are the same in both, at the same offsets).
    pub(crate) fn blanked(input: &'de [u8], s: &'s [u8], opts: ReadOptions) -> Self {
        debug_assert_eq!(input.len(), s.len());
        JsonReader {
            s,
            text: valid_prefix(input),
            pos: 0,
            depth: 0,
            opts,
            scratch: SCRATCH.try_with(std::cell::Cell::take).unwrap_or_default(),
            reread: 0,
        }
    }

    /// A reader at the start of `s` whose checked UTF-8 prefix is `text` (of the input `s`
    /// is, or blanks the comments of), which may be shorter than the valid prefix of the
    /// input: a string reaching past it fails as invalid UTF-8 at its end, and the caller
    /// ([`super::get`]) checks more of the input and reads again.
    pub(crate) fn with_text(s: &'s [u8], text: &'de str, opts: ReadOptions) -> Self {
        JsonReader {
            s,
            text,
            pos: 0,
            depth: 0,
            opts,
            scratch: SCRATCH.try_with(std::cell::Cell::take).unwrap_or_default(),
            reread: 0,
        }
    }

    /// The reader for a value inside `depth` containers the input does not hold (an element of
    /// an array read one element at a time): the depth limit counts them.
    pub(crate) fn nested(mut self, depth: usize) -> Self {
        self.depth = depth;
        self
    }

    /// Moves to byte `pos` of the input, where the next value of a sequence starts.
    pub(crate) fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Where reading stopped: just after the last value read, or past whitespace after it
    /// (unlike [`Reader::offset`], never past a comma).
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The longest valid UTF-8 prefix of the input.
    pub(crate) fn text(&self) -> &'de str {
        self.text
    }

    /// Checks that only whitespace follows the value read.
    pub(crate) fn finish(&mut self) -> Result<()> {
        let i = skip_ws(self.s, self.pos);
        if i < self.s.len() {
            return Err(Error::new(Code::TrailingCharacters, i));
        }
        Ok(())
    }

    /// Skips whitespace and returns the next byte.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn peek(&mut self) -> Result<u8> {
        self.pos = skip_ws(self.s, self.pos);
        match self.s.get(self.pos) {
            Some(&b) => Ok(b),
            None => Err(eof(self.s)),
        }
    }

    /// Reads the string whose opening quote is at `self.pos`: its text is either in the input
    /// (no escapes) or in the scratch buffer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn string_bytes(&mut self) -> Result<Text> {
        let start = self.pos + 1;
        let i = find_special(self.s, start);
        if self.s.get(i) == Some(&b'"') && i <= self.text.len() {
            self.pos = i + 1;
            return Ok(Text::Input(start, i));
        }
        self.pos = read_string_into(self.s, self.text, start, i, &mut self.scratch)?;
        Ok(Text::Scratch)
    }

    /// Reads the string whose opening quote is at `self.pos` into `out` (cleared first),
    /// unescaping straight into it.
    ///
    /// An `out` without a buffer (a fresh value) is filled by scanning first: a string without
    /// escapes then takes exactly one allocation of its length (none when empty) instead of a
    /// 64-byte block regrown as its text is copied in.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn string_into(&mut self, out: &mut String) -> Result<()> {
        if out.capacity() == 0 {
            return self.fresh_string_into(out);
        }
        self.reused_string_into(out)
    }

    /// [`Self::string_into`] for an `out` with a buffer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reused_string_into(&mut self, out: &mut String) -> Result<()> {
        let start = self.pos + 1;
        self.pos = read_string_into(self.s, self.text, start, start, out)?;
        Ok(())
    }

    /// [`Self::string_into`] for an `out` without a buffer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn fresh_string_into(&mut self, out: &mut String) -> Result<()> {
        self.pos = read_fresh_string(self.s, self.text, self.pos + 1, out)?;
        Ok(())
    }

    /// Reads a string as `Str`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_string(&mut self) -> Result<Str<'de, '_>> {
        match self.string_bytes()? {
            Text::Input(a, b) => Ok(Str::Borrowed(slice(self.text, a, b)?)),
            Text::Scratch => Ok(Str::Transient(&self.scratch)),
        }
    }

    /// The bytes of a string read by [`Self::string_bytes`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bytes_of(&self, t: Text) -> &[u8] {
        match t {
            Text::Input(a, b) => &self.s[a..b],
            Text::Scratch => self.scratch.as_bytes(),
        }
    }

    /// Starts the next member of an object: handles `,` or `}`, and positions at the key's
    /// opening quote. `false` at the end of the object.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn member(&mut self, first: &mut bool) -> Result<bool> {
        // The usual case: the comma right after the previous value, the key's quote after it.
        if !*first && self.s.get(self.pos..self.pos + 2) == Some(b",\"") {
            self.pos += 1;
            return Ok(true);
        }
        let mut b = self.peek()?;
        if *first {
            *first = false;
            if b == b'}' {
                return Ok(self.end());
            }
        } else {
            match b {
                b',' => {
                    self.pos += 1;
                    b = self.peek()?;
                }
                b'}' => return Ok(self.end()),
                _ => return Err(Error::new(Code::ExpectedCommaOrEnd("}"), self.pos)),
            }
        }
        if b != b'"' {
            return Err(Error::new(Code::ExpectedKey, self.pos));
        }
        Ok(true)
    }

    /// Consumes the `:` after a key.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn colon(&mut self) -> Result<()> {
        // Usually right after the key: no whitespace to skip.
        if self.s.get(self.pos) == Some(&b':') {
            self.pos += 1;
            return Ok(());
        }
        if self.peek()? != b':' {
            return Err(Error::new(Code::ExpectedColon, self.pos));
        }
        self.pos += 1;
        Ok(())
    }

    /// Consumes a closing bracket and leaves its container.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end(&mut self) -> bool {
        self.pos += 1;
        self.depth = self.depth.saturating_sub(1);
        false
    }

    /// Reads an array, calling `each(reader, index)` to read every element: the tight loop
    /// behind the bulk reads (numbers, bools, strings).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn array_loop(
        &mut self,
        mut each: impl FnMut(&mut Self, usize) -> Result<()>,
    ) -> Result<usize> {
        if self.array_open()? {
            return Ok(0);
        }
        let mut n = 0;
        loop {
            each(self, n).map_err(|e| e.push_path(PathSegment::Index(n)))?;
            n += 1;
            if self.array_sep()? {
                return Ok(n);
            }
        }
    }

    /// Enters a container whose opening bracket is at `self.pos`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.opts.max_depth {
            return Err(Error::new(Code::DepthLimit(self.opts.max_depth), self.pos));
        }
        if self.depth > crate::read::STACK_CHECK_DEPTH {
            crate::read::stack_left(crate::read::STACK_RED_ZONE, self.pos)?;
        }
        self.pos += 1;
        Ok(())
    }
}

impl<'de, 's> Reader<'de> for JsonReader<'de, 's> {
    /// `true` before the first element.
    type Seq = bool;
    /// `true` before the first member.
    type Map = bool;
    /// Index and depth.
    type Pos = (usize, usize);

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn options(&self) -> &ReadOptions {
        &self.opts
    }

    /// The position of the next token, past whitespace and a separating comma, so that errors
    /// reported at this offset point at the value or key they are about.
    #[inline]
    fn offset(&self) -> usize {
        let i = skip_ws(self.s, self.pos);
        if self.s.get(i) == Some(&b',') {
            skip_ws(self.s, i + 1)
        } else {
            i
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn save(&self) -> Self::Pos {
        (self.pos, self.depth)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn restore(&mut self, pos: Self::Pos) {
        (self.pos, self.depth) = pos;
    }

    fn charge_reread(&mut self, bytes: usize) -> Result<()> {
        let mut read = self.reread & !STOPPED;
        let charged = crate::reflect::charge_reread(&mut read, bytes, self.s.len(), self.pos);
        self.reread = read.min(!STOPPED) | (self.reread & STOPPED);
        charged
    }

    fn peek_kind(&mut self) -> Result<ValueKind> {
        match kind_of(self.peek()?) {
            Some(k) => Ok(k),
            None => Err(Error::new(Code::ExpectedValue, self.pos)),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_null(&mut self) -> Result<bool> {
        if self.peek()? == b'n' {
            self.pos = literal(self.s, self.pos, b"null")?;
            return Ok(true);
        }
        Ok(false)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_bool(&mut self) -> Result<bool> {
        match self.peek()? {
            b't' => {
                self.pos = literal(self.s, self.pos, b"true")?;
                Ok(true)
            }
            b'f' => {
                self.pos = literal(self.s, self.pos, b"false")?;
                Ok(false)
            }
            _ => Err(self.invalid_type("a boolean")),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_number<N: Number>(&mut self) -> Result<N> {
        let b = self.peek()?;
        if b != b'-' && !b.is_ascii_digit() {
            return Err(self.invalid_type("a number"));
        }
        let (v, end) = if N::KIND.is_float() {
            read_float::<N>(self.s, self.pos)?
        } else {
            read_int::<N>(self.s, self.pos)?
        };
        self.pos = end;
        Ok(v)
    }

    #[inline]
    fn read_wire_number(&mut self) -> Result<Wire> {
        let b = self.peek()?;
        if b != b'-' && !b.is_ascii_digit() {
            return Err(self.invalid_type("a number"));
        }
        let (w, end) = read_wire(self.s, self.pos)?;
        self.pos = end;
        Ok(w)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_str(&mut self) -> Result<Str<'de, '_>> {
        if self.peek()? != b'"' {
            return Err(self.invalid_type("a string"));
        }
        self.read_string()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_string_into(&mut self, out: &mut String) -> Result<()> {
        if self.peek()? != b'"' {
            return Err(self.invalid_type("a string"));
        }
        self.string_into(out)
    }

    #[inline]
    fn read_string_vec(&mut self, out: &mut Vec<String>) -> Result<()> {
        // Elements beyond the old length are fresh strings; the others keep their buffers.
        let n = self.array_loop(|r, i| {
            if r.peek()? != b'"' {
                return Err(r.invalid_type("a string"));
            }
            match out.get_mut(i) {
                Some(dst) => r.reused_string_into(dst),
                None => {
                    let mut v = String::new();
                    r.fresh_string_into(&mut v)?;
                    out.push(v);
                    Ok(())
                }
            }
        })?;
        out.truncate(n);
        Ok(())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_array(&mut self) -> Result<bool> {
        if self.peek()? != b'[' {
            return Err(self.invalid_type("an array"));
        }
        self.enter()?;
        Ok(true)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_element(&mut self, first: &mut bool) -> Result<bool> {
        let b = self.peek()?;
        if *first {
            *first = false;
            if b == b']' {
                return Ok(self.end());
            }
            return Ok(true);
        }
        match b {
            b',' => {
                self.pos += 1;
                Ok(true)
            }
            b']' => Ok(self.end()),
            _ => Err(Error::new(Code::ExpectedCommaOrEnd("]"), self.pos)),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn remaining_hint(&self, _seq: &bool) -> Option<usize> {
        None
    }

    #[inline]
    fn read_typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        // A number followed directly by `,` or `]` (the usual case) with the position in a
        // local.
        self.fast_array(
            out,
            |s, mut i, out| loop {
                let r = if N::KIND.is_float() {
                    match s.get(i) {
                        Some(b'-' | b'0'..=b'9') => read_float::<N>(s, i).ok(),
                        _ => None,
                    }
                } else {
                    int_element::<N>(s, i)
                };
                let Some((v, end)) = r else {
                    return Run::Stopped(i);
                };
                match s.get(end) {
                    Some(b',') => {
                        out.push(v);
                        i = end + 1;
                    }
                    Some(b']') => {
                        out.push(v);
                        return Run::Closed(end);
                    }
                    _ => return Run::Stopped(i),
                }
            },
            |r| r.read_number::<N>(),
        )
    }

    #[inline]
    fn read_bool_vec(&mut self, out: &mut Vec<bool>) -> Result<()> {
        // `true,` and `false,` (an element and its separator, the usual case) as one compare
        // each, with no branch on which of the two it is.
        self.fast_array(
            out,
            |s, mut i, out| {
                // Two elements a step: the second is read at both places it can start (5 and 6
                // bytes on) while the first is compared, so that each step waits for one load,
                // not two in a row.
                let word = |w: &[u8; 16], k: usize| {
                    u64::from_le_bytes(*w[k..].first_chunk::<8>().unwrap_or(&[0; 8]))
                };
                let is = |w: u64| {
                    (
                        w & 0xFF_FFFF_FFFF == TRUE_COMMA,
                        w & 0xFFFF_FFFF_FFFF == FALSE_COMMA,
                    )
                };
                while let Some(w) = s.get(i..).and_then(<[u8]>::first_chunk::<16>) {
                    let (t0, f0) = is(word(w, 0));
                    let (after_true, after_false) = (word(w, 5), word(w, 6));
                    if !(t0 | f0) {
                        break;
                    }
                    out.push(t0);
                    i += 6 - usize::from(t0);
                    let (t1, f1) = is(if t0 { after_true } else { after_false });
                    if !(t1 | f1) {
                        break;
                    }
                    out.push(t1);
                    i += 6 - usize::from(t1);
                }
                while let Some(w) = s.get(i..).and_then(<[u8]>::first_chunk::<8>) {
                    let (t, f) = is(u64::from_le_bytes(*w));
                    if !(t | f) {
                        break;
                    }
                    out.push(t);
                    i += 6 - usize::from(t);
                }
                Run::Stopped(i)
            },
            |r| r.read_bool(),
        )
    }

    #[inline]
    fn read_str_seq<F>(&mut self, mut each: F) -> Result<usize>
    where
        F: FnMut(usize, Str<'de, '_>) -> Result<()>,
    {
        self.array_loop(|r, i| {
            let s = r.read_str()?;
            each(i, s)
        })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_object(&mut self) -> Result<bool> {
        if self.peek()? != b'{' {
            return Err(self.invalid_type("an object"));
        }
        self.enter()?;
        Ok(true)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field(&mut self, first: &mut bool) -> Result<Option<&[u8]>> {
        if !self.member(first)? {
            return Ok(None);
        }
        let text = self.string_bytes()?;
        self.colon()?;
        Ok(Some(self.bytes_of(text)))
    }

    /// A plain guessed key is confirmed by comparing the input after the opening quote with
    /// the name and finding the closing quote right after it: those bytes are the name's,
    /// which has nothing a JSON string escapes, so the key is the name without scanning it.
    /// Any other key goes the [`next_field`](Reader::next_field) way.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field_guess(
        &mut self,
        first: &mut bool,
        guess: &str,
        plain: bool,
    ) -> Result<Option<NextField<'_>>> {
        if !self.member(first)? {
            return Ok(None);
        }
        let g = guess.as_bytes();
        let start = self.pos + 1;
        let end = start + g.len();
        if plain && self.s.get(end) == Some(&b'"') && crate::read::key_eq(g, &self.s[start..end]) {
            self.pos = end + 1;
            self.colon()?;
            return Ok(Some(NextField::Guessed));
        }
        let text = self.string_bytes()?;
        self.colon()?;
        Ok(Some(NextField::of(self.bytes_of(text), guess)))
    }

    const CANONICAL: bool = true;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn attempts_stopped(&self) -> bool {
        self.reread & STOPPED != 0
    }

    #[cold]
    fn stop_attempts(&mut self) {
        self.reread |= STOPPED;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_exact(&mut self, text: &[u8]) -> bool {
        if self.s.get(self.pos..self.pos + text.len()) == Some(text) {
            self.pos += text.len();
            return true;
        }
        // Whitespace where the canonical layout has none: the document is laid out otherwise
        // (pretty, spaced), and the attempts still to come would fail the same way.
        if self.s.get(self.pos).is_some_and(|&b| is_ws(b)) {
            self.stop_attempts();
        }
        false
    }

    #[inline]
    fn next_key(&mut self, first: &mut bool) -> Result<Option<Key<'de, '_>>> {
        if !self.member(first)? {
            return Ok(None);
        }
        let text = self.string_bytes()?;
        self.colon()?;
        Ok(Some(Key::Str(match text {
            Text::Input(a, b) => Str::Borrowed(slice(self.text, a, b)?),
            Text::Scratch => Str::Transient(&self.scratch),
        })))
    }

    #[inline]
    fn skip_value(&mut self) -> Result<()> {
        self.pos = walk(
            self.s,
            self.text,
            self.pos,
            self.depth,
            self.opts.max_depth,
            &mut NoEmit,
        )?;
        Ok(())
    }

    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize> {
        if self.peek()? != b'"' {
            return Err(self.invalid_type("a string"));
        }
        let at = self.pos;
        let text = self.string_bytes()?;
        let name = self.bytes_of(text);
        match info.by_name(name) {
            Some(i) => Ok(i),
            None => Err(Error::new(
                Code::UnknownVariant(String::from_utf8_lossy(name).into_owned()),
                at,
            )),
        }
    }

    fn read_raw_json(&mut self) -> Result<Str<'de, '_>> {
        let start = skip_ws(self.s, self.pos);
        let end = walk(
            self.s,
            self.text,
            start,
            self.depth,
            self.opts.max_depth,
            &mut NoEmit,
        )?;
        self.pos = end;
        Ok(Str::Borrowed(slice(self.text, start, end)?))
    }
}
