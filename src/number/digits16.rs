//! A float's seventeen decimal digits at once: two numbers below 10^8 split into their digits
//! and one more digit appended, with SSE2 on x86-64 (every x86-64 has it) and with 64-bit lanes
//! in general registers elsewhere; and the one-instruction float truncation the exact-float
//! filter of `print.rs` uses.

/// The 17 digits of `hi`, `lo` (each `< 10^8`, leading zeros kept) and `last` (`< 10`), split
/// as a float's text needs them: the first digit's value; the other sixteen as ASCII, the
/// second digit in the lowest byte; and a mask of those sixteen with bit `i` set when digit `i`
/// is not zero.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn digits17(hi: u32, lo: u32, last: u32) -> (u8, u128, u32) {
    #[cfg(structio_x86)]
    {
        sse2::digits17(hi, lo, last)
    }
    #[cfg(not(structio_x86))]
    {
        digits17_swar(hi, lo, last)
    }
}

/// [`digits17`] in general registers (from [`digits16_swar`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
#[cfg(any(test, not(structio_x86)))]
pub(super) fn digits17_swar(hi: u32, lo: u32, last: u32) -> (u8, u128, u32) {
    use super::print::ZEROS;
    let (d, nonzero) = digits16_swar(hi, lo);
    let rest = (d >> 8) | (u128::from(last) << 120);
    let ascii = rest + u128::from(ZEROS) * ((1 << 64) + 1);
    (
        d as u8,
        ascii,
        (nonzero >> 1) | (u32::from(last != 0) << 15),
    )
}

/// The digits of `hi` then `lo` (each `< 10^8`, leading zeros kept) as byte values 0 to 9,
/// the first digit of `hi` in the lowest byte, and a mask with bit `i` set when digit `i` is
/// not zero: two 8-digit splits in general registers.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
#[cfg(any(test, not(structio_x86)))]
pub(super) fn digits16_swar(hi: u32, lo: u32) -> (u128, u32) {
    use super::print::digits8;
    let d = u128::from(digits8(hi)) | (u128::from(digits8(lo)) << 64);
    // Digits are below 128: adding 127 sets a byte's top bit exactly when it is not zero.
    let high = (d + 0x7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F)
        & (0x8080_8080_8080_8080_8080_8080_8080_8080);
    // Gather the top bits: bit 7 of byte i moves to bit 56 + i of each half, then down.
    let gather = |w: u64| ((w >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    (d, gather(high as u64) | (gather((high >> 64) as u64) << 8))
}

/// `x` truncated to an integer when it is in i64's range, i64::MIN otherwise (NaN too).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn trunc_i64(x: f64) -> i64 {
    #[cfg(structio_x86)]
    {
        sse2::trunc_i64(x)
    }
    #[cfg(not(structio_x86))]
    {
        trunc_i64_portable(x)
    }
}

/// [`trunc_i64`] with a range check and a saturating conversion.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
#[cfg(any(test, not(structio_x86)))]
pub(super) fn trunc_i64_portable(x: f64) -> i64 {
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

#[cfg(structio_x86)]
use crate::simd::digits16 as sse2;

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(hi: u32, lo: u32) -> (u128, u32) {
        let text = format!("{hi:08}{lo:08}");
        let mut v = 0u128;
        let mut mask = 0;
        for (i, c) in text.bytes().enumerate() {
            v |= u128::from(c - b'0') << (8 * i);
            mask |= u32::from(c != b'0') << i;
        }
        (v, mask)
    }

    fn reference17(hi: u32, lo: u32, last: u32) -> (u8, u128, u32) {
        let text = format!("{hi:08}{lo:08}{last}");
        let mut v = 0u128;
        let mut mask = 0;
        for (i, c) in text.bytes().skip(1).enumerate() {
            v |= u128::from(c) << (8 * i);
            mask |= u32::from(c != b'0') << i;
        }
        (text.as_bytes()[0] - b'0', v, mask)
    }

    #[test]
    fn truncation_both_ways() {
        let two63 = 9_223_372_036_854_775_808.0f64;
        for (x, want) in [
            (0.0, 0),
            (-0.0, 0),
            (1.9, 1),
            (-1.9, -1),
            (-two63, i64::MIN),
            (two63, i64::MIN),
            (
                f64::from_bits(two63.to_bits() - 1),
                9_223_372_036_854_774_784,
            ),
            (1e300, i64::MIN),
            (f64::INFINITY, i64::MIN),
            (f64::NEG_INFINITY, i64::MIN),
            (f64::NAN, i64::MIN),
            (5e-324, 0),
        ] {
            assert_eq!(trunc_i64(x), want, "{x:e}");
            assert_eq!(trunc_i64_portable(x), want, "{x:e}");
        }
        let mut b: u64 = 0x853C_49E6_748F_EA9B;
        for _ in 0..100_000 {
            b ^= b << 13;
            b ^= b >> 7;
            b ^= b << 17;
            let x = f64::from_bits(b);
            assert_eq!(trunc_i64(x), trunc_i64_portable(x), "{x:e}");
        }
    }

    #[test]
    fn both_ways_agree_with_formatting() {
        let mut x: u64 = 0x853C_49E6_748F_EA9B;
        let check = |hi: u32, lo: u32| {
            assert_eq!(digits16_swar(hi, lo), reference(hi, lo), "{hi} {lo}");
            let last = (hi ^ lo) % 10;
            let want = reference17(hi, lo, last);
            assert_eq!(digits17(hi, lo, last), want, "{hi} {lo} {last}");
            assert_eq!(digits17_swar(hi, lo, last), want, "{hi} {lo} {last}");
            assert_eq!(digits17(hi, lo, 0), reference17(hi, lo, 0), "{hi} {lo}");
        };
        for v in [
            0, 1, 9, 10, 99, 100, 9_999, 10_000, 99_999_999, 12_345_678, 50_000_000,
        ] {
            check(v, 99_999_999 - v);
        }
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check((x % 100_000_000) as u32, ((x >> 32) % 100_000_000) as u32);
        }
        for v in (0..100_000_000).step_by(9_973) {
            check(v, v);
        }
    }
}
