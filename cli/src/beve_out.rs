//! [`BeveOut`]: structio's BEVE writer with its output streamed into any [`io::Write`].
//!
//! Every call goes to a [`BeveWriter`] over a `Vec<u8>`; whenever that buffer passes 1 MiB,
//! its bytes leave for the output, all but the last `len % 16`. Aligned typed arrays pad
//! relative to the start of the buffer, so keeping the count written out a multiple of 16 keeps
//! every padding exactly what one big buffer would have had.

use std::io::{self, Write};

use structio::beve::BeveWriter;
use structio::{KeyKind, NumKind, Number, Writer};

/// Bytes gathered before they are written out.
const CHUNK: usize = 1 << 20;

/// The largest alignment an aligned typed array asks for (`u128` elements).
const MAX_ALIGN: usize = 16;

/// A streaming BEVE writer. The first I/O error is kept and returned by [`BeveOut::finish`].
pub struct BeveOut<W: Write> {
    inner: BeveWriter<Vec<u8>>,
    out: W,
    aligned: bool,
    error: Option<io::Error>,
}

impl<W: Write> BeveOut<W> {
    /// A writer into `out`; `aligned` writes numeric arrays as aligned typed arrays.
    pub fn new(out: W, aligned: bool) -> BeveOut<W> {
        BeveOut {
            inner: BeveWriter::new(Vec::with_capacity(CHUNK + 4096)).aligned_arrays(aligned),
            out,
            aligned,
            error: None,
        }
    }

    /// Writes what is left and gives the output back, or the first I/O error.
    pub fn finish(mut self) -> io::Result<W> {
        let rest = std::mem::replace(&mut self.inner, BeveWriter::new(Vec::new())).into_inner();
        if self.error.is_none() {
            self.out.write_all(&rest)?;
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }

    /// Sends the buffer out once it is large enough, keeping the write count a multiple of 16.
    #[inline]
    fn drain(&mut self) {
        if self.inner.get_ref().len() < CHUNK {
            return;
        }
        let mut buf = std::mem::replace(&mut self.inner, BeveWriter::new(Vec::new())).into_inner();
        let cut = buf.len() - buf.len() % MAX_ALIGN;
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&buf[..cut]) {
                self.error = Some(e);
            }
        }
        buf.drain(..cut);
        self.inner = BeveWriter::new(buf).aligned_arrays(self.aligned);
    }
}

impl<W: Write> Writer for BeveOut<W> {
    fn write_null_members(&self) -> bool {
        Writer::write_null_members(&self.inner)
    }
    fn is_binary(&self) -> bool {
        true
    }
    fn null(&mut self) {
        self.inner.null();
        self.drain();
    }
    fn bool(&mut self, v: bool) {
        self.inner.bool(v);
        self.drain();
    }
    fn number<N: Number>(&mut self, v: N) {
        self.inner.number(v);
        self.drain();
    }
    fn str(&mut self, v: &str) {
        self.inner.str(v);
        self.drain();
    }
    fn begin_array(&mut self, len: usize) {
        self.inner.begin_array(len);
        self.drain();
    }
    fn end_array(&mut self) {
        self.inner.end_array();
    }
    fn begin_map(&mut self, len: usize, keys: KeyKind) {
        self.inner.begin_map(len, keys);
        self.drain();
    }
    fn key(&mut self, k: &str) {
        self.inner.key(k);
        self.drain();
    }
    fn int_key<N: Number>(&mut self, k: N) {
        self.inner.int_key(k);
        self.drain();
    }
    fn enum_key(&mut self, name: &str, value: i128, repr: NumKind) {
        self.inner.enum_key(name, value, repr);
        self.drain();
    }
    fn end_object(&mut self) {
        self.inner.end_object();
    }
    fn sep(&mut self) {
        self.inner.sep();
    }
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        self.inner.typed_array(items);
        self.drain();
    }
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        self.inner.typed_array_iter(items);
        self.drain();
    }
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        self.inner.bool_array(items);
        self.drain();
    }
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.inner.str_array(items);
        self.drain();
    }
    fn unit_variant(&mut self, name: &str, value: i128, repr: NumKind) {
        self.inner.unit_variant(name, value, repr);
        self.drain();
    }
    fn raw_json(&mut self, text: &str) {
        self.inner.raw_json(text);
        self.drain();
    }
    fn keeps_beve_extensions(&self) -> bool {
        self.inner.keeps_beve_extensions()
    }
    fn raw_beve(&mut self, bytes: &[u8]) {
        self.inner.raw_beve(bytes);
        self.drain();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use structio::{Reflect, Value};

    /// A document larger than a few chunks, with aligned arrays of every width after odd-sized
    /// strings, so that paddings fall across chunk boundaries.
    fn big() -> Value {
        let mut items = Vec::new();
        for i in 0..600u32 {
            items.push(Value::from("x".repeat(i as usize % 7)));
            items.push(Value::from(vec![i as u8; 3]));
            items.push(Value::from(vec![i as u16; 5]));
            items.push(Value::from(vec![i as f32; 7]));
            items.push(Value::from(vec![i as f64; 900]));
            items.push(Value::from(vec![i as u128; 3]));
        }
        Value::from(items)
    }

    #[test]
    fn streamed_bytes_equal_one_buffer() {
        let v = big();
        for aligned in [false, true] {
            let mut w = BeveOut::new(Vec::new(), aligned);
            v.write(&mut w);
            let streamed = w.finish().unwrap();
            let opts = structio::beve::Options {
                aligned_arrays: aligned,
                ..Default::default()
            };
            let whole = structio::beve::to_beve_with(&v, &opts);
            assert!(whole.len() > 3 * CHUNK);
            assert!(streamed == whole, "aligned: {aligned}");
        }
    }
}
