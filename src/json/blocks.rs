//! The 32-byte string blocks of the reformat fast path ([`super::reformat`]): which bytes of a
//! block are `"`, `\` or control bytes, which escaped bytes are not allowed after a
//! backslash, and, with AVX2, whether the block is valid UTF-8, in the same pass over the same
//! registers (so minify and prettify need no separate pass over the whole input to check its
//! UTF-8).
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
//! the block of its closing quote, which is ASCII). Errors are gathered in a register over
//! the blocks of a string and looked at once, at its end.

#![allow(unsafe_code)]

use super::scan::{eq_bits16, special_bits16};

/// The bytes of a 32-byte block a string scan stops at, one bit per byte.
#[derive(Clone, Copy)]
pub(crate) struct Masks {
    /// `"`.
    pub(crate) quote: u32,
    /// `\`.
    pub(crate) backslash: u32,
    /// Below 0x20.
    pub(crate) control: u32,
    /// Neither of the eight bytes a one-byte escape allows (`"\/bfnrt`), where the blocks
    /// find this for every byte (else 0; see [`Blocks::bad_escapes`]).
    pub(crate) not_escape: u32,
}

/// A way to scan the 32-byte blocks of a string.
pub(crate) trait Blocks: Copy {
    /// UTF-8 errors gathered over the blocks of a string.
    type Errors: Copy;
    /// No errors yet.
    fn no_errors(self) -> Self::Errors;
    /// Whether `errors` holds any.
    fn any(self, errors: Self::Errors) -> bool;
    /// The 32 bytes at `i` and their masks, adding the block's UTF-8 errors (its bytes judged
    /// with the three before each) to `errors`; `None` if the input has no 3 bytes before `i`
    /// or no 32 from `i`.
    fn scan(self, s: &[u8], i: usize, errors: &mut Self::Errors) -> Option<([u8; 32], Masks)>;
    /// Of the bytes of `w` (with masks `m`) that `escaped` marks: those that a one-byte
    /// escape does not allow (`u` among them: a `\u` escape is rare, and checked on its own).
    fn bad_escapes(self, w: &[u8; 32], m: &Masks, escaped: u32) -> u32;
}

/// What may follow a backslash: 1 for the one-byte escapes, 2 for `u`, 0 for anything else.
pub(crate) static ESCAPES: [u8; 256] = {
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

/// Masks through [`special_bits16`] and [`eq_bits16`] (SSE2 on x86_64, SWAR elsewhere) and
/// [`ESCAPES`]; no UTF-8 check.
#[derive(Clone, Copy)]
pub(crate) struct Narrow;

/// The 16 bytes `b` everywhere.
const fn splat(b: u8) -> [u8; 16] {
    [b; 16]
}

impl Blocks for Narrow {
    type Errors = ();
    #[inline(always)]
    fn no_errors(self) {}
    #[inline(always)]
    fn any(self, _: ()) -> bool {
        false
    }
    #[inline(always)]
    fn scan(self, s: &[u8], i: usize, _: &mut ()) -> Option<([u8; 32], Masks)> {
        s.get(i.checked_sub(3)?..)?;
        let w: [u8; 32] = *s.get(i..)?.first_chunk()?;
        let lo: &[u8; 16] = w.first_chunk().unwrap_or(&[0; 16]);
        let hi: &[u8; 16] = w.last_chunk().unwrap_or(&[0; 16]);
        let (q, b) = (splat(b'"'), splat(b'\\'));
        let special = special_bits16(lo) | special_bits16(hi) << 16;
        let quote = eq_bits16(lo, &q) | eq_bits16(hi, &q) << 16;
        let backslash = eq_bits16(lo, &b) | eq_bits16(hi, &b) << 16;
        // Only escaped bytes are asked about, usually none or a few: looked up one by one
        // where they are, and every other bit left clear.
        let masks = Masks {
            quote,
            backslash,
            // The three kinds do not overlap.
            control: special & !(quote | backslash),
            not_escape: 0,
        };
        Some((w, masks))
    }
    #[inline(always)]
    fn bad_escapes(self, w: &[u8; 32], _: &Masks, escaped: u32) -> u32 {
        let (mut bad, mut e) = (0, escaped);
        while e != 0 {
            let k = e.trailing_zeros();
            if ESCAPES[usize::from(w[k as usize & 31])] != 1 {
                bad |= 1 << k;
            }
            e &= e - 1;
        }
        bad
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::Avx2;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::reformat::{body, Rejected};
    use super::{Blocks, Masks};
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

    // The bytes a one-byte escape allows, `"\/bfnrt`, by nibble: a bit for each high nibble
    // they have (2, 5, 6, 7), set in the entries of both of a byte's nibbles when it is one.
    /// `"` and `/`.
    const ESC_2: i8 = 1 << 0;
    /// `\`.
    const ESC_5: i8 = 1 << 1;
    /// `b`, `f`, `n`.
    const ESC_6: i8 = 1 << 2;
    /// `r`, `t`.
    const ESC_7: i8 = 1 << 3;

    /// Escape classes by the high nibble of a byte.
    const ESCAPE_HIGH: [i8; 16] = [
        0, 0, ESC_2, 0, 0, ESC_5, ESC_6, ESC_7, 0, 0, 0, 0, 0, 0, 0, 0,
    ];

    /// Escape classes by the low nibble of a byte (looked up with the byte itself: a byte
    /// with its top bit set gets 0, and is no escape either).
    const ESCAPE_LOW: [i8; 16] = [
        0,
        0,
        ESC_2 | ESC_6 | ESC_7, // `"`, `b`, `r`
        0,
        ESC_7, // `t`
        0,
        ESC_6, // `f`
        0,
        0,
        0,
        0,
        0,
        ESC_5, // `\`
        0,
        ESC_6, // `n`
        ESC_2, // `/`
    ];

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
    /// bytes show it). `this_high` is the high nibbles of `input`.
    ///
    /// # Safety
    /// The processor has AVX2.
    #[inline(always)]
    unsafe fn utf8_errors(
        this_high: __m256i,
        prev1: __m256i,
        prev2: __m256i,
        prev3: __m256i,
    ) -> __m256i {
        // SAFETY: value-only AVX2 intrinsics; the caller guarantees AVX2.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0F);
            let prev_high = _mm256_and_si256(_mm256_srli_epi16::<4>(prev1), nibble);
            let prev_low = _mm256_and_si256(prev1, nibble);
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
        fn scan(self, s: &[u8], i: usize, errors: &mut __m256i) -> Option<([u8; 32], Masks)> {
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
                let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), _mm256_set1_epi8(0x0F));
                *errors = _mm256_or_si256(*errors, utf8_errors(high, prev1, prev2, prev3));
                // `pshufb` takes the low nibble of each byte itself (and gives 0 for bytes
                // with the top bit set).
                let class = _mm256_and_si256(
                    _mm256_shuffle_epi8(table(ESCAPE_HIGH), high),
                    _mm256_shuffle_epi8(table(ESCAPE_LOW), v),
                );
                let masks = Masks {
                    quote: _mm256_movemask_epi8(quote) as u32,
                    backslash: _mm256_movemask_epi8(backslash) as u32,
                    control: _mm256_movemask_epi8(control) as u32,
                    not_escape: _mm256_movemask_epi8(_mm256_cmpeq_epi8(
                        class,
                        _mm256_setzero_si256(),
                    )) as u32,
                };
                Some((bytemuck::cast(v), masks))
            }
        }

        #[inline(always)]
        fn bad_escapes(self, _: &[u8; 32], m: &Masks, escaped: u32) -> u32 {
            m.not_escape & escaped
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
