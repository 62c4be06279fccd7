//! Reading a JSON string into a reused `String`, copying while scanning: each block of 16 bytes
//! (32 with AVX2, see [`super::CopyScan`]) is appended whole while it is scanned, then cut back at
//! the first `"`, `\` or control byte, so clean text costs no `memcpy` calls and no second
//! pass. Escapes are decoded straight into the buffer.
//!
//! The buffer is worked on as bytes (blocks are stored into its spare capacity) and turned back
//! into a `String` without a second UTF-8 check; both are `unsafe`, justified below.

use crate::error::{Code, Error, Result};

#[cfg(structio_x86)]
use super::Avx2;
use super::{CopyScan, Narrow};
use crate::json::string::{find_special, invalid_utf8, slice, unescape_unicode, Sink};
#[cfg(structio_x86)]
use crate::simd::detect::has_avx2;
use crate::simd::json_scan::special_bits16;

/// What each byte after a `\` decodes to (0: not a one-byte escape).
const ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0C;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// Unescaped bytes; every byte appended is ASCII or part of a whole encoded `char`.
struct Bytes<'a>(&'a mut Vec<u8>);

impl Sink for Bytes<'_> {
    #[inline(always)]
    fn run(&mut self, text: &str, from: usize, to: usize) -> Result<()> {
        let t = text.get(from..to).ok_or_else(|| invalid_utf8(text))?;
        self.0.extend_from_slice(t.as_bytes());
        Ok(())
    }
    #[inline(always)]
    fn push(&mut self, c: char) {
        let mut b = [0u8; 4];
        self.0.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
    }
}

/// Reads the string of `s` (whose valid UTF-8 prefix is `text`) whose clean text starts at
/// `run` and whose first special byte is at or after `i` (`s[run..i]` is known to hold none)
/// into `out` (replacing its contents, keeping its allocation); returns the index after the
/// closing quote. On error `out` is left empty.
#[inline]
pub(crate) fn read_string_into(
    s: &[u8],
    text: &str,
    run: usize,
    i: usize,
    out: &mut String,
) -> Result<usize> {
    let mut v = std::mem::take(out).into_bytes();
    v.clear();
    match fill(s, text, run, i, &mut v) {
        Ok(end) => {
            // SAFETY: `fill` succeeded, so `v` is a concatenation of (a) runs `s[a..b]` that lie
            // inside `text` (checked: `b <= text.len()`) and start and end next to ASCII bytes
            // or at the ends of `text`, hence are whole `&str` slices of valid UTF-8, and
            // (b) decoded escapes, each one whole UTF-8 encoded `char`. The 16-byte blocks
            // appended while scanning were cut back to the end of a run before anything else
            // was appended. A concatenation of valid UTF-8 strings is valid UTF-8.
            *out = unsafe { String::from_utf8_unchecked(v) };
            Ok(end)
        }
        Err(e) => {
            v.clear();
            *out = String::from_utf8(v).unwrap_or_default();
            Err(e)
        }
    }
}

/// Reads the string of `s` (whose valid UTF-8 prefix is `text`) whose text starts at `start`
/// into `out`, which has no buffer yet (a freshly made value); returns the index after the
/// closing quote. The string is scanned before anything is allocated: text without escapes
/// takes one allocation of exactly its length (none when empty), and text with escapes one
/// allocation of its escaped length (an upper bound of the unescaped one) plus a block, so
/// that it is never regrown. Results and errors are those of [`read_string_into`]. Out of
/// line, so that readers of reused strings (which only test for a buffer) stay small.
#[inline(never)]
pub(crate) fn read_fresh_string(
    s: &[u8],
    text: &str,
    start: usize,
    out: &mut String,
) -> Result<usize> {
    let i = find_special(s, start);
    if s.get(i) == Some(&b'"') && i <= text.len() {
        *out = slice(text, start, i)?.to_owned();
        return Ok(i + 1);
    }
    read_escaped_fresh(s, text, start, i, out)
}

/// [`read_fresh_string`] for text with an escape (or an error) at `i`: finds the closing quote
/// (skipping escaped characters) to size the buffer, then reads as [`read_string_into`] does.
#[inline(never)]
fn read_escaped_fresh(
    s: &[u8],
    text: &str,
    start: usize,
    mut i: usize,
    out: &mut String,
) -> Result<usize> {
    let first = i;
    // Stops at the closing quote, or at a control byte or the end of the input (errors, which
    // the read below reports; the size is then only a guess).
    while s.get(i) == Some(&b'\\') {
        i = find_special(s, i + 2);
    }
    let escaped = i.min(s.len()) - start;
    // Blocks are stored whole into the spare capacity, so room for one more is kept.
    *out = String::with_capacity(escaped + 32);
    read_string_into(s, text, start, first, out)
}

/// Makes room for at least 64 more bytes (a block and a decoded `char`).
#[cold]
#[inline(never)]
fn grow(v: &mut Vec<u8>) {
    v.reserve(64.max(v.len()));
}

/// The loop of [`read_string_into`]. Blocks of 16 bytes are scanned here until one is clean, so
/// short strings (escapes or not) end without a call; longer ones go on 32 bytes at a time with
/// AVX2 when the processor has it.
#[inline(always)]
fn fill(s: &[u8], text: &str, run: usize, mut i: usize, v: &mut Vec<u8>) -> Result<usize> {
    if i > run {
        v.extend_from_slice(&s[run..i]);
    }
    // Until a whole clean block turns up (a long run of text), 16 bytes at a time here.
    while let Some(p) = copy_block::<Narrow>(s, i, v) {
        if p == 16 {
            i += 16;
            break;
        }
        let j = i + p;
        if s.get(j) == Some(&b'"') && j <= text.len() {
            return Ok(j + 1);
        }
        match at_stop(s, text, i + p, p, 16, v)? {
            Step::Closed(end) => return Ok(end),
            Step::Next(j) => i = j,
        }
    }
    #[cfg(structio_x86)]
    {
        if has_avx2() {
            // SAFETY: the processor has AVX2 (checked).
            return unsafe { fill_avx2(s, text, i, v) };
        }
    }
    fill_narrow(s, text, i, v)
}

/// [`fill_with`] 16 bytes at a time, out of line like [`fill_avx2`] (only long strings get
/// here).
#[inline(never)]
fn fill_narrow(s: &[u8], text: &str, i: usize, v: &mut Vec<u8>) -> Result<usize> {
    fill_with::<Narrow>(s, text, i, v)
}

/// [`fill_with`] 32 bytes at a time.
///
/// # Safety
/// The processor has AVX2.
#[cfg(structio_x86)]
#[target_feature(enable = "avx2")]
unsafe fn fill_avx2(s: &[u8], text: &str, i: usize, v: &mut Vec<u8>) -> Result<usize> {
    fill_with::<Avx2>(s, text, i, v)
}

/// Appends the block of `B::W` bytes at `s[i..]` to `v` while scanning it, keeps its bytes up
/// to the first special one, and returns that byte's index in the block (`B::W` if none).
/// `None` if the block does not fit in `s`.
#[inline(always)]
fn copy_block<B: CopyScan>(s: &[u8], i: usize, v: &mut Vec<u8>) -> Option<usize> {
    s.get(i..i + B::W)?;
    if v.capacity() - v.len() < B::W {
        grow(v);
    }
    let len = v.len();
    // SAFETY: `s[i..i + W]` exists (checked above) and `v` has at least `W` bytes of spare
    // capacity after `len` (`grow` makes at least 64), so the copy reads and writes in
    // bounds; `B` is `Narrow` (no special instructions) or `Avx2`, which is only used inside
    // `fill_avx2`, reached after `has_avx2()`. The `W` bytes after `len` are initialized by the
    // copy, and `keep <= W`.
    unsafe {
        let m = B::copy_scan(s.as_ptr().add(i), v.as_mut_ptr().add(len));
        let keep = if m == 0 {
            B::W
        } else {
            m.trailing_zeros() as usize
        };
        v.set_len(len + keep);
        Some(keep)
    }
}

/// Where a string goes on after a special byte.
enum Step {
    /// The closing quote: the index after it.
    Closed(usize),
    /// An escape was decoded: where scanning resumes.
    Next(usize),
}

/// Handles the byte at `i`, where a scan of `n` bytes stopped `p` bytes in (`p >= n`: the
/// input ended).
#[inline(always)]
fn at_stop(s: &[u8], text: &str, i: usize, p: usize, n: usize, v: &mut Vec<u8>) -> Result<Step> {
    // Everything appended so far must lie in the valid prefix (reported before any other
    // error, as it comes first in the document).
    if i > text.len() {
        return Err(invalid_utf8(text));
    }
    if p >= n {
        return Err(Error::new(Code::UnexpectedEnd, s.len()));
    }
    match s[i] {
        b'"' => Ok(Step::Closed(i + 1)),
        b'\\' => {
            let Some(&e) = s.get(i + 1) else {
                return Err(Error::new(Code::UnexpectedEnd, s.len()));
            };
            let c = ESCAPES[e as usize];
            if c != 0 {
                v.push(c);
                Ok(Step::Next(i + 2))
            } else if e == b'u' {
                Ok(Step::Next(unescape_unicode(s, i, &mut Bytes(v))?))
            } else {
                Err(Error::new(Code::InvalidEscape, i + 1))
            }
        }
        _ => Err(Error::new(Code::ControlCharacter, i)),
    }
}

/// The loop of [`read_string_into`] from `i` (nothing pending before it) with blocks of `B`,
/// then 16 bytes, then the padded tail.
#[inline(always)]
fn fill_with<B: CopyScan>(s: &[u8], text: &str, mut i: usize, v: &mut Vec<u8>) -> Result<usize> {
    loop {
        let (p, n) = match copy_block::<B>(s, i, v) {
            Some(p) if p == B::W => {
                i += p;
                continue;
            }
            Some(p) => (p, B::W),
            None => match copy_block::<Narrow>(s, i, v) {
                Some(16) if B::W > 16 => {
                    i += 16;
                    continue;
                }
                Some(p) => (p, 16),
                None => {
                    // The last bytes, padded with a control byte (which stops the scan).
                    let rest = s.get(i..).unwrap_or_default();
                    let mut a = [0u8; 16];
                    a[..rest.len()].copy_from_slice(rest);
                    let p = special_bits16(&a).trailing_zeros() as usize;
                    v.extend_from_slice(&a[..p]);
                    (p, rest.len())
                }
            },
        };
        match at_stop(s, text, i + p, p, n, v)? {
            Step::Closed(end) => return Ok(end),
            Step::Next(j) => i = j,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::string::{find_special, finish_string, valid_prefix};

    /// Reads the string opening at byte 0 of `s` both ways and checks they agree.
    fn both(s: &[u8]) -> Result<(String, usize)> {
        let text = valid_prefix(s);
        let i = find_special(s, 1);
        let mut want = String::new();
        let want_end = finish_string(s, text, 1, i, &mut want);
        let mut got = "left over".to_string();
        let end = read_string_into(s, text, 1, 1, &mut got);
        let mut got2 = String::new();
        let end2 = read_string_into(s, text, 1, i, &mut got2);
        let mut fresh = String::new();
        let fresh_end = read_fresh_string(s, text, 1, &mut fresh);
        match (&end2, &fresh_end) {
            (Ok(a), Ok(b)) => {
                assert_eq!((a, &got2), (b, &fresh), "fresh {s:?}");
                // One allocation: exactly the text, or the escaped text and a block (never
                // regrown while reading).
                let escaped = a - 2;
                if s[1..*a].contains(&b'\\') {
                    assert_eq!(fresh.capacity(), escaped + 32, "fresh {s:?}");
                } else {
                    assert_eq!(fresh.capacity(), escaped, "fresh {s:?}");
                }
            }
            (Err(a), Err(b)) => assert_eq!(
                (a.message(), a.offset()),
                (b.message(), b.offset()),
                "fresh {s:?}"
            ),
            (a, b) => panic!("fresh {s:?}: {a:?} vs {b:?}"),
        }
        // Each block width on its own (`read_string_into` picks one).
        let mut paths: Vec<(&str, Result<usize>, Vec<u8>)> = Vec::new();
        let mut v = Vec::new();
        paths.push(("narrow", fill_with::<Narrow>(s, text, 1, &mut v), v));
        #[cfg(structio_x86)]
        if crate::simd::detect::has_avx2() {
            let mut v = Vec::new();
            // SAFETY: the processor has AVX2 (checked).
            let r = unsafe { fill_avx2(s, text, 1, &mut v) };
            paths.push(("avx2", r, v));
        }
        for (name, r, v) in paths {
            match (&want_end, r) {
                (Ok(a), Ok(b)) => assert_eq!((*a, want.as_bytes()), (b, &v[..]), "{name} {s:?}"),
                (Err(a), Err(b)) => assert_eq!(
                    (a.message(), a.offset()),
                    (b.message(), b.offset()),
                    "{name} {s:?}"
                ),
                (a, b) => panic!("{name} {s:?}: {a:?} vs {b:?}"),
            }
        }
        match (&want_end, &end, &end2) {
            (Ok(a), Ok(b), Ok(c)) => {
                assert_eq!((a, &want), (b, &got), "{s:?}");
                assert_eq!((a, &want), (c, &got2), "{s:?}");
            }
            (Err(a), Err(b), Err(c)) => {
                assert_eq!(
                    (a.message(), a.offset()),
                    (b.message(), b.offset()),
                    "{s:?}"
                );
                assert_eq!(
                    (a.message(), a.offset()),
                    (c.message(), c.offset()),
                    "{s:?}"
                );
                assert!(got.is_empty());
            }
            _ => panic!("{s:?}: {want_end:?} vs {end:?} vs {end2:?}"),
        }
        end.map(|e| (got, e))
    }

    #[test]
    fn agrees_with_finish_string_at_every_length_and_position() {
        let pieces: [&[u8]; 10] = [
            b"\"",
            b"\\n",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\x",
            b"\x01",
            b"\xFF",
            "é".as_bytes(),
            b"\\",
            b"\\u12",
        ];
        for len in 0..80 {
            for pos in 0..=len {
                for piece in pieces {
                    let mut s = vec![b'"'];
                    s.extend(std::iter::repeat_n(b'a', pos));
                    s.extend_from_slice(piece);
                    s.extend(std::iter::repeat_n(b'b', len - pos));
                    let _ = both(&s);
                    s.push(b'"');
                    let _ = both(&s);
                    s.extend_from_slice(b" , 1234567890123456789");
                    let _ = both(&s);
                }
            }
        }
        let (text, end) = both(b"\"a\\tb\\\"c\"x").unwrap();
        assert_eq!((text.as_str(), end), ("a\tb\"c", 9));
    }
}
