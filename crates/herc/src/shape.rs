//! A shape instance: up to 10 thread slots in priority order, the per-tick root-motion cycle
//! and the pose of every node (H13, H16–H18, H28, D4–D7).
//!
//! The instance does not own its [`AnimList`] (many instances share one); every method takes
//! it. Locals and world transforms live in buffers sized once at construction, so a steady
//! state step allocates nothing.

use crate::model::{AnimList, Keyframe};
use crate::pose::write_thread_locals;
use crate::thread::AnimationThread;
use crate::transform::Transform3;

/// Thread slots per shape instance (H17).
pub const MAX_SLOTS: usize = 10;

/// Why a thread could not be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("a shape instance has at most {MAX_SLOTS} threads")]
    TooManyThreads,
    #[error("sequence {0} does not exist")]
    NoSuchSequence(i16),
}

/// `ShapeInstance`: threads by id, their slot order, and the evaluated pose.
#[derive(Clone, Debug)]
pub struct ShapeInstance {
    threads: Vec<AnimationThread>,
    /// Thread ids, first slot first.
    slots: Vec<usize>,
    locals: Vec<Keyframe>,
    world: Vec<Transform3>,
    /// Memo of `Transform3::from_local(xf_key[n])` per node: a local that did not change
    /// since the last evaluation is not rebuilt from its angles.
    local_xf: Vec<Transform3>,
    xf_key: Vec<Keyframe>,
    /// Scratch of [`Self::evaluate`]: the node's world transform changed in this pass, so its
    /// children must be rebuilt. A node whose local and parent did not change keeps its world.
    moved: Vec<bool>,
    /// No evaluation yet: every world transform must be built.
    fresh: bool,
    /// What the last identity seed of [`Self::tick`] left: the thread id, the G, acc and dur
    /// its partial P was built from, and the root it stored. A seed from the same inputs onto
    /// that same root would store that root again, so it is skipped.
    seeded: Option<(usize, Keyframe, i16, i16, Transform3)>,
}

impl ShapeInstance {
    /// An instance with no threads; the pose is every node's rest record.
    pub fn new(list: &AnimList) -> ShapeInstance {
        let n = list.nodes().len();
        let mut s = ShapeInstance {
            threads: Vec::with_capacity(MAX_SLOTS),
            slots: Vec::with_capacity(MAX_SLOTS),
            locals: vec![[0; 6]; n],
            world: vec![Transform3::IDENTITY; n],
            local_xf: vec![Transform3::from_local([0; 6]); n],
            xf_key: vec![[0; 6]; n],
            moved: vec![false; n],
            fresh: true,
            seeded: None,
        };
        s.evaluate(list, &Transform3::IDENTITY);
        s
    }

    /// ShapeInst_AddThread: construct a thread (H4d), SetSequence(seq, 0, 0), append it as the
    /// last slot and sort (H18). Returns the thread id.
    pub fn add_thread(&mut self, list: &AnimList, seq: i16) -> Result<usize, ShapeError> {
        if self.threads.len() >= MAX_SLOTS {
            return Err(ShapeError::TooManyThreads);
        }
        if list.sequence(seq).is_none() {
            return Err(ShapeError::NoSuchSequence(seq));
        }
        let mut th = AnimationThread::new(list);
        th.set_sequence(list, seq, 0, 0);
        let id = self.threads.len();
        self.threads.push(th);
        self.slots.push(id);
        self.sort(list);
        Ok(id)
    }

    pub fn threads(&self) -> &[AnimationThread] {
        &self.threads
    }

    pub fn thread(&self, id: usize) -> Option<&AnimationThread> {
        self.threads.get(id)
    }

    pub fn thread_mut(&mut self, id: usize) -> Option<&mut AnimationThread> {
        self.threads.get_mut(id)
    }

    /// Thread ids in slot order.
    pub fn slots(&self) -> &[usize] {
        &self.slots
    }

    /// The evaluated locals, per node.
    pub fn locals(&self) -> &[Keyframe] {
        &self.locals
    }

    /// The evaluated world transforms, per node.
    pub fn world(&self) -> &[Transform3] {
        &self.world
    }

    /// The slot sort (0x478930; H18): a bubble sort that swaps neighbours only when the earlier
    /// priority is strictly greater, so equal priorities keep their current order.
    pub fn sort(&mut self, list: &AnimList) {
        let n = self.slots.len();
        for pass in 0..n {
            let mut swapped = false;
            for i in 0..n.saturating_sub(1 + pass) {
                let a = self.threads[self.slots[i]].priority(list);
                let b = self.threads[self.slots[i + 1]].priority(list);
                if a > b {
                    self.slots.swap(i, i + 1);
                    swapped = true;
                }
            }
            if !swapped {
                break;
            }
        }
    }

    /// ShapeInst_SeedRootTransform (0x478a70): write `value` into the first slot's thread.
    pub fn seed_root(&mut self, value: &Transform3) {
        if let Some(&id) = self.slots.first() {
            self.threads[id].write_root(value);
        }
    }

    /// The first slot's root read (identity for an instance without threads).
    pub fn read_root(&self) -> Transform3 {
        self.slots
            .first()
            .map_or(Transform3::IDENTITY, |&id| self.threads[id].read_root())
    }

    /// AnimThread_StepAll (0x4789a0) and the re-sort after it (H28 step 1, D4).
    pub fn step_all(&mut self, list: &AnimList, anim_delta: i16) {
        for i in 0..self.slots.len() {
            let id = self.slots[i];
            self.threads[id].advance(list, anim_delta);
        }
        self.sort(list);
    }

    /// The animation half of one simulation tick (SimObject_ApplyRootMotion, 0x40250c; H16):
    /// seed identity into slot 0, step every thread and re-sort, read slot 0 (which may be
    /// another thread than the seeded one; reproduced literally, H18), seed identity again.
    /// Returns the read: the step's root-motion delta.
    pub fn tick(&mut self, list: &AnimList, anim_delta: i16) -> Transform3 {
        if !self.seed_is_in_place() {
            self.seed_root(&Transform3::IDENTITY);
        }
        self.step_all(list, anim_delta);
        // The read and the second seed address the same (first-slot) thread.
        let Some(&id) = self.slots.first() else {
            self.seeded = None;
            return Transform3::IDENTITY;
        };
        let th = &mut self.threads[id];
        let read = th.read_then_write_root(&Transform3::IDENTITY);
        self.seeded = th.ground.then_some((id, th.g, th.acc, th.dur, th.root));
        read
    }

    /// The first-slot thread still holds exactly what the last identity seed stored, and its
    /// G, acc and dur are the ones that seed used, so seeding identity again changes nothing.
    fn seed_is_in_place(&self) -> bool {
        let (Some(&id), Some((sid, g, acc, dur, root))) = (self.slots.first(), &self.seeded) else {
            return false;
        };
        let th = &self.threads[id];
        id == *sid
            && th.ground
            && th.g == *g
            && th.acc == *acc
            && th.dur == *dur
            && th.root == *root
    }

    /// ShapeInst_EvalAllNodeLocals (0x4789f4) then the world build (0x478b58): locals are
    /// written from the last slot to the first, so the first slot wins a contested node
    /// (H17); uncovered nodes and node 0 take their rest record (D6, H12). World transforms
    /// are built parent-first with `world[0] = root_read` (H13, H28, D7).
    pub fn evaluate(&mut self, list: &AnimList, root_read: &Transform3) {
        let nodes = list.nodes();
        let keyframes = list.keyframes();
        for (local, node) in self.locals.iter_mut().zip(nodes) {
            *local = usize::try_from(node.rest)
                .ok()
                .and_then(|i| keyframes.get(i))
                .copied()
                .unwrap_or([0; 6]);
        }
        for &id in self.slots.iter().rev() {
            write_thread_locals(list, &self.threads[id], &mut self.locals);
        }
        let fresh = std::mem::replace(&mut self.fresh, false);
        for &n in list.parent_first() {
            let n = usize::from(n);
            if n == 0 {
                self.moved[0] = fresh || self.world[0] != *root_read;
                self.world[0] = *root_read;
                continue;
            }
            let local = self.locals[n];
            let mut moved = fresh;
            if local != self.xf_key[n] {
                self.xf_key[n] = local;
                self.local_xf[n] = Transform3::from_local(local);
                moved = true;
            }
            let parent = usize::try_from(nodes[n].parent).ok();
            if let Some(p) = parent {
                moved |= self.moved[p];
            }
            self.moved[n] = moved;
            if moved {
                self.world[n] = match parent {
                    Some(p) => self.local_xf[n].concat(&self.world[p]),
                    None => self.local_xf[n],
                };
            }
        }
    }
}
