//! The hasher of the maps keyed by `u32` record ids (motion table lookups, animations
//! by id).
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
}
