//! The examples of the user guide (`docs/guide.md`) and of the README compile and run as this
//! crate's doctests: `cargo test -p structio-guide --doc`. The crate has no code of its own and
//! is not published; it exists so that the published crates package only what users build.

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide.md")]
pub struct Guide;

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct Readme;
