//! The table manager's pending queue (`pending_animations`), the interpreter's
//! (`PendingMotions`) and the move-to manager's (`PendingActions`): a first-in
//! first-out queue owned by the crate, so that its appends stay inline.
//!
//! std's `VecDeque` answers the same, but its append carries the ring's regrowth and
//! wrap-around, and whether the compiler inlined it changed with unrelated moves
//! between codegen units (ac-chase +2.4 to +4.4 an object-tick when it did not). Here
//! the live entries are one slice at the end of a `Vec`: an append is `Vec::push`
//! after one test, a pop moves the start, and the rare work (sliding the entries back
//! to the buffer's start, growing) is out of line.

use crate::table_manager::AnimNode;
use std::fmt;
use std::ops::Index;

/// A FIFO queue of entries, oldest first: the table manager's [`AnimNode`]s (the
/// default), the interpreter's motions or the move-to manager's nodes. Its plain twin is `VecDeque<T>` (the tests
/// run both on the same operations).
///
/// The entries are `buf[head..]`. Taking the last entry off empties the buffer, so an
/// empty queue always has `head == 0` and the buffer's last element is the newest
/// entry. An append to a full buffer first slides the entries back to its start when
/// some were taken off, and grows it only when every slot is live: like a ring, the
/// queue allocates only when it holds more entries than its capacity.
pub struct AnimQueue<T = AnimNode> {
    buf: Vec<T>,
    head: usize,
}

impl<T> Default for AnimQueue<T> {
    fn default() -> AnimQueue<T> {
        AnimQueue {
            buf: Vec::new(),
            head: 0,
        }
    }
}

impl<T: Copy> AnimQueue<T> {
    /// An empty queue with room for `capacity` entries.
    pub fn with_capacity(capacity: usize) -> AnimQueue<T> {
        AnimQueue {
            buf: Vec::with_capacity(capacity),
            head: 0,
        }
    }

    /// How many entries the queue holds without allocating.
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Room for `n` entries in all (not `n` more), made now.
    pub fn reserve_total(&mut self, n: usize) {
        if self.buf.capacity() < n {
            self.slide_to_start();
            self.buf.reserve_exact(n - self.buf.len());
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.buf.len() - self.head
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The oldest entry.
    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        self.buf.get(self.head)
    }

    /// The newest entry.
    #[inline(always)]
    pub fn back(&self) -> Option<&T> {
        self.buf.last()
    }

    /// Entry `i`, oldest first.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&T> {
        self.as_slice().get(i)
    }

    /// The entries, oldest first.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        &self.buf[self.head..]
    }

    /// The entries, oldest first, to change in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.buf[self.head..]
    }

    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    #[inline(always)]
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.as_mut_slice().iter_mut()
    }

    /// Append `node` as the newest entry.
    // `always`: the appends sit in the motion calls, where a call costs more than the
    // test and the store.
    #[inline(always)]
    pub fn push_back(&mut self, node: T) {
        if self.buf.len() == self.buf.capacity() {
            self.make_room();
        }
        self.buf.push(node);
    }

    /// Take the oldest entry off.
    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        let node = *self.buf.get(self.head)?;
        self.head += 1;
        if self.head == self.buf.len() {
            self.clear();
        }
        Some(node)
    }

    /// Take the `n` oldest entries off (`n` at most the length).
    #[inline(always)]
    pub fn drop_front(&mut self, n: usize) {
        debug_assert!(
            n <= self.len(),
            "queue: {n} entries taken off {}",
            self.len()
        );
        self.head += n;
        if self.head == self.buf.len() {
            self.clear();
        }
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.buf.clear();
        self.head = 0;
    }

    /// A full buffer: the entries slid back to its start when that frees a slot, else
    /// the buffer grown (as `Vec` grows).
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) {
        if self.head != 0 {
            self.slide_to_start();
        } else {
            self.buf.reserve(1);
        }
    }

    /// The entries moved to the buffer's start.
    fn slide_to_start(&mut self) {
        let len = self.len();
        self.buf.copy_within(self.head.., 0);
        self.buf.truncate(len);
        self.head = 0;
    }
}

/// A copy holds the entries only (as a `VecDeque`'s clone, no spare room).
impl<T: Copy> Clone for AnimQueue<T> {
    fn clone(&self) -> AnimQueue<T> {
        AnimQueue {
            buf: self.as_slice().to_vec(),
            head: 0,
        }
    }
}

/// Two queues are equal when their entries are, wherever they sit in the buffers.
impl<T: Copy + PartialEq> PartialEq for AnimQueue<T> {
    fn eq(&self, other: &AnimQueue<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq> Eq for AnimQueue<T> {}

impl<T: Copy + fmt::Debug> fmt::Debug for AnimQueue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy> Index<usize> for AnimQueue<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<'a, T: Copy> IntoIterator for &'a AnimQueue<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy> Extend<T> for AnimQueue<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, nodes: I) {
        for node in nodes {
            self.push_back(node);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    fn node(motion: u32) -> AnimNode {
        AnimNode {
            motion,
            num_anims: 0,
        }
    }

    fn motions(q: &AnimQueue) -> Vec<u32> {
        q.iter().map(|n| n.motion).collect()
    }

    #[test]
    fn entries_come_off_oldest_first_across_a_slide_to_the_start() {
        let mut q = AnimQueue::with_capacity(4);
        q.extend([node(1), node(2), node(3), node(4)]);
        assert_eq!(q.pop_front(), Some(node(1)));
        assert_eq!(q.pop_front(), Some(node(2)));
        // Full buffer, two slots taken off: the append slides 3 and 4 back to the start.
        q.push_back(node(5));
        assert_eq!(motions(&q), [3, 4, 5]);
        assert_eq!((q.len(), q.capacity()), (3, 4));
        assert_eq!(
            (q.front(), q.back(), q.get(2)),
            (Some(&node(3)), Some(&node(5)), Some(&node(5)))
        );
        assert_eq!(q[1], node(4));
        assert_eq!(q.pop_front(), Some(node(3)));
        assert_eq!(q.pop_front(), Some(node(4)));
        assert_eq!(q.pop_front(), Some(node(5)));
        assert_eq!(q.pop_front(), None);
        assert!(q.is_empty());
        assert_eq!((q.front(), q.back()), (None, None));
    }

    #[test]
    fn a_queue_never_longer_than_its_capacity_never_grows() {
        // Three live entries at most, 1,000 appends and pops through a buffer of 4.
        let mut q = AnimQueue::with_capacity(4);
        q.extend([node(0), node(1)]);
        for m in 2..1_002 {
            q.push_back(node(m));
            assert_eq!(q.pop_front(), Some(node(m - 2)));
        }
        assert_eq!(motions(&q), [1_000, 1_001]);
        assert_eq!(q.capacity(), 4);
        // A fifth live entry grows it.
        q.extend([node(7), node(8), node(9)]);
        assert_eq!(motions(&q), [1_000, 1_001, 7, 8, 9]);
        assert!(q.capacity() >= 5);
    }

    #[test]
    fn queues_with_the_same_entries_are_equal_wherever_they_sit() {
        let mut a = AnimQueue::with_capacity(4);
        a.extend([node(9), node(1), node(2)]);
        a.pop_front();
        let mut b = AnimQueue::default();
        b.extend([node(1), node(2)]);
        assert_eq!(a, b);
        assert_eq!(a.clone(), b);
        assert_eq!(format!("{a:?}"), format!("{:?}", [node(1), node(2)]));
        b.reserve_total(32);
        assert_eq!((a == b, b.capacity() >= 32), (true, true));
    }

    #[test]
    fn the_queue_answers_as_a_vecdeque_on_every_sequence_of_operations() {
        // Pseudo-random appends, pops, clears, reserves and in-place changes on both,
        // from capacities 0 to 3.
        let mut h = 11u32;
        for _ in 0..300 {
            h = h.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let cap = (h >> 16) as usize % 4;
            let mut q = AnimQueue::with_capacity(cap);
            let mut plain: VecDeque<AnimNode> = VecDeque::with_capacity(cap);
            for step in 0..64u32 {
                h = h.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let n = AnimNode {
                    motion: step,
                    num_anims: h >> 28,
                };
                match (h >> 12) % 16 {
                    0..=6 => {
                        q.push_back(n);
                        plain.push_back(n);
                    }
                    7..=11 => assert_eq!(q.pop_front(), plain.pop_front()),
                    12 => {
                        let n = (h as usize >> 4) % 3;
                        if n <= plain.len() {
                            q.drop_front(n);
                            plain.drain(..n);
                        }
                    }
                    13 => {
                        q.clear();
                        plain.clear();
                    }
                    14 => {
                        q.reserve_total(8);
                        assert!(q.capacity() >= 8);
                    }
                    _ => {
                        for (a, b) in q.iter_mut().zip(plain.iter_mut()).skip(1) {
                            a.num_anims = 0;
                            b.num_anims = 0;
                        }
                    }
                }
                assert_eq!(q.len(), plain.len());
                assert_eq!(q.is_empty(), plain.is_empty());
                assert_eq!(q.front(), plain.front());
                assert_eq!(q.back(), plain.back());
                assert!(q.iter().eq(plain.iter()));
                assert!(q.len() <= q.capacity());
            }
        }
    }
}
