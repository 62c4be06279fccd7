//! Finding the bytes a JSON string cannot hold raw (`"`, `\` and control bytes below 0x20)
//! sixteen at a time. On x86_64 this uses SSE2, which every x86_64 processor has (the build
//! enables it statically, so no runtime detection is needed; the block is loaded with a plain
//! array copy, so the only `unsafe` is calling the value-only intrinsics). Elsewhere two SWAR
//! words do the same; both are tested against a byte-by-byte reference.

/// Bit `k` set when byte `k` of `block` is `"`, `\` or below 0x20 (exact for every byte).
#[inline(always)]
pub(crate) fn special_bits16(block: &[u8; 16]) -> u32 {
    #[cfg(structio_x86)]
    {
        sse2::special_bits16(block)
    }
    #[cfg(not(structio_x86))]
    {
        swar_special_bits16(block)
    }
}

/// Bit `k` set when byte `k` of `block` is not ASCII (its high bit is set).
#[inline(always)]
pub(crate) fn high_bits16(block: &[u8; 16]) -> u32 {
    #[cfg(structio_x86)]
    {
        sse2::high_bits16(block)
    }
    #[cfg(not(structio_x86))]
    {
        swar_high_bits16(block)
    }
}

/// Bit `k` set when byte `k` of `block` is JSON whitespace (space, tab, LF, CR).
#[inline(always)]
pub(crate) fn ws_bits16(block: &[u8; 16]) -> u32 {
    #[cfg(structio_x86)]
    {
        sse2::ws_bits16(block)
    }
    #[cfg(not(structio_x86))]
    {
        swar_ws_bits16(block)
    }
}

/// Two masks of `block`: bit `k` of the first set when byte `k` is an ASCII digit, bit `k` of
/// the second when it is any byte a JSON number has (a digit, `.`, `-`, `+`, `e` or `E`).
#[inline(always)]
pub(crate) fn number_bits16(block: &[u8; 16]) -> (u32, u32) {
    #[cfg(structio_x86)]
    {
        sse2::number_bits16(block)
    }
    #[cfg(not(structio_x86))]
    {
        swar_number_bits16(block)
    }
}

/// Bit `k` set when byte `k` of `a` equals byte `k` of `b`.
#[inline(always)]
pub(crate) fn eq_bits16(a: &[u8; 16], b: &[u8; 16]) -> u32 {
    #[cfg(structio_x86)]
    {
        sse2::eq_bits16(a, b)
    }
    #[cfg(not(structio_x86))]
    {
        swar_eq_bits16(a, b)
    }
}

#[cfg(structio_x86)]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_sub_epi8,
    };

    #[inline(always)]
    pub(super) fn special_bits16(block: &[u8; 16]) -> u32 {
        let v: __m128i = bytemuck::cast(*block);
        // SAFETY: these intrinsics only compute on register values; their one requirement is
        // the SSE2 instruction set, which this module is compiled only with
        // (`cfg(target_feature = "sse2")`, part of every x86_64 target).
        unsafe { bits(v) }
    }

    #[inline(always)]
    pub(super) fn high_bits16(block: &[u8; 16]) -> u32 {
        let v: __m128i = bytemuck::cast(*block);
        // SAFETY: as in `special_bits16`.
        unsafe { _mm_movemask_epi8(v) as u32 }
    }

    #[inline(always)]
    pub(super) fn ws_bits16(block: &[u8; 16]) -> u32 {
        let v: __m128i = bytemuck::cast(*block);
        // SAFETY: as in `special_bits16`.
        unsafe { ws(v) }
    }

    #[inline(always)]
    pub(super) fn eq_bits16(a: &[u8; 16], b: &[u8; 16]) -> u32 {
        let a: __m128i = bytemuck::cast(*a);
        let b: __m128i = bytemuck::cast(*b);
        // SAFETY: as in `special_bits16`.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) as u32 }
    }

    #[inline(always)]
    pub(super) fn number_bits16(block: &[u8; 16]) -> (u32, u32) {
        let v: __m128i = bytemuck::cast(*block);
        // SAFETY: as in `special_bits16`.
        unsafe {
            let digits = digit_lanes(v);
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            // `e` and `E` differ only in bit 0x20.
            let e = _mm_cmpeq_epi8(
                _mm_or_si128(v, _mm_set1_epi8(0x20)),
                _mm_set1_epi8(b'e' as i8),
            );
            let signs = _mm_or_si128(eq(b'-'), eq(b'+'));
            let number = _mm_or_si128(_mm_or_si128(digits, e), _mm_or_si128(signs, eq(b'.')));
            (
                _mm_movemask_epi8(digits) as u32,
                _mm_movemask_epi8(number) as u32,
            )
        }
    }

    /// 0xFF in each lane of `v` that holds an ASCII digit, 0 elsewhere.
    #[inline(always)]
    unsafe fn digit_lanes(v: __m128i) -> __m128i {
        // `b - '0'` (wrapping) is at most 9 exactly for the digits; unsigned `x <= 9` is
        // `max(x, 9) == 9`.
        let x = _mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8));
        let nine = _mm_set1_epi8(9);
        _mm_cmpeq_epi8(_mm_max_epu8(x, nine), nine)
    }

    #[inline(always)]
    unsafe fn ws(v: __m128i) -> u32 {
        let space = _mm_cmpeq_epi8(v, _mm_set1_epi8(b' ' as i8));
        let lf = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8));
        let tab = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\t' as i8));
        let cr = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\r' as i8));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(space, lf), _mm_or_si128(tab, cr))) as u32
    }

    #[inline(always)]
    unsafe fn bits(v: __m128i) -> u32 {
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        // Unsigned `v <= 0x1F` is `max(v, 0x1F) == 0x1F`.
        let low = _mm_set1_epi8(0x1F);
        let control = _mm_cmpeq_epi8(_mm_max_epu8(v, low), low);
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
    }
}

#[cfg(any(test, not(structio_x86)))]
pub(crate) use swar::{
    swar_eq_bits16, swar_high_bits16, swar_number_bits16, swar_special_bits16, swar_ws_bits16,
};

/// The masks without SIMD instructions: two 64-bit words per block. What other targets (and
/// a `STRUCTIO_PORTABLE` build) use; on x86_64 built for the tests, which hold them to the
/// same reference.
#[cfg(any(test, not(structio_x86)))]
mod swar {
    /// The 8-bit masks `f` gives for the two halves of `block`, as one 16-bit mask.
    #[inline(always)]
    fn per_half(block: &[u8; 16], f: impl Fn(u64) -> u32) -> u32 {
        let w = u128::from_le_bytes(*block);
        f(w as u64) | f((w >> 64) as u64) << 8
    }

    /// [`super::special_bits16`] without SIMD instructions: exact per byte (no borrow between
    /// bytes).
    #[inline(always)]
    pub(crate) fn swar_special_bits16(block: &[u8; 16]) -> u32 {
        per_half(block, swar_bits8)
    }

    /// [`super::high_bits16`] without SIMD instructions.
    #[inline(always)]
    pub(crate) fn swar_high_bits16(block: &[u8; 16]) -> u32 {
        per_half(block, |w| gather(w & !LOW7))
    }

    /// [`super::ws_bits16`] without SIMD instructions.
    #[inline(always)]
    pub(crate) fn swar_ws_bits16(block: &[u8; 16]) -> u32 {
        per_half(block, swar_ws8)
    }

    /// [`super::number_bits16`] without SIMD instructions.
    #[inline(always)]
    pub(crate) fn swar_number_bits16(block: &[u8; 16]) -> (u32, u32) {
        (
            per_half(block, |w| gather(digit_highs(w))),
            per_half(block, |w| {
                let zero = zero_bytes;
                gather(
                    digit_highs(w)
                        | zero((w | (ONES * 0x20)) ^ (ONES * u64::from(b'e')))
                        | zero(w ^ (ONES * u64::from(b'-')))
                        | zero(w ^ (ONES * u64::from(b'+')))
                        | zero(w ^ (ONES * u64::from(b'.'))),
                )
            }),
        )
    }

    /// [`super::eq_bits16`] without SIMD instructions.
    #[inline(always)]
    pub(crate) fn swar_eq_bits16(a: &[u8; 16], b: &[u8; 16]) -> u32 {
        let x = u128::from_le_bytes(*a) ^ u128::from_le_bytes(*b);
        gather(zero_bytes(x as u64)) | gather(zero_bytes((x >> 64) as u64)) << 8
    }

    /// The high bit of each byte of `w` that is an ASCII digit: `t = b ^ 0x30` is below 10
    /// exactly for the digits; `(t & 7F) + 76` sets the high bit when the low seven bits reach 10
    /// (never carrying out of the byte), and `| t` adds the bytes with the high bit set.
    #[inline(always)]
    fn digit_highs(w: u64) -> u64 {
        let t = w ^ (ONES * 0x30);
        let big = ((t & LOW7).wrapping_add(ONES * 0x76)) | t;
        !big & !LOW7
    }

    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

    /// The high bit of each zero byte of `x`, exactly: the high bit of `((x & 7F) + 7F) | x` is set
    /// iff the byte is non-zero, and the addition never carries into the next byte.
    #[inline(always)]
    fn zero_bytes(x: u64) -> u64 {
        !(((x & LOW7).wrapping_add(LOW7)) | x) & !LOW7
    }

    /// Gathers the high bit of each byte of `m` into the low eight bits.
    #[inline(always)]
    fn gather(m: u64) -> u32 {
        ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    /// One bit per byte of `w` (little-endian order) that is JSON whitespace.
    #[inline(always)]
    fn swar_ws8(w: u64) -> u32 {
        gather(
            zero_bytes(w ^ (ONES * b' ' as u64))
                | zero_bytes(w ^ (ONES * b'\n' as u64))
                | zero_bytes(w ^ (ONES * b'\t' as u64))
                | zero_bytes(w ^ (ONES * b'\r' as u64)),
        )
    }

    /// One bit per byte of `w` (little-endian order) that is `"`, `\` or below 0x20.
    #[inline(always)]
    fn swar_bits8(w: u64) -> u32 {
        let zero = zero_bytes;
        let quote = zero(w ^ (ONES * b'"' as u64));
        let backslash = zero(w ^ (ONES * b'\\' as u64));
        // Below 0x20: the top three bits are all zero.
        let control = zero(w & (ONES * 0xE0));
        gather(quote | backslash | control)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(block: &[u8; 16]) -> u32 {
        let mut m = 0;
        for (k, &b) in block.iter().enumerate() {
            if b == b'"' || b == b'\\' || b < 0x20 {
                m |= 1 << k;
            }
        }
        m
    }

    #[test]
    fn simd_and_swar_agree_with_the_reference_for_every_byte_at_every_position() {
        for v in 0..=255u8 {
            for pos in 0..16 {
                for fill in [
                    b'a', 0x80, 0xFF, b'"', 0x1F, 0x20, b'\n', 0x8D, b'0', b'9', b'/', b':', 0xB9,
                ] {
                    let mut block = [fill; 16];
                    block[pos] = v;
                    let want = reference(&block);
                    assert_eq!(
                        special_bits16(&block),
                        want,
                        "{v:#x} at {pos}, fill {fill:#x}"
                    );
                    assert_eq!(swar_special_bits16(&block), want, "{v:#x} at {pos}");
                    let mut ws = 0;
                    for (k, &b) in block.iter().enumerate() {
                        if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                            ws |= 1 << k;
                        }
                    }
                    let mut high = 0;
                    for (k, &b) in block.iter().enumerate() {
                        if b >= 0x80 {
                            high |= 1 << k;
                        }
                    }
                    assert_eq!(high_bits16(&block), high, "{v:#x} at {pos}");
                    assert_eq!(swar_high_bits16(&block), high, "{v:#x} at {pos}");
                    assert_eq!(ws_bits16(&block), ws, "{v:#x} at {pos}");
                    assert_eq!(swar_ws_bits16(&block), ws, "{v:#x} at {pos}");
                    let mut digits = 0;
                    for (k, &b) in block.iter().enumerate() {
                        if b.is_ascii_digit() {
                            digits |= 1 << k;
                        }
                    }
                    let mut number = 0;
                    for (k, &b) in block.iter().enumerate() {
                        if b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E') {
                            number |= 1 << k;
                        }
                    }
                    assert_eq!(number_bits16(&block), (digits, number), "{v:#x} at {pos}");
                    assert_eq!(
                        swar_number_bits16(&block),
                        (digits, number),
                        "{v:#x} at {pos}"
                    );
                    let other = [fill; 16];
                    let mut eq = 0;
                    for (k, (&a, &b)) in block.iter().zip(&other).enumerate() {
                        if a == b {
                            eq |= 1 << k;
                        }
                    }
                    assert_eq!(eq_bits16(&block, &other), eq, "{v:#x} at {pos}");
                    assert_eq!(swar_eq_bits16(&block, &other), eq, "{v:#x} at {pos}");
                }
            }
        }
    }
}
