//! Sequences and wrappers: `Vec`, `VecDeque`, `[T; N]`, `Box<[T]>`, `HashSet`, `BTreeSet`,
//! `LinkedList`, `Option` and `Box` (`Cow<'de, [T]>` is in [`super::cow`]).

use std::collections::{BTreeSet, HashSet, LinkedList, VecDeque};
use std::hash::{BuildHasher, Hash};

use crate::error::Result;
use crate::reflect::{Reader, Reflect, Writer};

impl<'de, T: Reflect<'de> + Default> Reflect<'de> for Vec<T> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        T::write_slice(self, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        T::read_vec(self, r)
    }
}

impl<'de, T: Reflect<'de> + Default> Reflect<'de> for Box<[T]> {
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
}

impl<'de, T: Reflect<'de> + Default> Reflect<'de> for VecDeque<T> {
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
    };
}

impl<'de, T, S> Reflect<'de> for HashSet<T, S>
where
    T: Reflect<'de> + Default + Eq + Hash,
    S: BuildHasher + Default,
{
    set_methods!();
}

impl<'de, T: Reflect<'de> + Default> Reflect<'de> for LinkedList<T> {
    set_methods!();
}

impl<'de, T> Reflect<'de> for BTreeSet<T>
where
    T: Reflect<'de> + Default + Ord,
{
    set_methods!();
}

impl<'de, T: Reflect<'de> + Default> Reflect<'de> for Option<T> {
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
                let mut v = T::default();
                v.read(r)?;
                *self = Some(v);
                Ok(())
            }
        }
    }
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
    fn is_absent(&self) -> bool {
        (**self).is_absent()
    }
    const MAY_BE_ABSENT: bool = T::MAY_BE_ABSENT;
}
