//! The `id` of a request: an integer, a string or null.

use std::borrow::Cow;
use std::fmt;

use structio::read::offset_at;
use structio::{Error, Reader, Reflect, ValueKind, Wire, Writer};

/// The `id` of a JSON-RPC request, echoed in its response: an integer, a string (borrowed from
/// the input when it has no escapes) or null.
///
/// JSON-RPC 2.0 also allows numbers with a fraction, but says they SHOULD NOT be used, and
/// MCP allows only strings and integers; a number written with a fraction or an exponent
/// (`1.5`, and also `1.0`, `1e2` or `-0.0`, whose response could not carry the same text), or
/// an integer outside `i64`, is an invalid request here (`-32600`). `-0` is the integer 0 (the
/// same JSON number), answered as `0`.
///
/// ```
/// use structio_rpc::Id;
/// assert_eq!(structio::from_json::<Id>("7").unwrap(), Id::Int(7));
/// assert_eq!(structio::from_json::<Id>(r#""a-1""#).unwrap(), Id::from("a-1"));
/// assert_eq!(structio::to_json(&Id::Null), "null");
/// assert_eq!(structio::from_json::<Id>("-0").unwrap(), Id::Int(0));
/// assert!(structio::from_json::<Id>("1.5").is_err());
/// assert!(structio::from_json::<Id>("1.0").is_err());
/// assert!(structio::from_json::<Id>("18446744073709551616").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Id<'a> {
    /// `null` (a request whose id could not be read is answered with this one).
    #[default]
    Null,
    /// An integer.
    Int(i64),
    /// A string.
    Str(Cow<'a, str>),
}

impl Id<'_> {
    /// The same id owning its text.
    pub fn into_owned(self) -> Id<'static> {
        match self {
            Id::Null => Id::Null,
            Id::Int(n) => Id::Int(n),
            Id::Str(s) => Id::Str(Cow::Owned(s.into_owned())),
        }
    }

    /// The id borrowed from this one (no copy of a string).
    pub fn borrowed(&self) -> Id<'_> {
        match self {
            Id::Null => Id::Null,
            Id::Int(n) => Id::Int(*n),
            Id::Str(s) => Id::Str(Cow::Borrowed(s)),
        }
    }
}

impl<'a> From<&'a str> for Id<'a> {
    fn from(s: &'a str) -> Id<'a> {
        Id::Str(Cow::Borrowed(s))
    }
}

impl From<String> for Id<'static> {
    fn from(s: String) -> Id<'static> {
        Id::Str(Cow::Owned(s))
    }
}

impl From<i64> for Id<'static> {
    fn from(n: i64) -> Id<'static> {
        Id::Int(n)
    }
}

impl fmt::Display for Id<'_> {
    /// The id as JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&structio::to_json(self))
    }
}

/// The message of an id that is neither an integer, a string nor null.
const BAD_ID: &str = "id must be an integer, a string or null";

/// The body that reads an id (a number, a string or `null`) from the reader `$r`: in
/// `Reflect::read_new`, and in `read_id_inline`, always inlined, for the canonical layout of a
/// request (there it saves 26 of 584 instructions of a typed `tools/call`; in the ordinary
/// read a larger inlined body made the spaced message slower).
macro_rules! id_body {
    ($r:ident) => {{
        let r = $r;
        // Only errors need the offset: the common path saves the position instead.
        let mark = r.save();
        match r.peek_kind()? {
            ValueKind::String => Ok(Id::Str(r.read_str()?.into_cow())),
            ValueKind::Number(_) => match r.read_wire_number() {
                Ok(Wire::Int(n)) => match i64::try_from(n) {
                    Ok(n) => Ok(Id::Int(n)),
                    Err(_) => Err(out_of_range(offset_at(r, mark))),
                },
                Ok(Wire::Uint(n)) => match i64::try_from(n) {
                    Ok(n) => Ok(Id::Int(n)),
                    Err(_) => Err(out_of_range(offset_at(r, mark))),
                },
                // `-0`, an integer beyond 128 bits, a fraction, an exponent, or a number the
                // reader refused (`1e400`): told apart by the text, off the common path.
                Ok(Wire::F32(_) | Wire::F64(_)) => not_an_int64(r, mark, None),
                Err(e) => not_an_int64(r, mark, Some(e)),
            },
            ValueKind::Null => {
                r.take_null()?;
                Ok(Id::Null)
            }
            _ => Err(Error::custom(BAD_ID, offset_at(r, mark))),
        }
    }};
}

impl<'de: 'a, 'a> Reflect<'de> for Id<'a> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        match self {
            Id::Null => w.null(),
            Id::Int(n) => w.number(*n),
            Id::Str(s) => w.str(s),
        }
    }

    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }

    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        id_body!(r)
    }

    /// Read inline with the rest of a canonical request.
    #[inline(always)]
    fn read_new_canonical<R: Reader<'de>>(r: &mut R) -> structio::Result<Option<Self>> {
        read_id_inline(r).map(Some)
    }

    #[inline]
    fn default_value() -> Option<Self> {
        Some(Id::Null)
    }
}

/// Reads an id, always inlined: the canonical layout of a request.
#[inline(always)]
pub(crate) fn read_id_inline<'de: 'a, 'a, R: Reader<'de>>(r: &mut R) -> structio::Result<Id<'a>> {
    id_body!(r)
}

/// An integer id outside `i64`.
#[cold]
fn out_of_range(at: usize) -> Error {
    Error::custom(
        "id out of range (an integer id must be between -9223372036854775808 and \
         9223372036854775807)",
        at,
    )
}

/// An id number that did not read as a 128-bit integer (the reader at `mark`, before it): in
/// JSON its text decides. `-0` is the integer 0 (JSON's `-0` and `0` are the same number, and
/// no other integer is written with a minus sign and no digit other than 0); digits alone are
/// an integer out of range; anything else has a fraction or an exponent (`1.0`, `1e2`,
/// `-0.0`, `1e400`: refused, even when integral, since the response could not echo the same
/// text). In BEVE, a floating-point number. `error`: the reader's, if it refused the number;
/// kept when the text does not read either (malformed JSON).
#[cold]
#[inline(never)]
fn not_an_int64<'de, 'a, R: Reader<'de>>(
    r: &mut R,
    mark: R::Pos,
    error: Option<Error>,
) -> structio::Result<Id<'a>> {
    let at = offset_at(r, mark);
    if !r.is_human_readable() {
        return Err(error.unwrap_or_else(|| {
            Error::custom(
                "id must be an integer or a string, not a floating-point number",
                at,
            )
        }));
    }
    r.restore(mark);
    let text = match (r.read_raw_json(), error) {
        (Ok(text), _) => text,
        (Err(_), Some(e)) => return Err(e),
        (Err(e), None) => return Err(e),
    };
    let text = text.as_str().as_bytes();
    if text == b"-0" {
        return Ok(Id::Int(0));
    }
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        return Err(out_of_range(at));
    }
    Err(Error::custom(
        "id must be an integer or a string, not a number with a fraction or exponent",
        at,
    ))
}
