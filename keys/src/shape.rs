//! The kinds of value a variant's payload may be read from, as bits, for untagged enums.
//!
//! `#[derive(structio::Reflect)]` gives each variant of an untagged enum a mask of these bits
//! (from the payload's type, at compile time); the reader looks at the kind of the next value
//! and tries only the variants whose mask holds its bit. Both sides take the values from here,
//! so they cannot drift apart.

/// Null.
pub const NULL: u8 = 1;
/// A boolean.
pub const BOOL: u8 = 2;
/// A number.
pub const NUMBER: u8 = 4;
/// A string.
pub const STRING: u8 = 8;
/// Any array.
pub const ARRAY: u8 = 16;
/// Any object.
pub const OBJECT: u8 = 32;
/// A BEVE extension.
pub const EXTENSION: u8 = 64;
/// Any value.
pub const ANY: u8 = 127;
