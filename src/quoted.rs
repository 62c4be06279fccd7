//! `#[structio(quoted)]`: a number or a `bool` written in JSON as a string (`"18446744073709551615"`,
//! `"true"`) and read only from one, as Glaze's `glz::quoted_num` and serde_with's
//! `DisplayFromStr` do; `Vec`s and `Option`s of them too. BEVE is unchanged: the value's own
//! form (a typed array for a `Vec<u64>`).
//!
//! The derive routes a marked field through [`write()`], [`read()`] and [`read_new()`]; fields
//! without the attribute never reach this module.
//!
//! ```
//! #[derive(structio::Reflect, Debug, PartialEq)]
//! struct Account {
//!     #[structio(quoted)]
//!     id: u64,
//! }
//! let text = structio::to_json(&Account { id: u64::MAX });
//! assert_eq!(text, r#"{"id":"18446744073709551615"}"#);
//! assert_eq!(structio::from_json::<Account>(&text).unwrap().id, u64::MAX);
//! // Only a string, holding exactly a number of the type, reads.
//! assert!(structio::from_json::<Account>(r#"{"id":18446744073709551615}"#).is_err());
//! assert!(structio::from_json::<Account>(r#"{"id":" 1"}"#).is_err());
//! ```

use crate::error::{Code, Error, PathSegment, Result};
use crate::number::{Number, Wire};
use crate::reflect::{Reader, Reflect, ValueKind, Writer};
use crate::schema::{object, SchemaGenerator};
use crate::value::Value;

/// A type a `#[structio(quoted)]` field may have: the integers, `f32`, `f64`, `bool`, and
/// `Vec`s and `Option`s of them. In JSON (a writer that is not [`Writer::is_binary`], a reader
/// that [`Reader::is_human_readable`]) a number is the string of its JSON text (integers in
/// decimal, floats as the JSON writer lays them out; NaN and infinities, which JSON has no
/// number for, as `null`); elsewhere the value is written and read as itself.
#[diagnostic::on_unimplemented(
    message = "`#[structio(quoted)]` applies to numbers and `bool` (and `Vec`s and `Option`s of them), not to `{Self}`",
    label = "not a number or `bool`"
)]
pub trait Quoted: for<'de> Reflect<'de> {
    /// Writes the value, quoted in JSON.
    fn write_quoted<W: Writer>(&self, w: &mut W);
    /// Reads into the value, from a string in JSON.
    fn read_quoted<'de, R: Reader<'de>>(&mut self, r: &mut R) -> Result<()>;
    /// Reads a new value, from a string in JSON.
    fn read_new_quoted<'de, R: Reader<'de>>(r: &mut R) -> Result<Self>;
    /// The JSON Schema of the quoted form: a string with a `pattern`.
    fn quoted_schema(gen: &mut SchemaGenerator) -> Value;
}

/// Writes `v` quoted (a `#[structio(quoted)]` field).
#[inline]
pub fn write<T: Quoted, W: Writer>(v: &T, w: &mut W) {
    v.write_quoted(w)
}

/// Reads into `v` from a quoted value (a `#[structio(quoted)]` field).
#[inline]
pub fn read<'de, T: Quoted, R: Reader<'de>>(v: &mut T, r: &mut R) -> Result<()> {
    v.read_quoted(r)
}

/// Reads a new value from a quoted value (a `#[structio(quoted)]` field).
#[inline]
pub fn read_new<'de, T: Quoted, R: Reader<'de>>(r: &mut R) -> Result<T> {
    T::read_new_quoted(r)
}

/// The schema of `T` quoted (a `#[structio(quoted)]` field).
pub fn schema<T: Quoted>(gen: &mut SchemaGenerator) -> Value {
    T::quoted_schema(gen)
}

/// JSON whitespace, which a quoted number may not have around it.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Reads the string of a quoted number and parses it as exactly one JSON number of type `N`
/// (no whitespace, nothing after it, in range); errors at the string's offset.
fn read_number_text<'de, N, R>(r: &mut R) -> Result<N>
where
    N: Number + for<'a> Reflect<'a>,
    R: Reader<'de>,
{
    let at = r.offset();
    if r.peek_kind()? != ValueKind::String {
        return Err(r.invalid_type("a number in a string"));
    }
    let s = r.read_str()?;
    let text = s.as_str();
    let b = text.as_bytes();
    if !N::KIND.is_float() {
        // The canonical decimal spelling only, as the schema's pattern says (and as integer
        // map keys are read): no `+`, leading zero, fraction or exponent.
        if !crate::impls::primitive::is_canonical_int::<N>(b) {
            return Err(bad_text("a quoted integer", text, at));
        }
        return match crate::json::read_int::<N>(b, 0) {
            Ok((v, end)) if end == b.len() => Ok(v),
            _ => Err(Error::new(Code::NumberOutOfRange(N::KIND.name()), at)),
        };
    }
    let spaced = b.first().is_none_or(|&c| is_space(c)) || b.last().is_some_and(|&c| is_space(c));
    if !spaced {
        match crate::json::from_json::<N>(text) {
            Ok(v) => return Ok(v),
            Err(e)
                if matches!(
                    e.code(),
                    Code::NumberOutOfRange(_) | Code::ExpectedInteger(_)
                ) =>
            {
                return Err(Error::new(e.code().clone(), at));
            }
            Err(_) => {}
        }
    }
    Err(bad_text("a quoted number", text, at))
}

/// "invalid `what`: `text`" at `at`.
#[cold]
fn bad_text(what: &'static str, text: &str, at: usize) -> Error {
    Error::new(Code::InvalidText(what, text.to_string()), at)
}

/// Calls `f` with the JSON text of `v` (`None` for a float that is not finite).
fn with_text<N: Number, T>(v: N, f: impl FnOnce(Option<&str>) -> T) -> T {
    match v.to_wire() {
        Wire::Int(i) => f(Some(itoa::Buffer::new().format(i))),
        Wire::Uint(u) => f(Some(itoa::Buffer::new().format(u))),
        Wire::F32(x) if !x.is_finite() => f(None),
        Wire::F64(x) if !x.is_finite() => f(None),
        _ => {
            let mut s = String::with_capacity(32);
            crate::number::print::write_number(&mut s, v, crate::number::print::FloatStyle::Glaze);
            f(Some(&s))
        }
    }
}

/// The pattern of an integer's decimal text (unsigned: no `-`).
const INT_PATTERN: &str = "^-?(0|[1-9][0-9]*)$";
const UINT_PATTERN: &str = "^(0|[1-9][0-9]*)$";
/// The pattern of a JSON number's text.
const FLOAT_PATTERN: &str = "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$";

fn string_pattern(pattern: &str) -> Value {
    object([
        ("type", Value::from("string")),
        ("pattern", Value::from(pattern)),
    ])
}

macro_rules! quoted_numbers {
    ($($t:ty => $wire:ty, $pattern:expr);* $(;)?) => {$(
        impl Quoted for $t {
            #[inline]
            fn write_quoted<W: Writer>(&self, w: &mut W) {
                if w.is_binary() {
                    return <Self as Reflect<'static>>::write(self, w);
                }
                with_text(*self as $wire, |t| match t {
                    Some(t) => w.str(t),
                    None => w.null(),
                })
            }
            #[inline]
            fn read_quoted<'de, R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
                *self = Self::read_new_quoted(r)?;
                Ok(())
            }
            #[inline]
            fn read_new_quoted<'de, R: Reader<'de>>(r: &mut R) -> Result<Self> {
                if !r.is_human_readable() {
                    return <$t as Reflect<'de>>::read_new(r);
                }
                let at = r.offset();
                let v = read_number_text::<$wire, R>(r)?;
                <$t>::try_from(v).map_err(|_| {
                    Error::new(Code::NumberOutOfRange(stringify!($t)), at)
                })
            }
            fn quoted_schema(_: &mut SchemaGenerator) -> Value {
                string_pattern($pattern)
            }
        }
    )*};
}

quoted_numbers! {
    i8 => i8, INT_PATTERN;
    i16 => i16, INT_PATTERN;
    i32 => i32, INT_PATTERN;
    i64 => i64, INT_PATTERN;
    i128 => i128, INT_PATTERN;
    isize => i64, INT_PATTERN;
    u8 => u8, UINT_PATTERN;
    u16 => u16, UINT_PATTERN;
    u32 => u32, UINT_PATTERN;
    u64 => u64, UINT_PATTERN;
    u128 => u128, UINT_PATTERN;
    usize => u64, UINT_PATTERN;
    f32 => f32, FLOAT_PATTERN;
    f64 => f64, FLOAT_PATTERN;
}

impl Quoted for bool {
    #[inline]
    fn write_quoted<W: Writer>(&self, w: &mut W) {
        if w.is_binary() {
            return w.bool(*self);
        }
        w.str(if *self { "true" } else { "false" })
    }
    #[inline]
    fn read_quoted<'de, R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        *self = Self::read_new_quoted(r)?;
        Ok(())
    }
    fn read_new_quoted<'de, R: Reader<'de>>(r: &mut R) -> Result<Self> {
        if !r.is_human_readable() {
            return r.read_bool();
        }
        let at = r.offset();
        if r.peek_kind()? != ValueKind::String {
            return Err(r.invalid_type("a bool in a string"));
        }
        let s = r.read_str()?;
        match s.as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(bad_text("a quoted bool", other, at)),
        }
    }
    fn quoted_schema(_: &mut SchemaGenerator) -> Value {
        string_pattern("^(true|false)$")
    }
}

impl<T: Quoted> Quoted for Vec<T> {
    fn write_quoted<W: Writer>(&self, w: &mut W) {
        if w.is_binary() {
            return <Self as Reflect<'static>>::write(self, w);
        }
        w.begin_array(self.len());
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                w.sep();
            }
            x.write_quoted(w);
        }
        w.end_array();
    }
    fn read_quoted<'de, R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        if !r.is_human_readable() {
            return <Self as Reflect<'de>>::read(self, r);
        }
        let mut seq = r.begin_array()?;
        let mut n = 0;
        while r.next_element(&mut seq)? {
            let res = match self.get_mut(n) {
                Some(x) => x.read_quoted(r),
                None => T::read_new_quoted(r).map(|x| self.push(x)),
            };
            res.map_err(|e| e.push_path(PathSegment::Index(n)))?;
            n += 1;
        }
        self.truncate(n);
        Ok(())
    }
    fn read_new_quoted<'de, R: Reader<'de>>(r: &mut R) -> Result<Self> {
        let mut v = Vec::new();
        if !r.is_human_readable() {
            <Self as Reflect<'de>>::read(&mut v, r)?;
        } else {
            v.read_quoted(r)?;
        }
        Ok(v)
    }
    fn quoted_schema(gen: &mut SchemaGenerator) -> Value {
        object([
            ("type", Value::from("array")),
            ("items", T::quoted_schema(gen)),
        ])
    }
}

impl<T: Quoted> Quoted for Option<T> {
    fn write_quoted<W: Writer>(&self, w: &mut W) {
        match self {
            None => w.null(),
            Some(x) => x.write_quoted(w),
        }
    }
    fn read_quoted<'de, R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        if r.take_null()? {
            *self = None;
            return Ok(());
        }
        match self {
            Some(x) => x.read_quoted(r),
            None => {
                *self = Some(T::read_new_quoted(r)?);
                Ok(())
            }
        }
    }
    fn read_new_quoted<'de, R: Reader<'de>>(r: &mut R) -> Result<Self> {
        if r.take_null()? {
            return Ok(None);
        }
        T::read_new_quoted(r).map(Some)
    }
    fn quoted_schema(gen: &mut SchemaGenerator) -> Value {
        crate::schema::impls::nullable(T::quoted_schema(gen))
    }
}
