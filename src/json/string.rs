//! JSON strings: escaping on write, validation and unescaping on read.
//!
//! Both directions look for the same three kinds of byte: `"`, `\` and the control bytes below
//! 0x20. They scan eight bytes at a time (SWAR on a little-endian `u64`, so the code is
//! endian-neutral) and copy the clean runs between those bytes in bulk.

use crate::error::{Code, Error, Result};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const QUOTES: u64 = ONES * b'"' as u64;
const BACKSLASHES: u64 = ONES * b'\\' as u64;
const SPACES: u64 = ONES * 0x20;

/// The high bit of each byte of `w` that is `"`, `\` or below 0x20. Only the lowest flagged
/// byte is exact (a borrow can flag bytes above a true hit), which is all the scanners use.
#[inline(always)]
fn special_mask(w: u64) -> u64 {
    let q = w ^ QUOTES;
    let b = w ^ BACKSLASHES;
    ((q.wrapping_sub(ONES) & !q) | (b.wrapping_sub(ONES) & !b) | (w.wrapping_sub(SPACES) & !w))
        & HIGHS
}

/// Whether `b` must be escaped in a JSON string (or ends an unescaped run when reading).
#[inline(always)]
pub(crate) fn is_special(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Loads eight bytes at `i` (the caller guarantees `i + 8 <= s.len()`).
#[inline(always)]
fn load8(s: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&s[i..i + 8]);
    u64::from_le_bytes(a)
}

/// The index of the first `"`, `\` or control byte in `s` at or after `i` (`s.len()` if none).
/// `high` collects the bytes passed over, so `high & 0x80..80 != 0` tells whether a non-ASCII
/// byte may be among them (it can also see a few bytes past the result: a false positive only
/// costs a UTF-8 check).
#[inline(always)]
pub(crate) fn find_special(s: &[u8], mut i: usize, high: &mut u64) -> usize {
    while i + 8 <= s.len() {
        let w = load8(s, i);
        *high |= w;
        let m = special_mask(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < s.len() {
        let b = s[i];
        *high |= b as u64;
        if is_special(b) {
            return i;
        }
        i += 1;
    }
    i
}

/// Whether a value collected by [`find_special`] saw a byte >= 0x80.
#[inline(always)]
pub(crate) fn saw_non_ascii(high: u64) -> bool {
    high & HIGHS != 0
}

/// `\u00XX` escapes for the control bytes without a short form, and the short forms.
#[inline]
fn push_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0C => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => 0,
    };
    if short != 0 {
        out.extend_from_slice(&[b'\\', short]);
    } else {
        out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[(b >> 4) as usize],
            HEX[(b & 15) as usize],
        ]);
    }
}

/// Appends `s` as a quoted JSON string: `"` and `\` and the control bytes are escaped (`\b \f
/// \n \r \t`, others `\u00XX` in upper-case hex); `/`, DEL and non-ASCII text are written raw.
#[inline]
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    let s = s.as_bytes();
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut run = 0;
    let mut i = 0;
    while i + 8 <= s.len() {
        let m = special_mask(load8(s, i));
        if m == 0 {
            i += 8;
            continue;
        }
        let j = i + (m.trailing_zeros() / 8) as usize;
        out.extend_from_slice(&s[run..j]);
        push_escape(out, s[j]);
        i = j + 1;
        run = i;
    }
    if i < s.len() {
        write_tail(out, s, run, i);
    } else {
        out.extend_from_slice(&s[run..]);
    }
    out.push(b'"');
}

/// The last (fewer than eight) bytes of [`write_str`], scanned through one padded word.
#[inline]
fn write_tail(out: &mut Vec<u8>, s: &[u8], mut run: usize, mut i: usize) {
    loop {
        // Pad with spaces, which need no escape.
        let mut a = [b' '; 8];
        a[..s.len() - i].copy_from_slice(&s[i..]);
        let m = special_mask(u64::from_le_bytes(a));
        if m == 0 {
            break;
        }
        let j = i + (m.trailing_zeros() / 8) as usize;
        out.extend_from_slice(&s[run..j]);
        push_escape(out, s[j]);
        i = j + 1;
        run = i;
        if i == s.len() {
            break;
        }
    }
    out.extend_from_slice(&s[run..]);
}

/// Checks that `bytes`, found at `offset` in the input, are UTF-8.
#[inline]
pub(crate) fn check_utf8(bytes: &[u8], offset: usize) -> Result<&str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(_) => Err(utf8_error(bytes, offset)),
    }
}

/// The error for invalid UTF-8, at the first bad byte.
#[cold]
#[inline(never)]
fn utf8_error(bytes: &[u8], offset: usize) -> Error {
    let at = match std::str::from_utf8(bytes) {
        Ok(_) => 0,
        Err(e) => e.valid_up_to(),
    };
    Error::new(Code::InvalidUtf8, offset + at)
}

/// Where unescaped text goes: a buffer, or nowhere when a string is only being validated.
pub(crate) trait Sink {
    /// Appends bytes.
    fn extend(&mut self, bytes: &[u8]);
    /// Appends one byte.
    fn push(&mut self, b: u8);
}

impl Sink for Vec<u8> {
    #[inline(always)]
    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    #[inline(always)]
    fn push(&mut self, b: u8) {
        Vec::push(self, b);
    }
}

/// A sink that keeps nothing, for validating strings that are skipped.
pub(crate) struct Discard;

impl Sink for Discard {
    #[inline(always)]
    fn extend(&mut self, _: &[u8]) {}
    #[inline(always)]
    fn push(&mut self, _: u8) {}
}

/// Finishes a string whose clean prefix is `s[run..i]` (`high` from [`find_special`] covering
/// it) and whose byte `i` is special: validates the rest, unescapes it into `out`, and returns
/// the index just past the closing quote.
#[inline]
pub(crate) fn finish_string<S: Sink>(
    s: &[u8],
    mut run: usize,
    mut i: usize,
    mut high: u64,
    out: &mut S,
) -> Result<usize> {
    loop {
        let chunk = &s[run..i];
        if saw_non_ascii(high) {
            check_utf8(chunk, run)?;
        }
        out.extend(chunk);
        match s.get(i) {
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => i = unescape_one(s, i, out)?,
            Some(_) => return Err(Error::new(Code::ControlCharacter, i)),
            None => return Err(Error::new(Code::UnexpectedEnd, s.len())),
        }
        run = i;
        high = 0;
        i = find_special(s, i, &mut high);
    }
}

/// Validates the string starting after its opening quote at `start` without keeping it;
/// returns the index past the closing quote.
#[inline]
pub(crate) fn skip_string(s: &[u8], start: usize) -> Result<usize> {
    let mut high = 0;
    let i = find_special(s, start, &mut high);
    if s.get(i) == Some(&b'"') {
        if saw_non_ascii(high) {
            check_utf8(&s[start..i], start)?;
        }
        return Ok(i + 1);
    }
    finish_string(s, start, i, high, &mut Discard)
}

/// Decodes the escape whose backslash is at `i` into `out`; returns the index after it.
#[inline]
fn unescape_one<S: Sink>(s: &[u8], i: usize, out: &mut S) -> Result<usize> {
    let Some(&e) = s.get(i + 1) else {
        return Err(Error::new(Code::UnexpectedEnd, s.len()));
    };
    let b = match e {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0C,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'u' => return unescape_unicode(s, i, out),
        _ => return Err(Error::new(Code::InvalidEscape, i + 1)),
    };
    out.push(b);
    Ok(i + 2)
}

/// Decodes `\uXXXX` (and the low half of a surrogate pair after it) at `i`.
#[cold]
#[inline(never)]
fn unescape_unicode<S: Sink>(s: &[u8], i: usize, out: &mut S) -> Result<usize> {
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
    let ch = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
    let mut buf = [0u8; 4];
    out.extend(ch.encode_utf8(&mut buf).as_bytes());
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
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escapes_match_glaze_with_control_escaping() {
        assert_eq!(esc("a/b"), r#""a/b""#);
        assert_eq!(esc("a\\b"), r#""a\\b""#);
        assert_eq!(esc("a\"b"), r#""a\"b""#);
        assert_eq!(esc("\u{8}\u{c}\n\r\t"), r#""\b\f\n\r\t""#);
        assert_eq!(esc("\0"), r#""\u0000""#);
        assert_eq!(esc("\u{1}"), r#""\u0001""#);
        assert_eq!(esc("\u{1f}"), r#""\u001F""#);
        assert_eq!(esc("\u{7f}"), "\"\u{7f}\"");
        assert_eq!(esc("é中😀\u{2028}\u{2029}<>&"), "\"é中😀\u{2028}\u{2029}<>&\"");
        assert_eq!(esc(""), r#""""#);
    }

    #[test]
    fn escapes_at_every_position_of_long_strings() {
        for len in 0..40 {
            for pos in 0..len {
                for special in ['"', '\\', '\n', '\u{1}'] {
                    let mut s: String = "x".repeat(len);
                    s.replace_range(pos..pos + 1, &special.to_string());
                    let expect = format!("\"{}\"", s.escape_json_like());
                    assert_eq!(esc(&s), expect, "len {len} pos {pos}");
                }
            }
        }
    }

    trait EscapeJsonLike {
        fn escape_json_like(&self) -> String;
    }

    impl EscapeJsonLike for String {
        fn escape_json_like(&self) -> String {
            let mut o = String::new();
            for c in self.chars() {
                match c {
                    '"' => o.push_str("\\\""),
                    '\\' => o.push_str("\\\\"),
                    '\n' => o.push_str("\\n"),
                    '\u{1}' => o.push_str("\\u0001"),
                    c => o.push(c),
                }
            }
            o
        }
    }

    fn unescape(s: &str) -> Result<String> {
        let b = s.as_bytes();
        assert_eq!(b[0], b'"');
        let mut high = 0;
        let i = find_special(b, 1, &mut high);
        let mut out = Vec::new();
        let end = finish_string(b, 1, i, high, &mut out)?;
        assert_eq!(end, b.len());
        assert_eq!(skip_string(b, 1)?, end);
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn unescapes_everything() {
        assert_eq!(unescape(r#""\u00e9""#).unwrap(), "é");
        assert_eq!(unescape(r#""\ud83d\ude00""#).unwrap(), "😀");
        assert_eq!(unescape(r#""\/""#).unwrap(), "/");
        assert_eq!(unescape(r#""\u0000""#).unwrap(), "\0");
        assert_eq!(unescape(r#""a\"b\\c\b\f\n\r\t""#).unwrap(), "a\"b\\c\u{8}\u{c}\n\r\t");
        assert_eq!(unescape(r#""\u00E9\u4E2D""#).unwrap(), "é中");
        assert_eq!(unescape("\"héllo wörld, long enough\"").unwrap(), "héllo wörld, long enough");
    }

    #[test]
    fn rejects_bad_strings_at_the_right_byte() {
        let err = |s: &str| {
            let e = unescape(s).unwrap_err();
            (e.message(), e.offset())
        };
        assert_eq!(err(r#""\ud800""#), ("lone surrogate in \\u escape".into(), 7));
        assert_eq!(err(r#""\udc00""#), ("lone surrogate in \\u escape".into(), 1));
        assert_eq!(err(r#""\ud800\u0041""#), ("lone surrogate in \\u escape".into(), 7));
        assert_eq!(err(r#""\x""#), ("invalid escape".into(), 2));
        assert_eq!(err(r#""\u12G4""#), ("invalid escape".into(), 5));
        assert_eq!(err("\"raw\u{1c}tl\""), ("control character in string".into(), 4));
        assert_eq!(err("\"abc"), ("unexpected end of input".into(), 4));
        assert_eq!(err("\"\\u12"), ("unexpected end of input".into(), 5));
    }

    #[test]
    fn rejects_invalid_utf8() {
        let bad = b"\"abc\xFFdef\"";
        let e = skip_string(bad, 1).unwrap_err();
        assert_eq!(e.message(), "invalid UTF-8");
        assert_eq!(e.offset(), 4);
        let bad = b"\"a\\n\xED\xA0\x80\"";
        let e = skip_string(bad, 1).unwrap_err();
        assert_eq!(e.offset(), 4);
    }
}
