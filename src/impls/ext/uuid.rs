//! `uuid::Uuid` (feature `uuid`): in JSON the hyphenated lower-case text
//! (`"67e55044-10b1-426f-9247-bb680e5fe0c8"`); in BEVE its 16 bytes (RFC 9562 order) as a `u8`
//! typed array, as Glaze writes a `std::array<uint8_t, 16>` (Glaze's own `glz::uuid` has a
//! dedicated form only in BSON). Reading takes either form in either format, and every text
//! form `Uuid::try_parse` takes (hyphenated, simple, braced, URN). As a map key it is its
//! hyphenated text in both formats.

use uuid::Uuid;

use crate::error::{Code, Error, Result};
use crate::impls::text::{invalid, read_parsed, write_texts};
use crate::reflect::{Key, KeyKind, MapKey, Reader, Reflect, ValueKind, Writer};

impl<'de> Reflect<'de> for Uuid {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        if w.is_binary() {
            w.typed_array(self.as_bytes())
        } else {
            let mut buf = Uuid::encode_buffer();
            w.str(self.hyphenated().encode_lower(&mut buf))
        }
    }
    crate::impls::text::read_via_new!('de);
    /// No default: a member left out is missing, never a made-up (nil) UUID.
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        match r.peek_kind()? {
            ValueKind::String => read_parsed(r, "UUID", |s| Uuid::try_parse(s).ok()),
            _ => {
                let mut bytes = [0u8; 16];
                r.read_typed_slice(&mut bytes)?;
                Ok(Uuid::from_bytes(bytes))
            }
        }
    }
    #[inline]
    fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
    where
        I: ExactSizeIterator<Item = &'a Self>,
    {
        if w.is_binary() {
            w.begin_array(items.len());
            for (i, u) in items.enumerate() {
                if i > 0 {
                    w.sep();
                }
                w.typed_array(u.as_bytes());
            }
            w.end_array();
        } else {
            write_texts(items, w, |u, out| {
                let mut buf = Uuid::encode_buffer();
                out.push_str(u.hyphenated().encode_lower(&mut buf));
                true
            })
        }
    }
}

impl<'de> MapKey<'de> for Uuid {
    const KIND: KeyKind = KeyKind::Str;
    #[inline]
    fn write_key<W: Writer>(&self, w: &mut W) {
        let mut buf = Uuid::encode_buffer();
        w.key(self.hyphenated().encode_lower(&mut buf))
    }
    #[inline]
    fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
        match key {
            Key::Str(s) => {
                Uuid::try_parse(s.as_str()).map_err(|_| invalid("UUID", s.as_str(), offset))
            }
            Key::Int(_) => Err(Error::new(
                Code::InvalidType {
                    expected: "a string key",
                    found: "an integer key",
                },
                offset,
            )),
        }
    }
}
