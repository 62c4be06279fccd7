//! The 32-byte string blocks of the reformat fast path ([`crate::json::reformat`]): which
//! bytes of a block are `"`, `\` or control bytes, and, with AVX2, whether the block is valid
//! UTF-8, in the same pass over the same register (so minify and prettify need no separate
//! pass over the whole input to check its UTF-8).
//!
//! [`Narrow`] works everywhere (SSE2 masks on x86_64, SWAR elsewhere) and checks no UTF-8:
//! its caller checks the whole input first. [`Avx2`] is a token that exists only when the
//! processor has AVX2 ([`Avx2::detect`]); holding one is what makes its safe methods sound,
//! and [`Avx2::reformat`] runs the whole fast path inside one
//! `#[target_feature(enable = "avx2")]` function.
//!
//! The UTF-8 check is the table look-up method of Keiser and Lemire ("Validating UTF-8 in less
//! than one instruction per byte", 2021; its tables are in [`super::utf8::avx2`], shared with
//! the BEVE string check): each byte is judged with the three before it, which
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

use super::json_scan::special_bits16;

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

#[cfg(structio_x86)]
pub(crate) use avx2::Avx2;

#[cfg(structio_x86)]
mod avx2 {
    use super::Blocks;
    use crate::json::reformat::{body, Rejected};
    use crate::simd::utf8::avx2::utf8_errors;
    use core::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_testz_si256,
    };

    /// Proof that the processor has AVX2: made only by [`Avx2::detect`].
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(());

    impl Avx2 {
        /// The token, if the processor has AVX2 (asked once, see [`has_avx2`]).
        ///
        /// [`has_avx2`]: crate::simd::detect::has_avx2
        #[inline(always)]
        pub(crate) fn detect() -> Option<Avx2> {
            crate::simd::detect::has_avx2().then_some(Avx2(()))
        }

        /// The fast path of [`crate::json::reformat::reformat`] compiled for AVX2, with the
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
}

#[cfg(all(test, structio_x86))]
mod tests {
    use super::*;

    /// Whether the bytes `s` (any length), after three ASCII bytes and followed by one,
    /// pass the check, scanned block by block as a string's contents are. Each block's bytes
    /// and special-byte mask must be those [`Narrow`] gives.
    fn passes(t: Avx2, s: &[u8]) -> bool {
        let mut padded = b"[ \"".to_vec();
        padded.extend_from_slice(s);
        padded.push(b'"');
        padded.resize(padded.len().next_multiple_of(32) + 3, b'x');
        let mut errors = t.no_errors();
        let scanned = (3..s.len() + 4).step_by(32).all(|i| {
            let got = t.scan(&padded, i, &mut errors);
            assert_eq!(got, Narrow.scan(&padded, i, &mut ()), "{s:02X?} at {i}");
            got.is_some()
        });
        scanned && !t.any(errors)
    }

    /// Runs `test` with the AVX2 token, if the processor has AVX2.
    fn with_avx2(test: impl Fn(Avx2)) {
        match Avx2::detect() {
            Some(t) => test(t),
            None => println!("no AVX2: skipped"),
        }
    }

    fn agrees(t: Avx2, s: &[u8]) {
        assert_eq!(passes(t, s), std::str::from_utf8(s).is_ok(), "{s:02X?}");
    }

    #[test]
    fn agrees_with_std_on_every_pair_and_triple_at_every_offset() {
        with_avx2(|t| crate::simd::utf8::cases::pairs_and_triples(|s| agrees(t, s)));
    }

    #[test]
    fn agrees_with_std_on_every_character_kind_at_every_offset() {
        with_avx2(|t| crate::simd::utf8::cases::characters(|s| agrees(t, s)));
    }

    #[test]
    fn special_bytes_are_those_narrow_finds() {
        // Every byte value at every place of a block, between ASCII letters: `passes` compares
        // each block's mask with `Narrow`'s.
        with_avx2(|t| {
            for b in 0..=255u8 {
                for at in 0..40 {
                    let mut s = vec![b'a'; 40];
                    s[at] = b;
                    agrees(t, &s);
                }
            }
        });
    }
}
