//! Walking one BEVE value without a schema and replaying it into any [`Writer`].
//!
//! The walk is iterative: nesting lives in an explicit stack bounded by the depth limit (the
//! first 8 levels in place, so a shallow walk allocates nothing), so
//! hostile input cannot overflow the call stack whatever the limit. Skipping a value is the same
//! walk into a writer that discards everything ([`super::skip`]), so skip and transcode accept
//! exactly the same documents.
//!
//! Extension values (matrix, complex, the v1 type tag) go to a writer that
//! [keeps them](Writer::keeps_beve_extensions) as their bytes; other writers get the JSON shapes
//! of the spec: `{"layout":..,"extents":[..],"value":[..]}`, `[re,im]` / `[[re,im],..]` and
//! `{"index":i,"value":..}`.

use super::header::{self, eof, invalid, major, Elem, Keys};
use super::length_prefix;
use super::skip::Discard;
use crate::error::{Code, Error, Result};
use crate::number::{NumKind, Number};
use crate::reflect::{KeyKind, ReadOptions, Writer};

/// Walks the single BEVE value that makes up `bytes` and replays it into `w`, with the default
/// depth limit. Bytes after the value are an error. With a JSON writer this is BEVE -> JSON;
/// with a [`super::BeveWriter`] it reproduces the input (Glaze-written BEVE byte for byte).
pub fn transcode<W: Writer>(bytes: &[u8], w: &mut W) -> Result<()> {
    transcode_with(bytes, w, &ReadOptions::default())
}

/// [`transcode`] with the depth limit of `opts`.
pub fn transcode_with<W: Writer>(bytes: &[u8], w: &mut W, opts: &ReadOptions) -> Result<()> {
    let end = walk(bytes, 0, w, 0, opts.max_depth)?;
    if end != bytes.len() {
        return Err(Error::new(Code::TrailingCharacters, end));
    }
    Ok(())
}

/// An open container: how many children are still to come.
#[derive(Clone, Copy)]
enum Frame {
    Array(usize),
    Object(usize, Keys),
    /// A v1 type tag projected as `{"index":i,"value":..}`: closes after one value.
    Tag,
}

/// Open containers kept in place: a walk no deeper than this allocates nothing.
const NEAR: usize = 8;

/// The stack of open containers: the first [`NEAR`] in an array, deeper ones in a vector
/// (allocated only for documents that nest deeper), so that skipping a value allocates nothing.
struct Frames {
    near: [Frame; NEAR],
    len: usize,
    far: Vec<Frame>,
}

impl Frames {
    fn new() -> Frames {
        Frames {
            near: [Frame::Tag; NEAR],
            len: 0,
            far: Vec::new(),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn len(&self) -> usize {
        self.len + self.far.len()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, f: Frame) {
        if self.len < NEAR {
            self.near[self.len] = f;
            self.len += 1;
        } else {
            self.far.push(f);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pop(&mut self) {
        if self.far.pop().is_none() {
            self.len = self.len.saturating_sub(1);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn last_mut(&mut self) -> Option<&mut Frame> {
        if !self.far.is_empty() {
            return self.far.last_mut();
        }
        let top = self.len.checked_sub(1)?;
        self.near.get_mut(top)
    }
}

/// What handling one header did.
enum Step {
    /// The value is complete; continue after it.
    Done(usize),
    /// A container was opened; its first child starts here.
    Opened(usize),
}

/// Walks one value starting at `pos`, replaying it into `w`; returns the offset after it.
/// At most `max_depth` arrays, objects and extension values are open at once, counting the
/// `open` levels around the value (so a depth error names the caller's limit).
pub(crate) fn walk<W: Writer>(
    input: &[u8],
    mut pos: usize,
    w: &mut W,
    open: usize,
    max_depth: usize,
) -> Result<usize> {
    let mut stack = Frames::new();
    let mut strs: Vec<&str> = Vec::new();
    loop {
        match value(input, pos, w, &mut stack, &mut strs, open, max_depth)? {
            Step::Opened(p) => {
                pos = p;
                continue;
            }
            Step::Done(p) => pos = p,
        }
        // Close finished containers; stop at the next child to read.
        loop {
            match stack.last_mut() {
                None => return Ok(pos),
                Some(Frame::Array(left)) => {
                    if *left == 0 {
                        w.end_array();
                        stack.pop();
                    } else {
                        *left -= 1;
                        w.sep();
                        break;
                    }
                }
                Some(Frame::Object(left, keys)) => {
                    if *left == 0 {
                        w.end_object();
                        stack.pop();
                    } else {
                        *left -= 1;
                        let keys = *keys;
                        w.sep();
                        pos = key(input, pos, keys, w)?;
                        break;
                    }
                }
                Some(Frame::Tag) => {
                    w.end_object();
                    stack.pop();
                }
            }
        }
    }
}

/// Checks that one more level fits under the limit.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn enter(depth: usize, max_depth: usize, at: usize) -> Result<()> {
    if depth >= max_depth {
        return Err(Error::new(Code::DepthLimit(max_depth), at));
    }
    Ok(())
}

/// Whether `count` items of `width` bytes fit in `left` bytes: overflow-safe, and a multiply
/// rather than a division (this guards every bulk read).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn fits(count: usize, width: usize, left: usize) -> bool {
    count.checked_mul(width).is_some_and(|n| n <= left)
}

/// `n` bytes at `pos`, or an end-of-input error naming `at`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn take(input: &[u8], pos: usize, n: usize, at: usize) -> Result<&[u8]> {
    if n > input.len() - pos {
        return Err(eof(at));
    }
    Ok(&input[pos..pos + n])
}

/// Validates UTF-8; the error names the offset of the first bad byte (`at` is where `b` starts).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn utf8(b: &[u8], at: usize) -> Result<&str> {
    // simdutf8 is the fast validator once optimised; unoptimised (debug) builds use core's,
    // which ships precompiled with optimisations and is ten times faster there. Both accept
    // exactly the valid UTF-8 (`utf8_validators_agree` checks it).
    let ok = if cfg!(debug_assertions) {
        std::str::from_utf8(b).ok()
    } else {
        simdutf8::basic::from_utf8(b).ok()
    };
    match ok {
        Some(s) => Ok(s),
        None => Err(utf8_error(b, at)),
    }
}

/// The error for `b` (starting at `at`), which is not valid UTF-8: at its first bad byte.
#[cold]
#[inline(never)]
fn utf8_error(b: &[u8], at: usize) -> Error {
    let bad = std::str::from_utf8(b).err().map_or(0, |e| e.valid_up_to());
    Error::new(Code::InvalidUtf8, at + bad)
}

/// Reads a `SIZE | UTF-8` string (object key, string payload, string array element).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn sized_str<'a>(input: &'a [u8], pos: &mut usize) -> Result<&'a str> {
    let at = *pos;
    let n = length_prefix::read(input, pos)?;
    let b = take(input, *pos, n, at)?;
    #[cfg(structio_x86)]
    let s = match crate::simd::utf8::str_in(input, *pos, n) {
        Some(Some(s)) => s,
        Some(None) => return Err(utf8_error(b, *pos)),
        None => utf8(b, *pos)?,
    };
    #[cfg(not(structio_x86))]
    let s = utf8(b, *pos)?;
    *pos += n;
    Ok(s)
}

/// The numeric kind of a number header, or the error for one structio cannot convert.
#[inline]
pub(crate) fn num_kind(h: u8, at: usize) -> Result<NumKind> {
    match header::elem_of(h) {
        Some(Elem::Kind(k)) => Ok(k),
        Some(Elem::F128) => Err(Error::new(Code::Unsupported("f128 numbers are"), at)),
        None => Err(invalid(h, at)),
    }
}

/// A numeric typed array (plain or aligned) whose header has been read.
pub(crate) struct NumArray<'a> {
    /// Element kind.
    pub kind: NumKind,
    /// Element count.
    pub count: usize,
    /// The little-endian payload, `count * kind.size()` bytes.
    pub data: &'a [u8],
    /// Offset after the array.
    pub end: usize,
}

/// Parses a numeric typed array whose header `h` (at `at`) was read; `pos` is after it. `h` is
/// a plain numeric typed-array header or [`header::ALIGNED_ARRAY`].
#[inline]
pub(crate) fn num_array(input: &[u8], mut pos: usize, h: u8, at: usize) -> Result<NumArray<'_>> {
    let aligned = h == header::ALIGNED_ARRAY;
    let inner = if aligned {
        let Some(&ih) = input.get(pos) else {
            return Err(eof(pos));
        };
        pos += 1;
        ih
    } else {
        h
    };
    if major(inner) != header::MAJOR_TYPED_ARRAY {
        return Err(invalid(inner, pos - 1));
    }
    let kind = num_kind(inner, pos - 1)?;
    let count = length_prefix::read(input, &mut pos)?;
    let width = kind.size();
    if aligned {
        let Some(&pad) = input.get(pos) else {
            return Err(eof(pos));
        };
        if pad as usize >= width {
            return Err(Error::new(Code::InvalidPadding, pos));
        }
        pos += 1;
        take(input, pos, pad as usize, pos)?;
        pos += pad as usize;
    }
    // Nothing is allocated or copied before this check.
    if !fits(count, width, input.len() - pos) {
        return Err(eof(at));
    }
    let len = count * width;
    let data = &input[pos..pos + len];
    Ok(NumArray {
        kind,
        count,
        data,
        end: pos + len,
    })
}

/// A packed bool array whose header was read: `(count, bit bytes, end)`. Unused bits of the
/// last byte must be zero.
#[inline]
pub(crate) fn bool_bits(input: &[u8], mut pos: usize, at: usize) -> Result<(usize, &[u8], usize)> {
    let count = length_prefix::read(input, &mut pos)?;
    let bits = take(input, pos, count.div_ceil(8), at)?;
    if count % 8 != 0 {
        let last = bits[bits.len() - 1];
        if last >> (count % 8) != 0 {
            return Err(Error::new(Code::ReservedBits, pos + bits.len() - 1));
        }
    }
    Ok((count, bits, pos + bits.len()))
}

/// Element `i` of packed bool bits.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn bit(bits: &[u8], i: usize) -> bool {
    (bits[i / 8] >> (i % 8)) & 1 != 0
}

/// Writes a typed array from its little-endian payload: one slice when the bytes are aligned
/// for `N` on a little-endian host, element by element otherwise.
#[inline]
fn emit_typed<N: Number, W: Writer>(w: &mut W, data: &[u8]) {
    if cfg!(target_endian = "little") {
        if let Ok(s) = bytemuck::try_cast_slice::<u8, N>(data) {
            w.typed_array(s);
            return;
        }
    }
    w.typed_array_iter(
        data.chunks_exact(std::mem::size_of::<N>())
            .map(N::from_le_slice),
    );
}

#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn emit_num<N: Number, W: Writer>(w: &mut W, b: &[u8]) {
    w.number(N::from_le_slice(b))
}

/// Reads one object key at `pos` and writes it; returns the offset after it.
#[inline]
fn key<W: Writer>(input: &[u8], mut pos: usize, keys: Keys, w: &mut W) -> Result<usize> {
    match keys {
        Keys::Str => {
            let s = sized_str(input, &mut pos)?;
            w.key(s);
            Ok(pos)
        }
        Keys::Int(k) => {
            let b = take(input, pos, k.size(), pos)?;
            with_kind!(k, N => w.int_key(N::from_le_slice(b)));
            Ok(pos + k.size())
        }
    }
}

/// Handles the value whose header is at `at`, inside `open` levels plus those on `stack`.
fn value<'a, W: Writer>(
    input: &'a [u8],
    at: usize,
    w: &mut W,
    stack: &mut Frames,
    strs: &mut Vec<&'a str>,
    open: usize,
    max_depth: usize,
) -> Result<Step> {
    let Some(&h) = input.get(at) else {
        return Err(eof(at));
    };
    let mut pos = at + 1;
    let depth = open.saturating_add(stack.len());
    match major(h) {
        header::MAJOR_NULL_BOOL => match h {
            header::NULL => w.null(),
            header::FALSE => w.bool(false),
            header::TRUE => w.bool(true),
            _ => return Err(invalid(h, at)),
        },
        header::MAJOR_NUMBER => {
            let k = num_kind(h, at)?;
            let b = take(input, pos, k.size(), at)?;
            with_kind!(k, N => emit_num::<N, W>(w, b));
            pos += k.size();
        }
        header::MAJOR_STRING => {
            if h != header::STRING {
                return Err(invalid(h, at));
            }
            let s = sized_str(input, &mut pos)?;
            w.str(s);
        }
        header::MAJOR_OBJECT => {
            let keys = header::object_keys(h, at)?;
            let n = length_prefix::read(input, &mut pos)?;
            let min_member = match keys {
                Keys::Str => 2,
                Keys::Int(k) => k.size() + 1,
            };
            if !fits(n, min_member, input.len() - pos) {
                return Err(eof(at));
            }
            enter(depth, max_depth, at)?;
            w.begin_map(
                n,
                match keys {
                    Keys::Str => KeyKind::Str,
                    Keys::Int(k) => KeyKind::Int(k),
                },
            );
            if n == 0 {
                w.end_object();
            } else {
                stack.push(Frame::Object(n - 1, keys));
                return Ok(Step::Opened(key(input, pos, keys, w)?));
            }
        }
        header::MAJOR_TYPED_ARRAY => {
            enter(depth, max_depth, at)?;
            match h {
                header::BOOL_ARRAY => {
                    let (n, bits, end) = bool_bits(input, pos, at)?;
                    w.bool_array((0..n).map(|i| bit(bits, i)));
                    pos = end;
                }
                header::STR_ARRAY => {
                    let n = length_prefix::read(input, &mut pos)?;
                    if n > input.len() - pos {
                        return Err(eof(at));
                    }
                    strs.clear();
                    // A writer that drops values needs the strings checked, not collected.
                    let keep = !w.discards();
                    crate::simd::beve_str::items(input, &mut pos, n, |_, s| {
                        if keep {
                            strs.push(s);
                        }
                        Ok(())
                    })
                    .map_err(|(e, _)| e)?;
                    w.str_array(strs.iter().copied());
                }
                _ if (h >> 3) & 3 == 3 && h != header::ALIGNED_ARRAY => {
                    return Err(invalid(h, at));
                }
                _ => {
                    let a = num_array(input, pos, h, at)?;
                    with_kind!(a.kind, N => emit_typed::<N, W>(w, a.data));
                    pos = a.end;
                }
            }
        }
        header::MAJOR_GENERIC_ARRAY => {
            if h != header::GENERIC_ARRAY {
                return Err(invalid(h, at));
            }
            let n = length_prefix::read(input, &mut pos)?;
            if n > input.len() - pos {
                return Err(eof(at));
            }
            enter(depth, max_depth, at)?;
            w.begin_array(n);
            if n == 0 {
                w.end_array();
            } else {
                stack.push(Frame::Array(n - 1));
                return Ok(Step::Opened(pos));
            }
        }
        header::MAJOR_EXTENSION => {
            if h == header::DELIMITER {
                return Err(Error::new(Code::UnexpectedDelimiter, at));
            }
            if !matches!(h, header::TYPE_TAG | header::MATRIX | header::COMPLEX) {
                return Err(invalid(h, at));
            }
            enter(depth, max_depth, at)?;
            if w.keeps_beve_extensions() {
                let end = walk(input, at, &mut Discard, depth, max_depth)?;
                w.raw_beve(&input[at..end]);
                return Ok(Step::Done(end));
            }
            match h {
                header::TYPE_TAG => {
                    let index = length_prefix::read(input, &mut pos)?;
                    w.begin_object(2);
                    w.key("index");
                    w.number(index as u64);
                    w.sep();
                    w.key("value");
                    stack.push(Frame::Tag);
                    return Ok(Step::Opened(pos));
                }
                header::MATRIX => pos = matrix(input, pos, w)?,
                _ => pos = complex(input, pos, w)?,
            }
        }
        _ => return Err(invalid(h, at)),
    }
    Ok(Step::Done(pos))
}

/// A numeric typed array (plain or aligned) at `pos`, with its header.
fn nested_num_array(input: &[u8], pos: usize) -> Result<NumArray<'_>> {
    let Some(&h) = input.get(pos) else {
        return Err(eof(pos));
    };
    let numeric =
        h == header::ALIGNED_ARRAY || (major(h) == header::MAJOR_TYPED_ARRAY && (h >> 3) & 3 != 3);
    if !numeric {
        return Err(invalid(h, pos));
    }
    num_array(input, pos + 1, h, pos)
}

/// Projects a matrix (`MATRIX_HEADER | EXTENTS | VALUE`, after the extension byte) as
/// `{"layout":..,"extents":[..],"value":[..]}`.
fn matrix<W: Writer>(input: &[u8], mut pos: usize, w: &mut W) -> Result<usize> {
    let Some(&mh) = input.get(pos) else {
        return Err(eof(pos));
    };
    if mh & !1 != 0 {
        return Err(Error::new(Code::ReservedBits, pos));
    }
    pos += 1;
    let extents = nested_num_array(input, pos)?;
    if extents.kind.is_float() {
        return Err(Error::new(
            Code::Malformed("matrix extents must be integers"),
            pos,
        ));
    }
    let value = nested_num_array(input, extents.end)?;
    w.begin_object(3);
    w.key("layout");
    w.str(if mh & 1 == 0 {
        "layout_right"
    } else {
        "layout_left"
    });
    w.sep();
    w.key("extents");
    with_kind!(extents.kind, N => emit_typed::<N, W>(w, extents.data));
    w.sep();
    w.key("value");
    with_kind!(value.kind, N => emit_typed::<N, W>(w, value.data));
    w.end_object();
    Ok(value.end)
}

/// Projects complex numbers (after the extension byte): a single one as `[re,im]`, an array
/// (plain or aligned) as `[[re,im],..]`.
fn complex<W: Writer>(input: &[u8], mut pos: usize, w: &mut W) -> Result<usize> {
    let Some(&ch) = input.get(pos) else {
        return Err(eof(pos));
    };
    let ch_at = pos;
    let kind = num_kind(ch, ch_at)?;
    let width = kind.size();
    pos += 1;
    let (count, data, end) = match ch & 7 {
        0 => {
            let data = take(input, pos, 2 * width, ch_at)?;
            w.begin_array(2);
            with_kind!(kind, N => emit_pair::<N, W>(w, data));
            return Ok(pos + 2 * width);
        }
        1 => {
            let count = length_prefix::read(input, &mut pos)?;
            if !fits(count, 2 * width, input.len() - pos) {
                return Err(eof(ch_at));
            }
            let len = count * 2 * width;
            (count, &input[pos..pos + len], pos + len)
        }
        2 => {
            if input.get(pos) != Some(&header::ALIGNED_ARRAY) {
                return match input.get(pos) {
                    None => Err(eof(pos)),
                    Some(&h) => Err(invalid(h, pos)),
                };
            }
            let a = num_array(input, pos + 1, header::ALIGNED_ARRAY, pos)?;
            if a.kind != kind {
                return Err(Error::new(
                    Code::Malformed("aligned complex array element type differs from its header"),
                    pos + 1,
                ));
            }
            if a.count % 2 != 0 {
                return Err(Error::new(
                    Code::Malformed("aligned complex array with an odd component count"),
                    pos,
                ));
            }
            (a.count / 2, a.data, a.end)
        }
        _ => return Err(invalid(ch, ch_at)),
    };
    w.begin_array(count);
    for (i, pair) in data.chunks_exact(2 * width).enumerate() {
        if i > 0 {
            w.sep();
        }
        w.begin_array(2);
        with_kind!(kind, N => emit_pair::<N, W>(w, pair));
    }
    w.end_array();
    Ok(end)
}

/// Writes the two numbers of `data` and closes the `[re, im]` array opened by the caller.
#[inline]
fn emit_pair<N: Number, W: Writer>(w: &mut W, data: &[u8]) {
    let width = std::mem::size_of::<N>();
    w.number(N::from_le_slice(&data[..width]));
    w.sep();
    w.number(N::from_le_slice(&data[width..2 * width]));
    w.end_array();
}

#[cfg(test)]
mod tests {
    #[test]
    fn utf8_validators_agree() {
        let mut cases: Vec<Vec<u8>> = vec![
            b"plain ascii".to_vec(),
            "caf\u{e9} \u{4e2d}\u{6587} \u{1F600} \u{2028}"
                .as_bytes()
                .to_vec(),
            vec![0xFF],
            vec![0xC0, 0x80],
            vec![0xED, 0xA0, 0x80],
            vec![0xF4, 0x90, 0x80, 0x80],
            vec![0xE2, 0x82],
            vec![0; 100],
        ];
        let long = "\u{1F600}abc".repeat(50);
        cases.push(long.as_bytes().to_vec());
        cases.push(long.as_bytes()[..long.len() - 1].to_vec());
        for c in &cases {
            assert_eq!(
                simdutf8::basic::from_utf8(c).is_ok(),
                std::str::from_utf8(c).is_ok(),
                "{c:02X?}"
            );
            assert_eq!(super::utf8(c, 0).is_ok(), std::str::from_utf8(c).is_ok());
        }
        assert_eq!(
            super::utf8(&[b'a', b'b', 0xFF], 10).unwrap_err().offset(),
            12
        );
    }
}
