//! JSON strings: escaping on write, validation and unescaping on read.
//!
//! Both directions look for the same three kinds of byte: `"`, `\` and the control bytes below
//! 0x20. They scan eight bytes at a time (SWAR on a little-endian `u64`, so the code is
//! endian-neutral) and copy the clean runs between those bytes in bulk.
//!
//! UTF-8 is checked once per document, not per string: readers validate the whole input up
//! front ([`valid_prefix`]) and slice strings out of the valid `&str`. A string that reaches
//! past the valid prefix holds the first invalid byte, so errors still come in document order.

use crate::error::{Code, Error, Result};

use super::out::Out;
use crate::simd::json_scan::special_bits16;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const QUOTES: u64 = ONES * b'"' as u64;
const BACKSLASHES: u64 = ONES * b'\\' as u64;
const SPACES: u64 = ONES * 0x20;

/// The high bit of each byte of `w` that is `"`, `\` or below 0x20. Only the lowest flagged
/// byte is exact (a borrow can flag bytes above a true hit), which is all the scanners use.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn special_mask(w: u64) -> u64 {
    let q = w ^ QUOTES;
    let b = w ^ BACKSLASHES;
    ((q.wrapping_sub(ONES) & !q) | (b.wrapping_sub(ONES) & !b) | (w.wrapping_sub(SPACES) & !w))
        & HIGHS
}

/// Whether `b` must be escaped in a JSON string (or ends an unescaped run when reading).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn is_special(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Loads eight bytes at `i` (the caller guarantees `i + 8 <= s.len()`).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn load8(s: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&s[i..i + 8]);
    u64::from_le_bytes(a)
}

/// The index of the first `"`, `\` or control byte in `s` at or after `i` (`s.len()` if none).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn find_special(s: &[u8], mut i: usize) -> usize {
    while let Some(block) = s.get(i..i + 16) {
        let mut a = [0u8; 16];
        a.copy_from_slice(block);
        let m = special_bits16(&a);
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 16;
    }
    while i + 8 <= s.len() {
        let m = special_mask(load8(s, i));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < s.len() {
        if is_special(s[i]) {
            return i;
        }
        i += 1;
    }
    i
}

/// The escape for each byte below 0x20: the short forms, else `\u00XX` in upper-case hex.
const CONTROL_ESCAPES: [&str; 32] = [
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007", "\\b",
    "\\t", "\\n", "\\u000B", "\\f", "\\r", "\\u000E", "\\u000F", "\\u0010", "\\u0011", "\\u0012",
    "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017", "\\u0018", "\\u0019", "\\u001A",
    "\\u001B", "\\u001C", "\\u001D", "\\u001E", "\\u001F",
];

/// The escape for a byte [`is_special`] flags.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn escape_of(b: u8) -> &'static str {
    match b {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        _ => CONTROL_ESCAPES[(b & 31) as usize],
    }
}

/// Appends `s` as a quoted JSON string: `"` and `\` and the control bytes are escaped (`\b \f
/// \n \r \t`, others `\u00XX` in upper-case hex); `/`, DEL and non-ASCII text are written raw.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_str<O: Out>(out: &mut O, s: &str) {
    out.push_json_str(s);
}

/// The escape of each byte [`is_special`] flags, in the first bytes of eight, with its length
/// in the last byte (0 for bytes that need none).
pub(crate) const ESCAPES: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let e: &[u8] = match b as u8 {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            c if c < 0x20 => CONTROL_ESCAPES[c as usize].as_bytes(),
            _ => b"",
        };
        let mut k = 0;
        while k < e.len() {
            t[b][k] = e[k];
            k += 1;
        }
        t[b][7] = e.len() as u8;
        b += 1;
    }
    t
};

/// The first `n <= 16` bytes of `src` in a block padded with spaces (which need no escape),
/// using overlapping fixed-size copies rather than a `memcpy` call.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn padded16(src: &[u8]) -> [u8; 16] {
    let mut a = [b' '; 16];
    let n = src.len();
    if n >= 16 {
        a.copy_from_slice(&src[..16]);
    } else if n >= 8 {
        a[..8].copy_from_slice(&src[..8]);
        a[n - 8..n].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        a[..4].copy_from_slice(&src[..4]);
        a[n - 4..n].copy_from_slice(&src[n - 4..]);
    } else if n > 0 {
        a[0] = src[0];
        a[n / 2] = src[n / 2];
        a[n - 1] = src[n - 1];
    }
    a
}

/// Whether any of the (at most 16) bytes of `b` must be escaped.
///
/// Works on registers only: overlapping 8-byte (or 4-byte) loads straight from `b`, never a
/// block assembled on the stack from smaller stores, whose 16-byte reload cannot be forwarded
/// from those stores and stalls (a key written through the serde bridge, where names are only
/// known at run time, paid that stall on every member). A flagged byte anywhere means some byte
/// needs an escape (only the position of hits past the first is inexact).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn needs_escape16(b: &[u8]) -> bool {
    let n = b.len();
    debug_assert!(n <= 16);
    let w = if n >= 8 {
        special_mask(load8(b, 0)) | special_mask(load8(b, n - 8))
    } else if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]) as u64;
        special_mask(lo | hi << 32)
    } else if n > 0 {
        // Three bytes (repeats for shorter keys), the rest spaces, which need no escape.
        let w = b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16;
        special_mask(w | SPACES << 24)
    } else {
        0
    };
    w != 0
}

/// [`write_str`] into a byte buffer: blocks of 16 bytes (32 with AVX2) are stored straight
/// into spare capacity reserved for the worst case while they are scanned (see
/// [`crate::simd::json_string::escape::write_escaped`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_str_blocks(out: &mut Vec<u8>, s: &str) {
    crate::simd::json_string::escape::write_escaped(out, s.as_bytes());
}

/// [`write_str`] for any output: clean runs are appended as `&str` pieces.
#[inline]
pub(crate) fn write_str_runs<O: Out>(out: &mut O, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push_ascii(b'"');
    let mut run = 0;
    let mut i = 0;
    while i + 8 <= b.len() {
        let m = special_mask(load8(b, i));
        if m == 0 {
            i += 8;
            continue;
        }
        let j = i + (m.trailing_zeros() / 8) as usize;
        // `run` and `j` sit next to ASCII bytes, so both are char boundaries.
        out.push_str(s.get(run..j).unwrap_or_default());
        out.push_str(escape_of(b[j]));
        i = j + 1;
        run = i;
    }
    if i < b.len() {
        write_tail(out, s, run, i);
    } else {
        out.push_str(s.get(run..).unwrap_or_default());
    }
    out.push_ascii(b'"');
}

/// The last (fewer than eight) bytes of [`write_str`], scanned through one padded word.
#[inline]
fn write_tail<O: Out>(out: &mut O, s: &str, mut run: usize, mut i: usize) {
    let b = s.as_bytes();
    loop {
        // Pad with spaces, which need no escape.
        let mut a = [b' '; 8];
        a[..b.len() - i].copy_from_slice(&b[i..]);
        let m = special_mask(u64::from_le_bytes(a));
        if m == 0 {
            break;
        }
        let j = i + (m.trailing_zeros() / 8) as usize;
        out.push_str(s.get(run..j).unwrap_or_default());
        out.push_str(escape_of(b[j]));
        i = j + 1;
        run = i;
        if i == b.len() {
            break;
        }
    }
    out.push_str(s.get(run..).unwrap_or_default());
}

/// Inputs up to this many bytes are first checked for ASCII with plain word ORs: on a short
/// message the SIMD validator's dispatch and setup cost more than the whole scan.
const SHORT_INPUT: usize = 256;

/// The longest prefix of `s` that is valid UTF-8 (all of it for valid input), checked with
/// SIMD once per document (a short all-ASCII input by word ORs instead).
#[inline]
pub(crate) fn valid_prefix(s: &[u8]) -> &str {
    if s.len() <= SHORT_INPUT {
        if let Some(t) = crate::simd::utf8::unchecked::ascii_str(s) {
            return t;
        }
    }
    match simdutf8::basic::from_utf8(s) {
        Ok(t) => t,
        Err(_) => valid_prefix_slow(s),
    }
}

#[cold]
#[inline(never)]
fn valid_prefix_slow(s: &[u8]) -> &str {
    let n = match simdutf8::compat::from_utf8(s) {
        Ok(_) => s.len(),
        Err(e) => e.valid_up_to(),
    };
    simdutf8::basic::from_utf8(&s[..n]).unwrap_or_default()
}

/// "invalid UTF-8" at the first invalid byte of the input, which is where `text` (the valid
/// prefix) ends.
#[cold]
pub(crate) fn invalid_utf8(text: &str) -> Error {
    Error::new(Code::InvalidUtf8, text.len())
}

/// The text of `s[from..to]` if it lies in the valid prefix `text` (both ends must sit next to
/// ASCII bytes, so they are char boundaries).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn slice(text: &str, from: usize, to: usize) -> Result<&str> {
    // Two inlined boundary checks (`str::get` with a range is an out-of-line call).
    match text
        .split_at_checked(to)
        .and_then(|(head, _)| head.split_at_checked(from))
    {
        Some((_, s)) => Ok(s),
        None => Err(invalid_utf8(text)),
    }
}

/// Where unescaped text goes: a buffer, or nowhere when a string is only being validated.
pub(crate) trait Sink {
    /// Takes the clean run `text[from..to]` (an error if it leaves the valid prefix).
    fn run(&mut self, text: &str, from: usize, to: usize) -> Result<()>;
    /// Takes a decoded escape.
    fn push(&mut self, c: char);
}

impl Sink for String {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run(&mut self, text: &str, from: usize, to: usize) -> Result<()> {
        self.push_str(slice(text, from, to)?);
        Ok(())
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, c: char) {
        String::push(self, c);
    }
}

/// A sink that keeps nothing, for validating strings that are skipped.
pub(crate) struct Discard;

impl Sink for Discard {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run(&mut self, text: &str, _: usize, to: usize) -> Result<()> {
        if to <= text.len() {
            Ok(())
        } else {
            Err(invalid_utf8(text))
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, _: char) {}
}

/// Finishes a string in `s` (whose valid UTF-8 prefix is `text`) whose clean prefix is
/// `s[run..i]` and whose byte `i` is special: validates the rest, unescapes it into `out`,
/// and returns the index just past the closing quote.
#[inline]
pub(crate) fn finish_string<S: Sink>(
    s: &[u8],
    text: &str,
    mut run: usize,
    mut i: usize,
    out: &mut S,
) -> Result<usize> {
    loop {
        match s.get(i) {
            Some(b'"') => {
                out.run(text, run, i)?;
                return Ok(i + 1);
            }
            Some(b'\\') => {
                out.run(text, run, i)?;
                i = unescape_one(s, i, out)?;
            }
            Some(_) => {
                out.run(text, run, i)?;
                return Err(Error::new(Code::ControlCharacter, i));
            }
            None => {
                out.run(text, run, i)?;
                return Err(Error::new(Code::UnexpectedEnd, s.len()));
            }
        }
        run = i;
        i = find_special(s, i);
    }
}

/// Validates the string starting after its opening quote at `start` without keeping it;
/// returns the index past the closing quote.
#[inline]
pub(crate) fn skip_string(s: &[u8], text: &str, start: usize) -> Result<usize> {
    let i = find_special(s, start);
    if s.get(i) == Some(&b'"') && i <= text.len() {
        return Ok(i + 1);
    }
    finish_string(s, text, start, i, &mut Discard)
}

/// Decodes the escape whose backslash is at `i` into `out`; returns the index after it.
#[inline]
fn unescape_one<S: Sink>(s: &[u8], i: usize, out: &mut S) -> Result<usize> {
    let Some(&e) = s.get(i + 1) else {
        return Err(Error::new(Code::UnexpectedEnd, s.len()));
    };
    let c = match e {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unescape_unicode(s, i, out),
        _ => return Err(Error::new(Code::InvalidEscape, i + 1)),
    };
    out.push(c);
    Ok(i + 2)
}

/// Decodes `\uXXXX` (and the low half of a surrogate pair after it) at `i`.
#[inline(never)]
pub(crate) fn unescape_unicode<S: Sink>(s: &[u8], i: usize, out: &mut S) -> Result<usize> {
    let hi = hex4(s, i + 2)?;
    let (c, end) = match hi {
        0xD800..=0xDBFF => {
            // A high surrogate must be followed by `\u` and a low surrogate.
            match (s.get(i + 6), s.get(i + 7)) {
                (Some(b'\\'), Some(b'u')) => {}
                (None, _) | (Some(b'\\'), None) => {
                    return Err(Error::new(Code::UnexpectedEnd, s.len()))
                }
                _ => return Err(Error::new(Code::LoneSurrogate, i + 6)),
            }
            let lo = hex4(s, i + 8)?;
            if !(0xDC00..=0xDFFF).contains(&lo) {
                return Err(Error::new(Code::LoneSurrogate, i + 6));
            }
            (0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), i + 12)
        }
        0xDC00..=0xDFFF => return Err(Error::new(Code::LoneSurrogate, i)),
        c => (c, i + 6),
    };
    // `c` is a scalar value: surrogates were combined or rejected above.
    out.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
    Ok(end)
}

/// Four hex digits at `i`.
#[inline]
fn hex4(s: &[u8], i: usize) -> Result<u32> {
    let mut v = 0u32;
    for k in i..i + 4 {
        let Some(&b) = s.get(k) else {
            return Err(Error::new(Code::UnexpectedEnd, s.len()));
        };
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return Err(Error::new(Code::InvalidEscape, k)),
        };
        v = v << 4 | d as u32;
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(s: &str) -> String {
        let mut out = Vec::new();
        write_str(&mut out, s);
        let mut out2 = String::new();
        write_str(&mut out2, s);
        assert_eq!(out, out2.as_bytes());
        out2
    }

    #[test]
    fn needs_escape16_finds_every_special_byte_at_every_place() {
        let naive = |b: &[u8]| b.iter().any(|&c| is_special(c));
        for n in 0..=16usize {
            for fill in [b'a', 0x7f, 0x80, 0xff, b' ', b'!', b'#', b'[', b']'] {
                let clean = vec![fill; n];
                assert!(!needs_escape16(&clean), "{n} {fill:#x}");
                for at in 0..n {
                    for special in [b'"', b'\\', 0, 0x1f, b'\n'] {
                        let mut b = clean.clone();
                        b[at] = special;
                        assert_eq!(
                            needs_escape16(&b),
                            naive(&b),
                            "{n} {at} {special:#x} {fill:#x}"
                        );
                        assert!(needs_escape16(&b));
                    }
                }
            }
        }
    }

    #[test]
    fn escapes_match_glaze_with_control_escaping() {
        assert_eq!(esc("a/b"), r#""a/b""#);
        assert_eq!(esc("a\\b"), r#""a\\b""#);
        assert_eq!(esc("a\"b"), r#""a\"b""#);
        assert_eq!(esc("\u{8}\u{c}\n\r\t"), r#""\b\f\n\r\t""#);
        assert_eq!(esc("\0"), r#""\u0000""#);
        assert_eq!(esc("\u{1}"), r#""\u0001""#);
        assert_eq!(esc("\u{b}\u{1f}"), r#""\u000B\u001F""#);
        assert_eq!(esc("\u{7f}"), "\"\u{7f}\"");
        assert_eq!(
            esc("é中😀\u{2028}\u{2029}<>&"),
            "\"é中😀\u{2028}\u{2029}<>&\""
        );
        assert_eq!(esc(""), r#""""#);
    }

    #[test]
    fn escapes_at_every_position_of_long_strings() {
        for len in 0..40 {
            for pos in 0..len {
                for (special, escaped) in [
                    ('"', "\\\""),
                    ('\\', "\\\\"),
                    ('\n', "\\n"),
                    ('\u{1}', "\\u0001"),
                ] {
                    let mut s: String = "é".repeat(len);
                    s.replace_range(pos * 2..pos * 2 + 2, &special.to_string());
                    let expect = format!("\"{}\"", s.replace(special, escaped));
                    assert_eq!(esc(&s), expect, "len {len} pos {pos}");
                }
            }
        }
    }

    fn unescape(s: &str) -> Result<String> {
        let b = s.as_bytes();
        assert_eq!(b[0], b'"');
        let i = find_special(b, 1);
        let mut out = String::new();
        let end = finish_string(b, s, 1, i, &mut out)?;
        assert_eq!(end, b.len());
        assert_eq!(skip_string(b, s, 1)?, end);
        Ok(out)
    }

    #[test]
    fn unescapes_everything() {
        assert_eq!(unescape(r#""\u00e9""#).unwrap(), "é");
        assert_eq!(unescape(r#""\ud83d\ude00""#).unwrap(), "😀");
        assert_eq!(unescape(r#""\/""#).unwrap(), "/");
        assert_eq!(unescape(r#""\u0000""#).unwrap(), "\0");
        assert_eq!(
            unescape(r#""a\"b\\c\b\f\n\r\t""#).unwrap(),
            "a\"b\\c\u{8}\u{c}\n\r\t"
        );
        assert_eq!(unescape(r#""\u00E9\u4E2D""#).unwrap(), "é中");
        assert_eq!(
            unescape("\"héllo\\nwörld, long enough\"").unwrap(),
            "héllo\nwörld, long enough"
        );
    }

    #[test]
    fn rejects_bad_strings_at_the_right_byte() {
        let err = |s: &str| {
            let e = unescape(s).unwrap_err();
            (e.message(), e.offset())
        };
        let lone = "lone surrogate in \\u escape".to_string();
        assert_eq!(err(r#""\ud800""#), (lone.clone(), 7));
        assert_eq!(err(r#""\udc00""#), (lone.clone(), 1));
        assert_eq!(err(r#""\ud800\u0041""#), (lone, 7));
        assert_eq!(err(r#""\x""#), ("invalid escape".into(), 2));
        assert_eq!(err(r#""\u12G4""#), ("invalid escape".into(), 5));
        assert_eq!(
            err("\"raw\u{1c}tl\""),
            ("control character in string".into(), 4)
        );
        assert_eq!(err("\"abc"), ("unexpected end of input".into(), 4));
        assert_eq!(err("\"\\u12"), ("unexpected end of input".into(), 5));
    }

    #[test]
    fn rejects_invalid_utf8_at_the_first_bad_byte() {
        for (bad, at) in [
            (&b"\"abc\xFFdef\""[..], 4),
            (b"\"a\\n\xED\xA0\x80\"", 4),
            (b"\"a\\n\xC3", 4),
            (b"\"long enough to take the word path \xC3(\"", 35),
        ] {
            let text = valid_prefix(bad);
            let e = skip_string(bad, text, 1).unwrap_err();
            assert_eq!((e.message().as_str(), e.offset()), ("invalid UTF-8", at));
            let i = find_special(bad, 1);
            let e = finish_string(bad, text, 1, i, &mut String::new()).unwrap_err();
            assert_eq!(e.offset(), at);
        }
        // A control byte before the bad byte is reported first.
        let bad = b"\"a\x01\xFF\"";
        let e = skip_string(bad, valid_prefix(bad), 1).unwrap_err();
        assert_eq!(e.message(), "control character in string");
    }
}
