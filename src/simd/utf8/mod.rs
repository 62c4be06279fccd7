//! UTF-8 checks of structio's own, for the short strings of a larger input (BEVE strings
//! among their SIZE bytes, JSON strings in the re-formatter's scan), and the few places text
//! is made without the standard library's check because it is already known to be UTF-8.
//!
//! - [`avx2`] and [`avx512`]: the table look-up method of Keiser and Lemire on 32- and 64-byte
//!   registers, inlined into the callers' loops (which run with the features enabled);
//!   [`str_in`] checks one string with whichever the processor has.
//! - [`batch`]: many short strings checked with one validator call, for processors without
//!   AVX2.
//! - [`unchecked`]: text from bytes already known to be UTF-8 (ASCII found by word ORs,
//!   re-formatted JSON built from whole pieces of valid text).

#[cfg(structio_x86)]
pub(crate) mod avx2;
// Built only with Rust 1.89 or later (`cfg(structio_avx512)`, set by the build script).
#[cfg(all(structio_x86, structio_avx512))]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512;
pub(crate) mod batch;
pub(crate) mod unchecked;

/// Whether `input[start..start + len]` lies inside `input` (the first thing every string
/// check of [`avx2`] and [`avx512`] asks, before it reads through raw pointers).
#[cfg(structio_x86)]
#[inline(always)]
pub(crate) fn inside(input: &[u8], start: usize, len: usize) -> bool {
    start <= input.len() && len <= input.len() - start
}

/// `input[start..start + len]` as text when the processor has AVX-512 (see
/// [`avx512`]) or AVX2: `Some(Some(text))` when it is valid UTF-8, `Some(None)`
/// when not (or when the range is not inside `input`), and `None` with neither (the caller
/// uses another validator). One call into vector code, for callers that check one string at
/// a time.
#[cfg(structio_x86)]
#[inline]
// The label is used by the AVX-512 branch alone.
#[cfg_attr(not(structio_avx512), allow(unused_labels))]
pub(crate) fn str_in(input: &[u8], start: usize, len: usize) -> Option<Option<&str>> {
    let valid = 'check: {
        #[cfg(structio_avx512)]
        if super::detect::has_avx512() {
            // SAFETY: the processor has what the AVX-512 check needs (asked just above).
            break 'check unsafe { avx512::valid_call(input, start, len) };
        }
        if !super::detect::has_avx2() {
            return None;
        }
        // SAFETY: the processor has AVX2 (asked just above).
        unsafe { avx2::valid_call(input, start, len) }
    };
    if !valid {
        return Some(None);
    }
    // SAFETY: `valid_in` found the range inside `input` and valid UTF-8.
    Some(Some(unsafe {
        std::str::from_utf8_unchecked(input.get_unchecked(start..start + len))
    }))
}

/// Inputs that probe a UTF-8 check, shared by the tests of its users.
#[cfg(all(test, structio_x86))]
pub(crate) mod cases {
    /// Pieces of text to build random strings from: characters of every length, the edges of
    /// the ranges, and bytes a JSON writer escapes.
    pub(crate) const PIECES: [&str; 9] = [
        "a",
        "é",
        "€",
        "😀",
        "\u{10FFFF}",
        "\u{FFFF}",
        "zz",
        "\u{7FF}",
        "\"\\",
    ];

    /// A xorshift generator from `seed` (not zero): repeatable random numbers for tests.
    pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Every byte value as a lead, followed by every interesting next byte, with a third and
    /// fourth from a smaller set, placed at every offset around a block boundary, whole and
    /// cut after each of its bytes.
    pub(crate) fn pairs_and_triples(mut check: impl FnMut(&[u8])) {
        let next = [
            0x00u8, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED,
            0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ];
        let more = [0x41u8, 0x80, 0x9F, 0xA0, 0xBF, 0xC3];
        for lead in 0..=255u8 {
            for &b in &next {
                for &c in &more {
                    for &d in &more {
                        for off in [0usize, 1, 13, 14, 15, 16, 17, 28, 29, 30, 31, 32] {
                            let mut s = vec![b'a'; off];
                            s.extend_from_slice(&[lead, b, c, d]);
                            for cut in (off + 1..=off + 4).rev() {
                                check(&s[..cut]);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Each kind of character (every length, the edges of each range) at every offset up to
    /// 70, whole, cut short at each byte, and with each byte replaced by bytes of each class.
    pub(crate) fn characters(mut check: impl FnMut(&[u8])) {
        let chars = [
            "a",
            "é",
            "\u{7FF}",
            "\u{800}",
            "\u{D7FF}",
            "\u{E000}",
            "€",
            "\u{FFFF}",
            "\u{10000}",
            "😀",
            "\u{10FFFF}",
        ];
        for c in chars {
            for off in 0..70 {
                let mut s = "é".repeat(off / 2).into_bytes();
                s.extend(std::iter::repeat_n(b'b', off % 2));
                s.extend_from_slice(c.as_bytes());
                s.extend_from_slice("z😀".as_bytes());
                check(&s);
                for cut in 0..s.len() {
                    check(&s[..cut]);
                    for b in [0x00, 0x41, 0x80, 0xBF, 0xC0, 0xE0, 0xF0, 0xF8, 0xFF] {
                        let mut m = s.clone();
                        m[cut] = b;
                        check(&m);
                    }
                }
            }
        }
    }
}
