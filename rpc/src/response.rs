//! Responses: the result or the error for an id, the standard error codes, and writers that put
//! a response straight into a reused buffer.

use std::borrow::Cow;

use structio::{Error, FieldName, PathSegment, RawJson, Reader, Reflect, Writer};

use crate::request::{missing, read_version, ID, JSONRPC};
use crate::Id;

/// The error codes JSON-RPC 2.0 defines.
pub mod code {
    /// Invalid JSON was received (the error's data holds the byte offset).
    pub const PARSE_ERROR: i32 = -32700;
    /// The JSON sent is not a valid request object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i32 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i32 = -32603;
}

/// The `error` member of a response: a code, a message and optional data.
///
/// ```
/// use structio_rpc::{code, ErrorObject};
/// let e: ErrorObject = structio::from_json(r#"{"code":-32601,"message":"Method not found"}"#).unwrap();
/// assert_eq!(e.code, code::METHOD_NOT_FOUND);
/// assert!(e.data.is_none());
/// ```
#[derive(structio::Reflect, Debug, Clone, PartialEq)]
pub struct ErrorObject<'a, D = RawJson<'a>> {
    /// The error code (see [`code`]).
    pub code: i32,
    /// A short description.
    pub message: Cow<'a, str>,
    /// More about the error, if any.
    pub data: Option<D>,
}

impl<'a, D> ErrorObject<'a, D> {
    /// An error with `code` and `message`, without data.
    pub fn new(code: i32, message: impl Into<Cow<'a, str>>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The same error with `data`.
    pub fn with_data(mut self, data: D) -> Self {
        self.data = Some(data);
        self
    }
}

/// A JSON-RPC 2.0 response: the id of the request it answers and its result or error.
///
/// ```
/// use structio_rpc::{Id, Response};
/// let ok: Response<u32> = structio::from_json(r#"{"jsonrpc":"2.0","id":1,"result":5}"#).unwrap();
/// assert_eq!(ok.id, Id::Int(1));
/// assert_eq!(ok.outcome, Ok(5));
/// let err: Response = structio::from_json(
///     r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
/// ).unwrap();
/// assert_eq!(err.outcome.unwrap_err().code, -32700);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Response<'a, R = RawJson<'a>, D = RawJson<'a>> {
    /// The id of the request answered (null when it could not be read).
    pub id: Id<'a>,
    /// The result, or the error.
    pub outcome: Result<R, ErrorObject<'a, D>>,
}

const RESULT: FieldName = FieldName::new("result");
const ERROR: FieldName = FieldName::new("error");

impl<'de: 'a, 'a, R: Reflect<'de>, D: Reflect<'de>> Reflect<'de> for Response<'a, R, D> {
    fn write<W: Writer>(&self, w: &mut W) {
        match &self.outcome {
            Ok(result) => write_message(w, &self.id, RESULT, result),
            Err(error) => write_message(w, &self.id, ERROR, error),
        }
    }

    #[inline]
    fn read<Rd: Reader<'de>>(&mut self, r: &mut Rd) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }

    fn read_new<Rd: Reader<'de>>(r: &mut Rd) -> structio::Result<Self> {
        let start = r.offset();
        let mut map = r.begin_object()?;
        let mut version = false;
        let mut id = None;
        let mut outcome = None;
        loop {
            let k = match r.next_field(&mut map)? {
                None => break,
                Some(b"jsonrpc") => 0,
                Some(b"id") => 1,
                Some(b"result") => 2,
                Some(b"error") => 3,
                Some(_) => 4,
            };
            match k {
                0 => {
                    read_version(r).map_err(|e| e.push_path(PathSegment::Field("jsonrpc")))?;
                    version = true;
                }
                1 => id = Some(Id::read_new(r).map_err(|e| e.push_path(PathSegment::Field("id")))?),
                2 => {
                    let v =
                        R::read_new(r).map_err(|e| e.push_path(PathSegment::Field("result")))?;
                    outcome = Some(Ok(v));
                }
                3 => {
                    let v = ErrorObject::read_new(r)
                        .map_err(|e| e.push_path(PathSegment::Field("error")))?;
                    outcome = Some(Err(v));
                }
                _ => r.skip_value()?,
            }
        }
        if !version {
            return Err(missing("jsonrpc", start));
        }
        let id = id.ok_or_else(|| missing("id", start))?;
        let outcome = outcome.ok_or_else(|| missing("result` or `error", start))?;
        Ok(Response { id, outcome })
    }
}

/// `{"jsonrpc":"2.0","id":..,"<key>":<value>}` in any format.
#[inline]
fn write_message<'de, W: Writer, V: Reflect<'de>>(
    w: &mut W,
    id: &Id<'_>,
    key: FieldName,
    value: &V,
) {
    w.begin_struct(3);
    w.field_key(JSONRPC);
    w.str("2.0");
    w.sep();
    w.field_key(ID);
    id.write(w);
    w.sep();
    w.field_key(key);
    value.write(w);
    w.end_object();
}

/// A response being written: the id and a reference to the result or the error (write only).
struct Out<'r, V> {
    id: &'r Id<'r>,
    key: FieldName,
    value: &'r V,
}

impl<'de, V: Reflect<'de>> Reflect<'de> for Out<'_, V> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        write_message(w, self.id, self.key, self.value)
    }
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        Err(Error::custom(
            "a response being written is not read",
            r.offset(),
        ))
    }
    fn read_new<R: Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        Err(Error::custom(
            "a response being written is not read",
            r.offset(),
        ))
    }
}

/// Appends the JSON response carrying `result` for `id` to `out` (no line break):
/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`.
///
/// ```
/// let mut out = Vec::new();
/// structio_rpc::write_result(&mut out, &structio_rpc::Id::Int(3), &[1, 2]);
/// assert_eq!(out, br#"{"jsonrpc":"2.0","id":3,"result":[1,2]}"#);
/// ```
#[inline]
pub fn write_result<'de, R: Reflect<'de>>(out: &mut Vec<u8>, id: &Id<'_>, result: &R) {
    let id = id.borrowed();
    structio::write_json(
        &Out {
            id: &id,
            key: RESULT,
            value: result,
        },
        out,
    );
}

/// Appends the JSON response carrying `error` for `id` to `out` (no line break).
///
/// ```
/// use structio_rpc::{code, write_error, ErrorObject, Id};
/// let mut out = Vec::new();
/// let e: ErrorObject = ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found");
/// write_error(&mut out, &Id::from("a"), &e);
/// assert_eq!(
///     out,
///     br#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found"}}"#
/// );
/// ```
#[inline]
pub fn write_error<'de, D: Reflect<'de>>(
    out: &mut Vec<u8>,
    id: &Id<'_>,
    error: &ErrorObject<'_, D>,
) {
    let id = id.borrowed();
    structio::write_json(
        &Out {
            id: &id,
            key: ERROR,
            value: error,
        },
        out,
    );
}

/// Appends the JSON response for `id` whose result is the JSON text `result` (written as it is,
/// not checked) to `out`. Always inlined: the MCP server's routing pass answers `ping` and
/// `tools/list` with it, where a call costs a few percent of the message.
#[inline(always)]
pub(crate) fn write_raw_result(out: &mut Vec<u8>, id: &Id<'_>, result: &[u8]) {
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    structio::write_json(id, out);
    out.extend_from_slice(br#","result":"#);
    out.extend_from_slice(result);
    out.push(b'}');
}

/// The same writers for BEVE: a response as a BEVE object with the same members.
pub mod beve {
    use super::{Out, ERROR, RESULT};
    use crate::{ErrorObject, Id};
    use structio::Reflect;

    /// Appends the BEVE response carrying `result` for `id` to `out`.
    ///
    /// ```
    /// use structio_rpc::{Id, Response};
    /// let mut out = Vec::new();
    /// structio_rpc::beve::write_result(&mut out, &Id::Int(3), &"done");
    /// let back: Response<&str> = structio::from_beve(&out).unwrap();
    /// assert_eq!(back.outcome, Ok("done"));
    /// ```
    #[inline]
    pub fn write_result<'de, R: Reflect<'de>>(out: &mut Vec<u8>, id: &Id<'_>, result: &R) {
        let id = id.borrowed();
        structio::write_beve(
            &Out {
                id: &id,
                key: RESULT,
                value: result,
            },
            out,
        );
    }

    /// Appends the BEVE response carrying `error` for `id` to `out`.
    #[inline]
    pub fn write_error<'de, D: Reflect<'de>>(
        out: &mut Vec<u8>,
        id: &Id<'_>,
        error: &ErrorObject<'_, D>,
    ) {
        let id = id.borrowed();
        structio::write_beve(
            &Out {
                id: &id,
                key: ERROR,
                value: error,
            },
            out,
        );
    }
}
