//! Where writers put their output: the [`Sink`] trait (bytes, for BEVE) and [`TextSink`] (text,
//! for JSON), implemented by `Vec<u8>` and by [`IoSink`], which streams into any
//! [`std::io::Write`] in 64 KiB chunks; [`Counter`] only counts bytes.
//!
//! ```
//! use structio::beve::BeveWriter;
//! use structio::json::JsonWriter;
//! use structio::{IoSink, Reflect};
//!
//! let v = vec![(1, "a"), (2, "b")];
//! // JSON into any `io::Write` (a file, a socket, stdout), without the whole text in memory.
//! let mut w = JsonWriter::new(IoSink::new(Vec::new()));
//! v.write(&mut w);
//! let json = w.into_inner().finish().unwrap();
//! assert_eq!(json, br#"[[1,"a"],[2,"b"]]"#);
//! // BEVE the same way.
//! let mut w = BeveWriter::new(IoSink::new(Vec::new()));
//! v.write(&mut w);
//! assert_eq!(w.into_inner().finish().unwrap(), structio::to_beve(&v));
//! ```

use std::io::{self, Write};

pub(crate) mod sealed {
    pub trait Sealed {
        /// Replaces the `old` bytes at offset `at` of the output with `new`; the bytes after
        /// them move when the lengths differ. For BEVE's count of a container whose count was
        /// known only at its end (see [`crate::Writer::begin_open`]).
        fn replace_at(&mut self, at: usize, old: usize, new: &[u8]);
        /// Keeps everything written from now on reachable by [`Sealed::replace_at`] until the
        /// matching [`Sealed::release`] (an [`crate::IoSink`] writes none of it out). Nests.
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
        fn hold(&mut self) {}
        /// Ends a [`Sealed::hold`].
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
        fn release(&mut self) {}
    }

    /// The text side of a sink: where the JSON writer's stores go.
    pub trait Text {
        /// The buffer the text is appended to.
        type Out: crate::json::out::Out;
        /// That buffer.
        fn text(&mut self) -> &mut Self::Out;
    }
}

/// A byte sink: what a [`crate::beve::BeveWriter`] writes into. Sealed: implemented for
/// `Vec<u8>`, [`crate::AlignedBytes`], [`Counter`], [`IoSink`] and `&mut` any of them.
pub trait Sink: sealed::Sealed {
    /// The offset of the next byte from the start of the output; aligned arrays pad relative
    /// to it.
    fn pos(&self) -> usize;
    /// Appends one byte.
    fn push(&mut self, b: u8);
    /// Appends bytes.
    fn extend(&mut self, b: &[u8]);
    /// Appends `n` zero bytes.
    fn zeros(&mut self, n: usize);
    /// Makes room for `n` more bytes.
    fn reserve(&mut self, n: usize);
}

/// A text sink: what a [`crate::json::JsonWriter`] writes into. Sealed: implemented for
/// `Vec<u8>`, `String`, [`IoSink`] and `&mut` any of them. It has no methods of its own; the
/// writer appends through fixed-size stores that each sink implements its own way.
pub trait TextSink: sealed::Text {}
impl<T: sealed::Text + ?Sized> TextSink for T {}

impl<S: Sink + ?Sized> sealed::Sealed for &mut S {
    #[inline]
    fn replace_at(&mut self, at: usize, old: usize, new: &[u8]) {
        (**self).replace_at(at, old, new)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn hold(&mut self) {
        (**self).hold()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn release(&mut self) {
        (**self).release()
    }
}
impl<S: Sink + ?Sized> Sink for &mut S {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pos(&self) -> usize {
        (**self).pos()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, b: u8) {
        (**self).push(b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn extend(&mut self, b: &[u8]) {
        (**self).extend(b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn zeros(&mut self, n: usize) {
        (**self).zeros(n)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        (**self).reserve(n)
    }
}

impl<T: sealed::Text + ?Sized> sealed::Text for &mut T {
    type Out = T::Out;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(&mut self) -> &mut T::Out {
        (**self).text()
    }
}

impl sealed::Sealed for Vec<u8> {
    #[inline]
    fn replace_at(&mut self, at: usize, old: usize, new: &[u8]) {
        if old == new.len() {
            self[at..at + old].copy_from_slice(new);
        } else {
            self.splice(at..at + old, new.iter().copied());
        }
    }
}
impl Sink for Vec<u8> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pos(&self) -> usize {
        self.len()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, b: u8) {
        Vec::push(self, b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn extend(&mut self, b: &[u8]) {
        self.extend_from_slice(b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn zeros(&mut self, n: usize) {
        self.resize(self.len() + n, 0)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n)
    }
}

impl sealed::Text for Vec<u8> {
    type Out = Vec<u8>;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(&mut self) -> &mut Vec<u8> {
        self
    }
}

impl sealed::Text for String {
    type Out = String;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(&mut self) -> &mut String {
        self
    }
}

/// A sink that keeps no bytes and counts them: `BeveWriter<Counter>` computes the exact size
/// of an encoding, padding of aligned arrays included.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counter(pub usize);

impl sealed::Sealed for Counter {
    #[inline]
    fn replace_at(&mut self, _at: usize, old: usize, new: &[u8]) {
        self.0 = self.0 - old + new.len();
    }
}
impl Sink for Counter {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pos(&self) -> usize {
        self.0
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, _: u8) {
        self.0 += 1
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn extend(&mut self, b: &[u8]) {
        self.0 += b.len()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn zeros(&mut self, n: usize) {
        self.0 += n
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, _: usize) {}
}

impl sealed::Sealed for crate::AlignedBytes {
    #[inline]
    fn replace_at(&mut self, at: usize, old: usize, new: &[u8]) {
        self.replace_range(at, old, new)
    }
}
impl Sink for crate::AlignedBytes {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pos(&self) -> usize {
        self.len()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, b: u8) {
        self.extend_from_slice(&[b])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn extend(&mut self, b: &[u8]) {
        self.extend_from_slice(b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn zeros(&mut self, n: usize) {
        self.extend_zeros(n)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        self.reserve(n)
    }
}

/// Bytes an [`IoSink`] gathers before it writes them out.
const CHUNK: usize = 1 << 16;

/// A sink that streams into an [`io::Write`]: the output is gathered in a buffer and written
/// out in pieces of about 64 KiB, so writing a large value needs little memory. (A single
/// string, or what the pretty JSON layout writes between two commas, is gathered whole.)
///
/// The writers cannot return errors, so the first I/O error is kept (later output is dropped)
/// and [`IoSink::finish`] returns it. Dropping an `IoSink` without `finish` writes what is left
/// and ignores errors, as [`std::io::BufWriter`] does.
///
/// To write a value: `v.write(&mut JsonWriter::new(&mut sink))` (or a
/// [`crate::beve::BeveWriter`]), then `sink.finish()`.
///
/// ```
/// use structio::json::JsonWriter;
/// use structio::{IoSink, Reflect};
///
/// let path = std::env::temp_dir().join("structio-iosink-doc.json");
/// let mut sink = IoSink::new(std::fs::File::create(&path).unwrap());
/// vec![1.5, 2.0].write(&mut JsonWriter::pretty(&mut sink));
/// sink.finish().unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "[\n   1.5,\n   2\n]");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub struct IoSink<W: Write> {
    buf: Vec<u8>,
    /// `None` only after `finish`.
    out: Option<W>,
    /// Bytes written out so far.
    written: usize,
    error: Option<io::Error>,
    /// Open holds (see `sealed::Sealed::hold`): while any is, nothing is written out.
    hold: usize,
}

impl<W: Write> IoSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> IoSink<W> {
        IoSink {
            buf: Vec::with_capacity(CHUNK + 1024),
            out: Some(out),
            written: 0,
            error: None,
            hold: 0,
        }
    }

    /// Writes out what is gathered, flushes the writer and gives it back, or returns the first
    /// I/O error.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_out();
        if self.error.is_none() {
            if let Some(Err(e)) = self.out.as_mut().map(Write::flush) {
                self.error = Some(e);
            }
        }
        let out = self.out.take();
        match (self.error.take(), out) {
            (Some(e), _) => Err(e),
            (None, Some(out)) => Ok(out),
            (None, None) => Err(io::Error::other("IoSink finished twice")),
        }
    }

    /// The first I/O error so far, if any.
    pub fn error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }

    /// The writer.
    pub fn get_ref(&self) -> Option<&W> {
        self.out.as_ref()
    }

    /// Writes out the buffer (unless an error came before) and empties it.
    #[cold]
    fn write_out(&mut self) {
        if self.error.is_none() {
            if let Some(out) = self.out.as_mut() {
                if let Err(e) = out.write_all(&self.buf) {
                    self.error = Some(e);
                }
            }
        }
        self.written += self.buf.len();
        self.buf.clear();
    }

    /// Writes out the buffer when a chunk has gathered: called where the text before is
    /// final (the pretty JSON layout looks back at what follows an opener).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn flush_point(&mut self) {
        if self.buf.len() >= CHUNK && self.hold == 0 {
            self.write_out();
        }
    }

    /// Bytes gathered since the last write.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Byte `i` of those gathered.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn buffered_byte(&self, i: usize) -> u8 {
        self.buf[i]
    }

    /// The buffer, for the text stores.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }
}

impl<W: Write> Drop for IoSink<W> {
    fn drop(&mut self) {
        if self.out.is_some() && !self.buf.is_empty() {
            self.write_out();
        }
    }
}

impl<W: Write> std::fmt::Debug for IoSink<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IoSink")
            .field("buffered", &self.buf.len())
            .field("written", &self.written)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl<W: Write> sealed::Sealed for IoSink<W> {
    #[inline]
    fn replace_at(&mut self, at: usize, old: usize, new: &[u8]) {
        // A hold kept the bytes in the buffer; bytes already written out cannot change.
        if let Some(i) = at.checked_sub(self.written) {
            self.buf.splice(i..i + old, new.iter().copied());
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn hold(&mut self) {
        self.hold += 1;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn release(&mut self) {
        self.hold -= 1;
    }
}
impl<W: Write> Sink for IoSink<W> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pos(&self) -> usize {
        self.written + self.buf.len()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, b: u8) {
        self.flush_point();
        self.buf.push(b);
    }
    #[inline]
    fn extend(&mut self, b: &[u8]) {
        self.flush_point();
        if b.len() >= CHUNK && self.hold == 0 {
            // Large bytes (a typed array) go out as they are, after what is gathered.
            self.write_out();
            if self.error.is_none() {
                if let Some(Err(e)) = self.out.as_mut().map(|o| o.write_all(b)) {
                    self.error = Some(e);
                }
            }
            self.written += b.len();
            return;
        }
        self.buf.extend_from_slice(b);
    }
    #[inline]
    fn zeros(&mut self, n: usize) {
        let mut n = n;
        while n > 0 {
            self.flush_point();
            let k = n.min(CHUNK);
            self.buf.resize(self.buf.len() + k, 0);
            n -= k;
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        self.flush_point();
        self.buf.reserve(n.min(CHUNK));
    }
}

impl<W: Write> sealed::Text for IoSink<W> {
    type Out = IoSink<W>;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(&mut self) -> &mut IoSink<W> {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the size of every write; fails once `fail_at` bytes have gone.
    struct Sizes {
        sizes: Vec<usize>,
        fail_at: usize,
    }
    impl Write for Sizes {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.sizes.iter().sum::<usize>() + b.len() > self.fail_at {
                return Err(io::Error::other("full"));
            }
            self.sizes.push(b.len());
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// `v` through an `IoSink` into small writes, and into a `String`, in both layouts.
    fn same_streamed<'de, T: crate::Reflect<'de>>(v: &T) {
        use crate::json::{to_json_with, JsonWriter, Options};
        let mut s = IoSink::new(Vec::new());
        JsonWriter::new(&mut s).write_value(v);
        let compact = s.finish().unwrap();
        assert_eq!(compact, to_json_with(v, &Options::default()).as_bytes());
        for indent in [0, 3, 40] {
            let opts = Options {
                pretty: true,
                indent,
                ..Options::default()
            };
            let mut s = IoSink::new(Vec::new());
            JsonWriter::pretty(&mut s).options(&opts).write_value(v);
            let pretty = s.finish().unwrap();
            assert!(
                pretty == to_json_with(v, &opts).as_bytes(),
                "indent {indent}"
            );
        }
    }

    #[test]
    fn streamed_json_is_the_text_in_memory() {
        // Empty containers right after flush points (the pretty layout looks back at them).
        let one = r#"{"a":[1,{}],"b":{},"c":[],"d":[[],[[1]],{"x":null}],"e":"s\n","f":-1.5E-7}"#;
        let text = format!("[{}]", vec![one; 5000].join(","));
        let v: crate::Value = crate::from_json(&text).unwrap();
        same_streamed(&v);
        let nums: Vec<f64> = (0..20_000).map(|i| i as f64 / 7.0).collect();
        same_streamed(&nums);
        let rows: Vec<[u32; 3]> = (0..20_000).map(|i| [i, i + 1, i * 3]).collect();
        same_streamed(&rows);
        same_streamed(&Vec::<f64>::new());
        let bools: Vec<bool> = (0..100_000).map(|i| i % 3 == 0).collect();
        same_streamed(&bools);
    }

    #[test]
    fn output_leaves_in_pieces_and_keeps_the_first_error() {
        let v: Vec<f64> = (0..100_000).map(|i| i as f64 * 0.5).collect();
        let mut s = IoSink::new(Sizes {
            sizes: Vec::new(),
            fail_at: usize::MAX,
        });
        crate::Reflect::write(&v, &mut crate::json::JsonWriter::new(&mut s));
        let sizes = s.finish().unwrap().sizes;
        assert!(sizes.len() > 5, "{sizes:?}");
        assert!(sizes.iter().all(|&n| n < 2 * CHUNK), "{sizes:?}");

        let mut s = IoSink::new(Sizes {
            sizes: Vec::new(),
            fail_at: 100_000,
        });
        crate::Reflect::write(&v, &mut crate::beve::BeveWriter::new(&mut s));
        assert!(s.error().is_some());
        assert_eq!(s.finish().err().map(|e| e.to_string()), Some("full".into()));
    }
}
