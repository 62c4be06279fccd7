//! Re-formatting JSON text: prettify (Glaze's layout) and minify, both checking the input.
//!
//! Glaze's layout: `indent` spaces per level (3 by default), a newline after `[` and `{` and
//! after every element, one array element per line, `"key": value`, `[]` and `{}` for empty
//! containers, no trailing newline. Strings and numbers are copied verbatim.

use crate::error::Result;

use super::skip::{skip_ws, walk, Emit};
use crate::error::{Code, Error};

/// Appends a newline and `n` spaces.
#[inline(always)]
pub(crate) fn newline_indent(out: &mut Vec<u8>, n: usize) {
    const SPACES: [u8; 64] = [b' '; 64];
    out.reserve(n + 1);
    out.push(b'\n');
    let mut n = n;
    while n > SPACES.len() {
        out.extend_from_slice(&SPACES);
        n -= SPACES.len();
    }
    out.extend_from_slice(&SPACES[..n]);
}

/// Emits Glaze's pretty layout, starting at nesting `base`.
pub(crate) struct PrettyEmit<'o> {
    pub(crate) out: &'o mut Vec<u8>,
    pub(crate) indent: usize,
    pub(crate) base: usize,
}

impl Emit for PrettyEmit<'_> {
    #[inline(always)]
    fn open(&mut self, c: u8, open: usize) {
        self.out.push(c);
        newline_indent(self.out, (self.base + open + 1) * self.indent);
    }
    #[inline(always)]
    fn empty(&mut self, open: u8, close: u8) {
        self.out.extend_from_slice(&[open, close]);
    }
    #[inline(always)]
    fn close(&mut self, c: u8, open: usize) {
        newline_indent(self.out, (self.base + open) * self.indent);
        self.out.push(c);
    }
    #[inline(always)]
    fn comma(&mut self, open: usize) {
        self.out.push(b',');
        newline_indent(self.out, (self.base + open) * self.indent);
    }
    #[inline(always)]
    fn colon(&mut self) {
        self.out.extend_from_slice(b": ");
    }
    #[inline(always)]
    fn token(&mut self, t: &[u8]) {
        self.out.extend_from_slice(t);
    }
}

/// Emits the value without any whitespace.
pub(crate) struct MinifyEmit<'o> {
    pub(crate) out: &'o mut Vec<u8>,
}

impl Emit for MinifyEmit<'_> {
    #[inline(always)]
    fn open(&mut self, c: u8, _: usize) {
        self.out.push(c);
    }
    #[inline(always)]
    fn empty(&mut self, open: u8, close: u8) {
        self.out.extend_from_slice(&[open, close]);
    }
    #[inline(always)]
    fn close(&mut self, c: u8, _: usize) {
        self.out.push(c);
    }
    #[inline(always)]
    fn comma(&mut self, _: usize) {
        self.out.push(b',');
    }
    #[inline(always)]
    fn colon(&mut self) {
        self.out.push(b':');
    }
    #[inline(always)]
    fn token(&mut self, t: &[u8]) {
        self.out.extend_from_slice(t);
    }
}

/// Walks the whole of `s` (one value, whitespace around it) through `e`.
pub(crate) fn reformat<E: Emit>(s: &[u8], max_depth: usize, e: &mut E) -> Result<()> {
    let end = walk(s, 0, 0, max_depth, e)?;
    let end = skip_ws(s, end);
    if end < s.len() {
        return Err(Error::new(Code::TrailingCharacters, end));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pretty(t: &str) -> String {
        let mut out = Vec::new();
        reformat(
            t.as_bytes(),
            256,
            &mut PrettyEmit {
                out: &mut out,
                indent: 3,
                base: 0,
            },
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    fn mini(t: &str) -> String {
        let mut out = Vec::new();
        reformat(t.as_bytes(), 256, &mut MinifyEmit { out: &mut out }).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn glaze_sample() {
        let t = r#"{"a":[1,{}],"b":{},"c":[]}"#;
        let p = "{\n   \"a\": [\n      1,\n      {}\n   ],\n   \"b\": {},\n   \"c\": []\n}";
        assert_eq!(pretty(t), p);
        assert_eq!(mini(p), t);
        assert_eq!(pretty(" [ ] "), "[]");
        assert_eq!(pretty("\"a b\""), "\"a b\"");
        assert_eq!(mini(" { \"a b\" : [ 1 , true , null ] } "), r#"{"a b":[1,true,null]}"#);
    }

    #[test]
    fn deep_indents_beyond_the_space_table() {
        let t = format!("{}{}", "[".repeat(30), "]".repeat(30));
        let p = pretty(&t);
        assert_eq!(mini(&p), t);
        assert!(p.contains(&format!("\n{}[]", " ".repeat(29 * 3))));
    }
}
