//! [`JsonWriter`]: the [`Writer`] that produces JSON text, compact or pretty, into any
//! [`TextSink`], with an optional [`Style`] around tokens.
//!
//! `PRETTY` is a const parameter so the compact writer carries no layout branches. The pretty
//! writer produces exactly what [`super::prettify`] makes of the compact text, except for
//! [`Writer::complex`] (complex numbers), which Glaze keeps on one line when it writes
//! pretty JSON from a value, an empty struct (see [`super::Options::pretty`]), and
//! [`Writer::raw_json`], whose text is written verbatim (as Glaze writes `raw_json`) so that
//! it reads back as the same `RawJson`.

use crate::number::{NumKind, Number};
use crate::reflect::{FieldName, KeyKind, Open, Reflect, Writer};
use crate::sink::TextSink;

use super::layout;
use super::out::copy_at;
use super::out::Out;
use super::string::{needs_escape16, write_str};
use super::Options;
use crate::number::print::{write_number, FloatStyle};

/// The kinds of token a [`Style`] can wrap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Token {
    /// An object key, quotes included (the colon follows the style's text).
    Key,
    /// A string value, quotes included.
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
}

/// Text a [`JsonWriter`] puts around tokens, as serde_json's `Formatter` does: for example the
/// ANSI color escapes of a terminal. Both methods default to nothing; the default style,
/// [`Plain`], is compiled away. A style's text is written as it is, so it must keep the output
/// what its reader expects (ANSI escapes make it text for a terminal, no longer JSON).
///
/// With a style other than [`Plain`], arrays of numbers and booleans are written one element
/// at a time (each element is a token) instead of through the fast stores.
///
/// ```
/// use structio::json::{JsonWriter, Style, Token};
/// use structio::Reflect;
///
/// struct Stars;
/// impl Style for Stars {
///     fn before(&mut self, t: Token) -> &str {
///         if t == Token::Number { "*" } else { "" }
///     }
/// }
/// let mut w = JsonWriter::new(String::new()).style(Stars);
/// vec![(1, "a")].write(&mut w);
/// assert_eq!(w.into_inner(), r#"[[*1,"a"]]"#);
/// ```
pub trait Style {
    /// Written before a token of kind `t`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn before(&mut self, t: Token) -> &str {
        let _ = t;
        ""
    }
    /// Written after a token of kind `t`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn after(&mut self, t: Token) -> &str {
        let _ = t;
        ""
    }
    /// Whether the style writes nothing at all, so the writer keeps its fast paths.
    #[doc(hidden)]
    const PLAIN: bool = false;
}

/// The default [`Style`]: nothing around tokens.
#[derive(Debug, Default, Clone, Copy)]
pub struct Plain;

impl Style for Plain {
    const PLAIN: bool = true;
}

/// Writes a value as JSON text into a [`TextSink`]: a `Vec<u8>`, a `String`, an
/// [`IoSink`](crate::IoSink) (streaming into any [`std::io::Write`]), or `&mut` one of them.
/// `PRETTY` selects Glaze's pretty layout ([`JsonWriter::pretty`]); `St` is the [`Style`]
/// around tokens. Values are written through [`Reflect::write`] or
/// [`JsonWriter::write_value`]; several values written one after the other are simply
/// concatenated.
///
/// [`super::to_json_with`] and [`super::write_json_with`] are this writer over a `String` and
/// a `Vec<u8>`, choosing the layout from [`super::Options::pretty`].
///
/// ```
/// use structio::json::{JsonWriter, Options};
/// use structio::IoSink;
///
/// // Stream a value to any `io::Write` (here a `Vec<u8>`, as a file would be).
/// let mut w = JsonWriter::new(IoSink::new(Vec::new()));
/// w.write_value(&vec![Some(1.5), None]);
/// assert_eq!(w.into_inner().finish().unwrap(), b"[1.5,null]");
///
/// // Pretty, with the options of `json::Options` (`pretty` is the writer's type).
/// let opts = Options { indent: 2, ..Options::default() };
/// let mut w = JsonWriter::pretty(String::new()).options(&opts);
/// w.write_value(&[[1], [2]]);
/// assert_eq!(w.into_inner(), "[\n  [\n    1\n  ],\n  [\n    2\n  ]\n]");
/// ```
pub struct JsonWriter<S, const PRETTY: bool = false, St = Plain> {
    out: S,
    /// Containers open (pretty only).
    level: usize,
    indent: usize,
    null_members: bool,
    float_style: FloatStyle,
    /// An empty struct's object is open (pretty only): [`Self::close`] keeps its line breaks.
    empty_struct: bool,
    style: St,
}

impl<S: TextSink> JsonWriter<S> {
    /// A compact writer appending to `out`, with the default [`Options`].
    pub fn new(out: S) -> Self {
        JsonWriter::with_options(out, &Options::DEFAULT)
    }
}

impl<S: TextSink> JsonWriter<S, true> {
    /// A writer in Glaze's pretty layout (3 spaces per level; see [`JsonWriter::options`])
    /// appending to `out`.
    pub fn pretty(out: S) -> Self {
        JsonWriter::with_options(out, &Options::DEFAULT)
    }
}

impl<S: TextSink, const PRETTY: bool> JsonWriter<S, PRETTY> {
    /// A writer appending to `out` with the options `opts`, except `opts.pretty`: the layout
    /// is `PRETTY`.
    #[inline]
    pub(crate) fn with_options(out: S, opts: &Options) -> Self {
        JsonWriter {
            out,
            level: 0,
            // Clamped: writing cannot fail (see `Options::indent`).
            indent: opts.indent.min(super::MAX_INDENT),
            null_members: opts.write_null_members,
            float_style: opts.float_style,
            empty_struct: false,
            style: Plain,
        }
    }
}

impl<S: TextSink, const PRETTY: bool, St: Style> JsonWriter<S, PRETTY, St> {
    /// Takes the options of `opts` (indent, null members, float style); `opts.pretty` is not
    /// consulted, the layout is the writer's type. An indent wider than
    /// [`MAX_INDENT`](super::MAX_INDENT) is laid out as `MAX_INDENT`.
    pub fn options(mut self, opts: &Options) -> Self {
        self.indent = opts.indent.min(super::MAX_INDENT);
        self.null_members = opts.write_null_members;
        self.float_style = opts.float_style;
        self
    }

    /// Writes `text` around tokens (see [`Style`]).
    pub fn style<T: Style>(self, style: T) -> JsonWriter<S, PRETTY, T> {
        JsonWriter {
            out: self.out,
            level: self.level,
            indent: self.indent,
            null_members: self.null_members,
            float_style: self.float_style,
            empty_struct: self.empty_struct,
            style,
        }
    }

    /// Writes `v` (the same as `v.write(&mut writer)`).
    pub fn write_value<'de, T: Reflect<'de>>(&mut self, v: &T) {
        v.write(self);
    }

    /// The sink.
    pub fn get_ref(&self) -> &S {
        &self.out
    }

    /// The sink, mutably (text appended through it goes between values as it is).
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.out
    }

    /// The sink, with everything written so far.
    pub fn into_inner(self) -> S {
        self.out
    }

    /// Writes `before`, `f`'s token, `after` (for [`Plain`], only the token).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn styled(&mut self, t: Token, f: impl FnOnce(&mut S::Out, FloatStyle)) {
        if !St::PLAIN {
            let s = self.style.before(t);
            if !s.is_empty() {
                self.out.text().push_str(s);
            }
        }
        f(self.out.text(), self.float_style);
        if !St::PLAIN {
            let s = self.style.after(t);
            if !s.is_empty() {
                self.out.text().push_str(s);
            }
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open(&mut self, c: u8) {
        self.out.text().flush_point();
        if PRETTY {
            self.level += 1;
            layout::open(self.out.text(), c, self.level.saturating_mul(self.indent));
        } else {
            self.out.text().push_ascii(c);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn close(&mut self, open: u8, close: u8) {
        if PRETTY {
            // Nothing was written since `open` (the opener, a newline and the indent): make it
            // `[]` / `{}`.
            let n = self.level.saturating_mul(self.indent).saturating_add(1);
            let len = self.out.text().len();
            self.level = self.level.saturating_sub(1);
            if std::mem::take(&mut self.empty_struct) {
                // An empty struct: Glaze keeps both line breaks (nothing was written inside,
                // so the flag is this object's).
                layout::close(
                    self.out.text(),
                    close,
                    self.level.saturating_mul(self.indent),
                );
            } else if len > n
                && self.out.text().byte_at(len - n - 1) == open
                && self.out.text().byte_at(len - n) == b'\n'
            {
                self.out.text().truncate(len - n);
                self.out.text().push_ascii(close);
            } else {
                layout::close(
                    self.out.text(),
                    close,
                    self.level.saturating_mul(self.indent),
                );
            }
        } else {
            self.out.text().push_ascii(close);
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn colon(&mut self) {
        if PRETTY {
            self.out.text().push_str(layout::COLON);
        } else {
            self.out.text().push_ascii(b':');
        }
    }

    /// Writes `items` as one array, `each` writing one element.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn array_of<T>(
        &mut self,
        items: impl ExactSizeIterator<Item = T>,
        each: impl Fn(&mut Self, T),
    ) {
        self.begin_array(items.len());
        let mut first = true;
        for x in items {
            if !first {
                self.sep();
            }
            first = false;
            each(self, x);
        }
        self.end_array();
    }
}

impl<S: TextSink, const PRETTY: bool, St: Style> Writer for JsonWriter<S, PRETTY, St> {
    /// A typed array is written as the generic array of its values.
    const PACKS_ARRAYS: bool = false;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write_null_members(&self) -> bool {
        self.null_members
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn null(&mut self) {
        self.styled(Token::Null, |o, _| o.push_str("null"));
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bool(&mut self, v: bool) {
        self.styled(Token::Bool, |o, _| {
            if v {
                o.push_lit(b"true");
            } else {
                o.push_lit(b"false");
            }
        });
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn number<N: Number>(&mut self, v: N) {
        self.styled(Token::Number, |o, fs| write_number(o, v, fs));
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn str(&mut self, v: &str) {
        self.styled(Token::String, |o, _| write_str(o, v));
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_array(&mut self, _len: usize) {
        self.open(b'[');
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_array(&mut self) {
        self.close(b'[', b']');
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_map(&mut self, _len: usize, _keys: KeyKind) {
        self.open(b'{');
    }

    #[inline]
    fn begin_sparse_map(&mut self, written: usize, _keys: KeyKind) {
        self.begin_struct(written);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_struct(&mut self, len: usize) {
        self.open(b'{');
        if PRETTY && len == 0 {
            self.empty_struct = true;
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_open(&mut self, what: Open, _hint: Option<usize>) -> usize {
        // JSON writes no counts: whether an empty object keeps Glaze's line breaks is decided
        // at its end.
        self.open(if what == Open::Array { b'[' } else { b'{' });
        0
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_open(
        &mut self,
        what: Open,
        _mark: usize,
        _hint: Option<usize>,
        count: usize,
        left_out: bool,
    ) {
        match what {
            Open::Array => self.close(b'[', b']'),
            Open::Map(_) | Open::Struct => {
                // An empty struct, or a map whose every entry was left out: laid out as
                // `begin_struct(0)` and `begin_sparse_map(0, ..)` lay them out (nothing was
                // written inside, so the flag is this object's).
                if PRETTY && count == 0 && (what == Open::Struct || left_out) {
                    self.empty_struct = true;
                }
                self.close(b'{', b'}');
            }
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn key(&mut self, k: &str) {
        // Struct keys are short and need no escapes: quotes, name and colon in one slot.
        if St::PLAIN && k.len() <= 16 && !needs_escape16(k.as_bytes()) {
            self.out.text().with_slot(|slot| {
                slot[0] = b'"';
                let end = copy_at(slot, 1, k.as_bytes());
                if PRETTY {
                    slot[end..end + 3].copy_from_slice(b"\": ");
                    end + 3
                } else {
                    slot[end..end + 2].copy_from_slice(b"\":");
                    end + 2
                }
            });
            return;
        }
        self.styled(Token::Key, |o, _| write_str(o, k));
        self.colon();
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn field_key(&mut self, name: FieldName) {
        // A plain name (known at compile time) goes between its quotes as it is, with the
        // colon, in one slot; anything else is escaped as any key.
        let k = name.as_str();
        if St::PLAIN && name.is_plain() && k.len() <= 28 {
            self.out.text().with_slot(|slot| {
                slot[0] = b'"';
                let end = copy_at(slot, 1, k.as_bytes());
                if PRETTY {
                    slot[end..end + 3].copy_from_slice(b"\": ");
                    end + 3
                } else {
                    slot[end..end + 2].copy_from_slice(b"\":");
                    end + 2
                }
            });
        } else {
            self.styled(Token::Key, |o, _| write_str(o, k));
            self.colon();
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn int_key<N: Number>(&mut self, k: N) {
        self.styled(Token::Key, |o, fs| {
            o.push_ascii(b'"');
            write_number(o, k, fs);
            o.push_ascii(b'"');
        });
        self.colon();
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn enum_key(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.key(name);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_object(&mut self) {
        self.close(b'{', b'}');
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn sep(&mut self) {
        self.out.text().flush_point();
        if PRETTY {
            layout::comma(self.out.text(), self.level.saturating_mul(self.indent));
        } else {
            self.out.text().push_ascii(b',');
        }
    }

    #[inline]
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        if PRETTY || !St::PLAIN {
            return self.array_of(items.iter(), |w, &x| w.number(x));
        }
        self.out.text().push_number_array(items, self.float_style);
    }

    #[inline]
    fn typed_rows<N: Number, const M: usize>(&mut self, rows: &[[N; M]]) {
        if PRETTY || !St::PLAIN {
            return self.array_of(rows.iter(), |w, row| w.typed_array(row));
        }
        self.out.text().push_number_rows(rows, self.float_style);
    }

    #[inline]
    fn complex<N: Number>(&mut self, a: N, b: N) {
        // One line even when pretty: Glaze's layout of `std::complex`.
        self.out.text().push_ascii(b'[');
        self.styled(Token::Number, |o, fs| write_number(o, a, fs));
        self.out.text().push_ascii(b',');
        self.styled(Token::Number, |o, fs| write_number(o, b, fs));
        self.out.text().push_ascii(b']');
    }

    #[inline]
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        self.array_of(items, |w, x| w.number(x));
    }

    #[inline]
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        if PRETTY || !St::PLAIN {
            return self.array_of(items, |w, x| w.bool(x));
        }
        let out = self.out.text();
        out.reserve(items.len() * 6 + 2);
        out.push_ascii(b'[');
        for (i, x) in items.enumerate() {
            // Separate branches, so each is a fixed-size copy rather than one `memcpy` call.
            match (i > 0, x) {
                (false, true) => out.push_lit(b"true"),
                (false, false) => out.push_lit(b"false"),
                (true, true) => out.push_lit(b",true"),
                (true, false) => out.push_lit(b",false"),
            }
        }
        out.push_ascii(b']');
    }

    #[inline]
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.array_of(items, |w, x| w.str(x));
    }

    #[inline]
    fn unit_variant(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.styled(Token::String, |o, _| write_str(o, name));
    }

    fn raw_json(&mut self, text: &str) {
        // Verbatim in both layouts: re-indenting the fragment would change the text a reader
        // gives back as `RawJson`.
        self.out.text().push_str(text);
    }
}
