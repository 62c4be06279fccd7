//! `--path`: picking one part of a document, written the way structio's errors write paths
//! (`$.a[3]["odd key"]`), or as a JSON pointer (`/a/3`).

use std::borrow::Cow;

use structio::value::IntKey;
use structio::Value;

use crate::error::quote;

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `.name` or `["name"]`: an object member (or a key of an integer-keyed object).
    Key(String),
    /// `[3]`: an array element, or an integer key (negative ones too).
    Index(i128),
}

/// Parses `$.a[3]["k"]`. The leading `$` may be left out (`a[3]`, `.a`, `[0]`); a path that
/// starts with `/` is a JSON pointer (RFC 6901).
pub fn parse(text: &str) -> Result<Vec<Step>, String> {
    if text.starts_with('/') {
        return Ok(pointer(text));
    }
    let bad = |at: usize, what: &str| {
        format!("bad path `{}` at character {}: {what}", quote(text), at + 1)
    };
    let s = text.strip_prefix('$').unwrap_or(text);
    let base = text.len() - s.len();
    let b = s.as_bytes();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'.' => {
                let start = i + 1;
                let end = s[start..].find(['.', '[']).map_or(s.len(), |p| start + p);
                if end == start {
                    return Err(bad(base + i, "expected a member name after `.`"));
                }
                steps.push(Step::Key(s[start..end].to_string()));
                i = end;
            }
            b'[' => {
                let start = i + 1;
                match b.get(start) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let (key, next) = quoted(s, start + 1, q)
                            .ok_or_else(|| bad(base + start, "unterminated quoted key"))?;
                        if b.get(next) != Some(&b']') {
                            return Err(bad(base + next, "expected `]` after the quoted key"));
                        }
                        steps.push(Step::Key(key));
                        i = next + 1;
                    }
                    _ => {
                        let end = s[start..]
                            .find(']')
                            .map(|p| start + p)
                            .ok_or_else(|| bad(base + i, "missing `]`"))?;
                        let n = s[start..end].trim().parse::<i128>().map_err(|_| {
                            bad(base + start, "expected an integer index or a quoted key")
                        })?;
                        steps.push(Step::Index(n));
                        i = end + 1;
                    }
                }
            }
            _ if i == 0 => {
                // `a.b` without `$.`: the first step is a member name.
                let end = s.find(['.', '[']).unwrap_or(s.len());
                steps.push(Step::Key(s[..end].to_string()));
                i = end;
            }
            _ => return Err(bad(base + i, "expected `.` or `[`")),
        }
    }
    Ok(steps)
}

/// Reads a quoted key starting after the quote at `from`; `\` escapes the next character.
/// Returns the key and the position after the closing quote.
fn quoted(s: &str, from: usize, quote: u8) -> Option<(String, usize)> {
    let mut key = String::new();
    let mut chars = s[from..].char_indices();
    while let Some((p, c)) = chars.next() {
        match c {
            '\\' => key.push(chars.next()?.1),
            c if c as u32 == quote as u32 => return Some((key, from + p + 1)),
            c => key.push(c),
        }
    }
    None
}

/// The steps of a JSON pointer: decimal tokens are indices, others keys (`~1` is `/`, `~0` `~`).
fn pointer(text: &str) -> Vec<Step> {
    text[1..]
        .split('/')
        .map(|t| {
            let t = t.replace("~1", "/").replace("~0", "~");
            let plain = !t.is_empty() && (t == "0" || !t.starts_with('0'));
            match t.parse::<u64>() {
                Ok(n) if plain && t.bytes().all(|c| c.is_ascii_digit()) => Step::Index(n.into()),
                _ => Step::Key(t),
            }
        })
        .collect()
}

/// Renders steps the way structio's errors do.
pub fn render(steps: &[Step]) -> String {
    let mut s = String::from("$");
    for step in steps {
        match step {
            Step::Key(k) if is_plain(k) => {
                s.push('.');
                s.push_str(k);
            }
            Step::Key(k) => {
                s.push_str("[\"");
                for c in k.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
                s.push_str("\"]");
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Steps rendered for a message: cut to [`crate::error::MAX_QUOTE`] characters.
pub fn shown(steps: &[Step]) -> String {
    quote(&render(steps)).into_owned()
}

/// Whether a key can be written after a `.`.
fn is_plain(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// What a value is, for messages.
pub fn describe(v: &Value) -> String {
    let n = v.len().unwrap_or(0);
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Number(_) => "a number".into(),
        Value::String(_) => "a string".into(),
        Value::Array(_) => sized("an array", n),
        Value::Typed(_) => sized("a typed array", n),
        Value::Object(_) => sized("an object", n),
        Value::IntObject(_) => sized("an integer-keyed object", n),
        Value::Extension(_) => "a BEVE extension value".into(),
    }
}

/// "an array of 3 elements", "an object with 1 member".
pub fn sized(what: &str, n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    if what.ends_with("object") {
        format!("{what} with {n} member{s}")
    } else {
        format!("{what} of {n} element{s}")
    }
}

/// The part of `root` at `steps`. Elements of typed arrays are copies, hence the `Cow`.
pub fn find<'v>(root: &'v Value, steps: &[Step]) -> Result<Cow<'v, Value>, String> {
    let mut v = root;
    for (i, step) in steps.iter().enumerate() {
        let here = || shown(&steps[..i]);
        let missing = |v: &Value| {
            format!(
                "no `{}` in the document: `{}` is {}",
                shown(&steps[..=i]),
                here(),
                describe(v)
            )
        };
        let next = match (v, step) {
            (Value::Object(m), Step::Key(k)) => m.get(k),
            (Value::Object(m), Step::Index(n)) => m.get(&n.to_string()),
            (Value::IntObject(m), Step::Index(n)) => m.get(IntKey::from(*n)),
            (Value::IntObject(m), Step::Key(k)) => IntKey::parse(k).and_then(|key| m.get(key)),
            (Value::Array(a), Step::Index(n)) => usize::try_from(*n).ok().and_then(|n| a.get(n)),
            (Value::Typed(t), Step::Index(n)) => {
                let el = usize::try_from(*n).ok().and_then(|n| t.get(n));
                return match (el, i + 1 == steps.len()) {
                    (Some(el), true) => Ok(Cow::Owned(el)),
                    (Some(el), false) => Err(format!(
                        "no `{}` in the document: `{}` is {}",
                        shown(&steps[..=i + 1]),
                        shown(&steps[..=i]),
                        describe(&el)
                    )),
                    (None, _) => Err(missing(v)),
                };
            }
            _ => None,
        };
        v = next.ok_or_else(|| missing(v))?;
    }
    Ok(Cow::Borrowed(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_paths() {
        use Step::*;
        assert_eq!(parse("$").unwrap(), vec![]);
        assert_eq!(
            parse("$.a[3][\"b.c\"]['d']").unwrap(),
            vec![
                Key("a".into()),
                Index(3),
                Key("b.c".into()),
                Key("d".into())
            ]
        );
        assert_eq!(
            parse("a.b[-2]").unwrap(),
            vec![Key("a".into()), Key("b".into()), Index(-2)]
        );
        assert_eq!(
            parse("/a~1b/0/01").unwrap(),
            vec![Key("a/b".into()), Index(0), Key("01".into())]
        );
        assert_eq!(parse(r#"$["q\"x"]"#).unwrap(), vec![Key("q\"x".into())]);
        assert!(parse("$.").unwrap_err().contains("member name"));
        assert!(parse("$[x]").unwrap_err().contains("integer index"));
        assert!(parse("$[1").unwrap_err().contains("missing `]`"));
        assert!(parse("$[\"a]").unwrap_err().contains("unterminated"));
    }

    #[test]
    fn finds_parts() {
        let v: Value = structio::from_json(r#"{"a":[10,{"b c":true}],"n":1}"#).unwrap();
        let get = |p: &str| find(&v, &parse(p).unwrap()).map(|c| structio::to_json(&*c));
        assert_eq!(get("$.a[0]").unwrap(), "10");
        assert_eq!(get("$.a[1][\"b c\"]").unwrap(), "true");
        assert_eq!(get("$").unwrap(), structio::to_json(&v));
        assert_eq!(
            get("$.a[5]").unwrap_err(),
            "no `$.a[5]` in the document: `$.a` is an array of 2 elements"
        );
        assert_eq!(
            get("$.n.x").unwrap_err(),
            "no `$.n.x` in the document: `$.n` is a number"
        );
        let t = Value::from(vec![1.5f64, 2.5]);
        assert_eq!(
            structio::to_json(&*find(&t, &[Step::Index(1)]).unwrap()),
            "2.5"
        );
        assert!(find(&t, &[Step::Index(2)]).is_err());
        assert!(find(&t, &[Step::Index(0), Step::Index(0)]).is_err());
    }
}
