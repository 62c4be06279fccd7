//! The stream's AVX2 kernel: 32-byte blocks; SIZE bytes marked in a vector (one load and one
//! OR per string) and cleared from the block with one AND-NOT; the check of
//! [`crate::simd::utf8::avx2`]; each string copied with overlapping moves.

use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_testz_si256,
};

use super::{advance_either, Kernel, Resume};
use crate::simd::utf8::avx2::{add_errors, all_errors, last_block};

/// The AVX2 kernel.
pub(crate) struct Avx2;

/// `0xFF` at byte 32 only: the 32 bytes from `32 - k` mark byte `k` of a block.
static ONE_AT: [u8; 64] = {
    let mut t = [0; 64];
    t[32] = 0xFF;
    t
};

/// Moves the 32 bytes at `src + k` to `dst + k`.
///
/// # Safety
/// The processor has AVX2; both ranges are inside what the caller may read and write.
#[inline(always)]
unsafe fn move32(src: *const u8, dst: *mut u8, k: usize) {
    // SAFETY: the caller's promises.
    unsafe { _mm256_storeu_si256(dst.add(k).cast(), _mm256_loadu_si256(src.add(k).cast())) }
}

impl Kernel for Avx2 {
    const B: usize = 32;
    type V = __m256i;
    /// `0xFF` at each marked byte.
    type Near = __m256i;

    #[inline]
    fn available() -> bool {
        crate::simd::detect::has_avx2()
    }

    #[inline(always)]
    unsafe fn zero() -> __m256i {
        // SAFETY: the caller's promise about the processor.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    unsafe fn no_near() -> __m256i {
        // SAFETY: the caller's promise about the processor.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    unsafe fn mark(near: __m256i, k: usize) -> __m256i {
        // SAFETY: `k < 32`, so the 32 bytes from `32 - k` are inside `ONE_AT`; the caller's
        // promise about the processor.
        unsafe {
            let one = _mm256_loadu_si256(ONE_AT.as_ptr().add(32 - k).cast());
            _mm256_or_si256(near, one)
        }
    }

    #[inline(always)]
    unsafe fn block(at: *const u8, near: __m256i) -> __m256i {
        // SAFETY: the 32 bytes at `at` are readable (the caller's promise).
        unsafe { _mm256_andnot_si256(near, _mm256_loadu_si256(at.cast())) }
    }

    #[inline(always)]
    unsafe fn tail(at: *const u8, n: usize, room: usize, near: __m256i) -> __m256i {
        // SAFETY: `n < 32`, and the `room >= n` bytes at `at` are readable (the caller's
        // promises); the caller's promise about the processor.
        unsafe { _mm256_andnot_si256(near, last_block(at, n, room)) }
    }

    #[inline(always)]
    unsafe fn judge<const SHORTCUT: bool>(errors: __m256i, v: __m256i, prev: __m256i) -> __m256i {
        if SHORTCUT {
            // SAFETY: the caller's promise about the processor.
            unsafe { add_errors(errors, v, prev) }
        } else {
            // SAFETY: the caller's promise about the processor.
            unsafe { all_errors(errors, v, prev) }
        }
    }

    #[inline(always)]
    unsafe fn clean(errors: __m256i) -> bool {
        // SAFETY: the caller's promise about the processor.
        unsafe { _mm256_testz_si256(errors, errors) != 0 }
    }

    #[inline(always)]
    unsafe fn ascii_head(input: &[u8], p: usize) -> bool {
        if input.len() - p >= 32 {
            // SAFETY: the 32 bytes at `p` are inside `input`; the caller's promise about the
            // processor.
            unsafe { _mm256_movemask_epi8(_mm256_loadu_si256(input.as_ptr().add(p).cast())) == 0 }
        } else {
            input[p..].is_ascii()
        }
    }

    /// Overlapping moves of 32, 16, 8, 4 or single bytes by the length, with no call: a loop
    /// of 32-byte moves and one ending at the string's end for 32 bytes or more.
    #[inline(always)]
    unsafe fn copy(src: *const u8, len: usize, dst: *mut u8) {
        // SAFETY: every access below is inside `0..len` of both pointers (the caller's
        // promise): each move of `m` bytes starts at most `len - m` bytes in.
        unsafe {
            if len >= 32 {
                let mut k = 0;
                while len - k > 32 {
                    // An empty statement the compiler must keep, so that this stays a loop of
                    // moves instead of becoming a `memcpy` call.
                    core::arch::asm!("", options(nomem, nostack, preserves_flags));
                    move32(src, dst, k);
                    k += 32;
                }
                move32(src, dst, len - 32);
            } else if len >= 16 {
                let (a, b) = (src.cast::<[u8; 16]>(), src.add(len - 16).cast::<[u8; 16]>());
                let (a, b) = (a.read_unaligned(), b.read_unaligned());
                dst.cast::<[u8; 16]>().write_unaligned(a);
                dst.add(len - 16).cast::<[u8; 16]>().write_unaligned(b);
            } else if len >= 8 {
                let (a, b) = (src.cast::<u64>(), src.add(len - 8).cast::<u64>());
                let (a, b) = (a.read_unaligned(), b.read_unaligned());
                dst.cast::<u64>().write_unaligned(a);
                dst.add(len - 8).cast::<u64>().write_unaligned(b);
            } else if len >= 4 {
                let (a, b) = (src.cast::<u32>(), src.add(len - 4).cast::<u32>());
                let (a, b) = (a.read_unaligned(), b.read_unaligned());
                dst.cast::<u32>().write_unaligned(a);
                dst.add(len - 4).cast::<u32>().write_unaligned(b);
            } else if len > 0 {
                // 1 to 3 bytes: the first, the middle and the last (some of them the same).
                let (a, b, c) = (*src, *src.add(len / 2), *src.add(len - 1));
                *dst = a;
                *dst.add(len / 2) = b;
                *dst.add(len - 1) = c;
            }
        }
    }

    #[inline(always)]
    unsafe fn valid(input: &[u8], start: usize, len: usize) -> bool {
        // SAFETY: the caller's promise about the processor.
        unsafe { crate::simd::utf8::avx2::valid_call(input, start, len) }
    }

    #[target_feature(enable = "avx2")]
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
    unsafe fn save(v: __m256i) -> [u8; 64] {
        let mut bytes = [0u8; 64];
        // SAFETY: `__m256i` is 32 plain bytes.
        bytes[..32].copy_from_slice(&unsafe { core::mem::transmute::<__m256i, [u8; 32]>(v) });
        bytes
    }

    #[inline(always)]
    unsafe fn restore(bytes: &[u8; 64]) -> __m256i {
        // SAFETY: the 32 bytes are inside `bytes`; the caller's promise about the processor.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn near_bits(near: __m256i) -> u64 {
        // SAFETY: the caller's promise about the processor.
        unsafe { _mm256_movemask_epi8(near) as u32 as u64 }
    }

    #[inline(always)]
    unsafe fn near_from(bits: u64) -> __m256i {
        let mut bytes = [0u8; 32];
        for (k, b) in bytes.iter_mut().enumerate() {
            if bits >> k & 1 != 0 {
                *b = 0xFF;
            }
        }
        // SAFETY: 32 bytes; the caller's promise about the processor.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }
}
