//! SIZE: BEVE's compressed unsigned integer, the prefix that gives a string's length, an
//! array's or object's element count, and a variant's index. (Not to be confused with
//! [`beve_size`](super::beve_size), the length of a whole encoded value.)
//!
//! The low two bits of the first byte give the width (1, 2, 4 or 8 bytes); the value is the
//! little-endian word shifted right by two. Writers use the smallest width; readers accept any
//! width, as Glaze does.

use super::header::{eof, overflow};
use crate::error::Result;
use crate::sink::Sink;

/// The largest value a SIZE can hold (2^62 - 1).
pub const MAX: u64 = (1 << 62) - 1;

/// Appends the minimal encoding of `n`.
///
/// # Panics
/// If `n` is 2^62 or more, which no slice of non-zero-sized elements can reach.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn write<S: Sink>(out: &mut S, n: usize) {
    if n < 1 << 6 {
        out.push((n as u8) << 2);
    } else if n < 1 << 14 {
        out.extend(&((n as u16) << 2 | 1).to_le_bytes());
    } else if n < 1 << 30 {
        out.extend(&((n as u32) << 2 | 2).to_le_bytes());
    } else {
        assert!(n as u64 <= MAX, "BEVE cannot express a length of {n}");
        out.extend(&((n as u64) << 2 | 3).to_le_bytes());
    }
}

/// The width in bytes (1, 2, 4 or 8) of the minimal encoding of `n`.
#[inline]
pub(crate) fn width(n: usize) -> usize {
    if n < 1 << 6 {
        1
    } else if n < 1 << 14 {
        2
    } else if n < 1 << 30 {
        4
    } else {
        8
    }
}

/// The encoding of `n` that is `w` bytes wide (the first `w` bytes of the result): the minimal
/// one when `w == width(n)`, a wider one (which readers accept as well) when `w` is more. `w`
/// must be 1, 2, 4 or 8 and at least `width(n)`.
#[inline]
pub(crate) fn encode(n: usize, w: usize) -> [u8; 8] {
    debug_assert!(w >= width(n) && n as u64 <= MAX);
    let code = match w {
        1 => 0u64,
        2 => 1,
        4 => 2,
        _ => 3,
    };
    ((n as u64) << 2 | code).to_le_bytes()
}

/// Reads a SIZE at `*pos`, advancing `*pos` past it.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read(input: &[u8], pos: &mut usize) -> Result<usize> {
    let at = *pos;
    let Some(&b0) = input.get(at) else {
        return Err(eof(at));
    };
    match b0 & 3 {
        0 => {
            *pos = at + 1;
            Ok((b0 >> 2) as usize)
        }
        1 => match input.get(at..at + 2) {
            Some(b) => {
                *pos = at + 2;
                Ok((u16::from_le_bytes([b[0], b[1]]) >> 2) as usize)
            }
            None => Err(eof(at)),
        },
        2 => match input.get(at..at + 4) {
            Some(b) => {
                *pos = at + 4;
                Ok((u32::from_le_bytes([b[0], b[1], b[2], b[3]]) >> 2) as usize)
            }
            None => Err(eof(at)),
        },
        _ => {
            let v = read_wide(input, at)?;
            *pos = at + 8;
            Ok(v)
        }
    }
}

/// The 8-byte form at `at`, kept out of line: only lengths of a billion and more use it. It
/// takes the offset by value so that a caller's position never has its address taken (which
/// would keep it in memory, on the path from one SIZE to the next).
#[cold]
#[inline(never)]
fn read_wide(input: &[u8], at: usize) -> Result<usize> {
    let Some(b) = input.get(at..at + 8) else {
        return Err(eof(at));
    };
    let mut w = [0u8; 8];
    w.copy_from_slice(b);
    let v = u64::from_le_bytes(w) >> 2;
    usize::try_from(v).map_err(|_| overflow(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(n: usize) -> Vec<u8> {
        let mut v = Vec::new();
        write(&mut v, n);
        v
    }

    fn dec(b: &[u8]) -> Result<(usize, usize)> {
        let mut pos = 0;
        let v = read(b, &mut pos)?;
        Ok((v, pos))
    }

    #[test]
    fn widths_switch_at_the_boundaries() {
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(1), [0x04]);
        assert_eq!(enc(63), [0xFC]);
        assert_eq!(enc(64), [0x01, 0x01]);
        assert_eq!(enc(16383), [0xFD, 0xFF]);
        assert_eq!(enc(16384), [0x02, 0x00, 0x01, 0x00]);
        assert_eq!(enc((1 << 30) - 1), [0xFE, 0xFF, 0xFF, 0xFF]);
        assert_eq!(enc(1 << 30), [0x03, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(
            enc(MAX as usize),
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        );
    }

    #[test]
    fn round_trips() {
        for n in [
            0,
            5,
            63,
            64,
            65,
            16383,
            16384,
            1 << 20,
            (1 << 30) - 1,
            1 << 30,
            1 << 40,
        ] {
            let b = enc(n);
            assert_eq!(dec(&b).unwrap(), (n, b.len()));
        }
    }

    #[test]
    fn non_minimal_widths_are_accepted() {
        assert_eq!(dec(&[0x0E, 0x00, 0x00, 0x00]).unwrap(), (3, 4));
        assert_eq!(dec(&[0x0D, 0x00]).unwrap(), (3, 2));
        assert_eq!(dec(&[0x0F, 0, 0, 0, 0, 0, 0, 0]).unwrap(), (3, 8));
    }

    #[test]
    fn truncated_sizes_are_eof_errors() {
        for b in [
            &[][..],
            &[0x01],
            &[0x02, 0x00, 0x01],
            &[0x03, 0, 0, 0, 0, 0, 0],
        ] {
            let e = dec(b).unwrap_err();
            assert!(e.is_eof(), "{b:?}: {e}");
            assert_eq!(e.offset(), 0);
        }
    }

    #[test]
    fn encodings_of_a_chosen_width() {
        for n in [0usize, 3, 63, 64, 16383, 16384, 1 << 30] {
            let w = width(n);
            assert_eq!(&encode(n, w)[..w], &enc(n)[..]);
            for wider in [1usize, 2, 4, 8].into_iter().filter(|&x| x > w) {
                assert_eq!(dec(&encode(n, wider)[..wider]).unwrap(), (n, wider));
            }
        }
    }

    #[test]
    fn bytes_after_the_size_are_left_alone() {
        assert_eq!(dec(&[0x08, 0xFF]).unwrap(), (2, 1));
    }
}
