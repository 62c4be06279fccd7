//! Member access of structs with named fields, for derived code: the [`Fields`] trait a derived
//! struct (and a map with string keys) implements, and the helpers that read an object's
//! members through it, with those of `#[structio(flatten)]` fields and the keys a flattened
//! map keeps.

use crate::constraint::Violations;
use crate::error::{Code, Error, Result};
use crate::read::{read_flat_fields_in, Member};
use crate::reflect::{FieldsInfo, Reader, Reflect, Writer};
use structio_keys::Probe;

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
    /// The constraints each field declares (`#[structio(length(..))]`, ...): one list per
    /// entry of `INFO.names`, in that order; empty (the default) when no field declares any.
    const RULES: &'static [&'static [crate::constraint::Rule]] = &[];
    /// How many members `write_members` writes with this writer (`None` members are left out
    /// unless the writer writes null members).
    fn count_members<W: Writer>(&self, w: &W) -> usize;
    /// Writes the members, key and value, with `sep` between them; `lead` says whether members
    /// were written before these (so the first one needs a `sep` too). Returns whether it wrote
    /// any member.
    fn write_members<W: Writer>(&self, w: &mut W, lead: bool) -> bool;
    /// Writes the value as a generic array of its members in declaration order, for a writer
    /// with [`Writer::STRUCTS_AS_ARRAYS`] (the only caller: a derived struct's `write`, which
    /// asks that constant). The derive writes the members a `#[structio(as_array)]` struct has
    /// (all but `skip`, `skip_write` and `skip_read` ones; `None` as null); this default writes
    /// the object, keys and all.
    #[inline]
    fn write_as_array<W: Writer>(&self, w: &mut W) {
        w.begin_struct(self.count_members(w));
        self.write_members(w, false);
        w.end_object();
    }
    /// Reads the value of member `index`: an index into `INFO.names`, or past it, a member of a
    /// flattened field (see [`Fields::flat_member`]).
    fn read_member<R: Reader<'de>>(&mut self, index: usize, r: &mut R) -> Result<()>;
    /// Handles member `index` (numbered as for [`Fields::read_member`]), which an object left
    /// out (see [`crate::read::Member::Absent`]): one that may be left out takes what a fresh
    /// read gives (`None`, its default); another is a missing key under
    /// `error_on_missing_keys` and keeps its value otherwise.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn absent_member<R: Reader<'de>>(&mut self, _index: usize, _r: &mut R) -> Result<()> {
        Ok(())
    }
    /// How many members there are: the struct's own, then those of its flattened fields.
    const MEMBERS: usize = Self::INFO.names.len();
    /// The member of a flattened field a key names (a key `INFO` does not hold): its index, from
    /// `INFO.names.len()` up to [`Fields::MEMBERS`], and its name. None without flattened fields.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn flat_member(_key: &[u8]) -> Option<(usize, &'static str)> {
        None
    }
    /// Whether keys that no member takes are kept, by [`Fields::read_rest`]: true for a map,
    /// and for a struct with a flattened field for which it is true.
    const REST: bool = false;
    /// Reads the value under `key` (a key no member takes, starting at `offset`) when
    /// [`Fields::REST`] is true; skips it otherwise.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_rest<R: Reader<'de>>(&mut self, _key: &str, _offset: usize, r: &mut R) -> Result<()> {
        r.skip_value()
    }
    /// Empties what keeps the keys no member takes (when [`Fields::REST`] is true), before an
    /// object is read into it, so that it ends up holding that object's keys only (unless
    /// [`crate::ReadOptions::merge`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn clear_rest(&mut self) {}
    /// Whether the struct, or one of its flattened fields, declares a container rule
    /// (`#[structio(check = "..")]`): then whoever reads its members without its own
    /// [`Reflect::read`] (a struct flattening it, an internally tagged enum holding it as a
    /// newtype payload) runs [`Fields::check_fields`] on it once they are read. False (the
    /// default) for a struct without one, so that reading it that way costs nothing more.
    const CHECKS: bool = false;
    /// Runs the container rules of the struct (when [`Fields::CHECKS`]), those of its
    /// flattened fields first, then its own, pushing what they break to `out`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn check_fields(&self, _out: &mut Violations) {}
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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
        Member::Absent(i) => target.absent_member(i, r),
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn own_member<'de, R, T>(target: &mut T, m: Member<'_>, r: &mut R) -> Result<()>
where
    R: Reader<'de>,
    T: Fields<'de>,
{
    read_member_of(target, m, r, &mut KeptKeys(None))
}

/// Reads the rest of an object the caller started (at the saved position `start`, where its
/// container rules report) into the members of `target` (the payload of a newtype variant of
/// an internally tagged enum), then runs the container rules of `target`'s type
/// ([`Fields::check_fields`]), which its own [`Reflect::read`] would have run. A type without
/// any ([`Fields::CHECKS`] false) is read exactly as before.
#[inline]
pub fn read_members_in<'de, R, T>(
    r: &mut R,
    map: &mut R::Map,
    start: R::Pos,
    target: &mut T,
    skip_key: Option<&str>,
) -> Result<()>
where
    R: Reader<'de>,
    T: Fields<'de>,
{
    if T::CHECKS {
        read_members_unchecked(r, map, target, skip_key)?;
        return crate::report::enforce(r, start, &*target, T::check_fields);
    }
    read_members_unchecked(r, map, target, skip_key)
}

/// [`read_members_in`] without the container rules.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn read_members_unchecked<'de, R, T>(
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

/// The error for member `name`, which the object ending at `offset` left out and which may not
/// be left out (reading a new value under `error_on_missing_keys: false`, when the member's
/// type has no [`Reflect::default_value`]).
#[cold]
pub fn missing_key(name: &str, offset: usize) -> Error {
    Error::new(Code::MissingKey(name.to_string()), offset)
}

/// The error for a new value of `type_name` that must start from its
/// [`Reflect::default_value`] (a struct with flattened fields, the payload of a newtype variant
/// of an internally tagged enum) when it has none.
#[cold]
pub fn no_default_value(type_name: &str, offset: usize) -> Error {
    Error::custom(
        format!(
            "`{type_name}` cannot be read as a new value: its members are read into a value \
             that starts from `Reflect::default_value`, and a member has no default value \
             (give it `#[structio(default)]`, or read into an existing value)"
        ),
        offset,
    )
}

/// The error for a derived struct whose `Reflect::HAS_DEFAULT_VALUE` is `true` while its
/// `default_value` gave `None`: a member type's `HAS_DEFAULT_VALUE` says it always has a default
/// value and it had none (a hand-written `Reflect` impl breaking that promise).
#[cold]
pub fn default_value_broken(type_name: &str, offset: usize) -> Error {
    Error::custom(
        format!(
            "`{type_name}` cannot be read as a new value: a member type's \
             `Reflect::HAS_DEFAULT_VALUE` is true but its `default_value` returned `None`"
        ),
        offset,
    )
}

/// The error for a value read as the type of a `#[structio(try_from = "...")]` that the
/// conversion refused: its message, at `offset` (where the value started).
#[cold]
pub fn conversion_error(e: &dyn std::fmt::Display, offset: usize) -> Error {
    Error::custom(e.to_string(), offset)
}

/// Reads into one member of a derived struct: its type's [`Reflect::read`], inlined for a type
/// whose read is small ([`Reflect::INLINE_MEMBER`]), otherwise in a call that is not inlined
/// (one copy per member type and reader, shared by every struct with such a member).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_member<'de, T: Reflect<'de>, R: Reader<'de>>(v: &mut T, r: &mut R) -> Result<()> {
    if T::INLINE_MEMBER {
        v.read(r)
    } else {
        read_out(v, r)
    }
}

/// [`read_member`] for a new value ([`Reflect::read_new`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_member_new<'de, T: Reflect<'de>, R: Reader<'de>>(r: &mut R) -> Result<T> {
    if T::INLINE_MEMBER {
        T::read_new(r)
    } else {
        read_new_out(r)
    }
}

/// What reading into a struct does with member `v` (named `name`) that the object left out,
/// for a member of a type of its own (no declared default, `with` or serde): one whose type
/// may be left out ([`Reflect::MAY_BE_ABSENT`]) takes its [`Reflect::default_value`] (what a
/// fresh read gives) unless the reader merges; another is the missing-key error under
/// `error_on_missing_keys` and keeps its value otherwise. One function instead of the same
/// code spelled out per member by the derive.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn left_out<'de, T: Reflect<'de>, R: Reader<'de>>(
    v: &mut T,
    name: &'static str,
    r: &mut R,
) -> Result<()> {
    if T::MAY_BE_ABSENT {
        if !r.options().merge {
            if let Some(x) = T::default_value() {
                *v = x;
            }
        }
        Ok(())
    } else if r.options().error_on_missing_keys {
        Err(missing_key(name, r.offset()))
    } else {
        Ok(())
    }
}

/// [`left_out`] while a new value is built: the missing-key error (the reader is where the
/// object's members end) for a member that may not be left out under
/// `error_on_missing_keys`; [`take_slot`] fills in the others.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn left_out_new<'de, T: Reflect<'de>, R: Reader<'de>>(
    name: &'static str,
    r: &mut R,
) -> Result<()> {
    if T::MAY_BE_ABSENT || !r.options().error_on_missing_keys {
        Ok(())
    } else {
        Err(missing_key(name, r.offset()))
    }
}

/// Reads member `slot` of a value being built (a local `Option`): into the value it holds (a
/// key given twice), or a new one ([`read_member`], [`read_member_new`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_slot<'de, T: Reflect<'de>, R: Reader<'de>>(
    slot: &mut Option<T>,
    r: &mut R,
) -> Result<()> {
    match slot {
        Some(held) => read_member(held, r),
        None => {
            *slot = Some(read_member_new::<T, R>(r)?);
            Ok(())
        }
    }
}

/// Member `name`'s value once the object is read into `slot`: what was read, else its type's
/// [`Reflect::default_value`] when that may be left out ([`Reflect::MAY_BE_ABSENT`]) or under
/// `error_on_missing_keys: false`, else the missing-key error (the reader is where the object
/// ended).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn take_slot<'de, T: Reflect<'de>, R: Reader<'de>>(
    slot: Option<T>,
    name: &'static str,
    r: &mut R,
) -> Result<T> {
    match slot {
        Some(x) => Ok(x),
        None => match T::default_value() {
            Some(x) if T::MAY_BE_ABSENT || !r.options().error_on_missing_keys => Ok(x),
            _ => Err(missing_key(name, r.offset())),
        },
    }
}

/// [`Reflect::read`] in a call that is not inlined: one copy per member type and reader,
/// shared by every derived struct with such a member, instead of the read inlined into each
/// struct's walk (see [`Reflect::INLINE_MEMBER`]).
#[inline(never)]
fn read_out<'de, T: Reflect<'de>, R: Reader<'de>>(v: &mut T, r: &mut R) -> Result<()> {
    v.read(r)
}

/// [`read_out`] for a new value.
#[inline(never)]
fn read_new_out<'de, T: Reflect<'de>, R: Reader<'de>>(r: &mut R) -> Result<T> {
    T::read_new(r)
}
