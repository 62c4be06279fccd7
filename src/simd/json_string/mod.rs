//! JSON strings copied and scanned in one step: blocks of string bytes are copied to their
//! destination while their `"`, `\` and control bytes are found, 16 bytes at a time everywhere
//! ([`Narrow`]: SSE2 on x86_64, SWAR elsewhere, through [`special_bits16`]) and 32 bytes at a
//! time with AVX2 when the processor has it ([`Avx2`]; [`has_avx2`] asks once and caches the
//! answer, or is a constant when the build enables AVX2). Callers run whole loops inside one
//! `#[target_feature(enable = "avx2")]` function, never one detected call per block.
//!
//! - [`escape`]: the JSON string writer, stores into spare capacity reserved for the worst
//!   case.
//! - [`unescape`]: reading a JSON string into a reused `String`, blocks stored into its spare
//!   capacity while they are scanned.
//!
//! [`has_avx2`]: crate::simd::detect::has_avx2

pub(crate) mod escape;
pub(crate) mod unescape;

use super::json_scan::special_bits16;

/// A way to copy a block of string bytes and find its `"`, `\` and control bytes.
pub(crate) trait CopyScan {
    /// Bytes per block (16 or 32).
    const W: usize;
    /// Copies the `W` bytes at `src` to `dst` and returns a mask with bit `k` set when byte
    /// `k` is `"`, `\` or below 0x20.
    ///
    /// # Safety
    /// `src` is readable and `dst` writable for `W` bytes, and the processor has the
    /// instructions the implementation uses.
    unsafe fn copy_scan(src: *const u8, dst: *mut u8) -> u32;
}

/// Sixteen bytes through [`special_bits16`]: SSE2 on x86_64 (part of every x86_64 target),
/// SWAR elsewhere. Needs no run-time check.
pub(crate) struct Narrow;

impl CopyScan for Narrow {
    const W: usize = 16;
    #[inline(always)]
    unsafe fn copy_scan(src: *const u8, dst: *mut u8) -> u32 {
        // SAFETY: the caller guarantees 16 readable bytes at `src` and 16 writable at `dst`;
        // both accesses are unaligned reads/writes of a byte array.
        let a = unsafe { src.cast::<[u8; 16]>().read_unaligned() };
        // SAFETY: 16 writable bytes at `dst` (the caller's promise), an unaligned write.
        unsafe { dst.cast::<[u8; 16]>().write_unaligned(a) };
        special_bits16(&a)
    }
}

/// Thirty-two bytes with AVX2; only for callers that checked
/// [`has_avx2`](crate::simd::detect::has_avx2).
#[cfg(structio_x86)]
pub(crate) struct Avx2;

#[cfg(structio_x86)]
impl CopyScan for Avx2 {
    const W: usize = 32;
    #[inline(always)]
    unsafe fn copy_scan(src: *const u8, dst: *mut u8) -> u32 {
        use core::arch::x86_64::{
            __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_movemask_epi8,
            _mm256_or_si256, _mm256_set1_epi8, _mm256_storeu_si256,
        };
        // SAFETY: the caller guarantees 32 readable bytes at `src`, 32 writable at `dst` (the
        // load and store are unaligned) and a processor with AVX2 (this is only reached from
        // functions compiled with `target_feature(enable = "avx2")`, called after
        // `has_avx2()` said yes). The rest computes on register values.
        unsafe {
            let v = _mm256_loadu_si256(src.cast::<__m256i>());
            _mm256_storeu_si256(dst.cast::<__m256i>(), v);
            let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
            let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
            // Unsigned `v <= 0x1F` is `max(v, 0x1F) == 0x1F`.
            let low = _mm256_set1_epi8(0x1F);
            let control = _mm256_cmpeq_epi8(_mm256_max_epu8(v, low), low);
            _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(quote, backslash), control)) as u32
        }
    }
}
