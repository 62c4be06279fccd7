//! JSON with comments (JSONC), read when [`ReadOptions::comments`] is on: `//` to the end of
//! the line and `/* */` wherever whitespace may stand, as Glaze's `read_jsonc` reads them.
//!
//! The readers themselves know nothing of comments, so that reading plain JSON runs exactly
//! the code it ran before. When the option is on, the text is first copied with every comment
//! blanked out ([`blank`]): each byte of a comment becomes a space (line breaks inside a block
//! comment stay), so the copy has the input's length, offsets, lines and columns, and a string
//! has the same bytes at the same place in both. The reader scans the copy and borrows strings
//! from the input. Text without comments is not copied.

#![forbid(unsafe_code)]

use crate::error::{Code, Error, Result};

/// `s` with every comment outside strings blanked out (see the module), or `None` when `s`
/// holds no comment. A `/` followed by neither `/` nor `*` is left where it is, for the reader
/// to report as it reports any byte that cannot stand there.
///
/// Errors: a block comment without its `*/` (at the `/*`), and a comment holding invalid
/// UTF-8 (at the first bad byte). Anything else wrong with the text is left to the reader.
pub(crate) fn blank(s: &[u8]) -> Result<Option<Vec<u8>>> {
    let mut out = None;
    blank_into(s, &mut out).map_err(|(_, e)| e)?;
    Ok(out)
}

/// [`blank`] into `out` (`None` until a comment is found). On error, `out` holds what was
/// blanked before the comment reported, and the error comes with where that comment starts.
pub(crate) fn blank_into(
    s: &[u8],
    out: &mut Option<Vec<u8>>,
) -> std::result::Result<(), (usize, Error)> {
    let mut i = 0;
    while let Some(k) = s[i..].iter().position(|&b| b == b'"' || b == b'/') {
        let j = i + k;
        if s[j] == b'"' {
            // A string: its text is never a comment. An unterminated one is the reader's
            // error; nothing after it is looked at.
            let mut m = j + 1;
            loop {
                match s.get(m) {
                    None => return Ok(()),
                    Some(b'\\') => m += 2,
                    Some(b'"') => break,
                    Some(_) => m += 1,
                }
            }
            i = m + 1;
            continue;
        }
        let end = match s.get(j + 1) {
            Some(b'/') => s[j + 2..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(s.len(), |n| j + 2 + n),
            Some(b'*') => match s[j + 2..].windows(2).position(|w| w == b"*/") {
                Some(n) => j + 2 + n + 2,
                None => return Err((j, Error::new(Code::UnterminatedComment, j))),
            },
            _ => {
                i = j + 1;
                continue;
            }
        };
        let comment = &s[j..end];
        if !comment.is_ascii() {
            if let Err(e) = std::str::from_utf8(comment) {
                return Err((j, Error::new(Code::InvalidUtf8, j + e.valid_up_to())));
            }
        }
        let buf = out.get_or_insert_with(|| s.to_vec());
        for b in &mut buf[j..end] {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
        i = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(t: &str) -> Option<String> {
        blank(t.as_bytes())
            .unwrap()
            .map(|v| String::from_utf8(v).unwrap())
    }

    #[test]
    fn blanks_comments_byte_for_byte() {
        assert_eq!(b("[1, 2]"), None);
        assert_eq!(b("\"// not a comment\""), None);
        assert_eq!(b("\"a\\\"/*\" // c"), Some("\"a\\\"/*\"     ".into()));
        assert_eq!(b("[1, /* a\nb */ 2]"), Some("[1,     \n     2]".into()));
        assert_eq!(b("1 // x\r\n"), Some("1     \r\n".into()));
        assert_eq!(b("/**/1"), Some("    1".into()));
        assert_eq!(b("/* /* */1"), Some("        1".into()));
        assert_eq!(b("1 / 2"), None);
        assert_eq!(b("1 /"), None);
        assert_eq!(b("\"unterminated // x"), None);
    }

    #[test]
    fn reports_an_open_block_comment_at_its_start() {
        let e = blank(b"[1, /* no end * /").map(|_| ()).unwrap_err();
        assert_eq!(
            (e.message(), e.offset()),
            ("unterminated comment".into(), 4)
        );
        let e = blank(b"[1] /*/").map(|_| ()).unwrap_err();
        assert_eq!(e.offset(), 4);
        let e = blank(b"1 /* \xff */").map(|_| ()).unwrap_err();
        assert_eq!((e.message(), e.offset()), ("invalid UTF-8".into(), 5));
    }
}
