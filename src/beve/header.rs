//! BEVE header bytes: the constants, and decoding a header into what it announces.
//!
//! The constants are public so that code holding a [`crate::ValueKind::Extension`] header or
//! raw bytes can tell the kinds apart.
//!
//! A header's low three bits are the major type; the other five are type-specific. For numbers,
//! typed arrays and integer-keyed objects bits 3-4 are the class (0 float, 1 signed, 2 unsigned)
//! and bits 5-7 the BYTE COUNT (log2 of the width; bfloat16 is the float with count 0).

use crate::error::{Code, Error};
use crate::number::NumKind;

/// `null`.
pub const NULL: u8 = 0x00;
/// `false`.
pub const FALSE: u8 = 0x08;
/// `true`.
pub const TRUE: u8 = 0x18;
/// A string: `02 | SIZE | UTF-8`.
pub const STRING: u8 = 0x02;
/// An object with string keys.
pub const OBJECT: u8 = 0x03;
/// A generic array: `05 | SIZE | VALUE*`.
pub const GENERIC_ARRAY: u8 = 0x05;
/// A packed bool array (LSB first).
pub const BOOL_ARRAY: u8 = 0x1C;
/// A string array: `3C | SIZE | (SIZE UTF-8)*`.
pub const STR_ARRAY: u8 = 0x3C;
/// An aligned numeric array: `5C | NUMERIC HEADER | SIZE | PAD_LEN | PAD | DATA`.
pub const ALIGNED_ARRAY: u8 = 0x5C;
/// Extension 0, the data delimiter between top-level values.
pub const DELIMITER: u8 = 0x06;
/// Extension 1, the BEVE v1 type tag (variant index + value); deprecated, still read.
pub const TYPE_TAG: u8 = 0x0E;
/// Extension 2, a matrix.
pub const MATRIX: u8 = 0x16;
/// Extension 3, complex numbers.
pub const COMPLEX: u8 = 0x1E;

/// Major type: null or bool.
pub const MAJOR_NULL_BOOL: u8 = 0;
/// Major type: number.
pub const MAJOR_NUMBER: u8 = 1;
/// Major type: string.
pub const MAJOR_STRING: u8 = 2;
/// Major type: object.
pub const MAJOR_OBJECT: u8 = 3;
/// Major type: typed array.
pub const MAJOR_TYPED_ARRAY: u8 = 4;
/// Major type: generic array.
pub const MAJOR_GENERIC_ARRAY: u8 = 5;
/// Major type: extension.
pub const MAJOR_EXTENSION: u8 = 6;

/// The major type of a header.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub const fn major(h: u8) -> u8 {
    h & 7
}

/// Class and byte-count bits (3-7) of a numeric kind.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub const fn kind_bits(kind: NumKind) -> u8 {
    use NumKind::*;
    match kind {
        BF16 => 0x00,
        F16 => 0x20,
        F32 => 0x40,
        F64 => 0x60,
        I8 => 0x08,
        I16 => 0x28,
        I32 => 0x48,
        I64 => 0x68,
        I128 => 0x88,
        U8 => 0x10,
        U16 => 0x30,
        U32 => 0x50,
        U64 => 0x70,
        U128 => 0x90,
    }
}

/// The header of a scalar number of `kind`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub const fn number(kind: NumKind) -> u8 {
    kind_bits(kind) | MAJOR_NUMBER
}

/// The header of a typed array of `kind` (also the NUMERIC HEADER inside an aligned array).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub const fn typed_array(kind: NumKind) -> u8 {
    kind_bits(kind) | MAJOR_TYPED_ARRAY
}

/// The header of an object whose keys are integers of `kind`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub const fn int_key_object(kind: NumKind) -> u8 {
    kind_bits(kind) | MAJOR_OBJECT
}

/// What the class and byte-count bits (3-7) of a number, typed array or complex header name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Elem {
    /// A kind structio reads and writes.
    Kind(NumKind),
    /// IEEE binary128: well-formed BEVE (16 bytes), skipped and copied but not converted.
    F128,
}

/// Decodes bits 3-7 of a numeric header; `None` for combinations the spec does not define
/// (class 3, or widths above 16 bytes).
#[inline]
pub(crate) const fn elem_of(h: u8) -> Option<Elem> {
    use NumKind::*;
    Some(Elem::Kind(match h >> 3 {
        0x00 => BF16,
        0x04 => F16,
        0x08 => F32,
        0x0C => F64,
        0x10 => return Some(Elem::F128),
        0x01 => I8,
        0x05 => I16,
        0x09 => I32,
        0x0D => I64,
        0x11 => I128,
        0x02 => U8,
        0x06 => U16,
        0x0A => U32,
        0x0E => U64,
        0x12 => U128,
        _ => return None,
    }))
}

/// Like [`elem_of`], restricted to integer classes (integer-keyed objects, matrix extents).
#[inline]
pub(crate) const fn int_kind_of(h: u8) -> Option<NumKind> {
    match elem_of(h) {
        Some(Elem::Kind(k)) if !k.is_float() => Some(k),
        _ => None,
    }
}

/// The key type an object header announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keys {
    /// String keys (`SIZE | UTF-8`).
    Str,
    /// Integer keys of this kind (raw little-endian bytes).
    Int(NumKind),
}

/// Decodes an object header (major type 3).
#[inline]
pub(crate) fn object_keys(h: u8, at: usize) -> Result<Keys, Error> {
    if h == OBJECT {
        return Ok(Keys::Str);
    }
    match int_kind_of(h) {
        Some(k) => Ok(Keys::Int(k)),
        None => Err(invalid(h, at)),
    }
}

/// "invalid header byte" at `at`.
#[cold]
#[inline(never)]
pub(crate) fn invalid(h: u8, at: usize) -> Error {
    Error::new(Code::InvalidHeader(h), at)
}

/// "unexpected end of input" at `at`.
#[cold]
#[inline(never)]
pub(crate) fn eof(at: usize) -> Error {
    Error::new(Code::UnexpectedEnd, at)
}

/// "length exceeds the remaining input" at `at`.
#[cold]
#[inline(never)]
pub(crate) fn overflow(at: usize) -> Error {
    Error::new(Code::LengthOverflow, at)
}

/// A short description of what a (valid or not) header announces, for "expected X, found Y".
pub(crate) fn describe(h: u8) -> &'static str {
    match major(h) {
        MAJOR_NULL_BOOL if h == NULL => "null",
        MAJOR_NULL_BOOL => "a boolean",
        MAJOR_NUMBER => "a number",
        MAJOR_STRING => "a string",
        MAJOR_OBJECT => "an object",
        MAJOR_TYPED_ARRAY | MAJOR_GENERIC_ARRAY => "an array",
        MAJOR_EXTENSION => "an extension value",
        _ => "a reserved header",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use NumKind::*;

    const ALL: [NumKind; 14] = [
        I8, I16, I32, I64, I128, U8, U16, U32, U64, U128, BF16, F16, F32, F64,
    ];

    #[test]
    fn scalar_headers_match_the_spec_table() {
        let table = [
            (BF16, 0x01),
            (F16, 0x21),
            (F32, 0x41),
            (F64, 0x61),
            (I8, 0x09),
            (I16, 0x29),
            (I32, 0x49),
            (I64, 0x69),
            (I128, 0x89),
            (U8, 0x11),
            (U16, 0x31),
            (U32, 0x51),
            (U64, 0x71),
            (U128, 0x91),
        ];
        for (k, h) in table {
            assert_eq!(number(k), h, "{k:?}");
            assert_eq!(typed_array(k), h + 3, "{k:?}");
        }
        assert_eq!(int_key_object(I8), 0x0B);
        assert_eq!(int_key_object(U64), 0x73);
        assert_eq!(int_key_object(I32), 0x4B);
    }

    #[test]
    fn elem_decoding_inverts_encoding() {
        for k in ALL {
            assert_eq!(elem_of(number(k)), Some(Elem::Kind(k)));
            assert_eq!(elem_of(typed_array(k)), Some(Elem::Kind(k)));
        }
        assert_eq!(elem_of(0x81), Some(Elem::F128));
        assert_eq!(elem_of(0xA1), None); // 32-byte float
        assert_eq!(elem_of(0x19), None); // class 3
        assert_eq!(int_kind_of(0x61), None);
        assert_eq!(int_kind_of(0x73), Some(U64));
    }

    #[test]
    fn object_headers() {
        assert_eq!(object_keys(0x03, 0).unwrap(), Keys::Str);
        assert_eq!(object_keys(0x0B, 0).unwrap(), Keys::Int(I8));
        assert_eq!(object_keys(0x33, 0).unwrap(), Keys::Int(U16));
        assert!(object_keys(0x1B, 0).is_err()); // class 3
        assert!(object_keys(0x23, 0).is_err()); // string keys with a byte count
        assert!(object_keys(0x43, 0).is_err());
    }
}
