//! Numbers to text: integers through `itoa`, floats as the shortest text that reads back to
//! the same bits (digits from `zmij`), laid out the way Glaze lays them out.
//!
//! Glaze style: fixed notation while the decimal exponent of the first significant digit is in
//! [-4, 15] for `f64` ([-4, 6] for `f32`), scientific with one leading digit otherwise;
//! upper-case `E`, no `+`, no zero padding in the exponent; no `.0` on integral values; `-0`;
//! NaN and infinities as `null`.

use crate::number::{NumKind, Number, Wire};

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
pub(crate) fn write_number<N: Number>(out: &mut Vec<u8>, v: N, style: FloatStyle) {
    match (N::KIND, v.to_wire()) {
        // The narrowing casts undo the widening `to_wire` did; the compiler folds both away.
        (NumKind::I128, Wire::Int(i)) => write_int(out, i),
        (_, Wire::Int(i)) => write_int(out, i as i64),
        (NumKind::U128, Wire::Uint(u)) => write_int(out, u),
        (_, Wire::Uint(u)) => write_int(out, u as u64),
        (_, Wire::F32(f)) => write_f32(out, f, style),
        (NumKind::F64, Wire::F64(f)) => write_f64(out, f, style),
        // f16 and bf16 widen exactly to f32 and are written with f32 digits.
        (_, Wire::F64(f)) => write_f32(out, f as f32, style),
    }
}

/// Appends an integer.
#[inline(always)]
pub(crate) fn write_int<I: itoa::Integer>(out: &mut Vec<u8>, v: I) {
    let mut buf = itoa::Buffer::new();
    out.extend_from_slice(buf.format(v).as_bytes());
}

/// Appends an `f64`.
#[inline]
pub(crate) fn write_f64(out: &mut Vec<u8>, v: f64, style: FloatStyle) {
    if !v.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v).as_bytes();
    match style {
        FloatStyle::Glaze => glaze_layout(out, s, 15),
        FloatStyle::Serde => out.extend_from_slice(s),
    }
}

/// Appends an `f32` (shortest digits at `f32` precision).
#[inline]
pub(crate) fn write_f32(out: &mut Vec<u8>, v: f32, style: FloatStyle) {
    if !v.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v).as_bytes();
    match style {
        FloatStyle::Glaze => glaze_layout(out, s, 6),
        FloatStyle::Serde => out.extend_from_slice(s),
    }
}

/// Rewrites zmij's layout (`-1234.5`, `0.00012`, `1.5e+20`, `3e-7`, `100.0`) into Glaze's.
/// `max_fixed` is the largest decimal exponent written in fixed notation.
#[inline(always)]
fn glaze_layout(out: &mut Vec<u8>, s: &[u8], max_fixed: i32) {
    let neg = usize::from(s[0] == b'-');
    let body = &s[neg..];
    // Scientific already (zmij's fixed range is wider than Glaze's): `e+` -> `E`, `e-` -> `E-`.
    if let Some(e) = body.iter().position(|&b| b == b'e') {
        out.extend_from_slice(&s[..neg + e]);
        let exp = &body[e + 1..];
        let exp = if exp[0] == b'+' { &exp[1..] } else { exp };
        out.push(b'E');
        out.extend_from_slice(exp);
        return;
    }
    let dot = body.iter().position(|&b| b == b'.').unwrap_or(body.len());
    let int = &body[..dot];
    let frac = body.get(dot + 1..).unwrap_or(&[]);
    let integral = frac == b"0";
    if int == b"0" {
        if integral {
            out.extend_from_slice(&s[..neg + 1]);
            return;
        }
        let zeros = frac.iter().take_while(|&&b| b == b'0').count();
        if zeros < 4 {
            out.extend_from_slice(s);
        } else {
            scientific(out, &s[..neg], &frac[zeros..], &[], -(zeros as i32) - 1);
        }
        return;
    }
    let exp = int.len() as i32 - 1;
    if exp <= max_fixed {
        if integral {
            out.extend_from_slice(&s[..neg + dot]);
        } else {
            out.extend_from_slice(s);
        }
        return;
    }
    let frac = if integral { &[][..] } else { frac };
    scientific(out, &s[..neg], int, frac, exp);
}

/// Writes `sign d.ddddE[-]x` from the significant digits `a` followed by `b` (trailing zeros
/// dropped).
#[cold]
fn scientific(out: &mut Vec<u8>, sign: &[u8], a: &[u8], b: &[u8], exp: i32) {
    let mut digits = [0u8; 40];
    let n = a.len() + b.len();
    digits[..a.len()].copy_from_slice(a);
    digits[a.len()..n].copy_from_slice(b);
    let mut n = n;
    while n > 1 && digits[n - 1] == b'0' {
        n -= 1;
    }
    out.extend_from_slice(sign);
    out.push(digits[0]);
    if n > 1 {
        out.push(b'.');
        out.extend_from_slice(&digits[1..n]);
    }
    out.push(b'E');
    write_int(out, exp);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: f64) -> String {
        let mut out = Vec::new();
        write_f64(&mut out, v, FloatStyle::Glaze);
        String::from_utf8(out).unwrap()
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
