//! Generated code must not trip lints in a strict user crate.
#![deny(warnings, missing_docs, unused_qualifications, unused_lifetimes, unused_results)]
#![deny(rust_2018_idioms, single_use_lifetimes, trivial_casts, trivial_numeric_casts)]
#![deny(unreachable_pub, unused_import_braces, missing_debug_implementations)]
#![deny(non_ascii_idents, let_underscore_drop, unit_bindings, unsafe_code)]
#![deny(clippy::all)]

use std::borrow::Cow;

/// A struct.
#[derive(structio::Reflect, Default, Debug)]
pub struct Named<'a, T> {
    /// A field.
    pub a: T,
    /// Another.
    pub b: Option<Cow<'a, str>>,
    /// Skipped.
    #[structio(skip)]
    pub c: u8,
}

/// One field.
#[derive(structio::Reflect, Default, Debug)]
pub struct One {
    /// The field.
    pub only: u8,
}

/// Borrows from the input.
#[derive(structio::Reflect, Default, Debug)]
pub struct Borrows<'a> {
    /// Text.
    pub text: &'a str,
}

/// No fields.
#[derive(structio::Reflect, Default, Debug)]
pub struct Nothing {}

/// A newtype.
#[derive(structio::Reflect, Default, Debug)]
pub struct New(pub u8);

/// A tuple.
#[derive(structio::Reflect, Default, Debug)]
pub struct Tuple(pub u8, pub String);

/// A unit struct.
#[derive(structio::Reflect, Default, Debug)]
pub struct Unit;

/// A unit-only enum.
#[derive(structio::Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u16)]
pub enum Small {
    /// A.
    #[default]
    A,
    /// B.
    B = 7,
}

/// One variant.
#[derive(structio::Reflect, Default, Debug)]
pub enum Lone {
    /// The variant.
    #[default]
    Only,
}

/// Externally tagged.
#[derive(structio::Reflect, Debug)]
pub enum Ext<T> {
    /// Unit.
    U,
    /// Newtype.
    N(T),
    /// Tuple.
    T(u8, u8),
    /// Struct.
    S {
        /// x.
        x: u8,
    },
    /// Empty struct.
    E {},
}

/// Internally tagged.
#[derive(structio::Reflect, Debug)]
#[structio(tag = "type")]
pub enum Int {
    /// Unit.
    U,
    /// Wraps a struct.
    N(One),
    /// Wraps a struct that borrows.
    B(Borrows<'static>),
    /// Struct.
    S {
        /// x.
        x: u8,
        /// y.
        y: Option<u8>,
    },
}

/// Adjacently tagged.
#[derive(structio::Reflect, Debug)]
#[structio(tag = "t", content = "c")]
pub enum Adj {
    /// Unit.
    U,
    /// Newtype.
    N(u8),
}

/// Untagged, without unit variants.
#[derive(structio::Reflect, Debug)]
#[structio(untagged)]
pub enum Unt {
    /// A number.
    N(u8),
    /// A string.
    S(String),
}

/// Only one variant with data.
#[derive(structio::Reflect, Debug)]
pub enum OneData {
    /// It.
    V(u8),
}

/// Type-checks uses of every type (not run: the test is about compiling cleanly).
fn uses() -> Vec<String> {
    vec![
        structio::to_json(&Named::<u8>::default()),
        structio::to_json(&(
            One::default(),
            Nothing::default(),
            New::default(),
            Tuple::default(),
            Unit,
            Small::B,
        )),
        structio::to_json(&Lone::Only),
        structio::to_json(&Ext::<u8>::U),
        structio::to_json(&Int::U),
        structio::to_json(&Adj::U),
        structio::to_json(&Unt::N(1)),
        structio::to_json(&OneData::V(1)),
        structio::to_json(&std::collections::BTreeMap::from([(Small::A, 1u8)])),
    ]
}

/// An internally tagged enum without variants.
#[derive(structio::Reflect, Debug)]
#[structio(tag = "t")]
pub enum NoneTagged {}

fn main() {
    let _: fn() -> Vec<String> = uses;
}
