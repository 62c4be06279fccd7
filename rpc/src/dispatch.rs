//! One JSON-RPC message in, its responses out: single requests, notifications and batches, and
//! the error the specification prescribes for every kind of bad input.

use structio::{Category, Error, PathSegment, RawJson, Reader, Reflect, Value, Writer};

use crate::response::write_error;
use crate::{code, ErrorObject, Id, Request};

/// An error a method handler reports, answered to the request (never to a notification).
pub type Fault = ErrorObject<'static, Value>;

/// Limits on one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most requests in one batch (default 1024). A longer batch is answered with one
    /// `-32600` error and none of its requests is run; reading stops at the first request
    /// past the limit.
    pub max_batch: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_batch: 1024 }
    }
}

/// Handles one JSON-RPC message (a request, a notification or a batch of them) in `input`,
/// appending the response to `out` (no line break): nothing for a notification or a batch of
/// notifications, an array of responses for a batch.
///
/// `handler` is called once per well-formed request, in order, and appends its response
/// (with [`crate::write_result`]) or returns a [`Fault`], which is written as the error
/// response for the request's id (a notification gets nothing either way). Bad input gets the
/// error the specification prescribes, for the message's id when it can be determined
/// ([`recover_id`]: the top-level `id` member of a JSON object, when it is a valid id, wherever
/// it stands and whatever else is wrong), else for id null:
///
/// | input | error |
/// |---|---|
/// | not JSON, invalid UTF-8, cut short | `-32700` Parse error, data `{"offset": byte}` |
/// | JSON but not a request object (wrong `jsonrpc`, no `method`, a `method` that is not a string, an id that is neither an integer, a string nor null, an id with a fraction or exponent, an integer id outside `i64`) | `-32600` Invalid Request |
/// | `params` neither an object nor an array, nested deeper than the depth limit, or (typed `P`) not of the expected shape | `-32602` Invalid params |
/// | an empty batch, a batch longer than [`Limits::max_batch`] | one `-32600` |
///
/// Returns whether anything was written.
///
/// ```
/// use structio_rpc::{dispatch, write_result, Limits};
/// let mut out = Vec::new();
/// let line = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"note"},3]"#;
/// dispatch(line, &mut out, &Limits::default(), |req, out| {
///     if let Some(id) = &req.id {
///         write_result(out, id, &"pong");
///     }
///     Ok(())
/// });
/// assert_eq!(
///     std::str::from_utf8(&out).unwrap(),
///     r#"[{"jsonrpc":"2.0","id":1,"result":"pong"},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected an object, found a number","data":{"offset":0}}}]"#
/// );
/// ```
pub fn dispatch<F>(input: &[u8], out: &mut Vec<u8>, limits: &Limits, mut handler: F) -> bool
where
    F: FnMut(&Request<'_>, &mut Vec<u8>) -> Result<(), Fault>,
{
    let start = out.len();
    let first = input
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    if first.is_some_and(|i| input[i] == b'[') {
        dispatch_batch(input, out, limits, &mut handler);
    } else {
        match structio::from_json::<Request>(input) {
            Ok(req) => run(&req, out, &mut handler),
            Err(e) => answer_unread(e, input, out),
        }
    }
    out.len() > start
}

/// The error response to `input`, which did not read as a request (`e`): the error
/// [`classify`] gives it, for the id [`recover_id`] finds (null for a parse error).
#[cold]
#[inline(never)]
fn answer_unread(e: Error, input: &[u8], out: &mut Vec<u8>) {
    let fault = classify(e, input);
    let id = if fault.code == code::PARSE_ERROR {
        Id::Null
    } else {
        scan_id(input)
    };
    write_error(out, &id, &fault);
}

/// Runs `handler` for `req`, writing its fault as the error response (requests only).
#[inline]
fn run<F>(req: &Request<'_>, out: &mut Vec<u8>, handler: &mut F)
where
    F: FnMut(&Request<'_>, &mut Vec<u8>) -> Result<(), Fault>,
{
    let mark = out.len();
    let res = handler(req, out);
    match &req.id {
        // A notification is never answered, whatever the handler wrote.
        None => out.truncate(mark),
        Some(id) => {
            if let Err(fault) = res {
                out.truncate(mark);
                write_error(out, id, &fault);
            }
        }
    }
}

/// A batch: each element answered in turn, inside `[` `]`; nothing if nothing is answered.
#[cold]
fn dispatch_batch<F>(input: &[u8], out: &mut Vec<u8>, limits: &Limits, handler: &mut F)
where
    F: FnMut(&Request<'_>, &mut Vec<u8>) -> Result<(), Fault>,
{
    let mut batch = Batch {
        items: Vec::new(),
        max: limits.max_batch,
        over: false,
    };
    if let Err(e) = structio::read_json(&mut batch, input) {
        let fault = if batch.over {
            ErrorObject::new(
                code::INVALID_REQUEST,
                format!(
                    "Invalid Request: a batch of more than {} requests",
                    limits.max_batch
                ),
            )
        } else {
            classify(e, input)
        };
        write_error(out, &Id::Null, &fault);
        return;
    }
    if batch.items.is_empty() {
        let fault: Fault = ErrorObject::new(code::INVALID_REQUEST, "Invalid Request: empty batch");
        write_error(out, &Id::Null, &fault);
        return;
    }
    let start = out.len();
    out.push(b'[');
    let mut any = false;
    for raw in &batch.items {
        let mark = out.len();
        if any {
            out.push(b',');
        }
        let before = out.len();
        match structio::from_json::<Request>(raw.get()) {
            Ok(req) => run(&req, out, handler),
            Err(e) => answer_unread(e, raw.get().as_bytes(), out),
        }
        if out.len() == before {
            out.truncate(mark);
        } else {
            any = true;
        }
    }
    if any {
        out.push(b']');
    } else {
        out.truncate(start);
    }
}

/// The elements of a batch, kept as text; reading stops with an error (and `over` set) at the
/// first element past `max`.
struct Batch<'a> {
    items: Vec<RawJson<'a>>,
    max: usize,
    over: bool,
}

impl<'de: 'a, 'a> Reflect<'de> for Batch<'a> {
    fn write<W: Writer>(&self, w: &mut W) {
        self.items.write(w)
    }

    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        let mut seq = r.begin_array()?;
        while r.next_element(&mut seq)? {
            if self.items.len() == self.max {
                self.over = true;
                return Err(Error::custom("batch too long", r.offset()));
            }
            let raw = RawJson::read_new(r)
                .map_err(|e| e.push_path(PathSegment::Index(self.items.len())))?;
            self.items.push(raw);
        }
        Ok(())
    }

    fn read_new<R: Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let mut b = Batch {
            items: Vec::new(),
            max: Limits::default().max_batch,
            over: false,
        };
        b.read(r)?;
        Ok(b)
    }
}

/// The error response for a message that could not be read as a request: a parse error if it
/// is not one well-formed JSON value (found by validating the whole input, so that an error
/// early in an invalid document is still a parse error), invalid params if the problem is
/// under `params`, else an invalid request. Answer it for the id [`recover_id`] finds (null
/// for a parse error).
#[cold]
#[inline(never)]
pub fn classify(e: Error, input: &[u8]) -> Fault {
    let syntax = |e: &Error| matches!(e.category(), Category::Syntax | Category::Eof);
    if syntax(&e) {
        return parse_error(&e);
    }
    if let Err(v) = structio::json::validate(input) {
        if syntax(&v) {
            return parse_error(&v);
        }
    }
    let data = problem_data(&e);
    if e.path_segments().first() == Some(&PathSegment::Field("params")) {
        return ErrorObject::new(
            code::INVALID_PARAMS,
            format!("Invalid params: {}", e.message()),
        )
        .with_data(data);
    }
    ErrorObject::new(
        code::INVALID_REQUEST,
        format!("Invalid Request: {}", e.message()),
    )
    .with_data(data)
}

/// `-32700` with the byte offset of the error in the data.
fn parse_error(e: &Error) -> Fault {
    ErrorObject::new(
        code::PARSE_ERROR,
        format!("Parse error: {} at byte {}", e.message(), e.offset()),
    )
    .with_data(Value::from_iter([(
        "offset",
        Value::from(e.offset() as u64),
    )]))
}

/// `{"offset": byte}`, with `"path"` when the error is inside the message.
fn problem_data(e: &Error) -> Value {
    let mut pairs = vec![("offset", Value::from(e.offset() as u64))];
    if !e.path_segments().is_empty() {
        pairs.push(("path", Value::from(e.path())));
    }
    Value::from_iter(pairs)
}

/// The id to answer `input` with when it did not read as a request (see [`classify`] for the
/// error): the value of its top-level `id` member when `input` is one well-formed JSON object
/// and that value is a valid [`Id`] (a string, an integer in `i64`, `-0`, or null), whatever
/// else is wrong with the message (`params` of the wrong type or nested too deep, `method`
/// missing or not a string, `jsonrpc` wrong, the id after the bad part or before it). Else
/// [`Id::Null`], as JSON-RPC 2.0 prescribes when the id cannot be determined: the input is not
/// JSON (a parse error, trailing bytes after the object included), not an object, has no
/// `id`, or an `id` that is not a valid id. A repeated `id` gives the last one, as the
/// request's read does, and null if any of them is not a valid id.
///
/// [`dispatch`] answers with it; a server that reads requests itself (a typed
/// `Request<P>`) can do the same with [`classify`]'s error. Only for the error path: it scans
/// `input` again (a member nested deeper than the depth limit is scanned for its brackets and
/// strings, not read).
///
/// ```
/// use structio_rpc::{recover_id, Id};
/// let line = br#"{"jsonrpc":"2.0","method":"ping","params":3,"id":"a"}"#;
/// assert_eq!(recover_id(line), Id::from("a"));
/// assert_eq!(recover_id(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#), Id::Null);
/// assert_eq!(recover_id(br#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#), Id::Null);
/// ```
#[cold]
#[inline(never)]
pub fn recover_id(input: &[u8]) -> Id<'_> {
    if let Err(e) = structio::json::validate(input) {
        if matches!(e.category(), Category::Syntax | Category::Eof) {
            return Id::Null;
        }
    }
    scan_id(input)
}

/// [`recover_id`] for input known not to be a parse error (it may still be deeper than the
/// depth limit): a scan of the top-level object alone, with no recursion, each `id` member's
/// text read as an [`Id`].
fn scan_id(input: &[u8]) -> Id<'_> {
    let mut s = Scan { b: input, i: 0 };
    let mut found = None;
    s.ws();
    if !s.eat(b'{') {
        return Id::Null;
    }
    s.ws();
    if !s.eat(b'}') {
        loop {
            s.ws();
            let Some(key) = s.string() else {
                return Id::Null;
            };
            s.ws();
            if !s.eat(b':') {
                return Id::Null;
            }
            let start = s.i;
            if !s.value() {
                return Id::Null;
            }
            if is_id_key(key) {
                match structio::from_json::<Id>(&input[start..s.i]) {
                    Ok(id) => found = Some(id),
                    // An id that is not one: the id cannot be determined.
                    Err(_) => return Id::Null,
                }
            }
            if s.eat(b',') {
                continue;
            }
            if s.eat(b'}') {
                break;
            }
            return Id::Null;
        }
    }
    s.ws();
    if s.i != input.len() {
        return Id::Null;
    }
    found.unwrap_or(Id::Null)
}

/// Whether the key `quoted` (with its quotes, as in the input) is `id`, escaped or not.
fn is_id_key(quoted: &[u8]) -> bool {
    quoted == br#""id""#
        || (quoted.contains(&b'\\')
            && structio::from_json::<std::borrow::Cow<'_, str>>(quoted).is_ok_and(|k| k == "id"))
}

/// A cursor over the text of a message, for [`scan_id`].
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    /// Skips JSON whitespace.
    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    /// Consumes `c` if it comes next.
    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// A string, with its quotes (escapes skipped, not decoded); `None` if none comes next or
    /// it does not end.
    fn string(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        if !self.eat(b'"') {
            return None;
        }
        loop {
            match self.b.get(self.i)? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return self.b.get(start..self.i);
                }
                _ => self.i += 1,
            }
        }
    }

    /// Moves past one member value, up to the `,` or `}` that follows it at the object's
    /// level: strings skipped whole, brackets matched (with a stack, not recursion). `false` if
    /// there is no value or its brackets do not match.
    fn value(&mut self) -> bool {
        let start = self.i;
        let mut open: Vec<u8> = Vec::new();
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'"' => {
                    if self.string().is_none() {
                        return false;
                    }
                    continue;
                }
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b'}' | b']' => match open.last() {
                    None => break,
                    Some(&close) if close == c => {
                        open.pop();
                    }
                    Some(_) => return false,
                },
                b',' if open.is_empty() => break,
                _ => {}
            }
            self.i += 1;
        }
        open.is_empty()
            && self.b[start..self.i]
                .iter()
                .any(|b| !b.is_ascii_whitespace())
    }
}
