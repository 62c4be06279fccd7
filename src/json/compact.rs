//! [`CompactReader`]: the [`Reader`] of the canonical layout alone, which [`super::from_json`]
//! tries first for a type marked `#[structio(canonical)]` ([`crate::Reflect::CANONICAL`]).
//!
//! The canonical layout is JSON without whitespace between tokens and without escapes in
//! strings (the layout a program writes, and the one [`crate::to_json`] writes). This reader
//! does only what that layout needs: no whitespace to skip (a value, a separator or a key
//! must start where the previous token ended), no unescaping (so no scratch buffer), and no
//! up-front check of the whole input's UTF-8 (each string and key it reads is checked where it
//! is; everything else it accepts is ASCII punctuation, digits and literals). Short integers
//! are read inline; other numbers go to the shared number readers.
//!
//! On anything else (whitespace, an escape, a value it does not read) it fails, and the caller
//! reads the document again with the full [`super::read::JsonReader`], which gives the value
//! or the error with its path. Whatever it accepts, it reads to exactly the value the full
//! reader gives: both use the same number and string rules, and every other method either
//! does what the full reader does on compact input or fails.

use crate::error::{Code, Error, Result};
use crate::number::parse::{read_float, read_int, read_wire};
use crate::number::{Number, Wire};
use crate::reflect::{EnumInfo, Key, NextField, ReadOptions, Reader, Reflect, Str, ValueKind};

use super::skip::{is_ws, skip_ws, walk, NoEmit};
use super::string::{find_special, valid_prefix};
use crate::simd::utf8::unchecked::short_ascii_string;

/// Whether `text` may be in the canonical layout: no whitespace in its first two bytes
/// (leading whitespace, `{ "a"`, `[\n`). Finding that out costs less here than at the
/// reader's first refusal (an error made and dropped).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn may_be_compact(text: &[u8]) -> bool {
    let ws = |i: usize| text.get(i).is_some_and(|&b| is_ws(b));
    !(ws(1) || ws(0))
}

/// `text` read as a `T` when the whole text (up to trailing whitespace) is in the canonical
/// layout of `T` ([`Reflect::read_new_canonical`]: for a struct marked `canonical`, its
/// members in declaration order, and so on inside); `None` at the first difference or error,
/// for [`read`] and then the full reader.
///
/// Inlined into [`super::from_json`]'s caller, this builds the value where the caller keeps
/// it: a value returned through the `Result`s of calls that are not inlined is copied
/// through the stack, and the loads of such a copy wait for the stores just made (a
/// message-sized value costs more to move that way than to read).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn read_in_layout<'de, T: Reflect<'de>>(
    text: &'de [u8],
    opts: ReadOptions,
) -> Option<T> {
    let mut c = CompactReader::new(text, opts);
    // This form, each case in its own arm and the value dropped by hand, is the measured one:
    // a guard (`Ok(Some(v)) if c.at_end()`), `then_some` or shared arms built the value on the
    // stack and copied it out (9 to 19 more instructions of a canonical `tools/call`).
    match T::read_new_canonical(&mut c) {
        Ok(Some(v)) => {
            if c.at_end() {
                return Some(v);
            }
            drop(v);
            None
        }
        Ok(None) => None,
        Err(e) => {
            drop(e);
            None
        }
    }
}

/// `text` read as a `T` by the canonical-layout reader walking objects member by member, in
/// any order (what [`read_in_layout`] does not read); an error when the full reader must read
/// it instead (not the error to report: the full reader finds that one).
pub(crate) fn read<'de, T: Reflect<'de>>(text: &'de [u8], opts: ReadOptions) -> Result<T> {
    let mut c = CompactReader::new(text, opts);
    // The canonical layouts were tried first: the nested attempts would fail the same way.
    c.stop_attempts();
    let mut v = T::read_new(&mut c);
    if v.is_ok() && !c.at_end() {
        // More than whitespace after the value: for the full reader to report.
        v = Err(stop(c.pos()));
    }
    v
}

/// Reads JSON text in the canonical layout (see the module's documentation).
pub(crate) struct CompactReader<'de> {
    /// The whole input.
    s: &'de [u8],
    /// The input not read yet (a slice, not an index: each step is a comparison and a
    /// pointer bump, with no range check of an index against the length).
    rest: &'de [u8],
    depth: usize,
    opts: ReadOptions,
    /// The input's valid UTF-8 prefix, found the first time a value is skipped or taken raw
    /// (the only reads that walk text without slicing each string themselves).
    text: Option<&'de str>,
    /// Bytes re-read by untagged enums so far (see [`Reader::charge_reread`]).
    reread: usize,
    /// Whether a fast-path attempt failed with an error (see [`Reader::attempts_stopped`]).
    stopped: bool,
}

/// Why the compact read stopped: never shown, since the caller reads the document again with
/// the full reader, which reports the real problem.
#[cold]
#[inline(never)]
fn stop(at: usize) -> Error {
    Error::new(Code::ExpectedValue, at)
}

/// Text as `&str` when it is valid UTF-8 (all-ASCII short text without the general
/// validator's set-up).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn utf8(b: &[u8]) -> Option<&str> {
    match crate::simd::utf8::unchecked::ascii_str(b) {
        Some(t) => Some(t),
        None => simdutf8::basic::from_utf8(b).ok(),
    }
}

/// An integer of at most eight digits at the start of `s` (an optional `-`, no leading zero
/// unless the integer is `0`, and neither a fraction nor an exponent after it) as `N`, with
/// its length; `None` for anything else, which the general reader then reads (or rejects).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn short_int<N: Number>(s: &[u8]) -> Option<(N, usize)> {
    let (m, neg, j) = short_digits(s)?;
    if neg && !N::KIND.is_signed_int() {
        return None;
    }
    // At most eight digits: the magnitude fits an `i64` with its sign.
    let v = if neg { -(m as i64) } else { m as i64 };
    N::from_i64(v).map(|v| (v, j))
}

/// The short integer of magnitude `m` as the general reader gives it: `Int` when negative.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn wire(m: u64, neg: bool) -> Wire {
    if neg {
        Wire::Int(-(m as i128))
    } else {
        Wire::Uint(m as u128)
    }
}

/// The magnitude, sign and length of the short integer [`short_int`] reads.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn short_digits(s: &[u8]) -> Option<(u64, bool, usize)> {
    let neg = s.first() == Some(&b'-');
    let first = usize::from(neg);
    let d = s.get(first)?.wrapping_sub(b'0');
    if d > 9 {
        return None;
    }
    let mut m = u64::from(d);
    let mut j = first + 1;
    let mut next = s.get(j).copied();
    if d != 0 {
        while let Some(c) = next {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            m = m * 10 + u64::from(d);
            j += 1;
            if j - first > 8 {
                return None;
            }
            next = s.get(j).copied();
        }
    } else if next.is_some_and(|c| c.is_ascii_digit()) {
        // A leading zero: the general reader rejects it.
        return None;
    }
    // A fraction or an exponent: the general reader's.
    if next.is_some_and(|c| c == b'.' || c | 0x20 == b'e') {
        return None;
    }
    Some((m, neg, j))
}

impl<'de> CompactReader<'de> {
    /// A reader at the start of `s`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn new(s: &'de [u8], opts: ReadOptions) -> Self {
        CompactReader {
            s,
            rest: s,
            depth: 0,
            opts,
            text: None,
            reread: 0,
            stopped: false,
        }
    }

    /// Whether only whitespace follows the value read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn at_end(&self) -> bool {
        skip_ws(self.rest, 0) == self.rest.len()
    }

    /// The offset of the next byte to read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pos(&self) -> usize {
        self.s.len() - self.rest.len()
    }

    /// Moves `n` bytes on (`n` at most what is left).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bump(&mut self, n: usize) {
        self.rest = self.rest.get(n..).unwrap_or_default();
    }

    /// The byte at the position.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn byte(&self) -> Result<u8> {
        match self.rest.first() {
            Some(&b) => Ok(b),
            None => Err(stop(self.pos())),
        }
    }

    /// Enters a container whose opening bracket is at the position.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.opts.max_depth {
            return Err(stop(self.pos()));
        }
        if self.depth > crate::read::STACK_CHECK_DEPTH {
            crate::read::stack_left(crate::read::STACK_RED_ZONE, self.pos())?;
        }
        self.bump(1);
        Ok(())
    }

    /// Consumes a closing bracket and leaves its container.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end(&mut self) -> bool {
        self.bump(1);
        self.depth = self.depth.saturating_sub(1);
        false
    }

    /// The text of the string whose opening quote is at the position (which the caller has
    /// checked), if it has no escape and is valid UTF-8; the position moves past it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn plain_string(&mut self) -> Result<&'de str> {
        let rest = self.rest;
        // Most keys and short values: one block shows the closing quote and that the text is
        // ASCII.
        if let Some((t, n)) = rest.get(1..).and_then(short_ascii_string) {
            self.rest = rest.get(n + 2..).unwrap_or_default();
            return Ok(t);
        }
        let i = find_special(rest, 1);
        if rest.get(i) != Some(&b'"') {
            return Err(stop(self.pos()));
        }
        match utf8(&rest[1..i]) {
            Some(t) => {
                self.rest = &rest[i + 1..];
                Ok(t)
            }
            None => Err(stop(self.pos())),
        }
    }

    /// Starts the next member of an object: `,"` or `"` (first) moves to the key's quote,
    /// `}` closes the object (`false`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn member(&mut self, first: &mut bool) -> Result<bool> {
        let b = self.byte()?;
        if b == b'}' {
            return Ok(self.end());
        }
        if *first {
            *first = false;
        } else if b == b',' {
            self.bump(1);
        } else {
            return Err(stop(self.pos()));
        }
        if self.byte()? != b'"' {
            return Err(stop(self.pos()));
        }
        Ok(true)
    }

    /// Reads a key at the position (its opening quote) and the `:` right after it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn key(&mut self) -> Result<&'de str> {
        let k = self.plain_string()?;
        if !self.take_exact(b":") {
            return Err(stop(self.pos()));
        }
        Ok(k)
    }

    /// The input's valid UTF-8 prefix, for the walks of skipped and raw values.
    fn text(&mut self) -> &'de str {
        self.text.get_or_insert_with(|| valid_prefix(self.s))
    }

    /// Walks the value at the position as the full reader does (whitespace inside it included:
    /// it makes no difference to a skipped or raw value) and returns where it starts and ends.
    fn walk_value(&mut self) -> Result<(usize, usize)> {
        let text = self.text();
        let start = skip_ws(self.s, self.pos());
        let end = walk(
            self.s,
            text,
            start,
            self.depth,
            self.opts.max_depth,
            &mut NoEmit,
        )?;
        self.rest = self.s.get(end..).unwrap_or_default();
        Ok((start, end))
    }
}

impl<'de> Reader<'de> for CompactReader<'de> {
    /// `true` before the first element.
    type Seq = bool;
    /// `true` before the first member.
    type Map = bool;
    /// What is left and the depth.
    type Pos = (&'de [u8], usize);

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn options(&self) -> &ReadOptions {
        &self.opts
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn offset(&self) -> usize {
        self.pos() + usize::from(self.rest.first() == Some(&b','))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn save(&self) -> Self::Pos {
        (self.rest, self.depth)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn restore(&mut self, pos: Self::Pos) {
        (self.rest, self.depth) = pos;
    }

    fn charge_reread(&mut self, bytes: usize) -> Result<()> {
        let at = self.pos();
        crate::reflect::charge_reread(&mut self.reread, bytes, self.s.len(), at)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn peek_kind(&mut self) -> Result<ValueKind> {
        match super::read::kind_of(self.byte()?) {
            Some(k) => Ok(k),
            None => Err(stop(self.pos())),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_null(&mut self) -> Result<bool> {
        if self.rest.first() != Some(&b'n') {
            return Ok(false);
        }
        if self.take_exact(b"null") {
            return Ok(true);
        }
        Err(stop(self.pos()))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_bool(&mut self) -> Result<bool> {
        if self.take_exact(b"true") {
            return Ok(true);
        }
        if self.take_exact(b"false") {
            return Ok(false);
        }
        Err(stop(self.pos()))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_number<N: Number>(&mut self) -> Result<N> {
        let rest = self.rest;
        if !N::KIND.is_float() {
            if let Some((v, n)) = short_int::<N>(rest) {
                self.rest = &rest[n..];
                return Ok(v);
            }
        }
        match rest.first() {
            Some(b'-' | b'0'..=b'9') => {}
            _ => return Err(stop(self.pos())),
        }
        let (v, n) = if N::KIND.is_float() {
            read_float::<N>(rest, 0)?
        } else {
            read_int::<N>(rest, 0)?
        };
        self.bump(n);
        Ok(v)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_wire_number(&mut self) -> Result<Wire> {
        let rest = self.rest;
        // `-0` is `F64(-0.0)` to the general reader: left to it.
        if let Some((m, neg, n)) = short_digits(rest).filter(|&(m, neg, _)| !neg || m != 0) {
            self.rest = &rest[n..];
            return Ok(wire(m, neg));
        }
        match rest.first() {
            Some(b'-' | b'0'..=b'9') => {}
            _ => return Err(stop(self.pos())),
        }
        let (w, n) = read_wire(rest, 0)?;
        self.bump(n);
        Ok(w)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_str(&mut self) -> Result<Str<'de, '_>> {
        if self.byte()? != b'"' {
            return Err(stop(self.pos()));
        }
        self.plain_string().map(Str::Borrowed)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_string_into(&mut self, out: &mut String) -> Result<()> {
        if self.byte()? != b'"' {
            return Err(stop(self.pos()));
        }
        let t = self.plain_string()?;
        out.clear();
        // One allocation of the text's length for a fresh string, as the full reader makes.
        out.reserve_exact(t.len());
        out.push_str(t);
        Ok(())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_array(&mut self) -> Result<bool> {
        if self.byte()? != b'[' {
            return Err(stop(self.pos()));
        }
        self.enter()?;
        Ok(true)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_element(&mut self, first: &mut bool) -> Result<bool> {
        let b = self.byte()?;
        if b == b']' {
            return Ok(self.end());
        }
        if *first {
            *first = false;
            return Ok(true);
        }
        if b == b',' {
            self.bump(1);
            return Ok(true);
        }
        Err(stop(self.pos()))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn remaining_hint(&self, _seq: &bool) -> Option<usize> {
        None
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_object(&mut self) -> Result<bool> {
        if self.byte()? != b'{' {
            return Err(stop(self.pos()));
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
        Ok(Some(self.key()?.as_bytes()))
    }

    /// A guessed key is confirmed by comparing the input after the opening quote with the name
    /// and finding the closing quote and the colon right after it.
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
        let n = g.len();
        if plain {
            if let Some(after) = self.rest.get(1 + n..3 + n) {
                if after == b"\":" && crate::read::key_eq(g, &self.rest[1..1 + n]) {
                    self.bump(3 + n);
                    return Ok(Some(NextField::Guessed));
                }
            }
        }
        let k = self.key()?;
        Ok(Some(NextField::of(k.as_bytes(), guess)))
    }

    const CANONICAL: bool = true;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn attempts_stopped(&self) -> bool {
        self.stopped
    }

    #[cold]
    fn stop_attempts(&mut self) {
        self.stopped = true;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_exact(&mut self, text: &[u8]) -> bool {
        match self.rest.strip_prefix(text) {
            Some(r) => {
                self.rest = r;
                true
            }
            None => false,
        }
    }

    #[inline]
    fn next_key(&mut self, first: &mut bool) -> Result<Option<Key<'de, '_>>> {
        if !self.member(first)? {
            return Ok(None);
        }
        Ok(Some(Key::Str(Str::Borrowed(self.key()?))))
    }

    fn skip_value(&mut self) -> Result<()> {
        self.walk_value().map(drop)
    }

    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize> {
        if self.byte()? != b'"' {
            return Err(stop(self.pos()));
        }
        let name = self.plain_string()?;
        info.by_name(name.as_bytes())
            .ok_or_else(|| stop(self.pos()))
    }

    /// The value's text as the full reader takes it.
    fn read_raw_json(&mut self) -> Result<Str<'de, '_>> {
        let (start, end) = self.walk_value()?;
        let text = self.text();
        Ok(Str::Borrowed(super::string::slice(text, start, end)?))
    }
}
