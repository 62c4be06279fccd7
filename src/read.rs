//! The read side, written once for every format: the walk over an object's fields (key-order
//! prediction, the perfect-hash probe, flattened members, missing- and duplicate-key checks),
//! generic sequences and fixed-length arrays, element-wise numbers, complex numbers and
//! matrices (for formats without a bulk form), the stack checks that bound nesting, key
//! comparison, and reading a sequence of records.
//!
//! Derived code and the std impls call these; a backend only provides [`Reader`] and
//! [`Writer`](crate::Writer). Errors pick up their path segment here, on the way out.

use crate::error::{Code, Error, PathSegment, Result};
use crate::report::Step;

/// In unoptimised builds, where one nesting level of a large derived struct can take over 8 KiB
/// of stack, reruns `$call` on a fresh stack segment when the current one runs low, so that the
/// depth limit (256 by default) and not the thread's stack size bounds nesting. Optimised builds
/// need under 128 KiB for 256 levels and skip the check.
macro_rules! with_stack {
    ($call:expr) => {
        #[cfg(all(debug_assertions, not(target_family = "wasm")))]
        if $crate::read::stack_is_low() {
            let mut call = Some(move || $call);
            let mut out = None;
            $crate::read::on_new_stack(&mut || out = call.take().map(|call| call()));
            match out {
                Some(out) => return out,
                // `on_new_stack` runs the closure once (a panic in it unwinds through here).
                None => unreachable!("stacker::grow ran the closure"),
            }
        }
    };
}
pub(crate) use with_stack;

/// Whether less than 128 KiB of stack remain (unknown counts as enough).
#[cfg(all(debug_assertions, not(target_family = "wasm")))]
#[doc(hidden)]
pub fn stack_is_low() -> bool {
    stacker::remaining_stack().is_some_and(|left| left < 128 * 1024)
}

/// Runs `f` on a new 2 MiB stack. Not generic: one copy for every caller of `with_stack!`,
/// whose closure is the only code made per caller.
#[cfg(all(debug_assertions, not(target_family = "wasm")))]
#[doc(hidden)]
pub fn on_new_stack(f: &mut dyn FnMut()) {
    stacker::grow(2 << 20, f)
}

/// Stack that must be left when a reader enters a nesting level past
/// [`STACK_CHECK_DEPTH`], or before it builds an element of a large type: the depth limit
/// counts levels, not bytes, and one level of a type with large inline data (an array of
/// thousands of numbers) can take tens of kilobytes, so a depth under the limit could still
/// overflow a thread's stack. Past this the read stops with a [`Code::StackLimit`] error.
pub(crate) const STACK_RED_ZONE: usize = 128 * 1024;

/// Nesting levels a reader enters before it starts asking how much stack is left (each level
/// of a small type takes well under a kilobyte; large types are checked at every level by
/// [`stack_for`]).
pub(crate) const STACK_CHECK_DEPTH: usize = 32;

/// Types at least this large are checked by [`stack_for`] wherever one is built on the stack.
const LARGE_TYPE: usize = 1024;

/// Whether the stack has room to build and read a `T` (the red zone plus four of it), for types
/// of [`LARGE_TYPE`] bytes or more; other types pass at no cost (the test is a constant).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn stack_for<T>(at: usize) -> Result<()> {
    let size = std::mem::size_of::<T>();
    if size >= LARGE_TYPE {
        return stack_left(STACK_RED_ZONE.saturating_add(size.saturating_mul(4)), at);
    }
    Ok(())
}

/// An error at `at` unless `need` bytes of stack remain (a stack of unknown size passes).
#[cold]
#[inline(never)]
pub(crate) fn stack_left(need: usize, at: usize) -> Result<()> {
    match remaining_stack() {
        Some(left) if left < need => Err(Error::new(Code::StackLimit(left), at)),
        _ => Ok(()),
    }
}

/// The bytes of stack left on this thread, where the platform says.
#[inline]
fn remaining_stack() -> Option<usize> {
    #[cfg(not(target_family = "wasm"))]
    {
        stacker::remaining_stack()
    }
    #[cfg(target_family = "wasm")]
    {
        None
    }
}
use crate::number::Number;
use crate::reflect::{FieldsInfo, NextField, Reader, Reflect, UnknownKeys};

/// Reads an object into the fields of a struct (or a struct variant).
///
/// Keys are matched first against the field after the last one read (documents usually keep
/// declaration order), then through the perfect-hash probe, then confirmed in full. `skip_key`
/// is a key to pass over silently (the tag of an internally tagged enum). `field(m, r)` reads
/// member `m` ([`Member::Index`]) or resets one the object left out ([`Member::Absent`]).
///
/// The walk below this ([`read_fields_in`], [`read_flat_fields_in`], `field`) is always
/// inlined into it, so that LLVM optimises a struct's walk once, here, and not again at each
/// level it would otherwise be inlined through: that cut a 150-struct crate's release build
/// from 100 to 79 s of CPU with no read slower (docs/performance.md, "Compile time of derived
/// code"). This function itself keeps the ordinary `#[inline]`: forcing it into the derived
/// `read` too made twitter's read 1.6-2.9% slower.
#[inline]
pub fn read_fields<'de, R, F>(
    r: &mut R,
    info: &FieldsInfo,
    skip_key: Option<&str>,
    field: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnMut(Member<'_>, &mut R) -> Result<()>,
{
    let mut map = r.begin_object()?;
    read_fields_in(r, &mut map, info, skip_key, field)
}

/// The canonical fast path of a struct marked `#[structio(canonical)]`: when the input holds
/// the object in its expected layout (compact, every member in declaration order, keys
/// without escapes), it is recognised by one comparison per member (`keys[i]`: `"name":` for
/// the first member, `,"name":` for the others) and the closing brace, with each value read by
/// `field(i, reader)`; nothing else is done per key (no key scan, probe, duplicate or
/// missing-member bookkeeping). Returns `true` if the whole object was read that way. On the
/// first mismatch (whitespace, another order, an escaped key, a member left out or added) or
/// error, the reader is put back where the object starts and `false` is returned: the caller
/// then reads the object the ordinary way ([`read_fields`]), which gives the same value, or
/// the error with its path. A format without a canonical layout ([`Reader::CANONICAL`]) returns
/// `false` at once.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_canonical<'de, R, F>(r: &mut R, keys: &[&'static [u8]], mut field: F) -> bool
where
    R: Reader<'de>,
    F: FnMut(usize, &mut R) -> Result<()>,
{
    read_canonical_new(r, |r| {
        for (i, key) in keys.iter().enumerate() {
            if !r.take_exact(key) {
                return Ok(None);
            }
            field(i, r)?;
        }
        Ok(Some(()))
    })
    .is_some()
}

/// [`read_canonical`] for a new value: when the input holds the object in its canonical
/// layout, `members(reader)` reads it (each `keys[i]` compared with [`Reader::take_exact`],
/// each value read new, in declaration order) and returns the value built from them, with
/// nothing kept per member beyond the values themselves (no slots for members left out, no
/// missing-member pass); the closing brace is checked here. `None` on the first mismatch or
/// error, with the reader put back where the object starts, for the caller's ordinary read
/// (which gives the same value, or the error with its path); `None` at once for a format
/// without a canonical layout.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_canonical_new<'de, R, T, F>(r: &mut R, members: F) -> Option<T>
where
    R: Reader<'de>,
    F: FnOnce(&mut R) -> Result<Option<T>>,
{
    try_canonical(
        r,
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
        |r| {
            let mut map = r.begin_object()?;
            let Some(v) = members(r)? else {
                return Ok(None);
            };
            Ok(r.next_field(&mut map)?.is_none().then_some(v))
        },
    )
}

/// Runs `f` as a canonical fast-path [`attempt`] when the reader has a canonical layout
/// ([`Reader::CANONICAL`]) and no attempt in this document has failed with an error
/// ([`Reader::attempts_stopped`]); `None` otherwise, or when `f` does not recognise the
/// input. [`read_canonical_new`] is this for a hand-written object; a derived canonical struct
/// passes its [`Reflect::read_new_canonical`].
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn try_canonical<'de, R, T, F>(r: &mut R, f: F) -> Option<T>
where
    R: Reader<'de>,
    F: FnOnce(&mut R) -> Result<Option<T>>,
{
    // Attempts nest (a canonical struct inside another): once one failed with an error, the
    // ordinary walks that follow try no more (see `Reader::attempts_stopped`).
    if !R::CANONICAL || r.attempts_stopped() {
        return None;
    }
    attempt(r, f)
}

/// Tries a fast path: runs `f`, and keeps what it read if it returns `Ok(Some(value))`.
/// Otherwise (`Ok(None)`: the input is not in the layout `f` recognises, or an error) the
/// reader is put back where it was and `None` is returned, so that the caller reads the value
/// the ordinary way, which gives the same value, or the error with its path. A collecting read
/// ([`crate::json::parse`]) has its collector suspended during `f`: problems stop the attempt
/// instead of being recorded, so that the ordinary read records each one once.
///
/// [`read_canonical`] is this with the layout of a derived struct; a hand-written
/// [`Reflect`] impl uses it for its own canonical layout (compare with [`Reader::take_exact`],
/// which only a format with a canonical layout, [`Reader::CANONICAL`], implements).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn attempt<'de, R, T, F>(r: &mut R, f: F) -> Option<T>
where
    R: Reader<'de>,
    F: FnOnce(&mut R) -> Result<Option<T>>,
{
    let mark = r.save();
    // A collecting read (`json::parse`) records problems and goes on; here they must stop the
    // attempt instead, so that the ordinary walk, which runs next, records each one once.
    let done = if R::COLLECTS {
        crate::report::suspended(r, f)
    } else {
        f(r)
    };
    if let Ok(Some(v)) = done {
        return Some(v);
    }
    if done.is_err() {
        // The enclosing attempts fail too: the ordinary walks that follow try no more, so that
        // nested attempts cost at most one extra read of the document, not one per level.
        r.stop_attempts();
    }
    r.restore(mark);
    None
}

/// Runs `f` in a call that is never inlined: the ordinary read of a struct whose canonical
/// fast path is inlined into its caller (`#[structio(canonical)]`), kept out of the caller's
/// code.
#[inline(never)]
pub fn out_of_line<'de, R, T, F>(r: &mut R, f: F) -> Result<T>
where
    R: Reader<'de>,
    F: FnOnce(&mut R) -> Result<T>,
{
    f(r)
}

/// [`read_fields`] for an object the caller has already started (and whose first members it may
/// have read itself, as an internally tagged enum does with its tag). Always inlined, with
/// its `field` (see [`read_fields`]).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_fields_in<'de, R, F>(
    r: &mut R,
    map: &mut R::Map,
    info: &FieldsInfo,
    skip_key: Option<&str>,
    mut field: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnMut(Member<'_>, &mut R) -> Result<()>,
{
    read_flat_fields_in(
        r,
        map,
        info,
        skip_key,
        info.names.len(),
        no_flat_member,
        false,
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
        |m, r| match m {
            Member::Rest(..) => r.skip_value(),
            m => field(m, r),
        },
    )
}

/// [`Reader::offset`] as it was at the saved position `mark` ([`Reader::save`]), without
/// moving the reader: for errors about a value already read, so that the common path only
/// saves a position (a hand-written [`Reflect`] impl uses it the same way).
#[inline]
pub fn offset_at<'de, R: Reader<'de>>(r: &mut R, mark: R::Pos) -> usize {
    let now = r.save();
    r.restore(mark);
    let at = r.offset();
    r.restore(now);
    at
}

/// What [`read_flat_fields_in`] asks its `field` callback to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member<'k> {
    /// Member `index`: a field of the struct, or past them a member of a flattened field.
    Index(usize),
    /// The value under a key no member takes (its text and offset), for a struct that keeps
    /// such keys in a flattened map.
    Rest(&'k str, usize),
    /// Member `index` (a field of the struct, or past them a member of a flattened field) that
    /// the object left out, sent once per such member after the object's last key (unless
    /// [`ReadOptions::merge`] is set and [`ReadOptions::error_on_missing_keys`] is not). The
    /// callback decides: a member that may be left out (an `Option`, a member with a
    /// `#[structio(default)]`) is set to what a fresh read gives (`None`, its default), so
    /// that reading into a used value gives what a fresh read gives (not under `merge`); any
    /// other member is the error [`crate::__private::missing_key`] under
    /// `error_on_missing_keys`, and keeps its value otherwise.
    ///
    /// [`ReadOptions::merge`]: crate::ReadOptions::merge
    /// [`ReadOptions::error_on_missing_keys`]: crate::ReadOptions::error_on_missing_keys
    Absent(usize),
}

/// The `flat` argument of [`read_flat_fields_in`] for a struct without flattened fields.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn no_flat_member(_: &[u8]) -> Option<(usize, &'static str)> {
    None
}

/// [`read_fields_in`] for a struct with `#[structio(flatten)]` fields: a key its own table does
/// not hold goes to `flat`, which names the member of a flattened field it sets (an index past
/// `info.names`, read by `field` like the others) and that member's name for error paths.
/// With `rest`, a key that `flat` does not know either is read as [`Member::Rest`] (a
/// flattened map keeps it) instead of being unknown. Duplicate-key checks cover the struct's
/// own fields only (`field` checks the kept keys, see
/// [`crate::__private::read_member_of`]). `members` is how many members there are, the
/// struct's own and its flattened fields' ([`crate::__private::Fields::MEMBERS`]): after the
/// last key, each one the object left out gets a [`Member::Absent`], whose handler decides
/// whether it may be left out. Always inlined (see [`read_fields`]).
#[allow(clippy::too_many_arguments)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn read_flat_fields_in<'de, R, X, F>(
    r: &mut R,
    map: &mut R::Map,
    info: &FieldsInfo,
    skip_key: Option<&str>,
    members: usize,
    flat: X,
    rest: bool,
    mut field: F,
) -> Result<()>
where
    R: Reader<'de>,
    X: Fn(&[u8]) -> Option<(usize, &'static str)>,
    F: FnMut(Member<'_>, &mut R) -> Result<()>,
{
    with_stack!(read_flat_fields_in(
        r, map, info, skip_key, members, flat, rest, field
    ));
    if R::COLLECTS && matches!(r.collector(), Some(c) if c.active()) {
        return collect_fields(r, map, info, skip_key, members, flat, rest, field);
    }
    let opts = *r.options();
    let track = opts.error_on_duplicate_keys || info.keys.len() > info.names.len();
    let mut seen = Seen::new(if track { info.names.len() } else { 0 });
    // Which members were read, so that those left out get a `Member::Absent`. Setting a bit
    // costs one OR; past 256 members the bits are on the heap.
    let absent = !opts.merge || opts.error_on_missing_keys;
    let mut present = Present::new(if absent { members } else { 0 });
    let mut expect = 0usize;
    // Where the last key was looked for: after the last member, before the object's end.
    let mut end;
    loop {
        // Where the key starts is worked out only when something needs it (an error, a
        // flattened map, the key checks): computing it for every key cost 8% of reading a
        // small message.
        let mark = r.save();
        end = mark;
        let found = {
            let next = match info.names.get(expect) {
                Some(name) => r.next_field_guess(map, name, info.plain)?,
                None => r.next_field(map)?.map(NextField::Other),
            };
            match next {
                None => break,
                Some(NextField::Guessed) => Ok((expect, expect)),
                Some(NextField::Other(key)) => match info.probe.find(info.keys, key) {
                    Some(k) => Ok((k, info.key_field[k] as usize)),
                    None if matches!(skip_key, Some(s) if s.as_bytes() == key) => {
                        Err(Unmatched::Skip)
                    }
                    None => match flat(key) {
                        Some((m, name)) => Err(Unmatched::Flat(m, name)),
                        None if rest => Err(Unmatched::Rest(KeyCopy::new(key))),
                        // Skipped: no copy of the key (the message is only needed for the error).
                        None if opts.unknown_keys == UnknownKeys::Skip => Err(Unmatched::Skip),
                        None => Err(Unmatched::Unknown(
                            String::from_utf8_lossy(key).into_owned(),
                        )),
                    },
                },
            }
        };
        match found {
            Ok((k, f)) => {
                if track {
                    seen.mark(f, k, info, &opts, offset_at(r, mark))?;
                }
                present.set(f, members);
                // Not `map_err`: a closure here is one more function per struct in a debug
                // build.
                if let Err(e) = field(Member::Index(f), r) {
                    return Err(e.push_path(PathSegment::Field(info.names[f])));
                }
                expect = f + 1;
            }
            Err(Unmatched::Flat(m, name)) => {
                present.set(m, members);
                if let Err(e) = field(Member::Index(m), r) {
                    return Err(e.push_path(PathSegment::Field(name)));
                }
            }
            // The keeper of the entry names it in error paths.
            Err(Unmatched::Rest(key)) => {
                let at = offset_at(r, mark);
                field(Member::Rest(key.text(at)?, at), r)?
            }
            Err(Unmatched::Skip) => r.skip_value()?,
            Err(Unmatched::Unknown(unknown)) => {
                return Err(Error::new(Code::UnknownKey(unknown), offset_at(r, mark)))
            }
        }
    }
    if absent && !present.all(members) {
        // The handlers see the reader where the object's members end, so that a missing key
        // is reported there (the same offset whatever whitespace follows the object).
        let now = r.save();
        r.restore(end);
        let res = send_absent(members, present, &mut |m| field(Member::Absent(m), r));
        r.restore(now);
        res?;
    }
    Ok(())
}

/// [`read_flat_fields_in`] for a collecting reader ([`Reader::COLLECTS`], behind
/// `json::parse` and `beve::parse`): a member that fails is recorded and skipped, an unknown,
/// duplicate or conflicting key is recorded and its value skipped, every missing member is
/// recorded, and reading goes on; the object is then reported as failed (an error that the
/// callers do not record again) when a member could not be read or is missing. Errors that
/// are not about the data (malformed input, a limit) stop it.
#[allow(clippy::too_many_arguments)]
#[inline]
fn collect_fields<'de, R, X, F>(
    r: &mut R,
    map: &mut R::Map,
    info: &FieldsInfo,
    skip_key: Option<&str>,
    members: usize,
    flat: X,
    rest: bool,
    mut field: F,
) -> Result<()>
where
    R: Reader<'de>,
    X: Fn(&[u8]) -> Option<(usize, &'static str)>,
    F: FnMut(Member<'_>, &mut R) -> Result<()>,
{
    let opts = *r.options();
    let track = opts.error_on_duplicate_keys || info.keys.len() > info.names.len();
    let mut seen = Seen::new(if track { info.names.len() } else { 0 });
    let absent = !opts.merge || opts.error_on_missing_keys;
    let mut present = Present::new(if absent { members } else { 0 });
    let mut expect = 0usize;
    let mut failed = false;
    let mut end;
    loop {
        let mark = r.save();
        end = mark;
        let found = {
            let next = match info.names.get(expect) {
                Some(name) => r.next_field_guess(map, name, info.plain)?,
                None => r.next_field(map)?.map(NextField::Other),
            };
            match next {
                None => break,
                Some(NextField::Guessed) => Ok((expect, expect)),
                Some(NextField::Other(key)) => match info.probe.find(info.keys, key) {
                    Some(k) => Ok((k, info.key_field[k] as usize)),
                    None if skip_key.is_some_and(|s| s.as_bytes() == key) => Err(Unmatched::Skip),
                    None => match flat(key) {
                        Some((m, name)) => Err(Unmatched::Flat(m, name)),
                        None if rest => Err(Unmatched::Rest(KeyCopy::new(key))),
                        None if opts.unknown_keys == UnknownKeys::Skip => Err(Unmatched::Skip),
                        None => Err(Unmatched::Unknown(
                            String::from_utf8_lossy(key).into_owned(),
                        )),
                    },
                },
            }
        };
        match found {
            Ok((k, f)) => {
                if track {
                    let at = offset_at(r, mark);
                    if let Err(e) = seen.mark(f, k, info, &opts, at) {
                        record(r, &e)?;
                        r.skip_value()?;
                        continue;
                    }
                }
                present.set(f, members);
                let step = Step::Field(info.names[f]);
                collect_member(r, Some(step), &mut failed, |r| field(Member::Index(f), r))?;
                expect = f + 1;
            }
            Err(Unmatched::Flat(m, name)) => {
                present.set(m, members);
                let step = Step::Field(name);
                collect_member(r, Some(step), &mut failed, |r| field(Member::Index(m), r))?;
            }
            Err(Unmatched::Rest(key)) => {
                let at = offset_at(r, mark);
                let text = key.text(at)?;
                collect_member(r, None, &mut failed, |r| field(Member::Rest(text, at), r))?;
            }
            Err(Unmatched::Skip) => r.skip_value()?,
            Err(Unmatched::Unknown(unknown)) => {
                let at = offset_at(r, mark);
                record(r, &Error::new(Code::UnknownKey(unknown), at))?;
                r.skip_value()?;
            }
        }
    }
    if absent && !present.all(members) {
        let now = r.save();
        r.restore(end);
        let res = collect_absent(r, members, &present, &mut failed, &mut field);
        r.restore(now);
        res?;
    }
    if failed {
        Err(crate::report::reported(r.offset()))
    } else {
        Ok(())
    }
}

/// Sends [`Member::Absent`] for each member not in `present` in a collecting read: a member
/// that may not be left out is recorded (and sets `failed`), and the others are sent too.
#[cold]
#[inline(never)]
fn collect_absent<'de, R, F>(
    r: &mut R,
    members: usize,
    present: &Present,
    failed: &mut bool,
    field: &mut F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnMut(Member<'_>, &mut R) -> Result<()>,
{
    for m in (0..members).filter(|&m| !present.has(m)) {
        if let Err(e) = field(Member::Absent(m), r) {
            if e.category() != crate::Category::Data {
                return Err(e);
            }
            record(r, &e)?;
            *failed = true;
        }
    }
    Ok(())
}

/// Records `e` in a collecting reader's report.
#[cold]
fn record<'de, R: Reader<'de>>(r: &mut R, e: &Error) -> Result<()> {
    match r.collector() {
        Some(c) => c.record_error(e),
        None => Ok(()),
    }
}

/// Reads one member or element with `read` in a collecting read, under path step `step`:
/// when it fails, records why (see [`crate::report::recover`]), moves past it and sets
/// `failed`.
#[inline]
fn collect_member<'de, R, F>(
    r: &mut R,
    step: Option<Step>,
    failed: &mut bool,
    read: F,
) -> Result<()>
where
    R: Reader<'de>,
    F: FnOnce(&mut R) -> Result<()>,
{
    let mark = r.save();
    let depth = match r.collector() {
        Some(c) => {
            if let Some(step) = step {
                c.enter(step);
            }
            c.depth()
        }
        None => 0,
    };
    let res = match read(r) {
        Ok(()) => Ok(()),
        Err(e) => {
            *failed = true;
            crate::report::recover(r, mark, depth, e)
        }
    };
    if let Some(step) = step {
        if let Some(c) = r.collector() {
            c.leave();
        }
        // An error that stops reading names the member, as in a trusted read.
        return res.map_err(|e| crate::report::through(e, step.segment()));
    }
    res
}

/// Sends [`Member::Absent`] for each member not in `present`.
#[cold]
#[inline(never)]
fn send_absent(
    members: usize,
    present: Present,
    absent: &mut dyn FnMut(usize) -> Result<()>,
) -> Result<()> {
    // Not generic (one copy in all, not one per struct): it runs once per object at most.
    for m in 0..members {
        if !present.has(m) {
            absent(m)?;
        }
    }
    Ok(())
}

/// Which members of a struct an object set. The first 64 are one word that stays in a
/// register (most structs have fewer members; keeping them in an array on the stack cost 5% of
/// reading a small message); the others, for a struct that has more, are in [`HighMembers`]
/// (on the stack up to [`HighMembers::INLINE`] members, past them on the heap), so that no
/// struct of up to 256 members allocates to be read.
struct Present {
    low: u64,
    high: Option<HighMembers>,
}

/// The members of a struct past its first 64 that an object set.
struct HighMembers {
    mid: [u64; 3],
    more: Vec<u64>,
}

impl HighMembers {
    /// Members (the first 64 included) tracked without allocating.
    const INLINE: usize = 256;
}

impl Present {
    /// Tracks `members` members (0: nothing; setting is then one OR that nobody reads).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn new(members: usize) -> Present {
        Present {
            low: 0,
            high: (members > 64).then(|| HighMembers {
                mid: [0; 3],
                more: if members > HighMembers::INLINE {
                    vec![0; (members - HighMembers::INLINE).div_ceil(64)]
                } else {
                    Vec::new()
                },
            }),
        }
    }

    /// Marks member `m` of `members` (a constant where the derive calls: a struct of up to 64
    /// members then sets one bit, with no test).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn set(&mut self, m: usize, members: usize) {
        if members <= 64 || m < 64 {
            self.low |= 1 << (m % 64);
        } else if let Some(high) = &mut self.high {
            set_high(high, m);
        }
    }

    fn has(&self, m: usize) -> bool {
        let w = match (m / 64, &self.high) {
            (0, _) => self.low,
            (i, Some(high)) if i <= high.mid.len() => high.mid[i - 1],
            (_, Some(high)) => high.more[(m - HighMembers::INLINE) / 64],
            (_, None) => 0,
        };
        w & (1 << (m % 64)) != 0
    }

    /// Whether all of `members` were set: one compare for up to 64, bit by bit past them.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn all(&self, members: usize) -> bool {
        if members <= 64 {
            let mask = if members == 64 {
                u64::MAX
            } else {
                (1u64 << members) - 1
            };
            return self.low & mask == mask;
        }
        (0..members).all(|m| self.has(m))
    }
}

/// [`Present::set`] for a member past the first 64: out of line, so that the first word stays
/// in a register.
#[inline(never)]
fn set_high(high: &mut HighMembers, m: usize) {
    let w = match high.mid.get_mut(m / 64 - 1) {
        Some(w) => Some(w),
        None => high.more.get_mut((m - HighMembers::INLINE) / 64),
    };
    if let Some(w) = w {
        *w |= 1 << (m % 64);
    }
}

/// Reads a sequence of records into `out`, one call of `next(index, held)` per record (`None`
/// at the end): the first `out.len()` records into the elements already there (`held` is
/// `Some`, `next` returns `Ok(None)`), then new elements (`held` is `None`, `next` returns
/// `Ok(Some(value))`); `out` ends with one element per record. On an error, a held element
/// that was being read (possibly partly) is the last one kept.
pub(crate) fn read_records<T>(
    out: &mut Vec<T>,
    mut next: impl FnMut(usize, Option<&mut T>) -> Option<Result<Option<T>>>,
) -> Result<()> {
    let mut n = 0;
    let res = loop {
        match next(n, out.get_mut(n)) {
            Some(Ok(Some(v))) => {
                out.push(v);
                n += 1;
            }
            Some(Ok(None)) => n += 1,
            Some(Err(e)) => break Err(e),
            None => break Ok(()),
        }
    };
    let keep = if res.is_ok() {
        n
    } else {
        (n + 1).min(out.len())
    };
    out.truncate(keep);
    res
}

/// A key the struct's own table does not hold.
enum Unmatched {
    /// Passed over (the tag of an internally tagged enum, or unknown keys skipped).
    Skip,
    /// The member of a flattened field, with its name.
    Flat(usize, &'static str),
    /// An unknown key, an error.
    Unknown(String),
    /// A key kept by a flattened map.
    Rest(KeyCopy),
}

/// A copy of a key, so that the reader can go on while the key is used: on the stack when it
/// is short, so that reading into a map that holds the key already allocates nothing.
enum KeyCopy {
    /// The first `len` bytes.
    Short { len: u8, bytes: [u8; 48] },
    /// A longer key.
    Long(Vec<u8>),
}

impl KeyCopy {
    /// Copies `key`.
    #[inline]
    fn new(key: &[u8]) -> KeyCopy {
        match u8::try_from(key.len()) {
            Ok(len) if key.len() <= 48 => {
                let mut bytes = [0; 48];
                bytes[..key.len()].copy_from_slice(key);
                KeyCopy::Short { len, bytes }
            }
            _ => KeyCopy::Long(key.to_vec()),
        }
    }

    /// The key's text (`offset` is where the key started, for the error). The readers hand out
    /// checked keys, so this check only guards the conversion.
    #[inline]
    fn text(&self, offset: usize) -> Result<&str> {
        let bytes = match self {
            KeyCopy::Short { len, bytes } => &bytes[..usize::from(*len)],
            KeyCopy::Long(v) => v,
        };
        std::str::from_utf8(bytes).map_err(|_| Error::new(Code::InvalidUtf8, offset))
    }
}

/// `a == b` for the short byte strings keys are, without a call to `memcmp`: two overlapping
/// word loads for 4 to 16 bytes, a byte loop below that.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn key_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn w8(s: &[u8], i: usize) -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[i..i + 8]);
        u64::from_ne_bytes(w)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn w4(s: &[u8], i: usize) -> u32 {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[i..i + 4]);
        u32::from_ne_bytes(w)
    }
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

/// Which key set each field, when aliases, duplicate checks or missing-key checks need it.
/// Up to 64 fields live on the stack.
enum Seen {
    /// Nothing is tracked (no aliases, no duplicate or missing checks): costs nothing.
    Off,
    Small([u16; 64]),
    Large(Vec<u16>),
}

impl Seen {
    /// Inlined: most structs track nothing, and the call alone cost ~4% of reading a small
    /// message of three nested structs.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn new(fields: usize) -> Seen {
        if fields == 0 {
            Seen::Off
        } else if fields <= 64 {
            Seen::Small([0; 64])
        } else {
            Seen::Large(vec![0; fields])
        }
    }

    fn slots(&mut self) -> &mut [u16] {
        match self {
            Seen::Off => &mut [],
            Seen::Small(a) => a,
            Seen::Large(v) => v,
        }
    }

    /// Records that key `k` set field `f`; a second key for one field is an error when the two
    /// keys differ (name and alias) or when duplicates are rejected.
    fn mark(
        &mut self,
        f: usize,
        k: usize,
        info: &FieldsInfo,
        opts: &crate::reflect::ReadOptions,
        at: usize,
    ) -> Result<()> {
        let slot = &mut self.slots()[f];
        if *slot != 0 {
            let before = (*slot - 1) as usize;
            if before != k {
                return Err(Error::new(
                    Code::AliasConflict(info.keys[before].to_string(), info.keys[k].to_string()),
                    at,
                ));
            }
            if opts.error_on_duplicate_keys {
                return Err(Error::new(Code::DuplicateKey(info.keys[k].to_string()), at));
            }
        }
        *slot = k as u16 + 1;
        Ok(())
    }
}

/// Reads a generic array into a Vec, reusing the existing elements.
pub fn read_vec_generic<'de, T, R>(out: &mut Vec<T>, r: &mut R) -> Result<()>
where
    T: Reflect<'de>,
    R: Reader<'de>,
{
    if R::COLLECTS && r.collector().is_some_and(|c| c.active()) {
        return collect_vec(out, r);
    }
    let mut seq = r.begin_array()?;
    stack_for::<T>(r.offset())?;
    if let Some(n) = r.remaining_hint(&seq) {
        out.reserve(reservation::<T>(n).saturating_sub(out.len()));
    }
    let mut n = 0;
    while r.next_element(&mut seq)? {
        if n < out.len() {
            out[n].read(r)
        } else if let Some(v) = T::default_value() {
            // Read in place into the default value (which gives what `read_new` gives),
            // rather than moving a new value in.
            out.push(v);
            out[n].read(r)
        } else {
            T::read_new(r).map(|v| out.push(v))
        }
        .map_err(|e| e.push_path(PathSegment::Index(n)))?;
        n += 1;
    }
    out.truncate(n);
    Ok(())
}

/// [`read_vec_generic`] for a collecting reader: an element that fails is recorded and
/// skipped, and the others are read; the array is then reported as failed.
#[inline(never)]
fn collect_vec<'de, T, R>(out: &mut Vec<T>, r: &mut R) -> Result<()>
where
    T: Reflect<'de>,
    R: Reader<'de>,
{
    let mut seq = r.begin_array()?;
    stack_for::<T>(r.offset())?;
    if let Some(n) = r.remaining_hint(&seq) {
        out.reserve(reservation::<T>(n).saturating_sub(out.len()));
    }
    let mut n = 0;
    let mut failed = false;
    while r.next_element(&mut seq)? {
        collect_member(r, Some(Step::Index(n)), &mut failed, |r| {
            if n < out.len() {
                out[n].read(r)
            } else {
                T::read_new(r).map(|v| out.push(v))
            }
        })?;
        n += 1;
    }
    out.truncate(n);
    if failed {
        Err(crate::report::reported(r.offset()))
    } else {
        Ok(())
    }
}

/// Bytes reserved up front at most for the elements of one array, whatever count a document
/// announces: a count costs the input one byte per element at least, but an element may take
/// kilobytes in memory, so a short hostile input could otherwise ask for gigabytes. Past this
/// the vector grows as its elements are read, each doubling paid for by elements that are
/// really there.
const RESERVE_BYTES: usize = 1 << 20;

/// How many elements of `T` to reserve for an array that announces `n`: all of them while
/// they fit in [`RESERVE_BYTES`].
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn reservation<T>(n: usize) -> usize {
    n.min(RESERVE_BYTES / std::mem::size_of::<T>().max(1))
}

/// Reads a generic array of exactly `out.len()` elements.
pub fn read_slice_generic<'de, T, R>(out: &mut [T], r: &mut R) -> Result<()>
where
    T: Reflect<'de>,
    R: Reader<'de>,
{
    let mut seq = r.begin_array()?;
    for i in 0..out.len() {
        expect_element(r, &mut seq, i, out.len())?;
        out[i]
            .read(r)
            .map_err(|e| e.push_path(PathSegment::Index(i)))?;
    }
    expect_end(r, &mut seq, out.len())
}

/// Reads an array of numbers element by element (formats without a bulk form).
pub fn read_numbers_generic<'de, N, R>(r: &mut R, out: &mut Vec<N>) -> Result<()>
where
    N: Number,
    R: Reader<'de> + ?Sized,
{
    let mut seq = r.begin_array()?;
    out.clear();
    while r.next_element(&mut seq)? {
        let n = out.len();
        let v = r
            .read_number::<N>()
            .map_err(|e| e.push_path(PathSegment::Index(n)))?;
        out.push(v);
    }
    Ok(())
}

/// Reads an array of exactly `out.len()` numbers element by element.
pub fn read_numbers_into_slice_generic<'de, N, R>(r: &mut R, out: &mut [N]) -> Result<()>
where
    N: Number,
    R: Reader<'de> + ?Sized,
{
    let mut seq = r.begin_array()?;
    for i in 0..out.len() {
        expect_element(r, &mut seq, i, out.len())?;
        out[i] = r
            .read_number::<N>()
            .map_err(|e| e.push_path(PathSegment::Index(i)))?;
    }
    expect_end(r, &mut seq, out.len())
}

/// Reads an array of booleans element by element.
pub fn read_bools_generic<'de, R>(r: &mut R, out: &mut Vec<bool>) -> Result<()>
where
    R: Reader<'de> + ?Sized,
{
    let mut seq = r.begin_array()?;
    out.clear();
    while r.next_element(&mut seq)? {
        let n = out.len();
        let v = r
            .read_bool()
            .map_err(|e| e.push_path(PathSegment::Index(n)))?;
        out.push(v);
    }
    Ok(())
}

/// Moves to element `i` of a fixed-length array of `len`; too few elements is an error.
#[inline]
pub fn expect_element<'de, R>(r: &mut R, seq: &mut R::Seq, i: usize, len: usize) -> Result<()>
where
    R: Reader<'de> + ?Sized,
{
    if r.next_element(seq)? {
        Ok(())
    } else {
        Err(Error::new(
            Code::WrongLength {
                expected: len,
                found: i,
            },
            r.offset(),
        ))
    }
}

/// Checks that a fixed-length array of `len` has no more elements.
#[inline]
pub fn expect_end<'de, R>(r: &mut R, seq: &mut R::Seq, len: usize) -> Result<()>
where
    R: Reader<'de> + ?Sized,
{
    if r.next_element(seq)? {
        Err(Error::new(
            Code::WrongLength {
                expected: len,
                found: len + 1,
            },
            r.offset(),
        ))
    } else {
        Ok(())
    }
}

/// [`Reader::read_complex`]'s default: a two-element array of numbers.
pub fn read_complex_generic<'de, N, R>(r: &mut R) -> Result<[N; 2]>
where
    N: Number,
    R: Reader<'de>,
{
    let mut seq = r.begin_array()?;
    expect_element(r, &mut seq, 0, 2)?;
    let re = r
        .read_number()
        .map_err(|e| e.push_path(PathSegment::Index(0)))?;
    expect_element(r, &mut seq, 1, 2)?;
    let im = r
        .read_number()
        .map_err(|e| e.push_path(PathSegment::Index(1)))?;
    expect_end(r, &mut seq, 2)?;
    Ok([re, im])
}

/// [`Reader::read_complex_vec`]'s default: an array of [`Reader::read_complex`].
pub fn read_complex_vec_generic<'de, N, R>(r: &mut R, out: &mut Vec<[N; 2]>) -> Result<()>
where
    N: Number,
    R: Reader<'de>,
{
    let mut seq = r.begin_array()?;
    let mut n = 0;
    while r.next_element(&mut seq)? {
        let c = r
            .read_complex()
            .map_err(|e| e.push_path(PathSegment::Index(n)))?;
        match out.get_mut(n) {
            Some(slot) => *slot = c,
            None => out.push(c),
        }
        n += 1;
    }
    out.truncate(n);
    Ok(())
}

/// [`Reader::read_matrix`]'s default: `[extents, data]`, two numeric arrays, no layout.
pub fn read_matrix_generic<'de, N, R>(
    r: &mut R,
    extents: &mut Vec<u64>,
    data: &mut Vec<N>,
) -> Result<Option<crate::Layout>>
where
    N: Number,
    R: Reader<'de>,
{
    let mut seq = r.begin_array()?;
    expect_element(r, &mut seq, 0, 2)?;
    r.read_typed_vec(extents)
        .map_err(|e| e.push_path(PathSegment::Index(0)))?;
    expect_element(r, &mut seq, 1, 2)?;
    r.read_typed_vec(data)
        .map_err(|e| e.push_path(PathSegment::Index(1)))?;
    expect_end(r, &mut seq, 2)?;
    Ok(None)
}

/// A new value read through an API that reads into a `&mut` (the stream readers'
/// `read_into`): reading it reads a `T` with [`Reflect::read_new`], so that `T` needs no
/// `Default`.
pub(crate) struct Fresh<T>(Option<T>);

impl<T> Fresh<T> {
    /// Nothing read yet.
    pub(crate) fn new() -> Fresh<T> {
        Fresh(None)
    }

    /// The value read, after `read_into` reported success (which reads it).
    pub(crate) fn take(self) -> Result<T> {
        self.0
            .ok_or_else(|| Error::custom("the record was reported read but holds no value", 0))
    }
}

impl<'de, T: Reflect<'de>> Reflect<'de> for Fresh<T> {
    fn write<W: crate::reflect::Writer>(&self, w: &mut W) {
        match &self.0 {
            Some(v) => v.write(w),
            None => w.null(),
        }
    }
    #[inline]
    fn read<R: Reader<'de>>(&mut self, r: &mut R) -> Result<()> {
        self.0 = Some(T::read_new(r)?);
        Ok(())
    }
    #[inline]
    fn read_new<R: Reader<'de>>(r: &mut R) -> Result<Self> {
        T::read_new(r).map(|v| Fresh(Some(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::Present;

    /// Every member count around the word boundaries and past the inline words: a member is
    /// present exactly when it was set, and `all` says so only when every one was.
    #[test]
    fn present_tracks_every_member_inline_and_past_it() {
        for members in [1, 63, 64, 65, 128, 255, 256, 257, 400] {
            let mut p = Present::new(members);
            for m in (0..members).step_by(2) {
                p.set(m, members);
            }
            for m in 0..members {
                assert_eq!(p.has(m), m % 2 == 0, "{members}: {m}");
            }
            assert_eq!(p.all(members), members == 1, "{members}");
            for m in (1..members).step_by(2) {
                p.set(m, members);
            }
            assert!(p.all(members), "{members}");
        }
    }

    #[test]
    fn key_eq_agrees_with_slice_equality() {
        let words: Vec<Vec<u8>> = (0..20)
            .map(|n| (0..n).map(|i| b'a' + (i % 26) as u8).collect())
            .collect();
        for a in &words {
            for b in &words {
                assert_eq!(super::key_eq(a, b), a == b);
                for i in 0..b.len() {
                    let mut c = b.clone();
                    c[i] ^= 1;
                    assert_eq!(super::key_eq(a, &c), *a == c, "{a:?} {c:?}");
                }
            }
        }
    }
}
