//! The library side of `structio-cli` holds no code of its own: it exists so that the examples
//! of the user guide (`docs/guide.md`) and of the README compile and run as doctests with
//! `cargo test -p structio-cli --doc`. The command itself is `src/main.rs`.

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide.md")]
pub struct Guide;

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct Readme;
