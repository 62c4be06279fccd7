//! A string array (`0x3C`) read into reused `String`s with AVX-512, its UTF-8 check run over
//! the array's bytes as one stream.
//!
//! The array is `SIZE | bytes` repeated. Each string is copied into its `String` as soon as
//! its SIZE is read; the check lags behind, over whole 64-byte blocks of the input that the
//! copies have passed, with every SIZE byte masked to zero in the load. A zero byte is a
//! whole character, so the stream is valid UTF-8 exactly when every string is on its own: no
//! sequence can start in one string and end in the next, or lean on a SIZE byte. A 90-byte
//! string costs 1.4 blocks of checking this way, not the two (one full, one masked) that a
//! check of each string apart takes, and the copy is two masked moves with no loop.
//!
//! The strings hold their bytes before the check has seen them. Nothing outside this module
//! can look at them meanwhile (the caller's `&mut` borrow is held throughout), and a drop
//! guard ([`Unchecked`]) empties every string filled so far unless the whole run passed: on an
//! invalid string, a cut input, and on unwinding alike. So no `String` holds bytes that are
//! not UTF-8 once control leaves [`strings_into`].
//!
//! Called only when the processor has what [`crate::utf8_avx512::has_avx512`] asks for.

#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _bzhi_u64, _mm512_loadu_epi8, _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8,
    _mm512_movepi8_mask, _mm512_setzero_si512, _mm512_storeu_epi8, _mm512_test_epi8_mask,
    _mm_prefetch, _MM_HINT_T0,
};

use super::size;
use super::str_array::PREFETCH;
use crate::error::Error;
use crate::utf8_avx512::{add_errors, all_errors};

/// Most `String`s one run appends to a shorter vector: a vector grows only a little ahead of
/// the strings the input has shown to be there.
const RUN: usize = 256;

/// Reads `n` strings starting at `*pos` into `out`, reusing its strings' buffers (its length
/// becomes `n`). An error comes with the index of the first string that is invalid or cut,
/// and leaves `*pos` where it was.
///
/// # Safety
/// The processor has the features [`crate::utf8_avx512::has_avx512`] asks for.
#[inline]
pub(super) unsafe fn strings_into(
    input: &[u8],
    pos: &mut usize,
    n: usize,
    out: &mut Vec<String>,
) -> Result<(), (Error, usize)> {
    if let Some(strings) = out.get_mut(..n) {
        // The usual case when reading into a used value: one run over strings that are there.
        // SAFETY: the caller's promise about the processor.
        if !unsafe { run(input, pos, strings) } {
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
        if !unsafe { run(input, pos, strings) } {
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
        let text = super::transcode::sized_str(input, &mut at).map_err(|e| (e, first + k))?;
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

/// Where a run's stream stood when [`advance`] stopped for room or for a wide string: what
/// the call that resumes it needs. A run that does not stop (the usual case) never has one:
/// its first call starts from zeros in registers, and the position goes in and out in
/// registers too, so nothing of the stream passes through memory.
struct Resume {
    /// The SIZE of the string [`advance`] stopped at.
    p: usize,
    /// The first byte the check has not judged; `p - q < 64` between strings.
    q: usize,
    /// Bit `k` marks a SIZE byte at `q + k` to be masked off. Only a SIZE's first byte is: the
    /// strings [`advance`] reads are shorter than 8,192 bytes, so the second byte of a
    /// two-byte SIZE (the length over 64) is ASCII, which separates the strings around it as
    /// well as a zero does.
    near: u64,
    /// The last block judged, for the three bytes before each of the next (bytes, not an
    /// `__m512i`, whose 64-byte alignment would make the caller realign its stack).
    prev: [u8; 64],
    /// The error classes found so far, or-ed.
    errors: [u8; 64],
}

/// Why [`advance`] stopped (returned as two words, [`Stop::pack`]).
enum Stop {
    /// Every string is copied and the stream judged to its end (valid UTF-8 or not); the
    /// strings end at `end`.
    Done { end: usize, valid: bool },
    /// String `k` needs more room than its `String` has (its SIZE is at the resume point).
    Room(usize),
    /// String `k` is not one [`advance`] reads: a SIZE in its four- or eight-byte form, one
    /// cut by the end of the input, or a length of 8,192 or more. The stream is judged up to
    /// its SIZE, to be restarted after it ([`wide`] reads it).
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

/// Reads one string into each of `strings[from..]`, the first one's SIZE at `p`, and judges
/// the blocks they pass, until done or stopped; it calls nothing, so its loop keeps the
/// stream's vectors in registers. It reads strings of fewer than 8,192 bytes with a one- or
/// two-byte SIZE (every string of a typical document), and stops at any other. `resume` is
/// where a stopped run stood (`None` for a run's first call), and is set when it stops for
/// room or a wide string.
///
/// Its callers have no target features, so it is never inlined into them: in one function
/// with the code that calls `reserve` when it stops for room, the compiler kept the stream's
/// two vectors in memory for the whole loop (a store and a reload per block, on the chain
/// from one block to the next), which made the read 25-30% slower. (`#[inline(never)]`
/// would not do: on a `#[target_feature]` function rustc 1.95 does not pass it on to the
/// back end.)
///
/// # Safety
/// The processor has the features [`crate::utf8_avx512::has_avx512`] asks for.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
unsafe fn advance(
    input: &[u8],
    p: usize,
    resume: &mut Option<Resume>,
    strings: &mut [String],
    from: usize,
) -> (usize, usize) {
    // Text that starts ASCII is likely to go on so: its blocks are judged with the all-ASCII
    // shortcut. Otherwise they are judged in full without asking, which saves three
    // instructions a block (4% of reading the benchmark documents, whose every block has
    // multi-byte characters). The choice is made again for every array.
    let head = _bzhi_u64(u64::MAX, (input.len() - p).min(64) as u32);
    // SAFETY: only bytes from `p` to the input's end are read (the rest are masked off);
    // the caller's promise about the processor.
    let ascii = unsafe {
        let v = _mm512_maskz_loadu_epi8(head, input.as_ptr().add(p).cast());
        _mm512_movepi8_mask(v) == 0
    };
    // SAFETY (both): the caller's promise about the processor.
    if ascii {
        unsafe { advance_with::<true>(input, p, resume, strings, from) }
    } else {
        unsafe { advance_with::<false>(input, p, resume, strings, from) }
    }
}

/// [`advance`]'s loop, judging whole blocks with the all-ASCII shortcut when `SHORTCUT`.
///
/// # Safety
/// The processor has the features [`crate::utf8_avx512::has_avx512`] asks for.
#[inline(always)]
unsafe fn advance_with<const SHORTCUT: bool>(
    input: &[u8],
    mut p: usize,
    resume: &mut Option<Resume>,
    strings: &mut [String],
    from: usize,
) -> (usize, usize) {
    let base = input.as_ptr();
    let end = input.len();
    // SAFETY (both): 64 plain bytes each way.
    let (mut q, mut near, mut prev, mut errors) = match resume {
        Some(r) => unsafe {
            (
                r.q,
                r.near,
                core::mem::transmute::<[u8; 64], __m512i>(r.prev),
                core::mem::transmute::<[u8; 64], __m512i>(r.errors),
            )
        },
        None => (p, 0, _mm512_setzero_si512(), _mm512_setzero_si512()),
    };
    let mut stop = Stop::Cut;
    // Below `near_end`, no string this loop reads can reach past the input (a SIZE of at
    // most two bytes, fewer than 8,192 bytes of text), so only the strings in the last 8 KiB
    // are checked against its end.
    let near_end = end.saturating_sub(2 + 8191);
    let first = strings.as_mut_ptr();
    // SAFETY (both): `from <= strings.len()` (the callers'); one past the end at most.
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
        _mm_prefetch::<_MM_HINT_T0>(base.wrapping_add(p + PREFETCH).cast());
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
        near |= 1 << (p - q);
        p += w;
        // SAFETY: `p + len <= end` (checked above), so the source is inside `input`; `dst`
        // has room for `len` bytes and is a `String`'s buffer, which does not overlap the
        // input.
        unsafe {
            copy(base.add(p), len, dst.as_mut_ptr());
            dst.set_len(len);
        }
        p += len;
        // SAFETY: `s < last`, so one past it at most.
        s = unsafe { s.add(1) };
        while p - q >= 64 {
            // SAFETY: `q + 64 <= p <= end`: the block is inside `input`; the caller's promise
            // about the processor.
            unsafe {
                let v = _mm512_maskz_loadu_epi8(!near, base.add(q).cast());
                errors = if SHORTCUT {
                    add_errors(errors, v, prev)
                } else {
                    all_errors(errors, v, prev)
                };
                prev = v;
            }
            q += 64;
            near = 0;
        }
    }
    if matches!(stop, Stop::Done { .. } | Stop::Wide(_)) {
        // The last, partial block: the bytes from `q` to `p`, SIZE bytes masked off as
        // before. It ends in at least one zero (`p - q < 64`; all zeros when the strings
        // ended at a block's end), so a sequence left unfinished at the end of the last string
        // is an error of this block, and no test of its end is needed; and the stream can
        // restart from zeros after it. Its being ASCII or not is a toss-up, so it is judged
        // without the all-ASCII branch.
        let keep = _bzhi_u64(!near, (p - q) as u32);
        // SAFETY: only bytes from `q` to `p <= end` are read (the others are masked off);
        // the caller's promise about the processor.
        unsafe {
            let v = _mm512_maskz_loadu_epi8(keep, base.add(q).cast());
            errors = all_errors(errors, v, prev);
        }
        prev = _mm512_setzero_si512();
        q = p;
        near = 0;
        if let Stop::Done { valid, .. } = &mut stop {
            *valid = _mm512_test_epi8_mask(errors, errors) == 0;
        }
    }
    if matches!(stop, Stop::Room(_) | Stop::Wide(_)) {
        // SAFETY (both): 64 plain bytes each way.
        *resume = Some(unsafe {
            Resume {
                p,
                q,
                near,
                prev: core::mem::transmute::<__m512i, [u8; 64]>(prev),
                errors: core::mem::transmute::<__m512i, [u8; 64]>(errors),
            }
        });
    }
    stop.pack()
}

/// Reads the string at `r.p` into `dst` whatever its SIZE's form and length, checked on its
/// own and then copied, and restarts the stream after it ([`advance`] has judged it up to the
/// SIZE). Returns `false` when the SIZE or the string is cut or the string is not UTF-8.
///
/// # Safety
/// The processor has the features [`crate::utf8_avx512::has_avx512`] asks for.
unsafe fn wide(input: &[u8], r: &mut Resume, dst: &mut String) -> bool {
    let mut p = r.p;
    let Ok(len) = size::read(input, &mut p) else {
        return false;
    };
    // SAFETY: the caller's promise about the processor.
    if !unsafe { crate::utf8_avx512::valid_call(input, p, len) } {
        return false;
    }
    // SAFETY: `valid_call` found the range inside `input` and valid UTF-8.
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
/// The processor has the features [`crate::utf8_avx512::has_avx512`] asks for.
#[inline(always)]
unsafe fn run(input: &[u8], pos: &mut usize, strings: &mut [String]) -> bool {
    let count = strings.len();
    let mut guard = Unchecked {
        strings,
        filled: count,
    };
    let mut resume = None;
    let mut p = *pos;
    let mut from = 0;
    loop {
        // SAFETY (both): the caller's promise about the processor.
        match Stop::unpack(unsafe { advance(input, p, &mut resume, guard.strings, from) }) {
            Stop::Done { end, valid: true } => {
                guard.filled = 0;
                *pos = end;
                return true;
            }
            Stop::Done { valid: false, .. } | Stop::Cut => return false,
            Stop::Room(k) => {
                let Some(r) = &resume else { return false };
                p = r.p;
                // The SIZE `advance` read before it stopped, read again.
                let Ok(len) = size::read(input, &mut r.p.clone()) else {
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
                if !unsafe { wide(input, r, &mut guard.strings[k]) } {
                    return false;
                }
                p = r.p;
                from = k + 1;
            }
        }
    }
}

/// Copies `len` bytes from `src` to `dst`: whole 64-byte blocks while more than 64 are left,
/// then one masked block of the rest.
///
/// # Safety
/// `src` is readable and `dst` writable for `len` bytes, and they do not overlap; the
/// processor has AVX-512 F, BW and BMI2.
#[inline(always)]
unsafe fn copy(mut src: *const u8, mut len: usize, mut dst: *mut u8) {
    // SAFETY: every access is inside the `len` bytes the caller vouches for: whole blocks while
    // more than 64 are left, then a mask of the rest (masked-off bytes are not accessed).
    unsafe {
        while len > 64 {
            // An empty statement the compiler must keep, so that this stays a loop of vector
            // moves instead of becoming a `memcpy` call (which would spill every vector
            // register the check holds).
            core::arch::asm!("", options(nomem, nostack, preserves_flags));
            _mm512_storeu_epi8(dst.cast(), _mm512_loadu_epi8(src.cast()));
            src = src.add(64);
            dst = dst.add(64);
            len -= 64;
        }
        let keep = _bzhi_u64(u64::MAX, len as u32);
        _mm512_mask_storeu_epi8(dst.cast(), keep, _mm512_maskz_loadu_epi8(keep, src.cast()));
    }
}

/// `input[start..start + len]` read as a one-string array (its SIZE put before it) by
/// [`strings_into`], and appended to `out` when it was valid; `None` when the processor lacks
/// what the kernel needs. For the string-check tests of `crate::utf8_avx2`, which run every
/// kernel on the same cases: the bytes around the string stay as they were.
#[cfg(test)]
pub(crate) fn push_one(input: &[u8], start: usize, len: usize, out: &mut String) -> Option<bool> {
    if !crate::utf8_avx512::has_avx512() {
        return None;
    }
    let mut array = input[..start.min(input.len())].to_vec();
    size::write(&mut array, len);
    array.extend_from_slice(input.get(start..).unwrap_or_default());
    let mut read = vec![String::from("used")];
    let mut pos = start;
    // SAFETY: the processor has what the kernel needs (asked above).
    let ok = unsafe { strings_into(&array, &mut pos, 1, &mut read) }.is_ok();
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

#[cfg(test)]
mod tests {
    use super::*;

    std::thread_local! {
        /// How many runs this thread's reads handed to [`string_by_string`]: none may, when
        /// the strings are valid.
        pub(super) static FALLBACKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// The array of `strings` after `before` junk bytes, and junk after it.
    fn array(before: usize, strings: &[&[u8]]) -> Vec<u8> {
        let mut b: Vec<u8> = [0xC3u8, 0xE2, 0x80]
            .iter()
            .copied()
            .cycle()
            .take(before)
            .collect();
        for s in strings {
            super::super::size::write(&mut b, s.len());
            b.extend_from_slice(s);
        }
        b.extend_from_slice(b"\xBF\x80\x80");
        b
    }

    /// Reads `strings` (as an array after `before` junk bytes) into `out` and checks the
    /// outcome against std: the strings when each is UTF-8, else an error naming the first
    /// that is not, with nothing but UTF-8 left in `out` and the position unmoved.
    fn agrees(before: usize, strings: &[&[u8]], out: &mut Vec<String>) {
        agrees_after(before, strings, out, &[0, 9000]);
    }

    /// [`agrees`] with the array followed by each of `afters` bytes: 0 puts it at the input's
    /// end; 9,000 is more than the loop's check of the end looks at, so its strings are then
    /// far from the end.
    fn agrees_after(before: usize, strings: &[&[u8]], out: &mut Vec<String>, afters: &[usize]) {
        let b = array(before, strings);
        let array_end = b.len() - 3;
        for &after in afters {
            let mut input = b[..array_end].to_vec();
            input.extend(b"\xBF\x80\xF0".iter().copied().cycle().take(after));
            one_agrees(before, strings, out, &input, array_end);
        }
    }

    /// [`agrees`] on `input`, whose array ends at `array_end`.
    fn one_agrees(
        before: usize,
        strings: &[&[u8]],
        out: &mut Vec<String>,
        input: &[u8],
        array_end: usize,
    ) {
        let mut pos = before;
        let before_fallbacks = FALLBACKS.with(|f| f.get());
        // SAFETY: the callers ask for the processor's features first.
        let got = unsafe { strings_into(input, &mut pos, strings.len(), out) };
        match strings.iter().position(|s| std::str::from_utf8(s).is_err()) {
            None => {
                assert!(got.is_ok(), "{strings:02X?}");
                let fell_back = FALLBACKS.with(|f| f.get()) - before_fallbacks;
                assert_eq!(fell_back, 0, "valid strings read string by string");
                assert_eq!(out.len(), strings.len());
                for (o, s) in out.iter().zip(strings) {
                    assert_eq!(o.as_bytes(), *s);
                }
                assert_eq!(pos, array_end);
            }
            Some(bad) => {
                let (e, index) = got.expect_err("invalid UTF-8 accepted");
                assert_eq!(index, bad, "{strings:02X?}");
                assert_eq!(e.message(), "invalid UTF-8");
                assert_eq!(pos, before);
                for o in out.iter() {
                    assert!(std::str::from_utf8(o.as_bytes()).is_ok());
                }
            }
        }
    }

    fn avx512() -> bool {
        let yes = crate::utf8_avx512::has_avx512();
        if !yes {
            println!("no AVX-512 (F, BW, VBMI): skipped");
        }
        yes
    }

    /// A filler string that puts the next string's SIZE `at` bytes into the stream's block
    /// (the array starting a block), or none for `at == 0`.
    fn filler(at: usize) -> Vec<u8> {
        // A filler of `m` bytes with a one-byte SIZE takes `m + 1`.
        vec![b'f'; at.saturating_sub(1)]
    }

    #[test]
    fn every_character_kind_at_every_place_in_a_block() {
        if !avx512() {
            return;
        }
        let mut out = Vec::new();
        crate::utf8_avx2::cases::characters(|s| {
            for at in [0, 1, 2, 30, 58, 59, 60, 61, 62, 63, 64] {
                let f = filler(at);
                let strings: Vec<&[u8]> = if at == 0 {
                    vec![s, b"z"]
                } else {
                    vec![&f, s, b"z"]
                };
                // Far from the input's end too for a few places (the vector code is the same).
                let afters: &[usize] = if matches!(at, 0 | 61 | 63) {
                    &[0, 9000]
                } else {
                    &[0]
                };
                agrees_after(0, &strings, &mut out, afters);
            }
        });
    }

    #[test]
    fn every_pair_and_triple_around_a_block_end() {
        if !avx512() {
            return;
        }
        let mut out = vec![String::from("used"); 5];
        crate::utf8_avx2::cases::pairs_and_triples(|s| {
            // `s` starts with up to 32 ASCII bytes: placed so that its last bytes fall on
            // either side of the block's end.
            // (At the input's end only: millions of cases, and the vector code is the same
            // far from the end.)
            let at = 64 - s.len().min(40) / 2;
            let f = filler(at);
            agrees_after(1, &[&f, s], &mut out, &[0]);
            agrees_after(0, &[s, &f, s], &mut out, &[0]);
        });
    }

    #[test]
    fn a_size_byte_never_joins_two_strings() {
        if !avx512() {
            return;
        }
        let mut out = Vec::new();
        // SIZE bytes 0x80..=0xBF (lengths 32..=47) look like continuation bytes, 0xC0.. (48..)
        // like lead bytes; each side is invalid alone.
        for n in 32..64usize {
            let mut tail = vec![b'x'; n];
            tail[0] = 0x80 + (n as u8 & 0x3F);
            for at in [0, 1, 62, 63, 64] {
                let f = filler(at);
                agrees(0, &[&f, b"ab\xC3", &tail], &mut out);
                agrees(0, &[&f, b"ab\xE2\x82", &tail], &mut out);
                agrees(0, &[&f, b"ok", &tail], &mut out);
                let mut first = vec![b'y'; n];
                first[n - 1] = 0xC3;
                agrees(0, &[&f, &first, b"\xA9z"], &mut out);
            }
        }
    }

    #[test]
    fn sizes_across_a_block_boundary_and_long_strings() {
        if !avx512() {
            return;
        }
        // 12,000 bytes: a two-byte SIZE whose second byte (0xBB) is not ASCII; 24,576: a
        // four-byte SIZE whose second byte is 0x80. Either must be masked where it falls.
        let two = "é€😀".repeat(1333) + "abc";
        let four = "é€😀".repeat(2730) + "abcdef";
        assert_eq!((two.len(), four.len()), (12_000, 24_576));
        let mut bad_long = four.clone().into_bytes();
        bad_long[17_001] = 0xFF;
        let mid: Vec<Vec<u8>> = [64usize, 100, 127, 128, 129, 200, 1000]
            .iter()
            .map(|&n| "é".repeat(n / 2).into_bytes())
            .collect();
        let mut out = Vec::new();
        for at in 0..=66 {
            let f = filler(at);
            for m in &mid {
                agrees(0, &[&f, m, b"\xF0\x9F\x98\x80"], &mut out);
            }
            agrees(2, &[&f, two.as_bytes(), "ü".as_bytes()], &mut out);
            agrees(2, &[&f, four.as_bytes(), "ü".as_bytes()], &mut out);
            agrees(2, &[&f, &bad_long, b"z"], &mut out);
            agrees(0, &[&f, b"", b"", "é".as_bytes(), b""], &mut out);
        }
    }

    #[test]
    fn every_size_form_and_lengths_around_the_wide_limit() {
        if !avx512() {
            return;
        }
        // Readers accept any SIZE width: the same strings with SIZEs of 1, 2, 4 and 8 bytes
        // where they fit, among strings the fast loop reads.
        let texts: Vec<String> = [
            0usize, 5, 63, 64, 100, 8190, 8191, 8192, 8193, 16_383, 16_384,
        ]
        .iter()
        .map(|&n| "é".repeat(n / 2) + &"x".repeat(n % 2))
        .collect();
        for width in [1usize, 2, 4, 8] {
            let mut b = vec![0xC3];
            let mut want = Vec::new();
            for t in &texts {
                let n = t.len();
                match width {
                    1 if n < 64 => b.push((n as u8) << 2),
                    2 if n < 1 << 14 => b.extend_from_slice(&((n as u16) << 2 | 1).to_le_bytes()),
                    4 => b.extend_from_slice(&((n as u32) << 2 | 2).to_le_bytes()),
                    8 => b.extend_from_slice(&((n as u64) << 2 | 3).to_le_bytes()),
                    _ => continue,
                }
                b.extend_from_slice(t.as_bytes());
                want.push(t.clone());
                // A short string after each, read by the fast loop again.
                b.push(3 << 2);
                b.extend_from_slice("ü!".as_bytes());
                want.push("ü!".to_string());
            }
            for used in [0, want.len()] {
                let mut out = vec![String::from("used"); used];
                let mut pos = 1;
                // SAFETY: the processor has what the kernel needs (asked above).
                let before_fallbacks = FALLBACKS.with(|f| f.get());
                unsafe { strings_into(&b, &mut pos, want.len(), &mut out) }.unwrap();
                assert_eq!(
                    FALLBACKS.with(|f| f.get()),
                    before_fallbacks,
                    "width {width}"
                );
                assert_eq!(out, want, "width {width}");
                assert_eq!(pos, b.len());
            }
        }
        // Each long string, broken at its start, middle and end, in every width.
        for n in [8191usize, 8192, 12_000] {
            for at in [0, n / 2, n - 1] {
                let mut bad = "é".repeat(n / 2).into_bytes();
                bad.resize(n, b'x');
                bad[at] = 0xFF;
                agrees(1, &[b"ok", &bad, "ü".as_bytes()], &mut Vec::new());
            }
        }
    }

    #[test]
    fn text_that_starts_ascii_is_still_checked_in_full() {
        if !avx512() {
            return;
        }
        // The first block is ASCII, so the blocks are judged with the all-ASCII shortcut;
        // the characters and the bad byte come later, in whole blocks and in the last one.
        let ascii = [b'q'; 70];
        let text = "é€😀".repeat(30).into_bytes();
        let mut out = Vec::new();
        agrees(0, &[&ascii, &text, b"ok"], &mut out);
        for at in [0, 1, 63, 64, 100, text.len() - 1] {
            for bad in [0xFFu8, 0x80, 0xC3] {
                let mut t = text.clone();
                t[at] = bad;
                agrees(0, &[&ascii, &t, b"ok"], &mut out);
                agrees(0, &[&ascii, b"ok", &t], &mut out);
            }
        }
    }

    #[test]
    fn random_arrays_and_their_corruptions_into_used_vectors() {
        if !avx512() {
            return;
        }
        let pieces = crate::utf8_avx2::cases::PIECES;
        let mut next = crate::utf8_avx2::cases::xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..400 {
            let count = (next() % 600) as usize;
            let mut strings: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let n = if next().is_multiple_of(50) {
                        next() % 400
                    } else {
                        next() % 60
                    };
                    let mut s = String::new();
                    for _ in 0..n {
                        s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
                    }
                    s.into_bytes()
                })
                .collect();
            // Vectors shorter and longer than the array, and with used strings.
            let mut out: Vec<String> = (0..(next() % 700) as usize)
                .map(|i| "old".repeat(i % 5))
                .collect();
            let refs: Vec<&[u8]> = strings.iter().map(|s| &s[..]).collect();
            agrees((next() % 3) as usize, &refs, &mut out);
            if count > 0 && round % 2 == 0 {
                let k = (next() % count as u64) as usize;
                if !strings[k].is_empty() {
                    let at = (next() % strings[k].len() as u64) as usize;
                    strings[k][at] = next() as u8;
                }
                let refs: Vec<&[u8]> = strings.iter().map(|s| &s[..]).collect();
                agrees((next() % 3) as usize, &refs, &mut out);
            }
        }
    }

    #[test]
    fn a_cut_array_is_the_end_of_the_input() {
        if !avx512() {
            return;
        }
        let b = array(0, &[b"abc", "d\u{e9}fgh".as_bytes(), &[b'x'; 70]]);
        let b = &b[..b.len() - 3];
        for cut in 0..b.len() {
            let mut out = vec![String::from("used"); 4];
            let mut pos = 0;
            // SAFETY: the processor has what the kernel needs (asked above).
            let (e, _) = unsafe { strings_into(&b[..cut], &mut pos, 3, &mut out) }.unwrap_err();
            assert_eq!(e.message(), "unexpected end of input", "{cut}");
            assert_eq!(pos, 0);
        }
    }
}
