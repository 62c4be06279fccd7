//! The strings of a string array (`0x3C`), validated as UTF-8.
//!
//! Each element is `SIZE | UTF-8`. With AVX-512 (F, BW, VBMI; asked at run time, and built
//! with Rust 1.89 or later) each string is checked, and copied when read into a `String`, in
//! one pass of 64-byte blocks by `super::utf8::avx512`, inlined into the loop over the strings;
//! with AVX2, in 32-byte blocks by `super::utf8::avx2::valid_in`. Otherwise
//! the strings are gathered into chunks of up to
//! [`CHUNK`] bytes (from the first string's data to the last one's) and each chunk is
//! validated with one validator call (see [`super::utf8::batch`]); a string longer than a chunk
//! is validated on its own. With strings of 50 to 150 bytes this is one call per ~40 strings
//! instead of one per string. Any error (a cut SIZE or string, invalid UTF-8) is then located
//! exactly by re-reading the chunk string by string.
//!
//! Read into reused `String`s with AVX-512 or AVX2, the array is checked as one stream instead
//! (`stream`, built on x86_64 only).

#[cfg(structio_x86)]
pub(crate) mod stream;

use super::utf8::batch::{each_valid, CHUNK};
use crate::beve::length_prefix;
use crate::beve::transcode::{take, utf8};
use crate::error::{Error, Result};

/// Most strings validated at once (their ranges are kept on the stack).
const RUN: usize = 128;

/// Reads `n` strings starting at `*pos`, handing each to `each(index, text)`. An error comes
/// with the index of the string it is about.
#[inline]
pub(crate) fn items<'a>(
    input: &'a [u8],
    pos: &mut usize,
    n: usize,
    each: impl FnMut(usize, &'a str) -> Result<()>,
) -> std::result::Result<(), (Error, usize)> {
    #[cfg(all(structio_x86, structio_avx512))]
    if crate::simd::detect::has_avx512() {
        // SAFETY: the processor has what the AVX-512 check needs.
        return unsafe { items_avx512(input, pos, n, each) };
    }
    #[cfg(structio_x86)]
    if crate::simd::detect::has_avx2() {
        // SAFETY: the processor has AVX2.
        return unsafe { items_avx2(input, pos, n, each) };
    }
    items_batched(input, pos, n, each)
}

/// Reads `n` strings starting at `*pos` into `out`, reusing its strings' buffers (its length
/// becomes `n`). With AVX-512 or AVX2 the array is read as one stream
/// ([`stream`]); otherwise string by string. An error comes with the index of the
/// string it is about.
#[inline]
pub(crate) fn strings_into(
    input: &[u8],
    pos: &mut usize,
    n: usize,
    out: &mut Vec<String>,
) -> std::result::Result<(), (Error, usize)> {
    #[cfg(structio_x86)]
    {
        use stream::Kernel;
        #[cfg(structio_avx512)]
        if stream::avx512::Avx512::available() {
            // SAFETY: the processor has what the kernel needs.
            return unsafe { stream::strings_into::<stream::avx512::Avx512>(input, pos, n, out) };
        }
        if stream::avx2::Avx2::available() {
            // SAFETY: the processor has what the kernel needs.
            return unsafe { stream::strings_into::<stream::avx2::Avx2>(input, pos, n, out) };
        }
    }
    items_batched(input, pos, n, |i, s| {
        crate::reflect::string_slot(out, i).push_str(s);
        Ok(())
    })?;
    out.truncate(n);
    Ok(())
}

/// The loop over `n` strings starting at `*pos` shared by the vector `items` paths: reads each
/// SIZE and hands `(index, start, len)` to `one`, which returns whether the string is valid
/// UTF-8 (and has used it) or the error of what it did with it.
#[cfg(structio_x86)]
#[inline(always)]
fn sized_loop(
    input: &[u8],
    pos: &mut usize,
    n: usize,
    mut one: impl FnMut(usize, usize, usize) -> Result<bool>,
) -> std::result::Result<(), (Error, usize)> {
    let mut p = *pos;
    for i in 0..n {
        let at = p;
        prefetch(input, p + PREFETCH);
        let len = match length_prefix::read(input, &mut p) {
            Ok(len) => len,
            Err(e) => return Err((e, i)),
        };
        match one(i, p, len) {
            Ok(true) => {}
            Ok(false) => return Err(first_invalid(input, at, i, i + 1)),
            Err(e) => return Err((e, i)),
        }
        p += len;
    }
    *pos = p;
    Ok(())
}

/// How far ahead of the string being read [`sized_loop`] asks for the input to be brought into
/// the first-level cache, in bytes. Each SIZE's place comes from the one before, so without
/// this every string waits for its first line to come from the second-level cache; any
/// distance from 320 bytes to 2 KiB measured the same on the benchmark documents.
#[cfg(structio_x86)]
pub(super) const PREFETCH: usize = 1024;

/// Asks for the cache line holding `input[at]` (when it is inside `input`) to be brought into
/// the first-level cache; a hint only, which does nothing else.
#[cfg(structio_x86)]
#[inline(always)]
pub(super) fn prefetch(input: &[u8], at: usize) {
    if let Some(byte) = input.get(at) {
        // SAFETY: a prefetch reads nothing into the program and writes nothing; its address
        // is that of a byte of `input` all the same.
        #[allow(unused_unsafe)]
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (byte as *const u8).cast(),
            )
        };
    }
}

/// Defines `$items` ([`items`]) over the string check of module `crate::simd::utf8::$check` (its
/// `valid_in`), compiled with `$features`; callers call it only after asking the processor
/// for those features.
macro_rules! items_path {
    ($items:ident, $check:ident, $features:literal) => {
        /// [`items`] with each string checked in place by
        #[doc = concat!("`", stringify!($check), "`.")]
        /// Called only when the processor has
        #[doc = concat!("`", $features, "`.")]
        #[cfg(structio_x86)]
        #[target_feature(enable = $features)]
        fn $items<'a>(
            input: &'a [u8],
            pos: &mut usize,
            n: usize,
            mut each: impl FnMut(usize, &'a str) -> Result<()>,
        ) -> std::result::Result<(), (Error, usize)> {
            sized_loop(input, pos, n, |i, start, len| {
                // SAFETY: this function runs only with the features the check needs.
                if !unsafe { crate::simd::utf8::$check::valid_in(input, start, len) } {
                    return Ok(false);
                }
                // SAFETY: `valid_in` found `input[start..start + len]` inside `input` and
                // valid UTF-8.
                let s = unsafe { std::str::from_utf8_unchecked(&input[start..start + len]) };
                each(i, s).map(|()| true)
            })
        }
    };
}

items_path!(items_avx2, avx2, "avx2");
#[cfg(structio_avx512)]
items_path!(items_avx512, avx512, "avx512f,avx512bw,avx512vbmi,bmi2");

/// [`items`] validating up to [`CHUNK`] bytes of strings with one validator call.
fn items_batched<'a>(
    input: &'a [u8],
    pos: &mut usize,
    n: usize,
    mut each: impl FnMut(usize, &'a str) -> Result<()>,
) -> std::result::Result<(), (Error, usize)> {
    let mut i = 0;
    // Data ranges of the chunk's strings, relative to the first one's start.
    let mut spans = [(0u16, 0u16); RUN];
    while i < n {
        let first = i;
        let run_at = *pos;
        let mut p = *pos;
        let Ok(len) = length_prefix::read(input, &mut p) else {
            return Err(first_invalid(input, run_at, first, i + 1));
        };
        if take(input, p, len, run_at).is_err() {
            return Err(first_invalid(input, run_at, first, i + 1));
        }
        let start = p;
        p += len;
        i += 1;
        if len > CHUNK {
            // One long string: validated in place, one call is cheap beside its length.
            let s = utf8(&input[start..p], start).map_err(|e| (e, first))?;
            each(first, s).map_err(|e| (e, first))?;
            *pos = p;
            continue;
        }
        // `len <= CHUNK` fits in u16, and so does every end below (checked against CHUNK).
        spans[0] = (0, len as u16);
        let mut count = 1;
        while i < n && count < RUN {
            let mut q = p;
            let Ok(len) = length_prefix::read(input, &mut q) else {
                return Err(first_invalid(input, run_at, first, i + 1));
            };
            if take(input, q, len, p).is_err() {
                return Err(first_invalid(input, run_at, first, i + 1));
            }
            let end = q + len - start;
            if end > CHUNK {
                break;
            }
            spans[count] = ((q - start) as u16, end as u16);
            count += 1;
            p = q + len;
            i += 1;
        }
        let valid = each_valid(input, start, &spans[..count], |k, s| {
            each(first + k, s).map_err(|e| (e, first + k))
        })?;
        if !valid {
            return Err(first_invalid(input, run_at, first, i));
        }
        *pos = p;
    }
    Ok(())
}

/// The error for the first invalid string among strings `from..to` starting at `pos`.
#[cold]
#[inline(never)]
fn first_invalid(input: &[u8], mut pos: usize, from: usize, to: usize) -> (Error, usize) {
    for k in from..to {
        match crate::beve::transcode::sized_str(input, &mut pos) {
            Ok(_) => {}
            Err(e) => return (e, k),
        }
    }
    // The run was invalid, so one of its strings is; kept as an error all the same.
    (
        Error::new(crate::error::Code::InvalidUtf8, pos),
        to.saturating_sub(1),
    )
}

#[cfg(test)]
mod tests {
    #[cfg(structio_x86)]
    use super::stream::avx2::Avx2;
    #[cfg(all(structio_x86, structio_avx512))]
    use super::stream::avx512::Avx512;
    use super::*;

    fn array(strs: &[&[u8]]) -> Vec<u8> {
        let mut b = Vec::new();
        for s in strs {
            length_prefix::write(&mut b, s.len());
            b.extend_from_slice(s);
        }
        b
    }

    type Outcome = std::result::Result<Vec<String>, (String, usize, usize)>;

    /// The strings of `b` as each path reads them: `items` (with a check that it ends at the
    /// end of `b`) or `strings_into` (into a vector of used strings).
    fn by_items<'a>(
        b: &'a [u8],
        n: usize,
        items: impl FnOnce(
            &'a [u8],
            &mut usize,
            usize,
            &mut dyn FnMut(usize, &'a str) -> Result<()>,
        ) -> std::result::Result<(), (Error, usize)>,
    ) -> Outcome {
        let mut out = Vec::new();
        let mut pos = 0;
        items(b, &mut pos, n, &mut |_, s| {
            out.push(s.to_string());
            Ok(())
        })
        .map_err(|(e, k)| (e.message(), e.offset(), k))?;
        assert_eq!(pos, b.len());
        Ok(out)
    }

    fn by_strings_into(
        b: &[u8],
        n: usize,
        read: impl FnOnce(
            &[u8],
            &mut usize,
            usize,
            &mut Vec<String>,
        ) -> std::result::Result<(), (Error, usize)>,
    ) -> Outcome {
        let mut out: Vec<String> = ["used", "é", ""].iter().map(|s| s.repeat(9)).collect();
        let mut pos = 0;
        read(b, &mut pos, n, &mut out).map_err(|(e, k)| (e.message(), e.offset(), k))?;
        assert_eq!(pos, b.len());
        Ok(out)
    }

    /// The strings of `b` read by every path this processor can run (the batched one, and the
    /// AVX2 ones when it has AVX2), which must agree, strings or error.
    fn collect(b: &[u8], n: usize) -> Outcome {
        let want = by_items(b, n, |b, p, n, f| items_batched(b, p, n, f));
        #[cfg_attr(not(structio_x86), allow(unused_mut))]
        let mut got = vec![
            ("items", by_items(b, n, |b, p, n, f| items(b, p, n, f))),
            ("strings_into", by_strings_into(b, n, strings_into)),
        ];
        #[cfg(structio_x86)]
        {
            if crate::simd::detect::has_avx2() {
                // SAFETY: the processor has AVX2.
                let items = by_items(b, n, |b, p, n, f| unsafe { items_avx2(b, p, n, f) });
                got.push(("items_avx2", items));
                let into = by_strings_into(b, n, |b, p, n, o| {
                    // SAFETY: the processor has AVX2.
                    unsafe { super::stream::strings_into::<Avx2>(b, p, n, o) }
                });
                got.push(("stream avx2", into));
            }
            #[cfg(structio_avx512)]
            if crate::simd::detect::has_avx512() {
                // SAFETY: the processor has what the AVX-512 check needs.
                let items = by_items(b, n, |b, p, n, f| unsafe { items_avx512(b, p, n, f) });
                got.push(("items_avx512", items));
                let into = by_strings_into(b, n, |b, p, n, o| {
                    // SAFETY: the processor has what the AVX-512 check needs.
                    unsafe { super::stream::strings_into::<Avx512>(b, p, n, o) }
                });
                got.push(("stream avx512", into));
            }
        }
        for (name, outcome) in got {
            assert_eq!(outcome, want, "{name}");
        }
        want
    }

    #[test]
    fn strings_across_ascii_and_non_ascii_sizes() {
        // Lengths 31 (ASCII SIZE), 32 (SIZE 0x80), 64 (SIZE 0x01 0x01), 96 (0x81 0x01).
        let texts: Vec<String> = [31, 32, 64, 96, 5, 0, 40]
            .iter()
            .map(|&n| "é".repeat(n / 2) + &"x".repeat(n % 2))
            .collect();
        let refs: Vec<&[u8]> = texts.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(collect(&array(&refs), refs.len()).unwrap(), texts);
    }

    #[test]
    fn a_character_split_across_two_strings_is_invalid() {
        // Each half is invalid alone, though the run's bytes with an ASCII SIZE between them
        // would be "\u{e9}" if the SIZE were not there.
        let b = array(&[b"a\xC3", b"\xA9b"]);
        assert_eq!(collect(&b, 2).unwrap_err(), ("invalid UTF-8".into(), 2, 0));
        let b = array(&[b"ok", b"\xA9b"]);
        assert_eq!(collect(&b, 2).unwrap_err(), ("invalid UTF-8".into(), 4, 1));
        let b = array(&[b"ok", b"fine", b"bad\xFF"]);
        assert_eq!(collect(&b, 3).unwrap_err(), ("invalid UTF-8".into(), 12, 2));
    }

    #[test]
    fn many_strings_across_chunks_and_one_longer_than_a_chunk() {
        let mut texts: Vec<String> = (0..300)
            .map(|i| "\u{1F600}\u{e9}x".repeat(i % 40) + &"y".repeat(i % 7))
            .collect();
        texts.insert(150, "\u{4e2d}".repeat(CHUNK));
        let refs: Vec<&[u8]> = texts.iter().map(|s| s.as_bytes()).collect();
        let b = array(&refs);
        assert_eq!(collect(&b, refs.len()).unwrap(), texts);
        // One bad byte anywhere is reported at its offset, with its string's index.
        for k in [0, 37, 149, 150, 151, 299] {
            let mut bad = refs.iter().map(|r| r.to_vec()).collect::<Vec<_>>();
            let Some(mid) = bad[k].len().checked_sub(1) else {
                continue;
            };
            bad[k][mid] = 0xFF;
            let bad_refs: Vec<&[u8]> = bad.iter().map(|v| &v[..]).collect();
            let b = array(&bad_refs);
            let start: usize = bad_refs[..k]
                .iter()
                .map(|r| r.len() + size_len(r.len()))
                .sum();
            let want = start + size_len(bad_refs[k].len()) + mid;
            let (msg, at, idx) = collect(&b, bad_refs.len()).unwrap_err();
            assert_eq!((msg.as_str(), idx), ("invalid UTF-8", k), "{k}");
            // The offset is that of the first byte of the incomplete or bad sequence.
            assert!(at <= want && want - at < 4, "{k}: {at} vs {want}");
        }
        // An invalid string before a truncated one: the invalid one is reported.
        let mut cut = array(&[b"ok", b"bad\xFF", b"fine"]);
        cut.truncate(cut.len() - 1);
        assert_eq!(
            collect(&cut, 3).unwrap_err(),
            ("invalid UTF-8".into(), 7, 1)
        );
    }

    fn size_len(n: usize) -> usize {
        let mut b = Vec::new();
        length_prefix::write(&mut b, n);
        b.len()
    }

    #[test]
    fn truncation_is_end_of_input() {
        let b = array(&[b"abc", b"defgh"]);
        for cut in 0..b.len() {
            let (msg, _, _) = collect(&b[..cut], 2).unwrap_err();
            assert_eq!(msg, "unexpected end of input", "{cut}");
        }
    }
}
