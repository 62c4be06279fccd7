//! The one error type of structio.
//!
//! Backends report *what* went wrong and *where* (a byte offset); the reflection layer adds the
//! path to the value (`$.a[3].testUints[7]`) while the error travels up; the entry points add
//! line, column and the source line for JSON. All of that happens on the cold path: the hot loops
//! only carry an offset.

#![forbid(unsafe_code)]

use std::fmt;
use std::path::{Path, PathBuf};

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
    /// Reading or writing a file or stream failed; [`Error::io_error`] holds the
    /// [`std::io::Error`].
    Io,
    /// The value read breaks a constraint its type declares (`#[structio(length(..))]`,
    /// `range`, `pattern`, `one_of`, `items`, `check`); [`Error::rule`] names it.
    Constraint,
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
    /// A `/*` comment without its `*/` (JSON with comments).
    UnterminatedComment,
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
    /// A record of a stream longer than the limit (in bytes).
    RecordTooLarge(usize),
    /// An I/O failure: what failed, then the `io::Error`'s own message.
    Io(String),
    /// Zero read into a non-zero integer type (named).
    Zero(&'static str),
    /// Text that does not parse as the value (what was expected, the text).
    InvalidText(&'static str, String),
    /// A declared constraint the value breaks (its message, the rule).
    Constraint(String, &'static crate::constraint::Rule),
    /// A value whose problems a collecting read (`parse`) has already recorded: the value
    /// could not be built, and the caller goes on with the next one.
    Reported,
    /// A collecting read reached its `max_issues`.
    IssueCap(usize),
    /// A JSON Patch that failed ([`crate::value::patch`]): which operation, where and why.
    Patch(Box<crate::value::json_patch::PatchIssue>),
    /// A text that is not a JSON pointer (the text, what is wrong).
    InvalidPointer(String, &'static str),
    /// Nothing at a JSON pointer in the document read (the pointer, why).
    PointerNotFound(Box<(String, String)>),
}

impl Code {
    fn category(&self) -> Category {
        use Code::*;
        match self {
            UnexpectedEnd => Category::Eof,
            DepthLimit(_) | StackLimit(_) | RereadLimit(_) | IndentTooWide(..) | LengthOverflow
            | RecordTooLarge(_) => Category::Limit,
            Io(_) => Category::Io,
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
            | Custom(_)
            | Zero(_)
            | InvalidText(..)
            | Patch(_)
            | InvalidPointer(..)
            | PointerNotFound(_)
            | Reported => Category::Data,
            Constraint(..) => Category::Constraint,
            IssueCap(_) => Category::Limit,
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
            UnterminatedComment => f.write_str("unterminated comment"),
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
            RecordTooLarge(n) => write!(f, "record larger than the limit of {n} bytes"),
            Io(m) => f.write_str(m),
            Zero(ty) => write!(f, "zero is not a valid {ty}"),
            InvalidText(what, text) => {
                write!(f, "invalid {what} ")?;
                quoted(f, text)
            }
            Constraint(m, _) => f.write_str(m),
            Reported => f.write_str("the value has problems reported before"),
            IssueCap(n) => write!(f, "stopped after {n} issues (max_issues)"),
            Patch(issue) => write!(f, "{issue}"),
            InvalidPointer(p, why) => {
                f.write_str("invalid JSON pointer ")?;
                quoted(f, p)?;
                write!(f, ": {why}")
            }
            PointerNotFound(b) => {
                f.write_str("no value at JSON pointer ")?;
                quoted(f, &b.0)?;
                write!(f, ": {}", b.1)
            }
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
    /// The file the input came from or the output went to, for the file helpers.
    file: Option<PathBuf>,
    /// The failure behind a [`Category::Io`] error.
    io: Option<std::io::Error>,
    /// Made where no offset is known (a serde `Visitor` rejecting a value): the serde bridge
    /// gives it the offset of the value it was reading ([`Error::place`]).
    unplaced: bool,
    /// Read from a [`crate::Value`] ([`crate::from_value`]): the offset counts values in a
    /// pre-order walk of the tree, not bytes.
    in_value: bool,
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
            file: None,
            io: None,
            unplaced: false,
            in_value: false,
        }))
    }

    /// An error whose offset is not known where it is made (see [`Error::place`]).
    #[cold]
    #[inline(never)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn unplaced(code: Code) -> Error {
        let mut e = Error::new(code, 0);
        e.0.unplaced = true;
        e
    }

    /// The error with its offset dropped, to be given the offset of the value it is about
    /// by [`Error::place`] (an error made by a conversion that does not know where it is).
    #[cold]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn unplace(mut self) -> Error {
        self.0.unplaced = true;
        self
    }

    /// Whether the error was made without an offset and none was given since.
    #[inline]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn is_unplaced(&self) -> bool {
        self.0.unplaced
    }

    /// Gives an error made without an offset the offset `at`; any other error is returned as
    /// it is.
    #[cold]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn place(mut self, at: usize) -> Error {
        if self.0.unplaced {
            self.0.offset = at;
            self.0.unplaced = false;
        }
        self
    }

    /// The error of a read from a [`crate::Value`]: its offset is the index of a value in a
    /// pre-order walk of the tree (see [`crate::from_value`]), and the message says so.
    #[cold]
    pub(crate) fn in_value(mut self) -> Error {
        self.0.in_value = true;
        self
    }

    /// A [`Category::Io`] error: `what` failed ("read failed", "cannot open") with `err`,
    /// at byte `offset` of the stream.
    #[cold]
    #[inline(never)]
    pub(crate) fn io(what: &str, err: std::io::Error, offset: usize) -> Error {
        let mut e = Error::new(Code::Io(format!("{what}: {err}")), offset);
        e.0.io = Some(err);
        e
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

    /// The error with what went wrong replaced (a range error about a wire integer renamed
    /// after the type read), keeping where and the path.
    #[cold]
    pub(crate) fn with_code(mut self, code: Code) -> Error {
        self.0.code = code;
        self
    }

    /// The broad class of the error.
    pub fn category(&self) -> Category {
        self.0.code.category()
    }

    /// Whether the input ended too early (a prefix of a valid document gives this).
    pub fn is_eof(&self) -> bool {
        self.category() == Category::Eof
    }

    /// The byte offset in the input where the error was found. For an error of
    /// [`crate::from_value`] (which has no bytes), the index of the value in a pre-order walk
    /// of the tree (the root is 0; a container comes before its elements, each element of a
    /// typed array counts as one value); [`Error::path`] says where in the tree.
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

    /// The I/O failure behind an error of category [`Category::Io`] (also its
    /// [`source`](std::error::Error::source)).
    ///
    /// ```
    /// let e = structio::read_file_json::<u8>("/no/such/file.json").unwrap_err();
    /// assert_eq!(e.category(), structio::Category::Io);
    /// assert_eq!(e.io_error().unwrap().kind(), std::io::ErrorKind::NotFound);
    /// assert!(std::error::Error::source(&e).is_some());
    /// assert!(structio::from_json::<u8>("x").unwrap_err().io_error().is_none());
    /// ```
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.0.io.as_ref()
    }

    /// The file the error is about, when a file helper ([`crate::read_file_json`], ...) or
    /// [`Error::with_file`] named it.
    pub fn file(&self) -> Option<&Path> {
        self.0.file.as_deref()
    }

    /// The error naming the file its input came from: [`Error::file`] returns it and the
    /// message starts with it, as `config.json:3:14: ...` (JSON, with line and column) or
    /// `data.beve: ... at byte 17` (BEVE).
    ///
    /// ```
    /// let e = structio::from_json::<u8>("300").unwrap_err().with_file("n.json");
    /// assert_eq!(e.file(), Some(std::path::Path::new("n.json")));
    /// assert!(e.to_string().starts_with("n.json:1:1: number out of range for u8"));
    /// ```
    #[cold]
    pub fn with_file(mut self, path: impl AsRef<Path>) -> Error {
        self.0.file = Some(path.as_ref().to_path_buf());
        self
    }

    /// The declared constraint a [`Category::Constraint`] error is about.
    ///
    /// ```
    /// #[derive(structio::Reflect, Debug)]
    /// struct Plan {
    ///     #[structio(one_of("free", "pro"))]
    ///     tier: String,
    /// }
    /// let e = structio::from_json::<Plan>(r#"{"tier":"gold"}"#).unwrap_err();
    /// assert_eq!(e.rule().unwrap().name(), "one_of");
    /// assert_eq!(e.message(), r#""gold" is not one of "free", "pro""#);
    /// ```
    pub fn rule(&self) -> Option<&'static crate::constraint::Rule> {
        match self.0.code {
            Code::Constraint(_, rule) => Some(rule),
            _ => None,
        }
    }

    /// The key an unknown-, missing- or duplicate-key error names, whole (the message and the
    /// path show at most its first 96 bytes).
    pub fn key(&self) -> Option<&str> {
        match &self.0.code {
            Code::UnknownKey(k) | Code::MissingKey(k) | Code::DuplicateKey(k) => Some(k),
            _ => None,
        }
    }

    /// Why a JSON Patch failed, for an error from [`crate::value::patch`] (whose
    /// [path](Error::path) is `$[i]`, `i` the index of the failing operation, or `$` when the
    /// patch is not an array).
    ///
    /// ```
    /// use structio::value::PatchFailure;
    /// let mut doc = structio::Value::from_iter([("a", 1)]);
    /// let ops: structio::Value =
    ///     structio::from_json(r#"[{"op": "remove", "path": "/b"}]"#).unwrap();
    /// let e = structio::value::patch(&mut doc, &ops).unwrap_err();
    /// assert_eq!(e.patch_failure(), Some(PatchFailure::PathNotFound));
    /// assert_eq!(e.path(), "$[0]");
    /// assert_eq!(e.category(), structio::Category::Data);
    /// assert!(structio::from_json::<u8>("x").unwrap_err().patch_failure().is_none());
    /// ```
    pub fn patch_failure(&self) -> Option<crate::value::PatchFailure> {
        match &self.0.code {
            Code::Patch(issue) => Some(issue.failure()),
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

    /// Moves an error found in a window of a longer stream to its place in the stream: the
    /// window starts at byte `offset` of the stream, on line `line` (1-based) at column
    /// `column` (1-based). Line and column, when set, were counted within the window.
    #[cold]
    pub(crate) fn shift(mut self, offset: usize, line: usize, column: usize) -> Error {
        self.0.offset = self.0.offset.saturating_add(offset);
        if let Some(p) = &mut self.0.position {
            if p.0 == 1 {
                p.1 += column - 1;
            }
            p.0 += line - 1;
        }
        self
    }
}

/// The source line around byte `offset` of the JSON `text` and the caret's place in it, as an
/// error shows them.
#[cold]
pub(crate) fn snippet(text: &[u8], offset: usize) -> Option<(String, usize)> {
    let e = Error::new(Code::Malformed(""), offset).locate_in_text(text);
    e.0.position.map(|(_, _, snippet, caret)| (snippet, caret))
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.0.file.as_deref().map(Path::display);
        match (&self.0.position, file) {
            // As compilers name a spot: `config.json:3:14: message, path $.port`.
            (Some((line, column, _, _)), Some(file)) => {
                write!(f, "{file}:{line}:{column}: {}", self.0.code)?
            }
            (Some((line, column, _, _)), None) => write!(
                f,
                "{} at {line}:{column} (byte {})",
                self.0.code, self.0.offset
            )?,
            (None, file) => {
                if let Some(file) = file {
                    write!(f, "{file}: ")?;
                }
                write!(f, "{}", self.0.code)?;
                // An I/O failure opening or writing a file has no place in an input, nor has a
                // failed JSON Patch (its path names the operation), nor a pointer that is not one.
                let placeless = self.0.io.is_some()
                    || matches!(self.0.code, Code::Patch(_) | Code::InvalidPointer(..));
                if self.0.in_value {
                    write!(f, " at value {} (pre-order)", self.0.offset)?;
                } else if !placeless || self.0.offset > 0 {
                    write!(f, " at byte {}", self.0.offset)?;
                }
            }
        }
        if !self.0.path.is_empty() {
            write!(f, ", path {}", self.path())?;
        }
        if let Some((_, _, snippet, caret)) = &self.0.position {
            write!(f, "\n   {snippet}\n   {:caret$}^", "")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("message", &self.0.code.to_string())
            .field("offset", &self.0.offset)
            .field("path", &self.path())
            .field("line_column", &self.line_column());
        if let Some(file) = &self.0.file {
            d.field("file", file);
        }
        if let Some(io) = &self.0.io {
            d.field("io", io);
        }
        d.finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .io
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

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
    fn the_file_leads_the_message() {
        let text = b"{\n  \"a\": tru\n}";
        let e = Error::new(Code::InvalidLiteral, 9)
            .push_path(PathSegment::Field("a"))
            .locate_in_text(text)
            .with_file("conf/x.json");
        assert_eq!(e.file(), Some(Path::new("conf/x.json")));
        assert_eq!(
            e.to_string(),
            "conf/x.json:2:8: invalid literal, path $.a\n     \"a\": tru\n          ^"
        );
        let e = Error::new(Code::InvalidHeader(7), 17)
            .push_path(PathSegment::Index(2))
            .with_file("d.beve");
        assert_eq!(
            e.to_string(),
            "d.beve: invalid header byte 0x07 at byte 17, path $[2]"
        );
        // Without a file, as before.
        assert_eq!(
            Error::new(Code::InvalidHeader(7), 17).to_string(),
            "invalid header byte 0x07 at byte 17"
        );
    }

    #[test]
    fn io_errors_keep_the_io_error() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = Error::io("cannot read", io, 0).with_file("a.json");
        assert_eq!(e.category(), Category::Io);
        assert_eq!(e.message(), "cannot read: gone");
        assert_eq!(e.to_string(), "a.json: cannot read: gone");
        assert_eq!(e.io_error().unwrap().kind(), std::io::ErrorKind::NotFound);
        let source = std::error::Error::source(&e).unwrap();
        assert_eq!(source.to_string(), "gone");
        let e = Error::io("read failed", std::io::Error::other("x"), 12);
        assert_eq!(e.to_string(), "read failed: x at byte 12");
        assert!(format!("{e:?}").contains("io: Custom"), "{e:?}");
        assert!(std::error::Error::source(&Error::new(Code::InvalidNumber, 0)).is_none());
    }

    #[test]
    fn errors_found_in_a_window_move_to_the_stream() {
        // A window starting at byte 100 of a stream, on line 7, column 5.
        let e = Error::new(Code::InvalidLiteral, 2)
            .locate_in_text(b"[1, tru]")
            .shift(100, 7, 5);
        assert_eq!((e.offset(), e.line_column()), (102, Some((7, 7))));
        let e = Error::new(Code::InvalidLiteral, 5)
            .locate_in_text(b"[1,\n tru]")
            .shift(100, 7, 5);
        assert_eq!((e.offset(), e.line_column()), (105, Some((8, 2))));
        let e = Error::new(Code::InvalidHeader(7), 3).shift(10, 1, 1);
        assert_eq!((e.offset(), e.line_column()), (13, None));
        assert_eq!(
            Error::new(Code::RecordTooLarge(10), 0).category(),
            Category::Limit
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
