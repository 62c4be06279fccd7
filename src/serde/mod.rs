//! The serde bridge (feature `serde`): types that implement serde's `Serialize` and
//! `Deserialize` written and read as Glaze-compatible JSON and BEVE, through structio's own
//! writers and readers.
//!
//! A serde `Serializer` over any [`Writer`] and a serde `Deserializer` over any [`Reader`]: no
//! intermediate [`Value`](crate::Value), no text in between. Each serde call becomes the call a
//! `#[derive(Reflect)]` type makes for the same value, so a type that derives both serde's
//! traits and [`Reflect`] with the same names is written byte for byte as
//! structio writes it, in both formats (Glaze's float layout and escapes in JSON, typed
//! arrays in BEVE, `None` members left out), and reads the same.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Reading<'a> {
//!     sensor: &'a str,
//!     values: Vec<f64>,
//!     note: Option<String>,
//! }
//!
//! let r = Reading { sensor: "t1", values: vec![1.5, 1e16], note: None };
//! let json = structio::serde::to_json(&r);
//! assert_eq!(json, r#"{"sensor":"t1","values":[1.5,1E16]}"#);
//! assert_eq!(structio::serde::from_json::<Reading>(&json).unwrap(), r);
//!
//! let beve = structio::serde::to_beve(&r);
//! assert_eq!(structio::serde::from_beve::<Reading>(&beve).unwrap(), r);
//!
//! let e = structio::serde::from_json::<Reading>(r#"{"sensor":"t1","values":[1,"x"]}"#)
//!     .unwrap_err();
//! assert_eq!(e.path(), "$.values[1]");
//! assert_eq!(e.line_column(), Some((1, 28)));
//! ```
//!
//! Three ways in:
//! - whole values: [`to_json`], [`from_json`], [`to_beve`], [`from_beve`] and their `_with`
//!   variants, with the options of [`crate::json`] and [`crate::beve`];
//! - one field of a derived type: `#[structio(serde)]` on the field, or the field's type
//!   wrapped in [`Serde`];
//! - any writer or reader: [`write_serde`] and [`read_serde`] (and [`serialize`], which
//!   returns the error instead of panicking).
//!
//! # How serde's data model is written
//!
//! | serde | JSON | BEVE |
//! |---|---|---|
//! | `bool`, integers up to `i128`/`u128`, `f32`, `f64` | as structio writes them (Glaze's float layout) | the number with its own type's header |
//! | `char`, `str` | a string | a string |
//! | bytes (`serde_bytes`) | an array of numbers | a `u8` typed array |
//! | `None`, `()`, unit struct | `null` | null |
//! | `None` as a struct member or map value | left out (written as `null` with `write_null_members`) | the same |
//! | sequence, tuple, array | an array | a typed array when every element is a number of one type, a `bool` or a string (`str`); else a generic array |
//! | tuple struct, tuple variant's payload | an array | a generic array |
//! | map | an object: string keys as they are, integer keys quoted, unit variants by name | an object with string keys, or with integer keys of the key type (a unit variant: its index as `i32`) |
//! | struct | an object | an object |
//! | newtype struct | its value | its value |
//! | unit variant | its name | its index as an `i32` |
//! | newtype, tuple and struct variants | `{"name": payload}` | the same |
//!
//! Serde's internally tagged, adjacently tagged and untagged enums come out as structio's
//! `tag`, `tag` + `content` and `untagged` enums do. [`Value`](crate::Value) implements
//! `Serialize` and `Deserialize` (here, for use with any serde format), and [`Error`](crate::Error)
//! implements `serde::de::Error` and `serde::ser::Error`.
//!
//! # What serde does not tell
//!
//! serde describes a value by calls that leave out some of what a derive knows, so these
//! cases differ from a derived type (JSON is the same in every case but the first two; they
//! are about BEVE):
//! - **Unit variants in BEVE** are written as their index as an `i32`: what a derived
//!   unit-only enum without explicit discriminants or `#[repr]` writes. serde passes neither
//!   a discriminant (`A = 5`) nor the `#[repr]`, and does not say whether the enum also has
//!   variants with data (a derived such enum writes its unit variants by name, and cannot
//!   read an index back). The bridge reads a unit variant from its name or its index.
//! - **Tuples** and fixed-size arrays are one call in serde: a tuple whose elements are all
//!   numbers of one type (or all `bool`, or all strings) is written as a typed array, as an
//!   array `[f64; 2]` is; a derived type writes a tuple as a generic array. Both read back
//!   either way, in structio and through the bridge; Glaze reads a `std::tuple` from a
//!   generic array only.
//! - **Empty sequences** carry no element to tell their type: an empty `Vec<f64>` is an
//!   empty generic array, where a derived type writes an empty `f64` typed array; an empty
//!   map is an object with string keys whatever its key type.
//! - **`f16` and `bf16`** (in a [`Value`](crate::Value)) are written as `f32`, serde's
//!   narrowest float. A `Value` read through serde holds BEVE typed arrays as generic arrays
//!   of numbers (written back, they are typed arrays again).
//! - **Reading** follows serde's own rules where the type's `Deserialize` has them: a field
//!   missing from the document is an error unless it is an `Option` or has
//!   `#[serde(default)]`, a repeated field is an error whatever
//!   [`ReadOptions::error_on_duplicate_keys`](crate::ReadOptions::error_on_duplicate_keys)
//!   says, and values are built fresh ([`ReadOptions::merge`](crate::ReadOptions::merge)
//!   does not apply). A key no field has is structio's affair: an error by default
//!   ([`UnknownKeys::Error`](crate::UnknownKeys), as Glaze and structio's derive; serde_json
//!   would ignore it), handed to the type under [`UnknownKeys::Skip`](crate::UnknownKeys)
//!   (ignored, unless the type says `#[serde(deny_unknown_fields)]`).
//! - **Borrowed strings** (`&'de str`, `Cow<'de, str>` with `#[serde(borrow)]`) borrow from
//!   the input where the reader can: every BEVE string, JSON strings without escapes; a JSON
//!   string with escapes cannot be a `&str` (serde reports it).
//! - **Writing can fail**: a `Serialize` impl may report an error (a poisoned `Mutex`), and a
//!   map key must be a string, integer, `char`, `bool` or unit variant. [`to_json`],
//!   [`to_beve`] and [`write_serde`] panic then, as their structio counterparts cannot fail;
//!   [`write_json`], [`write_beve`] and [`serialize`] return the error.
//! - `is_human_readable` is true in JSON and false in BEVE, so types that pick their form by
//!   it (addresses, UUIDs, times) take a text form in JSON and a compact one in BEVE.
//! - Into an [`IoSink`](crate::IoSink), the BEVE of each serde struct or map stays in memory
//!   until its end (its member count, written first, is corrected there).
//!
//! Errors keep structio's form: the byte offset, line and column for JSON, and the path
//! (`$.statuses[3].user.name`).

#![forbid(unsafe_code)]

mod de;
mod error;
mod ser;
mod value;

use ::serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::beve::{self, BeveReader, BeveWriter};
use crate::error::Result;
use crate::json::{self, JsonReader, JsonWriter};
use crate::reflect::{Reader, Reflect, Writer};

/// Writes `v` as compact JSON, as structio writes a derived type with the same names.
///
/// # Panics
/// If `v`'s `Serialize` impl reports an error, or a map key is not a string, integer, `char`,
/// `bool` or unit variant ([`write_json`] returns the error instead).
pub fn to_json<T: ?Sized + Serialize>(v: &T) -> String {
    to_json_with(v, &json::Options::default())
}

/// [`to_json`] with options (pretty layout, null members, float style).
///
/// # Panics
/// As [`to_json`].
pub fn to_json_with<T: ?Sized + Serialize>(v: &T, opts: &json::Options) -> String {
    let mut out = String::new();
    let res = if opts.pretty {
        serialize(v, &mut JsonWriter::<_, true>::with_options(&mut out, opts))
    } else {
        serialize(v, &mut JsonWriter::<_, false>::with_options(&mut out, opts))
    };
    if let Err(e) = res {
        failed("to_json", e)
    }
    out
}

/// Appends `v` as compact JSON to `out`. On error `out` is left as it was.
///
/// ```
/// let mut out = Vec::new();
/// structio::serde::write_json(&[1.5, 2.0], &mut out).unwrap();
/// assert_eq!(out, b"[1.5,2]");
/// let key = std::collections::HashMap::from([((1, 2), 3)]);
/// assert!(structio::serde::write_json(&key, &mut out).is_err());
/// assert_eq!(out, b"[1.5,2]");
/// ```
pub fn write_json<T: ?Sized + Serialize>(v: &T, out: &mut Vec<u8>) -> Result<()> {
    write_json_with(v, out, &json::Options::default())
}

/// [`write_json`] with options.
pub fn write_json_with<T: ?Sized + Serialize>(
    v: &T,
    out: &mut Vec<u8>,
    opts: &json::Options,
) -> Result<()> {
    let start = out.len();
    let res = if opts.pretty {
        serialize(v, &mut JsonWriter::<_, true>::with_options(&mut *out, opts))
    } else {
        serialize(
            v,
            &mut JsonWriter::<_, false>::with_options(&mut *out, opts),
        )
    };
    res.inspect_err(|_| out.truncate(start))
}

/// Reads a `T` from JSON text, as [`crate::from_json`] reads a derived type: strings without
/// escapes can be borrowed (`&'de str` fields), errors carry the offset, line, column and
/// path.
pub fn from_json<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<T>
where
    T: Deserialize<'de>,
{
    from_json_with(input, &json::Options::default())
}

/// [`from_json`] with options (unknown keys, depth limit, comments).
pub fn from_json_with<'de, T>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &json::Options,
) -> Result<T>
where
    T: Deserialize<'de>,
{
    let text = input.as_ref();
    let blanked = if opts.comments_on() {
        json::comments::blank(text).map_err(|e| e.locate_in_text(text))?
    } else {
        None
    };
    let mut r = JsonReader::blanked(text, blanked.as_deref().unwrap_or(text), opts.read);
    read_serde::<T, _>(&mut r)
        .and_then(|v| r.finish().map(|()| v))
        .map_err(|e| e.locate_in_text(text))
}

/// Writes `v` as BEVE, as structio writes a derived type with the same names.
///
/// # Panics
/// As [`to_json`] ([`write_beve`] returns the error instead).
pub fn to_beve<T: ?Sized + Serialize>(v: &T) -> Vec<u8> {
    to_beve_with(v, &beve::Options::default())
}

/// [`to_beve`] with options (aligned typed arrays, null members).
///
/// # Panics
/// As [`to_json`].
pub fn to_beve_with<T: ?Sized + Serialize>(v: &T, opts: &beve::Options) -> Vec<u8> {
    let mut out = Vec::new();
    if let Err(e) = write_beve_with(v, &mut out, opts) {
        failed("to_beve", e)
    }
    out
}

/// Appends `v` as BEVE to `out`. On error `out` is left as it was.
pub fn write_beve<T: ?Sized + Serialize>(v: &T, out: &mut Vec<u8>) -> Result<()> {
    write_beve_with(v, out, &beve::Options::default())
}

/// [`write_beve`] with options. Aligned arrays are padded relative to the start of `out`.
pub fn write_beve_with<T: ?Sized + Serialize>(
    v: &T,
    out: &mut Vec<u8>,
    opts: &beve::Options,
) -> Result<()> {
    let start = out.len();
    let mut w = BeveWriter::new(&mut *out)
        .aligned_arrays(opts.aligned_arrays)
        .write_null_members(opts.write_null_members);
    serialize(v, &mut w).inspect_err(|_| out.truncate(start))
}

/// Reads a `T` from BEVE (the input must hold exactly one value); strings can be borrowed.
pub fn from_beve<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<T>
where
    T: Deserialize<'de>,
{
    from_beve_with(input, &beve::Options::default())
}

/// [`from_beve`] with options.
pub fn from_beve_with<'de, T>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &beve::Options,
) -> Result<T>
where
    T: Deserialize<'de>,
{
    let mut r = BeveReader::new(input.as_ref(), opts.read);
    let v = read_serde::<T, _>(&mut r)?;
    r.finish()?;
    Ok(v)
}

/// Writes `v` with any structio writer: what `#[structio(serde)]` fields and [`Serde`] use.
///
/// # Panics
/// As [`to_json`] ([`serialize`] returns the error instead).
pub fn write_serde<T: ?Sized + Serialize, W: Writer>(v: &T, w: &mut W) {
    if let Err(e) = serialize(v, w) {
        failed("write_serde", e)
    }
}

/// Writes `v` with any structio writer, returning the error of a `Serialize` impl that fails
/// (the writer then holds what was written before it).
pub fn serialize<T: ?Sized + Serialize, W: Writer>(v: &T, w: &mut W) -> Result<()> {
    v.serialize(&mut ser::Ser::new(w))
}

/// Reads a `T` with any structio reader: what `#[structio(serde)]` fields and [`Serde`] use.
/// Errors carry the offset and the path from the value read.
pub fn read_serde<'de, T: Deserialize<'de>, R: Reader<'de>>(r: &mut R) -> Result<T> {
    let mark = r.save();
    T::deserialize(de::De { r: &mut *r }).map_err(|e| de::placed(e, r, mark))
}

#[cold]
#[inline(never)]
#[track_caller]
fn failed(what: &str, e: crate::Error) -> ! {
    panic!("structio::serde::{what}: {}", e.message())
}

/// A value written and read through its serde impls: `Serde<T>` implements
/// [`Reflect`] for every `T` that implements `Serialize` and `Deserialize`, so a type from
/// the serde ecosystem can be a field of a derived type (the same as `#[structio(serde)]` on
/// the field) or be written and read with every structio function.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use structio::serde::Serde;
///
/// // A type that only knows serde.
/// #[derive(Serialize, Deserialize, Debug, PartialEq, Default)]
/// struct Legacy {
///     id: u32,
///     tags: Vec<String>,
/// }
///
/// #[derive(structio::Reflect, Debug, PartialEq, Default)]
/// struct Record {
///     name: String,
///     legacy: Serde<Legacy>,
/// }
///
/// let r = Record { name: "a".into(), legacy: Serde(Legacy { id: 7, tags: vec!["x".into()] }) };
/// let text = structio::to_json(&r);
/// assert_eq!(text, r#"{"name":"a","legacy":{"id":7,"tags":["x"]}}"#);
/// assert_eq!(structio::from_json::<Record>(&text).unwrap(), r);
/// assert_eq!(structio::from_beve::<Record>(&structio::to_beve(&r)).unwrap(), r);
/// ```
///
/// A `Serde<Option<T>>` member holding `None` is left out, as an `Option` member is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Serde<T>(pub T);

impl<T> Serde<T> {
    /// The value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> From<T> for Serde<T> {
    fn from(v: T) -> Serde<T> {
        Serde(v)
    }
}

impl<T> std::ops::Deref for Serde<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Serde<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<'de, T: Serialize + Deserialize<'de>> Reflect<'de> for Serde<T> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_serde(&self.0, w)
    }

    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        self.0 = read_serde(r)?;
        Ok(())
    }

    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        read_serde(r).map(Serde)
    }

    /// What serde gives a field a document leaves out: `None` for an `Option` (serde's rule),
    /// nothing for any other type (the key is then missing).
    fn default_value() -> Option<Self> {
        T::deserialize(de::Missing).ok().map(Serde)
    }

    /// Whether the value serializes as `None`.
    #[inline]
    fn is_absent(&self) -> bool {
        ser::is_none(&self.0)
    }

    const MAY_BE_ABSENT: bool = true;
}

/// `Serde<T>` is `T` to serde as well.
impl<T: Serialize> Serialize for Serde<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Serde<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Serde<T>, D::Error> {
        T::deserialize(d).map(Serde)
    }
}
