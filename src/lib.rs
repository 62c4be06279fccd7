//! structio: typed JSON and BEVE from one derive.
//!
//! One `#[derive(Reflect)]` describes a type once; the JSON backend ([`json`]) and the BEVE
//! backend ([`beve`]) are both driven by it. Values are converted straight into the members that
//! hold them (no intermediate tree), keys are found through perfect-hash tables chosen at compile
//! time, and reading into an existing value reuses its buffers.
//!
//! ```
//! #[derive(structio::Reflect, Default, Debug, PartialEq)]
//! struct Point {
//!     x: f64,
//!     y: f64,
//!     #[structio(rename = "label")]
//!     name: String,
//! }
//!
//! let p = Point { x: 1.5, y: -2.0, name: "origin".into() };
//! let text = structio::to_json(&p);
//! assert_eq!(text, r#"{"x":1.5,"y":-2,"label":"origin"}"#);
//! let back: Point = structio::from_json(&text).unwrap();
//! assert_eq!(back, p);
//!
//! let bytes = structio::to_beve(&p);
//! let back: Point = structio::from_beve(&bytes).unwrap();
//! assert_eq!(back, p);
//! ```
#![warn(missing_docs)]
// On docs.rs (nightly rustdoc, `--cfg docsrs`) each item behind a feature says which one.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]

// All `unsafe` code is in `simd` (vector kernels, stores into spare capacity, text already
// known to be UTF-8), behind safe functions; every other module forbids it (in its own file,
// or on its `mod` line here).
pub mod beve;
#[forbid(unsafe_code)]
pub mod constraint;
#[forbid(unsafe_code)]
mod enums;
mod error;
#[forbid(unsafe_code)]
mod fields;
mod impls;
#[forbid(unsafe_code)]
mod io;
pub mod json;
mod number;
#[forbid(unsafe_code)]
mod pointer;
pub mod quoted;
#[forbid(unsafe_code)]
pub mod read;
#[forbid(unsafe_code)]
mod reflect;
#[forbid(unsafe_code)]
pub mod report;
pub mod schema;
#[cfg(feature = "serde")]
pub mod serde;
#[allow(unsafe_code)]
mod simd;
#[forbid(unsafe_code)]
pub mod sink;
pub mod value;

#[doc(hidden)]
#[forbid(unsafe_code)]
pub mod __private;

pub use beve::{
    beve_to_json, from_beve, read_beve, to_beve, to_beve_aligned, write_beve, AlignedBytes,
};
pub use error::{Category, Error, PathSegment, Result};
pub use impls::matrix::{Layout, Matrix};
pub use impls::raw::{RawJson, RawJsonBuf};
pub use io::{
    read_file_beve, read_file_beve_with, read_file_json, read_file_json_with, read_file_ndjson,
    write_file_beve, write_file_beve_with, write_file_json, write_file_json_with,
    write_file_ndjson,
};
pub use json::{from_json, minify, prettify, read_json, to_json, write_json};
pub use number::{NumKind, Number, Wire};
pub use reflect::{
    EnumInfo, FieldName, FieldsInfo, Key, KeyKind, KeyedMap, MapEntry, MapKey, NextField, Open,
    ReadOptions, Reader, Reflect, Str, UnknownKeys, ValueKind, Writer,
};
pub use report::{check, Issue, IssueKind, ParseOptions, Report};
pub use schema::{json_schema, JsonSchema};
pub use simd::{vector_level, vector_level_setting, VectorLevel};
pub use sink::{Counter, IoSink, Sink, TextSink};
pub use structio_derive::Reflect;
pub use value::{from_value, from_value_ref, from_value_ref_with, from_value_with, to_value};
pub use value::{Map, Value};

/// Implemented by types whose values own all their data, so they can be read from input of any
/// lifetime: `T: ReflectOwned` is `T: for<'de> Reflect<'de>`.
pub trait ReflectOwned: for<'de> Reflect<'de> {}
impl<T: for<'de> Reflect<'de>> ReflectOwned for T {}
