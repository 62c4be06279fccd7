//! The SSE2 halves of the sixteen-digit number conversions (SSE2 is part of every x86_64
//! target, so nothing is asked at run time; only register values are computed on, no memory is
//! touched): a float's seventeen digits split out of two numbers below 10^8 for the writer
//! (`crate::number::digits16`), the one-instruction float truncation of its exactness filter,
//! and the run and value of sixteen ASCII digits for the integer reader
//! (`crate::number::parse`). Each has a portable twin there, tested against it.

use std::arch::x86_64::*;

/// See `crate::number::digits16::digits17`: the sixteen digit values of [`split16`], moved
/// down one byte with `last` put in the top one, compared with zero and made ASCII in the
/// vector.
#[inline(always)]
pub(crate) fn digits17(hi: u32, lo: u32, last: u32) -> (u8, u128, u32) {
    // SAFETY: register-only SSE2 intrinsics; this module is compiled only when the target
    // has SSE2 enabled.
    unsafe {
        let d = split16(hi, lo);
        // The first digit from `hi` in a general register, beside the vector work (taking
        // it out of the vector's lowest byte went through the stack).
        let first = (hi / 10_000_000) as u8;
        let last = _mm_slli_si128(_mm_cvtsi32_si128(last as i32), 15);
        let t = _mm_or_si128(_mm_srli_si128(d, 1), last);
        // Digit values are below 128, so a signed compare finds the non-zero ones.
        let nonzero = _mm_movemask_epi8(_mm_cmpgt_epi8(t, _mm_setzero_si128())) as u32;
        let a = _mm_add_epi8(t, _mm_set1_epi8(b'0' as i8));
        let lo64 = _mm_cvtsi128_si64(a) as u64;
        let hi64 = _mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a)) as u64;
        (first, u128::from(lo64) | (u128::from(hi64) << 64), nonzero)
    }
}

/// See `crate::number::digits16::trunc_i64`: one `cvttsd2si`, whose out-of-range answer is
/// i64::MIN.
#[inline(always)]
pub(crate) fn trunc_i64(x: f64) -> i64 {
    // SAFETY: register-only SSE2 intrinsics; this module is compiled only when the target
    // has SSE2 enabled.
    unsafe { _mm_cvttsd_si64(_mm_set_sd(x)) }
}

/// The digits of `hi` then `lo` (each `< 10^8`) as byte values, the first in the lowest
/// byte: each number split in halves of four digits (64-bit lanes), the halves in pairs of
/// two (32-bit lanes), the pairs in single digits (16-bit lanes); each split is a multiply
/// by a scaled reciprocal and a shift for the quotient, then one multiply and one add or
/// subtract that leave quotient and remainder side by side.
#[inline(always)]
fn split16(hi: u32, lo: u32) -> __m128i {
    // SAFETY: register-only SSE2 intrinsics; this module is compiled only when the target
    // has SSE2 enabled.
    unsafe {
        // Lane 0 (the low bytes) holds `hi`, whose digits come first.
        // (Each from a 32-bit move, which clears the lane's upper half.)
        let x = _mm_unpacklo_epi64(_mm_cvtsi32_si128(hi as i32), _mm_cvtsi32_si128(lo as i32));
        // x / 10^4 = (x * ceil(2^40 / 10^4)) >> 40 for x < 10^8.
        let q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi64x(109_951_163)), 40);
        // x + q * (2^32 - 10^4) is the remainder in the low half and `q` in the high half
        // (one multiply and one add); swapping the halves puts the 32-bit lanes in order:
        // the top four digits, then the bottom four.
        let rq = _mm_add_epi64(x, _mm_mul_epu32(q, _mm_set1_epi64x((1 << 32) - 10_000)));
        let y = _mm_shuffle_epi32::<0b10_11_00_01>(rq);
        // y / 100 = (y * 5243) >> 19 for y < 10^4, in the low 16 bits of each 32-bit lane.
        let q = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi32(5_243)), 3);
        let r = _mm_sub_epi16(y, _mm_mullo_epi16(q, _mm_set1_epi32(100)));
        let z = _mm_or_si128(q, _mm_slli_epi32(r, 16));
        // z / 10 = (z * 6554) >> 16 for z < 100, in every 16-bit lane; then
        // 256 z - 2559 q = q + 256 (z - 10 q): the tens in the low byte, the ones above.
        let q = _mm_mulhi_epu16(z, _mm_set1_epi16(6_554));
        _mm_sub_epi16(
            _mm_slli_epi16(z, 8),
            _mm_mullo_epi16(q, _mm_set1_epi16(2_559)),
        )
    }
}

/// See `crate::number::parse::digit_run16`: a byte is a digit iff `max(b - '0', 9) == 9`
/// (unsigned).
#[inline(always)]
pub(crate) fn digit_run16(lo: u64, hi: u64) -> u32 {
    // SAFETY: register-only SSE2 intrinsics; this module is compiled only when the target
    // has SSE2 enabled.
    let digit = unsafe {
        let d = _mm_sub_epi8(
            _mm_set_epi64x(hi as i64, lo as i64),
            _mm_set1_epi8(b'0' as i8),
        );
        let nine = _mm_set1_epi8(9);
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(d, nine), nine)) as u32
    };
    (!digit).trailing_zeros()
}

/// See `crate::number::parse::parse16`: digit pairs, then quads, then halves, by multiply-adds
/// of 16-bit lanes (every partial value fits its lane: at most 99, 9999, 99_999_999).
#[inline(always)]
pub(crate) fn parse16(lo: u64, hi: u64) -> u64 {
    // SAFETY: register-only SSE2 intrinsics; this module is compiled only when the target
    // has SSE2 enabled.
    let halves = unsafe {
        let v = _mm_sub_epi8(
            _mm_set_epi64x(hi as i64, lo as i64),
            _mm_set1_epi8(b'0' as i8),
        );
        let z = _mm_setzero_si128();
        let m10 = _mm_set_epi16(1, 10, 1, 10, 1, 10, 1, 10);
        let pairs = _mm_packs_epi32(
            _mm_madd_epi16(_mm_unpacklo_epi8(v, z), m10),
            _mm_madd_epi16(_mm_unpackhi_epi8(v, z), m10),
        );
        let quads = _mm_madd_epi16(pairs, _mm_set_epi16(1, 100, 1, 100, 1, 100, 1, 100));
        let quads = _mm_packs_epi32(quads, quads);
        let m1e4 = _mm_set_epi16(1, 10_000, 1, 10_000, 1, 10_000, 1, 10_000);
        _mm_cvtsi128_si64(_mm_madd_epi16(quads, m1e4)) as u64
    };
    (halves & 0xFFFF_FFFF) * 100_000_000 + (halves >> 32)
}
