//! Numbers to text: 64-bit integers through `int_print`, 128-bit ones through `itoa`, floats
//! as the shortest text that reads back to the same bits, laid out the way Glaze lays them out
//! (`f64` digits from `shortest.rs`; `f32`, f16/bf16, the serde style and the values
//! `shortest.rs` leaves over from `zmij`, laid out again here).
//!
//! Glaze style: fixed notation while the decimal exponent of the first significant digit is in
//! [-4, 15] for `f64` ([-4, 6] for `f32`), scientific with one leading digit otherwise;
//! upper-case `E`, no `+`, no zero padding in the exponent; no `.0` on integral values; `-0`;
//! NaN and infinities as `null`.

use super::{NumKind, Number, Wire};

use super::int_print;
use super::shortest;
use crate::json::out::{copy_small, Out};

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
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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

/// Appends `,` and any number; a 64-bit (or narrower) integer and an `f64` in Glaze's style
/// fold the comma into their first store.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_number_after_comma<N: Number, O: Out>(out: &mut O, v: N, style: FloatStyle) {
    match (N::KIND, v.to_wire()) {
        (NumKind::I128 | NumKind::U128, _) => {}
        (_, Wire::Int(i)) => return int_print::push_i64_after_comma(out, i as i64),
        (_, Wire::Uint(u)) => return int_print::push_u64_after_comma(out, u as u64),
        (NumKind::F64, Wire::F64(f)) => return write_f64_prefixed::<O, true>(out, f, style),
        _ => {}
    }
    out.push_ascii(b',');
    write_number(out, v, style);
}

/// Appends `[a,b,...]`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_numbers<N: Number, O: Out>(out: &mut O, items: &[N], style: FloatStyle) {
    if glaze_floats::<N>(style) {
        write_numbers_in::<N, O, true>(out, items, style);
    } else {
        write_numbers_in::<N, O, false>(out, items, style);
    }
}

/// Whether `N` is a float written in Glaze's style: the number loops are then made with the
/// style as a constant (`GLAZE`), so they do not test it for every number. (A const parameter,
/// not a closure called with a constant: the compiler kept such a closure out of line.)
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn glaze_floats<N: Number>(style: FloatStyle) -> bool {
    N::KIND.is_float() && style == FloatStyle::Glaze
}

/// [`write_numbers`], in Glaze's style when `GLAZE`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_numbers_in<N: Number, O: Out, const GLAZE: bool>(
    out: &mut O,
    items: &[N],
    style: FloatStyle,
) {
    let style = if GLAZE { FloatStyle::Glaze } else { style };
    out.push_ascii(b'[');
    if let Some((first, rest)) = items.split_first() {
        write_number(out, *first, style);
        for &x in rest {
            write_number_after_comma(out, x, style);
        }
    }
    out.push_ascii(b']');
}

/// Appends `[[a,b],[c,d],...]`: the bracket that closes one row, the comma and the bracket
/// that opens the next are one store.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_number_rows<N: Number, O: Out, const M: usize>(
    out: &mut O,
    rows: &[[N; M]],
    style: FloatStyle,
) {
    if glaze_floats::<N>(style) {
        rows_in_style::<N, O, M, true>(out, rows, style);
    } else {
        rows_in_style::<N, O, M, false>(out, rows, style);
    }
}

/// [`write_number_rows`], in Glaze's style when `GLAZE`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn rows_in_style<N: Number, O: Out, const M: usize, const GLAZE: bool>(
    out: &mut O,
    rows: &[[N; M]],
    style: FloatStyle,
) {
    let style = if GLAZE { FloatStyle::Glaze } else { style };
    let Some((first, rest)) = rows.split_first() else {
        out.push_lit(b"[]");
        return;
    };
    out.push_lit(b"[[");
    if let Some((&x, more)) = first.split_first() {
        write_number(out, x, style);
        write_rest_of_row(out, more, style);
    }
    for row in rest {
        match row.split_first() {
            Some((&x, more)) => {
                write_number_after_row(out, x, style);
                write_rest_of_row(out, more, style);
            }
            None => out.push_lit(b"],["),
        }
    }
    out.push_lit(b"]]");
}

/// Appends `],[` and a number that starts a row; an `f64` in Glaze's style folds the brackets
/// into its first store.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_number_after_row<N: Number, O: Out>(out: &mut O, v: N, style: FloatStyle) {
    if let (NumKind::F64, Wire::F64(f)) = (N::KIND, v.to_wire()) {
        return write_f64_led::<O, false, 3>(out, f, style, *b"],[");
    }
    out.push_lit(b"],[");
    write_number(out, v, style);
}

/// Appends `,a,b,...` (the elements of a row after its first; a fixed-size row, so the loop
/// unrolls).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_rest_of_row<N: Number, O: Out>(out: &mut O, rest: &[N], style: FloatStyle) {
    for &x in rest {
        write_number_after_comma(out, x, style);
    }
}

/// Appends an integer (the 128-bit ones and exponents; 64-bit ones go through [`write_u64`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_int<I: itoa::Integer, O: Out>(out: &mut O, v: I) {
    let mut buf = itoa::Buffer::new();
    out.push_small(buf.format(v));
}

/// 5^0 to 5^10.
const POW5: [u64; 11] = [
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
];

/// ASCII `0` in every byte.
pub(super) const ZEROS: u64 = 0x3030_3030_3030_3030;

/// The eight decimal digits of `x < 10^8` (leading zeros included) as byte values 0 to 9,
/// the first digit in the lowest byte: split in lanes (two of four digits, then four of two,
/// then eight of one), each split one multiply and shift for every lane at once.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn digits8(x: u32) -> u64 {
    let x = u64::from(x);
    let hi = x / 10_000;
    // Lanes of 32 bits: [x / 10^4, x % 10^4]; v / 100 is (v * 10486) >> 20 for v < 10^4.
    let m = hi | ((x - hi * 10_000) << 32);
    let q = ((m * 10_486) >> 20) & 0x0000_007F_0000_007F;
    // Lanes of 16 bits, each < 100; v / 10 is (v * 103) >> 10 for v < 100.
    let m = q | ((m - q * 100) << 16);
    let q = ((m * 103) >> 10) & 0x000F_000F_000F_000F;
    q | ((m - q * 10) << 8)
}

/// Appends a `u64`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_u64<O: Out>(out: &mut O, v: u64) {
    int_print::push_u64(out, v);
}

/// Appends an `i64`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_i64<O: Out>(out: &mut O, v: i64) {
    int_print::push_i64(out, v);
}

/// Appends an `f64` (see [`write_f64_prefixed`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_f64<O: Out>(out: &mut O, v: f64, style: FloatStyle) {
    write_f64_prefixed::<O, false>(out, v, style);
}

/// Appends `,` when `COMMA`, then an `f64` (see [`write_f64_led`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_f64_prefixed<O: Out, const COMMA: bool>(out: &mut O, v: f64, style: FloatStyle) {
    write_f64_led::<O, COMMA, 0>(out, v, style, []);
}

/// Appends the `L` bytes of `lead` (brackets between rows), `,` when `COMMA`, then an `f64`.
/// In Glaze's style the lead, the comma and the sign are stored with the number's first piece;
/// the shortest digits and their layout (`shortest.rs`) are inlined into the caller's loop,
/// the general path (zmij's digits) is a call.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_f64_led<O: Out, const COMMA: bool, const L: usize>(
    out: &mut O,
    v: f64,
    style: FloatStyle,
    lead: [u8; L],
) {
    // The lead, the comma and the sign fit the prefix word.
    const { assert!(L + (COMMA as usize) < 4) };
    if style == FloatStyle::Glaze {
        if write_exact::<O, COMMA, L>(out, v, lead) {
            return;
        }
        if let Some((head, last, e10)) = shortest::shortest(v.abs().to_bits()) {
            let mut prefix = [0u8; 4];
            prefix[..L].copy_from_slice(&lead);
            if COMMA {
                prefix[L] = b',';
            }
            let n = L + usize::from(COMMA);
            prefix[n] = b'-';
            shortest::write_glaze(
                out,
                (prefix, n + usize::from(v.is_sign_negative())),
                head,
                last,
                e10,
            );
            return;
        }
    }
    out.push_lit(&lead);
    if COMMA {
        out.push_ascii(b',');
    }
    let t = f64_text(v, style);
    out.push_block(t.b, t.n);
}

/// Glaze's text of `v` through the general path (zmij's digits, laid out again), which the
/// fast computation in `shortest.rs` is tested against.
#[cfg(test)]
pub(super) fn write_f64_general<O: Out>(out: &mut O, v: f64) {
    let t = f64_text(v, FloatStyle::Glaze);
    out.push_block(t.b, t.n);
}

/// The text of an `f64` in `style`.
#[inline(never)]
fn f64_text(v: f64, style: FloatStyle) -> Buf32 {
    let mut t = Buf32::default();
    if !v.is_finite() {
        t.push_str("null");
        return t;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    match style {
        FloatStyle::Glaze => glaze_text(s, 15),
        FloatStyle::Serde => {
            t.push_str(s);
            t
        }
    }
}

/// Appends an `f32` (shortest digits at `f32` precision).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_f32<O: Out>(out: &mut O, v: f32, style: FloatStyle) {
    let t = f32_text(v, style);
    out.push_block(t.b, t.n);
}

/// The text of an `f32` in `style`.
#[inline(never)]
fn f32_text(v: f32, style: FloatStyle) -> Buf32 {
    let mut t = Buf32::default();
    if !v.is_finite() {
        t.push_str("null");
        return t;
    }
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    match style {
        FloatStyle::Glaze => glaze_text(s, 6),
        FloatStyle::Serde => {
            t.push_str(s);
            t
        }
    }
}

/// Up to 32 bytes of ASCII text on the stack: a float's text (at most 24 bytes) before it is
/// appended whole. Bytes past 32 are dropped (never reached).
#[derive(Default)]
struct Buf32 {
    b: [u8; 32],
    n: usize,
}

impl Out for Buf32 {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_str(&mut self, s: &str) {
        for &c in s.as_bytes() {
            self.push_ascii(c);
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_ascii(&mut self, b: u8) {
        if let Some(d) = self.b.get_mut(self.n) {
            *d = b;
            self.n += 1;
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, _: usize) {}
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn len(&self) -> usize {
        self.n
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn byte_at(&self, i: usize) -> u8 {
        self.b[i]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn truncate(&mut self, n: usize) {
        self.n = self.n.min(n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn with_slot(&mut self, f: impl FnOnce(&mut [u8; 32]) -> usize) {
        if self.n == 0 {
            // The usual case: the whole text is laid out in place.
            self.n = f(&mut self.b).min(32);
        } else {
            let mut t = [0u8; 32];
            let k = f(&mut t).min(32);
            for &c in &t[..k] {
                self.push_ascii(c);
            }
        }
    }
}

/// Glaze's text for values whose exact decimal expansion is short, without the shortest-digit
/// search: integers below 2^53, and multiples of 2^-10 below 10^5 (at most 15 significant
/// digits). An exact expansion of at most 15 significant digits is the shortest text that reads
/// back: any other decimal that short differs by at least 10^-15 relative, more than half an
/// ulp. Returns `false` for other values (NaN and infinities included).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_exact<O: Out, const COMMA: bool, const L: usize>(
    out: &mut O,
    v: f64,
    lead: [u8; L],
) -> bool {
    let a = v.abs();
    let neg = v.is_sign_negative();
    // In units of 2^-10 (an exact scaling, short of overflow): the values taken are those
    // whole there and below 2^63 (so below 2^53 in units of one). Below 2^63 the truncation is
    // exact and converts back exactly when nothing was cut off; NaN fails the first test, a
    // subnormal (or anything else with bits below 2^-10) the second. A few float instructions
    // and one branch (usually not taken in arrays of arbitrary doubles) filter both.
    let scaled = a * 1024.0;
    let i = super::digits16::trunc_i64(scaled);
    if i as f64 != scaled {
        return false;
    }
    let i = i as u64;
    if i & 1023 != 0 && a >= 1e5 {
        return false;
    }
    // Taken: nothing was written before this point.
    if L > 0 {
        out.push_lit(&lead);
    }
    if i & 1023 == 0 {
        int_print::push_int::<O, COMMA, true>(out, neg, i >> 10);
        return true;
    }
    int_print::push_int::<O, COMMA, true>(out, neg, i >> 10);
    // f / 1024 with `t` trailing zero bits in `f` has exactly 10 - t decimals:
    // (f >> t) * 5^(10 - t), zero-padded to that width. `f` is not 0 (the value is not
    // whole).
    let f = i & 1023;
    let t = f.trailing_zeros().min(9) as usize;
    let len = 10 - t;
    let d = (f >> t) * POW5[len];
    if len <= 7 {
        // The last `len` of eight digits, after the point.
        let w = (digits8(d as u32) + ZEROS) >> ((8 - len) * 8);
        out.push_block((u64::from(b'.') | (w << 8)).to_le_bytes(), len + 1);
    } else {
        let hi = d / 100_000_000;
        let lo = digits8((d - hi * 100_000_000) as u32) + ZEROS;
        let top = (digits8(hi as u32) + ZEROS) >> 48;
        let k = len - 8;
        // `.`, the last `k` of the two digits of `hi`, then eight digits.
        let head = (u64::from(b'.') | ((top >> ((2 - k) * 8)) << 8)).to_le_bytes();
        out.push_block(head, k + 1);
        out.push_block(lo.to_le_bytes(), 8);
    }
    true
}

/// Rewrites zmij's layout (`-1234.5`, `0.00012`, `1.5e+20`, `3e-7`, `100.0`) into Glaze's, in
/// a stack buffer: copied with fixed-size moves and fixed in place, or laid out again by the
/// slow path when the notation changes. `max_fixed` is the largest decimal exponent written in
/// fixed notation (15 for `f64`, which is also where zmij's fixed range ends; 6 for `f32`).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn glaze_text(s: &str, max_fixed: i32) -> Buf32 {
    let b = s.as_bytes();
    let n = b.len();
    let mut t = Buf32::default();
    if (3..=32).contains(&n) {
        copy_small(&mut t.b, b);
        let k = glaze_fix(&mut t.b, n, max_fixed);
        if k != 0 {
            t.n = k;
            return t;
        }
    }
    glaze_layout_slow(&mut t, s, max_fixed);
    t
}

/// Rewrites zmij's text `buf[..n]` in place for the common cases and returns its new length,
/// or 0 when the notation must change.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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
            // The exponent has at most three digits: move four bytes down by one.
            if let Some(src) = buf.get(e + 2..e + 6) {
                let mut m = [0u8; 4];
                m.copy_from_slice(src);
                buf[e + 1..e + 5].copy_from_slice(&m);
            }
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

/// [`glaze_text`] for the cases that change notation: below 1e-4, or an `f32` of 10^7 or
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
    fn lane_divisions_are_exact() {
        // `digits8` is exact when its two lane divisions are, for every lane value.
        for v in 0u64..10_000 {
            assert_eq!((v * 10_486) >> 20, v / 100);
        }
        for v in 0u64..100 {
            assert_eq!((v * 103) >> 10, v / 10);
        }
        let mut x = 0u32;
        while x < 100_000_000 {
            let text = format!("{x:08}");
            assert_eq!((digits8(x) + ZEROS).to_le_bytes(), text.as_bytes());
            x += 9_973;
        }
    }

    #[test]
    fn exact_fractions_of_every_width() {
        for f in 1u64..1024 {
            for int in [0u64, 7, 99_999] {
                let v = int as f64 + f as f64 / 1024.0;
                let mut fast = String::new();
                assert!(write_exact::<_, false, 0>(&mut fast, v, []));
                let mut bytes = Vec::new();
                assert!(write_exact::<_, false, 0>(&mut bytes, -v, []));
                assert_eq!(bytes, format!("-{fast}").as_bytes());
                assert_eq!(fast.parse::<f64>().unwrap(), v);
                assert_eq!(fast, format!("{v}"));
            }
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
    fn exact_fast_path_agrees_with_zmij() {
        // Every multiple of 2^-10 near a few magnitudes, and integers around 2^53.
        let mut checks = 0;
        for base in [0.0, 1.0, 7.0, 1000.0, 99_990.0, 4.5e15, 9.007e15] {
            for k in -3000i64..3000 {
                let v = base + k as f64 / 1024.0;
                let mut fast = String::new();
                if !write_exact::<_, false, 0>(&mut fast, v, []) {
                    continue;
                }
                let slow = glaze_text(zmij::Buffer::new().format_finite(v), 15);
                assert_eq!(fast.as_bytes(), &slow.b[..slow.n], "{v:e}");
                checks += 1;
            }
        }
        assert!(checks > 30_000);
    }

    #[test]
    fn exact_fast_path_takes_exactly_the_short_binary_values() {
        // The values taken are zero, integers below 2^53 and other multiples of 2^-10 below
        // 10^5, decided here from the bits; around every boundary and on random bits.
        let expected = |v: f64| {
            let bits = v.abs().to_bits();
            let raw_exp = (bits >> 52) as i32;
            let m = (bits & ((1 << 52) - 1)) | (1 << 52);
            let lowest = raw_exp - 1075 + m.trailing_zeros() as i32;
            bits == 0 || (raw_exp < 1076 && (lowest >= 0 || (lowest >= -10 && v.abs() < 1e5)))
        };
        let check = |v: f64| {
            let mut out = Vec::new();
            let taken = write_exact::<_, false, 0>(&mut out, v, []);
            assert_eq!(taken, expected(v), "{v:e} ({:#x})", v.to_bits());
            if taken {
                let slow = glaze_text(zmij::Buffer::new().format_finite(v), 15);
                assert_eq!(out, &slow.b[..slow.n], "{v:e}");
            }
        };
        let two53 = 9_007_199_254_740_992.0f64;
        for base in [
            0.0,
            f64::MIN_POSITIVE,
            5e-324,
            1.0 / 1024.0,
            1.0,
            1e5,
            99_999.999_023_437_5,
            two53,
            two53 * 1024.0,
            9.223_372_036_854_775_808e18,
            f64::MAX,
            f64::INFINITY,
        ] {
            let b = base.to_bits() as i64;
            for d in -40i64..=40 {
                let v = f64::from_bits((b + d).max(0) as u64);
                check(v);
                check(-v);
            }
        }
        check(f64::NAN);
        check(-f64::NAN);
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(f64::from_bits(x));
            // Few mantissa bits, so that many are exact.
            check(f64::from_bits(x & !((1 << 40) - 1)));
        }
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
