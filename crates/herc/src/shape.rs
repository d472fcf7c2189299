//! A shape instance: up to 10 thread slots in priority order, the per-tick root-motion cycle
//! and the pose of every node (H13, H16–H18, H28, D4–D7).
//!
//! The instance does not own its [`AnimList`] (many instances share one); every method takes
//! it. Locals and world transforms live in buffers sized once at construction, so a steady
//! state step allocates nothing.

use crate::model::{AnimList, Keyframe, NO_PARENT};
use crate::pose::{blend, fraction, key_at, write_thread_locals};
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
    /// The evaluated locals, per node. Also the memo key of [`NodeState::xf`]: the transform of a
    /// node whose new local equals its last one is not rebuilt from its angles.
    locals: Vec<Keyframe>,
    world: Vec<Transform3>,
    /// The pose loop's per-node state in build order: entry 0 is node 0, entry `k + 1` the
    /// node at [`AnimList::build_order`]`[k]` (see [`NodeState`]).
    nodes: Vec<NodeState>,
    /// Per slot, [`Self::evaluate`]'s key rows (offsets into [`AnimList::flat_keys`]) of the
    /// current and the next cursor and the Q10 fraction.
    rows: [(usize, usize, i32); MAX_SLOTS],
    /// Scratch of [`Self::evaluate`] for a pose the cover cannot give (see [`Cover`]).
    scratch: Vec<Keyframe>,
    /// Which thread writes which node, for the current slot order and sequences.
    cover: Cover,
    /// No evaluation yet: every world transform must be built.
    fresh: bool,
    /// What the last identity seed of [`Self::tick`] left: the thread id, the G, acc and dur
    /// its partial P was built from, and the root it stored. A seed from the same inputs onto
    /// that same root would store that root again, so it is skipped.
    seeded: Option<(usize, Keyframe, i16, i16, Transform3)>,
    /// Per slot, the playing sequence of its thread when [`Self::sort`] last left the slots in
    /// order (`sorted_len` of them). The slot order depends only on those sequences'
    /// priorities, so while they are the same the slots are still in order.
    sorted: [i16; MAX_SLOTS],
    sorted_len: usize,
}

/// One node of the pose loop, in build order: where its local comes from, its parent, its
/// memoised local transform (`Transform3::from_local` of the node's current local), whether
/// that transform is in pitch form ([`Transform3::is_pitch_form`]), and whether the node's
/// world transform changed in the current pass (so its children must be rebuilt; a node
/// whose local and parent did not change keeps its world).
#[derive(Clone, Copy, Debug)]
struct NodeState {
    xf: Transform3,
    src: Source,
    /// The node id.
    node: u16,
    /// The parent's node id ([`NO_PARENT`] for none).
    parent: u16,
    /// The parent's index in [`ShapeInstance::nodes`] ([`NO_PARENT`] for none).
    parent_at: u16,
    pitch: bool,
    /// For a local in pitch form: its translation's x is 0 (its Concat then leaves out the
    /// three products of x).
    no_tx: bool,
    moved: bool,
}

impl NodeState {
    const fn new(node: u16, parent: u16, parent_at: u16) -> NodeState {
        NodeState {
            xf: Transform3::IDENTITY,
            src: Source::REST,
            node,
            parent,
            parent_at,
            pitch: false,
            no_tx: false,
            moved: false,
        }
    }

    /// Rebuild the memoised local transform from a new local.
    #[inline(never)]
    fn set_local(&mut self, local: &Keyframe) {
        let [x, y, z, tx, ty, tz] = *local;
        let t = [i32::from(tx), i32::from(ty), i32::from(tz)];
        if y == 0 && z == 0 {
            if let Some(xf) = Transform3::pitch_only(x, t) {
                self.xf = xf;
                self.pitch = true;
                self.no_tx = tx == 0;
                return;
            }
        }
        self.pitch = false;
        if x == 0 && y == 0 {
            // FromEuler's first branch: identity, or a rotation about Z (never pitch form).
            self.xf = Transform3::yaw_only(z, t);
            return;
        }
        self.set_general(*local);
    }

    /// Any other local: the full FromEuler, kept out of the pose loop.
    #[inline(never)]
    fn set_general(&mut self, local: Keyframe) {
        self.xf = Transform3::from_local(local);
        self.pitch = self.xf.is_pitch_form();
    }
}

/// Where a node's local comes from: the slot (index into `slots`) of the thread that writes
/// it last (the first slot wins, H17) and its columns, or its rest record.
#[derive(Clone, Copy, Debug)]
struct Source {
    /// Index into `slots`; [`REST`] for the rest record.
    slot: u8,
    /// Column in the thread's playing sequence.
    column: u16,
    /// Column in its next cursor's sequence; [`REST_COLUMN`] when that sequence does not
    /// animate the node, so the blend goes toward the rest record (D5).
    next_column: u16,
    /// The node's rest keyframe index (the blend target for [`REST_COLUMN`]).
    rest: i16,
}

impl Source {
    const REST: Source = Source {
        slot: REST,
        column: 0,
        next_column: REST_COLUMN,
        rest: 0,
    };
}

const REST: u8 = u8::MAX;
const REST_COLUMN: u16 = u16::MAX;

/// The per-node sources of [`write_thread_locals`] for one slot order and one (sequence,
/// next sequence) per thread. Which nodes a thread writes depends only on those, as long as
/// each thread's key rows exist (checked on every evaluation); the pose is then built node
/// by node without the rest pass and the overwrites.
#[derive(Clone, Debug, Default)]
struct Cover {
    /// (thread id, seq, next_seq) per slot, first slot first; `len` entries used.
    key: [(usize, i16, i16); MAX_SLOTS],
    len: usize,
    built: bool,
    /// Per node (scratch of the rebuild; the result goes to [`NodeState::src`]).
    by_node: Vec<Source>,
}

/// [`Transform3::concat`] for the pose loop's locals not in pitch form (fewer than half of
/// them), kept out of the loop so that its many cases do not crowd the pitch-form case's
/// registers.
#[inline(never)]
fn concat_out_of_line(a: &Transform3, b: &Transform3) -> Transform3 {
    a.concat(b)
}

/// The pose loop after node 0: per state in build order, the node's new local from
/// `local_of`, its memoised transform rebuilt when the local changed, and its world rebuilt
/// when the local or the parent's world changed (or on the first evaluation).
#[inline(always)]
fn pose_loop(
    states: &mut [NodeState],
    locals: &mut [Keyframe],
    worlds: &mut [Transform3],
    fresh: bool,
    mut local_of: impl FnMut(&NodeState) -> Keyframe,
) {
    for k in 1..states.len() {
        let parent_moved = match states.get(usize::from(states[k].parent_at)) {
            Some(p) => p.moved,
            None => false,
        };
        let st = &mut states[k];
        let local = local_of(st);
        let old = &mut locals[usize::from(st.node)];
        let changed = local
            .iter()
            .zip(old.iter())
            .fold(0, |d, (a, b)| d | (a ^ b))
            != 0;
        if changed {
            *old = local;
            // Passed where it was just stored, so no copy is made for the call.
            st.set_local(old);
        }
        let moved = fresh | parent_moved | changed;
        st.moved = moved;
        if moved {
            let world = match worlds.get(usize::from(st.parent)) {
                Some(pw) if st.pitch && st.no_tx => st.xf.concat_pitch_no_tx(pw),
                Some(pw) if st.pitch => st.xf.concat_pitch(pw),
                Some(pw) => concat_out_of_line(&st.xf, pw),
                None => st.xf,
            };
            worlds[usize::from(st.node)] = world;
        }
    }
}

/// The pose loop's states for `list`: node 0, then [`AnimList::build_order`].
fn node_states(list: &AnimList) -> Vec<NodeState> {
    let order = list.build_order();
    let mut at = vec![NO_PARENT; list.nodes().len()];
    at[0] = 0;
    for (k, &(n, _)) in order.iter().enumerate() {
        at[usize::from(n)] = (k + 1) as u16;
    }
    let mut states = Vec::with_capacity(order.len() + 1);
    states.push(NodeState::new(0, NO_PARENT, NO_PARENT));
    for &(n, parent) in order {
        let parent_at = at.get(usize::from(parent)).copied().unwrap_or(NO_PARENT);
        states.push(NodeState::new(n, parent, parent_at));
    }
    states
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
            nodes: node_states(list),
            rows: [(0, 0, 0); MAX_SLOTS],
            scratch: vec![[0; 6]; n],
            cover: Cover {
                by_node: Vec::with_capacity(n),
                ..Cover::default()
            },
            fresh: true,
            seeded: None,
            sorted: [0; MAX_SLOTS],
            sorted_len: usize::MAX,
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
        // The same sequences as when the slots were last left in order (every benchmark
        // step): they still are, and no priority needs to be looked up.
        if self.sorted_len == self.slots.len()
            && self
                .slots
                .iter()
                .zip(&self.sorted)
                .all(|(&id, &seq)| self.threads[id].seq == seq)
        {
            return;
        }
        self.sort_and_note(list);
    }

    /// [`Self::sort`] when a sequence changed: the bubble sort, and the sequences noted.
    #[inline(never)]
    fn sort_and_note(&mut self, list: &AnimList) {
        self.sort_by_priority(list);
        self.sorted_len = self.slots.len();
        for (seq, &id) in self.sorted.iter_mut().zip(&self.slots) {
            *seq = self.threads[id].seq;
        }
    }

    /// The bubble sort of [`Self::sort`], on the priorities.
    fn sort_by_priority(&mut self, list: &AnimList) {
        // Already in order (the usual case): the bubble sort's first pass would swap nothing
        // and stop; this reads each priority once instead of twice.
        let mut last = i16::MIN;
        let in_order = self.slots.iter().all(|&id| {
            let p = self.threads[id].priority(list);
            let ok = last <= p;
            last = p;
            ok
        });
        if in_order {
            return;
        }
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
        // The sort's test (every slot's thread on the sequence noted when the slots were last
        // left in order) made as each thread is stepped: a thread's advance changes only
        // that thread, and each slot holds a different thread.
        let mut same = self.sorted_len == self.slots.len();
        for i in 0..self.slots.len() {
            let id = self.slots[i];
            let th = &mut self.threads[id];
            th.advance(list, anim_delta);
            same &= self.sorted.get(i) == Some(&th.seq);
        }
        if !same {
            self.sort_and_note(list);
        }
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
        let read = th.read_then_seed_identity();
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
        self.refresh_cover(list);
        // Per slot: where the key rows of the current and the next cursor start in the
        // model's flat key pool, and the Q10 fraction. Slots the cover gives no node keep
        // stale entries, which are never read.
        let rows = &mut self.rows;
        let mut covered = true;
        for (r, &id) in rows.iter_mut().zip(&self.slots) {
            let th = &self.threads[id];
            match (
                list.key_row_at(th.seq, th.frame),
                list.key_row_at(th.next_seq, th.next_frame),
            ) {
                (Some(row), Some(next_row)) => *r = (row, next_row, fraction(th.acc, th.dur)),
                // A thread without a sequence writes nothing, as in write_thread_locals; the
                // cover gives it no node.
                _ if list.sequence(th.seq).is_none() => {}
                _ => covered = false,
            }
        }
        let keyframes = list.keyframes();
        let rest_keys = list.rest_keys();
        let fresh = std::mem::replace(&mut self.fresh, false);
        if let (Some(l0), Some(r0)) = (self.locals.first_mut(), rest_keys.first()) {
            *l0 = *r0;
        }
        if let (Some(w0), Some(x0)) = (self.world.first_mut(), self.nodes.first_mut()) {
            x0.moved = fresh || *w0 != *root_read;
            *w0 = *root_read;
        }
        if !covered || fresh {
            // The general pass gives the same locals as the cover; the first evaluation
            // (every world built) goes there too, so the common loop has no `fresh` term.
            self.evaluate_uncovered(list, fresh);
            return;
        }
        let rows = &self.rows;
        let flat = list.flat_keys();
        // Slices taken once: stores into the buffers then cannot be taken for stores into
        // `self`, so their pointers and lengths stay in registers across the loop.
        pose_loop(
            &mut self.nodes[..],
            &mut self.locals[..],
            &mut self.world[..],
            false,
            |st| {
                let src = st.src;
                if src.slot == REST {
                    return rest_keys[usize::from(st.node)];
                }
                let (row, next_row, q) = rows[usize::from(src.slot)];
                let i = flat
                    .get(row + usize::from(src.column))
                    .copied()
                    .unwrap_or(0);
                let j = if src.next_column == REST_COLUMN {
                    src.rest
                } else {
                    flat.get(next_row + usize::from(src.next_column))
                        .copied()
                        .unwrap_or(0)
                };
                let a = key_at(keyframes, i);
                if i == j {
                    a
                } else {
                    blend(&a, &key_at(keyframes, j), q)
                }
            },
        );
    }

    /// The pose for a cursor outside its sequence (rare): the general per-thread pass
    /// decides every local, kept out of [`Self::evaluate`]'s loop.
    #[inline(never)]
    fn evaluate_uncovered(&mut self, list: &AnimList, fresh: bool) {
        self.scratch.copy_from_slice(list.rest_keys());
        for &id in self.slots.iter().rev() {
            write_thread_locals(list, &self.threads[id], &mut self.scratch);
        }
        let scratch = &self.scratch[..];
        pose_loop(
            &mut self.nodes[..],
            &mut self.locals[..],
            &mut self.world[..],
            fresh,
            |st| scratch[usize::from(st.node)],
        );
    }

    /// Rebuild the cover ([`NodeState::src`]) when the slot order or a thread's sequences changed: the nodes
    /// [`write_thread_locals`] would write for each slot, applied from the last slot to the
    /// first.
    fn refresh_cover(&mut self, list: &AnimList) {
        let c = &mut self.cover;
        let same = c.built
            && c.len == self.slots.len()
            && c.key.iter().zip(&self.slots).all(|(k, &id)| {
                let th = &self.threads[id];
                *k == (id, th.seq, th.next_seq)
            });
        if same {
            return;
        }
        c.built = true;
        c.len = self.slots.len();
        // Per node first, then laid out in the build order the pose loop walks.
        c.by_node.clear();
        c.by_node.extend(list.nodes().iter().map(|node| Source {
            rest: node.rest,
            ..Source::REST
        }));
        for (k, &id) in c.key.iter_mut().zip(&self.slots) {
            let th = &self.threads[id];
            *k = (id, th.seq, th.next_seq);
        }
        for (slot, &id) in self.slots.iter().enumerate().rev() {
            let th = &self.threads[id];
            let Some(seq) = list.sequence(th.seq) else {
                continue;
            };
            for (column, &node) in seq.columns.iter().enumerate() {
                let node = node as usize;
                if node == 0 {
                    continue;
                }
                let next_column = if th.next_seq == th.seq {
                    column as u16
                } else {
                    list.column_of(th.next_seq, node)
                        .map_or(REST_COLUMN, |c| c as u16)
                };
                if let Some(s) = c.by_node.get_mut(node) {
                    s.slot = slot as u8;
                    s.column = column as u16;
                    s.next_column = next_column;
                }
            }
        }
        for st in self.nodes.iter_mut().skip(1) {
            st.src = c.by_node[usize::from(st.node)];
        }
    }
}
