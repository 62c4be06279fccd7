//! The 32-byte string blocks of the reformat fast path ([`super::reformat`]): which bytes of a
//! block are `"`, `\` or control bytes, and, with AVX2, whether the block is valid UTF-8, in
//! the same pass over the same register (so minify and prettify need no separate pass over
//! the whole input to check its UTF-8).
//!
//! [`Narrow`] works everywhere (SSE2 masks on x86_64, SWAR elsewhere) and checks no UTF-8:
//! its caller checks the whole input first. [`Avx2`] is a token that exists only when the
//! processor has AVX2 ([`Avx2::detect`]); holding one is what makes its safe methods sound,
//! and [`Avx2::reformat`] runs the whole fast path inside one
//! `#[target_feature(enable = "avx2")]` function.
//!
//! The UTF-8 check is the table look-up method of Keiser and Lemire ("Validating UTF-8 in less
//! than one instruction per byte", 2021): each byte is judged with the three before it, which
//! are loaded from the input (three more unaligned loads, rather than shuffling them out of the
//! block before). A string's contents start after its opening quote, and what comes before
//! that in valid input is ASCII (a quote and punctuation). A block that holds the closing
//! quote is judged in full, bytes after the quote too: in valid input those are valid UTF-8
//! from a character boundary on, and only a sequence cut at the end of the block could look
//! unfinished, which is never reported (an unfinished sequence is reported at the byte after
//! it, in the next block). So the check never rejects valid input, and rejects every string
//! whose contents are not UTF-8: a sequence that starts in a block is judged there up to the
//! block's end and in the next block (the scan of a string goes on, block after block, to
//! the block of its closing quote, which is ASCII; a scan that starts over at an escape
//! loads the bytes before it again). Errors are gathered in a register over the blocks of a
//! string and looked at once, at its end.

#![allow(unsafe_code)]

use super::scan::special_bits16;

/// A way to scan the 32-byte blocks of a string.
pub(crate) trait Blocks: Copy {
    /// UTF-8 errors gathered over the blocks of a string.
    type Errors: Copy;
    /// No errors yet.
    fn no_errors(self) -> Self::Errors;
    /// Whether `errors` holds any.
    fn any(self, errors: Self::Errors) -> bool;
    /// The 32 bytes at `i` and their mask (bit `k` set when byte `k` is `"`, `\` or below
    /// 0x20), adding the block's UTF-8 errors (its bytes judged with the three before each) to
    /// `errors`; `None` if the input has no 3 bytes before `i` or no 32 from `i`.
    fn scan(self, s: &[u8], i: usize, errors: &mut Self::Errors) -> Option<([u8; 32], u32)>;
}

/// Two 16-byte masks through [`special_bits16`] (SSE2 on x86_64, SWAR elsewhere); no UTF-8
/// check.
#[derive(Clone, Copy)]
pub(crate) struct Narrow;

impl Blocks for Narrow {
    type Errors = ();
    #[inline(always)]
    fn no_errors(self) {}
    #[inline(always)]
    fn any(self, _: ()) -> bool {
        false
    }
    #[inline(always)]
    fn scan(self, s: &[u8], i: usize, _: &mut ()) -> Option<([u8; 32], u32)> {
        s.get(i.checked_sub(3)?..)?;
        let w: [u8; 32] = *s.get(i..)?.first_chunk()?;
        let lo: &[u8; 16] = w.first_chunk().unwrap_or(&[0; 16]);
        let hi: &[u8; 16] = w.last_chunk().unwrap_or(&[0; 16]);
        Some((w, special_bits16(lo) | special_bits16(hi) << 16))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::Avx2;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::reformat::{body, Rejected};
    use super::Blocks;
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_subs_epu8, _mm256_testz_si256,
        _mm256_xor_si256,
    };

    /// Proof that the processor has AVX2: made only by [`Avx2::detect`].
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(());

    impl Avx2 {
        /// The token, if the processor has AVX2 (asked once, see [`has_avx2`]).
        ///
        /// [`has_avx2`]: super::super::wide::has_avx2
        #[inline(always)]
        pub(crate) fn detect() -> Option<Avx2> {
            super::super::wide::has_avx2().then_some(Avx2(()))
        }

        /// The fast path of [`super::super::reformat::reformat`] compiled for AVX2, with the
        /// UTF-8 check in the string scan.
        #[inline(always)]
        pub(crate) fn reformat<const PRETTY: bool>(
            self,
            s: &[u8],
            max_depth: usize,
            indent: usize,
            out: &mut Vec<u8>,
        ) -> Result<(), Rejected> {
            // SAFETY: the token exists, so the processor has AVX2.
            unsafe { reformat_avx2::<PRETTY>(self, s, max_depth, indent, out) }
        }
    }

    /// [`body`] with AVX2 enabled (so that [`Avx2::scan`] inlines into it).
    ///
    /// # Safety
    /// The processor has AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn reformat_avx2<const PRETTY: bool>(
        t: Avx2,
        s: &[u8],
        max_depth: usize,
        indent: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), Rejected> {
        body::<PRETTY, Avx2>(t, s, max_depth, indent, out)
    }

    /// A 16-entry table in both lanes.
    #[inline(always)]
    fn table(t: [i8; 16]) -> __m256i {
        bytemuck::cast([t, t])
    }

    // The error classes of the look-up method, one bit each; a pair of bytes (the previous one
    // and this one) is an error when the three tables agree on a bit.
    /// A lead byte not followed by a continuation byte.
    const TOO_SHORT: i8 = 1 << 0;
    /// A continuation byte after an ASCII byte.
    const TOO_LONG: i8 = 1 << 1;
    /// `E0` followed by `80..=9F`.
    const OVERLONG_3: i8 = 1 << 2;
    /// `F4` followed by `90..=BF`, or `F5..=FF` followed by a continuation byte.
    const TOO_LARGE: i8 = 1 << 3;
    /// `ED` followed by `A0..=BF` (a surrogate).
    const SURROGATE: i8 = 1 << 4;
    /// `C0` or `C1` followed by a continuation byte.
    const OVERLONG_2: i8 = 1 << 5;
    /// `F0` followed by `80..=8F`, and `F5..=FF` followed by `80..=8F` (shares the bit).
    const OVERLONG_4: i8 = 1 << 6;
    /// A continuation byte after a continuation byte (right only as the third or fourth byte
    /// of a sequence, which the check knows from the bytes two and three back).
    const TWO_CONTS: i8 = 1 << 7;
    /// The classes that depend only on the high nibbles.
    const CARRY: i8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

    /// By the high nibble of the previous byte.
    const PREV_HIGH: [i8; 16] = [
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | OVERLONG_4,
    ];

    /// By the low nibble of the previous byte.
    const PREV_LOW: [i8; 16] = [
        CARRY | OVERLONG_2 | OVERLONG_3 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4 | SURROGATE,
        CARRY | TOO_LARGE | OVERLONG_4,
        CARRY | TOO_LARGE | OVERLONG_4,
    ];

    /// By the high nibble of this byte.
    const THIS_HIGH: [i8; 16] = {
        const CONT: i8 = TOO_LONG | OVERLONG_2 | TWO_CONTS;
        [
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            CONT | OVERLONG_3 | OVERLONG_4,
            CONT | OVERLONG_3 | TOO_LARGE,
            CONT | SURROGATE | TOO_LARGE,
            CONT | SURROGATE | TOO_LARGE,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
        ]
    };

    /// Non-zero where `input` breaks UTF-8 in a way its bytes and the three before each
    /// (`prev1`, `prev2`, `prev3`: the blocks one, two and three bytes earlier) show; an
    /// unfinished sequence at the end of `input` is not an error here (the next block's first
    /// bytes show it).
    ///
    /// # Safety
    /// The processor has AVX2.
    #[inline(always)]
    unsafe fn utf8_errors(
        input: __m256i,
        prev1: __m256i,
        prev2: __m256i,
        prev3: __m256i,
    ) -> __m256i {
        // SAFETY: value-only AVX2 intrinsics; the caller guarantees AVX2.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0F);
            let prev_high = _mm256_and_si256(_mm256_srli_epi16::<4>(prev1), nibble);
            let prev_low = _mm256_and_si256(prev1, nibble);
            let this_high = _mm256_and_si256(_mm256_srli_epi16::<4>(input), nibble);
            let pairs = _mm256_and_si256(
                _mm256_and_si256(
                    _mm256_shuffle_epi8(table(PREV_HIGH), prev_high),
                    _mm256_shuffle_epi8(table(PREV_LOW), prev_low),
                ),
                _mm256_shuffle_epi8(table(THIS_HIGH), this_high),
            );
            // A continuation byte must follow a continuation byte exactly where the byte two
            // back is a three- or four-byte lead (`E0..`) or the byte three back a four-byte
            // lead (`F0..`): saturating subtraction leaves the top bit set just for those.
            let third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((0xE0u8 - 0x80) as i8));
            let fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((0xF0u8 - 0x80) as i8));
            let must =
                _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(TWO_CONTS));
            _mm256_xor_si256(must, pairs)
        }
    }

    impl Blocks for Avx2 {
        type Errors = __m256i;

        #[inline(always)]
        fn no_errors(self) -> __m256i {
            // SAFETY: a value-only intrinsic; the token proves AVX2.
            unsafe { _mm256_setzero_si256() }
        }

        #[inline(always)]
        fn any(self, errors: __m256i) -> bool {
            // SAFETY: a value-only intrinsic; the token proves AVX2.
            unsafe { _mm256_testz_si256(errors, errors) == 0 }
        }

        #[inline(always)]
        fn scan(self, s: &[u8], i: usize, errors: &mut __m256i) -> Option<([u8; 32], u32)> {
            let window = s.get(i.checked_sub(3)?..)?.first_chunk::<35>()?;
            let at = window.as_ptr();
            // SAFETY: the token proves the processor has AVX2; the four unaligned 32-byte loads
            // at offsets 0 to 3 of the 35 bytes of `window` stay inside it; the rest computes
            // on register values.
            unsafe {
                let v = _mm256_loadu_si256(at.add(3).cast::<__m256i>());
                let prev1 = _mm256_loadu_si256(at.add(2).cast::<__m256i>());
                let prev2 = _mm256_loadu_si256(at.add(1).cast::<__m256i>());
                let prev3 = _mm256_loadu_si256(at.cast::<__m256i>());
                let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
                let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
                // Unsigned `v <= 0x1F` is `max(v, 0x1F) == 0x1F`.
                let low = _mm256_set1_epi8(0x1F);
                let control = _mm256_cmpeq_epi8(_mm256_max_epu8(v, low), low);
                let special = _mm256_or_si256(_mm256_or_si256(quote, backslash), control);
                *errors = _mm256_or_si256(*errors, utf8_errors(v, prev1, prev2, prev3));
                Some((bytemuck::cast(v), _mm256_movemask_epi8(special) as u32))
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Whether the bytes `s` (any length), after three ASCII bytes and followed by one,
        /// pass the check, scanned block by block as a string's contents are.
        #[target_feature(enable = "avx2")]
        fn passes(t: Avx2, s: &[u8]) -> bool {
            let mut padded = b"[ \"".to_vec();
            padded.extend_from_slice(s);
            padded.push(b'"');
            padded.resize(padded.len().next_multiple_of(32) + 3, b'x');
            let mut errors = t.no_errors();
            let scanned = (3..s.len() + 4)
                .step_by(32)
                .all(|i| t.scan(&padded, i, &mut errors).is_some());
            scanned && !t.any(errors)
        }

        fn check(t: Avx2, s: &[u8]) {
            // SAFETY: the token proves AVX2.
            let got = unsafe { passes(t, s) };
            assert_eq!(got, std::str::from_utf8(s).is_ok(), "{s:02X?}");
        }

        #[test]
        fn agrees_with_std_on_every_pair_and_triple_at_every_offset() {
            let Some(t) = Avx2::detect() else {
                println!("no AVX2: skipped");
                return;
            };
            // Every byte value as a lead, followed by every interesting next byte, with a
            // third and fourth from a smaller set; placed at every offset around the block
            // boundary.
            let next = [
                0x00u8, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0,
                0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
            ];
            let more = [0x41u8, 0x80, 0x9F, 0xA0, 0xBF, 0xC3];
            for lead in 0..=255u8 {
                for &b in &next {
                    for &c in &more {
                        for &d in &more {
                            for off in [0usize, 1, 13, 14, 15, 16, 17, 28, 29, 30, 31, 32] {
                                let mut s = vec![b'a'; off];
                                s.extend_from_slice(&[lead, b, c, d]);
                                check(t, &s);
                                s.truncate(off + 3);
                                check(t, &s);
                                s.truncate(off + 2);
                                check(t, &s);
                                s.truncate(off + 1);
                                check(t, &s);
                            }
                        }
                    }
                }
            }
        }

        #[test]
        fn agrees_with_std_on_every_character_kind_at_every_offset() {
            let Some(t) = Avx2::detect() else {
                println!("no AVX2: skipped");
                return;
            };
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
                    check(t, &s);
                    // Cut short, and with one byte changed.
                    for cut in 0..s.len() {
                        check(t, &s[..cut]);
                        for b in [0x00, 0x41, 0x80, 0xBF, 0xC0, 0xE0, 0xF0, 0xF8, 0xFF] {
                            let mut m = s.clone();
                            m[cut] = b;
                            check(t, &m);
                        }
                    }
                }
            }
        }
    }
}
