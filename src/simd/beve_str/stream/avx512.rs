//! The stream's AVX-512 kernel (F, BW, VBMI and BMI2): 64-byte blocks; SIZE bytes marked in a
//! 64-bit mask and dropped by the block's masked load; the check of [`crate::simd::utf8::avx512`];
//! each string copied with masked moves.

use core::arch::x86_64::{
    __m512i, _bzhi_u64, _mm512_loadu_epi8, _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8,
    _mm512_movepi8_mask, _mm512_setzero_si512, _mm512_storeu_epi8, _mm512_test_epi8_mask,
};

use super::{advance_either, Kernel, Resume};
use crate::simd::detect::has_avx512;
use crate::simd::utf8::avx512::{add_errors, all_errors};

/// The AVX-512 kernel.
pub(crate) struct Avx512;

impl Kernel for Avx512 {
    const B: usize = 64;
    type V = __m512i;
    /// Bit `k` marks byte `k`.
    type Near = u64;

    #[inline]
    fn available() -> bool {
        has_avx512()
    }

    #[inline(always)]
    unsafe fn zero() -> __m512i {
        // SAFETY: the caller's promise about the processor.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    unsafe fn no_near() -> u64 {
        0
    }

    #[inline(always)]
    unsafe fn mark(near: u64, k: usize) -> u64 {
        near | 1 << k
    }

    #[inline(always)]
    unsafe fn block(at: *const u8, near: u64) -> __m512i {
        // SAFETY: the 64 bytes at `at` are readable (the caller's promise); the marked bytes
        // are not even read.
        unsafe { _mm512_maskz_loadu_epi8(!near, at.cast()) }
    }

    #[inline(always)]
    unsafe fn tail(at: *const u8, n: usize, _room: usize, near: u64) -> __m512i {
        let keep = _bzhi_u64(!near, n as u32);
        // SAFETY: only the `n` bytes at `at` are read (the others are masked off), which the
        // caller vouches for.
        unsafe { _mm512_maskz_loadu_epi8(keep, at.cast()) }
    }

    #[inline(always)]
    unsafe fn judge<const SHORTCUT: bool>(errors: __m512i, v: __m512i, prev: __m512i) -> __m512i {
        if SHORTCUT {
            // SAFETY: the caller's promise about the processor.
            unsafe { add_errors(errors, v, prev) }
        } else {
            // SAFETY: the caller's promise about the processor.
            unsafe { all_errors(errors, v, prev) }
        }
    }

    #[inline(always)]
    unsafe fn clean(errors: __m512i) -> bool {
        // SAFETY: the caller's promise about the processor.
        unsafe { _mm512_test_epi8_mask(errors, errors) == 0 }
    }

    #[inline(always)]
    unsafe fn ascii_head(input: &[u8], p: usize) -> bool {
        let head = _bzhi_u64(u64::MAX, (input.len() - p).min(64) as u32);
        // SAFETY: only bytes from `p` to the input's end are read (the rest are masked off);
        // the caller's promise about the processor.
        unsafe {
            let v = _mm512_maskz_loadu_epi8(head, input.as_ptr().add(p).cast());
            _mm512_movepi8_mask(v) == 0
        }
    }

    /// Whole 64-byte blocks while more than 64 are left, then one masked block of the rest.
    #[inline(always)]
    unsafe fn copy(mut src: *const u8, mut len: usize, mut dst: *mut u8) {
        // SAFETY: every access is inside the `len` bytes the caller vouches for: whole blocks
        // while more than 64 are left, then a mask of the rest (masked-off bytes are not
        // accessed).
        unsafe {
            while len > 64 {
                // An empty statement the compiler must keep, so that this stays a loop of
                // vector moves instead of becoming a `memcpy` call (which would spill every
                // vector register the check holds).
                core::arch::asm!("", options(nomem, nostack, preserves_flags));
                _mm512_storeu_epi8(dst.cast(), _mm512_loadu_epi8(src.cast()));
                src = src.add(64);
                dst = dst.add(64);
                len -= 64;
            }
            let keep = _bzhi_u64(u64::MAX, len as u32);
            _mm512_mask_storeu_epi8(dst.cast(), keep, _mm512_maskz_loadu_epi8(keep, src.cast()));
        }
    }

    #[inline(always)]
    unsafe fn valid(input: &[u8], start: usize, len: usize) -> bool {
        // SAFETY: the caller's promise about the processor.
        unsafe { crate::simd::utf8::avx512::valid_call(input, start, len) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
    unsafe fn advance(
        input: &[u8],
        p: usize,
        resume: &mut Option<Resume>,
        strings: &mut [String],
        from: usize,
    ) -> (usize, usize) {
        // SAFETY: the caller's promises.
        unsafe { advance_either::<Self>(input, p, resume, strings, from) }
    }

    #[inline(always)]
    unsafe fn save(v: __m512i) -> [u8; 64] {
        // SAFETY: 64 plain bytes each way.
        unsafe { core::mem::transmute::<__m512i, [u8; 64]>(v) }
    }

    #[inline(always)]
    unsafe fn restore(bytes: &[u8; 64]) -> __m512i {
        // SAFETY: 64 plain bytes each way.
        unsafe { core::mem::transmute::<[u8; 64], __m512i>(*bytes) }
    }

    #[inline(always)]
    unsafe fn near_bits(near: u64) -> u64 {
        near
    }

    #[inline(always)]
    unsafe fn near_from(bits: u64) -> u64 {
        bits
    }
}
