//! The shortest decimal that reads back to a given `f64`, laid out as Glaze lays it out, in one
//! pass and without an intermediate text.
//!
//! The value `m * 2^e` (53-bit `m`) is scaled by `10^k` so that its integer part has 15 or 16
//! digits: `c = m * 2^e * 10^k`, `k = -floor(e * log10 2) - 1`, computed from the 128-bit power
//! of ten in [`POW5`] as a fixed-point number with 64 fraction bits. In units of `10^-k`, the
//! numbers that read back to the value are those within half a unit in the last place (`h`)
//! of `c`, and `h` lies in [0.05, 0.5):
//! - at most one integer is that close, `floor(c)` or `floor(c) + 1`; when one is, it is the
//!   shortest text (any shorter decimal is also an integer in these units), with its trailing
//!   zeros dropped;
//! - otherwise one more digit is needed, and `c` rounded to the nearest tenth is within `h`.
//!
//! The computed `c` and `h` are within two units of 2^-64 of the exact ones (the power of ten
//! is within one unit of its 128th bit). Where the power of ten is exact (`0 <= k <= 27`) and
//! `c` has at most 64 fraction bits, the computation is exact and every decision is taken
//! exactly, ties included; integers from 2^52 to 2^64 are decided in integer arithmetic.
//! Elsewhere a decision is taken only when it holds with a margin larger than the error; the
//! rare values too close to call, subnormals and powers of two (whose lower neighbour is
//! closer) return `None`, and the caller takes the fully general path (zmij's digits). So the
//! answer is always the correctly rounded shortest text; the unit tests compare the two paths
//! on millions of values.

use super::digits16::digits17;
use super::pow5::{POW5, POW5_MIN};
use crate::json::out::Out;

/// A decision closer than this many units of 2^-64 to its boundary is not taken. The error of
/// `c`'s fraction and of `h` is below 2.1 units each.
const MARGIN: u64 = 16;

/// `floor(e * log10(2))` for `|e| <= 1600` (exact there; checked by the tests).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn floor_log10_pow2(e: i32) -> i32 {
    (e * 78_913) >> 18
}

/// `floor(k * log2(10))` for `|k| <= 400` (exact there; checked by the tests).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn floor_log2_pow10(k: i32) -> i32 {
    (k * 217_706) >> 16
}

/// The shortest decimal that reads back to the finite, positive `f64` with bits `bits`, as 17
/// digits (the zeros at its end are not significant) and the decimal exponent of the first
/// digit: `(head, last, e10)` for `(10 * head + last) * 10^(e10 - 16)`, `head` of exactly 16
/// digits and `last` one digit. `None` when the value is one the fast computation leaves to the
/// general path. (The 17 digits come in two parts so that the writer splits `head` alone.)
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn shortest(bits: u64) -> Option<(u64, u64, i32)> {
    const FRAC_BITS: u64 = (1 << 52) - 1;
    let raw_exp = ((bits >> 52) & 0x7FF) as i32;
    let frac_bits = bits & FRAC_BITS;
    // One compare for subnormals (0), infinities and NaN (0x7FF).
    if (raw_exp as u32).wrapping_sub(1) >= 0x7FE || frac_bits == 0 {
        return None;
    }
    let m = frac_bits | (1 << 52);
    let e = raw_exp - 1075;
    let dec_exp = floor_log10_pow2(e);
    let k = -dec_exp - 1;
    // 10^k = P * 2^(floor(k log2 10) - 127), P the 128-bit significand of 5^k.
    let (p_hi, p_lo) = *POW5.get((k as i64 - POW5_MIN) as usize)?;
    // c * 2^64 = m * P * 2^(e + floor(k log2 10) - 63). With x = m << 11 and the top 128 bits
    // of the 192-bit product x * P, that is top >> s with s = 10 - e - floor(k log2 10), which
    // lies in [11, 16] for every normal exponent (checked by the tests).
    let s = (10 - e - floor_log2_pow10(k)) as u32;
    let x = u128::from(m << 11);
    let top = x * u128::from(p_hi) + ((x * u128::from(p_lo)) >> 64);
    // `top >> s` in two words (`s` is below 64, which a u128 shift cannot assume).
    let (top_hi, top_lo) = ((top >> 64) as u64, top as u64);
    let integral = top_hi >> s;
    let frac = (top_hi << (64 - s)) | (top_lo >> s);
    // h * 2^64 = P * 2^(e + floor(k log2 10) - 64) = P_hi >> (s - 10).
    let h = p_hi >> (s - 10);
    // `floor(c)` is in the interval when frac <= h; `floor(c) + 1` when 1 - frac <= h.
    let up = frac.wrapping_neg();
    // `integral` has 15 or 16 digits: a 15-digit one is scaled by ten to the 16 digits of
    // `head` (a shift-and-add, no multiply), and the first digit's exponent is `e10`.
    let wide = integral >= E15;
    let integral_10 = integral * 10;
    let e10 = dec_exp + 15 + i32::from(wide);
    // Decisions with a margin over the error first: they hold everywhere, and take almost all
    // values. `h` is at least 2^59 (0.05 in units of 2^-64), so `h - MARGIN` does not wrap.
    let near = h - MARGIN;
    if frac <= near {
        return Some((if wide { integral } else { integral_10 }, 0, e10));
    }
    // (`up` is 0 only when `frac` is, which returned above.)
    if up <= near {
        // 15 or 16 digits, or 17 when it is 10^16 (then `head` is 10^15).
        let n = integral + 1;
        return Some(if n < E15 {
            (n * 10, 0, dec_exp + 15)
        } else if n < E16 {
            (n, 0, dec_exp + 16)
        } else {
            (E15, 0, dec_exp + 17)
        });
    }
    // Both ends are beyond `h - MARGIN`; neither is in the interval unless within `h + MARGIN`.
    if frac.min(up) >= h + MARGIN {
        // One more digit: c rounded to tenths. The error of `frac * 10` is below 21 units.
        let t = u128::from(frac) * 10;
        let rest = t as u64;
        let digit = (t >> 64) as u64 + (rest >> 63);
        // Not within 16 margins of a tie: |rest - 2^63| >= 16 MARGIN, in one compare.
        let off_tie = rest.wrapping_sub((1 << 63) - 16 * MARGIN) >= 32 * MARGIN;
        // `digit` is at most 9 here: `up >= h + MARGIN` with `h >= 0.05` (less its error of
        // 2.1 units) leaves `frac * 10` below 9.5 by more than the tie band, which `off_tie`
        // excludes. (The tests compare every answer with the general path.)
        debug_assert!(!off_tie || digit <= 9, "{frac} {h}");
        if off_tie {
            // 16 digits and the extra one, or 15 and the extra one (then 16 in `head`).
            return Some(if wide {
                (integral, digit, e10)
            } else {
                (integral_10 + digit, 0, e10)
            });
        }
    }
    let c = Scaled {
        integral,
        frac,
        h,
        e10,
    };
    // A pair, not an `Option`, from the call: an `Option` of it is returned through memory,
    // and the compiler then stored every result of the inlined fast path there too.
    let (sig, e10) = close_call(m, e, k, &c);
    let head = sig / 10;
    (sig != 0).then_some((head, sig - 10 * head, e10))
}

/// `c` and `h` of [`shortest`] in units of `10^-k`: the integer part, the fraction and `h` in
/// units of 2^-64, and the decimal exponent of the first digit of the 17-digit result.
struct Scaled {
    integral: u64,
    frac: u64,
    h: u64,
    e10: i32,
}

/// The values [`shortest`] cannot decide with a margin: decided exactly where the arithmetic
/// is exact, else a zero significand (the general path).
///
/// For 0 <= k <= 27 the power of ten is exact (5^k fits the high word) and, when
/// e + k >= -63, so are `c` and `h` in 64 fraction bits: every decision is taken exactly,
/// ties included. A boundary reads back to the value when `m` is even (round half to even).
/// Integers from 2^52 to 2^64 are decided in integer arithmetic.
#[cold]
#[inline(never)]
fn close_call(m: u64, e: i32, k: i32, c: &Scaled) -> (u64, i32) {
    let &Scaled {
        integral,
        frac,
        h,
        e10,
    } = c;
    let scale_10 = if integral >= E15 { 1 } else { 10 };
    if (0..=27).contains(&k) && e + k >= -63 {
        let even = u64::from(m & 1 == 0);
        if frac < h + even {
            return (integral * scale_10 * 10, e10);
        }
        if frac != 0 && frac.wrapping_neg() < h + even {
            return normalize(integral + 1, -k);
        }
        let t = u128::from(frac) * 10;
        let digit = (t >> 64) as u64;
        let rest = t as u64;
        // A tie (x.5 tenths) rounds to the even digit.
        let round = rest > 1 << 63 || (rest == 1 << 63 && digit & 1 == 1);
        return ((integral * 10 + digit + u64::from(round)) * scale_10, e10);
    }
    if k < 0 && e <= 11 {
        let (sig, exp) = shortest_integer(m, e, -k);
        return normalize(sig, exp);
    }
    (0, 0)
}

/// `10^15`, `10^16`.
const E15: u64 = 1_000_000_000_000_000;
const E16: u64 = 10 * E15;

/// `sig * 10^exp` (`sig` of 15 to 17 digits) as exactly 17 digits (zeros appended) and the
/// decimal exponent of the first digit.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn normalize(sig: u64, exp: i32) -> (u64, i32) {
    let (scale, digits) = if sig >= E16 {
        (1, 17)
    } else if sig >= E15 {
        (10, 16)
    } else {
        (100, 15)
    };
    (sig * scale, exp + digits - 1)
}

/// [`shortest`] for an integer `m * 2^e` below 2^64 (`0 <= e <= 11`), where `c` is it over
/// `10^j` (`j` in 1..=4): the same decisions in exact integer arithmetic, distances doubled so
/// that half an ulp is `2^e`, ties decided exactly. Rare (2^52 to 2^64 only), so plain
/// divisions.
#[cold]
fn shortest_integer(m: u64, e: i32, j: i32) -> (u64, i32) {
    let p = [1, 10, 100, 1_000, 10_000][j.clamp(1, 4) as usize];
    let v = m << e;
    let ulp = 1u64 << e;
    let even = u64::from(m & 1 == 0);
    let integral = v / p;
    let r = v - integral * p;
    if 2 * r < ulp + even {
        return (integral, j);
    }
    if r != 0 && 2 * (p - r) < ulp + even {
        return (integral + 1, j);
    }
    let q = p / 10;
    let digit = r / q;
    let rest = r - digit * q;
    let round = 2 * rest > q || (2 * rest == q && digit & 1 == 1);
    (integral * 10 + digit + u64::from(round), j - 1)
}

/// `E` and a decimal exponent from -324 to 308 (`E-324` ... `E308`) as ASCII from the lowest
/// byte, with the text's length in the top byte (at most 5: `& 7` tells the compiler so), at
/// index `exponent + 324`; the table is padded with zeros to a power of two, so an index can
/// be masked into it.
static EXP_TEXT: [u64; 1024] = exp_text();

const fn exp_text() -> [u64; 1024] {
    let mut t = [0u64; 1024];
    let mut i = 0;
    while i < 633 {
        let e = i as i32 - 324;
        let mut text = b'E' as u64;
        let mut len = 1;
        if e < 0 {
            text |= (b'-' as u64) << 8;
            len += 1;
        }
        let a = e.unsigned_abs();
        let mut div = if a >= 100 {
            100
        } else if a >= 10 {
            10
        } else {
            1
        };
        while div > 0 {
            text |= (b'0' as u64 + (a / div % 10) as u64) << (8 * len);
            len += 1;
            div /= 10;
        }
        t[i] = text | ((len as u64) << 56);
        i += 1;
    }
    t
}

/// Appends the first `prefix.1` bytes of `prefix.0` (brackets, a comma and a sign, as the
/// caller needs), then `(10 * head + last) * 10^(e10 - 16)` (16 digits `head` and one more,
/// from [`shortest`]) as Glaze lays out an `f64`:
/// fixed notation when `e10` is in [-4, 15], otherwise one digit, `.`, the rest and `E` with
/// the exponent; trailing zeros of the fraction dropped, no `.0`. The digits are made once and
/// appended in a few fixed-size pieces, with one or two checks of the room.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn write_glaze<O: Out>(
    out: &mut O,
    prefix: ([u8; 4], usize),
    head: u64,
    last: u64,
    e10: i32,
) {
    const E8: u64 = 100_000_000;
    let hi = head / E8;
    let lo = head - hi * E8;
    // The first digit, then the other fifteen and `last`, with the mask of the non-zero ones.
    let (first, tail, nonzero) = digits17(hi as u32, lo as u32, last as u32);
    let first = b'0' + first;
    // Significant digits after the first: up to the last non-zero one.
    let more = ((nonzero << 1) | 1).ilog2() as usize;
    let tail = tail.to_le_bytes();
    // Outside -4..=15 (one compare): one digit, `.`, the rest and the exponent.
    if (e10 + 4) as u32 > 19 {
        // (A finite `f64` has `e10` in -324..=308; the mask keeps any index inside the table
        // without a compare.)
        let text = EXP_TEXT[(e10 + 324) as usize & (EXP_TEXT.len() - 1)];
        out.push_block4(
            prefix,
            ([first, b'.'], 1 + usize::from(nonzero != 0)),
            (tail, more),
            (text.to_le_bytes(), (text >> 56) as usize & 7),
        );
    } else if e10 >= 0 {
        // `e10 + 1` integer digits, then the fraction if any digit is left.
        let e = e10 as usize;
        out.push_block3(prefix, ([first], 1), (tail, e));
        if more > e {
            let fraction = (u128::from_le_bytes(tail) >> (8 * e)).to_le_bytes();
            out.push_block2([b'.'], 1, fraction, more - e);
        }
    } else {
        // `0.`, then `-e10 - 1` zeros, then the digits.
        let at = 8 * (1 - e10) as u32;
        let head = (u64::from_le_bytes(*b"0.000000") & !(0xFF << at)) | (u64::from(first) << at);
        out.push_block3(
            prefix,
            (head.to_le_bytes(), (2 - e10) as usize),
            (tail, more),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glaze's text of a positive finite `f64` through the general path.
    fn general(v: f64) -> String {
        let mut out = String::new();
        super::super::print::write_f64_general(&mut out, v);
        out
    }

    fn fast(v: f64) -> Option<String> {
        let (head, last, e10) = shortest(v.to_bits())?;
        let mut out = Vec::new();
        write_glaze(&mut out, (*b"-\0\0\0", 0), head, last, e10);
        Some(String::from_utf8(out).unwrap())
    }

    fn check(v: f64, misses: &mut u64) {
        match fast(v) {
            Some(t) => assert_eq!(t, general(v), "{v:e} ({:#x})", v.to_bits()),
            None => *misses += 1,
        }
    }

    #[test]
    fn log_formulas_are_exact_on_their_ranges() {
        for e in -1600..=1600 {
            let exact = (e as f64 * std::f64::consts::LOG10_2).floor() as i32;
            assert_eq!(floor_log10_pow2(e), exact, "{e}");
        }
        for k in -400..=400 {
            let exact = (k as f64 * std::f64::consts::LOG2_10).floor() as i32;
            assert_eq!(floor_log2_pow10(k), exact, "{k}");
        }
    }

    #[test]
    fn scale_shift_stays_in_range() {
        for raw_exp in 1..0x7FF {
            let e = raw_exp - 1075;
            let k = -floor_log10_pow2(e) - 1;
            assert!(POW5.get((k as i64 - POW5_MIN) as usize).is_some(), "{k}");
            let s = 10 - e - floor_log2_pow10(k);
            assert!((11..=16).contains(&s), "raw exponent {raw_exp}: shift {s}");
        }
    }

    #[test]
    fn random_bits_agree_with_the_general_path() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut misses = 0;
        let n = 2_000_000;
        for _ in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x & !(1 << 63));
            if !v.is_finite() {
                continue;
            }
            // Left to the general path by design: subnormals and powers of two.
            let mut miss = 0;
            check(v, &mut miss);
            let raw_exp = (x >> 52) & 0x7FF;
            let by_design = raw_exp == 0 || x & ((1 << 52) - 1) == 0;
            misses += miss * u64::from(!by_design);
        }
        assert!(misses < n / 100_000, "{misses} of {n} not taken");
    }

    /// The random comparison at length: `STRUCTIO_SHORTEST_N` values (default 10^8), run by
    /// hand (`cargo test --release --lib shortest -- --ignored`).
    #[test]
    #[ignore]
    fn many_random_bits_agree_with_the_general_path() {
        let n: u64 = std::env::var("STRUCTIO_SHORTEST_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100_000_000);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut misses = 0;
        for _ in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x & !(1 << 63));
            if v.is_finite() {
                check(v, &mut misses);
            }
        }
        println!("{misses} of {n} left to the general path");
    }

    #[test]
    fn short_decimals_agree_with_the_general_path() {
        // Values with few significant digits sit exactly where the interval decisions are
        // closest: every d * 10^p for d < 10^4 and p over the whole range.
        let mut misses = 0;
        for p in -330..=310 {
            for d in 1..2_000u64 {
                let v: f64 = format!("{d}e{p}").parse().unwrap();
                if v.is_finite() && v > 0.0 {
                    check(v, &mut misses);
                    check(f64::from_bits(v.to_bits() + 1), &mut misses);
                    check(f64::from_bits(v.to_bits() - 1), &mut misses);
                }
            }
        }
        assert!(misses < 200_000, "{misses}");
    }

    #[test]
    fn glaze_samples() {
        for (v, t) in [
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (1.5e-7, "1.5E-7"),
            (1e16 + 2.0, "1.0000000000000002E16"),
            (123.456, "123.456"),
            (1e100, "1E100"),
            (f64::MAX, "1.7976931348623157E308"),
            (1.2345678901234567e-300, "1.2345678901234568E-300"),
            (9_007_199_254_740_993.0, "9007199254740992"),
            (0.3, "0.3"),
            (2.0 / 3.0, "0.6666666666666666"),
            (1234567890123.4567, "1234567890123.4568"),
        ] {
            let got = fast(v).unwrap_or_else(|| general(v));
            assert_eq!(got, t, "{v:e}");
            assert_eq!(general(v), t, "{v:e}");
        }
    }
}
