//! Where text output goes: a byte buffer (`write_json`), a `String` (`to_json`, prettify,
//! minify) or an [`IoSink`] (streaming). Everything is appended as `&str`, so building a
//! `String` needs no UTF-8 check at the end. This is the text side of [`crate::sink`]: the
//! stores of [`crate::TextSink`], sealed.

use crate::number::print::{write_number_rows, write_numbers, FloatStyle};
use crate::number::Number;
use crate::simd::spare::Spare;
use crate::sink::IoSink;

/// A growable text buffer. (`pub` in a private module: the sealed side of
/// [`crate::TextSink`].)
pub trait Out {
    /// Appends text.
    fn push_str(&mut self, s: &str);
    /// Appends one ASCII byte (callers only pass ASCII punctuation).
    fn push_ascii(&mut self, b: u8);
    /// Reserves room for `n` more bytes.
    fn reserve(&mut self, n: usize);
    /// Length in bytes.
    fn len(&self) -> usize;
    /// The byte at `i`.
    fn byte_at(&self, i: usize) -> u8;
    /// Shortens to `n` bytes (only ever at an ASCII byte, so at a char boundary).
    fn truncate(&mut self, n: usize);
    /// Appends the first `n` bytes of `buf`, which are ASCII. A byte buffer copies all 32 (a
    /// fixed-size copy the compiler inlines) and shortens again: cheaper than a call to
    /// `memcpy` for every number.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_buf(&mut self, buf: &[u8; 32], n: usize) {
        for &b in &buf[..n.min(32)] {
            self.push_ascii(b);
        }
    }
    /// Appends the ASCII bytes `b` (a literal, so the copy has a fixed size).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_lit<const N: usize>(&mut self, b: &[u8; N]) {
        for &c in b {
            self.push_ascii(c);
        }
    }
    /// Appends short text (numbers, keys) without a call to `memcpy` when it fits 32 bytes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_small(&mut self, s: &str) {
        self.push_str(s);
    }
    /// Lets `f` write ASCII into a 32-byte slot at the end and keeps the first `n` bytes, `n`
    /// being what `f` returns. A byte buffer lends its own spare room (a fixed-size append, cut
    /// back afterwards), so the bytes are written once, in place.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn with_slot(&mut self, f: impl FnOnce(&mut [u8; 32]) -> usize) {
        let mut buf = [0u8; 32];
        let n = f(&mut buf).min(32);
        self.push_buf(&buf, n);
    }
    /// Appends the first `n` bytes of `block` (ASCII; `n <= N`). A byte buffer stores all `N`
    /// bytes into its spare capacity and advances over `n`: one fixed-size store, no copy loop.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block<const N: usize>(&mut self, block: [u8; N], n: usize) {
        for &c in &block[..n.min(N)] {
            self.push_ascii(c);
        }
    }
    /// Appends the first `na` bytes of `a`, then the first `nb` bytes of `b` (ASCII; `na <= A`,
    /// `nb <= B`). A byte buffer checks its room once for both stores.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block2<const A: usize, const B: usize>(
        &mut self,
        a: [u8; A],
        na: usize,
        b: [u8; B],
        nb: usize,
    ) {
        self.push_block4((a, na), (b, nb), ([], 0), ([], 0));
    }
    /// Appends the first `n` bytes of each of three blocks (ASCII; each `n` at most its
    /// block's size). A byte buffer checks its room once for all three stores.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block3<const A: usize, const B: usize, const C: usize>(
        &mut self,
        a: ([u8; A], usize),
        b: ([u8; B], usize),
        c: ([u8; C], usize),
    ) {
        self.push_block4(a, b, c, ([], 0));
    }
    /// [`Out::push_block3`] with a fourth block: the one multi-piece store a byte buffer
    /// implements (the others pass empty blocks).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block4<const A: usize, const B: usize, const C: usize, const D: usize>(
        &mut self,
        a: ([u8; A], usize),
        b: ([u8; B], usize),
        c: ([u8; C], usize),
        d: ([u8; D], usize),
    ) {
        self.push_block(a.0, a.1);
        self.push_block(b.0, b.1);
        self.push_block(c.0, c.1);
        self.push_block(d.0, d.1);
    }
    /// Appends `[a,b,...]` (compact). A byte buffer writes the elements through one cursor
    /// over its spare capacity.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_number_array<N: Number>(&mut self, items: &[N], style: FloatStyle)
    where
        Self: Sized,
    {
        write_numbers(self, items, style);
    }
    /// Appends `[[a,b],[c,d],...]` (compact). A byte buffer writes all the rows through one
    /// cursor over its spare capacity.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_number_rows<N: Number, const M: usize>(&mut self, rows: &[[N; M]], style: FloatStyle)
    where
        Self: Sized,
    {
        write_number_rows(self, rows, style);
    }
    /// Appends `s` as a quoted, escaped JSON string.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_json_str(&mut self, s: &str)
    where
        Self: Sized,
    {
        super::string::write_str_runs(self, s);
    }
    /// A point where the text before is final (no later [`Out::truncate`] reaches back past
    /// it): a streaming sink may write it out here. Nothing for a buffer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn flush_point(&mut self) {}
}

/// Copies `src[from..from + N]` to `dst[at..at + N]` through a fixed-size array (a register
/// move; written as a slice copy, LLVM turned some of these into `memcpy` calls).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn put<const N: usize>(dst: &mut [u8; 32], at: usize, src: &[u8], from: usize) {
    let mut t = [0u8; N];
    if let (Some(d), Some(s)) = (dst.get_mut(at..at + N), src.get(from..from + N)) {
        t.copy_from_slice(s);
        *<&mut [u8; N]>::try_from(d).unwrap_or(&mut [0u8; N]) = t;
    }
}

/// Copies `src` (at most 32 bytes) to the front of `dst` with a few fixed-size copies.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn copy_small(dst: &mut [u8; 32], src: &[u8]) {
    let n = src.len();
    if n >= 16 {
        put::<16>(dst, 0, src, 0);
        put::<16>(dst, n - 16, src, n - 16);
    } else {
        copy_at(dst, 0, src);
    }
}

/// Copies `src` (at most 16 bytes) to `dst[at..]` (`at <= 16`) with two overlapping
/// fixed-size copies, which compile to a few moves where a loop would become a `memcpy` call.
/// Returns the end of the copy.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn copy_at(dst: &mut [u8; 32], at: usize, src: &[u8]) -> usize {
    let n = src.len();
    if at > 16 || n > 16 {
        // Not reached by the callers; kept correct anyway.
        let end = (at + n).min(32);
        dst[at.min(32)..end].copy_from_slice(&src[..end - at.min(end)]);
        return end;
    }
    if n >= 8 {
        put::<8>(dst, at, src, 0);
        put::<8>(dst, at + n - 8, src, n - 8);
    } else if n >= 4 {
        put::<4>(dst, at, src, 0);
        put::<4>(dst, at + n - 4, src, n - 4);
    } else if n > 0 {
        dst[at] = src[0];
        dst[at + n / 2] = src[n / 2];
        dst[at + n - 1] = src[n - 1];
    }
    at + n
}

impl Out for Vec<u8> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_str(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_ascii(&mut self, b: u8) {
        self.push(b);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_lit<const N: usize>(&mut self, b: &[u8; N]) {
        self.extend_from_slice(b);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn byte_at(&self, i: usize) -> u8 {
        self[i]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn truncate(&mut self, n: usize) {
        Vec::truncate(self, n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_buf(&mut self, buf: &[u8; 32], n: usize) {
        let len = self.len();
        self.extend_from_slice(buf);
        Vec::truncate(self, len + n.min(32));
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_json_str(&mut self, s: &str) {
        super::string::write_str_blocks(self, s);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block<const N: usize>(&mut self, block: [u8; N], n: usize) {
        Spare::new(self, 0).put(block, n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block4<const A: usize, const B: usize, const C: usize, const D: usize>(
        &mut self,
        a: ([u8; A], usize),
        b: ([u8; B], usize),
        c: ([u8; C], usize),
        d: ([u8; D], usize),
    ) {
        Spare::new(self, 0).put4(a, b, c, d);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_number_array<N: Number>(&mut self, items: &[N], style: FloatStyle) {
        // A guess at the size; the cursor grows when it is short.
        write_numbers(&mut Spare::new(self, items.len() * 8 + 2), items, style);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_number_rows<N: Number, const M: usize>(&mut self, rows: &[[N; M]], style: FloatStyle) {
        // A guess at the size; the cursor grows when it is short.
        let room = rows.len().saturating_mul(M * 8 + 3).saturating_add(2);
        write_number_rows(&mut Spare::new(self, room), rows, style);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn with_slot(&mut self, f: impl FnOnce(&mut [u8; 32]) -> usize) {
        let len = self.len();
        self.extend_from_slice(&[0u8; 32]);
        let n = match <&mut [u8; 32]>::try_from(&mut self[len..]) {
            Ok(slot) => f(slot),
            Err(_) => 0,
        };
        Vec::truncate(self, len + n.min(32));
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_small(&mut self, s: &str) {
        if s.len() <= 32 {
            let mut buf = [0u8; 32];
            copy_small(&mut buf, s.as_bytes());
            self.push_buf(&buf, s.len());
        } else {
            self.extend_from_slice(s.as_bytes());
        }
    }
}

impl Out for String {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_ascii(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        self.push(b as char);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        String::reserve(self, n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn len(&self) -> usize {
        String::len(self)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn byte_at(&self, i: usize) -> u8 {
        self.as_bytes()[i]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn truncate(&mut self, n: usize) {
        if self.is_char_boundary(n) {
            String::truncate(self, n);
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_buf(&mut self, buf: &[u8; 32], n: usize) {
        // ASCII, so this never fails.
        if let Ok(t) = std::str::from_utf8(&buf[..n.min(32)]) {
            self.push_str(t);
        }
    }
}

/// Gathers text in its buffer (with the stores of `Vec<u8>`) and writes it out at the flush
/// points, so [`Out::len`], [`Out::byte_at`] and [`Out::truncate`] see the text since the last
/// flush point, which is all the pretty layout looks back at.
impl<W: std::io::Write> Out for IoSink<W> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_str(&mut self, s: &str) {
        self.buf().push_str(s);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_ascii(&mut self, b: u8) {
        self.buf().push_ascii(b);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        Out::reserve(self.buf(), n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn len(&self) -> usize {
        self.buffered()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn byte_at(&self, i: usize) -> u8 {
        self.buffered_byte(i)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn truncate(&mut self, n: usize) {
        Out::truncate(self.buf(), n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_buf(&mut self, buf: &[u8; 32], n: usize) {
        self.buf().push_buf(buf, n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_lit<const N: usize>(&mut self, b: &[u8; N]) {
        self.buf().push_lit(b);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_small(&mut self, s: &str) {
        self.buf().push_small(s);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn with_slot(&mut self, f: impl FnOnce(&mut [u8; 32]) -> usize) {
        self.buf().with_slot(f);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block<const N: usize>(&mut self, block: [u8; N], n: usize) {
        self.buf().push_block(block, n);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_block4<const A: usize, const B: usize, const C: usize, const D: usize>(
        &mut self,
        a: ([u8; A], usize),
        b: ([u8; B], usize),
        c: ([u8; C], usize),
        d: ([u8; D], usize),
    ) {
        self.buf().push_block4(a, b, c, d);
    }
    fn push_number_array<N: Number>(&mut self, items: &[N], style: FloatStyle) {
        // In pieces, so a long array does not gather whole.
        self.push_ascii(b'[');
        for (i, chunk) in items.chunks(4096).enumerate() {
            if i > 0 {
                self.push_ascii(b',');
            }
            let start = self.buf().len();
            self.buf().push_number_array(chunk, style);
            // `[a,b]` -> `a,b`.
            self.buf().pop();
            self.buf().remove(start);
            self.flush_point();
        }
        self.push_ascii(b']');
    }
    fn push_number_rows<N: Number, const M: usize>(&mut self, rows: &[[N; M]], style: FloatStyle) {
        self.push_ascii(b'[');
        for (i, chunk) in rows.chunks(1024).enumerate() {
            if i > 0 {
                self.push_ascii(b',');
            }
            let start = self.buf().len();
            self.buf().push_number_rows(chunk, style);
            self.buf().pop();
            self.buf().remove(start);
            self.flush_point();
        }
        self.push_ascii(b']');
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push_json_str(&mut self, s: &str) {
        self.buf().push_json_str(s);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn flush_point(&mut self) {
        IoSink::flush_point(self);
    }
}
