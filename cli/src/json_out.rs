//! [`JsonOut`]: a JSON [`Writer`] that streams into any [`io::Write`], compact or in Glaze's
//! pretty layout, optionally colored for a terminal.
//!
//! structio's own JSON writer appends to a `Vec<u8>`, which would hold the whole output in
//! memory. This one lays out the structure itself and asks structio only for the text of each
//! scalar (numbers, escaped strings), so the output leaves in 64 KiB pieces: converting a large
//! BEVE file to JSON needs the input and little else. The pretty layout is the one
//! `structio::prettify` produces (the tests compare the two).

use std::io::{self, Write};

use structio::value::Num;
use structio::{KeyKind, NumKind, Number, Value, Writer};

/// Bytes gathered before they are written out.
const CHUNK: usize = 1 << 16;

/// How the JSON text is laid out.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Glaze's pretty layout (one element per line) instead of compact text.
    pub pretty: bool,
    /// Spaces per nesting level when pretty.
    pub indent: usize,
    /// Wrap keys and scalars in ANSI color escapes.
    pub color: bool,
}

/// ANSI colors of the token kinds.
pub mod color {
    pub const KEY: &str = "\x1b[1;34m";
    pub const STRING: &str = "\x1b[32m";
    pub const NUMBER: &str = "\x1b[36m";
    pub const BOOL: &str = "\x1b[33m";
    pub const NULL: &str = "\x1b[90m";
    pub const RESET: &str = "\x1b[0m";
}

/// A streaming JSON writer. The first I/O error is kept and returned by [`JsonOut::finish`]
/// (the [`Writer`] methods cannot return one).
pub struct JsonOut<W: Write> {
    out: W,
    buf: Vec<u8>,
    layout: Layout,
    /// Containers open.
    level: usize,
    /// An opener or a comma was just written: the next token goes on a new line (pretty).
    newline_due: bool,
    /// Nothing has been written into the innermost open container yet.
    empty: bool,
    error: Option<io::Error>,
}

impl<W: Write> JsonOut<W> {
    /// A writer into `out`.
    pub fn new(out: W, layout: Layout) -> JsonOut<W> {
        JsonOut {
            out,
            buf: Vec::with_capacity(CHUNK + 1024),
            layout,
            level: 0,
            newline_due: false,
            empty: false,
            error: None,
        }
    }

    /// Writes what is left and gives the output back, or the first I/O error.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush_buf();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }

    fn flush_buf(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }

    fn newline_indent(&mut self, level: usize) {
        self.buf.push(b'\n');
        let n = level * self.layout.indent;
        self.buf.resize(self.buf.len() + n, b' ');
    }

    /// Called before every key and every value: the pending line break, and a flush when
    /// enough has gathered.
    #[inline]
    fn token(&mut self) {
        if self.buf.len() >= CHUNK {
            self.flush_buf();
        }
        if self.newline_due {
            self.newline_due = false;
            self.newline_indent(self.level);
        }
        self.empty = false;
    }

    fn paint(&mut self, c: &'static str) {
        if self.layout.color {
            self.buf.extend_from_slice(c.as_bytes());
        }
    }

    fn unpaint(&mut self) {
        if self.layout.color {
            self.buf.extend_from_slice(color::RESET.as_bytes());
        }
    }

    fn open(&mut self, c: u8) {
        self.token();
        self.buf.push(c);
        self.level += 1;
        self.empty = true;
        self.newline_due = self.layout.pretty;
    }

    fn close(&mut self, c: u8) {
        self.level = self.level.saturating_sub(1);
        self.newline_due = false;
        if self.layout.pretty && !self.empty {
            self.newline_indent(self.level);
        }
        self.empty = false;
        self.buf.push(c);
    }

    fn colon(&mut self) {
        if self.layout.pretty {
            self.buf.extend_from_slice(b": ");
        } else {
            self.buf.push(b':');
        }
    }

    /// The JSON text of a number, as structio writes it.
    fn number_text<N: Number>(&mut self, v: N) {
        match Num::from_wire(v.to_wire(), N::KIND) {
            Some(n) => structio::write_json(&Value::Number(n), &mut self.buf),
            None => self.buf.extend_from_slice(b"null"),
        }
    }

    /// Writes `items` as one array, `each` writing one element.
    fn array_of<T>(
        &mut self,
        items: impl ExactSizeIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T),
    ) {
        self.open(b'[');
        for (i, x) in items.enumerate() {
            if i > 0 {
                self.sep();
            }
            each(self, x);
        }
        self.close(b']');
    }
}

impl<W: Write> Writer for JsonOut<W> {
    fn write_null_members(&self) -> bool {
        false
    }

    fn null(&mut self) {
        self.token();
        self.paint(color::NULL);
        self.buf.extend_from_slice(b"null");
        self.unpaint();
    }

    fn bool(&mut self, v: bool) {
        self.token();
        self.paint(color::BOOL);
        self.buf
            .extend_from_slice(if v { &b"true"[..] } else { &b"false"[..] });
        self.unpaint();
    }

    fn number<N: Number>(&mut self, v: N) {
        self.token();
        self.paint(color::NUMBER);
        self.number_text(v);
        self.unpaint();
    }

    fn str(&mut self, v: &str) {
        self.token();
        self.paint(color::STRING);
        structio::write_json(&v, &mut self.buf);
        self.unpaint();
    }

    fn begin_array(&mut self, _len: usize) {
        self.open(b'[');
    }

    fn end_array(&mut self) {
        self.close(b']');
    }

    fn begin_map(&mut self, _len: usize, _keys: KeyKind) {
        self.open(b'{');
    }

    fn key(&mut self, k: &str) {
        self.token();
        self.paint(color::KEY);
        structio::write_json(&k, &mut self.buf);
        self.unpaint();
        self.colon();
    }

    fn int_key<N: Number>(&mut self, k: N) {
        self.token();
        self.paint(color::KEY);
        self.buf.push(b'"');
        self.number_text(k);
        self.buf.push(b'"');
        self.unpaint();
        self.colon();
    }

    fn enum_key(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.key(name);
    }

    fn end_object(&mut self) {
        self.close(b'}');
    }

    fn sep(&mut self) {
        self.buf.push(b',');
        self.newline_due = self.layout.pretty;
    }

    fn typed_array<N: Number>(&mut self, items: &[N]) {
        self.array_of(items.iter(), |w, &x| w.number(x));
    }

    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        self.array_of(items, |w, x| w.number(x));
    }

    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        self.array_of(items, |w, x| w.bool(x));
    }

    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.array_of(items, |w, x| w.str(x));
    }

    fn unit_variant(&mut self, name: &str, _value: i128, _repr: NumKind) {
        self.str(name);
    }

    fn raw_json(&mut self, text: &str) {
        self.token();
        self.buf.extend_from_slice(text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(v: &Value, layout: Layout) -> String {
        let mut w = JsonOut::new(Vec::new(), layout);
        structio::Reflect::write(v, &mut w);
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    const PRETTY: Layout = Layout {
        pretty: true,
        indent: 3,
        color: false,
    };
    const COMPACT: Layout = Layout {
        pretty: false,
        indent: 3,
        color: false,
    };

    #[test]
    fn layouts_match_structio() {
        for text in [
            r#"{"a":[1,{}],"b":{},"c":[],"d":[[],[[1]],{"x":null}],"e":"s\n\"","f":-1.5E-7}"#,
            "[]",
            "{}",
            "3",
            r#"[[[[]]],true,false,null]"#,
        ] {
            let v: Value = structio::from_json(text).unwrap();
            assert_eq!(write(&v, COMPACT), structio::to_json(&v), "{text}");
            assert_eq!(
                write(&v, PRETTY),
                structio::prettify(&structio::to_json(&v)).unwrap(),
                "{text}"
            );
        }
    }

    #[test]
    fn color_wraps_scalars_and_keys_only() {
        let v: Value = structio::from_json(r#"{"k":[1,"s",true,null]}"#).unwrap();
        let out = write(
            &v,
            Layout {
                color: true,
                ..COMPACT
            },
        );
        assert_eq!(
            out,
            "{\x1b[1;34m\"k\"\x1b[0m:[\x1b[36m1\x1b[0m,\x1b[32m\"s\"\x1b[0m,\x1b[33mtrue\x1b[0m,\x1b[90mnull\x1b[0m]}"
        );
    }

    #[test]
    fn output_leaves_in_pieces() {
        /// Records the size of every write.
        struct Sizes(Vec<usize>);
        impl Write for Sizes {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.push(b.len());
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let v = Value::from((0..100_000).map(|i| i as f64 * 0.5).collect::<Vec<f64>>());
        let mut w = JsonOut::new(Sizes(Vec::new()), COMPACT);
        structio::Reflect::write(&v, &mut w);
        let sizes = w.finish().unwrap().0;
        assert!(sizes.len() > 5, "{sizes:?}");
        assert!(sizes.iter().all(|&n| n < 2 * CHUNK), "{sizes:?}");
    }
}
