//! Reading at a trust boundary: [`crate::json::parse`], [`crate::beve::parse`] and [`check`]
//! report every problem of a document in one pass, as a [`Report`] of [`Issue`]s.
//!
//! They read through [`Collecting`], a wrapper around a format's reader whose
//! [`Reader::COLLECTS`] is `true`: the walk over a struct's members then records a member of
//! the wrong type, a missing, unknown or duplicate key and a broken constraint, skips what it
//! cannot use, and goes on. Only malformed input stops it (the last issue), or reaching
//! [`ParseOptions::max_issues`]. The readers `from_json`, `from_beve` and the others are not
//! wrapped, so they are compiled without any of this.

use std::fmt;

use crate::constraint::{Rule, Violation, Violations};
use crate::error::{Category, Code, Error, PathSegment, Result};
use crate::number::{Number, Wire};
use crate::read::offset_at;
use crate::reflect::{EnumInfo, Key, ReadOptions, Reader, Str, ValueKind};
use crate::value::Value;

/// Options of [`crate::json::parse_with`] and [`crate::beve::parse_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// Stop after this many issues (default 100): the report then says it was truncated. A
    /// report also stops, truncated, once its issues would take more than 128 bytes per byte of
    /// input (at least 1 MiB), so `usize::MAX` means "no cap" without risking memory.
    pub max_issues: usize,
    /// The reader's options (unknown keys, missing and duplicate keys, depth).
    pub read: ReadOptions,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_issues: 100,
            read: ReadOptions::default(),
        }
    }
}

/// What kind of problem an [`Issue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, crate::Reflect)]
#[structio(crate = "crate", rename_all = "snake_case")]
pub enum IssueKind {
    /// A value breaks a declared constraint ([`Issue::rule`] says which).
    Constraint,
    /// A value does not fit the member's type (wrong type, out of range, unknown variant).
    Type,
    /// A required member is missing.
    MissingKey,
    /// A key the struct does not have (under [`crate::UnknownKeys::Error`]).
    UnknownKey,
    /// A key given twice (under [`ReadOptions::error_on_duplicate_keys`]).
    DuplicateKey,
    /// A field given under two of its names (its name and an alias).
    AliasConflict,
    /// The input is not well-formed (or ends early): reading stopped here.
    Syntax,
    /// A limit was reached (nesting depth, stack): reading stopped here.
    Limit,
}

/// One problem of a document: its kind, where it is (a JSON Pointer and a path, a byte offset
/// and, for JSON, line and column) and what is wrong.
#[derive(Debug, Clone, PartialEq, crate::Reflect)]
#[structio(crate = "crate")]
pub struct Issue {
    kind: IssueKind,
    pointer: String,
    path: String,
    message: String,
    offset: Option<usize>,
    line: Option<usize>,
    column: Option<usize>,
    /// The constraint's parameters (`{"rule": "length", "min": 1}`).
    constraint: Option<Value>,
    #[structio(skip)]
    rule: Option<&'static Rule>,
    /// The source line around the offset and the caret's place in it (the first issue of a
    /// JSON report).
    #[structio(skip)]
    snippet: Option<(String, usize)>,
}

impl Issue {
    /// What kind of problem it is.
    pub fn kind(&self) -> IssueKind {
        self.kind
    }

    /// Where it is, as an RFC 6901 JSON Pointer: `/tags/3` (`""` for the whole document).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// Where it is, as a path: `$.tags[3]`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong: "length is 0; at least 1 characters or elements required".
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The byte offset in the input where the value starts (`None` for [`check`], which reads
    /// no input).
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// Line and column (1-based; the column counts bytes), for JSON input.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        self.line.zip(self.column)
    }

    /// The constraint broken, for a [`IssueKind::Constraint`] issue (`None` once a report has
    /// been written and read back: [`Issue::constraint`] has its parameters then).
    pub fn rule(&self) -> Option<&'static Rule> {
        self.rule
    }

    /// The constraint's name and parameters, as `{"rule": "range", "min": 0, "max": 150}`.
    pub fn constraint(&self) -> Option<&Value> {
        self.constraint.as_ref()
    }
}

impl fmt::Display for Issue {
    /// `$.age: 200 is greater than the maximum 150 at 1:20 (byte 19)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)?;
        match (self.line_column(), self.offset) {
            (Some((l, c)), Some(o)) => write!(f, " at {l}:{c} (byte {o})"),
            (None, Some(o)) => write!(f, " at byte {o}"),
            _ => Ok(()),
        }
    }
}

/// Every problem [`crate::json::parse`], [`crate::beve::parse`] or [`check`] found, in the
/// order found (missing keys when their object ends).
///
/// ```
/// #[derive(structio::Reflect, Debug)]
/// struct User {
///     #[structio(length(min = 1))]
///     name: String,
///     #[structio(range(max = 150))]
///     age: u8,
///     email: String,
/// }
///
/// let report = structio::json::parse::<User>(r#"{"name":"","age":"x"}"#).unwrap_err();
/// let found: Vec<_> = report.issues().iter().map(|i| (i.pointer(), i.kind())).collect();
/// use structio::IssueKind::*;
/// assert_eq!(found, [("/name", Constraint), ("/age", Type), ("/email", MissingKey)]);
/// ```
#[derive(Debug, Clone, PartialEq, Default, crate::Reflect)]
#[structio(crate = "crate")]
pub struct Report {
    issues: Vec<Issue>,
    truncated: bool,
}

impl Report {
    /// The issues, in the order found.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// Whether reading stopped at [`ParseOptions::max_issues`], or at the memory a report may
    /// take (128 bytes per byte of input, at least 1 MiB, whatever `max_issues` says): the
    /// document may have more.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// The report as RFC 9457 problem details (`application/problem+json`), status 422, with
    /// one entry per issue in `errors` (`pointer` as a URI fragment, `detail`, `kind`):
    ///
    /// ```
    /// #[derive(structio::Reflect, Debug)]
    /// struct Age {
    ///     #[structio(range(min = 0, max = 150))]
    ///     age: i32,
    /// }
    /// let report = structio::json::parse::<Age>(r#"{"age":-4}"#).unwrap_err();
    /// assert_eq!(
    ///     report.to_problem_details(),
    ///     r##"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"1 issue in the request","errors":[{"pointer":"#/age","detail":"-4 is less than the minimum 0","kind":"constraint"}]}"##
    /// );
    /// ```
    pub fn to_problem_details(&self) -> String {
        #[derive(crate::Reflect)]
        #[structio(crate = "crate")]
        struct Entry<'a> {
            pointer: String,
            detail: &'a str,
            kind: IssueKind,
        }
        #[derive(crate::Reflect)]
        #[structio(crate = "crate")]
        struct Problem<'a> {
            #[structio(rename = "type")]
            kind: &'a str,
            title: &'a str,
            status: u16,
            detail: String,
            errors: Vec<Entry<'a>>,
        }
        let n = self.issues.len();
        let detail = format!(
            "{n} issue{} in the request{}",
            if n == 1 { "" } else { "s" },
            if self.truncated {
                " (stopped there; there may be more)"
            } else {
                ""
            }
        );
        let errors = self
            .issues
            .iter()
            .map(|i| Entry {
                pointer: format!("#{}", fragment(&i.pointer)),
                detail: &i.message,
                kind: i.kind,
            })
            .collect();
        crate::to_json(&Problem {
            kind: "about:blank",
            title: "Unprocessable Content",
            status: 422,
            detail,
            errors,
        })
    }
}

/// A JSON Pointer as a URI fragment (RFC 6901 section 6): characters outside the fragment's
/// set percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl fmt::Display for Report {
    /// One issue a line; the first with the source line and a caret under the place, when
    /// the input was JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, i) in self.issues.iter().enumerate() {
            if n > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{i}")?;
            if let Some((snippet, caret)) = &i.snippet {
                write!(f, "\n   {snippet}\n   {:caret$}^", "")?;
            }
        }
        if self.truncated {
            write!(f, "\n(stopped after {} issues)", self.issues.len())?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

/// What a collecting read has found so far, and where it is: the path of the member being
/// read, the nesting depth. Made by the `parse` entry points; derived code and the walk reach
/// it through [`Reader::collector`].
#[derive(Debug)]
pub struct Collector {
    issues: Vec<Issue>,
    max: usize,
    /// The bytes the issues may still take ([`report_budget`] of the input's length).
    budget: usize,
    /// The path of the value being read.
    path: Path,
    /// Arrays and objects open (counted by [`Collecting`]).
    depth: usize,
    /// Above zero while the walk tries untagged variants, which report as a trusted read.
    suspended: usize,
    truncated: bool,
}

impl Collector {
    /// An empty record that stops at `max` issues, or when the issues would take more memory
    /// than an input of `input_len` bytes justifies ([`report_budget`]).
    pub(crate) fn new(max: usize, input_len: usize) -> Collector {
        Collector {
            issues: Vec::new(),
            max: max.max(1),
            budget: report_budget(input_len),
            path: Path::new(),
            depth: 0,
            suspended: 0,
            truncated: false,
        }
    }

    /// Whether problems are collected now (not while untagged variants are tried).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn active(&self) -> bool {
        self.suspended == 0
    }

    /// Arrays and objects open.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Enters member or element `step`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn enter(&mut self, step: Step) {
        self.path.push(step);
    }

    /// Leaves the member or element entered last.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn leave(&mut self) {
        self.path.pop();
    }

    /// Records `issue`; the cap error once [`ParseOptions::max_issues`] are recorded, or once
    /// the next issue could pass the memory budget (then `issue` is not recorded).
    #[cold]
    fn add(&mut self, issue: Issue, at: usize) -> Result<()> {
        // Twice the issue's own size: the vector may double its capacity to take it.
        let cost = 2 * std::mem::size_of::<Issue>() + issue.heap_bytes();
        if cost > self.budget {
            self.truncated = true;
            return Err(Error::new(Code::IssueCap(self.issues.len()), at));
        }
        self.budget -= cost;
        self.issues.push(issue);
        if self.issues.len() >= self.max {
            self.truncated = true;
            return Err(Error::new(Code::IssueCap(self.max), at));
        }
        Ok(())
    }

    /// Records the error `e` about the value being read (its path below the current one).
    #[cold]
    #[inline(never)]
    pub(crate) fn record_error(&mut self, e: &Error) -> Result<()> {
        let kind = kind_of(e);
        let mut segs = self.path.segments();
        segs.extend(e.path_segments());
        // A key problem points at the member it names.
        if let (Some(k), IssueKind::MissingKey | IssueKind::UnknownKey | IssueKind::DuplicateKey) =
            (e.key(), kind)
        {
            segs.push(PathSegment::Key(k.to_string()));
        }
        let issue = issue(kind, &segs, e.message(), Some(e.offset()), e.rule());
        self.add(issue, e.offset())
    }

    /// Records a broken constraint of the value that starts at `at`.
    #[cold]
    #[inline(never)]
    pub(crate) fn record_violation(&mut self, v: Violation, at: usize) -> Result<()> {
        let mut segs = self.path.segments();
        segs.extend(v.path.into_iter().rev());
        let issue = issue(
            IssueKind::Constraint,
            &segs,
            v.message,
            Some(at),
            Some(v.rule),
        );
        self.add(issue, at)
    }

    /// The report of what was recorded, with `last` (the error that stopped the read, if
    /// any) at its end.
    #[cold]
    pub(crate) fn finish(mut self, last: Option<Error>) -> Report {
        if let Some(e) = last {
            match e.code() {
                Code::Reported | Code::IssueCap(_) => {}
                _ => {
                    // Past the cap the stopping error is still shown: it is why reading ended.
                    self.max = usize::MAX;
                    self.budget = usize::MAX;
                    let _ = self.record_error(&e);
                }
            }
        }
        Report {
            issues: self.issues,
            truncated: self.truncated,
        }
    }
}

/// One step of the path of the value being read: a struct's member or a sequence's element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// A member, by its name in the document.
    Field(&'static str),
    /// An element, by its index.
    Index(usize),
}

impl Step {
    /// The step as a segment of an error's path.
    #[cold]
    pub(crate) fn segment(self) -> PathSegment {
        match self {
            Step::Field(name) => PathSegment::Field(name),
            Step::Index(i) => PathSegment::Index(i),
        }
    }
}

/// The path of the value a collecting read is in, outermost first. Entering and leaving a
/// member copies one [`Step`] (no name is cloned); the first [`Path::INLINE`] steps are kept
/// in place, so following the path allocates nothing, and only the steps of a document nested
/// deeper than that go to the heap (`deeper`), so the path is right at any depth. The owned
/// segments are built only when an issue is recorded.
#[derive(Debug)]
struct Path {
    inline: [Step; Path::INLINE],
    /// Steps entered, in `inline` and then in `deeper`.
    len: usize,
    /// The steps past the first [`Path::INLINE`].
    deeper: Vec<Step>,
}

impl Path {
    /// Steps kept without allocating.
    const INLINE: usize = 32;

    /// The path of the whole document.
    fn new() -> Path {
        Path {
            inline: [Step::Index(0); Path::INLINE],
            len: 0,
            deeper: Vec::new(),
        }
    }

    /// Enters `step`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn push(&mut self, step: Step) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = step,
            None => self.push_deeper(step),
        }
        self.len += 1;
    }

    /// Enters `step` past the inline steps.
    #[cold]
    #[inline(never)]
    fn push_deeper(&mut self, step: Step) {
        self.deeper.push(step);
    }

    /// Leaves the step entered last.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pop(&mut self) {
        self.len -= 1;
        if self.len >= Path::INLINE {
            self.deeper.pop();
        }
    }

    /// The path as segments, outermost first.
    fn segments(&self) -> Vec<PathSegment> {
        let inline = &self.inline[..self.len.min(Path::INLINE)];
        inline
            .iter()
            .chain(&self.deeper)
            .map(|s| s.segment())
            .collect()
    }
}

/// The kind of issue an error is.
fn kind_of(e: &Error) -> IssueKind {
    match e.code() {
        Code::MissingKey(_) => IssueKind::MissingKey,
        Code::UnknownKey(_) => IssueKind::UnknownKey,
        Code::DuplicateKey(_) => IssueKind::DuplicateKey,
        Code::AliasConflict(..) => IssueKind::AliasConflict,
        _ => match e.category() {
            Category::Constraint => IssueKind::Constraint,
            Category::Data => IssueKind::Type,
            Category::Limit => IssueKind::Limit,
            Category::Eof | Category::Syntax | Category::Io => IssueKind::Syntax,
        },
    }
}

/// The memory a report may take per byte of input: an issue takes at least one byte of input
/// (a `1,` of an array of bools is two), though a struct's missing members may be many for
/// the two bytes of `{}`.
const REPORT_BYTES_PER_INPUT_BYTE: usize = 128;

/// The memory any report may take, however short its input: some thousands of issues.
const REPORT_BYTES_FLOOR: usize = 1 << 20;

/// The most bytes of a path, a JSON Pointer or a message an issue keeps.
const MAX_ISSUE_TEXT: usize = 1024;

/// The most bytes of a map's key kept in a path or a pointer.
const MAX_KEY_IN_PATH: usize = 128;

/// The bytes the issues of a report on `input_len` bytes may take: past it the report stops,
/// marked as truncated, as at [`ParseOptions::max_issues`], so that a document of millions of
/// issues read with no cap to speak of (`max_issues: usize::MAX`) is reported in memory
/// linear in its length rather than running out of it.
fn report_budget(input_len: usize) -> usize {
    input_len
        .saturating_mul(REPORT_BYTES_PER_INPUT_BYTE)
        .saturating_add(REPORT_BYTES_FLOOR)
}

/// `s` cut to at most `max` bytes (between characters), with `…` after it when cut, holding no
/// more memory than its length.
fn clip(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s.shrink_to_fit();
    s
}

impl Issue {
    /// The heap memory the issue holds (bounded: its texts are clipped, see [`issue`]).
    fn heap_bytes(&self) -> usize {
        // A constraint's parameters: a small map (a name and a bound or two).
        let params = self.constraint.as_ref().map_or(0, |_| 256);
        self.pointer.capacity() + self.path.capacity() + self.message.capacity() + params
    }
}

/// An issue at `segs` (outermost first). Its path, pointer and message are clipped to
/// [`MAX_ISSUE_TEXT`] bytes, so that an issue deep in a document or under a long key holds a
/// bounded amount of memory.
fn issue(
    kind: IssueKind,
    segs: &[PathSegment],
    message: String,
    offset: Option<usize>,
    rule: Option<&'static Rule>,
) -> Issue {
    let (pointer, path) = render(segs);
    Issue {
        kind,
        pointer: clip(pointer, MAX_ISSUE_TEXT),
        path: clip(path, MAX_ISSUE_TEXT),
        message: clip(message, MAX_ISSUE_TEXT),
        offset,
        line: None,
        column: None,
        constraint: rule.map(crate::constraint::params),
        rule,
        snippet: None,
    }
}

/// `segs` as an RFC 6901 pointer (`/tags/3`, `~` and `/` escaped as `~0` and `~1`) and as a
/// path (`$.tags[3]`; a key that is not a plain name as `["a key"]`). A map's key longer than
/// [`MAX_KEY_IN_PATH`] bytes is cut, with `…` after it.
fn render(segs: &[PathSegment]) -> (String, String) {
    let mut pointer = String::new();
    let mut path = String::from("$");
    for s in segs {
        pointer.push('/');
        match s {
            PathSegment::Field(name) => {
                pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
                named(&mut path, name);
            }
            PathSegment::Key(k) => {
                let k = &clip_str(k, MAX_KEY_IN_PATH);
                pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
                named(&mut path, k);
            }
            PathSegment::Index(i) => {
                pointer.push_str(&i.to_string());
                path.push_str(&format!("[{i}]"));
            }
        }
    }
    (pointer, path)
}

/// `k`, or its first `max` bytes (cut between characters) and `…`.
fn clip_str(k: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if k.len() <= max {
        return std::borrow::Cow::Borrowed(k);
    }
    let mut end = max;
    while !k.is_char_boundary(end) {
        end -= 1;
    }
    std::borrow::Cow::Owned(format!("{}…", &k[..end]))
}

/// Adds `.name` to `path`, or `["name"]` when it is not a plain name.
fn named(path: &mut String, name: &str) {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        path.push('.');
        path.push_str(name);
    } else {
        path.push_str("[\"");
        for c in name.chars() {
            match c {
                '"' => path.push_str("\\\""),
                '\\' => path.push_str("\\\\"),
                c if (c as u32) < 0x20 => path.push_str(&format!("\\u{:04X}", c as u32)),
                c => path.push(c),
            }
        }
        path.push_str("\"]");
    }
}

/// Fills in line and column of every issue of `report` from the JSON `text` (one pass over
/// the text) and the caret snippet of the first.
#[cold]
pub(crate) fn locate(report: &mut Report, text: &[u8]) {
    let mut order: Vec<usize> = (0..report.issues.len())
        .filter(|&i| report.issues[i].offset.is_some())
        .collect();
    order.sort_by_key(|&i| report.issues[i].offset);
    let (mut line, mut line_start, mut pos) = (1usize, 0usize, 0usize);
    for i in order {
        let off = report.issues[i].offset.unwrap_or(0).min(text.len());
        for (j, &b) in text[pos..off].iter().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = pos + j + 1;
            }
        }
        pos = off.max(pos);
        report.issues[i].line = Some(line);
        report.issues[i].column = Some(off - line_start + 1);
    }
    if let Some(first) = report.issues.first_mut() {
        if let Some(off) = first.offset {
            first.snippet = crate::error::snippet(text, off);
        }
    }
}

/// Checks a value built in memory against every constraint its type declares, and reports
/// every broken one with its path, as [`crate::json::parse`] would for the same value.
///
/// The value is written to BEVE and read back by the collecting reader, so what is checked is
/// exactly what `parse` checks (members that are skipped are not); issues carry no offset.
///
/// ```
/// #[derive(structio::Reflect, Debug)]
/// struct Tags {
///     #[structio(items(length(min = 1)))]
///     tags: Vec<String>,
/// }
///
/// let t = Tags { tags: vec!["a".into(), String::new(), "c".into(), String::new()] };
/// let report = structio::check(&t).unwrap_err();
/// let paths: Vec<&str> = report.issues().iter().map(|i| i.path()).collect();
/// assert_eq!(paths, ["$.tags[1]", "$.tags[3]"]);
/// assert!(structio::check(&Tags { tags: vec!["x".into()] }).is_ok());
/// ```
pub fn check<T: crate::ReflectOwned>(value: &T) -> std::result::Result<(), Report> {
    let bytes = crate::to_beve(value);
    let opts = ParseOptions {
        max_issues: ParseOptions::default().max_issues,
        read: ReadOptions {
            // What a writer leaves out (`skip_if`) is not a problem of the value.
            error_on_missing_keys: false,
            ..ReadOptions::default()
        },
    };
    match crate::beve::parse_with::<T>(&bytes, &opts) {
        Ok(_) => Ok(()),
        Err(mut report) => {
            for i in &mut report.issues {
                i.offset = None;
            }
            Err(report)
        }
    }
}

/// Reads one value of `T` from `r` (a format's reader) collecting every problem, with
/// `finish` checking what follows the value: the value, or the report.
pub(crate) fn parse_with<'de, T, R>(
    r: R,
    input_len: usize,
    max_issues: usize,
    finish: impl FnOnce(&mut R) -> Result<()>,
) -> std::result::Result<T, Report>
where
    T: crate::Reflect<'de>,
    R: Reader<'de>,
{
    let mut c = Collector::new(max_issues, input_len);
    let mut r = Collecting { r, c: &mut c };
    // The value goes straight from the read to the caller (it may be large: no `Result`
    // combinators moving it through closures on the way).
    let last = match T::read_new(&mut r) {
        Ok(v) => match finish(&mut r.r) {
            Ok(()) if r.c.issues.is_empty() => return Ok(v),
            Ok(()) => None,
            Err(e) => Some(e),
        },
        Err(e) => Some(e),
    };
    drop(r);
    Err(c.finish(last))
}

/// Runs `f` with the collector of `r` suspended: problems are errors again, as in a trusted
/// read (untagged enums try their variants this way).
pub(crate) fn suspended<'de, R: Reader<'de>, T>(
    r: &mut R,
    f: impl FnOnce(&mut R) -> Result<T>,
) -> Result<T> {
    if let Some(c) = r.collector() {
        c.suspended += 1;
    }
    let res = f(r);
    if let Some(c) = r.collector() {
        c.suspended -= 1;
    }
    res
}

/// Checks a value just read (`v`, which started at the saved position `mark`) against the
/// constraints of its member: `check` pushes what it breaks. A trusted read returns the first
/// as a [`Category::Constraint`] error; a collecting read records them all and goes on.
#[inline]
pub fn enforce<'de, R, T, F>(r: &mut R, mark: R::Pos, v: &T, check: F) -> Result<()>
where
    R: Reader<'de>,
    T: ?Sized,
    F: FnOnce(&T, &mut Violations),
{
    let mut out = Violations::new(!R::COLLECTS);
    check(v, &mut out);
    if out.is_empty() {
        Ok(())
    } else {
        violated(r, mark, out)
    }
}

/// [`enforce`] once something is broken.
#[cold]
#[inline(never)]
fn violated<'de, R: Reader<'de>>(r: &mut R, mark: R::Pos, out: Violations) -> Result<()> {
    let at = offset_at(r, mark);
    let list = out.into_vec();
    if let Some(c) = r.collector().filter(|c| c.active()) {
        for v in list {
            c.record_violation(v, at)?;
        }
        return Ok(());
    }
    let v = list.into_iter().next().expect("a violation");
    let mut e = Error::new(Code::Constraint(v.message, v.rule), at);
    for seg in v.path {
        e = e.push_path(seg);
    }
    Err(e)
}

/// After member or element reading failed with `e` in a collecting read: records `e` (unless
/// it was reported already) and moves past the value, which started at `mark` with `depth`
/// arrays and objects open. An error that is not about the data (malformed input, a limit)
/// is returned: reading stops there.
#[cold]
#[inline(never)]
pub(crate) fn recover<'de, R: Reader<'de>>(
    r: &mut R,
    mark: R::Pos,
    depth: usize,
    e: Error,
) -> Result<()> {
    if e.category() != Category::Data && e.category() != Category::Constraint {
        return Err(e);
    }
    let reported = matches!(e.code(), Code::Reported);
    let Some(c) = r.collector() else {
        return Err(e);
    };
    if !reported {
        c.record_error(&e)?;
    }
    // A value reported whole ends where it ended; anything else is skipped from its start.
    if !reported || c.depth() != depth {
        r.restore(mark);
        r.skip_value()?;
    }
    Ok(())
}

/// `e`, which stops a collecting read, on its way out of member `seg`: named by it (the cap
/// is not about a value).
#[cold]
pub(crate) fn through(e: Error, seg: PathSegment) -> Error {
    match e.code() {
        Code::IssueCap(_) => e,
        _ => e.push_path(seg),
    }
}

/// The error a collecting read returns for a value it could not build after recording why.
#[cold]
pub(crate) fn reported(at: usize) -> Error {
    Error::new(Code::Reported, at)
}

/// A format's reader that collects problems (see the module docs): it counts the arrays and
/// objects it opens, so that the walk knows whether a value reported as failed was read to its
/// end, and hands out its [`Collector`].
pub struct Collecting<'c, R> {
    r: R,
    c: &'c mut Collector,
}

impl<R: fmt::Debug> fmt::Debug for Collecting<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Collecting").field("r", &self.r).finish()
    }
}

impl<'de, R: Reader<'de>> Reader<'de> for Collecting<'_, R> {
    type Seq = R::Seq;
    type Map = R::Map;
    type Pos = (R::Pos, usize);

    const COLLECTS: bool = true;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn collector(&mut self) -> Option<&mut Collector> {
        Some(&mut *self.c)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn options(&self) -> &ReadOptions {
        self.r.options()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn offset(&self) -> usize {
        self.r.offset()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn save(&self) -> Self::Pos {
        (self.r.save(), self.c.depth)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn restore(&mut self, pos: Self::Pos) {
        self.r.restore(pos.0);
        self.c.depth = pos.1;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_reread(&mut self, bytes: usize) -> Result<()> {
        self.r.charge_reread(bytes)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn attempts_stopped(&self) -> bool {
        self.r.attempts_stopped()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn stop_attempts(&mut self) {
        self.r.stop_attempts()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn peek_kind(&mut self) -> Result<ValueKind> {
        self.r.peek_kind()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_null(&mut self) -> Result<bool> {
        self.r.take_null()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_bool(&mut self) -> Result<bool> {
        self.r.read_bool()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_number<N: Number>(&mut self) -> Result<N> {
        self.r.read_number()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_wire_number(&mut self) -> Result<Wire> {
        self.r.read_wire_number()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_str(&mut self) -> Result<Str<'de, '_>> {
        self.r.read_str()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_string_into(&mut self, out: &mut String) -> Result<()> {
        self.r.read_string_into(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_string_vec(&mut self, out: &mut Vec<String>) -> Result<()> {
        self.r.read_string_vec(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_char(&mut self) -> Result<char> {
        self.r.read_char()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_array(&mut self) -> Result<Self::Seq> {
        let s = self.r.begin_array()?;
        self.c.depth += 1;
        Ok(s)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_element(&mut self, seq: &mut Self::Seq) -> Result<bool> {
        let more = self.r.next_element(seq)?;
        if !more {
            self.c.depth -= 1;
        }
        Ok(more)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn remaining_hint(&self, seq: &Self::Seq) -> Option<usize> {
        self.r.remaining_hint(seq)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn begin_object(&mut self) -> Result<Self::Map> {
        let m = self.r.begin_object()?;
        self.c.depth += 1;
        Ok(m)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field(&mut self, map: &mut Self::Map) -> Result<Option<&[u8]>> {
        let k = self.r.next_field(map)?;
        if k.is_none() {
            self.c.depth -= 1;
        }
        Ok(k)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_field_guess(
        &mut self,
        map: &mut Self::Map,
        guess: &str,
        plain: bool,
    ) -> Result<Option<crate::NextField<'_>>> {
        let k = self.r.next_field_guess(map, guess, plain)?;
        if k.is_none() {
            self.c.depth -= 1;
        }
        Ok(k)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_key(&mut self, map: &mut Self::Map) -> Result<Option<Key<'de, '_>>> {
        let k = self.r.next_key(map)?;
        if k.is_none() {
            self.c.depth -= 1;
        }
        Ok(k)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn skip_value(&mut self) -> Result<()> {
        self.r.skip_value()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_unit_variant(&mut self, info: &EnumInfo) -> Result<usize> {
        self.r.read_unit_variant(info)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_typed_vec<N: Number>(&mut self, out: &mut Vec<N>) -> Result<()> {
        self.r.read_typed_vec(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_typed_slice<N: Number>(&mut self, out: &mut [N]) -> Result<()> {
        self.r.read_typed_slice(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_typed_cow<N: Number>(&mut self, out: &mut std::borrow::Cow<'de, [N]>) -> Result<()> {
        self.r.read_typed_cow(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_bool_vec(&mut self, out: &mut Vec<bool>) -> Result<()> {
        self.r.read_bool_vec(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_str_seq<F>(&mut self, each: F) -> Result<usize>
    where
        F: FnMut(usize, Str<'de, '_>) -> Result<()>,
    {
        self.r.read_str_seq(each)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_raw_json(&mut self) -> Result<Str<'de, '_>> {
        self.r.read_raw_json()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_complex<N: Number>(&mut self) -> Result<[N; 2]> {
        self.r.read_complex()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_complex_vec<N: Number>(&mut self, out: &mut Vec<[N; 2]>) -> Result<()> {
        self.r.read_complex_vec(out)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_matrix<N: Number>(
        &mut self,
        extents: &mut Vec<u64>,
        data: &mut Vec<N>,
    ) -> Result<Option<crate::Layout>> {
        self.r.read_matrix(extents, data)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_extension(&mut self) -> Result<&'de [u8]> {
        self.r.read_extension()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn is_human_readable(&self) -> bool {
        self.r.is_human_readable()
    }
    #[cold]
    fn invalid_type(&mut self, expected: &'static str) -> Error {
        self.r.invalid_type(expected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_and_paths_quote() {
        let segs = [
            PathSegment::Field("a"),
            PathSegment::Key("x/y~z".into()),
            PathSegment::Index(3),
            PathSegment::Key("plain_2".into()),
        ];
        let (p, path) = render(&segs);
        assert_eq!(p, "/a/x~1y~0z/3/plain_2");
        assert_eq!(path, r#"$.a["x/y~z"][3].plain_2"#);
        assert_eq!(render(&[]), (String::new(), "$".to_string()));
        assert_eq!(fragment("/a b/é"), "/a%20b/%C3%A9");
    }

    #[test]
    fn the_report_stops_at_its_memory_budget_and_clips_its_texts() {
        // No cap on the count: the budget of an empty input (1 MiB) stops it.
        let mut c = Collector::new(usize::MAX, 0);
        let e = Error::new(Code::InvalidNumber, 1);
        let mut n = 0;
        while c.record_error(&e).is_ok() {
            n += 1;
            assert!(n < 10_000, "no budget");
        }
        let per = 2 * std::mem::size_of::<Issue>();
        assert!(n > REPORT_BYTES_FLOOR / (per + 256), "{n}");
        let r = c.finish(None);
        assert_eq!(r.issues().len(), n);
        assert!(r.is_truncated());
        // A long key is cut in the path and the pointer; a long message is cut.
        let key = "k/".repeat(1000);
        let i = issue(
            IssueKind::Type,
            &[PathSegment::Key(key), PathSegment::Index(7)],
            "m".repeat(5000),
            None,
            None,
        );
        assert_eq!(i.path(), format!("$[\"{}…\"][7]", "k/".repeat(64)));
        assert_eq!(i.pointer(), format!("/{}…/7", "k~1".repeat(64)));
        assert_eq!(i.message(), format!("{}…", "m".repeat(MAX_ISSUE_TEXT)));
    }

    #[test]
    fn the_cap_stops_and_marks_the_report() {
        let mut c = Collector::new(2, 0);
        let e = Error::new(Code::InvalidNumber, 1);
        assert!(c.record_error(&e).is_ok());
        let stop = c.record_error(&e).unwrap_err();
        assert!(matches!(stop.code(), Code::IssueCap(2)));
        let r = c.finish(Some(stop));
        assert_eq!(r.issues().len(), 2);
        assert!(r.is_truncated());
    }
}
