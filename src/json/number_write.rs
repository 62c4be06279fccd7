//! Numbers to text: integers through `itoa`, floats as the shortest text that reads back to
//! the same bits (digits from `zmij`), laid out the way Glaze lays them out.
//!
//! Glaze style: fixed notation while the decimal exponent of the first significant digit is in
//! [-4, 15] for `f64` ([-4, 6] for `f32`), scientific with one leading digit otherwise;
//! upper-case `E`, no `+`, no zero padding in the exponent; no `.0` on integral values; `-0`;
//! NaN and infinities as `null`.

use crate::number::{NumKind, Number, Wire};

use super::out::{copy_small, Out};

/// How floating-point numbers are laid out when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloatStyle {
    /// As Glaze writes them: `1`, `0.1`, `1E16`, `1.5E-7`, `1000000000000000`.
    #[default]
    Glaze,
    /// As serde_json 1.0.154 writes them (the `zmij` layout): `1.0`, `0.1`, `1e+16`, `1.5e-7`,
    /// `1000000000000000.0`. NaN and infinities are still `null`.
    Serde,
}

/// Appends any number.
#[inline(always)]
pub(crate) fn write_number<N: Number, O: Out>(out: &mut O, v: N, style: FloatStyle) {
    match (N::KIND, v.to_wire()) {
        // The narrowing casts undo the widening `to_wire` did; the compiler folds both away.
        (NumKind::I128, Wire::Int(i)) => write_int(out, i),
        (_, Wire::Int(i)) => write_i64(out, i as i64),
        (NumKind::U128, Wire::Uint(u)) => write_int(out, u),
        (_, Wire::Uint(u)) => write_u64(out, u as u64),
        (_, Wire::F32(f)) => write_f32(out, f, style),
        (NumKind::F64, Wire::F64(f)) => write_f64(out, f, style),
        // f16 and bf16 widen exactly to f32 and are written with f32 digits.
        (_, Wire::F64(f)) => write_f32(out, f as f32, style),
    }
}

/// Appends an integer (the 128-bit ones and exponents; 64-bit ones go through [`write_u64`]).
#[inline(always)]
pub(crate) fn write_int<I: itoa::Integer, O: Out>(out: &mut O, v: I) {
    let mut buf = itoa::Buffer::new();
    out.push_small(buf.format(v));
}

/// 5^0 to 5^10.
const POW5: [u64; 11] = [
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
];

/// "00" to "99".
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// The number of decimal digits of `v`.
#[inline(always)]
fn digit_count(v: u64) -> usize {
    const POW10: [u64; 20] = {
        let mut t = [1u64; 20];
        let mut i = 1;
        while i < 20 {
            t[i] = t[i - 1] * 10;
            i += 1;
        }
        t
    };
    // `v | 1` has the same count (powers of ten above 1 are even) and is never 0.
    let v = v | 1;
    // floor(log10(2) * bits) is the count or one less.
    let guess = (((64 - v.leading_zeros()) * 1233) >> 12) as usize;
    guess + usize::from(guess < 20 && v >= POW10[guess])
}

/// Writes the two digits of `x < 100` at `dst[at..]`.
#[inline(always)]
fn put_pair(dst: &mut [u8; 32], at: usize, x: u32) {
    let r = x as usize * 2;
    if let (Some(d), Some(p)) = (dst.get_mut(at..at + 2), PAIRS.get(r..r + 2)) {
        d.copy_from_slice(p);
    }
}

/// Writes the eight digits of `x < 10^8` at `dst[at..]`: two independent halves of four.
#[inline(always)]
fn put8(dst: &mut [u8; 32], at: usize, x: u32) {
    let (a, b) = (x / 10_000, x % 10_000);
    put_pair(dst, at, a / 100);
    put_pair(dst, at + 2, a % 100);
    put_pair(dst, at + 4, b / 100);
    put_pair(dst, at + 6, b % 100);
}

/// Writes the digits of `v` at `dst[at..]` (`at + 20 <= 32`); returns the end.
#[inline(always)]
pub(crate) fn put_u64(dst: &mut [u8; 32], at: usize, mut v: u64) -> usize {
    let end = (at + digit_count(v)).min(32);
    let mut p = end;
    // Eight digits at a time from the right keeps the chain of divisions short.
    while v >= 100_000_000 && p >= 8 {
        put8(dst, p - 8, (v % 100_000_000) as u32);
        v /= 100_000_000;
        p -= 8;
    }
    let mut v = v as u32;
    while v >= 100 && p >= 2 {
        put_pair(dst, p - 2, v % 100);
        v /= 100;
        p -= 2;
    }
    if v >= 10 && p >= 2 {
        put_pair(dst, p - 2, v);
    } else if p >= 1 {
        dst[p - 1] = b'0' + v as u8;
    }
    end
}

/// Appends a `u64`, written in place.
#[inline(always)]
pub(crate) fn write_u64<O: Out>(out: &mut O, v: u64) {
    out.with_slot(|slot| put_u64(slot, 0, v));
}

/// Appends an `i64`, written in place.
#[inline(always)]
pub(crate) fn write_i64<O: Out>(out: &mut O, v: i64) {
    out.with_slot(|slot| {
        slot[0] = b'-';
        put_u64(slot, usize::from(v < 0), v.unsigned_abs())
    });
}

/// Appends an `f64`.
#[inline]
pub(crate) fn write_f64<O: Out>(out: &mut O, v: f64, style: FloatStyle) {
    if !v.is_finite() {
        out.push_str("null");
        return;
    }
    if style == FloatStyle::Glaze && write_exact(out, v) {
        return;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    match style {
        FloatStyle::Glaze => glaze_layout(out, s, 15),
        FloatStyle::Serde => out.push_small(s),
    }
}

/// Appends an `f32` (shortest digits at `f32` precision).
#[inline]
pub(crate) fn write_f32<O: Out>(out: &mut O, v: f32, style: FloatStyle) {
    if !v.is_finite() {
        out.push_str("null");
        return;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    match style {
        FloatStyle::Glaze => glaze_layout(out, s, 6),
        FloatStyle::Serde => out.push_small(s),
    }
}

/// Glaze's text for values whose exact decimal expansion is short, without the shortest-digit
/// search: integers below 2^53, and multiples of 2^-10 below 10^5 (at most 15 significant
/// digits). An exact expansion of at most 15 significant digits is the shortest text that reads
/// back: any other decimal that short differs by at least 10^-15 relative, more than half an
/// ulp. Returns `false` for other values.
#[inline(always)]
fn write_exact<O: Out>(out: &mut O, v: f64) -> bool {
    let a = v.abs();
    let neg = usize::from(v.is_sign_negative());
    if a >= 9_007_199_254_740_992.0 {
        return false;
    }
    // `as i64` truncates (one instruction, where `as u64` takes a dozen on x86-64), so
    // equality means `a` is a whole number; `f64::trunc` would be a libm call on the baseline
    // x86-64 target. `a` is below 2^53 here, so the conversion is exact.
    let whole = a as i64;
    if whole as f64 == a {
        out.with_slot(|slot| {
            slot[0] = b'-';
            put_u64(slot, neg, whole as u64)
        });
        return true;
    }
    if a >= 1e5 {
        return false;
    }
    let scaled = a * 1024.0;
    let i = scaled as i64 as u64;
    if i as f64 == scaled {
        out.with_slot(|slot| {
            slot[0] = b'-';
            let n = put_u64(slot, neg, i >> 10);
            // f / 1024 with `t` trailing zero bits in `f` has exactly 10 - t decimals:
            // (f >> t) * 5^(10 - t), zero-padded to that width. `f` is not 0 (the value is not
            // whole).
            let f = i & 1023;
            let t = f.trailing_zeros().min(9) as usize;
            let len = 10 - t;
            let mut d = (f >> t) * POW5[len];
            slot[n] = b'.';
            let end = n + 1 + len;
            let mut p = end;
            while p >= n + 3 {
                p -= 2;
                put_pair(slot, p, (d % 100) as u32);
                d /= 100;
            }
            if p > n + 1 {
                slot[n + 1] = b'0' + d as u8;
            }
            end
        });
        return true;
    }
    false
}

/// Rewrites zmij's layout (`-1234.5`, `0.00012`, `1.5e+20`, `3e-7`, `100.0`) into Glaze's.
/// `max_fixed` is the largest decimal exponent written in fixed notation (15 for `f64`, which
/// is also where zmij's fixed range ends; 6 for `f32`).
#[inline(always)]
fn glaze_layout<O: Out>(out: &mut O, s: &str, max_fixed: i32) {
    let b = s.as_bytes();
    let n = b.len();
    if !(3..=32).contains(&n) {
        return glaze_layout_slow(out, s, max_fixed);
    }
    // Lay the text out in the output's slot; 0 means "changes notation" (the slow path).
    let mut slow = false;
    out.with_slot(|buf| {
        copy_small(buf, b);
        let k = glaze_fix(buf, n, max_fixed);
        slow = k == 0;
        k
    });
    if slow {
        glaze_layout_slow(out, s, max_fixed)
    }
}

/// Rewrites zmij's text `buf[..n]` in place for the common cases and returns its new length,
/// or 0 when the notation must change.
#[inline(always)]
fn glaze_fix(buf: &mut [u8; 32], n: usize, max_fixed: i32) -> usize {
    // Scientific: `e` is 3 to 5 bytes from the end (`e+5`, `e-10`, `e+308`).
    let e = if buf[n - 3] == b'e' {
        n - 3
    } else if n >= 4 && buf[n - 4] == b'e' {
        n - 4
    } else if n >= 5 && buf[n - 5] == b'e' {
        n - 5
    } else {
        0
    };
    if e > 0 {
        buf[e] = b'E';
        let mut n = n;
        if buf[e + 1] == b'+' {
            buf.copy_within(e + 2..n, e + 1);
            n -= 1;
        }
        return n;
    }
    let neg = usize::from(buf[0] == b'-');
    if buf[n - 2] == b'.' && buf[n - 1] == b'0' {
        // Integral: drop `.0` while fixed.
        if (n - 2 - neg) as i32 - 1 <= max_fixed {
            return n - 2;
        }
    } else if !(buf[neg] == b'0' && buf[neg + 2..neg + 6] == *b"0000") {
        // Not below 1e-4; fixed unless the integer part is too long (f32 only).
        let int_digits = buf[neg..n].iter().position(|&c| c == b'.').unwrap_or(n);
        if max_fixed >= 15 || int_digits as i32 - 1 <= max_fixed {
            return n;
        }
    }
    0
}

/// [`glaze_layout`] for the cases that change notation: below 1e-4, or an `f32` of 10^7 or
/// more that zmij still writes in fixed notation.
#[cold]
#[inline(never)]
fn glaze_layout_slow<O: Out>(out: &mut O, s: &str, max_fixed: i32) {
    let piece = |a: usize, b: usize| s.get(a..b).unwrap_or_default();
    let bytes = s.as_bytes();
    let neg = usize::from(bytes.first() == Some(&b'-'));
    let sign = piece(0, neg);
    if let Some(e) = bytes.iter().position(|&b| b == b'e') {
        out.push_str(piece(0, e));
        out.push_ascii(b'E');
        let exp = e + 1 + usize::from(bytes.get(e + 1) == Some(&b'+'));
        out.push_str(piece(exp, s.len()));
        return;
    }
    let dot = bytes.iter().position(|&b| b == b'.').unwrap_or(s.len());
    let int = piece(neg, dot);
    let frac = piece((dot + 1).min(s.len()), s.len());
    let integral = frac == "0";
    if int == "0" {
        if integral {
            out.push_str(piece(0, neg + 1));
            return;
        }
        let zeros = frac.bytes().take_while(|&b| b == b'0').count();
        if zeros < 4 {
            out.push_str(s);
        } else {
            scientific(out, sign, &frac[zeros..], "", -(zeros as i32) - 1);
        }
        return;
    }
    let exp = int.len() as i32 - 1;
    if exp <= max_fixed {
        out.push_str(if integral { piece(0, dot) } else { s });
        return;
    }
    scientific(out, sign, int, if integral { "" } else { frac }, exp);
}

/// Writes `sign d.ddddE[-]x` from the significant digits `a` followed by `b` (trailing zeros
/// dropped).
#[cold]
fn scientific<O: Out>(out: &mut O, sign: &str, a: &str, b: &str, exp: i32) {
    let b = b.trim_end_matches('0');
    let a = if b.is_empty() {
        a.trim_end_matches('0')
    } else {
        a
    };
    out.push_str(sign);
    out.push_str(a.get(..1).unwrap_or("0"));
    let rest = a.get(1..).unwrap_or_default();
    if !rest.is_empty() || !b.is_empty() {
        out.push_ascii(b'.');
        out.push_str(rest);
        out.push_str(b);
    }
    out.push_ascii(b'E');
    write_int(out, exp);
}

#[cfg(test)]
// The tables hold Glaze's sample values as written, `3.14` and `3.14159274f32` included.
#[allow(clippy::approx_constant, clippy::excessive_precision)]
mod tests {
    use super::*;

    fn d(v: f64) -> String {
        let mut out = Vec::new();
        write_f64(&mut out, v, FloatStyle::Glaze);
        let mut text = String::new();
        write_f64(&mut text, v, FloatStyle::Glaze);
        assert_eq!(out, text.as_bytes());
        text
    }

    fn f(v: f32) -> String {
        let mut out = Vec::new();
        write_f32(&mut out, v, FloatStyle::Glaze);
        String::from_utf8(out).unwrap()
    }

    fn n<N: Number>(v: N) -> String {
        let mut out = Vec::new();
        write_number(&mut out, v, FloatStyle::Glaze);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn doubles_as_glaze_writes_them() {
        let table: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-1.0, "-1"),
            (0.1, "0.1"),
            (0.5, "0.5"),
            (1.5, "1.5"),
            (100.0, "100"),
            (12345678.0, "12345678"),
            (1e15, "1000000000000000"),
            (1e16, "1E16"),
            (1e17, "1E17"),
            (1e20, "1E20"),
            (1e21, "1E21"),
            (1e22, "1E22"),
            (1.2345678901234567e20, "1.2345678901234567E20"),
            (123456789012345680000.0, "1.2345678901234568E20"),
            (9007199254740993.0, "9007199254740992"),
            (1e-5, "1E-5"),
            (1e-6, "1E-6"),
            (1e-7, "1E-7"),
            (0.0001, "0.0001"),
            (0.000123, "0.000123"),
            (1.5e-7, "1.5E-7"),
            (2.5e-5, "2.5E-5"),
            (1.5e-10, "1.5E-10"),
            (1e100, "1E100"),
            (1e-100, "1E-100"),
            (f64::MAX, "1.7976931348623157E308"),
            (f64::MIN_POSITIVE, "2.2250738585072014E-308"),
            (5e-324, "5E-324"),
            (9223372036854775808.0, "9.223372036854776E18"),
            (1.0 / 3.0, "0.3333333333333333"),
            (2.0 / 3.0, "0.6666666666666666"),
            (-123.456, "-123.456"),
            (3.14, "3.14"),
            (1234567890123456.7, "1234567890123456.8"),
            (-1.2345e-5, "-1.2345E-5"),
            (123.0e13, "1230000000000000"),
            (129.625, "129.625"),
            (-6.25, "-6.25"),
            (0.0009765625, "0.0009765625"),
            (99999.9990234375, "99999.9990234375"),
            (4503599627370495.5, "4503599627370495.5"),
            (9007199254740991.0, "9007199254740991"),
            (0.00015, "0.00015"),
            (0.00001234, "1.234E-5"),
            (-0.00009, "-9E-5"),
            (f64::NAN, "null"),
            (-f64::NAN, "null"),
            (f64::INFINITY, "null"),
            (f64::NEG_INFINITY, "null"),
        ];
        for &(v, text) in table {
            assert_eq!(d(v), text, "{v:e}");
        }
    }

    #[test]
    fn floats_as_glaze_writes_them() {
        let table: &[(f32, &str)] = &[
            (0.1, "0.1"),
            (1.0 / 3.0, "0.33333334"),
            (1.0, "1"),
            (1e7, "1E7"),
            (1234567.0, "1234567"),
            (16777216.0, "1.6777216E7"),
            (16777217.0, "1.6777216E7"),
            (1e21, "1E21"),
            (1e-5, "1E-5"),
            (1e-7, "1E-7"),
            (0.0001, "0.0001"),
            (f32::MAX, "3.4028235E38"),
            (1e-45, "1E-45"),
            (-0.0, "-0"),
            (f32::NAN, "null"),
            (3.14159274, "3.1415927"),
            (1.342178e8, "1.342178E8"),
        ];
        for &(v, text) in table {
            assert_eq!(f(v), text, "{v:e}");
        }
    }

    #[test]
    fn integers_written_in_place() {
        let mut v: Vec<u64> = vec![0, 1, 9, 10, 99, 100, 999, 1000, u64::MAX, u64::MAX / 10];
        for k in 0..20 {
            let p = 10u64.pow(k);
            v.extend([p - 1, p, p + 1]);
        }
        for x in v {
            assert_eq!(n(x), x.to_string());
            let i = x as i64;
            assert_eq!(n(i), i.to_string());
            assert_eq!(n(i.wrapping_neg()), i.wrapping_neg().to_string());
        }
        assert_eq!(n(i64::MIN), i64::MIN.to_string());
    }

    #[test]
    fn every_kind_of_number() {
        assert_eq!(n(i64::MIN), "-9223372036854775808");
        assert_eq!(n(u64::MAX), "18446744073709551615");
        assert_eq!(n(-128i8), "-128");
        assert_eq!(n(255u8), "255");
        assert_eq!(n(i128::MIN), "-170141183460469231731687303715884105728");
        assert_eq!(n(u128::MAX), "340282366920938463463374607431768211455");
        assert_eq!(n(half::f16::from_f32(0.5)), "0.5");
        assert_eq!(n(half::f16::from_f32(65504.0)), "65504");
        assert_eq!(n(half::f16::from_f32(0.1)), "0.099975586");
        assert_eq!(n(half::bf16::from_f32(1.0e10)), "9.999221E9");
        assert_eq!(n(2.5f32), "2.5");
        assert_eq!(n(2.5f64), "2.5");
    }

    #[test]
    fn serde_style_is_zmij_verbatim() {
        let s = |v: f64| {
            let mut out = Vec::new();
            write_f64(&mut out, v, FloatStyle::Serde);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(s(1.0), "1.0");
        assert_eq!(s(1e16), "1e+16");
        assert_eq!(s(1e-7), "1e-7");
        assert_eq!(s(0.0001), "0.0001");
        assert_eq!(s(f64::NAN), "null");
    }

    #[test]
    fn exact_fast_path_agrees_with_zmij() {
        // Every multiple of 2^-10 near a few magnitudes, and integers around 2^53.
        let mut checks = 0;
        for base in [0.0, 1.0, 7.0, 1000.0, 99_990.0, 4.5e15, 9.007e15] {
            for k in -3000i64..3000 {
                let v = base + k as f64 / 1024.0;
                let mut fast = String::new();
                if !write_exact(&mut fast, v) {
                    continue;
                }
                let mut slow = String::new();
                glaze_layout(&mut slow, zmij::Buffer::new().format_finite(v), 15);
                assert_eq!(fast, slow, "{v:e}");
                checks += 1;
            }
        }
        assert!(checks > 30_000);
    }

    #[test]
    fn shortest_digits_read_back_exactly() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            if v.is_finite() {
                assert_eq!(d(v).parse::<f64>().unwrap().to_bits(), v.to_bits());
            }
            let v = f32::from_bits(x as u32);
            if v.is_finite() {
                assert_eq!(f(v).parse::<f32>().unwrap().to_bits(), v.to_bits());
            }
        }
    }
}
