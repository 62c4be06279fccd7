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
mod primitive;
pub(crate) mod raw;
mod seq;
mod string;
mod text;
mod time;
mod tuple;
mod wrappers;
