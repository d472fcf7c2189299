//! One animation thread: DBSIM's 0x52-byte thread record and its state machine (H1–H9).
//!
//! Every method takes the [`AnimList`] the thread plays; the thread stores only ids, so a
//! thread is a plain `Copy` value (DBSIM saves and restores it as 0x52 raw bytes, H30).
//! Arithmetic on the i16 fields wraps on purpose, exactly where DBSIM's 16-bit stores wrap.

use crate::anim_list::{AnimList, Crossing, Keyframe, Sequence};
use crate::root_motion;
use crate::transform::{Transform3, KIND_IDENTITY};
use serde::Serialize;

/// Frame `f` of sequence `s`'s crossing record: the model's, or for a cursor outside its
/// sequence the record made from the lookups themselves.
#[inline(always)]
fn crossing(list: &AnimList, s: i16, f: i16) -> Crossing {
    match list.crossing(s, f) {
        Some(c) => *c,
        None => crossing_outside(list, s, f),
    }
}

/// [`crossing`] of a frame outside its sequence (or a sequence outside the model, played as
/// sequence 0): the next frame, a duration of 0 and no ground key, as the lookups give.
#[inline(never)]
fn crossing_outside(list: &AnimList, s: i16, f: i16) -> Crossing {
    Crossing::of(
        list.sequence(s).unwrap_or(&list.sequences()[0]),
        list.keyframes(),
        f,
    )
}

/// flags bit 0: playback has reached the target.
pub const AT_TARGET: u8 = 1;
/// flags bit 1: the current frame is a transition frame.
pub const IN_TRANSITION: u8 = 2;
/// targetFlags bit 0: stop on arrival.
pub const STOP_ON_ARRIVAL: i16 = 1;

/// The thread record (DBSIM's 0x52-byte thread, F7). Its fields are declared in
/// the order of the trace's thread object, so the record itself is
/// what a trace line carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AnimationThread {
    pub seq: i16,
    pub frame: i16,
    pub next_seq: i16,
    pub next_frame: i16,
    /// Armed frame, −1 = none.
    pub scan_frame: i16,
    pub tr_seq: i16,
    pub tr_frame: i16,
    pub tr_dur: i16,
    pub tr_key: i16,
    pub target_seq: i16,
    pub target_frame: i16,
    pub target_flags: i16,
    /// Whole ticks into the current frame.
    pub acc: i16,
    /// The current frame's (or transition frame's) duration.
    pub dur: i16,
    /// Ground flag (+0x20).
    pub ground: bool,
    /// Loaded ground increment G as `[rx, ry, rz, tx, ty, tz]`.
    pub g: Keyframe,
    /// The stored root.
    pub root: Transform3,
    /// Q8 playback rate.
    pub rate: i16,
    /// Bit 0 AtTarget, bit 1 InTransition.
    pub flags: u8,
}

impl AnimationThread {
    /// The thread constructor (0x478d3c): SetSequence(0, 0, 0), root = identity, rate 0, the
    /// armed-transition and G fields zero (H4d).
    pub fn new(list: &AnimList) -> AnimationThread {
        let mut t = AnimationThread {
            seq: 0,
            frame: 0,
            next_seq: 0,
            next_frame: 0,
            scan_frame: -1,
            tr_seq: 0,
            tr_frame: 0,
            tr_dur: 0,
            tr_key: 0,
            target_seq: -1,
            target_frame: -1,
            target_flags: 0,
            acc: 0,
            dur: 0,
            ground: false,
            g: [0; 6],
            root: Transform3::IDENTITY,
            rate: 0,
            flags: AT_TARGET,
        };
        t.set_sequence(list, 0, 0, 0);
        t.root = Transform3::IDENTITY;
        t
    }

    pub fn at_target(&self) -> bool {
        self.flags & AT_TARGET != 0
    }

    pub fn in_transition(&self) -> bool {
        self.flags & IN_TRANSITION != 0
    }

    /// The sequence being played (a validated model always has it; the fallback keeps the
    /// code total for a thread whose cursor was written by hand).
    fn seq_of(list: &AnimList, s: i16) -> &Sequence {
        list.sequence(s).unwrap_or(&list.sequences()[0])
    }

    /// `SetSequence(s, f, a)` (AnimThread_SetSequence, 0x4791a0; H4a). The caller guarantees
    /// that `s` and `f` exist (the scenario checks them).
    pub fn set_sequence(&mut self, list: &AnimList, s: i16, f: i16, a: i16) {
        self.set_sequence_of(&crossing(list, s, f), s, f, a);
    }

    /// [`AnimationThread::set_sequence`] with frame `f`'s crossing record `c` already looked
    /// up ([`crossing`]).
    #[inline(always)]
    fn set_sequence_of(&mut self, c: &Crossing, s: i16, f: i16, a: i16) {
        self.seq = s;
        self.next_seq = s;
        self.frame = f;
        self.acc = a;
        self.next_frame = c.next;
        self.enter_frame(c);
        self.target_seq = -1;
        self.target_frame = -1;
        self.target_flags = 0;
        self.scan_frame = -1;
        self.flags = AT_TARGET;
    }

    /// `Seek(s, pos)` (AnimThread_SeekToPosition, 0x479238; H4b): pos is a Q14 fraction of
    /// the whole sequence; the offset is always a whole tick. `pos` must be 0..=16384.
    pub fn seek(&mut self, list: &AnimList, s: i16, pos: i16) {
        // Every frame the same length and no ground movement (the torso sequences): the
        // frame walk below is a division.
        if let Some(k) = list.seek_info(s) {
            if k.uniform > 0 {
                let rem = (i32::from(pos) * k.span) >> 14;
                let d = i32::from(k.uniform);
                // The walk stops at the last frame, and at once for a negative remainder.
                let f = (rem.max(0) / d).min(i32::from(k.last)) as i16;
                // f ≤ last: the frame's record is there.
                if let Some(c) = list.crossings().get(k.crossings as usize + f as usize) {
                    self.set_sequence_of(c, s, f, (rem - i32::from(f) * d) as i16);
                    return;
                }
            }
        }
        self.seek_walk(list, s, pos);
    }

    /// [`Self::seek`] for frames of different lengths or a sequence with ground movement:
    /// the frame walk.
    #[inline(never)]
    fn seek_walk(&mut self, list: &AnimList, s: i16, pos: i16) {
        let sq = Self::seq_of(list, s);
        let total = list.total_duration_or_first(s);
        // Q14(pos, total − 1): total ≤ 32767 and pos ≤ 16384, so the product fits in i32
        // and the remainder never drops below 0.
        let mut rem = (i32::from(pos) * (total - 1)) >> 14;
        let mut f: usize = 0;
        while f + 1 < sq.frames.len() && rem >= i32::from(sq.frames[f].duration) {
            rem -= i32::from(sq.frames[f].duration);
            f += 1;
        }
        self.set_sequence(list, s, f as i16, rem as i16);
    }

    /// DropRequest (H4c), written inline by the gait code.
    pub fn drop_request(&mut self) {
        self.scan_frame = -1;
        self.target_seq = -1;
        self.target_frame = -1;
        self.target_flags = 0;
        self.flags = AT_TARGET;
    }

    /// `SetRate(r)` (0x4795cc; H5): a sign change re-runs the pending request.
    pub fn set_rate(&mut self, list: &AnimList, r: i16) {
        let previous = self.rate;
        self.rate = r;
        if (r < 0) != (previous < 0) {
            self.request(list, self.target_seq, self.target_frame, self.target_flags);
        }
    }

    /// `Request(s, f, flags)` (AnimThread_SetTarget, 0x479570; H6).
    pub fn request(&mut self, list: &AnimList, s: i16, f: i16, flags: i16) {
        self.target_seq = s;
        self.target_frame = f;
        self.target_flags = flags;
        self.flags &= !AT_TARGET;
        if s != -1 && (self.seq != s || self.frame != f || self.acc != 0) {
            self.search(list);
            return;
        }
        self.flags |= AT_TARGET;
        self.scan_frame = -1;
    }

    /// Transition search (0x4792c8; H6, H9): walk the playing sequence's frames from the
    /// cursor in the playing direction, arming the first transition into the target that
    /// lands on the near side of the target frame.
    fn search(&mut self, list: &AnimList) {
        let sq = Self::seq_of(list, self.seq);
        let back = self.rate < 0;
        let start = if back { self.frame } else { self.next_frame };
        let (s, f) = (self.target_seq, self.target_frame);
        let mut scan = start;
        // Deviation (fenced): during a transition frame the cursor's next frame belongs to
        // the other sequence and may not exist in this one; DBSIM would read past the frame
        // table. Such a frame offers nothing here and ends the search.
        while let Some(fr) = sq.frame(scan) {
            let first = fr.first_transition as usize;
            let count = fr.transition_count.max(0) as usize;
            for t in list.transitions().iter().skip(first).take(count) {
                if t.dest_seq != s {
                    continue;
                }
                self.tr_seq = s;
                self.tr_frame = t.dest_frame;
                self.tr_dur = t.duration;
                self.tr_key = t.key;
                let accept = f == -1
                    || if back {
                        t.dest_frame > f
                    } else {
                        t.dest_frame < f
                    }
                    || (t.dest_frame == f && self.acc == 0);
                if accept {
                    self.scan_frame = scan;
                    return;
                }
            }
            let prev = scan;
            scan = if back {
                sq.previous(scan)
            } else {
                sq.next(scan)
            };
            if scan == prev || scan == start {
                break;
            }
        }
        self.scan_frame = -1;
    }

    /// `Advance(delta)` (AnimThread_Advance, 0x479614): raw animation ticks, scaled by the
    /// Q8 rate, crossing frames and committing or uncommitting their ground movement.
    #[inline]
    pub fn advance(&mut self, list: &AnimList, delta: i16) {
        // A step of no ticks (a thread at rate 0, such as a torso thread aimed by seeking)
        // changes nothing; answered where it is asked, without the call. The stop-on-arrival
        // test that Advance makes first also changes nothing, so the order does not matter.
        let step = ((i32::from(delta) * i32::from(self.rate)) >> 8) as i16;
        if step == 0 {
            return;
        }
        self.advance_by(list, step);
    }

    /// [`Self::advance`] of a non-zero `step` of ticks (already scaled by the rate).
    #[inline(never)]
    fn advance_by(&mut self, list: &AnimList, step: i16) {
        if self.at_target() && self.target_flags & STOP_ON_ARRIVAL != 0 {
            return;
        }
        let t = self.acc.wrapping_add(step);
        // Playing backward, or onto the start of the frame: out of line.
        if t <= 0 {
            self.advance_to_start_or_back(list, t);
            return;
        }
        if t < self.dur {
            self.acc = t;
            return;
        }
        self.step_forward(list, t);
    }

    /// [`Self::advance_by`] when `acc + step ≤ 0`: Advance steps 4 to 6 and 8.
    #[inline(never)]
    fn advance_to_start_or_back(&mut self, list: &AnimList, mut t: i16) {
        if t < 0
            && self.frame == 0
            && self.scan_frame != 0
            && Self::seq_of(list, self.seq).previous(0) == 0
        {
            t = 0;
        }
        if t == 0 {
            self.acc = 0;
            if self.in_transition() {
                self.land(list);
            }
            self.note_arrival();
            return;
        }
        // t < 0 < dur here unless dur ≤ t (a frame of negative duration in a hand-written
        // cursor), which Advance takes forward.
        if t < self.dur {
            self.step_backward(list, t);
            return;
        }
        self.step_forward(list, t);
    }

    /// Advance step 5's landing: a transition frame played back to acc 0 becomes its own
    /// sequence's frame again.
    fn land(&mut self, list: &AnimList) {
        let c = crossing(list, self.seq, self.frame);
        self.next_seq = self.seq;
        self.next_frame = c.next;
        self.enter_frame(&c);
    }

    fn arrived(&self) -> bool {
        self.seq == self.target_seq && (self.target_frame == self.frame || self.target_frame == -1)
    }

    fn note_arrival(&mut self) {
        if self.arrived() {
            self.flags |= AT_TARGET;
        }
    }

    /// Advance step 7.
    #[inline(always)]
    fn step_forward(&mut self, list: &AnimList, mut t: i16) {
        while t != 0 && self.dur <= t {
            self.commit();
            self.seq = self.next_seq;
            self.frame = self.next_frame;
            t = t.wrapping_sub(self.dur);
            if self.frame == self.scan_frame {
                self.enter_transition(list);
            } else {
                // The next cursor is the current one here, so its next frame is this
                // sequence's next.
                let owned;
                let c = match list.crossing(self.seq, self.frame) {
                    Some(c) => c,
                    None => {
                        owned = crossing_outside(list, self.seq, self.frame);
                        &owned
                    }
                };
                self.next_frame = c.next;
                self.enter_frame(c);
                // A frame of length 0 ends the advance.
                if c.dur == 0 {
                    t = 0;
                }
            }
            self.acc = 0;
            if self.arrived() {
                self.flags |= AT_TARGET;
                if self.target_flags & STOP_ON_ARRIVAL != 0 {
                    t = 0;
                }
            }
        }
        self.acc = t;
    }

    /// Advance step 7's entry into the armed transition frame (H6). A zero-length transition
    /// does not stop the advance: the loop passes through it, as the port does.
    #[inline(never)]
    fn enter_transition(&mut self, list: &AnimList) {
        self.next_seq = self.tr_seq;
        self.next_frame = self.tr_frame;
        self.take_transition_frame(list);
    }

    /// What entering the armed transition frame sets besides the cursor, forward (the next
    /// cursor) or backward (the cursor): its duration, its ground key, the in-transition
    /// flag, and no frame left to scan.
    #[inline(always)]
    fn take_transition_frame(&mut self, list: &AnimList) {
        self.dur = self.tr_dur;
        self.scan_frame = -1;
        self.flags |= IN_TRANSITION;
        self.set_ground_key(list, self.tr_key);
    }

    /// Entering a frame of the playing sequence (not a transition frame), forward, backward,
    /// on landing or by SetSequence: its duration, Load G (H14) and the in-transition flag
    /// cleared, from the frame's crossing record. The one place this rule is written; the
    /// caller sets the cursor and the next cursor.
    #[inline(always)]
    fn enter_frame(&mut self, c: &Crossing) {
        self.dur = c.dur;
        self.flags &= !IN_TRANSITION;
        if c.ground == Crossing::LOAD {
            self.g = c.g;
            self.ground = true;
        } else if c.ground == Crossing::DROP {
            self.ground = false;
        }
    }

    /// Advance step 8 (H9).
    fn step_backward(&mut self, list: &AnimList, mut t: i16) {
        while t < 0 {
            self.next_seq = self.seq;
            self.next_frame = self.frame;
            if self.frame == self.scan_frame {
                self.seq = self.tr_seq;
                self.frame = self.tr_frame;
                self.take_transition_frame(list);
            } else {
                let sq = Self::seq_of(list, self.seq);
                if !self.in_transition() && self.dur == 0 && sq.previous(self.frame) == self.frame {
                    // DEVIATION (robustness): a one-shot played backward onto a frame 0 of
                    // duration 0 can never use up `t`; DBSIM and the port loop forever here.
                    // Hold at that frame, as Advance does for a one-shot at frame 0. (Inside
                    // a reversed transition frame `dur` is the transition's: that step is
                    // taken as usual.)
                    self.acc = 0;
                    break;
                }
                self.frame = sq.previous(self.frame);
                self.enter_frame(&crossing(list, self.seq, self.frame));
            }
            self.uncommit();
            // −t ≤ dur, written so that −32768 needs no negation.
            if i32::from(t) + i32::from(self.dur) >= 0 {
                self.acc = t.wrapping_add(self.dur);
                t = 0;
            } else {
                self.acc = 0;
                t = t.wrapping_add(self.dur);
            }
            if self.arrived() {
                self.flags |= AT_TARGET;
                if self.target_flags & STOP_ON_ARRIVAL != 0 {
                    t = 0;
                    self.acc = 0;
                }
            }
        }
    }

    fn set_ground_key(&mut self, list: &AnimList, k: i16) {
        self.g = list.keyframe(k);
        self.ground = true;
    }

    /// Commit (0x478e60; H14): root = Concat(Gt, root). A G without rotation onto an
    /// unturned root only moves the root (see [`root_motion::commit_onto`]), made inline;
    /// any other commit is kept out of `advance`: inlined, its FromEuler and Concat made the
    /// frame-crossing loop keep the whole thread in registers and on the stack, loaded
    /// before and stored back after the loop.
    #[inline(always)]
    fn commit(&mut self) {
        if self.ground {
            if root_motion::commit_moves_only(&self.g, &self.root) {
                self.root.t = root_motion::moved(&self.g, self.root.t);
            } else {
                self.commit_turned();
            }
        }
    }

    /// [`Self::commit`] of a G with rotation or onto a turned root. A turn in place onto a
    /// root of kind 0 or 1 (a machine turning on the spot) takes Concat's branch for those
    /// kinds directly ([`root_motion::turn_onto`]).
    #[inline(never)]
    fn commit_turned(&mut self) {
        let g = &self.g;
        if g[2] != 0 && root_motion::turns_in_place(g) {
            if let Some(root) = root_motion::turn_onto(g[2], &self.root) {
                self.root = root;
                return;
            }
        }
        self.commit_general();
    }

    /// [`Self::commit_turned`] of any other G or root: Commit's Concat itself.
    #[inline(never)]
    fn commit_general(&mut self) {
        self.root = root_motion::commit_onto(&self.g, &self.root);
    }

    /// Uncommit (0x478ee8; H14): root = Concat(Inverse(Gt), root).
    fn uncommit(&mut self) {
        if self.ground {
            self.root = root_motion::whole(&self.g).inverse().concat(&self.root);
        }
    }

    /// Read (0x478fa8; H15): the root with the elapsed part of the current frame's G.
    pub fn read_root(&self) -> Transform3 {
        if !self.ground {
            return self.root;
        }
        root_motion::partial(&self.g, self.acc, self.dur).concat(&self.root)
    }

    /// Write/seed (0x479088; H15): store the root that makes [`Self::read_root`] return
    /// `value` now.
    pub fn write_root(&mut self, value: &Transform3) {
        if !self.ground {
            self.root = *value;
            return;
        }
        self.root = root_motion::partial(&self.g, self.acc, self.dur)
            .inverse()
            .concat(value);
    }

    /// [`Self::read_root`] then [`Self::write_root`]`(value)` with the partial P built once:
    /// nothing changes the thread between the two, so both would build the same P.
    pub fn read_then_write_root(&mut self, value: &Transform3) -> Transform3 {
        if !self.ground {
            let read = self.root;
            self.root = *value;
            return read;
        }
        let p = root_motion::partial(&self.g, self.acc, self.dur);
        let read = p.concat(&self.root);
        self.root = p.inverse().concat(value);
        read
    }

    /// [`Self::read_then_write_root`]`(IDENTITY)`: Concat with a kind-0 B keeps A's rotation
    /// and kind and adds B's translation, here 0, so the stored root is P's inverse itself.
    #[inline]
    pub fn read_then_seed_identity(&mut self) -> Transform3 {
        if !self.ground {
            let read = self.root;
            self.root = Transform3::IDENTITY;
            return read;
        }
        let g = &self.g;
        if self.dur != 0 && root_motion::commit_moves_only(g, &self.root) {
            // A G without rotation onto an unturned root (a walk, a run), made inline: P is
            // the identity moved by the truncated partial translation, the read adds it to
            // the root's translation, and Inverse(P) is the identity moved back by it.
            let scale = |c: i16| i32::from(c) * i32::from(self.acc) / i32::from(self.dur);
            let pt = [scale(g[3]), scale(g[4]), scale(g[5])];
            let r = &self.root;
            let read = Transform3 {
                m: Transform3::IDENTITY.m,
                kind: r.kind,
                t: [
                    pt[0].wrapping_add(r.t[0]),
                    pt[1].wrapping_add(r.t[1]),
                    pt[2].wrapping_add(r.t[2]),
                ],
            };
            // The root's matrix is the identity's already: only its kind and translation
            // change.
            self.root.kind = KIND_IDENTITY;
            self.root.t = pt.map(i32::wrapping_neg);
            return read;
        }
        self.read_then_seed_turned()
    }

    /// [`Self::read_then_seed_identity`] of a G with rotation or onto a turned root, out of
    /// line.
    #[inline(never)]
    fn read_then_seed_turned(&mut self) -> Transform3 {
        let g = &self.g;
        if self.dur != 0 && root_motion::turns_in_place(g) {
            // A turn in place: P's translation is 0·acc/dur = 0 in every lane and P is
            // FromEuler(0, 0, z) of the scaled angle. For z = 0, P is the identity: the read
            // is the root itself (Concat of a kind-0 A keeps B's rotation and kind and adds
            // `Apply(B, 0) = B.t`) and Inverse(P) the identity.
            let z = (i32::from(g[2]) * i32::from(self.acc) / i32::from(self.dur)) as i16;
            if z == 0 {
                let read = self.root;
                self.root = Transform3::IDENTITY;
                return read;
            }
            if let Some(read) = root_motion::turn_onto(z, &self.root) {
                self.root = root_motion::turn_inverse(z);
                return read;
            }
        }
        self.read_then_seed_general()
    }

    /// [`Self::read_then_seed_turned`] of any other G or root: P, Concat and Inverse
    /// themselves.
    #[inline(never)]
    fn read_then_seed_general(&mut self) -> Transform3 {
        let p = root_motion::partial(&self.g, self.acc, self.dur);
        let read = root_motion::concat_onto(&p, &self.root);
        self.root = root_motion::inverse(&p);
        read
    }

    /// Priority of the playing sequence (the slot-sort key, H17).
    pub fn priority(&self, list: &AnimList) -> i16 {
        Self::seq_of(list, self.seq).priority
    }
}

#[cfg(test)]
mod tests {
    use crate::anim_list::Crossing;
    use crate::bench::sample_biped;

    #[test]
    fn h14_the_crossing_record_of_a_frame_outside_its_sequence_is_missing() {
        // Sample biped walk (sequence 1): six frames, 20, 24, 20, 20, 24, 20 ticks; frame 5
        // is followed by frame 0 (cyclic) and loads G ty 170.
        let list = sample_biped();
        let c = list.crossing(1, 5).unwrap();
        assert_eq!(
            (c.next, c.dur, c.ground, c.g),
            (0, 20, Crossing::LOAD, [0, 0, 0, 0, 170, 0])
        );
        assert!(list.crossing(1, 6).is_none());
        assert!(list.crossing(1, -1).is_none());
        assert!(list.crossing(1, i16::MIN).is_none());
        assert!(list.crossing(-1, 0).is_none());
        assert!(list.crossing(i16::MIN, 0).is_none());
        assert!(list.crossing(8, 0).is_none());
        // The twist (sequence 5) has no ground movement: the flag drops.
        assert_eq!(list.crossing(5, 0).unwrap().ground, Crossing::DROP);
    }
}
