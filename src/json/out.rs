//! Where text output goes: a byte buffer (`write_json`) or a `String` (`to_json`, prettify,
//! minify). Everything is appended as `&str`, so building a `String` needs no UTF-8 check at
//! the end.

/// A growable text buffer.
pub(crate) trait Out {
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
}

impl Out for Vec<u8> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        self.push(b);
    }
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n);
    }
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    fn byte_at(&self, i: usize) -> u8 {
        self[i]
    }
    #[inline(always)]
    fn truncate(&mut self, n: usize) {
        Vec::truncate(self, n);
    }
}

impl Out for String {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        self.push(b as char);
    }
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        String::reserve(self, n);
    }
    #[inline(always)]
    fn len(&self) -> usize {
        String::len(self)
    }
    #[inline(always)]
    fn byte_at(&self, i: usize) -> u8 {
        self.as_bytes()[i]
    }
    #[inline(always)]
    fn truncate(&mut self, n: usize) {
        if self.is_char_boundary(n) {
            String::truncate(self, n);
        }
    }
}
