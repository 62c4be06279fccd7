//! The fast path of [`super::minify`] and [`super::prettify`]: one pass that checks the grammar
//! and writes the re-formatted text through a [`Spare`] cursor, sixteen or thirty-two bytes at a time
//! (whitespace runs, string contents and numbers are found with block masks and copied with
//! block stores).
//!
//! It only says *whether* the input is well-formed. On anything it does not accept, the caller
//! discards its output and runs the checking walk ([`super::skip::walk_all`] with the
//! `PrettyEmit`/`MinifyEmit` emitters), which produces the error with its offset, or the output
//! if the input was valid after all (a deeper nesting than this path keeps, say). So it must
//! never accept input the walk rejects, and when it accepts, its output must be the walk's.
//! It also checks that the input is UTF-8: with AVX2 in the string scan itself (see
//! [`crate::simd::json_blocks`]; bytes outside strings must be ASCII to pass the grammar),
//! else with one pass over all of it first. The output is then UTF-8 too: it is the input with
//! ASCII whitespace removed and ASCII punctuation added next to ASCII bytes.

use super::string::{unescape_unicode, Discard};
use crate::number::parse::skip_number;
#[cfg(structio_x86)]
use crate::simd::json_blocks::Avx2;
use crate::simd::json_blocks::{Blocks, Narrow};
use crate::simd::json_scan::{eq_bits16, number_bits16, ws_bits16};
use crate::simd::spare::Spare;

/// The input is not accepted by the fast path (the caller re-runs the checking walk).
pub(crate) struct Rejected;

type R<T> = Result<T, Rejected>;

/// The deepest nesting this path keeps track of (deeper input goes to the walk).
const MAX_STACK: usize = 256;

/// The widest indent this path lays out (wider ones go to the walk).
const MAX_INDENT: usize = 256;

/// `"\n"` and 63 spaces: a newline and an indent of up to 63 in one block store.
const NEWLINE_SPACES: [u8; 64] = {
    let mut t = [b' '; 64];
    t[0] = b'\n';
    t
};

/// What the first byte of a value starts: [`KIND`] maps every byte to one of these, so the
/// dispatch is one table look-up and one jump whose target does not depend on, say, the sign
/// of a number or which boolean it is.
const INVALID: u8 = 0;
const STRING: u8 = 1;
const OPEN: u8 = 2;
const NUMBER: u8 = 3;
const BOOL: u8 = 4;
const NULL: u8 = 5;

static KIND: [u8; 256] = {
    let mut t = [INVALID; 256];
    t[b'"' as usize] = STRING;
    t[b'{' as usize] = OPEN;
    t[b'[' as usize] = OPEN;
    t[b'-' as usize] = NUMBER;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = NUMBER;
        d += 1;
    }
    t[b't' as usize] = BOOL;
    t[b'f' as usize] = BOOL;
    t[b'n' as usize] = NULL;
    t
};

/// The 16 bytes at `i`, padded with zero bytes past the end of `s` (zero is a control byte, so
/// neither whitespace, nor a digit, nor allowed raw in a string: every scan stops there).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn load16(s: &[u8], i: usize) -> [u8; 16] {
    match block::<16>(s, i) {
        Some(b) => b,
        None => load16_tail(s, i),
    }
}

/// The `N` bytes at `i`, if there are that many (a fixed-size copy).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn block<const N: usize>(s: &[u8], i: usize) -> Option<[u8; N]> {
    s.get(i..)?.first_chunk::<N>().copied()
}

/// [`load16`] within 16 bytes of the end.
#[cold]
#[inline(never)]
fn load16_tail(s: &[u8], i: usize) -> [u8; 16] {
    let mut a = [0u8; 16];
    let rest = s.get(i..).unwrap_or_default();
    let n = rest.len().min(16);
    a[..n].copy_from_slice(&rest[..n]);
    a
}

/// The index of the first non-whitespace byte at or after `i` (`s.len()` if none).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn skip_ws(s: &[u8], i: usize) -> usize {
    match s.get(i) {
        Some(&b) if b <= b' ' => ws_run(s, i),
        _ => i,
    }
}

/// [`skip_ws`] where whitespace is likely (after punctuation) when minifying, whose input is
/// usually laid out with a newline and an indent there: one block compare rather than a check
/// of the first byte and then the block. Prettify's input is usually compact: byte first.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn lead_ws<const PRETTY: bool>(s: &[u8], i: usize) -> usize {
    if PRETTY {
        return skip_ws(s, i);
    }
    match block::<16>(s, i) {
        Some(a) => {
            let other = !ws_bits16(&a) & 0xFFFF;
            if other != 0 {
                i + other.trailing_zeros() as usize
            } else {
                ws_run(s, i + 16)
            }
        }
        None => ws_tail(s, i),
    }
}

/// [`skip_ws`] from a byte that may be whitespace, sixteen bytes at a time.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn ws_run(s: &[u8], mut i: usize) -> usize {
    while let Some(a) = block::<16>(s, i) {
        let other = !ws_bits16(&a) & 0xFFFF;
        if other != 0 {
            return i + other.trailing_zeros() as usize;
        }
        i += 16;
    }
    ws_tail(s, i)
}

/// [`ws_run`] for the last 15 bytes or fewer.
#[cold]
#[inline(never)]
fn ws_tail(s: &[u8], i: usize) -> usize {
    let other = !ws_bits16(&load16(s, i)) & 0xFFFF;
    (i + other.trailing_zeros() as usize).min(s.len())
}

/// What may follow a backslash: 1 for the one-byte escapes, 2 for `u`, 0 for anything else.
static ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    let simple = b"\"\\/bfnrt";
    while k < simple.len() {
        t[simple[k] as usize] = 1;
        k += 1;
    }
    t[b'u' as usize] = 2;
    t
};

/// Copies the string whose opening quote is at `start`; returns the index after its closing
/// quote. Escapes are checked, not decoded (the text is copied as it is); `B` checks UTF-8 or
/// the caller did.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn string<B: Blocks>(lanes: B, s: &[u8], start: usize, out: &mut Spare) -> R<usize> {
    out.byte(b'"');
    let mut i = start + 1;
    let mut errors = lanes.no_errors();
    'block: loop {
        let Some((w, mut m)) = lanes.scan(s, i, &mut errors) else {
            // Within 32 bytes of the end of the input (or 3 of its start).
            let end = string_end(s, start, i)?;
            out.slice(s.get(i..end).ok_or(Rejected)?);
            return Ok(end);
        };
        while m != 0 {
            let k = m.trailing_zeros() as usize & 31;
            match w[k] {
                b'"' => {
                    if lanes.any(errors) {
                        return Err(Rejected);
                    }
                    out.put(w, k + 1);
                    return Ok(i + k + 1);
                }
                b'\\' if k == 31 => {
                    // The escaped byte is in the next block: start that one at the backslash.
                    out.put(w, 31);
                    i += 31;
                    continue 'block;
                }
                b'\\' => match ESCAPES[usize::from(w[(k + 1) & 31])] {
                    1 => m &= !(3 << k),
                    2 => {
                        out.put(w, k);
                        let end = unicode_escape(s, i + k)?;
                        out.slice(s.get(i + k..end).ok_or(Rejected)?);
                        i = end;
                        continue 'block;
                    }
                    _ => return Err(Rejected),
                },
                _ => return Err(Rejected),
            }
        }
        out.put(w, 32);
        i += 32;
    }
}

/// Checks the rest of the string that [`string`] copied up to `i` (not inside an escape)
/// when no block could be scanned there (within 32 bytes of the end of the input or 3 of its
/// start): byte by byte, and its whole contents as UTF-8 at the end; returns the index after
/// the closing quote. (Out of line, and not given the cursor, so that the cursor can stay in
/// registers.)
#[cold]
#[inline(never)]
fn string_end(s: &[u8], start: usize, i: usize) -> R<usize> {
    let mut j = i;
    loop {
        match *s.get(j).ok_or(Rejected)? {
            b'"' => break,
            b'\\' => {
                j = match s.get(j + 1).map(|&e| ESCAPES[usize::from(e)]) {
                    Some(1) => j + 2,
                    Some(2) => unicode_escape(s, j)?,
                    _ => return Err(Rejected),
                }
            }
            c if c < 0x20 => return Err(Rejected),
            _ => j += 1,
        }
    }
    std::str::from_utf8(s.get(start + 1..j).ok_or(Rejected)?).map_err(|_| Rejected)?;
    Ok(j + 1)
}

/// Checks the `\u` escape (or surrogate pair) at `i` (rare); returns the index after it.
#[cold]
#[inline(never)]
fn unicode_escape(s: &[u8], i: usize) -> R<usize> {
    unescape_unicode(s, i, &mut Discard).map_err(|_| Rejected)
}

/// Length of the run of set bits of `d` from bit `p` on (`p <= 32`).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn run(d: u64, p: usize) -> usize {
    (!(d >> p)).trailing_zeros() as usize
}

/// Checks and copies the number at `i` (which holds `-` or a digit); returns the index after.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn number(s: &[u8], i: usize, out: &mut Spare) -> R<usize> {
    // A reference into the input, not a copy: the bytes looked at one by one below then load
    // from the input itself, rather than through a 32-byte copy on the stack (a wide store
    // then narrow loads from it, which some processors forward slowly).
    let Some(w) = s.get(i..).and_then(<[u8]>::first_chunk::<32>) else {
        let end = number_slow(s, i)?;
        out.slice(s.get(i..end).ok_or(Rejected)?);
        return Ok(end);
    };
    let lo: &[u8; 16] = w.first_chunk().unwrap_or(&[0; 16]);
    let hi: &[u8; 16] = w.last_chunk().unwrap_or(&[0; 16]);
    let (dl, nl) = number_bits16(lo);
    let (dh, nh) = number_bits16(hi);
    // Bit k: byte k is a digit (bits 32 and up are clear, so runs stop at the window's end).
    let d = u64::from(dl) | u64::from(dh) << 16;
    // Where the number ends: the first byte that no number has. This alone decides where the
    // walk goes on, so that the next value's work does not wait for the checks below (they
    // only decide whether to reject, a branch the processor predicts).
    let end = run(u64::from(nl) | u64::from(nh) << 16, 0);
    if end >= 32 {
        // The number may go on past the window.
        let end = number_slow(s, i)?;
        out.slice(s.get(i..end).ok_or(Rejected)?);
        return Ok(end);
    }
    // The grammar, checked with as few branches as possible (whether there is a sign, a
    // fraction, which lengths: all vary from number to number); `bad` collects the failures.
    // `p` stays within the window (the bytes up to `end` are number bytes and the one at `end`
    // is not), and the number must be all of them (`p == end`): in valid JSON a number is
    // followed by a byte no number has.
    let neg = usize::from(w[0] == b'-');
    let int = run(d, neg);
    // At least one digit, and no leading zero before more digits.
    let mut bad = int == 0 || (w[neg] == b'0' && int > 1);
    let mut p = neg + int;
    let dot = w[p & 31] == b'.';
    let frac = run(d, p + 1);
    bad |= dot & (frac == 0);
    p += usize::from(dot) * (1 + frac);
    if w[p & 31] | 0x20 == b'e' {
        p += 1;
        p += usize::from(matches!(w[p & 31], b'+' | b'-'));
        let exp = run(d, p.min(32));
        bad |= exp == 0;
        p += exp;
    }
    if bad | (p != end) {
        return Err(Rejected);
    }
    out.put(*w, end);
    Ok(i + end)
}

/// Checks the number at `i` near the end of the input or of 32 bytes or more; returns the
/// index after it.
#[cold]
#[inline(never)]
fn number_slow(s: &[u8], i: usize) -> R<usize> {
    skip_number(s, i).map_err(|_| Rejected)
}

/// Checks and copies the literal `lit` at `i`; returns the index after it.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn literal<const N: usize>(s: &[u8], i: usize, lit: &[u8; N], out: &mut Spare) -> R<usize> {
    if s.get(i..i + N) != Some(&lit[..]) {
        return Err(Rejected);
    }
    out.put(*lit, N);
    Ok(i + N)
}

/// Checks and copies `true` or `false` (as `is_false` says) at `i`; returns the index after.
/// Without a branch on which of the two it is (in an array of random booleans that branch
/// would be mispredicted half the time).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn boolean(s: &[u8], i: usize, is_false: bool, out: &mut Spare) -> R<usize> {
    const TRUE: u64 = u64::from_le_bytes(*b"true\0\0\0\0");
    const FALSE: u64 = u64::from_le_bytes(*b"false\0\0\0");
    let Some(w) = block::<8>(s, i) else {
        return if is_false {
            literal(s, i, b"false", out)
        } else {
            literal(s, i, b"true", out)
        };
    };
    let n = 4 + usize::from(is_false);
    let (want, keep) = if is_false {
        (FALSE, 0xFF_FFFF_FFFF)
    } else {
        (TRUE, 0xFFFF_FFFF)
    };
    if (u64::from_le_bytes(w) ^ want) & keep != 0 {
        return Err(Rejected);
    }
    out.put(want.to_le_bytes(), n);
    Ok(i + n)
}

/// The boolean at `j` as its 8 bytes (zero-padded) and its length, if one is there in full
/// with at least 8 bytes of input from `j`. Which of the two it is, is chosen without a branch
/// (random booleans would mispredict it).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn bool_at(s: &[u8], j: usize) -> Option<(u64, usize)> {
    const TRUE: u64 = u64::from_le_bytes(*b"true\0\0\0\0");
    const FALSE: u64 = u64::from_le_bytes(*b"false\0\0\0");
    let lit = u64::from_le_bytes(block::<8>(s, j)?);
    let is_false = lit as u8 == b'f';
    let (want, keep) = if is_false {
        (FALSE, 0xFF_FFFF_FFFF)
    } else {
        (TRUE, 0xFFFF_FFFF)
    };
    if (lit ^ want) & keep != 0 {
        return None;
    }
    Some((want, 4 + usize::from(is_false)))
}

/// Minify, in an array: copies the string at `j` (the byte there is `"`), and then every
/// `,` + gap + string that follows while the gaps are as predicted; returns the index after
/// the last string copied. Whatever follows it is left to the caller (which checks it as
/// after any value): a run of strings is one loop rather than one dispatch per element.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn strings<B: Blocks>(lanes: B, s: &[u8], j: usize, gap: &mut Gap, out: &mut Spare) -> R<usize> {
    let mut j = j;
    loop {
        let e = string(lanes, s, j, out)?;
        if s.get(e) != Some(&b',') {
            return Ok(e);
        }
        let next = gap.skip(s, e + 1);
        if s.get(next) != Some(&b'"') {
            return Ok(e);
        }
        out.byte(b',');
        j = next;
    }
}

/// Minify, in an array: checks and copies the boolean at `j` (the byte there is `t` or `f`),
/// and then every `,` + gap + boolean that follows while the gaps are as predicted; returns
/// the index after the last boolean copied. Whatever follows it is left to the caller (which
/// checks it as after any value): a run of booleans is one call rather than one dispatch per
/// element.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn booleans(s: &[u8], j: usize, gap: &mut Gap, out: &mut Spare) -> R<usize> {
    let Some((want, n)) = bool_at(s, j) else {
        return boolean(s, j, s.get(j) == Some(&b'f'), out);
    };
    out.put(want.to_le_bytes(), n);
    let mut e = j + n;
    while s.get(e) == Some(&b',') {
        let j = gap.skip(s, e + 1);
        let Some((want, n)) = bool_at(s, j) else {
            break;
        };
        out.put((want << 8 | u64::from(b',')).to_le_bytes(), n + 1);
        e = j + n;
    }
    Ok(e)
}

/// Writes a newline and `n` spaces (pretty layout only).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn newline(out: &mut Spare, n: usize) {
    if n < NEWLINE_SPACES.len() {
        out.put(NEWLINE_SPACES, n + 1);
    } else {
        out.byte(b'\n');
        let mut n = n;
        while n > 0 {
            let k = n.min(63);
            out.put::<64>([b' '; 64], k);
            n -= k;
        }
    }
}

/// A key, its colon and the whitespace around them, starting at `i` (inside an object, after
/// `{` or `,`); returns the index after the colon.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn key<const PRETTY: bool, B: Blocks>(b: B, s: &[u8], i: usize, out: &mut Spare) -> R<usize> {
    let i = lead_ws::<PRETTY>(s, i);
    if s.get(i) != Some(&b'"') {
        return Err(Rejected);
    }
    let end = string(b, s, i, out)?;
    let j = skip_ws(s, end);
    if s.get(j) != Some(&b':') {
        return Err(Rejected);
    }
    if PRETTY {
        out.put(*b": ", 2);
    } else {
        out.byte(b':');
    }
    Ok(skip_ws(s, j + 1))
}

/// The whitespace after the last comma of an array (minify only), to predict the next one:
/// a pretty document lays out every element of an array alike, so one compare of the bytes
/// after the next comma with the last gap usually replaces the whitespace scan.
struct Gap {
    /// The gap's bytes (and whatever followed them).
    bytes: [u8; 16],
    /// Bit `k` set for each byte `k` of the gap (its length is below 16).
    mask: u32,
    /// The gap's length.
    len: usize,
}

impl Gap {
    /// No prediction yet (an empty gap, which whitespace after the comma does not match).
    fn new() -> Self {
        Gap {
            bytes: [0; 16],
            mask: 0,
            len: 0,
        }
    }

    /// The index of the first non-whitespace byte at or after `i`: the predicted one if the
    /// bytes there match the last gap and the byte after them is not whitespace, else found
    /// by scanning (and learned for the next time).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn skip(&mut self, s: &[u8], i: usize) -> usize {
        if let Some(a) = block::<16>(s, i) {
            let j = i + self.len;
            if eq_bits16(&a, &self.bytes) & self.mask == self.mask
                && s.get(j).is_some_and(|&b| b > b' ')
            {
                return j;
            }
        }
        self.learn(s, i)
    }

    /// [`Gap::skip`] by scanning, keeping the gap found when it is shorter than 16 bytes.
    #[inline(never)]
    fn learn(&mut self, s: &[u8], i: usize) -> usize {
        let j = lead_ws::<false>(s, i);
        let len = j - i;
        if let (Some(a), true) = (block::<16>(s, i), len < 16) {
            self.bytes = a;
            self.mask = (1 << len) - 1;
            self.len = len;
        }
        j
    }
}

/// Re-formats all of `s` (one value, whitespace around it allowed): compact when `PRETTY` is
/// false, else Glaze's layout with `indent` spaces per level. Nesting deeper than `max_depth`
/// and input that is not UTF-8 are rejected. With AVX2 (chosen at run time) the string scan
/// checks UTF-8 as it goes; else all of `s` is checked first.
pub(crate) fn reformat<const PRETTY: bool>(
    s: &[u8],
    max_depth: usize,
    indent: usize,
    out: &mut Vec<u8>,
) -> R<()> {
    #[cfg(structio_x86)]
    if let Some(t) = Avx2::detect() {
        return t.reformat::<PRETTY>(s, max_depth, indent, out);
    }
    reformat_narrow::<PRETTY>(s, max_depth, indent, out)
}

/// [`reformat`] without AVX2: all of `s` checked as UTF-8 first, then [`body`] with
/// [`Narrow`] blocks.
pub(crate) fn reformat_narrow<const PRETTY: bool>(
    s: &[u8],
    max_depth: usize,
    indent: usize,
    out: &mut Vec<u8>,
) -> R<()> {
    if simdutf8::basic::from_utf8(s).is_err() {
        return Err(Rejected);
    }
    body::<PRETTY, Narrow>(Narrow, s, max_depth, indent, out)
}

/// The fast path proper, with `B` scanning the string blocks: if `B` does not check UTF-8,
/// the caller has checked all of `s`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn body<const PRETTY: bool, B: Blocks>(
    lanes: B,
    s: &[u8],
    max_depth: usize,
    indent: usize,
    out: &mut Vec<u8>,
) -> R<()> {
    if PRETTY && indent > MAX_INDENT {
        return Err(Rejected);
    }
    // Made here so that its fields can live in registers.
    let out = &mut Spare::new(out, 0);
    // Open containers, innermost last: bit set for an object.
    let mut stack = [0u64; MAX_STACK / 64];
    let mut depth = 0usize;
    let mut in_obj = false;
    let mut gap = Gap::new();
    // `i` is at the first byte of a value (not whitespace) at the top of the loop.
    let mut i = lead_ws::<PRETTY>(s, 0);
    'value: loop {
        let Some(&b) = s.get(i) else {
            return Err(Rejected);
        };
        match KIND[usize::from(b)] {
            STRING if !PRETTY && !in_obj && depth > 0 => {
                i = strings(lanes, s, i, &mut gap, out)?;
            }
            STRING => i = string(lanes, s, i, out)?,
            OPEN => {
                // As the walk: the limit counts an empty container too.
                if depth >= max_depth {
                    return Err(Rejected);
                }
                let obj = b == b'{';
                let close = b + 2; // `]` and `}` come two after `[` and `{`.
                let j = lead_ws::<PRETTY>(s, i + 1);
                if s.get(j) == Some(&close) {
                    if PRETTY && j > i + 1 {
                        // Whitespace inside: Glaze's two line breaks (see `pretty_minify.rs`).
                        out.byte(b);
                        newline(out, (depth + 1).saturating_mul(indent));
                        newline(out, depth.saturating_mul(indent));
                        out.byte(close);
                    } else {
                        out.put([b, close], 2);
                    }
                    i = j + 1;
                } else {
                    if depth >= MAX_STACK {
                        return Err(Rejected);
                    }
                    let (w, bit) = (depth / 64, depth % 64);
                    stack[w] = (stack[w] & !(1 << bit)) | (u64::from(obj) << bit);
                    depth += 1;
                    in_obj = obj;
                    out.byte(b);
                    if PRETTY {
                        newline(out, depth.saturating_mul(indent));
                    }
                    i = if obj {
                        key::<PRETTY, B>(lanes, s, j, out)?
                    } else {
                        j
                    };
                    continue 'value;
                }
            }
            NUMBER => i = number(s, i, out)?,
            BOOL if !PRETTY && !in_obj && depth > 0 => {
                i = booleans(s, i, &mut gap, out)?;
            }
            BOOL => i = boolean(s, i, b == b'f', out)?,
            NULL => i = literal(s, i, b"null", out)?,
            _ => return Err(Rejected),
        }
        // After a value: close finished containers, or go on to the next element.
        loop {
            if depth == 0 {
                break 'value;
            }
            // Usually a comma right after the value: one look at the byte decides.
            let c = match s.get(i) {
                Some(&c) if c > b' ' => c,
                _ => {
                    i = skip_ws(s, i);
                    *s.get(i).ok_or(Rejected)?
                }
            };
            let close = if in_obj { b'}' } else { b']' };
            match c {
                b',' if !PRETTY && !in_obj => {
                    out.byte(b',');
                    i = gap.skip(s, i + 1);
                    continue 'value;
                }
                b',' => {
                    out.byte(b',');
                    if PRETTY {
                        newline(out, depth.saturating_mul(indent));
                    }
                    i = if in_obj {
                        key::<PRETTY, B>(lanes, s, i + 1, out)?
                    } else {
                        skip_ws(s, i + 1)
                    };
                    continue 'value;
                }
                c if c == close => {
                    depth -= 1;
                    if depth > 0 {
                        let k = depth - 1;
                        in_obj = stack[k / 64] >> (k % 64) & 1 == 1;
                    }
                    if PRETTY {
                        newline(out, depth.saturating_mul(indent));
                    }
                    out.byte(c);
                    i += 1;
                }
                _ => return Err(Rejected),
            }
        }
    }
    if skip_ws(s, i) != s.len() {
        return Err(Rejected);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::pretty_minify::{MinifyEmit, PrettyEmit};
    use crate::json::skip::walk_all_in;
    use crate::json::string::valid_prefix;

    /// The fast path's output, or `None` if it rejects the input: with the blocks chosen at
    /// run time, and the same with [`Narrow`] blocks (which must agree).
    fn fast(s: &[u8], pretty: bool, max_depth: usize) -> Option<Vec<u8>> {
        let run = |narrow: bool| {
            let mut out = b"pre".to_vec();
            let r = match (pretty, narrow) {
                (true, false) => reformat::<true>(s, max_depth, 3, &mut out),
                (false, false) => reformat::<false>(s, max_depth, 0, &mut out),
                (true, true) => reformat_narrow::<true>(s, max_depth, 3, &mut out),
                (false, true) => reformat_narrow::<false>(s, max_depth, 0, &mut out),
            };
            r.ok().map(|()| out[3..].to_vec())
        };
        let f = run(false);
        assert_eq!(f, run(true), "{:?}", String::from_utf8_lossy(s));
        f
    }

    /// The checking walk's output.
    fn walk(s: &[u8], pretty: bool, max_depth: usize) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let text = valid_prefix(s);
        let r = if pretty {
            let mut e = PrettyEmit {
                out: &mut out,
                indent: 3,
                base: 0,
            };
            walk_all_in(s, text, max_depth, &mut e)
        } else {
            let mut e = MinifyEmit {
                out: &mut out,
                text,
                last: 0,
            };
            walk_all_in(s, text, max_depth, &mut e)
        };
        r.ok().map(|()| out)
    }

    /// The fast path accepts exactly what the walk accepts (for these inputs: it is allowed to
    /// reject more, such as nesting deeper than it keeps, but these tests pin that it does
    /// not), with the same output.
    fn same(s: &[u8]) {
        for pretty in [false, true] {
            for max_depth in [256, 3] {
                let f = fast(s, pretty, max_depth);
                let w = walk(s, pretty, max_depth);
                assert_eq!(
                    f,
                    w,
                    "pretty {pretty}, max_depth {max_depth}: {:?}",
                    String::from_utf8_lossy(s)
                );
            }
        }
    }

    const SAMPLE: &str = r#" { "a" : [ 1 , -0.5e+7 , 0 , true , false , null , "x\"y\\u00e9\ud83d\ude00\n" ,
        { } , [ ] , [ [ 12345678901234567890 ] ] , 1.5E-3 ] , "é😀" : { "k" : "v" } } "#;

    #[test]
    fn agrees_with_the_walk_on_every_mutation_of_a_sample() {
        let base = SAMPLE.as_bytes();
        same(base);
        let subs = [
            b' ', b'\n', b'"', b'\\', b',', b':', b'[', b']', b'{', b'}', b'0', b'1', b'-', b'+',
            b'.', b'e', b'u', b'x', b'n', b't', 0, 0x1F, 0x7F, 0x80, 0xC3, 0xFF,
        ];
        for k in 0..base.len() {
            same(&base[..k]);
            let mut cut = base.to_vec();
            cut.remove(k);
            same(&cut);
            for &b in &subs {
                let mut m = base.to_vec();
                m[k] = b;
                same(&m);
                m.insert(k, b);
                same(&m);
            }
        }
    }

    #[test]
    fn agrees_on_numbers_at_every_position_around_the_window() {
        let numbers = [
            "0",
            "-0",
            "7",
            "-12",
            "01",
            "-01",
            "1.",
            "1.5",
            ".5",
            "-",
            "1e",
            "1e+",
            "1e5",
            "1E-05",
            "1.0e+",
            "0.0000000000000000000000000001",
            "123456789012345678901234567890",
            "1234567890123456789012345678901.5",
            "1.23456789012345678901234567890e5",
            "1e1e1",
            "1.2.3",
            "-.5",
            "2.e3",
            "1x",
            "1_",
            "3.14159265358979323846264338327950288",
        ];
        for n in numbers {
            for pad in 0..40 {
                for tail in ["", " ", "]", ",2]", "                                    "] {
                    same(format!("{}{n}{tail}", " ".repeat(pad)).as_bytes());
                    same(format!("[{}{n}{tail}", " ".repeat(pad)).as_bytes());
                }
            }
        }
    }

    #[test]
    fn agrees_on_strings_with_specials_at_every_block_position() {
        let inner = [
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\u0041",
            "\\u00",
            "\\ud800",
            "\\ud800\\udc00",
            "\\udc00",
            "\\x",
            "\\",
            "\u{1}",
            "\t",
            "é",
            "😀",
            "\u{7f}",
        ];
        for x in inner {
            for pad in 0..36 {
                for after in ["", "a", "\\\\\\\\"] {
                    let body = format!("{}{x}{after}", "a".repeat(pad));
                    same(format!("\"{body}\"").as_bytes());
                    same(format!("\"{body}").as_bytes());
                    same(format!("{{\"{body}\":1}}").as_bytes());
                    same(format!("[\"{body}\",\"{body}\"] ").as_bytes());
                }
            }
        }
        // Invalid UTF-8 inside and outside strings.
        same(b"[\"\xC3\"]");
        same(b"[\"a\xFF\"]");
        same(b"[1]\xFF");
    }

    #[test]
    fn agrees_on_utf8_in_strings_at_every_block_position() {
        let chars = [
            "é",
            "\u{7FF}",
            "\u{800}",
            "€",
            "\u{D7FF}",
            "\u{E000}",
            "\u{FFFF}",
            "\u{10000}",
            "😀",
            "\u{10FFFF}",
        ];
        let bad: [&[u8]; 10] = [
            b"\x80",
            b"\xBF",
            b"\xC0\x80",
            b"\xC1\xBF",
            b"\xE0\x80\x80",
            b"\xED\xA0\x80",
            b"\xF0\x80\x80\x80",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xFF",
        ];
        for pad in 0..100 {
            let lead = "a".repeat(pad);
            for c in chars {
                let c = c.as_bytes();
                // Whole, cut short (at the end of the string and of the input), with the
                // escape and quote bytes after it.
                for cut in 1..=c.len() {
                    for after in [&b""[..], b"\\n", b"x", "é".as_bytes()] {
                        let mut body = lead.clone().into_bytes();
                        body.extend_from_slice(&c[..cut]);
                        body.extend_from_slice(after);
                        let mut doc = b"[\"".to_vec();
                        doc.extend_from_slice(&body);
                        same(&doc);
                        doc.extend_from_slice(b"\",\"");
                        doc.extend_from_slice(&body);
                        doc.extend_from_slice(b"\"]");
                        same(&doc);
                        let mut key = b"{\"".to_vec();
                        key.extend_from_slice(&body);
                        key.extend_from_slice(b"\":1}");
                        same(&key);
                    }
                }
            }
            for b in bad {
                let mut doc = format!("[\"{lead}").into_bytes();
                doc.extend_from_slice(b);
                same(&doc);
                doc.extend_from_slice("é\"]".as_bytes());
                same(&doc);
            }
        }
        // Non-ASCII outside strings.
        for t in ["[1,é]", "é", "[\"a\"é]", "{\"a\"é:1}", "[\"a\",😀]", "[1]€"] {
            same(t.as_bytes());
            same(format!("{}{t}", " ".repeat(40)).as_bytes());
        }
    }

    #[test]
    fn reports_invalid_utf8_at_its_first_byte() {
        // The error comes from the checking walk after the fast path rejects.
        for pad in 0..100 {
            for bad in [
                &b"\xC3("[..],
                b"\xE2\x82",
                b"\xF0\x9F\x98",
                b"\x80",
                b"\xED\xA0\x80",
            ] {
                let mut doc = format!("[\"x\", \"{}", "é".repeat(pad / 2) + &"a".repeat(pad % 2))
                    .into_bytes();
                let at = doc.len();
                doc.extend_from_slice(bad);
                doc.extend_from_slice(b"z\", \"y\"]");
                for e in [
                    crate::json::minify(&doc).unwrap_err(),
                    crate::json::prettify(&doc).unwrap_err(),
                ] {
                    assert_eq!(e.offset(), at, "{e}");
                    assert!(e.to_string().starts_with("invalid UTF-8"), "{e}");
                }
            }
        }
    }

    #[test]
    fn agrees_on_long_strings_with_escapes_across_blocks() {
        // Runs of backslashes of every length ending at every position around the block
        // edges, and `\\u` escapes split across blocks.
        for pad in 0..100 {
            let lead = "é".repeat(pad / 2) + &"a".repeat(pad % 2);
            for run in 1..6 {
                for tail in ["", "\"", "n", "u0041", "ud83d\\ude00", "x"] {
                    let body = format!("{lead}{}{tail}", "\\".repeat(run));
                    same(format!("[\"{body}\",\"{body}\"]").as_bytes());
                    same(format!("[\"{body}").as_bytes());
                }
            }
        }
    }

    #[test]
    fn agrees_on_arrays_of_strings_with_changing_gaps() {
        // Runs of strings (copied by one loop) with gaps that change, other values and
        // mutations in between.
        let gaps = [
            "",
            " ",
            "\n   ",
            "\n      ",
            "\t\r\n",
            "\n                 ",
        ];
        let items = [
            "\"a\"",
            "\"\"",
            "\"é\\n😀\"",
            "\"x\\\"y\"",
            "1",
            "true",
            "[\"z\"]",
            "{\"k\":\"v\"}",
        ];
        runs_with_changing_gaps(
            &gaps,
            14,
            |n, k| {
                if n % 5 == 4 {
                    items[(n + k) % items.len()]
                } else {
                    items[n % 4]
                }
            },
            "\"s\"",
            &[b'"', b',', b' ', b']', b'\\', b'x', 0],
        );
    }

    /// Arrays of `count` items (`item(n, k)`) with the gaps after their commas changing every
    /// third element (from `gaps`, shifted by `k`, the gap before the closing bracket), alone
    /// and inside an object beside `other`, then every prefix and every one-byte change to the
    /// bytes of `changes`: the fast path and the walk must agree on all of them.
    fn runs_with_changing_gaps<'a>(
        gaps: &[&str],
        count: usize,
        item: impl Fn(usize, usize) -> &'a str,
        other: &str,
        changes: &[u8],
    ) {
        for (k, g) in gaps.iter().enumerate() {
            let mut doc = String::from("[");
            for n in 0..count {
                if n > 0 {
                    doc.push(',');
                    doc.push_str(gaps[(k + n / 3) % gaps.len()]);
                }
                doc.push_str(item(n, k));
            }
            doc.push_str(g);
            doc.push(']');
            same(doc.as_bytes());
            same(format!("{{\"a\":{doc},\"b\":[{doc},{other}]}}").as_bytes());
            let base = doc.as_bytes();
            for cut in 0..base.len() {
                same(&base[..cut]);
                for &b in changes {
                    let mut m = base.to_vec();
                    m[cut] = b;
                    same(&m);
                }
            }
        }
    }

    #[test]
    fn agrees_on_arrays_of_booleans_with_changing_gaps() {
        // Runs of booleans (copied by one loop) and gaps (predicted from the last one) that
        // change length and bytes from element to element, with every mutation of the tail.
        let gaps = [
            "",
            " ",
            "\n   ",
            "\n      ",
            "\t\r\n",
            "\n              ",
            "\n                 ",
        ];
        runs_with_changing_gaps(
            &gaps,
            12,
            |n, k| {
                if (n * 7 + k) % 3 == 0 {
                    "false"
                } else {
                    "true"
                }
            },
            "true",
            &[b't', b'f', b'x', b',', b' ', b']', b'1', 0],
        );
        for t in [
            "[true,false",
            "[true,",
            "[true ,false]",
            "[true, \n false ,true]",
            "[truefalse]",
            "[true,,false]",
        ] {
            same(t.as_bytes());
        }
        same(b"{\"a\":true,false}");
        same(b"true,true");
        same(b"[{\"a\":true,\"b\":false},true,false]");
    }

    #[test]
    fn agrees_on_depth_whitespace_and_trailing_text() {
        for n in [2, 3, 4, 255, 256, 257, 300] {
            same(format!("{}{}", "[".repeat(n), "]".repeat(n)).as_bytes());
            same(format!("{}1{}", "[".repeat(n), "]".repeat(n)).as_bytes());
            same(format!("{}1{}", "{\"k\":[".repeat(n / 2), "]}".repeat(n / 2)).as_bytes());
            same(format!("{}{}", "[".repeat(n), "]".repeat(n - 1)).as_bytes());
        }
        for t in [
            "",
            " ",
            "1 ",
            " 1",
            "1 2",
            "[] x",
            "[]]",
            "{}}",
            "\t\r\n[\t\r\n]\t\r\n",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "[tru]",
            "[nul",
            "truex",
            "{\"a\":}",
            "[,1]",
            "\u{feff}1",
            "[1]\u{0}",
        ] {
            same(t.as_bytes());
            same(format!("{}{t}{}", " ".repeat(20), " ".repeat(20)).as_bytes());
        }
    }

    #[test]
    fn accepts_the_benchmark_documents() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/formats/json/bench");
        for name in [
            "mixed",
            "strings",
            "uints",
            "ints",
            "doubles",
            "exact_decimals",
            "bools",
        ] {
            for file in [format!("{name}.json"), format!("{name}.pretty.json")] {
                let s = std::fs::read(format!("{dir}/{file}")).unwrap();
                for pretty in [false, true] {
                    let f = fast(&s, pretty, 256);
                    assert!(f.is_some(), "{file} rejected");
                    assert_eq!(f, walk(&s, pretty, 256), "{file}");
                }
            }
        }
    }
}
