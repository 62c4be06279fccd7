//! `Reflect` for the standard library's types: numbers, strings, containers, maps, tuples,
//! smart pointers and wrappers, plus structio's own [`RawJson`](raw::RawJson); and for the
//! types of the optional ecosystem features ([`ext`]).

#![forbid(unsafe_code)]

#[cfg(feature = "num-complex")]
mod complex;
mod cow;
mod ext;
mod iso8601;
mod map;
pub(crate) mod matrix;
mod net;
mod nonzero;
mod path;
pub(crate) mod primitive;
pub(crate) mod raw;
mod seq;
mod string;
mod text;
mod time;
mod tuple;
mod wrappers;

/// `read_new` and `default_value` for a type with a natural default: a new value is its
/// `Default` read into, and a member left out takes its `Default` (under
/// `error_on_missing_keys: false`). `$de` is the impl's document lifetime.
macro_rules! new_from_default {
    ($de:lifetime) => {
        #[inline]
        fn read_new<R: $crate::reflect::Reader<$de>>(r: &mut R) -> $crate::error::Result<Self> {
            let mut v = <Self as ::core::default::Default>::default();
            $crate::reflect::Reflect::read(&mut v, r)?;
            Ok(v)
        }
        #[inline]
        fn default_value() -> Option<Self> {
            Some(<Self as ::core::default::Default>::default())
        }
        const HAS_DEFAULT_VALUE: bool = true;
    };
}
pub(crate) use new_from_default;
