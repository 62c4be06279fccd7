//! The non-zero integers, `NonZeroU8` ... `NonZeroU128`, `NonZeroI8` ... `NonZeroI128`,
//! `NonZeroUsize` and `NonZeroIsize`: on the wire exactly their integer (`usize`/`isize` as
//! `u64`/`i64`), so a vector of them is a typed array in BEVE, as Glaze writes a vector of that
//! integer type. Reading a zero is an error naming the type; as map keys they are integer keys.

use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};

use crate::error::{Code, Error, PathSegment, Result};
use crate::number::Number;
use crate::reflect::{Key, KeyKind, MapKey, Reader, Reflect, Writer};

/// The error for a value of a non-zero type `ty` read at `mark`: zero, or out of the range of
/// its integer (a `NonZeroUsize` on a 32-bit target).
#[cold]
#[inline(never)]
fn bad_value<'de, R: Reader<'de>>(r: &mut R, mark: R::Pos, zero: bool, ty: &'static str) -> Error {
    let at = crate::read::offset_at(r, mark);
    Error::new(code(zero, ty), at)
}

#[inline]
fn code(zero: bool, ty: &'static str) -> Code {
    if zero {
        Code::Zero(ty)
    } else {
        Code::NumberOutOfRange(ty)
    }
}

/// A range or fraction error about the wire integer renamed after the type read (a non-zero
/// integer, a duration).
#[cold]
#[inline(never)]
pub(crate) fn rename(e: Error, ty: &'static str) -> Error {
    match e.code() {
        Code::NumberOutOfRange(_) => e.with_code(Code::NumberOutOfRange(ty)),
        Code::ExpectedInteger(_) => e.with_code(Code::ExpectedInteger(ty)),
        _ => e,
    }
}

/// The error for element `i` of the array read at `mark` (zero or out of range): found again
/// from the start of the array, so that the offset is the element's.
#[cold]
#[inline(never)]
fn bad_element<'de, R: Reader<'de>>(
    r: &mut R,
    mark: R::Pos,
    i: usize,
    zero: bool,
    ty: &'static str,
) -> Error {
    let end = r.save();
    r.restore(mark);
    let mut find = || -> Result<usize> {
        let mut seq = r.begin_array()?;
        for _ in 0..i {
            r.next_element(&mut seq)?;
            r.read_wire_number()?;
        }
        r.next_element(&mut seq)?;
        Ok(r.offset())
    };
    let at = find().unwrap_or(0);
    r.restore(end);
    Error::new(code(zero, ty), at).push_path(PathSegment::Index(i))
}

macro_rules! nonzero {
    ($($nz:ident => $int:ty, $wire:ty);* $(;)?) => {$(
        impl<'de> Reflect<'de> for $nz {
            #[inline]
            fn write<W: Writer>(&self, w: &mut W) {
                w.number(self.get() as $wire)
            }
            super::text::read_via_new!('de);
            /// No default: a member left out is missing, never a made-up value.
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                let mark = r.save();
                let v = r
                    .read_number::<$wire>()
                    .map_err(|e| rename(e, stringify!($nz)))?;
                match <$int>::try_from(v) {
                    Ok(v) => match <$nz>::new(v) {
                        Some(nz) => Ok(nz),
                        None => Err(bad_value(r, mark, true, stringify!($nz))),
                    },
                    Err(_) => Err(bad_value(r, mark, false, stringify!($nz))),
                }
            }
            #[inline]
            fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
                w.typed_array_iter(items.iter().map(|x| x.get() as $wire))
            }
            #[inline]
            fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
            where
                I: ExactSizeIterator<Item = &'a Self>,
            {
                w.typed_array_iter(items.map(|x| x.get() as $wire))
            }
            #[inline]
            fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
                let mark = r.save();
                // The integers are read with the format's bulk path into the same allocation
                // (an in-place collect of a same-sized type), then checked.
                let mut v: Vec<$wire> = std::mem::take(out)
                    .into_iter()
                    .map(|x| x.get() as $wire)
                    .collect();
                r.read_typed_vec(&mut v).map_err(|e| rename(e, stringify!($nz)))?;
                let fits = |x: $wire| <$int>::try_from(x).ok().and_then(<$nz>::new);
                if let Some(i) = v.iter().position(|&x| fits(x).is_none()) {
                    return Err(bad_element(r, mark, i, v[i] == 0, stringify!($nz)));
                }
                *out = v.into_iter().filter_map(fits).collect();
                Ok(())
            }
        }

        impl<'de> MapKey<'de> for $nz {
            const KIND: KeyKind = KeyKind::Int(<$wire as Number>::KIND);
            #[inline]
            fn write_key<W: Writer>(&self, w: &mut W) {
                w.int_key(self.get() as $wire)
            }
            #[inline]
            fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
                let v = <$wire as MapKey>::from_key(key, offset)
                    .map_err(|e| rename(e, stringify!($nz)))?;
                match <$int>::try_from(v) {
                    Ok(v) => <$nz>::new(v)
                        .ok_or_else(|| Error::new(Code::Zero(stringify!($nz)), offset)),
                    Err(_) => Err(Error::new(Code::NumberOutOfRange(stringify!($nz)), offset)),
                }
            }
        }
    )*};
}

nonzero! {
    NonZeroU8 => u8, u8;
    NonZeroU16 => u16, u16;
    NonZeroU32 => u32, u32;
    NonZeroU64 => u64, u64;
    NonZeroU128 => u128, u128;
    NonZeroUsize => usize, u64;
    NonZeroI8 => i8, i8;
    NonZeroI16 => i16, i16;
    NonZeroI32 => i32, i32;
    NonZeroI64 => i64, i64;
    NonZeroI128 => i128, i128;
    NonZeroIsize => isize, i64;
}
