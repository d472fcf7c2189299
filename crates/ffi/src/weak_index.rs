//! An index of values shared by key that keeps only weak references: a value lives as
//! long as its users hold it, and leaves the index when the last one lets it go. The
//! record cache (AC worlds on one source) and the model cache (HERC shapes on one
//! file) find what to share through one of these.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

pub(crate) struct WeakIndex<K, V> {
    /// `None` while empty, so that an empty index holds no allocation.
    map: Mutex<Option<HashMap<K, Weak<V>>>>,
}

impl<K: Hash + Eq, V> WeakIndex<K, V> {
    pub(crate) const fn new() -> WeakIndex<K, V> {
        WeakIndex {
            map: Mutex::new(None),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<HashMap<K, Weak<V>>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The live value under `key`.
    pub(crate) fn get(&self, key: &K) -> Option<Arc<V>> {
        self.lock()
            .as_ref()
            .and_then(|m| m.get(key))
            .and_then(Weak::upgrade)
    }

    /// The value under `key`, or `make()` for it when there is none (made outside the
    /// index's lock, so a slow load holds up no other key). Two threads making one key
    /// at once both make it; the first to register wins, and the other's value is
    /// dropped with the index unlocked (a value's drop may call `forget`).
    pub(crate) fn get_or_make<E>(
        &self,
        key: K,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<Arc<V>, E> {
        if let Some(live) = self.get(&key) {
            return Ok(live);
        }
        let fresh = Arc::new(make()?);
        let winner = {
            let mut index = self.lock();
            let map = index.get_or_insert_with(HashMap::new);
            match map.get(&key).and_then(Weak::upgrade) {
                Some(live) => live,
                None => {
                    map.insert(key, Arc::downgrade(&fresh));
                    Arc::clone(&fresh)
                }
            }
        };
        drop(fresh);
        Ok(winner)
    }

    /// Called from a value's drop: its entry leaves the index unless a newer value
    /// already took the key, and an empty index frees its table.
    pub(crate) fn forget(&self, key: &K) {
        let mut index = self.lock();
        if let Some(map) = index.as_mut() {
            if map.get(key).is_some_and(|w| w.strong_count() == 0) {
                map.remove(key);
            }
            if map.is_empty() {
                *index = None;
            }
        }
    }
}
