//! Reading one value at a JSON pointer ([`get`]) from BEVE without reading the rest.
//!
//! Members and elements before the one followed are skipped by the walk of [`super::skip`],
//! which checks them as [`super::from_beve`] does; lengths are known up front, so an index out
//! of range is found without walking the array, and an element of a typed array (numeric,
//! bool, string) is reached without decoding the others (the strings before it are checked).

use crate::error::{Code, Error, PathSegment, Result};
use crate::json::get::{
    index_problem, invalid_pointer, no_member, not_container, not_found, out_of_range, with_path,
};
use crate::pointer::Pointer;
use crate::reflect::{ReadOptions, Reflect};
use crate::value::IntKey;

use super::header::{self, describe, eof, invalid, major, Keys};
use super::length_prefix;
use super::read::{is_numeric_array, BeveReader};
use super::transcode::{bit, bool_bits, fits, num_array, sized_str, take};
use super::Options;

/// Reads the value at the JSON pointer `pointer` (RFC 6901) in BEVE as a `T`, without reading
/// the rest of the input: as [`crate::json::get`] for JSON. Tokens find members of objects with
/// string keys by name and of objects with integer keys by value (`/7`, `/-2`), and elements
/// of generic arrays and of typed arrays (numeric, bool and string arrays) by index.
///
/// ```
/// use std::collections::BTreeMap;
/// let doc = BTreeMap::from([("xs", vec![1.5f64, 2.5, 3.5])]);
/// let bytes = structio::to_beve(&doc);
/// let x: f64 = structio::beve::get(&bytes, "/xs/2").unwrap();
/// assert_eq!(x, 3.5);
/// assert!(structio::beve::get::<f64>(&bytes, "/xs/3").is_err());
/// ```
pub fn get<'de, T>(input: &'de (impl AsRef<[u8]> + ?Sized), pointer: &str) -> Result<T>
where
    T: Reflect<'de>,
{
    get_with(input, pointer, &Options::DEFAULT)
}

/// [`get`] with options (the reader's options: depth limit, unknown keys, ...).
pub fn get_with<'de, T>(
    input: &'de (impl AsRef<[u8]> + ?Sized),
    pointer: &str,
    opts: &Options,
) -> Result<T>
where
    T: Reflect<'de>,
{
    let input = input.as_ref();
    let p = Pointer::parse(pointer).map_err(|why| invalid_pointer(pointer, why))?;
    let mut path = Vec::new();
    let mut r = find(input, p, opts.read, &mut path).map_err(|e| with_path(e, &path))?;
    T::read_new(&mut r).map_err(|e| with_path(e, &path))
}

/// Enters one level of nesting at `at`.
#[inline]
fn enter(depth: &mut usize, max_depth: usize, at: usize) -> Result<()> {
    if *depth >= max_depth {
        return Err(Error::new(Code::DepthLimit(max_depth), at));
    }
    *depth += 1;
    Ok(())
}

/// Follows `p` from the start of `input`; returns a reader standing at the value it names.
fn find<'de>(
    input: &'de [u8],
    p: Pointer<'_>,
    opts: ReadOptions,
    path: &mut Vec<PathSegment>,
) -> Result<BeveReader<'de>> {
    let max_depth = opts.max_depth;
    let mut pos = 0;
    let mut depth = 0;
    // The implied header of a typed array's element the pointer ends at.
    let mut pending = None;
    for (n, token) in p.tokens().enumerate() {
        if pending.is_some() {
            // An element of a typed array: a number, a bool or a string.
            let what = match pending {
                Some(header::STRING) => "a string",
                Some(header::TRUE | header::FALSE) => "a boolean",
                _ => "a number",
            };
            return Err(not_found(p, not_container(p, n, what), pos, path));
        }
        let at = pos;
        let Some(&h) = input.get(at) else {
            return Err(eof(at));
        };
        pos += 1;
        let not_here = |why: String, path: &[PathSegment]| not_found(p, why, at, path);
        match major(h) {
            header::MAJOR_OBJECT => {
                let keys = header::object_keys(h, at)?;
                let count = length_prefix::read(input, &mut pos)?;
                let min_member = match keys {
                    Keys::Str => 2,
                    Keys::Int(k) => k.size() + 1,
                };
                if !fits(count, min_member, input.len() - pos) {
                    return Err(eof(at));
                }
                enter(&mut depth, max_depth, at)?;
                let want = match keys {
                    Keys::Str => None,
                    Keys::Int(_) => match IntKey::parse(&token) {
                        Some(k) => Some(k),
                        None => {
                            let why = format!(
                                "{} is not an integer key",
                                crate::error::quoted_string(&token)
                            );
                            return Err(not_here(why, path));
                        }
                    },
                };
                let mut found = false;
                for _ in 0..count {
                    found = match keys {
                        Keys::Str => sized_str(input, &mut pos)? == token,
                        Keys::Int(k) => {
                            let b = take(input, pos, k.size(), pos)?;
                            pos += k.size();
                            let key = with_kind!(k, N => IntKey::from_wire(
                                crate::number::Number::to_wire(
                                    <N as crate::number::Number>::from_le_slice(b),
                                ),
                            ));
                            key == want
                        }
                    };
                    if found {
                        break;
                    }
                    pos = super::skip::skip(input, pos, depth, max_depth)?;
                }
                if !found {
                    return Err(not_here(no_member(&token), path));
                }
                path.push(PathSegment::Key(token.into_owned()));
            }
            header::MAJOR_GENERIC_ARRAY | header::MAJOR_TYPED_ARRAY => {
                if major(h) == header::MAJOR_GENERIC_ARRAY && h != header::GENERIC_ARRAY {
                    return Err(invalid(h, at));
                }
                if major(h) == header::MAJOR_TYPED_ARRAY
                    && !matches!(h, header::BOOL_ARRAY | header::STR_ARRAY)
                    && !is_numeric_array(h)
                {
                    return Err(invalid(h, at));
                }
                // The array's own shape first, as the skipping walk checks it.
                let (count, elems) = match h {
                    header::GENERIC_ARRAY | header::STR_ARRAY => {
                        let count = length_prefix::read(input, &mut pos)?;
                        if count > input.len() - pos {
                            return Err(eof(at));
                        }
                        (count, pos)
                    }
                    header::BOOL_ARRAY => {
                        let (count, _, _) = bool_bits(input, pos, at)?;
                        (count, pos)
                    }
                    _ => {
                        let a = num_array(input, pos, h, at)?;
                        (a.count, a.end - a.data.len())
                    }
                };
                enter(&mut depth, max_depth, at)?;
                let k = match crate::pointer::index(&token) {
                    Ok(k) if k < count => k,
                    Ok(k) => return Err(not_here(out_of_range(k, count), path)),
                    Err(why) => return Err(not_here(index_problem(&token, why), path)),
                };
                pos = elems;
                match h {
                    header::GENERIC_ARRAY => {
                        for _ in 0..k {
                            pos = super::skip::skip(input, pos, depth, max_depth)?;
                        }
                    }
                    header::STR_ARRAY => {
                        for _ in 0..k {
                            sized_str(input, &mut pos)?;
                        }
                        pending = Some(header::STRING);
                    }
                    header::BOOL_ARRAY => {
                        // `pos` is at the SIZE; the bits follow it.
                        let (_, bits, _) = bool_bits(input, pos, at)?;
                        pending = Some(if bit(bits, k) {
                            header::TRUE
                        } else {
                            header::FALSE
                        });
                    }
                    _ => {
                        let a = num_array(input, at + 1, h, at)?;
                        pos = elems + k * a.kind.size();
                        pending = Some(header::number(a.kind));
                    }
                }
                path.push(PathSegment::Index(k));
            }
            _ => {
                // Not a container: check it is well-formed, then say what it is.
                super::skip::skip(input, at, depth, max_depth)?;
                let what = describe(h);
                return Err(not_here(not_container(p, n, what), path));
            }
        }
    }
    Ok(BeveReader {
        input,
        pos,
        depth,
        pending,
        opts,
        reread: 0,
    })
}
