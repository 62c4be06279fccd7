//! JSON pointers (RFC 6901), parsed strictly: the one parser behind [`crate::Value::pointer`],
//! JSON Patch ([`crate::value::patch`]) and the readers of one value at a pointer
//! ([`crate::json::get`], [`crate::beve::get`]).
//!
//! A pointer is empty (the whole document) or `/` followed by reference tokens separated by
//! `/`. In a token `~0` stands for `~` and `~1` for `/`; a `~` followed by anything else (or by
//! nothing) makes the text no pointer at all. A token names an array element only when it is
//! decimal digits without a leading zero (`0`, `17`, not `01`, `+1` or `-`); `-` (the element
//! past the last) names nothing to read.

use std::borrow::Cow;

/// Why a text is not a JSON pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// Neither empty nor starting with `/`.
    NoSlash,
    /// A `~` at this byte not followed by `0` or `1`.
    BadEscape(usize),
}

impl Syntax {
    /// What is wrong, as the end of a message.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Syntax::NoSlash => "it must be empty or start with `/`",
            Syntax::BadEscape(_) => "`~` must be followed by `0` or `1`",
        }
    }
}

/// A JSON pointer checked to be well-formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pointer<'p> {
    text: &'p str,
}

impl<'p> Pointer<'p> {
    /// Checks `text` (see the module documentation).
    pub(crate) fn parse(text: &'p str) -> Result<Pointer<'p>, Syntax> {
        if !text.is_empty() && !text.starts_with('/') {
            return Err(Syntax::NoSlash);
        }
        let b = text.as_bytes();
        let mut i = 0;
        while let Some(k) = b[i..].iter().position(|&c| c == b'~') {
            let at = i + k;
            if !matches!(b.get(at + 1), Some(b'0' | b'1')) {
                return Err(Syntax::BadEscape(at));
            }
            i = at + 2;
        }
        Ok(Pointer { text })
    }

    /// The pointer as written.
    pub(crate) fn text(self) -> &'p str {
        self.text
    }

    /// The unescaped reference tokens, outermost first (none for the empty pointer).
    pub(crate) fn tokens(self) -> Tokens<'p> {
        Tokens {
            rest: self.text.strip_prefix('/'),
        }
    }

    /// The pointer to the container of token `n` (its first `n` tokens), as written.
    pub(crate) fn prefix(self, n: usize) -> &'p str {
        let mut end = 0;
        for _ in 0..n {
            end += 1 + self.text[end + 1..]
                .find('/')
                .unwrap_or(self.text.len() - end - 1);
        }
        &self.text[..end]
    }
}

/// The tokens of a [`Pointer`].
#[derive(Debug, Clone)]
pub(crate) struct Tokens<'p> {
    rest: Option<&'p str>,
}

impl<'p> Iterator for Tokens<'p> {
    type Item = Cow<'p, str>;

    fn next(&mut self) -> Option<Cow<'p, str>> {
        let rest = self.rest?;
        let (raw, next) = match rest.find('/') {
            Some(k) => (&rest[..k], Some(&rest[k + 1..])),
            None => (rest, None),
        };
        self.rest = next;
        Some(unescape(raw))
    }
}

/// A token of a well-formed pointer with `~0` and `~1` replaced.
fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('~') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        out.push(if chars.next() == Some('0') { '~' } else { '/' });
    }
    Cow::Owned(out)
}

/// Why a token names no array element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotIndex {
    /// `-`, the element past the last.
    End,
    /// Not decimal digits without a leading zero.
    Malformed,
}

/// A token as an array index: decimal digits without a leading zero. Digits beyond `usize`
/// give `usize::MAX`, which is out of range of any array.
pub(crate) fn index(token: &str) -> Result<usize, NotIndex> {
    if token == "-" {
        return Err(NotIndex::End);
    }
    let b = token.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) || (b.len() > 1 && b[0] == b'0') {
        return Err(NotIndex::Malformed);
    }
    Ok(token.parse().unwrap_or(usize::MAX))
}

/// Escapes a member name as a pointer token (`~` -> `~0`, `/` -> `~1`).
pub(crate) fn escape_into(out: &mut String, name: &str) {
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(p: &str) -> Vec<String> {
        Pointer::parse(p)
            .unwrap()
            .tokens()
            .map(Cow::into_owned)
            .collect()
    }

    #[test]
    fn parses_strictly() {
        assert_eq!(toks(""), Vec::<String>::new());
        assert_eq!(toks("/"), [""]);
        assert_eq!(toks("//"), ["", ""]);
        assert_eq!(toks("/a~1b/~01/m~0n"), ["a/b", "~1", "m~n"]);
        assert_eq!(toks("/é/ü"), ["é", "ü"]);
        assert_eq!(Pointer::parse("a"), Err(Syntax::NoSlash));
        assert_eq!(Pointer::parse("/~2"), Err(Syntax::BadEscape(1)));
        assert_eq!(Pointer::parse("/a~"), Err(Syntax::BadEscape(2)));
        assert_eq!(Pointer::parse("/~0~"), Err(Syntax::BadEscape(3)));
        assert_eq!(Pointer::parse("#/a"), Err(Syntax::NoSlash));
    }

    #[test]
    fn prefixes() {
        let p = Pointer::parse("/a/b~1c//d").unwrap();
        assert_eq!(p.prefix(0), "");
        assert_eq!(p.prefix(1), "/a");
        assert_eq!(p.prefix(2), "/a/b~1c");
        assert_eq!(p.prefix(3), "/a/b~1c/");
        assert_eq!(p.prefix(4), "/a/b~1c//d");
    }

    #[test]
    fn indexes() {
        assert_eq!(index("0"), Ok(0));
        assert_eq!(index("17"), Ok(17));
        assert_eq!(index("99999999999999999999999"), Ok(usize::MAX));
        assert_eq!(index("-"), Err(NotIndex::End));
        for bad in ["", "01", "00", "+1", "-1", "1a", " 1", "1.0"] {
            assert_eq!(index(bad), Err(NotIndex::Malformed), "{bad}");
        }
    }

    #[test]
    fn escapes_back() {
        let mut s = String::new();
        escape_into(&mut s, "a/b~c");
        assert_eq!(s, "a~1b~0c");
        assert_eq!(toks(&format!("/{s}")), ["a/b~c"]);
    }
}
