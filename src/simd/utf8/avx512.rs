//! The UTF-8 check of [`super::avx2`] on 64-byte AVX-512 registers, for the strings of a
//! BEVE document: one string in place ([`valid_in`]), or the block step ([`add_errors`])
//! that `simd::beve_str::stream` runs over a whole string array.
//!
//! It is the same look-up method with the same three tables; AVX-512 changes how the work is
//! done, not what is checked:
//! - a block is 64 bytes, so the 50-150-byte strings of a typical document take one or two
//!   blocks where AVX2 takes two to five;
//! - the nibble look-ups are `vpermb` over the 16-entry tables repeated four times, which reads
//!   only the low six bits of each index, so no mask is needed before them;
//! - the three look-ups are combined, and the continuation rule applied, with one ternary-logic
//!   instruction each;
//! - a string's last block is a masked load: nothing past the string's end is read, with no
//!   branch on the room left and no copy for the end of the input.
//!
//! Used when the processor has AVX-512 F, BW and VBMI with BMI2
//! ([`has_avx512`](crate::simd::detect::has_avx512), asked at run time), and only when the
//! compiler is Rust 1.89 or later (`cfg(structio_avx512)`, set by the build script). The
//! callers run their loops inside
//! `#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]` functions so that all of
//! this inlines into them.

use core::arch::x86_64::{
    __m512i, _bzhi_u64, _mm512_alignr_epi64, _mm512_alignr_epi8, _mm512_loadu_epi8,
    _mm512_maskz_loadu_epi8, _mm512_movepi8_mask, _mm512_or_si512, _mm512_permutexvar_epi8,
    _mm512_set1_epi8, _mm512_setzero_si512, _mm512_srli_epi16, _mm512_subs_epu8,
    _mm512_ternarylogic_epi64, _mm512_test_epi8_mask,
};

use super::avx2::{PREV_HIGH, PREV_LOW, THIS_HIGH, TWO_CONTS};

/// A 16-entry table repeated over the 64 bytes, for `vpermb` with indexes whose bits 4 and 5
/// are whatever the neighbouring nibble left there.
#[inline(always)]
fn table(t: [i8; 16]) -> __m512i {
    // SAFETY: `[[i8; 16]; 4]` and `__m512i` are both 64 plain bytes.
    unsafe { core::mem::transmute::<[[i8; 16]; 4], __m512i>([t, t, t, t]) }
}

/// Per position of a block, the largest byte that cannot begin a sequence the block does not
/// finish there (as `avx2`'s 32-byte table, for 64 bytes).
const LAST_MAX: [u8; 64] = {
    let mut t = [0xFF; 64];
    t[61] = 0xEF;
    t[62] = 0xDF;
    t[63] = 0xBF;
    t
};

/// Non-zero when block `v` ends in a sequence its last bytes do not finish.
///
/// # Safety
/// The processor has AVX-512 BW.
#[inline(always)]
unsafe fn unfinished(v: __m512i) -> __m512i {
    // SAFETY: `[u8; 64]` and `__m512i` are both 64 plain bytes; the caller's promise about
    // the processor.
    unsafe { _mm512_subs_epu8(v, core::mem::transmute::<[u8; 64], __m512i>(LAST_MAX)) }
}

/// `errors` with the errors of block `v` added: its bytes are judged with the three before
/// each, taken from the end of the previous block `prev` (zeros before a string's first
/// block). An all-ASCII block only needs `prev` not to end in an unfinished sequence.
/// Otherwise the errors are `must ^ pairs`: `pairs` the error classes the three tables agree
/// on, `must` `TWO_CONTS` where a continuation byte must follow a continuation byte.
///
/// # Safety
/// The processor has the features [`has_avx512`](crate::simd::detect::has_avx512) asks for.
#[inline(always)]
pub(crate) unsafe fn add_errors(errors: __m512i, v: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: value-only intrinsics of the features the caller guarantees ([`has_avx512`]).
    unsafe {
        if _mm512_movepi8_mask(v) == 0 {
            return _mm512_or_si512(errors, unfinished(prev));
        }
        all_errors(errors, v, prev)
    }
}

/// [`add_errors`] without its shortcut for an all-ASCII block: for a block whose being ASCII
/// or not is as likely as not, where the shortcut's branch would often be mispredicted.
///
/// # Safety
/// The processor has the features [`has_avx512`](crate::simd::detect::has_avx512) asks for.
#[inline(always)]
pub(crate) unsafe fn all_errors(errors: __m512i, v: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: value-only intrinsics of the features the caller guarantees ([`has_avx512`]).
    unsafe {
        // Bytes 48..64 of `prev`, then 0..48 of `v`: the 16 bytes before each lane of `v`.
        let before = _mm512_alignr_epi64::<6>(v, prev);
        let prev1 = _mm512_alignr_epi8::<15>(v, before);
        let prev2 = _mm512_alignr_epi8::<14>(v, before);
        let prev3 = _mm512_alignr_epi8::<13>(v, before);
        let pairs = _mm512_ternarylogic_epi64::<0x80>(
            _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(prev1), table(PREV_HIGH)),
            _mm512_permutexvar_epi8(prev1, table(PREV_LOW)),
            _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(v), table(THIS_HIGH)),
        );
        // As in `avx2::utf8_errors`: the top bit of either difference is set exactly
        // where a continuation byte must follow a continuation byte.
        let third = _mm512_subs_epu8(prev2, _mm512_set1_epi8((0xE0u8 - 0x80) as i8));
        let fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8((0xF0u8 - 0x80) as i8));
        // (third | fourth) & TWO_CONTS: the top bit alone.
        let must = _mm512_ternarylogic_epi64::<0xA8>(third, fourth, _mm512_set1_epi8(TWO_CONTS));
        // errors | (must ^ pairs).
        _mm512_ternarylogic_epi64::<0xF6>(errors, must, pairs)
    }
}

/// Whether the `len` bytes at `src` are valid UTF-8. 64-byte blocks; the last one (0 to 64
/// bytes) is a masked load, so nothing outside the `len` bytes is read.
///
/// # Safety
/// `src` is readable for `len` bytes; the processor has the features
/// [`has_avx512`](crate::simd::detect::has_avx512) asks for.
#[inline(always)]
unsafe fn check(src: *const u8, len: usize) -> bool {
    // SAFETY: the loop's loads are of 64 bytes at `i` with `i + 64 < len`; the last one is
    // masked to the `len - i <= 64` bytes left (the masked-off bytes are not accessed). The
    // caller's promise about the pointer and the processor.
    unsafe {
        let mut prev = _mm512_setzero_si512();
        let mut errors = _mm512_setzero_si512();
        let mut i = 0;
        while len - i > 64 {
            let v = _mm512_loadu_epi8(src.add(i).cast());
            errors = add_errors(errors, v, prev);
            prev = v;
            i += 64;
        }
        // `bzhi` keeps the low `len - i` bits (all 64 when it is 64).
        let keep = _bzhi_u64(u64::MAX, (len - i) as u32);
        let v = _mm512_maskz_loadu_epi8(keep, src.add(i).cast());
        errors = add_errors(errors, v, prev);
        errors = _mm512_or_si512(errors, unfinished(v));
        _mm512_test_epi8_mask(errors, errors) == 0
    }
}

/// Whether `input[start..start + len]` is valid UTF-8 (`false` when the range is not inside
/// `input`). Reads nothing outside the range.
///
/// # Safety
/// The processor has the features [`has_avx512`](crate::simd::detect::has_avx512) asks for.
#[inline(always)]
pub(crate) unsafe fn valid_in(input: &[u8], start: usize, len: usize) -> bool {
    if !super::inside(input, start, len) {
        return false;
    }
    // SAFETY: the range is inside `input` (checked above); the caller's promise about the
    // processor.
    unsafe { check(input.as_ptr().add(start), len) }
}

/// [`valid_in`] as a call from code compiled without AVX-512, for callers that check one
/// string at a time.
///
/// # Safety
/// The processor has the features [`has_avx512`](crate::simd::detect::has_avx512) asks for.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
#[inline(never)]
pub(crate) unsafe fn valid_call(input: &[u8], start: usize, len: usize) -> bool {
    // SAFETY: this function runs only with the features `valid_in` needs.
    unsafe { valid_in(input, start, len) }
}
