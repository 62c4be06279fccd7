//! [`Map`]: the string-keyed, insertion-ordered object of a [`Value`].

use std::mem;

use super::index::{Index, INDEX_FROM};
use super::Value;

/// The members of an object, in the order they were read or inserted.
///
/// Keys are unique: inserting an existing key replaces its value and keeps its position (so a
/// JSON object with a repeated key keeps the last value, at the first position). Lookups are
/// linear for small maps and hashed once a map has more than 32 members. Equality ignores
/// order: two maps are equal when they have the same keys with equal values.
///
/// ```
/// use structio::{Map, Value};
/// let mut m = Map::new();
/// m.insert("b", Value::from(1));
/// m.insert("a", Value::from("x"));
/// assert_eq!(m.insert("b", Value::from(2)), Some(Value::from(1)));
/// assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(m["b"], 2);
/// ```
#[derive(Clone, Default)]
pub struct Map {
    pub(crate) entries: Vec<(String, Value)>,
    index: Option<Box<Index>>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Map {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position of `key` and, when the map is indexed, its hash.
    #[inline]
    fn find(&self, key: &str) -> (Option<usize>, u64) {
        match &self.index {
            Some(ix) => {
                let h = ix.hash(key);
                (ix.find(h, |i| self.entries[i].0 == key), h)
            }
            None => (self.entries.iter().position(|(k, _)| k == key), 0),
        }
    }

    /// The position of `key`.
    pub(crate) fn position(&self, key: &str) -> Option<usize> {
        self.find(key).0
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    /// The key and value of `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&str, &Value)> {
        self.position(key).map(|i| {
            let (k, v) = &self.entries[i];
            (k.as_str(), v)
        })
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`; returns the value it replaces. A new key goes last; an existing
    /// one keeps its position.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.find(&key) {
            (Some(i), _) => Some(mem::replace(&mut self.entries[i].1, value)),
            (None, h) => {
                self.push_new(key, value, h);
                None
            }
        }
    }

    /// The value of `key`, inserting `make()` first if it is absent.
    pub fn get_or_insert_with(
        &mut self,
        key: impl Into<String> + AsRef<str>,
        make: impl FnOnce() -> Value,
    ) -> &mut Value {
        let i = match self.find(key.as_ref()) {
            (Some(i), _) => i,
            (None, h) => {
                self.push_new(key.into(), make(), h);
                self.entries.len() - 1
            }
        };
        &mut self.entries[i].1
    }

    /// Appends a key known to be absent; `h` is its hash if the map is indexed.
    fn push_new(&mut self, key: String, value: Value, h: u64) {
        self.entries.push((key, value));
        let n = self.entries.len();
        let entries = &self.entries;
        let hash_of = |s: &std::hash::RandomState, i: usize| {
            std::hash::BuildHasher::hash_one(s, entries[i].0.as_str())
        };
        if let Some(ix) = &mut self.index {
            if !ix.push(h, n - 1, hash_of) {
                self.index = None;
            }
        } else if n > INDEX_FROM {
            self.index = Index::build(n, hash_of).map(Box::new);
        }
    }

    /// Rebuilds (or drops) the index after entries moved.
    fn reindex(&mut self) {
        let n = self.entries.len();
        if n <= INDEX_FROM {
            self.index = None;
            return;
        }
        let entries = &self.entries;
        let hash_of = |s: &std::hash::RandomState, i: usize| {
            std::hash::BuildHasher::hash_one(s, entries[i].0.as_str())
        };
        let ok = match &mut self.index {
            Some(ix) => ix.rebuild(n, hash_of),
            None => {
                self.index = Index::build(n, hash_of).map(Box::new);
                true
            }
        };
        if !ok {
            self.index = None;
        }
    }

    /// Removes `key` and returns its value; the members after it move up (O(n)).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.remove_entry(key).map(|(_, v)| v)
    }

    /// Removes `key` and returns it with its value; the members after it move up (O(n)).
    pub fn remove_entry(&mut self, key: &str) -> Option<(String, Value)> {
        let i = self.position(key)?;
        let e = self.entries.remove(i);
        self.reindex();
        Some(e)
    }

    /// Keeps the members for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
        self.reindex();
    }

    /// Sorts the members by key (byte order), e.g. for canonical output.
    pub fn sort_keys(&mut self) {
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.reindex();
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }

    /// The members in order.
    pub fn iter(&self) -> MapIter<'_> {
        MapIter(self.entries.iter())
    }

    /// The members in order, values mutable.
    pub fn iter_mut(&mut self) -> MapIterMut<'_> {
        MapIterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in order, mutable.
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator + '_ {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Takes the members out, leaving the map empty.
    pub(crate) fn take_entries(&mut self) -> Vec<(String, Value)> {
        self.index = None;
        mem::take(&mut self.entries)
    }

    /// A clone of this map whose members are `entries`, a copy of its own in the same order
    /// (what `Value::clone` builds without recursing); the index is cloned with them.
    pub(crate) fn clone_with_entries(&self, entries: Vec<(String, Value)>) -> Map {
        Map {
            entries,
            index: self.index.clone(),
        }
    }
}

/// Iterator over the members of a [`Map`].
#[derive(Clone, Debug)]
pub struct MapIter<'a>(std::slice::Iter<'a, (String, Value)>);

impl<'a> Iterator for MapIter<'a> {
    type Item = (&'a str, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k.as_str(), v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for MapIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k.as_str(), v))
    }
}

impl ExactSizeIterator for MapIter<'_> {}

/// Iterator over the members of a [`Map`], values mutable.
#[derive(Debug)]
pub struct MapIterMut<'a>(std::slice::IterMut<'a, (String, Value)>);

impl<'a> Iterator for MapIterMut<'a> {
    type Item = (&'a str, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k.as_str(), v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for MapIterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k.as_str(), v))
    }
}

impl ExactSizeIterator for MapIterMut<'_> {}

/// Owning iterator over the members of a [`Map`].
#[derive(Debug)]
pub struct MapIntoIter(std::vec::IntoIter<(String, Value)>);

impl Iterator for MapIntoIter {
    type Item = (String, Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for MapIntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back()
    }
}

impl ExactSizeIterator for MapIntoIter {}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a str, &'a Value);
    type IntoIter = MapIter<'a>;
    fn into_iter(self) -> MapIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a str, &'a mut Value);
    type IntoIter = MapIterMut<'a>;
    fn into_iter(self) -> MapIterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = MapIntoIter;
    fn into_iter(mut self) -> MapIntoIter {
        MapIntoIter(self.take_entries().into_iter())
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Map {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}

impl<K: Into<String>, V: Into<Value>> Extend<(K, V)> for Map {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v.into());
        }
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    /// The value of `key`, or `Value::Null` if it is absent.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&super::NULL)
    }
}

impl std::ops::IndexMut<&str> for Map {
    /// The value of `key`, inserting `Value::Null` first if it is absent.
    fn index_mut(&mut self, key: &str) -> &mut Value {
        self.get_or_insert_with(key, || Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_replace_remove_keep_order() {
        let mut m = Map::new();
        for i in 0..40 {
            assert_eq!(m.insert(format!("k{i}"), Value::from(i)), None);
        }
        assert!(m.index.is_some());
        assert_eq!(m.insert("k3", Value::from("x")), Some(Value::from(3)));
        assert_eq!(m.len(), 40);
        assert_eq!(m.keys().nth(3), Some("k3"));
        assert_eq!(m["k3"], "x");
        assert_eq!(m.remove("k0"), Some(Value::from(0)));
        assert_eq!(m.remove("k0"), None);
        assert_eq!(m.keys().next(), Some("k1"));
        for i in 1..40 {
            assert!(m.contains_key(&format!("k{i}")), "k{i}");
        }
        m.retain(|k, _| k.len() == 2);
        assert_eq!(
            m.keys().collect::<Vec<_>>(),
            ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"]
        );
        assert!(m.index.is_none());
        assert_eq!(m.get("k9"), Some(&Value::from(9)));
        m["new"] = Value::from(true);
        assert_eq!(m.keys().last(), Some("new"));
        assert_eq!(m["absent"], Value::Null);
    }

    #[test]
    fn sort_and_iterate() {
        let mut m: Map = [("b", 1), ("c", 2), ("a", 3)].into_iter().collect();
        m.sort_keys();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b", "c"]);
        for (_, v) in &mut m {
            *v = Value::from(0);
        }
        assert!(m.values().all(|v| *v == 0));
        let owned: Vec<(String, Value)> = m.clone().into_iter().collect();
        assert_eq!(owned.len(), 3);
        assert_eq!(m.get_key_value("c"), Some(("c", &Value::from(0))));
        m.clear();
        assert!(m.is_empty());
    }

    #[test]
    fn many_keys_stay_fast_and_correct() {
        let mut m = Map::new();
        for i in 0..100_000 {
            m.insert(i.to_string(), Value::from(i));
        }
        for i in (0..100_000).step_by(997) {
            assert_eq!(m[i.to_string().as_str()], i);
        }
        assert_eq!(m.get("100000"), None);
    }
}
