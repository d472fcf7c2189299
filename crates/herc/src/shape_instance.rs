//! A shape instance: up to 10 thread slots in priority order, the per-tick root-motion cycle
//! and the pose of every node (H13, H16–H18, H28, D4–D7).
//!
//! The instance does not own its [`AnimList`] (many instances share one); every method takes
//! it. Locals and world transforms live in buffers sized once at construction, so a steady
//! state step allocates nothing.

use crate::anim_list::{AnimList, Keyframe, NO_PARENT};
use crate::pose::{blend, blend_by, fraction};
use crate::thread::AnimationThread;
use crate::transform::{Transform3, KIND_IDENTITY, KIND_Z};

/// 0, except with the test-only feature `planted-bug`, which makes the twist's blend round
/// where DBSIM floors it, so that `tests/differential.rs` can show the differential check
/// catching a wrong fast path. A constant, so the ordinary build has no trace of it.
const PLANTED_ROUNDING: i32 = if cfg!(feature = "planted-bug") {
    512
} else {
    0
};

/// Thread slots per shape instance (H17).
pub const MAX_SLOTS: usize = 10;

/// `b` with `v` appended, in a buffer of exactly the new length. The threads and the slots
/// are kept so (a boxed slice is 8 bytes smaller than a `Vec` in every instance, and
/// room for all [`MAX_SLOTS`] in every instance was once most of a HERC's memory): adding
/// a thread, never part of a steady step, allocates the grown buffer.
fn push_exact<T: Copy>(b: &mut Box<[T]>, v: T) {
    let mut grown = Vec::with_capacity(b.len() + 1);
    grown.extend_from_slice(b);
    grown.push(v);
    *b = grown.into_boxed_slice();
}

/// Why a thread could not be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("a shape instance has at most {MAX_SLOTS} threads")]
    TooManyThreads,
    #[error("sequence {0} does not exist")]
    NoSuchSequence(i16),
}

/// `ShapeInstance`: threads by id, their slot order, and the evaluated pose.
///
/// Its caches (the key rows, the cover, the node states, the slot-sort and seed memos) are
/// built for one model: the instance keeps that model's id, and every method that takes a
/// model checks it first. Given another model (a caller that mixed two), the caches are
/// dropped and rebuilt for it before anything is computed, so they can
/// never describe another model than the one passed.
#[derive(Clone, Debug)]
pub struct ShapeInstance {
    /// The id of the model the caches below were built for ([`AnimList`]'s id).
    model: u64,
    /// The threads by id (see [`push_exact`]).
    threads: Box<[AnimationThread]>,
    world: Box<[Transform3]>,
    /// The pose loop's per-node state in build order: entry 0 is node 0, entry `k + 1` the
    /// node at [`AnimList::build_order`]`[k]` (see [`NodeState`]).
    nodes: Box<[NodeState]>,
    /// The slots, first slot first: each slot's thread id and what the steady step
    /// remembers about it (see [`SlotMemo`]). One entry per slot in use, so an instance with
    /// three threads keeps three, not the ten H17 allows; the ids ride in the entries'
    /// spare bytes, so the slot order costs no buffer of its own (see [`push_exact`]).
    memo: Box<[SlotMemo]>,
    /// Which thread writes which node, for the current slot order and sequences.
    cover: Cover,
    /// No evaluation yet: every world transform must be built.
    fresh: bool,
    /// `nodes[k]` is node `k` for every k (see [`pose_loop_in_order`]); else every
    /// evaluation takes the general pass.
    in_node_order: bool,
    /// Some node has node 0 as its parent. Node 0's `moved` flag is read only by its
    /// children, so without any (the benchmark's root-motion node) the world compare that
    /// sets it is left out.
    root_has_children: bool,
    /// The thread the last identity seed of [`Self::tick`] left holding exactly what a seed
    /// of identity would store (a ground thread: the inverse of its partial P), while nothing
    /// has touched that thread since. A seed onto it would store the same root again, so it
    /// is skipped, without comparing the thread's G, acc, dur and root with a kept copy.
    /// Only [`Self::touch`] and [`Self::touch_all`] hand out threads to change, and they
    /// clear it; the debug build checks every skip against the plain seed.
    seeded: Option<u8>,
    /// How many slots [`Self::sort`] last left in order, each with its thread's playing
    /// sequence then in [`SlotMemo::sorted`] ([`NOT_SORTED`]: none).
    sorted_len: u8,
}

/// [`ShapeInstance::sorted_len`] of an instance whose slots must be sorted: no slot count
/// is this large ([`MAX_SLOTS`]).
const NOT_SORTED: u8 = u8::MAX;

/// One slot: its thread's id, and what the steady step keeps per slot: the key rows of
/// [`ShapeInstance::evaluate`], the slot's entry of the cover's key, and the sort memo's
/// sequence. The fields are loose (not tuples) so that the two ids fill the bytes the
/// rows leave and an entry stays 40 bytes.
#[derive(Clone, Copy, Debug)]
struct SlotMemo {
    rows: Rows,
    /// The slot's thread id (thread ids are below [`MAX_SLOTS`]).
    id: u8,
    /// The thread id of the slot when the cover was built.
    cover_id: u8,
    /// (seq, next_seq) of that thread when the cover was built.
    cover: (i16, i16),
    /// The playing sequence of the slot's thread when [`ShapeInstance::sort`] last left the
    /// slots in order. The slot order depends only on those sequences' priorities, so
    /// while they are the same the slots are still in order.
    sorted: i16,
}

impl SlotMemo {
    const EMPTY: SlotMemo = SlotMemo {
        rows: Rows::EMPTY,
        id: 0,
        cover_id: u8::MAX,
        cover: (-1, -1),
        sorted: 0,
    };

    /// A slot of thread `id`, remembering nothing yet.
    fn of(id: u8) -> SlotMemo {
        SlotMemo {
            id,
            ..SlotMemo::EMPTY
        }
    }

    fn thread(&self) -> usize {
        usize::from(self.id)
    }
}

/// The thread ids of `memo`'s slots as a slice, for the plain code (the reference's
/// functions) that takes them so; on the stack, as there are at most [`MAX_SLOTS`].
struct SlotIds {
    ids: [usize; MAX_SLOTS],
    len: usize,
}

impl SlotIds {
    fn of(memo: &[SlotMemo]) -> SlotIds {
        let mut ids = [0; MAX_SLOTS];
        for (d, m) in ids.iter_mut().zip(memo) {
            *d = m.thread();
        }
        SlotIds {
            ids,
            len: memo.len().min(MAX_SLOTS),
        }
    }

    fn get(&self) -> &[usize] {
        &self.ids[..self.len]
    }
}

/// One node of the pose loop, in build order: where its local comes from (a [`Source`], its
/// fields kept loose so that the state packs into 44 bytes), its memoised local transform
/// (`Transform3::from_local` of the node's current local) and which Concat it takes
/// ([`Form`]), and whether the node's world transform changed in the current pass (so its
/// children must be rebuilt; a node whose local and parent did not change keeps its
/// world). The node's id is the model's ([`AnimList::build_order`]): the same for every
/// instance, so not kept per instance; its parent is kept, as the pose loop reads it for
/// every node (read from the model, it took one more register in the loop and about 55
/// instructions more per step). Whether a node's world changed is kept for one pass only,
/// on the pose loop's stack ([`pose_loop_in_order`]), and a rest source's pending compare
/// is a second rest value of the slot, so that the state is 40 bytes, not 44.
#[derive(Clone, Copy, Debug)]
struct NodeState {
    xf: Transform3,
    /// The parent's node id ([`NO_PARENT`] for none).
    parent: u16,
    /// [`Source::column`].
    column: u16,
    /// [`Source::next_column`].
    next_column: u16,
    /// [`Source::slot`], except that a rest source is [`REST_DIRTY`] while the cover was
    /// rebuilt since the rest record was last taken: the local must be compared with it
    /// once. A node with a rest source otherwise holds its rest record (no thread writes
    /// it, in the cover or in the general pass), so the loop leaves its local as it is.
    slot: u8,
    /// One of the [`Form`] constants.
    form: u8,
}

/// [`NodeState::slot`] of a rest source whose local must be compared with its rest record
/// once (see there); past the ten slots, as [`REST`] is.
const REST_DIRTY: u8 = REST - 1;

thread_local! {
    /// The locals the general pass writes (it poses every node from them); one buffer per
    /// thread rather than a local per node in every instance.
    static GENERAL_LOCALS: std::cell::RefCell<Vec<Keyframe>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Models with at most this many nodes take [`pose_loop_in_order`], whose per-node flags
/// live on its stack; larger ones take the general pass every evaluation.
const POSE_LOOP_NODES: usize = 128;

/// Which Concat a node's memoised local takes, by its form.
struct Form;

impl Form {
    /// None of the others: the general Concat's cases.
    const OTHER: u8 = 0;
    /// In pitch form ([`Transform3::is_pitch_form`]).
    const PITCH: u8 = 1;
    /// In pitch form with a translation whose x is 0 (its Concat then leaves out the three
    /// products of x).
    const PITCH_NO_TX: u8 = 2;
    /// FromEuler(x, 0, 0) not in pitch form: general, with `m1 = m6 = 0`
    /// ([`Transform3::concat_m1_m6_zero_into`]).
    const PITCH_GENERAL: u8 = 3;

    /// [`Form::PITCH`] or [`Form::PITCH_NO_TX`] by the translation's x.
    #[inline(always)]
    fn pitch(tx: i16) -> u8 {
        if tx == 0 {
            Form::PITCH_NO_TX
        } else {
            Form::PITCH
        }
    }
}

impl NodeState {
    const NEW: NodeState = NodeState {
        xf: Transform3::IDENTITY,
        parent: NO_PARENT,
        column: Source::REST.column,
        next_column: Source::REST.next_column,
        slot: REST_DIRTY,
        form: Form::OTHER,
    };

    fn src(&self) -> Source {
        Source {
            slot: if self.slot == REST_DIRTY {
                REST
            } else {
                self.slot
            },
            column: self.column,
            next_column: self.next_column,
        }
    }

    /// The cover was rebuilt: a rest source compares its local with its rest record once.
    fn mark_rest_dirty(&mut self) {
        if self.slot == REST {
            self.slot = REST_DIRTY;
        }
    }

    /// The local of a rest source is its rest record.
    fn mark_rest_clean(&mut self) {
        if self.slot == REST_DIRTY {
            self.slot = REST;
        }
    }

    fn set_src(&mut self, src: Source) {
        self.slot = src.slot;
        self.column = src.column;
        self.next_column = src.next_column;
    }

    /// Rebuild the memoised local transform from a new local.
    #[inline(always)]
    fn set_local(&mut self, local: &Keyframe) {
        let [_, y, z, ..] = *local;
        if y == 0 && z == 0 {
            self.set_local_x(local);
            return;
        }
        self.set_local_rotated(local);
    }

    /// [`NodeState::set_local`] of a local whose y and z are 0 (a pitch, or no rotation).
    #[inline(always)]
    fn set_local_x(&mut self, local: &Keyframe) {
        let [x, _, _, tx, ty, tz] = *local;
        let t = [i32::from(tx), i32::from(ty), i32::from(tz)];
        if let Some(xf) = Transform3::pitch_only(x, t) {
            self.xf = xf;
            self.form = Form::pitch(tx);
            return;
        }
        if x != 0 {
            // Not in pitch form (pitch_only answers for every x ≠ 0 that is).
            self.xf = Transform3::pitch_general(x, t);
            self.form = Form::PITCH_GENERAL;
            return;
        }
        self.set_local_rotated(local);
    }

    /// [`NodeState::set_local`] of a local that is neither a pitch nor a pitch-form FromEuler
    /// of x alone.
    #[inline(always)]
    fn set_local_rotated(&mut self, local: &Keyframe) {
        let [x, y, z, tx, ty, tz] = *local;
        let t = [i32::from(tx), i32::from(ty), i32::from(tz)];
        self.form = Form::OTHER;
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
        // A small roll or yaw can leave FromEuler in pitch form; the no-x Concat must then
        // see this local's translation, not the form of an earlier one.
        self.form = if self.xf.is_pitch_form() {
            Form::pitch(local[3])
        } else {
            Form::OTHER
        };
    }
}

/// One slot's key rows for [`ShapeInstance::evaluate`]: offsets into
/// [`AnimList::flat_values`] of the current and the next cursor, the Q10 fraction, whether
/// the next cursor is the sequence's next frame (the blend then takes the segment's
/// difference), and the thread's (seq, frame, next_seq, next_frame) they were looked up for
/// ([`Rows::NONE`] when they are not valid): the rows depend only on those four values, so
/// they are looked up again only when one of them changed. The offsets are kept in 32 bits
/// (a pool past them takes the general pass), so that a slot's entry is 32 bytes.
#[derive(Clone, Copy, Debug)]
struct Rows {
    row: u32,
    next_row: u32,
    q: i32,
    cursor: [i16; 4],
    natural: bool,
}

impl Rows {
    /// A `cursor` no valid rows have: sequence −1 has no rows.
    const NONE: [i16; 4] = [-1; 4];

    const EMPTY: Rows = Rows {
        row: 0,
        next_row: 0,
        q: 0,
        natural: false,
        cursor: Rows::NONE,
    };

    /// Whether these rows were looked up for `th`'s cursor. A negative sequence has no
    /// rows, so [`Rows::NONE`] never matches. Four compares of values mostly loaded for the
    /// cover's check already; packing the four into one `u64` took more instructions.
    #[inline(always)]
    fn are_for(&self, th: &AnimationThread) -> bool {
        self.cursor[0] == th.seq
            && self.cursor[1] == th.frame
            && self.cursor[2] == th.next_seq
            && self.cursor[3] == th.next_frame
            && th.seq >= 0
    }
}

/// Where a node's local comes from: the slot (index into `slots`) of the thread that writes
/// it last (the first slot wins, H17) and its columns, or its rest record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Source {
    /// Index into `slots`; [`REST`] for the rest record.
    slot: u8,
    /// Column in the thread's playing sequence.
    column: u16,
    /// Column in its next cursor's sequence; [`REST_COLUMN`] when that sequence does not
    /// animate the node, so the blend goes toward the node's rest record (D5).
    next_column: u16,
}

impl Source {
    const REST: Source = Source {
        slot: REST,
        column: 0,
        next_column: REST_COLUMN,
    };
}

const REST: u8 = u8::MAX;
const REST_COLUMN: u16 = u16::MAX;

/// The per-node sources of [`crate::pose::thread_local`] for one slot order and one (sequence,
/// next sequence) per thread. Which nodes a thread writes depends only on those, as long as
/// each thread's key rows exist (checked on every evaluation); the pose is then built node
/// by node without the rest pass and the overwrites.
/// Its key, per slot, is [`SlotMemo::cover`].
#[derive(Clone, Debug, Default)]
struct Cover {
    /// How many slots the key has.
    len: u8,
    built: bool,
}

/// [`Transform3::concat`] for the pose loop's locals not in pitch form (fewer than half of
/// them), kept out of the loop so that its many cases do not crowd the pitch-form case's
/// registers.
#[inline(never)]
fn concat_out_of_line(a: &Transform3, b: &Transform3) -> Transform3 {
    a.concat(b)
}

/// [`Transform3::concat_m1_m6_zero_into`] kept out of the pose loop: about one blended pitch
/// in sixteen is not in pitch form, so its registers need not be reserved in the loop.
#[inline(never)]
fn concat_m1_m6_zero_out_of_line(a: &Transform3, b: &Transform3, out: &mut Transform3) {
    a.concat_m1_m6_zero_into(b, out);
}

/// [`Transform3::concat_z_z_into`] kept out of the pose loop (one node of a turning HERC).
#[inline(never)]
fn concat_z_z_out_of_line(a: &Transform3, b: &Transform3, out: &mut Transform3) {
    a.concat_z_z_into(b, out);
}

/// A node's world transform from its memoised local and its parent's world (`None` for a
/// node without a parent), written into `out`: Concat, with the pitch-form cases inline.
#[inline(always)]
fn world_into(st: &NodeState, parent: Option<&Transform3>, out: &mut Transform3) {
    match parent {
        Some(pw) if st.form == Form::PITCH_NO_TX => st.xf.concat_pitch_no_tx_into(pw, out),
        Some(pw) if st.form == Form::PITCH => st.xf.concat_pitch_into(pw, out),
        // Concat's first branch: a translation-only local (the unanimated forearms) takes
        // the parent's rotation and kind.
        Some(pw) if st.xf.kind == KIND_IDENTITY => {
            out.t = if st.xf.t[0] == 0 && st.xf.t[1] == 0 {
                // A translation along z alone (the forearms): x's and y's products are 0
                // in Apply's exact 64-bit sums.
                pw.apply_z(st.xf.t[2])
            } else {
                pw.apply(st.xf.t)
            };
            out.m = pw.m;
            out.kind = pw.kind;
        }
        // Concat's second branch: a parent without rotation (the torso's twist on a pelvis
        // that walks or runs straight).
        Some(pw) if pw.kind == KIND_IDENTITY => st.xf.concat_identity_b_into(pw, out),
        Some(pw) if st.form == Form::PITCH_GENERAL => {
            concat_m1_m6_zero_out_of_line(&st.xf, pw, out)
        }
        // Two rotations about Z (the twist on a turning pelvis).
        Some(pw) if st.xf.kind == KIND_Z && pw.kind == KIND_Z => {
            concat_z_z_out_of_line(&st.xf, pw, out)
        }
        Some(pw) => *out = concat_out_of_line(&st.xf, pw),
        None => *out = st.xf,
    }
}

/// The new local of a state: its transform rebuilt. Returns whether the transform changed
/// (or may have): the world is a function of the transform and the parent's world, so an
/// equal transform keeps it. `x_only`: the local's y and z are known to be 0.
#[inline(always)]
fn take_local(st: &mut NodeState, (local, x_only): (Keyframe, bool)) -> bool {
    if x_only {
        // A pitch blended along a segment changes almost every step (in the benchmark all
        // but a few of these locals do): the transform is rebuilt without the compare, from
        // one table read. An unchanged local rebuilds the same transform and world.
        st.set_local_x(&local);
        return true;
    }
    let old = st.xf;
    st.set_local(&local);
    st.xf != old
}

/// The pose loop after node 0, for states in node order (`states[k].node == k`, every
/// model that numbers parents before children) after the first evaluation: per node, its
/// new local from `local_of` (`None`: unchanged), its memoised transform rebuilt when the
/// local changed, and its world rebuilt when the local or the parent's world changed. The
/// state, local and world of node `k` are
/// entry `k` of their buffers and a parent's are among the entries before it, so the
/// buffers are walked with one index and split at it, without per-node bounds checks.
/// Whether each node's world changed in this pass (`root_moved` for node 0) is kept in an
/// array on the stack, as only this pass reads it: at most [`POSE_LOOP_NODES`] states
/// (the caller sends larger models to the general pass; here they would be left as
/// they are).
#[inline(always)]
fn pose_loop_in_order(
    states: &mut [NodeState],
    worlds: &mut [Transform3],
    root_moved: bool,
    mut local_of: impl FnMut(&mut NodeState, usize) -> Option<(Keyframe, bool)>,
) {
    let n = states.len();
    let mut moved_by_node = [false; POSE_LOOP_NODES];
    let (Some(worlds), Some(moved_by_node)) = (worlds.get_mut(..n), moved_by_node.get_mut(..n))
    else {
        return;
    };
    if let Some(m0) = moved_by_node.first_mut() {
        *m0 = root_moved;
    }
    for k in 1..n {
        let (done_w, rest_w) = worlds.split_at_mut(k);
        let (done_m, rest_m) = moved_by_node.split_at_mut(k);
        let (Some(st), Some(w), Some(m)) =
            (states.get_mut(k), rest_w.first_mut(), rest_m.first_mut())
        else {
            return;
        };
        let parent = usize::from(st.parent);
        let parent_moved = done_m.get(parent).is_some_and(|&p| p);
        // None: a rest source whose local is its rest record already.
        let changed = match local_of(st, k) {
            Some(local) => take_local(st, local),
            None => false,
        };
        let moved = parent_moved | changed;
        *m = moved;
        if moved {
            world_into(st, done_w.get(parent), w);
        }
    }
}

/// The pose loop's states for `list`: node 0, then [`AnimList::build_order`].
fn node_states(list: &AnimList) -> Box<[NodeState]> {
    std::iter::once(NO_PARENT)
        .chain(list.build_order().iter().map(|&(_, parent)| parent))
        .map(|parent| NodeState {
            parent,
            ..NodeState::NEW
        })
        .collect()
}

/// The node of each pose-loop state: node 0, then [`AnimList::build_order`]'s.
fn state_nodes(list: &AnimList) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(list.build_order().iter().map(|&(n, _)| usize::from(n)))
}

impl ShapeInstance {
    /// An instance with no threads; the pose is every node's rest record.
    pub fn new(list: &AnimList) -> ShapeInstance {
        let n = list.nodes().len();
        let mut s = ShapeInstance {
            model: list.id(),
            threads: Box::default(),
            world: vec![Transform3::IDENTITY; n].into_boxed_slice(),
            nodes: node_states(list),
            memo: Box::default(),
            cover: Cover::default(),
            fresh: true,
            in_node_order: false,
            root_has_children: false,
            seeded: None,
            sorted_len: NOT_SORTED,
        };
        s.note_node_order(list);
        s.evaluate(list, &Transform3::IDENTITY);
        s
    }

    /// The flags [`Self::evaluate`] reads of the model's build order.
    fn note_node_order(&mut self, list: &AnimList) {
        self.in_node_order = state_nodes(list).enumerate().all(|(k, n)| n == k);
        self.root_has_children = list.build_order().iter().any(|&(_, parent)| parent == 0);
    }

    /// Every method that takes a model calls this first: for another model than the caches
    /// were built for, drop them and size the buffers for it. The threads stay (their ids
    /// are the caller's); every cache is then rebuilt from the threads and this model.
    #[inline(always)]
    fn bind(&mut self, list: &AnimList) {
        if self.model != list.id() {
            self.rebind(list);
        }
    }

    #[inline(never)]
    fn rebind(&mut self, list: &AnimList) {
        let n = list.nodes().len();
        self.model = list.id();
        self.world = vec![Transform3::IDENTITY; n].into_boxed_slice();
        self.nodes = node_states(list);
        for m in &mut self.memo {
            *m = SlotMemo::of(m.id);
        }
        self.cover = Cover::default();
        self.fresh = true;
        self.sorted_len = NOT_SORTED;
        Self::touch_all(&mut self.seeded, &mut self.threads);
        self.note_node_order(list);
    }

    /// The one door to changing a thread: a seed skipped for it ([`Self::seeded`]) would no
    /// longer be what a seed stores, so the mark goes.
    #[inline(always)]
    fn touch(&mut self, id: usize) -> Option<&mut AnimationThread> {
        if self.seeded.map(usize::from) == Some(id) {
            self.seeded = None;
        }
        self.threads.get_mut(id)
    }

    /// [`Self::touch`] of every thread; on the two fields, so that the slots can be read
    /// while the threads change.
    #[inline(always)]
    fn touch_all<'a>(
        seeded: &mut Option<u8>,
        threads: &'a mut Box<[AnimationThread]>,
    ) -> &'a mut Box<[AnimationThread]> {
        *seeded = None;
        threads
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
        self.bind(list);
        let mut th = AnimationThread::new(list);
        th.set_sequence(list, seq, 0, 0);
        let id = self.threads.len();
        push_exact(Self::touch_all(&mut self.seeded, &mut self.threads), th);
        // id < MAX_SLOTS (checked above).
        push_exact(&mut self.memo, SlotMemo::of(id as u8));
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
        self.touch(id)
    }

    /// Thread ids in slot order.
    pub fn slots(&self) -> Vec<usize> {
        self.memo.iter().map(SlotMemo::thread).collect()
    }

    /// The locals the threads give now, per node: those the last [`Self::evaluate`] of `list`
    /// posed, unless a thread changed since. Computed again by the plain evaluation of the
    /// threads, as the instance keeps only their transforms (a local per node was a ninth
    /// of a HERC's memory, and no step reads it back).
    pub fn locals(&self, list: &AnimList) -> Vec<Keyframe> {
        let mut locals = vec![[0; 6]; list.nodes().len()];
        crate::reference::evaluate_locals(
            list,
            &self.threads,
            SlotIds::of(&self.memo).get(),
            &mut locals,
        );
        locals
    }

    /// Every node state's memoised transform is FromEuler of `locals`' record for its node
    /// (the tests' check that [`Self::locals`] gives what the last evaluation posed).
    #[cfg(test)]
    fn transforms_are_of(&self, list: &AnimList, locals: &[Keyframe]) -> bool {
        self.nodes
            .iter()
            .zip(state_nodes(list))
            .skip(1)
            .all(|(st, node)| locals.get(node).map(|&l| Transform3::from_local(l)) == Some(st.xf))
    }

    /// The evaluated world transforms, per node.
    pub fn world(&self) -> &[Transform3] {
        &self.world
    }

    /// The slot sort (0x478930; H18): a bubble sort that swaps neighbours only when the earlier
    /// priority is strictly greater, so equal priorities keep their current order.
    pub fn sort(&mut self, list: &AnimList) {
        self.bind(list);
        // The same sequences as when the slots were last left in order (every benchmark
        // step): they still are, and no priority needs to be looked up.
        if usize::from(self.sorted_len) == self.memo.len()
            && self
                .memo
                .iter()
                .all(|m| self.threads[m.thread()].seq == m.sorted)
        {
            debug_assert!(self.slots_in_order(list));
            return;
        }
        self.sort_and_note(list);
    }

    /// The slot order a sort leaves: priorities never fall from one slot to the next (the
    /// debug build's check of the sort memo's hits).
    fn slots_in_order(&self, list: &AnimList) -> bool {
        let mut slots = self.slots();
        crate::reference::sort(list, &self.threads, &mut slots);
        slots == self.slots()
    }

    /// [`Self::sort`] when a sequence changed: the bubble sort, and the sequences noted.
    #[inline(never)]
    fn sort_and_note(&mut self, list: &AnimList) {
        self.sort_by_priority(list);
        self.sorted_len = self.memo.len() as u8;
        for m in &mut self.memo {
            m.sorted = self.threads[m.thread()].seq;
        }
    }

    /// The bubble sort of [`Self::sort`], on the priorities.
    fn sort_by_priority(&mut self, list: &AnimList) {
        // Already in order (the usual case): the bubble sort's first pass would swap nothing
        // and stop; this reads each priority once instead of twice.
        let mut last = i16::MIN;
        let in_order = self.memo.iter().all(|m| {
            let p = self.threads[m.thread()].priority(list);
            let ok = last <= p;
            last = p;
            ok
        });
        if in_order {
            return;
        }
        let n = self.memo.len();
        for pass in 0..n {
            let mut swapped = false;
            for i in 0..n.saturating_sub(1 + pass) {
                let a = self.threads[self.memo[i].thread()].priority(list);
                let b = self.threads[self.memo[i + 1].thread()].priority(list);
                if a > b {
                    // Only the ids move: the rest of an entry (the cover's key) is the
                    // slot's, as the cover's sources name slots, not threads.
                    let id = self.memo[i].id;
                    self.memo[i].id = self.memo[i + 1].id;
                    self.memo[i + 1].id = id;
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
        if let Some(id) = self.memo.first().map(SlotMemo::thread) {
            if let Some(th) = self.touch(id) {
                th.write_root(value);
            }
        }
    }

    /// The first slot's root read (identity for an instance without threads).
    pub fn read_root(&self) -> Transform3 {
        self.memo.first().map_or(Transform3::IDENTITY, |m| {
            self.threads[m.thread()].read_root()
        })
    }

    /// AnimThread_StepAll (0x4789a0) and the re-sort after it (H28 step 1, D4).
    pub fn step_all(&mut self, list: &AnimList, anim_delta: i16) {
        self.bind(list);
        self.step_threads(list, anim_delta);
    }

    /// [`Self::step_all`] for a bound model.
    #[inline(always)]
    fn step_threads(&mut self, list: &AnimList, anim_delta: i16) {
        // The sort's test (every slot's thread on the sequence noted when the slots were last
        // left in order) made as each thread is stepped: a thread's advance changes only
        // that thread, and each slot holds a different thread.
        let mut same = usize::from(self.sorted_len) == self.memo.len();
        let threads = Self::touch_all(&mut self.seeded, &mut self.threads);
        for m in &self.memo {
            let th = &mut threads[m.thread()];
            th.advance(list, anim_delta);
            same &= m.sorted == th.seq;
        }
        if !same {
            self.sort_and_note(list);
        }
        debug_assert!(self.slots_in_order(list));
    }

    /// Thread `id` holds what the plain seed of identity would store (the debug build's check
    /// of a skipped seed).
    fn seed_is_stored(&self, id: usize) -> bool {
        let mut th = self.threads[id];
        crate::reference::write_root(&mut th, &Transform3::IDENTITY);
        th.root == self.threads[id].root
    }

    /// The animation half of one simulation tick (SimObject_ApplyRootMotion, 0x40250c; H16):
    /// seed identity into slot 0, step every thread and re-sort, read slot 0 (which may be
    /// another thread than the seeded one; reproduced literally, H18), seed identity again.
    /// Returns the read: the step's root-motion delta.
    pub fn tick(&mut self, list: &AnimList, anim_delta: i16) -> Transform3 {
        // The first-slot thread untouched since the last tick's second seed already holds
        // what this seed would store. (Without slots both are None and the seed would do
        // nothing.)
        self.bind(list);
        if self.seeded != self.memo.first().map(|m| m.id) {
            self.seed_root(&Transform3::IDENTITY);
        } else {
            debug_assert!(self
                .seeded
                .is_none_or(|id| self.seed_is_stored(usize::from(id))));
        }
        self.step_threads(list, anim_delta);
        // The read and the second seed address the same (first-slot) thread.
        let Some(id) = self.memo.first().map(SlotMemo::thread) else {
            return Transform3::IDENTITY;
        };
        let Some(th) = self.touch(id) else {
            return Transform3::IDENTITY;
        };
        let read = th.read_then_seed_identity();
        let ground = th.ground;
        // Thread ids are below MAX_SLOTS.
        self.seeded = ground.then_some(id as u8);
        read
    }

    /// ShapeInst_EvalAllNodeLocals (0x4789f4) then the world build (0x478b58): locals are
    /// written from the last slot to the first, so the first slot wins a contested node
    /// (H17); uncovered nodes and node 0 take their rest record (D6, H12). World transforms
    /// are built parent-first with `world[0] = root_read` (H13, H28, D7).
    pub fn evaluate(&mut self, list: &AnimList, root_read: &Transform3) {
        self.bind(list);
        // Per slot: where the key rows of the current and the next cursor start in the
        // model's flat key pool, and the Q10 fraction. Slots the cover gives no node keep
        // stale entries, which are never read. The same pass checks the cover's key (the
        // slot order and each thread's sequences); the rows do not depend on the cover.
        let c = &self.cover;
        let mut same = c.built && usize::from(c.len) == self.memo.len();
        let mut covered = true;
        for m in self.memo.iter_mut() {
            let th = &self.threads[m.thread()];
            same &= m.cover_id == m.id && m.cover == (th.seq, th.next_seq);
            let r = &mut m.rows;
            if r.are_for(th) {
                // The same cursor as when the rows were looked up: the same rows.
                debug_assert_eq!(
                    list.key_rows_at(th.seq, th.frame, th.next_seq, th.next_frame),
                    Some((r.row as usize, r.next_row as usize, r.natural))
                );
                r.q = fraction(th.acc, th.dur);
                continue;
            }
            r.cursor = Rows::NONE;
            let rows = list
                .key_rows_at(th.seq, th.frame, th.next_seq, th.next_frame)
                .map(|(row, next_row, natural)| {
                    (u32::try_from(row), u32::try_from(next_row), natural)
                });
            match rows {
                Some((Ok(row), Ok(next_row), natural)) => {
                    *r = Rows {
                        row,
                        next_row,
                        q: fraction(th.acc, th.dur),
                        natural,
                        cursor: [th.seq, th.frame, th.next_seq, th.next_frame],
                    }
                }
                // A thread without a sequence writes nothing, as in the plain evaluate; the
                // cover gives it no node.
                _ if list.sequence(th.seq).is_none() => {}
                _ => covered = false,
            }
        }
        if !same {
            self.rebuild_cover(list);
        } else {
            debug_assert!(self.cover_is_current(list));
        }
        let rest_keys = list.rest_keys();
        let fresh = std::mem::replace(&mut self.fresh, false);
        let mut root_moved = false;
        if let Some(w0) = self.world.first_mut() {
            root_moved = self.root_has_children && (fresh || *w0 != *root_read);
            *w0 = *root_read;
        }
        if !covered || fresh || !self.in_node_order || self.nodes.len() > POSE_LOOP_NODES {
            // The general pass gives the same locals as the cover; the first evaluation
            // (every world built) goes there too, so the common loop has no `fresh` term.
            self.evaluate_uncovered(list, root_read);
            return;
        }
        let memo = &self.memo[..];
        let values = list.flat_values();
        let mask = values.len().wrapping_sub(1);
        // Slices taken once: stores into the buffers then cannot be taken for stores into
        // `self`, so their pointers and lengths stay in registers across the loop.
        pose_loop_in_order(
            &mut self.nodes[..],
            &mut self.world[..],
            root_moved,
            |st, k| {
                // REST (255) is past the ten slots, so one test serves both.
                let Some(&SlotMemo {
                    rows:
                        Rows {
                            row,
                            next_row,
                            q,
                            natural,
                            ..
                        },
                    ..
                }) = memo.get(usize::from(st.slot))
                else {
                    if st.slot != REST_DIRTY {
                        return None;
                    }
                    st.slot = REST;
                    return Some((rest_keys[k], false));
                };
                // Each offset is a key row plus a column of its sequence, in range; the mask
                // (the pool's length is a power of two) only lets the compiler see that.
                let sg = &values[(row as usize + usize::from(st.column)) & mask];
                if natural {
                    // The next key is this column's in the sequence's next frame: the
                    // difference is the segment's.
                    if sg.x_only {
                        // Every other difference is 0: those components are a's.
                        let [x, _, _, tx, ty, tz] = sg.a;
                        let x = x.wrapping_add((i32::from(sg.d[0]).wrapping_mul(q) >> 10) as i16);
                        return Some(([x, 0, 0, tx, ty, tz], true));
                    }
                    if sg.z_only {
                        // Every other difference is 0: those components are a's.
                        let [_, _, z, tx, ty, tz] = sg.a;
                        let z = z.wrapping_add(
                            (i32::from(sg.d[2])
                                .wrapping_mul(q)
                                .wrapping_add(PLANTED_ROUNDING)
                                >> 10) as i16,
                        );
                        return Some(([0, 0, z, tx, ty, tz], false));
                    }
                    return Some((blend_by(&sg.a, &sg.d, q), false));
                }
                let a = sg.a;
                let b = if st.next_column == REST_COLUMN {
                    rest_keys[k]
                } else {
                    values[(next_row as usize + usize::from(st.next_column)) & mask].a
                };
                // Equal keys blend to `a` itself (every difference is 0), so no test.
                Some((blend(&a, &b, q), false))
            },
        );
    }

    /// The pose the cover cannot give (a cursor outside its sequence, a model that numbers a
    /// child before its parent) and the first evaluation: the reference's plain evaluate
    /// ([`crate::reference::evaluate`]), then every node state's memoised local transform
    /// taken from the new locals, so that the next evaluation's loop starts from them.
    #[inline(never)]
    fn evaluate_uncovered(&mut self, list: &AnimList, root_read: &Transform3) {
        GENERAL_LOCALS.with_borrow_mut(|locals| {
            // Grown to the largest model seen on this thread, never shrunk: no steady step
            // allocates.
            let n = list.nodes().len();
            if locals.len() < n {
                locals.resize(n, [0; 6]);
            }
            let locals = &mut locals[..n];
            crate::reference::evaluate(
                list,
                &self.threads,
                SlotIds::of(&self.memo).get(),
                root_read,
                locals,
                &mut self.world,
            );
            for (st, node) in self.nodes.iter_mut().zip(state_nodes(list)).skip(1) {
                if let Some(local) = locals.get(node) {
                    st.set_local(local);
                }
                // The locals of rest sources are their rest records: nothing to compare.
                st.mark_rest_clean();
            }
        });
    }

    /// The cover is the one [`Self::rebuild_cover`] would build now (the debug build's
    /// check of the cover's hits).
    fn cover_is_current(&self, list: &AnimList) -> bool {
        let mut by_node = Vec::new();
        sources(
            list,
            &self.threads,
            SlotIds::of(&self.memo).get(),
            &mut by_node,
        );
        self.nodes
            .iter()
            .zip(state_nodes(list))
            .skip(1)
            .all(|(st, node)| by_node.get(node) == Some(&st.src()))
    }

    /// Rebuild the cover ([`NodeState::src`]) after the slot order or a thread's sequences
    /// changed (see [`sources`]).
    #[inline(never)]
    fn rebuild_cover(&mut self, list: &AnimList) {
        let c = &mut self.cover;
        c.built = true;
        c.len = self.memo.len() as u8;
        for m in &mut self.memo {
            let th = &self.threads[m.thread()];
            m.cover_id = m.id;
            m.cover = (th.seq, th.next_seq);
        }
        // Written straight into the states (no per-node scratch kept on the instance).
        write_sources(
            list,
            &self.threads,
            SlotIds::of(&self.memo).get(),
            &mut self.nodes,
            self.in_node_order,
        );
        for st in self.nodes.iter_mut().skip(1) {
            st.mark_rest_dirty();
        }
    }
}

/// Per node, where its local comes from for these slots: the nodes the reference's
/// evaluate has each slot's thread write ([`crate::pose::thread_local`]), applied from the
/// last slot to the first, else the rest record. Which nodes a thread writes depends only
/// on its sequence and next sequence, while its key rows exist.
fn sources(
    list: &AnimList,
    threads: &[AnimationThread],
    slots: &[usize],
    by_node: &mut Vec<Source>,
) {
    by_node.clear();
    by_node.resize(list.nodes().len(), Source::REST);
    for (slot, &id) in slots.iter().enumerate().rev() {
        let th = &threads[id];
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
            if let Some(s) = by_node.get_mut(node) {
                s.slot = slot as u8;
                s.column = column as u16;
                s.next_column = next_column;
            }
        }
    }
}

/// [`sources`] written into the node states after node 0 (each state's `src` for its
/// node), in the same order of writes, so the last write for a node (its first slot)
/// wins as there. `in_order`: `states[k]` is node `k` (else a node's state is searched;
/// a rebuild is rare).
fn write_sources(
    list: &AnimList,
    threads: &[AnimationThread],
    slots: &[usize],
    states: &mut [NodeState],
    in_order: bool,
) {
    let nodes = list.nodes();
    for st in states.iter_mut().skip(1) {
        st.set_src(Source::REST);
    }
    for (slot, &id) in slots.iter().enumerate().rev() {
        let th = &threads[id];
        let Some(seq) = list.sequence(th.seq) else {
            continue;
        };
        for (column, &node) in seq.columns.iter().enumerate() {
            let node = node as usize;
            if node == 0 || node >= nodes.len() {
                continue;
            }
            let next_column = if th.next_seq == th.seq {
                column as u16
            } else {
                list.column_of(th.next_seq, node)
                    .map_or(REST_COLUMN, |c| c as u16)
            };
            let at = if in_order {
                Some(node)
            } else {
                state_nodes(list).position(|n| n == node)
            };
            if let Some(st) = at.and_then(|k| states.get_mut(k)).filter(|_| at != Some(0)) {
                st.set_src(Source {
                    slot: slot as u8,
                    column: column as u16,
                    next_column,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim_list::{Frame, Node, SeqClass, Sequence};

    /// Root node 0, a parent at (10, 0, 0) turned a quarter about Z, and a child whose one
    /// sequence moves it from (100, 0, 0) to (200, 0, 0) over a 10-tick frame. `child` and
    /// `parent` are the two nodes' ids.
    fn two_node_model(child: usize, parent: usize) -> AnimList {
        let mut nodes = vec![
            Node {
                parent: -1,
                rest: 0
            };
            3
        ];
        nodes[parent] = Node {
            parent: -1,
            rest: 1,
        };
        nodes[child] = Node {
            parent: parent as i16,
            rest: 2,
        };
        moved_child_model(nodes, child)
    }

    /// `nodes` with one sequence: node `child` moved from (100, 0, 0) to (200, 0, 0) over a
    /// 10-tick frame (keyframe 1, a quarter turn about Z at (10, 0, 0), is its parent's rest).
    fn moved_child_model(nodes: Vec<Node>, child: usize) -> AnimList {
        let keyframes = vec![
            [0; 6],
            [0, 0, 16384, 10, 0, 0],
            [0, 0, 0, 100, 0, 0],
            [0, 0, 0, 200, 0, 0],
        ];
        let frame = Frame {
            duration: 10,
            first_transition: 0,
            transition_count: 0,
        };
        let seq = Sequence {
            name: None,
            class: SeqClass::Cyclic,
            priority: 0,
            ground: false,
            columns: vec![0, child as i16],
            frames: vec![frame, frame],
            keys: vec![0, 2, 0, 3],
        };
        AnimList::new(nodes, keyframes, vec![seq], vec![]).expect("valid model")
    }

    #[test]
    fn an_instance_given_another_model_rebuilds_its_caches_for_it() {
        // Built and stepped on the sample biped (15 nodes, the walk in slot 0), then ticked
        // and posed with the two-node model (3 nodes): every cache is rebuilt for the
        // second model, so the pose is the plain evaluation of its threads on that model.
        let biped = crate::bench::sample_biped();
        let mut s = ShapeInstance::new(&biped);
        let id = s.add_thread(&biped, 1).expect("walk exists");
        s.thread_mut(id).expect("thread").set_rate(&biped, 256);
        s.tick(&biped, 7);
        s.evaluate(&biped, &Transform3::IDENTITY);
        assert_eq!(s.locals(&biped).len(), 15);
        let other = two_node_model(2, 1);
        s.thread_mut(id)
            .expect("thread")
            .set_sequence(&other, 0, 0, 0);
        let read = s.tick(&other, 5);
        s.evaluate(&other, &read);
        assert_eq!((s.locals(&other).len(), s.world().len()), (3, 3));
        // Half-way through frame 0 of the child's sequence: x 100 → 200 at q 512 is 150.
        assert_eq!(s.locals(&other)[2], [0, 0, 0, 150, 0, 0]);
        let (mut locals, mut world) = (vec![[0; 6]; 3], vec![Transform3::IDENTITY; 3]);
        crate::reference::evaluate(
            &other,
            s.threads(),
            &s.slots(),
            &read,
            &mut locals,
            &mut world,
        );
        assert_eq!(s.locals(&other), locals);
        assert_eq!(s.world(), &world[..]);
    }

    #[test]
    fn a_model_past_the_pose_loops_flags_takes_the_general_pass() {
        // A chain of 130 nodes (each the child of the one before; more than the pose loop
        // keeps flags for), its last node moved from (100, 0, 0) to (200, 0, 0) over a
        // 10-tick frame under a parent turned a quarter about Z: the pose is the plain
        // evaluation's at every step.
        let n = POSE_LOOP_NODES + 2;
        let nodes: Vec<Node> = (0..n)
            .map(|k| Node {
                parent: k as i16 - 1,
                rest: i16::from(k == n - 2),
            })
            .collect();
        let list = moved_child_model(nodes, n - 1);
        let mut s = ShapeInstance::new(&list);
        let id = s.add_thread(&list, 0).expect("sequence 0 exists");
        s.thread_mut(id).expect("thread").set_rate(&list, 256);
        for step in 0..4 {
            let read = s.tick(&list, 5);
            s.evaluate(&list, &read);
            let (mut locals, mut world) = (vec![[0; 6]; n], vec![Transform3::IDENTITY; n]);
            crate::reference::evaluate(
                &list,
                s.threads(),
                &s.slots(),
                &read,
                &mut locals,
                &mut world,
            );
            assert_eq!(s.locals(&list), locals, "step {step}");
            assert!(s.transforms_are_of(&list, &locals), "step {step}");
            assert_eq!(s.world(), &world[..], "step {step}");
        }
        // Frame 0 then frame 1 (200 -> 100) at 5 ticks a step: 150, 200, 150, 100.
        assert_eq!(s.locals(&list)[n - 1], [0, 0, 0, 100, 0, 0]);
    }

    #[test]
    fn m06_yaws_in_one_table_step_are_one_transform_and_keep_the_world() {
        // FromEuler(0, 0, z) reads C and S at z >> 3: z = 8 and z = 9 are both entry 1, so
        // the second local rebuilds the same transform and its world need not change;
        // z = 4096 (a sixteenth of a turn: S = 16384·sin 22.5°, about 6270) is another
        // rotation, and a new translation is another transform too.
        let mut st = NodeState::NEW;
        assert!(take_local(&mut st, ([0, 0, 8, 0, 0, 0], false)));
        assert!(!take_local(&mut st, ([0, 0, 9, 0, 0, 0], false)));
        assert!(take_local(&mut st, ([0, 0, 4096, 0, 0, 0], false)));
        assert!(take_local(&mut st, ([0, 0, 4096, 1, 0, 0], false)));
        assert!(!take_local(&mut st, ([0, 0, 4096, 1, 0, 0], false)));
    }

    #[test]
    fn m07_a_general_local_in_pitch_form_concats_with_its_own_translation() {
        // A pitch-only local with translation x 0 (the no-x Concat applies), then a local
        // with a small roll whose FromEuler is still in pitch form (x = −32768, y = −3:
        // m = [16384, 0, 0, −16384, 0, 0, 0, 0, −16384]) and translation x 100: its world
        // must carry the 100, i.e. be Concat's.
        let mut st = NodeState::NEW;
        st.set_local(&[1008, 0, 0, 0, 5, 7]);
        assert_eq!(st.form, Form::PITCH_NO_TX);
        st.set_local(&[-32768, -3, 0, 100, 0, 0]);
        assert_eq!(st.form, Form::PITCH);
        assert_eq!(st.xf.m, [16384, 0, 0, -16384, 0, 0, 0, 0, -16384]);
        let parent = Transform3::from_euler(0, 0, 16384).with_translation([1, 2, 3]);
        let mut out = Transform3::IDENTITY;
        world_into(&st, Some(&parent), &mut out);
        assert_eq!(out, st.xf.concat(&parent));
        // (100, 0, 0) turned a quarter about Z is (0, 100, 0); plus (1, 2, 3).
        assert_eq!(out.t, [1, 102, 3]);
    }

    #[test]
    fn h16_a_thread_changed_between_ticks_is_seeded_again() {
        // The walk (ground movement) in slot 0. After a tick the stored root is the seed's;
        // a root written through `thread_mut` or `seed_root` in between must be overwritten
        // by the next tick's first seed, so the next read is the untouched instance's.
        let list = crate::bench::sample_biped();
        let mut s = ShapeInstance::new(&list);
        let id = s.add_thread(&list, 1).expect("walk exists");
        s.thread_mut(id).expect("thread").set_rate(&list, 256);
        s.tick(&list, 5);
        let moved = Transform3::IDENTITY.with_translation([1000, -7, 3]);
        let mut by_thread = s.clone();
        by_thread.thread_mut(id).expect("thread").root = moved;
        let mut by_seed = s.clone();
        by_seed.seed_root(&moved);
        let read = s.tick(&list, 5);
        assert_eq!(by_thread.tick(&list, 5), read);
        assert_eq!(by_seed.tick(&list, 5), read);
        // The walk's first frame moves 150 in y over 20 ticks: the read of the second tick
        // is the part of G for ticks 5..10 of it, 150·10/20 − 150·5/20 = 75 − 37 = 38.
        assert_eq!(read.t, [0, 38, 0]);
    }

    #[test]
    fn d5_a_node_left_to_its_rest_record_takes_it_after_a_sequence_change() {
        // The pitch thread (sequence 6) animates the gun mount (14) and the cockpit (3); at
        // frame 1, acc 0 (q = 0) the gun mount's local is frame 1's key [16384, 0, 0, 0, 40,
        // 130]. Switched to the twist (sequence 5, torso only), both nodes fall back to their
        // rest records ([0, 0, 0, 0, 40, 130] and [0, 0, 0, 0, 60, 160]), and the pose is the
        // one of an instance built with the twist from the start.
        let list = crate::bench::sample_biped();
        let mut s = ShapeInstance::new(&list);
        s.add_thread(&list, 1).expect("walk exists");
        let id = s.add_thread(&list, 6).expect("pitch exists");
        s.thread_mut(id)
            .expect("thread")
            .set_sequence(&list, 6, 1, 0);
        s.evaluate(&list, &Transform3::IDENTITY);
        s.evaluate(&list, &Transform3::IDENTITY);
        assert_eq!(s.locals(&list)[14], [16384, 0, 0, 0, 40, 130]);
        s.thread_mut(id)
            .expect("thread")
            .set_sequence(&list, 5, 0, 0);
        s.evaluate(&list, &Transform3::IDENTITY);
        assert_eq!(s.locals(&list)[14], [0, 0, 0, 0, 40, 130]);
        assert_eq!(s.locals(&list)[3], [0, 0, 0, 0, 60, 160]);
        let mut fresh = ShapeInstance::new(&list);
        fresh.add_thread(&list, 1).expect("walk exists");
        fresh.add_thread(&list, 5).expect("twist exists");
        fresh.evaluate(&list, &Transform3::IDENTITY);
        assert_eq!(s.locals(&list), fresh.locals(&list));
        assert_eq!(s.world(), fresh.world());
        // A further evaluation keeps them.
        s.evaluate(&list, &Transform3::IDENTITY);
        assert_eq!(s.world(), fresh.world());
    }

    #[test]
    fn d7_children_numbered_before_parents_pose_as_in_node_order() {
        // Node order (parent 1, child 2) and the reverse numbering (child 1 of parent 2,
        // built 2 then 1, the general pass): the same pose under the same ids swapped.
        for (child, parent) in [(2, 1), (1, 2)] {
            let list = two_node_model(child, parent);
            let mut s = ShapeInstance::new(&list);
            assert_eq!(s.in_node_order, child > parent);
            let id = s.add_thread(&list, 0).expect("sequence 0 exists");
            // Rate 1.0 (256), so a step of 5 ticks advances the cursor by 5.
            s.thread_mut(id).expect("thread").set_rate(&list, 256);
            s.tick(&list, 5);
            // Half-way through frame 0: q = (5·1024 + 5) / 10 = 512, the child's x is
            // 100 + (100·512 >> 10) = 150.
            s.evaluate(&list, &Transform3::IDENTITY);
            let turn = [0, 16384, -16384, 0, 0, 0, 0, 0, 16384];
            assert_eq!(s.locals(&list)[child], [0, 0, 0, 150, 0, 0]);
            assert_eq!(s.world()[parent].m, turn);
            assert_eq!(s.world()[parent].t, [10, 0, 0]);
            // (150, 0, 0) turned a quarter is (0, 150, 0); plus the parent's (10, 0, 0).
            assert_eq!(s.world()[child].m, turn);
            assert_eq!(s.world()[child].t, [10, 150, 0]);
            // A second evaluation (the steady loop, or the general pass again) after the
            // child moved to the frame's end: x = 200.
            s.tick(&list, 5);
            s.evaluate(&list, &Transform3::IDENTITY);
            assert_eq!(s.world()[child].t, [10, 200, 0]);
            assert_eq!(s.world()[parent].t, [10, 0, 0]);
        }
    }
}
