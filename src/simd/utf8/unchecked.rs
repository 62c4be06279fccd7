//! The two places the JSON backend makes text without the standard library's UTF-8 check:
//! re-formatted text (prettify, minify) turned back into a `String` without validating it a
//! second time (checking it again with `String::from_utf8` cost 40% of prettifying the
//! non-ASCII `strings` benchmark document), and a short input found to be all ASCII by word
//! ORs (4% of reading a 130-byte JSON-RPC message, against `simdutf8`'s dispatch and setup;
//! `str::is_ascii` there was 10% slower instead).

/// `s` as text if every byte is ASCII, checked eight bytes at a time; `None` otherwise.
#[inline(always)]
pub(crate) fn ascii_str(s: &[u8]) -> Option<&str> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
    let mut acc = 0u64;
    let mut pairs = s.chunks_exact(16);
    for p in &mut pairs {
        acc |= word(&p[..8]) | word(&p[8..]);
    }
    let mut words = pairs.remainder().chunks_exact(8);
    for w in &mut words {
        acc |= word(w);
    }
    let tail = words.remainder().iter().fold(0u8, |t, &b| t | b);
    if acc & HIGH != 0 || tail >= 0x80 {
        return None;
    }
    // SAFETY: the loops above OR every byte of `s` into `acc` (sixteen- and eight-byte chunks)
    // or `tail` (the last seven or fewer), and no byte had its high bit set: every byte is
    // ASCII, and a string of ASCII bytes is valid UTF-8.
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
    use super::ascii_str;

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
