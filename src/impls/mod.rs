//! `Reflect` for the standard library's types: numbers, strings, containers, maps, tuples,
//! smart pointers and wrappers, plus structio's own [`RawJson`](raw::RawJson).

#![forbid(unsafe_code)]

#[cfg(feature = "num-complex")]
mod complex;
mod map;
pub(crate) mod matrix;
mod primitive;
pub(crate) mod raw;
mod seq;
mod string;
mod tuple;
mod wrappers;
