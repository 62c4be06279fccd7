//! The serde `Serializer` over any structio [`Writer`]: each serde call becomes the writer call
//! a derived type makes for the same value, so the output is what `#[derive(Reflect)]` writes.
//!
//! What a serde call alone does not tell is found out on the way:
//! - A struct member or map entry whose value is `None` is left out (unless the writer writes
//!   null members), as a derived struct leaves it out: its key is written only once its value
//!   shows it is something else. The object is started with [`Writer::begin_open`], so a
//!   format that writes counts (BEVE) corrects the count at the end.
//! - The elements of a sequence (`Vec`, slices, sets, arrays, tuples) that are all numbers of
//!   one type, all booleans or all strings are gathered and written as one typed array
//!   ([`Writer::typed_array`], [`Writer::bool_array`], [`Writer::str_array`]), as a derived
//!   type writes a `Vec<f64>`, `Vec<bool>` or `Vec<String>`; the first element of another
//!   kind turns the sequence into a generic array, the gathered elements written first.
//! - A map's keys decide its kind: strings (and `char`, `bool`) make an object with string
//!   keys, integers one with integer keys of that type, unit variants one keyed by the
//!   variant's index (its name in JSON), as a map keyed by a unit-only enum is.

use ::serde::ser::{self, Impossible, Serialize};

use crate::beve::AlignedBytes;
use crate::error::{Error, Result};
use crate::number::{NumKind, Number, Wire};
use crate::reflect::{KeyKind, Open, Writer};

/// The name of the newtype struct through which [`crate::Value::Extension`] hands its BEVE
/// bytes to the bridge, which writes them with [`Writer::raw_beve`].
pub(crate) const EXTENSION: &str = "$structio::beve_extension";

/// Runs `$body` with `$N` the Rust type of a [`NumKind`].
macro_rules! by_num_kind {
    ($kind:expr, $N:ident => $body:expr) => {
        match $kind {
            NumKind::I8 => {
                type $N = i8;
                $body
            }
            NumKind::I16 => {
                type $N = i16;
                $body
            }
            NumKind::I32 => {
                type $N = i32;
                $body
            }
            NumKind::I64 => {
                type $N = i64;
                $body
            }
            NumKind::I128 => {
                type $N = i128;
                $body
            }
            NumKind::U8 => {
                type $N = u8;
                $body
            }
            NumKind::U16 => {
                type $N = u16;
                $body
            }
            NumKind::U32 => {
                type $N = u32;
                $body
            }
            NumKind::U64 => {
                type $N = u64;
                $body
            }
            NumKind::U128 => {
                type $N = u128;
                $body
            }
            NumKind::F16 => {
                type $N = half::f16;
                $body
            }
            NumKind::BF16 => {
                type $N = half::bf16;
                $body
            }
            NumKind::F32 => {
                type $N = f32;
                $body
            }
            NumKind::F64 => {
                type $N = f64;
                $body
            }
        }
    };
}
pub(crate) use by_num_kind;

/// The elements of the sequence being gathered into one typed array (one of the three is in
/// use at a time: gathering stops at the first element that is not a number, bool or string,
/// so sequences never gather inside each other).
#[derive(Default)]
struct Gathered {
    /// Numbers of one type, as bytes in a 16-aligned buffer (viewed as `&[N]` at the end).
    nums: AlignedBytes,
    bools: Vec<bool>,
    /// The strings, one after the other; `ends[i]` is where string `i` ends.
    text: String,
    ends: Vec<usize>,
}

impl Gathered {
    /// Empties the buffers (keeping their memory).
    fn clear(&mut self) {
        self.nums.clear();
        self.bools.clear();
        self.text.clear();
        self.ends.clear();
    }
}

/// The serializer: a writer, and the elements of a sequence being gathered.
pub(crate) struct Ser<'w, W> {
    pub(crate) w: &'w mut W,
    gathered: Gathered,
}

impl<'w, W: Writer> Ser<'w, W> {
    /// A serializer writing to `w`.
    pub(crate) fn new(w: &'w mut W) -> Self {
        Ser {
            w,
            gathered: Gathered::default(),
        }
    }
}

/// "map keys must be ..." for a key of another kind.
#[cold]
fn key_error(found: &str) -> Error {
    Error::custom(
        format!(
            "a map key must be a string, an integer, a char, a bool or a unit variant, not {found}"
        ),
        0,
    )
}

/// The error for a map whose keys are not all of one kind.
#[cold]
fn mixed_keys() -> Error {
    Error::custom(
        "the keys of one map must all be strings or all be integers of one type",
        0,
    )
}

/// The error for a sequence or tuple whose `Serialize` impl announced one length and gave
/// another number of elements.
#[cold]
fn wrong_count(announced: usize, found: usize) -> Error {
    Error::custom(
        format!("a sequence announced {announced} elements and gave {found}"),
        0,
    )
}

impl<'a, 'w, W: Writer> ser::Serializer for &'a mut Ser<'w, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Seq<'a, 'w, W>;
    type SerializeTuple = Seq<'a, 'w, W>;
    type SerializeTupleStruct = Tuple<'a, 'w, W>;
    type SerializeTupleVariant = Tuple<'a, 'w, W>;
    type SerializeMap = MapSer<'a, 'w, W>;
    type SerializeStruct = StructSer<'a, 'w, W>;
    type SerializeStructVariant = StructSer<'a, 'w, W>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.w.bool(v);
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.w.number(v);
        Ok(())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.w.char(v);
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.w.str(v);
        Ok(())
    }
    /// A `u8` typed array (a JSON array of numbers), as a `Vec<u8>` is.
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.w.typed_array(v);
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.w.null();
        Ok(())
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.w.null();
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.w.null();
        Ok(())
    }
    /// The variant's name in JSON, its index as an `i32` in BEVE: what a derived unit-only
    /// enum without explicit discriminants or `#[repr]` writes.
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.w
            .unit_variant(variant, i128::from(index), NumKind::I32);
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == EXTENSION {
            return value.serialize(RawBeve(&mut *self.w));
        }
        value.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.w.begin_object(1);
        self.w.key(variant);
        value.serialize(&mut *self)?;
        self.w.end_object();
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a, 'w, W>> {
        Ok(Seq::new(self, len))
    }
    /// As `serialize_seq` and an element at a time, except that an empty sequence whose
    /// element type is a number, `bool` or string type is written as an empty typed array of
    /// that type, as a derived type writes an empty `Vec<f64>` (see [`empty_kind`]).
    #[inline]
    fn collect_seq<I>(self, iter: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        let iter = iter.into_iter();
        let len = match iter.size_hint() {
            (lo, Some(hi)) if lo == hi => Some(lo),
            _ => None,
        };
        let mut seq = Seq::new(self, len);
        if len == Some(0) {
            seq.kind = empty_kind::<I::Item>();
            seq.ser.gathered.clear();
        }
        for item in iter {
            ser::SerializeSeq::serialize_element(&mut seq, &item)?;
        }
        seq.finish()
    }
    /// As a sequence: serde calls this for arrays (`[f64; 2]`, a typed array, as a derived
    /// type writes it) and for tuples alike.
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'w, W>> {
        Ok(Seq::new(self, Some(len)))
    }
    /// A generic array, as a derived tuple struct is.
    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Tuple<'a, 'w, W>> {
        self.w.begin_array(len);
        Ok(Tuple {
            ser: self,
            len,
            count: 0,
            variant: false,
        })
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tuple<'a, 'w, W>> {
        self.w.begin_object(1);
        self.w.key(variant);
        self.w.begin_array(len);
        Ok(Tuple {
            ser: self,
            len,
            count: 0,
            variant: true,
        })
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<MapSer<'a, 'w, W>> {
        Ok(MapSer {
            ser: self,
            head: Head {
                kind: None,
                mark: 0,
                hint: len,
            },
            written: 0,
            offered: 0,
            pending: Pending::None,
            empty_keys: KeyKind::Str,
        })
    }
    /// As `serialize_map` and an entry at a time, except that an empty map whose key type is
    /// an integer type is written with integer keys of that type, as a derived type writes an
    /// empty `BTreeMap<u32, _>` (see [`empty_kind`]).
    #[inline]
    fn collect_map<K, V, I>(self, iter: I) -> Result<()>
    where
        K: Serialize,
        V: Serialize,
        I: IntoIterator<Item = (K, V)>,
    {
        let iter = iter.into_iter();
        let len = match iter.size_hint() {
            (lo, Some(hi)) if lo == hi => Some(lo),
            _ => None,
        };
        let mut map = ser::Serializer::serialize_map(self, len)?;
        if len == Some(0) {
            if let Kind::Nums(k) = empty_kind::<K>() {
                if !k.is_float() {
                    map.empty_keys = KeyKind::Int(k);
                }
            }
        }
        for (k, v) in iter {
            ser::SerializeMap::serialize_entry(&mut map, &k, &v)?;
        }
        ser::SerializeMap::end(map)
    }
    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<StructSer<'a, 'w, W>> {
        let mark = self.w.begin_open(Open::Struct, Some(len));
        Ok(StructSer {
            ser: self,
            name,
            mark,
            hint: len,
            written: 0,
            variant: false,
        })
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructSer<'a, 'w, W>> {
        self.w.begin_object(1);
        self.w.key(variant);
        let mark = self.w.begin_open(Open::Struct, Some(len));
        Ok(StructSer {
            ser: self,
            name: "",
            mark,
            hint: len,
            written: 0,
            variant: true,
        })
    }
    #[inline]
    fn is_human_readable(&self) -> bool {
        self.w.is_human_readable()
    }
}

// ---------------------------------------------------------------------------------------------
// Sequences: gathered into a typed array while every element is a number of one type, a bool
// or a string.

/// What a sequence holds so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No element yet.
    Empty,
    /// Numbers of one type, gathered.
    Nums(NumKind),
    /// Booleans, gathered.
    Bools,
    /// Strings, gathered.
    Strs,
    /// A generic array, being written.
    Generic,
}

/// What an empty sequence of `T`s is written as: an empty typed array when `T` (or what it
/// refers to) is a number, `bool` or string type of the standard library, else an empty
/// generic array. Found from the type's name, the one thing serde's `collect_seq` tells about
/// the elements of an empty sequence (and `collect_map` about the keys of an empty map); a
/// type it does not know gives a generic array (an object with string keys).
fn empty_kind<T: ?Sized>() -> Kind {
    let name = std::any::type_name::<T>().trim_start_matches('&');
    match name {
        "i8" => Kind::Nums(NumKind::I8),
        "i16" => Kind::Nums(NumKind::I16),
        "i32" => Kind::Nums(NumKind::I32),
        "i64" => Kind::Nums(NumKind::I64),
        "i128" => Kind::Nums(NumKind::I128),
        "u8" => Kind::Nums(NumKind::U8),
        "u16" => Kind::Nums(NumKind::U16),
        "u32" => Kind::Nums(NumKind::U32),
        "u64" => Kind::Nums(NumKind::U64),
        "u128" => Kind::Nums(NumKind::U128),
        "f32" => Kind::Nums(NumKind::F32),
        "f64" => Kind::Nums(NumKind::F64),
        "bool" => Kind::Bools,
        "str"
        | "alloc::string::String"
        | "alloc::borrow::Cow<str>"
        | "alloc::boxed::Box<str>"
        | "alloc::rc::Rc<str>"
        | "alloc::sync::Arc<str>" => Kind::Strs,
        _ => Kind::Empty,
    }
}

/// Bytes of numbers a [`Seq`] gathers in itself before it moves them to the serializer's
/// buffer: an array `[f64; 2]`, a short `Vec<u32>` never leave the stack.
const INLINE: usize = 64;

/// `SerializeSeq` and `SerializeTuple`.
pub(crate) struct Seq<'a, 'w, W> {
    ser: &'a mut Ser<'w, W>,
    len: Option<usize>,
    kind: Kind,
    count: usize,
    /// From [`Writer::begin_open`], for a generic array of unknown length.
    mark: usize,
    /// The first [`INLINE`] bytes of gathered numbers (16-aligned, so that they can be viewed
    /// as any number type), then all of them in `Gathered::nums` (`spilled`).
    small: [u128; INLINE / 16],
    bytes: usize,
    spilled: bool,
}

impl<'a, 'w, W: Writer> Seq<'a, 'w, W> {
    #[inline]
    fn new(ser: &'a mut Ser<'w, W>, len: Option<usize>) -> Self {
        Seq {
            ser,
            len,
            kind: Kind::Empty,
            count: 0,
            mark: 0,
            small: [0; INLINE / 16],
            bytes: 0,
            spilled: false,
        }
    }

    /// Adds a number: gathered when it is the first element or of the type of those
    /// gathered, written as an element of a generic array otherwise. (Numbers are gathered for
    /// every writer: a text writer lays a whole array of them out in one loop.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn number<N: Number>(&mut self, v: N) {
        match self.kind {
            Kind::Nums(k) if k == N::KIND => {}
            Kind::Empty => self.kind = Kind::Nums(N::KIND),
            _ => return self.slot().w.number(v),
        }
        let b = bytemuck::bytes_of(&v);
        let end = self.bytes + b.len();
        if end <= INLINE && !self.spilled {
            bytemuck::bytes_of_mut(&mut self.small)[self.bytes..end].copy_from_slice(b);
            self.bytes = end;
        } else {
            self.push_spilled(b);
        }
        self.count += 1;
    }

    /// Adds a number's bytes to the serializer's buffer, moving the inline ones there first.
    #[inline]
    fn push_spilled(&mut self, b: &[u8]) {
        let nums = &mut self.ser.gathered.nums;
        if !self.spilled {
            self.spilled = true;
            nums.clear();
            nums.extend_from_slice(&bytemuck::bytes_of(&self.small)[..self.bytes]);
        }
        nums.extend_from_slice(b);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bool(&mut self, v: bool) {
        match self.kind {
            _ if !W::PACKS_ARRAYS => return self.slot().w.bool(v),
            Kind::Bools => {}
            Kind::Empty => {
                self.kind = Kind::Bools;
                self.ser.gathered.bools.clear();
            }
            _ => return self.slot().w.bool(v),
        }
        self.ser.gathered.bools.push(v);
        self.count += 1;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn str(&mut self, v: &str) {
        match self.kind {
            _ if !W::PACKS_ARRAYS => return self.slot().w.str(v),
            Kind::Strs => {}
            Kind::Empty => {
                self.kind = Kind::Strs;
                self.ser.gathered.text.clear();
                self.ser.gathered.ends.clear();
            }
            _ => return self.slot().w.str(v),
        }
        let g = &mut self.ser.gathered;
        g.text.push_str(v);
        g.ends.push(g.text.len());
        self.count += 1;
    }

    /// The serializer for the next element of a generic array (turning the sequence into one
    /// if it is not yet), after the separator.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn slot(&mut self) -> &mut Ser<'w, W> {
        if self.kind != Kind::Generic {
            self.turn_generic();
        }
        if self.count > 0 {
            self.ser.w.sep();
        }
        self.count += 1;
        &mut *self.ser
    }

    /// [`Self::go_generic`] out of line, where a sequence of gathered elements meets one of
    /// another kind.
    #[cold]
    #[inline(never)]
    fn turn_generic(&mut self) {
        self.go_generic()
    }

    /// Starts the generic array and writes the elements gathered so far into it.
    #[inline]
    fn go_generic(&mut self) {
        let ser = &mut *self.ser;
        match self.len {
            Some(n) => ser.w.begin_array(n),
            None => self.mark = ser.w.begin_open(Open::Array, None),
        }
        let g = &ser.gathered;
        match self.kind {
            Kind::Nums(k) => by_num_kind!(k, N => {
                let items: &[N] = if self.spilled {
                    bytemuck::cast_slice(g.nums.as_slice())
                } else {
                    bytemuck::cast_slice(&bytemuck::bytes_of(&self.small)[..self.bytes])
                };
                for (i, &x) in items.iter().enumerate() {
                    if i > 0 {
                        ser.w.sep();
                    }
                    ser.w.number(x);
                }
            }),
            Kind::Bools => {
                for (i, &b) in g.bools.iter().enumerate() {
                    if i > 0 {
                        ser.w.sep();
                    }
                    ser.w.bool(b);
                }
            }
            Kind::Strs => {
                let mut from = 0;
                for (i, &end) in g.ends.iter().enumerate() {
                    if i > 0 {
                        ser.w.sep();
                    }
                    ser.w.str(&g.text[from..end]);
                    from = end;
                }
            }
            Kind::Empty | Kind::Generic => {}
        }
        self.kind = Kind::Generic;
    }

    /// Writes what was gathered, or ends the generic array. (By reference: moving a `Seq`,
    /// with its inline numbers, into the call copied it through the stack, reloading words
    /// just stored in pieces, a store-forwarding stall per sequence.)
    #[inline]
    fn finish(&mut self) -> Result<()> {
        let ser = &mut *self.ser;
        let g = &ser.gathered;
        match self.kind {
            Kind::Empty => {
                ser.w.begin_array(0);
                ser.w.end_array();
            }
            Kind::Nums(k) => by_num_kind!(k, N => {
                let items: &[N] = if self.spilled {
                    bytemuck::cast_slice(g.nums.as_slice())
                } else {
                    bytemuck::cast_slice(&bytemuck::bytes_of(&self.small)[..self.bytes])
                };
                ser.w.typed_array::<N>(items)
            }),
            Kind::Bools => ser.w.bool_array(g.bools.iter().copied()),
            Kind::Strs => {
                let text = &g.text;
                let mut from = 0;
                ser.w.str_array(g.ends.iter().map(|&end| {
                    let s = &text[from..end];
                    from = end;
                    s
                }));
            }
            Kind::Generic => match self.len {
                Some(n) if n != self.count => return Err(wrong_count(n, self.count)),
                Some(_) => ser.w.end_array(),
                None => ser
                    .w
                    .end_open(Open::Array, self.mark, None, self.count, false),
            },
        }
        Ok(())
    }
}

impl<W: Writer> ser::SerializeSeq for Seq<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(Elem(self))
    }
    #[inline]
    fn end(mut self) -> Result<()> {
        self.finish()
    }
}

impl<W: Writer> ser::SerializeTuple for Seq<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(Elem(self))
    }
    #[inline]
    fn end(mut self) -> Result<()> {
        self.finish()
    }
}

/// The serializer of one element of a [`Seq`]: numbers, bools and strings go to the sequence
/// (which gathers them); anything else makes it a generic array and is written there.
struct Elem<'b, 'a, 'w, W>(&'b mut Seq<'a, 'w, W>);

/// Methods of [`Elem`] and [`Member`] (all but `serialize_none`, `serialize_newtype_struct`,
/// `serialize_unit_variant` and the scalars) that hand the value to the main serializer once
/// the method `$open` has made room for it.
macro_rules! forward_compound {
    ($open:ident) => {
        #[inline]
        fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
            value.serialize(self.$open()?)
        }
        #[inline]
        fn serialize_char(self, v: char) -> Result<()> {
            self.$open()?.w.char(v);
            Ok(())
        }
        #[inline]
        fn serialize_bytes(self, v: &[u8]) -> Result<()> {
            self.$open()?.w.typed_array(v);
            Ok(())
        }
        #[inline]
        fn serialize_unit(self) -> Result<()> {
            self.$open()?.w.null();
            Ok(())
        }
        #[inline]
        fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
            self.$open()?.w.null();
            Ok(())
        }
        #[inline]
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            name: &'static str,
            index: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<()> {
            ser::Serializer::serialize_newtype_variant(self.$open()?, name, index, variant, value)
        }
        #[inline]
        fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
            ser::Serializer::serialize_seq(self.$open()?, len)
        }
        #[inline]
        fn collect_seq<I>(self, iter: I) -> Result<()>
        where
            I: IntoIterator,
            I::Item: Serialize,
        {
            ser::Serializer::collect_seq(self.$open()?, iter)
        }
        #[inline]
        fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
            ser::Serializer::serialize_tuple(self.$open()?, len)
        }
        #[inline]
        fn serialize_tuple_struct(
            self,
            name: &'static str,
            len: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            ser::Serializer::serialize_tuple_struct(self.$open()?, name, len)
        }
        #[inline]
        fn serialize_tuple_variant(
            self,
            name: &'static str,
            index: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            ser::Serializer::serialize_tuple_variant(self.$open()?, name, index, variant, len)
        }
        #[inline]
        fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap> {
            ser::Serializer::serialize_map(self.$open()?, len)
        }
        #[inline]
        fn collect_map<K, V, I>(self, iter: I) -> Result<()>
        where
            K: Serialize,
            V: Serialize,
            I: IntoIterator<Item = (K, V)>,
        {
            ser::Serializer::collect_map(self.$open()?, iter)
        }
        #[inline]
        fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
            ser::Serializer::serialize_struct(self.$open()?, name, len)
        }
        #[inline]
        fn serialize_struct_variant(
            self,
            name: &'static str,
            index: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<Self::SerializeStructVariant> {
            ser::Serializer::serialize_struct_variant(self.$open()?, name, index, variant, len)
        }
    };
}

/// Number methods of [`Elem`], which hand the value to the sequence.
macro_rules! elem_numbers {
    ($($method:ident: $t:ty),*) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<()> {
            self.0.number(v);
            Ok(())
        }
    )*};
}

impl<'b, 'a, 'w, W: Writer> Elem<'b, 'a, 'w, W> {
    /// The serializer for this element, as one of a generic array.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open(self) -> Result<&'b mut Ser<'w, W>> {
        Ok(self.0.slot())
    }
}

impl<'b, 'a, 'w, W: Writer> ser::Serializer for Elem<'b, 'a, 'w, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Seq<'b, 'w, W>;
    type SerializeTuple = Seq<'b, 'w, W>;
    type SerializeTupleStruct = Tuple<'b, 'w, W>;
    type SerializeTupleVariant = Tuple<'b, 'w, W>;
    type SerializeMap = MapSer<'b, 'w, W>;
    type SerializeStruct = StructSer<'b, 'w, W>;
    type SerializeStructVariant = StructSer<'b, 'w, W>;

    elem_numbers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128, serialize_f32: f32, serialize_f64: f64);

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.0.bool(v);
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.str(v);
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.open()?.w.null();
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        ser::Serializer::serialize_unit_variant(self.open()?, name, index, variant)
    }
    /// An element of its own (not gathered), as a derived newtype struct is an element of a
    /// generic array.
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::Serializer::serialize_newtype_struct(self.open()?, name, value)
    }

    forward_compound!(open);

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.ser.w.is_human_readable()
    }
}

// ---------------------------------------------------------------------------------------------
// Tuple structs and tuple variants: generic arrays of the announced length.

/// `SerializeTupleStruct` and `SerializeTupleVariant`.
pub(crate) struct Tuple<'a, 'w, W> {
    ser: &'a mut Ser<'w, W>,
    len: usize,
    count: usize,
    /// Inside the one-member object of a tuple variant.
    variant: bool,
}

impl<W: Writer> Tuple<'_, '_, W> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.count > 0 {
            self.ser.w.sep();
        }
        self.count += 1;
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn finish(self) -> Result<()> {
        if self.count != self.len {
            return Err(wrong_count(self.len, self.count));
        }
        self.ser.w.end_array();
        if self.variant {
            self.ser.w.end_object();
        }
        Ok(())
    }
}

impl<W: Writer> ser::SerializeTupleStruct for Tuple<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Writer> ser::SerializeTupleVariant for Tuple<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

// ---------------------------------------------------------------------------------------------
// Members of structs and entries of maps: left out when `None`.

/// What a [`Member`] writes before its value: the separator and the key (and for the first
/// entry of a map, the map's header, which the key's kind decides).
trait Lead<W: Writer> {
    /// Writes them; `first` says no member was written before.
    fn lead(self, ser: &mut Ser<'_, W>, first: bool) -> Result<()>;
}

/// The key of a struct member.
struct FieldKey(&'static str);

impl<W: Writer> Lead<W> for FieldKey {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn lead(self, ser: &mut Ser<'_, W>, first: bool) -> Result<()> {
        if !first {
            ser.w.sep();
        }
        ser.w.key(self.0);
        Ok(())
    }
}

/// The serializer of a struct member's or map entry's value: `None` writes nothing (unless
/// the writer writes null members); anything else writes the lead, then the value.
struct Member<'b, 'w, W, L> {
    ser: &'b mut Ser<'w, W>,
    lead: L,
    written: &'b mut usize,
    /// For the first member of a struct, the struct's name: a unit variant of an enum of that
    /// name there is the tag of an adjacently tagged enum (`{"t": "Name", "c": ...}`, which
    /// serde writes as a struct named after the enum whose first member is the variant), a
    /// string as the derive writes it.
    tag_of: Option<&'static str>,
}

impl<'b, 'w, W: Writer, L: Lead<W>> Member<'b, 'w, W, L> {
    /// Writes the lead; the serializer for the value.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open(self) -> Result<&'b mut Ser<'w, W>> {
        self.lead.lead(self.ser, *self.written == 0)?;
        *self.written += 1;
        Ok(self.ser)
    }
}

/// Scalar methods of [`Member`]: open, then write.
macro_rules! member_scalars {
    ($($method:ident: $t:ty),*) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<()> {
            ser::Serializer::$method(self.open()?, v)
        }
    )*};
}

impl<'b, 'w, W: Writer, L: Lead<W>> ser::Serializer for Member<'b, 'w, W, L> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Seq<'b, 'w, W>;
    type SerializeTuple = Seq<'b, 'w, W>;
    type SerializeTupleStruct = Tuple<'b, 'w, W>;
    type SerializeTupleVariant = Tuple<'b, 'w, W>;
    type SerializeMap = MapSer<'b, 'w, W>;
    type SerializeStruct = StructSer<'b, 'w, W>;
    type SerializeStructVariant = StructSer<'b, 'w, W>;

    member_scalars!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_bool: bool, serialize_str: &str);

    /// Left out, as a derived struct leaves out a `None` member; written as null when the
    /// writer writes null members.
    #[inline]
    fn serialize_none(self) -> Result<()> {
        if self.ser.w.write_null_members() {
            self.open()?.w.null();
        }
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        if self.tag_of == Some(name) {
            self.open()?.w.str(variant);
            return Ok(());
        }
        ser::Serializer::serialize_unit_variant(self.open()?, name, index, variant)
    }
    /// Its value, still a member: a newtype around a `None` is left out too, as a derived
    /// newtype struct is absent when its value is.
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == EXTENSION {
            return ser::Serializer::serialize_newtype_struct(self.open()?, name, value);
        }
        value.serialize(self)
    }

    forward_compound!(open);

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.ser.w.is_human_readable()
    }
}

/// `SerializeStruct` and `SerializeStructVariant`: an object started with
/// [`Writer::begin_open`], members holding `None` left out.
pub(crate) struct StructSer<'a, 'w, W> {
    ser: &'a mut Ser<'w, W>,
    /// The struct's name (see [`Member::tag_of`]).
    name: &'static str,
    mark: usize,
    hint: usize,
    written: usize,
    /// Inside the one-member object of a struct variant.
    variant: bool,
}

impl<W: Writer> StructSer<'_, '_, W> {
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        let tag_of = (self.written == 0).then_some(self.name);
        value.serialize(Member {
            ser: &mut *self.ser,
            lead: FieldKey(key),
            written: &mut self.written,
            tag_of,
        })
    }

    #[inline]
    fn finish(self) -> Result<()> {
        self.ser.w.end_open(
            Open::Struct,
            self.mark,
            Some(self.hint),
            self.written,
            false,
        );
        if self.variant {
            self.ser.w.end_object();
        }
        Ok(())
    }
}

impl<W: Writer> ser::SerializeStruct for StructSer<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Writer> ser::SerializeStructVariant for StructSer<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

// ---------------------------------------------------------------------------------------------
// Maps: the header waits for the first key written, whose kind it names.

/// A map's header: written with the first entry (or at the end, for a map left empty).
struct Head {
    /// The kind of the keys, once the header is written.
    kind: Option<KeyKind>,
    mark: usize,
    hint: Option<usize>,
}

impl Head {
    /// Before a key of kind `kind`: the header for the first one, the separator for the
    /// others (which must be of the same kind).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn before_key<W: Writer>(&mut self, w: &mut W, kind: KeyKind) -> Result<()> {
        match self.kind {
            None => {
                self.mark = w.begin_open(Open::Map(kind), self.hint);
                self.kind = Some(kind);
            }
            Some(k) if k == kind => w.sep(),
            Some(_) => return Err(mixed_keys()),
        }
        Ok(())
    }
}

/// `SerializeMap`.
pub(crate) struct MapSer<'a, 'w, W> {
    ser: &'a mut Ser<'w, W>,
    head: Head,
    written: usize,
    /// Entries given, written or left out.
    offered: usize,
    /// The key given by `serialize_key`, until `serialize_value`.
    pending: Pending,
    /// The kind of keys of the map if it has no key to tell (see `collect_map`).
    empty_keys: KeyKind,
}

/// A map key held between `serialize_key` and `serialize_value`.
enum Pending {
    None,
    Str(String),
    Int(NumKind, Wire),
    Variant(&'static str, u32),
}

/// The lead of a map entry whose key is serialized when the entry is written
/// (`serialize_entry`).
struct EntryKey<'k, 'h, K: ?Sized> {
    key: &'k K,
    head: &'h mut Head,
}

impl<W: Writer, K: ?Sized + Serialize> Lead<W> for EntryKey<'_, '_, K> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn lead(self, ser: &mut Ser<'_, W>, _first: bool) -> Result<()> {
        self.key.serialize(KeySer {
            w: &mut *ser.w,
            head: self.head,
        })
    }
}

/// The lead of a map entry whose key came through `serialize_key`.
struct HeldKey<'k, 'h> {
    key: &'k Pending,
    head: &'h mut Head,
}

impl<W: Writer> Lead<W> for HeldKey<'_, '_> {
    #[inline]
    fn lead(self, ser: &mut Ser<'_, W>, _first: bool) -> Result<()> {
        let w = &mut *ser.w;
        match self.key {
            Pending::None => Err(Error::custom(
                "serialize_value called before serialize_key",
                0,
            )),
            Pending::Str(s) => {
                self.head.before_key(w, KeyKind::Str)?;
                w.key(s);
                Ok(())
            }
            &Pending::Int(kind, wire) => {
                self.head.before_key(w, KeyKind::Int(kind))?;
                by_num_kind!(kind, N => w.int_key(N::from_wire(wire).unwrap_or_default()));
                Ok(())
            }
            &Pending::Variant(name, index) => {
                self.head.before_key(w, KeyKind::Int(NumKind::I32))?;
                w.enum_key(name, i128::from(index), NumKind::I32);
                Ok(())
            }
        }
    }
}

impl<W: Writer> ser::SerializeMap for MapSer<'_, '_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.pending = key.serialize(KeyCapture)?;
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.offered += 1;
        value.serialize(Member {
            ser: &mut *self.ser,
            lead: HeldKey {
                key: &self.pending,
                head: &mut self.head,
            },
            written: &mut self.written,
            tag_of: None,
        })
    }

    #[inline]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        self.offered += 1;
        value.serialize(Member {
            ser: &mut *self.ser,
            lead: EntryKey {
                key,
                head: &mut self.head,
            },
            written: &mut self.written,
            tag_of: None,
        })
    }

    #[inline]
    fn end(mut self) -> Result<()> {
        let w = &mut *self.ser.w;
        let kind = match self.head.kind {
            Some(k) => k,
            None => {
                // Empty, or every entry left out: an object with string keys unless the key
                // type was known without a key.
                let kind = self.empty_keys;
                self.head.mark = w.begin_open(Open::Map(kind), self.head.hint);
                kind
            }
        };
        w.end_open(
            Open::Map(kind),
            self.head.mark,
            self.head.hint,
            self.written,
            self.offered > self.written,
        );
        Ok(())
    }
}

/// Writes a map key, and before the first one the map's header.
struct KeySer<'k, 'h, W> {
    w: &'k mut W,
    head: &'h mut Head,
}

impl<W: Writer> KeySer<'_, '_, W> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn int<N: Number>(self, v: N) -> Result<()> {
        self.head.before_key(self.w, KeyKind::Int(N::KIND))?;
        self.w.int_key(v);
        Ok(())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(self, s: &str) -> Result<()> {
        self.head.before_key(self.w, KeyKind::Str)?;
        self.w.key(s);
        Ok(())
    }
}

/// Methods of a key serializer that take an integer.
macro_rules! key_ints {
    ($($method:ident: $t:ty),*) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<Self::Ok> {
            self.int(v)
        }
    )*};
}

/// Methods of a key serializer that reject their value.
macro_rules! key_rejects {
    ($ok:ty) => {
        fn serialize_f32(self, _: f32) -> Result<$ok> {
            Err(key_error("a float"))
        }
        fn serialize_f64(self, _: f64) -> Result<$ok> {
            Err(key_error("a float"))
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<$ok> {
            Err(key_error("bytes"))
        }
        fn serialize_none(self) -> Result<$ok> {
            Err(key_error("None"))
        }
        fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<$ok> {
            Err(key_error("an Option"))
        }
        fn serialize_unit(self) -> Result<$ok> {
            Err(key_error("()"))
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<$ok> {
            Err(key_error("a unit struct"))
        }
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<$ok> {
            Err(key_error("an enum variant with data"))
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Impossible<$ok, Error>> {
            Err(key_error("a sequence"))
        }
        fn serialize_tuple(self, _: usize) -> Result<Impossible<$ok, Error>> {
            Err(key_error("a tuple"))
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<$ok, Error>> {
            Err(key_error("a tuple struct"))
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<$ok, Error>> {
            Err(key_error("an enum variant with data"))
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Impossible<$ok, Error>> {
            Err(key_error("a map"))
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Impossible<$ok, Error>> {
            Err(key_error("a struct"))
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<$ok, Error>> {
            Err(key_error("an enum variant with data"))
        }
    };
}

impl<W: Writer> ser::Serializer for KeySer<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    key_ints!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128);
    key_rejects!(());

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.text(v)
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.text(v.encode_utf8(&mut [0u8; 4]))
    }
    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.text(if v { "true" } else { "false" })
    }
    /// A unit variant: the key of a map keyed by a unit-only enum (its name in JSON, its index
    /// in BEVE).
    #[inline]
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.head.before_key(self.w, KeyKind::Int(NumKind::I32))?;
        self.w.enum_key(variant, i128::from(index), NumKind::I32);
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn is_human_readable(&self) -> bool {
        self.w.is_human_readable()
    }
}

/// Captures a map key given by `serialize_key`.
struct KeyCapture;

impl KeyCapture {
    fn int<N: Number>(v: N) -> Result<Pending> {
        Ok(Pending::Int(N::KIND, v.to_wire()))
    }
}

/// Methods of [`KeyCapture`] that take an integer.
macro_rules! capture_ints {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<Pending> {
            KeyCapture::int(v)
        }
    )*};
}

impl ser::Serializer for KeyCapture {
    type Ok = Pending;
    type Error = Error;
    type SerializeSeq = Impossible<Pending, Error>;
    type SerializeTuple = Impossible<Pending, Error>;
    type SerializeTupleStruct = Impossible<Pending, Error>;
    type SerializeTupleVariant = Impossible<Pending, Error>;
    type SerializeMap = Impossible<Pending, Error>;
    type SerializeStruct = Impossible<Pending, Error>;
    type SerializeStructVariant = Impossible<Pending, Error>;

    capture_ints!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128);
    key_rejects!(Pending);

    fn serialize_str(self, v: &str) -> Result<Pending> {
        Ok(Pending::Str(v.to_string()))
    }
    fn serialize_char(self, v: char) -> Result<Pending> {
        Ok(Pending::Str(v.to_string()))
    }
    fn serialize_bool(self, v: bool) -> Result<Pending> {
        Ok(Pending::Str(v.to_string()))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<Pending> {
        Ok(Pending::Variant(variant, index))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Pending> {
        value.serialize(self)
    }
}

// ---------------------------------------------------------------------------------------------
// `Value::Extension`: its bytes, verbatim.

/// Takes the bytes of a BEVE extension value and writes them with [`Writer::raw_beve`].
struct RawBeve<'w, W>(&'w mut W);

/// Methods of [`RawBeve`] that reject their value.
macro_rules! raw_rejects {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, _: $t) -> Result<()> {
            Err(not_bytes())
        }
    )*};
}

#[cold]
fn not_bytes() -> Error {
    Error::custom("a BEVE extension value must be given as bytes", 0)
}

impl<W: Writer> ser::Serializer for RawBeve<'_, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    raw_rejects!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16,
        serialize_i32: i32, serialize_i64: i64, serialize_i128: i128, serialize_u8: u8,
        serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_u128: u128,
        serialize_f32: f32, serialize_f64: f64, serialize_char: char, serialize_str: &str,
        serialize_unit_struct: &'static str);

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.0.raw_beve(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        Err(not_bytes())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(not_bytes())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(not_bytes())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<()> {
        Err(not_bytes())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<()> {
        Err(not_bytes())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(not_bytes())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
    fn serialize_tuple(self, _: usize) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>> {
        Err(not_bytes())
    }
}

// ---------------------------------------------------------------------------------------------
// `None` probe, for `Serde<T>::is_absent`.

/// Why [`is_none`]'s probe stopped: the value is not `None`. Costs nothing to make.
#[derive(Debug)]
pub(crate) struct NotNone;

impl std::fmt::Display for NotNone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not None")
    }
}

impl std::error::Error for NotNone {}

impl ser::Error for NotNone {
    fn custom<T: std::fmt::Display>(_: T) -> NotNone {
        NotNone
    }
}

/// Whether `v` serializes as `None` (an `Option` that is `None`), found out by the first call
/// its `Serialize` impl makes.
pub(crate) fn is_none<T: ?Sized + Serialize>(v: &T) -> bool {
    v.serialize(NoneProbe).is_ok()
}

/// The serializer behind [`is_none`]: `serialize_none` succeeds, every other call stops.
struct NoneProbe;

/// Methods of [`NoneProbe`] that stop at once.
macro_rules! probe_stops {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, _: $t) -> std::result::Result<(), NotNone> {
            Err(NotNone)
        }
    )*};
}

impl ser::Serializer for NoneProbe {
    type Ok = ();
    type Error = NotNone;
    type SerializeSeq = Impossible<(), NotNone>;
    type SerializeTuple = Impossible<(), NotNone>;
    type SerializeTupleStruct = Impossible<(), NotNone>;
    type SerializeTupleVariant = Impossible<(), NotNone>;
    type SerializeMap = Impossible<(), NotNone>;
    type SerializeStruct = Impossible<(), NotNone>;
    type SerializeStructVariant = Impossible<(), NotNone>;

    probe_stops!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16,
        serialize_i32: i32, serialize_i64: i64, serialize_i128: i128, serialize_u8: u8,
        serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_u128: u128,
        serialize_f32: f32, serialize_f64: f64, serialize_char: char, serialize_str: &str,
        serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_none(self) -> std::result::Result<(), NotNone> {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> std::result::Result<(), NotNone> {
        Err(NotNone)
    }
    fn serialize_unit(self) -> std::result::Result<(), NotNone> {
        Err(NotNone)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> std::result::Result<(), NotNone> {
        Err(NotNone)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> std::result::Result<(), NotNone> {
        Err(NotNone)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> std::result::Result<(), NotNone> {
        Err(NotNone)
    }
    fn serialize_seq(
        self,
        _: Option<usize>,
    ) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
    fn serialize_tuple(self, _: usize) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
    fn serialize_map(
        self,
        _: Option<usize>,
    ) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Impossible<(), NotNone>, NotNone> {
        Err(NotNone)
    }
}
