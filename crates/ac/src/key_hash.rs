//! The hasher of the maps keyed by `u32` record ids (motion table lookups, animations
//! by id), and the flat read-only maps a motion table's lookups go through.
//!
//! The standard `HashMap` hashes with SipHash-1-3 and a per-map random key, which
//! guards against keys chosen to collide; here the keys are ids out of the loaded
//! records, and a motion command makes a handful of lookups, each of which spent more
//! on SipHash than on the probe. The map's results do not depend on the hasher (no
//! caller depends on iteration order: lookups only), so a cheaper one changes nothing
//! but the cost.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` keyed by a `u32` id with [`IdHasher`].
pub type IdMap<V> = HashMap<u32, V, BuildHasherDefault<IdHasher>>;

/// A `HashMap` keyed by two `u32` ids packed in a `u64`, with [`IdHasher`].
pub type IdPairMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

/// Multiplicative hashing of one `u32`: the key times a 64-bit odd constant (the
/// golden ratio's), with the high half folded into the low one, so both the bucket
/// index (low bits) and the control byte (high bits) depend on every key bit.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    #[inline]
    fn write_u32(&mut self, k: u32) {
        let h = (self.0 ^ u64::from(k)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }

    /// A pair of ids as one `u64` (the link index's keys), by the same multiply and
    /// fold: the fold brings the product's high half, which depends on all 64 key bits,
    /// into the bucket index.
    #[inline]
    fn write_u64(&mut self, k: u64) {
        let h = (self.0 ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }

    /// Other key types (not used by the id maps) hash byte by byte the same way.
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A read-only map from `u64` ids (a `u32` id widened, or two packed as in
/// [`IdPairMap`]), made once from another map's entries: open addressing with linear
/// probing in a power-of-two table at most a quarter full, each slot one word of key and
/// the place of its value.
///
/// A lookup is a multiply, a shift and a key compare per slot probed, where the
/// `HashMap` also builds and matches a control-byte group. Free slots hold a key that
/// no entry has (`empty`), so the probe stops at the first slot whose key is either the
/// one asked for or `empty`; asked for `empty` itself it stops at a free slot, whose
/// place (`u32::MAX`) is no value's. The map it is made from stays the plain twin: each
/// user checks its answers against it in debug builds.
#[derive(Clone, Debug)]
pub struct FlatIdMap<V> {
    slots: Vec<FlatSlot>,
    /// An odd multiplier and 64 minus log2 of the slot count: a key's home slot is the
    /// top bits of the key times the multiplier.
    multiplier: u64,
    shift: u32,
    empty: u64,
    values: Vec<V>,
}

#[derive(Clone, Copy, Debug)]
struct FlatSlot {
    key: u64,
    at: u32,
}

/// The golden ratio's 64-bit odd constant (as in [`IdHasher`]): the product's top bits
/// depend on every key bit.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Multipliers [`FlatIdMap::from_entries`] tries at most.
const MULTIPLIER_TRIES: usize = 64;

/// How many of `keys` a table of `cap` slots with this multiplier and shift would place
/// off their home slot (inserted in this order with linear probing).
fn displaced(keys: &[u64], multiplier: u64, shift: u32, cap: usize) -> usize {
    let mut taken = vec![false; cap];
    let mut off = 0;
    for &k in keys {
        let mut i = (k.wrapping_mul(multiplier) >> shift) as usize;
        if taken[i] {
            off += 1;
            while taken[i] {
                i = (i + 1) & (cap - 1);
            }
        }
        taken[i] = true;
    }
    off
}

impl<V> Default for FlatIdMap<V> {
    fn default() -> Self {
        FlatIdMap::from_entries(std::iter::empty())
    }
}

impl<V> FlatIdMap<V> {
    /// The map of these entries, whose keys are all different.
    pub fn from_entries(entries: impl IntoIterator<Item = (u64, V)>) -> FlatIdMap<V> {
        let entries: Vec<(u64, V)> = entries.into_iter().collect();
        let mut keys: Vec<u64> = entries.iter().map(|e| e.0).collect();
        keys.sort_unstable();
        assert!(
            keys.windows(2).all(|w| w[0] != w[1]),
            "FlatIdMap: a key given twice"
        );
        assert!(
            entries.len() < u32::MAX as usize,
            "FlatIdMap: too many entries"
        );
        // The smallest key no entry has: the sorted keys from 0 up skip it first.
        let mut empty = 0u64;
        for &k in &keys {
            if k == empty {
                empty += 1;
            } else if k > empty {
                break;
            }
        }
        // At least two slots and at most a quarter of them taken: a free slot ends every
        // probe, and most keys find their home slot free.
        let cap = (4 * entries.len()).next_power_of_two().max(2);
        let shift = 64 - cap.trailing_zeros();
        // The multiplier that leaves the fewest keys off their home slot, of a few odd
        // ones tried (the ids of a table are few and alike, so one multiplier can crowd
        // them where another spreads them).
        let mut multiplier = GOLDEN;
        let mut best = usize::MAX;
        let mut candidate = GOLDEN;
        for _ in 0..MULTIPLIER_TRIES {
            let displaced = displaced(&keys, candidate, shift, cap);
            if displaced < best {
                (best, multiplier) = (displaced, candidate);
            }
            if best == 0 {
                break;
            }
            candidate = candidate.wrapping_mul(GOLDEN).wrapping_add(2) | 1;
        }
        let mut map = FlatIdMap {
            slots: vec![
                FlatSlot {
                    key: empty,
                    at: u32::MAX
                };
                cap
            ],
            multiplier,
            shift,
            empty,
            values: Vec::with_capacity(entries.len()),
        };
        for (key, value) in entries {
            let mut i = map.home(key);
            while map.slots[i].key != empty {
                i = (i + 1) & (cap - 1);
            }
            map.slots[i] = FlatSlot {
                key,
                at: map.values.len() as u32,
            };
            map.values.push(value);
        }
        map
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(self.multiplier) >> self.shift) as usize
    }

    /// The value of `key`, if an entry has it.
    #[inline]
    pub fn get(&self, key: u64) -> Option<&V> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if slot.key == key {
                return self.values.get(slot.at as usize);
            }
            if slot.key == self.empty {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Where the value of `key` is kept, if an entry has it: [`FlatIdMap::at`] of the
    /// answer is [`FlatIdMap::get`] of the key.
    pub fn place(&self, key: u64) -> Option<u32> {
        let value = self.get(key)?;
        self.values
            .iter()
            .position(|v| std::ptr::eq(v, value))
            .map(|i| i as u32)
    }

    /// The value kept at `place` (none past the last).
    #[inline]
    pub fn at(&self, place: u32) -> Option<&V> {
        self.values.get(place as usize)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the map has no entry.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_differ_in_one_bit_spread_over_buckets_and_control_bytes() {
        let hash = |k: u32| {
            let mut h = IdHasher::default();
            h.write_u32(k);
            h.finish()
        };
        // Motion ids differ in their low bits (0x4500_0005, 0x4500_0006, ...) and
        // link keys in their high ones (style << 16 | substate).
        let keys = [
            0x4500_0005u32,
            0x4500_0006,
            0x4500_0007,
            0x8000_003d,
            0x003d_0003,
        ];
        let low: std::collections::HashSet<u64> = keys.iter().map(|&k| hash(k) & 0xff).collect();
        let high: std::collections::HashSet<u64> = keys.iter().map(|&k| hash(k) >> 57).collect();
        assert_eq!(low.len(), keys.len());
        assert!(high.len() >= 4);
        // A map finds every key it was given.
        let mut m: IdMap<u32> = IdMap::default();
        for (i, &k) in keys.iter().enumerate() {
            m.insert(k, i as u32);
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(m.get(&k), Some(&(i as u32)));
        }
        assert_eq!(m.get(&0x4500_0008), None);
    }

    #[test]
    fn a_flat_map_finds_each_key_it_was_made_with_and_no_other() {
        // Keys 0, 1 and 2 are taken, so the free slots hold 3: asking for 3 stops at a
        // free slot and finds nothing.
        let m = FlatIdMap::from_entries([(2u64, 'c'), (0, 'a'), (1, 'b'), (0x4500_0005, 'd')]);
        assert_eq!(m.len(), 4);
        assert_eq!(m.get(0), Some(&'a'));
        assert_eq!(m.get(1), Some(&'b'));
        assert_eq!(m.get(2), Some(&'c'));
        assert_eq!(m.get(0x4500_0005), Some(&'d'));
        assert_eq!(m.get(3), None);
        assert_eq!(m.get(0x4500_0006), None);
        assert_eq!(m.get(u64::MAX), None);
        // No entry at all: the free key is 0.
        let e: FlatIdMap<char> = FlatIdMap::default();
        assert!(e.is_empty());
        assert_eq!(e.get(0), None);
        assert_eq!(e.get(7), None);
    }

    #[test]
    fn a_crowded_flat_map_answers_as_the_hash_map() {
        // A thousand link-like pairs (list key, motion) and the ids 0..1000: more keys
        // than any multiplier keeps on their home slots, so lookups probe past them.
        let mut h = 0x1234_5678u32;
        let mut entries: IdPairMap<u32> = IdPairMap::default();
        for n in 0..1000u32 {
            h = h.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let list = ((0x3D + (h >> 28)) << 16) | (((h >> 8) & 0xFF) | 0x0100_0000);
            let motion = 0x4500_0000 | ((h >> 16) & 0x3F);
            entries.insert((u64::from(list) << 32) | u64::from(motion), n);
            entries.insert(u64::from(n), n + 1000);
        }
        let m = FlatIdMap::from_entries(entries.iter().map(|(&k, &v)| (k, v)));
        assert_eq!(m.len(), entries.len());
        for (&k, v) in &entries {
            assert_eq!(m.get(k), Some(v), "{k:x}");
            // Neighbours of every key, present or not, answer as the map does.
            for j in [k ^ 1, k.wrapping_add(1 << 32), k ^ (1 << 40)] {
                assert_eq!(m.get(j), entries.get(&j), "{j:x}");
            }
        }
        // 0..1000 are keys, so the free key is 1000.
        assert_eq!(m.get(999), Some(&1999));
        assert_eq!(m.get(1000), None);
    }
}
