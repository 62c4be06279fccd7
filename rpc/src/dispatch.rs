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
/// error the specification prescribes, with id null:
///
/// | input | error |
/// |---|---|
/// | not JSON, invalid UTF-8, cut short | `-32700` Parse error, data `{"offset": byte}` |
/// | JSON but not a request object (wrong `jsonrpc`, no `method`, an id that is neither an integer, a string nor null, an integer id outside `i64`) | `-32600` Invalid Request |
/// | `params` neither an object nor an array, or (typed `P`) not of the expected shape | `-32602` Invalid params |
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
            Err(e) => write_error(out, &Id::Null, &classify(e, input)),
        }
    }
    out.len() > start
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
            Err(e) => write_error(out, &Id::Null, &classify(e, raw.get().as_bytes())),
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
/// under `params`, else an invalid request.
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
