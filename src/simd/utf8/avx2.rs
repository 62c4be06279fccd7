//! The UTF-8 check of Keiser and Lemire ("Validating UTF-8 in less than one instruction per
//! byte", 2021) on AVX2 registers, and a validator built on it for the short strings of a
//! larger input.
//!
//! [`utf8_errors`] judges the 32 bytes of a block, each with the three before it; the JSON
//! string scan ([`crate::json`]'s reformat blocks) loads those three from the input.
//! [`valid_in`] checks one string inside a larger input (a BEVE string among its SIZE bytes):
//! it shifts the three bytes before each byte out of the previous block, so nothing before the
//! string is read, and it reads its last block whole when the input has the bytes (the part
//! past the string's end is masked to zeros). For the strings of 50-150 bytes of a typical
//! document that is 2-5 blocks with no set-up, where a general validator call spends more on
//! its set-up and padded tail than on the bytes.
//!
//! Every function here needs AVX2: the callers hold proof of it (a run-time check) and run
//! their loops inside `#[target_feature(enable = "avx2")]` functions, so that all of this
//! inlines into them.

use core::arch::x86_64::{
    __m256i, _mm256_alignr_epi8, _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_subs_epu8,
    _mm256_testz_si256, _mm256_xor_si256,
};

use super::inside;

/// A 16-entry table in both lanes.
#[inline(always)]
fn table(t: [i8; 16]) -> __m256i {
    bytemuck::cast([t, t])
}

// The error classes of the look-up method, one bit each; a pair of bytes (the previous one
// and this one) is an error when the three tables agree on a bit.
/// A lead byte not followed by a continuation byte.
const TOO_SHORT: i8 = 1 << 0;
/// A continuation byte after an ASCII byte.
const TOO_LONG: i8 = 1 << 1;
/// `E0` followed by `80..=9F`.
const OVERLONG_3: i8 = 1 << 2;
/// `F4` followed by `90..=BF`, or `F5..=FF` followed by a continuation byte.
const TOO_LARGE: i8 = 1 << 3;
/// `ED` followed by `A0..=BF` (a surrogate).
const SURROGATE: i8 = 1 << 4;
/// `C0` or `C1` followed by a continuation byte.
const OVERLONG_2: i8 = 1 << 5;
/// `F0` followed by `80..=8F`, and `F5..=FF` followed by `80..=8F` (shares the bit).
const OVERLONG_4: i8 = 1 << 6;
/// A continuation byte after a continuation byte (right only as the third or fourth byte
/// of a sequence, which the check knows from the bytes two and three back).
pub(crate) const TWO_CONTS: i8 = 1 << 7;
/// The classes that depend only on the high nibbles.
const CARRY: i8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// By the high nibble of the previous byte.
pub(crate) const PREV_HIGH: [i8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | OVERLONG_4,
];

/// By the low nibble of the previous byte.
pub(crate) const PREV_LOW: [i8; 16] = [
    CARRY | OVERLONG_2 | OVERLONG_3 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4 | SURROGATE,
    CARRY | TOO_LARGE | OVERLONG_4,
    CARRY | TOO_LARGE | OVERLONG_4,
];

/// By the high nibble of this byte.
pub(crate) const THIS_HIGH: [i8; 16] = {
    const CONT: i8 = TOO_LONG | OVERLONG_2 | TWO_CONTS;
    [
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        CONT | OVERLONG_3 | OVERLONG_4,
        CONT | OVERLONG_3 | TOO_LARGE,
        CONT | SURROGATE | TOO_LARGE,
        CONT | SURROGATE | TOO_LARGE,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
    ]
};

/// Non-zero where `input` breaks UTF-8 in a way its bytes and the three before each
/// (`prev1`, `prev2`, `prev3`: the blocks one, two and three bytes earlier) show; an
/// unfinished sequence at the end of `input` is not an error here (the next block's first
/// bytes show it).
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
pub(crate) unsafe fn utf8_errors(
    input: __m256i,
    prev1: __m256i,
    prev2: __m256i,
    prev3: __m256i,
) -> __m256i {
    // SAFETY: value-only AVX2 intrinsics; the caller guarantees AVX2.
    unsafe {
        let nibble = _mm256_set1_epi8(0x0F);
        let prev_high = _mm256_and_si256(_mm256_srli_epi16::<4>(prev1), nibble);
        let prev_low = _mm256_and_si256(prev1, nibble);
        let this_high = _mm256_and_si256(_mm256_srli_epi16::<4>(input), nibble);
        let pairs = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(table(PREV_HIGH), prev_high),
                _mm256_shuffle_epi8(table(PREV_LOW), prev_low),
            ),
            _mm256_shuffle_epi8(table(THIS_HIGH), this_high),
        );
        // A continuation byte must follow a continuation byte exactly where the byte two
        // back is a three- or four-byte lead (`E0..`) or the byte three back a four-byte
        // lead (`F0..`): saturating subtraction leaves the top bit set just for those.
        let third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((0xE0u8 - 0x80) as i8));
        let fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((0xF0u8 - 0x80) as i8));
        let must = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(TWO_CONTS));
        _mm256_xor_si256(must, pairs)
    }
}

/// Per position of the last block, the largest byte that cannot begin an unfinished sequence
/// there: a lead byte of a 4-byte sequence three from the end, of 3 or 4 bytes two from the
/// end, any lead byte at the very end. `subs(block, LAST_MAX)` is non-zero where one does.
const LAST_MAX: [u8; 32] = {
    let mut t = [0xFF; 32];
    t[29] = 0xEF;
    t[30] = 0xDF;
    t[31] = 0xBF;
    t
};

/// `0, 1, ..., 31`: byte `k` of a block is inside a string with `r` bytes left when `k < r`.
const IOTA: [i8; 32] = {
    let mut t = [0; 32];
    let mut k = 0;
    while k < 32 {
        t[k] = k as i8;
        k += 1;
    }
    t
};

/// The errors of block `v`, whose bytes are judged with the three before each, taken from the
/// end of the previous block `prev` (zeros before a string's first block). An all-ASCII
/// block only needs `prev` not to end in an unfinished sequence.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
unsafe fn block_errors(v: __m256i, prev: __m256i) -> __m256i {
    if _mm256_movemask_epi8(v) == 0 {
        return unfinished(prev);
    }
    // SAFETY: the caller's promise about AVX2.
    unsafe { shifted_errors(v, prev) }
}

/// The errors of block `v` as [`block_errors`] finds them, without its all-ASCII shortcut.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
unsafe fn shifted_errors(v: __m256i, prev: __m256i) -> __m256i {
    // Bytes 16..32 of `prev` then 0..16 of `v`: the 16 bytes before each lane of `v`.
    let before = _mm256_permute2x128_si256::<0x21>(prev, v);
    let prev1 = _mm256_alignr_epi8::<15>(v, before);
    let prev2 = _mm256_alignr_epi8::<14>(v, before);
    let prev3 = _mm256_alignr_epi8::<13>(v, before);
    // SAFETY: `utf8_errors` needs AVX2, which the caller vouches for.
    unsafe { utf8_errors(v, prev1, prev2, prev3) }
}

/// `errors` with the errors of block `v` added, judged with the three bytes before each (the
/// last of them from `prev`); an all-ASCII block only asks whether `prev` ends in an
/// unfinished sequence.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
pub(crate) unsafe fn add_errors(errors: __m256i, v: __m256i, prev: __m256i) -> __m256i {
    // SAFETY: the caller's promise about AVX2.
    unsafe { _mm256_or_si256(errors, block_errors(v, prev)) }
}

/// [`add_errors`] without its all-ASCII shortcut: for blocks whose being ASCII or not is as
/// likely as not, where the shortcut's branch would often be mispredicted.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
pub(crate) unsafe fn all_errors(errors: __m256i, v: __m256i, prev: __m256i) -> __m256i {
    // SAFETY: the caller's promise about AVX2.
    unsafe { _mm256_or_si256(errors, shifted_errors(v, prev)) }
}

/// Non-zero when block `v` ends in a sequence its last bytes do not finish.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
unsafe fn unfinished(v: __m256i) -> __m256i {
    _mm256_subs_epu8(v, bytemuck::cast(LAST_MAX))
}

/// Whether `input[start..start + len]` is valid UTF-8 (`false` when the range is not inside
/// `input`). Reads from `start` up to 31 bytes past the range's end when `input` holds them,
/// nothing before `start`.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
pub(crate) unsafe fn valid_in(input: &[u8], start: usize, len: usize) -> bool {
    if !inside(input, start, len) {
        return false;
    }
    // SAFETY: the range is inside `input` (checked above); the caller's promise about AVX2.
    unsafe { check(input, start, len) }
}

/// The `n` bytes at `at` (`n <= 32`) as a block, zeros after them: read whole when `room`
/// bytes from `at` hold 32, copied out otherwise.
///
/// # Safety
/// The processor has AVX2; `n <= room` and the `room` bytes at `at` are readable.
#[inline(always)]
pub(crate) unsafe fn last_block(at: *const u8, n: usize, room: usize) -> __m256i {
    // SAFETY: 32 bytes are read at `at` only when `room` holds them; otherwise the `n <= room`
    // readable bytes are copied (the caller's promises).
    unsafe {
        let v = if room >= 32 {
            _mm256_loadu_si256(at.cast())
        } else {
            let mut buf = [0u8; 32];
            std::ptr::copy_nonoverlapping(at, buf.as_mut_ptr(), n);
            bytemuck::cast(buf)
        };
        // `n <= 32`, so the signed compare is right.
        let inside = _mm256_cmpgt_epi8(_mm256_set1_epi8(n as i8), bytemuck::cast(IOTA));
        _mm256_and_si256(v, inside)
    }
}

/// Whether the `len` bytes at `start` of `input` are valid UTF-8: 32-byte blocks, the last one
/// read whole when `input` holds it (a copy otherwise) and masked to zeros past the end.
///
/// # Safety
/// The processor has AVX2, and `start + len <= input.len()`.
#[inline(always)]
unsafe fn check(input: &[u8], start: usize, len: usize) -> bool {
    if len == 0 {
        return true;
    }
    // Bytes readable from `start`: at least `len`.
    let room = input.len() - start;
    // SAFETY: `start + len <= input.len()` (the caller's promise), so the pointer is inside
    // `input`; every load below reads 32 bytes at `at + i` with `i + 32 <= room`, or, for the
    // last block when fewer remain, copies `len - i <= room - i` bytes.
    unsafe {
        let at = input.as_ptr().add(start);
        let mut prev = _mm256_setzero_si256();
        let mut errors = _mm256_setzero_si256();
        let mut i = 0;
        while len - i > 32 {
            let v = _mm256_loadu_si256(at.add(i).cast());
            errors = _mm256_or_si256(errors, block_errors(v, prev));
            prev = v;
            i += 32;
        }
        // The last block, 1..=32 bytes, with zeros after the string's end.
        let v = last_block(at.add(i), len - i, room - i);
        errors = _mm256_or_si256(errors, block_errors(v, prev));
        errors = _mm256_or_si256(errors, unfinished(v));
        _mm256_testz_si256(errors, errors) != 0
    }
}

/// [`valid_in`] as a call from code compiled without AVX2, for callers that check one string
/// at a time.
///
/// # Safety
/// The processor has AVX2.
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) unsafe fn valid_call(input: &[u8], start: usize, len: usize) -> bool {
    // SAFETY: this function runs only with AVX2.
    unsafe { valid_in(input, start, len) }
}

#[cfg(test)]
mod tests {
    use super::super::{cases, str_in};
    use super::*;

    /// A string check under test: `valid(input, start, len)` and `push(input, start, len,
    /// out)` (which appends the string to `out` when it is valid), `None` when the processor
    /// lacks what it needs (and nothing done).
    struct Kernel {
        name: &'static str,
        valid: fn(&[u8], usize, usize) -> Option<bool>,
        push: fn(&[u8], usize, usize, &mut String) -> Option<bool>,
    }

    /// [`valid_in`], and the string-array reader `simd::beve_str::stream` with its AVX2 kernel on
    /// the same string as a one-string array, when the processor has AVX2.
    const AVX2: Kernel = Kernel {
        name: "avx2",
        // SAFETY: called after `has_avx2` said yes.
        valid: |i, s, l| crate::simd::detect::has_avx2().then(|| unsafe { valid_call(i, s, l) }),
        push: crate::simd::beve_str::stream::push_one::<crate::simd::beve_str::stream::avx2::Avx2>,
    };

    /// The AVX-512 check's `valid_in`, and `simd::beve_str::stream` with its AVX-512 kernel, when
    /// the processor has what they need.
    #[cfg(structio_avx512)]
    const AVX512: Kernel = {
        use crate::simd::detect::has_avx512;
        use crate::simd::utf8::avx512 as k;
        Kernel {
            name: "avx512",
            // SAFETY: called after `has_avx512` said yes.
            valid: |i, s, l| has_avx512().then(|| unsafe { k::valid_call(i, s, l) }),
            push: crate::simd::beve_str::stream::push_one::<
                crate::simd::beve_str::stream::avx512::Avx512,
            >,
        }
    };

    /// Every kernel this build has.
    const KERNELS: &[Kernel] = &[
        AVX2,
        #[cfg(structio_avx512)]
        AVX512,
    ];

    /// Bytes that would break a check that read them: lead bytes, continuation bytes.
    const JUNK: [u8; 6] = [0xF0, 0x80, 0xE2, 0xC3, 0xFF, 0xBF];

    /// `s` between junk bytes (none after when `at_end`, so the last block is read from a
    /// copy or a masked load), checked by `str_in` and by each kernel the processor can run
    /// against std.
    fn agrees(s: &[u8], before: usize, at_end: bool) {
        let want = std::str::from_utf8(s).is_ok();
        let mut input: Vec<u8> = JUNK.iter().copied().cycle().take(before).collect();
        input.extend_from_slice(s);
        if !at_end {
            input.extend(JUNK.iter().copied().cycle().take(70));
        }
        let text = str_in(&input, before, s.len());
        assert_eq!(text.map(|t| t.is_some()), Some(want), "{s:02X?}");
        for k in KERNELS {
            if let Some(valid) = (k.valid)(&input, before, s.len()) {
                assert_eq!(valid, want, "{} {s:02X?}", k.name);
            }
            let mut out = String::from("kept");
            let mut expect = b"kept".to_vec();
            // A kernel that cannot run here answers `None` and must leave `out` alone.
            if let Some(pushed) = (k.push)(&input, before, s.len(), &mut out) {
                assert_eq!(pushed, want, "{} {s:02X?}", k.name);
                if want {
                    expect.extend_from_slice(s);
                }
            }
            assert_eq!(out.as_bytes(), &expect[..], "{} {s:02X?}", k.name);
        }
    }

    fn avx2() -> bool {
        let yes = crate::simd::detect::has_avx2();
        if !yes {
            println!("no AVX2: skipped");
        }
        yes
    }

    #[test]
    fn agrees_with_std_on_every_pair_and_triple_at_every_offset() {
        if !avx2() {
            return;
        }
        cases::pairs_and_triples(|s| {
            agrees(s, 3, false);
            agrees(s, 1, true);
            agrees(s, 4, true);
        });
    }

    #[test]
    fn agrees_with_std_on_every_character_kind_at_every_offset() {
        if !avx2() {
            return;
        }
        cases::characters(|s| {
            agrees(s, 2, false);
            agrees(s, 0, true);
            agrees(s, 3, true);
        });
    }

    #[test]
    fn long_random_text_and_its_corruptions() {
        if !avx2() {
            return;
        }
        let pieces = cases::PIECES;
        let mut next = cases::xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..3000 {
            let mut s = String::new();
            let n = next() % 120;
            for _ in 0..n {
                s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let mut b = s.into_bytes();
            agrees(&b, (next() % 5) as usize, next().is_multiple_of(2));
            if !b.is_empty() {
                let k = (next() % b.len() as u64) as usize;
                b[k] = next() as u8;
                agrees(&b, (next() % 5) as usize, next().is_multiple_of(2));
            }
        }
    }

    #[test]
    fn one_character_or_bad_byte_in_ascii_at_every_place() {
        if !avx2() {
            return;
        }
        let inserts: [&[u8]; 9] = [
            b"\xC3",
            b"\xE2\x82",
            b"\xF0\x9F\x98",
            b"\x80",
            b"\xFF",
            "é".as_bytes(),
            "€".as_bytes(),
            "😀".as_bytes(),
            b"\xED\xA0\x80",
        ];
        for n in 30..=200 {
            for insert in inserts {
                for at in 0..=n - insert.len() {
                    let mut s = vec![b'a'; n];
                    s[at..at + insert.len()].copy_from_slice(insert);
                    agrees(&s, 3, false);
                    agrees(&s, 4, true);
                }
            }
        }
    }

    #[test]
    fn ranges_outside_the_input_are_rejected() {
        if !avx2() {
            return;
        }
        assert_eq!(str_in(b"abc", 2, 2), Some(None));
        assert_eq!(str_in(b"abc", 4, 0), Some(None));
        assert_eq!(str_in(b"abc", 3, 0), Some(Some("")));
        assert_eq!(str_in(b"xab", 1, 2), Some(Some("ab")));
        assert_eq!(str_in(b"x\xFF", 1, 1), Some(None));
        for k in KERNELS {
            let mut out = String::new();
            if (k.push)(b"abc", 1, 3, &mut out).is_none() {
                continue;
            }
            assert_eq!((k.push)(b"abc", 1, 3, &mut out), Some(false), "{}", k.name);
            assert!(out.is_empty(), "{}", k.name);
            assert_eq!((k.valid)(b"abc", 4, 0), Some(false), "{}", k.name);
            assert_eq!((k.valid)(b"abc", 3, 0), Some(true), "{}", k.name);
            let mut out = String::from("z");
            assert_eq!((k.push)("xé".as_bytes(), 1, 2, &mut out), Some(true));
            assert_eq!(out, "zé", "{}", k.name);
        }
    }
}
