//! A string array (`0x3C`) read into reused `String`s, its UTF-8 check run over the array's
//! bytes as one stream, with the vectors of one of two kernels: AVX-512 ([`avx512`], 64-byte
//! blocks) or AVX2 ([`avx2`], 32-byte blocks).
//!
//! The array is `SIZE | bytes` repeated. Each string is copied into its `String` as soon as
//! its SIZE is read; the check lags behind, over whole blocks of the input that the copies
//! have passed, with every SIZE byte zeroed in the block. A zero byte is a whole character,
//! so the stream is valid UTF-8 exactly when every string is on its own: no sequence can
//! start in one string and end in the next, or lean on a SIZE byte. A 90-byte string costs
//! 1.4 64-byte blocks of checking this way (2.9 of 32 bytes), not the two (or four) that a
//! check of each string apart takes, with their set-up and masked last block.
//!
//! The strings hold their bytes before the check has seen them. Nothing outside this module
//! can look at them meanwhile (the caller's `&mut` borrow is held throughout), and a drop
//! guard ([`Unchecked`]) empties every string filled so far unless the whole run passed: on an
//! invalid string, a cut input, and on unwinding alike. So no `String` holds bytes that are
//! not UTF-8 once control leaves [`strings_into`].
//!
//! Called only when the processor has what the kernel's [`Kernel::available`] asks for.

pub(crate) mod avx2;
// Built only with Rust 1.89 or later (`cfg(structio_avx512)`, set by the build script).
#[cfg(structio_avx512)]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512;
#[cfg(test)]
mod tests;

use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

use super::PREFETCH;
use crate::beve::length_prefix;
use crate::error::Error;

/// Most `String`s one run appends to a shorter vector: a vector grows only a little ahead of
/// the strings the input has shown to be there.
const RUN: usize = 256;

/// What the stream needs of a vector width: its blocks, with SIZE bytes zeroed; the UTF-8
/// check of a block given the one before; a string's copy; and the entry into the loop
/// compiled with the kernel's target features ([`Kernel::advance`]). Every method but
/// `available`, `save`, `restore` and the near-mark conversions runs only inside that loop,
/// inlined into it.
pub(crate) trait Kernel {
    /// The block's width in bytes (64 or 32).
    const B: usize;
    /// A block of bytes in a register.
    type V: Copy;
    /// The marks of the SIZE bytes of the block being filled.
    type Near: Copy;

    /// Whether the processor has what this kernel needs (asked once, then one load).
    fn available() -> bool;

    /// A block of zeros.
    ///
    /// # Safety
    /// The processor has what [`Kernel::available`] asks for.
    unsafe fn zero() -> Self::V;

    /// No SIZE byte marked.
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn no_near() -> Self::Near;

    /// `near` with byte `k < B` of the block marked as a SIZE byte.
    ///
    /// # Safety
    /// As [`Kernel::zero`], and `k < B`.
    unsafe fn mark(near: Self::Near, k: usize) -> Self::Near;

    /// The `B` bytes at `at`, with the bytes `near` marks zeroed.
    ///
    /// # Safety
    /// As [`Kernel::zero`]; the `B` bytes at `at` are readable.
    unsafe fn block(at: *const u8, near: Self::Near) -> Self::V;

    /// The `n < B` bytes at `at`, with the bytes `near` marks zeroed and zeros after them;
    /// `room >= n` bytes are readable at `at` (a kernel may read up to `B` of them).
    ///
    /// # Safety
    /// As [`Kernel::zero`]; `n < B`, `n <= room`, and the `room` bytes at `at` are readable.
    unsafe fn tail(at: *const u8, n: usize, room: usize, near: Self::Near) -> Self::V;

    /// `errors` with the errors of block `v` added, each byte judged with the three before it
    /// (the last of them from `prev`); with `SHORTCUT`, an all-ASCII block is judged by a
    /// quicker test that only asks whether `prev` ends in an unfinished sequence.
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn judge<const SHORTCUT: bool>(errors: Self::V, v: Self::V, prev: Self::V) -> Self::V;

    /// Whether `errors` holds no error.
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn clean(errors: Self::V) -> bool;

    /// Whether the bytes at `p` (the first block's worth, or all that are left) are ASCII:
    /// the array's text is then judged with the all-ASCII shortcut.
    ///
    /// # Safety
    /// As [`Kernel::zero`]; `p <= input.len()`.
    unsafe fn ascii_head(input: &[u8], p: usize) -> bool;

    /// Copies `len` bytes from `src` to `dst` without calling anything (a call would spill
    /// the stream's vectors).
    ///
    /// # Safety
    /// As [`Kernel::zero`]; `src` is readable and `dst` writable for `len` bytes, and they do
    /// not overlap.
    unsafe fn copy(src: *const u8, len: usize, dst: *mut u8);

    /// Whether `input[start..start + len]` is inside `input` and valid UTF-8: for a string
    /// the loop does not read ([`wide`]). A call into code with the kernel's features.
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn valid(input: &[u8], start: usize, len: usize) -> bool;

    /// [`advance_either`] for this kernel, compiled with its target features
    /// (`#[target_feature]` on the impl). Its callers have none, so it is never inlined into
    /// them: in one function with the code that calls `reserve` when it stops for room, the
    /// compiler kept the stream's two vectors in memory for the whole loop (a store and a
    /// reload per block, on the chain from one block to the next), which made the read 25-30%
    /// slower. (`#[inline(never)]` would not do: on a `#[target_feature]` function rustc 1.95
    /// does not pass it on to the back end.)
    ///
    /// # Safety
    /// As [`Kernel::zero`]; `from <= strings.len()`.
    unsafe fn advance(
        input: &[u8],
        p: usize,
        resume: &mut Option<Resume>,
        strings: &mut [String],
        from: usize,
    ) -> (usize, usize);

    /// A block as plain bytes, for [`Resume`] (the first `B` bytes hold it).
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn save(v: Self::V) -> [u8; 64];

    /// The inverse of [`Kernel::save`].
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn restore(bytes: &[u8; 64]) -> Self::V;

    /// The SIZE marks as bits (bit `k` for byte `k`), for [`Resume`].
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn near_bits(near: Self::Near) -> u64;

    /// The inverse of [`Kernel::near_bits`].
    ///
    /// # Safety
    /// As [`Kernel::zero`].
    unsafe fn near_from(bits: u64) -> Self::Near;
}

/// Reads `n` strings starting at `*pos` into `out`, reusing its strings' buffers (its length
/// becomes `n`). An error comes with the index of the first string that is invalid or cut,
/// and leaves `*pos` where it was.
///
/// # Safety
/// The processor has what `K::available` asks for.
#[inline]
pub(super) unsafe fn strings_into<K: Kernel>(
    input: &[u8],
    pos: &mut usize,
    n: usize,
    out: &mut Vec<String>,
) -> Result<(), (Error, usize)> {
    if let Some(strings) = out.get_mut(..n) {
        // The usual case when reading into a used value: one run over strings that are there.
        // SAFETY: the caller's promise about the processor.
        if !unsafe { run::<K>(input, pos, strings) } {
            fall_back(input, pos, strings, 0)?;
        }
        out.truncate(n);
        return Ok(());
    }
    let mut i = 0;
    while i < n {
        let end = n.min(i + RUN);
        if out.len() < end {
            out.resize_with(end, String::new);
        }
        let strings = &mut out[i..end];
        // SAFETY: the caller's promise about the processor.
        if !unsafe { run::<K>(input, pos, strings) } {
            fall_back(input, pos, strings, i)?;
        }
        i = end;
    }
    out.truncate(n);
    Ok(())
}

/// After a run that did not pass (invalid or cut, or a SIZE in its eight-byte form): its
/// strings read one by one, each checked on its own, for the error with its exact offset (or
/// the strings, when the form was all it was). An error names `first` (the index of the
/// run's first string) plus the index of the string it is about, and leaves `*pos` unmoved.
#[cold]
#[inline(never)]
fn fall_back(
    input: &[u8],
    pos: &mut usize,
    strings: &mut [String],
    first: usize,
) -> Result<(), (Error, usize)> {
    #[cfg(test)]
    tests::FALLBACKS.with(|f| f.set(f.get() + 1));
    let mut at = *pos;
    for (k, s) in strings.iter_mut().enumerate() {
        let text = crate::beve::transcode::sized_str(input, &mut at).map_err(|e| (e, first + k))?;
        s.clear();
        s.push_str(text);
    }
    *pos = at;
    Ok(())
}

/// Empties the first `filled` strings when dropped: those that may hold bytes the check has
/// not passed yet. A run that passes sets `filled` to 0 first.
struct Unchecked<'a> {
    strings: &'a mut [String],
    filled: usize,
}

impl Drop for Unchecked<'_> {
    #[inline]
    fn drop(&mut self) {
        for s in &mut self.strings[..self.filled] {
            s.clear();
        }
    }
}

/// Where a run's stream stood when [`advance_with`] stopped for room or for a wide string:
/// what the call that resumes it needs. A run that does not stop (the usual case) never has
/// one: its first call starts from zeros in registers, and the position goes in and out in
/// registers too, so nothing of the stream passes through memory.
pub(crate) struct Resume {
    /// The SIZE of the string [`advance_with`] stopped at.
    p: usize,
    /// The first byte the check has not judged; `p - q < B` between strings.
    q: usize,
    /// Bit `k` marks a SIZE byte at `q + k` to be zeroed. Only a SIZE's first byte is: the
    /// strings [`advance_with`] reads are shorter than 8,192 bytes, so the second byte of a
    /// two-byte SIZE (the length over 64) is ASCII, which separates the strings around it as
    /// well as a zero does.
    near: u64,
    /// The last block judged, for the three bytes before each of the next (bytes, not a
    /// vector, whose 32- or 64-byte alignment would make the caller realign its stack).
    prev: [u8; 64],
    /// The error classes found so far, or-ed.
    errors: [u8; 64],
}

/// Why [`advance_with`] stopped (returned as two words, [`Stop::pack`]).
enum Stop {
    /// Every string is copied and the stream judged to its end (valid UTF-8 or not); the
    /// strings end at `end`.
    Done { end: usize, valid: bool },
    /// String `k` needs more room than its `String` has (its SIZE is at the resume point).
    Room(usize),
    /// String `k` is not one [`advance_with`] reads: a SIZE in its four- or eight-byte form,
    /// one cut by the end of the input, or a length of 8,192 or more. The stream is judged up
    /// to its SIZE, to be restarted after it ([`wide`] reads it).
    Wide(usize),
    /// A string is cut short by the end of the input.
    Cut,
}

impl Stop {
    /// As two words, which a function returns in registers (the enum itself goes through
    /// memory, and the end position with it: a store and a load on the path from one array
    /// to the next).
    #[inline(always)]
    fn pack(self) -> (usize, usize) {
        match self {
            Stop::Done { end, valid } => (end, valid as usize),
            Stop::Room(k) => (k, 2),
            Stop::Wide(k) => (k, 3),
            Stop::Cut => (0, 4),
        }
    }

    /// The inverse of [`Stop::pack`].
    #[inline(always)]
    fn unpack((a, why): (usize, usize)) -> Stop {
        match why {
            0 | 1 => Stop::Done {
                end: a,
                valid: why == 1,
            },
            2 => Stop::Room(a),
            3 => Stop::Wide(a),
            _ => Stop::Cut,
        }
    }
}

/// [`Kernel::advance`]'s body: chooses the loop with or without the all-ASCII shortcut.
///
/// Text that starts ASCII is likely to go on so: its blocks are judged with the shortcut.
/// Otherwise they are judged in full without asking, which saves three instructions a block
/// (4% of reading the benchmark documents, whose every block has multi-byte characters). The
/// choice is made again for every array.
///
/// # Safety
/// The processor has what `K::available` asks for; `from <= strings.len()`.
#[inline(always)]
unsafe fn advance_either<K: Kernel>(
    input: &[u8],
    p: usize,
    resume: &mut Option<Resume>,
    strings: &mut [String],
    from: usize,
) -> (usize, usize) {
    // SAFETY: the caller's promises (for all three calls); `p <= input.len()` (every caller's
    // position is inside the input or at its end).
    unsafe {
        if K::ascii_head(input, p) {
            advance_with::<K, true>(input, p, resume, strings, from)
        } else {
            advance_with::<K, false>(input, p, resume, strings, from)
        }
    }
}

/// Reads one string into each of `strings[from..]`, the first one's SIZE at `p`, and judges
/// the blocks they pass, until done or stopped; it calls nothing, so its loop keeps the
/// stream's vectors in registers. It reads strings of fewer than 8,192 bytes with a one- or
/// two-byte SIZE (every string of a typical document), and stops at any other. `resume` is
/// where a stopped run stood (`None` for a run's first call), and is set when it stops for
/// room or a wide string. Blocks are judged with the all-ASCII shortcut when `SHORTCUT`.
///
/// # Safety
/// The processor has what `K::available` asks for; `from <= strings.len()`.
#[inline(always)]
unsafe fn advance_with<K: Kernel, const SHORTCUT: bool>(
    input: &[u8],
    mut p: usize,
    resume: &mut Option<Resume>,
    strings: &mut [String],
    from: usize,
) -> (usize, usize) {
    let base = input.as_ptr();
    let end = input.len();
    let (mut q, mut near, mut prev, mut errors) = match resume {
        // SAFETY: the caller's promise about the processor.
        Some(r) => unsafe {
            (
                r.q,
                K::near_from(r.near),
                K::restore(&r.prev),
                K::restore(&r.errors),
            )
        },
        // SAFETY: the caller's promise about the processor.
        None => unsafe { (p, K::no_near(), K::zero(), K::zero()) },
    };
    let mut stop = Stop::Cut;
    // Below `near_end`, no string this loop reads can reach past the input (a SIZE of at
    // most two bytes, fewer than 8,192 bytes of text), so only the strings in the last 8 KiB
    // are checked against its end.
    let near_end = end.saturating_sub(2 + 8191);
    let first = strings.as_mut_ptr();
    // SAFETY: `from <= strings.len()` (the callers'), so both pointers are in the vector or one
    // past its end.
    let (mut s, last) = unsafe { (first.add(from), first.add(strings.len())) };
    loop {
        if s == last {
            stop = Stop::Done {
                end: p,
                valid: false,
            };
            break;
        }
        // SAFETY: `s` is inside `strings` (`first <= s < last`).
        let k = unsafe { s.offset_from(first) } as usize;
        // A hint only, for an address that may lie past the input: a prefetch reads nothing
        // into the program and cannot fault.
        // SAFETY: SSE, which every x86-64 processor has (an `unsafe` call before Rust 1.87).
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(base.wrapping_add(p + PREFETCH).cast())
        };
        if p >= near_end && end - p < 2 {
            stop = Stop::Wide(k);
            break;
        }
        // SAFETY: `p + 2 <= end` (checked above near the end; `p < near_end` otherwise).
        let word = u16::from_le_bytes(unsafe { *base.add(p).cast::<[u8; 2]>() }) as usize;
        // A two-byte SIZE has bit 0 set; the length is the word over 4, masked to the SIZE's
        // width. Bit 1 set (a four- or eight-byte SIZE) or a length of 8,192 or more: `wide`.
        let two = word & 1;
        let len = if two == 0 {
            (word & 0xFF) >> 2
        } else {
            word >> 2
        };
        if (word & 2) | (len >> 13) != 0 {
            stop = Stop::Wide(k);
            break;
        }
        let w = 1 + two;
        if p >= near_end && len + w > end - p {
            break;
        }
        // SAFETY: `s` is inside `strings` (above). The `String`'s bytes as a `Vec`: its bytes
        // are overwritten and its length set below with bytes the check has not seen yet,
        // which the caller's guard empties unless the run passes.
        let dst = unsafe { (*s).as_mut_vec() };
        if dst.capacity() < len {
            stop = Stop::Room(k);
            break;
        }
        // SAFETY: `p - q < B` between strings (the loop below judges every whole block).
        near = unsafe { K::mark(near, p - q) };
        p += w;
        // SAFETY: `p + len <= end` (checked above), so the source is inside `input`; `dst`
        // has room for `len` bytes and is a `String`'s buffer, which does not overlap the
        // input.
        unsafe {
            K::copy(base.add(p), len, dst.as_mut_ptr());
            dst.set_len(len);
        }
        p += len;
        // SAFETY: `s < last`, so one past it at most.
        s = unsafe { s.add(1) };
        while p - q >= K::B {
            // SAFETY: `q + B <= p <= end`: the block is inside `input`; the caller's promise
            // about the processor.
            unsafe {
                let v = K::block(base.add(q), near);
                errors = K::judge::<SHORTCUT>(errors, v, prev);
                prev = v;
                near = K::no_near();
            }
            q += K::B;
        }
    }
    if matches!(stop, Stop::Done { .. } | Stop::Wide(_)) {
        // The last, partial block: the bytes from `q` to `p`, SIZE bytes zeroed as before. It
        // ends in at least one zero (`p - q < B`; all zeros when the strings ended at a
        // block's end), so a sequence left unfinished at the end of the last string is an
        // error of this block, and no test of its end is needed; and the stream can restart
        // from zeros after it. Its being ASCII or not is a toss-up, so it is judged without
        // the all-ASCII branch.
        // SAFETY: `q <= p <= end` and `p - q < B`; the bytes from `q` to the input's end are
        // readable; the caller's promise about the processor.
        unsafe {
            let v = K::tail(base.add(q), p - q, end - q, near);
            errors = K::judge::<false>(errors, v, prev);
            prev = K::zero();
            near = K::no_near();
        }
        q = p;
        if let Stop::Done { valid, .. } = &mut stop {
            // SAFETY: the caller's promise about the processor.
            *valid = unsafe { K::clean(errors) };
        }
    }
    if matches!(stop, Stop::Room(_) | Stop::Wide(_)) {
        // SAFETY: the caller's promise about the processor.
        *resume = Some(unsafe {
            Resume {
                p,
                q,
                near: K::near_bits(near),
                prev: K::save(prev),
                errors: K::save(errors),
            }
        });
    }
    stop.pack()
}

/// Reads the string at `r.p` into `dst` whatever its SIZE's form and length, checked on its
/// own and then copied, and restarts the stream after it ([`advance_with`] has judged it up
/// to the SIZE). Returns `false` when the SIZE or the string is cut or the string is not
/// UTF-8.
///
/// # Safety
/// The processor has what `K::available` asks for.
unsafe fn wide<K: Kernel>(input: &[u8], r: &mut Resume, dst: &mut String) -> bool {
    let mut p = r.p;
    let Ok(len) = length_prefix::read(input, &mut p) else {
        return false;
    };
    // SAFETY: the caller's promise about the processor.
    if !unsafe { K::valid(input, p, len) } {
        return false;
    }
    // SAFETY: `K::valid` found the range inside `input` and valid UTF-8.
    let text = unsafe { std::str::from_utf8_unchecked(&input[p..p + len]) };
    dst.clear();
    dst.push_str(text);
    r.p = p + len;
    r.q = r.p;
    true
}

/// Reads one string into each of `strings` from `*pos`, checking the run's bytes as one
/// stream; on success advances `*pos` past them and returns `true`. Otherwise (a cut SIZE or
/// string, invalid UTF-8) returns `false`, with every string that held bytes the check had
/// not passed emptied.
///
/// # Safety
/// The processor has what `K::available` asks for.
#[inline(always)]
unsafe fn run<K: Kernel>(input: &[u8], pos: &mut usize, strings: &mut [String]) -> bool {
    let count = strings.len();
    let mut guard = Unchecked {
        strings,
        filled: count,
    };
    let mut resume = None;
    let mut p = *pos;
    let mut from = 0;
    loop {
        // SAFETY: the caller's promise about the processor; `from <= count`.
        match Stop::unpack(unsafe { K::advance(input, p, &mut resume, guard.strings, from) }) {
            Stop::Done { end, valid: true } => {
                guard.filled = 0;
                *pos = end;
                return true;
            }
            Stop::Done { valid: false, .. } | Stop::Cut => return false,
            Stop::Room(k) => {
                let Some(r) = &resume else { return false };
                p = r.p;
                // The SIZE `advance_with` read before it stopped, read again.
                let Ok(len) = length_prefix::read(input, &mut r.p.clone()) else {
                    return false;
                };
                // Strings before `k` hold bytes not judged yet: the guard empties them if
                // this unwinds.
                guard.filled = k;
                guard.strings[k].clear();
                guard.strings[k].reserve(len);
                guard.filled = count;
                from = k;
            }
            Stop::Wide(k) => {
                let Some(r) = &mut resume else { return false };
                // SAFETY: the caller's promise about the processor; `r` is the state the kernel
                // stopped with at string `k`.
                if !unsafe { wide::<K>(input, r, &mut guard.strings[k]) } {
                    return false;
                }
                p = r.p;
                from = k + 1;
            }
        }
    }
}

#[cfg(test)]
/// `input[start..start + len]` read as a one-string array (its SIZE put before it) by
/// [`strings_into`] with kernel `K`, and appended to `out` when it was valid; `None` when the
/// processor lacks what the kernel needs. For the string-check tests of `crate::simd::utf8::avx2`,
/// which run every kernel on the same cases: the bytes around the string stay as they were.
pub(crate) fn push_one<K: Kernel>(
    input: &[u8],
    start: usize,
    len: usize,
    out: &mut String,
) -> Option<bool> {
    if !K::available() {
        return None;
    }
    let mut array = input[..start.min(input.len())].to_vec();
    length_prefix::write(&mut array, len);
    array.extend_from_slice(input.get(start..).unwrap_or_default());
    let mut read = vec![String::from("used")];
    let mut pos = start;
    // SAFETY: the processor has what the kernel needs (asked above).
    let ok = unsafe { strings_into::<K>(&array, &mut pos, 1, &mut read) }.is_ok();
    if ok {
        out.push_str(&read[0]);
    } else {
        let text = |s: &String| std::str::from_utf8(s.as_bytes()).is_ok();
        assert!(
            read.iter().all(text),
            "a failed read left bytes that are not UTF-8"
        );
        assert_eq!(pos, start, "a failed read moved the position");
    }
    Some(ok)
}
