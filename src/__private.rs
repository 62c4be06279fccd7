//! What derived code reaches at run time. Not a public API: names and signatures may change
//! without notice.

pub use crate::error::{Category, Error, PathSegment, Result};
pub use crate::number::{NumKind, Number, Wire};
pub use crate::reflect::{
    EnumInfo, FieldName, FieldsInfo, Key, KeyKind, MapKey, Reader, Reflect, Str, UnknownKeys,
    ValueKind, Writer,
};
pub use crate::walk::{
    expect_element, expect_end, read_fields, read_fields_in, read_flat_fields_in, Member,
};
pub use core::default::Default;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{Err, Ok};
pub use structio_keys::Probe;

use crate::error::Code;

/// "unknown variant `name`" at `offset`.
#[cold]
pub fn unknown_variant(name: &str, offset: usize) -> Error {
    Error::new(Code::UnknownVariant(name.to_string()), offset)
}

/// "no variant matches the value" at `offset`.
#[cold]
pub fn no_matching_variant(offset: usize) -> Error {
    Error::new(Code::NoMatchingVariant, offset)
}

/// "missing key `name`" at `offset` (an internally or adjacently tagged enum without its tag).
#[cold]
pub fn missing_key(name: &str, offset: usize) -> Error {
    Error::new(Code::MissingKey(name.to_string()), offset)
}

/// "unknown key `name`" at `offset`.
#[cold]
pub fn unknown_key(name: &str, offset: usize) -> Error {
    Error::new(Code::UnknownKey(name.to_string()), offset)
}

/// "expected N elements, found M".
#[cold]
pub fn wrong_length(expected: usize, found: usize, offset: usize) -> Error {
    Error::new(Code::WrongLength { expected, found }, offset)
}

/// "duplicate key `name`" at `offset` (a second tag in a tagged enum).
#[cold]
pub fn duplicate_key(name: &str, offset: usize) -> Error {
    Error::new(Code::DuplicateKey(name.to_string()), offset)
}

/// The key table of a struct or variant without fields.
pub const NO_FIELDS: FieldsInfo = FieldsInfo {
    names: &[],
    optional: &[],
    keys: &[],
    key_field: &[],
    probe: Probe::Empty,
    plain: true,
};

/// Member access of a derived struct with named fields: its own `Reflect` impl is built on it,
/// a newtype variant of an internally tagged enum uses it to put the struct's members next to
/// the tag, and a struct uses it to lift the members of its `#[structio(flatten)]` fields.
///
/// `HashMap` and `BTreeMap` with string keys, and [`crate::Map`], have it too: flattened, they
/// hold the keys no member takes ([`Fields::REST`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a struct with named fields that derives `Reflect`, nor a map",
    label = "needs named fields",
    note = "a `#[structio(flatten)]` field, and the payload of a newtype variant of an internally tagged enum, must be a struct with named fields or a map with string keys"
)]
pub trait Fields<'de>: Reflect<'de> {
    /// The key table of the struct.
    const INFO: &'static FieldsInfo;
    /// How many members `write_members` writes with this writer (`None` members are left out
    /// unless the writer writes null members).
    fn count_members<W: Writer>(&self, w: &W) -> usize;
    /// Writes the members, key and value, with `sep` between them; `lead` says whether members
    /// were written before these (so the first one needs a `sep` too). Returns whether it wrote
    /// any member.
    fn write_members<W: Writer>(&self, w: &mut W, lead: bool) -> bool;
    /// Reads the value of member `index`: an index into `INFO.names`, or past it, a member of a
    /// flattened field (see [`Fields::flat_member`]).
    fn read_member<R: Reader<'de>>(&mut self, index: usize, r: &mut R) -> Result<()>;
    /// Sets member `index` (numbered as for [`Fields::read_member`]), which an object left
    /// out, to what a fresh read gives: `None` for an `Option` member; other members are left
    /// as they are (a missing required member is reported, or kept, by the reader).
    #[inline(always)]
    fn reset_member(&mut self, _index: usize) {}
    /// How many members there are: the struct's own, then those of its flattened fields.
    const MEMBERS: usize = Self::INFO.names.len();
    /// The member of a flattened field a key names (a key `INFO` does not hold): its index, from
    /// `INFO.names.len()` up to [`Fields::MEMBERS`], and its name. None without flattened fields.
    #[inline(always)]
    fn flat_member(_key: &[u8]) -> Option<(usize, &'static str)> {
        None
    }
    /// Whether keys that no member takes are kept, by [`Fields::read_rest`]: true for a map,
    /// and for a struct with a flattened field for which it is true.
    const REST: bool = false;
    /// Reads the value under `key` (a key no member takes, starting at `offset`) when
    /// [`Fields::REST`] is true; skips it otherwise.
    #[inline(always)]
    fn read_rest<R: Reader<'de>>(&mut self, _key: &str, _offset: usize, r: &mut R) -> Result<()> {
        r.skip_value()
    }
    /// Empties what keeps the keys no member takes (when [`Fields::REST`] is true), before an
    /// object is read into it, so that it ends up holding that object's keys only (unless
    /// [`crate::ReadOptions::merge`]).
    #[inline(always)]
    fn clear_rest(&mut self) {}
}

/// The keys a flattened map kept from one object, noted only under
/// [`crate::ReadOptions::error_on_duplicate_keys`], to report one that comes twice.
#[derive(Debug, Default)]
pub struct KeptKeys(Option<std::collections::HashSet<String>>);

impl KeptKeys {
    /// Notes `key` (at `offset`), or reports it when it came before.
    #[cold]
    fn note(&mut self, key: &str, offset: usize) -> Result<()> {
        if self
            .0
            .get_or_insert_with(Default::default)
            .insert(key.to_string())
        {
            Ok(())
        } else {
            Err(Error::new(Code::DuplicateKey(key.to_string()), offset))
        }
    }
}

/// Reads member `m` of `target`: one of its members or, for a key no member takes, the
/// entry kept by [`Fields::read_rest`] (a key kept twice from one object is an error under
/// `error_on_duplicate_keys`; `kept` lasts for the object).
#[inline(always)]
pub fn read_member_of<'de, R, T>(
    target: &mut T,
    m: Member<'_>,
    r: &mut R,
    kept: &mut KeptKeys,
) -> Result<()>
where
    R: Reader<'de>,
    T: Fields<'de>,
{
    match m {
        Member::Index(i) => target.read_member(i, r),
        Member::Absent(i) => {
            target.reset_member(i);
            Ok(())
        }
        Member::Rest(key, offset) => {
            if r.options().error_on_duplicate_keys {
                kept.note(key, offset)?;
            }
            target.read_rest(key, offset, r)
        }
    }
}

/// The member of `T` a key names, one of its own or of its flattened fields: its index and
/// name (see [`Fields::flat_member`]).
#[inline]
pub fn member_of<'de, T: Fields<'de>>(key: &[u8]) -> Option<(usize, &'static str)> {
    let info = T::INFO;
    match info.probe.find(info.keys, key) {
        Some(k) => {
            let f = info.key_field[k] as usize;
            Some((f, info.names[f]))
        }
        None => T::flat_member(key),
    }
}

/// Reads member `m` of a struct without flattened fields or kept keys: [`read_member_of`] with
/// no keys to keep.
#[inline(always)]
pub fn own_member<'de, R, T>(target: &mut T, m: Member<'_>, r: &mut R) -> Result<()>
where
    R: Reader<'de>,
    T: Fields<'de>,
{
    read_member_of(target, m, r, &mut KeptKeys(None))
}

/// Reads the rest of an object the caller started into the members of `target`.
#[inline]
pub fn read_members_in<'de, R, T>(
    r: &mut R,
    map: &mut R::Map,
    target: &mut T,
    skip_key: Option<&str>,
) -> Result<()>
where
    R: Reader<'de>,
    T: Fields<'de>,
{
    let mut kept = KeptKeys::default();
    if T::REST && !r.options().merge {
        target.clear_rest();
    }
    read_flat_fields_in(
        r,
        map,
        T::INFO,
        skip_key,
        T::MEMBERS,
        T::flat_member,
        T::REST,
        |m, r| read_member_of(target, m, r, &mut kept),
    )
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

/// Reads a variant name (a string) and looks it up.
#[inline]
fn read_variant_name<'de, R: Reader<'de>>(r: &mut R, info: &VariantsInfo) -> Result<usize> {
    let at = r.offset();
    let s = r.read_str()?;
    match info.find(s.as_str().as_bytes()) {
        Some(i) => Ok(i),
        None => Err(unknown_variant(s.as_str(), at)),
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
        Key::Int(wire) => {
            let value = match wire {
                Wire::Int(v) => Some(v),
                Wire::Uint(v) => i128::try_from(v).ok(),
                Wire::F32(_) | Wire::F64(_) => None,
            };
            value
                .and_then(|v| info.by_discriminant(v))
                .ok_or_else(|| unknown_variant(&wire_text(wire), offset))
        }
    }
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

/// Reads an externally tagged enum: a string naming a unit variant, or an object with exactly
/// one key naming the variant and holding its payload. `payload(i, r, present)` reads the
/// payload of variant `i` (`present` is false for the bare-string form of a unit variant).
#[inline]
pub fn read_external<'de, R, F>(r: &mut R, info: &VariantsInfo, payload: F) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, bool) -> Result<()>,
{
    crate::walk::with_stack!(read_external(r, info, payload));
    let at = r.offset();
    match r.peek_kind()? {
        ValueKind::String => {
            let i = read_variant_name(r, info)?;
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
            payload(i, r, true).map_err(|e| e.push_path(PathSegment::Field(info.keys.names[i])))?;
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
/// its start again. `body(i, r, map)` reads the members of variant `i` (passing the tag over).
#[inline]
pub fn read_internal<'de, R, F>(r: &mut R, info: &VariantsInfo, tag: &str, body: F) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(usize, &mut R, &mut R::Map) -> Result<()>,
{
    crate::walk::with_stack!(read_internal(r, info, tag, body));
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
        let i = read_variant_name(r, info)?;
        return body(i, r, &mut map);
    }
    r.skip_value()?;
    let i = loop {
        let is_tag = match r.next_field(&mut map)? {
            None => return Err(missing_key(tag, r.offset())),
            Some(k) => k == tag.as_bytes(),
        };
        if is_tag {
            break read_variant_name(r, info)?;
        }
        r.skip_value()?;
    };
    r.restore(start);
    let mut map = r.begin_object()?;
    body(i, r, &mut map)
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
    crate::walk::with_stack!(read_adjacent(r, info, tag, content, payload));
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
            Member::Tag => variant = Some(read_variant_name(r, info)?),
            // A content seen before the tag (`content_at`) is read at the end; another one is
            // a duplicate whether or not the tag came in between.
            Member::Content => match (variant, payload.take()) {
                (Some(i), Some(f)) if content_at.is_none() => {
                    f(i, r, true).map_err(|e| e.push_path(PathSegment::Field(content)))?
                }
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
            f(i, r, true).map_err(|e| e.push_path(PathSegment::Field(content)))?;
            r.restore(end);
            Ok(())
        }
        None if info.unit[i] => f(i, r, false),
        None => Err(missing_key(content, r.offset())),
    }
}

/// Shape bits of the values a variant's payload may be read from (untagged enums).
pub const SHAPE_NULL: u8 = 1;
/// A boolean.
pub const SHAPE_BOOL: u8 = 2;
/// A number.
pub const SHAPE_NUMBER: u8 = 4;
/// A string.
pub const SHAPE_STRING: u8 = 8;
/// Any array.
pub const SHAPE_ARRAY: u8 = 16;
/// Any object.
pub const SHAPE_OBJECT: u8 = 32;
/// A BEVE extension.
pub const SHAPE_EXTENSION: u8 = 64;
/// Any value.
pub const SHAPE_ANY: u8 = 127;

/// The shape bit of a value kind.
#[inline]
fn shape_of(kind: ValueKind) -> u8 {
    match kind {
        ValueKind::Null => SHAPE_NULL,
        ValueKind::Bool => SHAPE_BOOL,
        ValueKind::Number(_) => SHAPE_NUMBER,
        ValueKind::String => SHAPE_STRING,
        ValueKind::Array
        | ValueKind::TypedArray(_)
        | ValueKind::BoolArray
        | ValueKind::StrArray => SHAPE_ARRAY,
        ValueKind::Object | ValueKind::IntKeyObject(_) => SHAPE_OBJECT,
        ValueKind::Extension(_) => SHAPE_EXTENSION,
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
    crate::walk::with_stack!(read_untagged(r, shapes, attempt));
    let at = r.offset();
    let shape = shape_of(r.peek_kind()?);
    let start = r.save();
    for (i, &s) in shapes.iter().enumerate() {
        if s & shape == 0 {
            continue;
        }
        match attempt(i, r) {
            Ok(()) => return Ok(()),
            Err(e) if e.category() != Category::Data => return Err(e),
            Err(_) => {
                let reread = r.offset().saturating_sub(at);
                r.restore(start);
                r.charge_reread(reread)?;
            }
        }
    }
    Err(no_matching_variant(at))
}
