//! JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386) and a diff that writes JSON Patch, on
//! [`Value`].
//!
//! Nothing here recurses: pointers are walked in loops and [`merge_patch`] and [`diff`] keep
//! worklists, so values of any depth are handled on a small stack.
//!
//! The BEVE-only variants are treated as what JSON makes of them: a [`Value::Typed`] array is an
//! array (one that an operation changes becomes a generic [`Value::Array`] first), a
//! [`Value::IntObject`] is an object whose member names are its keys in decimal (a member added
//! to it must be an integer of its key kind), and a [`Value::Extension`] is a leaf.

use std::borrow::Cow;
use std::fmt;

use super::{Array, IntKey, Map, Value};
use crate::error::{Code, Error, PathSegment, Result};

/// Why a JSON Patch operation failed; [`Error::patch_failure`](crate::Error::patch_failure)
/// gives it, and the error's [path](crate::Error::path) is `$[i]`, the failing operation's
/// index in the patch document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PatchFailure {
    /// The patch document is not valid: not an array of objects, an operation without `op`,
    /// `path`, `value` (add, replace, test) or `from` (move, copy), an unknown `op`, a pointer
    /// that is not a JSON pointer, a `move` into its own child, removing the whole document.
    InvalidPatch,
    /// A location the operation needs does not exist: a missing member or parent, an array
    /// index out of range, not a number, with a leading zero or `-` where `-` is not allowed, a
    /// step into a value that is not a container, an integer-keyed object's key that is not an
    /// integer of its key kind.
    PathNotFound,
    /// A `test` operation found a different value.
    TestFailed,
}

impl PatchFailure {
    fn describe(self) -> &'static str {
        match self {
            PatchFailure::InvalidPatch => "invalid patch document",
            PatchFailure::PathNotFound => "path not found",
            PatchFailure::TestFailed => "test failed",
        }
    }
}

/// What a failed patch reports (boxed in the error's code).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PatchIssue {
    /// The operation's index in the patch document, if the failure is about one.
    index: Option<usize>,
    /// The operation's `op` and `path` as written (empty when missing).
    op: String,
    pointer: String,
    failure: PatchFailure,
    detail: String,
}

impl PatchIssue {
    pub(crate) fn failure(&self) -> PatchFailure {
        self.failure
    }
}

impl fmt::Display for PatchIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => {
                write!(f, "JSON Patch operation {i}")?;
                match (self.op.is_empty(), self.pointer.is_empty()) {
                    (true, _) => {}
                    (false, true) => write!(f, " ({})", self.op)?,
                    (false, false) => write!(
                        f,
                        " ({} {})",
                        self.op,
                        crate::error::quoted_string(&self.pointer)
                    )?,
                }
            }
            None => f.write_str("JSON Patch")?,
        }
        write!(f, ": {}: {}", self.failure.describe(), self.detail)
    }
}

/// A failure inside one operation, before it is given the operation's index.
struct Fail(PatchFailure, String);

fn not_found(detail: impl Into<String>) -> Fail {
    Fail(PatchFailure::PathNotFound, detail.into())
}

fn invalid(detail: impl Into<String>) -> Fail {
    Fail(PatchFailure::InvalidPatch, detail.into())
}

fn patch_error(index: Option<usize>, op: &str, pointer: &str, fail: Fail) -> Error {
    let issue = PatchIssue {
        index,
        op: op.to_owned(),
        pointer: pointer.to_owned(),
        failure: fail.0,
        detail: fail.1,
    };
    let e = Error::new(Code::Patch(Box::new(issue)), 0);
    match index {
        Some(i) => e.push_path(PathSegment::Index(i)),
        None => e,
    }
}

/// A parsed JSON pointer: its text (for messages) and its unescaped tokens.
struct Pointer<'p> {
    text: &'p str,
    tokens: Vec<String>,
}

impl<'p> Pointer<'p> {
    /// Parses a JSON pointer strictly (RFC 6901, see [`crate::pointer`]): empty, or `/` then
    /// tokens in which `~` is always followed by `0` or `1`.
    fn parse(text: &'p str, member: &str) -> Result<Pointer<'p>, Fail> {
        match crate::pointer::Pointer::parse(text) {
            Ok(p) => Ok(Pointer {
                text,
                tokens: p.tokens().map(Cow::into_owned).collect(),
            }),
            Err(crate::pointer::Syntax::NoSlash) => Err(invalid(format!(
                "`{member}` is not a JSON pointer (it must be empty or start with `/`)"
            ))),
            Err(crate::pointer::Syntax::BadEscape(_)) => Err(invalid(format!(
                "`{member}` is not a JSON pointer (`~` must be followed by `0` or `1`)"
            ))),
        }
    }

    /// Whether `self` is a proper prefix of `other` (a location strictly inside it).
    fn is_proper_prefix_of(&self, other: &Pointer<'_>) -> bool {
        self.tokens.len() < other.tokens.len() && other.tokens.starts_with(&self.tokens)
    }
}

/// One operation of a patch document, checked and parsed.
enum Op<'p> {
    Add(Pointer<'p>, &'p Value),
    Remove(Pointer<'p>),
    Replace(Pointer<'p>, &'p Value),
    Move(Pointer<'p>, Pointer<'p>),
    Copy(Pointer<'p>, Pointer<'p>),
    Test(Pointer<'p>, &'p Value),
}

/// The `op` and `path` of an operation object as written, for messages (empty if missing).
fn op_and_path(op: &Value) -> (&str, &str) {
    let get = |k| op.get(k).and_then(Value::as_str).unwrap_or("");
    (get("op"), get("path"))
}

/// Parses one operation object. Members other than the ones the operation uses are ignored
/// (RFC 6902 section 4).
fn parse_op(op: &Value) -> Result<Op<'_>, Fail> {
    let Value::Object(m) = op else {
        return Err(invalid(format!(
            "an operation must be an object, found {}",
            op.describe()
        )));
    };
    let string = |k: &str| -> Result<&str, Fail> {
        match m.get(k) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(invalid(format!(
                "`{k}` must be a string, found {}",
                other.describe()
            ))),
            None => Err(invalid(format!("missing `{k}`"))),
        }
    };
    let name = string("op")?;
    let path = Pointer::parse(string("path")?, "path")?;
    let value = || m.get("value").ok_or_else(|| invalid("missing `value`"));
    let from = || Pointer::parse(string("from")?, "from");
    Ok(match name {
        "add" => Op::Add(path, value()?),
        "remove" => Op::Remove(path),
        "replace" => Op::Replace(path, value()?),
        "move" => {
            let from = from()?;
            if from.is_proper_prefix_of(&path) {
                return Err(invalid(format!(
                    "cannot move {} into its own child",
                    crate::error::quoted_string(from.text)
                )));
            }
            Op::Move(from, path)
        }
        "copy" => Op::Copy(from()?, path),
        "test" => Op::Test(path, value()?),
        other => {
            return Err(invalid(format!(
                "unknown op {} (expected add, remove, replace, move, copy or test)",
                crate::error::quoted_string(other)
            )))
        }
    })
}

/// A pointer token as an array index: decimal digits without a leading zero (RFC 6901); `-`
/// (past the last element) where `allow_end`.
fn array_index(token: &str, len: usize, allow_end: bool) -> Result<usize, Fail> {
    match crate::pointer::index(token) {
        Err(crate::pointer::NotIndex::End) if allow_end => Ok(len),
        Err(crate::pointer::NotIndex::End) => Err(not_found(
            "`-` (past the last element) names no element here",
        )),
        Err(crate::pointer::NotIndex::Malformed) => Err(not_found(format!(
            "{} is not an array index",
            crate::error::quoted_string(token)
        ))),
        Ok(i) if i < len || (allow_end && i == len) => Ok(i),
        Ok(_) => Err(not_found(format!(
            "index {token} is out of range for an array of length {len}"
        ))),
    }
}

fn int_key(token: &str) -> Result<IntKey, Fail> {
    IntKey::parse(token).ok_or_else(|| {
        not_found(format!(
            "{} is not a key of an integer-keyed object",
            crate::error::quoted_string(token)
        ))
    })
}

/// One step down from `v` by `token`, for reading (a typed array's element is a copy).
fn step<'v>(v: &'v Value, token: &str) -> Result<Cow<'v, Value>, Fail> {
    let missing = || {
        not_found(format!(
            "no member {} in the object",
            crate::error::quoted_string(token)
        ))
    };
    match v {
        Value::Object(m) => m.get(token).map(Cow::Borrowed).ok_or_else(missing),
        Value::IntObject(m) => m
            .get(int_key(token)?)
            .map(Cow::Borrowed)
            .ok_or_else(missing),
        Value::Array(a) => Ok(Cow::Borrowed(&a[array_index(token, a.len(), false)?])),
        Value::Typed(t) => {
            let i = array_index(token, t.len(), false)?;
            t.get(i).map(Cow::Owned).ok_or_else(missing)
        }
        other => Err(not_found(format!(
            "cannot look up {} in {}",
            crate::error::quoted_string(token),
            other.describe()
        ))),
    }
}

/// The value at `ptr` in `doc`.
fn get<'v>(doc: &'v Value, ptr: &Pointer<'_>) -> Result<Cow<'v, Value>, Fail> {
    let mut v = Cow::Borrowed(doc);
    for token in &ptr.tokens {
        v = match v {
            Cow::Borrowed(b) => step(b, token)?,
            // Only a typed array's element is owned, and it is a leaf.
            Cow::Owned(o) => Cow::Owned(step(&o, token)?.into_owned()),
        };
    }
    Ok(v)
}

/// One step down from `v` by `token`, mutably; a typed array becomes a generic array first.
fn step_mut<'v>(v: &'v mut Value, token: &str) -> Result<&'v mut Value, Fail> {
    if let Value::Typed(t) = v {
        *v = Value::Array(Array::from(t.to_values()));
    }
    let missing = || {
        not_found(format!(
            "no member {} in the object",
            crate::error::quoted_string(token)
        ))
    };
    match v {
        Value::Object(m) => m.get_mut(token).ok_or_else(missing),
        Value::IntObject(m) => m.get_mut(int_key(token)?).ok_or_else(missing),
        Value::Array(a) => {
            let i = array_index(token, a.len(), false)?;
            Ok(&mut a[i])
        }
        other => Err(not_found(format!(
            "cannot look up {} in {}",
            crate::error::quoted_string(token),
            other.describe()
        ))),
    }
}

/// The container holding the location `ptr` (which is not the root) and the last token.
fn parent_mut<'v, 'p>(
    doc: &'v mut Value,
    ptr: &'p Pointer<'_>,
) -> Result<(&'v mut Value, &'p str), Fail> {
    let (last, init) = ptr.tokens.split_last().expect("not the root");
    let mut v = doc;
    for token in init {
        v = step_mut(v, token)?;
    }
    if let Value::Typed(t) = v {
        *v = Value::Array(Array::from(t.to_values()));
    }
    Ok((v, last))
}

fn add(doc: &mut Value, ptr: &Pointer<'_>, value: Value) -> Result<(), Fail> {
    if ptr.tokens.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (parent, token) = parent_mut(doc, ptr)?;
    match parent {
        Value::Object(m) => {
            m.insert(token, value);
        }
        Value::IntObject(m) => {
            let kind = m.kind();
            if m.try_insert(int_key(token)?, value).is_err() {
                return Err(not_found(format!(
                    "key {token} does not fit the object's key type {}",
                    kind.name()
                )));
            }
        }
        Value::Array(a) => {
            let i = array_index(token, a.len(), true)?;
            a.insert(i, value);
        }
        other => {
            return Err(not_found(format!(
                "cannot add a member to {}",
                other.describe()
            )))
        }
    }
    Ok(())
}

fn remove(doc: &mut Value, ptr: &Pointer<'_>) -> Result<Value, Fail> {
    if ptr.tokens.is_empty() {
        return Err(invalid(
            "the whole document cannot be removed (replace it instead)",
        ));
    }
    let (parent, token) = parent_mut(doc, ptr)?;
    let missing = || {
        not_found(format!(
            "no member {} in the object",
            crate::error::quoted_string(token)
        ))
    };
    match parent {
        Value::Object(m) => m.remove(token).ok_or_else(missing),
        Value::IntObject(m) => m.remove(int_key(token)?).ok_or_else(missing),
        Value::Array(a) => {
            let i = array_index(token, a.len(), false)?;
            Ok(a.remove(i))
        }
        other => Err(not_found(format!(
            "cannot remove a member of {}",
            other.describe()
        ))),
    }
}

fn replace(doc: &mut Value, ptr: &Pointer<'_>, value: Value) -> Result<(), Fail> {
    let mut v = doc;
    for token in &ptr.tokens {
        v = step_mut(v, token)?;
    }
    *v = value;
    Ok(())
}

/// JSON value equality as RFC 6902 section 4.6 defines it for `test`: numbers are equal when
/// their values are numerically equal (`1`, `1.0` and `1u8` are one number), strings when
/// they have the same characters, arrays element by element, objects when they have the same
/// members whatever their order; values of different types are different.
///
/// [`Value`]'s `PartialEq` already compares this way (numbers by mathematical value across
/// kinds, objects ignoring member order, without recursion), and it reads the BEVE-only
/// variants as JSON does (a typed array equals the generic array of its elements, an
/// integer-keyed object the object of its decimal keys), so `test` uses it.
fn json_equal(a: &Value, b: &Value) -> bool {
    a == b
}

/// Applies one operation to `doc`. On failure `doc` may be half changed: [`patch`] works on a
/// copy.
fn apply(doc: &mut Value, op: &Op<'_>) -> Result<(), Fail> {
    match op {
        Op::Add(path, value) => add(doc, path, (*value).clone()),
        Op::Remove(path) => remove(doc, path).map(drop),
        Op::Replace(path, value) => replace(doc, path, (*value).clone()),
        Op::Move(from, path) => {
            if from.tokens == path.tokens {
                // Moving a value onto itself changes nothing, but the location must exist.
                return get(doc, from).map(drop);
            }
            let v = remove(doc, from)?;
            add(doc, path, v)
        }
        Op::Copy(from, path) => {
            let v = get(doc, from)?.into_owned();
            add(doc, path, v)
        }
        Op::Test(path, value) => {
            let found = get(doc, path)?;
            if json_equal(&found, value) {
                Ok(())
            } else {
                Err(Fail(
                    PatchFailure::TestFailed,
                    format!(
                        "the value is {}, not the value the test expects",
                        clip_json(&crate::json::to_json(&*found))
                    ),
                ))
            }
        }
    }
}

/// JSON text cut to at most 64 bytes for a message.
fn clip_json(s: &str) -> String {
    if s.len() <= 64 {
        return s.to_owned();
    }
    let mut end = 64;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// Applies the JSON Patch document `patch` (RFC 6902) to `doc`: an array of operations `add`,
/// `remove`, `replace`, `move`, `copy` and `test`, whose `path` and `from` are JSON pointers
/// (RFC 6901: `~1` is `/`, `~0` is `~`; array indices are decimal without leading zeros; `-`
/// names the place after the last element, for `add` and as the target of `move` and `copy`).
///
/// **Atomic**: if any operation fails, `doc` is left exactly as it was (member order
/// included). The whole patch document is checked first (every operation must have its `op`,
/// `path` and, as needed, `value` or `from`, with valid pointers); then the operations are
/// applied in order to a copy of `doc`, which replaces `doc` only when all of them succeed.
/// That costs one clone of the document per call (none for an empty or invalid patch); an undo
/// log would avoid it, but could not put back a removed member at its old place in a
/// [`Map`] without more machinery.
///
/// `test` compares as RFC 6902 section 4.6 says: numbers by numeric value (`1` equals `1.0`),
/// objects without regard to member order. A typed array that an operation changes becomes a
/// generic array (it still compares equal to the typed one elementwise); an integer-keyed
/// object takes only members whose names are integers of its key kind.
///
/// # Errors
///
/// A [`Category::Data`](crate::Category::Data) error whose
/// [`patch_failure`](crate::Error::patch_failure) says why (invalid patch document, path not
/// found, test failed), whose [path](crate::Error::path) is `$[i]` for the failing operation
/// `i`, and whose message names the operation, its `path` and the reason.
///
/// ```
/// use structio::value::{patch, PatchFailure};
/// use structio::Value;
///
/// let mut doc: Value = structio::from_json(r#"{"name": "probe", "tags": ["a"]}"#).unwrap();
/// let ops: Value = structio::from_json(r#"[
///     {"op": "test", "path": "/name", "value": "probe"},
///     {"op": "add", "path": "/tags/-", "value": "b"},
///     {"op": "move", "from": "/name", "path": "/id"}
/// ]"#).unwrap();
/// patch(&mut doc, &ops).unwrap();
/// assert_eq!(structio::to_json(&doc), r#"{"tags":["a","b"],"id":"probe"}"#);
///
/// // A failing operation leaves the document as it was.
/// let bad: Value = structio::from_json(r#"[
///     {"op": "remove", "path": "/tags/0"},
///     {"op": "test", "path": "/id", "value": "other"}
/// ]"#).unwrap();
/// let before = doc.clone();
/// let e = patch(&mut doc, &bad).unwrap_err();
/// assert_eq!(e.patch_failure(), Some(PatchFailure::TestFailed));
/// assert_eq!(e.path(), "$[1]");
/// assert!(e.to_string().starts_with("JSON Patch operation 1 (test `/id`): test failed"));
/// assert_eq!(structio::to_json(&doc), structio::to_json(&before));
/// ```
pub fn patch(doc: &mut Value, patch: &Value) -> Result<()> {
    let ops: &[Value] = match patch {
        Value::Array(a) => a,
        Value::Typed(t) if t.is_empty() => &[],
        Value::Typed(_) => {
            return Err(patch_error(
                Some(0),
                "",
                "",
                invalid("an operation must be an object, found a typed array's element"),
            ))
        }
        other => {
            return Err(patch_error(
                None,
                "",
                "",
                invalid(format!(
                    "a patch must be an array of operations, found {}",
                    other.describe()
                )),
            ))
        }
    };
    let mut parsed = Vec::with_capacity(ops.len());
    for (i, op) in ops.iter().enumerate() {
        match parse_op(op) {
            Ok(p) => parsed.push(p),
            Err(fail) => {
                let (name, path) = op_and_path(op);
                return Err(patch_error(Some(i), name, path, fail));
            }
        }
    }
    if parsed.is_empty() {
        return Ok(());
    }
    let mut work = doc.clone();
    for (i, op) in parsed.iter().enumerate() {
        if let Err(fail) = apply(&mut work, op) {
            let (name, path) = op_and_path(&ops[i]);
            return Err(patch_error(Some(i), name, path, fail));
        }
    }
    *doc = work;
    Ok(())
}

/// The members of an object (string- or integer-keyed) with their names as JSON writes them.
fn members(v: &Value) -> Option<Vec<(Cow<'_, str>, &Value)>> {
    match v {
        Value::Object(m) => Some(m.iter().map(|(k, v)| (Cow::Borrowed(k), v)).collect()),
        Value::IntObject(m) => Some(
            m.iter()
                .map(|(k, v)| (Cow::Owned(k.to_string()), v))
                .collect(),
        ),
        _ => None,
    }
}

/// Applies the JSON Merge Patch `patch` (RFC 7386) to `target`: an object patch merges into
/// the target member by member (a `null` member removes the target's member, an object member
/// merges recursively, anything else replaces it; a target that is not an object becomes an
/// empty object first), and any other patch replaces the target.
///
/// An integer-keyed target object that an object patch merges into becomes a string-keyed
/// object with its keys in decimal (what JSON makes of it). This cannot fail, and does not
/// recurse.
///
/// ```
/// use structio::value::merge_patch;
/// use structio::Value;
///
/// let mut doc: Value = structio::from_json(
///     r#"{"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"}}"#,
/// ).unwrap();
/// let p: Value = structio::from_json(
///     r#"{"title": "Hello!", "phoneNumber": "+01-123-456-7890", "author": {"familyName": null}}"#,
/// ).unwrap();
/// merge_patch(&mut doc, &p);
/// assert_eq!(
///     structio::to_json(&doc),
///     r#"{"title":"Hello!","author":{"givenName":"John"},"phoneNumber":"+01-123-456-7890"}"#
/// );
/// ```
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let mut work: Vec<(&mut Value, &Value)> = vec![(target, patch)];
    while let Some((t, p)) = work.pop() {
        let Some(patch_members) = members(p) else {
            *t = p.clone();
            continue;
        };
        let map = match t {
            Value::Object(m) => m,
            Value::IntObject(m) => {
                let m: Map = m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
                *t = Value::Object(m);
                t.as_object_mut().expect("just made")
            }
            _ => {
                *t = Value::Object(Map::new());
                t.as_object_mut().expect("just made")
            }
        };
        // Removals and new members first, so that every remaining patch member has a target
        // member; then the target's members are visited once, each paired with its patch
        // member (disjoint mutable borrows, so the nested merges can wait in the worklist).
        let mut pending: Vec<(&str, &Value)> = Vec::new();
        for (k, v) in &patch_members {
            if v.is_null() {
                map.remove(k);
            } else if members(v).is_some() {
                if !map.contains_key(k) {
                    map.insert(k.as_ref(), Value::Null);
                }
                pending.push((k, v));
            } else {
                map.insert(k.as_ref(), (*v).clone());
            }
        }
        if pending.is_empty() {
            continue;
        }
        let wanted: std::collections::HashMap<&str, usize> = pending
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i))
            .collect();
        let mut slots: Vec<Option<&mut Value>> = Vec::new();
        slots.resize_with(pending.len(), || None);
        for (k, v) in map.iter_mut() {
            if let Some(&i) = wanted.get(k) {
                slots[i] = Some(v);
            }
        }
        for (slot, &(_, pv)) in slots.into_iter().zip(&pending) {
            if let Some(tv) = slot {
                work.push((tv, pv));
            }
        }
    }
}

/// Escapes a member name as a JSON pointer token (`~` -> `~0`, `/` -> `~1`).
fn escape_token(out: &mut String, token: &str) {
    crate::pointer::escape_into(out, token)
}

fn operation(op: &str, path: &str, value: Option<Value>) -> Value {
    let mut m = Map::with_capacity(3);
    m.insert("op", Value::from(op));
    m.insert("path", Value::from(path));
    if let Some(v) = value {
        m.insert("value", v);
    }
    Value::Object(m)
}

/// A JSON Patch document (RFC 6902; a [`Value::Array`] of operations) that [`patch`] turns
/// `from` into `to`: the result equals `to` (by [`Value`]'s equality, which is the JSON one:
/// `1` and `1.0` are the same number, member order does not count).
///
/// Objects are compared member by member (`remove` for members only in `from`, `add` for
/// members only in `to`, the same comparison for shared members); generic arrays element by
/// element over their common length, then `remove`s from the end or `add`s at the end; any
/// other difference (other types, scalars, typed arrays, integer-keyed objects of different
/// key kinds) is one `replace`. Equal values give an empty patch. The diff is not minimal
/// (an element inserted at the front of an array shows as changes to every element after
/// it), and it does not recurse.
///
/// ```
/// use structio::value::{diff, patch};
/// use structio::Value;
///
/// let from: Value = structio::from_json(r#"{"a": 1, "b": [1, 2, 3], "c": "x"}"#).unwrap();
/// let to: Value = structio::from_json(r#"{"a": 1.0, "b": [1, 5], "d": null}"#).unwrap();
/// let ops = diff(&from, &to);
/// assert_eq!(
///     structio::to_json(&ops),
///     concat!(
///         r#"[{"op":"remove","path":"/c"},{"op":"add","path":"/d","value":null},"#,
///         r#"{"op":"remove","path":"/b/2"},{"op":"replace","path":"/b/1","value":5}]"#
///     )
/// );
/// let mut doc = from.clone();
/// patch(&mut doc, &ops).unwrap();
/// assert_eq!(doc, to);
/// ```
pub fn diff(from: &Value, to: &Value) -> Value {
    let mut ops = Array::new();
    let mut work: Vec<(&Value, &Value, String)> = vec![(from, to, String::new())];
    while let Some((a, b, path)) = work.pop() {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                diff_members(
                    x.iter().map(|(k, v)| (Cow::Borrowed(k), v)).collect(),
                    |k| y.get(k),
                    y.iter().map(|(k, v)| (Cow::Borrowed(k), v)).collect(),
                    |k| x.contains_key(k),
                    &path,
                    &mut ops,
                    &mut work,
                );
            }
            (Value::IntObject(x), Value::IntObject(y)) if x.kind() == y.kind() => {
                diff_members(
                    x.iter()
                        .map(|(k, v)| (Cow::Owned(k.to_string()), v))
                        .collect(),
                    |k| IntKey::parse(k).and_then(|k| y.get(k)),
                    y.iter()
                        .map(|(k, v)| (Cow::Owned(k.to_string()), v))
                        .collect(),
                    |k| IntKey::parse(k).is_some_and(|k| x.contains_key(k)),
                    &path,
                    &mut ops,
                    &mut work,
                );
            }
            (Value::Array(x), Value::Array(y)) => {
                let common = x.len().min(y.len());
                // Removals from the end first (highest index first), then additions at the
                // end in order; the shared prefix keeps its indices through both.
                for i in (common..x.len()).rev() {
                    ops.push(operation("remove", &format!("{path}/{i}"), None));
                }
                for (i, v) in y.iter().enumerate().skip(common) {
                    ops.push(operation("add", &format!("{path}/{i}"), Some(v.clone())));
                }
                // Pushed in reverse so that the worklist visits the elements in order.
                for i in (0..common).rev() {
                    work.push((&x[i], &y[i], format!("{path}/{i}")));
                }
            }
            _ => {
                if a != b {
                    ops.push(operation("replace", &path, Some(b.clone())));
                }
            }
        }
    }
    Value::Array(ops)
}

/// The member-by-member part of [`diff`] for two objects of one kind.
#[allow(clippy::too_many_arguments)]
fn diff_members<'a>(
    from: Vec<(Cow<'a, str>, &'a Value)>,
    to_get: impl Fn(&str) -> Option<&'a Value>,
    to: Vec<(Cow<'a, str>, &'a Value)>,
    from_has: impl Fn(&str) -> bool,
    path: &str,
    ops: &mut Array,
    work: &mut Vec<(&'a Value, &'a Value, String)>,
) {
    let child = |k: &str| {
        let mut p = String::with_capacity(path.len() + k.len() + 1);
        p.push_str(path);
        p.push('/');
        escape_token(&mut p, k);
        p
    };
    let mut nested = Vec::new();
    for (k, v) in &from {
        match to_get(k) {
            None => ops.push(operation("remove", &child(k), None)),
            Some(w) => nested.push((*v, w, child(k))),
        }
    }
    for (k, v) in &to {
        if !from_has(k) {
            ops.push(operation("add", &child(k), Some((*v).clone())));
        }
    }
    work.extend(nested.into_iter().rev());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value {
        crate::from_json(text).unwrap()
    }

    #[test]
    fn pointers_parse_strictly() {
        assert_eq!(Pointer::parse("", "path").ok().unwrap().tokens.len(), 0);
        assert_eq!(
            Pointer::parse("/a~1b/~01/", "path").ok().unwrap().tokens,
            ["a/b", "~1", ""]
        );
        assert!(Pointer::parse("a", "path").is_err());
        assert!(Pointer::parse("/~2", "path").is_err());
        assert!(Pointer::parse("/~", "path").is_err());
    }

    #[test]
    fn typed_arrays_and_int_objects_are_patched_as_json_sees_them() {
        let mut doc = Value::from_iter([("t", Value::from(vec![1u8, 2]))]);
        patch(&mut doc, &v(r#"[{"op":"test","path":"/t/1","value":2.0}]"#)).unwrap();
        patch(&mut doc, &v(r#"[{"op":"add","path":"/t/-","value":"x"}]"#)).unwrap();
        assert_eq!(doc, v(r#"{"t":[1,2,"x"]}"#));
        let mut m = crate::value::IntMap::new(crate::NumKind::U8);
        m.insert(5u8, Value::from("five"));
        let mut doc = Value::IntObject(m);
        patch(&mut doc, &v(r#"[{"op":"copy","from":"/5","path":"/6"}]"#)).unwrap();
        assert_eq!(doc, v(r#"{"5":"five","6":"five"}"#));
        let e = patch(&mut doc, &v(r#"[{"op":"add","path":"/300","value":1}]"#)).unwrap_err();
        assert_eq!(e.patch_failure(), Some(PatchFailure::PathNotFound));
        let e = patch(&mut doc, &v(r#"[{"op":"add","path":"/x","value":1}]"#)).unwrap_err();
        assert_eq!(e.patch_failure(), Some(PatchFailure::PathNotFound));
        merge_patch(&mut doc, &v(r#"{"5":null,"x":1}"#));
        assert_eq!(doc, v(r#"{"6":"five","x":1}"#));
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut deep = Value::from(0);
        let mut other = Value::from(1);
        for _ in 0..100_000 {
            deep = Value::from_iter([("a", deep)]);
            other = Value::from_iter([("a", other)]);
        }
        let d = diff(&deep, &other);
        assert_eq!(d.len(), Some(1));
        let mut t = deep.clone();
        merge_patch(&mut t, &other);
        assert!(t == other);
        patch(&mut t, &d).unwrap();
    }
}
