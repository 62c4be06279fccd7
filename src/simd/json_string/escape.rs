//! The JSON string writer: [`write_escaped`] reserves room for the worst case (every byte a
//! six-byte `\u00XX`) and stores blocks ([`super::CopyScan`]: 16 bytes, or 32 with AVX2 for
//! strings of 32 bytes or more) and escapes with no further capacity checks.

#[cfg(structio_x86)]
use super::Avx2;
use super::{CopyScan, Narrow};
use crate::json::string::{needs_escape16, padded16, ESCAPES};
#[cfg(structio_x86)]
use crate::simd::detect::has_avx2;
use crate::simd::json_scan::special_bits16;

/// Source bytes escaped per reservation: strings longer than this are written in pieces, so
/// the worst-case reservation stays small.
const CHUNK: usize = 4096;

/// Room needed after the cursor to escape `n` bytes: six per byte, plus the slack of a block
/// store past the last byte.
#[inline(always)]
const fn room_for(n: usize) -> usize {
    6 * n + 32
}

/// Appends `s` as a quoted JSON string: `"`, `\` and control bytes escaped with the short
/// forms or `\u00XX` (upper-case hex), everything else raw.
///
/// A string of fewer than 16 bytes that needs no escape (keys' values in small messages,
/// mostly) is written in line: checked and copied as two overlapping words loaded straight from
/// it (never a block assembled on the stack from smaller stores, whose 16-byte reload the
/// processor cannot forward and stalls on), between the quotes. Anything else goes to
/// [`write_escaped_blocks`]. (Out of line, the call and its register saves were half of writing
/// a JSON-RPC message.)
#[inline(always)]
pub(crate) fn write_escaped(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len();
    if n < 16 && !needs_escape16(s) {
        out.reserve(18);
        let len = out.len();
        // SAFETY: 18 bytes of spare capacity after `len` (reserved above): the opening quote
        // at `len`, the `n < 16` bytes of `s` at `len + 1 .. len + 1 + n` (`copy_short` writes
        // exactly those), the closing quote at `len + 1 + n <= len + 16`: the `n + 2` bytes
        // after `len` are initialized before `set_len`.
        unsafe {
            let dst = out.as_mut_ptr().add(len);
            *dst = b'"';
            copy_short(s, dst.add(1));
            *dst.add(1 + n) = b'"';
            out.set_len(len + n + 2);
        }
        return;
    }
    write_escaped_blocks(out, s);
}

/// Copies `s` (at most 16 bytes) to `dst` with two overlapping word loads and stores (four
/// bytes at a time below 8, byte by byte below 4): no call to `memcpy`, no stack block.
///
/// # Safety
/// `dst` is writable for `s.len()` bytes.
#[inline(always)]
unsafe fn copy_short(s: &[u8], dst: *mut u8) {
    let n = s.len();
    let src = s.as_ptr();
    // SAFETY: in each branch the loads are inside `s` (`0 .. n`) and the stores inside
    // `dst .. dst + n`, which the caller makes writable; unaligned reads and writes of plain
    // integers need nothing more.
    unsafe {
        if n >= 8 {
            let lo = src.cast::<u64>().read_unaligned();
            let hi = src.add(n - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(lo);
            dst.add(n - 8).cast::<u64>().write_unaligned(hi);
        } else if n >= 4 {
            let lo = src.cast::<u32>().read_unaligned();
            let hi = src.add(n - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(lo);
            dst.add(n - 4).cast::<u32>().write_unaligned(hi);
        } else if n > 0 {
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
    }
}

/// [`write_escaped`] for strings of 16 bytes or more, or with a byte to escape: blocks stored
/// into spare capacity reserved for the worst case while they are scanned.
#[inline]
fn write_escaped_blocks(out: &mut Vec<u8>, s: &[u8]) {
    if s.len() > CHUNK {
        return write_long(out, s);
    }
    out.reserve(room_for(s.len()) + 2);
    let len = out.len();
    // SAFETY: `out` has at least `6 * s.len() + 34` bytes of spare capacity after `len`
    // (reserved above). The opening quote takes one, `escape` writes at most
    // `room_for(s.len())` bytes from the next one and returns how many it stored in order
    // (`n <= 6 * s.len()`), and the closing quote goes right after them, so every write is in
    // the spare capacity and the `n + 2` bytes after `len` are initialized before `set_len`.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        *dst = b'"';
        let n = escape(s, dst.add(1));
        *dst.add(1 + n) = b'"';
        out.set_len(len + n + 2);
    }
}

/// [`write_escaped`] for strings longer than [`CHUNK`]: one reservation per chunk.
#[cold]
#[inline(never)]
fn write_long(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for chunk in s.chunks(CHUNK) {
        out.reserve(room_for(chunk.len()));
        let len = out.len();
        // SAFETY: as in `write_escaped`: `room_for(chunk.len())` spare bytes are reserved,
        // `escape` stays inside them and initializes the `n` bytes it reports.
        unsafe {
            let n = escape(chunk, out.as_mut_ptr().add(len));
            out.set_len(len + n);
        }
    }
    out.push(b'"');
}

/// Escapes `s` into `dst`, with AVX2 for strings of at least 32 bytes when the processor has
/// it; returns the number of bytes stored.
///
/// # Safety
/// `dst` is writable for `room_for(s.len())` bytes.
#[inline(always)]
unsafe fn escape(s: &[u8], dst: *mut u8) -> usize {
    #[cfg(structio_x86)]
    {
        if s.len() >= 32 && has_avx2() {
            // SAFETY: AVX2 is present (checked); `dst` as the caller guarantees.
            return unsafe { escape_avx2(s, dst) };
        }
    }
    // SAFETY: `Narrow` needs no special instructions; `dst` as the caller guarantees.
    unsafe { escape_narrow(s, dst) }
}

/// Escapes `s` into `dst` 16 bytes at a time ([`escape_blocks`], then [`escape_tail`]);
/// returns the number of bytes stored.
///
/// # Safety
/// `dst` is writable for `room_for(s.len())` bytes.
#[inline]
pub(crate) unsafe fn escape_narrow(s: &[u8], dst: *mut u8) -> usize {
    // SAFETY: forwarded from the caller.
    unsafe {
        let (i, d) = escape_blocks::<Narrow>(s, dst, 0, 0);
        escape_tail(s, dst, i, d)
    }
}

/// Escapes `s` into `dst` 32 bytes at a time, then 16, then the tail; returns the number of
/// bytes stored.
///
/// # Safety
/// `dst` is writable for `room_for(s.len())` bytes and the processor has AVX2.
#[cfg(structio_x86)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn escape_avx2(s: &[u8], dst: *mut u8) -> usize {
    // SAFETY: forwarded from the caller (who checked for AVX2); the shuffled tail gets the
    // at least 16 bytes it needs.
    unsafe {
        let (i, d) = escape_blocks::<Avx2>(s, dst, 0, 0);
        let (i, d) = escape_blocks::<Narrow>(s, dst, i, d);
        if s.len() >= 16 {
            escape_tail_shuffled(s, dst, i, d)
        } else {
            escape_tail(s, dst, i, d)
        }
    }
}

/// For each shift `k`, the `pshufb` control that moves bytes `k..16` of a block to `0..16 - k`.
#[cfg(structio_x86)]
const SHIFT_DOWN: [[u8; 16]; 16] = {
    let mut t = [[0x80u8; 16]; 16];
    let mut k = 0;
    while k < 16 {
        let mut j = 0;
        while j + k < 16 {
            t[k][j] = (j + k) as u8;
            j += 1;
        }
        k += 1;
    }
    t
};

/// [`escape_tail`] for strings of at least 16 bytes on a processor with AVX2 (so SSSE3): the
/// last 16 bytes of `s` are loaded once per step and shifted down to the cursor with one
/// shuffle, instead of being gathered into a padded block.
///
/// # Safety
/// `s.len() >= 16`, `dst` is writable for `room_for(s.len())` bytes, `d <= 6 * i`, and the
/// processor has AVX2.
#[cfg(structio_x86)]
#[inline(always)]
unsafe fn escape_tail_shuffled(s: &[u8], dst: *mut u8, mut i: usize, mut d: usize) -> usize {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128};
    let n = s.len();
    debug_assert!(n >= 16);
    // SAFETY: `n >= 16`, so the last 16 bytes are inside `s`.
    let last: [u8; 16] = unsafe { s.as_ptr().add(n - 16).cast::<[u8; 16]>().read_unaligned() };
    let mask = special_bits16(&last);
    while i < n {
        let r = n - i;
        let shift = 16 - r;
        // SAFETY: `i < n`, so `d + 16 <= 6 * i + 16 <= room_for(n)`; the shuffle and the
        // loads compute on values (the processor has SSSE3, part of AVX2).
        unsafe {
            let v = _mm_shuffle_epi8(
                _mm_loadu_si128(last.as_ptr().cast::<__m128i>()),
                _mm_loadu_si128(SHIFT_DOWN[shift & 15].as_ptr().cast::<__m128i>()),
            );
            _mm_storeu_si128(dst.add(d).cast::<__m128i>(), v);
        }
        let m = mask >> shift;
        if m == 0 {
            return d + r;
        }
        let k = m.trailing_zeros() as usize;
        i += k;
        d += k;
        let e = ESCAPES[last[(i + 16 - n) & 15] as usize];
        // SAFETY: `i < n`, so `d + 8 <= room_for(n)`.
        unsafe { dst.add(d).cast::<[u8; 8]>().write_unaligned(e) };
        d += e[7] as usize;
        i += 1;
    }
    d
}

/// Escapes `s[i..]` into `dst[d..]` in whole blocks while a block fits: each block is stored
/// whole, the cursor moves over its clean bytes, and an escape is one 8-byte store after which
/// the scan restarts. Returns where it stopped (fewer than `B::W` bytes left).
///
/// # Safety
/// `dst` is writable for `room_for(s.len())` bytes, `d <= 6 * i`, and the processor has `B`'s
/// instructions.
#[inline(always)]
unsafe fn escape_blocks<B: CopyScan>(
    s: &[u8],
    dst: *mut u8,
    mut i: usize,
    mut d: usize,
) -> (usize, usize) {
    let n = s.len();
    let src = s.as_ptr();
    // Invariant: `d <= 6 * i` (a clean byte adds one output byte, an escape at most six).
    while i + B::W <= n {
        // SAFETY: `i + W <= n`, so the block is inside `s`; `d + W <= 6 * i + W <=
        // room_for(n)`, so the store is inside `dst`.
        let m = unsafe { B::copy_scan(src.add(i), dst.add(d)) };
        if m == 0 {
            i += B::W;
            d += B::W;
            continue;
        }
        let k = m.trailing_zeros() as usize;
        i += k;
        d += k;
        // SAFETY: `k < W`, so `i < n`: the byte is inside `s`, and `d + 8 <= 6 * i + 8 <=
        // room_for(n)`.
        unsafe {
            let e = ESCAPES[*src.add(i) as usize];
            dst.add(d).cast::<[u8; 8]>().write_unaligned(e);
            d += e[7] as usize;
        }
        i += 1;
    }
    (i, d)
}

/// The last (fewer than 16) bytes of `s` from `i`, through blocks padded with spaces (which
/// need no escape); returns the final output length.
///
/// # Safety
/// `dst` is writable for `room_for(s.len())` bytes and `d <= 6 * i`.
#[inline(always)]
unsafe fn escape_tail(s: &[u8], dst: *mut u8, mut i: usize, mut d: usize) -> usize {
    while let Some(rest) = s.get(i..).filter(|r| !r.is_empty()) {
        let a = padded16(rest);
        // SAFETY: `i < n`, so `d + 16 <= 6 * i + 16 <= room_for(n)`.
        unsafe { dst.add(d).cast::<[u8; 16]>().write_unaligned(a) };
        let m = special_bits16(&a);
        if m == 0 {
            return d + rest.len();
        }
        // The padding is never special, so `k` is inside `rest`.
        let k = m.trailing_zeros() as usize;
        i += k;
        d += k;
        let e = ESCAPES[a[k & 15] as usize];
        // SAFETY: `i < n`, so `d + 8 <= room_for(n)`.
        unsafe { dst.add(d).cast::<[u8; 8]>().write_unaligned(e) };
        d += e[7] as usize;
        i += 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The escaped text of `s` byte by byte, the reference.
    fn reference(s: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        for &b in s {
            let e = ESCAPES[b as usize];
            if e[7] == 0 {
                v.push(b);
            } else {
                v.extend_from_slice(&e[..e[7] as usize]);
            }
        }
        v
    }

    /// Runs `f` (a kernel) on `s` into a buffer with exactly `room_for(s.len())` bytes.
    fn run(s: &[u8], f: Kernel) -> Vec<u8> {
        let mut v = vec![0xAAu8; room_for(s.len())];
        // SAFETY: `v` has `room_for(s.len())` bytes; the caller only passes kernels whose
        // instructions the processor has.
        let n = unsafe { f(s, v.as_mut_ptr()) };
        v.truncate(n);
        v
    }

    /// An escaping loop: `(s, dst) -> bytes stored`.
    type Kernel = unsafe fn(&[u8], *mut u8) -> usize;

    fn kernels() -> Vec<(&'static str, Kernel)> {
        #[cfg_attr(not(structio_x86), allow(unused_mut))]
        let mut k: Vec<(&'static str, Kernel)> = vec![("narrow", escape_narrow)];
        #[cfg(structio_x86)]
        if crate::simd::detect::has_avx2() {
            k.push(("avx2", escape_avx2));
        } else {
            println!("no AVX2 on this processor: its path is not tested");
        }
        k
    }

    #[test]
    fn every_escape_byte_at_every_position_of_short_and_long_strings() {
        let specials: Vec<u8> = (0u8..0x20).chain([b'"', b'\\']).collect();
        for (name, f) in kernels() {
            for len in 1..=80 {
                for pos in 0..len {
                    for &b in &specials {
                        let mut s = vec![b'a'; len];
                        s[pos] = b;
                        assert_eq!(run(&s, f), reference(&s), "{name} len {len} pos {pos} {b}");
                        // Two escapes: the scan restarts after the first.
                        let mut s2 = s.clone();
                        s2[(pos * 7 + 3) % len] = b'"';
                        assert_eq!(run(&s2, f), reference(&s2), "{name} len {len} pos {pos}");
                    }
                }
                // Every byte special: the worst case fills the reservation exactly.
                let all = vec![1u8; len];
                assert_eq!(run(&all, f), reference(&all), "{name} len {len}");
                assert_eq!(run(&all, f).len(), 6 * len);
            }
        }
    }

    #[test]
    fn multibyte_text_across_block_boundaries() {
        for (name, f) in kernels() {
            for lead in 0..40 {
                for piece in ["é", "中", "😀", "🏳️‍🌈", "\n😀\\", "\"é"] {
                    let mut s = "x".repeat(lead);
                    while s.len() < 100 {
                        s.push_str(piece);
                    }
                    let s = s.as_bytes();
                    assert_eq!(run(s, f), reference(s), "{name} lead {lead} {piece}");
                    for end in [15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 96] {
                        let s = &s[..end.min(s.len())];
                        assert_eq!(run(s, f), reference(s), "{name} lead {lead} end {end}");
                    }
                }
            }
        }
    }

    /// The in-line path for short clean strings and the block path meet at 16 bytes and at the
    /// first byte to escape: every length around there, clean, with one special byte at each
    /// place, and with multi-byte text, appended to a buffer with no spare room (so that the
    /// reservation must grow it) and to one with plenty.
    #[test]
    fn short_strings_in_line_and_the_rest_through_blocks() {
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for len in 0..=20usize {
            let clean: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
            cases.push(clean.clone());
            for pos in 0..len {
                for b in [b'"', b'\\', b'\n', 0x1F, 0x7F, 0xC3] {
                    let mut s = clean.clone();
                    s[pos] = b;
                    cases.push(s);
                }
            }
            cases.push("é".repeat(len / 2).into_bytes());
        }
        for s in &cases {
            let mut want = b"[\"".to_vec();
            want.extend(reference(s));
            want.push(b'"');
            let mut tight = b"[".to_vec();
            tight.shrink_to_fit();
            write_escaped(&mut tight, s);
            assert_eq!(tight, want, "{s:?}");
            let mut roomy = Vec::with_capacity(256);
            roomy.push(b'[');
            write_escaped(&mut roomy, s);
            assert_eq!(roomy, want, "{s:?}");
        }
    }

    #[test]
    fn appends_quoted_strings_and_long_ones_in_chunks() {
        let mut out = b"[".to_vec();
        write_escaped(&mut out, b"a\"b");
        write_escaped(&mut out, b"");
        assert_eq!(out, b"[\"a\\\"b\"\"\"");
        for len in [CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
            let s: Vec<u8> = (0..len)
                .map(|k| {
                    if k % 29 == 0 {
                        b'\t'
                    } else {
                        b'a' + (k % 26) as u8
                    }
                })
                .collect();
            let mut out = b"x".to_vec();
            write_escaped(&mut out, &s);
            let mut want = b"x\"".to_vec();
            want.extend(reference(&s));
            want.push(b'"');
            assert_eq!(out, want, "len {len}");
        }
    }
}
