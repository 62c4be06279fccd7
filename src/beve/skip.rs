//! Skipping values: the transcoding walk into a writer that discards everything, so skipping
//! checks exactly what transcoding checks (headers, lengths, UTF-8, reserved bits, depth).

use super::header::{self, invalid, major};
use super::transcode::{sized_str, take, walk};
use crate::error::Result;
use crate::number::{NumKind, Number};
use crate::reflect::{KeyKind, Writer};

/// A writer that drops everything it is given.
pub(crate) struct Discard;

impl Writer for Discard {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write_null_members(&self) -> bool {
        false
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn discards(&self) -> bool {
        true
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn null(&mut self) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bool(&mut self, _: bool) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn number<N: Number>(&mut self, _: N) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn str(&mut self, _: &str) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_array(&mut self, _: usize) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_array(&mut self) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_map(&mut self, _: usize, _: KeyKind) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn key(&mut self, _: &str) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn int_key<N: Number>(&mut self, _: N) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn enum_key(&mut self, _: &str, _: i128, _: NumKind) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_object(&mut self) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn sep(&mut self) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn typed_array<N: Number>(&mut self, _: &[N]) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, _: I) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, _: I) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, _: I) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn unit_variant(&mut self, _: &str, _: i128, _: NumKind) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn raw_json(&mut self, _: &str) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn raw_beve(&mut self, _: &[u8]) {}
}

/// Skips the value at `pos`, inside `open` levels of nesting, with at most `max_depth` levels
/// in all; returns the offset after it.
#[inline]
pub(crate) fn skip(input: &[u8], pos: usize, open: usize, max_depth: usize) -> Result<usize> {
    walk(input, pos, &mut Discard, open, max_depth)
}

/// Skips an element of a typed, bool or string array whose implicit header is `h` (the
/// element itself has none) and whose payload starts at `pos`.
#[inline]
pub(crate) fn skip_element(input: &[u8], mut pos: usize, h: u8) -> Result<usize> {
    match major(h) {
        header::MAJOR_NULL_BOOL => Ok(pos),
        header::MAJOR_NUMBER => {
            let k = super::transcode::num_kind(h, pos)?;
            take(input, pos, k.size(), pos)?;
            Ok(pos + k.size())
        }
        header::MAJOR_STRING => {
            sized_str(input, &mut pos)?;
            Ok(pos)
        }
        _ => Err(invalid(h, pos)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip_all(b: &[u8]) -> Result<usize> {
        skip(b, 0, 0, 256)
    }

    #[test]
    fn skips_every_kind_of_value() {
        let cases: &[&[u8]] = &[
            &[0x00],
            &[0x18],
            &[0x61, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F],
            &[0x02, 0x08, b'h', b'i'],
            &[0x03, 0x04, 0x04, b'k', 0x05, 0x04, 0x00],
            &[0x0B, 0x04, 0xFF, 0x09, 0x01],
            &[0x34, 0x08, 1, 0, 2, 0],
            &[0x5C, 0x64, 0x04, 0x04, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8],
            &[0x1C, 0x24, 0x0D, 0x01],
            &[0x3C, 0x08, 0x04, b'a', 0x00],
            &[0x0E, 0x04, 0x18],
            &[0x1E, 0x40, 0, 0, 0, 0, 0, 0, 0, 0],
            &[0x1E, 0x41, 0x04, 0, 0, 0, 0, 0, 0, 0, 0],
            &[
                0x16, 0x00, 0x74, 0x08, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x44, 0x04,
                0, 0, 0x80, 0x3F,
            ],
        ];
        for c in cases {
            assert_eq!(skip_all(c).unwrap(), c.len(), "{c:02X?}");
            for cut in 0..c.len() {
                let e = skip_all(&c[..cut]).unwrap_err();
                assert!(e.is_eof(), "{:02X?}: {e}", &c[..cut]);
            }
        }
    }

    #[test]
    fn rejects_malformed_values() {
        let cases: &[(&[u8], &str)] = &[
            (&[0x07], "invalid header byte 0x07"),
            (&[0x10], "invalid header byte 0x10"),
            (&[0x0A, 0x00], "invalid header byte 0x0A"),
            (&[0x06], "data delimiter (0x06) inside a value"),
            (&[0x26, 0x00], "invalid header byte 0x26"),
            (&[0x7C, 0x00], "invalid header byte 0x7C"),
            (&[0x1B, 0x00], "invalid header byte 0x1B"),
            (&[0xA1, 0x00], "invalid header byte 0xA1"),
            (&[0x81, 0x00], "f128 numbers are not supported"),
            (&[0x02, 0x04, 0xFF], "invalid UTF-8"),
            (&[0x1C, 0x04, 0x02], "unused bits must be zero"),
            (
                &[0x5C, 0x64, 0x00, 0x08],
                "aligned array padding must be smaller than the element",
            ),
            (&[0x5C, 0x1C, 0x00, 0x00], "invalid header byte 0x1C"),
            (&[0x5C, 0x61, 0x00, 0x00], "invalid header byte 0x61"),
            (&[0x16, 0x02], "unused bits must be zero"),
            (&[0x1E, 0x43, 0x00], "invalid header byte 0x43"),
            (&[0x05, 0x04, 0x06], "data delimiter (0x06) inside a value"),
        ];
        for (c, msg) in cases {
            let e = skip_all(c).unwrap_err();
            assert_eq!(e.message(), *msg, "{c:02X?}");
        }
    }

    #[test]
    fn hostile_counts_are_errors_without_allocation() {
        // 2^62 - 1 elements of every container kind, in a few bytes.
        let big = [0xFFu8; 8];
        for h in [0x05u8, 0x03, 0x73, 0x64, 0x1C, 0x3C] {
            let mut b = vec![h];
            b.extend_from_slice(&big);
            b.push(0);
            let e = skip_all(&b).unwrap_err();
            assert!(e.is_eof(), "{h:02X}: {e}");
        }
        // Count * 16 would overflow usize.
        let mut b = vec![0x8Cu8];
        b.extend_from_slice(&big);
        assert!(skip_all(&b).unwrap_err().is_eof());
        let mut b = vec![0x1E, 0x89];
        b.extend_from_slice(&big);
        assert!(skip_all(&b).unwrap_err().is_eof());
    }

    #[test]
    fn depth_is_limited_without_recursion() {
        let deep = [0x05, 0x04].repeat(100_000);
        let e = skip_all(&deep).unwrap_err();
        assert_eq!(e.message(), "nesting deeper than the limit of 256");
        assert_eq!(e.offset(), 512);
        // A huge limit is honoured without overflowing the stack.
        let mut ok = deep.clone();
        ok.push(0x00);
        assert_eq!(skip(&ok, 0, 0, usize::MAX).unwrap(), ok.len());
        // Exactly at the limit is fine.
        let mut at_limit = [0x05, 0x04].repeat(256);
        at_limit.push(0x00);
        assert_eq!(skip_all(&at_limit).unwrap(), at_limit.len());
        at_limit.pop();
        at_limit.extend_from_slice(&[0x05, 0x00]);
        assert!(skip_all(&at_limit).is_err());
        // Type tags nest too.
        let tags = [0x0E, 0x00].repeat(1000);
        assert!(skip_all(&tags).is_err());
    }

    #[test]
    fn elements_without_headers() {
        let b = [1, 2, 3, 4, 0x08, b'h', b'i'];
        assert_eq!(skip_element(&b, 0, 0x51).unwrap(), 4);
        assert_eq!(skip_element(&b, 4, 0x02).unwrap(), 7);
        assert_eq!(skip_element(&b, 4, 0x18).unwrap(), 4);
        assert!(skip_element(&b, 5, 0x71).unwrap_err().is_eof());
    }
}
