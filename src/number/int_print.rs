//! 64-bit integers to decimal text: four digits at a time from a table, split off with
//! multiplications by scaled reciprocals (no division instructions), and stored as fixed-size
//! blocks (one head of 1 to 8 bytes with the leading zeros shifted out, then whole blocks of
//! eight or sixteen digits).
//!
//! A branch on the magnitude picks one of three layouts: below 10^8 the number is one head of
//! up to eight digits; below 10^16 a head of up to eight and a block of eight; otherwise a head
//! of up to four (`u64::MAX` has 20 digits) and a block of sixteen. Inside a layout nothing
//! branches on the digit count: the leading zeros are counted from the digits themselves.

use crate::json::out::Out;

/// Entries in [`QUADS`]: a power of two, so an index masked with `QUADS_LEN - 1` needs no
/// bounds check. Only the first 10 000 entries are ever read.
const QUADS_LEN: usize = 1 << 14;

/// `QUADS[i]` for `i < 10_000`: the four ASCII digits of `i` with leading zeros, the first
/// digit in the lowest byte (so the little-endian bytes read in order).
static QUADS: [u32; QUADS_LEN] = quads();

const fn quads() -> [u32; QUADS_LEN] {
    let mut t = [0u32; QUADS_LEN];
    let mut i = 0;
    while i < 10_000 {
        let d = [i / 1000, i / 100 % 10, i / 10 % 10, i % 10];
        t[i] = (b'0' as u32 + d[0] as u32)
            | ((b'0' as u32 + d[1] as u32) << 8)
            | ((b'0' as u32 + d[2] as u32) << 16)
            | ((b'0' as u32 + d[3] as u32) << 24);
        i += 1;
    }
    t
}

/// ASCII `0` in every byte.
const ZEROS: u64 = 0x3030_3030_3030_3030;

const E8: u64 = 100_000_000;
const E16: u64 = E8 * E8;

/// The four digits of `x < 10^4` as ASCII, the first in the lowest byte.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn quad(x: u64) -> u64 {
    u64::from(QUADS[x as usize & (QUADS_LEN - 1)])
}

/// The eight digits of `x < 10^8` (leading zeros included) as ASCII, the first in the lowest
/// byte.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn eight(x: u64) -> u64 {
    // x / 10^4 for x < 4.9 * 10^8: 109_951_163 is 2^40 / 10^4 rounded up.
    let hi = (x * 109_951_163) >> 40;
    quad(hi) | (quad(x - hi * 10_000) << 32)
}

/// The digits of `x < 10^8` without leading zeros (`0` for zero) as ASCII from the lowest
/// byte, and their count.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn head8(x: u64) -> (u64, usize) {
    let w = eight(x);
    // Leading `0`s are the low bytes that are zero after the xor; the top byte is never
    // counted, so at least one digit stays.
    let lz = (((w ^ ZEROS) | (1 << 56)).trailing_zeros() / 8) as usize;
    (w >> (lz * 8), 8 - lz)
}

/// The digits of `x < 10^4` without leading zeros as ASCII from the lowest byte, and their
/// count.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn head4(x: u64) -> (u64, usize) {
    let w = quad(x);
    let lz = (((w ^ ZEROS) | (1 << 24)).trailing_zeros() / 8) as usize;
    (w >> (lz * 8), 4 - lz)
}

/// Two words side by side as sixteen bytes.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn pair_bytes(a: u64, b: u64) -> [u8; 16] {
    (u128::from(a) | (u128::from(b) << 64)).to_le_bytes()
}

/// Appends the decimal digits of `v`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn push_u64<O: Out>(out: &mut O, v: u64) {
    push_int::<O, false, false>(out, false, v);
}

/// Appends an `i64`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn push_i64<O: Out>(out: &mut O, v: i64) {
    push_int::<O, false, true>(out, v < 0, v.unsigned_abs());
}

/// Appends `,` and the decimal digits of `v`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn push_u64_after_comma<O: Out>(out: &mut O, v: u64) {
    push_int::<O, true, false>(out, false, v);
}

/// Appends `,` and an `i64`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn push_i64_after_comma<O: Out>(out: &mut O, v: i64) {
    push_int::<O, true, true>(out, v < 0, v.unsigned_abs());
}

/// Appends a `,` when `COMMA`, a `-` when `neg` (only ever set when `SIGNED`), then the digits
/// of `mag`: two or three fixed-size stores with one check of the room.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn push_int<O: Out, const COMMA: bool, const SIGNED: bool>(
    out: &mut O,
    neg: bool,
    mag: u64,
) {
    // The prefix (stored whole, then cut to its first `np` bytes).
    let (prefix, np) = if COMMA {
        (*b",-", 1 + usize::from(neg))
    } else {
        (*b"-\0", usize::from(neg))
    };
    let has_prefix = COMMA || SIGNED;
    if mag < E8 {
        let (w, n) = head8(mag);
        if has_prefix {
            out.push_block2(prefix, np, w.to_le_bytes(), n);
        } else {
            out.push_block(w.to_le_bytes(), n);
        }
    } else if mag < E16 {
        let hi = mag / E8;
        let (w, n) = head8(hi);
        let tail = eight(mag - hi * E8).to_le_bytes();
        if has_prefix {
            out.push_block3((prefix, np), (w.to_le_bytes(), n), (tail, 8));
        } else {
            out.push_block2(w.to_le_bytes(), n, tail, 8);
        }
    } else {
        // `top` is at most 1844 (four digits); `hi` and `mag` each leave eight below it.
        let hi = mag / E8;
        let top = hi / E8;
        let (w, n) = head4(top);
        let head = (w as u32).to_le_bytes();
        let tail = pair_bytes(eight(hi - top * E8), eight(mag - hi * E8));
        if has_prefix {
            out.push_block3((prefix, np), (head, n), (tail, 16));
        } else {
            out.push_block2(head, n, tail, 16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::spare::Spare;

    /// The text `f` writes into a `String`, checked against what it writes into a `Vec<u8>`
    /// and into a cursor after some other bytes.
    fn text(f: impl Fn(&mut dyn FnMut(&mut dyn OutDyn))) -> String {
        let mut s = String::new();
        f(&mut |o| o.string(&mut s));
        let mut b = Vec::new();
        f(&mut |o| o.bytes(&mut b));
        assert_eq!(s.as_bytes(), b);
        let mut c = b"x".to_vec();
        f(&mut |o| o.cursor(&mut Spare::new(&mut c, 0)));
        assert_eq!(&c[1..], b);
        s
    }

    /// One writer, run on each kind of output.
    trait OutDyn {
        fn string(&self, s: &mut String);
        fn bytes(&self, s: &mut Vec<u8>);
        fn cursor(&self, s: &mut Spare<'_>);
    }

    struct U(u64, bool);
    struct I(i64, bool);

    impl OutDyn for U {
        fn string(&self, s: &mut String) {
            run_u(s, self.0, self.1)
        }
        fn bytes(&self, s: &mut Vec<u8>) {
            run_u(s, self.0, self.1)
        }
        fn cursor(&self, s: &mut Spare<'_>) {
            run_u(s, self.0, self.1)
        }
    }

    impl OutDyn for I {
        fn string(&self, s: &mut String) {
            run_i(s, self.0, self.1)
        }
        fn bytes(&self, s: &mut Vec<u8>) {
            run_i(s, self.0, self.1)
        }
        fn cursor(&self, s: &mut Spare<'_>) {
            run_i(s, self.0, self.1)
        }
    }

    fn run_u<O: Out>(out: &mut O, v: u64, comma: bool) {
        if comma {
            push_u64_after_comma(out, v)
        } else {
            push_u64(out, v)
        }
    }

    fn run_i<O: Out>(out: &mut O, v: i64, comma: bool) {
        if comma {
            push_i64_after_comma(out, v)
        } else {
            push_i64(out, v)
        }
    }

    /// `v` written alone, checked against `v` written after a comma.
    fn u(v: u64) -> String {
        let t = text(|f| f(&mut U(v, false)));
        assert_eq!(text(|f| f(&mut U(v, true))), format!(",{t}"));
        t
    }

    fn i(v: i64) -> String {
        let t = text(|f| f(&mut I(v, false)));
        assert_eq!(text(|f| f(&mut I(v, true))), format!(",{t}"));
        t
    }

    /// The values around every power of ten, every digit count from 1 to 20.
    fn boundaries() -> Vec<u64> {
        let mut v = vec![0, 1, 9, u64::MAX, u64::MAX - 1, i64::MAX as u64, 1 << 63];
        let mut p = 1u64;
        for _ in 0..20 {
            v.extend([p - 1, p, p + 1, p.wrapping_mul(5), p.wrapping_mul(9)]);
            let (next, over) = p.overflowing_mul(10);
            if !over {
                v.extend([next - 1, next / 2]);
            }
            p = next;
        }
        v
    }

    #[test]
    fn every_digit_count_and_boundary() {
        let mut counts = [false; 21];
        for x in boundaries() {
            let text = u(x);
            assert_eq!(text, itoa::Buffer::new().format(x), "{x}");
            counts[text.len()] = true;
            let s = x as i64;
            assert_eq!(i(s), s.to_string());
            assert_eq!(i(s.wrapping_neg()), s.wrapping_neg().to_string());
        }
        assert!(counts[1..].iter().all(|&c| c));
        assert_eq!(i(i64::MIN), "-9223372036854775808");
        assert_eq!(i(i64::MAX), "9223372036854775807");
        assert_eq!(u(u64::MAX), "18446744073709551615");
        assert_eq!(u(0), "0");
        assert_eq!(i(0), "0");
        assert_eq!(i(-1), "-1");
    }

    #[test]
    fn random_values_of_every_width() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for k in 0..400_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // A random width too: shift away 0 to 63 high bits.
            let v = x >> (k % 64);
            assert_eq!(u(v), v.to_string());
            assert_eq!(i(v as i64), (v as i64).to_string());
        }
    }

    #[test]
    fn eight_digits_exact() {
        // The split in `eight` is exact for every value below 10^8; check a dense sample and
        // the reciprocal's bound over the whole range.
        for x in (0..E8).step_by(7_919).chain(E8 - 10_000..E8) {
            assert_eq!(eight(x).to_le_bytes(), format!("{x:08}").as_bytes());
        }
        for hi in 0..10_000u64 {
            // The largest x with x / 10^4 == hi.
            let x = hi * 10_000 + 9_999;
            assert_eq!((x * 109_951_163) >> 40, hi);
            assert_eq!(((hi * 10_000) * 109_951_163) >> 40, hi);
        }
        for x in 0..10_000 {
            assert_eq!(quad(x).to_le_bytes()[..4], *format!("{x:04}").as_bytes());
            let (w, n) = head4(x);
            assert_eq!(w.to_le_bytes()[..n], *x.to_string().as_bytes());
        }
    }

    #[test]
    fn runs_through_a_cursor() {
        let values = boundaries();
        let mut out = b"[".to_vec();
        {
            let mut s = Spare::new(&mut out, 0);
            for &v in &values {
                push_u64(&mut s, v);
                s.byte(b',');
                push_i64(&mut s, v as i64);
                s.byte(b',');
            }
        }
        let mut want = String::from("[");
        for &v in &values {
            want.push_str(&format!("{v},{},", v as i64));
        }
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}
