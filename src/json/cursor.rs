//! An append cursor over a `Vec<u8>` for the re-formatting fast path (prettify, minify): it
//! writes fixed-size blocks straight into the spare capacity and then advances by the part
//! that counts, so copying a token is one or two block stores instead of a `memcpy` call or a
//! byte loop with a capacity check per byte.
//!
//! Every write checks the capacity for the whole block first (one compare, almost never
//! taken), so the API is safe; the `unsafe` is confined to this module.
#![allow(unsafe_code)]

/// Appends to a borrowed `Vec<u8>`. The bytes `vec[..len]` are always initialized; the
/// vector's own length is brought up to date on [`Drop`] (and before it reallocates).
pub(crate) struct Cursor<'v> {
    vec: &'v mut Vec<u8>,
    /// Bytes written so far (the vector's length once the cursor is dropped).
    len: usize,
    /// The vector's capacity, kept at hand.
    cap: usize,
    /// Where the vector's buffer starts, kept at hand (refreshed when it reallocates).
    ptr: *mut u8,
}

impl<'v> Cursor<'v> {
    /// A cursor appending to `vec` after its current contents.
    #[inline(always)]
    pub(crate) fn new(vec: &'v mut Vec<u8>) -> Cursor<'v> {
        Cursor {
            len: vec.len(),
            cap: vec.capacity(),
            ptr: vec.as_mut_ptr(),
            vec,
        }
    }

    /// Makes room for at least `n` more bytes (rarely needed: the callers reserve up front).
    /// The work is in a function that does not take the cursor, so the cursor's fields can
    /// stay in registers.
    #[inline(always)]
    fn grow(&mut self, n: usize) {
        (self.ptr, self.cap) = grow(self.vec, self.len, n);
    }

    /// Writes all `N` bytes of `block` at the end and keeps the first `n` of them (`n <= N`;
    /// the rest is spare room that later writes overwrite).
    #[inline(always)]
    pub(crate) fn put<const N: usize>(&mut self, block: &[u8; N], n: usize) {
        if self.cap - self.len < N {
            self.grow(N);
        }
        // SAFETY: `len + N <= cap` (checked just above; `grow` reserves at least `N` more), so
        // the `N` bytes at `ptr + len` lie inside the vector's allocation, which this cursor
        // borrows exclusively; an unaligned write of a `[u8; N]` has no other requirement.
        unsafe {
            self.ptr
                .add(self.len)
                .cast::<[u8; N]>()
                .write_unaligned(*block)
        };
        // The first `n.min(N)` bytes past the old `len` were just written: initialized.
        self.len += n.min(N);
    }

    /// Appends one byte.
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) {
        self.put::<1>(&[b], 1);
    }

    /// Appends `bytes` (any length).
    #[inline(always)]
    pub(crate) fn slice(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        if self.cap - self.len < n {
            self.grow(n);
        }
        // SAFETY: `len + n <= cap` (checked above), so the destination lies in the vector's
        // spare capacity, which cannot overlap the borrowed `bytes` (the vector is borrowed
        // mutably by this cursor, so `bytes` is not part of it).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(self.len), n) };
        self.len += n;
    }
}

/// Gives `vec` the length `len` and room for `n` more bytes; returns its buffer and capacity.
/// `len` must not exceed the capacity and `vec[..len]` must be initialized (the cursor's
/// invariant).
#[cold]
#[inline(never)]
fn grow(vec: &mut Vec<u8>, len: usize, n: usize) -> (*mut u8, usize) {
    // SAFETY: the cursor's invariant (`len <= cap`, `vec[..len]` initialized) lets the vector
    // take `len` as its length; `reserve` then keeps those bytes.
    unsafe { vec.set_len(len) };
    vec.reserve(n);
    (vec.as_mut_ptr(), vec.capacity())
}

impl Drop for Cursor<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: `len <= cap`, and every byte below `len` is initialized: the bytes the vector
        // held when the cursor was made, then only bytes the methods above wrote.
        unsafe { self.vec.set_len(self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_only_their_counted_prefix_and_grow_as_needed() {
        let mut v = b"ab".to_vec();
        v.shrink_to_fit();
        {
            let mut c = Cursor::new(&mut v);
            c.put(b"0123456789abcdef", 3);
            c.byte(b'!');
            c.put(&[b'x'; 64], 64);
            c.slice(b"tail");
        }
        let mut want = b"ab012!".to_vec();
        want.extend_from_slice(&[b'x'; 64]);
        want.extend_from_slice(b"tail");
        assert_eq!(v, want);
    }
}
