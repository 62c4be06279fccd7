//! The case table: every feature of `#[derive(Reflect)]` with its exact JSON text and its exact
//! BEVE bytes. [`check`] is the one check behind the table and behind `common::both`.
//!
//! For each case, [`check`] asserts that
//! - `to_json(&value)` is `json`, character for character, and reading `json` gives `value`;
//! - `to_beve(&value)` is the bytes `beve` spells, byte for byte, and reading those bytes gives
//!   `value`;
//! - every proper prefix of those bytes is an end-of-input error;
//! - each extra document pair given with [`Case::reads`] (aliases, members in another order, a
//!   tag after the content) reads to `value` in both formats (its BEVE prefixes are
//!   end-of-input errors too).
//!
//! The expected bytes are written by hand from the format (`docs/beve.md`, the header constants
//! in `src/beve/header.rs`; Glaze's files in `formats/beve/exchange/` for what Glaze does), never
//! copied from the writer's output: a bug shared by our writer and our reader must show here.
//!
//! # Adding a case
//!
//! 1. Define the type below (with `Default`, `Debug` and `PartialEq`; a skipped field must hold
//!    its default in the case's value, as reading leaves it so).
//! 2. Add `Case::new(name, value, json, beve).into()` to [`table`], in the section of the feature;
//!    `name` says what the case shows and must be unique. For a one-off value inside another test
//!    use `common::both(&value, json, beve)`, which runs the same check.
//! 3. Write `beve` as hex, one part per line with a `//` comment saying what it is. Whitespace
//!    is ignored and `//` starts a comment to the end of the line. The usual parts:
//!    - a header byte: `03` object with string keys, `02` string, `05` generic array, numbers
//!      `11 31 51 71` (u8..u64), `09 29 49 69` (i8..i64), `41 61` (f32, f64), typed arrays
//!      (number header + 3: `14` u8, `64` f64, ...), `1c` bool array, `3c` string array,
//!      integer-keyed objects (number header + 2: `4b` i32 keys, `13` u8 keys, ...), `00` null,
//!      `08`/`18` false/true;
//!    - a SIZE (count of members or elements, or bytes of a string or key): `n << 2` in one
//!      byte below 64 (`0c` is 3), `(n << 2) | 1` in two little-endian bytes below 16384;
//!    - a string key: SIZE then the UTF-8 bytes (`08 69 64` is `"id"`);
//!    - numbers little-endian in their full width (`51 07 00 00 00` is u32 7).
//! 4. Run `cargo test --release --test derive_main table`. A failure prints the bytes written
//!    and the bytes expected with the first difference marked. When the writer disagrees with
//!    the derivation, settle who is right from `docs/beve.md` and Glaze's files before changing
//!    either.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Debug;

use structio::{Reflect, ReflectOwned, Value};

// ---------------------------------------------------------------------------------------------
// The check.
// ---------------------------------------------------------------------------------------------

/// One value with its exact JSON text and BEVE bytes (hex, see the module documentation).
pub struct Case<T> {
    name: &'static str,
    value: T,
    json: &'static str,
    beve: &'static str,
    reads: Vec<(&'static str, &'static str)>,
}

impl<T> Case<T> {
    /// A case named `name`: `value` is written as `json` and as the bytes `beve` spells.
    pub fn new(name: &'static str, value: T, json: &'static str, beve: &'static str) -> Self {
        Case {
            name,
            value,
            json,
            beve,
            reads: Vec::new(),
        }
    }

    /// Another document pair that must read to the same value (aliases, other member orders).
    pub fn reads(mut self, json: &'static str, beve: &'static str) -> Self {
        self.reads.push((json, beve));
        self
    }
}

/// A case of any type, for the table.
pub trait Check {
    /// The case's name.
    fn name(&self) -> &'static str;
    /// Every failure of the case, in one message.
    fn check(&self) -> Result<(), String>;
}

impl<T: ReflectOwned + Default + PartialEq + Debug> Check for Case<T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn check(&self) -> Result<(), String> {
        check(&self.value, self.json, self.beve, &self.reads)
    }
}

impl<T: ReflectOwned + Default + PartialEq + Debug + 'static> From<Case<T>> for Box<dyn Check> {
    fn from(case: Case<T>) -> Self {
        Box::new(case)
    }
}

/// Checks `value` against its exact JSON text and BEVE bytes (`beve` in hex), and that each
/// pair of `reads` reads to `value`; returns every failure.
pub fn check<T>(value: &T, json: &str, beve: &str, reads: &[(&str, &str)]) -> Result<(), String>
where
    T: ReflectOwned + PartialEq + Debug,
{
    let mut failures = Vec::new();
    let text = structio::to_json(value);
    if text != json {
        failures.push(format!("JSON text\n  wrote {text}\n  want  {json}"));
    }
    let bytes = structio::to_beve(value);
    let want = hex(beve);
    if bytes != want {
        failures.push(format!("BEVE bytes\n{}", diff(&bytes, &want)));
    }
    for (json, beve) in std::iter::once((json, beve)).chain(reads.iter().copied()) {
        match structio::from_json::<T>(json) {
            Ok(back) if &back == value => {}
            Ok(back) => failures.push(format!("JSON read of {json}: {back:?}")),
            Err(e) => failures.push(format!("JSON read of {json}: {e}")),
        }
        let bytes = hex(beve);
        match structio::from_beve::<T>(&bytes) {
            Ok(back) if &back == value => {}
            Ok(back) => failures.push(format!("BEVE read of {}: {back:?}", spaced(&bytes))),
            Err(e) => failures.push(format!("BEVE read of {}: {e}", spaced(&bytes))),
        }
        for end in 0..bytes.len() {
            let prefix = &bytes[..end];
            match structio::from_beve::<T>(prefix) {
                Ok(v) => failures.push(format!("BEVE prefix {} read as {v:?}", spaced(prefix))),
                Err(e) if !e.is_eof() => {
                    failures.push(format!("BEVE prefix {}: {e}", spaced(prefix)))
                }
                Err(_) => {}
            }
        }
    }
    through_value(value, &text, json, reads, &mut failures);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// The same value through a `Value` tree: `to_value` then `from_value` gives it back; the tree
/// is what JSON makes of the value (`from_json::<Value>` of its text, by `Value`'s equality:
/// numbers by value, a typed array equal to a plain one) unless the text holds a float of
/// another kind than `f64` (an `f32` keeps its kind in the tree, and reads back from text as the
/// `f64` of its shortest decimal); and each document of the case, read as a `Value`, reads
/// into the value with `from_value`.
fn through_value<T>(
    value: &T,
    text: &str,
    json: &str,
    reads: &[(&str, &str)],
    failures: &mut Vec<String>,
) where
    T: ReflectOwned + PartialEq + Debug,
{
    let tree = structio::to_value(value);
    match structio::from_value_ref::<T>(&tree) {
        Ok(back) if &back == value => {}
        Ok(back) => failures.push(format!("to_value then from_value: {back:?}")),
        Err(e) => failures.push(format!("to_value then from_value: {e}")),
    }
    match structio::from_json::<Value>(text) {
        Ok(doc) if doc == tree || has_narrow_float(&tree) => {}
        Ok(doc) => failures.push(format!("to_value\n  wrote {tree:?}\n  JSON  {doc:?}")),
        Err(e) => failures.push(format!("JSON of the value as a Value: {e}")),
    }
    for json in std::iter::once(json).chain(reads.iter().map(|r| r.0)) {
        let Ok(doc) = structio::from_json::<Value>(json) else {
            failures.push(format!("{json} does not read as a Value"));
            continue;
        };
        match structio::from_value::<T>(doc) {
            Ok(back) if &back == value => {}
            Ok(back) => failures.push(format!("from_value of {json}: {back:?}")),
            Err(e) => failures.push(format!("from_value of {json}: {e}")),
        }
    }
}

/// Whether the tree holds a float number or typed array of a kind narrower than `f64`.
fn has_narrow_float(v: &Value) -> bool {
    use structio::value::TypedArray;
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        match v {
            Value::Number(n) if n.is_float() && n.kind() != structio::NumKind::F64 => return true,
            Value::Typed(TypedArray::F32(_) | TypedArray::F16(_) | TypedArray::BF16(_)) => {
                return true
            }
            Value::Array(a) => work.extend(a.iter()),
            Value::Object(m) => work.extend(m.values()),
            Value::IntObject(m) => work.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// The bytes of hex text: pairs of hex digits; whitespace is ignored and `//` starts a comment
/// that runs to the end of the line.
pub fn hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text
        .lines()
        .flat_map(|line| line.split("//").next().unwrap_or("").bytes())
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    assert!(
        digits.len().is_multiple_of(2),
        "odd number of hex digits in {text}"
    );
    digits
        .chunks(2)
        .map(|pair| {
            let pair = std::str::from_utf8(pair).expect("ASCII hex");
            u8::from_str_radix(pair, 16).unwrap_or_else(|_| panic!("`{pair}` is not hex"))
        })
        .collect()
}

/// Bytes as spaced hex.
fn spaced(bytes: &[u8]) -> String {
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    hex.join(" ")
}

/// The bytes written and wanted, with the offset of the first difference.
fn diff(wrote: &[u8], want: &[u8]) -> String {
    let at = wrote
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(wrote.len().min(want.len()));
    format!(
        "  wrote {}\n  want  {}\n  first difference at byte {at}",
        spaced(wrote),
        spaced(want)
    )
}

#[test]
fn hex_notation() {
    assert_eq!(
        hex("03 04 // object, 1 member\n  08 69 64 // key \"id\"\n11 07"),
        [0x03, 0x04, 0x08, 0x69, 0x64, 0x11, 0x07]
    );
    assert_eq!(hex("AbcD"), [0xAB, 0xCD]);
    assert_eq!(hex("// nothing\n"), [0u8; 0]);
    assert!(std::panic::catch_unwind(|| hex("0")).is_err());
    assert!(std::panic::catch_unwind(|| hex("zz")).is_err());
}

/// The check catches a wrong byte, a wrong text and a wrong read.
#[test]
fn check_reports_each_kind_of_mismatch() {
    assert!(check(&7u8, "7", "11 07", &[]).is_ok());
    let e = check(&7u8, "7", "11 08", &[]).unwrap_err();
    assert!(
        e.contains("BEVE bytes") && e.contains("first difference at byte 1"),
        "{e}"
    );
    assert!(e.contains("BEVE read"), "{e}");
    let e = check(&7u8, "07", "11 07", &[]).unwrap_err();
    assert!(e.contains("JSON text"), "{e}");
    let e = check(&7u8, "7", "11 07", &[("8", "11 07")]).unwrap_err();
    assert!(e.contains("JSON read of 8"), "{e}");
}

#[test]
fn every_case_pins_both_formats() {
    let table = table();
    let mut names = HashSet::new();
    for case in &table {
        assert!(
            names.insert(case.name()),
            "two cases named {:?}",
            case.name()
        );
    }
    let failures: Vec<String> = table
        .iter()
        .filter_map(|case| case.check().err().map(|e| format!("{}:\n{e}", case.name())))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        table.len(),
        failures.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The types.
// ---------------------------------------------------------------------------------------------

#[derive(Reflect, Default, Debug, PartialEq)]
struct Plain {
    id: u32,
    name: String,
    tags: Vec<String>,
    score: Option<i64>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Empty {}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Inner {
    x: i32,
    label: Option<String>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Nested {
    inner: Inner,
    list: Vec<Inner>,
    boxed: Option<Box<Inner>>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Renamed {
    #[structio(rename = "ID")]
    id: u32,
    #[structio(alias = "fullName", alias = "full_name")]
    name: String,
    #[structio(rename = "type")]
    kind: u8,
    r#match: bool,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Skips {
    a: u8,
    #[structio(skip)]
    cache: Vec<u64>,
    b: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct OddKeys {
    #[structio(rename = "naïve café")]
    a: u8,
    #[structio(rename = "")]
    b: u8,
    #[structio(rename = "quote\"d")]
    c: u8,
}

/// `rename_all` on a struct (field names are `snake_case`) and on an enum with data (variant
/// names are `PascalCase`), one pair per rule.
macro_rules! rename_all_types {
    ($($rule:literal => $fields:ident, $variants:ident;)*) => {$(
        #[derive(Reflect, Default, Debug, PartialEq)]
        #[structio(rename_all = $rule)]
        struct $fields {
            first_name: u8,
            x: u8,
        }

        #[derive(Reflect, Default, Debug, PartialEq)]
        #[structio(rename_all = $rule)]
        enum $variants {
            #[default]
            VeryBlue,
            Red(u8),
        }
    )*};
}

rename_all_types! {
    "lowercase" => FieldsLower, VariantsLower;
    "UPPERCASE" => FieldsUpper, VariantsUpper;
    "PascalCase" => FieldsPascal, VariantsPascal;
    "camelCase" => FieldsCamel, VariantsCamel;
    "snake_case" => FieldsSnake, VariantsSnake;
    "SCREAMING_SNAKE_CASE" => FieldsScreamingSnake, VariantsScreamingSnake;
    "kebab-case" => FieldsKebab, VariantsKebab;
    "SCREAMING-KEBAB-CASE" => FieldsScreamingKebab, VariantsScreamingKebab;
}

/// `rename` wins over `rename_all`.
#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "camelCase")]
struct CamelRenamed {
    first_name: String,
    #[structio(rename = "LAST")]
    last_name: String,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Meters(f64);

#[derive(Reflect, Default, Debug, PartialEq)]
struct MaybeName(Option<String>);

#[derive(Reflect, Default, Debug, PartialEq)]
struct Holder {
    len: Meters,
    name: MaybeName,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Triple(u8, String, Vec<i32>);

#[derive(Reflect, Default, Debug, PartialEq)]
struct TupleSkip(u8, #[structio(skip)] u64, u8);

/// One field left after `skip`: a newtype.
#[derive(Reflect, Default, Debug, PartialEq)]
struct OneLeft(#[structio(skip)] u64, u16);

#[derive(Reflect, Default, Debug, PartialEq)]
struct Unit;

#[derive(Reflect, Default, Debug, PartialEq)]
struct NoFields();

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Color {
    #[default]
    Red,
    Green,
    #[structio(rename = "azure", alias = "blue")]
    Blue,
}

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[repr(u8)]
#[structio(rename_all = "snake_case")]
enum Level {
    #[default]
    VeryLow = 1,
    High = 200,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(i8)]
enum ReprI8 {
    #[default]
    Low = -2,
    High = 3,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(i16)]
enum ReprI16 {
    #[default]
    Low = -300,
    High = 1,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(u16)]
enum ReprU16 {
    #[default]
    Zero = 0,
    Top = 65535,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(i32)]
enum ReprI32 {
    #[default]
    Zero,
    MinusOne = -1,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(u32)]
enum ReprU32 {
    #[default]
    One = 1,
    Big = 4_000_000_000,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(i64)]
enum ReprI64 {
    #[default]
    Neg = -5,
    Big = 1 << 40,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(u64)]
enum ReprU64 {
    #[default]
    Zero,
    Max = u64::MAX,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[repr(usize)]
enum ReprUsize {
    #[default]
    Seven = 7,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Palette {
    main: Color,
    levels: Vec<Level>,
    counts: BTreeMap<Color, u32>,
    by_level: BTreeMap<Level, String>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
enum Ext {
    #[default]
    Unit,
    #[structio(rename = "num", alias = "number")]
    New(i32),
    Pair(u8, String),
    Point {
        x: i32,
        #[structio(rename = "Y")]
        y: i32,
    },
    Empty {},
    NoElems(),
    #[structio(rename_all = "camelCase")]
    Camel {
        long_name: u8,
    },
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Part {
    a: u8,
    b: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "type", rename_all = "snake_case")]
enum Shape {
    Circle {
        r: f64,
    },
    RightRect {
        w: u32,
        label: Option<String>,
        #[structio(skip)]
        cache: u64,
    },
    #[default]
    Nothing,
    Wrapped(Part),
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Adj {
    #[default]
    A,
    B(i32),
    C {
        x: u8,
    },
    D(u8, u8),
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(untagged)]
enum Any {
    #[default]
    Nil,
    Flag(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<Any>),
    Pt {
        x: i32,
        y: i32,
    },
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "kind", rename_all = "lowercase")]
enum TaggedUnits {
    #[default]
    On,
    Off,
}

/// Writes and reads a `u32` as hexadecimal text.
mod hex_text {
    use structio::{Error, Reader, Reflect, Writer};

    pub fn write<W: Writer>(v: &u32, w: &mut W) {
        Reflect::write(&format!("{v:x}"), w);
    }

    pub fn read<'de, R: Reader<'de>>(v: &mut u32, r: &mut R) -> structio::Result<()> {
        let at = r.offset();
        let mut s = String::new();
        Reflect::read(&mut s, r)?;
        *v = u32::from_str_radix(&s, 16).map_err(|_| Error::custom("not hexadecimal", at))?;
        Ok(())
    }

    pub fn read_new<'de, R: Reader<'de>>(r: &mut R) -> structio::Result<u32> {
        let mut v = 0;
        read(&mut v, r)?;
        Ok(v)
    }
}

/// A value through its own `Reflect` impl, but by way of `with` (so never left out).
mod same {
    use structio::{Reader, Reflect, Writer};

    pub fn write<T: structio::ReflectOwned, W: Writer>(v: &T, w: &mut W) {
        v.write(w)
    }

    pub fn read<'de, T: Reflect<'de>, R: Reader<'de>>(
        v: &mut T,
        r: &mut R,
    ) -> structio::Result<()> {
        v.read(r)
    }

    pub fn read_new<'de, T: Reflect<'de>, R: Reader<'de>>(r: &mut R) -> structio::Result<T> {
        T::read_new(r)
    }
}

/// Any `Display` + `FromStr` value as text.
mod as_text {
    use structio::{Error, Reader, Reflect, Writer};

    pub fn write<T: ToString, W: Writer>(v: &T, w: &mut W) {
        Reflect::write(&v.to_string(), w);
    }

    pub fn read<'de, T: std::str::FromStr, R: Reader<'de>>(
        v: &mut T,
        r: &mut R,
    ) -> structio::Result<()> {
        let at = r.offset();
        let mut s = String::new();
        Reflect::read(&mut s, r)?;
        *v = s.parse().map_err(|_| Error::custom("cannot parse", at))?;
        Ok(())
    }

    pub fn read_new<'de, T: std::str::FromStr, R: Reader<'de>>(r: &mut R) -> structio::Result<T> {
        let at = r.offset();
        let s = String::read_new(r)?;
        s.parse().map_err(|_| Error::custom("cannot parse", at))
    }
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct WithField {
    id: u32,
    #[structio(with = "hex_text", rename = "mask")]
    bits: u32,
    #[structio(with = "same")]
    kept: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct WithTuple(#[structio(with = "hex_text")] u32, u8);

#[derive(Reflect, Default, Debug, PartialEq)]
struct WithNewtype(#[structio(with = "hex_text")] u32);

#[derive(Reflect, Default, Debug, PartialEq)]
enum WithVariants {
    #[default]
    Nothing,
    One(#[structio(with = "hex_text")] u32),
    Named {
        #[structio(with = "hex_text")]
        value: u32,
        width: u8,
    },
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(bound = "T: ToString + std::str::FromStr")]
struct AsText<T> {
    #[structio(with = "as_text")]
    v: T,
}

/// `bound` replaces the inferred bounds (which would ask `T: Default` for the `Box`).
#[derive(Reflect, Debug, PartialEq)]
#[structio(bound = "T: structio::Reflect<'de>")]
struct Boxed<T> {
    b: Box<T>,
}

impl<T: Default> Default for Boxed<T> {
    fn default() -> Self {
        Boxed { b: Box::default() }
    }
}

mod renamed_crate {
    // The runtime reached through another path.
    use structio as sio;

    #[derive(sio::Reflect, Default, Debug, PartialEq)]
    #[structio(crate = "sio")]
    pub struct ViaAlias {
        pub x: u8,
    }
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Pair<T, U> {
    one: T,
    many: Vec<U>,
    maybe: Option<T>,
}

/// Parameters named like the generated code's own (`W`, `R`).
#[derive(Reflect, Debug, PartialEq)]
enum Either<W, R> {
    Left(W),
    Right { r: R },
}

impl<W: Default, R> Default for Either<W, R> {
    fn default() -> Self {
        Either::Left(W::default())
    }
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Tree<T> {
    value: T,
    children: Vec<Tree<T>>,
}

#[derive(Reflect, Debug, PartialEq)]
struct Fixed<const N: usize> {
    v: [u8; N],
}

impl<const N: usize> Default for Fixed<N> {
    fn default() -> Self {
        Fixed { v: [0; N] }
    }
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Paging {
    page: u32,
    per_page: u32,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Audit {
    created_by: String,
    note: Option<String>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Query {
    q: String,
    #[structio(flatten)]
    paging: Paging,
    sort: Option<String>,
    #[structio(flatten)]
    audit: Audit,
}

/// A flattened struct that flattens others.
#[derive(Reflect, Default, Debug, PartialEq)]
struct Search {
    id: u64,
    #[structio(flatten)]
    query: Query,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Envelope<T> {
    kind: String,
    #[structio(flatten)]
    body: T,
}

/// A flattened map keeps the members no field takes.
#[derive(Reflect, Default, Debug, PartialEq)]
struct Event {
    id: u32,
    #[structio(flatten)]
    paging: Paging,
    #[structio(flatten)]
    extra: BTreeMap<String, Value>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "type")]
enum Message {
    #[default]
    Ping,
    Search(Query),
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Numbers {
    f64s: Vec<f64>,
    f32s: Vec<f32>,
    i8s: Vec<i8>,
    i16s: Vec<i16>,
    i32s: Vec<i32>,
    i64s: Vec<i64>,
    u8s: Vec<u8>,
    u16s: Vec<u16>,
    u32s: Vec<u32>,
    u64s: Vec<u64>,
    empty: Vec<f64>,
    fixed: [u16; 3],
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Lists {
    flags: Vec<bool>,
    no_flags: Vec<bool>,
    words: Vec<String>,
    no_words: Vec<String>,
    parts: Vec<Part>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Maps {
    by_name: BTreeMap<String, u32>,
    by_i32: BTreeMap<i32, String>,
    by_u8: BTreeMap<u8, bool>,
    by_i64: BTreeMap<i64, f64>,
    by_u64: BTreeMap<u64, u8>,
    none_i16: BTreeMap<i16, u8>,
    none_str: BTreeMap<String, u8>,
}

/// A unit-only enum written as its discriminant (`as_integer`), of its `repr` type.
#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(as_integer)]
#[repr(u8)]
enum IntLevel {
    #[default]
    Low = 1,
    High = 3,
}

/// `as_integer` without a `repr`: an `i32`.
#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_integer)]
enum IntStatus {
    #[default]
    Fine,
    Moved = -7,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct IntLeveled {
    level: IntLevel,
    by_level: BTreeMap<IntLevel, u8>,
    status: IntStatus,
}

/// Numbers and a bool as strings in JSON (`quoted`), unchanged in BEVE.
#[derive(Reflect, Default, Debug, PartialEq)]
struct QuotedIds {
    #[structio(quoted)]
    id: u64,
    #[structio(quoted)]
    on: bool,
    #[structio(quoted)]
    ratio: f64,
    #[structio(quoted)]
    list: Vec<i16>,
    #[structio(quoted)]
    maybe: Option<u8>,
}

/// A struct as an array of its members (`as_array`).
#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_array)]
struct ArrItem {
    id: u8,
    name: String,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_array)]
struct ArrRow {
    id: u32,
    name: String,
    xs: Vec<f64>,
    item: ArrItem,
}

/// `as_array` with an `Option` member (always there, null for `None`) and skipped fields (never
/// there).
#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_array)]
struct ArrSparse {
    a: Option<u8>,
    #[structio(skip)]
    s: u8,
    #[structio(skip_write)]
    w: u8,
    b: bool,
}

// ---------------------------------------------------------------------------------------------
// The table.
// ---------------------------------------------------------------------------------------------

/// Every case, by feature.
fn table() -> Vec<Box<dyn Check>> {
    let query = || Query {
        q: "rust".into(),
        paging: Paging {
            page: 2,
            per_page: 50,
        },
        sort: Some("date".into()),
        audit: Audit {
            created_by: "ann".into(),
            note: None,
        },
    };
    vec![
        // Structs with named fields.
        Case::new(
            "struct: fields in declaration order, None left out",
            Plain {
                id: 7,
                name: "seven".into(),
                tags: vec!["a".into(), "b".into()],
                score: None,
            },
            r#"{"id":7,"name":"seven","tags":["a","b"]}"#,
            r#"
                03 0c                                 // object, 3 members
                08 69 64  51 07 00 00 00              // "id": u32 7
                10 6e 61 6d 65  02 14 73 65 76 65 6e  // "name": string "seven"
                10 74 61 67 73  3c 08 04 61 04 62     // "tags": string array ["a", "b"]
            "#,
        )
        .reads(
            r#"{"tags":["a","b"],"name":"seven","id":7}"#,
            r#"
                03 0c                                 // object, 3 members
                10 74 61 67 73  3c 08 04 61 04 62     // "tags": string array ["a", "b"]
                10 6e 61 6d 65  02 14 73 65 76 65 6e  // "name": string "seven"
                08 69 64  51 07 00 00 00              // "id": u32 7
            "#,
        )
        .into(),
        Case::new(
            "struct: Option member that is Some",
            Plain {
                id: 7,
                name: "seven".into(),
                tags: vec![],
                score: Some(-3),
            },
            r#"{"id":7,"name":"seven","tags":[],"score":-3}"#,
            r#"
                03 10                                         // object, 4 members
                08 69 64  51 07 00 00 00                      // "id": u32 7
                10 6e 61 6d 65  02 14 73 65 76 65 6e          // "name": string "seven"
                10 74 61 67 73  3c 00                         // "tags": string array []
                14 73 63 6f 72 65  69 fd ff ff ff ff ff ff ff  // "score": i64 -3
            "#,
        )
        .into(),
        Case::new("struct: no fields", Empty {}, "{}",
            r#"
                03 00  // object, 0 members
            "#,
        ).into(),
        Case::new(
            "struct: nested structs, a Vec of them, an Option<Box<_>> of one",
            Nested {
                inner: Inner {
                    x: 1,
                    label: Some("l".into()),
                },
                list: vec![Inner { x: 2, label: None }],
                boxed: Some(Box::new(Inner { x: -3, label: None })),
            },
            r#"{"inner":{"x":1,"label":"l"},"list":[{"x":2}],"boxed":{"x":-3}}"#,
            r#"
                03 0c                          // object, 3 members
                14 69 6e 6e 65 72  03 08       // "inner": object, 2 members
                  04 78  49 01 00 00 00        // "x": i32 1
                  14 6c 61 62 65 6c  02 04 6c  // "label": string "l"
                10 6c 69 73 74  05 04          // "list": generic array, 1 element
                  03 04                        // object, 1 member
                    04 78  49 02 00 00 00      // "x": i32 2
                14 62 6f 78 65 64  03 04       // "boxed": object, 1 member
                  04 78  49 fd ff ff ff        // "x": i32 -3
            "#,
        )
        .into(),
        // Field attributes.
        Case::new(
            "field: rename, alias, raw identifier",
            Renamed {
                id: 1,
                name: "x".into(),
                kind: 2,
                r#match: true,
            },
            r#"{"ID":1,"name":"x","type":2,"match":true}"#,
            r#"
                03 10                     // object, 4 members
                08 49 44  51 01 00 00 00  // "ID": u32 1
                10 6e 61 6d 65  02 04 78  // "name": string "x"
                10 74 79 70 65  11 02     // "type": u8 2
                14 6d 61 74 63 68  18     // "match": true
            "#,
        )
        .reads(
            r#"{"ID":1,"fullName":"x","type":2,"match":true}"#,
            r#"
                03 10                                 // object, 4 members
                08 49 44  51 01 00 00 00              // "ID": u32 1
                20 66 75 6c 6c 4e 61 6d 65  02 04 78  // "fullName": string "x"
                10 74 79 70 65  11 02                 // "type": u8 2
                14 6d 61 74 63 68  18                 // "match": true
            "#,
        )
        .reads(
            r#"{"full_name":"x","match":true,"type":2,"ID":1}"#,
            r#"
                03 10                                    // object, 4 members
                24 66 75 6c 6c 5f 6e 61 6d 65  02 04 78  // "full_name": string "x"
                14 6d 61 74 63 68  18                    // "match": true
                10 74 79 70 65  11 02                    // "type": u8 2
                08 49 44  51 01 00 00 00                 // "ID": u32 1
            "#,
        )
        .into(),
        Case::new(
            "field: skip",
            Skips {
                a: 1,
                cache: vec![],
                b: 2,
            },
            r#"{"a":1,"b":2}"#,
            r#"
                03 08         // object, 2 members (cache skipped)
                04 61  11 01  // "a": u8 1
                04 62  11 02  // "b": u8 2
            "#,
        )
        .into(),
        Case::new(
            "field: rename to non-ASCII, empty and quoted keys",
            OddKeys { a: 1, b: 2, c: 3 },
            r#"{"naïve café":1,"":2,"quote\"d":3}"#,
            r#"
                03 0c                                         // object, 3 members
                30 6e 61 c3 af 76 65 20 63 61 66 c3 a9  11 01  // "naïve café": u8 1
                00  11 02                                     // "": u8 2
                1c 71 75 6f 74 65 22 64  11 03                // "quote\"d": u8 3
            "#,
        )
        .into(),
        // rename_all, every rule, on fields and on variants.
        Case::new(
            "rename_all: lowercase fields",
            FieldsLower {
                first_name: 1,
                x: 2,
            },
            r#"{"first_name":1,"x":2}"#,
            r#"
                03 08                                    // object, 2 members
                28 66 69 72 73 74 5f 6e 61 6d 65  11 01  // "first_name": u8 1
                04 78  11 02                             // "x": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: UPPERCASE fields",
            FieldsUpper {
                first_name: 1,
                x: 2,
            },
            r#"{"FIRST_NAME":1,"X":2}"#,
            r#"
                03 08                                    // object, 2 members
                28 46 49 52 53 54 5f 4e 41 4d 45  11 01  // "FIRST_NAME": u8 1
                04 58  11 02                             // "X": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: PascalCase fields",
            FieldsPascal {
                first_name: 1,
                x: 2,
            },
            r#"{"FirstName":1,"X":2}"#,
            r#"
                03 08                                 // object, 2 members
                24 46 69 72 73 74 4e 61 6d 65  11 01  // "FirstName": u8 1
                04 58  11 02                          // "X": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: camelCase fields",
            FieldsCamel {
                first_name: 1,
                x: 2,
            },
            r#"{"firstName":1,"x":2}"#,
            r#"
                03 08                                 // object, 2 members
                24 66 69 72 73 74 4e 61 6d 65  11 01  // "firstName": u8 1
                04 78  11 02                          // "x": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: snake_case fields",
            FieldsSnake {
                first_name: 1,
                x: 2,
            },
            r#"{"first_name":1,"x":2}"#,
            r#"
                03 08                                    // object, 2 members
                28 66 69 72 73 74 5f 6e 61 6d 65  11 01  // "first_name": u8 1
                04 78  11 02                             // "x": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: SCREAMING_SNAKE_CASE fields",
            FieldsScreamingSnake {
                first_name: 1,
                x: 2,
            },
            r#"{"FIRST_NAME":1,"X":2}"#,
            r#"
                03 08                                    // object, 2 members
                28 46 49 52 53 54 5f 4e 41 4d 45  11 01  // "FIRST_NAME": u8 1
                04 58  11 02                             // "X": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: kebab-case fields",
            FieldsKebab {
                first_name: 1,
                x: 2,
            },
            r#"{"first-name":1,"x":2}"#,
            r#"
                03 08                                    // object, 2 members
                28 66 69 72 73 74 2d 6e 61 6d 65  11 01  // "first-name": u8 1
                04 78  11 02                             // "x": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: SCREAMING-KEBAB-CASE fields",
            FieldsScreamingKebab {
                first_name: 1,
                x: 2,
            },
            r#"{"FIRST-NAME":1,"X":2}"#,
            r#"
                03 08                                    // object, 2 members
                28 46 49 52 53 54 2d 4e 41 4d 45  11 01  // "FIRST-NAME": u8 1
                04 58  11 02                             // "X": u8 2
            "#,
        )
        .into(),
        Case::new(
            "rename_all: lowercase variants",
            VariantsLower::VeryBlue,
            r#""veryblue""#,
            r#"
                02 20 76 65 72 79 62 6c 75 65  // string "veryblue"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: UPPERCASE variants",
            VariantsUpper::VeryBlue,
            r#""VERYBLUE""#,
            r#"
                02 20 56 45 52 59 42 4c 55 45  // string "VERYBLUE"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: PascalCase variants",
            VariantsPascal::VeryBlue,
            r#""VeryBlue""#,
            r#"
                02 20 56 65 72 79 42 6c 75 65  // string "VeryBlue"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: camelCase variants",
            VariantsCamel::VeryBlue,
            r#""veryBlue""#,
            r#"
                02 20 76 65 72 79 42 6c 75 65  // string "veryBlue"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: snake_case variants",
            VariantsSnake::VeryBlue,
            r#""very_blue""#,
            r#"
                02 24 76 65 72 79 5f 62 6c 75 65  // string "very_blue"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: SCREAMING_SNAKE_CASE variants",
            VariantsScreamingSnake::VeryBlue,
            r#""VERY_BLUE""#,
            r#"
                02 24 56 45 52 59 5f 42 4c 55 45  // string "VERY_BLUE"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: kebab-case variants",
            VariantsKebab::VeryBlue,
            r#""very-blue""#,
            r#"
                02 24 76 65 72 79 2d 62 6c 75 65  // string "very-blue"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: SCREAMING-KEBAB-CASE variants",
            VariantsScreamingKebab::VeryBlue,
            r#""VERY-BLUE""#,
            r#"
                02 24 56 45 52 59 2d 42 4c 55 45  // string "VERY-BLUE"
            "#,
        )
        .into(),
        Case::new(
            "rename_all: a variant with data keeps its rule",
            VariantsKebab::Red(5),
            r#"{"red":5}"#,
            r#"
                03 04               // object, 1 member
                0c 72 65 64  11 05  // "red": u8 5
            "#,
        )
        .into(),
        Case::new(
            "rename_all: rename wins over the rule",
            CamelRenamed {
                first_name: "a".into(),
                last_name: "b".into(),
            },
            r#"{"firstName":"a","LAST":"b"}"#,
            r#"
                03 08                                    // object, 2 members
                24 66 69 72 73 74 4e 61 6d 65  02 04 61  // "firstName": string "a"
                10 4c 41 53 54  02 04 62                 // "LAST": string "b"
            "#,
        )
        .into(),
        // Tuple, newtype and unit structs.
        Case::new("newtype: its field's value", Meters(1.5), "1.5",
            r#"
                61 00 00 00 00 00 00 f8 3f  // f64 1.5
            "#,
        ).into(),
        Case::new(
            "newtype: as members; an Option inside one that is None is left out",
            Holder {
                len: Meters(2.0),
                name: MaybeName(None),
            },
            r#"{"len":2}"#,
            r#"
                03 04                                    // object, 1 member (name is None)
                0c 6c 65 6e  61 00 00 00 00 00 00 00 40  // "len": f64 2.0
            "#,
        )
        .into(),
        Case::new(
            "newtype: an Option inside one that is Some",
            Holder {
                len: Meters(0.5),
                name: MaybeName(Some("n".into())),
            },
            r#"{"len":0.5,"name":"n"}"#,
            r#"
                03 08                                    // object, 2 members
                0c 6c 65 6e  61 00 00 00 00 00 00 e0 3f  // "len": f64 0.5
                10 6e 61 6d 65  02 04 6e                 // "name": string "n"
            "#,
        )
        .into(),
        Case::new(
            "newtype: the one field left after skip",
            OneLeft(0, 300),
            "300",
            r#"
                31 2c 01  // u16 300
            "#,
        )
        .into(),
        Case::new(
            "tuple struct: a generic array",
            Triple(1, "a".into(), vec![-1, 2]),
            r#"[1,"a",[-1,2]]"#,
            r#"
                05 0c                            // generic array, 3 elements
                  11 01                          // u8 1
                  02 04 61                       // string "a"
                  4c 08 ff ff ff ff 02 00 00 00  // i32 typed array [-1, 2]
            "#,
        )
        .into(),
        Case::new(
            "tuple struct: a skipped field is left out",
            TupleSkip(1, 0, 2),
            "[1,2]",
            r#"
                05 08    // generic array, 2 elements (the u64 skipped)
                  11 01  // u8 1
                  11 02  // u8 2
            "#,
        )
        .into(),
        Case::new("unit struct: null", Unit, "null",
            r#"
                00  // null
            "#,
        ).into(),
        Case::new(
            "tuple struct without fields: an empty array",
            NoFields(),
            "[]",
            r#"
                05 00  // generic array, 0 elements
            "#,
        )
        .into(),
        // Unit-only enums: the name in JSON, the discriminant of the repr type in BEVE.
        Case::new(
            "unit enum: no repr is i32",
            Color::Green,
            r#""Green""#,
            r#"
                49 01 00 00 00  // i32 1
            "#,
        )
        .reads(r#""Green""#,
            r#"
                11 01  // u8 1
            "#,
        )
        .into(),
        Case::new(
            "unit enum: variant rename and alias",
            Color::Blue,
            r#""azure""#,
            r#"
                49 02 00 00 00  // i32 2
            "#,
        )
        .reads(r#""blue""#,
            r#"
                02 10 62 6c 75 65  // string "blue"
            "#,
        )
        .into(),
        Case::new(
            "unit enum: repr(u8) with rename_all",
            Level::High,
            r#""high""#,
            r#"
                11 c8  // u8 200
            "#,
        )
        .into(),
        Case::new("unit enum: repr(i8)", ReprI8::Low, r#""Low""#,
            r#"
                09 fe  // i8 -2
            "#,
        ).into(),
        Case::new("unit enum: repr(i16)", ReprI16::Low, r#""Low""#,
            r#"
                29 d4 fe  // i16 -300
            "#,
        ).into(),
        Case::new("unit enum: repr(u16)", ReprU16::Top, r#""Top""#,
            r#"
                31 ff ff  // u16 65535
            "#,
        ).into(),
        Case::new(
            "unit enum: repr(i32)",
            ReprI32::MinusOne,
            r#""MinusOne""#,
            r#"
                49 ff ff ff ff  // i32 -1
            "#,
        )
        .into(),
        Case::new("unit enum: repr(u32)", ReprU32::Big, r#""Big""#,
            r#"
                51 00 28 6b ee  // u32 4000000000
            "#,
        ).into(),
        Case::new("unit enum: repr(i64)", ReprI64::Big, r#""Big""#,
            r#"
                69 00 00 00 00 00 01 00 00  // i64 1099511627776
            "#,
        ).into(),
        Case::new("unit enum: repr(u64)", ReprU64::Max, r#""Max""#,
            r#"
                71 ff ff ff ff ff ff ff ff  // u64 18446744073709551615
            "#,
        ).into(),
        Case::new(
            "unit enum: repr(usize) is u64",
            ReprUsize::Seven,
            r#""Seven""#,
            r#"
                71 07 00 00 00 00 00 00 00  // u64 7
            "#,
        )
        .into(),
        Case::new(
            "unit enum: as a member, in a Vec, as map keys",
            Palette {
                main: Color::Green,
                levels: vec![Level::High, Level::VeryLow],
                counts: [(Color::Red, 1), (Color::Blue, 3)].into(),
                by_level: [(Level::High, "h".to_string())].into(),
            },
            r#"{"main":"Green","levels":["high","very_low"],"counts":{"Red":1,"azure":3},"by_level":{"high":"h"}}"#,
            r#"
                03 10                              // object, 4 members
                10 6d 61 69 6e  49 01 00 00 00     // "main": i32 1
                18 6c 65 76 65 6c 73  05 08        // "levels": generic array, 2 elements
                  11 c8                            // u8 200
                  11 01                            // u8 1
                18 63 6f 75 6e 74 73  4b 08        // "counts": object with i32 keys, 2 members
                  00 00 00 00  51 01 00 00 00      // key 0: u32 1
                  02 00 00 00  51 03 00 00 00      // key 2: u32 3
                20 62 79 5f 6c 65 76 65 6c  13 04  // "by_level": object with u8 keys, 1 member
                  c8  02 04 68                     // key 200: string "h"
            "#,
        )
        .into(),
        // Enums with data, externally tagged (the default).
        Case::new(
            "external: unit variant",
            Ext::Unit,
            r#""Unit""#,
            r#"
                02 10 55 6e 69 74  // string "Unit"
            "#,
        )
        .reads(r#"{"Unit":null}"#,
            r#"
                03 04               // object, 1 member
                10 55 6e 69 74  00  // "Unit": null
            "#,
        )
        .into(),
        Case::new(
            "external: newtype variant, renamed, with an alias",
            Ext::New(-5),
            r#"{"num":-5}"#,
            r#"
                03 04                        // object, 1 member
                0c 6e 75 6d  49 fb ff ff ff  // "num": i32 -5
            "#,
        )
        .reads(r#"{"number":-5}"#,
            r#"
                03 04                                 // object, 1 member
                18 6e 75 6d 62 65 72  49 fb ff ff ff  // "number": i32 -5
            "#,
        )
        .into(),
        Case::new(
            "external: tuple variant",
            Ext::Pair(1, "a".into()),
            r#"{"Pair":[1,"a"]}"#,
            r#"
                03 04                  // object, 1 member
                10 50 61 69 72  05 08  // "Pair": generic array, 2 elements
                  11 01                // u8 1
                  02 04 61             // string "a"
            "#,
        )
        .into(),
        Case::new(
            "external: struct variant with a renamed field",
            Ext::Point { x: 1, y: 2 },
            r#"{"Point":{"x":1,"Y":2}}"#,
            r#"
                03 04                     // object, 1 member
                14 50 6f 69 6e 74  03 08  // "Point": object, 2 members
                  04 78  49 01 00 00 00   // "x": i32 1
                  04 59  49 02 00 00 00   // "Y": i32 2
            "#,
        )
        .into(),
        Case::new(
            "external: struct variant without fields",
            Ext::Empty {},
            r#"{"Empty":{}}"#,
            r#"
                03 04                     // object, 1 member
                14 45 6d 70 74 79  03 00  // "Empty": object, 0 members
            "#,
        )
        .into(),
        Case::new(
            "external: tuple variant without fields",
            Ext::NoElems(),
            r#"{"NoElems":[]}"#,
            r#"
                03 04                           // object, 1 member
                1c 4e 6f 45 6c 65 6d 73  05 00  // "NoElems": generic array, 0 elements
            "#,
        )
        .into(),
        Case::new(
            "external: variant rename_all",
            Ext::Camel { long_name: 1 },
            r#"{"Camel":{"longName":1}}"#,
            r#"
                03 04                                // object, 1 member
                14 43 61 6d 65 6c  03 04             // "Camel": object, 1 member
                  20 6c 6f 6e 67 4e 61 6d 65  11 01  // "longName": u8 1
            "#,
        )
        .into(),
        // Internally tagged.
        Case::new(
            "internal: struct variant, the tag first",
            Shape::Circle { r: 1.5 },
            r#"{"type":"circle","r":1.5}"#,
            r#"
                03 08                                    // object, 2 members
                10 74 79 70 65  02 18 63 69 72 63 6c 65  // "type": string "circle"
                04 72  61 00 00 00 00 00 00 f8 3f        // "r": f64 1.5
            "#,
        )
        .reads(r#"{"r":1.5,"type":"circle"}"#,
            r#"
                03 08                                    // object, 2 members
                04 72  61 00 00 00 00 00 00 f8 3f        // "r": f64 1.5
                10 74 79 70 65  02 18 63 69 72 63 6c 65  // "type": string "circle"
            "#,
        )
        .into(),
        Case::new(
            "internal: skip and None in a struct variant",
            Shape::RightRect {
                w: 1,
                label: None,
                cache: 0,
            },
            r#"{"type":"right_rect","w":1}"#,
            r#"
                03 08                                         // object, 2 members (label None, cache skipped)
                10 74 79 70 65  02 28 72 69 67 68 74 5f 72 65 63 74  // "type": string "right_rect"
                04 77  51 01 00 00 00                         // "w": u32 1
            "#,
        )
        .into(),
        Case::new(
            "internal: unit variant",
            Shape::Nothing,
            r#"{"type":"nothing"}"#,
            r#"
                03 04                                       // object, 1 member
                10 74 79 70 65  02 1c 6e 6f 74 68 69 6e 67  // "type": string "nothing"
            "#,
        )
        .into(),
        Case::new(
            "internal: newtype variant around a struct",
            Shape::Wrapped(Part { a: 1, b: Some(2) }),
            r#"{"type":"wrapped","a":1,"b":2}"#,
            r#"
                03 0c                                       // object, 3 members
                10 74 79 70 65  02 1c 77 72 61 70 70 65 64  // "type": string "wrapped"
                04 61  11 01                                // "a": u8 1
                04 62  11 02                                // "b": u8 2
            "#,
        )
        .into(),
        Case::new(
            "internal: unit-only enum with a tag",
            TaggedUnits::Off,
            r#"{"kind":"off"}"#,
            r#"
                03 04                           // object, 1 member
                10 6b 69 6e 64  02 0c 6f 66 66  // "kind": string "off"
            "#,
        )
        .into(),
        // Adjacently tagged.
        Case::new(
            "adjacent: unit variant",
            Adj::A,
            r#"{"t":"A"}"#,
            r#"
                03 04            // object, 1 member
                04 74  02 04 41  // "t": string "A"
            "#,
        )
        .reads(r#"{"t":"A","c":null}"#,
            r#"
                03 08            // object, 2 members
                04 74  02 04 41  // "t": string "A"
                04 63  00        // "c": null
            "#,
        )
        .into(),
        Case::new(
            "adjacent: newtype variant",
            Adj::B(3),
            r#"{"t":"B","c":3}"#,
            r#"
                03 08                  // object, 2 members
                04 74  02 04 42        // "t": string "B"
                04 63  49 03 00 00 00  // "c": i32 3
            "#,
        )
        .into(),
        Case::new(
            "adjacent: struct variant",
            Adj::C { x: 1 },
            r#"{"t":"C","c":{"x":1}}"#,
            r#"
                03 08            // object, 2 members
                04 74  02 04 43  // "t": string "C"
                04 63  03 04     // "c": object, 1 member
                  04 78  11 01   // "x": u8 1
            "#,
        )
        .reads(r#"{"c":{"x":1},"t":"C"}"#,
            r#"
                03 08            // object, 2 members
                04 63  03 04     // "c": object, 1 member
                  04 78  11 01   // "x": u8 1
                04 74  02 04 43  // "t": string "C"
            "#,
        )
        .into(),
        Case::new(
            "adjacent: tuple variant",
            Adj::D(1, 2),
            r#"{"t":"D","c":[1,2]}"#,
            r#"
                03 08            // object, 2 members
                04 74  02 04 44  // "t": string "D"
                04 63  05 08     // "c": generic array, 2 elements
                  11 01          // u8 1
                  11 02          // u8 2
            "#,
        )
        .into(),
        // Untagged.
        Case::new("untagged: unit variant", Any::Nil, "null",
            r#"
                00  // null
            "#,
        ).into(),
        Case::new("untagged: bool", Any::Flag(true), "true",
            r#"
                18  // true
            "#,
        ).into(),
        Case::new("untagged: integer", Any::Int(-3), "-3",
            r#"
                69 fd ff ff ff ff ff ff ff  // i64 -3
            "#,
        ).into(),
        Case::new("untagged: float", Any::Float(1.5), "1.5",
            r#"
                61 00 00 00 00 00 00 f8 3f  // f64 1.5
            "#,
        ).into(),
        Case::new(
            "untagged: string",
            Any::Text("s".into()),
            r#""s""#,
            r#"
                02 04 73  // string "s"
            "#,
        )
        .into(),
        Case::new(
            "untagged: a Vec of itself",
            Any::List(vec![Any::Int(1), Any::Text("a".into()), Any::Nil]),
            r#"[1,"a",null]"#,
            r#"
                05 0c                         // generic array, 3 elements
                  69 01 00 00 00 00 00 00 00  // i64 1
                  02 04 61                    // string "a"
                  00                          // null
            "#,
        )
        .into(),
        Case::new(
            "untagged: struct variant",
            Any::Pt { x: 1, y: 2 },
            r#"{"x":1,"y":2}"#,
            r#"
                03 08                  // object, 2 members
                04 78  49 01 00 00 00  // "x": i32 1
                04 79  49 02 00 00 00  // "y": i32 2
            "#,
        )
        .into(),
        // with.
        Case::new(
            "with: struct fields, renamed, an Option always written",
            WithField {
                id: 7,
                bits: 0xBEEF,
                kept: None,
            },
            r#"{"id":7,"mask":"beef","kept":null}"#,
            r#"
                03 0c                              // object, 3 members
                08 69 64  51 07 00 00 00           // "id": u32 7
                10 6d 61 73 6b  02 10 62 65 65 66  // "mask": string "beef"
                10 6b 65 70 74  00                 // "kept": null
            "#,
        )
        .into(),
        Case::new(
            "with: tuple struct field",
            WithTuple(255, 3),
            r#"["ff",3]"#,
            r#"
                05 08          // generic array, 2 elements
                  02 08 66 66  // string "ff"
                  11 03        // u8 3
            "#,
        )
        .into(),
        Case::new(
            "with: newtype field",
            WithNewtype(0xABC),
            r#""abc""#,
            r#"
                02 0c 61 62 63  // string "abc"
            "#,
        )
        .into(),
        Case::new(
            "with: newtype variant",
            WithVariants::One(10),
            r#"{"One":"a"}"#,
            r#"
                03 04                  // object, 1 member
                0c 4f 6e 65  02 04 61  // "One": string "a"
            "#,
        )
        .into(),
        Case::new(
            "with: struct variant field",
            WithVariants::Named {
                value: 4096,
                width: 16,
            },
            r#"{"Named":{"value":"1000","width":16}}"#,
            r#"
                03 04                                   // object, 1 member
                14 4e 61 6d 65 64  03 08                // "Named": object, 2 members
                  14 76 61 6c 75 65  02 10 31 30 30 30  // "value": string "1000"
                  14 77 69 64 74 68  11 10              // "width": u8 16
            "#,
        )
        .into(),
        Case::new(
            "with and bound: a generic field",
            AsText { v: 2.5f64 },
            r#"{"v":"2.5"}"#,
            r#"
                03 04                  // object, 1 member
                04 76  02 0c 32 2e 35  // "v": string "2.5"
            "#,
        )
        .into(),
        // bound, crate, generics.
        Case::new(
            "bound: replaces the inferred bounds",
            Boxed { b: Box::new(9u16) },
            r#"{"b":9}"#,
            r#"
                03 04            // object, 1 member
                04 62  31 09 00  // "b": u16 9
            "#,
        )
        .into(),
        Case::new(
            "crate: another path to structio",
            renamed_crate::ViaAlias { x: 3 },
            r#"{"x":3}"#,
            r#"
                03 04         // object, 1 member
                04 78  11 03  // "x": u8 3
            "#,
        )
        .into(),
        Case::new(
            "generics: type parameters",
            Pair {
                one: 1u8,
                many: vec!["a".to_string()],
                maybe: Some(2u8),
            },
            r#"{"one":1,"many":["a"],"maybe":2}"#,
            r#"
                03 0c                        // object, 3 members
                0c 6f 6e 65  11 01           // "one": u8 1
                10 6d 61 6e 79  3c 04 04 61  // "many": string array ["a"]
                14 6d 61 79 62 65  11 02     // "maybe": u8 2
            "#,
        )
        .into(),
        Case::new(
            "generics: an enum whose parameters are named W and R",
            Either::<u8, String>::Right { r: "x".into() },
            r#"{"Right":{"r":"x"}}"#,
            r#"
                03 04                     // object, 1 member
                14 52 69 67 68 74  03 04  // "Right": object, 1 member
                  04 72  02 04 78         // "r": string "x"
            "#,
        )
        .into(),
        Case::new(
            "generics: a recursive type",
            Tree {
                value: 1u8,
                children: vec![Tree {
                    value: 2,
                    children: vec![],
                }],
            },
            r#"{"value":1,"children":[{"value":2,"children":[]}]}"#,
            r#"
                03 08                                  // object, 2 members
                14 76 61 6c 75 65  11 01               // "value": u8 1
                20 63 68 69 6c 64 72 65 6e  05 04      // "children": generic array, 1 element
                  03 08                                // object, 2 members
                    14 76 61 6c 75 65  11 02           // "value": u8 2
                    20 63 68 69 6c 64 72 65 6e  05 00  // "children": generic array, 0 elements
            "#,
        )
        .into(),
        Case::new(
            "generics: a const parameter",
            Fixed::<3> { v: [1, 2, 3] },
            r#"{"v":[1,2,3]}"#,
            r#"
                03 04                  // object, 1 member
                04 76  14 0c 01 02 03  // "v": u8 typed array [1, 2, 3]
            "#,
        )
        .into(),
        // flatten.
        Case::new(
            "flatten: two structs, members in place, the count covers them",
            query(),
            r#"{"q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann"}"#,
            r#"
                03 14                                         // object, 5 members (note None)
                04 71  02 10 72 75 73 74                      // "q": string "rust"
                10 70 61 67 65  51 02 00 00 00                // "page": u32 2
                20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
                10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
                28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
            "#,
        )
        .reads(
            r#"{"created_by":"ann","per_page":50,"sort":"date","page":2,"q":"rust"}"#,
            r#"
                03 14                                         // object, 5 members
                28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
                20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
                10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
                10 70 61 67 65  51 02 00 00 00                // "page": u32 2
                04 71  02 10 72 75 73 74                      // "q": string "rust"
            "#,
        )
        .into(),
        Case::new(
            "flatten: a flattened struct that flattens others",
            Search {
                id: 9,
                query: query(),
            },
            r#"{"id":9,"q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann"}"#,
            r#"
                03 18                                         // object, 6 members
                08 69 64  71 09 00 00 00 00 00 00 00          // "id": u64 9
                04 71  02 10 72 75 73 74                      // "q": string "rust"
                10 70 61 67 65  51 02 00 00 00                // "page": u32 2
                20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
                10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
                28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
            "#,
        )
        .into(),
        Case::new(
            "flatten: a generic field with nothing to write",
            Envelope {
                kind: "x".into(),
                body: Audit {
                    created_by: String::new(),
                    note: None,
                },
            },
            r#"{"kind":"x","created_by":""}"#,
            r#"
                03 08                                    // object, 2 members (note None)
                10 6b 69 6e 64  02 04 78                 // "kind": string "x"
                28 63 72 65 61 74 65 64 5f 62 79  02 00  // "created_by": string ""
            "#,
        )
        .into(),
        Case::new(
            "flatten: a map keeps the members no field takes",
            Event {
                id: 1,
                paging: Paging {
                    page: 2,
                    per_page: 3,
                },
                extra: [
                    ("color".to_string(), Value::from("red")),
                    (
                        "tags".to_string(),
                        Value::from(vec![Value::from(1i64), Value::from("x")]),
                    ),
                    ("z".to_string(), Value::Null),
                ]
                .into(),
            },
            r#"{"id":1,"page":2,"per_page":3,"color":"red","tags":[1,"x"],"z":null}"#,
            r#"
                03 18                                       // object, 6 members
                08 69 64  51 01 00 00 00                    // "id": u32 1
                10 70 61 67 65  51 02 00 00 00              // "page": u32 2
                20 70 65 72 5f 70 61 67 65  51 03 00 00 00  // "per_page": u32 3
                14 63 6f 6c 6f 72  02 0c 72 65 64           // "color": string "red"
                10 74 61 67 73  05 08                       // "tags": generic array, 2 elements
                  69 01 00 00 00 00 00 00 00                // i64 1
                  02 04 78                                  // string "x"
                04 7a  00                                   // "z": null
            "#,
        )
        .reads(
            r#"{"color":"red","page":2,"z":null,"id":1,"tags":[1,"x"],"per_page":3}"#,
            r#"
                03 18                                       // object, 6 members
                14 63 6f 6c 6f 72  02 0c 72 65 64           // "color": string "red"
                10 70 61 67 65  51 02 00 00 00              // "page": u32 2
                04 7a  00                                   // "z": null
                08 69 64  51 01 00 00 00                    // "id": u32 1
                10 74 61 67 73  05 08                       // "tags": generic array, 2 elements
                  69 01 00 00 00 00 00 00 00                // i64 1
                  02 04 78                                  // string "x"
                20 70 65 72 5f 70 61 67 65  51 03 00 00 00  // "per_page": u32 3
            "#,
        )
        .into(),
        Case::new(
            "flatten: in the newtype variant of an internally tagged enum",
            Message::Search(query()),
            r#"{"type":"Search","q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann"}"#,
            r#"
                03 18                                         // object, 6 members
                10 74 79 70 65  02 18 53 65 61 72 63 68       // "type": string "Search"
                04 71  02 10 72 75 73 74                      // "q": string "rust"
                10 70 61 67 65  51 02 00 00 00                // "page": u32 2
                20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
                10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
                28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
            "#,
        )
        .into(),
        // Members of container types.
        Case::new(
            "members: numeric Vecs and arrays are typed arrays",
            Numbers {
                f64s: vec![1.5, -2.0],
                f32s: vec![0.5],
                i8s: vec![-1, 2],
                i16s: vec![-300],
                i32s: vec![70000],
                i64s: vec![-2],
                u8s: vec![1, 255],
                u16s: vec![65535],
                u32s: vec![7],
                u64s: vec![1 << 40],
                empty: vec![],
                fixed: [1, 2, 3],
            },
            r#"{"f64s":[1.5,-2],"f32s":[0.5],"i8s":[-1,2],"i16s":[-300],"i32s":[70000],"i64s":[-2],"u8s":[1,255],"u16s":[65535],"u32s":[7],"u64s":[1099511627776],"empty":[],"fixed":[1,2,3]}"#,
            r#"
                03 30                                         // object, 12 members
                10 66 36 34 73  64 08 00 00 00 00 00 00 f8 3f 00 00 00 00 00 00 00 c0  // "f64s": f64 typed array [1.5, -2.0]
                10 66 33 32 73  44 04 00 00 00 3f             // "f32s": f32 typed array [0.5]
                0c 69 38 73  0c 08 ff 02                      // "i8s": i8 typed array [-1, 2]
                10 69 31 36 73  2c 04 d4 fe                   // "i16s": i16 typed array [-300]
                10 69 33 32 73  4c 04 70 11 01 00             // "i32s": i32 typed array [70000]
                10 69 36 34 73  6c 04 fe ff ff ff ff ff ff ff  // "i64s": i64 typed array [-2]
                0c 75 38 73  14 08 01 ff                      // "u8s": u8 typed array [1, 255]
                10 75 31 36 73  34 04 ff ff                   // "u16s": u16 typed array [65535]
                10 75 33 32 73  54 04 07 00 00 00             // "u32s": u32 typed array [7]
                10 75 36 34 73  74 04 00 00 00 00 00 01 00 00  // "u64s": u64 typed array [1099511627776]
                14 65 6d 70 74 79  64 00                      // "empty": f64 typed array []
                14 66 69 78 65 64  34 0c 01 00 02 00 03 00    // "fixed": u16 typed array [1, 2, 3]
            "#,
        )
        .into(),
        Case::new(
            "members: bool arrays, string arrays, a Vec of structs",
            Lists {
                flags: vec![true, false, true, true, false, false, false, false, true],
                no_flags: vec![],
                words: vec!["ab".into(), String::new(), "é".into()],
                no_words: vec![],
                parts: vec![Part { a: 1, b: None }, Part { a: 2, b: Some(3) }],
            },
            r#"{"flags":[true,false,true,true,false,false,false,false,true],"no_flags":[],"words":["ab","","é"],"no_words":[],"parts":[{"a":1},{"a":2,"b":3}]}"#,
            r#"
                03 14                                         // object, 5 members
                14 66 6c 61 67 73  1c 24 0d 01                // "flags": bool array of 9, bits LSB first
                20 6e 6f 5f 66 6c 61 67 73  1c 00             // "no_flags": bool array of 0, bits LSB first
                14 77 6f 72 64 73  3c 0c 08 61 62 00 08 c3 a9  // "words": string array ["ab", "", "é"]
                20 6e 6f 5f 77 6f 72 64 73  3c 00             // "no_words": string array []
                14 70 61 72 74 73  05 08                      // "parts": generic array, 2 elements
                  03 04                                       // object, 1 member
                    04 61  11 01                              // "a": u8 1
                  03 08                                       // object, 2 members
                    04 61  11 02                              // "a": u8 2
                    04 62  11 03                              // "b": u8 3
            "#,
        )
        .into(),
        Case::new(
            "members: maps with string keys and integer keys of each width",
            Maps {
                by_name: [("a".to_string(), 1), ("b".to_string(), 2)].into(),
                by_i32: [(-5, "m".to_string()), (42, "n".to_string())].into(),
                by_u8: [(0, false), (255, true)].into(),
                by_i64: [(-1, 0.5)].into(),
                by_u64: [(u64::MAX, 1)].into(),
                none_i16: BTreeMap::new(),
                none_str: BTreeMap::new(),
            },
            r#"{"by_name":{"a":1,"b":2},"by_i32":{"-5":"m","42":"n"},"by_u8":{"0":false,"255":true},"by_i64":{"-1":0.5},"by_u64":{"18446744073709551615":1},"none_i16":{},"none_str":{}}"#,
            r#"
                03 1c                                         // object, 7 members
                1c 62 79 5f 6e 61 6d 65  03 08                // "by_name": object, 2 members
                  04 61  51 01 00 00 00                       // "a": u32 1
                  04 62  51 02 00 00 00                       // "b": u32 2
                18 62 79 5f 69 33 32  4b 08                   // "by_i32": object with i32 keys, 2 members
                  fb ff ff ff  02 04 6d                       // key -5: string "m"
                  2a 00 00 00  02 04 6e                       // key 42: string "n"
                14 62 79 5f 75 38  13 08                      // "by_u8": object with u8 keys, 2 members
                  00  08                                      // key 0: false
                  ff  18                                      // key 255: true
                18 62 79 5f 69 36 34  6b 04                   // "by_i64": object with i64 keys, 1 member
                  ff ff ff ff ff ff ff ff  61 00 00 00 00 00 00 e0 3f  // key -1: f64 0.5
                18 62 79 5f 75 36 34  73 04                   // "by_u64": object with u64 keys, 1 member
                  ff ff ff ff ff ff ff ff  11 01              // key 18446744073709551615: u8 1
                20 6e 6f 6e 65 5f 69 31 36  2b 00             // "none_i16": object with i16 keys, 0 members
                20 6e 6f 6e 65 5f 73 74 72  03 00             // "none_str": object, 0 members
            "#,
        )
        .into(),
        Case::new(
            "as_integer: the discriminant of the repr type, an integer key, i32 without repr",
            IntLeveled {
                level: IntLevel::High,
                by_level: [(IntLevel::Low, 5)].into(),
                status: IntStatus::Moved,
            },
            r#"{"level":3,"by_level":{"1":5},"status":-7}"#,
            r#"
                03 0c                                         // object, 3 members
                14 6c 65 76 65 6c  11 03                      // "level": u8 3
                20 62 79 5f 6c 65 76 65 6c  13 04             // "by_level": object with u8 keys, 1 member
                  01  11 05                                   // key 1: u8 5
                18 73 74 61 74 75 73  49 f9 ff ff ff          // "status": i32 -7
            "#,
        )
        .into(),
        Case::new(
            "quoted: u64, bool, f64, Vec<i16> and Option<u8> as strings in JSON, as they are in BEVE",
            QuotedIds {
                id: u64::MAX,
                on: true,
                ratio: 1.5,
                list: vec![-1, 2],
                maybe: Some(7),
            },
            r#"{"id":"18446744073709551615","on":"true","ratio":"1.5","list":["-1","2"],"maybe":"7"}"#,
            r#"
                03 14                                         // object, 5 members
                08 69 64  71 ff ff ff ff ff ff ff ff          // "id": u64 18446744073709551615
                08 6f 6e  18                                  // "on": true
                14 72 61 74 69 6f  61 00 00 00 00 00 00 f8 3f  // "ratio": f64 1.5
                10 6c 69 73 74  2c 08 ff ff 02 00             // "list": i16 typed array [-1, 2]
                14 6d 61 79 62 65  11 07                      // "maybe": u8 7
            "#,
        )
        .into(),
        Case::new(
            "as_array: a struct as the array of its members, nested",
            ArrRow {
                id: 7,
                name: "n".into(),
                xs: vec![1.5, 2.0],
                item: ArrItem {
                    id: 1,
                    name: "i".into(),
                },
            },
            r#"[7,"n",[1.5,2],[1,"i"]]"#,
            r#"
                05 10                                         // generic array, 4 elements
                51 07 00 00 00                                // u32 7
                02 04 6e                                      // string "n"
                64 08 00 00 00 00 00 00 f8 3f 00 00 00 00 00 00 00 40  // f64 typed array [1.5, 2.0]
                05 08                                         // generic array, 2 elements
                  11 01                                       // u8 1
                  02 04 69                                    // string "i"
            "#,
        )
        .into(),
        Case::new(
            "as_array: a None member is null, skipped fields are not in the array",
            ArrSparse {
                a: None,
                s: 0,
                w: 0,
                b: true,
            },
            r#"[null,true]"#,
            r#"
                05 08                                         // generic array, 2 elements
                00                                            // null
                18                                            // true
            "#,
        )
        .into(),
    ]
}
