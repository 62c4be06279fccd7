//! Text to numbers: the JSON number grammar, exact integers with range checks, and correctly
//! rounded floats.
//!
//! Integers: digits are taken eight at a time (SWAR). A number is taken by its exact value,
//! whatever its spelling: `1e2`, `1.0`, `100e-2`, `1.50e1` and `-0` are integers (100, 1, 1, 15
//! and 0, into an unsigned target too), as JSON Schema counts them; a non-zero fraction
//! (`1.5`, `1e-2`) is an error for an integer target, as is a value out of range. Only plain
//! digits take the fast path; a `.`, an exponent or `-0` go to a cold one.
//!
//! Floats: Clinger's fast path (at most 19 significant digits, a power of ten that is exact in
//! the target type), then Eisel-Lemire (`float_parse.rs`) for any other exponent, and the
//! standard library's correctly rounded parser on the validated text for more than 19 digits
//! or the rare case Eisel-Lemire cannot decide. `f32` is parsed as `f32`, never through `f64` (that would round twice);
//! `f16`/`bf16` go through `f64` with an exact check of the rare halfway cases. A finite text
//! that overflows to infinity is an error; underflow to zero is not. Every step is linear in the
//! length of the text.

use std::cmp::Ordering;

use half::{bf16, f16};

use super::{NumKind, Number, Wire};
use crate::error::{Code, Error, Result};

use super::float_parse::{eisel_lemire, F32, F64};

/// Loads eight bytes at `i` if they are all there.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn load8(s: &[u8], i: usize) -> Option<u64> {
    let b = s.get(i..i + 8)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

/// How many of the eight bytes of `w` (first byte lowest) are ASCII digits before the first
/// byte that is not one (8 if all are).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn digit_run(w: u64) -> u32 {
    // A byte is a digit iff `b ^ 0x30 < 10`; `t + 0x76` sets the high bit of a byte >= 10. A
    // byte of 0x8A or more carries into the next byte, but only above the first non-digit.
    let t = w ^ 0x3030_3030_3030_3030;
    let non_digit = (t.wrapping_add(0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080;
    non_digit.trailing_zeros() / 8
}

/// The value of eight ASCII digits (first digit in the low byte).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn parse8(w: u64) -> u64 {
    // Combine pairs, then quads, then the two halves.
    let v = w.wrapping_sub(0x3030_3030_3030_3030);
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    (v & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32)))
        >> 32
}

/// Powers of ten up to 10^8.
const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// Reads decimal digits at `i` into `m` (`m * 10 + d`, wrapping: exact while at most 19 digits
/// have been read); returns the index after them. Up to eight digits cost one word: the run
/// is counted, padded with leading `0`s and converted as eight digits.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn digits(s: &[u8], mut i: usize, m: &mut u64) -> usize {
    while let Some(w) = load8(s, i) {
        let k = digit_run(w);
        if k == 8 {
            *m = m.wrapping_mul(100_000_000).wrapping_add(parse8(w));
            i += 8;
            continue;
        }
        if k > 0 {
            // Move the k digits to the top bytes and fill below them with '0'.
            let shift = 64 - 8 * k;
            let padded = (w << shift) | (0x3030_3030_3030_3030 >> (8 * k));
            *m = m
                .wrapping_mul(POW10_U64[k as usize])
                .wrapping_add(parse8(padded));
            i += k as usize;
        }
        return i;
    }
    while let Some(&b) = s.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        *m = m.wrapping_mul(10).wrapping_add(d as u64);
        i += 1;
    }
    i
}

/// The error for a number that stops at `i` where the grammar needs more.
#[cold]
fn bad_number(s: &[u8], i: usize) -> Error {
    if i >= s.len() {
        Error::new(Code::UnexpectedEnd, s.len())
    } else {
        Error::new(Code::InvalidNumber, i)
    }
}

/// A number checked against the JSON grammar.
struct Scanned {
    /// Index after the number.
    end: usize,
    neg: bool,
    /// The digits of the integer part and the fraction, as one integer (wrapping).
    mantissa: u64,
    /// Number of digits in `mantissa` (more than 19 means it wrapped).
    digits: usize,
    /// The power of ten to apply to `mantissa`.
    exp10: i64,
    /// No fraction and no exponent.
    integer: bool,
}

/// Scans a number at `start` (which holds `-` or a digit).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn scan(s: &[u8], start: usize) -> Result<Scanned> {
    let mut i = start;
    let neg = s.get(i) == Some(&b'-');
    i += usize::from(neg);
    let first = i;
    let mut m = 0u64;
    match s.get(i) {
        Some(b'0') => i += 1,
        // One integer digit (scientific notation, small values) needs no word load.
        Some(&d @ b'1'..=b'9') if !s.get(i + 1).is_some_and(u8::is_ascii_digit) => {
            m = u64::from(d - b'0');
            i += 1;
        }
        Some(b'1'..=b'9') => i = digits(s, i, &mut m),
        _ => return Err(bad_number(s, i)),
    }
    if s[first] == b'0' && s.get(i).is_some_and(u8::is_ascii_digit) {
        return Err(Error::new(Code::InvalidNumber, i));
    }
    let mut nd = i - first;
    let mut exp10 = 0i64;
    let mut integer = true;
    if s.get(i) == Some(&b'.') {
        integer = false;
        let f = i + 1;
        i = digits(s, f, &mut m);
        if i == f {
            return Err(bad_number(s, i));
        }
        nd += i - f;
        exp10 = -((i - f) as i64);
    }
    if let Some(b'e' | b'E') = s.get(i) {
        integer = false;
        let (e, end) = exponent(s, i)?;
        exp10 += e;
        i = end;
    }
    Ok(Scanned {
        end: i,
        neg,
        mantissa: m,
        digits: nd,
        exp10,
        integer,
    })
}

/// Reads the exponent whose `e` is at `i`: its value (saturated far beyond any float's range)
/// and the index after it.
#[inline]
fn exponent(s: &[u8], mut i: usize) -> Result<(i64, usize)> {
    i += 1;
    let sign = s.get(i).copied().unwrap_or(0);
    let neg = sign == b'-';
    i += usize::from(neg || sign == b'+');
    // Up to seven digits (every exponent in practice) from one word, without a loop.
    if let Some(w) = load8(s, i) {
        let k = digit_run(w);
        if k > 0 && k < 8 {
            let padded = (w << (64 - 8 * k)) | (0x3030_3030_3030_3030 >> (8 * k));
            let e = parse8(padded) as i64;
            return Ok((if neg { -e } else { e }, i + k as usize));
        }
    }
    let d0 = i;
    let mut e = 0i64;
    while let Some(&b) = s.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        if e < 1 << 40 {
            e = e * 10 + d as i64;
        }
        i += 1;
    }
    if i == d0 {
        return Err(bad_number(s, i));
    }
    Ok((if neg { -e } else { e }, i))
}

/// Checks the grammar of the number at `start` and returns the index after it.
#[inline]
pub(crate) fn skip_number(s: &[u8], start: usize) -> Result<usize> {
    Ok(scan(s, start)?.end)
}

/// Reads an integer of type `N` at `start` (which holds `-` or a digit).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn read_int<N: Number>(s: &[u8], start: usize) -> Result<(N, usize)> {
    let mut i = start;
    let neg = s.get(i) == Some(&b'-');
    i += usize::from(neg);
    let first = i;
    let m = match s.get(i) {
        // `-0`, whatever follows: its value is 0 for every integer type (the slow path knows).
        Some(b'0') if neg => return read_int_slow(s, start, first, neg),
        Some(b'0') => {
            i += 1;
            0
        }
        Some(b'1'..=b'9') => match u64_digits(s, i) {
            Some((m, end)) => {
                i = end;
                m
            }
            // More than fits 64 bits.
            None => return read_int_slow(s, start, first, neg),
        },
        _ => return Err(bad_number(s, i)),
    };
    if let Some(b'.' | b'e' | b'E' | b'0'..=b'9') = s.get(i) {
        return read_int_slow(s, start, first, neg);
    }
    let w = if neg {
        Wire::Int(-(m as i128))
    } else {
        Wire::Uint(m as u128)
    };
    match N::from_wire(w) {
        Some(v) if !neg || N::KIND.is_signed_int() => Ok((v, i)),
        _ => Err(out_of_range::<N>(start)),
    }
}

/// How many of the sixteen bytes of `lo` then `hi` (first byte lowest) are ASCII digits before
/// the first byte that is not one.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn digit_run16(lo: u64, hi: u64) -> u32 {
    #[cfg(structio_x86)]
    {
        sse2::digit_run16(lo, hi)
    }
    #[cfg(not(structio_x86))]
    {
        digit_run16_swar(lo, hi)
    }
}

/// [`digit_run16`] without SIMD (other targets; compiled and tested everywhere).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
#[cfg(any(test, not(structio_x86)))]
fn digit_run16_swar(lo: u64, hi: u64) -> u32 {
    let k = digit_run(lo);
    if k < 8 {
        k
    } else {
        8 + digit_run(hi)
    }
}

/// The value of sixteen ASCII digits, the first eight in `lo` (first digit in the low byte).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn parse16(lo: u64, hi: u64) -> u64 {
    #[cfg(structio_x86)]
    {
        sse2::parse16(lo, hi)
    }
    #[cfg(not(structio_x86))]
    {
        parse16_swar(lo, hi)
    }
}

/// [`parse16`] without SIMD (other targets; compiled and tested everywhere).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
#[cfg(any(test, not(structio_x86)))]
fn parse16_swar(lo: u64, hi: u64) -> u64 {
    parse8(lo) * 100_000_000 + parse8(hi)
}

#[cfg(structio_x86)]
use crate::simd::digits16 as sse2;

/// `w` with its low `k < 8` bytes (digits) moved to the top and `0`s below them, for
/// [`parse8`]; all `0`s for `k == 0`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn pad(w: u64, k: u32) -> u64 {
    ((w << 1) << (63 - 8 * k)) | (0x3030_3030_3030_3030 >> (8 * k))
}

/// An integer array element at `i` in its usual shape: a `-` only for signed targets, then at
/// most 20 digits without a leading zero, with at least 24 bytes of input after the sign. The
/// value as `N` and the index after the digits; `None` for anything else (a fraction or an
/// exponent is not looked at: the caller requires `,` or `]` to follow), for the caller's
/// general path to read (and report) as always.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn int_element<N: Number>(s: &[u8], i: usize) -> Option<(N, usize)> {
    let neg = N::KIND.is_signed_int() && s.get(i) == Some(&b'-');
    let j = i + usize::from(neg);
    let b = s.get(j..j + 24)?;
    let word = |at: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[at..at + 8]);
        u64::from_le_bytes(a)
    };
    let (w1, w2) = (word(0), word(8));
    let k = digit_run16(w1, w2);
    if k == 0 || (b[0] == b'0' && k > 1) {
        return None;
    }
    let (m, k) = if k < 8 {
        (parse8(pad(w1, k)), k)
    } else if k < 16 {
        let m = parse8(w1) * POW10_U64[k as usize - 8] + parse8(pad(w2, k - 8));
        (m, k)
    } else {
        let w3 = word(16);
        let k3 = digit_run(w3);
        if k3 > 4 {
            return None;
        }
        let m = parse16(w1, w2)
            .checked_mul(POW10_U64[k3 as usize])?
            .checked_add(parse8(pad(w3, k3)))?;
        (m, 16 + k3)
    };
    let w = if neg {
        Wire::Int(-(m as i128))
    } else {
        Wire::Uint(m as u128)
    };
    N::from_wire(w).map(|v| (v, j + k as usize))
}

/// The digits at `i` (the first of them not `0`) as a `u64`, and the index after them; `None`
/// if the value does not fit. Two words of up to eight digits are exact; further digits are
/// checked.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn u64_digits(s: &[u8], mut i: usize) -> Option<(u64, usize)> {
    let mut m = 0u64;
    for _ in 0..2 {
        let Some(w) = load8(s, i) else {
            break;
        };
        let k = digit_run(w);
        if k < 8 {
            if k > 0 {
                let padded = (w << (64 - 8 * k)) | (0x3030_3030_3030_3030 >> (8 * k));
                m = m * POW10_U64[k as usize] + parse8(padded);
                i += k as usize;
            }
            return Some((m, i));
        }
        m = m * 100_000_000 + parse8(w);
        i += 8;
    }
    // Sixteen digits read: a third word holds the rest (up to four more fit 64 bits, with a
    // check; five or more make at least 10^20, too large).
    if let Some(w) = load8(s, i) {
        let k = digit_run(w);
        if k == 0 {
            return Some((m, i));
        }
        if k > 4 {
            return None;
        }
        let padded = (w << (64 - 8 * k)) | (0x3030_3030_3030_3030 >> (8 * k));
        m = m
            .checked_mul(POW10_U64[k as usize])?
            .checked_add(parse8(padded))?;
        return Some((m, i + k as usize));
    }
    while let Some(&b) = s.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        m = m.checked_mul(10)?.checked_add(d as u64)?;
        i += 1;
    }
    Some((m, i))
}

/// The rest of [`read_int`]: leading zeros, more than 64 bits, fractions and exponents.
///
/// The number is taken by its exact value, whatever its spelling: `1.0`, `100e-2`, `1.50e1`
/// and `-0.0` are integers (1, 1, 15 and 0), as JSON Schema counts them; a value with a
/// non-zero fraction (`1.5`, `1e-2`) is an error naming the type. The value is found without
/// arithmetic on the exponent's size: the significant digits (at most 39 of them fit any
/// integer type) and the power of ten after them decide, so `1e999999999` is out of range at
/// once and every case is linear in the length of the text.
#[inline(never)]
fn read_int_slow<N: Number>(s: &[u8], start: usize, first: usize, neg: bool) -> Result<(N, usize)> {
    let digits_from = |mut i: usize| {
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let int_end = digits_from(first);
    if s[first] == b'0' && int_end > first + 1 {
        return Err(Error::new(Code::InvalidNumber, first + 1));
    }
    let mut i = int_end;
    // The fraction's digits, and where its `.` is.
    let mut fraction = &s[i..i];
    let mut dot = None;
    if s.get(i) == Some(&b'.') {
        let f = i + 1;
        let end = digits_from(f);
        if end == f {
            return Err(bad_number(s, end));
        }
        fraction = &s[f..end];
        dot = Some(i);
        i = end;
    }
    let mut exp = 0i64;
    let mut e_at = None;
    if let Some(b'e' | b'E') = s.get(i) {
        let (e, end) = exponent(s, i)?;
        exp = e;
        e_at = Some(i);
        i = end;
    }
    // All the digits, integer part then fraction, and the value as `digits * 10^(exp - fraction
    // length)`; trailing zeros move into the power of ten.
    let whole = &s[first..int_end];
    let all = || whole.iter().chain(fraction);
    let count = whole.len() + fraction.len();
    let Some(lead) = all().position(|&b| b != b'0') else {
        // Zero, however written (`0.000`, `-0e7`): 0 for every integer type.
        return match N::from_wire(Wire::Uint(0)) {
            Some(v) => Ok((v, i)),
            None => Err(out_of_range::<N>(start)),
        };
    };
    let trail = count - all().rev().position(|&b| b != b'0').unwrap_or(0);
    let significant = trail - lead;
    // Fits i64: the exponent is saturated near 2^40, the lengths are those of the input.
    let pow = exp - fraction.len() as i64 + (count - trail) as i64;
    if pow < 0 {
        let at = dot.or(e_at).unwrap_or(start);
        return Err(Error::new(Code::ExpectedInteger(N::KIND.name()), at));
    }
    // u128::MAX has 39 digits: more is out of range for every integer type.
    if significant as i64 + pow > 39 {
        return Err(out_of_range::<N>(start));
    }
    let mut wide: Option<u128> = Some(0);
    for &b in all().skip(lead).take(significant) {
        wide = wide
            .and_then(|w| w.checked_mul(10))
            .and_then(|w| w.checked_add((b - b'0') as u128));
    }
    for _ in 0..pow {
        wide = wide.and_then(|w| w.checked_mul(10));
    }
    let w = match wide {
        Some(w) if neg && w <= i128::MAX as u128 + 1 => Wire::Int((w as i128).wrapping_neg()),
        Some(w) if !neg => Wire::Uint(w),
        _ => return Err(out_of_range::<N>(start)),
    };
    match N::from_wire(w) {
        Some(v) if !neg || N::KIND.is_signed_int() => Ok((v, i)),
        _ => Err(out_of_range::<N>(start)),
    }
}

#[cold]
fn out_of_range<N: Number>(at: usize) -> Error {
    Error::new(Code::NumberOutOfRange(N::KIND.name()), at)
}

/// Reads a float of type `N` at `start` (which holds `-` or a digit).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn read_float<N: Number>(s: &[u8], start: usize) -> Result<(N, usize)> {
    let sc = scan(s, start)?;
    let w = match N::KIND {
        NumKind::F32 => Wire::F32(to_f32(s, start, &sc)?),
        NumKind::F64 => Wire::F64(to_f64(s, start, &sc)?),
        NumKind::F16 => Wire::F64(to_half::<f16>(s, start, &sc)?),
        _ => Wire::F64(to_half::<bf16>(s, start, &sc)?),
    };
    // Exact: the value already has the precision of `N`.
    match N::from_wire(w) {
        Some(v) => Ok((v, sc.end)),
        None => Err(out_of_range::<N>(start)),
    }
}

/// Reads a number as it is written: an integer without fraction or exponent becomes
/// `Int` (negative) or `Uint` if it fits 128 bits, anything else `F64`; `-0` is `F64(-0.0)`.
#[inline]
pub(crate) fn read_wire(s: &[u8], start: usize) -> Result<(Wire, usize)> {
    let sc = scan(s, start)?;
    if sc.integer {
        if sc.digits <= 19 {
            let m = sc.mantissa as i128;
            let w = match (sc.neg, m) {
                // Keeps its sign, as serde_json does; integer targets still accept it.
                (true, 0) => Wire::F64(-0.0),
                (true, m) => Wire::Int(-m),
                (false, m) => Wire::Uint(m as u128),
            };
            return Ok((w, sc.end));
        }
        let digits = &s[start + usize::from(sc.neg)..sc.end];
        let wide = digits.iter().try_fold(0u128, |w, &b| {
            w.checked_mul(10)?.checked_add((b - b'0') as u128)
        });
        match wide {
            Some(w) if !sc.neg => return Ok((Wire::Uint(w), sc.end)),
            Some(w) if w <= i128::MAX as u128 + 1 => {
                return Ok((Wire::Int((w as i128).wrapping_neg()), sc.end))
            }
            _ => {}
        }
    }
    Ok((Wire::F64(to_f64(s, start, &sc)?), sc.end))
}

/// Powers of ten that are exact in `f64`.
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten that are exact in `f32`.
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The scanned number as the nearest `f64`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn to_f64(s: &[u8], start: usize, sc: &Scanned) -> Result<f64> {
    let m = sc.mantissa;
    if sc.digits <= 19 {
        if m == 0 {
            return Ok(if sc.neg { -0.0 } else { 0.0 });
        }
        // Clinger: an exact mantissa and an exact power of ten give a correctly rounded
        // product or quotient.
        if m <= 1 << 53 && (-22..=22).contains(&sc.exp10) {
            let e = sc.exp10;
            let v = if e >= 0 {
                m as f64 * POW10_F64[e as usize]
            } else {
                m as f64 / POW10_F64[(-e) as usize]
            };
            return Ok(if sc.neg { -v } else { v });
        }
        // Move surplus powers of ten into the mantissa while it stays exact.
        if (23..=22 + 15).contains(&sc.exp10) {
            let shift = POW10_F64[(sc.exp10 - 22) as usize] as u64;
            if let Some(m2) = m.checked_mul(shift).filter(|&m2| m2 <= 1 << 53) {
                let v = m2 as f64 * 1e22;
                return Ok(if sc.neg { -v } else { v });
            }
        }
        if let Some(bits) = eisel_lemire(m, sc.exp10, &F64) {
            if bits == F64.infinity_bits() {
                return Err(Error::new(Code::NumberOutOfRange("f64"), start));
            }
            return Ok(f64::from_bits(bits | u64::from(sc.neg) << 63));
        }
    }
    parse_text::<f64>(s, start, sc.end, "f64")
}

/// The scanned number as the nearest `f32`, rounded once.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn to_f32(s: &[u8], start: usize, sc: &Scanned) -> Result<f32> {
    let m = sc.mantissa;
    if sc.digits <= 19 {
        if m == 0 {
            return Ok(if sc.neg { -0.0 } else { 0.0 });
        }
        if m <= 1 << 24 && (-10..=10).contains(&sc.exp10) {
            let e = sc.exp10;
            let v = if e >= 0 {
                m as f32 * POW10_F32[e as usize]
            } else {
                m as f32 / POW10_F32[(-e) as usize]
            };
            return Ok(if sc.neg { -v } else { v });
        }
        if let Some(bits) = eisel_lemire(m, sc.exp10, &F32) {
            if bits == F32.infinity_bits() {
                return Err(Error::new(Code::NumberOutOfRange("f32"), start));
            }
            return Ok(f32::from_bits(bits as u32 | u32::from(sc.neg) << 31));
        }
    }
    parse_text::<f32>(s, start, sc.end, "f32")
}

/// A float type `std` parses with correct rounding.
trait StdFloat: std::str::FromStr + Copy {
    fn is_infinite(self) -> bool;
}

impl StdFloat for f64 {
    fn is_infinite(self) -> bool {
        f64::is_infinite(self)
    }
}

impl StdFloat for f32 {
    fn is_infinite(self) -> bool {
        f32::is_infinite(self)
    }
}

/// The slow path: the standard library's parser (correctly rounded, linear in the length) on
/// the text, which the scanner has already checked against the JSON grammar.
#[inline(never)]
fn parse_text<F: StdFloat>(s: &[u8], start: usize, end: usize, name: &'static str) -> Result<F> {
    let text = std::str::from_utf8(&s[start..end]).map_err(|_| bad_number(s, start))?;
    match text.parse::<F>() {
        Ok(v) if !v.is_infinite() => Ok(v),
        Ok(_) => Err(Error::new(Code::NumberOutOfRange(name), start)),
        Err(_) => Err(bad_number(s, start)),
    }
}

/// A 16-bit float: through `f64`, with the halfway cases settled exactly.
trait Half: Copy {
    const INF_BITS: u16;
    /// 2^(emax + 1): where the value past the largest finite one would be.
    const OVERFLOW: f64;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn to_bits(self) -> u16;
    fn from_bits(b: u16) -> Self;
}

impl Half for f16 {
    const INF_BITS: u16 = 0x7C00;
    const OVERFLOW: f64 = 65536.0;
    fn from_f64(v: f64) -> Self {
        f16::from_f64(v)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
    fn to_bits(self) -> u16 {
        f16::to_bits(self)
    }
    fn from_bits(b: u16) -> Self {
        f16::from_bits(b)
    }
}

impl Half for bf16 {
    const INF_BITS: u16 = 0x7F80;
    const OVERFLOW: f64 = 3.402_823_669_209_385e38; // 2^128
    fn from_f64(v: f64) -> Self {
        bf16::from_f64(v)
    }
    fn to_f64(self) -> f64 {
        bf16::to_f64(self)
    }
    fn to_bits(self) -> u16 {
        bf16::to_bits(self)
    }
    fn from_bits(b: u16) -> Self {
        bf16::from_bits(b)
    }
}

/// The scanned number rounded once to the 16-bit float `H`, returned as `f64` (exact).
///
/// Rounding the text to `f64` first can only go wrong when the `f64` lands exactly halfway
/// between two `H` values (the `f64` midpoint is then not the text's value); that case is
/// settled by comparing the text with the midpoint digit by digit.
#[inline(never)]
fn to_half<H: Half>(s: &[u8], start: usize, sc: &Scanned) -> Result<f64> {
    let d = to_f64(s, start, sc)?;
    let a = d.abs();
    let h = H::from_f64(a);
    let value = |b: u16| {
        if b == H::INF_BITS {
            H::OVERFLOW
        } else {
            H::from_bits(b).to_f64()
        }
    };
    let hv = value(h.to_bits());
    let mut r = h;
    if hv != a {
        let other = if hv > a {
            h.to_bits() - 1
        } else {
            h.to_bits() + 1
        };
        let ov = value(other);
        if (hv + ov) / 2.0 == a {
            // Halfway: the text decides; on an exact tie `from_f64` already chose the even one.
            let (lo, hi) = if hv < ov {
                (h.to_bits(), other)
            } else {
                (other, h.to_bits())
            };
            match cmp_text_with(&s[start + usize::from(sc.neg)..sc.end], a) {
                Ordering::Less => r = H::from_bits(lo),
                Ordering::Greater => r = H::from_bits(hi),
                Ordering::Equal => {}
            }
        }
    }
    if r.to_bits() == H::INF_BITS {
        let name = if H::INF_BITS == 0x7C00 { "f16" } else { "bf16" };
        return Err(Error::new(Code::NumberOutOfRange(name), start));
    }
    let v = r.to_f64();
    Ok(if sc.neg { -v } else { v })
}

/// Compares the unsigned decimal `text` (JSON grammar) with the finite `v >= 0`, exactly.
#[cold]
fn cmp_text_with(text: &[u8], v: f64) -> Ordering {
    let (td, te) = normalize(text);
    // `{:.800e}` prints the exact value: every f64 has fewer than 800 significant digits.
    let exact = format!("{v:.800e}");
    let (vd, ve) = normalize(exact.as_bytes());
    match (td.is_empty(), vd.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    te.cmp(&ve).then_with(|| td.cmp(&vd))
}

/// Significant digits (no leading or trailing zeros) and the decimal exponent of the first of
/// them, for `ddd.ddde±x` text.
fn normalize(text: &[u8]) -> (Vec<u8>, i64) {
    let e_at = text
        .iter()
        .position(|&b| b == b'e' || b == b'E')
        .unwrap_or(text.len());
    let exp: i64 = std::str::from_utf8(&text[(e_at + 1).min(text.len())..])
        .ok()
        .and_then(|e| e.trim_start_matches('+').parse().ok())
        .unwrap_or(0);
    let mantissa = &text[..e_at];
    let dot = mantissa
        .iter()
        .position(|&b| b == b'.')
        .unwrap_or(mantissa.len());
    let mut digits = Vec::new();
    let mut first_at: Option<i64> = None;
    for (k, &b) in mantissa.iter().enumerate() {
        if b == b'.' {
            continue;
        }
        if first_at.is_none() && b == b'0' {
            continue;
        }
        if first_at.is_none() {
            // Position of this digit relative to the decimal point.
            let pos = if k < dot {
                (dot - k - 1) as i64
            } else {
                -((k - dot) as i64)
            };
            first_at = Some(pos);
        }
        digits.push(b);
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, first_at.unwrap_or(0).saturating_add(exp))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of eight ASCII digits at `i`, if there are eight digits there.
    fn eight_digits(s: &[u8], i: usize) -> Option<u64> {
        let w = load8(s, i)?;
        (digit_run(w) == 8).then(|| parse8(w))
    }

    fn int<N: Number>(t: &str) -> Result<N> {
        let (v, end) = read_int::<N>(t.as_bytes(), 0)?;
        assert_eq!(end, t.len(), "{t}");
        Ok(v)
    }

    fn float<N: Number>(t: &str) -> Result<N> {
        let (v, end) = read_float::<N>(t.as_bytes(), 0)?;
        assert_eq!(end, t.len(), "{t}");
        Ok(v)
    }

    fn err<T: std::fmt::Debug>(r: Result<T>) -> (String, usize) {
        let e = r.unwrap_err();
        (e.message(), e.offset())
    }

    #[test]
    fn digit_runs_of_every_length() {
        for k in 0..=8usize {
            for tail in [b',', b'.', b'e', b']', b' ', b'/', b':', 0xFF, 0x8A, b'\0'] {
                let mut t = b"12345678".to_vec();
                t.truncate(k);
                t.push(tail);
                t.extend_from_slice(b"9999999999");
                let mut m = 0;
                let end = digits(&t, 0, &mut m);
                assert_eq!(end, k, "{t:?}");
                let want = if k == 0 {
                    0
                } else {
                    std::str::from_utf8(&t[..k]).unwrap().parse().unwrap()
                };
                assert_eq!(m, want, "{t:?}");
            }
        }
        let mut m = 0;
        assert_eq!(digits(b"1234567890123456789,", 0, &mut m), 19);
        assert_eq!(m, 1234567890123456789);
        let mut m = 0;
        assert_eq!(digits(b"12", 0, &mut m), 2);
        assert_eq!(m, 12);
    }

    #[test]
    fn eight_digit_blocks() {
        assert_eq!(eight_digits(b"12345678", 0), Some(12345678));
        assert_eq!(eight_digits(b"00000000", 0), Some(0));
        assert_eq!(eight_digits(b"99999999x", 0), Some(99999999));
        assert_eq!(eight_digits(b"1234567x", 0), None);
        assert_eq!(eight_digits(b"1234567/", 0), None);
        assert_eq!(eight_digits(b"1234567:", 0), None);
        assert_eq!(eight_digits(b"1234567", 0), None);
    }

    #[test]
    fn integers_as_glaze_reads_them() {
        assert_eq!(int::<u64>("18446744073709551615").unwrap(), u64::MAX);
        assert_eq!(int::<i64>("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(int::<i64>("-1").unwrap(), -1);
        assert_eq!(int::<u64>("1e3").unwrap(), 1000);
        assert_eq!(int::<i64>("1E3").unwrap(), 1000);
        assert_eq!(int::<i64>("1e+2").unwrap(), 100);
        assert_eq!(int::<u8>("0e999").unwrap(), 0);
        assert_eq!(int::<i32>("-0").unwrap(), 0);
        assert_eq!(int::<u8>("255").unwrap(), 255);
        assert_eq!(int::<i8>("-128").unwrap(), -128);
        assert_eq!(
            int::<u128>("340282366920938463463374607431768211455").unwrap(),
            u128::MAX
        );
        assert_eq!(
            int::<i128>("-170141183460469231731687303715884105728").unwrap(),
            i128::MIN
        );
        assert_eq!(int::<u64>("12345678901234567").unwrap(), 12345678901234567);
        let range = |ty: &str| format!("number out of range for {ty}");
        assert_eq!(err(int::<i64>("18446744073709551615")), (range("i64"), 0));
        assert_eq!(err(int::<u64>("18446744073709551616")), (range("u64"), 0));
        assert_eq!(err(int::<u64>("-1")), (range("u64"), 0));
        assert_eq!(err(int::<u64>("-9223372036854775808")), (range("u64"), 0));
        assert_eq!(err(int::<i64>("-9223372036854775809")), (range("i64"), 0));
        assert_eq!(err(int::<u8>("256")), (range("u8"), 0));
        assert_eq!(err(int::<i8>("1e3")), (range("i8"), 0));
        assert_eq!(err(int::<u64>("1e20")), (range("u64"), 0));
        assert_eq!(err(int::<u64>("1e1000000000000")), (range("u64"), 0));
        assert_eq!(
            err(int::<u128>("340282366920938463463374607431768211456")),
            (range("u128"), 0)
        );
        let integer = |ty: &str| format!("expected an integer for {ty}");
        assert_eq!(err(int::<i64>("1.5")), (integer("i64"), 1));
        assert_eq!(err(int::<i64>("1e-2")), (integer("i64"), 1));
        assert_eq!(err(int::<u8>("-0.5")), (integer("u8"), 2));
        assert_eq!(err(int::<u8>("1.05e1")), (integer("u8"), 1));
        assert_eq!(err(int::<u8>("0.5e0")), (integer("u8"), 1));
        assert_eq!(err(int::<i64>("01")), ("invalid number".into(), 1));
        assert_eq!(err(int::<i64>("-")), ("unexpected end of input".into(), 1));
        assert_eq!(err(int::<i64>("-x")), ("invalid number".into(), 1));
        assert_eq!(err(int::<i64>("1e")), ("unexpected end of input".into(), 2));
    }

    #[test]
    fn integers_are_read_by_value_whatever_the_spelling() {
        assert_eq!(int::<u64>("1.0").unwrap(), 1);
        assert_eq!(int::<u8>("100e-2").unwrap(), 1);
        assert_eq!(int::<u8>("1.50e1").unwrap(), 15);
        assert_eq!(int::<u8>("10e-1").unwrap(), 1);
        assert_eq!(int::<u8>("0.0001e4").unwrap(), 1);
        assert_eq!(int::<u8>("2.55E+2").unwrap(), 255);
        assert_eq!(int::<i8>("-1.28e2").unwrap(), -128);
        assert_eq!(int::<u8>("-0").unwrap(), 0);
        assert_eq!(int::<u8>("-0.0").unwrap(), 0);
        assert_eq!(int::<u64>("-0e-5").unwrap(), 0);
        assert_eq!(int::<i32>("-0.000").unwrap(), 0);
        assert_eq!(int::<u128>("0.0e999999999999").unwrap(), 0);
        assert_eq!(
            int::<u128>("3.40282366920938463463374607431768211455e38").unwrap(),
            u128::MAX
        );
        assert_eq!(
            int::<i128>("-1.70141183460469231731687303715884105728e38").unwrap(),
            i128::MIN
        );
        assert_eq!(int::<u64>("18446744073709551615.000").unwrap(), u64::MAX);
        let range = |ty: &str| format!("number out of range for {ty}");
        assert_eq!(err(int::<u8>("2.56e2")), (range("u8"), 0));
        assert_eq!(err(int::<u8>("-1.0")), (range("u8"), 0));
        assert_eq!(err(int::<u8>("1e999999999")), (range("u8"), 0));
        assert_eq!(err(int::<u128>("1e39")), (range("u128"), 0));
        assert_eq!(
            err(int::<i128>("1.7014118346046923173168730371588410573e38")),
            (range("i128"), 0)
        );
        // The grammar still holds.
        assert_eq!(err(int::<u8>("1.")), ("unexpected end of input".into(), 2));
        assert_eq!(err(int::<u8>("1.e1")), ("invalid number".into(), 2));
        assert_eq!(err(int::<u8>("01.0")), ("invalid number".into(), 1));
        assert_eq!(
            err(int::<u8>("1.0e")),
            ("unexpected end of input".into(), 4)
        );
    }

    #[test]
    fn integer_spellings_are_bounded_by_the_text() {
        // A million fraction digits, zeros then a one, and the exponent that makes it 1.
        let t = format!("0.{}1e1000000", "0".repeat(999_999));
        assert_eq!(int::<u8>(&t).unwrap(), 1);
        let t = format!(
            "1{}.{}e-1000000",
            "0".repeat(1_000_000),
            "0".repeat(1_000_000)
        );
        assert_eq!(int::<u8>(&t).unwrap(), 1);
        let t = format!("0.{}1", "0".repeat(1_000_000));
        assert_eq!(err(int::<u8>(&t)).0, "expected an integer for u8");
        let t = format!("1e{}", "9".repeat(1_000_000));
        assert_eq!(err(int::<u8>(&t)).0, "number out of range for u8");
        let t = format!("1e-{}", "9".repeat(1_000_000));
        assert_eq!(err(int::<u8>(&t)).0, "expected an integer for u8");
    }

    #[test]
    fn integers_stop_at_the_first_non_digit() {
        let (v, end) = read_int::<u32>(b"123,4", 0).unwrap();
        assert_eq!((v, end), (123, 3));
        let (v, end) = read_int::<i64>(b"[-12345678912]", 1).unwrap();
        assert_eq!((v, end), (-12345678912, 13));
    }

    #[test]
    fn integers_of_every_length_with_every_follower() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for n in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut text = (x >> (n % 64)).to_string();
            if n % 3 == 0 {
                text.push_str(&(n % 1000).to_string());
            }
            if text.starts_with('0') {
                continue;
            }
            let digits = text.len();
            for tail in [
                "",
                ",",
                "]        ",
                ",123456789",
                ".5",
                "e2",
                ".0",
                ".50e1",
            ] {
                let t = format!("{text}{tail}");
                let want = match tail {
                    ".5" => None,
                    "e2" => text.parse::<u64>().ok().and_then(|v| v.checked_mul(100)),
                    ".50e1" => text
                        .parse::<u64>()
                        .ok()
                        .and_then(|v| v.checked_mul(10)?.checked_add(5)),
                    _ => text.parse::<u64>().ok(),
                };
                let got = read_int::<u64>(t.as_bytes(), 0).ok();
                let end = match tail {
                    "e2" | ".0" => digits + 2,
                    ".50e1" => digits + 5,
                    _ => digits,
                };
                assert_eq!(got, want.map(|v| (v, end)), "{t}");
            }
        }
    }

    #[test]
    fn sixteen_byte_runs_and_values() {
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap());
        for k in 0..=16usize {
            for tail in [b',', b'/', b':', b' ', 0xFF, 0x8A, b'\0', 0xB9] {
                let mut t = b"9876543210123456".to_vec();
                t[k.min(15)..].fill(b'7');
                t.truncate(k);
                t.resize(16, tail);
                let (lo, hi) = (word(&t[..8]), word(&t[8..]));
                assert_eq!(digit_run16(lo, hi), k as u32, "{t:?}");
                assert_eq!(digit_run16_swar(lo, hi), k as u32, "{t:?}");
            }
        }
        for t in [
            "0000000000000000",
            "9999999999999999",
            "1234567890123456",
            "0000000100000002",
        ] {
            let b = t.as_bytes();
            let (lo, hi) = (word(&b[..8]), word(&b[8..]));
            assert_eq!(parse16(lo, hi), t.parse::<u64>().unwrap());
            assert_eq!(parse16_swar(lo, hi), t.parse::<u64>().unwrap());
        }
    }

    #[test]
    fn int_elements_agree_with_read_int_or_decline() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let pad = ",                        ";
        let mut texts: Vec<String> = ["0", "-0", "00", "01", "-", "-x", "1.5", "1e2", "x"]
            .iter()
            .map(|t| t.to_string())
            .collect();
        for n in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut t = (x >> (n % 64)).to_string();
            if n % 3 == 0 {
                t.push_str(&(n % 100_000).to_string());
            }
            if n % 2 == 0 {
                t.insert(0, '-');
            }
            texts.push(t);
        }
        fn check<N: Number + PartialEq + std::fmt::Debug>(t: &str) {
            let s = t.as_bytes();
            // The caller takes an element only when `,` or `]` follows it.
            if let Some((v, end)) = int_element::<N>(s, 0) {
                if matches!(s[end], b',' | b']') {
                    assert_eq!(read_int::<N>(s, 0).ok(), Some((v, end)), "{t}");
                }
            }
        }
        for t in &texts {
            for tail in [",", "]", ".5", "e2", " ,"] {
                let t = format!("{t}{tail}{pad}");
                check::<u64>(&t);
                check::<i64>(&t);
                check::<u8>(&t);
                check::<i32>(&t);
                check::<u128>(&t);
            }
            // The usual shapes are taken.
            let digits = t.trim_start_matches('-');
            if t.len() <= 20
                && !digits.is_empty()
                && digits.parse::<u64>().is_ok()
                && (digits == "0" || !digits.starts_with('0'))
            {
                let u = format!("{t},{pad}");
                let want = if t.starts_with('-') {
                    i64::try_from(-(digits.parse::<u64>().unwrap() as i128)).ok()
                } else {
                    i64::try_from(digits.parse::<u64>().unwrap()).ok()
                };
                assert_eq!(
                    int_element::<i64>(u.as_bytes(), 0),
                    want.map(|v| (v, t.len())),
                    "{t}"
                );
                if !t.starts_with('-') {
                    assert_eq!(
                        int_element::<u64>(u.as_bytes(), 0),
                        Some((digits.parse::<u64>().unwrap(), t.len())),
                        "{t}"
                    );
                }
            }
        }
        // Too near the end of the input: declined.
        assert_eq!(int_element::<u64>(b"12,", 0), None);
    }

    #[test]
    fn doubles_as_glaze_reads_them() {
        let bits = |t: &str| float::<f64>(t).unwrap().to_bits();
        assert_eq!(bits("0.1"), 0.1f64.to_bits());
        assert_eq!(bits("1E5"), 100000f64.to_bits());
        assert_eq!(bits("1e+5"), 100000f64.to_bits());
        assert_eq!(bits("-0"), (-0.0f64).to_bits());
        assert_eq!(bits("2.2250738585072011e-308"), 0x000F_FFFF_FFFF_FFFF);
        assert_eq!(bits("9007199254740993"), 9007199254740992f64.to_bits());
        assert_eq!(
            bits("1.00000000000000011102230246251565404236316680908203125"),
            1f64.to_bits()
        );
        assert_eq!(
            bits("123456789012345678901234567890"),
            1.2345678901234568e29f64.to_bits()
        );
        assert_eq!(bits("1e30"), 1e30f64.to_bits());
        assert_eq!(bits("-1.5e-7"), (-1.5e-7f64).to_bits());
        assert_eq!(bits("1e-400"), 0f64.to_bits());
        assert_eq!(bits("0e999999999999"), 0f64.to_bits());
        let range = ("number out of range for f64".to_string(), 0);
        assert_eq!(err(float::<f64>("1e400")), range);
        assert_eq!(err(float::<f64>("-1e400")), range);
        assert_eq!(err(float::<f64>("01")), ("invalid number".into(), 1));
        assert_eq!(
            err(float::<f64>("1.")),
            ("unexpected end of input".into(), 2)
        );
        assert_eq!(err(float::<f64>("1.x")), ("invalid number".into(), 2));
        assert_eq!(
            err(float::<f64>("1e+")),
            ("unexpected end of input".into(), 3)
        );
        assert_eq!(err(float::<f64>("-a")), ("invalid number".into(), 1));
    }

    #[test]
    fn floats_are_rounded_once() {
        let bits = |t: &str| float::<f32>(t).unwrap().to_bits();
        assert_eq!(bits("0.1"), 0.1f32.to_bits());
        assert_eq!(bits("3.4028235E38"), f32::MAX.to_bits());
        assert_eq!(bits("1E-45"), 1);
        // Rounds to f64 1.00000005960464477539062500 (an f32 tie) but is above it.
        assert_eq!(bits("1.000000059604644775390625000001"), 0x3F80_0001);
        assert_eq!(bits("1.00000005960464477539062499999"), 0x3F80_0000);
        assert_eq!(
            err(float::<f32>("3.5e38")),
            ("number out of range for f32".into(), 0)
        );
    }

    #[test]
    fn halves_are_rounded_once() {
        let h = |t: &str| float::<f16>(t).unwrap().to_bits();
        assert_eq!(h("1"), 0x3C00);
        assert_eq!(h("65504"), 0x7BFF);
        // 1 + 2^-11 is the tie between 1 and the next f16; just above must round up.
        assert_eq!(h("1.00048828125"), 0x3C00);
        assert_eq!(h("1.000488281250000000000000001"), 0x3C01);
        assert_eq!(h("1.000488281249999999999999999"), 0x3C00);
        assert_eq!(h("65519.99999999999999999"), 0x7BFF);
        assert_eq!(h("-65519.99999999999999999"), 0xFBFF);
        assert_eq!(
            err(float::<f16>("65520")),
            ("number out of range for f16".into(), 0)
        );
        let b = |t: &str| float::<bf16>(t).unwrap().to_bits();
        assert_eq!(b("1"), 0x3F80);
        assert_eq!(b("1.00390625"), 0x3F80);
        assert_eq!(b("1.00390625000000000000000001"), 0x3F81);
    }

    #[test]
    fn wire_numbers_keep_their_kind() {
        let w = |t: &str| read_wire(t.as_bytes(), 0).unwrap().0;
        assert_eq!(w("12"), Wire::Uint(12));
        assert_eq!(w("-12"), Wire::Int(-12));
        assert_eq!(w("-0"), Wire::F64(-0.0));
        assert_eq!(w("-0.0"), Wire::F64(-0.0));
        assert_eq!(w("0"), Wire::Uint(0));
        assert_eq!(w("18446744073709551616"), Wire::Uint(1 << 64));
        assert_eq!(
            w("-170141183460469231731687303715884105728"),
            Wire::Int(i128::MIN)
        );
        assert_eq!(w("1e2"), Wire::F64(100.0));
        assert_eq!(w("1.5"), Wire::F64(1.5));
        assert_eq!(
            w("340282366920938463463374607431768211456"),
            Wire::F64(3.402823669209385e38)
        );
    }

    #[test]
    fn million_digits_are_linear() {
        let mut t = String::from("0.");
        t.push_str(&"1".repeat(1_000_000));
        let v = float::<f64>(&t).unwrap();
        assert_eq!(v, 0.1111111111111111);
        let big = format!("1{}", "0".repeat(1_000_000));
        assert_eq!(err(float::<f64>(&big)).0, "number out of range for f64");
        assert_eq!(err(int::<u64>(&big)).0, "number out of range for u64");
    }
}
