//! The BEVE backend: binary, little-endian, self-describing; byte-compatible with Glaze 8.1.
//!
//! ```
//! use std::collections::BTreeMap;
//!
//! let mut m = BTreeMap::new();
//! m.insert("xs".to_string(), vec![1.0f64, 2.0]);
//! let bytes = structio::to_beve(&m);
//! // object, 1 member, key "xs", f64 typed array of 2
//! assert_eq!(&bytes[..6], &[0x03, 0x04, 0x08, b'x', b's', 0x64]);
//! let back: BTreeMap<String, Vec<f64>> = structio::from_beve(&bytes).unwrap();
//! assert_eq!(back, m);
//! ```
//!
//! Numeric slices are typed arrays moved with one copy. With
//! [`Options::aligned_arrays`] (or [`to_beve_aligned`]) they are written as aligned typed
//! arrays whose data sits at a multiple of the element size; read from a 16-aligned buffer
//! ([`AlignedBytes`]), a `Cow<[f64]>` field then borrows its data without copying.
//!
//! See `docs/beve.md` for the format as implemented and the mapping to Glaze's C++ types.

#![forbid(unsafe_code)]

/// Expands `$body` once for the Rust type of a [`crate::NumKind`], bound to the alias `$N`.
macro_rules! with_kind {
    ($kind:expr, $N:ident => $body:expr) => {
        match $kind {
            $crate::number::NumKind::I8 => {
                type $N = i8;
                $body
            }
            $crate::number::NumKind::I16 => {
                type $N = i16;
                $body
            }
            $crate::number::NumKind::I32 => {
                type $N = i32;
                $body
            }
            $crate::number::NumKind::I64 => {
                type $N = i64;
                $body
            }
            $crate::number::NumKind::I128 => {
                type $N = i128;
                $body
            }
            $crate::number::NumKind::U8 => {
                type $N = u8;
                $body
            }
            $crate::number::NumKind::U16 => {
                type $N = u16;
                $body
            }
            $crate::number::NumKind::U32 => {
                type $N = u32;
                $body
            }
            $crate::number::NumKind::U64 => {
                type $N = u64;
                $body
            }
            $crate::number::NumKind::U128 => {
                type $N = u128;
                $body
            }
            $crate::number::NumKind::BF16 => {
                type $N = half::bf16;
                $body
            }
            $crate::number::NumKind::F16 => {
                type $N = half::f16;
                $body
            }
            $crate::number::NumKind::F32 => {
                type $N = f32;
                $body
            }
            $crate::number::NumKind::F64 => {
                type $N = f64;
                $body
            }
        }
    };
}

mod aligned;
mod complex;
mod delimited;
mod get;
pub mod header;
pub(crate) mod length_prefix;
mod matrix;
mod read;
mod skip;
mod stream;
pub(crate) mod transcode;
mod typed_array;
mod write;

#[cfg(test)]
mod tests;

pub use crate::sink::{Counter, Sink};
pub use aligned::AlignedBytes;
pub use delimited::{
    from_delimited, read_delimited, to_delimited, write_beve_delimited, Delimited, DelimitedWriter,
};
pub use get::{get, get_with};
pub use header::DELIMITER;
pub use read::{BeveMap, BevePos, BeveReader, BeveSeq};
pub use stream::{from_reader, from_reader_with, to_writer, to_writer_with, DelimitedReader};
pub use transcode::{transcode, transcode_with};
pub use write::BeveWriter;

use crate::error::Result;
use crate::reflect::{ReadOptions, Reflect};

/// Options for reading and writing BEVE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Options every reader honours (unknown keys, missing keys, depth limit, ...).
    pub read: ReadOptions,
    /// Write numeric arrays with elements wider than one byte as aligned typed arrays (`0x5C`),
    /// their data padded to a multiple of the element size from the start of the output buffer.
    /// Readers (structio, Glaze >= 7.2.3) accept both forms. Default: off, as in Glaze.
    pub aligned_arrays: bool,
    /// Write `None` struct members as null instead of leaving them out (Glaze's default).
    pub write_null_members: bool,
    /// Write every derived struct as a generic array of its members in declaration order,
    /// without keys, as Glaze's `structs_as_arrays` option (`glz::write_beve_untagged`) does
    /// (see [`BeveWriter::structs_as_arrays`]). Such a document reads back into types marked
    /// `#[structio(as_array)]`. Default: off.
    pub structs_as_arrays: bool,
}

impl Options {
    /// The defaults (see each field), as a constant.
    pub const DEFAULT: Options = Options {
        read: ReadOptions::DEFAULT,
        aligned_arrays: false,
        write_null_members: false,
        structs_as_arrays: false,
    };
}

impl Default for Options {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Writes `v` as BEVE.
pub fn to_beve<'de, T: Reflect<'de>>(v: &T) -> Vec<u8> {
    to_beve_with(v, &Options::DEFAULT)
}

/// Writes `v` as BEVE with `opts`.
pub fn to_beve_with<'de, T: Reflect<'de>>(v: &T, opts: &Options) -> Vec<u8> {
    let mut out = Vec::new();
    write_beve_with(v, &mut out, opts);
    out
}

/// Appends `v` as BEVE to `out`.
pub fn write_beve<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>) {
    write_beve_with(v, out, &Options::DEFAULT)
}

/// Appends `v` as BEVE to `out` with `opts`. Aligned arrays are padded relative to the start
/// of `out` (as Glaze's `write_beve_append` does).
pub fn write_beve_with<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>, opts: &Options) {
    *out = write_to(v, std::mem::take(out), opts);
}

/// Writes `v` into `out` with `opts` and gives the sink back: the one place a writer is set
/// up from [`Options`] (a writer of its own for `structs_as_arrays`, chosen once here).
#[inline]
pub(crate) fn write_to<'de, T: Reflect<'de>, S: Sink>(v: &T, out: S, opts: &Options) -> S {
    let w = BeveWriter::new(out)
        .aligned_arrays(opts.aligned_arrays)
        .write_null_members(opts.write_null_members);
    if opts.structs_as_arrays {
        let mut w = w.structs_as_arrays();
        v.write(&mut w);
        w.into_inner()
    } else {
        let mut w = w;
        v.write(&mut w);
        w.into_inner()
    }
}

/// Writes `v` as BEVE with aligned typed arrays into a 16-aligned buffer: every numeric array
/// payload is aligned in memory, ready to be borrowed by `Cow<[N]>` fields when read back.
pub fn to_beve_aligned<'de, T: Reflect<'de>>(v: &T) -> AlignedBytes {
    to_beve_aligned_with(
        v,
        &Options {
            aligned_arrays: true,
            ..Options::default()
        },
    )
}

/// [`to_beve_aligned`] with `opts` (`aligned_arrays` is taken from `opts`). The exact size is
/// computed first, so the buffer is allocated once.
pub fn to_beve_aligned_with<'de, T: Reflect<'de>>(v: &T, opts: &Options) -> AlignedBytes {
    let n = beve_size_with(v, opts);
    write_to(v, AlignedBytes::with_capacity(n), opts)
}

/// The number of bytes [`to_beve`] writes for `v`, computed without writing them.
pub fn beve_size<'de, T: Reflect<'de>>(v: &T) -> usize {
    beve_size_with(v, &Options::DEFAULT)
}

/// [`beve_size`] with `opts` (aligned arrays are padded as from the start of a buffer).
pub fn beve_size_with<'de, T: Reflect<'de>>(v: &T, opts: &Options) -> usize {
    write_to(v, Counter(0), opts).0
}

/// Reads a new `T` from BEVE (see [`Reflect::read_new`]: no `Default` needed). The input must hold exactly one value.
pub fn from_beve<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<T>
where
    T: Reflect<'de>,
{
    from_beve_with(input, &Options::DEFAULT)
}

/// [`from_beve`] with `opts`.
pub fn from_beve_with<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized), opts: &Options) -> Result<T>
where
    T: Reflect<'de>,
{
    let mut r = BeveReader::new(input.as_ref(), opts.read);
    let v = T::read_new(&mut r)?;
    r.finish()?;
    Ok(v)
}

/// Reads a value of type `T` from BEVE at a trust boundary, collecting every problem of the
/// document in one pass (see [`crate::json::parse`]): the same issues as the JSON of the same
/// document, without line and column. Accepts exactly what [`from_beve`] accepts.
pub fn parse<'de, T>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
) -> std::result::Result<T, crate::Report>
where
    T: Reflect<'de>,
{
    parse_with(input, &crate::ParseOptions::default())
}

/// [`parse`] with options (the issue cap, the reader's options).
pub fn parse_with<'de, T>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &crate::ParseOptions,
) -> std::result::Result<T, crate::Report>
where
    T: Reflect<'de>,
{
    let input = input.as_ref();
    crate::report::parse_with(
        BeveReader::new(input, opts.read),
        input.len(),
        opts.max_issues,
        |r| r.finish(),
    )
}

/// Reads BEVE into an existing value, reusing its buffers: the result is what [`from_beve`]
/// gives (unless [`crate::ReadOptions::merge`]). The input must hold exactly one value.
pub fn read_beve<'de, T>(v: &mut T, input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<()>
where
    T: Reflect<'de>,
{
    read_beve_with(v, input, &Options::DEFAULT)
}

/// [`read_beve`] with `opts`.
pub fn read_beve_with<'de, T>(
    v: &mut T,
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &Options,
) -> Result<()>
where
    T: Reflect<'de>,
{
    let mut r = BeveReader::new(input.as_ref(), opts.read);
    v.read(&mut r)?;
    r.finish()
}

/// Converts BEVE to compact JSON without a schema, like `glz::beve_to_json`: integer keys
/// become quoted JSON keys, typed and bool arrays JSON arrays, matrices
/// `{"layout":..,"extents":[..],"value":[..]}`, complex numbers `[re,im]`, v1 type tags
/// `{"index":i,"value":..}`. Each data delimiter (`0x06`) between top-level values becomes a
/// newline, so a delimited sequence becomes newline-delimited JSON.
///
/// ```
/// let bytes = structio::to_beve(&std::collections::BTreeMap::from([(7u16, vec![true, false])]));
/// assert_eq!(structio::beve_to_json(&bytes).unwrap(), r#"{"7":[true,false]}"#);
/// ```
pub fn beve_to_json<I: AsRef<[u8]> + ?Sized>(input: &I) -> Result<String> {
    beve_to_json_with(input, &crate::json::Options::DEFAULT)
}

/// [`beve_to_json`] with JSON options (pretty layout, float style; `read.max_depth` limits
/// the nesting). A pretty layout with an indent wider than [`crate::json::MAX_INDENT`] is an
/// error.
pub fn beve_to_json_with<I: AsRef<[u8]> + ?Sized>(
    input: &I,
    opts: &crate::json::Options,
) -> Result<String> {
    use crate::json::JsonWriter;
    if opts.pretty {
        crate::json::check_indent(opts.indent)?;
    }
    let bytes = input.as_ref();
    let depth = opts.read.max_depth;
    let mut out = Vec::with_capacity(bytes.len() * 2);
    let mut pos = 0;
    if bytes.first() == Some(&header::DELIMITER) {
        out.push(b'\n');
        pos = 1;
    }
    loop {
        pos = if opts.pretty {
            transcode::walk(
                bytes,
                pos,
                &mut JsonWriter::<_, true>::with_options(&mut out, opts),
                0,
                depth,
            )?
        } else {
            transcode::walk(
                bytes,
                pos,
                &mut JsonWriter::<_, false>::with_options(&mut out, opts),
                0,
                depth,
            )?
        };
        if pos == bytes.len() {
            break;
        }
        if bytes[pos] != header::DELIMITER {
            return Err(crate::error::Error::new(
                crate::error::Code::TrailingCharacters,
                pos,
            ));
        }
        out.push(b'\n');
        pos += 1;
        if pos == bytes.len() {
            break;
        }
    }
    // The writer only writes validated text, so this never replaces anything.
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}
