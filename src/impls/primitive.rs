//! Numbers, `bool`, `char` and `()`.
//!
//! Numbers and `bool` override the slice methods so that containers of them become one typed
//! array (a bulk copy in BEVE) instead of an array of separately tagged values.

use half::{bf16, f16};

use crate::error::{Code, Error, Result};
use crate::number::Number;
use crate::reflect::{Key, KeyKind, MapKey, Reader, Reflect, Writer};

macro_rules! number_reflect {
    ($inline:expr; $($t:ty),*) => {$(
        impl<'de> Reflect<'de> for $t {
            const INLINE_MEMBER: bool = $inline;
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn write<W: Writer>(&self, w: &mut W) {
                w.number(*self)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                *self = r.read_number::<$t>()?;
                Ok(())
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                r.read_number::<$t>()
            }
            #[inline]
            fn default_value() -> Option<Self> {
                Some(<$t>::default())
            }
            const HAS_DEFAULT_VALUE: bool = true;
            #[inline]
            fn default_array<const N: usize>() -> Option<[Self; N]> {
                Some([<$t>::default(); N])
            }
            #[inline]
            fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
                w.typed_array(items)
            }
            #[inline]
            fn write_rows<const N: usize, W: Writer>(rows: &[[Self; N]], w: &mut W) {
                w.typed_rows(rows)
            }
            #[inline]
            fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
            where
                I: ExactSizeIterator<Item = &'a Self>,
            {
                w.typed_array_iter(items.copied())
            }
            #[inline]
            fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
                r.read_typed_vec(out)
            }
            #[inline]
            fn read_slice<R: Reader<'de>>(out: &mut [Self], r: &mut R) -> Result<()> {
                r.read_typed_slice(out)
            }
            #[inline]
            fn read_cow<R: Reader<'de>>(out: &mut std::borrow::Cow<'de, [Self]>, r: &mut R) -> Result<()> {
                r.read_typed_cow(out)
            }
        }
    )*};
}

// Integers read in a few instructions, inline in a derived struct's read; floating-point
// numbers through a shared call (see `Reflect::INLINE_MEMBER`).
number_reflect!(true; i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);
number_reflect!(false; f32, f64, f16, bf16);

macro_rules! int_key {
    ($($t:ty),*) => {$(
        impl<'de> MapKey<'de> for $t {
            const KIND: KeyKind = KeyKind::Int(<$t as Number>::KIND);
            #[inline]
            fn write_key<W: Writer>(&self, w: &mut W) {
                w.int_key(*self)
            }
            #[inline]
            fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
                match key {
                    Key::Int(wire) => <$t>::from_wire(wire).ok_or_else(|| {
                        Error::new(Code::NumberOutOfRange(<$t as Number>::KIND.name()), offset)
                    }),
                    Key::Str(s) => int_key_text::<$t>(s.as_str(), offset),
                }
            }
        }
    )*};
}

int_key!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

/// Whether `b` is an integer of kind `N` in its canonical decimal spelling: an optional `-`
/// (for signed kinds; `-0` is not one for unsigned kinds) and digits without a leading zero, no
/// `+`, fraction or exponent. The range is not checked.
#[inline]
pub(crate) fn is_canonical_int<N: Number>(b: &[u8]) -> bool {
    let neg = b.first() == Some(&b'-');
    match &b[usize::from(neg)..] {
        [b'0'] => !neg || N::KIND.is_signed_int(),
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// Parses a quoted map key as an integer of type `N`. A key is text, and only the canonical
/// decimal spelling is an integer key: the one the writer writes and the `propertyNames`
/// pattern of the type's JSON Schema describes (`^-?(0|[1-9][0-9]*)$`, without the `-` for an
/// unsigned type). `"1e0"`, `"1.0"`, `"01"`, `"+1"`, `" 1"` and `"-0"` into an unsigned type
/// are errors quoting the key (so one integer has one key, and a schema validator agrees); a
/// canonical key out of the type's range is a range error.
pub(crate) fn int_key_text<N: Number>(s: &str, offset: usize) -> Result<N> {
    let b = s.as_bytes();
    if !is_canonical_int::<N>(b) {
        return Err(Error::new(
            Code::InvalidText("integer map key", s.to_string()),
            offset,
        ));
    }
    match crate::json::read_int::<N>(b, 0) {
        Ok((v, end)) if end == b.len() => Ok(v),
        _ => Err(Error::new(Code::NumberOutOfRange(N::KIND.name()), offset)),
    }
}

macro_rules! size_reflect {
    ($($t:ty => $wire:ty),*) => {$(
        impl<'de> Reflect<'de> for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn write<W: Writer>(&self, w: &mut W) {
                w.number(*self as $wire)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                let mark = r.save();
                let v = r.read_number::<$wire>()?;
                *self = <$t>::try_from(v).map_err(|_| {
                    Error::new(
                        Code::NumberOutOfRange(stringify!($t)),
                        crate::read::offset_at(r, mark),
                    )
                })?;
                Ok(())
            }
            crate::impls::new_from_default!('de);
        }
        impl<'de> MapKey<'de> for $t {
            const KIND: KeyKind = KeyKind::Int(<$wire as Number>::KIND);
            #[inline]
            fn write_key<W: Writer>(&self, w: &mut W) {
                w.int_key(*self as $wire)
            }
            #[inline]
            fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
                let v = <$wire as MapKey>::from_key(key, offset)?;
                <$t>::try_from(v)
                    .map_err(|_| Error::new(Code::NumberOutOfRange(stringify!($t)), offset))
            }
        }
    )*};
}

size_reflect!(isize => i64, usize => u64);

impl<'de> Reflect<'de> for bool {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write<W: Writer>(&self, w: &mut W) {
        w.bool(*self)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = r.read_bool()?;
        Ok(())
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        r.read_bool()
    }
    #[inline]
    fn default_value() -> Option<Self> {
        Some(false)
    }
    const HAS_DEFAULT_VALUE: bool = true;
    #[inline]
    fn default_array<const N: usize>() -> Option<[Self; N]> {
        Some([false; N])
    }
    #[inline]
    fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
    {
        w.bool_array(items.copied())
    }
    #[inline]
    fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
        r.read_bool_vec(out)
    }
    #[inline]
    fn read_slice<R: Reader<'de>>(out: &mut [Self], r: &mut R) -> Result<()> {
        let at = r.offset();
        let mut v = Vec::with_capacity(out.len());
        r.read_bool_vec(&mut v)?;
        if v.len() != out.len() {
            return Err(Error::new(
                Code::WrongLength {
                    expected: out.len(),
                    found: v.len(),
                },
                at,
            ));
        }
        out.copy_from_slice(&v);
        Ok(())
    }
}

impl<'de> Reflect<'de> for char {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.char(*self)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = r.read_char()?;
        Ok(())
    }
    crate::impls::new_from_default!('de);
}

impl<'de> Reflect<'de> for () {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.null()
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        if r.take_null()? {
            Ok(())
        } else {
            Err(r.invalid_type("null"))
        }
    }
    crate::impls::new_from_default!('de);
}
