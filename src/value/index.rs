//! A hash index over the entries of an insertion-ordered map, built once a map grows past a
//! few entries so that lookups (and the duplicate check while reading an object with very many
//! keys) stay O(1) instead of O(n).
//!
//! The index holds only entry positions in an open-addressing table (linear probing, load at
//! most 1/2); keys stay in the entries. The hasher is std's randomly keyed SipHash, so a
//! document cannot be crafted to make every key collide.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash};

/// Maps with more entries than this get an index; smaller ones are searched linearly.
pub(crate) const INDEX_FROM: usize = 32;

/// An empty slot.
const EMPTY: u32 = u32::MAX;

/// Positions of entries by the hash of their keys.
#[derive(Clone)]
pub(crate) struct Index {
    state: RandomState,
    /// A power-of-two table of entry positions, `EMPTY` where free.
    slots: Vec<u32>,
}

impl Index {
    /// An index over `n` entries whose key hashes `hash_of(state, i)` gives, or `None` when
    /// there are too many entries for 32-bit positions (the map then searches linearly).
    pub(crate) fn build(n: usize, hash_of: impl Fn(&RandomState, usize) -> u64) -> Option<Index> {
        let mut ix = Index {
            state: RandomState::new(),
            slots: Vec::new(),
        };
        ix.rebuild(n, hash_of).then_some(ix)
    }

    /// The hash of a key.
    #[inline]
    pub(crate) fn hash<K: Hash + ?Sized>(&self, key: &K) -> u64 {
        self.state.hash_one(key)
    }

    /// The position of the entry with hash `h` for which `is_key(position)` holds.
    #[inline]
    pub(crate) fn find(&self, h: u64, is_key: impl Fn(usize) -> bool) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let s = self.slots[i];
            if s == EMPTY {
                return None;
            }
            if is_key(s as usize) {
                return Some(s as usize);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records that entry `pos` (the last of `pos + 1` entries) has hash `h`; returns `false`
    /// when the index cannot hold that many entries and must be dropped.
    pub(crate) fn push(
        &mut self,
        h: u64,
        pos: usize,
        hash_of: impl Fn(&RandomState, usize) -> u64,
    ) -> bool {
        if (pos + 1) * 2 > self.slots.len() {
            self.rebuild(pos + 1, hash_of)
        } else {
            self.place(h, pos);
            true
        }
    }

    /// Refills the table for `n` entries; `false` if `n` does not fit 32-bit positions.
    pub(crate) fn rebuild(
        &mut self,
        n: usize,
        hash_of: impl Fn(&RandomState, usize) -> u64,
    ) -> bool {
        if n >= EMPTY as usize / 2 {
            return false;
        }
        let cap = (n * 2).next_power_of_two().max(2 * INDEX_FROM);
        self.slots.clear();
        self.slots.resize(cap, EMPTY);
        for i in 0..n {
            let h = hash_of(&self.state, i);
            self.place(h, i);
        }
        true
    }

    fn place(&mut self, h: u64, pos: usize) {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        while self.slots[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = pos as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_entry_after_growth() {
        let keys: Vec<String> = (0..1000).map(|i| format!("k{i}")).collect();
        let mut ix = Index::build(0, |_, _| 0).unwrap();
        for pos in 0..keys.len() {
            let h = ix.hash(keys[pos].as_str());
            assert!(ix.push(h, pos, |s, i| s.hash_one(keys[i].as_str())));
        }
        for (pos, k) in keys.iter().enumerate() {
            let h = ix.hash(k.as_str());
            assert_eq!(ix.find(h, |i| keys[i] == *k), Some(pos));
        }
        let h = ix.hash("absent");
        assert_eq!(ix.find(h, |i| keys[i] == "absent"), None);
    }
}
