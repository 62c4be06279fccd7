//! Glaze's pretty layout: `indent` spaces per level, a newline after `[` and `{` and after
//! every element, one array element per line, `"key": value`, `[]` and `{}` for empty
//! containers, no trailing newline; and Glaze's two line breaks in an empty container that
//! had whitespace between its brackets (prettify) or that is an empty struct (the writer).
//!
//! The rules both pretty layouts built from [`Out`] stores share: the typed writer
//! ([`super::JsonWriter`] with `PRETTY`) and the checking walk's emitter
//! ([`super::pretty_minify::PrettyEmit`]). The one-pass fast path (`reformat.rs`) writes the
//! same text with its own block stores; its output is tested against the walk's.

use super::out::Out;

/// Between a key and its value.
pub(crate) const COLON: &str = ": ";

/// Appends a newline and `n` spaces.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn newline_indent<O: Out>(out: &mut O, n: usize) {
    const SPACES: &str = "                                                                ";
    const NL_SPACES: &str = "\n                               ";
    if n < NL_SPACES.len() {
        // One short fixed-size copy (the usual depths).
        out.push_small(&NL_SPACES[..n + 1]);
        return;
    }
    out.reserve(n.saturating_add(1));
    out.push_ascii(b'\n');
    let mut n = n;
    while n > SPACES.len() {
        out.push_str(SPACES);
        n -= SPACES.len();
    }
    out.push_str(&SPACES[..n]);
}

/// Opens a container: `c`, then the line of its first element (indented by `n` spaces).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn open<O: Out>(out: &mut O, c: u8, n: usize) {
    out.push_ascii(c);
    newline_indent(out, n);
}

/// Ends an element: the comma, then the next element's line (indented by `n` spaces).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn comma<O: Out>(out: &mut O, n: usize) {
    out.push_ascii(b',');
    newline_indent(out, n);
}

/// Closes a container on its own line (indented by `n` spaces, the container's own indent).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn close<O: Out>(out: &mut O, c: u8, n: usize) {
    newline_indent(out, n);
    out.push_ascii(c);
}
