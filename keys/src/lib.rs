//! Perfect-hash key tables for structio.
//!
//! `#[derive(structio::Reflect)]` calls [`plan`] at compile time with a struct's keys; it picks the
//! cheapest probe that sends every key to its own slot and emits the result as a constant
//! [`Probe`] over static tables. At run time [`Probe::find`] hashes the incoming key with the same
//! functions, then compares the candidate in full, so a key that is not in the set is always
//! reported as unknown.
//!
//! The ladder, cheapest first:
//! 1. [`Probe::Single`]: one key, one comparison.
//! 2. [`Probe::ByteAt`]: one byte at a fixed index tells the keys apart; a 256-entry table.
//! 3. [`Probe::LenByte`]: the key length and one byte, mixed with a seed.
//! 4. [`Probe::Front`]: the first 2, 4 or 8 bytes (and the length), mixed with a seed.
//! 5. [`Probe::Full`]: a seeded hash of every byte.
//! 6. [`Probe::Linear`]: compare against each key (only when no seed separates the keys).
//!
//! The crate also holds the [`shape`] bits, which the derive and the reader of untagged enums
//! both need.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod shape;

/// Marks an empty slot in a probe table.
pub const EMPTY: u16 = u16::MAX;

/// How a key is turned into a slot. `T` is the table storage: `Vec<u16>` while planning,
/// `&'static [u16]` in generated code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe<T> {
    /// No keys at all: every lookup misses.
    Empty,
    /// Exactly one key.
    Single,
    /// `table[key[index]]` is the candidate; every key is longer than `index`.
    ByteAt {
        /// The byte position that differs across all keys.
        index: usize,
        /// 256 entries, one per byte value.
        table: T,
    },
    /// `table[mix(len, key[index]) * seed >> shift]`; every key is longer than `index`.
    LenByte {
        /// The byte position mixed with the length.
        index: usize,
        /// Multiplier found by search.
        seed: u64,
        /// `64 - log2(table.len())`.
        shift: u32,
        /// The slots.
        table: T,
    },
    /// `table[mix(first `bytes` bytes, len) * seed >> shift]`.
    Front {
        /// 2, 4 or 8 leading bytes.
        bytes: usize,
        /// Multiplier found by search.
        seed: u64,
        /// `64 - log2(table.len())`.
        shift: u32,
        /// The slots.
        table: T,
    },
    /// `table[full_hash(key, seed) >> shift]`.
    Full {
        /// Seed found by search.
        seed: u64,
        /// `64 - log2(table.len())`.
        shift: u32,
        /// The slots.
        table: T,
    },
    /// Compare against every key in turn.
    Linear,
}

impl<T: AsRef<[u16]>> Probe<T> {
    /// A short name of the strategy, for tests and diagnostics.
    pub fn name(&self) -> &'static str {
        match self {
            Probe::Empty => "empty",
            Probe::Single => "single",
            Probe::ByteAt { .. } => "byte_at",
            Probe::LenByte { .. } => "len_byte",
            Probe::Front { .. } => "front",
            Probe::Full { .. } => "full",
            Probe::Linear => "linear",
        }
    }

    /// The candidate slot for `key`, before the full comparison; `None` when the table says no
    /// key can match.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn candidate(&self, key: &[u8]) -> Option<usize> {
        let slot = match self {
            Probe::Empty => return None,
            Probe::Single => return Some(0),
            Probe::Linear => return None,
            Probe::ByteAt { index, table } => match key.get(*index) {
                Some(&b) => table.as_ref()[b as usize],
                None => return None,
            },
            Probe::LenByte {
                index,
                seed,
                shift,
                table,
            } => match key.get(*index) {
                Some(&b) => table.as_ref()[len_byte_slot(key.len(), b, *seed, *shift)],
                None => return None,
            },
            Probe::Front {
                bytes,
                seed,
                shift,
                table,
            } => table.as_ref()[front_slot(key, *bytes, *seed, *shift)],
            Probe::Full { seed, shift, table } => {
                table.as_ref()[(full_hash(key, *seed) >> *shift) as usize]
            }
        };
        if slot == EMPTY {
            None
        } else {
            Some(slot as usize)
        }
    }

    /// The index of `key` in `keys` (the list the probe was planned for), confirmed in full.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn find(&self, keys: &[&str], key: &[u8]) -> Option<usize> {
        if let Probe::Linear = self {
            return keys.iter().position(|k| k.as_bytes() == key);
        }
        let i = self.candidate(key)?;
        match keys.get(i) {
            Some(k) if k.as_bytes() == key => Some(i),
            _ => None,
        }
    }
}

/// Loads up to `n` (<= 8) leading bytes of `key` as a little-endian integer, zero-padded.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn load_prefix(key: &[u8], n: usize) -> u64 {
    if key.len() >= 8 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&key[..8]);
        let v = u64::from_le_bytes(w);
        if n >= 8 {
            v
        } else {
            v & ((1u64 << (n * 8)) - 1)
        }
    } else {
        let take = key.len().min(n);
        let mut w = [0u8; 8];
        w[..take].copy_from_slice(&key[..take]);
        u64::from_le_bytes(w)
    }
}

/// Final avalanche step shared by the seeded probes.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn fold(h: u64) -> u64 {
    h ^ (h >> 29) ^ (h >> 47)
}

/// The slot of the length-and-byte probe.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn len_byte_slot(len: usize, byte: u8, seed: u64, shift: u32) -> usize {
    let x = (byte as u64) | ((len as u64) << 8);
    (fold(x.wrapping_mul(seed)).wrapping_mul(seed) >> shift) as usize
}

/// The slot of the leading-bytes probe.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn front_slot(key: &[u8], bytes: usize, seed: u64, shift: u32) -> usize {
    let x = load_prefix(key, bytes) ^ (key.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (fold(x.wrapping_mul(seed)).wrapping_mul(seed) >> shift) as usize
}

/// A seeded hash over every byte of `key`, eight bytes at a time.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn full_hash(key: &[u8], seed: u64) -> u64 {
    let mut h = seed ^ (key.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut chunks = key.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = fold((h ^ u64::from_le_bytes(w)).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = fold((h ^ load_prefix(rest, 8)).wrapping_mul(0x94D0_49BB_1331_11EB));
    }
    fold(h.wrapping_mul(seed | 1)).wrapping_mul(seed | 1)
}

/// Deterministic odd seeds for the searches (splitmix64).
fn seeds(count: usize) -> impl Iterator<Item = u64> {
    let mut s: u64 = 0x2545_F491_4F6C_DD1D;
    (0..count).map(move |_| {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) | 1
    })
}

/// Table sizes to try for `n` keys: powers of two from `n` up to `n²` (at least 4, at most 2^16).
fn table_bits(n: usize) -> impl Iterator<Item = u32> {
    let lo = n.max(4).next_power_of_two().trailing_zeros();
    let hi = (n * n)
        .max(8)
        .next_power_of_two()
        .trailing_zeros()
        .clamp(lo, 16);
    lo..=hi
}

/// Tries seeds and table sizes until `slot(key, seed, shift)` is injective over `keys`.
fn search(keys: &[&[u8]], slot: impl Fn(&[u8], u64, u32) -> usize) -> Option<(u64, u32, Vec<u16>)> {
    for bits in table_bits(keys.len()) {
        let shift = 64 - bits;
        let size = 1usize << bits;
        'seed: for seed in seeds(400) {
            let mut table = vec![EMPTY; size];
            for (i, k) in keys.iter().enumerate() {
                let s = slot(k, seed, shift);
                if table[s] != EMPTY {
                    continue 'seed;
                }
                table[s] = i as u16;
            }
            return Some((seed, shift, table));
        }
    }
    None
}

/// Plans the cheapest probe for `keys`. Keys must be distinct.
pub fn plan(keys: &[&str]) -> Probe<Vec<u16>> {
    let keys: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    match keys.len() {
        0 => return Probe::Empty,
        1 => return Probe::Single,
        n if n >= EMPTY as usize => return Probe::Linear,
        _ => {}
    }
    if let Some(p) = plan_byte_at(&keys) {
        return p;
    }
    if let Some(p) = plan_len_byte(&keys) {
        return p;
    }
    if let Some(p) = plan_front(&keys) {
        return p;
    }
    plan_full(&keys).unwrap_or(Probe::Linear)
}

/// Step 2 of the ladder on its own (for tests and for [`plan`]).
pub fn plan_byte_at(keys: &[&[u8]]) -> Option<Probe<Vec<u16>>> {
    let min_len = keys.iter().map(|k| k.len()).min()?;
    (0..min_len).find_map(|index| {
        let mut table = vec![EMPTY; 256];
        for (i, k) in keys.iter().enumerate() {
            let b = k[index] as usize;
            if table[b] != EMPTY {
                return None;
            }
            table[b] = i as u16;
        }
        Some(Probe::ByteAt { index, table })
    })
}

/// Step 3 of the ladder on its own.
pub fn plan_len_byte(keys: &[&[u8]]) -> Option<Probe<Vec<u16>>> {
    let min_len = keys.iter().map(|k| k.len()).min()?;
    (0..min_len).find_map(|index| {
        let mut pairs: Vec<(usize, u8)> = keys.iter().map(|k| (k.len(), k[index])).collect();
        pairs.sort_unstable();
        pairs.dedup();
        if pairs.len() != keys.len() {
            return None;
        }
        let (seed, shift, table) = search(keys, |k, seed, shift| {
            len_byte_slot(k.len(), k[index], seed, shift)
        })?;
        Some(Probe::LenByte {
            index,
            seed,
            shift,
            table,
        })
    })
}

/// Step 4 of the ladder on its own.
pub fn plan_front(keys: &[&[u8]]) -> Option<Probe<Vec<u16>>> {
    [2usize, 4, 8].into_iter().find_map(|bytes| {
        let mut fronts: Vec<(u64, usize)> = keys
            .iter()
            .map(|k| (load_prefix(k, bytes), k.len()))
            .collect();
        fronts.sort_unstable();
        fronts.dedup();
        if fronts.len() != keys.len() {
            return None;
        }
        let (seed, shift, table) =
            search(keys, |k, seed, shift| front_slot(k, bytes, seed, shift))?;
        Some(Probe::Front {
            bytes,
            seed,
            shift,
            table,
        })
    })
}

/// Step 5 of the ladder on its own.
pub fn plan_full(keys: &[&[u8]]) -> Option<Probe<Vec<u16>>> {
    let (seed, shift, table) = search(keys, |k, seed, shift| {
        (full_hash(k, seed) >> shift) as usize
    })?;
    Some(Probe::Full { seed, shift, table })
}

/// Whether a key holds no `"`, no `\\` and no byte below 0x20: text that a quoting format
/// (JSON) writes between its quotes as it is. The derive uses it for `FieldsInfo::plain`, the
/// library for `FieldName::is_plain`.
pub const fn is_plain(name: &[u8]) -> bool {
    let mut i = 0;
    while i < name.len() {
        let b = name[i];
        if b < 0x20 || b == b'"' || b == b'\\' {
            return false;
        }
        i += 1;
    }
    true
}

/// A probe table as the derive spells it: each slot as two little-endian bytes of one byte
/// string (`N` slots, `2 * N` bytes), one token in the generated code instead of `N` numbers.
/// [`pack`] makes the string. Panics (at compile time, where the derive uses it) when
/// `packed` is not `2 * N` bytes long.
pub const fn unpack<const N: usize>(packed: &[u8]) -> [u16; N] {
    assert!(
        packed.len() == 2 * N,
        "a packed probe table holds two bytes per slot"
    );
    let mut table = [0u16; N];
    let mut i = 0;
    while i < N {
        table[i] = u16::from_le_bytes([packed[2 * i], packed[2 * i + 1]]);
        i += 1;
    }
    table
}

/// The byte string [`unpack`] reads back into `table`.
pub fn pack(table: &[u16]) -> Vec<u8> {
    table.iter().flat_map(|s| s.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_table_unpacks_to_itself() {
        let table: Vec<u16> = (0..256u16).map(|i| i.wrapping_mul(257) ^ 0x00ff).collect();
        let packed = pack(&table);
        assert_eq!(packed.len(), 512);
        assert_eq!(unpack::<256>(&packed).to_vec(), table);
        const EMPTY_SLOTS: [u16; 2] = unpack::<2>(b"\xff\xff\x01\x00");
        assert_eq!(EMPTY_SLOTS, [EMPTY, 1]);
    }

    fn check(keys: &[&str], expect: &str) {
        let p = plan(keys);
        assert_eq!(p.name(), expect, "{keys:?}");
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(p.find(keys, k.as_bytes()), Some(i), "{k}");
        }
        for miss in ["", "zz", "unknown_key", "a_much_longer_key_than_any"] {
            if !keys.contains(&miss) {
                assert_eq!(p.find(keys, miss.as_bytes()), None, "{miss}");
            }
        }
    }

    #[test]
    fn every_strategy_is_reachable() {
        check(&[], "empty");
        check(&["x"], "single");
        check(&["x", "y", "z"], "byte_at");
        check(
            &[
                "testStrings",
                "testUints",
                "testDoubles",
                "testInts",
                "testBools",
            ],
            "byte_at",
        );
        check(&["ab", "ba", "abc", "bac"], "len_byte");
        check(&["aa", "ab", "ba", "bb"], "front");
        check(
            &[
                "prefix_common_aaaa",
                "prefix_common_aaab",
                "prefix_common_aaba",
            ],
            "full",
        );
    }

    #[test]
    fn empty_key_is_handled() {
        check(&["", "a"], "front");
    }

    #[test]
    fn many_keys() {
        let owned: Vec<String> = (0..300).map(|i| format!("field_{i}")).collect();
        let keys: Vec<&str> = owned.iter().map(|s| s.as_str()).collect();
        let p = plan(&keys);
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(p.find(&keys, k.as_bytes()), Some(i));
        }
        assert_eq!(p.find(&keys, b"field_300"), None);
    }

    #[test]
    fn linear_probe_finds_and_misses() {
        let keys = ["a", "b"];
        let p: Probe<Vec<u16>> = Probe::Linear;
        assert_eq!(p.find(&keys, b"b"), Some(1));
        assert_eq!(p.find(&keys, b"c"), None);
    }
}
