//! [`JsonWriter`]: the [`Writer`] that produces JSON text, compact or pretty.
//!
//! `PRETTY` is a const parameter so the compact writer carries no layout branches. The pretty
//! writer produces exactly what [`super::prettify`] makes of the compact text, except for
//! [`Writer::number_pair`] (complex numbers), which Glaze keeps on one line when it writes
//! pretty JSON from a value, and [`Writer::raw_json`], whose text is written verbatim (as
//! Glaze writes `raw_json`) so that it reads back as the same `RawJson`.

use crate::number::{NumKind, Number};
use crate::reflect::{FieldName, KeyKind, Writer};

use super::out::copy_at;
use super::out::Out;
use super::pretty_minify::newline_indent;
use super::string::{needs_escape16, write_str};
use super::Options;
use crate::number::print::{write_number, FloatStyle};

/// Writes JSON, appending to a `Vec<u8>` (the default) or a `String`. `PRETTY` selects Glaze's
/// pretty layout.
pub(crate) struct JsonWriter<'o, const PRETTY: bool, O = Vec<u8>> {
    out: &'o mut O,
    /// Containers open (pretty only).
    level: usize,
    indent: usize,
    null_members: bool,
    float_style: FloatStyle,
    /// An empty struct's object is open (pretty only): [`Self::close`] keeps its line breaks.
    empty_struct: bool,
}

impl<'o, const PRETTY: bool, O: Out> JsonWriter<'o, PRETTY, O> {
    /// A writer appending to `out`.
    pub(crate) fn new(out: &'o mut O, opts: &Options) -> Self {
        JsonWriter {
            out,
            level: 0,
            // Clamped: writing cannot fail (see `Options::indent`).
            indent: opts.indent.min(super::MAX_INDENT),
            null_members: opts.write_null_members,
            float_style: opts.float_style,
            empty_struct: false,
        }
    }

    #[inline(always)]
    fn open(&mut self, c: u8) {
        self.out.push_ascii(c);
        if PRETTY {
            self.level += 1;
            newline_indent(self.out, self.level.saturating_mul(self.indent));
        }
    }

    #[inline(always)]
    fn close(&mut self, open: u8, close: u8) {
        if PRETTY {
            // Nothing was written since `open` (the opener, a newline and the indent): make it
            // `[]` / `{}`.
            let n = self.level.saturating_mul(self.indent).saturating_add(1);
            let len = self.out.len();
            self.level = self.level.saturating_sub(1);
            if std::mem::take(&mut self.empty_struct) {
                // An empty struct: Glaze keeps both line breaks (nothing was written inside,
                // so the flag is this object's).
                newline_indent(self.out, self.level.saturating_mul(self.indent));
            } else if len > n
                && self.out.byte_at(len - n - 1) == open
                && self.out.byte_at(len - n) == b'\n'
            {
                self.out.truncate(len - n);
            } else {
                newline_indent(self.out, self.level.saturating_mul(self.indent));
            }
        }
        self.out.push_ascii(close);
    }

    #[inline(always)]
    fn colon(&mut self) {
        if PRETTY {
            self.out.push_str(": ");
        } else {
            self.out.push_ascii(b':');
        }
    }

    /// Writes `items` as one array, `each` writing one element.
    #[inline(always)]
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

impl<const PRETTY: bool, O: Out> Writer for JsonWriter<'_, PRETTY, O> {
    #[inline(always)]
    fn write_null_members(&self) -> bool {
        self.null_members
    }

    #[inline(always)]
    fn null(&mut self) {
        self.out.push_str("null");
    }

    #[inline(always)]
    fn bool(&mut self, v: bool) {
        if v {
            self.out.push_lit(b"true");
        } else {
            self.out.push_lit(b"false");
        }
    }

    #[inline(always)]
    fn number<N: Number>(&mut self, v: N) {
        write_number(self.out, v, self.float_style);
    }

    #[inline(always)]
    fn str(&mut self, v: &str) {
        write_str(self.out, v);
    }

    #[inline(always)]
    fn begin_array(&mut self, _len: usize) {
        self.open(b'[');
    }

    #[inline(always)]
    fn end_array(&mut self) {
        self.close(b'[', b']');
    }

    #[inline(always)]
    fn begin_map(&mut self, _len: usize, _keys: KeyKind) {
        self.open(b'{');
    }

    #[inline]
    fn begin_sparse_map(&mut self, written: usize, _keys: KeyKind) {
        self.begin_struct(written);
    }

    #[inline(always)]
    fn begin_struct(&mut self, len: usize) {
        self.open(b'{');
        if PRETTY && len == 0 {
            self.empty_struct = true;
        }
    }

    #[inline(always)]
    fn key(&mut self, k: &str) {
        // Struct keys are short and need no escapes: quotes, name and colon in one slot.
        if k.len() <= 16 && !needs_escape16(k.as_bytes()) {
            self.out.with_slot(|slot| {
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
        write_str(self.out, k);
        self.colon();
    }

    #[inline(always)]
    fn field_key(&mut self, name: FieldName) {
        // A plain name (known at compile time) goes between its quotes as it is, with the
        // colon, in one slot; anything else is escaped as any key.
        let k = name.as_str();
        if name.is_plain() && k.len() <= 28 {
            self.out.with_slot(|slot| {
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
            write_str(self.out, k);
            self.colon();
        }
    }

    #[inline(always)]
    fn int_key<N: Number>(&mut self, k: N) {
        self.out.push_ascii(b'"');
        write_number(self.out, k, self.float_style);
        self.out.push_ascii(b'"');
        self.colon();
    }

    #[inline(always)]
    fn enum_key(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.key(name);
    }

    #[inline(always)]
    fn end_object(&mut self) {
        self.close(b'{', b'}');
    }

    #[inline(always)]
    fn sep(&mut self) {
        self.out.push_ascii(b',');
        if PRETTY {
            newline_indent(self.out, self.level.saturating_mul(self.indent));
        }
    }

    #[inline]
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        if PRETTY {
            return self.array_of(items.iter(), |w, &x| w.number(x));
        }
        self.out.push_number_array(items, self.float_style);
    }

    #[inline]
    fn typed_rows<N: Number, const M: usize>(&mut self, rows: &[[N; M]]) {
        if PRETTY {
            return self.array_of(rows.iter(), |w, row| w.typed_array(row));
        }
        self.out.push_number_rows(rows, self.float_style);
    }

    #[inline]
    fn complex<N: Number>(&mut self, a: N, b: N) {
        // One line even when pretty: Glaze's layout of `std::complex`.
        self.out.push_ascii(b'[');
        write_number(self.out, a, self.float_style);
        self.out.push_ascii(b',');
        write_number(self.out, b, self.float_style);
        self.out.push_ascii(b']');
    }

    #[inline]
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        self.array_of(items, |w, x| w.number(x));
    }

    #[inline]
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        if PRETTY {
            return self.array_of(items, |w, x| w.bool(x));
        }
        let out = &mut *self.out;
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
        write_str(self.out, name);
    }

    fn raw_json(&mut self, text: &str) {
        // Verbatim in both layouts: re-indenting the fragment would change the text a reader
        // gives back as `RawJson`.
        self.out.push_str(text);
    }
}
