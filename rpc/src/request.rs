//! The request envelope: `jsonrpc` checked, `id` and `method` borrowed, `params` deferred.

use std::borrow::Cow;

use structio::{
    Error, FieldName, NextField, PathSegment, RawJson, Reader, Reflect, ValueKind, Writer,
};

use crate::Id;

/// A JSON-RPC 2.0 request or notification.
///
/// Reading checks that `jsonrpc` is `"2.0"` and that `method` is present, borrows `id` and
/// `method` from the input (a string with escapes is unescaped into an owned `Cow`), and leaves
/// `params` as it is: with the default `P = RawJson` it is the validated text of the
/// parameters, read into a type later with [`RawJson::parse`], once the method is known. A
/// typed `P` reads the parameters in the same pass. Members other than the four of the
/// specification are skipped. A compact request with its members in the specification's order
/// (`{"jsonrpc":"2.0","id":..,"method":..,"params":..}`, the layout clients send) is
/// recognised by comparing the text between the values with constants; any other layout is
/// read member by member, with the same result.
///
/// The same type reads and writes BEVE: a service that speaks BEVE between programs sends the
/// same envelope as a BEVE object (with `P = RawJson` the parameters travel as a string holding
/// their JSON text, as Glaze's `raw_json`; a typed `P` travels as BEVE).
///
/// ```
/// use structio_rpc::{Id, Request};
/// let line = r#"{"jsonrpc":"2.0","id":1,"method":"add","params":{"left":2,"right":3}}"#;
/// let req: Request = structio::from_json(line).unwrap();
/// assert_eq!(req.id, Some(Id::Int(1)));
/// assert_eq!(req.method, "add");
/// assert_eq!(req.params.unwrap().get(), r#"{"left":2,"right":3}"#);
///
/// #[derive(structio::Reflect, Debug, PartialEq)]
/// struct Add { left: i32, right: i32 }
/// let typed: Request<Add> = structio::from_json(line).unwrap();
/// assert_eq!(typed.params, Some(Add { left: 2, right: 3 }));
///
/// // Same envelope, BEVE.
/// let bytes = structio::to_beve(&typed);
/// assert_eq!(structio::from_beve::<Request<Add>>(&bytes).unwrap(), typed);
///
/// // A notification has no id.
/// let note: Request = structio::from_json(r#"{"jsonrpc":"2.0","method":"ping"}"#).unwrap();
/// assert!(note.is_notification());
/// assert!(structio::from_json::<Request>(r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Request<'a, P = RawJson<'a>> {
    /// The id the response must carry; `None` for a notification (no response). `Some(Id::Null)`
    /// is a request with a null id, which is answered.
    pub id: Option<Id<'a>>,
    /// The method name.
    pub method: Cow<'a, str>,
    /// The parameters (an object or an array), if any. A `null` is read as `None`.
    pub params: Option<P>,
}

impl<'a, P> Request<'a, P> {
    /// A request with `id` (answered).
    pub fn new(id: Id<'a>, method: impl Into<Cow<'a, str>>, params: Option<P>) -> Self {
        Request {
            id: Some(id),
            method: method.into(),
            params,
        }
    }

    /// A notification (not answered).
    pub fn notification(method: impl Into<Cow<'a, str>>, params: Option<P>) -> Self {
        Request {
            id: None,
            method: method.into(),
            params,
        }
    }

    /// Whether this is a notification (no `id`).
    #[inline]
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }
}

impl<'a> Request<'a, RawJson<'a>> {
    /// The parameters read into `T` (borrowing from the input where `T` borrows); `{}`'s value
    /// when there are none, so that a type whose members may all be left out reads without
    /// parameters. Errors carry offsets within the parameters' text.
    pub fn parse_params<T: Reflect<'a>>(&self) -> structio::Result<T> {
        match &self.params {
            Some(p) => p.parse(),
            None => structio::from_json("{}"),
        }
    }
}

pub(crate) const JSONRPC: FieldName = FieldName::new("jsonrpc");
pub(crate) const ID: FieldName = FieldName::new("id");
const METHOD: FieldName = FieldName::new("method");
const PARAMS: FieldName = FieldName::new("params");

/// The members in the order the specification's examples write them, the order guessed.
const KEYS: [&str; 4] = ["jsonrpc", "id", "method", "params"];

/// Which of [`KEYS`] `key` is (4: another key).
#[inline]
fn key_index(key: &[u8]) -> usize {
    match key {
        b"jsonrpc" => 0,
        b"id" => 1,
        b"method" => 2,
        b"params" => 3,
        _ => 4,
    }
}

/// Reads the value of `jsonrpc`, which must be the string `"2.0"`.
#[inline]
pub(crate) fn read_version<'de, R: Reader<'de>>(r: &mut R) -> structio::Result<()> {
    let at = r.offset();
    if r.peek_kind()? == ValueKind::String && r.read_str()?.as_str() == "2.0" {
        return Ok(());
    }
    Err(Error::custom(r#"jsonrpc must be "2.0""#, at))
}

/// A member the envelope needs and the object left out.
#[cold]
pub(crate) fn missing(name: &'static str, at: usize) -> Error {
    Error::custom(format!("missing member `{name}`"), at)
}

impl<'de: 'a, 'a, P: Reflect<'de>> Reflect<'de> for Request<'a, P> {
    /// The envelope has a canonical layout of its own; it is worth trying first when the
    /// parameters' type has one too (with `RawJson` parameters it is not: the server's
    /// routing reads the envelope its own way).
    const CANONICAL: bool = P::CANONICAL;

    fn write<W: Writer>(&self, w: &mut W) {
        let n = 2 + usize::from(self.id.is_some()) + usize::from(self.params.is_some());
        w.begin_struct(n);
        w.field_key(JSONRPC);
        w.str("2.0");
        if let Some(id) = &self.id {
            w.sep();
            w.field_key(ID);
            id.write(w);
        }
        w.sep();
        w.field_key(METHOD);
        w.str(&self.method);
        if let Some(p) = &self.params {
            w.sep();
            w.field_key(PARAMS);
            p.write(w);
        }
        w.end_object();
    }

    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }

    /// The canonical layout alone, as a nested canonical struct reads it.
    #[inline(always)]
    fn read_new_canonical<R: Reader<'de>>(r: &mut R) -> structio::Result<Option<Self>> {
        if R::CANONICAL {
            return canonical(
                r,
                #[inline(always)]
                |r| crate::id::read_id_inline(r),
            );
        }
        Self::read_new(r).map(Some)
    }

    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        // The id read by a call here: this attempt is the ordinary reader's (spaced input
        // fails it at once), where a larger inlined body made the ordinary read slower.
        if let Some(req) = structio::read::try_canonical(r, |r| canonical(r, Id::read_new)) {
            return Ok(req);
        }
        read_members(r)
    }
}

/// Reads a request member by member, in any order: the layouts the canonical comparison does
/// not recognise.
#[inline(never)]
fn read_members<'de: 'a, 'a, R: Reader<'de>, P: Reflect<'de>>(
    r: &mut R,
) -> structio::Result<Request<'a, P>> {
    let start = r.offset();
    let mut map = r.begin_object()?;
    let mut version = false;
    let mut id = None;
    let mut method = None;
    let mut params = None;
    let mut expect = 0;
    loop {
        let k = {
            let next = match KEYS.get(expect) {
                Some(guess) => r.next_field_guess(&mut map, guess, true)?,
                None => r.next_field(&mut map)?.map(NextField::Other),
            };
            match next {
                None => break,
                Some(NextField::Guessed) => expect,
                Some(NextField::Other(key)) => key_index(key),
            }
        };
        match k {
            0 => {
                read_version(r).map_err(|e| e.push_path(PathSegment::Field("jsonrpc")))?;
                version = true;
            }
            1 => id = Some(Id::read_new(r).map_err(|e| e.push_path(PathSegment::Field("id")))?),
            2 => {
                let at = r.offset();
                if r.peek_kind()? != ValueKind::String {
                    return Err(Error::custom("method must be a string", at)
                        .push_path(PathSegment::Field("method")));
                }
                method = Some(r.read_str()?.into_cow());
            }
            3 => params = read_params(r).map_err(|e| e.push_path(PathSegment::Field("params")))?,
            _ => {
                r.skip_value()?;
                continue;
            }
        }
        expect = k + 1;
    }
    if !version {
        return Err(missing("jsonrpc", start));
    }
    let Some(method) = method else {
        return Err(missing("method", start));
    };
    Ok(Request { id, method, params })
}

/// The canonical layout of a request, recognised by constant comparisons around the values:
/// `{"jsonrpc":"2.0"`, then `,"id":` and the id if there is one, `,"method":` and the method,
/// `,"params":` and the parameters if there are any, and `}`, compact, in that order (the
/// specification's own). `None` on the first difference (whitespace, another order, another
/// member, an escaped key): the caller then reads the request the ordinary way, which gives
/// the same value or the error. `read_id` reads the id.
#[inline(always)]
fn canonical<'de: 'a, 'a, R: Reader<'de>, P: Reflect<'de>>(
    r: &mut R,
    read_id: impl FnOnce(&mut R) -> structio::Result<Id<'a>>,
) -> structio::Result<Option<Request<'a, P>>> {
    let mut map = r.begin_object()?;
    if !r.take_exact(br#""jsonrpc":"2.0""#) {
        return Ok(None);
    }
    let id = if r.take_exact(br#","id":"#) {
        Some(read_id(r)?)
    } else {
        None
    };
    if !r.take_exact(br#","method":"#) {
        return Ok(None);
    }
    let method = r.read_str()?.into_cow();
    let params = if r.take_exact(br#","params":"#) {
        match r.peek_kind()? {
            // Structured parameters in the layout of `P` (a difference ends the attempt).
            ValueKind::Object | ValueKind::Array => match P::read_new_canonical(r)? {
                Some(p) => Some(p),
                None => return Ok(None),
            },
            ValueKind::Null => {
                r.take_null()?;
                None
            }
            // Not parameters: the ordinary read reports it. (Nothing here reads `P` the
            // ordinary way, whose call would take the reader's address and keep the reader in
            // memory for the whole inlined fast path.)
            _ => return Ok(None),
        }
    } else {
        None
    };
    if r.next_field(&mut map)?.is_some() {
        return Ok(None);
    }
    Ok(Some(Request { id, method, params }))
}

/// Reads `params`: an object or an array (read into `P`), or `null` (`None`).
#[inline(always)]
fn read_params<'de, R: Reader<'de>, P: Reflect<'de>>(r: &mut R) -> structio::Result<Option<P>> {
    match r.peek_kind()? {
        ValueKind::Null => {
            r.take_null()?;
            Ok(None)
        }
        // BEVE carries `RawJson` parameters as a string holding their text.
        ValueKind::Bool | ValueKind::Number(_) => Err(not_structured(r)),
        ValueKind::String if r.is_human_readable() => Err(not_structured(r)),
        _ => P::read_new(r).map(Some),
    }
}

/// `params` holding a string, a number or a boolean.
#[cold]
#[inline(never)]
fn not_structured<'de, R: Reader<'de>>(r: &mut R) -> Error {
    Error::custom("params must be an object or an array", r.offset())
}
