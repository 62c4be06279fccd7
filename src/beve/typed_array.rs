//! Bulk reads of typed arrays: a numeric array of the target's own element type is one copy
//! (or, for `Cow<[N]>` over aligned data, no copy at all); other element types convert element
//! by element with range checks; a generic array of numbers is read element by element.
//!
//! Every length is checked against the remaining input before anything is allocated.

use std::borrow::Cow;

use super::header;
use super::length_prefix;
use super::read::{conversion_error, is_numeric_array, type_error, BeveReader};
use super::transcode::{bool_bits, fits, NumArray};
use crate::error::{Code, Error, PathSegment, Result};
use crate::number::Number;
use crate::reflect::{Reader, Str};

/// Copies little-endian `data` (exactly `dst.len()` elements) into `dst`: one `memcpy` on
/// little-endian hosts.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn copy_le<N: Number>(dst: &mut [N], data: &[u8]) {
    if cfg!(target_endian = "little") {
        bytemuck::cast_slice_mut::<N, u8>(dst).copy_from_slice(data);
    } else {
        for (d, c) in dst
            .iter_mut()
            .zip(data.chunks_exact(std::mem::size_of::<N>()))
        {
            *d = N::from_le_slice(c);
        }
    }
}

/// Makes `out` exactly `count` elements long, reusing its allocation when it is large enough;
/// a new allocation comes zeroed from the allocator (no separate fill pass).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn size_vec<N: Number>(out: &mut Vec<N>, count: usize) {
    if out.len() == count {
        // Reading into a value read before: nothing to do.
    } else if out.capacity() < count {
        *out = vec![N::default(); count];
    } else {
        out.resize(count, N::default());
    }
}

/// Converts the elements of `data` (of wire type `K`) into `N`, calling `put(i, value)`.
#[inline]
fn convert<K: Number, N: Number>(
    data: &[u8],
    data_at: usize,
    mut put: impl FnMut(usize, N),
) -> Result<()> {
    let width = std::mem::size_of::<K>();
    for (i, c) in data.chunks_exact(width).enumerate() {
        let w = K::from_le_slice(c).to_wire();
        match N::from_wire(w) {
            Some(v) => put(i, v),
            None => {
                return Err(
                    conversion_error::<N>(w, data_at + i * width).push_path(PathSegment::Index(i))
                )
            }
        }
    }
    Ok(())
}

/// Offset of the first element of `a`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn data_at(a: &NumArray<'_>) -> usize {
    a.end - a.data.len()
}

impl<'de> BeveReader<'de> {
    /// Reads the head of a numeric array for a bulk read. `None`: the next value is a generic
    /// array, left unread for the element-by-element path.
    #[inline]
    fn bulk_head(&mut self) -> Result<Option<(NumArray<'de>, usize)>> {
        let save = self.save();
        let at = self.pos;
        let h = self.header()?;
        if h == header::GENERIC_ARRAY {
            self.restore(save);
            return Ok(None);
        }
        if !is_numeric_array(h) {
            return Err(type_error("an array of numbers", h, at));
        }
        if self.depth >= self.opts.max_depth {
            return Err(Error::new(Code::DepthLimit(self.opts.max_depth), at));
        }
        Ok(Some((self.num_array(h, at)?, at)))
    }

    /// Reads a numeric array into `out` (`Reader::read_typed_vec`).
    #[inline]
    pub(crate) fn typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        // The common case first: a plain typed array of exactly `N`, decoded with the element
        // width known at compile time.
        let at = self.pos;
        if self.pending.is_none()
            && self.depth < self.opts.max_depth
            && self.input.get(at) == Some(&header::typed_array(N::KIND))
        {
            let mut pos = at + 1;
            let count = length_prefix::read(self.input, &mut pos)?;
            let width = std::mem::size_of::<N>();
            if fits(count, width, self.input.len() - pos) {
                let end = pos + count * width;
                size_vec(out, count);
                copy_le(out, &self.input[pos..end]);
                self.pos = end;
                return Ok(());
            }
        }
        self.typed_vec_general(out)
    }

    /// [`Self::typed_vec`] for every other form: aligned, another element type, a generic
    /// array, or an error.
    #[inline(never)]
    fn typed_vec_general<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        let Some((a, _)) = self.bulk_head()? else {
            return crate::read::read_numbers_generic(self, out);
        };
        fill_vec(out, &a)
    }

    /// Reads a numeric array of exactly `out.len()` elements (`Reader::read_typed_slice`).
    #[inline]
    pub(crate) fn typed_slice<N: Number>(&mut self, out: &mut [N]) -> Result<()> {
        let Some((a, at)) = self.bulk_head()? else {
            return crate::read::read_numbers_into_slice_generic(self, out);
        };
        if a.count != out.len() {
            return Err(Error::new(
                Code::WrongLength {
                    expected: out.len(),
                    found: a.count,
                },
                at,
            ));
        }
        if a.kind == N::KIND {
            copy_le(out, a.data);
            Ok(())
        } else {
            with_kind!(a.kind, K => convert::<K, N>(a.data, data_at(&a), |i, v| out[i] = v))
        }
    }

    /// Reads a numeric array into a `Cow` (`Reader::read_typed_cow`): borrowed when the data
    /// has the target's element type, sits at an address aligned for it, and the host is
    /// little-endian; otherwise copied once into the owned buffer (reused if there is one).
    #[inline]
    pub(crate) fn typed_cow<N: Number>(&mut self, out: &mut Cow<'de, [N]>) -> Result<()> {
        let head = self.bulk_head()?;
        if let Some((a, _)) = &head {
            if a.kind == N::KIND && cfg!(target_endian = "little") {
                if let Ok(s) = bytemuck::try_cast_slice::<u8, N>(a.data) {
                    *out = Cow::Borrowed(s);
                    return Ok(());
                }
            }
        }
        let mut v = match std::mem::replace(out, Cow::Borrowed(&[])) {
            Cow::Owned(v) => v,
            Cow::Borrowed(_) => Vec::new(),
        };
        let res = match head {
            Some((a, _)) => fill_vec(&mut v, &a),
            None => crate::read::read_numbers_generic(self, &mut v),
        };
        *out = Cow::Owned(v);
        res
    }

    /// Reads a packed bool array (or a generic array of booleans) into `out`.
    #[inline]
    pub(crate) fn bool_vec(&mut self, out: &mut Vec<bool>) -> Result<()> {
        let save = self.save();
        let at = self.pos;
        match self.header()? {
            header::BOOL_ARRAY => {
                if self.depth >= self.opts.max_depth {
                    return Err(Error::new(Code::DepthLimit(self.opts.max_depth), at));
                }
                let (n, bits, end) = bool_bits(self.input, self.pos, at)?;
                self.pos = end;
                unpack_bits(out, bits, n);
                Ok(())
            }
            header::GENERIC_ARRAY => {
                self.restore(save);
                crate::read::read_bools_generic(self, out)
            }
            h => Err(type_error("an array of booleans", h, at)),
        }
    }

    /// The count of the string array whose header was at `at`, checked against the input left
    /// and the depth limit.
    #[inline]
    fn str_array_len(&mut self, at: usize) -> Result<usize> {
        let n = length_prefix::read(self.input, &mut self.pos)?;
        if n > self.left() {
            return Err(super::header::eof(at));
        }
        if self.depth >= self.opts.max_depth {
            return Err(Error::new(Code::DepthLimit(self.opts.max_depth), at));
        }
        Ok(n)
    }

    /// Reads a string array (or a generic array of strings) into `out`, reusing its strings'
    /// buffers; its length becomes the count.
    #[inline]
    pub(crate) fn string_vec(&mut self, out: &mut Vec<String>) -> Result<()> {
        let save = self.save();
        let at = self.pos;
        if self.header()? == header::STR_ARRAY {
            let n = self.str_array_len(at)?;
            return crate::simd::beve_str::strings_into(self.input, &mut self.pos, n, out)
                .map_err(|(e, i)| e.push_path(PathSegment::Index(i)));
        }
        self.restore(save);
        let n = self.str_seq(|i, s| {
            crate::reflect::string_slot(out, i).push_str(s.as_str());
            Ok(())
        })?;
        out.truncate(n);
        Ok(())
    }

    /// Reads a string array (or a generic array of strings), handing each string to `each`.
    #[inline]
    pub(crate) fn str_seq<F>(&mut self, mut each: F) -> Result<usize>
    where
        F: FnMut(usize, Str<'de, '_>) -> Result<()>,
    {
        let save = self.save();
        let at = self.pos;
        match self.header()? {
            header::STR_ARRAY => {
                let n = self.str_array_len(at)?;
                crate::simd::beve_str::items(self.input, &mut self.pos, n, |i, s| {
                    each(i, Str::Borrowed(s))
                })
                .map_err(|(e, i)| e.push_path(PathSegment::Index(i)))?;
                Ok(n)
            }
            header::GENERIC_ARRAY => {
                self.restore(save);
                let mut seq = self.begin_array()?;
                let mut n = 0;
                while self.next_element(&mut seq)? {
                    let s = self
                        .read_str()
                        .map_err(|e| e.push_path(PathSegment::Index(n)))?;
                    each(n, s).map_err(|e| e.push_path(PathSegment::Index(n)))?;
                    n += 1;
                }
                Ok(n)
            }
            h => Err(type_error("an array of strings", h, at)),
        }
    }
}

/// Fills `out` from a numeric array: one copy for the same element type, a checked
/// conversion otherwise.
#[inline]
fn fill_vec<N: Number>(out: &mut Vec<N>, a: &NumArray<'_>) -> Result<()> {
    if a.kind == N::KIND {
        size_vec(out, a.count);
        copy_le(out, a.data);
        return Ok(());
    }
    out.clear();
    out.reserve(a.count);
    with_kind!(a.kind, K => convert::<K, N>(a.data, data_at(a), |_, v| out.push(v)))
}

/// Replaces the contents of `out` with the first `n` bits of `bits`, least significant first.
#[inline]
fn unpack_bits(out: &mut Vec<bool>, bits: &[u8], n: usize) {
    out.clear();
    out.reserve(n);
    for &b in &bits[..n / 8] {
        out.extend_from_slice(&spread(b));
    }
    if !n.is_multiple_of(8) {
        out.extend_from_slice(&spread(bits[n / 8])[..n % 8]);
    }
}

/// The eight bits of `b` as eight booleans, low bit first, with no branch or loop: `b` copied
/// into each byte of a word, byte `j` masked to bit `j`, and each byte's non-zero folded to 1.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn spread(b: u8) -> [bool; 8] {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let picked = (b as u64 * ONES) & 0x8040_2010_0804_0201;
    // A byte of `picked` is 0 or one bit of at most 0x80; adding 0x7F sets its top bit
    // exactly when it was not 0, with no carry into the next byte.
    let flags = ((picked + 0x7F * ONES) >> 7) & ONES;
    flags.to_le_bytes().map(|f| f != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_gives_each_bit_of_every_byte() {
        for b in 0..=255u8 {
            let want: [bool; 8] = std::array::from_fn(|j| (b >> j) & 1 != 0);
            assert_eq!(spread(b), want, "{b:#04x}");
        }
    }

    #[test]
    fn unpack_bits_reads_every_count_into_a_used_vector() {
        let bits = [0b1011_0110u8, 0xFF, 0x00, 0b0101_1001, 0x80];
        for n in 0..=bits.len() * 8 {
            let mut out = vec![true; 3];
            unpack_bits(&mut out, &bits, n);
            let want: Vec<bool> = (0..n)
                .map(|i| super::super::transcode::bit(&bits, i))
                .collect();
            assert_eq!(out, want, "{n}");
        }
    }
}
