//! Network addresses: `IpAddr`, `Ipv4Addr`, `Ipv6Addr`, `SocketAddr`, `SocketAddrV4` and
//! `SocketAddrV6`, strings in both formats in the standard library's `Display` form
//! (`192.168.0.1`, `::1`, `[::1]:8080`), read with its `FromStr` (text it refuses is an error
//! quoting it). A vector of them is BEVE's string array, as Glaze writes a
//! `std::vector<std::string>`; as map keys they are string keys.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use super::text::{read_parsed, write_display, write_texts};
use crate::error::{Code, Error, Result};
use crate::reflect::{Key, KeyKind, MapKey, Reader, Reflect, Writer};

macro_rules! address {
    ($($t:ty => $what:literal),* $(,)?) => {$(
        impl<'de> Reflect<'de> for $t {
            #[inline]
            fn write<W: Writer>(&self, w: &mut W) {
                write_display(self, w)
            }
            super::text::read_via_new!('de);
            /// No default: a member left out is missing, never a made-up address.
            #[inline]
            fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
                read_parsed(r, $what, |s| s.parse().ok())
            }
            #[inline]
            fn write_iter<'a, W: Writer, I>(items: I, w: &mut W)
            where
                I: ExactSizeIterator<Item = &'a Self>,
            {
                write_texts(items, w, |a, out| {
                    use std::fmt::Write;
                    write!(out, "{a}").is_ok()
                })
            }
        }

        impl<'de> MapKey<'de> for $t {
            const KIND: KeyKind = KeyKind::Str;
            #[inline]
            fn write_key<W: Writer>(&self, w: &mut W) {
                let mut buf = super::text::Buf::<64>::new();
                if std::fmt::Write::write_fmt(&mut buf, format_args!("{self}")).is_ok() {
                    w.key(buf.as_str())
                } else {
                    w.key(&self.to_string())
                }
            }
            #[inline]
            fn from_key(key: Key<'de, '_>, offset: usize) -> Result<Self> {
                match key {
                    Key::Str(s) => s
                        .as_str()
                        .parse()
                        .map_err(|_| super::text::invalid($what, s.as_str(), offset)),
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
    )*};
}

address! {
    IpAddr => "IP address",
    Ipv4Addr => "IPv4 address",
    Ipv6Addr => "IPv6 address",
    SocketAddr => "socket address",
    SocketAddrV4 => "IPv4 socket address",
    SocketAddrV6 => "IPv6 socket address",
}
