//! Verbatim JSON fragments: validated on read, written back byte for byte.

use crate::error::{Code, Error, Result};
use crate::reflect::{Reader, Reflect, Str, Writer};

/// A JSON value kept as its text, borrowed from the input: validated when read, written back
/// exactly as it was. In BEVE it is a string holding the JSON text, as Glaze's `raw_json`.
///
/// ```
/// #[derive(structio::Reflect, Default)]
/// struct Envelope<'a> {
///     id: u32,
///     #[structio(rename = "params")]
///     raw: structio::RawJson<'a>,
/// }
/// let text = r#"{"id":7,"params":{"b": [1, 2]}}"#;
/// let e: Envelope = structio::from_json(text).unwrap();
/// assert_eq!(e.raw.get(), r#"{"b": [1, 2]}"#);
/// assert_eq!(structio::to_json(&e), r#"{"id":7,"params":{"b": [1, 2]}}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawJson<'a>(&'a str);

impl<'a> RawJson<'a> {
    /// The JSON text.
    pub fn get(&self) -> &'a str {
        self.0
    }

    /// Wraps JSON text after checking that it is exactly one well-formed JSON value.
    pub fn new(text: &'a str) -> Result<RawJson<'a>> {
        crate::json::validate(text.as_bytes())?;
        Ok(RawJson(text))
    }

    /// Reads the text into a new `T`, as [`crate::from_json`] does: strings without escapes
    /// (`&str`, `Cow<str>`, another `RawJson`) borrow from the same input, so reading the
    /// deferred part of a message copies nothing that `T` does not own. Error offsets count
    /// from the start of this text.
    ///
    /// ```
    /// #[derive(structio::Reflect, Debug, PartialEq)]
    /// struct Call<'a> { name: &'a str, arguments: structio::RawJson<'a> }
    /// let raw = structio::RawJson::new(r#"{"name":"add","arguments":{"left":1}}"#).unwrap();
    /// let call: Call = raw.parse().unwrap();
    /// assert_eq!(call.name, "add");
    /// assert_eq!(call.arguments.get(), r#"{"left":1}"#);
    /// ```
    pub fn parse<T: Reflect<'a>>(&self) -> Result<T> {
        crate::json::from_json(self.0)
    }

    /// An owned copy.
    pub fn to_owned(&self) -> RawJsonBuf {
        RawJsonBuf(self.0.to_string())
    }
}

impl Default for RawJson<'_> {
    /// `null`.
    fn default() -> Self {
        RawJson("null")
    }
}

/// The owned form of [`RawJson`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RawJsonBuf(String);

impl RawJsonBuf {
    /// The JSON text.
    pub fn get(&self) -> &str {
        &self.0
    }

    /// Wraps JSON text after checking that it is exactly one well-formed JSON value.
    pub fn new(text: impl Into<String>) -> Result<RawJsonBuf> {
        let text = text.into();
        crate::json::validate(text.as_bytes())?;
        Ok(RawJsonBuf(text))
    }

    /// Borrows it as a [`RawJson`].
    pub fn as_raw(&self) -> RawJson<'_> {
        RawJson(&self.0)
    }
}

impl Default for RawJsonBuf {
    /// `null`.
    fn default() -> Self {
        RawJsonBuf("null".to_string())
    }
}

impl<'de: 'a, 'a> Reflect<'de> for RawJson<'a> {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.raw_json(self.0)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let mark = r.save();
        match r.read_raw_json()? {
            Str::Borrowed(s) => {
                self.0 = s;
                Ok(())
            }
            Str::Transient(_) => Err(Error::new(
                Code::BorrowedEscape,
                crate::read::offset_at(r, mark),
            )),
        }
    }
    crate::impls::new_from_default!('de);
}

impl<'de> Reflect<'de> for RawJsonBuf {
    #[inline]
    fn write<W: Writer>(&self, w: &mut W) {
        w.raw_json(&self.0)
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        let s = r.read_raw_json()?;
        self.0.clear();
        self.0.push_str(s.as_str());
        Ok(())
    }
    crate::impls::new_from_default!('de);
}
