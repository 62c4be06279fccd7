//! `smallvec::SmallVec` (feature `smallvec`): exactly a `Vec` of its items on the wire (a typed
//! array of numbers in BEVE, and so on). Reading goes through the items' bulk paths; items
//! that fit inline end up inline again.

use smallvec::{Array, SmallVec};

use crate::error::Result;
use crate::reflect::{Reader, Reflect, Writer};

impl<'de, A> Reflect<'de> for SmallVec<A>
where
    A: Array,
    A::Item: Reflect<'de>,
{
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        A::Item::write_slice(self, w)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        // A spilled vector hands its allocation over and gets it back; items that fit inline
        // are moved back inline.
        let mut v = std::mem::take(self).into_vec();
        let res = A::Item::read_vec(&mut v, r);
        *self = if v.len() <= A::size() {
            v.into_iter().collect()
        } else {
            SmallVec::from_vec(v)
        };
        res
    }
    crate::impls::new_from_default!('de);
}
