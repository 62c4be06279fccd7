//! The strings of a string array (`0x3C`), validated as UTF-8 a run at a time.
//!
//! Each element is `SIZE | UTF-8`. When the SIZE bytes between two strings are ASCII they are
//! complete characters, so the bytes from the start of one string to the end of the next form
//! valid UTF-8 exactly when both strings do (a string cut inside a character would leave an
//! incomplete sequence before an ASCII byte, or a stray continuation byte after one). A run of
//! such strings is validated with one call, then sliced into the strings (slicing a `str` at
//! known boundaries needs no unsafe code). Runs end at a SIZE with a non-ASCII byte; with
//! strings of 50 to 150 bytes about half the SIZEs are ASCII, halving the validator calls.

use super::size;
use super::transcode::{take, utf8};
use crate::error::{Error, Result};

/// Longest run validated at once (the offsets of its strings are kept on the stack).
const RUN: usize = 32;

/// Reads `n` strings starting at `*pos`, handing each to `each(index, text)`. An error comes
/// with the index of the string it is about.
#[inline]
pub(crate) fn items<'a>(
    input: &'a [u8],
    pos: &mut usize,
    n: usize,
    mut each: impl FnMut(usize, &'a str) -> Result<()>,
) -> std::result::Result<(), (Error, usize)> {
    let mut i = 0;
    // Data ranges of the run's strings, relative to the run's start.
    let mut spans = [(0usize, 0usize); RUN];
    while i < n {
        let first = i;
        // The extent of the run: the first string's data, then strings whose SIZE is ASCII.
        let mut p = *pos;
        let len = size::read(input, &mut p).map_err(|e| (e, i))?;
        take(input, p, len, *pos).map_err(|e| (e, i))?;
        let start = p;
        spans[0] = (0, len);
        let mut count = 1;
        p += len;
        i += 1;
        while i < n && count < RUN {
            let at = p;
            let mut q = p;
            let len = size::read(input, &mut q).map_err(|e| (e, i))?;
            if !ascii_size(&input[at..q]) {
                break;
            }
            take(input, q, len, at).map_err(|e| (e, i))?;
            spans[count] = (q - start, q - start + len);
            count += 1;
            p = q + len;
            i += 1;
        }
        let run = match utf8(&input[start..p], start) {
            Ok(run) => run,
            Err(_) => return Err(first_invalid(input, *pos, first, i)),
        };
        for (k, &(a, b)) in spans[..count].iter().enumerate() {
            // On boundaries by construction (after and before ASCII bytes); `get` keeps that
            // from being a panic path.
            let s = run
                .get(a..b)
                .ok_or_else(|| first_invalid(input, *pos, first, i))?;
            each(first + k, s).map_err(|e| (e, first + k))?;
        }
        *pos = p;
    }
    Ok(())
}

/// Whether the bytes of a SIZE are all ASCII (one or two bytes for strings under 16 KiB).
#[inline(always)]
fn ascii_size(b: &[u8]) -> bool {
    match *b {
        [x] => x < 0x80,
        [x, y] => (x | y) < 0x80,
        _ => b.is_ascii(),
    }
}

/// The error for the first invalid string among strings `from..to` starting at `pos`.
#[cold]
#[inline(never)]
fn first_invalid(input: &[u8], mut pos: usize, from: usize, to: usize) -> (Error, usize) {
    for k in from..to {
        match super::transcode::sized_str(input, &mut pos) {
            Ok(_) => {}
            Err(e) => return (e, k),
        }
    }
    // The run was invalid, so one of its strings is; kept as an error all the same.
    (
        Error::new(crate::error::Code::InvalidUtf8, pos),
        to.saturating_sub(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array(strs: &[&[u8]]) -> Vec<u8> {
        let mut b = Vec::new();
        for s in strs {
            size::write(&mut b, s.len());
            b.extend_from_slice(s);
        }
        b
    }

    fn collect(b: &[u8], n: usize) -> std::result::Result<Vec<String>, (String, usize, usize)> {
        let mut out = Vec::new();
        let mut pos = 0;
        items(b, &mut pos, n, |_, s| {
            out.push(s.to_string());
            Ok(())
        })
        .map_err(|(e, k)| (e.message(), e.offset(), k))?;
        assert_eq!(pos, b.len());
        Ok(out)
    }

    #[test]
    fn strings_across_ascii_and_non_ascii_sizes() {
        // Lengths 31 (ASCII SIZE), 32 (SIZE 0x80), 64 (SIZE 0x01 0x01), 96 (0x81 0x01).
        let texts: Vec<String> = [31, 32, 64, 96, 5, 0, 40]
            .iter()
            .map(|&n| "é".repeat(n / 2) + &"x".repeat(n % 2))
            .collect();
        let refs: Vec<&[u8]> = texts.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(collect(&array(&refs), refs.len()).unwrap(), texts);
    }

    #[test]
    fn a_character_split_across_two_strings_is_invalid() {
        // Each half is invalid alone, though the run's bytes with an ASCII SIZE between them
        // would be "\u{e9}" if the SIZE were not there.
        let b = array(&[b"a\xC3", b"\xA9b"]);
        assert_eq!(collect(&b, 2).unwrap_err(), ("invalid UTF-8".into(), 2, 0));
        let b = array(&[b"ok", b"\xA9b"]);
        assert_eq!(collect(&b, 2).unwrap_err(), ("invalid UTF-8".into(), 4, 1));
        let b = array(&[b"ok", b"fine", b"bad\xFF"]);
        assert_eq!(collect(&b, 3).unwrap_err(), ("invalid UTF-8".into(), 12, 2));
    }

    #[test]
    fn truncation_is_end_of_input() {
        let b = array(&[b"abc", b"defgh"]);
        for cut in 0..b.len() {
            let (msg, _, _) = collect(&b[..cut], 2).unwrap_err();
            assert_eq!(msg, "unexpected end of input", "{cut}");
        }
    }
}
