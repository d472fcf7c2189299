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
use std::collections::VecDeque;
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

    /// The part to change in place once it has a box of its own; `None` while it is
    /// still pristine. Unlike `DerefMut`, it never boxes: a caller without a call of
    /// its own to make needs none for the box.
    #[inline(always)]
    pub fn boxed_mut(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut()
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

/// A queue that is empty on most ticks (the action queues of the interpreter and the
/// table state): one pointer while it has never held anything, a box of its own from
/// the first push on. Reads go through `Deref` to the queue (the shared empty one
/// while unboxed); the only ways to change it are the methods below, and of those only
/// `push_back` makes the box, so emptying or clearing an unboxed queue allocates
/// nothing. An unboxed queue and a boxed empty one are equal.
// The box is the point: one pointer on the object instead of the queue's four words.
#[allow(clippy::box_collection)]
pub struct ColdQueue<T: 'static>(Option<Box<VecDeque<T>>>);

impl<T: 'static> ColdQueue<T> {
    /// An empty queue without a box.
    pub const fn new() -> ColdQueue<T> {
        ColdQueue(None)
    }

    /// Whether the queue has a box of its own (it has held something).
    pub fn is_boxed(&self) -> bool {
        self.0.is_some()
    }

    /// `VecDeque::push_back`, boxing the queue on its first push.
    pub fn push_back(&mut self, value: T) {
        self.0.get_or_insert_with(Default::default).push_back(value);
    }

    /// `VecDeque::pop_front`.
    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        self.0.as_mut()?.pop_front()
    }

    /// `VecDeque::clear` (the box, once made, is kept with its room).
    #[inline]
    pub fn clear(&mut self) {
        if let Some(q) = self.0.as_mut() {
            q.clear();
        }
    }
}

impl<T: 'static> Default for ColdQueue<T> {
    fn default() -> Self {
        ColdQueue::new()
    }
}

impl<T: 'static> Deref for ColdQueue<T> {
    type Target = VecDeque<T>;
    #[inline(always)]
    fn deref(&self) -> &VecDeque<T> {
        match &self.0 {
            Some(q) => q,
            None => const { &VecDeque::new() },
        }
    }
}

impl<T: Clone + 'static> Clone for ColdQueue<T> {
    fn clone(&self) -> Self {
        ColdQueue(self.0.clone())
    }
}

impl<T: PartialEq + 'static> PartialEq for ColdQueue<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for ColdQueue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<'a, T: 'static> IntoIterator for &'a ColdQueue<T> {
    type Item = &'a T;
    type IntoIter = std::collections::vec_deque::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: 'static> FromIterator<T> for ColdQueue<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let q: VecDeque<T> = iter.into_iter().collect();
        ColdQueue((!q.is_empty()).then(|| Box::new(q)))
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
    fn a_cold_queue_is_boxed_by_its_first_push_only() {
        let mut q: ColdQueue<u32> = ColdQueue::new();
        assert_eq!(q.pop_front(), None);
        q.clear();
        assert!(!q.is_boxed());
        assert!(q.is_empty());
        assert_eq!(q, ColdQueue::default());
        q.push_back(7);
        q.push_back(9);
        assert!(q.is_boxed());
        assert_eq!(q.len(), 2);
        assert_eq!(q.iter().copied().collect::<Vec<_>>(), [7, 9]);
        assert_eq!(q.pop_front(), Some(7));
        q.clear();
        assert!(q.is_boxed());
        // Boxed and empty reads as the unboxed empty queue.
        assert_eq!(q, ColdQueue::new());
        assert_eq!(format!("{q:?}"), "[]");
        let r: ColdQueue<u32> = [1, 2].into_iter().collect();
        assert_eq!(r.front(), Some(&1));
        assert!(!std::iter::empty::<u32>()
            .collect::<ColdQueue<u32>>()
            .is_boxed());
    }

    /// The benchmark's walkers, through every command of their cycle: the parts kept off
    /// the object stay off it (no action queue, move-to manager or server side is ever
    /// boxed), so their bytes are neither allocated nor swept by the tick.
    #[test]
    fn the_walkers_steady_ticks_leave_every_cold_part_unboxed() {
        use retroanim_core::bench::BenchWorld;
        let mut b = crate::bench::AcBench::new(90);
        for _ in 0..(2 * crate::bench::COMMAND_PERIOD * 6) {
            b.tick();
        }
        for o in b.objects() {
            assert!(!o.minterp.raw.actions.is_boxed());
            assert!(!o.minterp.interpreted.actions.is_boxed());
            let tm = o.table_manager.as_ref().expect("a table");
            assert!(!tm.state.actions.is_boxed());
            assert!(!o.moveto.is_boxed());
            assert!(!o.server.is_boxed());
            assert!(o.position_manager.is_none() && o.target_manager.is_none());
        }
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
