//! The numeric element types both formats know: what kind each is, and exact conversions
//! between them. Reading a number of one width into a field of another goes through these
//! checks, so a value out of the target's range is an error, never a silent truncation.
//!
//! Number text lives here too, apart from the JSON grammar around it:
//! - [`parse`]: the number grammar, exact integers (eight digits at a time) and correctly
//!   rounded floats (Clinger's fast path, then [`float_parse`]'s Eisel-Lemire with the
//!   powers of five of [`pow5`], then the standard library's parser);
//! - [`print`](mod@print): numbers as text in Glaze's style or serde's, integers through
//!   [`int_print`], the shortest digits of an `f64` through [`shortest`], whose seventeen
//!   digits are split by [`digits16`].
//!
//! The SSE2 halves of the sixteen-digit conversions are in `crate::simd::digits16`, with
//! the crate's other vector code; their portable twins are here.

#![forbid(unsafe_code)]

use half::{bf16, f16};

pub(crate) mod digits16;
pub(crate) mod float_parse;
pub(crate) mod int_print;
pub(crate) mod parse;
pub(crate) mod pow5;
pub(crate) mod print;
pub(crate) mod shortest;

/// The wire kind of a number: BEVE writes it in the header, JSON uses it to pick the parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumKind {
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64` (and `isize`)
    I64,
    /// `i128`
    I128,
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64` (and `usize`)
    U64,
    /// `u128`
    U128,
    /// `half::bf16`
    BF16,
    /// `half::f16`
    F16,
    /// `f32`
    F32,
    /// `f64`
    F64,
}

impl NumKind {
    /// Size of one value in bytes.
    pub const fn size(self) -> usize {
        use NumKind::*;
        match self {
            I8 | U8 => 1,
            I16 | U16 | BF16 | F16 => 2,
            I32 | U32 | F32 => 4,
            I64 | U64 | F64 => 8,
            I128 | U128 => 16,
        }
    }

    /// Whether the kind is a signed integer.
    pub const fn is_signed_int(self) -> bool {
        matches!(
            self,
            NumKind::I8 | NumKind::I16 | NumKind::I32 | NumKind::I64 | NumKind::I128
        )
    }

    /// Whether the kind is an unsigned integer.
    pub const fn is_unsigned_int(self) -> bool {
        matches!(
            self,
            NumKind::U8 | NumKind::U16 | NumKind::U32 | NumKind::U64 | NumKind::U128
        )
    }

    /// Whether the kind is a floating-point type.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            NumKind::BF16 | NumKind::F16 | NumKind::F32 | NumKind::F64
        )
    }

    /// The Rust name of the type, for error messages.
    pub const fn name(self) -> &'static str {
        use NumKind::*;
        match self {
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            I128 => "i128",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            U128 => "u128",
            BF16 => "bf16",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
        }
    }
}

/// A number as it came off the wire, before it is fitted to the target type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wire {
    /// A signed integer (any width up to 128 bits).
    Int(i128),
    /// An unsigned integer (any width up to 128 bits).
    Uint(u128),
    /// An `f32` value (kept apart so f32 -> f32 stays exact without a detour).
    F32(f32),
    /// An `f64`, `f16` or `bf16` value.
    F64(f64),
}

mod sealed {
    pub trait Sealed {}
}

/// A primitive number that can be an element of a BEVE typed array and a JSON number.
///
/// Implemented for `i8..i128`, `u8..u128`, `f32`, `f64`, `half::f16`, `half::bf16`. `isize` and
/// `usize` are handled as `i64`/`u64` by their `Reflect` impls.
pub trait Number:
    Copy
    + Default
    + PartialEq
    + bytemuck::Pod
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
    + sealed::Sealed
{
    /// The wire kind.
    const KIND: NumKind;
    /// The value as a wire number.
    fn to_wire(self) -> Wire;
    /// Fits a wire number into `Self`: `None` when it is out of range or a float meets an
    /// integer type. Integers convert to floats (rounding to nearest) only when the result is
    /// finite (a `u128` near `u128::MAX` is out of range for `f32`, as the same digits in JSON
    /// are), floats to wider or narrower floats only when the value stays finite.
    fn from_wire(w: Wire) -> Option<Self>;
    /// Fits an integer into `Self`, as [`Number::from_wire`] does with the same integer, without
    /// going through the 128-bit wire value (the integer types: one range check for a type
    /// narrower than 64 bits, none for a wider one).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn from_i64(v: i64) -> Option<Self> {
        Self::from_wire(Wire::Int(i128::from(v)))
    }
    /// Converts from little-endian bytes (exactly `size_of::<Self>()` of them).
    fn from_le_slice(b: &[u8]) -> Self;
    /// Appends the little-endian bytes.
    fn extend_le(self, out: &mut Vec<u8>);
}

macro_rules! int_number {
    ($($t:ty => $kind:ident, $variant:ident, $wide:ty);* $(;)?) => {$(
        impl sealed::Sealed for $t {}
        impl Number for $t {
            const KIND: NumKind = NumKind::$kind;
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn to_wire(self) -> Wire {
                Wire::$variant(self as $wide)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_wire(w: Wire) -> Option<Self> {
                match w {
                    Wire::Int(v) => <$t>::try_from(v).ok(),
                    Wire::Uint(v) => <$t>::try_from(v).ok(),
                    Wire::F32(_) | Wire::F64(_) => None,
                }
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_i64(v: i64) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_le_slice(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn extend_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

int_number! {
    i8 => I8, Int, i128;
    i16 => I16, Int, i128;
    i32 => I32, Int, i128;
    i64 => I64, Int, i128;
    i128 => I128, Int, i128;
    u8 => U8, Uint, u128;
    u16 => U16, Uint, u128;
    u32 => U32, Uint, u128;
    u64 => U64, Uint, u128;
    u128 => U128, Uint, u128;
}

/// `f64` from a wire number. Never `None`: every 128-bit integer is finite as an `f64`
/// (`u128::MAX` is about 3.4e38), and `f32` widens exactly.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn wire_to_f64(w: Wire) -> Option<f64> {
    Some(match w {
        Wire::Int(v) => v as f64,
        Wire::Uint(v) => v as f64,
        Wire::F32(v) => v as f64,
        Wire::F64(v) => v,
    })
}

/// Narrows to a smaller float, refusing a finite value that would become infinite.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn narrow<T>(v: f64, conv: impl Fn(f64) -> T, is_inf: impl Fn(&T) -> bool) -> Option<T> {
    let r = conv(v);
    if is_inf(&r) && v.is_finite() {
        None
    } else {
        Some(r)
    }
}

impl sealed::Sealed for f64 {}
impl Number for f64 {
    const KIND: NumKind = NumKind::F64;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn to_wire(self) -> Wire {
        Wire::F64(self)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn from_wire(w: Wire) -> Option<Self> {
        wire_to_f64(w)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn from_le_slice(b: &[u8]) -> Self {
        f64::from_bits(u64::from_le_slice(b))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn extend_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl sealed::Sealed for f32 {}
impl Number for f32 {
    const KIND: NumKind = NumKind::F32;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn to_wire(self) -> Wire {
        Wire::F32(self)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn from_wire(w: Wire) -> Option<Self> {
        match w {
            Wire::F32(v) => Some(v),
            // |v| <= 2^127, below `f32::MAX` (about 2^128): always finite.
            Wire::Int(v) => Some(v as f32),
            // From 2^128 - 2^103 up, rounding to nearest gives infinity: out of range.
            Wire::Uint(v) => {
                let r = v as f32;
                (r != f32::INFINITY).then_some(r)
            }
            Wire::F64(v) => narrow(v, |x| x as f32, |r| r.is_infinite()),
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn from_le_slice(b: &[u8]) -> Self {
        f32::from_bits(u32::from_le_slice(b))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn extend_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

macro_rules! half_number {
    ($($t:ident => $kind:ident);*) => {$(
        impl sealed::Sealed for $t {}
        impl Number for $t {
            const KIND: NumKind = NumKind::$kind;
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn to_wire(self) -> Wire {
                Wire::F64(self.to_f64())
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_wire(w: Wire) -> Option<Self> {
                narrow(wire_to_f64(w)?, $t::from_f64, |r| r.is_infinite())
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_le_slice(b: &[u8]) -> Self {
                $t::from_bits(u16::from_le_slice(b))
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn extend_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

half_number! { f16 => F16; bf16 => BF16 }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_check_range() {
        assert_eq!(u8::from_wire(Wire::Uint(255)), Some(255));
        assert_eq!(u8::from_wire(Wire::Uint(256)), None);
        assert_eq!(u32::from_wire(Wire::Int(-1)), None);
        assert_eq!(i64::from_wire(Wire::F64(1.0)), None);
        assert_eq!(f64::from_wire(Wire::Int(-3)), Some(-3.0));
        assert_eq!(f32::from_wire(Wire::F64(1e39)), None);
        assert_eq!(
            f32::from_wire(Wire::F64(f64::INFINITY)),
            Some(f32::INFINITY)
        );
        assert_eq!(f64::from_wire(Wire::F32(0.1)), Some(0.1f32 as f64));
    }

    #[test]
    fn integers_past_the_f32_range_are_out_of_range() {
        // f32::MAX is (2^24 - 1) * 2^104; halfway to 2^128 (and beyond) rounds to infinity.
        let halfway = u128::MAX - (1u128 << 103) + 1;
        assert_eq!(f32::from_wire(Wire::Uint(u128::MAX)), None);
        assert_eq!(f32::from_wire(Wire::Uint(halfway)), None);
        assert_eq!(f32::from_wire(Wire::Uint(halfway - 1)), Some(f32::MAX));
        assert_eq!(f32::from_wire(Wire::Uint(f32::MAX as u128)), Some(f32::MAX));
        assert_eq!(
            f32::from_wire(Wire::Int(i128::MIN)),
            Some(-(2f32.powi(127)))
        );
        assert_eq!(f32::from_wire(Wire::Int(i128::MAX)), Some(2f32.powi(127)));
        // Every 128-bit integer is finite as an f64; the half types already refused.
        assert_eq!(
            f64::from_wire(Wire::Uint(u128::MAX)),
            Some(u128::MAX as f64)
        );
        assert_eq!(f64::from_wire(Wire::Int(i128::MIN)), Some(i128::MIN as f64));
        assert_eq!(f16::from_wire(Wire::Uint(u128::MAX)), None);
        assert_eq!(bf16::from_wire(Wire::Uint(u128::MAX)), None);
        assert_eq!(f16::from_wire(Wire::Int(-70000)), None);
    }
}
