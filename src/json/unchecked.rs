//! The one place the JSON backend skips a check: turning re-formatted text (prettify, minify)
//! back into a `String` without validating its UTF-8 a second time. Checking it again with
//! `String::from_utf8` cost 40% of prettifying the non-ASCII `strings` benchmark document.
#![allow(unsafe_code)]

/// Makes a `String` of `v`, which the caller has built only by appending whole `&str` pieces
/// and ASCII bytes (and truncating at lengths it had written, i.e. at piece boundaries).
#[inline]
pub(crate) fn string_of_pieces(v: Vec<u8>) -> String {
    debug_assert!(std::str::from_utf8(&v).is_ok());
    // SAFETY: every byte of `v` comes from a `&str` appended whole or is ASCII, and `v` was only
    // cut back to lengths it had at the end of such a piece, so `v` is a concatenation of
    // valid UTF-8 strings, which is valid UTF-8. The prettify and minify emitters are the only
    // callers; they append through `Out for Vec<u8>` (`push_str`, `push_small`, `push_ascii`
    // with ASCII punctuation, and spaces/newlines). Their fast path (`reformat.rs`) runs only
    // on input that is valid UTF-8 as a whole and writes that input with ASCII whitespace
    // left out and ASCII punctuation put in next to ASCII bytes (never inside a character), so
    // its output is valid UTF-8 too; on rejection its bytes are cut off before the walk runs.
    unsafe { String::from_utf8_unchecked(v) }
}
