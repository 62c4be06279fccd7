//! Streaming JSON output: structio's [`JsonWriter`] over an [`IoSink`], compact or in Glaze's
//! pretty layout, optionally colored for a terminal (an ANSI [`Style`]).
//!
//! The output leaves in 64 KiB pieces, so converting a large BEVE file to JSON needs the input
//! and little else. The pretty layout is the one `structio::prettify` produces (the tests
//! compare the two).

use std::io::{self, Write};

use structio::json::{JsonWriter, Options, Style, Token};
use structio::{IoSink, Writer};

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

/// Keys and scalars in ANSI colors.
struct Ansi;

impl Style for Ansi {
    fn before(&mut self, t: Token) -> &str {
        match t {
            Token::Key => color::KEY,
            Token::String => color::STRING,
            Token::Number => color::NUMBER,
            Token::Bool => color::BOOL,
            Token::Null => color::NULL,
            _ => "",
        }
    }
    fn after(&mut self, _: Token) -> &str {
        color::RESET
    }
}

/// Something to write through a JSON [`Writer`] (a closure cannot be generic over the
/// writer's type).
pub trait Job {
    /// What the job returns.
    type Output;
    /// Writes through `w`.
    fn run<W: Writer>(self, w: &mut W) -> Self::Output;
}

/// Writes `job` as JSON text into `out` with `layout`. Returns the job's result and the
/// output, or the first I/O error.
pub fn stream<W: Write, J: Job>(out: W, layout: Layout, job: J) -> (J::Output, io::Result<W>) {
    let sink = IoSink::new(out);
    let opts = Options {
        indent: layout.indent,
        ..Options::default()
    };
    match (layout.pretty, layout.color) {
        (false, false) => run(JsonWriter::new(sink).options(&opts), job),
        (true, false) => run(JsonWriter::pretty(sink).options(&opts), job),
        (false, true) => run(JsonWriter::new(sink).options(&opts).style(Ansi), job),
        (true, true) => run(JsonWriter::pretty(sink).options(&opts).style(Ansi), job),
    }
}

fn run<W: Write, J: Job, const PRETTY: bool, St: Style>(
    mut w: JsonWriter<IoSink<W>, PRETTY, St>,
    job: J,
) -> (J::Output, io::Result<W>) {
    let r = job.run(&mut w);
    (r, w.into_inner().finish())
}

/// A [`Job`] writing one value.
pub struct Value<'v, T>(pub &'v T);

impl<'de, T: structio::Reflect<'de>> Job for Value<'_, T> {
    type Output = ();
    fn run<W: Writer>(self, w: &mut W) {
        self.0.write(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(v: &structio::Value, layout: Layout) -> String {
        let (_, out) = stream(Vec::new(), layout, Value(v));
        String::from_utf8(out.unwrap()).unwrap()
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
            let v: structio::Value = structio::from_json(text).unwrap();
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
        let v: structio::Value = structio::from_json(r#"{"k":[1,"s",true,null]}"#).unwrap();
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
        let v = structio::Value::from((0..100_000).map(|i| i as f64 * 0.5).collect::<Vec<f64>>());
        let (_, out) = stream(Sizes(Vec::new()), COMPACT, Value(&v));
        let sizes = out.unwrap().0;
        assert!(sizes.len() > 5, "{sizes:?}");
        assert!(sizes.iter().all(|&n| n < 2 * (1 << 16)), "{sizes:?}");
    }
}
