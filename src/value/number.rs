//! [`Num`]: a number that remembers its exact wire kind, so BEVE writes the same header again.

use std::cmp::Ordering;

use half::{bf16, f16};

use crate::error::Result;
use crate::number::{NumKind, Number, Wire};
use crate::reflect::{Reader, Reflect, ValueKind, Writer};

/// Runs `$e` with `$T` bound to the Rust type of the number kind `$kind`.
macro_rules! by_kind {
    ($kind:expr, $T:ident => $e:expr) => {
        match $kind {
            $crate::number::NumKind::I8 => {
                type $T = i8;
                $e
            }
            $crate::number::NumKind::I16 => {
                type $T = i16;
                $e
            }
            $crate::number::NumKind::I32 => {
                type $T = i32;
                $e
            }
            $crate::number::NumKind::I64 => {
                type $T = i64;
                $e
            }
            $crate::number::NumKind::I128 => {
                type $T = i128;
                $e
            }
            $crate::number::NumKind::U8 => {
                type $T = u8;
                $e
            }
            $crate::number::NumKind::U16 => {
                type $T = u16;
                $e
            }
            $crate::number::NumKind::U32 => {
                type $T = u32;
                $e
            }
            $crate::number::NumKind::U64 => {
                type $T = u64;
                $e
            }
            $crate::number::NumKind::U128 => {
                type $T = u128;
                $e
            }
            $crate::number::NumKind::F16 => {
                type $T = half::f16;
                $e
            }
            $crate::number::NumKind::BF16 => {
                type $T = half::bf16;
                $e
            }
            $crate::number::NumKind::F32 => {
                type $T = f32;
                $e
            }
            $crate::number::NumKind::F64 => {
                type $T = f64;
                $e
            }
        }
    };
}
pub(crate) use by_kind;

/// A number of any width BEVE knows (`i8`..`i128`, `u8`..`u128`, `f16`, `bf16`, `f32`, `f64`),
/// kept exactly as it was read or built: an `i8` stays an `i8` and is written back with the
/// `i8` header, a `u64` above `i64::MAX` stays exact, a float stays a float.
///
/// JSON does not carry widths: numbers read from JSON become `i64` when they are integers that
/// fit, else `u64`, else `i128`/`u128`, and `f64` when they have a fraction or an exponent.
///
/// Equality is by mathematical value across kinds: `Num::from(1u8) == Num::from(1i64)`, and
/// `Num::from(2.0) == Num::from(2)` (JSON writes both as `2`). `NaN` equals nothing, `-0.0`
/// equals `0`. [`Num::kind`] tells the kinds apart.
///
/// ```
/// use structio::value::Num;
/// let n = Num::from(-3i8);
/// assert_eq!(n.kind(), structio::NumKind::I8);
/// assert_eq!(n.as_i64(), Some(-3));
/// assert_eq!(n.as_u64(), None);
/// assert_eq!(Num::from(0.5f32).as_f64(), Some(0.5));
/// assert_eq!(Num::from(u64::MAX).as_f64(), None); // not exact in f64
/// assert_eq!(Num::from(u64::MAX).as_f64_lossy(), 18446744073709551615.0);
/// ```
#[derive(Clone, Copy)]
pub struct Num(Repr);

/// The value, by kind. 128-bit values are split into two words so that a `Num` stays 8-byte
/// aligned (24 bytes rather than 32), which keeps [`crate::Value`] small.
#[derive(Clone, Copy)]
enum Repr {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(Wide),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(Wide),
    F16(f16),
    BF16(bf16),
    F32(f32),
    F64(f64),
}

/// The bits of a 128-bit integer as two 64-bit words.
#[derive(Clone, Copy)]
struct Wide {
    lo: u64,
    hi: u64,
}

impl Wide {
    fn from_u128(v: u128) -> Wide {
        Wide {
            lo: v as u64,
            hi: (v >> 64) as u64,
        }
    }
    fn u128(self) -> u128 {
        (self.hi as u128) << 64 | self.lo as u128
    }
    fn i128(self) -> i128 {
        self.u128() as i128
    }
}

/// Runs `$e` with `$v` bound to the value of the `Num` `$num`, whatever its type.
macro_rules! with_num {
    ($num:expr, $v:ident => $e:expr) => {
        match $num.0 {
            Repr::I8($v) => $e,
            Repr::I16($v) => $e,
            Repr::I32($v) => $e,
            Repr::I64($v) => $e,
            Repr::I128(w) => {
                let $v = w.i128();
                $e
            }
            Repr::U8($v) => $e,
            Repr::U16($v) => $e,
            Repr::U32($v) => $e,
            Repr::U64($v) => $e,
            Repr::U128(w) => {
                let $v = w.u128();
                $e
            }
            Repr::F16($v) => $e,
            Repr::BF16($v) => $e,
            Repr::F32($v) => $e,
            Repr::F64($v) => $e,
        }
    };
}

macro_rules! num_from {
    ($($t:ty => $variant:ident),*) => {$(
        impl From<$t> for Num {
            #[inline]
            fn from(v: $t) -> Num {
                Num(Repr::$variant(v))
            }
        }
    )*};
}

num_from!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32,
    u64 => U64, f16 => F16, bf16 => BF16, f32 => F32, f64 => F64);

impl From<i128> for Num {
    #[inline]
    fn from(v: i128) -> Num {
        Num(Repr::I128(Wide::from_u128(v as u128)))
    }
}

impl From<u128> for Num {
    #[inline]
    fn from(v: u128) -> Num {
        Num(Repr::U128(Wide::from_u128(v)))
    }
}

impl From<isize> for Num {
    /// An `i64` (the width BEVE uses for `isize`).
    #[inline]
    fn from(v: isize) -> Num {
        Num::from(v as i64)
    }
}

impl From<usize> for Num {
    /// A `u64` (the width BEVE uses for `usize`).
    #[inline]
    fn from(v: usize) -> Num {
        Num::from(v as u64)
    }
}

impl Default for Num {
    /// `0i64`.
    fn default() -> Num {
        Num::from(0i64)
    }
}

/// 2^127 as an `f64` (exact).
const TWO_127: f64 = 170141183460469231731687303715884105728.0;
/// 2^128 as an `f64` (exact).
const TWO_128: f64 = 340282366920938463463374607431768211456.0;

/// The integer an integral float equals, if it fits `i128`.
fn float_as_i128(f: f64) -> Option<i128> {
    (f.trunc() == f && (-TWO_127..TWO_127).contains(&f)).then_some(f as i128)
}

/// The integer an integral float equals, if it fits `u128`.
fn float_as_u128(f: f64) -> Option<u128> {
    (f.trunc() == f && (0.0..TWO_128).contains(&f)).then_some(f as u128)
}

/// A number reduced to the three shapes arithmetic cares about.
#[derive(Clone, Copy)]
enum Canon {
    Int(i128),
    Uint(u128),
    Float(f64),
}

impl Num {
    /// A number of kind `kind` holding `w`, or `None` if `w` does not fit that kind (see
    /// [`Number::from_wire`]: out of range, or a float for an integer kind).
    pub fn from_wire(w: Wire, kind: NumKind) -> Option<Num> {
        by_kind!(kind, T => T::from_wire(w).map(Num::from))
    }

    /// The number JSON reading makes of a wire number: `i64` if it fits, else `u64`, else
    /// `i128`/`u128`; floats stay `f64` (or `f32` if the reader kept one).
    /// (The JSON reader gives `-0` as `F64(-0.0)`, so its sign survives.)
    pub(crate) fn from_json_wire(w: Wire) -> Num {
        match w {
            Wire::Int(v) => i64::try_from(v).map_or(Num::from(v), Num::from),
            Wire::Uint(v) => match i64::try_from(v) {
                Ok(i) => Num::from(i),
                Err(_) => u64::try_from(v).map_or(Num::from(v), Num::from),
            },
            Wire::F32(v) => Num::from(v),
            Wire::F64(v) => Num::from(v),
        }
    }

    /// The kind the number was read or built as; BEVE writes it with this header.
    pub fn kind(&self) -> NumKind {
        match self.0 {
            Repr::I8(_) => NumKind::I8,
            Repr::I16(_) => NumKind::I16,
            Repr::I32(_) => NumKind::I32,
            Repr::I64(_) => NumKind::I64,
            Repr::I128(_) => NumKind::I128,
            Repr::U8(_) => NumKind::U8,
            Repr::U16(_) => NumKind::U16,
            Repr::U32(_) => NumKind::U32,
            Repr::U64(_) => NumKind::U64,
            Repr::U128(_) => NumKind::U128,
            Repr::F16(_) => NumKind::F16,
            Repr::BF16(_) => NumKind::BF16,
            Repr::F32(_) => NumKind::F32,
            Repr::F64(_) => NumKind::F64,
        }
    }

    /// The value as a wire number.
    pub fn to_wire(&self) -> Wire {
        with_num!(self, v => v.to_wire())
    }

    /// Whether the kind is an integer kind (signed or unsigned).
    pub fn is_integer(&self) -> bool {
        !self.kind().is_float()
    }

    /// Whether the kind is a floating-point kind.
    pub fn is_float(&self) -> bool {
        self.kind().is_float()
    }

    fn canon(&self) -> Canon {
        match self.to_wire() {
            Wire::Int(v) => Canon::Int(v),
            Wire::Uint(v) => Canon::Uint(v),
            Wire::F32(v) => Canon::Float(v as f64),
            Wire::F64(v) => Canon::Float(v),
        }
    }

    /// The value as an `i128`, if it is an integer or an integral float in range.
    pub fn as_i128(&self) -> Option<i128> {
        match self.canon() {
            Canon::Int(v) => Some(v),
            Canon::Uint(v) => i128::try_from(v).ok(),
            Canon::Float(f) => float_as_i128(f),
        }
    }

    /// The value as a `u128`, if it is a non-negative integer or integral float in range.
    pub fn as_u128(&self) -> Option<u128> {
        match self.canon() {
            Canon::Int(v) => u128::try_from(v).ok(),
            Canon::Uint(v) => Some(v),
            Canon::Float(f) => float_as_u128(f),
        }
    }

    /// The value as an `i64`, if it converts without loss (`3.0` does, `3.5` does not).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_i128().and_then(|v| i64::try_from(v).ok())
    }

    /// The value as a `u64`, if it converts without loss.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// The value as an `f64`, if it converts without loss: every float kind does; an integer
    /// does when `f64` holds it exactly (so `2^53 + 1` does not).
    pub fn as_f64(&self) -> Option<f64> {
        match self.canon() {
            Canon::Float(f) => Some(f),
            Canon::Int(v) => {
                let f = v as f64;
                (f != TWO_127 && f as i128 == v).then_some(f)
            }
            Canon::Uint(v) => {
                let f = v as f64;
                (f != TWO_128 && f as u128 == v).then_some(f)
            }
        }
    }

    /// The value as an `f32`, if it converts without loss.
    pub fn as_f32(&self) -> Option<f32> {
        if let Repr::F32(v) = self.0 {
            return Some(v);
        }
        let f = self.as_f64()?;
        let g = f as f32;
        (g as f64 == f || f.is_nan()).then_some(g)
    }

    /// The nearest `f64` (large integers round; never fails).
    pub fn as_f64_lossy(&self) -> f64 {
        match self.canon() {
            Canon::Int(v) => v as f64,
            Canon::Uint(v) => v as f64,
            Canon::Float(f) => f,
        }
    }

    /// The value converted to `N` as the readers convert (see [`Number::from_wire`]): integers
    /// must be in range, integers become floats by rounding, floats never become integers.
    pub fn to<N: Number>(&self) -> Option<N> {
        N::from_wire(self.to_wire())
    }

    /// Writes the number with its own kind.
    #[inline]
    pub(crate) fn write_to<W: Writer>(&self, w: &mut W) {
        with_num!(self, v => w.number(v))
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        match (self.canon(), other.canon()) {
            (Canon::Int(a), Canon::Int(b)) => a == b,
            (Canon::Uint(a), Canon::Uint(b)) => a == b,
            (Canon::Int(a), Canon::Uint(b)) | (Canon::Uint(b), Canon::Int(a)) => {
                u128::try_from(a) == Ok(b)
            }
            (Canon::Float(a), Canon::Float(b)) => a == b,
            (Canon::Float(f), Canon::Int(i)) | (Canon::Int(i), Canon::Float(f)) => {
                float_as_i128(f) == Some(i)
            }
            (Canon::Float(f), Canon::Uint(u)) | (Canon::Uint(u), Canon::Float(f)) => {
                float_as_u128(f) == Some(u)
            }
        }
    }
}

impl PartialOrd for Num {
    /// Orders by mathematical value; `None` when either is `NaN`.
    fn partial_cmp(&self, other: &Num) -> Option<Ordering> {
        match (self.canon(), other.canon()) {
            (Canon::Int(a), Canon::Int(b)) => Some(a.cmp(&b)),
            (Canon::Uint(a), Canon::Uint(b)) => Some(a.cmp(&b)),
            (Canon::Int(a), Canon::Uint(b)) => Some(match u128::try_from(a) {
                Ok(a) => a.cmp(&b),
                Err(_) => Ordering::Less,
            }),
            (Canon::Uint(_), Canon::Int(_)) => other.partial_cmp(self).map(Ordering::reverse),
            (Canon::Float(a), Canon::Float(b)) => a.partial_cmp(&b),
            (Canon::Float(f), _) if f.is_nan() => None,
            (Canon::Float(f), Canon::Int(i)) => Some(cmp_float_int(f, i)),
            (Canon::Float(f), Canon::Uint(u)) => Some(cmp_float_uint(f, u)),
            (_, Canon::Float(_)) => other.partial_cmp(self).map(Ordering::reverse),
        }
    }
}

/// Compares a non-NaN float with an integer exactly.
fn cmp_float_int(f: f64, i: i128) -> Ordering {
    if f < -TWO_127 {
        return Ordering::Less;
    }
    if f >= TWO_127 {
        return Ordering::Greater;
    }
    // In range: compare the integral parts, then the fraction decides ties.
    let t = f.trunc();
    match (t as i128).cmp(&i) {
        Ordering::Equal => t.partial_cmp(&f).map_or(Ordering::Equal, Ordering::reverse),
        o => o,
    }
}

/// Compares a non-NaN float with an unsigned integer exactly.
fn cmp_float_uint(f: f64, u: u128) -> Ordering {
    if f < 0.0 {
        return Ordering::Less;
    }
    if f >= TWO_128 {
        return Ordering::Greater;
    }
    let t = f.trunc();
    match (t as u128).cmp(&u) {
        Ordering::Equal => t.partial_cmp(&f).map_or(Ordering::Equal, Ordering::reverse),
        o => o,
    }
}

/// Reads a number: of the wire kind BEVE announced (`Some`), or as JSON reading decides
/// (`None`, see [`Num::from_json_wire`]).
pub(crate) fn read_num<'de, R: Reader<'de>>(r: &mut R, kind: Option<NumKind>) -> Result<Num> {
    match kind {
        Some(k) => by_kind!(k, T => Ok(Num::from(r.read_number::<T>()?))),
        None => Ok(Num::from_json_wire(r.read_wire_number()?)),
    }
}

impl<'de> Reflect<'de> for Num {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        self.write_to(w)
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        match r.peek_kind()? {
            ValueKind::Number(kind) => {
                *self = read_num(r, kind)?;
                Ok(())
            }
            _ => Err(r.invalid_type("a number")),
        }
    }

    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        match r.peek_kind()? {
            ValueKind::Number(kind) => read_num(r, kind),
            _ => Err(r.invalid_type("a number")),
        }
    }

    fn default_value() -> Option<Self> {
        Some(Num::default())
    }
    const HAS_DEFAULT_VALUE: bool = true;
}

impl std::fmt::Debug for Num {
    /// The value followed by its kind: `-3i8`, `1.5f64`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        with_num!(self, v => write!(f, "{v:?}"))?;
        f.write_str(self.kind().name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_kept() {
        assert_eq!(Num::from(1i8).kind(), NumKind::I8);
        assert_eq!(Num::from(1u128).kind(), NumKind::U128);
        assert_eq!(Num::from(bf16::from_f32(1.0)).kind(), NumKind::BF16);
        assert_eq!(Num::from(1usize).kind(), NumKind::U64);
        assert_eq!(std::mem::size_of::<Num>(), 24);
    }

    #[test]
    fn wide_values_survive() {
        for v in [i128::MIN, -1, 0, i128::MAX] {
            assert_eq!(Num::from(v).as_i128(), Some(v));
            assert_eq!(Num::from(v).to_wire(), Wire::Int(v));
        }
        for v in [0, u128::MAX, 1 << 64, (1 << 64) - 1] {
            assert_eq!(Num::from(v).as_u128(), Some(v));
        }
    }

    #[test]
    fn exact_conversions() {
        assert_eq!(Num::from(3.0f64).as_i64(), Some(3));
        assert_eq!(Num::from(3.5f64).as_i64(), None);
        assert_eq!(Num::from(-1i32).as_u64(), None);
        assert_eq!(Num::from(u64::MAX).as_i64(), None);
        assert_eq!(Num::from(u64::MAX).as_u64(), Some(u64::MAX));
        assert_eq!(Num::from((1u64 << 53) + 1).as_f64(), None);
        assert_eq!(Num::from(1u64 << 53).as_f64(), Some(9007199254740992.0));
        assert_eq!(Num::from(i128::MAX).as_f64(), None);
        assert_eq!(Num::from(i128::MIN).as_f64(), Some(-TWO_127));
        assert_eq!(Num::from(u128::MAX).as_f64(), None);
        assert_eq!(Num::from(1e300).as_i64(), None);
        assert_eq!(Num::from(f64::NAN).as_i64(), None);
        assert_eq!(Num::from(0.1f64).as_f32(), None);
        assert_eq!(Num::from(0.5f64).as_f32(), Some(0.5));
        assert_eq!(Num::from(f16::from_f32(0.5)).as_f64(), Some(0.5));
        assert_eq!(Num::from(-0.0f64).as_i64(), Some(0));
        assert_eq!(Num::from(TWO_127).as_i128(), None);
        assert_eq!(Num::from(TWO_127).as_u128(), Some(1 << 127));
        assert_eq!(Num::from(300i32).to::<u8>(), None);
        assert_eq!(Num::from(200i32).to::<u8>(), Some(200));
    }

    #[test]
    fn json_wire_numbers_pick_the_narrowest_of_i64_u64_128() {
        assert_eq!(Num::from_json_wire(Wire::Uint(5)).kind(), NumKind::I64);
        assert_eq!(Num::from_json_wire(Wire::Int(-5)).kind(), NumKind::I64);
        assert_eq!(Num::from_json_wire(Wire::Uint(0)).kind(), NumKind::I64);
        assert_eq!(
            Num::from_json_wire(Wire::Uint(u64::MAX as u128)).kind(),
            NumKind::U64
        );
        assert_eq!(
            Num::from_json_wire(Wire::Uint(u64::MAX as u128 + 1)).kind(),
            NumKind::U128
        );
        assert_eq!(
            Num::from_json_wire(Wire::Int(i64::MIN as i128 - 1)).kind(),
            NumKind::I128
        );
        assert_eq!(Num::from_json_wire(Wire::F64(0.5)).kind(), NumKind::F64);
        assert_eq!(Num::from_wire(Wire::Int(-1), NumKind::U8), None);
        assert_eq!(
            Num::from_wire(Wire::Int(7), NumKind::U8).map(|n| n.kind()),
            Some(NumKind::U8)
        );
    }

    #[test]
    fn equality_is_by_value() {
        assert_eq!(Num::from(1u8), Num::from(1i64));
        assert_eq!(Num::from(2.0f64), Num::from(2i32));
        assert_eq!(Num::from(-0.0f64), Num::from(0u8));
        assert_ne!(Num::from(-1i8), Num::from(u128::MAX));
        assert_ne!(Num::from(2.5f64), Num::from(2i32));
        assert_ne!(Num::from(f64::NAN), Num::from(f64::NAN));
        // 2^53 + 1 is not the float 2^53.
        assert_ne!(Num::from((1u64 << 53) + 1), Num::from(9007199254740992.0));
        assert_eq!(Num::from(0.5f32), Num::from(0.5f64));
        assert_ne!(Num::from(0.1f32), Num::from(0.1f64));
    }

    #[test]
    fn ordering_is_by_value() {
        let lt = |a: Num, b: Num| {
            assert_eq!(a.partial_cmp(&b), Some(Ordering::Less), "{a:?} < {b:?}");
            assert_eq!(b.partial_cmp(&a), Some(Ordering::Greater), "{b:?} > {a:?}");
        };
        lt(Num::from(-1i8), Num::from(0u8));
        lt(Num::from(-1i128), Num::from(u128::MAX));
        lt(Num::from(2.5f64), Num::from(3i32));
        lt(Num::from(2i32), Num::from(2.5f64));
        lt(Num::from(-2.5f64), Num::from(-2i32));
        lt(Num::from(9007199254740992.0), Num::from((1u64 << 53) + 1));
        lt(Num::from(u128::MAX), Num::from(f64::INFINITY));
        lt(Num::from(f64::NEG_INFINITY), Num::from(i128::MIN));
        assert_eq!(Num::from(f64::NAN).partial_cmp(&Num::from(1)), None);
        assert_eq!(Num::from(1).partial_cmp(&Num::from(f64::NAN)), None);
        assert_eq!(
            Num::from(3.0f32).partial_cmp(&Num::from(3u64)),
            Some(Ordering::Equal)
        );
    }

    #[test]
    fn debug_names_the_kind() {
        assert_eq!(format!("{:?}", Num::from(-3i8)), "-3i8");
        assert_eq!(format!("{:?}", Num::from(1.5f64)), "1.5f64");
        assert_eq!(
            format!("{:?}", Num::from(u128::MAX)),
            format!("{}u128", u128::MAX)
        );
    }
}
