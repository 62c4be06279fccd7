//! The three places the JSON backend makes text without the standard library's UTF-8 check:
//! re-formatted text (prettify, minify) turned back into a `String` without validating it a
//! second time (checking it again with `String::from_utf8` cost 40% of prettifying the
//! non-ASCII `strings` benchmark document); a short input found to be all ASCII by word ORs
//! (4% of reading a 130-byte JSON-RPC message, against `simdutf8`'s dispatch and setup;
//! `str::is_ascii` there was 10% slower instead); and a short string of the canonical-layout
//! reader, whose closing quote a byte comparison each finds and whose ASCII bytes one block's
//! mask shows, with no pass over the text to check its UTF-8.

/// The text of the JSON string whose opening quote `s` follows, and its length, when its
/// closing quote is among the first sixteen bytes of `s` and nothing before it is escaped, a
/// control character or not ASCII. `None` for anything else (a longer string, an escape,
/// non-ASCII text, fewer than sixteen bytes left), which the caller reads the general way.
///
/// The closing quote is found by comparing the bytes one by one, which the compiler unrolls
/// into a branch per byte, so that the length comes from predicted branches: the reader's
/// next position is known without waiting for a block's mask (with `trailing_zeros` of the
/// mask instead, each string of a canonical `tools/call` added that mask's latency to the
/// message: 33.5 ns against 28 for the struct of its shape). One mask of the block (quote,
/// backslash, control character or high bit) then checks, off that path, that the quote is
/// the first of those bytes.
#[inline(always)]
pub(crate) fn short_ascii_string(s: &[u8]) -> Option<(&str, usize)> {
    use crate::simd::json_scan::{high_bits16, special_bits16};
    let block: &[u8; 16] = s.get(..16)?.try_into().ok()?;
    let mut end = 0;
    while end < 16 && block[end] != b'"' {
        end += 1;
    }
    if end == 16 {
        return None;
    }
    let stops = special_bits16(block) | high_bits16(block);
    if stops.trailing_zeros() as usize != end {
        return None;
    }
    let text = &block[..end];
    // SAFETY: `text` is the bytes of `block` before index `end` (below 16 here). Bit `k` of
    // `special_bits16 | high_bits16` is set exactly when byte `k` is a quote, a backslash, a
    // control character or has its high bit set (the SIMD and SWAR versions are tested
    // against a byte-by-byte reference); its lowest set bit is `end`, so no byte of `text` has
    // its high bit set: every byte is ASCII, which is valid UTF-8.
    Some((unsafe { std::str::from_utf8_unchecked(text) }, end))
}

/// `s` as text if every byte is ASCII, checked sixteen bytes at a time (one vector OR each,
/// the last sixteen overlapping the ones before); `None` otherwise.
#[inline(always)]
pub(crate) fn ascii_str(s: &[u8]) -> Option<&str> {
    const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    let n = s.len();
    let high = if n >= 16 {
        let block = |i: usize| {
            let mut a = [0u8; 16];
            a.copy_from_slice(&s[i..i + 16]);
            u128::from_le_bytes(a)
        };
        let mut acc = block(n - 16);
        let mut i = 0;
        while i + 16 < n {
            acc |= block(i);
            i += 16;
        }
        acc & HIGH != 0
    } else if n >= 8 {
        let word = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&s[i..i + 8]);
            u64::from_le_bytes(a)
        };
        (word(0) | word(n - 8)) & HIGH as u64 != 0
    } else {
        s.iter().fold(0u8, |t, &b| t | b) >= 0x80
    };
    if high {
        return None;
    }
    // SAFETY: every byte of `s` was ORed into the value tested above (sixteen-byte blocks from
    // the start and the last sixteen bytes; or the first and last eight bytes, which cover
    // eight to fifteen; or each byte), and no byte had its high bit set: every byte is ASCII,
    // and a string of ASCII bytes is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(s) })
}

/// Makes a `String` of `v`, which the caller has built only by appending whole `&str` pieces
/// and ASCII bytes (and truncating at lengths it had written, i.e. at piece boundaries).
#[inline]
pub(crate) fn string_of_pieces(v: Vec<u8>) -> String {
    debug_assert!(std::str::from_utf8(&v).is_ok());
    // SAFETY: every byte of `v` comes from a `&str` appended whole or is ASCII, and `v` was only
    // cut back to lengths it had at the end of such a piece, so `v` is a concatenation of
    // valid UTF-8 strings, which is valid UTF-8. The prettify and minify emitters are the only
    // callers; they append through `Out for Vec<u8>` (`push_str`, `push_small`, `push_ascii`
    // with ASCII punctuation, and spaces/newlines). Their fast path (`reformat.rs`) runs only
    // on input that is valid UTF-8 as a whole and writes that input with ASCII whitespace
    // left out and ASCII punctuation put in next to ASCII bytes (never inside a character), so
    // its output is valid UTF-8 too; on rejection its bytes are cut off before the walk runs.
    unsafe { String::from_utf8_unchecked(v) }
}

#[cfg(test)]
mod tests {
    use super::{ascii_str, short_ascii_string};

    /// What [`short_ascii_string`] gives, byte by byte: the first quote among sixteen bytes,
    /// with only plain ASCII (no backslash, no control character) before it.
    fn reference(s: &[u8]) -> Option<(&str, usize)> {
        if s.len() < 16 {
            return None;
        }
        let end = s[..16].iter().position(|&b| b == b'"')?;
        let text = &s[..end];
        let plain = text
            .iter()
            .all(|&b| (0x20..0x80).contains(&b) && b != b'\\');
        plain.then(|| (std::str::from_utf8(text).unwrap(), end))
    }

    #[test]
    fn short_ascii_string_matches_the_byte_reference() {
        let odd = [b'"', b'\\', 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, b' '];
        for len in 0..20usize {
            for quote in 0..len.min(18) + 1 {
                for at in 0..len {
                    for &b in &odd {
                        let mut v: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                        if quote < len {
                            v[quote] = b'"';
                        }
                        v[at] = b;
                        assert_eq!(
                            short_ascii_string(&v),
                            reference(&v),
                            "length {len}, quote at {quote}, {b:#x} at {at}"
                        );
                    }
                }
            }
        }
        assert_eq!(
            short_ascii_string(b"add\",\"arguments\":{"),
            Some(("add", 3))
        );
        assert_eq!(
            short_ascii_string(b"fifteen bytes..\"x"),
            Some(("fifteen bytes..", 15))
        );
        assert_eq!(short_ascii_string(b"sixteen bytes...\""), None);
    }

    #[test]
    fn ascii_str_finds_a_high_byte_at_every_position() {
        for n in 0..70usize {
            let clean: Vec<u8> = (0..n).map(|i| b' ' + (i % 90) as u8).collect();
            assert_eq!(ascii_str(&clean), std::str::from_utf8(&clean).ok());
            for at in 0..n {
                for high in [0x80u8, 0xC3, 0xFF] {
                    let mut v = clean.clone();
                    v[at] = high;
                    assert_eq!(ascii_str(&v), None, "length {n}, byte {at}");
                }
            }
        }
    }
}
