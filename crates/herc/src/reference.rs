//! The plain DBSIM algorithm: thread advance, seek, root read/seed, the tick and the pose,
//! written step by step in the shape of the original functions, with the rule ids of
//! docs/herc.md. No memo, no specialisation, no table beyond the original's cosine table.
//!
//! The fast engine ([`crate::ShapeInstance`], [`crate::thread`], [`crate::root_motion`],
//! [`crate::object`]) must give bit-identical state; `tests/differential.rs` drives random
//! operation sequences through both and compares after every step. Change a rule here
//! first; that test then shows which fast path has to follow.
//!
//! What is shared with the fast engine, because it has no fast path: the model
//! ([`crate::AnimList`]), the thread record and its plain operations (SetSequence, Request
//! and its search, SetRate, DropRequest), the Q10 blend ([`crate::pose::thread_local`]),
//! Concat, Inverse, Apply and ToEuler of [`crate::transform::Transform3`], the cosine table
//! (M3) and the conformance runners, which are generic over
//! [`crate::shape_engine::ShapeEngine`]: `HercRefSim` and `MechRefSim` are those runners on
//! `PlainShape`.
//!
//! Public with the cargo feature `reference`; `retroanim run --reference` writes a trace
//! through it.

use crate::anim_list::{AnimList, Keyframe, Sequence};
use crate::mech_scenario::MechSim;
use crate::object::SimObject;
use crate::pose::thread_local;
use crate::scenario::HercSim;
use crate::shape_engine::ShapeEngine;
use crate::shape_instance::{ShapeError, MAX_SLOTS};
use crate::thread::{AnimationThread, AT_TARGET, IN_TRANSITION, STOP_ON_ARRIVAL};
use crate::transform::{Transform3, KIND_GENERAL, KIND_GENERAL_X, KIND_Z, ONE};
use crate::trig::{cos, sin};

/// The conformance runner ([`HercSim`]) on the plain algorithm: the same steps, the same
/// trace lines.
pub type HercRefSim = HercSim<PlainShape>;

/// The mech scenario runner ([`MechSim`]) on the plain algorithm.
pub type MechRefSim = MechSim<PlainShape>;

/// [`crate::run`] through the reference: a mech scenario on [`MechRefSim`], any other on
/// [`HercRefSim`]. The trace is the fast engine's, byte for byte.
pub fn run(
    scenario: &retroanim_core::Scenario,
) -> Result<Vec<serde_json::Value>, retroanim_core::ScenarioError> {
    if crate::mech_scenario::is_mech_scenario(scenario) {
        return retroanim_core::run_scenario::<MechRefSim>(scenario);
    }
    retroanim_core::run_scenario::<HercRefSim>(scenario)
}

/// The sequence a thread names; sequence 0 for an id outside the model (a cursor written by
/// hand), as the fast engine does, so that every operation stays total.
fn sequence(list: &AnimList, s: i16) -> &Sequence {
    list.sequence(s).unwrap_or(&list.sequences()[0])
}

// ---------------------------------------------------------------------------------------
// Transforms (M6, H14, H15, H29)
// ---------------------------------------------------------------------------------------

/// `i16((v + 0x2000) >> 14)`, the rounding of FromEuler's products (M6).
fn r(v: i32) -> i32 {
    i32::from((v.wrapping_add(0x2000) >> 14) as i16)
}

/// BuildEulerRotationMatrixQ14 (0x47eaac; M6): the identity for no angle, a yaw matrix
/// (kind 1) for x = y = 0, else the general sums of C and S (kind 2, or 3 with x ≠ 0).
pub fn from_euler(x: i16, y: i16, z: i16) -> Transform3 {
    let w = |v: i32| v as i16;
    if x == 0 && y == 0 {
        if z == 0 {
            return Transform3::IDENTITY;
        }
        let (c, s) = (cos(z), sin(z));
        return Transform3 {
            m: [c, s, s.wrapping_neg(), c, 0, 0, 0, 0, ONE],
            kind: KIND_Z,
            t: [0, 0, 0],
        };
    }
    let cw = |a: i16| i32::from(cos(a));
    let sw = |a: i16| i32::from(sin(a));
    let sx = sw(x);
    let mut m = [0i16; 9];
    let (a, b) = (cw(y.wrapping_sub(z)), cw(z.wrapping_add(y)));
    let (s, d) = ((a + b) >> 1, (a - b) >> 1);
    m[0] = w(s - r(sx * d));
    m[7] = w(d - r(sx * s));
    let (a, b) = (sw(y.wrapping_add(z)), sw(z.wrapping_sub(y)));
    let (s, d) = ((a + b) >> 1, (a - b) >> 1);
    m[1] = w(r(sx * d) + s);
    m[6] = w(r(sx * s) + d);
    m[3] = w((cw(z.wrapping_add(x)) + cw(x.wrapping_sub(z))) >> 1);
    m[8] = w((cw(y.wrapping_add(x)) + cw(x.wrapping_sub(y))) >> 1);
    m[5] = w(sx);
    m[4] = w((-(sw(y.wrapping_add(x)) + sw(y.wrapping_sub(x)))) >> 1);
    m[2] = w(-((sw(z.wrapping_add(x)) + sw(z.wrapping_sub(x))) >> 1));
    let kind = if x == 0 { KIND_GENERAL } else { KIND_GENERAL_X };
    Transform3 {
        m,
        kind,
        t: [0, 0, 0],
    }
}

/// A local record `[rx, ry, rz, tx, ty, tz]` as a transform (H13): FromEuler, translation.
pub fn from_local(k: &Keyframe) -> Transform3 {
    from_euler(k[0], k[1], k[2]).with_translation([k[3], k[4], k[5]].map(i32::from))
}

/// `Gt` of Commit / Uncommit: FromEuler of G's angles with G's translation (H14).
fn whole(g: &Keyframe) -> Transform3 {
    from_local(g)
}

/// The partial `P` (H15): each component `c·acc/dur`, truncating toward zero; the identity
/// for `dur = 0` (D2).
fn partial(g: &Keyframe, acc: i16, dur: i16) -> Transform3 {
    if dur == 0 {
        return Transform3::IDENTITY;
    }
    let p = g.map(|c| (i32::from(c) * i32::from(acc) / i32::from(dur)) as i16);
    let t = [3, 4, 5].map(|i| i32::from(g[i]) * i32::from(acc) / i32::from(dur));
    from_euler(p[0], p[1], p[2]).with_translation(t)
}

/// Mech_IntegrateMotion's object update (0x418f40; H29): `O = FromEuler(euler)` at the
/// position, `position = TransformPoint(O, delta.t)`, each euler angle gains ToEuler(delta).
pub fn integrate(object: &mut SimObject, delta: &Transform3) {
    object.position = object_transform(object).transform_point(delta.t);
    let d = delta.to_euler();
    for (e, d) in object.euler.iter_mut().zip(d) {
        *e = e.wrapping_add(d);
    }
}

/// The object transform O (H29).
pub fn object_transform(object: &SimObject) -> Transform3 {
    let [x, y, z] = object.euler;
    from_euler(x, y, z).with_translation(object.position)
}

// ---------------------------------------------------------------------------------------
// One thread (H1–H9, H14, H15)
// ---------------------------------------------------------------------------------------

/// Load G (0x478de8; H14): a sequence without ground movement only drops the flag; a ground
/// frame loads column 0's key.
fn load_ground(th: &mut AnimationThread, list: &AnimList, s: i16, f: i16) {
    let sq = sequence(list, s);
    if !sq.ground {
        th.ground = false;
        return;
    }
    if let Some(k) = sq.key(f, 0) {
        th.g = list.keyframe(k);
        th.ground = true;
    }
}

/// Entering the armed transition frame (H6, H9): its duration, its key as G, the flag.
fn take_transition(th: &mut AnimationThread, list: &AnimList) {
    th.dur = th.tr_dur;
    th.scan_frame = -1;
    th.flags |= IN_TRANSITION;
    th.g = list.keyframe(th.tr_key);
    th.ground = true;
}

/// Commit (0x478e60; H14): `root = Concat(Gt, root)`.
fn commit(th: &mut AnimationThread) {
    if th.ground {
        th.root = whole(&th.g).concat(&th.root);
    }
}

/// Uncommit (0x478ee8; H14): `root = Concat(Inverse(Gt), root)`.
fn uncommit(th: &mut AnimationThread) {
    if th.ground {
        th.root = whole(&th.g).inverse().concat(&th.root);
    }
}

/// Arrival (H8): playing the target sequence, at the target frame or any.
fn arrived(th: &AnimationThread) -> bool {
    th.seq == th.target_seq && (th.target_frame == th.frame || th.target_frame == -1)
}

/// AnimThread_Advance (0x479614; H1, H2, H6, H8, H9, D2), its eight steps.
pub fn advance(th: &mut AnimationThread, list: &AnimList, delta: i16) {
    // 1. Frozen at the target with stop-on-arrival (H8).
    if th.flags & AT_TARGET != 0 && th.target_flags & STOP_ON_ARRIVAL != 0 {
        return;
    }
    // 2. The step in whole ticks: i16((delta·rate) >> 8) (H1, H19); none changes nothing.
    let step = ((i32::from(delta) * i32::from(th.rate)) >> 8) as i16;
    if step == 0 {
        return;
    }
    // 3. The new time in the frame, wrapping to 16 bits.
    let mut t = th.acc.wrapping_add(step);
    // 4. A one-shot at frame 0 played backward holds there (H2), unless frame 0 is armed.
    if t < 0 && th.frame == 0 && th.scan_frame != 0 && sequence(list, th.seq).previous(0) == 0 {
        t = 0;
    }
    // 5. Landing at acc 0: a transition frame becomes its sequence's frame again (H9).
    if t == 0 {
        th.acc = 0;
        if th.flags & IN_TRANSITION != 0 {
            let sq = sequence(list, th.seq);
            th.next_seq = th.seq;
            th.next_frame = sq.next(th.frame);
            th.dur = sq.duration(th.frame);
            th.flags &= !IN_TRANSITION;
            load_ground(th, list, th.seq, th.frame);
        }
        if arrived(th) {
            th.flags |= AT_TARGET;
        }
        return;
    }
    // 6. Still inside the frame: forward it is only the time; backward, step 8.
    if t < th.dur {
        if t >= 0 {
            th.acc = t;
        } else {
            step_backward(th, list, t);
        }
        return;
    }
    step_forward(th, list, t);
}

/// Advance step 7: commit the frame's G, enter the next cursor (the armed transition frame,
/// H6, or the sequence's next frame, H2), until the time left is inside a frame. A frame of
/// length 0 ends the advance; a transition of length 0 is passed through.
fn step_forward(th: &mut AnimationThread, list: &AnimList, mut t: i16) {
    while t != 0 && th.dur <= t {
        commit(th);
        th.seq = th.next_seq;
        th.frame = th.next_frame;
        t = t.wrapping_sub(th.dur);
        if th.frame == th.scan_frame {
            th.next_seq = th.tr_seq;
            th.next_frame = th.tr_frame;
            take_transition(th, list);
        } else {
            th.next_frame = sequence(list, th.next_seq).next(th.next_frame);
            th.dur = sequence(list, th.seq).duration(th.frame);
            if th.dur == 0 {
                t = 0;
            }
            th.flags &= !IN_TRANSITION;
            load_ground(th, list, th.seq, th.frame);
        }
        th.acc = 0;
        if arrived(th) {
            th.flags |= AT_TARGET;
            if th.target_flags & STOP_ON_ARRIVAL != 0 {
                t = 0;
            }
        }
    }
    th.acc = t;
}

/// Advance step 8 (H9): the cursor becomes the next cursor, the previous frame (or the
/// armed transition from its far end) is entered and its G uncommitted, until the time
/// left is inside a frame.
fn step_backward(th: &mut AnimationThread, list: &AnimList, mut t: i16) {
    while t < 0 {
        th.next_seq = th.seq;
        th.next_frame = th.frame;
        if th.frame == th.scan_frame {
            th.seq = th.tr_seq;
            th.frame = th.tr_frame;
            take_transition(th, list);
        } else {
            let sq = sequence(list, th.seq);
            if th.flags & IN_TRANSITION == 0 && th.dur == 0 && sq.previous(th.frame) == th.frame {
                // DEVIATION (D2): a one-shot played backward onto a frame 0 of length 0
                // never uses up t (DBSIM loops forever); it holds there.
                th.acc = 0;
                break;
            }
            th.frame = sq.previous(th.frame);
            th.dur = sq.duration(th.frame);
            th.flags &= !IN_TRANSITION;
            load_ground(th, list, th.seq, th.frame);
        }
        uncommit(th);
        if i32::from(t) + i32::from(th.dur) >= 0 {
            th.acc = t.wrapping_add(th.dur);
            t = 0;
        } else {
            th.acc = 0;
            t = t.wrapping_add(th.dur);
        }
        if arrived(th) {
            th.flags |= AT_TARGET;
            if th.target_flags & STOP_ON_ARRIVAL != 0 {
                t = 0;
                th.acc = 0;
            }
        }
    }
}

/// AnimThread_SeekToPosition (0x479238; H4b): `rem = Q14(pos, total − 1)`, whole frames
/// walked off it (never past the last), then SetSequence there.
pub fn seek(th: &mut AnimationThread, list: &AnimList, s: i16, pos: i16) {
    let sq = sequence(list, s);
    let mut rem = (i32::from(pos) * (sq.total_duration() - 1)) >> 14;
    let mut f = 0;
    while f + 1 < sq.frames.len() && rem >= i32::from(sq.frames[f].duration) {
        rem -= i32::from(sq.frames[f].duration);
        f += 1;
    }
    th.set_sequence(list, s, f as i16, rem as i16);
}

/// Read (0x478fa8; H15): the root with the elapsed part P of the frame's G.
pub fn read_root(th: &AnimationThread) -> Transform3 {
    if !th.ground {
        return th.root;
    }
    partial(&th.g, th.acc, th.dur).concat(&th.root)
}

/// Write / seed (0x479088; H15): the root that makes [`read_root`] give `value` now.
pub fn write_root(th: &mut AnimationThread, value: &Transform3) {
    if !th.ground {
        th.root = *value;
        return;
    }
    th.root = partial(&th.g, th.acc, th.dur).inverse().concat(value);
}

// ---------------------------------------------------------------------------------------
// The shape instance (H10–H13, H16–H18, H28, D4–D7)
// ---------------------------------------------------------------------------------------

/// The slot sort (0x478930; H18): a bubble sort that swaps neighbours only when the earlier
/// priority is strictly greater.
pub fn sort(list: &AnimList, threads: &[AnimationThread], slots: &mut [usize]) {
    let priority = |id: usize| sequence(list, threads[id].seq).priority;
    let n = slots.len();
    for pass in 0..n {
        let mut swapped = false;
        for i in 0..n.saturating_sub(1 + pass) {
            if priority(slots[i]) > priority(slots[i + 1]) {
                slots.swap(i, i + 1);
                swapped = true;
            }
        }
        if !swapped {
            break;
        }
    }
}

/// ShapeInst_EvalAllNodeLocals (0x4789f4) then the world build (0x478b58): every node at its
/// rest record (D6; node 0 keeps it, H12), each slot's thread writing the nodes its sequence
/// animates from the last slot to the first (H17, H10, D5), then the world transforms
/// parent-first (D7) with `world[0] = root_read` (H13, H28).
pub fn evaluate(
    list: &AnimList,
    threads: &[AnimationThread],
    slots: &[usize],
    root_read: &Transform3,
    locals: &mut [Keyframe],
    world: &mut [Transform3],
) {
    evaluate_locals(list, threads, slots, locals);
    let nodes = list.nodes();
    for &n in list.parent_first() {
        let n = usize::from(n);
        world[n] = if n == 0 {
            *root_read
        } else {
            let local = from_local(&locals[n]);
            match usize::try_from(nodes[n].parent) {
                Ok(p) => local.concat(&world[p]),
                Err(_) => local,
            }
        };
    }
}

/// ShapeInst_EvalAllNodeLocals (0x4789f4) alone: the locals [`evaluate`] poses, every node at
/// its rest record (D6, H12), then each slot's thread from the last slot to the first (H17,
/// H10, D5).
pub fn evaluate_locals(
    list: &AnimList,
    threads: &[AnimationThread],
    slots: &[usize],
    locals: &mut [Keyframe],
) {
    for (local, node) in locals.iter_mut().zip(list.nodes()) {
        *local = list.keyframe(node.rest);
    }
    for &id in slots.iter().rev() {
        let th = &threads[id];
        let Some(seq) = list.sequence(th.seq) else {
            continue;
        };
        for &node in &seq.columns {
            let node = node as usize;
            if let Some(k) = thread_local(list, th, node) {
                locals[node] = k;
            }
        }
    }
}

/// A shape instance run by the plain algorithm: threads, slots, locals and world, nothing
/// else.
#[derive(Clone, Debug)]
pub struct PlainShape {
    threads: Vec<AnimationThread>,
    slots: Vec<usize>,
    locals: Vec<Keyframe>,
    world: Vec<Transform3>,
}

impl PlainShape {
    /// ShapeInst_SeedRootTransform (0x478a70): write `value` into the first slot's thread.
    pub fn seed_root(&mut self, value: &Transform3) {
        if let Some(&id) = self.slots.first() {
            write_root(&mut self.threads[id], value);
        }
    }
}

impl ShapeEngine for PlainShape {
    fn new(list: &AnimList) -> PlainShape {
        let n = list.nodes().len();
        let mut s = PlainShape {
            threads: Vec::new(),
            slots: Vec::new(),
            locals: vec![[0; 6]; n],
            world: vec![Transform3::IDENTITY; n],
        };
        s.evaluate(list, &Transform3::IDENTITY);
        s
    }

    /// ShapeInst_AddThread: the thread constructor (H4d), SetSequence(seq, 0, 0), the last
    /// slot, the sort (H18).
    fn add_thread(&mut self, list: &AnimList, seq: i16) -> Result<usize, ShapeError> {
        if self.threads.len() >= MAX_SLOTS {
            return Err(ShapeError::TooManyThreads);
        }
        if list.sequence(seq).is_none() {
            return Err(ShapeError::NoSuchSequence(seq));
        }
        let mut th = AnimationThread::new(list);
        th.set_sequence(list, seq, 0, 0);
        self.threads.push(th);
        self.slots.push(self.threads.len() - 1);
        sort(list, &self.threads, &mut self.slots);
        Ok(self.threads.len() - 1)
    }

    fn threads(&self) -> &[AnimationThread] {
        &self.threads
    }

    fn thread_mut(&mut self, id: usize) -> Option<&mut AnimationThread> {
        self.threads.get_mut(id)
    }

    fn slots(&self) -> Vec<usize> {
        self.slots.clone()
    }

    fn locals(&self, _list: &AnimList) -> Vec<Keyframe> {
        self.locals.clone()
    }

    fn world(&self) -> &[Transform3] {
        &self.world
    }

    fn read_root(&self) -> Transform3 {
        self.slots
            .first()
            .map_or(Transform3::IDENTITY, |&id| read_root(&self.threads[id]))
    }

    /// SimObject_ApplyRootMotion (0x40250c; H16): seed identity into the first slot, step
    /// every slot's thread (AnimThread_StepAll 0x4789a0) and re-sort once (D4), read the
    /// first slot (possibly another thread, H18), seed identity again.
    fn tick(&mut self, list: &AnimList, anim_delta: i16) -> Transform3 {
        self.seed_root(&Transform3::IDENTITY);
        for &id in &self.slots {
            advance(&mut self.threads[id], list, anim_delta);
        }
        sort(list, &self.threads, &mut self.slots);
        let read = ShapeEngine::read_root(self);
        self.seed_root(&Transform3::IDENTITY);
        read
    }

    fn evaluate(&mut self, list: &AnimList, root_read: &Transform3) {
        evaluate(
            list,
            &self.threads,
            &self.slots,
            root_read,
            &mut self.locals,
            &mut self.world,
        );
    }

    fn advance(&mut self, list: &AnimList, id: usize, delta: i16) {
        if let Some(th) = self.threads.get_mut(id) {
            advance(th, list, delta);
        }
    }

    fn seek(&mut self, list: &AnimList, id: usize, s: i16, pos: i16) {
        if let Some(th) = self.threads.get_mut(id) {
            seek(th, list, s, pos);
        }
    }

    fn write_root(&mut self, id: usize, value: &Transform3) {
        if let Some(th) = self.threads.get_mut(id) {
            write_root(th, value);
        }
    }

    fn integrate(object: &mut SimObject, delta: &Transform3) {
        integrate(object, delta);
    }

    fn object_transform(object: &SimObject) -> Transform3 {
        object_transform(object)
    }

    fn from_euler(x: i16, y: i16, z: i16) -> Transform3 {
        from_euler(x, y, z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::KIND_IDENTITY;

    #[test]
    fn m06_the_plain_from_euler_is_the_formula_for_a_pitch() {
        // x = 8192, an eighth of a turn: C(x) = S(x) = 11585 (cos 45°·16384, rounded) and
        // S(−x) = −11585. With y = z = 0 the general sums give m0 = C(0) = 16384,
        // m1 = m6 = S(0) = 0, m3 = m8 = C(x), m5 = S(x), m7 = −S(x), and
        // m2 = m4 = −(S(x) + S(−x)) >> 1 = 0.
        let t = from_euler(8192, 0, 0);
        assert_eq!(t.m, [16384, 0, 0, 11585, 0, 11585, 0, -11585, 11585]);
        assert_eq!(t.kind, KIND_GENERAL_X);
        assert_eq!(from_euler(0, 0, 0).kind, KIND_IDENTITY);
    }
}
