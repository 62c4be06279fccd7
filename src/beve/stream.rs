//! BEVE through `std::io`: [`to_writer`] and [`from_reader`] for one value, and delimited
//! sequences one value at a time ([`Delimited::from_reader`], a [`DelimitedReader`]) in memory
//! bounded by the longest value, however long the input.
//!
//! The reader keeps the input in a buffer of 64 KiB that grows only to hold a longer value. It
//! finds where a value ends by following its headers and sizes: a container's children (and a
//! string array's strings) one by one, any other value (a string, a typed array, a number)
//! whole as soon as all of its bytes are at hand, without looking at its contents. The walk resumes at the child it stopped at when more input
//! arrives, so a value costs one walk however it is cut. A declared length is never allocated:
//! the buffer grows with the bytes actually read, up to the limit (1 GiB unless set with
//! [`DelimitedReader::max_record_len`]), past which the value is an error of category
//! [`Limit`](crate::Category::Limit). The value is then read exactly as the in-memory reader
//! ([`Delimited`]) reads it, which checks it; errors give offsets in the whole stream.

use std::io::{Read, Write};

use super::header::{self, major, Keys, DELIMITER};
use super::skip::skip;
use super::transcode::{num_array, num_kind};
use super::{length_prefix as size, Delimited, Options};
use crate::error::{Code, Error, Result};
use crate::io::{read_all, Framed, Source, CHUNK};
use crate::reflect::{ReadOptions, Reflect};
use crate::ReflectOwned;

/// Writes `v` as BEVE to `w`, streamed through an [`IoSink`](crate::IoSink): the bytes go out in
/// 64 KiB chunks as they are made (an object or array whose count is only known at its end is
/// held until then), and `w` is flushed at the end. An I/O failure is an error of category
/// [`Io`](crate::Category::Io); what was written before it stays written.
///
/// ```
/// let mut out = Vec::new();
/// structio::beve::to_writer(&mut out, &7u8).unwrap();
/// assert_eq!(out, [0x11, 7]); // a u8 header, then the byte
/// ```
pub fn to_writer<'de, T: Reflect<'de>, W: Write>(w: W, v: &T) -> Result<()> {
    to_writer_with(w, v, &Options::default())
}

/// [`to_writer`] with options (aligned arrays, padded from the start of what is written;
/// null members).
///
/// ```
/// let aligned = structio::beve::Options { aligned_arrays: true, ..Default::default() };
/// let mut out = Vec::new();
/// structio::beve::to_writer_with(&mut out, &vec![1.0f64], &aligned).unwrap();
/// assert_eq!(out[0], structio::beve::header::ALIGNED_ARRAY);
/// ```
pub fn to_writer_with<'de, T: Reflect<'de>, W: Write>(w: W, v: &T, opts: &Options) -> Result<()> {
    crate::io::finish(super::write_to(v, crate::IoSink::new(w), opts))
}

/// Reads all of `r`, then a `T` from it as [`from_beve`](super::from_beve) does. An I/O
/// failure is an error of category [`Io`](crate::Category::Io) (no value is returned).
///
/// ```
/// let bytes = structio::to_beve(&vec![1.5f32, 2.5]);
/// let v: Vec<f32> = structio::beve::from_reader(&bytes[..]).unwrap();
/// assert_eq!(v, [1.5, 2.5]);
/// ```
pub fn from_reader<T: ReflectOwned, R: Read>(r: R) -> Result<T> {
    from_reader_with(r, &Options::default())
}

/// [`from_reader`] with options.
///
/// ```
/// let opts = structio::beve::Options {
///     read: structio::ReadOptions { max_depth: 1, ..Default::default() },
///     ..Default::default()
/// };
/// let bytes = structio::to_beve(&vec![vec![1u8]]);
/// let e = structio::beve::from_reader_with::<Vec<Vec<u8>>, _>(&bytes[..], &opts).unwrap_err();
/// assert_eq!(e.message(), "nesting deeper than the limit of 1");
/// ```
pub fn from_reader_with<T: ReflectOwned, R: Read>(r: R, opts: &Options) -> Result<T> {
    let bytes = read_all(r)?;
    super::from_beve_with(&bytes, opts)
}

/// A container whose children a [`Walk`] has not all passed.
#[derive(Debug, Clone, Copy)]
enum Open {
    /// A generic array with this many elements to come.
    Array(usize),
    /// An object with this many members to come, keys of this kind.
    Object(usize, Keys),
    /// A type tag, whose one value is to come.
    Tag,
    /// A string array with this many strings to come.
    Strs(usize),
}

/// Finds where the BEVE value at the start of a buffer ends, resuming at the child it stopped
/// at when the buffer has grown.
#[derive(Debug, Default)]
struct Walk {
    /// Containers entered and not left, outermost first.
    open: Vec<Open>,
    /// Where the next key or value starts.
    pos: usize,
    /// Whether a key comes next (of the innermost object).
    key: bool,
    /// Why the walk gave up ([`Framed::Whole`]): the error of the first malformed byte.
    error: Option<Error>,
}

impl Walk {
    /// Back to the start of a value (the stack keeps its room).
    fn reset(&mut self) {
        self.open.clear();
        self.pos = 0;
        self.key = false;
        self.error = None;
    }

    /// Where the value at the start of `s` ends, as far as `s` tells. [`Framed::Whole`] when
    /// the value is malformed (the error is kept): the reader is to take all of `s` and report
    /// the error.
    fn step(&mut self, s: &[u8], max_depth: usize) -> Framed {
        match self.walk(s, max_depth) {
            Ok(framed) => framed,
            Err(e) => {
                self.error = Some(e);
                Framed::Whole
            }
        }
    }

    /// [`Walk::step`], malformed values as errors.
    fn walk(&mut self, s: &[u8], max_depth: usize) -> Result<Framed> {
        loop {
            let depth = self.open.len();
            let at = self.pos;
            match self.open.last() {
                // A key, then its value.
                Some(&Open::Object(_, keys)) if self.key => {
                    let end = match keys {
                        Keys::Str => sized_end(s, at)?,
                        Keys::Int(k) => Some(at + k.size()).filter(|&e| e <= s.len()),
                    };
                    let Some(end) = end else {
                        return Ok(Framed::More);
                    };
                    self.pos = end;
                    self.key = false;
                    continue;
                }
                // A string of a string array (no header).
                Some(Open::Strs(_)) => match sized_end(s, at)? {
                    Some(end) => self.pos = end,
                    None => return Ok(Framed::More),
                },
                _ => {
                    let Some(&h) = s.get(at) else {
                        return Ok(Framed::More);
                    };
                    let container = major(h) == header::MAJOR_OBJECT
                        || h == header::GENERIC_ARRAY
                        || h == header::TYPE_TAG
                        || h == header::STR_ARRAY;
                    if container {
                        let keys = if major(h) == header::MAJOR_OBJECT {
                            Some(header::object_keys(h, at)?)
                        } else {
                            None
                        };
                        // The count (or the tag's index).
                        let mut p = at + 1;
                        let n = match size::read(s, &mut p) {
                            Ok(n) => n,
                            Err(e) if e.is_eof() => return Ok(Framed::More),
                            Err(e) => return Err(e),
                        };
                        if depth >= max_depth {
                            return Err(Error::new(Code::DepthLimit(max_depth), at));
                        }
                        self.pos = p;
                        let opened = match (h, keys) {
                            (header::TYPE_TAG, _) => Some(Open::Tag),
                            (_, Some(keys)) => (n > 0).then_some(Open::Object(n, keys)),
                            (header::STR_ARRAY, _) => (n > 0).then_some(Open::Strs(n)),
                            _ => (n > 0).then_some(Open::Array(n)),
                        };
                        if let Some(o) = opened {
                            self.key = matches!(o, Open::Object(..));
                            self.open.push(o);
                            continue;
                        }
                        // An empty container: a value that ended.
                    } else {
                        match atom_end(s, at, h, depth, max_depth)? {
                            Some(end) => self.pos = end,
                            None => return Ok(Framed::More),
                        }
                    }
                }
            }
            // A value ended: leave the containers it completes.
            loop {
                match self.open.last_mut() {
                    None => return Ok(Framed::Ends(self.pos)),
                    Some(Open::Array(left) | Open::Strs(left)) => {
                        *left -= 1;
                        if *left > 0 {
                            break;
                        }
                    }
                    Some(Open::Object(left, _)) => {
                        *left -= 1;
                        if *left > 0 {
                            self.key = true;
                            break;
                        }
                    }
                    Some(Open::Tag) => {}
                }
                self.open.pop();
            }
        }
    }
}

/// The end of the `SIZE | bytes` at `at` (a string without its header, a key), `None` while
/// its bytes are not all at hand. The bytes are not looked at: the reader checks their UTF-8.
#[inline]
fn sized_end(s: &[u8], at: usize) -> Result<Option<usize>> {
    let mut p = at;
    match size::read(s, &mut p) {
        Ok(n) => Ok((n <= s.len() - p).then_some(p + n)),
        Err(e) if e.is_eof() => Ok(None),
        Err(e) => Err(e),
    }
}

/// The end of the value at `at` whose header `h` is not a container's, `None` while its bytes
/// are not all at hand. Only lengths are looked at (the reader checks the rest); extension
/// values (matrices, complex numbers) and invalid headers go through the skip, which checks
/// them.
#[inline]
fn atom_end(s: &[u8], at: usize, h: u8, depth: usize, max_depth: usize) -> Result<Option<usize>> {
    let enter = || {
        if depth >= max_depth {
            return Err(Error::new(Code::DepthLimit(max_depth), at));
        }
        Ok(())
    };
    let end = match major(h) {
        header::MAJOR_NULL_BOOL if matches!(h, header::NULL | header::FALSE | header::TRUE) => {
            at + 1
        }
        header::MAJOR_NUMBER if num_kind(h, at).is_ok() => at + 1 + num_kind(h, at)?.size(),
        header::MAJOR_STRING if h == header::STRING => return sized_end(s, at + 1),
        header::MAJOR_TYPED_ARRAY if h == header::BOOL_ARRAY => {
            enter()?;
            let mut p = at + 1;
            match size::read(s, &mut p) {
                Ok(n) => p.saturating_add(n.div_ceil(8)),
                Err(e) if e.is_eof() => return Ok(None),
                Err(e) => return Err(e),
            }
        }
        header::MAJOR_TYPED_ARRAY if (h >> 3) & 3 != 3 || h == header::ALIGNED_ARRAY => {
            enter()?;
            return match num_array(s, at + 1, h, at) {
                Ok(a) => Ok(Some(a.end)),
                Err(e) if e.is_eof() => Ok(None),
                Err(e) => Err(e),
            };
        }
        _ => {
            return match skip(s, at, depth, max_depth) {
                Ok(end) => Ok(Some(end)),
                Err(e) if e.is_eof() => Ok(None),
                Err(e) => Err(e),
            }
        }
    };
    Ok((end <= s.len()).then_some(end))
}

/// A delimited BEVE sequence read from an [`std::io::Read`] one value at a time, in memory
/// bounded by the longest value (see [`Delimited::from_reader`]). Values are read as
/// [`Delimited`] reads them; errors give offsets in the whole stream. After an error the
/// iteration ends.
pub struct DelimitedReader<R> {
    src: Source<R>,
    opts: ReadOptions,
    /// Before the first value.
    first: bool,
    done: bool,
    /// Values handed out.
    index: usize,
    /// The walk over the value being gathered (kept for its stack).
    walk: Walk,
}

impl<R> std::fmt::Debug for DelimitedReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DelimitedReader")
            .field("offset", &(self.src.base + self.src.head))
            .field("index", &self.index)
            .field("done", &self.done)
            .finish()
    }
}

impl Delimited<'_> {
    /// The delimited sequence in `r`, one value at a time, in memory bounded by the longest
    /// value: the counterpart of [`Delimited::new`] for input too large to hold. `r` needs no
    /// buffering of its own. A value is handed out as soon as its last byte has been read.
    ///
    /// ```
    /// use structio::beve::{to_delimited, Delimited};
    ///
    /// let bytes = to_delimited(&[vec![1u16, 2], vec![3]]);
    /// let mut seq = Delimited::from_reader(std::io::Cursor::new(bytes));
    /// assert_eq!(seq.read::<Vec<u16>>().unwrap().unwrap(), [1, 2]);
    /// assert_eq!(seq.read::<Vec<u16>>().unwrap().unwrap(), [3]);
    /// assert!(seq.read::<Vec<u16>>().is_none());
    ///
    /// // Offsets in errors count from the start of the stream.
    /// let bytes = to_delimited(&[1u8, 2]);
    /// let mut seq = Delimited::from_reader(&bytes[..]);
    /// assert_eq!(seq.read::<u8>().unwrap().unwrap(), 1);
    /// let e = seq.read::<String>().unwrap().unwrap_err();
    /// assert_eq!(e.to_string(), "expected a string, found a number at byte 3");
    /// ```
    pub fn from_reader<R: Read>(r: R) -> DelimitedReader<R> {
        Delimited::from_reader_with(r, ReadOptions::default())
    }

    /// [`Delimited::from_reader`] with `opts` (depth limit, unknown keys, ...), used for every
    /// value.
    ///
    /// ```
    /// use structio::beve::{to_delimited, Delimited};
    ///
    /// let opts = structio::ReadOptions { max_depth: 1, ..Default::default() };
    /// let bytes = to_delimited(&[vec![vec![1u8]]]);
    /// let mut seq = Delimited::from_reader_with(&bytes[..], opts);
    /// assert!(seq.read::<Vec<Vec<u8>>>().unwrap().is_err());
    /// ```
    pub fn from_reader_with<R: Read>(r: R, opts: ReadOptions) -> DelimitedReader<R> {
        DelimitedReader {
            src: Source::new(r),
            opts,
            first: true,
            done: false,
            index: 0,
            walk: Walk::default(),
        }
    }
}

impl<R: Read> DelimitedReader<R> {
    /// Sets the longest value accepted, in bytes (default 1 GiB): a longer one is an error of
    /// category [`Limit`](crate::Category::Limit) once `bytes` of it have been read, whatever
    /// length it declares.
    ///
    /// ```
    /// let bytes = structio::beve::to_delimited(&[vec![0u8; 10], vec![0u8; 2000]]);
    /// let mut seq = structio::beve::Delimited::from_reader(&bytes[..]).max_record_len(1000);
    /// assert!(seq.read::<Vec<u8>>().unwrap().is_ok());
    /// let e = seq.read::<Vec<u8>>().unwrap().unwrap_err();
    /// assert_eq!(e.message(), "record larger than the limit of 1000 bytes");
    /// ```
    pub fn max_record_len(mut self, bytes: usize) -> DelimitedReader<R> {
        self.src.max_record = bytes;
        self
    }

    /// The stream offset of the next value (or delimiter).
    ///
    /// ```
    /// let bytes = structio::beve::to_delimited(&["ab", "c"]);
    /// let mut seq = structio::beve::Delimited::from_reader(&bytes[..]);
    /// seq.read::<String>().unwrap().unwrap();
    /// assert_eq!((seq.offset(), seq.index()), (4, 1));
    /// ```
    pub fn offset(&self) -> usize {
        self.src.offset()
    }

    /// How many values were handed out so far.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Reads the next value as a new `T`; `None` at the end of the sequence. `T` may borrow
    /// from the value (`&str`, `Cow<[f64]>`) until the next call.
    ///
    /// ```
    /// let bytes = structio::beve::to_delimited(&["ab", "c"]);
    /// let mut seq = structio::beve::Delimited::from_reader(&bytes[..]);
    /// let mut all = String::new();
    /// while let Some(s) = seq.read::<&str>() {
    ///     all.push_str(s.unwrap()); // borrowed from the reader's buffer
    /// }
    /// assert_eq!(all, "abc");
    /// ```
    pub fn read<'a, T: Reflect<'a>>(&'a mut self) -> Option<Result<T>> {
        let mut v = crate::read::Fresh::new();
        self.read_into(&mut v).map(|r| r.and_then(|()| v.take()))
    }

    /// Reads the next value into `v` (members it leaves out keep their values, buffers are
    /// reused); `None` at the end of the sequence, `v` untouched.
    ///
    /// ```
    /// let bytes = structio::beve::to_delimited(&[vec![1u16, 2], vec![3]]);
    /// let mut seq = structio::beve::Delimited::from_reader(&bytes[..]);
    /// let mut v = Vec::new();
    /// let mut sum = 0;
    /// while let Some(r) = seq.read_into(&mut v) {
    ///     r.unwrap();
    ///     sum += v.iter().sum::<u16>();
    /// }
    /// assert_eq!(sum, 6);
    /// ```
    pub fn read_into<'a, T: Reflect<'a>>(&'a mut self, v: &mut T) -> Option<Result<()>> {
        if self.done {
            return None;
        }
        let (n, malformed) = match self.frame() {
            Ok(framed) => framed,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let h = self.src.head;
        let at = self.src.offset();
        let cut = !self.src.at_eof();
        let buf: &'a [u8] = &self.src.buf;
        let mut seq = Delimited::resume(&buf[h..h + n], self.opts, self.first);
        let res = seq.read_into(v);
        match &res {
            Some(Ok(())) => {
                self.src.head = h + seq.offset();
                self.first = false;
                self.index += 1;
            }
            _ => self.done = true,
        }
        res.map(|r| {
            r.map_err(|e| match malformed {
                // The reader ran into the end of the bytes at hand before the error the walk
                // found (it checks a container's count against the bytes left): that error
                // is the one the whole input gives.
                Some(m) if e.is_eof() && cut => m,
                _ => e,
            })
            .map_err(|e| e.shift(at, 1, 1))
        })
    }

    /// Gathers the delimiter and the value after it: their length at the start of the data
    /// (all of the data when [`Delimited`] is to report an error or the end), and the error
    /// of a malformed value.
    fn frame(&mut self) -> Result<(usize, Option<Error>)> {
        while self.src.data().is_empty() {
            if !self.src.fill()? {
                return Ok((0, None));
            }
        }
        let lead = self.src.data()[0] == DELIMITER;
        if !self.first && !lead {
            return Ok((self.src.data().len(), None));
        }
        let start = usize::from(lead);
        while self.src.data().len() <= start {
            if !self.src.fill()? {
                return Ok((self.src.data().len(), None));
            }
        }
        let max_depth = self.opts.max_depth;
        self.walk.reset();
        // (Moving the data to the front of the buffer keeps its offset in the stream.)
        let at = self.src.offset();
        let too_long = move |e: Error| e.shift(at, 1, 1);
        loop {
            let data = self.src.data();
            match self.walk.step(&data[start..], max_depth) {
                Framed::Ends(n) => {
                    self.src.check_record(start, n).map_err(too_long)?;
                    return Ok((start + n, None));
                }
                Framed::Whole => {
                    let e = self.walk.error.take().map(|e| e.shift(start, 1, 1));
                    // The reader checks a container's count against the bytes left: give it
                    // some more, so that most likely they are all it would see in memory.
                    let want = data.len() + CHUNK;
                    self.src.read_ahead(want)?;
                    return Ok((self.src.data().len(), e));
                }
                Framed::More => {}
            }
            self.src
                .check_record(start, data.len() - start)
                .map_err(too_long)?;
            if !self.src.fill()? {
                return Ok((self.src.data().len(), None));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The golden BEVE documents (every header kind Glaze writes) and a few built here.
    fn docs() -> Vec<Vec<u8>> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/formats/beve");
        let mut docs: Vec<Vec<u8>> = std::fs::read_dir(format!("{root}/bench"))
            .unwrap()
            .chain(std::fs::read_dir(format!("{root}/exchange")).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "beve"))
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        docs.push(crate::to_beve_aligned(&vec![1.5f64; 9]).to_vec());
        docs.push(crate::to_beve(&std::collections::BTreeMap::from([(
            7u16,
            vec![true; 9],
        )])));
        // A type tag around an object with an empty array and a string array.
        docs.push(vec![
            0x0E, 0x04, 0x03, 0x08, 0x04, b'a', 0x05, 0x00, 0x04, b'b', 0x3C, 0x04, 0x04, b'x',
        ]);
        docs
    }

    /// The walk ends where the skip ends, fed at once or a few bytes at a time, and asks for
    /// more at every cut.
    #[test]
    fn the_walk_ends_where_the_value_ends() {
        for doc in docs() {
            let end = skip(&doc, 0, 0, 256).unwrap();
            for piece in [1, 5, 4096, doc.len()] {
                let mut walk = Walk::default();
                let mut have = 0;
                let got = loop {
                    have = (have + piece).min(doc.len());
                    match walk.step(&doc[..have], 256) {
                        Framed::Ends(n) => break n,
                        Framed::More => assert!(have < doc.len()),
                        Framed::Whole => panic!("whole at {have}: {:?}", walk.error),
                    }
                };
                assert_eq!(got, end, "in pieces of {piece}");
            }
        }
    }

    #[test]
    fn malformed_values_stop_the_walk_with_their_error() {
        let cases: &[(&[u8], &str)] = &[
            (&[0x05, 0x08, 0x00, 0x07], "invalid header byte 0x07"),
            (&[0x05, 0x04, 0x06], "data delimiter (0x06) inside a value"),
            (&[0x0A, 0x00], "invalid header byte 0x0A"),
            (
                &[0x05, 0x04, 0x05, 0x04, 0x05, 0x04, 0x00],
                "nesting deeper than the limit of 2",
            ),
        ];
        for (bytes, msg) in cases {
            let mut walk = Walk::default();
            assert_eq!(walk.step(bytes, 2), Framed::Whole, "{bytes:02X?}");
            assert_eq!(walk.error.unwrap().message(), *msg);
        }
        // Strings are not looked into: their UTF-8 is the reader's to check.
        assert_eq!(
            Walk::default().step(&[0x03, 0x04, 0x04, 0xFF, 0x00], 256),
            Framed::Ends(5)
        );
        // A huge declared count only asks for more bytes.
        let mut huge = vec![0x05];
        huge.extend_from_slice(&[0xFF; 8]);
        huge.push(0x00);
        assert_eq!(Walk::default().step(&huge, 256), Framed::More);
    }
}
