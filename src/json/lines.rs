//! Newline-delimited JSON (NDJSON, JSON Lines): one value per line, as Glaze's `write_ndjson`
//! writes it and `read_ndjson` reads it.
//!
//! ```
//! use structio::json::{from_ndjson, to_ndjson, JsonLines};
//!
//! #[derive(structio::Reflect, Default, Debug, PartialEq)]
//! struct Event { id: u32, kind: String }
//!
//! let events = vec![
//!     Event { id: 1, kind: "open".into() },
//!     Event { id: 2, kind: "close".into() },
//! ];
//! let text = to_ndjson(&events);
//! assert_eq!(text, "{\"id\":1,\"kind\":\"open\"}\n{\"id\":2,\"kind\":\"close\"}");
//! assert_eq!(from_ndjson::<Event>(&text).unwrap(), events);
//!
//! // One record at a time, each of its own type if need be.
//! let mut lines = JsonLines::new("{\"id\":7,\"kind\":\"x\"}\r\n\n[1,2]\n");
//! assert_eq!(lines.read::<Event>().unwrap().unwrap().id, 7);
//! assert_eq!(lines.read::<Vec<u8>>().unwrap().unwrap(), [1, 2]);
//! assert!(lines.read::<Event>().is_none());
//! ```
//!
//! Writing puts one line break (`\n`) between two records and none after the last, as Glaze
//! does (push a final `\n` yourself if a consumer wants one; reading accepts it). Records are
//! always compact, whatever `Options::pretty` says.
//!
//! Reading accepts any JSON whitespace around records, `\n` and `\r\n` line ends, blank lines,
//! and a record that spans lines (a pretty-printed value). Two records must be separated by at
//! least one `\n`: `{} {}` on one line is an error (Glaze reads it as two records). Errors give
//! the offset, line and column in the whole input, and the record's index as the first step
//! of the path (`$[3].id`).

use super::out::Out;
use super::read::JsonReader;
use super::skip::{is_ws, walk, NoEmit};
use super::write::JsonWriter;
use super::Options;
use crate::error::{Code, Error, PathSegment, Result};
use crate::reflect::{ReadOptions, Reader, Reflect};

/// Appends `items` to `out` as NDJSON: one compact record per item, `\n` between two records
/// (none after the last, as Glaze writes). An empty slice appends nothing.
pub fn write_ndjson<'de, T: Reflect<'de>>(items: &[T], out: &mut Vec<u8>) {
    write_ndjson_with(items, out, &Options::DEFAULT)
}

/// [`write_ndjson`] with options (float style, null members); `pretty` is ignored, since a
/// record must stay on one line.
pub fn write_ndjson_with<'de, T: Reflect<'de>>(items: &[T], out: &mut Vec<u8>, opts: &Options) {
    write_records(items, out, opts);
}

/// Appends `items` to `out`, one compact record each, `\n` between two.
fn write_records<'de, T: Reflect<'de>, O: crate::sink::TextSink>(
    items: &[T],
    out: &mut O,
    opts: &Options,
) {
    for (i, item) in items.iter().enumerate() {
        push_record(item, i > 0, out, opts);
    }
}

/// Appends `v` to `out` as one compact record, after a line break when `lead`.
fn push_record<'de, T: Reflect<'de>, O: crate::sink::TextSink>(
    v: &T,
    lead: bool,
    out: &mut O,
    opts: &Options,
) {
    if lead {
        out.text().push_ascii(b'\n');
    }
    v.write(&mut JsonWriter::<_, false>::with_options(out, opts));
}

/// `items` as NDJSON text (see [`write_ndjson`]).
pub fn to_ndjson<'de, T: Reflect<'de>>(items: &[T]) -> String {
    to_ndjson_with(items, &Options::DEFAULT)
}

/// [`to_ndjson`] with options; `pretty` is ignored.
pub fn to_ndjson_with<'de, T: Reflect<'de>>(items: &[T], opts: &Options) -> String {
    let mut out = String::new();
    write_records(items, &mut out, opts);
    out
}

/// Reads every record of NDJSON `input` into `out`: the first `out.len()` records into the
/// elements already there (members a record leaves out keep their values, buffers are
/// reused), then new elements read with `Reflect::read_new`; `out` ends with one element per record.
/// On an error, `out` holds the records before the bad one (and possibly part of it).
pub fn read_ndjson<'de, T>(out: &mut Vec<T>, input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<()>
where
    T: Reflect<'de>,
{
    read_ndjson_with(out, input, &Options::DEFAULT)
}

/// [`read_ndjson`] with options (unknown keys, depth limit, ...).
pub fn read_ndjson_with<'de, T>(
    out: &mut Vec<T>,
    input: &'de (impl AsRef<[u8]> + ?Sized),
    opts: &Options,
) -> Result<()>
where
    T: Reflect<'de>,
{
    let mut lines = JsonLines::with_options(input, opts.read);
    crate::read::read_records(out, |_, held| match held {
        Some(v) => lines.read_into(v).map(|r| r.map(|()| None)),
        None => lines.read().map(|r| r.map(Some)),
    })
}

/// All records of NDJSON `input`, each read into a new `T` (see [`read_ndjson`]).
pub fn from_ndjson<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<Vec<T>>
where
    T: Reflect<'de>,
{
    let mut out = Vec::new();
    read_ndjson(&mut out, input)?;
    Ok(out)
}

/// Builds NDJSON text one record at a time (the counterpart of
/// [`DelimitedWriter`](crate::beve::DelimitedWriter) for BEVE).
#[derive(Debug, Default, Clone)]
pub struct LinesWriter {
    out: Vec<u8>,
    count: usize,
    opts: Options,
}

impl LinesWriter {
    /// An empty sequence.
    pub fn new() -> LinesWriter {
        LinesWriter::default()
    }

    /// An empty sequence written with `opts` (`pretty` is ignored).
    pub fn with_options(opts: Options) -> LinesWriter {
        LinesWriter {
            opts,
            ..LinesWriter::default()
        }
    }

    /// Appends one record, after a line break unless it is the first.
    pub fn push<'de, T: Reflect<'de>>(&mut self, v: &T) {
        push_record(v, self.count > 0, &mut self.out, &self.opts);
        self.count += 1;
    }

    /// How many records were pushed.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The text so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.out
    }

    /// The finished text.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }
}

/// Iterates over the records of NDJSON text: [`read`](Self::read) and
/// [`read_into`](Self::read_into) read the next record into a type; as an [`Iterator`] it
/// yields each record's bytes, checked to be well-formed JSON. After an error the iteration
/// ends.
pub struct JsonLines<'de> {
    reader: JsonReader<'de, 'de>,
    input: &'de [u8],
    /// Where the previous record ended (0 before the first).
    pos: usize,
    /// How many records were handed out.
    index: usize,
    done: bool,
}

impl std::fmt::Debug for JsonLines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLines")
            .field("offset", &self.pos)
            .field("index", &self.index)
            .field("done", &self.done)
            .finish()
    }
}

impl<'de> JsonLines<'de> {
    /// Iterates over the records of `input`.
    pub fn new<I: AsRef<[u8]> + ?Sized>(input: &'de I) -> JsonLines<'de> {
        JsonLines::with_options(input, ReadOptions::default())
    }

    /// Iterates with `opts` (unknown keys, depth limit, ...), used for every record.
    pub fn with_options<I: AsRef<[u8]> + ?Sized>(
        input: &'de I,
        opts: ReadOptions,
    ) -> JsonLines<'de> {
        let input = input.as_ref();
        JsonLines {
            reader: JsonReader::new(input, opts),
            input,
            pos: 0,
            index: 0,
            done: false,
        }
    }

    /// The byte offset where the previous record ended (0 before the first).
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// How many records were handed out so far.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Reads the next record as a new `T`; `None` at the end.
    pub fn read<T: Reflect<'de>>(&mut self) -> Option<Result<T>> {
        let mut v = crate::read::Fresh::new();
        self.read_into(&mut v).map(|r| r.and_then(|()| v.take()))
    }

    /// Reads the next record into `v` (members it leaves out keep their values, buffers are
    /// reused); `None` at the end, `v` untouched.
    pub fn read_into<T: Reflect<'de>>(&mut self, v: &mut T) -> Option<Result<()>> {
        self.run(|this, start| {
            this.reader.seek(start);
            v.read(&mut this.reader)?;
            Ok(this.reader.pos())
        })
        .map(|r| r.map(drop))
    }

    /// Finds the next record, runs `f` on its offset (returning where it ends), and moves
    /// past it, giving its start and end; `None` at the end. Errors are located in the whole
    /// input and carry the record's index.
    fn run(
        &mut self,
        f: impl FnOnce(&mut Self, usize) -> Result<usize>,
    ) -> Option<Result<(usize, usize)>> {
        if self.done {
            return None;
        }
        let res = match self.next_start() {
            Ok(None) => {
                self.done = true;
                return None;
            }
            Ok(Some(start)) => f(self, start)
                .map_err(|e| e.push_path(PathSegment::Index(self.index)))
                .map(|end| {
                    // The reader may have moved over whitespace after the value; the record
                    // ends at its last byte, which is not whitespace.
                    let mut end = end;
                    while end > start && is_ws(self.input[end - 1]) {
                        end -= 1;
                    }
                    self.pos = end;
                    self.index += 1;
                    (start, end)
                }),
            Err(e) => Err(e),
        };
        let res = res.map_err(|e| e.locate_in_text(self.input));
        self.done |= res.is_err();
        Some(res)
    }

    /// The offset of the next record, `None` when only whitespace is left; an error when the
    /// previous record is followed on its line by something else.
    fn next_start(&self) -> Result<Option<usize>> {
        // No record has ended before the first (`pos` is 0 only there).
        let (i, line_break) = skip_gap(self.input, self.pos, self.pos == 0);
        if i == self.input.len() {
            return Ok(None);
        }
        if !line_break {
            return Err(same_line(i));
        }
        Ok(Some(i))
    }

    /// Iterates over `input`, a window of a longer stream that starts at a record (the stream
    /// reader has passed the whitespace before it and checked its line break), as if `index`
    /// records came before it: errors carry the record's index in the whole stream.
    pub(crate) fn resume(input: &'de [u8], opts: ReadOptions, index: usize) -> JsonLines<'de> {
        JsonLines {
            index,
            ..JsonLines::with_options(input, opts)
        }
    }
}

/// Moves over the whitespace between two records from `i`: the offset of the first other
/// byte (`s.len()` if none), and whether a line break was passed (or `line_break` already).
pub(super) fn skip_gap(s: &[u8], mut i: usize, mut line_break: bool) -> (usize, bool) {
    while let Some(&b) = s.get(i) {
        if !is_ws(b) {
            break;
        }
        line_break |= b == b'\n';
        i += 1;
    }
    (i, line_break)
}

/// The error for a record at `at` that follows the previous one on its line.
#[cold]
pub(super) fn same_line(at: usize) -> Error {
    Error::new(
        Code::Malformed("expected a line break after the record"),
        at,
    )
}

impl<'de> Iterator for JsonLines<'de> {
    type Item = Result<&'de [u8]>;

    /// The next record's bytes (from its first byte to its last, no whitespace), checked to be
    /// one well-formed JSON value within the depth limit.
    fn next(&mut self) -> Option<Result<&'de [u8]>> {
        let input = self.input;
        self.run(|this, start| {
            let max_depth = this.reader.options().max_depth;
            walk(input, this.reader.text(), start, 0, max_depth, &mut NoEmit)
        })
        .map(|r| r.map(|(start, end)| &input[start..end]))
    }
}
