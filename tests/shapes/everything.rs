//! `Everything`: one derived type with a field of every kind structio supports.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::BuildHasherDefault;

use structio::{RawJson, Reflect};

/// A fixed hasher, so that two maps built the same way iterate the same way.
pub type Fixed = BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

/// A nested struct with a rename and an alias; every member may be left out.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
#[structio(default)]
pub struct Inner {
    pub id: u32,
    #[structio(rename = "label", alias = "name")]
    pub text: String,
    pub tags: Vec<String>,
    pub next: Option<Box<Inner>>,
}

/// A unit-only enum: a name in JSON, an `i32` in BEVE; also usable as a map key.
#[derive(Reflect, Default, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    #[default]
    Red,
    Green,
    Blue = 7,
}

/// Externally tagged (the default).
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub enum External {
    #[default]
    Empty,
    Num(i64),
    Pair(u8, String),
    Shape {
        w: f64,
        h: f64,
    },
}

/// A struct wrapped by a newtype variant of the internally tagged enum.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub struct Payload {
    pub size: u16,
    pub name: String,
}

/// Internally tagged.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
#[structio(tag = "type", rename_all = "snake_case")]
pub enum Internal {
    #[default]
    Nothing,
    Point {
        x: i32,
        y: i32,
    },
    Wrapped(Payload),
}

/// Adjacently tagged.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
#[structio(tag = "t", content = "c")]
pub enum Adjacent {
    #[default]
    Unit,
    Text(String),
    Both(i8, bool),
    Fields {
        a: u64,
        b: Option<String>,
    },
}

/// Untagged: the first variant whose payload reads wins. (No float variant: `1.0` would read as
/// one and be written as `1`, which reads back as the integer variant; that ambiguity is the
/// representation's, not a bug.)
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(untagged)]
pub enum Untagged {
    Int(i64),
    Text(String),
    List(Vec<u8>),
    Obj { k: String },
}

impl Default for Untagged {
    fn default() -> Self {
        Untagged::Int(0)
    }
}

/// A tuple struct: an array of exactly two elements.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub struct Pair(pub i16, pub String);

/// A newtype struct: its field's value.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub struct Meters(pub f32);

/// Every field kind.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
pub struct Everything<'a> {
    pub i8: i8,
    pub i16: i16,
    pub i32: i32,
    pub i64: i64,
    pub i128: i128,
    pub u8: u8,
    pub u16: u16,
    pub u32: u32,
    pub u64: u64,
    pub u128: u128,
    pub f32: f32,
    pub f64: f64,
    pub flag: bool,
    pub ch: char,
    pub string: String,
    pub borrowed: &'a str,
    pub cow: Cow<'a, str>,
    pub boxed_str: Box<str>,
    pub ints: Vec<i32>,
    pub floats: Vec<f64>,
    pub strings: Vec<String>,
    pub bools: Vec<bool>,
    pub deque: VecDeque<u16>,
    pub array: [u8; 3],
    pub option: Option<i64>,
    pub boxed: Box<Inner>,
    pub str_map: HashMap<String, i32, Fixed>,
    pub int_map: HashMap<u64, bool, Fixed>,
    pub btree_str: BTreeMap<String, Vec<u8>>,
    pub btree_int: BTreeMap<i32, String>,
    pub enum_map: BTreeMap<Unit, u8>,
    pub hash_set: HashSet<i16, Fixed>,
    pub btree_set: BTreeSet<String>,
    pub tuple: (u8, String, f32),
    pub pair: Pair,
    pub meters: Meters,
    pub inner: Inner,
    pub nested: Vec<Inner>,
    pub unit: Unit,
    pub external: External,
    pub internal: Internal,
    pub adjacent: Adjacent,
    pub untagged: Untagged,
    pub externals: Vec<External>,
    pub raw: RawJson<'a>,
    pub cow_floats: Cow<'a, [f64]>,
    #[structio(skip)]
    pub skipped: u8,
}

/// A sample with every field set, as JSON text (a seed for the fuzzers and a golden input for
/// the prefix tests). `everything.beve` beside it is the same value as BEVE, checked by
/// `tests/regressions.rs`.
pub const SAMPLE_JSON: &str = include_str!("everything.json");
