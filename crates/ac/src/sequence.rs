//! The per-object animation player (`Anim/Sequence.cs`, `Anim/AnimSequenceNode.cs`;
//! quirks Q1–Q13).
//!
//! ACE keeps the playlist in a doubly linked list and compares nodes by identity.
//! Every removal the algorithms make is either at the front (`apricot`), the tail from
//! `FirstCyclic` on (`remove_cyclic_anims`) or the single node before `FirstCyclic`
//! (`remove_link_animations`), so a `Vec` with the two handles stored as indices and
//! shifted on removal keeps the same identities without a linked list.

use crate::key_hash::IdMap;
use crate::math::{AFrame, CombineMemo2, RotateVecMemo, Vec3, EPSILON};
use crate::records::{AnimHook, Animation, PartFrame};
use std::sync::Arc;

/// `AnimationHookType.AnimationDone`.
pub const HOOK_ANIMATION_DONE: u32 = 4;

/// Frame boundaries crossed plus nodes entered that one `Update` may do (limit L2 in
/// docs/limits.md). ACE recurses once per node finished and loops once per frame
/// crossed, so a huge framerate × quantum (or f32 leftovers that stop shrinking) would
/// never return; a 2 s tick at 30 fps crosses 60. Past the limit the update stops and
/// records [`WorkLimit::Crossings`]; the scenario runner then refuses the tick whole.
pub const MAX_CROSSINGS_PER_UPDATE: u32 = 4096;
/// Hooks one `Update` may queue (limit L3): two per crossing at the crossing limit
/// (L2), far above what legal records produce (ACE itself fired at most 158 in a 2 s
/// tick of long random scripts; real clips carry a few hooks on a few frames). It is a
/// trace-size budget, not a rule of the original: the hooks of a tick are listed in its
/// trace line, and 8192 names of at most 27 bytes keep that list under 224 KB and the
/// tick's hook queue under 32 KB (docs/limits.md derives it).
pub const MAX_HOOKS_PER_UPDATE: usize = 2 * MAX_CROSSINGS_PER_UPDATE as usize;

/// Which per-update work limit an `Update` ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkLimit {
    Crossings,
    Hooks,
}

/// Where `append_animation` finds animations by id. A missing id yields an empty
/// animation (ACE's DAT cache returns a default-constructed object, quirk Q13/Q55).
pub trait AnimSource {
    fn animation(&self, id: u32) -> Arc<Animation>;

    /// The record of `id` with its hook mask, as a node holds it. A source that keeps
    /// the masks of its records saves each append the scan of every part frame.
    fn node_animation(&self, id: u32) -> NodeAnimation {
        NodeAnimation::new(self.animation(id))
    }
}

/// A simple in-memory [`AnimSource`]. Each record is kept with its hook mask, made
/// once when it is stored (the records are shared and never written).
#[derive(Clone, Debug)]
pub struct AnimMap {
    map: IdMap<NodeAnimation>,
    /// The records with an id `ANIM_ID_BASE + k`, `k < DENSE_SLOTS`, again at slot `k`
    /// (the slots run to the highest such id stored; None where no record is): an
    /// append finds its record by indexing instead of hashing. `map` is the plain twin.
    dense: Vec<Option<NodeAnimation>>,
    empty: NodeAnimation,
}

/// The DAT id prefix of animation records.
const ANIM_ID_BASE: u32 = 0x0300_0000;
/// The ids past the prefix kept in [`AnimMap::dense`] (at most 256 KiB of slots).
const DENSE_SLOTS: usize = 1 << 14;

impl Default for AnimMap {
    fn default() -> Self {
        AnimMap {
            map: IdMap::default(),
            dense: Vec::new(),
            empty: NodeAnimation::new(Arc::default()),
        }
    }
}

impl AnimMap {
    pub fn new() -> AnimMap {
        AnimMap::default()
    }
    pub fn insert(&mut self, anim: Animation) {
        self.insert_as(anim.id, Arc::new(anim));
    }
    /// Store `anim` under `id` (an empty stand-in for a missing record has id 0).
    pub fn insert_as(&mut self, id: u32, anim: Arc<Animation>) {
        let node = NodeAnimation::new(anim);
        let k = id.wrapping_sub(ANIM_ID_BASE) as usize;
        if k < DENSE_SLOTS {
            if self.dense.len() <= k {
                self.dense.resize(k + 1, None);
            }
            self.dense[k] = Some(node.clone());
        }
        self.map.insert(id, node);
    }
    pub fn contains(&self, id: u32) -> bool {
        self.map.contains_key(&id)
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The stored record of `id` (the empty one when none is): from its slot when the
    /// id has one, else from the map.
    #[inline]
    fn find(&self, id: u32) -> &NodeAnimation {
        let k = id.wrapping_sub(ANIM_ID_BASE) as usize;
        let found = match self.dense.get(k) {
            Some(slot) => slot.as_ref().unwrap_or(&self.empty),
            None => self.map.get(&id).unwrap_or(&self.empty),
        };
        debug_assert!(
            Arc::ptr_eq(&found.anim, &self.map.get(&id).unwrap_or(&self.empty).anim),
            "dense animation slots"
        );
        found
    }
}

impl AnimSource for AnimMap {
    fn animation(&self, id: u32) -> Arc<Animation> {
        self.node_animation(id).anim
    }

    fn node_animation(&self, id: u32) -> NodeAnimation {
        let node = self.find(id).clone();
        debug_assert_eq!(
            node.hooks_at,
            NodeAnimation::new(node.anim.clone()).hooks_at,
            "stored hook mask"
        );
        node
    }
}

/// Runtime `AnimData` (`Anim/AnimData.cs`): a clip reference with its speed applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimData {
    pub anim_id: u32,
    pub low_frame: i32,
    pub high_frame: i32,
    pub framerate: f32,
}

/// One hook queued on the object during an update: its type, and where it sits in its
/// Animation record (the `index`-th hook of part frame `frame` of `anim_id`) so that a
/// host can read its payload. The AnimationDone the sequence adds itself at the end of
/// a non-cyclic node has `anim_id` 0, frame -1 and index `u32::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FiredHook {
    pub hook_type: u32,
    pub anim_id: u32,
    pub frame: i32,
    pub index: u32,
}

impl FiredHook {
    /// The AnimationDone hook the sequence raises when a non-cyclic node ends.
    pub const ANIMATION_DONE: FiredHook = FiredHook {
        hook_type: HOOK_ANIMATION_DONE,
        anim_id: 0,
        frame: -1,
        index: u32::MAX,
    };
}

/// `AnimSequenceNode`.
#[derive(Clone, Debug)]
pub struct SeqNode {
    pub anim: NodeAnimation,
    pub framerate: f32,
    pub low_frame: i32,
    pub high_frame: i32,
}

/// A node's animation (read through `Deref`) with the frames that have hooks.
///
/// The record is shared and only readable here, and the mask is made with it, so the
/// mask always describes the frames the node plays.
#[derive(Clone, Debug)]
pub struct NodeAnimation {
    anim: Arc<Animation>,
    /// Bit `k` is set when some frame `i` with `i mod 64 == k` has a part frame with
    /// hooks. A frame whose bit is clear fires nothing (out of range or negative, it
    /// has no part frame at all), so a crossing skips the scan.
    hooks_at: u64,
}

impl NodeAnimation {
    /// The record with its hook mask.
    pub fn new(anim: Arc<Animation>) -> NodeAnimation {
        let in_range = anim.part_frames.len().min(anim.num_frames as usize);
        let mut hooks_at = 0u64;
        for (i, pf) in anim.part_frames[..in_range].iter().enumerate() {
            if !pf.hooks.is_empty() {
                hooks_at |= 1 << (i % 64);
            }
        }
        NodeAnimation { anim, hooks_at }
    }

    /// The shared record.
    pub fn arc(&self) -> &Arc<Animation> {
        &self.anim
    }

    /// False only when frame `i` has no hooks.
    #[inline]
    fn may_have_hooks(&self, i: i32) -> bool {
        (self.hooks_at >> (i & 63)) & 1 != 0
    }
}

impl std::ops::Deref for NodeAnimation {
    type Target = Animation;
    fn deref(&self) -> &Animation {
        &self.anim
    }
}

impl SeqNode {
    /// `AnimSequenceNode(AnimData)` + `set_animation_id`: the four-step clamp (Q54).
    pub fn new(data: AnimData, src: &dyn AnimSource) -> SeqNode {
        let anim = src.node_animation(data.anim_id);
        let n = anim.num_frames as i64;
        let mut low = data.low_frame as i64;
        let mut high = data.high_frame as i64;
        if high < 0 {
            high = (n - 1) as i32 as i64;
        }
        if low >= n {
            low = (n - 1) as i32 as i64;
        }
        if high >= n {
            high = (n - 1) as i32 as i64;
        }
        if low > high {
            high = low;
        }
        SeqNode {
            anim,
            framerate: data.framerate,
            low_frame: low as i32,
            high_frame: high as i32,
        }
    }

    /// `get_starting_frame`.
    pub fn starting_frame(&self) -> f32 {
        if self.framerate >= 0.0 {
            self.low_frame as f32
        } else {
            (self.high_frame.wrapping_add(1)) as f32 - EPSILON
        }
    }

    /// `get_ending_frame`.
    pub fn ending_frame(&self) -> f32 {
        if self.framerate >= 0.0 {
            (self.high_frame.wrapping_add(1)) as f32 - EPSILON
        } else {
            self.low_frame as f32
        }
    }

    /// `get_pos_frame(int)`: identity when out of range.
    pub fn pos_frame(&self, i: i32) -> AFrame {
        if i >= 0 {
            if let Some(f) = self.anim.pos_frames.get(i as usize) {
                return *f;
            }
        }
        AFrame::IDENTITY
    }

    /// The pos frame `i` if it exists.
    // A negative `i` as a `usize` is at least 2⁶³, past the end of every `Vec`, so the
    // one bounds test also rejects it.
    #[inline]
    pub fn pos_frame_in_range(&self, i: i32) -> Option<AFrame> {
        self.anim.pos_frames.get(i as usize).copied()
    }

    /// `get_part_frame(int)`: none when out of range.
    // As in `pos_frame_in_range`, `get` rejects a negative `i`.
    #[inline]
    pub fn part_frame(&self, i: i32) -> Option<&PartFrame> {
        if i64::from(i) < i64::from(self.anim.num_frames) {
            self.anim.part_frames.get(i as usize)
        } else {
            None
        }
    }

    /// Queue the hooks of frame `frame` that fire in direction `dir`, counting them in
    /// `fired`; false once more than [`MAX_HOOKS_PER_UPDATE`] would be queued.
    #[inline]
    fn fire_hooks(
        &self,
        frame: i32,
        dir: i32,
        hooks: &mut Vec<FiredHook>,
        fired: &mut usize,
    ) -> bool {
        if !self.anim.may_have_hooks(frame) {
            return true;
        }
        self.queue_frame_hooks(frame, dir, hooks, fired)
    }

    /// The scan of [`SeqNode::fire_hooks`] for a frame that may have hooks, kept out of
    /// the crossing loop: most crossings have none, and the loop's registers stay free.
    #[inline(never)]
    fn queue_frame_hooks(
        &self,
        frame: i32,
        dir: i32,
        hooks: &mut Vec<FiredHook>,
        fired: &mut usize,
    ) -> bool {
        let Some(pf) = self.part_frame(frame) else {
            return true;
        };
        match pf.hooks.as_slice() {
            // Most frames with hooks carry one: without the loop, fewer registers are
            // live across the push.
            [h] => self.queue_hook(h, 0, frame, dir, hooks, fired),
            all => {
                for (k, h) in all.iter().enumerate() {
                    if !self.queue_hook(h, k, frame, dir, hooks, fired) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// Queue the `k`-th hook `h` of frame `frame` if it fires in direction `dir`; false
    /// once more than [`MAX_HOOKS_PER_UPDATE`] would be queued.
    #[inline(always)]
    fn queue_hook(
        &self,
        h: &AnimHook,
        k: usize,
        frame: i32,
        dir: i32,
        hooks: &mut Vec<FiredHook>,
        fired: &mut usize,
    ) -> bool {
        if h.direction == 0 || h.direction == dir {
            if *fired >= MAX_HOOKS_PER_UPDATE {
                return false;
            }
            hooks.push(FiredHook {
                hook_type: h.hook_type,
                anim_id: self.anim.id,
                frame,
                index: k as u32,
            });
            *fired += 1;
        }
        true
    }

    /// `multiply_framerate`.
    pub fn multiply_framerate(&mut self, m: f32) {
        if m < 0.0 {
            std::mem::swap(&mut self.low_frame, &mut self.high_frame);
        }
        self.framerate *= m;
    }
}

/// `Sequence`.
// `repr(C)` in this order: the combine memo, which only animations with pos frames use,
// first, and what every update reads last, next to the object's hot fields (see
// `PhysicsObj`).
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct Sequence {
    /// The last pos-frame combine of a frame crossing.
    pub(crate) combine_memo: CombineMemo2,
    pub(crate) first_cyclic: Option<usize>,
    /// The last rotation step `apply_physics` built (a turning cycle repeats it).
    pub(crate) rotation_memo: RotateVecMemo,
    /// `floor_i32` of the frame number whose bits are `.0` (the default, +0.0 → 0, is
    /// correct too). An update ends with the frame number whose floor it last took,
    /// and the next update starts by taking it again; keyed by the bits, the entry
    /// stays right whoever writes `frame_number` in between.
    floor_memo: (u32, i32),
    pub(crate) velocity: Vec3,
    pub(crate) omega: Vec3,
    pub(crate) nodes: Vec<SeqNode>,
    pub(crate) curr: Option<usize>,
    pub(crate) frame_number: f32,
    /// Set by the last `update` when it stopped at a work limit (its state is then
    /// not ACE's and the caller must discard the update).
    pub(crate) overrun: Option<WorkLimit>,
}

/// A sequence's velocity, omega and node framerates and ranges as raw bits: what a
/// motion-table stop can change, for the debug checks of its fast path.
#[cfg(debug_assertions)]
pub(crate) fn physics_bits(seq: &Sequence) -> (Vec<u32>, Vec<(u32, i32, i32)>) {
    let v = [seq.velocity, seq.omega]
        .iter()
        .flat_map(|w| [w.x.to_bits(), w.y.to_bits(), w.z.to_bits()])
        .collect();
    let nodes = seq
        .nodes
        .iter()
        .map(|n| (n.framerate.to_bits(), n.low_frame, n.high_frame))
        .collect();
    (v, nodes)
}

/// C# `Math.Floor(double)` of an f32 value.
///
/// The baseline x86-64 target has no rounding instruction, so `floor` is a library
/// call. Below 2²² in magnitude, adding and subtracting 1.5·2²³ rounds an f32 to the
/// nearest integer exactly (the sum lies where the spacing of f32 values is 1), and the
/// floor is that integer, or one less when it rounded up; both steps are exact. Only the
/// sign of a zero result can differ from `floor` (−0.0 gives +0.0), and every caller
/// compares the result or converts it to an integer, where that sign is lost.
#[inline]
fn floor64(x: f32) -> f64 {
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23
    if x.abs() < 4_194_304.0 {
        let r = (x + ROUND) - ROUND;
        (if r > x { r - 1.0 } else { r }) as f64
    } else {
        (x as f64).floor()
    }
}

/// `(int)Math.Floor(x)` of an f32 value (saturating, NaN to 0), as `floor64(x) as i32`.
///
/// Below 2²² in magnitude, `x + 1.5·2²³` lies in [2²³, 2²⁴], where consecutive f32
/// values are consecutive integers, so the difference of its bits and those of 1.5·2²³
/// is `x` rounded to the nearest integer; the floor is that or one less. This replaces
/// the saturating f64-to-int conversion, which the baseline target does in seven
/// instructions. Other values take `floor64`.
#[inline]
fn floor_i32(x: f32) -> i32 {
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23
    if x.abs() < 4_194_304.0 {
        let s = x + ROUND;
        let rounded = (s.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
        rounded - i32::from(s - ROUND > x)
    } else {
        floor64(x) as i32
    }
}

/// `apply_physics`' step length: `|q|` with the sign of `sign` (`sign` widened to f64
/// compares the same way, and NaN fails both).
#[inline(always)]
fn signed_step(q: f32, sign: f32) -> f32 {
    if sign >= 0.0 {
        q.abs()
    } else {
        -q.abs()
    }
}

/// The step of a backward crossing (`fr · t < 0`): `signed_step(1 / fr, t)`, which
/// is `1 / fr` with `t`'s sign, the opposite of `fr`'s (±0 for an infinite `fr`).
#[inline(always)]
fn backward_step(fr: f32) -> f32 {
    -(1.0 / fr)
}

/// `apply_physics(frame, q, sign)` on the sequence's velocity, omega and rotation memo.
#[inline(always)]
fn apply_physics_with(
    velocity: Vec3,
    omega: Vec3,
    memo: &mut RotateVecMemo,
    frame: &mut AFrame,
    q: f32,
    sign: f32,
) {
    apply_step(&velocity, &omega, memo, frame, signed_step(q, sign));
}

/// `apply_physics` once its step `q` has its sign: the frame moved by `velocity · q`
/// and turned by `omega · q`. The crossing loops, whose step's sign is known before
/// the loop, call it with the step they formed once.
#[inline(always)]
fn apply_step(velocity: &Vec3, omega: &Vec3, memo: &mut RotateVecMemo, frame: &mut AFrame, q: f32) {
    frame.origin = frame.origin.add(velocity.scale(q));
    frame.rotate_vec_memo(omega, q, memo);
}

/// Whether a frame number `x` (an f32 widened) lies past the frame numbered `last`:
/// `Math.Floor(x) > last`, which for an integer `last` is `x ≥ last + 1`, exact in f64
/// (a NaN fails it, as its floor fails the comparison). One conversion and compare a
/// test, and no floor taken of the frame number.
#[inline(always)]
fn frame_crossed(x: f64, last: i32) -> bool {
    let crossed = x >= f64::from(last) + 1.0;
    debug_assert_eq!(crossed, floor_key(x as f32, i64::MIN) > i64::from(last));
    crossed
}

/// Whether a frame number `x` (an f32 widened) lies before the frame numbered
/// `last`: `Math.Floor(x) < last`, which for an integer `last` is `x < last`, exact in
/// f64 (a NaN fails it, as its floor fails the comparison).
#[inline(always)]
fn frame_before(x: f64, last: i32) -> bool {
    let before = x < f64::from(last);
    debug_assert_eq!(before, floor64(x as f32) < f64::from(last));
    before
}

/// `Math.Floor(x)` of an f32 value as an `i64` that compares with every `i32` the way
/// the f64 floor does; a NaN floor, which fails every comparison, becomes `nan`, which
/// the caller picks to fail the comparisons it makes.
///
/// The forward crossing loop compared the f64 floor with integer frame numbers, each
/// test a conversion and a float compare; here each is one integer compare. The floor
/// is an integer (or infinite), so an integer compares with it as with its saturated
/// `i64` value.
#[inline]
fn floor_key(x: f32, nan: i64) -> i64 {
    if x.abs() < 4_194_304.0 {
        i64::from(floor_i32(x))
    } else if x.is_nan() {
        nan
    } else {
        (x as f64).floor() as i64
    }
}

impl Sequence {
    pub fn new() -> Sequence {
        Sequence {
            nodes: Vec::with_capacity(4),
            ..Sequence::default()
        }
    }

    /// `append_animation`.
    #[inline]
    pub fn append_animation(&mut self, data: AnimData, src: &dyn AnimSource) {
        let AnimData {
            anim_id,
            low_frame,
            high_frame,
            framerate,
        } = data;
        self.append_clip(anim_id, low_frame, high_frame, framerate, src);
    }

    /// [`Sequence::append_animation`] of the clip's fields.
    // Out of line with the fields apart: they travel in registers, where the
    // `AnimData` travelled through memory.
    #[inline(never)]
    fn append_clip(
        &mut self,
        anim_id: u32,
        low_frame: i32,
        high_frame: i32,
        framerate: f32,
        src: &dyn AnimSource,
    ) {
        let data = AnimData {
            anim_id,
            low_frame,
            high_frame,
            framerate,
        };
        let node = SeqNode::new(data, src);
        self.nodes.push(node);
        let last = self.nodes.len() - 1;
        self.first_cyclic = Some(last);
        if self.curr.is_none() {
            self.curr = Some(0);
            self.frame_number = self.nodes[0].starting_frame();
        }
    }

    /// The animation list (`AnimList`), in play order.
    pub fn nodes(&self) -> &[SeqNode] {
        &self.nodes
    }
    /// `FirstCyclic`: the index of the first node of the cycle.
    pub fn first_cyclic(&self) -> Option<usize> {
        self.first_cyclic
    }
    /// `CurrAnim`: the index of the node playing.
    pub fn curr(&self) -> Option<usize> {
        self.curr
    }
    /// `FrameNumber`.
    pub fn frame_number(&self) -> f32 {
        self.frame_number
    }
    /// Set `FrameNumber` as it is (a rule's precondition).
    pub fn set_frame_number(&mut self, frame_number: f32) {
        self.frame_number = frame_number;
    }
    /// `Velocity`: the sequence's own velocity, in object axes.
    pub fn velocity(&self) -> Vec3 {
        self.velocity
    }
    /// `Omega`: the sequence's own turn rate.
    pub fn omega(&self) -> Vec3 {
        self.omega
    }
    /// The work limit the last update stopped at, if any (its state is then not ACE's).
    pub fn overrun(&self) -> Option<WorkLimit> {
        self.overrun
    }

    pub fn set_velocity(&mut self, v: Vec3) {
        self.velocity = v;
    }
    pub fn set_omega(&mut self, w: Vec3) {
        self.omega = w;
    }
    /// `CombinePhysics`.
    pub fn combine_physics(&mut self, v: Vec3, w: Vec3) {
        self.velocity = self.velocity.add(v);
        self.omega = self.omega.add(w);
    }
    /// `subtract_physics`.
    pub fn subtract_physics(&mut self, v: Vec3, w: Vec3) {
        self.velocity = self.velocity.sub(v);
        self.omega = self.omega.sub(w);
    }
    /// `clear_physics`.
    pub fn clear_physics(&mut self) {
        self.velocity = Vec3::ZERO;
        self.omega = Vec3::ZERO;
    }
    /// `clear_animations`.
    pub fn clear_animations(&mut self) {
        self.nodes.clear();
        self.first_cyclic = None;
        self.frame_number = 0.0;
        self.curr = None;
    }
    /// `HasAnims`.
    pub fn has_anims(&self) -> bool {
        !self.nodes.is_empty()
    }
    /// `is_first_cyclic`.
    pub fn is_first_cyclic(&self) -> bool {
        self.curr.is_none() || self.curr == self.first_cyclic
    }
    /// `get_curr_frame_number`.
    pub fn curr_frame_number(&self) -> i32 {
        floor_i32(self.frame_number)
    }

    /// Remove node `i`, shifting the stored handles (callers never remove `curr`
    /// without moving it first).
    // Out of line: the world's loop calls it on about one object-tick in twenty, and
    // inlined there (as unrelated changes elsewhere tip the compiler into) it cost the
    // loop more than the call saves.
    #[inline(never)]
    fn remove_at(&mut self, i: usize) {
        self.nodes.remove(i);
        let shift = |h: &mut Option<usize>| {
            if let Some(x) = *h {
                if x > i {
                    *h = Some(x - 1);
                } else if x == i {
                    *h = None;
                }
            }
        };
        shift(&mut self.curr);
        shift(&mut self.first_cyclic);
    }

    /// `apply_physics(frame, q, sign)`.
    #[inline(always)]
    pub fn apply_physics(&mut self, frame: &mut AFrame, q: f32, sign: f32) {
        apply_physics_with(
            self.velocity,
            self.omega,
            &mut self.rotation_memo,
            frame,
            q,
            sign,
        );
    }

    /// `Sequence.Update(quantum, ref offset)`: hooks are appended to `hooks`.
    // Inlined into the object's tick: saves the call, its register saves and the
    // offset's round trip through memory (about 35 instructions per tick).
    #[inline(always)]
    pub fn update(
        &mut self,
        quantum: f32,
        offset: Option<&mut AFrame>,
        hooks: &mut Vec<FiredHook>,
    ) {
        self.overrun = None;
        if !self.nodes.is_empty() {
            self.update_internal(quantum, offset, hooks);
            // `update_internal` never empties the list, so `apricot`'s loop has work
            // only when the current node is not the first.
            if self.curr != Some(0) {
                self.apricot();
            }
        } else if let Some(f) = offset {
            self.apply_physics(f, quantum, quantum);
        }
    }

    /// `update_internal`. An update that ends within the current node's frames (most
    /// do: no end is reached, so the playlist does not move) takes its crossings here,
    /// inline; any other takes the whole loop ([`Sequence::update_internal_full`]) from
    /// the same state, out of line. A NaN frame number takes the whole loop too.
    // The inline path holds no end flag, leftover time or quantum across its crossing
    // loop, whose calls made the tick's loop keep them on the stack.
    #[inline(always)]
    fn update_internal(&mut self, t: f32, frame: Option<&mut AFrame>, hooks: &mut Vec<FiredHook>) {
        let Some(ci) = self.curr else { return };
        let (fr, low, high) = {
            let a = &self.nodes[ci];
            (a.framerate, a.low_frame, a.high_frame)
        };
        let ft = fr * t;
        let next = self.frame_number + ft;
        let x = f64::from(next);
        // `x < high + 1` is `!frame_crossed(x, high)` for a number (a NaN fails both).
        if ft > 0.0 && x < f64::from(high) + 1.0 {
            self.crossings_within_node::<true>(ci, fr, next, frame, hooks);
        } else if ft < 0.0 && x >= f64::from(low) {
            // `x ≥ low` is `!frame_before(x, low)` for a number (a NaN fails it).
            self.crossings_within_node::<false>(ci, fr, next, frame, hooks);
        } else {
            self.update_internal_full(t, frame, hooks);
        }
    }

    /// The inline update's crossings from the frame number to `next`, which lies within
    /// node `ci`'s frames, moving forward when `FORWARD` and backward otherwise.
    #[inline(always)]
    fn crossings_within_node<const FORWARD: bool>(
        &mut self,
        ci: usize,
        fr: f32,
        next: f32,
        frame: Option<&mut AFrame>,
        hooks: &mut Vec<FiredHook>,
    ) {
        let last = self.floor_of_frame_number();
        self.frame_number = next;
        let x = f64::from(next);
        let mut crossings_left = MAX_CROSSINGS_PER_UPDATE + 1;
        let mut fired = 0usize;
        let crossed = self.crossings(
            FORWARD,
            ci,
            fr,
            x,
            last,
            frame,
            hooks,
            &mut crossings_left,
            &mut fired,
        );
        if let Some(last) = crossed {
            // The loop stops at the floor of the new frame number: it starts at the old
            // number's, and the number only moved in the loop's direction.
            self.floor_memo = (next.to_bits(), last);
        }
    }

    /// `floor_i32` of the frame number, from the floor memo when it holds the number.
    #[inline(always)]
    fn floor_of_frame_number(&self) -> i32 {
        let last = if self.frame_number.to_bits() == self.floor_memo.0 {
            self.floor_memo.1
        } else {
            floor_i32(self.frame_number)
        };
        debug_assert_eq!(last, floor_i32(self.frame_number), "stale floor memo");
        last
    }

    /// The crossing loop of node `ci` (framerate `fr`) in the update's direction, forward
    /// when `forward` (`fr · t > 0`), backward otherwise (`fr · t < 0`): every frame from
    /// `last` that `x` (the new frame number, widened) lies past, or before, its pos frame
    /// combined into `frame` (backward: taken off it), its step applied and its hooks
    /// queued. The frame the loop stopped at, or None at a work limit (`overrun` set).
    // One loop for both directions: the inline update passes a constant direction, so
    // each of its two copies keeps only its own arm.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn crossings(
        &mut self,
        forward: bool,
        ci: usize,
        fr: f32,
        x: f64,
        mut last: i32,
        mut frame: Option<&mut AFrame>,
        hooks: &mut Vec<FiredHook>,
        crossings_left: &mut u32,
        fired: &mut usize,
    ) -> Option<i32> {
        // The node is looked up once for the whole loop (the loop changes the memos,
        // the frame and the hook list, never the playlist).
        let node = &self.nodes[ci];
        // `apply_physics`' step `signed_step(1 / fr, t)`. Forward it is `1 / fr` itself:
        // `fr · t > 0` makes both non-zero, not NaN and of one sign, so `1 / fr` (±0 for
        // an infinite `fr`, never NaN) already has `t`'s sign. Backward it is
        // `-(1 / fr)`: `fr · t < 0` gives them opposite signs, neither zero nor NaN.
        let (q, dir) = if forward {
            (1.0 / fr, 1)
        } else {
            (backward_step(fr), -1)
        };
        while if forward {
            frame_crossed(x, last)
        } else {
            frame_before(x, last)
        } {
            *crossings_left -= 1;
            if *crossings_left == 0 {
                self.overrun = Some(WorkLimit::Crossings);
                return None;
            }
            if let Some(f) = frame.as_deref_mut() {
                if forward {
                    // ACE combines unconditionally; an out-of-range (identity) pos frame
                    // changes nothing but the sign of a zero, so skip it.
                    match node.pos_frame_in_range(last) {
                        // The combine and apply_physics through one memo entry.
                        Some(pos) if fr.abs() > EPSILON => {
                            self.combine_memo.combine_then_step_in_place(
                                f,
                                &pos,
                                &self.velocity,
                                &self.omega,
                                q,
                                &mut self.rotation_memo,
                            );
                        }
                        Some(pos) => *f = self.combine_memo.combine(f, &pos),
                        None if fr.abs() > EPSILON => {
                            apply_step(&self.velocity, &self.omega, &mut self.rotation_memo, f, q)
                        }
                        None => {}
                    }
                } else {
                    // `pos_frame` is the identity out of range (Q12).
                    match node.pos_frame_in_range(last) {
                        Some(pos) => f.subtract(&pos),
                        None => f.subtract_identity(),
                    }
                    if fr.abs() > EPSILON {
                        apply_step(&self.velocity, &self.omega, &mut self.rotation_memo, f, q);
                    }
                }
            }
            if !node.fire_hooks(last, dir, hooks, fired) {
                self.overrun = Some(WorkLimit::Hooks);
                return None;
            }
            last += dir;
        }
        Some(last)
    }

    /// `update_internal`, with ACE's tail recursion on the leftover time as a loop: any
    /// update, out of line ([`Sequence::update_internal`] takes the common one inline).
    #[inline(never)]
    fn update_internal_full(
        &mut self,
        mut t: f32,
        mut frame: Option<&mut AFrame>,
        hooks: &mut Vec<FiredHook>,
    ) {
        // Counts down to the crossing past the limit (one decrement and its zero test).
        let mut crossings_left = MAX_CROSSINGS_PER_UPDATE + 1;
        // Hooks queued by this update (the list only grows during it): the same test
        // as against the list's length at the start, without reading it on every tick.
        let mut fired = 0usize;
        loop {
            let Some(ci) = self.curr else { return };
            let (fr, low, high) = {
                let a = &self.nodes[ci];
                (a.framerate, a.low_frame, a.high_frame)
            };
            let ft = fr * t;
            let last = self.floor_of_frame_number();
            self.frame_number += ft;
            let mut leftover = 0.0f32;
            let mut done = false;
            let forward = ft > 0.0;
            if forward || ft < 0.0 {
                if forward {
                    // A NaN frame number crosses nothing (its floor fails every test).
                    if frame_crossed(f64::from(self.frame_number), high) {
                        let mut off = (self.frame_number - high as f32) - 1.0;
                        if off < 0.0 {
                            off = 0.0;
                        }
                        if fr.abs() > EPSILON {
                            leftover = off / fr;
                        }
                        self.frame_number = high as f32;
                        done = true;
                    }
                } else if frame_before(f64::from(self.frame_number), low) {
                    let mut off = self.frame_number - low as f32;
                    if off > 0.0 {
                        off = 0.0;
                    }
                    if fr.abs() > EPSILON {
                        leftover = off / fr;
                    }
                    self.frame_number = low as f32;
                    done = true;
                }
                // Nothing in the crossing loop moves `frame_number`.
                let x = f64::from(self.frame_number);
                debug_assert!(
                    forward || backward_step(fr).to_bits() == signed_step(1.0 / fr, t).to_bits()
                );
                let Some(last) = self.crossings(
                    forward,
                    ci,
                    fr,
                    x,
                    last,
                    frame.as_deref_mut(),
                    hooks,
                    &mut crossings_left,
                    &mut fired,
                ) else {
                    return;
                };
                // The loop stops at the floor of the frame number: it starts at the old
                // number's, and the number only moved in the loop's direction. A clamped
                // number's floor may lie beyond, and a NaN has none: the memo is left as
                // it is there (its entry still holds of its own bits).
                if !done && !x.is_nan() {
                    self.floor_memo = (self.frame_number.to_bits(), last);
                }
            } else if let Some(f) = frame.as_deref_mut() {
                if t.abs() > EPSILON {
                    self.apply_physics(f, t, t);
                }
            }
            if !done {
                return;
            }
            // AnimDone tests the list's first node, not the node that finished (Q5).
            if self.first_cyclic != Some(0) {
                if fired >= MAX_HOOKS_PER_UPDATE {
                    self.overrun = Some(WorkLimit::Hooks);
                    return;
                }
                hooks.push(FiredHook::ANIMATION_DONE);
                fired += 1;
            }
            crossings_left -= 1;
            if crossings_left == 0 {
                self.overrun = Some(WorkLimit::Crossings);
                return;
            }
            self.advance_to_next_animation(t, frame.as_deref_mut());
            t = leftover;
        }
    }

    /// `advance_to_next_animation`.
    fn advance_to_next_animation(&mut self, t: f32, mut frame: Option<&mut AFrame>) {
        let Some(ci) = self.curr else { return };
        if t >= 0.0 {
            let fr = self.nodes[ci].framerate;
            if let Some(f) = frame.as_deref_mut() {
                if fr < 0.0 {
                    if !self.nodes[ci].anim.pos_frames.is_empty() {
                        let pos = self.nodes[ci].pos_frame(self.frame_number as i32);
                        f.subtract(&pos);
                    }
                    if fr.abs() > EPSILON {
                        self.apply_physics(f, 1.0 / fr, t);
                    }
                }
            }
            let next = if ci + 1 < self.nodes.len() {
                Some(ci + 1)
            } else {
                self.first_cyclic
            };
            let Some(ni) = next else { return };
            self.curr = Some(ni);
            self.frame_number = self.nodes[ni].starting_frame();
            let fr = self.nodes[ni].framerate;
            // A node played forward starts at its low frame, which an f32 holds exactly
            // below 2²² in magnitude: the floor the update's next pass takes first.
            let low = self.nodes[ni].low_frame;
            if fr >= 0.0 && low.unsigned_abs() < 1 << 22 {
                self.floor_memo = (self.frame_number.to_bits(), low);
            }
            if let Some(f) = frame {
                if fr > 0.0 {
                    if !self.nodes[ni].anim.pos_frames.is_empty() {
                        let pos = self.nodes[ni].pos_frame(self.frame_number as i32);
                        *f = self.combine_memo.combine(f, &pos);
                    }
                    if fr.abs() > EPSILON {
                        self.apply_physics(f, 1.0 / fr, t);
                    }
                }
            }
        } else {
            let fr = self.nodes[ci].framerate;
            if let Some(f) = frame.as_deref_mut() {
                if fr >= 0.0 {
                    if !self.nodes[ci].anim.pos_frames.is_empty() {
                        let pos = self.nodes[ci].pos_frame(self.frame_number as i32);
                        f.subtract(&pos);
                    }
                    if fr.abs() > EPSILON {
                        self.apply_physics(f, 1.0 / fr, t);
                    }
                }
            }
            let ni = if ci > 0 { ci - 1 } else { self.nodes.len() - 1 };
            self.curr = Some(ni);
            self.frame_number = self.nodes[ni].ending_frame();
            let fr = self.nodes[ni].framerate;
            if let Some(f) = frame {
                if fr < 0.0 {
                    if !self.nodes[ni].anim.pos_frames.is_empty() {
                        let pos = self.nodes[ni].pos_frame(self.frame_number as i32);
                        *f = AFrame::combine(f, &pos);
                    }
                    if fr.abs() > EPSILON {
                        self.apply_physics(f, 1.0 / fr, t);
                    }
                }
            }
        }
    }

    /// `apricot`: drop fully played link nodes from the front.
    #[inline]
    pub fn apricot(&mut self) {
        while !self.nodes.is_empty() && self.curr != Some(0) {
            if self.first_cyclic == Some(0) {
                break;
            }
            self.remove_at(0);
        }
    }

    /// `remove_cyclic_anims`.
    pub fn remove_cyclic_anims(&mut self) {
        let Some(start) = self.first_cyclic else {
            return;
        };
        if let Some(c) = self.curr {
            if c >= start {
                if start > 0 {
                    self.curr = Some(start - 1);
                    self.frame_number = self.nodes[start - 1].ending_frame();
                } else {
                    self.curr = None;
                    self.frame_number = 0.0;
                }
            }
        }
        self.nodes.truncate(start);
        self.first_cyclic = self.nodes.len().checked_sub(1);
    }

    /// `remove_link_animations(amount)`.
    pub fn remove_link_animations(&mut self, amount: u32) {
        for _ in 0..amount {
            let Some(fc) = self.first_cyclic else { return };
            if fc == 0 {
                return;
            }
            let prev = fc - 1;
            if self.curr == Some(prev) {
                self.curr = Some(fc);
                self.frame_number = self.nodes[fc].starting_frame();
            }
            self.remove_at(prev);
        }
    }

    /// `remove_all_link_animations`.
    pub fn remove_all_link_animations(&mut self) {
        while let Some(fc) = self.first_cyclic {
            if fc == 0 {
                return;
            }
            let prev = fc - 1;
            if self.curr == Some(prev) {
                self.curr = Some(fc);
                self.frame_number = self.nodes[fc].starting_frame();
            }
            self.remove_at(prev);
        }
    }

    /// `multiply_cyclic_animation_framerate`.
    pub fn multiply_cyclic_animation_framerate(&mut self, rate: f32) {
        if let Some(fc) = self.first_cyclic {
            for n in &mut self.nodes[fc..] {
                n.multiply_framerate(rate);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        backward_step, floor64, floor_i32, floor_key, frame_before, frame_crossed, signed_step,
        AnimMap, AnimSource, FiredHook, NodeAnimation, SeqNode, Sequence, MAX_HOOKS_PER_UPDATE,
    };
    use crate::math::{AFrame, Quat, Vec3};
    use crate::records::{AnimHook, Animation, PartFrame};
    use std::sync::Arc;

    #[test]
    fn frame_lookups_reject_negative_and_out_of_range_frames() {
        // Three part frames and pos frames, but num_frames says two: part frame 2
        // is out of range, pos frame 2 is not (pos frames are read by index alone).
        let pos = |y| AFrame::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY);
        let node = SeqNode {
            anim: NodeAnimation::new(Arc::new(Animation {
                num_frames: 2,
                pos_frames: vec![pos(1.0), pos(2.0), pos(3.0)],
                part_frames: vec![PartFrame::default(); 3],
                ..Animation::default()
            })),
            framerate: 30.0,
            low_frame: 0,
            high_frame: 1,
        };
        for i in [i32::MIN, -2, -1] {
            assert!(node.pos_frame_in_range(i).is_none(), "{i}");
            assert!(node.part_frame(i).is_none(), "{i}");
        }
        assert_eq!(node.pos_frame_in_range(0).map(|f| f.origin.y), Some(1.0));
        assert_eq!(node.pos_frame_in_range(2).map(|f| f.origin.y), Some(3.0));
        assert!(node.pos_frame_in_range(3).is_none());
        assert!(node.part_frame(1).is_some());
        assert!(node.part_frame(2).is_none());
        assert!(node.part_frame(i32::MAX).is_none());
    }

    /// Framerate and time magnitudes for the crossing steps' sign tests, from the
    /// smallest subnormal to infinity.
    const STEP_RATES: [f32; 9] = [
        f32::MIN_POSITIVE,
        1.0e-45,
        1.0e-30,
        0.5,
        1.0,
        30.0,
        1.0e30,
        f32::MAX,
        f32::INFINITY,
    ];

    #[test]
    fn forward_step_is_the_reciprocal_framerate() {
        // Wherever `fr * t > 0`, `signed_step(1 / fr, t)` has the bits of `1 / fr`.
        for a in STEP_RATES {
            for b in STEP_RATES {
                for (fr, t) in [(a, b), (-a, -b)] {
                    if fr * t > 0.0 {
                        let want = (1.0 / fr).to_bits();
                        assert_eq!(signed_step(1.0 / fr, t).to_bits(), want, "{fr} {t}");
                    }
                }
            }
        }
        // An infinite framerate steps by a zero of its own sign.
        assert_eq!(
            signed_step(1.0 / f32::NEG_INFINITY, -1.0).to_bits(),
            0x8000_0000
        );
        assert_eq!(signed_step(1.0 / f32::INFINITY, 1.0).to_bits(), 0);
    }

    /// Frame numbers around the floors' edges, and the frames they are compared with.
    const FLOOR_CASES: [f32; 9] = [
        -3.5,
        -1.0,
        -1.0e-30,
        0.0,
        0.25,
        0.999_999_94,
        1.0,
        29.999_998,
        3.0e9,
    ];
    const FLOOR_LASTS: [i32; 9] = [i32::MIN, -4, -2, -1, 0, 1, 29, 30, i32::MAX];

    #[test]
    fn frame_crossed_is_a_floor_past_the_frame() {
        let crossed = |x: f32, last| frame_crossed(f64::from(x), last);
        // Floor 2 lies past frame 1; just below 2 the floor is 1.
        assert!(crossed(2.0, 1));
        assert!(!crossed(1.999_999_9, 1));
        assert!(!crossed(1.0, 1));
        // Below zero: the floor of -0.5 is -1, past -2 but not past -1.
        assert!(crossed(-0.5, -2));
        assert!(!crossed(-0.5, -1));
        assert!(!crossed(-0.0, 0));
        // Beyond every i32: the floor of 2^31 is past i32::MAX.
        assert!(crossed(2_147_483_648.0, i32::MAX));
        assert!(crossed(f32::INFINITY, i32::MAX));
        assert!(!crossed(f32::NEG_INFINITY, i32::MIN));
        // A NaN crosses nothing.
        assert!(!crossed(f32::NAN, i32::MIN));
        // The floor's own comparison (`floor_key`) agrees everywhere in between.
        for x in FLOOR_CASES {
            for last in FLOOR_LASTS {
                let want = floor_key(x, i64::MIN) > i64::from(last);
                assert_eq!(crossed(x, last), want, "{x} {last}");
            }
        }
    }

    #[test]
    fn frame_before_is_a_floor_before_the_frame() {
        let before = |x: f32, last| frame_before(f64::from(x), last);
        // The floor of 0.5 is 0, before frame 1 but not before frame 0.
        assert!(before(0.5, 1));
        assert!(!before(0.5, 0));
        assert!(!before(1.0, 1));
        // The floor of -0.25 is -1, before frame 0; -0.0's floor is 0.
        assert!(before(-0.25, 0));
        assert!(!before(-0.0, 0));
        assert!(before(f32::NEG_INFINITY, i32::MIN));
        assert!(!before(f32::INFINITY, i32::MAX));
        // A NaN is before nothing.
        assert!(!before(f32::NAN, i32::MAX));
        // The f64 floor's own comparison agrees everywhere in between.
        for x in FLOOR_CASES {
            for last in FLOOR_LASTS {
                let want = floor64(x) < f64::from(last);
                assert_eq!(before(x, last), want, "{x} {last}");
            }
        }
    }

    #[test]
    fn backward_step_is_the_negated_reciprocal_framerate() {
        // A left turn's cycle plays at -30 frames a second with a positive t: each
        // crossing steps by +1/30.
        assert_eq!(backward_step(-30.0).to_bits(), 0x3d08_8889);
        assert_eq!(backward_step(0.5).to_bits(), (-2.0f32).to_bits());
        // An infinite framerate steps by a zero of the other sign (t's).
        assert_eq!(backward_step(f32::INFINITY).to_bits(), 0x8000_0000);
        assert_eq!(backward_step(f32::NEG_INFINITY).to_bits(), 0);
        // Wherever `fr * t < 0`, it has the bits of `signed_step(1 / fr, t)`.
        for a in STEP_RATES {
            for b in STEP_RATES {
                for (fr, t) in [(a, -b), (-a, b)] {
                    if fr * t < 0.0 {
                        let want = signed_step(1.0 / fr, t).to_bits();
                        assert_eq!(backward_step(fr).to_bits(), want, "{fr} {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_backward_update_remembers_the_floor_of_its_frame_number() {
        // One node played backward at 2 frames a second: each half-second update
        // steps the frame number by exactly -1 and crosses one frame.
        let mut seq = Sequence::new();
        seq.nodes.push(SeqNode {
            anim: NodeAnimation::new(Arc::new(Animation {
                num_frames: 10,
                ..Animation::default()
            })),
            framerate: -2.0,
            low_frame: -5,
            high_frame: 9,
        });
        seq.curr = Some(0);
        seq.first_cyclic = Some(0);
        let mut hooks = Vec::new();
        // 4.5 → 3.5 (bits 0x4060_0000), floor 3; then 2.5 (0x4020_0000), floor 2.
        seq.frame_number = 4.5;
        seq.update(0.5, None, &mut hooks);
        assert_eq!(seq.floor_memo, (0x4060_0000, 3));
        seq.update(0.5, None, &mut hooks);
        assert_eq!(seq.floor_memo, (0x4020_0000, 2));
        // Below zero: -1.25 → -2.25 (0xc010_0000), whose floor is -3.
        seq.frame_number = -1.25;
        seq.update(0.5, None, &mut hooks);
        assert_eq!(seq.floor_memo, (0xc010_0000, -3));
        assert!(hooks.is_empty());
    }

    #[test]
    fn an_update_within_the_node_stays_inline_and_one_past_its_end_takes_the_whole_loop() {
        let node = |high_frame| SeqNode {
            anim: NodeAnimation::new(Arc::new(Animation {
                num_frames: 10,
                ..Animation::default()
            })),
            framerate: 2.0,
            low_frame: 0,
            high_frame,
        };
        // A link of frames 0..=3, then a cycle of frames 0..=1, at 2 frames a second.
        let mut seq = Sequence::new();
        seq.nodes = vec![node(3), node(1)];
        seq.curr = Some(0);
        seq.first_cyclic = Some(1);
        let mut hooks = Vec::new();
        // 2.5 → 3.5 (bits 0x4060_0000) stays below high + 1 = 4: frame 2 crossed, floor 3.
        seq.frame_number = 2.5;
        seq.update(0.5, None, &mut hooks);
        assert_eq!((seq.curr, seq.floor_memo), (Some(0), (0x4060_0000, 3)));
        assert!(hooks.is_empty());
        // 3.5 → 4.5 reaches the end: clamped to 3, leftover (4.5 − 3 − 1) / 2 = 0.25 s,
        // AnimationDone (the link is not the first cyclic node), the cycle entered at
        // 0.0 and stepped to 0.5 (0x3f00_0000, floor 0); then the played link is dropped.
        seq.update(0.5, None, &mut hooks);
        assert_eq!(hooks, [FiredHook::ANIMATION_DONE]);
        assert_eq!(
            (seq.nodes.len(), seq.curr, seq.first_cyclic),
            (1, Some(0), Some(0))
        );
        assert_eq!(seq.frame_number, 0.5);
        assert_eq!(seq.floor_memo, (0x3f00_0000, 0));
        // A NaN frame number crosses nothing and leaves the memo as it is.
        seq.frame_number = f32::NAN;
        seq.update(0.5, None, &mut hooks);
        assert!(seq.frame_number.is_nan());
        assert_eq!((seq.curr, seq.floor_memo), (Some(0), (0x3f00_0000, 0)));
        assert_eq!(hooks.len(), 1);
    }

    #[test]
    fn a_node_entered_forward_remembers_its_low_frame_as_the_floor() {
        let node = |framerate, low_frame| SeqNode {
            anim: NodeAnimation::new(Arc::new(Animation {
                num_frames: 10,
                ..Animation::default()
            })),
            framerate,
            low_frame,
            high_frame: 7,
        };
        let mut seq = Sequence::new();
        seq.nodes = vec![node(2.0, 0), node(2.0, 3), node(2.0, -2), node(-2.0, 1)];
        seq.curr = Some(0);
        seq.first_cyclic = Some(0);
        // Entering low frame 3: frame number 3.0 (bits 0x4040_0000), floor 3.
        seq.advance_to_next_animation(0.0, None);
        assert_eq!((seq.curr, seq.floor_memo), (Some(1), (0x4040_0000, 3)));
        // Low frame -2: -2.0 (0xc000_0000).
        seq.advance_to_next_animation(0.0, None);
        assert_eq!((seq.curr, seq.floor_memo), (Some(2), (0xc000_0000, -2)));
        // Played backward, a node starts below its high frame + 1; the memo stays.
        seq.advance_to_next_animation(0.0, None);
        assert_eq!((seq.curr, seq.floor_memo), (Some(3), (0xc000_0000, -2)));
    }

    #[test]
    fn hook_mask_skips_only_frames_without_hooks() {
        // 70 frames, num_frames says 69: hooks on frames 1, 64 and 69 (out of range).
        let hook = AnimHook {
            hook_type: 7,
            direction: 0,
            payload: Vec::new(),
        };
        let mut part_frames = vec![PartFrame::default(); 70];
        for i in [1, 64, 69] {
            part_frames[i].hooks.push(hook.clone());
        }
        let a = NodeAnimation::new(Arc::new(Animation {
            num_frames: 69,
            part_frames,
            ..Animation::default()
        }));
        // Frame 1 sets bit 1, frame 64 bit 0; frame 69 is out of range.
        assert_eq!(a.hooks_at, 0b11);
        for i in [0, 1, 64, 65, 128, i32::MIN, -63] {
            assert!(a.may_have_hooks(i), "{i}");
        }
        // Frames whose bit is clear skip the scan: none of them has hooks.
        for i in [2, 5, 62, 63, 69, 127, -1, i32::MAX] {
            assert!(!a.may_have_hooks(i), "{i}");
        }
        let b = NodeAnimation::new(Arc::new(Animation {
            num_frames: 69,
            part_frames: vec![PartFrame::default(); 70],
            ..Animation::default()
        }));
        for i in [0, 1, 63, 64, 69, -1, i32::MIN, i32::MAX] {
            assert!(!b.may_have_hooks(i), "{i}");
        }
    }

    #[test]
    fn a_frame_with_one_hook_queues_it_as_the_loop_over_many_does() {
        // Frame 0: one forward hook (type 7); frame 1: one hook for both directions
        // (type 8); frame 2: a backward hook (type 9) then one for both (type 10).
        let hook = |hook_type: u32, direction: i32| AnimHook {
            hook_type,
            direction,
            payload: Vec::new(),
        };
        let mut part_frames = vec![PartFrame::default(); 3];
        part_frames[0].hooks.push(hook(7, 1));
        part_frames[1].hooks.push(hook(8, 0));
        part_frames[2].hooks.extend([hook(9, -1), hook(10, 0)]);
        let node = SeqNode {
            anim: NodeAnimation::new(Arc::new(Animation {
                id: 0x0300_0042,
                num_frames: 3,
                part_frames,
                ..Animation::default()
            })),
            framerate: 30.0,
            low_frame: 0,
            high_frame: 2,
        };
        let fired_hook = |hook_type, frame, index| FiredHook {
            hook_type,
            anim_id: 0x0300_0042,
            frame,
            index,
        };
        let (mut hooks, mut fired) = (Vec::new(), 0);
        for (frame, dir) in [(0, 1), (0, -1), (1, -1), (2, 1), (2, -1)] {
            assert!(node.fire_hooks(frame, dir, &mut hooks, &mut fired));
        }
        assert_eq!(
            hooks,
            [
                fired_hook(7, 0, 0),
                fired_hook(8, 1, 0),
                fired_hook(10, 2, 1),
                fired_hook(9, 2, 0),
                fired_hook(10, 2, 1),
            ]
        );
        assert_eq!(fired, 5);
        // At the limit a single hook is refused and nothing is queued; one below it,
        // it is the last one queued.
        let mut fired = MAX_HOOKS_PER_UPDATE;
        assert!(!node.fire_hooks(1, 1, &mut hooks, &mut fired));
        assert_eq!((hooks.len(), fired), (5, MAX_HOOKS_PER_UPDATE));
        let mut fired = MAX_HOOKS_PER_UPDATE - 1;
        assert!(node.fire_hooks(1, 1, &mut hooks, &mut fired));
        assert_eq!((hooks.len(), fired), (6, MAX_HOOKS_PER_UPDATE));
        // A frame with one hook for the other direction queues nothing, even at the
        // limit.
        assert!(node.fire_hooks(0, -1, &mut hooks, &mut fired));
        assert_eq!(hooks.len(), 6);
    }

    #[test]
    fn anim_map_finds_through_its_slots_what_its_map_holds() {
        let record = |id: u32, num_frames: u32| {
            Arc::new(Animation {
                id,
                num_frames,
                ..Animation::default()
            })
        };
        let mut map = AnimMap::new();
        // In the slots' range (its first and last id), replaced, past it, below the
        // prefix, and an id whose offset wraps around.
        for (id, frames) in [
            (0x0300_0101u32, 1u32),
            (0x0300_0000, 2),
            (0x0300_3FFF, 3),
            (0x0300_0101, 4),
            (0x0300_4000, 5),
            (0x0200_0001, 6),
            (5, 7),
        ] {
            map.insert_as(id, record(id, frames));
        }
        assert_eq!(map.dense.len(), 0x4000);
        let frames = |id: u32| map.node_animation(id).num_frames;
        assert_eq!(frames(0x0300_0101), 4);
        assert_eq!(frames(0x0300_0000), 2);
        assert_eq!(frames(0x0300_3FFF), 3);
        assert_eq!(frames(0x0300_4000), 5);
        assert_eq!(frames(0x0200_0001), 6);
        assert_eq!(frames(5), 7);
        // Missing ids, with and without a slot, read as the empty record.
        for id in [0x0300_0102, 0x0300_4001, 0x0400_0000, 6] {
            assert!(Arc::ptr_eq(map.node_animation(id).arc(), map.empty.arc()));
        }
        // Every id in and around the slots: the map's record.
        for id in (0x02FF_FFF0..0x0300_4010).chain(0..16) {
            let plain = map.map.get(&id).unwrap_or(&map.empty);
            assert!(
                Arc::ptr_eq(map.node_animation(id).arc(), plain.arc()),
                "{id:x}"
            );
        }
    }

    #[test]
    fn anim_map_keeps_each_record_with_its_hook_mask() {
        // Record 5 has hooks on frames 2 and 66 (bits 2); record 6 on none; id 7 is
        // missing and reads as the empty record, which has no frames.
        let hook = AnimHook {
            hook_type: 7,
            direction: 0,
            payload: Vec::new(),
        };
        let mut part_frames = vec![PartFrame::default(); 70];
        for i in [2, 66] {
            part_frames[i].hooks.push(hook.clone());
        }
        let mut map = AnimMap::new();
        map.insert(Animation {
            id: 5,
            num_frames: 70,
            part_frames,
            ..Animation::default()
        });
        map.insert_as(
            6,
            Arc::new(Animation {
                id: 6,
                num_frames: 3,
                part_frames: vec![PartFrame::default(); 3],
                ..Animation::default()
            }),
        );
        let (a, b, c) = (
            map.node_animation(5),
            map.node_animation(6),
            map.node_animation(7),
        );
        assert_eq!(a.hooks_at, 0b100);
        assert_eq!((b.hooks_at, c.hooks_at), (0, 0));
        // The same shared records as `animation` gives, and the plain mask of each.
        for (id, n) in [(5, &a), (6, &b), (7, &c)] {
            assert!(Arc::ptr_eq(n.arc(), &map.animation(id)));
            assert_eq!(n.hooks_at, NodeAnimation::new(map.animation(id)).hooks_at);
        }
        assert_eq!((c.num_frames, c.part_frames.len()), (0, 0));
    }

    #[test]
    fn floor_key_compares_with_integers_as_the_f64_floor_does() {
        let xs = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            29.999998,
            30.0,
            4_194_303.5,
            -4_194_303.5,
            4_194_304.5,
            16_777_216.0,
            3.0e9,
            -3.0e9,
            1.0e30,
            -1.0e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let ns = [
            i32::MIN,
            -4_194_305,
            -1,
            0,
            29,
            30,
            4_194_303,
            4_194_304,
            16_777_215,
            16_777_216,
            i32::MAX,
        ];
        for x in xs {
            let k = floor_key(x, i64::MIN);
            // What the update remembers as the next update's starting floor.
            if let Ok(f) = i32::try_from(k) {
                assert_eq!(f, floor_i32(x), "{x}");
            }
            for n in ns {
                assert_eq!(k > i64::from(n), floor64(x) > n as f64, "{x} > {n}");
                assert_eq!(i64::from(n) < k, (n as f64) < floor64(x), "{n} < {x}");
            }
        }
        assert_eq!(floor_key(29.999998, 0), 29);
        assert_eq!(floor_key(-0.5, 0), -1);
        assert_eq!(floor_key(3.0e9, 0), 3_000_000_000);
        assert_eq!(floor_key(f32::NAN, i64::MIN), i64::MIN);
        assert_eq!(floor_key(f32::INFINITY, 0), i64::MAX);
    }

    #[test]
    fn floor_truncates_and_steps_down_for_negative_fractions() {
        assert_eq!(floor64(2.999), 2.0);
        assert_eq!(floor64(3.0), 3.0);
        assert_eq!(floor64(0.25), 0.0);
        assert_eq!(floor64(-0.5), -1.0);
        assert_eq!(floor64(-3.0), -3.0);
        assert_eq!(floor64(-3.25), -4.0);
        assert_eq!(floor64(29.999998), 29.0);
        assert_eq!(floor64(-0.0), 0.0);
        assert_eq!(floor64(4_194_303.5), 4_194_303.0);
        assert_eq!(floor64(-4_194_303.5), -4_194_304.0);
        // From 2^22 on the library floor is used (every f32 past 2^23 is an integer).
        assert_eq!(floor64(4_194_304.5), 4_194_304.0);
        assert_eq!(floor64(16_777_216.0), 16_777_216.0);
        assert_eq!(floor64(-1.0e10), -1.0e10);
        assert!(floor64(f32::NAN).is_nan());
        for x in [
            2.999f32,
            3.0,
            0.25,
            -0.5,
            -3.0,
            -3.25,
            29.999998,
            -0.0,
            4_194_303.5,
            -4_194_303.5,
            4_194_304.5,
            -1.0e10,
            3.0e9,
            f32::NAN,
            f32::INFINITY,
        ] {
            assert_eq!(floor_i32(x), floor64(x) as i32, "{x}");
        }
        assert_eq!(floor_i32(-3.25), -4);
        assert_eq!(floor_i32(4_194_303.5), 4_194_303);
        assert_eq!(floor_i32(-4_194_303.5), -4_194_304);
        assert_eq!(floor_i32(3.0e9), i32::MAX);
        assert_eq!(floor_i32(f32::NAN), 0);
        assert_eq!(floor64(f32::INFINITY), f64::INFINITY);
    }
}
