//! [`BeveReader`]: the BEVE side of [`Reader`].
//!
//! Values are read straight from the input slice; strings are always borrowed (BEVE has no
//! escapes). Elements of typed, bool and string arrays carry no header of their own: while such
//! an array is being read element by element, `pending` holds the header its elements imply,
//! so `read_number`, `read_bool`, `read_str` and `skip_value` work on them unchanged (a
//! `Vec<Option<f64>>` or a `HashSet<String>` reads from the compact forms too).

use std::borrow::Cow;

use super::header::{self, describe, eof, invalid, major, Keys};
use super::length_prefix;
use super::transcode::{bit, bool_bits, fits, num_kind, sized_str, take, NumArray};
use crate::error::{Code, Error, Result};
use crate::impls::matrix::Layout;
use crate::number::{Number, Wire};
use crate::reflect::{EnumInfo, Key, NextField, ReadOptions, Reader, Str, ValueKind};

/// Reads BEVE from a byte slice.
#[derive(Debug, Clone)]
pub struct BeveReader<'de> {
    pub(crate) input: &'de [u8],
    pub(crate) pos: usize,
    pub(crate) depth: usize,
    /// The implied header of the next element of a typed, bool or string array.
    pub(crate) pending: Option<u8>,
    pub(crate) opts: ReadOptions,
    /// Bytes re-read by untagged enums so far (see [`Reader::charge_reread`]); carried from
    /// value to value by [`super::Delimited`], so one input has one budget.
    pub(crate) reread: usize,
}

/// A saved position of a [`BeveReader`].
///
/// Laid out as three whole words (`pending` widened, `depth` apart from `pos`) so that saving
/// one is three word loads and stores: a position saved right after the reader moved (before
/// each member, in the serde bridge) is never a wide load of words the reader just stored one
/// by one, nor a word load of a byte just stored, which the processor cannot forward and
/// stalls on.
#[derive(Debug, Clone, Copy)]
#[repr(C)]
pub struct BevePos {
    pos: usize,
    /// [`BeveReader::pending`]: `0x100 | header` when set, 0 when not.
    pending: usize,
    depth: usize,
}

impl BevePos {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pending(self) -> Option<u8> {
        if self.pending != 0 {
            Some(self.pending as u8)
        } else {
            None
        }
    }
}

/// State of an array being read.
#[derive(Debug)]
pub struct BeveSeq {
    remaining: usize,
    elems: Elems,
}

#[derive(Debug)]
enum Elems {
    /// Generic array: elements carry headers.
    Values,
    /// Typed numeric array: elements are raw numbers with this implied header.
    Numbers(u8),
    /// Packed bools starting at this offset; the index of the next one.
    Bools { bits: usize, next: usize },
    /// String array: elements are `SIZE | UTF-8`.
    Strs,
}

/// State of an object being read.
#[derive(Debug)]
pub struct BeveMap {
    remaining: usize,
    keys: Keys,
}

impl<'de> BeveReader<'de> {
    /// A reader at the start of `input`.
    pub fn new(input: &'de [u8], opts: ReadOptions) -> BeveReader<'de> {
        BeveReader {
            input,
            pos: 0,
            depth: 0,
            pending: None,
            opts,
            reread: 0,
        }
    }

    /// Checks that the whole input was consumed.
    pub fn finish(&self) -> Result<()> {
        if self.pos != self.input.len() {
            return Err(Error::new(Code::TrailingCharacters, self.pos));
        }
        Ok(())
    }

    /// Consumes the next header (the implied one inside a typed array).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn header(&mut self) -> Result<u8> {
        if let Some(h) = self.pending.take() {
            return Ok(h);
        }
        match self.input.get(self.pos) {
            Some(&h) => {
                self.pos += 1;
                Ok(h)
            }
            None => Err(eof(self.pos)),
        }
    }

    /// The next header, not consumed.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn peek_header(&self) -> Result<u8> {
        if let Some(h) = self.pending {
            return Ok(h);
        }
        match self.input.get(self.pos) {
            Some(&h) => Ok(h),
            None => Err(eof(self.pos)),
        }
    }

    /// Reads `N` from its little-endian bytes at the current position.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn payload<N: Number>(&mut self, at: usize) -> Result<N> {
        let n = std::mem::size_of::<N>();
        let b = take(self.input, self.pos, n, at)?;
        self.pos += n;
        Ok(N::from_le_slice(b))
    }

    /// Reads the payload of a number whose header `h` was consumed, as a wire number.
    #[inline]
    pub(crate) fn wire_after(&mut self, h: u8, at: usize, expected: &'static str) -> Result<Wire> {
        if major(h) != header::MAJOR_NUMBER {
            return Err(type_error(expected, h, at));
        }
        let k = num_kind(h, at)?;
        Ok(with_kind!(k, N => self.payload::<N>(at)?.to_wire()))
    }

    /// Enters one level of nesting.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn enter(&mut self, at: usize) -> Result<()> {
        if self.depth >= self.opts.max_depth {
            return Err(Error::new(Code::DepthLimit(self.opts.max_depth), at));
        }
        self.depth += 1;
        if self.depth > crate::read::STACK_CHECK_DEPTH {
            crate::read::stack_left(crate::read::STACK_RED_ZONE, at)?;
        }
        Ok(())
    }

    /// Bytes left after the current position.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn left(&self) -> usize {
        self.input.len() - self.pos
    }

    /// Parses a numeric typed array (plain or aligned) whose header `h` at `at` was consumed.
    #[inline]
    pub(crate) fn num_array(&mut self, h: u8, at: usize) -> Result<NumArray<'de>> {
        let a = super::transcode::num_array(self.input, self.pos, h, at)?;
        self.pos = a.end;
        Ok(a)
    }

    #[cold]
    #[inline(never)]
    fn key_type_error(&self, at: usize) -> Error {
        Error::new(
            Code::InvalidType {
                expected: "an object with string keys",
                found: "an object with integer keys",
            },
            at,
        )
    }
}

/// "expected X, found Y" for header `h`.
#[cold]
#[inline(never)]
pub(crate) fn type_error(expected: &'static str, h: u8, at: usize) -> Error {
    Error::new(
        Code::InvalidType {
            expected,
            found: describe(h),
        },
        at,
    )
}

/// The error for a number that does not fit `N`.
#[cold]
#[inline(never)]
pub(crate) fn conversion_error<N: Number>(w: Wire, at: usize) -> Error {
    let float = matches!(w, Wire::F32(_) | Wire::F64(_));
    if float && !N::KIND.is_float() {
        Error::new(Code::ExpectedInteger(N::KIND.name()), at)
    } else {
        Error::new(Code::NumberOutOfRange(N::KIND.name()), at)
    }
}

/// Whether `h` is a typed-array header with a numeric element (plain or aligned).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn is_numeric_array(h: u8) -> bool {
    h == header::ALIGNED_ARRAY || (major(h) == header::MAJOR_TYPED_ARRAY && (h >> 3) & 3 != 3)
}

impl<'de> Reader<'de> for BeveReader<'de> {
    type Seq = BeveSeq;
    type Map = BeveMap;
    type Pos = BevePos;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn options(&self) -> &ReadOptions {
        &self.opts
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn offset(&self) -> usize {
        self.pos
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn save(&self) -> BevePos {
        BevePos {
            pos: self.pos,
            pending: self.pending.map_or(0, |h| 0x100 | h as usize),
            depth: self.depth,
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn restore(&mut self, p: BevePos) {
        self.pos = p.pos;
        self.depth = p.depth;
        self.pending = p.pending();
    }

    fn charge_reread(&mut self, bytes: usize) -> Result<()> {
        crate::reflect::charge_reread(&mut self.reread, bytes, self.input.len(), self.pos)
    }

    fn peek_kind(&mut self) -> Result<ValueKind> {
        let at = self.pos;
        let h = self.peek_header()?;
        let next = self.pos + usize::from(self.pending.is_none());
        Ok(match major(h) {
            header::MAJOR_NULL_BOOL => match h {
                header::NULL => ValueKind::Null,
                header::FALSE | header::TRUE => ValueKind::Bool,
                _ => return Err(invalid(h, at)),
            },
            header::MAJOR_NUMBER => ValueKind::Number(Some(num_kind(h, at)?)),
            header::MAJOR_STRING if h == header::STRING => ValueKind::String,
            header::MAJOR_OBJECT => match header::object_keys(h, at)? {
                Keys::Str => ValueKind::Object,
                Keys::Int(k) => ValueKind::IntKeyObject(k),
            },
            header::MAJOR_TYPED_ARRAY => match h {
                header::BOOL_ARRAY => ValueKind::BoolArray,
                header::STR_ARRAY => ValueKind::StrArray,
                header::ALIGNED_ARRAY => match self.input.get(next) {
                    Some(&ih) if major(ih) == header::MAJOR_TYPED_ARRAY && (ih >> 3) & 3 != 3 => {
                        ValueKind::TypedArray(num_kind(ih, next)?)
                    }
                    Some(&ih) => return Err(invalid(ih, next)),
                    None => return Err(eof(next)),
                },
                _ if (h >> 3) & 3 == 3 => return Err(invalid(h, at)),
                _ => ValueKind::TypedArray(num_kind(h, at)?),
            },
            header::MAJOR_GENERIC_ARRAY if h == header::GENERIC_ARRAY => ValueKind::Array,
            header::MAJOR_EXTENSION => match h {
                header::TYPE_TAG | header::MATRIX | header::COMPLEX => ValueKind::Extension(h),
                header::DELIMITER => return Err(Error::new(Code::UnexpectedDelimiter, at)),
                _ => return Err(invalid(h, at)),
            },
            _ => return Err(invalid(h, at)),
        })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_null(&mut self) -> Result<bool> {
        if self.peek_header()? == header::NULL {
            self.header()?;
            return Ok(true);
        }
        Ok(false)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_bool(&mut self) -> Result<bool> {
        let at = self.pos;
        match self.header()? {
            header::TRUE => Ok(true),
            header::FALSE => Ok(false),
            h => Err(type_error("a boolean", h, at)),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_number<N: Number>(&mut self) -> Result<N> {
        let at = self.pos;
        let h = self.header()?;
        if h == header::number(N::KIND) {
            return self.payload::<N>(at);
        }
        let w = self.wire_after(h, at, "a number")?;
        N::from_wire(w).ok_or_else(|| conversion_error::<N>(w, at))
    }

    #[inline]
    fn read_wire_number(&mut self) -> Result<Wire> {
        let at = self.pos;
        let h = self.header()?;
        self.wire_after(h, at, "a number")
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_str(&mut self) -> Result<Str<'de, '_>> {
        let at = self.pos;
        let h = self.header()?;
        if h != header::STRING {
            return Err(type_error("a string", h, at));
        }
        Ok(Str::Borrowed(sized_str(self.input, &mut self.pos)?))
    }

    #[inline]
    fn begin_array(&mut self) -> Result<BeveSeq> {
        let at = self.pos;
        let h = self.header()?;
        let (remaining, elems) = match h {
            header::GENERIC_ARRAY => {
                let n = length_prefix::read(self.input, &mut self.pos)?;
                if n > self.left() {
                    return Err(eof(at));
                }
                (n, Elems::Values)
            }
            header::BOOL_ARRAY => {
                let (n, _, end) = bool_bits(self.input, self.pos, at)?;
                let start = end - n.div_ceil(8);
                self.pos = end;
                (
                    n,
                    Elems::Bools {
                        bits: start,
                        next: 0,
                    },
                )
            }
            header::STR_ARRAY => {
                let n = length_prefix::read(self.input, &mut self.pos)?;
                if n > self.left() {
                    return Err(eof(at));
                }
                (n, Elems::Strs)
            }
            h if is_numeric_array(h) => {
                // Validate the whole array, then stand at its first element.
                let a = super::transcode::num_array(self.input, self.pos, h, at)?;
                self.pos = a.end - a.data.len();
                (a.count, Elems::Numbers(header::number(a.kind)))
            }
            _ => return Err(type_error("an array", h, at)),
        };
        self.enter(at)?;
        Ok(BeveSeq { remaining, elems })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_element(&mut self, seq: &mut BeveSeq) -> Result<bool> {
        if seq.remaining == 0 {
            self.depth = self.depth.saturating_sub(1);
            return Ok(false);
        }
        seq.remaining -= 1;
        match &mut seq.elems {
            Elems::Values => {}
            Elems::Numbers(h) => self.pending = Some(*h),
            Elems::Strs => self.pending = Some(header::STRING),
            Elems::Bools { bits, next } => {
                let on = bit(&self.input[*bits..], *next);
                *next += 1;
                self.pending = Some(if on { header::TRUE } else { header::FALSE });
            }
        }
        Ok(true)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn remaining_hint(&self, seq: &BeveSeq) -> Option<usize> {
        Some(seq.remaining)
    }

    #[inline]
    fn begin_object(&mut self) -> Result<BeveMap> {
        let at = self.pos;
        let h = self.header()?;
        if major(h) != header::MAJOR_OBJECT {
            return Err(type_error("an object", h, at));
        }
        let keys = header::object_keys(h, at)?;
        let n = length_prefix::read(self.input, &mut self.pos)?;
        let min_member = match keys {
            Keys::Str => 2,
            Keys::Int(k) => k.size() + 1,
        };
        if !fits(n, min_member, self.left()) {
            return Err(eof(at));
        }
        self.enter(at)?;
        Ok(BeveMap { remaining: n, keys })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field(&mut self, map: &mut BeveMap) -> Result<Option<&[u8]>> {
        if map.remaining == 0 {
            self.depth = self.depth.saturating_sub(1);
            return Ok(None);
        }
        map.remaining -= 1;
        let at = self.pos;
        if map.keys != Keys::Str {
            return Err(self.key_type_error(at));
        }
        let n = length_prefix::read(self.input, &mut self.pos)?;
        let k = take(self.input, self.pos, n, at)?;
        // Keys that match a field are valid by construction; others end up in messages.
        if !k.is_ascii() {
            super::transcode::utf8(k, self.pos)?;
        }
        self.pos += n;
        Ok(Some(k))
    }

    /// The guessed key is confirmed by comparing its encoded form (a one-byte SIZE and the
    /// name) with the input, before any decoding; a key that differs from it, or was written
    /// with a wider SIZE than needed, goes the [`next_field`](Reader::next_field) way.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field_guess(
        &mut self,
        map: &mut BeveMap,
        guess: &str,
        _plain: bool,
    ) -> Result<Option<NextField<'_>>> {
        let n = guess.len();
        if map.remaining != 0 && map.keys == Keys::Str && n < 1 << 6 {
            if let Some(b) = self.input.get(self.pos..).and_then(|b| b.get(..=n)) {
                if b[0] == (n as u8) << 2 && crate::read::key_eq(guess.as_bytes(), &b[1..]) {
                    map.remaining -= 1;
                    self.pos += 1 + n;
                    return Ok(Some(NextField::Guessed));
                }
            }
        }
        Ok(self.next_field(map)?.map(|key| NextField::of(key, guess)))
    }

    #[inline]
    fn next_key(&mut self, map: &mut BeveMap) -> Result<Option<Key<'de, '_>>> {
        if map.remaining == 0 {
            self.depth = self.depth.saturating_sub(1);
            return Ok(None);
        }
        map.remaining -= 1;
        match map.keys {
            Keys::Str => Ok(Some(Key::Str(Str::Borrowed(sized_str(
                self.input,
                &mut self.pos,
            )?)))),
            Keys::Int(k) => {
                let at = self.pos;
                let w = with_kind!(k, N => self.payload::<N>(at)?.to_wire());
                Ok(Some(Key::Int(w)))
            }
        }
    }

    #[inline]
    fn skip_value(&mut self) -> Result<()> {
        if let Some(h) = self.pending.take() {
            self.pos = super::skip::skip_element(self.input, self.pos, h)?;
            return Ok(());
        }
        self.pos = super::skip::skip(self.input, self.pos, self.depth, self.opts.max_depth)?;
        Ok(())
    }

    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize> {
        let at = self.pos;
        let h = self.header()?;
        if h == header::STRING {
            let name = sized_str(self.input, &mut self.pos)?;
            return info
                .by_name(name.as_bytes())
                .ok_or_else(|| crate::enums::unknown_variant(name, at));
        }
        let w = self.wire_after(h, at, "an enum variant (an integer)")?;
        if let Wire::F32(_) | Wire::F64(_) = w {
            return Err(Error::new(Code::ExpectedInteger(info.name), at));
        }
        let value = crate::enums::discriminant_of(info, w);
        value.and_then(|v| info.by_discriminant(v)).ok_or_else(|| {
            let shown = match w {
                Wire::Int(v) => v.to_string(),
                Wire::Uint(v) => v.to_string(),
                _ => String::new(),
            };
            crate::enums::unknown_variant(&shown, at)
        })
    }

    #[inline]
    fn read_typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        self.typed_vec(out)
    }

    #[inline]
    fn read_typed_slice<N: Number>(&mut self, out: &mut [N]) -> Result<()> {
        self.typed_slice(out)
    }

    #[inline]
    fn read_typed_cow<N: Number>(&mut self, out: &mut Cow<'de, [N]>) -> Result<()> {
        self.typed_cow(out)
    }

    #[inline]
    fn read_bool_vec(&mut self, out: &mut Vec<bool>) -> Result<()> {
        self.bool_vec(out)
    }

    #[inline]
    fn read_string_vec(&mut self, out: &mut Vec<String>) -> Result<()> {
        self.string_vec(out)
    }

    #[inline]
    fn read_str_seq<F>(&mut self, each: F) -> Result<usize>
    where
        F: FnMut(usize, Str<'de, '_>) -> Result<()>,
    {
        self.str_seq(each)
    }

    fn read_raw_json(&mut self) -> Result<Str<'de, '_>> {
        let at = self.pos;
        let h = self.header()?;
        if h != header::STRING {
            return Err(type_error("a string holding JSON", h, at));
        }
        let s = sized_str(self.input, &mut self.pos)?;
        crate::json::validate(s.as_bytes()).map_err(|_| {
            Error::new(
                Code::Malformed("a raw JSON string that is not valid JSON"),
                at,
            )
        })?;
        Ok(Str::Borrowed(s))
    }

    fn read_complex<N: Number>(&mut self) -> Result<[N; 2]> {
        if self.peek_header()? != header::COMPLEX || self.pending.is_some() {
            return crate::read::read_complex_generic(self);
        }
        let at = self.pos;
        let ext = self.read_extension()?;
        let mut one = Vec::with_capacity(1);
        super::complex::decode(ext, at, true, &mut one)?;
        Ok(one[0])
    }

    fn read_complex_vec<N: Number>(&mut self, out: &mut Vec<[N; 2]>) -> Result<()> {
        if self.peek_header()? != header::COMPLEX || self.pending.is_some() {
            return crate::read::read_complex_vec_generic(self, out);
        }
        let at = self.pos;
        let ext = self.read_extension()?;
        super::complex::decode(ext, at, false, out)
    }

    fn read_matrix<N: Number>(
        &mut self,
        extents: &mut Vec<u64>,
        data: &mut Vec<N>,
    ) -> Result<Option<Layout>> {
        if self.peek_header()? != header::MATRIX || self.pending.is_some() {
            return crate::read::read_matrix_generic(self, extents, data);
        }
        let at = self.pos;
        let ext = self.read_extension()?;
        super::matrix::decode(ext, at, *self.options(), extents, data).map(Some)
    }

    fn read_extension(&mut self) -> Result<&'de [u8]> {
        let at = self.pos;
        let h = self.peek_header()?;
        if self.pending.is_some() || major(h) != header::MAJOR_EXTENSION {
            return Err(type_error("a BEVE extension value", h, at));
        }
        let end = super::skip::skip(self.input, at, self.depth, self.opts.max_depth)?;
        self.pos = end;
        Ok(&self.input[at..end])
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn is_human_readable(&self) -> bool {
        false
    }

    #[cold]
    fn invalid_type(&mut self, expected: &'static str) -> Error {
        let at = self.pos;
        match self.peek_header() {
            Ok(h) => type_error(expected, h, at),
            Err(e) => e,
        }
    }
}
