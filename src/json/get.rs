//! Reading one value at a JSON pointer ([`get`]) without reading the rest of the document.
//!
//! The walk down the pointer skips every member and element before the one it follows with
//! the skipping walk of [`super::skip`], so what it passes over is checked exactly as
//! [`crate::from_json`] checks it; the target is read by the ordinary reader. Nothing after the
//! target is looked at.
//!
//! The full readers check the input's UTF-8 once, up front ([`valid_prefix`]). Here that would
//! cost a pass over the whole document for a value near its start, so only a prefix is checked
//! (4 KiB first): a string reaching past it fails as invalid UTF-8 at the prefix's end, and
//! then a longer prefix (at least twice as long, and twice the offset of the string that
//! failed) is checked and the step is taken again. Checking grows geometrically, so the total
//! work stays linear in what is read.

use std::borrow::Cow;

use crate::error::{Code, Error, PathSegment, Result};
use crate::pointer::{NotIndex, Pointer};
use crate::reflect::{ReadOptions, Reflect};

use super::read::JsonReader;
use super::skip::{eof, skip_ws, walk, Emit};
use super::string::{find_special, valid_prefix};
use super::Options;
use crate::simd::json_string::unescape::read_string_into;

/// The prefix checked first.
const FIRST_CHECK: usize = 4096;

/// Reads the value at the JSON pointer `pointer` (RFC 6901) in JSON text as a `T`, without
/// reading the rest of the document.
///
/// `""` is the whole document; `/a/0` the first element of member `a`; `~1` stands for `/` and
/// `~0` for `~` in member names. What comes before the value on the way down is checked as
/// [`from_json`](crate::from_json) checks it; what comes after it is not read at all. A pointer
/// that is not one (a `~` followed by anything but `0` or `1`), a missing member, an index out
/// of range, `-`, an index with a leading zero and a step into a string, number, boolean or
/// null are errors (category [`Data`](crate::Category::Data)) that name the pointer. Of
/// duplicate keys the first is followed (`from_json` keeps the last).
///
/// ```
/// let doc = r#"{"users": [{"name": "Ada", "id": 7}, {"name": "Lin", "id": 9}]}"#;
/// let id: u64 = structio::json::get(doc, "/users/1/id").unwrap();
/// assert_eq!(id, 9);
/// let e = structio::json::get::<u64>(doc, "/users/2/id").unwrap_err();
/// assert_eq!(
///     e.message(),
///     "no value at JSON pointer `/users/2/id`: index 2 is out of range for an array of 2 elements"
/// );
/// ```
pub fn get<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized), pointer: &str) -> Result<T>
where
    T: Reflect<'de>,
{
    get_with(input, pointer, &Options::DEFAULT)
}

/// [`get`] with options (the reader's options: depth limit, unknown keys, ...).
pub fn get_with<'de, T>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
    pointer: &str,
    opts: &Options,
) -> Result<T>
where
    T: Reflect<'de>,
{
    let s = input.as_ref();
    let p = Pointer::parse(pointer).map_err(|why| invalid_pointer(pointer, why))?;
    if opts.comments_on() {
        // JSONC: the walk scans a copy with the comments blanked out (made in one pass over
        // the input, which also checks every comment); strings are still read from the input.
        let blanked = super::comments::blank(s).map_err(|e| e.locate_in_text(s))?;
        let scan = blanked.as_deref().unwrap_or(s);
        return get_in(s, scan, p, opts.read).map_err(|e| e.locate_in_text(s));
    }
    get_in(s, s, p, opts.read).map_err(|e| e.locate_in_text(s))
}

/// "invalid JSON pointer".
#[cold]
pub(crate) fn invalid_pointer(pointer: &str, why: crate::pointer::Syntax) -> Error {
    Error::new(Code::InvalidPointer(pointer.to_owned(), why.reason()), 0)
}

/// "no value at JSON pointer": `why` about token `n` of `p`, at `at`, with the path of the
/// containers followed so far.
#[cold]
pub(crate) fn not_found(p: Pointer<'_>, why: String, at: usize, path: &[PathSegment]) -> Error {
    let e = Error::new(
        Code::PointerNotFound(Box::new((p.text().to_owned(), why))),
        at,
    );
    with_path(e, path)
}

/// The error with the segments of `path` (outermost first) added around it.
#[cold]
pub(crate) fn with_path(mut e: Error, path: &[PathSegment]) -> Error {
    for seg in path.iter().rev() {
        e = e.push_path(seg.clone());
    }
    e
}

/// Why a token names no array element.
#[cold]
pub(crate) fn index_problem(token: &str, why: NotIndex) -> String {
    match why {
        NotIndex::End => "`-` (past the last element) names no element to read".into(),
        NotIndex::Malformed => format!(
            "{} is not an array index (decimal digits without a leading zero)",
            crate::error::quoted_string(token)
        ),
    }
}

/// "index i is out of range for an array of n elements".
#[cold]
pub(crate) fn out_of_range(i: usize, len: usize) -> String {
    let s = if len == 1 { "" } else { "s" };
    format!("index {i} is out of range for an array of {len} element{s}")
}

/// "no member `k`".
#[cold]
pub(crate) fn no_member(token: &str) -> String {
    format!("no member {}", crate::error::quoted_string(token))
}

/// "`/a` is a number, not an object or an array".
#[cold]
pub(crate) fn not_container(p: Pointer<'_>, n: usize, what: &str) -> String {
    let at = p.prefix(n);
    let at = if at.is_empty() {
        "the document".to_owned()
    } else {
        crate::error::quoted_string(at)
    };
    format!("{at} is {what}, not an object or an array")
}

/// The input and how much of it has been checked to be UTF-8.
struct Doc<'de, 's> {
    /// The bytes scanned: the input, or (JSONC) a copy of it with its comments blanked out.
    s: &'s [u8],
    /// The input, whose strings are borrowed (the same bytes as `s` outside comments).
    input: &'de [u8],
    /// The valid UTF-8 prefix of `input[..checked]`.
    text: &'de str,
    /// How many bytes have been checked (ends on a char boundary when they are UTF-8).
    checked: usize,
}

impl<'de, 's> Doc<'de, 's> {
    fn new(input: &'de [u8], s: &'s [u8]) -> Doc<'de, 's> {
        let mut d = Doc {
            s,
            input,
            text: "",
            checked: 0,
        };
        d.check_to(FIRST_CHECK);
        d
    }

    /// Checks the first `want` bytes (all of them if fewer), moved back to the start of a
    /// UTF-8 sequence so that a character is never cut in two.
    fn check_to(&mut self, want: usize) {
        let mut n = want.min(self.s.len());
        for _ in 0..3 {
            if n < self.s.len() && n > 0 && self.s[n] & 0xC0 == 0x80 {
                n -= 1;
            }
        }
        self.checked = n;
        self.text = valid_prefix(&self.input[..n]);
    }

    /// Whether `e` says only that a string reached past the checked prefix (not that the input
    /// holds invalid UTF-8).
    fn is_cut(&self, e: &Error) -> bool {
        matches!(e.code(), Code::InvalidUtf8)
            && e.offset() == self.text.len()
            && self.text.len() == self.checked
            && self.checked < self.s.len()
    }

    /// Checks at least twice as much, and at least `2 * at` bytes.
    #[cold]
    #[inline(never)]
    fn widen(&mut self, at: usize) {
        self.check_to(self.checked.saturating_mul(2).max(at.saturating_mul(2)));
    }

    /// Skips the value at `i` (whitespace before it allowed) inside `depth` open containers;
    /// returns the index after it.
    fn skip(&mut self, i: usize, depth: usize, max_depth: usize) -> Result<usize> {
        loop {
            let mut last = LastString(i);
            match walk(self.s, self.text, i, depth, max_depth, &mut last) {
                Err(e) if self.is_cut(&e) => self.widen(last.0),
                r => return r,
            }
        }
    }

    /// Reads the key whose opening quote is at `i`; returns the index after it and whether it
    /// is `token`. Keys with escapes are unescaped into `scratch`.
    fn key_is(&mut self, i: usize, token: &str, scratch: &mut String) -> Result<(usize, bool)> {
        let s = self.s;
        loop {
            let j = find_special(s, i + 1);
            let r = if s.get(j) == Some(&b'"') && j <= self.text.len() {
                Ok((j + 1, &s[i + 1..j] == token.as_bytes()))
            } else {
                read_string_into(s, self.text, i + 1, j, scratch).map(|end| (end, scratch == token))
            };
            match r {
                Err(e) if self.is_cut(&e) => self.widen(i),
                r => return r,
            }
        }
    }
}

/// An [`Emit`] that remembers where the last string started.
struct LastString(usize);

impl Emit for LastString {
    const TOKENS: bool = false;
    const STRINGS: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn string(&mut self, at: usize) {
        self.0 = at;
    }
}

/// Follows `p` down `s` (`input`, or `input` with its comments blanked) and reads the value
/// there.
fn get_in<'de, T: Reflect<'de>>(
    input: &'de [u8],
    s: &[u8],
    p: Pointer<'_>,
    opts: ReadOptions,
) -> Result<T> {
    let mut doc = Doc::new(input, s);
    let mut path = Vec::new();
    let (i, depth) = find(&mut doc, p, opts.max_depth, &mut path)?;
    let read = |doc: &Doc<'de, '_>| {
        let mut r = JsonReader::with_text(s, doc.text, opts).nested(depth);
        r.seek(i);
        T::read_new(&mut r)
    };
    let v = match read(&doc) {
        Err(e) if doc.is_cut(&e) => {
            // The value holds a string past the checked prefix: skipping it checks as much of
            // the input as it covers (or finds the real error), then it reads in full.
            doc.skip(i, depth, opts.max_depth)
                .map_err(|e| with_path(e, &path))?;
            read(&doc)
        }
        r => r,
    };
    v.map_err(|e| with_path(e, &path))
}

/// Follows `p` from the start of the document; returns where the value it names starts and
/// how many containers enclose it.
fn find(
    doc: &mut Doc<'_, '_>,
    p: Pointer<'_>,
    max_depth: usize,
    path: &mut Vec<PathSegment>,
) -> Result<(usize, usize)> {
    let s = doc.s;
    let mut i = 0;
    let mut depth = 0;
    let mut scratch = String::new();
    for (n, token) in p.tokens().enumerate() {
        i = skip_ws(s, i);
        let Some(&b) = s.get(i) else {
            return Err(with_path(eof(s), path));
        };
        let open = i;
        match b {
            b'{' | b'[' => {
                depth += 1;
                if depth > max_depth {
                    return Err(with_path(Error::new(Code::DepthLimit(max_depth), i), path));
                }
                i = skip_ws(s, i + 1);
            }
            _ => {
                // Not a container: check it is a well-formed value, then say what it is.
                doc.skip(i, depth, max_depth)
                    .map_err(|e| with_path(e, path))?;
                let what = match b {
                    b'"' => "a string",
                    b't' | b'f' => "a boolean",
                    b'n' => "null",
                    _ => "a number",
                };
                return Err(not_found(p, not_container(p, n, what), i, path));
            }
        }
        let found = if b == b'{' {
            member(doc, i, depth, max_depth, &token, &mut scratch)
        } else {
            match crate::pointer::index(&token) {
                Ok(k) => element(doc, i, depth, max_depth, k),
                Err(why) => {
                    let why = index_problem(&token, why);
                    return Err(not_found(p, why, open, path));
                }
            }
        };
        match found.map_err(|e| with_path(e, path))? {
            Ok(at) => {
                i = at;
                path.push(match crate::pointer::index(&token) {
                    Ok(k) if b == b'[' => PathSegment::Index(k),
                    _ => PathSegment::Key(Cow::into_owned(token)),
                });
            }
            Err(why) => return Err(not_found(p, why, open, path)),
        }
    }
    Ok((i, depth))
}

/// In the object whose first key (or `}`) is at `i`, the value of the first member named
/// `token` (`Ok(Err(why))` if there is none).
fn member(
    doc: &mut Doc<'_, '_>,
    mut i: usize,
    depth: usize,
    max_depth: usize,
    token: &str,
    scratch: &mut String,
) -> Result<std::result::Result<usize, String>> {
    let s = doc.s;
    if s.get(i) == Some(&b'}') {
        return Ok(Err(no_member(token)));
    }
    loop {
        match s.get(i) {
            Some(b'"') => {}
            Some(_) => return Err(Error::new(Code::ExpectedKey, i)),
            None => return Err(eof(s)),
        }
        let (end, matched) = doc.key_is(i, token, scratch)?;
        i = skip_ws(s, end);
        match s.get(i) {
            Some(b':') => i += 1,
            Some(_) => return Err(Error::new(Code::ExpectedColon, i)),
            None => return Err(eof(s)),
        }
        if matched {
            return Ok(Ok(i));
        }
        i = skip_ws(s, doc.skip(i, depth, max_depth)?);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b'}') => return Ok(Err(no_member(token))),
            Some(_) => return Err(Error::new(Code::ExpectedCommaOrEnd("}"), i)),
            None => return Err(eof(s)),
        }
    }
}

/// In the array whose first element (or `]`) is at `i`, element `k` (`Ok(Err(why))` if the
/// array is shorter).
fn element(
    doc: &mut Doc<'_, '_>,
    mut i: usize,
    depth: usize,
    max_depth: usize,
    k: usize,
) -> Result<std::result::Result<usize, String>> {
    let s = doc.s;
    if s.get(i) == Some(&b']') {
        return Ok(Err(out_of_range(k, 0)));
    }
    let mut at = 0;
    loop {
        if at == k {
            return Ok(Ok(i));
        }
        i = skip_ws(s, doc.skip(i, depth, max_depth)?);
        match s.get(i) {
            Some(b',') => {
                i += 1;
                at += 1;
            }
            Some(b']') => return Ok(Err(out_of_range(k, at + 1))),
            Some(_) => return Err(Error::new(Code::ExpectedCommaOrEnd("]"), i)),
            None => return Err(eof(s)),
        }
    }
}
