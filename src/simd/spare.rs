//! Appending to a `Vec<u8>` through its spare capacity: fixed-size stores at a cursor and one
//! length update at the end, instead of a capacity check, copy and length update (and a cut
//! back) for every piece. Each store is bounds-checked against the spare room (which grows
//! when short) and is one unaligned fixed-size write.

use crate::json::out::{copy_small, Out};

/// A cursor over the spare capacity of `out`. Every byte between `out.len()` and the cursor has
/// been stored; dropping the cursor (or [`Spare::commit`]) makes them part of `out`. The fields
/// are plain scalars and nothing takes the cursor's address, so in a loop they live in
/// registers.
pub(crate) struct Spare<'a> {
    out: &'a mut Vec<u8>,
    /// `out`'s buffer at `out.len()`.
    base: *mut u8,
    /// Spare capacity after `out.len()`.
    room: usize,
    /// Bytes stored past `out.len()` that the cursor has advanced over (`<= room`).
    pos: usize,
}

impl<'a> Spare<'a> {
    /// A cursor at the end of `out`, with room for `room` bytes reserved.
    #[inline(always)]
    pub(crate) fn new(out: &'a mut Vec<u8>, room: usize) -> Self {
        out.reserve(room);
        let (base, room) = window(out);
        Spare {
            out,
            base,
            room,
            pos: 0,
        }
    }

    /// Stores all `N` bytes of `block` at the cursor and advances over the first `n` of them
    /// (at most `N`). The bytes past `n` are scratch, overwritten by the next store.
    #[inline(always)]
    pub(crate) fn put<const N: usize>(&mut self, block: [u8; N], n: usize) {
        if self.room - self.pos < N {
            self.grow(N);
        }
        // SAFETY: `pos + N <= room` (checked above; `grow` makes it so), and `base` points at
        // `room` bytes of spare capacity of `out` (see `window`), which nothing else can
        // touch while the cursor holds `out`. An unaligned write of a `[u8; N]` there needs
        // nothing more; the bytes become initialized, which `commit` relies on.
        unsafe {
            self.base
                .add(self.pos)
                .cast::<[u8; N]>()
                .write_unaligned(block)
        };
        self.pos += n.min(N);
    }

    /// Stores `a`, `b` right after the first `na` bytes of `a`, `c` right after the first `nb`
    /// bytes of `b` and `d` right after the first `nc` bytes of `c`, and advances over
    /// `na + nb + nc + nd` bytes (each at most its block's size): up to four pieces of variable
    /// length with one check of the room (pass empty blocks for fewer).
    #[inline(always)]
    pub(crate) fn put4<const A: usize, const B: usize, const C: usize, const D: usize>(
        &mut self,
        (a, na): ([u8; A], usize),
        (b, nb): ([u8; B], usize),
        (c, nc): ([u8; C], usize),
        (d, nd): ([u8; D], usize),
    ) {
        if self.room - self.pos < A + B + C + D {
            self.grow(A + B + C + D);
        }
        let at_b = self.pos + na.min(A);
        let at_c = at_b + nb.min(B);
        let at_d = at_c + nc.min(C);
        // SAFETY: `pos + A + B + C + D <= room` (checked above; `grow` makes it so), and each
        // piece starts at most the sizes of the pieces before it after `pos`, so all four
        // stores lie in the `room` bytes of spare capacity at `base` (see `window`), which
        // nothing else can touch while the cursor holds `out`. The bytes up to `at_d + nd`
        // become initialized, which `commit` relies on.
        unsafe {
            self.base.add(self.pos).cast::<[u8; A]>().write_unaligned(a);
            self.base.add(at_b).cast::<[u8; B]>().write_unaligned(b);
            self.base.add(at_c).cast::<[u8; C]>().write_unaligned(c);
            self.base.add(at_d).cast::<[u8; D]>().write_unaligned(d);
        }
        self.pos = at_d + nd.min(D);
    }

    /// Appends one byte.
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) {
        self.put([b], 1);
    }

    /// Appends `bytes` (any length) with one copy.
    #[inline]
    pub(crate) fn slice(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        if self.room - self.pos < n {
            self.grow(n);
        }
        // SAFETY: `pos + n <= room` (checked above; `grow` makes it so), so the destination
        // lies in the window of `out`'s spare capacity (see `window`), which `bytes` cannot
        // overlap: the cursor borrows `out` mutably, so `bytes` is not part of it. The copied
        // bytes become initialized, which `commit` relies on.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.base.add(self.pos), n);
        }
        self.pos += n;
    }

    /// Makes sure `n` bytes fit after the cursor without growing.
    #[inline(always)]
    pub(crate) fn room(&mut self, n: usize) {
        if self.room - self.pos < n {
            self.grow(n);
        }
    }

    #[cold]
    #[inline(always)]
    fn grow(&mut self, n: usize) {
        self.commit();
        (self.base, self.room) = grow(self.out, n);
    }

    /// Makes the bytes the cursor advanced over part of the vector, and starts a new window
    /// after them.
    #[inline(always)]
    pub(crate) fn commit(&mut self) {
        let len = self.out.len() + self.pos;
        debug_assert!(len <= self.out.capacity());
        // SAFETY: `pos` only advances in `put`, over bytes that the same call stored inside the
        // window (`pos + N <= room`), and the window is the spare capacity after `out.len()`
        // (see `window`; `out` is not touched by anything else while the cursor holds it). So
        // the `pos` bytes after `len` are initialized and within capacity.
        unsafe { self.out.set_len(len) };
        // The same buffer, moved along by `pos`.
        // SAFETY: `pos <= room`, so the pointer stays inside (or one past) the allocation.
        self.base = unsafe { self.base.add(self.pos) };
        self.room -= self.pos;
        self.pos = 0;
    }

    /// The window again after `out` was changed directly (`commit` first).
    #[inline(always)]
    fn refresh(&mut self) {
        debug_assert_eq!(self.pos, 0);
        (self.base, self.room) = window(self.out);
    }
}

/// The spare capacity of `out`: where it starts, and its size.
#[inline(always)]
fn window(out: &mut Vec<u8>) -> (*mut u8, usize) {
    let spare = out.spare_capacity_mut();
    (spare.as_mut_ptr().cast::<u8>(), spare.len())
}

/// Grows `out` (whose length is up to date) so that `n` more bytes fit; the new window.
#[cold]
#[inline(never)]
fn grow(out: &mut Vec<u8>, n: usize) -> (*mut u8, usize) {
    out.reserve(n.max(64));
    window(out)
}

/// A cursor is an output too: the number writers run on it unchanged, with a store and an add
/// per piece instead of a length update.
impl Out for Spare<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.commit();
        self.out.extend_from_slice(s.as_bytes());
        self.refresh();
    }
    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        self.put([b], 1);
    }
    #[inline(always)]
    fn push_lit<const N: usize>(&mut self, b: &[u8; N]) {
        self.put(*b, N);
    }
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        self.room(n);
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.out.len() + self.pos
    }
    #[inline(always)]
    fn byte_at(&self, i: usize) -> u8 {
        if i < self.out.len() {
            return self.out[i];
        }
        let k = i - self.out.len();
        assert!(k < self.pos, "byte_at past the end");
        // SAFETY: `k < pos`, and the `pos` bytes at `base` are initialized (see `commit`).
        unsafe { *self.base.add(k) }
    }
    #[inline(always)]
    fn truncate(&mut self, n: usize) {
        self.commit();
        self.out.truncate(n);
        self.refresh();
    }
    #[inline(always)]
    fn push_block<const N: usize>(&mut self, block: [u8; N], n: usize) {
        self.put(block, n);
    }
    #[inline(always)]
    fn push_block4<const A: usize, const B: usize, const C: usize, const D: usize>(
        &mut self,
        a: ([u8; A], usize),
        b: ([u8; B], usize),
        c: ([u8; C], usize),
        d: ([u8; D], usize),
    ) {
        self.put4(a, b, c, d);
    }
    #[inline(always)]
    fn with_slot(&mut self, f: impl FnOnce(&mut [u8; 32]) -> usize) {
        let mut buf = [0u8; 32];
        let n = f(&mut buf);
        self.put(buf, n);
    }
    #[inline(always)]
    fn push_small(&mut self, s: &str) {
        if s.len() <= 32 {
            let mut buf = [0u8; 32];
            copy_small(&mut buf, s.as_bytes());
            self.put(buf, s.len());
        } else {
            self.push_str(s);
        }
    }
    #[inline(always)]
    fn push_json_str(&mut self, s: &str) {
        self.commit();
        crate::json::string::write_str_blocks(self.out, s);
        self.refresh();
    }
}

impl Drop for Spare<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.commit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_advance_and_grow() {
        let mut v = Vec::new();
        {
            let mut s = Spare::new(&mut v, 0);
            for i in 0..1000u32 {
                s.put(i.to_le_bytes(), (i % 5) as usize);
                s.put([b'x'; 16], 1);
            }
        }
        let mut want = Vec::new();
        for i in 0..1000u32 {
            want.extend_from_slice(&i.to_le_bytes()[..(i % 5).min(4) as usize]);
            want.push(b'x');
        }
        assert_eq!(v, want);
    }

    #[test]
    fn grouped_stores_advance_by_their_lengths_and_grow() {
        let mut v = Vec::new();
        let mut want = Vec::new();
        {
            let mut s = Spare::new(&mut v, 0);
            for i in 0..2000usize {
                let (na, nb, nc) = (i % 3, i % 9, i % 17);
                s.put4((*b"ab", na), (*b"01234567", nb), ([], 0), ([], 0));
                want.extend_from_slice(&b"ab"[..na]);
                want.extend_from_slice(&b"01234567"[..nb]);
                s.put4(
                    (*b"-", i % 2),
                    (*b"wxyz", i % 5),
                    (*b"ABCDEFGHIJKLMNOP", nc),
                    (*b"++", i % 4),
                );
                want.extend_from_slice(&b"-"[..i % 2]);
                want.extend_from_slice(&b"wxyz"[..(i % 5).min(4)]);
                want.extend_from_slice(&b"ABCDEFGHIJKLMNOP"[..nc.min(16)]);
                want.extend_from_slice(&b"++"[..(i % 4).min(2)]);
            }
        }
        assert_eq!(v, want);
    }

    #[test]
    fn bytes_and_slices_append_after_existing_contents() {
        let mut v = b"ab".to_vec();
        v.shrink_to_fit();
        {
            let mut s = Spare::new(&mut v, 0);
            s.put(*b"0123456789abcdef", 3);
            s.byte(b'!');
            s.slice(&[b'x'; 100]);
            s.put([b'y'; 64], 64);
            s.slice(b"");
            s.slice(b"tail");
        }
        let mut want = b"ab012!".to_vec();
        want.extend_from_slice(&[b'x'; 100]);
        want.extend_from_slice(&[b'y'; 64]);
        want.extend_from_slice(b"tail");
        assert_eq!(v, want);
    }
}
