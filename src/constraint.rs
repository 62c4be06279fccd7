//! Constraints declared in the derive: `#[structio(length(min = 1, max = 64))]`,
//! `range(min = 0, max = 150)`, `pattern = "^[a-z0-9-]+$"`, `one_of("free", "pro")`,
//! `items(...)`, `check = "path::to_fn"`, and `check = "fn"` on a struct.
//!
//! [`Rule`] is the data the derive records for each of them, per field
//! ([`crate::__private::Fields::RULES`]): what a JSON Schema generator or a message reads. The
//! checks themselves are generic functions ([`length`], [`range`], [`pattern`], [`one_of`],
//! [`items`], [`user_check`]) that the derived code calls right after it reads a member that
//! declares constraints; each needs its member type to implement a trait ([`HasLength`],
//! [`Bounded`], [`Textual`], [`Choosable`], [`HasItems`]), so a constraint that cannot apply to
//! a field's type is a compile error at the attribute.
//!
//! ```
//! #[derive(structio::Reflect, Debug)]
//! struct User {
//!     #[structio(length(min = 1, max = 64))]
//!     name: String,
//!     #[structio(range(min = 0, max = 150))]
//!     age: u32,
//! }
//!
//! let e = structio::from_json::<User>(r#"{"name":"","age":200}"#).unwrap_err();
//! assert_eq!(e.category(), structio::Category::Constraint);
//! assert_eq!(e.path(), "$.name");
//! ```

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt;

use crate::error::PathSegment;

/// One declared constraint, as the derive records it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// `length(min = .., max = ..)`: the number of characters of a string (of bytes with
    /// `length(bytes, ..)`), or of elements of a sequence, set or map. Both bounds are
    /// inclusive.
    Length {
        /// The least length allowed.
        min: Option<u64>,
        /// The greatest length allowed.
        max: Option<u64>,
        /// Count bytes rather than characters (strings only).
        bytes: bool,
    },
    /// `range(min = .., max = .., exclusive_min = .., exclusive_max = ..)`: bounds on a
    /// number. `min` and `max` are inclusive, the other two exclusive. NaN is out of every
    /// range.
    Range {
        /// The value must be at least this.
        min: Option<Bound>,
        /// The value must be at most this.
        max: Option<Bound>,
        /// The value must be greater than this.
        exclusive_min: Option<Bound>,
        /// The value must be less than this.
        exclusive_max: Option<Bound>,
    },
    /// `pattern = ".."`: a regular expression the text must match (anywhere, unless anchored
    /// with `^`/`$`), in the syntax of the `regex` crate.
    Pattern(&'static str),
    /// `one_of(..)`: the value must equal one of these.
    OneOf(&'static [Choice]),
    /// `items(..)`: these rules apply to each element of a sequence or set, or to each value of
    /// a map.
    Items(&'static [Rule]),
    /// `check = "path::to_fn"`: a function `fn(&T) -> Result<(), String>` (the path, for
    /// messages); on a struct, the function takes the whole struct.
    Check(&'static str),
}

impl Rule {
    /// The rule's name as written in the attribute: `length`, `range`, `pattern`, `one_of`,
    /// `items` or `check`.
    pub const fn name(&self) -> &'static str {
        match self {
            Rule::Length { .. } => "length",
            Rule::Range { .. } => "range",
            Rule::Pattern(_) => "pattern",
            Rule::OneOf(_) => "one_of",
            Rule::Items(_) => "items",
            Rule::Check(_) => "check",
        }
    }

    /// The rules an `items(..)` rule applies to each element (empty for other rules).
    pub const fn items(&self) -> &'static [Rule] {
        match self {
            Rule::Items(r) => r,
            _ => &[],
        }
    }
}

impl fmt::Display for Rule {
    /// The rule as an attribute writes it: `length(min = 1, max = 64)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Length { min, max, bytes } => {
                f.write_str("length(")?;
                let mut sep = "";
                if *bytes {
                    f.write_str("bytes")?;
                    sep = ", ";
                }
                if let Some(m) = min {
                    write!(f, "{sep}min = {m}")?;
                    sep = ", ";
                }
                if let Some(m) = max {
                    write!(f, "{sep}max = {m}")?;
                }
                f.write_str(")")
            }
            Rule::Range {
                min,
                max,
                exclusive_min,
                exclusive_max,
            } => {
                f.write_str("range(")?;
                let mut sep = "";
                for (name, b) in [
                    ("min", min),
                    ("max", max),
                    ("exclusive_min", exclusive_min),
                    ("exclusive_max", exclusive_max),
                ] {
                    if let Some(b) = b {
                        write!(f, "{sep}{name} = {b}")?;
                        sep = ", ";
                    }
                }
                f.write_str(")")
            }
            Rule::Pattern(p) => write!(f, "pattern = {p:?}"),
            Rule::OneOf(c) => {
                f.write_str("one_of(")?;
                for (i, c) in c.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str(")")
            }
            Rule::Items(r) => {
                f.write_str("items(")?;
                for (i, r) in r.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{r}")?;
                }
                f.write_str(")")
            }
            Rule::Check(p) => write!(f, "check = {p:?}"),
        }
    }
}

/// A bound of a [`Rule::Range`]: an integer (any `i128`) or a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// An integer bound.
    Int(i128),
    /// A floating-point bound.
    Float(f64),
}

impl Bound {
    /// The bound as an `f64` (integers past 2^53 rounded).
    pub fn as_f64(self) -> f64 {
        match self {
            Bound::Int(i) => i as f64,
            Bound::Float(f) => f,
        }
    }

    /// How `self` compares with `other`: exactly for two integers, as `f64` otherwise; `None`
    /// when one is NaN.
    pub fn compare(self, other: Bound) -> Option<Ordering> {
        match (self, other) {
            (Bound::Int(a), Bound::Int(b)) => Some(a.cmp(&b)),
            (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Int(i) => write!(f, "{i}"),
            Bound::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// One value a [`Rule::OneOf`] allows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Choice {
    /// A string.
    Str(&'static str),
    /// A number.
    Num(Bound),
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Str(s) => write!(f, "{s:?}"),
            Choice::Num(n) => write!(f, "{n}"),
        }
    }
}

/// A constraint a value breaks: the rule, the message, and the path below the member that
/// declared it (the element of an `items` rule).
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The rule broken.
    pub rule: &'static Rule,
    /// What is wrong, as "has 0 characters; at least 1 required".
    pub message: String,
    /// The path below the member, innermost first (`[3]` for an element of `items`).
    pub path: Vec<PathSegment>,
}

/// The violations found by one member's checks. A new one allocates nothing; the checks push
/// to it only when a value breaks a rule.
#[derive(Debug, Default)]
pub struct Violations {
    list: Vec<Violation>,
    /// Stop after the first (a trusted read reports only that one).
    first_only: bool,
}

impl Violations {
    /// An empty list; `first_only` stops recording after the first violation.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn new(first_only: bool) -> Violations {
        Violations {
            list: Vec::new(),
            first_only,
        }
    }

    /// Whether nothing was found.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many were found.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the checks may stop (one violation found and only the first is wanted).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn done(&self) -> bool {
        self.first_only && !self.list.is_empty()
    }

    /// Records a violation of `rule`.
    #[cold]
    #[inline(never)]
    pub fn push(&mut self, rule: &'static Rule, message: String) {
        if self.done() {
            return;
        }
        self.list.push(Violation {
            rule,
            message,
            path: Vec::new(),
        });
    }

    /// Adds `seg` to the paths of the violations recorded since there were `since` (those of
    /// one element).
    #[cold]
    #[inline(never)]
    fn prefix_since(&mut self, since: usize, seg: PathSegment) {
        for v in &mut self.list[since..] {
            v.path.push(seg.clone());
        }
    }

    /// The violations, in the order found.
    pub fn into_vec(self) -> Vec<Violation> {
        self.list
    }
}

/// A value with a length: strings (characters, or bytes), sequences, sets and maps
/// (elements). `None` for an `Option` that holds nothing, which passes every rule.
#[diagnostic::on_unimplemented(
    message = "`length` cannot apply to `{Self}`: it has no length",
    label = "`length` needs a string, a sequence, a set or a map",
    note = "`length` counts the characters of a string (bytes with `length(bytes, ..)`) or the elements of a collection; for numbers use `range`"
)]
pub trait HasLength {
    /// The length; `bytes` asks for a string's length in bytes.
    fn length(&self, bytes: bool) -> Option<usize>;
}

/// A number that [`Rule::Range`] and numeric [`Rule::OneOf`] can compare. `None` for an
/// `Option` that holds nothing.
#[diagnostic::on_unimplemented(
    message = "`range` cannot apply to `{Self}`: it is not a number",
    label = "`range` needs a number",
    note = "`range` bounds integers and floats; for strings and collections use `length`"
)]
pub trait Bounded {
    /// The value as a bound.
    fn bound(&self) -> Option<Bound>;
}

/// Text that [`Rule::Pattern`] can match. `None` for an `Option` that holds nothing.
#[diagnostic::on_unimplemented(
    message = "`pattern` cannot apply to `{Self}`: it is not text",
    label = "`pattern` needs a string",
    note = "`pattern` matches `String`, `str`, `Cow<str>`, `Box<str>` (or an `Option` of one)"
)]
pub trait Textual {
    /// The text.
    fn text(&self) -> Option<&str>;
}

/// A value [`Rule::OneOf`] can compare with its choices: text or a number. `None` for an
/// `Option` that holds nothing.
#[diagnostic::on_unimplemented(
    message = "`one_of` cannot apply to `{Self}`: it is neither text nor a number",
    label = "`one_of` needs a string or a number",
    note = "for an enum of names, a unit-only enum deriving `Reflect` already accepts only its variants"
)]
pub trait Choosable {
    /// Whether the value is one of `choices`.
    fn is_one_of(&self, choices: &[Choice]) -> Option<bool>;
    /// The value as a message shows it.
    fn shown(&self) -> String;
}

/// A collection whose elements (or a map's values) [`Rule::Items`] checks.
#[diagnostic::on_unimplemented(
    message = "`items` cannot apply to `{Self}`: it has no elements",
    label = "`items` needs a sequence, a set or a map",
    note = "`items(..)` applies its rules to each element of a sequence or set, or each value of a map"
)]
pub trait HasItems {
    /// The element type (a map's value type).
    type Item: ?Sized;
    /// Calls `each(segment, item)` for every element, where `segment()` names it in a path
    /// (built only when needed).
    fn each_item<F>(&self, each: F)
    where
        F: FnMut(&dyn Fn() -> PathSegment, &Self::Item);
}

// ---- impls ---------------------------------------------------------------------------------

macro_rules! text_types {
    ($($t:ty),*) => {$(
        impl Textual for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn text(&self) -> Option<&str> {
                Some(self)
            }
        }
        impl HasLength for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn length(&self, bytes: bool) -> Option<usize> {
                Some(str_length(self, bytes))
            }
        }
        impl Choosable for $t {
            #[inline]
            fn is_one_of(&self, choices: &[Choice]) -> Option<bool> {
                let s: &str = self;
                Some(choices.iter().any(|c| matches!(c, Choice::Str(x) if *x == s)))
            }
            fn shown(&self) -> String {
                let s: &str = self;
                format!("{s:?}")
            }
        }
    )*};
}
text_types!(str, String);

macro_rules! shared_text {
    ($($t:ty),*) => {$(
        impl Textual for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn text(&self) -> Option<&str> {
                Some(self)
            }
        }
        impl Choosable for $t {
            #[inline]
            fn is_one_of(&self, choices: &[Choice]) -> Option<bool> {
                str::is_one_of(self, choices)
            }
            fn shown(&self) -> String {
                format!("{:?}", &**self as &str)
            }
        }
    )*};
}
shared_text!(Box<str>, std::rc::Rc<str>, std::sync::Arc<str>);

impl Textual for Cow<'_, str> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}
impl HasLength for Cow<'_, str> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn length(&self, bytes: bool) -> Option<usize> {
        Some(str_length(self, bytes))
    }
}
impl Choosable for Cow<'_, str> {
    #[inline]
    fn is_one_of(&self, choices: &[Choice]) -> Option<bool> {
        str::is_one_of(self, choices)
    }
    fn shown(&self) -> String {
        format!("{:?}", &**self)
    }
}

impl<T: Textual + ?Sized> Textual for &T {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text(&self) -> Option<&str> {
        (**self).text()
    }
}
impl<T: HasLength + ?Sized> HasLength for &T {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn length(&self, bytes: bool) -> Option<usize> {
        (**self).length(bytes)
    }
}
impl<T: Choosable + ?Sized> Choosable for &T {
    #[inline]
    fn is_one_of(&self, choices: &[Choice]) -> Option<bool> {
        (**self).is_one_of(choices)
    }
    fn shown(&self) -> String {
        (**self).shown()
    }
}
impl<T: Bounded + ?Sized> Bounded for &T {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn bound(&self) -> Option<Bound> {
        (**self).bound()
    }
}

/// Characters (or bytes) of `s`.
#[inline]
fn str_length(s: &str, bytes: bool) -> usize {
    if bytes || s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

macro_rules! option_and_box {
    ($($w:ident),*) => {
        impl<T: Textual> Textual for Option<T> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn text(&self) -> Option<&str> {
                self.as_ref()?.text()
            }
        }
        impl<T: HasLength> HasLength for Option<T> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn length(&self, bytes: bool) -> Option<usize> {
                self.as_ref()?.length(bytes)
            }
        }
        impl<T: Bounded> Bounded for Option<T> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn bound(&self) -> Option<Bound> {
                self.as_ref()?.bound()
            }
        }
        impl<T: Choosable> Choosable for Option<T> {
            #[inline]
            fn is_one_of(&self, choices: &[Choice]) -> Option<bool> {
                self.as_ref()?.is_one_of(choices)
            }
            fn shown(&self) -> String {
                self.as_ref().map_or_else(|| "null".to_string(), Choosable::shown)
            }
        }
        impl<T: HasItems> HasItems for Option<T> {
            type Item = T::Item;
            #[inline]
            fn each_item<F>(&self, each: F)
            where
                F: FnMut(&dyn Fn() -> PathSegment, &Self::Item),
            {
                if let Some(v) = self {
                    v.each_item(each)
                }
            }
        }
        $(
            impl<T: HasLength + ?Sized> HasLength for $w<T> {
                #[cfg_attr(not(debug_assertions), inline(always))]
                #[cfg_attr(debug_assertions, inline)]
                fn length(&self, bytes: bool) -> Option<usize> {
                    (**self).length(bytes)
                }
            }
            impl<T: Bounded + ?Sized> Bounded for $w<T> {
                #[cfg_attr(not(debug_assertions), inline(always))]
                #[cfg_attr(debug_assertions, inline)]
                fn bound(&self) -> Option<Bound> {
                    (**self).bound()
                }
            }
            impl<T: HasItems + ?Sized> HasItems for $w<T> {
                type Item = T::Item;
                #[inline]
                fn each_item<F>(&self, each: F)
                where
                    F: FnMut(&dyn Fn() -> PathSegment, &Self::Item),
                {
                    (**self).each_item(each)
                }
            }
        )*
    };
}
use std::rc::Rc;
use std::sync::Arc;
option_and_box!(Box, Rc, Arc);

macro_rules! numbers {
    ($($t:ty => $v:ident: $conv:expr),* $(,)?) => {$(
        impl Bounded for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn bound(&self) -> Option<Bound> {
                let $v = *self;
                Some($conv)
            }
        }
        impl Choosable for $t {
            #[inline]
            fn is_one_of(&self, choices: &[Choice]) -> Option<bool> {
                let b = self.bound()?;
                Some(choices.iter().any(
                    |c| matches!(c, Choice::Num(n) if n.compare(b) == Some(Ordering::Equal)),
                ))
            }
            fn shown(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
numbers!(
    i8 => v: Bound::Int(v.into()), i16 => v: Bound::Int(v.into()), i32 => v: Bound::Int(v.into()),
    i64 => v: Bound::Int(v.into()), i128 => v: Bound::Int(v), isize => v: Bound::Int(v as i128),
    u8 => v: Bound::Int(v.into()), u16 => v: Bound::Int(v.into()), u32 => v: Bound::Int(v.into()),
    u64 => v: Bound::Int(v.into()), usize => v: Bound::Int(v as i128),
    u128 => v: i128::try_from(v).map_or(Bound::Float(v as f64), Bound::Int),
    f32 => v: Bound::Float(v.into()), f64 => v: Bound::Float(v),
);

macro_rules! nonzero {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn bound(&self) -> Option<Bound> {
                self.get().bound()
            }
        }
    )*};
}
nonzero!(
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroUsize,
    std::num::NonZeroI8,
    std::num::NonZeroI16,
    std::num::NonZeroI32,
    std::num::NonZeroI64,
    std::num::NonZeroIsize
);

macro_rules! sequences {
    ($($t:ident $(<$g:ident>)? : $c:ty),* $(,)?) => {$(
        impl<T $(, $g)?> HasLength for $c {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn length(&self, _bytes: bool) -> Option<usize> {
                Some(self.len())
            }
        }
        impl<T $(, $g)?> HasItems for $c {
            type Item = T;
            #[inline]
            fn each_item<F>(&self, mut each: F)
            where
                F: FnMut(&dyn Fn() -> PathSegment, &T),
            {
                for (i, x) in self.iter().enumerate() {
                    each(&move || PathSegment::Index(i), x);
                }
            }
        }
    )*};
}
sequences!(
    Vec: Vec<T>,
    Slice: [T],
    VecDeque: VecDeque<T>,
    BTreeSet: BTreeSet<T>,
    HashSet<S>: HashSet<T, S>,
);

impl<T, const N: usize> HasLength for [T; N] {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn length(&self, _bytes: bool) -> Option<usize> {
        Some(N)
    }
}
impl<T, const N: usize> HasItems for [T; N] {
    type Item = T;
    #[inline]
    fn each_item<F>(&self, each: F)
    where
        F: FnMut(&dyn Fn() -> PathSegment, &T),
    {
        self.as_slice().each_item(each)
    }
}

/// A map key as an `items` violation's path names it.
pub trait KeyText {
    /// The key's text.
    fn key_text(&self) -> String;
}
impl<T: fmt::Display + ?Sized> KeyText for T {
    fn key_text(&self) -> String {
        self.to_string()
    }
}

impl<K: KeyText, V, S> HasLength for HashMap<K, V, S> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn length(&self, _bytes: bool) -> Option<usize> {
        Some(self.len())
    }
}
impl<K: KeyText, V, S> HasItems for HashMap<K, V, S> {
    type Item = V;
    #[inline]
    fn each_item<F>(&self, mut each: F)
    where
        F: FnMut(&dyn Fn() -> PathSegment, &V),
    {
        for (k, v) in self {
            each(&|| PathSegment::Key(k.key_text()), v);
        }
    }
}
impl<K: KeyText, V> HasLength for BTreeMap<K, V> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn length(&self, _bytes: bool) -> Option<usize> {
        Some(self.len())
    }
}
impl<K: KeyText, V> HasItems for BTreeMap<K, V> {
    type Item = V;
    #[inline]
    fn each_item<F>(&self, mut each: F)
    where
        F: FnMut(&dyn Fn() -> PathSegment, &V),
    {
        for (k, v) in self {
            each(&|| PathSegment::Key(k.key_text()), v);
        }
    }
}

impl HasLength for crate::Map {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn length(&self, _bytes: bool) -> Option<usize> {
        Some(self.len())
    }
}

// ---- the checks ----------------------------------------------------------------------------

/// Checks a [`Rule::Length`] (`rule`) on `v`.
#[inline]
pub fn length<T: HasLength + ?Sized>(v: &T, rule: &'static Rule, out: &mut Violations) {
    let Rule::Length { min, max, bytes } = *rule else {
        return;
    };
    let Some(n) = v.length(bytes) else {
        return;
    };
    let n = n as u64;
    if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
        length_violation(n, rule, out);
    }
}

#[cold]
#[inline(never)]
fn length_violation(n: u64, rule: &'static Rule, out: &mut Violations) {
    let Rule::Length { min, max, bytes } = *rule else {
        return;
    };
    let unit = if bytes {
        "bytes"
    } else {
        "characters or elements"
    };
    let message = match (min, max) {
        (Some(a), Some(b)) if a == b => format!("length is {n}; exactly {a} {unit} required"),
        (Some(a), _) if n < a => format!("length is {n}; at least {a} {unit} required"),
        (_, Some(b)) => format!("length is {n}; at most {b} {unit} allowed"),
        _ => format!("length is {n}"),
    };
    out.push(rule, message);
}

/// Checks a [`Rule::Range`] (`rule`) on `v`.
#[inline]
pub fn range<T: Bounded + ?Sized>(v: &T, rule: &'static Rule, out: &mut Violations) {
    let Rule::Range {
        min,
        max,
        exclusive_min,
        exclusive_max,
    } = *rule
    else {
        return;
    };
    let Some(b) = v.bound() else {
        return;
    };
    use Ordering::*;
    let bad = min.is_some_and(|m| !matches!(b.compare(m), Some(Greater | Equal)))
        || max.is_some_and(|m| !matches!(b.compare(m), Some(Less | Equal)))
        || exclusive_min.is_some_and(|m| b.compare(m) != Some(Greater))
        || exclusive_max.is_some_and(|m| b.compare(m) != Some(Less));
    if bad {
        range_violation(b, rule, out);
    }
}

#[cold]
#[inline(never)]
fn range_violation(b: Bound, rule: &'static Rule, out: &mut Violations) {
    let Rule::Range {
        min,
        max,
        exclusive_min,
        exclusive_max,
    } = *rule
    else {
        return;
    };
    use Ordering::*;
    let message = if let Some(m) = min.filter(|&m| !matches!(b.compare(m), Some(Greater | Equal))) {
        format!("{b} is less than the minimum {m}")
    } else if let Some(m) = max.filter(|&m| !matches!(b.compare(m), Some(Less | Equal))) {
        format!("{b} is greater than the maximum {m}")
    } else if let Some(m) = exclusive_min.filter(|&m| b.compare(m) != Some(Greater)) {
        format!("{b} is not greater than {m}")
    } else if let Some(m) = exclusive_max {
        format!("{b} is not less than {m}")
    } else {
        format!("{b} is out of range")
    };
    out.push(rule, message);
}

/// A [`Rule::Pattern`]'s regular expression, compiled on first use and kept (one per field,
/// in a `static` the derive emits).
pub struct Pattern {
    source: &'static str,
    #[cfg(feature = "pattern")]
    compiled: std::sync::OnceLock<regex::Regex>,
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

impl Pattern {
    /// The expression `source`, not compiled yet.
    #[cfg(feature = "pattern")]
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// Without the `pattern` feature a `pattern` constraint fails to compile: this panics
    /// in the constant that holds it.
    #[cfg(not(feature = "pattern"))]
    pub const fn new(source: &'static str) -> Pattern {
        let _ = source;
        panic!("`pattern` constraints need structio's `pattern` feature (on by default)");
    }

    /// The expression's text.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `text` matches.
    #[cfg(feature = "pattern")]
    #[inline]
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled
            .get_or_init(|| {
                // The derive checked the syntax; a pattern past the engine's size limits is
                // the one way left to fail.
                regex::Regex::new(self.source)
                    .unwrap_or_else(|e| panic!("invalid `pattern` {:?}: {e}", self.source))
            })
            .is_match(text)
    }

    /// Whether `text` matches (never called without the `pattern` feature: no `Pattern` can
    /// be made then).
    #[cfg(not(feature = "pattern"))]
    pub fn is_match(&self, text: &str) -> bool {
        let _ = text;
        false
    }
}

/// Checks a [`Rule::Pattern`] (`rule`, compiled as `re`) on `v`.
#[inline]
pub fn pattern<T: Textual + ?Sized>(
    v: &T,
    rule: &'static Rule,
    re: &Pattern,
    out: &mut Violations,
) {
    if let Some(s) = v.text() {
        if !re.is_match(s) {
            pattern_violation(rule, re, out);
        }
    }
}

#[cold]
#[inline(never)]
fn pattern_violation(rule: &'static Rule, re: &Pattern, out: &mut Violations) {
    out.push(
        rule,
        format!("does not match the pattern `{}`", re.source()),
    );
}

/// Checks a [`Rule::OneOf`] (`rule`) on `v`.
#[inline]
pub fn one_of<T: Choosable + ?Sized>(v: &T, rule: &'static Rule, out: &mut Violations) {
    let Rule::OneOf(choices) = *rule else {
        return;
    };
    if v.is_one_of(choices) == Some(false) {
        one_of_violation(&v.shown(), rule, out);
    }
}

#[cold]
#[inline(never)]
fn one_of_violation(shown: &str, rule: &'static Rule, out: &mut Violations) {
    let Rule::OneOf(choices) = *rule else {
        return;
    };
    let list: Vec<String> = choices.iter().map(Choice::to_string).collect();
    out.push(rule, format!("{shown} is not one of {}", list.join(", ")));
}

/// Checks a [`Rule::Items`]: `each` (the checks of its rules) on every element of `v`.
#[inline]
pub fn items<T, F>(v: &T, out: &mut Violations, mut each: F)
where
    T: HasItems + ?Sized,
    F: FnMut(&T::Item, &mut Violations),
{
    v.each_item(|seg, x| {
        if out.done() {
            return;
        }
        let before = out.len();
        each(x, out);
        if out.len() > before {
            out.prefix_since(before, seg());
        }
    });
}

/// Checks a [`Rule::Check`] (`rule`): `result` is what the user's function returned.
#[inline]
pub fn user_check(result: Result<(), String>, rule: &'static Rule, out: &mut Violations) {
    if let Err(message) = result {
        out.push(rule, message);
    }
}

/// The constraint's parameters as a [`crate::Value`] object: `{"rule": "length", "min": 1,
/// "max": 64}` (what a report writes next to an issue).
pub fn params(rule: &Rule) -> crate::Value {
    use crate::value::{Map, Num, Value};
    fn bound(b: Bound) -> Value {
        match b {
            Bound::Int(i) => Value::Number(Num::from(i)),
            Bound::Float(f) => Value::from(f),
        }
    }
    let mut m = Map::new();
    m.insert("rule", Value::from(rule.name()));
    match *rule {
        Rule::Length { min, max, bytes } => {
            if let Some(x) = min {
                m.insert("min", Value::from(x));
            }
            if let Some(x) = max {
                m.insert("max", Value::from(x));
            }
            if bytes {
                m.insert("bytes", Value::from(true));
            }
        }
        Rule::Range {
            min,
            max,
            exclusive_min,
            exclusive_max,
        } => {
            for (k, b) in [
                ("min", min),
                ("max", max),
                ("exclusive_min", exclusive_min),
                ("exclusive_max", exclusive_max),
            ] {
                if let Some(b) = b {
                    m.insert(k, bound(b));
                }
            }
        }
        Rule::Pattern(p) => {
            m.insert("pattern", Value::from(p));
        }
        Rule::OneOf(c) => {
            let list: Vec<Value> = c
                .iter()
                .map(|c| match *c {
                    Choice::Str(s) => Value::from(s),
                    Choice::Num(b) => bound(b),
                })
                .collect();
            m.insert("one_of", Value::from(list));
        }
        Rule::Items(_) => {}
        Rule::Check(p) => {
            m.insert("check", Value::from(p));
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    static LEN: Rule = Rule::Length {
        min: Some(1),
        max: Some(3),
        bytes: false,
    };
    static AGE: Rule = Rule::Range {
        min: Some(Bound::Int(0)),
        max: Some(Bound::Int(150)),
        exclusive_min: None,
        exclusive_max: None,
    };

    #[test]
    fn length_counts_characters_or_bytes() {
        let mut o = Violations::new(false);
        length("ééé", &LEN, &mut o);
        assert!(o.is_empty());
        length("", &LEN, &mut o);
        length(&vec![1, 2, 3, 4], &LEN, &mut o);
        length(&None::<String>, &LEN, &mut o);
        let v = o.into_vec();
        assert_eq!(v.len(), 2);
        assert_eq!(
            v[0].message,
            "length is 0; at least 1 characters or elements required"
        );
        static BYTES: Rule = Rule::Length {
            min: None,
            max: Some(3),
            bytes: true,
        };
        let mut o = Violations::new(true);
        length("éé", &BYTES, &mut o);
        assert_eq!(o.len(), 1);
    }

    #[test]
    fn range_compares_ints_exactly_and_rejects_nan() {
        let mut o = Violations::new(false);
        range(&150u8, &AGE, &mut o);
        range(&0i64, &AGE, &mut o);
        assert!(o.is_empty());
        range(&151u32, &AGE, &mut o);
        range(&-1i8, &AGE, &mut o);
        range(&f64::NAN, &AGE, &mut o);
        range(&u128::MAX, &AGE, &mut o);
        let v = o.into_vec();
        assert_eq!(v.len(), 4);
        assert_eq!(v[0].message, "151 is greater than the maximum 150");
        assert_eq!(v[1].message, "-1 is less than the minimum 0");
        static EX: Rule = Rule::Range {
            min: None,
            max: None,
            exclusive_min: Some(Bound::Float(0.0)),
            exclusive_max: Some(Bound::Int(1)),
        };
        let mut o = Violations::new(false);
        range(&0.5f32, &EX, &mut o);
        assert!(o.is_empty());
        range(&0.0f64, &EX, &mut o);
        range(&1u8, &EX, &mut o);
        assert_eq!(o.len(), 2);
    }

    #[test]
    fn items_name_the_element() {
        static ITEMS: Rule = Rule::Items(&[Rule::Length {
            min: Some(1),
            max: None,
            bytes: false,
        }]);
        let v = vec!["a".to_string(), String::new(), "b".into(), String::new()];
        let mut o = Violations::new(false);
        items(&v, &mut o, |x, o| length(x, &ITEMS.items()[0], o));
        let v = o.into_vec();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].path, vec![PathSegment::Index(1)]);
        assert_eq!(v[1].path, vec![PathSegment::Index(3)]);
        let m = BTreeMap::from([("k".to_string(), String::new())]);
        let mut o = Violations::new(true);
        items(&m, &mut o, |x, o| length(x, &ITEMS.items()[0], o));
        assert_eq!(o.into_vec()[0].path, vec![PathSegment::Key("k".into())]);
    }

    #[test]
    fn one_of_strings_and_numbers() {
        static PLAN: Rule = Rule::OneOf(&[Choice::Str("free"), Choice::Str("pro")]);
        static N: Rule = Rule::OneOf(&[Choice::Num(Bound::Int(1)), Choice::Num(Bound::Int(2))]);
        let mut o = Violations::new(false);
        one_of("pro", &PLAN, &mut o);
        one_of(&2u8, &N, &mut o);
        assert!(o.is_empty());
        one_of("team", &PLAN, &mut o);
        one_of(&3i32, &N, &mut o);
        let v = o.into_vec();
        assert_eq!(v[0].message, r#""team" is not one of "free", "pro""#);
        assert_eq!(v[1].message, "3 is not one of 1, 2");
        assert_eq!(PLAN.to_string(), r#"one_of("free", "pro")"#);
        assert_eq!(LEN.to_string(), "length(min = 1, max = 3)");
    }

    #[cfg(feature = "pattern")]
    #[test]
    fn pattern_compiles_once_and_matches() {
        static P: Pattern = Pattern::new("^[a-z0-9-]+$");
        static R: Rule = Rule::Pattern("^[a-z0-9-]+$");
        let mut o = Violations::new(false);
        pattern("my-slug-2", &R, &P, &mut o);
        assert!(o.is_empty());
        pattern("Not a slug", &R, &P, &mut o);
        assert_eq!(
            o.into_vec()[0].message,
            "does not match the pattern `^[a-z0-9-]+$`"
        );
    }

    #[test]
    fn params_name_the_rule() {
        assert_eq!(
            crate::to_json(&params(&LEN)),
            r#"{"rule":"length","min":1,"max":3}"#
        );
        assert_eq!(
            crate::to_json(&params(&AGE)),
            r#"{"rule":"range","min":0,"max":150}"#
        );
    }
}
