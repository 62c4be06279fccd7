//! [`Error`] as serde's error type on both sides: `serde::de::Error` and `serde::ser::Error`.
//!
//! The errors serde's derives report map to structio's own codes where structio has one
//! (unknown, missing and duplicate keys, unknown variants), so that a serde type read through
//! the bridge reports what a derived type reports (``missing key `id` ``); any other message
//! is a [`Category::Data`](crate::Category::Data) error with that message. A `Visitor` does
//! not know where in the input it is, so these errors are made without an offset and get the
//! offset of the value being read on their way out of the bridge's deserializer.

use std::fmt::Display;

use ::serde::de::{Expected, Unexpected};

use crate::error::{Code, Error};

impl ::serde::de::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Error {
        Error::unplaced(Code::Custom(msg.to_string()))
    }

    #[cold]
    fn invalid_type(unexp: Unexpected<'_>, exp: &dyn Expected) -> Error {
        Error::unplaced(Code::Custom(format!("expected {exp}, found {unexp}")))
    }

    #[cold]
    fn invalid_value(unexp: Unexpected<'_>, exp: &dyn Expected) -> Error {
        Error::unplaced(Code::Custom(format!(
            "invalid value {unexp}, expected {exp}"
        )))
    }

    #[cold]
    fn invalid_length(len: usize, exp: &dyn Expected) -> Error {
        Error::unplaced(Code::Custom(format!(
            "expected {exp}, found {len} element{}",
            if len == 1 { "" } else { "s" }
        )))
    }

    #[cold]
    fn unknown_variant(variant: &str, _expected: &'static [&'static str]) -> Error {
        Error::unplaced(Code::UnknownVariant(variant.to_string()))
    }

    #[cold]
    fn unknown_field(field: &str, _expected: &'static [&'static str]) -> Error {
        Error::unplaced(Code::UnknownKey(field.to_string()))
    }

    #[cold]
    fn missing_field(field: &'static str) -> Error {
        Error::unplaced(Code::MissingKey(field.to_string()))
    }

    #[cold]
    fn duplicate_field(field: &'static str) -> Error {
        Error::unplaced(Code::DuplicateKey(field.to_string()))
    }
}

impl ::serde::ser::Error for Error {
    /// A `Serialize` impl's own failure (a poisoned `Mutex`, say): an error with the message
    /// at offset 0 (writing has no input position).
    #[cold]
    fn custom<T: Display>(msg: T) -> Error {
        Error::custom(msg.to_string(), 0)
    }
}
