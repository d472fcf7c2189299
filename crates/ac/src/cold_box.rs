//! State most objects never change, kept off the object until its first change.
//!
//! An idle object's move-to manager and server-side record are what they were at
//! creation, field for field. Every object in a large world carried both inline, and
//! every tick swept them through the caches with the state the tick does use. A
//! [`ColdBox`] holds such a part as one pointer: while the part is untouched it reads
//! as the type's one shared pristine value, and the first mutable access copies that
//! value into a box of the object's own, which it keeps from then on. Reading through
//! it is reading the value it stands for, so no result depends on whether the part has
//! been boxed yet.

use crate::moveto_manager::MoveToManager;
use crate::server_loop::ServerSide;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::LazyLock;

/// A type with one shared value that a fresh [`ColdBox`] stands for.
pub trait Pristine: Clone + 'static {
    /// The value a part has before anything changed it.
    fn pristine() -> &'static Self;
}

/// A part that is the type's pristine value until first changed (see the module
/// documentation). Dereferences to the value; `DerefMut` boxes it on first use.
#[derive(Clone)]
pub struct ColdBox<T: Pristine>(Option<Box<T>>);

impl<T: Pristine> ColdBox<T> {
    /// The pristine value, not boxed.
    pub const fn pristine() -> ColdBox<T> {
        ColdBox(None)
    }

    /// `value` in a box of its own (for a value other than the pristine one).
    pub fn new(value: T) -> ColdBox<T> {
        ColdBox(Some(Box::new(value)))
    }

    /// The part once it has a box of its own; `None` while it is still pristine.
    #[inline(always)]
    pub fn boxed(&self) -> Option<&T> {
        self.0.as_deref()
    }

    /// Whether the part has been changed (or was made with [`ColdBox::new`]).
    pub fn is_boxed(&self) -> bool {
        self.0.is_some()
    }

    // Out of line, so that an access through the box is a test and a branch in its
    // caller's code, not a copy of the whole constructor.
    #[cold]
    #[inline(never)]
    fn pristine_ref() -> &'static T {
        T::pristine()
    }

    #[cold]
    #[inline(never)]
    fn pristine_box() -> Box<T> {
        Box::new(T::pristine().clone())
    }
}

impl<T: Pristine> Default for ColdBox<T> {
    fn default() -> Self {
        ColdBox::pristine()
    }
}

impl<T: Pristine> Deref for ColdBox<T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        match &self.0 {
            Some(b) => b,
            None => Self::pristine_ref(),
        }
    }
}

impl<T: Pristine> DerefMut for ColdBox<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        self.0.get_or_insert_with(Self::pristine_box)
    }
}

impl<T: Pristine + PartialEq> PartialEq for ColdBox<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Pristine + fmt::Debug> fmt::Debug for ColdBox<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

static PRISTINE_MOVETO: LazyLock<MoveToManager> = LazyLock::new(|| MoveToManager::new(0.0));
static PRISTINE_SERVER: LazyLock<ServerSide> = LazyLock::new(ServerSide::default);

/// A manager made at world time zero that has never moved its object.
impl Pristine for MoveToManager {
    fn pristine() -> &'static MoveToManager {
        &PRISTINE_MOVETO
    }
}

/// The server side of an object no server loop has touched.
impl Pristine for ServerSide {
    fn pristine() -> &'static ServerSide {
        &PRISTINE_SERVER
    }
}

impl ColdBox<MoveToManager> {
    /// `MoveToManager::new(now)`: the shared pristine manager at time +0.0 (the same
    /// bits, so the manager's two time stamps read the same), a box of its own at
    /// any other time.
    pub fn fresh_at(now: f64) -> ColdBox<MoveToManager> {
        if now.to_bits() == 0 {
            ColdBox::pristine()
        } else {
            ColdBox::new(MoveToManager::new(now))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Counter {
        n: u32,
    }

    static ZERO: LazyLock<Counter> = LazyLock::new(|| Counter { n: 0 });

    impl Pristine for Counter {
        fn pristine() -> &'static Counter {
            &ZERO
        }
    }

    #[test]
    fn reads_the_pristine_value_until_the_first_change_then_keeps_its_own() {
        let mut a: ColdBox<Counter> = ColdBox::pristine();
        let b: ColdBox<Counter> = ColdBox::default();
        assert_eq!(a.n, 0);
        assert!(!a.is_boxed());
        a.n += 3;
        assert!(a.is_boxed());
        assert_eq!(a.n, 3);
        assert_eq!(b.n, 0);
        assert_eq!(ZERO.n, 0);
        assert_ne!(a, b);
        a.n = 0;
        assert_eq!(a, b);
        assert_eq!(
            ColdBox::new(Counter { n: 7 }).boxed(),
            Some(&Counter { n: 7 })
        );
    }

    #[test]
    fn a_manager_fresh_at_zero_is_shared_and_one_fresh_at_another_time_is_its_own() {
        let zero = ColdBox::fresh_at(0.0);
        assert!(!zero.is_boxed());
        assert_eq!(zero.previous_distance_time, 0.0);
        assert!(zero.pending_actions.is_empty());
        let negative_zero = ColdBox::fresh_at(-0.0);
        assert!(negative_zero.is_boxed());
        assert!(negative_zero.original_distance_time.is_sign_negative());
        let later = ColdBox::fresh_at(100.0);
        assert!(later.is_boxed());
        assert_eq!(later.previous_distance_time, 100.0);
        assert_eq!(later.original_distance_time, 100.0);
    }
}
