//! The one error type of structio.
//!
//! Backends report *what* went wrong and *where* (a byte offset); the reflection layer adds the
//! path to the value (`$.a[3].testUints[7]`) while the error travels up; the entry points add
//! line, column and the source line for JSON. All of that happens on the cold path: the hot loops
//! only carry an offset.

#![forbid(unsafe_code)]

use std::fmt;

/// The broad class of an [`Error`], for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// The input ended in the middle of a value.
    Eof,
    /// The input is not well-formed JSON or BEVE.
    Syntax,
    /// The input is well-formed but does not fit the target type (wrong type, out of range,
    /// unknown or missing key, unknown variant).
    Data,
    /// A configured limit was reached (nesting depth, sizes).
    Limit,
}

/// What went wrong. Private so that the set can grow; see [`Error::category`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Code {
    UnexpectedEnd,
    ExpectedValue,
    ExpectedColon,
    ExpectedCommaOrEnd(&'static str),
    ExpectedKey,
    InvalidLiteral,
    InvalidNumber,
    NumberOutOfRange(&'static str),
    ExpectedInteger(&'static str),
    InvalidEscape,
    LoneSurrogate,
    ControlCharacter,
    InvalidUtf8,
    TrailingCharacters,
    DepthLimit(usize),
    StackLimit(usize),
    RereadLimit(usize),
    /// An indent (first) wider than the maximum (second).
    IndentTooWide(usize, usize),
    UnknownKey(String),
    MissingKey(String),
    DuplicateKey(String),
    AliasConflict(String, String),
    UnknownVariant(String),
    NoMatchingVariant,
    InvalidType {
        expected: &'static str,
        found: &'static str,
    },
    BorrowedEscape,
    InvalidChar,
    WrongLength {
        expected: usize,
        found: usize,
    },
    InvalidHeader(u8),
    InvalidPadding,
    LengthOverflow,
    UnexpectedDelimiter,
    ReservedBits,
    Malformed(&'static str),
    Unsupported(&'static str),
    Custom(String),
}

impl Code {
    fn category(&self) -> Category {
        use Code::*;
        match self {
            UnexpectedEnd => Category::Eof,
            DepthLimit(_) | StackLimit(_) | RereadLimit(_) | IndentTooWide(..) | LengthOverflow => {
                Category::Limit
            }
            NumberOutOfRange(_)
            | ExpectedInteger(_)
            | UnknownKey(_)
            | MissingKey(_)
            | DuplicateKey(_)
            | AliasConflict(..)
            | UnknownVariant(_)
            | NoMatchingVariant
            | InvalidType { .. }
            | BorrowedEscape
            | InvalidChar
            | WrongLength { .. }
            | Unsupported(_)
            | Custom(_) => Category::Data,
            _ => Category::Syntax,
        }
    }
}

/// Input text (a key, a variant name) longer than this many bytes is cut in messages and
/// paths, so that a megabyte-long key does not make a megabyte-long message.
const SHOWN: usize = 96;

/// `text` as an error shows it: whole when at most [`SHOWN`] bytes long, else its first bytes
/// (cut on a char boundary) and an ellipsis, plus the full length in bytes to note after it.
fn clip(text: &str) -> (&str, Option<usize>) {
    if text.len() <= SHOWN {
        return (text, None);
    }
    let mut end = SHOWN;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], Some(text.len()))
}

/// Writes `` `text` `` (clipped, see [`clip`]), then ` (N bytes)` if it was cut.
fn quoted(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    match clip(text) {
        (t, None) => write!(f, "`{t}`"),
        (t, Some(n)) => write!(f, "`{t}...` ({n} bytes)"),
    }
}

/// What [`quoted`] writes, for messages built before the error exists.
#[cold]
pub(crate) fn quoted_string(text: &str) -> String {
    struct Q<'a>(&'a str);
    impl fmt::Display for Q<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            quoted(f, self.0)
        }
    }
    Q(text).to_string()
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Code::*;
        match self {
            UnexpectedEnd => f.write_str("unexpected end of input"),
            ExpectedValue => f.write_str("expected a value"),
            ExpectedColon => f.write_str("expected `:`"),
            ExpectedCommaOrEnd(close) => write!(f, "expected `,` or `{close}`"),
            ExpectedKey => f.write_str("expected a string key"),
            InvalidLiteral => f.write_str("invalid literal"),
            InvalidNumber => f.write_str("invalid number"),
            NumberOutOfRange(ty) => write!(f, "number out of range for {ty}"),
            ExpectedInteger(ty) => write!(f, "expected an integer for {ty}"),
            InvalidEscape => f.write_str("invalid escape"),
            LoneSurrogate => f.write_str("lone surrogate in \\u escape"),
            ControlCharacter => f.write_str("control character in string"),
            InvalidUtf8 => f.write_str("invalid UTF-8"),
            TrailingCharacters => f.write_str("trailing characters after the value"),
            DepthLimit(n) => write!(f, "nesting deeper than the limit of {n}"),
            StackLimit(left) => write!(
                f,
                "nesting too deep for the stack left on this thread ({} KiB)",
                left / 1024
            ),
            IndentTooWide(n, max) => write!(f, "indent of {n} wider than the limit of {max}"),
            RereadLimit(n) => write!(
                f,
                "untagged enum variants re-read more than {n} times the input (backtracking limit)"
            ),
            UnknownKey(k) => {
                f.write_str("unknown key ")?;
                quoted(f, k)
            }
            MissingKey(k) => {
                f.write_str("missing key ")?;
                quoted(f, k)
            }
            DuplicateKey(k) => {
                f.write_str("duplicate key ")?;
                quoted(f, k)
            }
            AliasConflict(a, b) => {
                f.write_str("keys ")?;
                quoted(f, a)?;
                f.write_str(" and ")?;
                quoted(f, b)?;
                f.write_str(" name the same field")
            }
            UnknownVariant(v) => {
                f.write_str("unknown variant ")?;
                quoted(f, v)
            }
            NoMatchingVariant => f.write_str("no variant matches the value"),
            InvalidType { expected, found } => write!(f, "expected {expected}, found {found}"),
            BorrowedEscape => {
                f.write_str("string with escapes cannot be borrowed as `&str` (use String or Cow)")
            }
            InvalidChar => f.write_str("expected a string of exactly one character"),
            WrongLength { expected, found } => {
                write!(f, "expected {expected} elements, found {found}")
            }
            InvalidHeader(h) => write!(f, "invalid header byte 0x{h:02X}"),
            InvalidPadding => f.write_str("aligned array padding must be smaller than the element"),
            LengthOverflow => f.write_str("length exceeds the remaining input"),
            UnexpectedDelimiter => f.write_str("data delimiter (0x06) inside a value"),
            ReservedBits => f.write_str("unused bits must be zero"),
            Malformed(what) => f.write_str(what),
            Unsupported(what) => write!(f, "{what} not supported"),
            Custom(m) => f.write_str(m),
        }
    }
}

/// One step of the path to the value an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// A struct field or variant name: `.name`.
    Field(&'static str),
    /// An array element: `[3]`.
    Index(usize),
    /// A map entry: `["key"]`, or `[42]` for an integer key.
    Key(String),
}

struct Inner {
    code: Code,
    offset: usize,
    /// Innermost segment first; reversed when shown.
    path: Vec<PathSegment>,
    /// Line, column (1-based, column in bytes) and the source line, for JSON.
    position: Option<(usize, usize, String, usize)>,
}

/// An error from reading JSON or BEVE: what went wrong, the byte offset, the path to the value,
/// and for JSON the line, the column and the source line with a caret.
pub struct Error(Box<Inner>);

/// `Result<T, structio::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(code: Code, offset: usize) -> Error {
        Error(Box::new(Inner {
            code,
            offset,
            path: Vec::new(),
            position: None,
        }))
    }

    /// An error with a message of the caller's own, at byte `offset`.
    #[cold]
    pub fn custom(message: impl Into<String>, offset: usize) -> Error {
        Error::new(Code::Custom(message.into()), offset)
    }

    /// What went wrong, for the crate's own decisions on an error it caught.
    pub(crate) fn code(&self) -> &Code {
        &self.0.code
    }

    /// The broad class of the error.
    pub fn category(&self) -> Category {
        self.0.code.category()
    }

    /// Whether the input ended too early (a prefix of a valid document gives this).
    pub fn is_eof(&self) -> bool {
        self.category() == Category::Eof
    }

    /// The byte offset in the input where the error was found.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// Line and column (1-based; the column counts bytes), for errors from JSON text.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        self.0.position.as_ref().map(|p| (p.0, p.1))
    }

    /// The message alone, without position or path.
    pub fn message(&self) -> String {
        self.0.code.to_string()
    }

    /// The key an unknown-, missing- or duplicate-key error names, whole (the message and the
    /// path show at most its first 96 bytes).
    pub fn key(&self) -> Option<&str> {
        match &self.0.code {
            Code::UnknownKey(k) | Code::MissingKey(k) | Code::DuplicateKey(k) => Some(k),
            _ => None,
        }
    }

    /// The path to the value, like `$.a[3].testUints[7]`. A key longer than 96 bytes is shown
    /// cut, with its length: `$["aaaa..." (1048576 bytes)]`; [`Error::path_segments`] has it
    /// whole.
    pub fn path(&self) -> String {
        let mut s = String::from("$");
        for seg in self.0.path.iter().rev() {
            match seg {
                PathSegment::Field(name) => {
                    s.push('.');
                    s.push_str(name);
                }
                PathSegment::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
                PathSegment::Key(k) => {
                    s.push_str("[\"");
                    let (k, cut) = clip(k);
                    for c in k.chars() {
                        match c {
                            '"' => s.push_str("\\\""),
                            '\\' => s.push_str("\\\\"),
                            c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04X}", c as u32)),
                            c => s.push(c),
                        }
                    }
                    match cut {
                        Some(n) => s.push_str(&format!("...\" ({n} bytes)]")),
                        None => s.push_str("\"]"),
                    }
                }
            }
        }
        s
    }

    /// The path as segments, outermost first.
    pub fn path_segments(&self) -> Vec<PathSegment> {
        self.0.path.iter().rev().cloned().collect()
    }

    /// Adds the step the error passed through on its way up (innermost first).
    #[cold]
    #[inline(never)]
    pub fn push_path(mut self, seg: PathSegment) -> Error {
        self.0.path.push(seg);
        self
    }

    /// Fills in line, column and the source line from the JSON text the offset points into.
    #[cold]
    pub(crate) fn locate_in_text(mut self, text: &[u8]) -> Error {
        let off = self.0.offset.min(text.len());
        let line_start = text[..off]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + text[..line_start].iter().filter(|&&b| b == b'\n').count();
        let column = off - line_start + 1;
        let line_end = text[off..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(text.len(), |p| off + p);
        // Show at most 64 bytes around the error so a one-line megabyte document stays readable.
        let from = off.saturating_sub(40).max(line_start);
        let to = (off + 24).min(line_end);
        let mut snippet = String::new();
        if from > line_start {
            snippet.push_str("...");
        }
        let caret = snippet.len() + String::from_utf8_lossy(&text[from..off]).chars().count();
        for c in String::from_utf8_lossy(&text[from..to]).chars() {
            snippet.push(if c == '\t' || c.is_control() { ' ' } else { c });
        }
        if to < line_end {
            snippet.push_str("...");
        }
        self.0.position = Some((line, column, snippet, caret));
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.code)?;
        match &self.0.position {
            Some((line, column, snippet, caret)) => {
                write!(f, " at {line}:{column} (byte {})", self.0.offset)?;
                if !self.0.path.is_empty() {
                    write!(f, ", path {}", self.path())?;
                }
                write!(f, "\n   {snippet}\n   {:caret$}^", "")
            }
            None => {
                write!(f, " at byte {}", self.0.offset)?;
                if !self.0.path.is_empty() {
                    write!(f, ", path {}", self.path())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("message", &self.0.code.to_string())
            .field("offset", &self.0.offset)
            .field("path", &self.path())
            .field("line_column", &self.line_column())
            .finish()
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_renders_fields_indices_and_keys() {
        let e = Error::new(Code::InvalidNumber, 3)
            .push_path(PathSegment::Index(7))
            .push_path(PathSegment::Field("testUints"))
            .push_path(PathSegment::Key("bg".into()))
            .push_path(PathSegment::Field("by_name"));
        assert_eq!(e.path(), "$.by_name[\"bg\"].testUints[7]");
    }

    #[test]
    fn display_shows_line_column_and_caret() {
        let text = b"{\n  \"a\": tru\n}";
        let e = Error::new(Code::InvalidLiteral, 9).locate_in_text(text);
        assert_eq!(e.line_column(), Some((2, 8)));
        assert_eq!(
            e.to_string(),
            "invalid literal at 2:8 (byte 9)\n     \"a\": tru\n          ^"
        );
    }

    #[test]
    fn long_keys_are_cut_in_messages_and_paths() {
        // 'é' is two bytes, and the leading 'a' puts the cut at byte 96 inside one: the shown
        // prefix stops at byte 95, on a char boundary.
        let key = format!("a{}", "é".repeat(100_000));
        let e = Error::new(Code::UnknownKey(key.clone()), 0)
            .push_path(PathSegment::Key(key.clone()))
            .push_path(PathSegment::Field("outer"));
        let shown = format!("a{}", "é".repeat(47));
        assert_eq!(
            e.message(),
            format!("unknown key `{shown}...` (200001 bytes)")
        );
        assert_eq!(e.path(), format!("$.outer[\"{shown}...\" (200001 bytes)]"));
        assert!(e.to_string().len() < 400, "{}", e.to_string().len());
        assert!(format!("{e:?}").len() < 400);
        // The accessors keep it whole.
        assert_eq!(e.key(), Some(key.as_str()));
        assert_eq!(e.path_segments()[1], PathSegment::Key(key.clone()));
        // Up to 96 bytes nothing is cut.
        let fits = "k".repeat(96);
        let e = Error::new(Code::DuplicateKey(fits.clone()), 0)
            .push_path(PathSegment::Key(fits.clone()));
        assert_eq!(e.message(), format!("duplicate key `{fits}`"));
        assert_eq!(e.path(), format!("$[\"{fits}\"]"));
        let e = Error::new(Code::AliasConflict(key.clone(), "b".into()), 0);
        assert_eq!(
            e.message(),
            format!("keys `{shown}...` (200001 bytes) and `b` name the same field")
        );
        let e = Error::new(Code::UnknownVariant("v".repeat(1000)), 0);
        assert_eq!(
            e.message(),
            format!("unknown variant `{}...` (1000 bytes)", "v".repeat(96))
        );
    }

    #[test]
    fn categories() {
        assert!(Error::new(Code::UnexpectedEnd, 0).is_eof());
        assert_eq!(
            Error::new(Code::DepthLimit(256), 0).category(),
            Category::Limit
        );
        assert_eq!(Error::new(Code::UnknownKey("k".into()), 0).key(), Some("k"));
    }
}
