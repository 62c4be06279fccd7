//! [`IntMap`] and [`IntKey`]: BEVE objects whose keys are integers of one declared width
//! (`std::map<int32_t, T>` in Glaze). JSON writes their keys quoted (`{"5": ...}`).

use std::cmp::Ordering;
use std::fmt;
use std::mem;

use super::index::{Index, INDEX_FROM};
use super::Value;
use crate::number::{NumKind, Number, Wire};

/// The key of an [`IntMap`]: any integer from `i128::MIN` to `u128::MAX`. Keys compare by
/// value, whatever type they were made from (`IntKey::from(5u8) == IntKey::from(5i64)`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntKey {
    /// Whether the value is negative; then `lo`/`hi` are the bits of an `i128`, else of a
    /// `u128`. Non-negative values are always stored unsigned, so derived equality and hashing
    /// are by value.
    neg: bool,
    lo: u64,
    hi: u64,
}

impl IntKey {
    fn from_bits(neg: bool, bits: u128) -> IntKey {
        IntKey {
            neg,
            lo: bits as u64,
            hi: (bits >> 64) as u64,
        }
    }

    fn bits(&self) -> u128 {
        (self.hi as u128) << 64 | self.lo as u128
    }

    /// The key as a wire number.
    pub fn to_wire(&self) -> Wire {
        if self.neg {
            Wire::Int(self.bits() as i128)
        } else {
            Wire::Uint(self.bits())
        }
    }

    /// The key a wire integer makes; `None` for a float.
    pub fn from_wire(w: Wire) -> Option<IntKey> {
        match w {
            Wire::Int(v) => Some(IntKey::from(v)),
            Wire::Uint(v) => Some(IntKey::from(v)),
            Wire::F32(_) | Wire::F64(_) => None,
        }
    }

    /// The key as an `i128`, if it fits.
    pub fn as_i128(&self) -> Option<i128> {
        if self.neg {
            Some(self.bits() as i128)
        } else {
            i128::try_from(self.bits()).ok()
        }
    }

    /// The key as a `u128`, if it is not negative.
    pub fn as_u128(&self) -> Option<u128> {
        (!self.neg).then(|| self.bits())
    }

    /// The key as an `i64`, if it fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_i128().and_then(|v| i64::try_from(v).ok())
    }

    /// The key as a `u64`, if it fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// Parses a key as JSON writes it: decimal digits, an optional leading `-`, no leading
    /// zeros, no `+`, no spaces.
    ///
    /// ```
    /// use structio::value::IntKey;
    /// assert_eq!(IntKey::parse("-12"), Some(IntKey::from(-12)));
    /// assert_eq!(IntKey::parse("012"), None);
    /// assert_eq!(IntKey::parse("1e3"), None);
    /// ```
    pub fn parse(text: &str) -> Option<IntKey> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits.len() == 1 || !digits.starts_with('0'));
        if !canonical {
            return None;
        }
        if digits.len() == text.len() {
            text.parse::<u128>().ok().map(IntKey::from)
        } else {
            text.parse::<i128>().ok().map(IntKey::from)
        }
    }

    /// Whether the key fits the integer kind `kind` (never for a float kind).
    pub fn fits(&self, kind: NumKind) -> bool {
        !kind.is_float()
            && super::number::by_kind!(kind, T => T::from_wire(self.to_wire()).is_some())
    }
}

impl From<i128> for IntKey {
    fn from(v: i128) -> IntKey {
        IntKey::from_bits(v < 0, v as u128)
    }
}

impl From<u128> for IntKey {
    fn from(v: u128) -> IntKey {
        IntKey::from_bits(false, v)
    }
}

macro_rules! int_key_from {
    ($($t:ty => $wide:ty),*) => {$(
        impl From<$t> for IntKey {
            fn from(v: $t) -> IntKey {
                IntKey::from(v as $wide)
            }
        }
    )*};
}

int_key_from!(i8 => i128, i16 => i128, i32 => i128, i64 => i128, isize => i128, u8 => u128,
    u16 => u128, u32 => u128, u64 => u128, usize => u128);

impl Ord for IntKey {
    fn cmp(&self, other: &IntKey) -> Ordering {
        match (self.neg, other.neg) {
            (true, true) => (self.bits() as i128).cmp(&(other.bits() as i128)),
            (false, false) => self.bits().cmp(&other.bits()),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        }
    }
}

impl PartialOrd for IntKey {
    fn partial_cmp(&self, other: &IntKey) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for IntKey {
    /// Decimal, as JSON writes the key (without the quotes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            fmt::Display::fmt(&(self.bits() as i128), f)
        } else {
            fmt::Display::fmt(&self.bits(), f)
        }
    }
}

impl fmt::Debug for IntKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A BEVE object with integer keys, all of one kind (the width and signedness in the object's
/// header), in the order they were read or inserted.
///
/// Like [`super::Map`]: unique keys (inserting an existing key replaces the value in place),
/// hashed lookup once larger than 32 members, equality that ignores order. An integer-keyed
/// map equals a string-keyed [`super::Map`] whose keys are the same integers in decimal, which
/// is what JSON makes of it.
///
/// ```
/// use structio::value::{IntMap, Value};
/// use structio::NumKind;
/// let mut m = IntMap::new(NumKind::U16);
/// m.insert(7u16, Value::from("seven"));
/// assert_eq!(m.get(7), Some(&Value::from("seven"))); // any integer type finds the key
/// assert!(m.try_insert(-1, Value::Null).is_err()); // -1 is not a u16
/// ```
#[derive(Clone)]
pub struct IntMap {
    entries: Vec<(IntKey, Value)>,
    /// The key kind and the index, boxed so that a `Value` stays 40 bytes.
    meta: Box<Meta>,
}

#[derive(Clone)]
struct Meta {
    kind: NumKind,
    index: Option<Index>,
}

/// The error of [`IntMap::try_insert`]: the key does not fit the map's key kind. It gives the
/// value back.
#[derive(Debug)]
pub struct KeyOutOfRange {
    /// The key that did not fit.
    pub key: IntKey,
    /// The map's key kind.
    pub kind: NumKind,
    /// The value that was not inserted.
    pub value: Value,
}

impl fmt::Display for KeyOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key {} does not fit the map's key type {}",
            self.key,
            self.kind.name()
        )
    }
}

impl std::error::Error for KeyOutOfRange {}

impl IntMap {
    /// An empty map whose keys are of kind `kind`.
    ///
    /// # Panics
    /// If `kind` is a float kind (BEVE integer-keyed objects have integer keys).
    pub fn new(kind: NumKind) -> IntMap {
        assert!(
            !kind.is_float(),
            "integer-keyed map with float key kind {}",
            kind.name()
        );
        IntMap {
            entries: Vec::new(),
            meta: Box::new(Meta { kind, index: None }),
        }
    }

    /// The kind of every key (BEVE writes it in the object header).
    pub fn kind(&self) -> NumKind {
        self.meta.kind
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[inline]
    fn find(&self, key: IntKey) -> (Option<usize>, u64) {
        match &self.meta.index {
            Some(ix) => {
                let h = ix.hash(&key);
                (ix.find(h, |i| self.entries[i].0 == key), h)
            }
            None => (self.entries.iter().position(|(k, _)| *k == key), 0),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: impl Into<IntKey>) -> Option<&Value> {
        self.find(key.into()).0.map(|i| &self.entries[i].1)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: impl Into<IntKey>) -> Option<&mut Value> {
        self.find(key.into()).0.map(|i| &mut self.entries[i].1)
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: impl Into<IntKey>) -> bool {
        self.find(key.into()).0.is_some()
    }

    /// Sets `key` to `value`; returns the value it replaces, or the error (with `value`) if
    /// `key` does not fit the map's key kind.
    pub fn try_insert(
        &mut self,
        key: impl Into<IntKey>,
        value: Value,
    ) -> Result<Option<Value>, KeyOutOfRange> {
        let key = key.into();
        match self.find(key) {
            (Some(i), _) => Ok(Some(mem::replace(&mut self.entries[i].1, value))),
            (None, h) => {
                if !key.fits(self.kind()) {
                    return Err(KeyOutOfRange {
                        key,
                        kind: self.kind(),
                        value,
                    });
                }
                self.push_new(key, value, h);
                Ok(None)
            }
        }
    }

    /// Sets `key` to `value`; returns the value it replaces.
    ///
    /// # Panics
    /// If `key` does not fit the map's key kind (see [`IntMap::try_insert`]).
    pub fn insert(&mut self, key: impl Into<IntKey>, value: Value) -> Option<Value> {
        match self.try_insert(key, value) {
            Ok(old) => old,
            Err(e) => panic!("{e}"),
        }
    }

    /// The value of `key`, inserting `make()` first if it is absent.
    ///
    /// # Panics
    /// If `key` is absent and does not fit the map's key kind.
    pub fn get_or_insert_with(
        &mut self,
        key: impl Into<IntKey>,
        make: impl FnOnce() -> Value,
    ) -> &mut Value {
        let key = key.into();
        let i = match self.find(key) {
            (Some(i), _) => i,
            (None, h) => {
                assert!(
                    key.fits(self.kind()),
                    "key {key} does not fit the map's key type {}",
                    self.kind().name()
                );
                self.push_new(key, make(), h);
                self.entries.len() - 1
            }
        };
        &mut self.entries[i].1
    }

    fn push_new(&mut self, key: IntKey, value: Value, h: u64) {
        self.entries.push((key, value));
        let n = self.entries.len();
        let entries = &self.entries;
        let hash_of = |s: &std::hash::RandomState, i: usize| {
            std::hash::BuildHasher::hash_one(s, entries[i].0)
        };
        if let Some(ix) = &mut self.meta.index {
            if !ix.push(h, n - 1, hash_of) {
                self.meta.index = None;
            }
        } else if n > INDEX_FROM {
            self.meta.index = Index::build(n, hash_of);
        }
    }

    fn reindex(&mut self) {
        let n = self.entries.len();
        let entries = &self.entries;
        let hash_of = |s: &std::hash::RandomState, i: usize| {
            std::hash::BuildHasher::hash_one(s, entries[i].0)
        };
        self.meta.index = if n > INDEX_FROM {
            Index::build(n, hash_of)
        } else {
            None
        };
    }

    /// Removes `key` and returns its value; the members after it move up (O(n)).
    pub fn remove(&mut self, key: impl Into<IntKey>) -> Option<Value> {
        let i = self.find(key.into()).0?;
        let (_, v) = self.entries.remove(i);
        self.reindex();
        Some(v)
    }

    /// Keeps the members for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(IntKey, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(*k, v));
        self.reindex();
    }

    /// Sorts the members by key.
    pub fn sort_keys(&mut self) {
        self.entries.sort_by_key(|e| e.0);
        self.reindex();
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.meta.index = None;
    }

    /// The members in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (IntKey, &Value)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (*k, v))
    }

    /// The members in order, values mutable.
    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (IntKey, &mut Value)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (*k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = IntKey> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(k, _)| *k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The members as a slice, for the writer.
    pub(crate) fn entries(&self) -> &[(IntKey, Value)] {
        &self.entries
    }

    /// Takes the members out, leaving the map empty.
    pub(crate) fn take_entries(&mut self) -> Vec<(IntKey, Value)> {
        self.meta.index = None;
        mem::take(&mut self.entries)
    }

    /// A clone of this map whose members are `entries`, a copy of its own in the same order
    /// (what `Value::clone` builds without recursing); the key kind and index are cloned.
    pub(crate) fn clone_with_entries(&self, entries: Vec<(IntKey, Value)>) -> IntMap {
        IntMap {
            entries,
            meta: self.meta.clone(),
        }
    }

    /// Takes the members out as an owning iterator, leaving the map empty.
    pub fn drain(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (IntKey, Value)> + ExactSizeIterator {
        self.take_entries().into_iter()
    }
}

impl Default for IntMap {
    /// An empty map with `i64` keys.
    fn default() -> IntMap {
        IntMap::new(NumKind::I64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_compare_by_value() {
        assert_eq!(IntKey::from(5u8), IntKey::from(5i64));
        assert_ne!(IntKey::from(-1i8), IntKey::from(u128::MAX));
        assert!(IntKey::from(-1i8) < IntKey::from(0u8));
        assert!(IntKey::from(i128::MIN) < IntKey::from(-1i8));
        assert!(IntKey::from(u128::MAX) > IntKey::from(i128::MAX));
        assert_eq!(IntKey::from(-7i32).to_string(), "-7");
        assert_eq!(IntKey::from(u64::MAX).as_u64(), Some(u64::MAX));
        assert_eq!(IntKey::from(u64::MAX).as_i64(), None);
        assert_eq!(IntKey::from(-1i8).as_u128(), None);
        assert_eq!(IntKey::from_wire(Wire::F64(1.0)), None);
        assert_eq!(IntKey::from_wire(Wire::Int(-3)), Some(IntKey::from(-3)));
        assert!(IntKey::from(255).fits(NumKind::U8));
        assert!(!IntKey::from(256).fits(NumKind::U8));
        assert!(!IntKey::from(-1).fits(NumKind::U64));
        assert!(!IntKey::from(1).fits(NumKind::F64));
        assert_eq!(IntKey::parse("0"), Some(IntKey::from(0)));
        assert_eq!(IntKey::parse("-0"), Some(IntKey::from(0)));
        assert_eq!(
            IntKey::parse(&u128::MAX.to_string()),
            Some(IntKey::from(u128::MAX))
        );
        assert_eq!(
            IntKey::parse(&i128::MIN.to_string()),
            Some(IntKey::from(i128::MIN))
        );
        assert_eq!(
            IntKey::parse("340282366920938463463374607431768211456"),
            None
        );
        for bad in ["", "-", "+1", " 1", "01", "-01", "1.0", "x"] {
            assert_eq!(IntKey::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn insert_get_remove() {
        let mut m = IntMap::new(NumKind::I16);
        for i in -50i16..50 {
            assert_eq!(m.insert(i, Value::from(i)), None);
        }
        assert!(m.meta.index.is_some());
        assert_eq!(m.get(-50i64), Some(&Value::from(-50)));
        assert_eq!(m.insert(0u8, Value::Null), Some(Value::from(0)));
        assert_eq!(m.len(), 100);
        let e = m.try_insert(40000, Value::from(1)).unwrap_err();
        assert_eq!(e.value, Value::from(1));
        assert_eq!(
            e.to_string(),
            "key 40000 does not fit the map's key type i16"
        );
        assert_eq!(m.remove(-50), Some(Value::from(-50)));
        assert_eq!(m.keys().next(), Some(IntKey::from(-49)));
        m.retain(|k, _| k.as_i64().unwrap() % 2 == 0);
        assert_eq!(m.len(), 49);
        assert!(m.contains_key(48));
        assert!(!m.contains_key(47));
        *m.get_or_insert_with(1000, || Value::from("x")) = Value::from("y");
        assert_eq!(m.get(1000), Some(&Value::from("y")));
        m.sort_keys();
        assert_eq!(m.keys().next_back(), Some(IntKey::from(1000)));
        assert_eq!(m.drain().count(), 50);
        assert!(m.is_empty());
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn insert_out_of_range_panics() {
        IntMap::new(NumKind::U8).insert(-1, Value::Null);
    }
}
