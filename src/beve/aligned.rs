//! [`AlignedBytes`]: a byte buffer whose first byte sits on a 16-byte boundary.
//!
//! Aligned typed arrays (`0x5C`) pad their data to a multiple of the element size counted from
//! the start of the buffer; with the buffer itself 16-aligned, every such payload is aligned in
//! memory and can be borrowed as `&[f64]`, `&[u64]`, ... without a copy. The buffer is a
//! `Vec<u128>` viewed as bytes through `bytemuck`, so no unsafe code is needed.

use std::fmt;
use std::ops::Deref;

/// Bytes in a buffer whose base address is aligned to 16, as [`crate::to_beve_aligned`]
/// returns them. Dereferences to `[u8]`.
///
/// Use [`AlignedBytes::from_slice`] to copy BEVE read from elsewhere (a file, a socket) into an
/// aligned buffer before borrowing numeric arrays from it with `Cow<[N]>` fields.
#[derive(Clone, Default)]
pub struct AlignedBytes {
    /// Storage; every word is initialised (bytes past `len` are zero or stale).
    words: Vec<u128>,
    /// Number of bytes in use.
    len: usize,
}

impl AlignedBytes {
    /// An empty buffer.
    pub fn new() -> AlignedBytes {
        AlignedBytes::default()
    }

    /// An empty buffer with room for `n` bytes. The room is zeroed memory, which for large
    /// buffers the allocator hands out without touching it.
    pub fn with_capacity(n: usize) -> AlignedBytes {
        AlignedBytes {
            words: vec![0u128; n.div_ceil(16)],
            len: 0,
        }
    }

    /// A 16-aligned copy of `bytes`.
    pub fn from_slice(bytes: &[u8]) -> AlignedBytes {
        let mut a = AlignedBytes::with_capacity(bytes.len());
        a.extend_from_slice(bytes);
        a
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many bytes fit before the buffer grows.
    pub fn capacity(&self) -> usize {
        self.words.len() * 16
    }

    /// The bytes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn as_slice(&self) -> &[u8] {
        &bytemuck::cast_slice::<u128, u8>(&self.words)[..self.len]
    }

    /// Removes all bytes, keeping the allocation.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends bytes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn extend_from_slice(&mut self, b: &[u8]) {
        let end = self.len + b.len();
        self.grow_to(end);
        bytemuck::cast_slice_mut::<u128, u8>(&mut self.words)[self.len..end].copy_from_slice(b);
        self.len = end;
    }

    /// Appends `n` zero bytes.
    #[inline]
    pub fn extend_zeros(&mut self, n: usize) {
        let end = self.len + n;
        self.grow_to(end);
        bytemuck::cast_slice_mut::<u128, u8>(&mut self.words)[self.len..end].fill(0);
        self.len = end;
    }

    /// Makes room for `n` more bytes.
    #[inline]
    pub fn reserve(&mut self, n: usize) {
        self.grow_to(self.len + n);
    }

    /// Replaces the `old` bytes at `at` with `new`, moving the bytes after them.
    pub(crate) fn replace_range(&mut self, at: usize, old: usize, new: &[u8]) {
        let len = self.len;
        let end = len - old + new.len();
        self.grow_to(end.max(len));
        let bytes = bytemuck::cast_slice_mut::<u128, u8>(&mut self.words);
        bytes.copy_within(at + old..len, at + new.len());
        bytes[at..at + new.len()].copy_from_slice(new);
        self.len = end;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn grow_to(&mut self, end: usize) {
        if end > self.words.len() * 16 {
            self.grow_slow(end);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_slow(&mut self, end: usize) {
        let need = end.div_ceil(16).max(self.words.len() * 2).max(4);
        self.words.resize(need, 0);
    }
}

impl Deref for AlignedBytes {
    type Target = [u8];
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for AlignedBytes {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl std::borrow::Borrow<[u8]> for AlignedBytes {
    fn borrow(&self) -> &[u8] {
        self.as_slice()
    }
}

impl PartialEq for AlignedBytes {
    fn eq(&self, other: &AlignedBytes) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for AlignedBytes {}

impl PartialEq<[u8]> for AlignedBytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<u8>> for AlignedBytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl From<AlignedBytes> for Vec<u8> {
    fn from(a: AlignedBytes) -> Vec<u8> {
        a.as_slice().to_vec()
    }
}

impl fmt::Debug for AlignedBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("AlignedBytes")
            .field(&self.as_slice())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_is_16_aligned_and_growth_keeps_contents() {
        let mut a = AlignedBytes::new();
        for i in 0..1000u32 {
            a.extend_from_slice(&i.to_le_bytes());
            assert_eq!(a.as_ptr() as usize % 16, 0);
        }
        assert_eq!(a.len(), 4000);
        assert_eq!(&a[4..8], &1u32.to_le_bytes());
        a.extend_zeros(3);
        assert_eq!(&a[4000..], &[0, 0, 0]);
        let b = AlignedBytes::from_slice(&a);
        assert_eq!(a, b);
        assert_eq!(b.as_ptr() as usize % 16, 0);
        assert_eq!(Vec::from(b.clone()).len(), 4003);
    }

    #[test]
    fn clear_then_zeros_overwrites_stale_bytes() {
        let mut a = AlignedBytes::from_slice(&[0xFF; 40]);
        a.clear();
        a.extend_zeros(20);
        assert_eq!(&a[..], &[0u8; 20][..]);
    }
}
