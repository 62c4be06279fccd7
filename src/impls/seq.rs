//! Sequences and wrappers: `Vec`, `VecDeque`, `[T; N]`, `Box<[T]>`, `HashSet`, `BTreeSet`,
//! `LinkedList`, `Option` and `Box` (`Cow<'de, [T]>` is in [`super::cow`]).

use std::collections::{BTreeSet, HashSet, LinkedList, VecDeque};
use std::hash::{BuildHasher, Hash};

use crate::error::Result;
use crate::reflect::{Reader, Reflect, Writer};

impl<'de, T: Reflect<'de>> Reflect<'de> for Vec<T> {
    // A sequence of a type read in a few instructions (integers, `bool`: in BEVE one bulk copy)
    // stays inline: through a call, the 26 `Vec<bool>` members of Glaze's `bools` document read
    // 5-10% slower in wall time (paired against Glaze) with fewer instructions.
    const INLINE_MEMBER: bool = T::INLINE_MEMBER;
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        T::write_slice(self, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        T::read_vec(self, r)
    }
    crate::impls::new_from_default!('de);
}

impl<'de, T: Reflect<'de>> Reflect<'de> for Box<[T]> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        T::write_slice(self, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let mut v = std::mem::take(self).into_vec();
        T::read_vec(&mut v, r)?;
        *self = v.into_boxed_slice();
        Ok(())
    }
    crate::impls::new_from_default!('de);
}

impl<'de, T: Reflect<'de>> Reflect<'de> for VecDeque<T> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        let (a, b) = self.as_slices();
        if b.is_empty() {
            T::write_slice(a, w)
        } else {
            T::write_iter(self.iter(), w)
        }
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        // Both conversions keep the allocation.
        let mut v: Vec<T> = std::mem::take(self).into();
        let res = T::read_vec(&mut v, r);
        *self = v.into();
        res
    }
    crate::impls::new_from_default!('de);
}

impl<'de, T: Reflect<'de>, const N: usize> Reflect<'de> for [T; N] {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        T::write_slice(self, w)
    }
    #[inline]
    fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
        T::write_rows(items, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        T::read_slice(self, r)
    }
    /// Read as an array of exactly `N` elements: in place into `T`'s default array when it has
    /// one (numbers), else each element new.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        if let Some(mut a) = T::default_array::<N>() {
            T::read_slice(&mut a, r)?;
            return Ok(a);
        }
        let at = r.offset();
        let mut v: Vec<T> = Vec::new();
        T::read_vec(&mut v, r)?;
        let found = v.len();
        <[T; N]>::try_from(v).map_err(|_| {
            crate::error::Error::new(crate::error::Code::WrongLength { expected: N, found }, at)
        })
    }
    const HAS_DEFAULT_VALUE: bool = T::HAS_DEFAULT_VALUE;
    #[inline]
    fn default_value() -> Option<Self> {
        if let Some(a) = T::default_array::<N>() {
            return Some(a);
        }
        let mut items = Vec::with_capacity(N);
        for _ in 0..N {
            items.push(T::default_value()?);
        }
        <[T; N]>::try_from(items).ok()
    }
}

/// The body of `Reflect` for a set or a linked list: written as an array in iteration order;
/// read as an array (through `T::read_vec`, so numbers and strings take their bulk paths), then
/// replacing the contents (in a set a repeated element collapses, as in the C++ set).
macro_rules! set_methods {
    () => {
        #[inline]
        fn write<W: Writer>(&self, w: &mut W) {
            T::write_iter(self.iter(), w)
        }
        #[inline]
        fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
            let mut v = Vec::new();
            T::read_vec(&mut v, r)?;
            self.clear();
            self.extend(v);
            Ok(())
        }
        crate::impls::new_from_default!('de);
    };
}

impl<'de, T, S> Reflect<'de> for HashSet<T, S>
where
    T: Reflect<'de> + Eq + Hash,
    S: BuildHasher + Default,
{
    set_methods!();
}

impl<'de, T: Reflect<'de>> Reflect<'de> for LinkedList<T> {
    set_methods!();
}

impl<'de, T> Reflect<'de> for BTreeSet<T>
where
    T: Reflect<'de> + Ord,
{
    set_methods!();
}

impl<'de, T: Reflect<'de>> Reflect<'de> for Option<T> {
    const INLINE_MEMBER: bool = T::INLINE_MEMBER;
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        match self {
            Some(v) => v.write(w),
            None => w.null(),
        }
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        if r.take_null()? {
            *self = None;
            return Ok(());
        }
        match self {
            Some(v) => v.read(r),
            None => {
                crate::read::stack_for::<T>(r.offset())?;
                *self = Some(T::read_new(r)?);
                Ok(())
            }
        }
    }
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        if r.take_null()? {
            return Ok(None);
        }
        crate::read::stack_for::<T>(r.offset())?;
        T::read_new(r).map(Some)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_new_canonical<R: Reader<'de>>(r: &mut R) -> Result<Option<Self>> {
        if r.take_null()? {
            return Ok(Some(None));
        }
        crate::read::stack_for::<T>(r.offset())?;
        T::read_new_canonical(r).map(|v| v.map(Some))
    }
    #[inline]
    fn default_value() -> Option<Self> {
        Some(None)
    }
    const HAS_DEFAULT_VALUE: bool = true;
    #[inline]
    fn is_absent(&self) -> bool {
        self.is_none()
    }
    const MAY_BE_ABSENT: bool = true;
}

impl<'de, T: Reflect<'de>> Reflect<'de> for Box<T> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        (**self).write(w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        (**self).read(r)
    }
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        crate::read::stack_for::<T>(r.offset())?;
        T::read_new(r).map(Box::new)
    }
    #[inline]
    fn default_value() -> Option<Self> {
        T::default_value().map(Box::new)
    }
    const HAS_DEFAULT_VALUE: bool = T::HAS_DEFAULT_VALUE;
    #[inline]
    fn is_absent(&self) -> bool {
        (**self).is_absent()
    }
    const MAY_BE_ABSENT: bool = T::MAY_BE_ABSENT;
}
