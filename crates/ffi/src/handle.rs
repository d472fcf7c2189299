//! Generation-checked handle tables: what a host holds is a number, never a pointer, so
//! a freed, forged or mixed-up handle is refused instead of dereferenced.
//!
//! A handle is `kind << 56 | generation << 32 | (slot + 1)`. 0 is never issued (the
//! null handle). Freeing a slot bumps its generation, so the old number no longer
//! matches; a slot whose generation is exhausted is retired rather than reused.

use crate::status::{Error, RaStatus, Result};
use std::sync::{Arc, Mutex, MutexGuard};

const GENERATION_LIMIT: u32 = 1 << 24;

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

pub(crate) struct Table<T> {
    kind: u8,
    name: &'static str,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

impl<T> Table<T> {
    pub const fn new(kind: u8, name: &'static str) -> Table<T> {
        Table {
            kind,
            name,
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    pub fn insert(&mut self, value: T) -> Result<u64> {
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                let i = u32::try_from(self.slots.len())
                    .ok()
                    .filter(|i| *i < u32::MAX)
                    .ok_or_else(|| Error::invalid(format!("too many live {}s", self.name)))?;
                self.slots.push(Slot {
                    generation: 0,
                    value: None,
                });
                i
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.value = Some(value);
        Ok(u64::from(self.kind) << 56 | u64::from(slot.generation) << 32 | u64::from(index + 1))
    }

    fn locate(&self, handle: u64) -> Result<usize> {
        let bad = || {
            Error::new(
                RaStatus::BadHandle,
                format!("{handle:#x} is not a live {} handle", self.name),
            )
        };
        if handle == 0 {
            return Err(Error::new(
                RaStatus::BadHandle,
                format!("the {} handle is 0 (null)", self.name),
            ));
        }
        if (handle >> 56) as u8 != self.kind {
            return Err(bad());
        }
        let generation = ((handle >> 32) & 0xff_ffff) as u32;
        let index = (handle & 0xffff_ffff) as usize;
        match index
            .checked_sub(1)
            .and_then(|i| self.slots.get(i).map(|s| (i, s)))
        {
            Some((i, s)) if s.generation == generation && s.value.is_some() => Ok(i),
            _ => Err(bad()),
        }
    }

    pub fn get_mut(&mut self, handle: u64) -> Result<&mut T> {
        let i = self.locate(handle)?;
        self.slots[i]
            .value
            .as_mut()
            .ok_or_else(|| Error::new(RaStatus::BadHandle, "handle vanished"))
    }

    pub fn remove(&mut self, handle: u64) -> Result<T> {
        let i = self.locate(handle)?;
        let slot = &mut self.slots[i];
        let value = slot.value.take();
        slot.generation += 1;
        if slot.generation < GENERATION_LIMIT {
            self.free.push(i as u32);
        }
        value.ok_or_else(|| Error::new(RaStatus::BadHandle, "handle vanished"))
    }
}

/// Lock a table; a poisoned lock (a panic caught while it was held) is taken over, since
/// the guard already reported that call as `RA_STATUS_INTERNAL`.
pub(crate) fn lock<T>(table: &Mutex<Table<T>>) -> MutexGuard<'_, Table<T>> {
    table.lock().unwrap_or_else(|p| p.into_inner())
}

/// Run `f` on the object behind `handle`. The table stays locked meanwhile: calls on
/// objects of one kind are serialised, which is what makes a handle freed by another
/// thread safe to refuse.
pub(crate) fn with<T, R>(
    table: &Mutex<Table<T>>,
    handle: u64,
    f: impl FnOnce(&mut T) -> Result<R>,
) -> Result<R> {
    let mut t = lock(table);
    f(t.get_mut(handle)?)
}

pub(crate) fn insert<T>(table: &Mutex<Table<T>>, value: T) -> Result<u64> {
    lock(table).insert(value)
}

/// Free the object behind `handle`; 0 is accepted and does nothing, like `free(NULL)`.
pub(crate) fn free<T>(table: &Mutex<Table<T>>, handle: u64) -> Result<()> {
    if handle == 0 {
        return Ok(());
    }
    let value = lock(table).remove(handle)?;
    // Dropped after the lock is released.
    drop(value);
    Ok(())
}

/// Objects each behind their own lock: the table is locked only to find, add or drop an
/// entry, so a long call on one object never holds up a call on another. The value
/// sits in an `Option` so that a free can empty the object under its own lock: a call
/// that found the entry just before the free then sees it gone instead of running on
/// an object nobody can reach any more.
pub(crate) type Own<T> = Arc<Mutex<Option<T>>>;

pub(crate) fn lock_own<T>(own: &Own<T>) -> MutexGuard<'_, Option<T>> {
    own.lock().unwrap_or_else(|p| p.into_inner())
}

fn freed(name: &str) -> Error {
    Error::new(
        RaStatus::BadHandle,
        format!("the {name} was freed while this call waited for it"),
    )
}

/// The entry behind `handle`, with the table locked only for the look-up.
fn find_own<T>(table: &Mutex<Table<Own<T>>>, handle: u64) -> Result<(Own<T>, &'static str)> {
    let mut t = lock(table);
    let name = t.name;
    t.get_mut(handle).map(|o| (Arc::clone(o), name))
}

/// Run `f` on the object behind `handle`, holding that object's lock only.
pub(crate) fn with_own<T, R>(
    table: &Mutex<Table<Own<T>>>,
    handle: u64,
    f: impl FnOnce(&mut T) -> Result<R>,
) -> Result<R> {
    let (own, name) = find_own(table, handle)?;
    let mut guard = lock_own(&own);
    f(guard.as_mut().ok_or_else(|| freed(name))?)
}

/// Run `f` on the objects behind two different handles, locked in a fixed order (by
/// address) so that two threads working on the same pair in opposite roles cannot
/// deadlock.
pub(crate) fn with_two_own<T, R>(
    table: &Mutex<Table<Own<T>>>,
    a: u64,
    b: u64,
    f: impl FnOnce(&mut T, &mut T) -> Result<R>,
) -> Result<R> {
    let (oa, name) = find_own(table, a)?;
    let (ob, _) = find_own(table, b)?;
    if Arc::ptr_eq(&oa, &ob) {
        return Err(Error::invalid(format!(
            "both handles name the same {name} ({a:#x})"
        )));
    }
    let (mut ga, mut gb) = if Arc::as_ptr(&oa) < Arc::as_ptr(&ob) {
        let ga = lock_own(&oa);
        (ga, lock_own(&ob))
    } else {
        let gb = lock_own(&ob);
        (lock_own(&oa), gb)
    };
    match (ga.as_mut(), gb.as_mut()) {
        (Some(x), Some(y)) => f(x, y),
        _ => Err(freed(name)),
    }
}

pub(crate) fn insert_own<T>(table: &Mutex<Table<Own<T>>>, value: T) -> Result<u64> {
    lock(table).insert(Arc::new(Mutex::new(Some(value))))
}

/// Free the object behind `handle` (0 does nothing): the entry leaves the table at once,
/// then the object is emptied once a call running on it has returned.
pub(crate) fn free_own<T>(table: &Mutex<Table<Own<T>>>, handle: u64) -> Result<()> {
    if handle == 0 {
        return Ok(());
    }
    let own = lock(table).remove(handle)?;
    let value = lock_own(&own).take();
    // Dropped after both locks are released.
    drop(value);
    Ok(())
}
