//! Coloring JSON text that is already known to be well-formed (the output of `prettify`), so
//! that `structio view` on a JSON file shows numbers spelled as in the file.

use std::io::{self, Write};

use crate::json_out::color;

/// Writes `text` to `out` with keys and scalars wrapped in ANSI colors, the same colors
/// [`crate::json_out::stream`] uses.
pub fn paint(text: &[u8], out: &mut impl Write) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut i = 0;
    while i < text.len() {
        let start = i;
        let c = text[i];
        let paint = match c {
            b'"' => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(text.len());
                // A key is a string followed by a colon.
                let mut j = i;
                while j < text.len() && matches!(text[j], b' ' | b'\t' | b'\n' | b'\r') {
                    j += 1;
                }
                Some(if text.get(j) == Some(&b':') {
                    color::KEY
                } else {
                    color::STRING
                })
            }
            b't' | b'f' | b'n' => {
                while i < text.len() && text[i].is_ascii_alphabetic() {
                    i += 1;
                }
                Some(if c == b'n' { color::NULL } else { color::BOOL })
            }
            b'-' | b'0'..=b'9' => {
                while i < text.len()
                    && matches!(text[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                Some(color::NUMBER)
            }
            _ => {
                i += 1;
                None
            }
        };
        match paint {
            Some(p) => {
                buf.extend_from_slice(p.as_bytes());
                buf.extend_from_slice(&text[start..i]);
                buf.extend_from_slice(color::RESET.as_bytes());
            }
            None => buf.push(c),
        }
        if buf.len() >= 1 << 16 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_out::{stream, Layout};
    use structio::Value;

    #[test]
    fn paints_as_the_streaming_writer_does() {
        let text = r#"{"k\"":[1,-2.5E-7,"s\\",true,false,null,{"a b":[]}]}"#;
        let pretty = structio::prettify(text).unwrap();
        let mut painted = Vec::new();
        paint(pretty.as_bytes(), &mut painted).unwrap();
        let v: Value = structio::from_json(text).unwrap();
        let layout = Layout {
            pretty: true,
            indent: 3,
            color: true,
        };
        let (_, out) = stream(Vec::new(), layout, crate::json_out::Value(&v));
        assert_eq!(
            String::from_utf8(painted).unwrap(),
            String::from_utf8(out.unwrap()).unwrap()
        );
    }
}
