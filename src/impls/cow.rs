//! `Cow<'de, [T]>` for every element type: written as the slice (a typed array for numbers);
//! read through [`Reflect::read_cow`], so that numbers borrow from aligned BEVE typed arrays and
//! other elements are read into an owned vector (reusing one `self` already owns).

use std::borrow::Cow;

use crate::error::Result;
use crate::reflect::{Reader, Reflect, Writer};

impl<'de: 'a, 'a, T: Reflect<'de> + Clone + 'de> Reflect<'de> for Cow<'a, [T]> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        T::write_slice(self, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        // Widen 'a to 'de through a local, keeping an owned buffer for reuse.
        let mut tmp: Cow<'de, [T]> = match self {
            Cow::Owned(o) => Cow::Owned(std::mem::take(o)),
            Cow::Borrowed(_) => Cow::Borrowed(&[]),
        };
        let res = T::read_cow(&mut tmp, r);
        *self = tmp;
        res
    }
    crate::impls::new_from_default!('de);
}
