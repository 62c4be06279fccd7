//! Twins for the canonical fast path: `CanonCall` (marked `#[structio(canonical)]`, with a
//! canonical struct nested directly, in an `Option` and in a `Vec`) and `PlainCall`, the same
//! members read the ordinary way. Whatever the input, both read the same value or fail with the
//! same error (`oracles::canonical_twins`).

use std::borrow::Cow;

use structio::Reflect;

/// Declares a canonical struct and its ordinary twin with the same members (`name: type, twin's
/// type;`), and `plain()`.
macro_rules! twins {
    ($fast:ident / $slow:ident $(<$lt:lifetime>)? { $($f:ident : $t:ty, $pt:ty);* $(;)? }) => {
        /// The canonical twin.
        #[derive(Reflect, Debug, Clone, PartialEq)]
        #[structio(canonical)]
        pub struct $fast $(<$lt>)? { $(pub $f: $t),* }

        /// The ordinary twin.
        #[derive(Reflect, Debug, Clone, PartialEq)]
        pub struct $slow $(<$lt>)? { $(pub $f: $pt),* }

        impl $(<$lt>)? Twin for $fast $(<$lt>)? {
            type Plain = $slow $(<$lt>)?;
            fn plain(&self) -> Self::Plain {
                $slow { $($f: Twin::plain(&self.$f)),* }
            }
        }
    };
}

/// A value and its ordinary twin.
pub trait Twin {
    /// The twin's type.
    type Plain;
    /// The same value as the twin.
    fn plain(&self) -> Self::Plain;
}

macro_rules! same_twin {
    ($($t:ty),*) => {$(
        impl Twin for $t {
            type Plain = $t;
            fn plain(&self) -> $t {
                self.clone()
            }
        }
    )*};
}
same_twin!(i32, i64, u8, bool, String, Kind, Tier);

/// A tag of few variants, which a canonical read compares whole (one renamed with a `/`, one
/// with an alias that only the ordinary read knows).
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// `"add"`.
    #[structio(rename = "add")]
    Add,
    /// `"tools/call"`, or `"call"` by its alias.
    #[structio(rename = "tools/call", alias = "call")]
    Call,
    /// `"Stop"`.
    Stop,
}

/// A tag of more variants than a canonical read compares whole: read by name and lookup.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)]
pub enum Tier {
    T1,
    T2,
    T3,
    T4,
    T5,
    T6,
    T7,
    T8,
    T9,
}

impl<'a> Twin for Cow<'a, str> {
    type Plain = Cow<'a, str>;
    fn plain(&self) -> Self::Plain {
        self.clone()
    }
}

impl<T: Twin> Twin for Option<T> {
    type Plain = Option<T::Plain>;
    fn plain(&self) -> Self::Plain {
        self.as_ref().map(Twin::plain)
    }
}

impl<T: Twin> Twin for Vec<T> {
    type Plain = Vec<T::Plain>;
    fn plain(&self) -> Self::Plain {
        self.iter().map(Twin::plain).collect()
    }
}

twins!(CanonArgs / PlainArgs {
    left: i32, i32;
    right: i64, i64;
    small: u8, u8;
});

twins!(CanonCall / PlainCall<'a> {
    name: Cow<'a, str>, Cow<'a, str>;
    args: CanonArgs, PlainArgs;
    more: Option<CanonArgs>, Option<PlainArgs>;
    list: Vec<CanonArgs>, Vec<PlainArgs>;
    tags: Vec<String>, Vec<String>;
    flag: bool, bool;
    note: Option<String>, Option<String>;
    kind: Kind, Kind;
    tier: Option<Tier>, Option<Tier>;
});

/// A document `CanonCall` reads on its canonical path, for seeds and tests.
pub const SAMPLE: &str = r#"{"name":"add","args":{"left":2,"right":-40,"small":7},"more":null,"list":[{"left":1,"right":2,"small":3}],"tags":["a","é"],"flag":true,"note":"n","kind":"tools/call","tier":"T9"}"#;
