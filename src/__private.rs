//! What derived code reaches at run time. Not a public API: names and signatures may change
//! without notice.

pub use crate::error::{Error, PathSegment, Result};
pub use crate::number::{NumKind, Number, Wire};
pub use crate::reflect::{
    EnumInfo, FieldsInfo, Key, KeyKind, MapKey, Reader, Reflect, Str, ValueKind, Writer,
};
pub use crate::walk::{expect_element, expect_end, read_fields};
pub use core::result::Result::{Err, Ok};
pub use core::option::Option::{self, None, Some};
pub use structio_keys::Probe;

use crate::error::Code;

/// "unknown variant `name`" at `offset`.
#[cold]
pub fn unknown_variant(name: &str, offset: usize) -> Error {
    Error::new(Code::UnknownVariant(name.to_string()), offset)
}

/// "no variant matches the value" at `offset`.
#[cold]
pub fn no_matching_variant(offset: usize) -> Error {
    Error::new(Code::NoMatchingVariant, offset)
}

/// "missing key `name`" at `offset` (an internally or adjacently tagged enum without its tag).
#[cold]
pub fn missing_key(name: &str, offset: usize) -> Error {
    Error::new(Code::MissingKey(name.to_string()), offset)
}

/// "unknown key `name`" at `offset`.
#[cold]
pub fn unknown_key(name: &str, offset: usize) -> Error {
    Error::new(Code::UnknownKey(name.to_string()), offset)
}

/// "expected N elements, found M".
#[cold]
pub fn wrong_length(expected: usize, found: usize, offset: usize) -> Error {
    Error::new(Code::WrongLength { expected, found }, offset)
}
