//! JSON text: typed reading and writing, prettify, minify and validation.
//!
//! Output matches what Glaze writes byte for byte: shortest round-trip floats laid out as Glaze
//! lays them out (`1E16`, `1.5E-7`, no `.0`), strings with only the necessary escapes (control
//! bytes as `\u00XX`), and Glaze's pretty layout (3 spaces per level). Input is strict RFC 8259
//! JSON: no comments (unless [`ReadOptions::comments`]), trailing commas, `NaN`, leading zeros
//! or BOM; strings must be UTF-8; nesting is limited ([`ReadOptions::max_depth`]).
//!
//! ```
//! let v: Vec<f64> = structio::from_json("[1, 2.5, 1e16]").unwrap();
//! assert_eq!(structio::to_json(&v), "[1,2.5,1E16]");
//! assert_eq!(structio::prettify("[1,[]]").unwrap(), "[\n   1,\n   []\n]");
//! ```
//!
//! Errors carry the byte offset, the line and column, the path to the value and a caret under
//! the source line; see [`crate::Error`].

#![forbid(unsafe_code)]

pub(crate) mod comments;
pub(crate) mod compact;
pub(crate) mod get;
mod layout;
mod lines;
pub(crate) mod out;
mod pretty_minify;
mod read;
pub(crate) mod reformat;
mod skip;
mod stream;
pub(crate) mod string;
mod values;
mod write;

use crate::error::Result;
use crate::reflect::{ReadOptions, Reflect};

pub(crate) use crate::number::parse::read_int;
pub use crate::number::print::FloatStyle;
pub use get::{get, get_with};
pub use lines::{
    from_ndjson, read_ndjson, read_ndjson_with, to_ndjson, to_ndjson_with, write_ndjson,
    write_ndjson_with, JsonLines, LinesWriter,
};
pub(crate) use read::JsonReader;
pub use stream::{
    array_iter, array_iter_with, from_reader, from_reader_with, to_writer, to_writer_with,
    ArrayIter, LinesReader,
};
pub use values::{
    values, values_from_reader, values_from_reader_with, values_with, Values, ValuesReader,
};
pub use write::{JsonWriter, Plain, Style, Token};

/// Options for reading and writing JSON. [`Options::DEFAULT`] (which `Options::default()` returns)
/// is what the plain functions use.
///
/// ```
/// use structio::json::{to_json_with, FloatStyle, Options};
/// let opts = Options { float_style: FloatStyle::Serde, ..Options::default() };
/// assert_eq!(to_json_with(&vec![1.0, 1e16], &opts), "[1.0,1e+16]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Options every reader honours: unknown keys, missing and duplicate keys, depth limit.
    pub read: ReadOptions,
    /// Write `None` struct members as `null` instead of leaving them out (default: left out).
    pub write_null_members: bool,
    /// Write with Glaze's pretty layout: as [`prettify`] lays out the compact text, except that
    /// an empty struct keeps two line breaks (`{`, newline, inner indent, newline, outer
    /// indent, `}`), as Glaze's pretty writer does; empty maps and arrays stay `{}` and `[]`;
    /// and a [`RawJson`](crate::RawJson) is written verbatim, so it reads back unchanged.
    pub pretty: bool,
    /// Spaces per nesting level when `pretty` (default 3, as Glaze), at most [`MAX_INDENT`]:
    /// the writers, which cannot fail ([`to_json_with`], [`write_json_with`]), lay out a wider
    /// indent as [`MAX_INDENT`]; [`crate::beve::beve_to_json_with`] rejects it.
    pub indent: usize,
    /// How floats are laid out (default: as Glaze).
    pub float_style: FloatStyle,
    /// Accept comments (JSONC) when reading: the same switch as
    /// [`ReadOptions::comments`](crate::ReadOptions::comments) (either turns them on), here so
    /// that `Options { comments: true, ..Options::default() }` reads JSONC with every reader that
    /// takes these options. Writers ignore it.
    pub comments: bool,
}

impl Options {
    /// The defaults (see each field), as a constant.
    pub const DEFAULT: Options = Options {
        read: ReadOptions::DEFAULT,
        write_null_members: false,
        pretty: false,
        indent: 3,
        float_style: FloatStyle::Glaze,
        comments: false,
    };

    /// Whether comments are accepted: [`Options::comments`] or `read.comments`.
    pub(crate) fn comments_on(&self) -> bool {
        self.comments || self.read.comments
    }
}

impl Default for Options {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The widest indent the pretty layouts accept, in spaces per nesting level.
///
/// ```
/// use structio::json::{prettify_with, to_json_with, Options, PrettyOptions, MAX_INDENT};
/// let wide = PrettyOptions { indent: MAX_INDENT + 1, ..PrettyOptions::default() };
/// assert!(prettify_with("[1]", &wide).is_err());
/// let opts = Options { pretty: true, indent: usize::MAX, ..Options::default() };
/// assert_eq!(to_json_with(&[1], &opts), format!("[\n{}1\n]", " ".repeat(MAX_INDENT)));
/// ```
pub const MAX_INDENT: usize = 256;

/// An error (category [`Limit`](crate::Category::Limit)) if `indent` is wider than
/// [`MAX_INDENT`].
#[inline]
pub(crate) fn check_indent(indent: usize) -> Result<()> {
    if indent > MAX_INDENT {
        return Err(crate::error::Error::new(
            crate::error::Code::IndentTooWide(indent, MAX_INDENT),
            0,
        ));
    }
    Ok(())
}

/// Options for [`prettify_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrettyOptions {
    /// Spaces per nesting level (default 3, as Glaze), at most [`MAX_INDENT`]: a wider indent
    /// is an error (category [`Limit`](crate::Category::Limit)).
    pub indent: usize,
    /// Deepest nesting accepted (default 256).
    pub max_depth: usize,
    /// Accept comments (`//`, `/* */`) wherever whitespace may stand and leave them out of
    /// the output (default `false`: a comment is an error). See [`ReadOptions::comments`].
    pub comments: bool,
}

impl Default for PrettyOptions {
    fn default() -> Self {
        PrettyOptions {
            indent: 3,
            max_depth: ReadOptions::default().max_depth,
            comments: false,
        }
    }
}

/// Options for [`minify_with`] and [`minify_into_with`].
///
/// ```
/// use structio::json::{minify_with, MinifyOptions};
/// let opts = MinifyOptions { comments: true, ..MinifyOptions::default() };
/// assert_eq!(minify_with("[1, // one\n 2 /* two */]", &opts).unwrap(), "[1,2]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinifyOptions {
    /// Deepest nesting accepted (default 256).
    pub max_depth: usize,
    /// Accept comments (`//`, `/* */`) wherever whitespace may stand and leave them out of
    /// the output (default `false`: a comment is an error). See [`ReadOptions::comments`].
    pub comments: bool,
}

impl Default for MinifyOptions {
    fn default() -> Self {
        MinifyOptions {
            max_depth: ReadOptions::default().max_depth,
            comments: false,
        }
    }
}

/// The value as compact JSON text.
///
/// ```
/// assert_eq!(structio::to_json(&(1u8, "a\n", 0.1f32)), r#"[1,"a\n",0.1]"#);
/// ```
pub fn to_json<'de, T: Reflect<'de>>(v: &T) -> String {
    // The compact writer only: a call through `to_json_with` would also build `T`'s pretty
    // writer, code a program that never writes pretty JSON compiles for nothing.
    let mut out = String::new();
    v.write(&mut JsonWriter::<_, false>::with_options(
        &mut out,
        &Options::DEFAULT,
    ));
    out
}

/// The value as JSON text, with options.
pub fn to_json_with<'de, T: Reflect<'de>>(v: &T, opts: &Options) -> String {
    let mut out = String::new();
    if opts.pretty {
        v.write(&mut JsonWriter::<_, true>::with_options(&mut out, opts));
    } else {
        v.write(&mut JsonWriter::<_, false>::with_options(&mut out, opts));
    }
    out
}

/// Appends the value as compact JSON text to `out`.
pub fn write_json<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>) {
    // The compact writer only, as in `to_json`.
    v.write(&mut JsonWriter::<_, false>::with_options(
        out,
        &Options::DEFAULT,
    ));
}

/// Appends the value as JSON text to `out`, with options.
pub fn write_json_with<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>, opts: &Options) {
    write_to(v, out, opts)
}

/// Writes `v` into any text sink in the layout `opts` asks for (compact or pretty).
#[inline]
pub(crate) fn write_to<'de, T: Reflect<'de>, S: crate::TextSink>(v: &T, out: S, opts: &Options) {
    if opts.pretty {
        v.write(&mut JsonWriter::<_, true>::with_options(out, opts));
    } else {
        v.write(&mut JsonWriter::<_, false>::with_options(out, opts));
    }
}

/// Reads a new value of type `T` (see [`Reflect::read_new`]: no `Default` needed) from JSON text (`&str`, `&[u8]`,
/// `String`, `Vec<u8>`, ...). Strings without escapes can be borrowed from the input.
///
/// ```
/// let v: std::collections::BTreeMap<String, Vec<u8>> =
///     structio::from_json(r#"{"a": [1, 2]}"#).unwrap();
/// assert_eq!(v["a"], [1, 2]);
/// let e = structio::from_json::<Vec<u8>>("[1, 300]").unwrap_err();
/// assert_eq!(e.to_string(), "number out of range for u8 at 1:5 (byte 4), path $[1]\n   [1, 300]\n       ^");
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn from_json<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<T>
where
    T: Reflect<'de>,
{
    // A reference to the constant, not to defaults built on the stack: the reader loads the
    // options whole, and a load of bytes just stored field by field waits for the stores.
    // Straight to the comment-free reader: through `from_json_with` every type would also
    // instantiate (and the compiler optimise, then drop) the JSONC reader.
    from_json_plain(input.as_ref(), &Options::DEFAULT)
}

/// Reads a value of type `T` from JSON text, with options.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn from_json_with<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized), opts: &Options) -> Result<T>
where
    T: Reflect<'de>,
{
    let text = input.as_ref();
    if opts.comments_on() {
        return from_jsonc_text(text, opts);
    }
    from_json_plain(text, opts)
}

/// [`from_json_with`] for options without comments.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn from_json_plain<'de, T: Reflect<'de>>(text: &'de [u8], opts: &Options) -> Result<T> {
    if T::CANONICAL && compact::may_be_compact(text) {
        // The canonical layout of a type marked `canonical` is read inline (see
        // `compact::read_in_layout`); every other layout out of line.
        if let Some(v) = compact::read_in_layout(text, opts.read) {
            return Ok(v);
        }
        return from_json_text_after_layout(text, opts);
    }
    from_json_text(text, opts)
}

/// [`from_json_text`] for compact text that is not in the canonical layout of `T`: read by
/// the canonical-layout reader member by member when that reads it, else by the full reader.
#[inline(never)]
fn from_json_text_after_layout<'de, T: Reflect<'de>>(text: &'de [u8], opts: &Options) -> Result<T> {
    if let Ok(v) = compact::read(text, opts.read) {
        return Ok(v);
    }
    from_json_text(text, opts)
}

/// `text` read as a `T` by the full reader.
fn from_json_text<'de, T: Reflect<'de>>(text: &'de [u8], opts: &Options) -> Result<T> {
    let mut r = JsonReader::new(text, opts.read);
    // Not `and_then` and `map_err`: closures here are more functions per type in a debug build.
    match T::read_new(&mut r) {
        Ok(v) => match r.finish() {
            Ok(()) => Ok(v),
            Err(e) => Err(e.locate_in_text(text)),
        },
        Err(e) => Err(e.locate_in_text(text)),
    }
}

/// `text`, which may hold comments, read as a `T` by the full reader (see [`comments`]).
#[inline(never)]
fn from_jsonc_text<'de, T: Reflect<'de>>(text: &'de [u8], opts: &Options) -> Result<T> {
    let blanked = comments::blank(text).map_err(|e| e.locate_in_text(text))?;
    let mut r = JsonReader::blanked(text, blanked.as_deref().unwrap_or(text), opts.read);
    // Not `and_then` and `map_err`: closures here are more functions per type in a debug build.
    match T::read_new(&mut r) {
        Ok(v) => match r.finish() {
            Ok(()) => Ok(v),
            Err(e) => Err(e.locate_in_text(text)),
        },
        Err(e) => Err(e.locate_in_text(text)),
    }
}

/// Reads a value of type `T` from JSON text at a trust boundary: in one pass, every problem
/// of the document is collected (broken constraints, members of the wrong type, missing,
/// unknown and duplicate keys) instead of stopping at the first; only malformed JSON stops
/// reading (the last issue). Accepts exactly what [`from_json`] accepts.
///
/// ```
/// #[derive(structio::Reflect, Debug)]
/// struct Signup {
///     #[structio(length(min = 1, max = 64))]
///     name: String,
///     #[structio(range(min = 0, max = 150))]
///     age: u32,
///     #[structio(pattern = "^[a-z0-9-]+$")]
///     slug: String,
/// }
///
/// let report = structio::json::parse::<Signup>(
///     r#"{"name": "", "age": 200, "slug": "Not A Slug"}"#,
/// )
/// .unwrap_err();
/// assert_eq!(report.issues().len(), 3);
/// assert_eq!(report.issues()[1].path(), "$.age");
/// assert_eq!(report.issues()[1].line_column(), Some((1, 21)));
/// let ok = structio::json::parse::<Signup>(r#"{"name":"Ada","age":36,"slug":"ada"}"#).unwrap();
/// assert_eq!(ok.age, 36);
/// ```
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
    let text = input.as_ref();
    let blanked = if opts.read.comments {
        match comments::blank(text) {
            Ok(b) => b,
            Err(e) => {
                let c = crate::report::Collector::new(opts.max_issues, text.len());
                let mut report = c.finish(Some(e));
                crate::report::locate(&mut report, text);
                return Err(report);
            }
        }
    } else {
        None
    };
    match crate::report::parse_with(
        JsonReader::blanked(text, blanked.as_deref().unwrap_or(text), opts.read),
        text.len(),
        opts.max_issues,
        |r| r.finish(),
    ) {
        Ok(v) => Ok(v),
        Err(mut report) => {
            crate::report::locate(&mut report, text);
            Err(report)
        }
    }
}

/// Reads JSON text into an existing value, reusing its buffers (strings, vectors): the result
/// is what [`from_json`] gives (unless [`crate::ReadOptions::merge`]).
pub fn read_json<'de, T>(v: &mut T, input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<()>
where
    T: Reflect<'de>,
{
    read_json_with(v, input, &Options::DEFAULT)
}

/// Reads JSON text into an existing value, with options.
pub fn read_json_with<'de, T>(
    v: &mut T,
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &Options,
) -> Result<()>
where
    T: Reflect<'de>,
{
    let text = input.as_ref();
    if opts.comments_on() {
        return read_jsonc_text(v, text, opts);
    }
    let mut r = JsonReader::new(text, opts.read);
    v.read(&mut r)
        .and_then(|()| r.finish())
        .map_err(|e| e.locate_in_text(text))
}

/// [`read_json_with`] for `text` that may hold comments (see [`comments`]).
#[inline(never)]
fn read_jsonc_text<'de, T: Reflect<'de>>(v: &mut T, text: &'de [u8], opts: &Options) -> Result<()> {
    let blanked = comments::blank(text).map_err(|e| e.locate_in_text(text))?;
    let mut r = JsonReader::blanked(text, blanked.as_deref().unwrap_or(text), opts.read);
    v.read(&mut r)
        .and_then(|()| r.finish())
        .map_err(|e| e.locate_in_text(text))
}

/// Lays JSON text out as Glaze's `prettify_json` does: 3 spaces per level, one element per
/// line, `"key": value`, `[]`/`{}` for empty containers (with whitespace between the
/// brackets, Glaze keeps a full container's two line breaks: `[ ]` becomes `"[\n   \n]"`), no
/// trailing newline. The input is checked as it goes.
pub fn prettify<I: AsRef<[u8]> + ?Sized>(input: &I) -> Result<String> {
    prettify_with(input, &PrettyOptions::default())
}

/// [`prettify`] with a chosen indent width and depth limit. An indent wider than
/// [`MAX_INDENT`] is an error.
pub fn prettify_with<I: AsRef<[u8]> + ?Sized>(input: &I, opts: &PrettyOptions) -> Result<String> {
    check_indent(opts.indent)?;
    let text = input.as_ref();
    let mut out = Vec::with_capacity(text.len() + text.len() / 2);
    reformat_into::<true>(text, &mut out, opts.max_depth, opts.indent, opts.comments)?;
    Ok(crate::simd::utf8::unchecked::string_of_pieces(out))
}

/// [`prettify`] appending to a byte buffer, which can be reused from call to call (as
/// [`write_json`] is to [`to_json`]). On error `out` is left as it was.
///
/// ```
/// let mut out = Vec::new();
/// structio::json::prettify_into("[1,[]]", &mut out).unwrap();
/// assert_eq!(out, b"[\n   1,\n   []\n]");
/// out.clear();
/// assert!(structio::json::prettify_into("[1,]", &mut out).is_err());
/// assert!(out.is_empty());
/// ```
pub fn prettify_into<I: AsRef<[u8]> + ?Sized>(input: &I, out: &mut Vec<u8>) -> Result<()> {
    prettify_into_with(input, out, &PrettyOptions::default())
}

/// [`prettify_into`] with a chosen indent width and depth limit. An indent wider than
/// [`MAX_INDENT`] is an error (and `out` is left as it was).
pub fn prettify_into_with<I: AsRef<[u8]> + ?Sized>(
    input: &I,
    out: &mut Vec<u8>,
    opts: &PrettyOptions,
) -> Result<()> {
    check_indent(opts.indent)?;
    let text = input.as_ref();
    out.reserve(text.len() + text.len() / 2);
    reformat_into::<true>(text, out, opts.max_depth, opts.indent, opts.comments)
}

/// Removes all whitespace outside strings. The input is checked as it goes (depth limit 256).
pub fn minify<I: AsRef<[u8]> + ?Sized>(input: &I) -> Result<String> {
    let mut out = Vec::new();
    minify_into(input, &mut out)?;
    Ok(crate::simd::utf8::unchecked::string_of_pieces(out))
}

/// [`minify`] with options: a depth limit, and whether comments are accepted (and left out).
pub fn minify_with<I: AsRef<[u8]> + ?Sized>(input: &I, opts: &MinifyOptions) -> Result<String> {
    let mut out = Vec::new();
    minify_into_with(input, &mut out, opts)?;
    Ok(crate::simd::utf8::unchecked::string_of_pieces(out))
}

/// [`minify`] appending to a byte buffer, which can be reused from call to call (as
/// [`write_json`] is to [`to_json`]). On error `out` is left as it was.
///
/// ```
/// let mut out = b"old ".to_vec();
/// structio::json::minify_into("[ 1, {\"a\" : null} ]", &mut out).unwrap();
/// assert_eq!(out, br#"old [1,{"a":null}]"#);
/// assert!(structio::json::minify_into("[1 2]", &mut out).is_err());
/// assert_eq!(out, br#"old [1,{"a":null}]"#);
/// ```
pub fn minify_into<I: AsRef<[u8]> + ?Sized>(input: &I, out: &mut Vec<u8>) -> Result<()> {
    minify_into_with(input, out, &MinifyOptions::default())
}

/// [`minify_into`] with options (see [`minify_with`]). On error `out` is left as it was.
pub fn minify_into_with<I: AsRef<[u8]> + ?Sized>(
    input: &I,
    out: &mut Vec<u8>,
    opts: &MinifyOptions,
) -> Result<()> {
    let text = input.as_ref();
    // The output is never longer than the input; the slack is for the block stores.
    out.reserve(text.len() + 64);
    reformat_into::<false>(text, out, opts.max_depth, 0, opts.comments)
}

/// [`reformat_in`] for `s` (errors located in it), with its comments blanked out first when
/// `comments` (see [`comments`]).
#[inline]
fn reformat_into<const PRETTY: bool>(
    s: &[u8],
    out: &mut Vec<u8>,
    max_depth: usize,
    indent: usize,
    comments: bool,
) -> Result<()> {
    if comments {
        return reformat_jsonc::<PRETTY>(s, out, max_depth, indent);
    }
    reformat_in::<PRETTY>(s, s, out, max_depth, indent)
}

/// [`reformat_into`] for text that may hold comments.
#[inline(never)]
fn reformat_jsonc<const PRETTY: bool>(
    s: &[u8],
    out: &mut Vec<u8>,
    max_depth: usize,
    indent: usize,
) -> Result<()> {
    let blanked = comments::blank(s).map_err(|e| e.locate_in_text(s))?;
    reformat_in::<PRETTY>(blanked.as_deref().unwrap_or(s), s, out, max_depth, indent)
}

/// Appends `s` re-formatted (pretty with `indent` when `PRETTY`, else minified) to `out`: the
/// fast path first, and if it does not accept the input, the checking walk, which reports the
/// error (or, should the input be valid after all, writes the output). Errors are located in
/// `input` (`s`, or the text `s` was blanked from).
fn reformat_in<const PRETTY: bool>(
    s: &[u8],
    input: &[u8],
    out: &mut Vec<u8>,
    max_depth: usize,
    indent: usize,
) -> Result<()> {
    let start = out.len();
    let fast = reformat::reformat::<PRETTY>(s, max_depth, indent, out);
    if fast.is_ok() {
        return Ok(());
    }
    out.truncate(start);
    let text = string::valid_prefix(s);
    let walked = if PRETTY {
        let mut e = pretty_minify::PrettyEmit {
            out: &mut *out,
            indent,
            base: 0,
        };
        skip::walk_all_in(s, text, max_depth, &mut e)
    } else {
        let mut e = pretty_minify::MinifyEmit {
            out: &mut *out,
            text,
            last: 0,
        };
        skip::walk_all_in(s, text, max_depth, &mut e)
    };
    walked.map_err(|e| {
        out.truncate(start);
        e.locate_in_text(input)
    })
}

/// Checks that `input` is exactly one well-formed JSON value, whitespace around it allowed
/// (depth limit 256).
pub fn validate(input: &[u8]) -> Result<()> {
    skip::validate_all(input, ReadOptions::default().max_depth).map_err(|e| e.locate_in_text(input))
}

/// [`validate`] with options: the depth limit (`max_depth`) and comments (`comments`); the
/// other fields of [`ReadOptions`] are about typed reads and change nothing here.
///
/// ```
/// use structio::ReadOptions;
/// let jsonc = ReadOptions { comments: true, ..ReadOptions::default() };
/// assert!(structio::json::validate_with(b"[1, /* two */ 2] // end", &jsonc).is_ok());
/// assert!(structio::json::validate(b"[1, /* two */ 2]").is_err());
/// ```
pub fn validate_with(input: &[u8], opts: &ReadOptions) -> Result<()> {
    let blanked = if opts.comments {
        comments::blank(input).map_err(|e| e.locate_in_text(input))?
    } else {
        None
    };
    skip::validate_all(blanked.as_deref().unwrap_or(input), opts.max_depth)
        .map_err(|e| e.locate_in_text(input))
}
