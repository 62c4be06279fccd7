//! `bytes::Bytes` and `BytesMut` (feature `bytes`): exactly a `Vec<u8>` on the wire, a `u8`
//! typed array in BEVE (one copy each way) and an array of numbers in JSON.

use bytes::{Bytes, BytesMut};

use crate::error::Result;
use crate::reflect::{Reader, Reflect, Writer};

impl<'de> Reflect<'de> for Bytes {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.typed_array(self.as_ref())
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        // The buffer is reused when this is its only handle.
        let mut v: Vec<u8> = std::mem::take(self).into();
        let res = r.read_typed_vec(&mut v);
        *self = Bytes::from(v);
        res
    }
    crate::impls::new_from_default!('de);
}

impl<'de> Reflect<'de> for BytesMut {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.typed_array(self.as_ref())
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let mut v: Vec<u8> = std::mem::take(self).into();
        let res = r.read_typed_vec(&mut v);
        *self = BytesMut::from(Bytes::from(v));
        res
    }
    crate::impls::new_from_default!('de);
}
