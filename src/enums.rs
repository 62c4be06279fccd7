//! The four representations of an enum with data, for derived code: externally tagged
//! (`{"name": payload}` or `"name"`), internally tagged (the tag among the variant's members),
//! adjacently tagged (`{tag: name, content: payload}`) and untagged (the first variant that
//! reads the value, tried only among those whose payload can have the value's shape), with the
//! variant key tables, the variant a map key names (unit-only enums) and the errors they report.

use crate::error::{Category, Code, Error, PathSegment, Result};
use crate::number::Wire;
use crate::reflect::{EnumInfo, FieldsInfo, Key, Reader, UnknownKeys, ValueKind};
use crate::report::Step;
use structio_keys::shape;

/// "unknown variant `name`" at `offset`.
#[cold]
pub fn unknown_variant(name: &str, offset: usize) -> Error {
    Error::new(Code::UnknownVariant(name.to_string()), offset)
}

/// Whether `e` is "unknown variant": an enum with a `#[structio(other)]` variant reads such a
/// name as that variant.
#[inline]
pub fn is_unknown_variant(e: &Error) -> bool {
    matches!(e.code(), Code::UnknownVariant(_))
}

/// "no variant matches the value" at `offset`.
#[cold]
pub fn no_matching_variant(offset: usize) -> Error {
    Error::new(Code::NoMatchingVariant, offset)
}

/// "missing key `name`" at `offset` (an internally or adjacently tagged enum without its tag).
#[cold]
fn missing_key(name: &str, offset: usize) -> Error {
    Error::new(Code::MissingKey(name.to_string()), offset)
}

/// "unknown key `name`" at `offset`.
#[cold]
fn unknown_key(name: &str, offset: usize) -> Error {
    Error::new(Code::UnknownKey(name.to_string()), offset)
}

/// "duplicate key `name`" at `offset` (a second tag in a tagged enum).
#[cold]
fn duplicate_key(name: &str, offset: usize) -> Error {
    Error::new(Code::DuplicateKey(name.to_string()), offset)
}

/// Variant names of an enum with data (a key table: names, then aliases), and which variants
/// are unit variants.
#[derive(Debug)]
pub struct VariantsInfo {
    /// Variant names as written, aliases and the probe over them.
    pub keys: FieldsInfo,
    /// For each variant, whether it is a unit variant.
    pub unit: &'static [bool],
}

impl VariantsInfo {
    /// The variant a name (or alias) selects.
    #[inline]
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        let k = self.keys.probe.find(self.keys.keys, name)?;
        Some(self.keys.key_field[k] as usize)
    }
}

/// Reads a variant name (a string) and looks it up; an unknown one is variant `other` when
/// given (the enum's `#[structio(other)]` variant).
#[inline]
fn read_variant_name<'de, R: Reader<'de>>(
    r: &mut R,
    info: &VariantsInfo,
    other: Option<usize>,
) -> Result<usize> {
    let at = r.offset();
    let s = r.read_str()?;
    match (info.find(s.as_str().as_bytes()), other) {
        (Some(i), _) => Ok(i),
        (None, Some(o)) => Ok(o),
        (None, None) => Err(unknown_variant(s.as_str(), at)),
    }
}

/// Consumes a null (the payload of a unit variant given in object form).
#[inline]
pub fn read_null<'de, R: Reader<'de>>(r: &mut R) -> Result<()> {
    if r.take_null()? {
        Ok(())
    } else {
        Err(r.invalid_type("null"))
    }
}

/// The variant index of a map key for a unit-only enum: a name (text formats, string keys) or a
/// discriminant (BEVE integer keys).
pub fn variant_from_key(info: &EnumInfo, key: Key<'_, '_>, offset: usize) -> Result<usize> {
    match key {
        Key::Str(s) => info
            .by_name(s.as_str().as_bytes())
            .ok_or_else(|| unknown_variant(s.as_str(), offset)),
        Key::Int(wire) => variant_of_wire(info, wire, offset),
    }
}

/// The discriminant a wire integer stands for in `info` (as the derive stores them: `as
/// i128`, so that a `u128` one past `i128::MAX` wraps); `None` for a float or an integer no
/// discriminant of the `repr` type can be.
#[inline]
pub(crate) fn discriminant_of(info: &EnumInfo, w: Wire) -> Option<i128> {
    let unsigned_128 = info.repr == crate::number::NumKind::U128;
    match w {
        Wire::Int(v) if unsigned_128 && v < 0 => None,
        Wire::Int(v) => Some(v),
        Wire::Uint(v) if unsigned_128 => Some(v as i128),
        Wire::Uint(v) => i128::try_from(v).ok(),
        Wire::F32(_) | Wire::F64(_) => None,
    }
}

/// The variant whose discriminant is the integer `w`, or "unknown variant" quoting it.
#[inline]
fn variant_of_wire(info: &EnumInfo, w: Wire, offset: usize) -> Result<usize> {
    discriminant_of(info, w)
        .and_then(|v| info.by_discriminant(v))
        .ok_or_else(|| unknown_variant(&wire_text(w), offset))
}

/// Reads a unit-only enum marked `#[structio(as_integer)]`: its discriminant, an integer in
/// both formats (any integer width in BEVE). A string (a variant name) or a number with a
/// fraction is "expected an integer for `Type`"; an integer no variant has is "unknown variant"
/// (which an `other` variant takes).
pub fn read_enum_integer<'de, R: Reader<'de>>(r: &mut R, info: &EnumInfo) -> Result<usize> {
    let at = r.offset();
    if r.peek_kind()? == ValueKind::String {
        return Err(Error::new(Code::ExpectedInteger(info.name), at));
    }
    match r.read_wire_number()? {
        w @ (Wire::Int(_) | Wire::Uint(_)) => variant_of_wire(info, w, at),
        // An integer spelled with a fraction or an exponent (`1.0`, `3e0`), as integers are
        // read by value; exactly only while an f64 holds every integer.
        Wire::F64(x) if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0 => {
            variant_of_wire(info, Wire::Int(x as i128), at)
        }
        Wire::F32(_) | Wire::F64(_) => Err(Error::new(Code::ExpectedInteger(info.name), at)),
    }
}

/// The variant index of a map key for a unit-only enum marked `#[structio(as_integer)]`: its
/// discriminant, a BEVE integer key or the canonical decimal text of one (`"3"`, as integer
/// keys are read).
pub fn variant_from_int_key(info: &EnumInfo, key: Key<'_, '_>, offset: usize) -> Result<usize> {
    let wire = match key {
        Key::Int(w) => w,
        Key::Str(s) if s.as_str().starts_with('-') => Wire::Int(
            crate::impls::primitive::int_key_text::<i128>(s.as_str(), offset)?,
        ),
        Key::Str(s) => Wire::Uint(crate::impls::primitive::int_key_text::<u128>(
            s.as_str(),
            offset,
        )?),
    };
    variant_of_wire(info, wire, offset)
}

/// A wire number as text, for messages.
#[cold]
fn wire_text(w: Wire) -> String {
    match w {
        Wire::Int(v) => v.to_string(),
        Wire::Uint(v) => v.to_string(),
        Wire::F32(v) => v.to_string(),
        Wire::F64(v) => v.to_string(),
    }
}

/// Runs `read` (reading the payload under member `name`) with a collecting reader's path in
/// `name`, so that what the payload's walk records in place (a broken constraint, a member of
/// the wrong type) is named by it, as an error `read` returns is. Other readers just run it.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn within<'de, R: Reader<'de>, T>(
    r: &mut R,
    name: &'static str,
    read: impl FnOnce(&mut R) -> Result<T>,
) -> Result<T> {
    if !R::COLLECTS {
        return read(r);
    }
    if let Some(c) = r.collector() {
        c.enter(Step::Field(name));
    }
    let res = read(r);
    if let Some(c) = r.collector() {
        c.leave();
    }
    res
}

/// Reads an externally tagged enum: a string naming a unit variant, or an object with exactly
/// one key naming the variant and holding its payload. `payload(i, r, present)` reads the
/// payload of variant `i` (`present` is false for the bare-string form of a unit variant).
#[inline]
pub fn read_external<'de, R, F>(r: &mut R, info: &VariantsInfo, payload: F) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, bool) -> Result<()>,
{
    crate::read::with_stack!(read_external(r, info, payload));
    let at = r.offset();
    match r.peek_kind()? {
        ValueKind::String => {
            let i = read_variant_name(r, info, None)?;
            if !info.unit[i] {
                return Err(variant_needs_payload(info.keys.names[i], at));
            }
            payload(i, r, false)
        }
        ValueKind::Object => {
            let mut map = r.begin_object()?;
            let key_at = r.offset();
            let i = match r.next_field(&mut map)? {
                None => return Err(Error::new(Code::Custom(ONE_KEY.to_string()), key_at)),
                Some(k) => match info.find(k) {
                    Some(i) => i,
                    None => return Err(unknown_variant(&String::from_utf8_lossy(k), key_at)),
                },
            };
            let name = info.keys.names[i];
            within(r, name, |r| payload(i, r, true))
                .map_err(|e| e.push_path(PathSegment::Field(name)))?;
            let extra_at = r.offset();
            match r.next_field(&mut map)? {
                None => Ok(()),
                Some(k) => Err(Error::new(
                    Code::Custom(format!(
                        "{ONE_KEY}, found a second key {}",
                        crate::error::quoted_string(&String::from_utf8_lossy(k))
                    )),
                    extra_at,
                )),
            }
        }
        _ => Err(r.invalid_type("a string or an object")),
    }
}

const ONE_KEY: &str = "expected an object with exactly one key naming the variant";

#[cold]
fn variant_needs_payload(name: &str, offset: usize) -> Error {
    Error::new(
        Code::Custom(format!("variant `{name}` holds data: expected an object")),
        offset,
    )
}

/// Reads an internally tagged enum: an object holding the tag (best first) and the variant's
/// members. When the tag is not the first key the object is scanned for it and then read from
/// its start again. `body(i, r, map, start)` reads the members of variant `i` (passing the tag
/// over); `start` is where the object starts, where the container rules of a newtype
/// variant's payload report (see [`crate::__private::read_members_in`]).
#[inline]
pub fn read_internal<'de, R, F>(r: &mut R, info: &VariantsInfo, tag: &str, body: F) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, &mut R::Map, R::Pos) -> Result<()>,
{
    internal(r, info, tag, None, body)
}

/// [`read_internal`] for an enum whose variant `other` (a unit variant marked
/// `#[structio(other)]`) is read for a tag naming no variant.
#[inline]
pub fn read_internal_or<'de, R, F>(
    r: &mut R,
    info: &VariantsInfo,
    tag: &str,
    other: usize,
    body: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, &mut R::Map, R::Pos) -> Result<()>,
{
    internal(r, info, tag, Some(other), body)
}

/// [`read_internal`], an unknown tag being variant `other` when given.
#[inline]
fn internal<'de, R, F>(
    r: &mut R,
    info: &VariantsInfo,
    tag: &str,
    other: Option<usize>,
    body: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, &mut R::Map, R::Pos) -> Result<()>,
{
    crate::read::with_stack!(internal(r, info, tag, other, body));
    if r.options().error_on_duplicate_keys {
        one_tag(r, tag)?;
    }
    let start = r.save();
    let mut map = r.begin_object()?;
    let first_is_tag = match r.next_field(&mut map)? {
        None => return Err(missing_key(tag, r.offset())),
        Some(k) => k == tag.as_bytes(),
    };
    if first_is_tag {
        let i = read_variant_name(r, info, other)?;
        return body(i, r, &mut map, start);
    }
    r.skip_value()?;
    let i = loop {
        let is_tag = match r.next_field(&mut map)? {
            None => return Err(missing_key(tag, r.offset())),
            Some(k) => k == tag.as_bytes(),
        };
        if is_tag {
            break read_variant_name(r, info, other)?;
        }
        r.skip_value()?;
    };
    r.restore(start);
    let mut map = r.begin_object()?;
    body(i, r, &mut map, start)
}

/// Under `error_on_duplicate_keys`: checks in a first pass that the object at the reader holds
/// the tag at most once (the member walk passes every tag over), and goes back to its start.
#[cold]
fn one_tag<'de, R: Reader<'de>>(r: &mut R, tag: &str) -> Result<()> {
    let start = r.save();
    let mut map = r.begin_object()?;
    let mut seen = false;
    loop {
        let key_at = r.offset();
        let is_tag = match r.next_field(&mut map)? {
            None => break,
            Some(k) => k == tag.as_bytes(),
        };
        if is_tag && seen {
            return Err(duplicate_key(tag, key_at));
        }
        seen |= is_tag;
        r.skip_value()?;
    }
    r.restore(start);
    Ok(())
}

/// Reads an adjacently tagged enum `{tag: name, content: payload}` with the two keys in either
/// order (content first costs a skip and a second visit). `payload(i, r, present)` reads the
/// payload of variant `i`; `present` is false when a unit variant comes without content.
#[inline]
pub fn read_adjacent<'de, R, F>(
    r: &mut R,
    info: &VariantsInfo,
    tag: &str,
    content: &'static str,
    payload: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, bool) -> Result<()>,
{
    adjacent(r, info, tag, content, None, payload)
}

/// [`read_adjacent`] for an enum whose variant `other` (a unit variant marked
/// `#[structio(other)]`) is read for a tag naming no variant.
#[inline]
pub fn read_adjacent_or<'de, R, F>(
    r: &mut R,
    info: &VariantsInfo,
    tag: &str,
    content: &'static str,
    other: usize,
    payload: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, bool) -> Result<()>,
{
    adjacent(r, info, tag, content, Some(other), payload)
}

/// [`read_adjacent`], an unknown tag being variant `other` when given.
fn adjacent<'de, R, F>(
    r: &mut R,
    info: &VariantsInfo,
    tag: &str,
    content: &'static str,
    other: Option<usize>,
    payload: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, bool) -> Result<()>,
{
    crate::read::with_stack!(adjacent(r, info, tag, content, other, payload));
    enum Member {
        Tag,
        Content,
        Other(Option<String>),
    }
    let skip_unknown = r.options().unknown_keys == UnknownKeys::Skip;
    let mut payload = Some(payload);
    let mut variant = None;
    let mut content_at = None;
    let mut map = r.begin_object()?;
    loop {
        let key_at = r.offset();
        let member = match r.next_field(&mut map)? {
            None => break,
            Some(k) if k == tag.as_bytes() => Member::Tag,
            Some(k) if k == content.as_bytes() => Member::Content,
            Some(_) if skip_unknown => Member::Other(None),
            Some(k) => Member::Other(Some(String::from_utf8_lossy(k).into_owned())),
        };
        match member {
            Member::Tag if variant.is_some() => return Err(duplicate_key(tag, key_at)),
            Member::Tag => variant = Some(read_variant_name(r, info, other)?),
            // A content seen before the tag (`content_at`) is read at the end; another one is
            // a duplicate whether or not the tag came in between.
            Member::Content => match (variant, payload.take()) {
                (Some(i), Some(f)) if content_at.is_none() => within(r, content, |r| f(i, r, true))
                    .map_err(|e| e.push_path(PathSegment::Field(content)))?,
                (None, Some(f)) if content_at.is_none() => {
                    payload = Some(f);
                    content_at = Some(r.save());
                    r.skip_value()?;
                }
                _ => return Err(duplicate_key(content, key_at)),
            },
            Member::Other(None) => r.skip_value()?,
            Member::Other(Some(k)) => return Err(unknown_key(&k, key_at)),
        }
    }
    let Some(i) = variant else {
        return Err(missing_key(tag, r.offset()));
    };
    let Some(f) = payload else {
        return Ok(());
    };
    match content_at {
        Some(pos) => {
            let end = r.save();
            r.restore(pos);
            within(r, content, |r| f(i, r, true))
                .map_err(|e| e.push_path(PathSegment::Field(content)))?;
            r.restore(end);
            Ok(())
        }
        None if info.unit[i] => f(i, r, false),
        None => Err(missing_key(content, r.offset())),
    }
}

/// The shape bit of a value kind.
#[inline]
fn shape_of(kind: ValueKind) -> u8 {
    match kind {
        ValueKind::Null => shape::NULL,
        ValueKind::Bool => shape::BOOL,
        ValueKind::Number(_) => shape::NUMBER,
        ValueKind::String => shape::STRING,
        ValueKind::Array
        | ValueKind::TypedArray(_)
        | ValueKind::BoolArray
        | ValueKind::StrArray => shape::ARRAY,
        ValueKind::Object | ValueKind::IntKeyObject(_) => shape::OBJECT,
        ValueKind::Extension(_) => shape::EXTENSION,
    }
}

/// Reads an untagged enum: tries the variants whose payload can have the shape of the next
/// value, in declaration order, going back to the start after each failed attempt; the first
/// that reads wins. Errors that are not about the data (syntax, end of input, limits) end the
/// search at once, since no other variant could do better.
#[inline]
pub fn read_untagged<'de, R, F>(r: &mut R, shapes: &[u8], mut attempt: F) -> Result<()>
where
    R: Reader<'de>,
    F: FnMut(usize, &mut R) -> Result<()>,
{
    crate::read::with_stack!(read_untagged(r, shapes, attempt));
    if R::COLLECTS && r.collector().is_some_and(|c| c.active()) {
        // The variants are tried as a trusted read tries them: a problem found in one that
        // does not fit is no problem of the document.
        return crate::report::suspended(r, |r| read_untagged(r, shapes, attempt));
    }
    let at = r.offset();
    let shape = shape_of(r.peek_kind()?);
    let start = r.save();
    for (i, &s) in shapes.iter().enumerate() {
        if s & shape == 0 {
            continue;
        }
        match attempt(i, r) {
            Ok(()) => return Ok(()),
            Err(e) if !matches!(e.category(), Category::Data | Category::Constraint) => {
                return Err(e)
            }
            Err(_) => {
                let reread = r.offset().saturating_sub(at);
                r.restore(start);
                r.charge_reread(reread)?;
            }
        }
    }
    Err(no_matching_variant(at))
}
