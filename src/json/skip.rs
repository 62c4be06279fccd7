//! Walking a JSON value without a target type: skipping (checking it is well-formed),
//! validating, and re-emitting it (prettify, minify).
//!
//! The walk is iterative: open containers are kept as bits on a small stack, so a document of a
//! million `[` costs no recursion and stops at the depth limit.

use crate::error::{Code, Error, Result};

use super::string::{skip_string, slice, valid_prefix};
use crate::number::parse::skip_number;
use crate::simd::json_scan::ws_bits16;

/// Whether `b` is JSON whitespace (space, tab, LF, CR).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The index of the first non-whitespace byte at or after `i` (`s.len()` if none).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn skip_ws(s: &[u8], i: usize) -> usize {
    match s.get(i) {
        Some(&b) if is_ws(b) => skip_ws_run(s, i + 1),
        _ => i,
    }
}

/// The rest of [`skip_ws`], from the byte after the first whitespace: sixteen bytes at a time,
/// after a look at that one byte.
#[inline]
fn skip_ws_run(s: &[u8], mut i: usize) -> usize {
    // One whitespace byte alone (`": "`, `, "`) is the commonest run. Ended by a comparison
    // of one byte, the next position does not wait for a block's load and compare: it is
    // known as soon as the branch is predicted, where the block's mask would put the block's
    // latency on the path from one token to the next (a spaced `tools/call`: 159 ns instead
    // of 266-279).
    if s.get(i).is_some_and(|&b| !is_ws(b)) {
        return i;
    }
    while let Some(block) = s.get(i..i + 16) {
        let mut a = [0u8; 16];
        a.copy_from_slice(block);
        let other = !ws_bits16(&a) & 0xFFFF;
        if other != 0 {
            return i + other.trailing_zeros() as usize;
        }
        i += 16;
    }
    while let Some(&b) = s.get(i) {
        if !is_ws(b) {
            break;
        }
        i += 1;
    }
    i
}

/// Checks that the literal `lit` (`true`, `false`, `null`) is at `i`; returns the index after.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn literal(s: &[u8], i: usize, lit: &[u8]) -> Result<usize> {
    match s.get(i..i + lit.len()) {
        Some(t) if t == lit => Ok(i + lit.len()),
        _ => Err(literal_error(s, i, lit)),
    }
}

#[cold]
fn literal_error(s: &[u8], i: usize, lit: &[u8]) -> Error {
    let rest = &s[i.min(s.len())..];
    if rest.len() < lit.len() && lit.starts_with(rest) {
        Error::new(Code::UnexpectedEnd, s.len())
    } else {
        Error::new(Code::InvalidLiteral, i)
    }
}

/// "unexpected end of input" at the end of `s`.
#[cold]
pub(crate) fn eof(s: &[u8]) -> Error {
    Error::new(Code::UnexpectedEnd, s.len())
}

/// What a walk produces besides checking: nothing (skip, validate) or re-formatted text.
/// Every hook does nothing unless an implementation overrides it.
pub(crate) trait Emit {
    /// Whether [`Emit::token`] wants the tokens (if not, the walk does not slice them out).
    const TOKENS: bool;
    /// A container opens and is not empty; `open` containers enclose it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open(&mut self, _c: u8, _open: usize) {}
    /// An empty container, `[]` or `{}`, inside `open` containers; `spaced` when the input has
    /// whitespace between its brackets.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn empty(&mut self, _open_c: u8, _close: u8, _open: usize, _spaced: bool) {}
    /// A container closes; `open` containers still enclose it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn close(&mut self, _c: u8, _open: usize) {}
    /// A comma between elements of the innermost of `open` containers.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn comma(&mut self, _open: usize) {}
    /// The colon after a key.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn colon(&mut self) {}
    /// A scalar or a key, verbatim.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn token(&mut self, _t: &str) {}
    /// The walk of the whole input succeeded; the value ended at `end`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn finish(&mut self, _end: usize) {}
    /// Whether [`Emit::gap`] wants the whitespace runs.
    const GAPS: bool = false;
    /// The whitespace `from..to` (not empty) between tokens was skipped.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn gap(&mut self, _from: usize, _to: usize) {}
    /// Whether [`Emit::string`] wants to know where strings start.
    const STRINGS: bool = false;
    /// A string (a value or a key) whose opening quote is at `at` is about to be checked.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn string(&mut self, _at: usize) {}
}

/// [`skip_ws`], telling `e` about the whitespace skipped.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn ws<E: Emit>(s: &[u8], i: usize, e: &mut E) -> usize {
    let j = skip_ws(s, i);
    if E::GAPS && j != i {
        e.gap(i, j);
    }
    j
}

/// An [`Emit`] that keeps nothing.
pub(crate) struct NoEmit;

impl Emit for NoEmit {
    const TOKENS: bool = false;
}

/// A stack of bits (object = 1, array = 0): 256 levels inline, deeper ones on the heap.
struct BitStack {
    inline: [u64; 4],
    spill: Vec<u64>,
    len: usize,
}

impl BitStack {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn new() -> BitStack {
        BitStack {
            inline: [0; 4],
            spill: Vec::new(),
            len: 0,
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, bit: bool) {
        let (w, b) = (self.len / 64, self.len % 64);
        let word = match self.inline.get_mut(w) {
            Some(word) => word,
            None => {
                let k = w - self.inline.len();
                if k == self.spill.len() {
                    self.spill.push(0);
                }
                &mut self.spill[k]
            }
        };
        *word = (*word & !(1 << b)) | (u64::from(bit) << b);
        self.len += 1;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn top(&self) -> bool {
        let i = self.len - 1;
        let (w, b) = (i / 64, i % 64);
        let word = match self.inline.get(w) {
            Some(word) => *word,
            None => self.spill[w - self.inline.len()],
        };
        word >> b & 1 == 1
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pop(&mut self) {
        self.len -= 1;
    }
}

/// Passes `s[from..to]` to `e` if it wants tokens.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn emit<E: Emit>(e: &mut E, text: &str, from: usize, to: usize) -> Result<()> {
    if E::TOKENS {
        e.token(slice(text, from, to)?);
    }
    Ok(())
}

/// Walks the value at `i` (whitespace before it allowed) in `s`, whose valid UTF-8 prefix is
/// `text`, checking it is well-formed and that no container nests deeper than `max_depth`
/// counting the `depth` containers around it. Returns the index just after the value.
#[inline]
pub(crate) fn walk<E: Emit>(
    s: &[u8],
    text: &str,
    mut i: usize,
    depth: usize,
    max_depth: usize,
    e: &mut E,
) -> Result<usize> {
    let mut stack = BitStack::new();
    // The top of `stack`, kept at hand.
    let mut in_obj = false;
    loop {
        // A value.
        i = ws(s, i, e);
        let Some(&b) = s.get(i) else {
            return Err(eof(s));
        };
        match b {
            b'"' => {
                if E::STRINGS {
                    e.string(i);
                }
                let end = skip_string(s, text, i + 1)?;
                emit(e, text, i, end)?;
                i = end;
            }
            b'{' | b'[' => {
                if depth + stack.len + 1 > max_depth {
                    return Err(Error::new(Code::DepthLimit(max_depth), i));
                }
                let obj = b == b'{';
                let close = if obj { b'}' } else { b']' };
                let j = ws(s, i + 1, e);
                if s.get(j) == Some(&close) {
                    e.empty(b, close, stack.len, j > i + 1);
                    i = j + 1;
                } else {
                    e.open(b, stack.len);
                    stack.push(obj);
                    in_obj = obj;
                    i = if obj { key(s, text, j, e)? } else { j };
                    continue;
                }
            }
            b'-' | b'0'..=b'9' => {
                let end = skip_number(s, i)?;
                emit(e, text, i, end)?;
                i = end;
            }
            b't' => i = scalar_literal(s, i, "true", e)?,
            b'f' => i = scalar_literal(s, i, "false", e)?,
            b'n' => i = scalar_literal(s, i, "null", e)?,
            _ => return Err(Error::new(Code::ExpectedValue, i)),
        }
        // After a value: close finished containers, or move to the next element.
        loop {
            if stack.len == 0 {
                return Ok(i);
            }
            i = ws(s, i, e);
            let obj = in_obj;
            let close = if obj { b'}' } else { b']' };
            match s.get(i) {
                Some(b',') => {
                    e.comma(stack.len);
                    i = if obj { key(s, text, i + 1, e)? } else { i + 1 };
                    break;
                }
                Some(&c) if c == close => {
                    stack.pop();
                    if stack.len > 0 {
                        in_obj = stack.top();
                    }
                    e.close(c, stack.len);
                    i += 1;
                }
                Some(_) => {
                    let want = if obj { "}" } else { "]" };
                    return Err(Error::new(Code::ExpectedCommaOrEnd(want), i));
                }
                None => return Err(eof(s)),
            }
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn scalar_literal<E: Emit>(s: &[u8], i: usize, lit: &'static str, e: &mut E) -> Result<usize> {
    let end = literal(s, i, lit.as_bytes())?;
    e.token(lit);
    Ok(end)
}

/// A key and its colon at `i` (whitespace allowed around both); returns the index after `:`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn key<E: Emit>(s: &[u8], text: &str, i: usize, e: &mut E) -> Result<usize> {
    let i = ws(s, i, e);
    match s.get(i) {
        Some(b'"') => {}
        Some(_) => return Err(Error::new(Code::ExpectedKey, i)),
        None => return Err(eof(s)),
    }
    if E::STRINGS {
        e.string(i);
    }
    let end = skip_string(s, text, i + 1)?;
    emit(e, text, i, end)?;
    let j = ws(s, end, e);
    match s.get(j) {
        Some(b':') => {}
        Some(_) => return Err(Error::new(Code::ExpectedColon, j)),
        None => return Err(eof(s)),
    }
    e.colon();
    Ok(j + 1)
}

/// Walks all of `s`: one value, whitespace around it allowed.
pub(crate) fn walk_all<E: Emit>(s: &[u8], max_depth: usize, e: &mut E) -> Result<()> {
    walk_all_in(s, valid_prefix(s), max_depth, e)
}

/// [`walk_all`] for `s` whose valid UTF-8 prefix `text` is known.
pub(crate) fn walk_all_in<E: Emit>(
    s: &[u8],
    text: &str,
    max_depth: usize,
    e: &mut E,
) -> Result<()> {
    let end = walk(s, text, 0, 0, max_depth, e)?;
    let after = skip_ws(s, end);
    if after < s.len() {
        return Err(Error::new(Code::TrailingCharacters, after));
    }
    e.finish(end);
    Ok(())
}

/// Checks that `s` holds exactly one well-formed JSON value (whitespace around it allowed).
pub(crate) fn validate_all(s: &[u8], max_depth: usize) -> Result<()> {
    walk_all(s, max_depth, &mut NoEmit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(t: &str) -> Result<()> {
        validate_all(t.as_bytes(), 256)
    }

    fn err(t: &str) -> (String, usize) {
        let e = check(t).unwrap_err();
        (e.message(), e.offset())
    }

    /// `skip_ws` against a byte-by-byte scan: runs of every length from 0 to 40 of every
    /// whitespace byte and of mixes, followed by a value byte, a non-JSON-whitespace control
    /// byte or the end of the input, at every start.
    #[test]
    fn skip_ws_ends_where_the_whitespace_ends() {
        let naive = |s: &[u8], mut i: usize| {
            while s.get(i).is_some_and(|&b| is_ws(b)) {
                i += 1;
            }
            i
        };
        for len in 0..=40 {
            for fill in [&b" "[..], b"\t", b"\n", b"\r", b" \n\t\r"] {
                let run: Vec<u8> = fill.iter().copied().cycle().take(len).collect();
                for tail in [&b"1"[..], b"\x0b", b"\x00", b""] {
                    let s = [&b"{"[..], &run, tail].concat();
                    for i in 0..=s.len() {
                        assert_eq!(skip_ws(&s, i), naive(&s, i), "{s:?} from {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn accepts_well_formed_values() {
        for t in [
            "0",
            " [1, 2.5e3, -0, \"x\", true, false, null, {}, []] ",
            "{\"a\":{\"b\":[{}]},\"c\":\"\\u00e9\"}",
            "\t\r\n\"\"",
            "[[[[]]]]",
        ] {
            check(t).unwrap();
        }
    }

    #[test]
    fn reports_what_and_where() {
        assert_eq!(err(""), ("unexpected end of input".into(), 0));
        assert_eq!(err("[1,]"), ("expected a value".into(), 3));
        assert_eq!(err("[1 2]"), ("expected `,` or `]`".into(), 3));
        assert_eq!(err("{\"a\":1,}"), ("expected a string key".into(), 7));
        assert_eq!(err("{\"a\" 1}"), ("expected `:`".into(), 5));
        assert_eq!(err("{\"a\":1]"), ("expected `,` or `}`".into(), 6));
        assert_eq!(err("[tru]"), ("invalid literal".into(), 1));
        assert_eq!(err("[tru"), ("unexpected end of input".into(), 4));
        assert_eq!(
            err("1 2"),
            ("trailing characters after the value".into(), 2)
        );
        assert_eq!(err("\u{feff}1"), ("expected a value".into(), 0));
        assert_eq!(
            err("[1]x"),
            ("trailing characters after the value".into(), 3)
        );
        assert_eq!(err("{'a':1}"), ("expected a string key".into(), 1));
        assert_eq!(err("[NaN]"), ("expected a value".into(), 1));
        assert_eq!(
            err("[1] // c"),
            ("trailing characters after the value".into(), 4)
        );
    }

    #[test]
    fn depth_is_limited_without_recursion() {
        let deep = "[".repeat(1_000_000);
        assert_eq!(
            err(&deep),
            ("nesting deeper than the limit of 256".into(), 256)
        );
        let ok = format!("{}{}", "[".repeat(256), "]".repeat(256));
        check(&ok).unwrap();
        let too = format!("{}{}", "[".repeat(257), "]".repeat(257));
        assert_eq!(err(&too).1, 256);
        let mixed = format!("{}1{}", "[{\"k\":".repeat(300), "}]".repeat(300));
        validate_all(mixed.as_bytes(), 1000).unwrap();
        assert_eq!(err(&mixed).0, "nesting deeper than the limit of 256");
    }

    #[test]
    fn bit_stack_spills_past_256() {
        let mut st = BitStack::new();
        for k in 0..1000 {
            st.push(k % 3 == 0);
        }
        for k in (0..1000).rev() {
            assert_eq!(st.top(), k % 3 == 0);
            st.pop();
        }
    }
}
