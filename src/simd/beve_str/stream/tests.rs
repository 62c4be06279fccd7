//! The stream's tests, run for each kernel the processor has: every case against
//! `std::str::from_utf8` string by string, at the input's end and far from it.

use super::*;

/// Generates one `#[test]` per kernel for each generic case, skipped (with a message) where
/// the processor lacks the kernel's features.
macro_rules! for_each_kernel {
    ($($case:ident),* $(,)?) => {
        mod avx2 {
            $(
                #[test]
                fn $case() {
                    super::run::<crate::simd::beve_str::stream::avx2::Avx2>(
                        super::$case::<crate::simd::beve_str::stream::avx2::Avx2>,
                    );
                }
            )*
        }
        #[cfg(structio_avx512)]
        mod avx512 {
            $(
                #[test]
                fn $case() {
                    super::run::<crate::simd::beve_str::stream::avx512::Avx512>(
                        super::$case::<crate::simd::beve_str::stream::avx512::Avx512>,
                    );
                }
            )*
        }
    };
}

for_each_kernel!(
    every_character_kind_at_every_place_in_a_block,
    every_pair_and_triple_around_a_block_end,
    a_size_byte_never_joins_two_strings,
    sizes_across_a_block_boundary_and_long_strings,
    every_size_form_and_lengths_around_the_wide_limit,
    text_that_starts_ascii_is_still_checked_in_full,
    random_arrays_and_their_corruptions_into_used_vectors,
    a_cut_array_is_the_end_of_the_input,
);

/// Runs `case` when the processor has kernel `K`'s features.
fn run<K: Kernel>(case: fn()) {
    if K::available() {
        case();
    } else {
        println!("the processor lacks this kernel's features: skipped");
    }
}

std::thread_local! {
    /// How many runs this thread's reads handed to [`string_by_string`]: none may, when
    /// the strings are valid.
    pub(crate) static FALLBACKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
        crate::beve::length_prefix::write(&mut b, s.len());
        b.extend_from_slice(s);
    }
    b.extend_from_slice(b"\xBF\x80\x80");
    b
}

/// Reads `strings` (as an array after `before` junk bytes) into `out` and checks the
/// outcome against std: the strings when each is UTF-8, else an error naming the first
/// that is not, with nothing but UTF-8 left in `out` and the position unmoved.
fn agrees<K: Kernel>(before: usize, strings: &[&[u8]], out: &mut Vec<String>) {
    agrees_after::<K>(before, strings, out, &[0, 9000]);
}

/// [`agrees`] with the array followed by each of `afters` bytes: 0 puts it at the input's
/// end; 9,000 is more than the loop's check of the end looks at, so its strings are then
/// far from the end.
fn agrees_after<K: Kernel>(
    before: usize,
    strings: &[&[u8]],
    out: &mut Vec<String>,
    afters: &[usize],
) {
    let b = array(before, strings);
    let array_end = b.len() - 3;
    for &after in afters {
        let mut input = b[..array_end].to_vec();
        input.extend(b"\xBF\x80\xF0".iter().copied().cycle().take(after));
        one_agrees::<K>(before, strings, out, &input, array_end);
    }
}

/// [`agrees`] on `input`, whose array ends at `array_end`.
fn one_agrees<K: Kernel>(
    before: usize,
    strings: &[&[u8]],
    out: &mut Vec<String>,
    input: &[u8],
    array_end: usize,
) {
    let mut pos = before;
    let before_fallbacks = FALLBACKS.with(|f| f.get());
    // SAFETY: the callers ask for the processor's features first.
    let got = unsafe { strings_into::<K>(input, &mut pos, strings.len(), out) };
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

/// A filler string that puts the next string's SIZE `at` bytes into the stream's block
/// (the array starting a block), or none for `at == 0`.
fn filler(at: usize) -> Vec<u8> {
    // A filler of `m` bytes with a one-byte SIZE takes `m + 1`.
    vec![b'f'; at.saturating_sub(1)]
}

fn every_character_kind_at_every_place_in_a_block<K: Kernel>() {
    let mut out = Vec::new();
    crate::simd::utf8::cases::characters(|s| {
        let b = K::B;
        for at in [
            0,
            1,
            2,
            30,
            b - 6,
            b - 5,
            b - 4,
            b - 3,
            b - 2,
            b - 1,
            b,
            b + 30,
        ] {
            let f = filler(at);
            let strings: Vec<&[u8]> = if at == 0 {
                vec![s, b"z"]
            } else {
                vec![&f, s, b"z"]
            };
            // Far from the input's end too for a few places (the vector code is the same).
            let afters: &[usize] = if at == 0 || at == b - 3 || at == b - 1 {
                &[0, 9000]
            } else {
                &[0]
            };
            agrees_after::<K>(0, &strings, &mut out, afters);
        }
    });
}

fn every_pair_and_triple_around_a_block_end<K: Kernel>() {
    let mut out = vec![String::from("used"); 5];
    crate::simd::utf8::cases::pairs_and_triples(|s| {
        // `s` starts with up to 32 ASCII bytes: placed so that its last bytes fall on
        // either side of the block's end.
        // (At the input's end only: millions of cases, and the vector code is the same
        // far from the end.)
        let at = K::B - s.len().min(40) / 2;
        let f = filler(at);
        agrees_after::<K>(1, &[&f, s], &mut out, &[0]);
        agrees_after::<K>(0, &[s, &f, s], &mut out, &[0]);
    });
}

fn a_size_byte_never_joins_two_strings<K: Kernel>() {
    let mut out = Vec::new();
    // SIZE bytes 0x80..=0xBF (lengths 32..=47) look like continuation bytes, 0xC0.. (48..)
    // like lead bytes; each side is invalid alone.
    for n in 32..64usize {
        let mut tail = vec![b'x'; n];
        tail[0] = 0x80 + (n as u8 & 0x3F);
        for at in [0, 1, K::B - 2, K::B - 1, K::B] {
            let f = filler(at);
            agrees::<K>(0, &[&f, b"ab\xC3", &tail], &mut out);
            agrees::<K>(0, &[&f, b"ab\xE2\x82", &tail], &mut out);
            agrees::<K>(0, &[&f, b"ok", &tail], &mut out);
            let mut first = vec![b'y'; n];
            first[n - 1] = 0xC3;
            agrees::<K>(0, &[&f, &first, b"\xA9z"], &mut out);
        }
    }
}

fn sizes_across_a_block_boundary_and_long_strings<K: Kernel>() {
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
    for at in 0..=K::B + 2 {
        let f = filler(at);
        for m in &mid {
            agrees::<K>(0, &[&f, m, b"\xF0\x9F\x98\x80"], &mut out);
        }
        agrees::<K>(2, &[&f, two.as_bytes(), "ü".as_bytes()], &mut out);
        agrees::<K>(2, &[&f, four.as_bytes(), "ü".as_bytes()], &mut out);
        agrees::<K>(2, &[&f, &bad_long, b"z"], &mut out);
        agrees::<K>(0, &[&f, b"", b"", "é".as_bytes(), b""], &mut out);
    }
}

fn every_size_form_and_lengths_around_the_wide_limit<K: Kernel>() {
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
            let before_fallbacks = FALLBACKS.with(|f| f.get());
            // SAFETY: the processor has what the kernel needs (asked above).
            unsafe { strings_into::<K>(&b, &mut pos, want.len(), &mut out) }.unwrap();
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
            agrees::<K>(1, &[b"ok", &bad, "ü".as_bytes()], &mut Vec::new());
        }
    }
}

fn text_that_starts_ascii_is_still_checked_in_full<K: Kernel>() {
    // The first block is ASCII, so the blocks are judged with the all-ASCII shortcut;
    // the characters and the bad byte come later, in whole blocks and in the last one.
    let ascii = [b'q'; 70];
    let text = "é€😀".repeat(30).into_bytes();
    let mut out = Vec::new();
    agrees::<K>(0, &[&ascii, &text, b"ok"], &mut out);
    for at in [0, 1, 31, 32, 63, 64, 100, text.len() - 1] {
        for bad in [0xFFu8, 0x80, 0xC3] {
            let mut t = text.clone();
            t[at] = bad;
            agrees::<K>(0, &[&ascii, &t, b"ok"], &mut out);
            agrees::<K>(0, &[&ascii, b"ok", &t], &mut out);
        }
    }
}

fn random_arrays_and_their_corruptions_into_used_vectors<K: Kernel>() {
    let pieces = crate::simd::utf8::cases::PIECES;
    let mut next = crate::simd::utf8::cases::xorshift(0x9E37_79B9_7F4A_7C15);
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
        agrees::<K>((next() % 3) as usize, &refs, &mut out);
        if count > 0 && round % 2 == 0 {
            let k = (next() % count as u64) as usize;
            if !strings[k].is_empty() {
                let at = (next() % strings[k].len() as u64) as usize;
                strings[k][at] = next() as u8;
            }
            let refs: Vec<&[u8]> = strings.iter().map(|s| &s[..]).collect();
            agrees::<K>((next() % 3) as usize, &refs, &mut out);
        }
    }
}

fn a_cut_array_is_the_end_of_the_input<K: Kernel>() {
    let b = array(0, &[b"abc", "d\u{e9}fgh".as_bytes(), &[b'x'; 70]]);
    let b = &b[..b.len() - 3];
    for cut in 0..b.len() {
        let mut out = vec![String::from("used"); 4];
        let mut pos = 0;
        // SAFETY: the processor has what the kernel needs (asked above).
        let (e, _) = unsafe { strings_into::<K>(&b[..cut], &mut pos, 3, &mut out) }.unwrap_err();
        assert_eq!(e.message(), "unexpected end of input", "{cut}");
        assert_eq!(pos, 0);
    }
}
