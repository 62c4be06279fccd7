//! Sequences of top-level values separated by the data delimiter (extension 0, byte `0x06`),
//! BEVE's counterpart of newline-delimited JSON.
//!
//! ```
//! use structio::beve::{Delimited, DelimitedWriter};
//!
//! let mut w = DelimitedWriter::new();
//! w.push(&1u32);
//! w.push(&"two");
//! let bytes = w.into_bytes();
//! assert_eq!(bytes, [0x51, 1, 0, 0, 0, 0x06, 0x02, 0x0C, b't', b'w', b'o']);
//!
//! let mut it = Delimited::new(&bytes);
//! assert_eq!(it.read::<u32>().unwrap().unwrap(), 1);
//! assert_eq!(it.read::<String>().unwrap().unwrap(), "two");
//! assert!(it.next().is_none());
//! ```

use super::header::DELIMITER;
use super::read::BeveReader;
use super::{write_beve_with, Options};
use crate::error::{Code, Error, Result};
use crate::reflect::{ReadOptions, Reflect};

/// Appends `v` to `out` as the next value of a delimited sequence: a `0x06` delimiter first
/// when `out` already holds something, then the value.
pub fn write_beve_delimited<'de, T: Reflect<'de>>(v: &T, out: &mut Vec<u8>) {
    if !out.is_empty() {
        out.push(DELIMITER);
    }
    write_beve_with(v, out, &Options::default());
}

/// `items` as one delimited sequence: each value in turn, a `0x06` delimiter between two and
/// none around them, as Glaze's `write_beve_delimited` writes a container.
pub fn to_delimited<'de, T: Reflect<'de>>(items: &[T]) -> Vec<u8> {
    let mut w = DelimitedWriter::new();
    for item in items {
        w.push(item);
    }
    w.into_bytes()
}

/// Reads every value of a delimited sequence into `out`, as Glaze's `read_beve_delimited`
/// fills a vector: the first `out.len()` values into the elements already there (buffers
/// reused), then new elements read with `Reflect::read_new`; `out` ends with one element per value.
/// Errors carry the value's index as the first step of the path (`$[2].a`). Two values without
/// a delimiter between them are an error (Glaze reads them).
pub fn read_delimited<'de, T>(
    out: &mut Vec<T>,
    input: &'de (impl AsRef<[u8]> + ?Sized),
) -> Result<()>
where
    T: Reflect<'de>,
{
    let mut seq = Delimited::new(input);
    crate::read::read_records(out, |k, held| {
        let read = match held {
            Some(v) => seq.read_into(v).map(|r| r.map(|()| None)),
            None => seq.read().map(|r| r.map(Some)),
        };
        read.map(|r| r.map_err(|e| e.push_path(crate::error::PathSegment::Index(k))))
    })
}

/// Every value of a delimited sequence, each read into a new `T` (see [`read_delimited`]).
pub fn from_delimited<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized)) -> Result<Vec<T>>
where
    T: Reflect<'de>,
{
    let mut out = Vec::new();
    read_delimited(&mut out, input)?;
    Ok(out)
}

/// Builds a delimited sequence of values.
#[derive(Debug, Default, Clone)]
pub struct DelimitedWriter {
    out: Vec<u8>,
    count: usize,
    opts: Options,
}

impl DelimitedWriter {
    /// An empty sequence.
    pub fn new() -> DelimitedWriter {
        DelimitedWriter::default()
    }

    /// An empty sequence written with `opts`.
    pub fn with_options(opts: Options) -> DelimitedWriter {
        DelimitedWriter {
            opts,
            ..DelimitedWriter::default()
        }
    }

    /// Appends one value (after a delimiter, unless it is the first).
    pub fn push<'de, T: Reflect<'de>>(&mut self, v: &T) {
        if self.count > 0 {
            self.out.push(DELIMITER);
        }
        write_beve_with(v, &mut self.out, &self.opts);
        self.count += 1;
    }

    /// How many values were pushed.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The bytes so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.out
    }

    /// The finished sequence.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }
}

/// Iterates over a delimited sequence of top-level BEVE values, yielding each value's bytes.
///
/// Values are separated by one `0x06`; one leading and one trailing delimiter are accepted (as
/// Glaze skips a leading one). Each value is checked as it is passed over; after an error the
/// iterator ends.
#[derive(Debug, Clone)]
pub struct Delimited<'de> {
    input: &'de [u8],
    pos: usize,
    opts: ReadOptions,
    first: bool,
    done: bool,
    /// Bytes re-read by untagged enums in the values read so far: the whole sequence shares
    /// one re-read budget (a multiple of its length), as one value does.
    reread: usize,
}

impl<'de> Delimited<'de> {
    /// Iterates over the values in `input`.
    pub fn new<I: AsRef<[u8]> + ?Sized>(input: &'de I) -> Delimited<'de> {
        Delimited::with_options(input, ReadOptions::default())
    }

    /// Iterates with `opts` (depth limit; used also when reading values with [`Self::read`]).
    pub fn with_options<I: AsRef<[u8]> + ?Sized>(
        input: &'de I,
        opts: ReadOptions,
    ) -> Delimited<'de> {
        Delimited {
            input: input.as_ref(),
            pos: 0,
            opts,
            first: true,
            done: false,
            reread: 0,
        }
    }

    /// Iterates over `input`, a window of a longer stream that starts at a value (`first`) or
    /// at the delimiter before one.
    pub(crate) fn resume(input: &'de [u8], opts: ReadOptions, first: bool) -> Delimited<'de> {
        Delimited {
            first,
            ..Delimited::with_options(input, opts)
        }
    }

    /// The byte offset of the next value (or delimiter).
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Reads the next value as a `T`; `None` at the end of the sequence. Error offsets count
    /// from the start of the whole sequence.
    pub fn read<T: Reflect<'de>>(&mut self) -> Option<Result<T>> {
        let mut v = crate::read::Fresh::new();
        self.read_into(&mut v).map(|r| r.and_then(|()| v.take()))
    }

    /// Reads the next value into `v` (members it leaves out keep their values, buffers are
    /// reused); `None` at the end of the sequence, `v` untouched.
    pub fn read_into<T: Reflect<'de>>(&mut self, v: &mut T) -> Option<Result<()>> {
        self.run(|this, start| {
            let mut r = BeveReader::new(this.input, this.opts);
            r.pos = start;
            r.reread = this.reread;
            let res = v.read(&mut r);
            this.reread = r.reread;
            res?;
            this.pos = r.pos;
            Ok(())
        })
    }

    /// Moves over the delimiter before the next value; the value's offset, or `None` at the
    /// end.
    fn advance(&mut self) -> Result<Option<usize>> {
        let len = self.input.len();
        if self.first {
            self.first = false;
            if self.input.first() == Some(&DELIMITER) {
                self.pos = 1;
            }
        } else if self.pos < len {
            if self.input[self.pos] != DELIMITER {
                return Err(Error::new(
                    Code::Malformed("expected a data delimiter (0x06) between values"),
                    self.pos,
                ));
            }
            self.pos += 1;
        }
        if self.pos >= len {
            return Ok(None);
        }
        if self.input[self.pos] == DELIMITER {
            return Err(Error::new(Code::ExpectedValue, self.pos));
        }
        Ok(Some(self.pos))
    }

    /// Runs `f` on the next value's offset, ending the iteration at the end or on an error.
    fn run<R>(&mut self, f: impl FnOnce(&mut Self, usize) -> Result<R>) -> Option<Result<R>> {
        if self.done {
            return None;
        }
        let res = match self.advance() {
            Ok(None) => {
                self.done = true;
                return None;
            }
            Ok(Some(start)) => f(self, start),
            Err(e) => Err(e),
        };
        self.done |= res.is_err();
        Some(res)
    }
}

impl<'de> Iterator for Delimited<'de> {
    type Item = Result<&'de [u8]>;

    fn next(&mut self) -> Option<Result<&'de [u8]>> {
        self.run(|this, start| {
            this.pos = super::skip::skip(this.input, start, 0, this.opts.max_depth)?;
            Ok(&this.input[start..this.pos])
        })
    }
}
