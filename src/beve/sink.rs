//! Where a [`super::BeveWriter`] puts its bytes: a `Vec<u8>`, a 16-aligned buffer
//! ([`super::AlignedBytes`]), or nowhere ([`Counter`], which only counts, to size a buffer
//! exactly before writing into it).

mod sealed {
    pub trait Sealed {}
}

/// A byte sink for [`super::BeveWriter`]. Sealed: implemented for `Vec<u8>`,
/// [`super::AlignedBytes`] and [`Counter`].
pub trait Sink: sealed::Sealed {
    /// The offset of the next byte from the start of the buffer; aligned arrays pad relative to
    /// it.
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

impl sealed::Sealed for Vec<u8> {}
impl Sink for Vec<u8> {
    #[inline(always)]
    fn pos(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn push(&mut self, b: u8) {
        Vec::push(self, b)
    }
    #[inline(always)]
    fn extend(&mut self, b: &[u8]) {
        self.extend_from_slice(b)
    }
    #[inline(always)]
    fn zeros(&mut self, n: usize) {
        self.resize(self.len() + n, 0)
    }
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n)
    }
}

/// A sink that keeps no bytes and counts them: `BeveWriter<Counter>` computes the exact size
/// of an encoding, padding of aligned arrays included.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counter(pub usize);

impl sealed::Sealed for Counter {}
impl Sink for Counter {
    #[inline(always)]
    fn pos(&self) -> usize {
        self.0
    }
    #[inline(always)]
    fn push(&mut self, _: u8) {
        self.0 += 1
    }
    #[inline(always)]
    fn extend(&mut self, b: &[u8]) {
        self.0 += b.len()
    }
    #[inline(always)]
    fn zeros(&mut self, n: usize) {
        self.0 += n
    }
    #[inline(always)]
    fn reserve(&mut self, _: usize) {}
}

impl sealed::Sealed for super::AlignedBytes {}
impl Sink for super::AlignedBytes {
    #[inline(always)]
    fn pos(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.extend_from_slice(&[b])
    }
    #[inline(always)]
    fn extend(&mut self, b: &[u8]) {
        self.extend_from_slice(b)
    }
    #[inline(always)]
    fn zeros(&mut self, n: usize) {
        self.extend_zeros(n)
    }
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        self.reserve(n)
    }
}
