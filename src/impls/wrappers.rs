//! Wrappers that are their inner value in both formats: `Rc<T>`, `Arc<T>`, `Cell<T>`,
//! `Wrapping<T>`, `Saturating<T>`, `Reverse<T>`; `PhantomData<T>` (a null, like `()`); and
//! `BinaryHeap<T>`, an array read into the heap's own buffer (`LinkedList` is with the sets in
//! [`super::seq`]).
//!
//! `Rc`/`Arc` text (`Rc<str>`, `Arc<str>`) is in [`super::string`].

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::marker::PhantomData;
use std::num::{Saturating, Wrapping};
use std::rc::Rc;
use std::sync::Arc;

use bytemuck::allocation::TransparentWrapperAlloc;
use bytemuck::TransparentWrapper;

use crate::error::Result;
use crate::reflect::{Reader, Reflect, Writer};

/// `Rc<T>` and `Arc<T>`: the value they point to. Reading goes into that value when this
/// pointer is its only owner (so buffers are reused and members the document leaves out keep
/// their values); a shared value is left to its other owners, and this pointer gets a new one
/// read with `T::read_new`.
macro_rules! shared_pointer {
    ($ptr:ident) => {
        impl<'de, T: Reflect<'de>> Reflect<'de> for $ptr<T> {
            #[inline]
            fn write<W: Writer>(&self, w: &mut W) {
                (**self).write(w)
            }
            #[inline]
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                if let Some(v) = $ptr::get_mut(self) {
                    return v.read(r);
                }
                *self = Self::read_new(r)?;
                Ok(())
            }
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                crate::read::stack_for::<T>(r.offset())?;
                T::read_new(r).map($ptr::new)
            }
            #[inline]
            fn default_value() -> Option<Self> {
                T::default_value().map($ptr::new)
            }
            const HAS_DEFAULT_VALUE: bool = T::HAS_DEFAULT_VALUE;
            #[inline]
            fn is_absent(&self) -> bool {
                (**self).is_absent()
            }
            const MAY_BE_ABSENT: bool = T::MAY_BE_ABSENT;
        }
    };
}

shared_pointer!(Rc);
shared_pointer!(Arc);

impl<'de, T: Reflect<'de> + Copy> Reflect<'de> for Cell<T> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        self.get().write(w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        self.get_mut().read(r)
    }
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        T::read_new(r).map(Cell::new)
    }
    #[inline]
    fn default_value() -> Option<Self> {
        T::default_value().map(Cell::new)
    }
    const HAS_DEFAULT_VALUE: bool = T::HAS_DEFAULT_VALUE;
    #[inline]
    fn is_absent(&self) -> bool {
        self.get().is_absent()
    }
    const MAY_BE_ABSENT: bool = T::MAY_BE_ABSENT;
}

/// A `#[repr(transparent)]` wrapper of `T` that bytemuck can see through: the value is `T`'s,
/// and slices and vectors of it take `T`'s paths (a `Vec<Wrapping<u32>>` is a typed array in
/// BEVE, read with one copy, exactly as a `Vec<u32>`).
macro_rules! transparent {
    ($wrapper:ident) => {
        impl<'de, T: Reflect<'de>> Reflect<'de> for $wrapper<T> {
            #[inline]
            fn write<W: Writer>(&self, w: &mut W) {
                self.0.write(w)
            }
            #[inline]
            fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                self.0.read(r)
            }
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                T::read_new(r).map($wrapper)
            }
            #[inline]
            fn default_value() -> Option<Self> {
                T::default_value().map($wrapper)
            }
            const HAS_DEFAULT_VALUE: bool = T::HAS_DEFAULT_VALUE;
            #[inline]
            fn is_absent(&self) -> bool {
                self.0.is_absent()
            }
            const MAY_BE_ABSENT: bool = T::MAY_BE_ABSENT;
            #[inline]
            fn write_slice<W: Writer>(items: &[Self], w: &mut W) {
                T::write_slice(TransparentWrapper::peel_slice(items), w)
            }
            #[inline]
            fn read_vec<R: Reader<'de>>(out: &mut Vec<Self>, r: &mut R) -> Result<()> {
                // The allocation changes its element type twice and is kept.
                let mut v: Vec<T> = TransparentWrapperAlloc::peel_vec(std::mem::take(out));
                let res = T::read_vec(&mut v, r);
                *out = TransparentWrapperAlloc::wrap_vec(v);
                res
            }
            #[inline]
            fn read_slice<R: Reader<'de>>(out: &mut [Self], r: &mut R) -> Result<()> {
                T::read_slice(TransparentWrapper::peel_slice_mut(out), r)
            }
        }
    };
}

transparent!(Wrapping);
transparent!(Saturating);
transparent!(Reverse);

impl<'de, T: ?Sized> Reflect<'de> for PhantomData<T> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        ().write(w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        ().read(r)
    }
    crate::impls::new_from_default!('de);
}

impl<'de, T: Reflect<'de> + Ord> Reflect<'de> for BinaryHeap<T> {
    /// Written in the heap's internal order (as `iter` gives it), like serde.
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        let items = self.as_slice();
        T::write_slice(items, w)
    }
    /// Read as an array into the heap's own buffer, which is then re-heapified.
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let mut v = std::mem::take(self).into_vec();
        let res = T::read_vec(&mut v, r);
        *self = BinaryHeap::from(v);
        res
    }
    crate::impls::new_from_default!('de);
}
