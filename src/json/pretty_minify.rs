//! The emitters of the checking walk that re-formats JSON text: prettify (Glaze's layout,
//! [`PrettyEmit`]) and minify ([`MinifyEmit`]), both checking the input (the one-pass fast path
//! is `reformat.rs`). The layout's rules are in [`super::layout`], shared with the pretty
//! writer.
//!
//! Strings and numbers are copied verbatim. Like Glaze, an empty container with whitespace
//! between its brackets (`[ ]`) keeps the two line breaks a full one would have: `[`, a
//! newline and the inner indent, a newline and the outer indent, `]`.

use super::layout::{self, newline_indent};
use super::out::Out;
use super::skip::Emit;

/// Emits Glaze's pretty layout, starting at nesting `base`.
pub(crate) struct PrettyEmit<'o, O> {
    pub(crate) out: &'o mut O,
    pub(crate) indent: usize,
    pub(crate) base: usize,
}

impl<O: Out> Emit for PrettyEmit<'_, O> {
    const TOKENS: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open(&mut self, c: u8, open: usize) {
        self.out.push_ascii(c);
        newline_indent(self.out, (self.base + open + 1).saturating_mul(self.indent));
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn empty(&mut self, open_c: u8, close: u8, open: usize, spaced: bool) {
        self.out.push_ascii(open_c);
        if spaced {
            // Glaze's break after the opening bracket and before the closing one, which it
            // leaves out only when the two are next to each other in the input (as the
            // writer's empty struct: opened and closed with nothing between).
            newline_indent(self.out, (self.base + open + 1).saturating_mul(self.indent));
            newline_indent(self.out, (self.base + open).saturating_mul(self.indent));
        }
        self.out.push_ascii(close);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn close(&mut self, c: u8, open: usize) {
        newline_indent(self.out, (self.base + open).saturating_mul(self.indent));
        self.out.push_ascii(c);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn comma(&mut self, open: usize) {
        self.out.push_ascii(b',');
        newline_indent(self.out, (self.base + open).saturating_mul(self.indent));
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn colon(&mut self) {
        self.out.push_str(layout::COLON);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn token(&mut self, t: &str) {
        self.out.push_small(t);
    }
}

/// Emits the value without any whitespace: the text between whitespace runs is copied as it
/// is, so the tokens and punctuation need no handling of their own.
pub(crate) struct MinifyEmit<'o, 't, O> {
    pub(crate) out: &'o mut O,
    /// The input's valid UTF-8 prefix.
    pub(crate) text: &'t str,
    /// Where the text not yet copied starts.
    pub(crate) last: usize,
}

impl<O: Out> MinifyEmit<'_, '_, O> {
    /// Copies the input from `last` to `to`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn flush(&mut self, to: usize) {
        // Both ends sit next to whitespace or at the ends of a value the walk has checked, so
        // the slice is in the valid prefix and on char boundaries.
        if let Some(t) = self.text.get(self.last..to) {
            self.out.push_small(t);
        }
    }
}

impl<O: Out> Emit for MinifyEmit<'_, '_, O> {
    const TOKENS: bool = false;
    const GAPS: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn gap(&mut self, from: usize, to: usize) {
        self.flush(from);
        self.last = to;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn finish(&mut self, end: usize) {
        self.flush(end);
        self.last = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::json::skip::walk_all as reformat;

    fn pretty(t: &str) -> String {
        let mut out = String::new();
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
        out
    }

    fn mini(t: &str) -> String {
        let mut out = String::new();
        reformat(
            t.as_bytes(),
            256,
            &mut MinifyEmit {
                out: &mut out,
                text: t,
                last: 0,
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn glaze_sample() {
        let t = r#"{"a":[1,{}],"b":{},"c":[]}"#;
        let p = "{\n   \"a\": [\n      1,\n      {}\n   ],\n   \"b\": {},\n   \"c\": []\n}";
        assert_eq!(pretty(t), p);
        assert_eq!(mini(p), t);
        // Whitespace between empty brackets keeps Glaze's two line breaks (its exact output).
        assert_eq!(pretty(" [ ] "), "[\n   \n]");
        assert_eq!(pretty("{\n}"), "{\n   \n}");
        assert_eq!(
            pretty("[{ },[\n],{}]"),
            "[\n   {\n      \n   },\n   [\n      \n   ],\n   {}\n]"
        );
        assert_eq!(mini("[{ },[\n],{}]"), "[{},[],{}]");
        assert_eq!(pretty("\"a b\""), "\"a b\"");
        assert_eq!(
            mini(" { \"a b\" : [ 1 , true , null ] } "),
            r#"{"a b":[1,true,null]}"#
        );
    }

    #[test]
    fn deep_indents_beyond_the_space_table() {
        let t = format!("{}{}", "[".repeat(30), "]".repeat(30));
        let p = pretty(&t);
        assert_eq!(mini(&p), t);
        assert!(p.contains(&format!("\n{}[]", " ".repeat(29 * 3))));
    }
}
