//! Many short strings validated as UTF-8 with one validator call: the path for processors
//! without AVX2 (with it, [`crate::simd::utf8::avx2`] checks each string in place).
//!
//! A string array holds `SIZE | UTF-8` elements; its SIZE bytes are arbitrary bytes, so the
//! region from the first string's data to the last one's is not UTF-8 itself. This module copies
//! such a region (at most [`CHUNK`] bytes) into a stack buffer, overwrites the bytes between the
//! strings with zeros, and validates the buffer once. A zero byte is a complete character, so
//! the buffer is valid exactly when every string is valid on its own (a character cut at a
//! string's end, or a continuation byte at its start, meets a zero and fails). One call over a
//! few KiB costs far less than one call per string of 50-150 bytes, where the validator's setup
//! and its padded tail block dominate.
//!
//! The strings are then handed out as slices of the input; that they are valid is known from
//! the buffer, whose bytes are equal, which is the one unsafe step (`from_utf8_unchecked`).

use std::mem::MaybeUninit;

/// Largest region validated at once (the buffer lives on the stack).
pub(crate) const CHUNK: usize = 4096;

/// Validates the strings `input[start + a..start + b]` for each `(a, b)` in `spans` (in
/// increasing order with at least one byte between two spans, all within [`CHUNK`] bytes of
/// `start`), then calls `each(k, text)` for each in order. `Ok(false)` (and no call) when one is
/// not valid UTF-8, or when the spans break those rules.
#[inline]
pub(crate) fn each_valid<'a, E>(
    input: &'a [u8],
    start: usize,
    spans: &[(u16, u16)],
    mut each: impl FnMut(usize, &'a str) -> Result<(), E>,
) -> Result<bool, E> {
    let Some(&(_, end)) = spans.last() else {
        return Ok(true);
    };
    let end = usize::from(end);
    let Some(region) = input.get(start..).and_then(|r| r.get(..end)) else {
        return Ok(false);
    };
    if end > CHUNK {
        return Ok(false);
    }
    let mut store = [MaybeUninit::<u8>::uninit(); CHUNK];
    let buf = copy_into(&mut store, region);
    // Zero the bytes between consecutive strings (their SIZEs, one or two bytes as a rule).
    let mut prev = 0;
    for (k, &(a, b)) in spans.iter().enumerate() {
        let (a, b) = (usize::from(a), usize::from(b));
        if (k > 0 && a <= prev) || b < a {
            return Ok(false);
        }
        match a - prev {
            0 => {}
            1 => buf[prev] = 0,
            2 => {
                buf[prev] = 0;
                buf[prev + 1] = 0;
            }
            _ => buf[prev..a].fill(0),
        }
        prev = b;
    }
    if crate::beve::transcode::utf8(buf, start).is_err() {
        return Ok(false);
    }
    for (k, &(a, b)) in spans.iter().enumerate() {
        let bytes = &region[usize::from(a)..usize::from(b)];
        // SAFETY: `bytes` is valid UTF-8. `buf` is a copy of `region` in which only bytes
        // outside every span were changed, to zero (the spans are increasing with a gap between
        // any two, checked above), and `buf` was validated. So `bytes` appears unchanged in the
        // valid `buf`, preceded by a zero byte or the start of `buf` and followed by a zero byte
        // or its end: a zero byte is a complete character, so no character of `buf` straddles
        // the ends of `bytes`, and a run of complete characters of valid UTF-8 is valid UTF-8.
        let t = unsafe { std::str::from_utf8_unchecked(bytes) };
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        each(k, t)?;
    }
    Ok(true)
}

/// Copies `src` (at most `store.len()` bytes) into the start of `store` and returns that
/// initialised prefix.
#[inline(always)]
fn copy_into<'s>(store: &'s mut [MaybeUninit<u8>; CHUNK], src: &[u8]) -> &'s mut [u8] {
    assert!(src.len() <= CHUNK);
    // SAFETY: `store` has room for `src.len()` bytes (asserted) and cannot overlap `src` (it is
    // borrowed mutably); after the copy those bytes are initialised, so viewing them as `[u8]`
    // for the lifetime of the mutable borrow of `store` is sound.
    unsafe {
        std::ptr::copy_nonoverlapping(src.as_ptr(), store.as_mut_ptr().cast::<u8>(), src.len());
        std::slice::from_raw_parts_mut(store.as_mut_ptr().cast::<u8>(), src.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8], spans: &[(usize, usize)]) -> Option<Vec<String>> {
        let start = spans.first().map_or(0, |s| s.0);
        let rel: Vec<(u16, u16)> = spans
            .iter()
            .map(|&(a, b)| ((a - start) as u16, (b - start) as u16))
            .collect();
        let mut out = Vec::new();
        let ok = each_valid::<()>(input, start, &rel, |k, s| {
            assert_eq!(k, out.len());
            out.push(s.to_string());
            Ok(())
        })
        .unwrap();
        ok.then_some(out)
    }

    #[test]
    fn strings_between_arbitrary_bytes() {
        // Separators that are themselves invalid UTF-8 (0xFF, a lone continuation byte).
        let input = b"\xFFab\xC3\xA9\x81\xA9x\xF0\x9F\x98\x80\xFF";
        let spans = [(1, 5), (6, 6), (7, 12)];
        assert_eq!(run(input, &spans).unwrap(), ["ab\u{e9}", "", "x\u{1F600}"]);
    }

    #[test]
    fn a_string_cut_inside_a_character_is_invalid() {
        // "é" split by a separator byte: each part is invalid alone.
        let input = b"a\xC3\x00\xA9b";
        assert!(run(input, &[(0, 2), (3, 5)]).is_none());
        assert!(run(input, &[(0, 2)]).is_none());
        assert!(run(input, &[(3, 5)]).is_none());
        assert_eq!(run(input, &[(0, 1), (4, 5)]).unwrap(), ["a", "b"]);
        // A whole character swallowed by the gap is fine.
        assert_eq!(run(b"a\xC3\xA9b", &[(0, 1), (3, 4)]).unwrap(), ["a", "b"]);
    }

    #[test]
    fn bad_spans_are_refused() {
        let input = b"abcdef";
        assert!(run(input, &[(2, 4), (3, 5)]).is_none());
        // Adjacent spans (no byte between them) are refused: their boundary is unchecked.
        assert!(run(b"a\xC3\xA9b", &[(0, 2), (2, 4)]).is_none());
        assert!(run(b"ab", &[(0, 1), (1, 2)]).is_none());
        assert!(each_valid::<()>(input, 1, &[(2, 1)], |_, _| Ok(())) == Ok(false));
        assert!(run(input, &[(0, 7)]).is_none());
        let big = vec![b'a'; CHUNK + 1];
        assert!(run(&big, &[(0, CHUNK + 1)]).is_none());
        assert_eq!(run(&big, &[(1, CHUNK + 1)]).unwrap()[0].len(), CHUNK);
        assert_eq!(run(input, &[]).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn long_mixed_text_agrees_with_std() {
        let text = "\u{1F600}abc\u{e9}\u{4e2d}".repeat(100);
        let bytes = text.as_bytes();
        for cut in [0, 1, 2, 3, 4, 5, 9, 100, bytes.len() - 1] {
            // The two parts with an invalid separator byte between them.
            let mut input = bytes[..cut].to_vec();
            input.push(0xBF);
            input.extend_from_slice(&bytes[cut..]);
            let spans = [(0, cut), (cut + 1, input.len())];
            let want = std::str::from_utf8(&bytes[..cut]).is_ok()
                && std::str::from_utf8(&bytes[cut..]).is_ok();
            let bytes = &input[..];
            assert_eq!(run(bytes, &spans).is_some(), want, "{cut}");
        }
    }
}
