//! [`BeveWriter`]: the BEVE side of [`Writer`].
//!
//! Every value is its header followed by its payload; there are no separators, so `sep`,
//! `end_array` and `end_object` write nothing. Numeric slices become one typed array moved with
//! one copy on little-endian hosts.

use super::header;
use super::length_prefix;
use crate::impls::matrix::Layout;
use crate::number::{NumKind, Number};
use crate::reflect::{KeyKind, Open, Writer};
use crate::sink::Sink;

/// Writes BEVE into a [`Sink`] (a `Vec<u8>` by default).
///
/// `STRUCTS_AS_ARRAYS` (see [`BeveWriter::structs_as_arrays`]) writes every derived struct as
/// a generic array of its members: a constant, so that the ordinary writer (`false`) compiles
/// the object code of structs alone.
#[derive(Debug)]
pub struct BeveWriter<S: Sink = Vec<u8>, const STRUCTS_AS_ARRAYS: bool = false> {
    out: S,
    aligned: bool,
    nulls: bool,
    /// Where the last aligned typed array starts (for [`Writer::end_open`]: a count before it
    /// keeps its width, so that the array's payload stays aligned).
    last_aligned: usize,
}

impl<S: Sink> BeveWriter<S> {
    /// A writer appending to `out`, with plain typed arrays and `None` members left out.
    pub fn new(out: S) -> BeveWriter<S> {
        BeveWriter {
            out,
            aligned: false,
            nulls: false,
            last_aligned: 0,
        }
    }

    /// The same writer, writing every derived struct with named fields as a generic array of
    /// its members in declaration order, as Glaze's `structs_as_arrays` (`write_beve_untagged`)
    /// does: no keys, every member written (`None` as null), the members a
    /// `#[structio(as_array)]` struct has (see the guide). The payloads of struct variants
    /// stay objects.
    pub fn structs_as_arrays(self) -> BeveWriter<S, true> {
        BeveWriter {
            out: self.out,
            aligned: self.aligned,
            nulls: self.nulls,
            last_aligned: self.last_aligned,
        }
    }
}

impl<S: Sink, const STRUCTS_AS_ARRAYS: bool> BeveWriter<S, STRUCTS_AS_ARRAYS> {
    /// Writes numeric arrays with elements wider than one byte as aligned typed arrays
    /// (`0x5C`), padded so that their data starts at a multiple of the element size counted
    /// from the start of the sink.
    pub fn aligned_arrays(mut self, on: bool) -> Self {
        self.aligned = on;
        self
    }

    /// Writes `None` struct members as null instead of leaving them out.
    pub fn write_null_members(mut self, on: bool) -> Self {
        self.nulls = on;
        self
    }

    /// The sink.
    pub fn get_ref(&self) -> &S {
        &self.out
    }

    /// Gives the sink back.
    pub fn into_inner(self) -> S {
        self.out
    }

    /// Appends a number's little-endian bytes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put<N: Number>(&mut self, v: N) {
        if cfg!(target_endian = "little") {
            self.out.extend(bytemuck::bytes_of(&v));
        } else {
            let mut le = Vec::with_capacity(16);
            v.extend_le(&mut le);
            self.out.extend(&le);
        }
    }

    /// The width of the count [`Writer::begin_open`] writes for `hint`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open_width(&self, hint: Option<usize>) -> usize {
        match hint {
            None if self.aligned => 8,
            _ => length_prefix::width(hint.unwrap_or(0)),
        }
    }

    /// Appends the low `kind.size()` bytes of `value` (two's complement), for enum values.
    #[inline]
    fn put_truncated(&mut self, value: i128, kind: NumKind) {
        let n = kind.size().min(16);
        self.out.extend(&value.to_le_bytes()[..n]);
    }

    /// Writes the header, the count and, for aligned arrays, the padding of a typed array whose
    /// data comes next.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn typed_head<N: Number>(&mut self, len: usize) {
        let width = std::mem::size_of::<N>();
        if self.aligned && width > 1 {
            self.last_aligned = self.out.pos();
            self.out.push(header::ALIGNED_ARRAY);
            self.out.push(header::typed_array(N::KIND));
            length_prefix::write(&mut self.out, len);
            let pad = padding(self.out.pos() + 1, width);
            self.out.push(pad as u8);
            self.out.zeros(pad);
        } else {
            self.out.push(header::typed_array(N::KIND));
            length_prefix::write(&mut self.out, len);
        }
    }
}

/// Pad bytes needed so that data starting at `offset + pad` is a multiple of `width`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn padding(offset: usize, width: usize) -> usize {
    (width - offset % width) % width
}

impl<S: Sink, const STRUCTS_AS_ARRAYS: bool> Writer for BeveWriter<S, STRUCTS_AS_ARRAYS> {
    const STRUCTS_AS_ARRAYS: bool = STRUCTS_AS_ARRAYS;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write_null_members(&self) -> bool {
        self.nulls
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn is_binary(&self) -> bool {
        true
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn null(&mut self) {
        self.out.push(header::NULL)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bool(&mut self, v: bool) {
        self.out.push(if v { header::TRUE } else { header::FALSE })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn number<N: Number>(&mut self, v: N) {
        self.out.reserve(1 + std::mem::size_of::<N>());
        self.out.push(header::number(N::KIND));
        self.put(v);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn str(&mut self, v: &str) {
        self.out.reserve(9 + v.len());
        self.out.push(header::STRING);
        length_prefix::write(&mut self.out, v.len());
        self.out.extend(v.as_bytes());
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_array(&mut self, len: usize) {
        self.out.push(header::GENERIC_ARRAY);
        length_prefix::write(&mut self.out, len);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_array(&mut self) {}

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_map(&mut self, len: usize, keys: KeyKind) {
        self.out.push(match keys {
            KeyKind::Str => header::OBJECT,
            KeyKind::Int(k) => header::int_key_object(k),
        });
        length_prefix::write(&mut self.out, len);
    }

    /// Writes the header and the hint as the count (the 8-byte form when there is no hint
    /// and arrays are aligned, so that correcting it need not move an aligned payload), and
    /// keeps the output from leaving an [`crate::IoSink`] until the count is final.
    #[inline]
    fn begin_open(&mut self, what: Open, hint: Option<usize>) -> usize {
        self.out.push(match what {
            Open::Array => header::GENERIC_ARRAY,
            Open::Map(KeyKind::Int(k)) => header::int_key_object(k),
            Open::Map(KeyKind::Str) | Open::Struct => header::OBJECT,
        });
        let at = self.out.pos();
        let n = hint.unwrap_or(0);
        let w = self.open_width(hint);
        self.out.extend(&length_prefix::encode(n, w)[..w]);
        self.out.hold();
        at
    }

    /// Rewrites the count when it differs from the hint: in its minimal form (the bytes after
    /// it move), unless an aligned typed array was written after it: then in the width it
    /// had, so that no aligned payload moves (a wider form than needed, which readers accept;
    /// only a count that outgrows it moves them).
    #[inline]
    fn end_open(
        &mut self,
        _what: Open,
        mark: usize,
        hint: Option<usize>,
        count: usize,
        _left_out: bool,
    ) {
        self.out.release();
        if hint == Some(count) {
            return;
        }
        let old = self.open_width(hint);
        let w = if self.aligned && self.last_aligned > mark {
            old.max(length_prefix::width(count))
        } else {
            length_prefix::width(count)
        };
        self.out
            .replace_at(mark, old, &length_prefix::encode(count, w)[..w]);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn is_human_readable(&self) -> bool {
        false
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn key(&mut self, k: &str) {
        self.out.reserve(8 + k.len());
        length_prefix::write(&mut self.out, k.len());
        self.out.extend(k.as_bytes());
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn int_key<N: Number>(&mut self, k: N) {
        self.put(k)
    }

    #[inline]
    fn enum_key(&mut self, _name: &str, value: i128, repr: NumKind) {
        self.put_truncated(value, repr)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_object(&mut self) {}

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn sep(&mut self) {}

    #[inline]
    fn typed_array<N: Number>(&mut self, items: &[N]) {
        let bytes = std::mem::size_of_val(items);
        self.out.reserve(11 + std::mem::size_of::<N>() + bytes);
        self.typed_head::<N>(items.len());
        if cfg!(target_endian = "little") {
            self.out.extend(bytemuck::cast_slice(items));
        } else {
            let mut le = Vec::with_capacity(bytes);
            for &x in items {
                x.extend_le(&mut le);
            }
            self.out.extend(&le);
        }
    }

    #[inline]
    fn typed_array_iter<N: Number, I: ExactSizeIterator<Item = N>>(&mut self, items: I) {
        let len = items.len();
        self.out.reserve(11 + std::mem::size_of::<N>() * (len + 1));
        self.typed_head::<N>(len);
        for x in items {
            self.put(x);
        }
    }

    #[inline]
    fn bool_array<I: ExactSizeIterator<Item = bool>>(&mut self, items: I) {
        let len = items.len();
        self.out.reserve(9 + len.div_ceil(8));
        self.out.push(header::BOOL_ARRAY);
        length_prefix::write(&mut self.out, len);
        let mut items = items;
        // Eight at a time into a byte (the inner loop unrolls). `unwrap_or` only matters for an
        // iterator shorter than it claimed.
        let mut chunk = [0u8; 64];
        let mut left = len / 8;
        while left > 0 {
            let n = left.min(chunk.len());
            for byte in &mut chunk[..n] {
                let mut b = 0u8;
                for j in 0..8 {
                    b |= (items.next().unwrap_or(false) as u8) << j;
                }
                *byte = b;
            }
            self.out.extend(&chunk[..n]);
            left -= n;
        }
        if !len.is_multiple_of(8) {
            // The last byte keeps its unused high bits zero.
            let mut b = 0u8;
            for j in 0..len % 8 {
                b |= (items.next().unwrap_or(false) as u8) << j;
            }
            self.out.push(b);
        }
    }

    #[inline]
    fn str_array<'a, I: ExactSizeIterator<Item = &'a str>>(&mut self, items: I) {
        self.out.push(header::STR_ARRAY);
        length_prefix::write(&mut self.out, items.len());
        for s in items {
            self.key(s);
        }
    }

    #[inline]
    fn unit_variant(&mut self, _name: &str, value: i128, repr: NumKind) {
        self.out.push(header::number(repr));
        self.put_truncated(value, repr);
    }

    #[inline]
    fn raw_json(&mut self, text: &str) {
        self.str(text)
    }

    #[inline]
    fn complex<N: Number>(&mut self, re: N, im: N) {
        self.out.extend(&super::complex::single_bytes([re, im]));
    }

    #[inline]
    fn complex_array<N: Number>(&mut self, items: &[[N; 2]]) {
        self.out.extend(&super::complex::array_bytes(items));
    }

    #[inline]
    fn matrix<N: Number>(&mut self, layout: Layout, extents: &[u64], data: &[N]) {
        self.out
            .extend(&super::matrix::bytes(layout, extents, data));
    }

    #[inline]
    fn raw_beve(&mut self, bytes: &[u8]) {
        self.out.extend(bytes)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn keeps_beve_extensions(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::Counter;

    fn w() -> BeveWriter {
        BeveWriter::new(Vec::new())
    }

    #[test]
    fn scalars() {
        let mut x = w();
        x.null();
        x.bool(false);
        x.bool(true);
        x.number(-1i8);
        x.number(0x1234u16);
        x.number(1.0f64);
        x.number(half::bf16::from_f32(1.0));
        x.number(half::f16::from_f32(1.0));
        x.number(-2i128);
        x.str("hi");
        assert_eq!(
            x.into_inner(),
            [
                0x00, 0x08, 0x18, 0x09, 0xFF, 0x31, 0x34, 0x12, 0x61, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F,
                0x01, 0x80, 0x3F, 0x21, 0x00, 0x3C, 0x89, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x08, b'h', b'i'
            ]
        );
    }

    #[test]
    fn typed_and_packed_arrays() {
        let mut x = w();
        x.typed_array(&[1u16, 2]);
        x.typed_array::<f64>(&[]);
        x.typed_array_iter([3i32].into_iter());
        x.bool_array([true, false, true, true, false, false, false, false, true].into_iter());
        x.str_array(["a", ""].into_iter());
        assert_eq!(
            x.into_inner(),
            [
                0x34, 0x08, 1, 0, 2, 0, 0x64, 0x00, 0x4C, 0x04, 3, 0, 0, 0, 0x1C, 0x24, 0x0D, 0x01,
                0x3C, 0x08, 0x04, b'a', 0x00
            ]
        );
    }

    #[test]
    fn objects_and_enum_values() {
        let mut x = w();
        x.begin_map(1, KeyKind::Int(NumKind::I16));
        x.int_key(-2i16);
        x.unit_variant("low", 65535, NumKind::U16);
        x.begin_map(1, KeyKind::Int(NumKind::U8));
        x.enum_key("blue", 2, NumKind::U8);
        x.begin_object(0);
        x.begin_object(1);
        x.key("k");
        x.begin_array(0);
        assert_eq!(
            x.into_inner(),
            [
                0x2B, 0x04, 0xFE, 0xFF, 0x31, 0xFF, 0xFF, 0x13, 0x04, 0x02, 0x03, 0x00, 0x03, 0x04,
                0x04, b'k', 0x05, 0x00
            ]
        );
    }

    #[test]
    fn aligned_array_matches_the_spec_example() {
        // [1.0, 2.0, 3.0] at offset 0: 5C 64 0C 04 | 4 zero bytes | data at offset 8.
        let mut x = w().aligned_arrays(true);
        x.typed_array(&[1.0f64, 2.0, 3.0]);
        let b = x.into_inner();
        assert_eq!(&b[..8], &[0x5C, 0x64, 0x0C, 0x04, 0, 0, 0, 0]);
        assert_eq!(&b[8..16], &1.0f64.to_le_bytes());
        assert_eq!(b.len(), 32);
    }

    #[test]
    fn aligned_struct_example_pads_from_the_buffer_start() {
        // {a: 1.0, v: [1.0, 2.0]}: PADDING_LENGTH at offset 18, p = 5, data at 24.
        let mut x = w().aligned_arrays(true);
        x.begin_object(2);
        x.key("a");
        x.number(1.0f64);
        x.key("v");
        x.typed_array(&[1.0f64, 2.0]);
        let b = x.into_inner();
        assert_eq!(&b[13..19], &[0x04, b'v', 0x5C, 0x64, 0x08, 0x05]);
        assert_eq!(&b[19..24], &[0; 5]);
        assert_eq!(&b[24..32], &1.0f64.to_le_bytes());
        assert_eq!(b.len(), 40);
    }

    #[test]
    fn aligned_padding_for_every_width_and_offset() {
        for width in [2usize, 4, 8, 16] {
            for prefix in 0..20 {
                let mut x = BeveWriter::new(vec![0xAA; prefix]).aligned_arrays(true);
                match width {
                    2 => x.typed_array(&[1u16, 2, 3]),
                    4 => x.typed_array(&[1f32, 2.0, 3.0]),
                    8 => x.typed_array(&[1u64, 2, 3]),
                    _ => x.typed_array(&[1i128, 2, 3]),
                }
                let b = x.into_inner();
                let pad = b[prefix + 3] as usize;
                assert!(pad < width);
                let data = prefix + 4 + pad;
                assert_eq!(data % width, 0, "width {width} prefix {prefix}");
                assert_eq!(b.len(), data + 3 * width);
                assert_eq!(b[data..data + width], b[b.len() - 3 * width..][..width]);
            }
        }
        // One-byte elements never use the aligned form.
        let mut x = w().aligned_arrays(true);
        x.typed_array(&[7u8]);
        assert_eq!(x.into_inner(), [0x14, 0x04, 7]);
    }

    #[test]
    fn counter_counts_what_vec_writes() {
        let run = |x: &mut dyn FnMut(&mut BeveWriter<Counter>, &mut BeveWriter)| {
            let mut c = BeveWriter::new(Counter(3)).aligned_arrays(true);
            let mut v = BeveWriter::new(vec![0; 3]).aligned_arrays(true);
            x(&mut c, &mut v);
            assert_eq!(c.into_inner().0, v.into_inner().len());
        };
        run(&mut |c, v| {
            c.str("hello");
            v.str("hello");
            c.typed_array(&[1.0f64; 70]);
            v.typed_array(&[1.0f64; 70]);
            c.bool_array([true; 9].into_iter());
            v.bool_array([true; 9].into_iter());
            c.typed_array_iter([1u32, 2].into_iter());
            v.typed_array_iter([1u32, 2].into_iter());
        });
    }
}
