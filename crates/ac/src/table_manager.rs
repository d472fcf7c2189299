//! Completion bookkeeping (`Mgr/MotionTableManager.cs`; quirks Q20, Q25–Q31).

use crate::anim_queue::AnimQueue;
use crate::commands::*;
use crate::math::Vec3;
use crate::motion_table::{change_cycle_speed, MotionState, MotionTableData};
use crate::sequence::{AnimSource, Sequence};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Debug builds check every rest-memo hit against the plain path run on clones of the
/// state, which allocates. The benchmark worlds count allocations of the steady tick,
/// so building one turns that check off for the process (the differential test still
/// compares the memo with the plain path step by step).
static CLONE_CHECKS: AtomicBool = AtomicBool::new(true);

/// Turn the debug builds' cloning check of the rest memo off (see [`CLONE_CHECKS`]).
pub(crate) fn stop_clone_checks() {
    CLONE_CHECKS.store(false, Ordering::Relaxed);
}

/// Whether debug builds check memo hits against the plain path on clones (see
/// [`CLONE_CHECKS`]).
#[cfg(debug_assertions)]
pub(crate) fn clone_checks() -> bool {
    CLONE_CHECKS.load(Ordering::Relaxed)
}

/// `AnimNode`: a motion and the AnimDone signals still owed before it counts as done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnimNode {
    pub motion: u32,
    pub num_anims: u32,
}

/// What `remove_redundant_links_inner` found below an entry.
enum Scan {
    /// An earlier entry of the same motion: cut everything after it.
    Truncate(usize),
    /// An earlier entry that blocks the search: done.
    Stop,
    /// Nothing: go on with the next earlier entry.
    Next,
}

/// `remove_redundant_links_inner` over the entries before the one of `motion`, newest
/// first.
fn redundant_link(before: &[AnimNode], motion: u32, style_mode: bool) -> Scan {
    let mask = if style_mode {
        SUBSTATE | MODIFIER | ACTION
    } else {
        STYLE | MODIFIER | ACTION
    };
    for (p, pn) in before.iter().enumerate().rev() {
        if pn.motion == motion && (style_mode || pn.num_anims != 0) {
            return Scan::Truncate(p);
        }
        if pn.num_anims != 0 && pn.motion & mask != 0 {
            return Scan::Stop;
        }
    }
    Scan::Next
}

/// What a completed entry calls back into: `PhysicsObj.MotionDone` (which pops the
/// interpreter's queue) and the weenie's `OnMotionDone`.
///
/// The manager's completion loops take the sink as a type parameter rather than a
/// `dyn` reference: the object's sink is then known where the loop is compiled and its
/// two callbacks are inlined into it (a `dyn` sink still works, as `S = dyn ...`).
pub trait MotionDoneSink {
    fn motion_done(&mut self, motion: u32, success: bool);
    fn on_motion_done(&mut self, motion: u32, success: bool);
}

/// `MotionTableManager`.
// `repr(C)`: the table and the pending queue, which every tick of the object reads,
// first, next to the object's hot fields (see `PhysicsObj`).
#[derive(Clone, Debug)]
#[repr(C)]
pub struct MotionTableManager {
    pub table: Arc<MotionTableData>,
    /// `pending_animations`, oldest first (read it with [`MotionTableManager::pending`]).
    // Not public: every change goes through this module, which keeps `quiet_tail`.
    pub(crate) pending: AnimQueue,
    pub state: MotionState,
    pub animation_counter: u32,
    /// When true, no entry of `pending` after its head owes animations, so
    /// `remove_redundant_links` has nothing to cut. Kept where entries are queued (an
    /// owing entry queued behind the head clears it); taking entries from the front,
    /// clearing the queue and zeroing counts leave it true. False only means unknown.
    /// Never true for a manager with plain stops ([`MotionTableManager::plain_stops`]),
    /// which always scans, so a true flag answers without reading the rest memo.
    // In the padding after `animation_counter`: the manager keeps its size.
    quiet_tail: bool,
    /// The rest cycle a StopCompletely at rest reads (see [`RestMemo`]).
    // Boxed when the manager is made: only StopCompletely reads it, and inline it
    // was 48 of the object's bytes that every object carried and no tick touches.
    pub(crate) rest: Box<RestMemo>,
}

/// What `StopObjectCompletely` reads of the table when the object already rests in its
/// style's default substate: that substate's cycle's velocity and omega. Keyed by the
/// table (its address: a manager's table is shared and never written), the style and
/// the substate; everything else the plain path reads (no modifiers, a sequence with
/// animations, a positive substate speed) is tested on each use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RestMemo {
    Empty,
    /// The reference tick's objects: every StopCompletely takes the plain path.
    #[cfg_attr(not(feature = "reference"), allow(dead_code))]
    Off,
    At {
        table: usize,
        style: u32,
        substate: u32,
        velocity: Vec3,
        omega: Vec3,
    },
}

impl MotionTableManager {
    pub fn new(table: Arc<MotionTableData>) -> MotionTableManager {
        MotionTableManager {
            table,
            state: MotionState::default(),
            animation_counter: 0,
            quiet_tail: true,
            pending: AnimQueue::with_capacity(4),
            rest: Box::new(RestMemo::Empty),
        }
    }

    /// `PerformMovement` for the three types the table handles.
    // Inline: the interpreter's motion calls each make one, and the call's register
    // saves cost more than the dispatch.
    #[inline]
    pub fn perform_movement(
        &mut self,
        kind: MovementType,
        motion: u32,
        speed: f32,
        seq: &mut Sequence,
        src: &dyn AnimSource,
    ) -> WeenieError {
        let mut n = 0u32;
        let table = &*self.table;
        match kind {
            MovementType::InterpretedCommand => {
                if !table.do_object_motion(motion, &mut self.state, seq, speed, &mut n, src) {
                    return WeenieError::NoMtableData;
                }
                self.add_to_queue(motion, n, seq);
                WeenieError::None
            }
            MovementType::StopInterpretedCommand => {
                if !table.stop_sequence_motion(motion, speed, &mut self.state, seq, &mut n, src) {
                    return WeenieError::NoMtableData;
                }
                self.add_to_queue(READY, n, seq);
                WeenieError::None
            }
            MovementType::StopCompletely => {
                let n = self.stop_object_completely(seq, src);
                self.add_to_queue(READY, n, seq);
                WeenieError::None
            }
            _ => WeenieError::None,
        }
    }

    /// `StopObjectCompletely` on the manager's state; the number of animations queued.
    ///
    /// An object resting in its style's default substate (no modifiers) only re-applies
    /// that substate's cycle at speed 1: the [`RestMemo`] keeps the cycle's velocity
    /// and omega, so the stop costs no table lookup. Debug builds check every hit
    /// against the plain path.
    fn stop_object_completely(&mut self, seq: &mut Sequence, src: &dyn AnimSource) -> u32 {
        if self.stop_at_rest(seq, src) {
            return 0;
        }
        let mut n = 0u32;
        let table = &*self.table;
        table.stop_object_completely(&mut self.state, seq, &mut n, src);
        self.rest_fill();
        n
    }

    /// The [`RestMemo`]'s StopObjectCompletely: on a hit the stop is done (it queues no
    /// animation); on a miss nothing changed and the plain path must run.
    // Out of line: with the plain stop its only caller, the compiler inlined it into
    // every `perform_movement`, where most calls do not stop completely.
    #[inline(never)]
    pub(crate) fn stop_at_rest(&mut self, seq: &mut Sequence, src: &dyn AnimSource) -> bool {
        match self.rest_hit(seq) {
            Some((velocity, omega)) => {
                self.stop_at_rest_hit(seq, velocity, omega, src);
                true
            }
            None => false,
        }
    }

    /// [`MotionTableManager::stop_at_rest`] when [`MotionTableManager::rest_hit`] has
    /// just answered `velocity` and `omega` for the state and sequence now.
    #[inline(always)]
    pub(crate) fn stop_at_rest_hit(
        &mut self,
        seq: &mut Sequence,
        velocity: Vec3,
        omega: Vec3,
        src: &dyn AnimSource,
    ) {
        debug_assert!(self.rest_hit(seq).is_some(), "rest memo: no hit");
        #[cfg(debug_assertions)]
        let plain = CLONE_CHECKS.load(Ordering::Relaxed).then(|| {
            let (mut state, mut seq) = (self.state.clone(), seq.clone());
            let mut n = 0u32;
            self.table
                .stop_object_completely(&mut state, &mut seq, &mut n, src);
            (state, seq, n)
        });
        self.rest_apply(seq, velocity, omega);
        #[cfg(debug_assertions)]
        if let Some((state, pseq, n)) = plain {
            debug_assert_eq!(n, 0, "rest memo: animations");
            debug_assert_eq!(state, self.state, "rest memo: state");
            debug_assert_eq!(
                crate::sequence::physics_bits(&pseq),
                crate::sequence::physics_bits(seq),
                "rest memo: sequence"
            );
        }
        #[cfg(not(debug_assertions))]
        let _ = src;
    }

    /// Two [`MotionTableManager::stop_at_rest`] calls in a row with nothing in between:
    /// when the first hits, the second is [`MotionTableManager::stop_at_rest_again`],
    /// made here with the cycle the first one's memo answered (the memo is not read
    /// again).
    #[inline]
    pub(crate) fn stop_at_rest_twice(&mut self, seq: &mut Sequence, src: &dyn AnimSource) -> bool {
        let Some((velocity, omega)) = self.rest_hit(seq) else {
            return false;
        };
        self.stop_at_rest_hit(seq, velocity, omega, src);
        debug_assert!(
            self.rest_hit(seq).is_some(),
            "rest memo: the second stop misses"
        );
        self.rest_apply(seq, velocity, omega);
        true
    }

    /// [`MotionTableManager::stop_at_rest`] again, right after it answered true with
    /// nothing in between that it reads: the memo hits again for certain (the stop kept
    /// the style, the substate, the empty modifier list and the sequence's animations,
    /// and left the substate speed at 1), so only the stop's arithmetic remains: the
    /// cycle's velocity and omega out and in at speed 1, which is not bitwise
    /// idempotent (the framerate ratio 1/1 changes nothing, see `rest_apply`).
    // Inline: a handful of additions, cheaper than the call. Release builds make the
    // second stop through `stop_at_rest_hit_again`; this is its plain twin.
    #[inline]
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub(crate) fn stop_at_rest_again(&mut self, seq: &mut Sequence) {
        debug_assert!(
            self.rest_hit(seq).is_some(),
            "rest memo: the second stop misses"
        );
        if let RestMemo::At {
            velocity, omega, ..
        } = *self.rest
        {
            self.rest_apply(seq, velocity, omega);
        }
    }

    /// [`MotionTableManager::stop_at_rest_again`] with the cycle that the first stop's
    /// [`MotionTableManager::rest_hit`] answered (`velocity`, `omega`), rather than the
    /// memo read again: the first stop left the substate speed at 1, so the cycle goes
    /// out and in unscaled (the product by 1 is the cycle itself, as in
    /// [`MotionTableManager::stop_at_rest_twice`]'s second stop). Debug builds check
    /// each use against `stop_at_rest_again` run on clones.
    #[inline(always)]
    pub(crate) fn stop_at_rest_hit_again(
        &mut self,
        seq: &mut Sequence,
        velocity: Vec3,
        omega: Vec3,
    ) {
        debug_assert_eq!(
            self.state.substate_mod.to_bits(),
            1.0f32.to_bits(),
            "rest memo: the first stop left a speed"
        );
        debug_assert!(
            self.rest_hit(seq)
                .is_some_and(|(v, w)| [v, w].map(|x| [x.x, x.y, x.z].map(f32::to_bits))
                    == [velocity, omega].map(|x| [x.x, x.y, x.z].map(f32::to_bits))),
            "rest memo: another cycle"
        );
        #[cfg(debug_assertions)]
        let plain = CLONE_CHECKS.load(Ordering::Relaxed).then(|| {
            let (mut tm, mut s) = (self.clone(), seq.clone());
            tm.stop_at_rest_again(&mut s);
            (tm.state, s)
        });
        seq.subtract_physics(velocity, omega);
        seq.combine_physics(velocity, omega);
        #[cfg(debug_assertions)]
        if let Some((state, pseq)) = plain {
            debug_assert_eq!(state, self.state, "rest memo again: state");
            debug_assert_eq!(
                crate::sequence::physics_bits(&pseq),
                crate::sequence::physics_bits(seq),
                "rest memo again: sequence"
            );
        }
    }

    /// The rest stop's effect: the substate's cycle re-applied at speed 1.
    ///
    /// At speed 1 already (every rest stop but the first after a change of speed, and
    /// the second of two in a row) the cycle's framerates are multiplied by 1/1, which
    /// leaves each one as it is: every framerate in a sequence is a product (the
    /// clip's framerate times the speed when it was appended, times each later rate)
    /// or the literal 0, so none is a signalling NaN that a multiplication would quiet.
    // `always`: a handful of additions in each caller, which the compiler otherwise
    // made one out-of-line copy of.
    #[inline(always)]
    fn rest_apply(&mut self, seq: &mut Sequence, velocity: Vec3, omega: Vec3) {
        let sm = self.state.substate_mod;
        if sm != 1.0 {
            change_cycle_speed(seq, sm, 1.0);
        }
        seq.subtract_physics(velocity.scale(sm), omega.scale(sm));
        seq.combine_physics(velocity.scale(1.0), omega.scale(1.0));
        self.state.substate_mod = 1.0;
    }

    /// The memo's cycle when it answers for the state now.
    #[inline]
    pub(crate) fn rest_hit(&self, seq: &Sequence) -> Option<(Vec3, Vec3)> {
        match *self.rest {
            RestMemo::At {
                table,
                style,
                substate,
                velocity,
                omega,
            } if table == Arc::as_ptr(&self.table) as usize
                && style == self.state.style
                && substate == self.state.substate
                && self.state.modifiers.is_empty()
                && self.state.substate_mod > 0.0
                && seq.has_anims() =>
            {
                Some((velocity, omega))
            }
            _ => None,
        }
    }

    /// After a plain StopCompletely: remember the rest cycle of a new (table, style,
    /// substate), if the state rests in a cycle the fast stop can re-apply.
    fn rest_fill(&mut self) {
        let table = Arc::as_ptr(&self.table) as usize;
        let (style, substate) = (self.state.style, self.state.substate);
        match *self.rest {
            RestMemo::Off => return,
            RestMemo::At {
                table: t,
                style: s,
                substate: u,
                ..
            } if t == table && s == style && u == substate => return,
            _ => {}
        }
        if let Some(md) = self.table.rest_cycle(style, substate) {
            *self.rest = RestMemo::At {
                table,
                style,
                substate,
                velocity: md.velocity,
                omega: md.omega,
            };
        }
    }

    /// Whether StopCompletely always takes the plain path here (the reference tick's
    /// objects); the move-to layer's shortcuts then stay off too.
    pub(crate) fn takes_plain_stops(&self) -> bool {
        matches!(*self.rest, RestMemo::Off)
    }

    /// Every later StopCompletely takes the plain path (the reference tick's objects).
    #[cfg(feature = "reference")]
    pub(crate) fn plain_stops(&mut self) {
        *self.rest = RestMemo::Off;
        self.quiet_tail = false;
    }

    /// The completion queue (`pending_animations`), oldest first.
    pub fn pending(&self) -> &AnimQueue {
        &self.pending
    }

    /// The completion queue to change directly (tests, tools): the manager forgets
    /// what it knew of the queue, so its next `remove_redundant_links` scans it.
    pub fn pending_mut(&mut self) -> &mut AnimQueue {
        self.quiet_tail = false;
        &mut self.pending
    }

    /// `add_to_queue`.
    #[inline]
    pub fn add_to_queue(&mut self, motion: u32, num_anims: u32, seq: &mut Sequence) {
        self.add_to_queue_cut(motion, num_anims, seq);
    }

    /// [`MotionTableManager::add_to_queue`], answering whether `remove_redundant_links`
    /// cut the queue.
    // Inline: a push and the call of the scan, in the two stops behind a link as in
    // `add_to_queue` (without the hint, a call from the other module).
    #[inline]
    pub(crate) fn add_to_queue_cut(
        &mut self,
        motion: u32,
        num_anims: u32,
        seq: &mut Sequence,
    ) -> bool {
        self.pending.push_back(AnimNode { motion, num_anims });
        self.cut_redundant_links(seq)
    }

    /// [`MotionTableManager::add_to_queue_cut`] of an entry without animations: it
    /// leaves a quiet tail quiet, so behind one `remove_redundant_links` is answered
    /// here (nothing cut) without the call; otherwise the scan runs as usual.
    // Inline: the stops behind a playing link, which queue Ready behind it on every
    // re-issue, found the tail quiet on nearly every call.
    #[inline(always)]
    pub(crate) fn add_zero_to_queue_cut(&mut self, motion: u32, seq: &mut Sequence) -> bool {
        self.pending.push_back(AnimNode {
            motion,
            num_anims: 0,
        });
        if self.quiet_tail {
            debug_assert!(!self.takes_plain_stops(), "quiet tail: plain stops");
            debug_assert!(self.only_first_owes(), "quiet tail: an entry owes");
            #[cfg(debug_assertions)]
            self.debug_assert_plain_scan_cuts_nothing(seq, "quiet tail, zero entry");
            return false;
        }
        self.cut_redundant_links(seq)
    }

    /// `add_to_queue` of an entry without animations right after an `add_to_queue`
    /// whose `remove_redundant_links` cut nothing, the queue unchanged since: the scan
    /// skips a trailing entry without animations and never compares an older entry with
    /// it, so it would walk the queue it walked before and cut nothing again.
    // Inline: a push, less than the call from the other module.
    #[inline]
    pub(crate) fn add_to_uncut_queue(&mut self, motion: u32, seq: &Sequence) {
        self.pending.push_back(AnimNode {
            motion,
            num_anims: 0,
        });
        #[cfg(debug_assertions)]
        self.debug_assert_plain_scan_cuts_nothing(seq, "uncut queue");
        #[cfg(not(debug_assertions))]
        let _ = seq;
    }

    /// Debug builds, with clone checks on: the plain `remove_redundant_links` run on
    /// clones of this manager and `seq` cuts nothing and leaves the queue and the
    /// sequence as they are here, which is what a caller that skips the scan relies on.
    #[cfg(debug_assertions)]
    fn debug_assert_plain_scan_cuts_nothing(&self, seq: &Sequence, what: &str) {
        if !CLONE_CHECKS.load(Ordering::Relaxed) {
            return;
        }
        let (mut plain, mut pseq) = (self.clone(), seq.clone());
        debug_assert!(
            !plain.remove_redundant_links_plain(&mut pseq),
            "{what}: the plain scan cuts"
        );
        debug_assert_eq!(plain.pending, self.pending, "{what}: queue");
        debug_assert_eq!(
            crate::sequence::physics_bits(&pseq),
            crate::sequence::physics_bits(seq),
            "{what}: sequence"
        );
        debug_assert_eq!(pseq.nodes().len(), seq.nodes().len(), "{what}: nodes");
    }

    /// `remove_redundant_links` (Q29).
    ///
    /// When no entry but the first owes animations, the scan has nothing to cut and the
    /// queue is left as it is without walking it entry by entry; once a walk has found
    /// so, the manager remembers it (`quiet_tail`) until an owing entry is queued behind
    /// the head, and later calls do not walk the queue again. Objects with plain stops
    /// (the reference tick's) always scan.
    pub fn remove_redundant_links(&mut self, seq: &mut Sequence) {
        self.cut_redundant_links(seq);
    }

    /// `remove_redundant_links`, answering whether it cut the queue.
    // Out of line (its callers are inlined into the motion calls), and the quiet tail
    // kept here rather than where the entry is pushed: kept in `add_to_queue_cut`, it
    // pushed `perform_movement` out of its callers (ac-chase +3).
    fn cut_redundant_links(&mut self, seq: &mut Sequence) -> bool {
        // Every caller has just queued the newest entry (or queued nothing since the
        // last call): owing animations behind the head, it ends a quiet tail.
        if self.pending.len() > 1 && self.pending.back().is_some_and(|n| n.num_anims != 0) {
            self.quiet_tail = false;
        }
        if self.quiet_tail {
            debug_assert!(!self.takes_plain_stops(), "quiet tail: plain stops");
            debug_assert!(self.only_first_owes(), "quiet tail: an entry owes");
            #[cfg(debug_assertions)]
            self.debug_assert_plain_scan_cuts_nothing(seq, "quiet tail");
            return false;
        }
        if self.only_first_owes() && !self.takes_plain_stops() {
            self.quiet_tail = true;
            #[cfg(debug_assertions)]
            self.debug_assert_plain_scan_cuts_nothing(seq, "redundant links");
            return false;
        }
        self.remove_redundant_links_plain(seq)
    }

    /// Whether every entry after the first has a zero animation count. The plain scan
    /// skips such entries and stops at the first: below it there is nothing to find, so
    /// it cuts nothing. (A re-issued move while a link plays queues zero-count Readys
    /// behind it, up to about twenty, which the scan would walk one by one.)
    // A queue of one entry (most calls) answers without the loop; otherwise no early
    // exit: the OR over the entries is a straight loop.
    #[inline]
    fn only_first_owes(&self) -> bool {
        match self.pending.as_slice() {
            [_, rest @ ..] => rest.iter().fold(0u32, |owed, n| owed | n.num_anims) == 0,
            [] => true,
        }
    }

    /// The scan of `remove_redundant_links` from the newest entry back, as ACE makes it,
    /// answering whether it cut the queue.
    // Out of line: the fast tests in `cut_redundant_links` answer most calls, and
    // inlined there it made them save and restore more registers.
    #[inline(never)]
    fn remove_redundant_links_plain(&mut self, seq: &mut Sequence) -> bool {
        let pending = self.pending.as_slice();
        let mut i = pending.len();
        while i > 0 {
            i -= 1;
            let node = pending[i];
            if node.num_anims == 0 {
                continue;
            }
            let style_mode = node.motion & SUBSTATE == 0 || node.motion & MODIFIER != 0;
            if style_mode && node.motion & STYLE == 0 {
                return false;
            }
            match redundant_link(&pending[..i], node.motion, style_mode) {
                Scan::Truncate(p) => {
                    self.trancuate_animation_list(p, seq);
                    return true;
                }
                Scan::Stop => return false,
                Scan::Next => {}
            }
        }
        false
    }

    /// `trancuate_animation_list` (sic): zero every entry after `p`, cut that many links.
    fn trancuate_animation_list(&mut self, p: usize, seq: &mut Sequence) {
        let mut total = 0u32;
        for e in self.pending.iter_mut().skip(p + 1) {
            total = total.wrapping_add(e.num_anims);
            e.num_anims = 0;
        }
        seq.remove_link_animations(total);
    }

    /// `AnimationDone(success)` (Q28).
    // Always inline: each caller's sink then stays in registers rather than being built
    // in memory for the call and read back by the loop.
    #[inline(always)]
    pub fn animation_done<S: MotionDoneSink + ?Sized>(&mut self, success: bool, sink: &mut S) {
        if self.pending.is_empty() {
            return;
        }
        // The completed entries are read in place and taken off together after the
        // loop: nothing the sink reaches reads this queue.
        let mut counter = self.animation_counter.wrapping_add(1);
        let mut done = 0;
        for node in self.pending.as_slice() {
            if node.num_anims > counter {
                break;
            }
            if node.motion & ACTION != 0 {
                self.state.remove_action_head();
            }
            sink.motion_done(node.motion, success);
            counter -= node.num_anims;
            done += 1;
            sink.on_motion_done(node.motion, success);
        }
        self.pending.drop_front(done);
        self.animation_counter = if self.pending.is_empty() { 0 } else { counter };
    }

    /// `CheckForCompletedMotions`: pop leading zero-count entries.
    // Inline: its one caller in the tick (`PhysicsObj::complete_motions`) is already
    // out of line.
    #[inline]
    pub fn check_for_completed_motions<S: MotionDoneSink + ?Sized>(&mut self, sink: &mut S) {
        while let Some(&node) = self.pending.front() {
            if node.num_anims != 0 {
                break;
            }
            if node.motion & ACTION != 0 {
                self.state.remove_action_head();
            }
            sink.motion_done(node.motion, true);
            self.pending.pop_front();
            sink.on_motion_done(node.motion, true);
        }
    }

    /// `initialize_state`.
    pub fn initialize_state(&mut self, seq: &mut Sequence, src: &dyn AnimSource) {
        let mut n = 0u32;
        let table = &*self.table;
        table.set_default_state(&mut self.state, seq, &mut n, src);
        self.add_to_queue(READY, n, seq);
    }

    /// `HandleEnterWorld`: strip links, then drain the queue as failed.
    pub fn handle_enter_world<S: MotionDoneSink + ?Sized>(
        &mut self,
        seq: &mut Sequence,
        sink: &mut S,
    ) {
        seq.remove_all_link_animations();
        self.handle_exit_world(sink);
    }

    /// `HandleExitWorld`: drain the queue as failed. Each call adds one to the counter,
    /// so at most `count + sum(num_anims)` calls are needed; a u32::MAX count would take
    /// 2³² calls, so entries still blocked after the bound are drained directly.
    pub fn handle_exit_world<S: MotionDoneSink + ?Sized>(&mut self, sink: &mut S) {
        let mut guard = 0u32;
        while !self.pending.is_empty() {
            if guard >= 4096 {
                // Equivalent to the remaining AnimationDone(false) calls: every entry
                // completes, in order, as failed; the counter ends at 0.
                while let Some(node) = self.pending.pop_front() {
                    if node.motion & ACTION != 0 {
                        self.state.remove_action_head();
                    }
                    sink.motion_done(node.motion, false);
                    sink.on_motion_done(node.motion, false);
                }
                self.animation_counter = 0;
                return;
            }
            self.animation_done(false, sink);
            guard += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manager(queue: &[(u32, u32)]) -> MotionTableManager {
        let mut m = MotionTableManager::new(Arc::new(MotionTableData::default()));
        m.pending_mut().extend(
            queue
                .iter()
                .map(|&(motion, num_anims)| AnimNode { motion, num_anims }),
        );
        m
    }

    fn queue(m: &MotionTableManager) -> Vec<(u32, u32)> {
        m.pending.iter().map(|n| (n.motion, n.num_anims)).collect()
    }

    #[test]
    fn the_second_rest_stop_re_applies_the_first_stops_cycle_unscaled() {
        let mut m = manager(&[]);
        let (velocity, omega) = (Vec3::new(16_777_216.0, 0.0, 0.0), Vec3::new(0.0, 0.0, -0.5));
        *m.rest = RestMemo::At {
            table: Arc::as_ptr(&m.table) as usize,
            style: m.state.style,
            substate: m.state.substate,
            velocity,
            omega,
        };
        let mut seq = Sequence::new();
        let data = crate::sequence::AnimData {
            anim_id: 0x0300_0001,
            low_frame: 0,
            high_frame: -1,
            framerate: 30.0,
        };
        seq.append_animation(data, &crate::sequence::AnimMap::new());
        // 1 + 2^-23 (the f32 after 1).
        seq.set_velocity(Vec3::new(f32::from_bits(0x3F80_0001), 2.0, 0.0));
        seq.set_omega(Vec3::new(0.0, 0.0, 0.25));
        m.stop_at_rest_hit_again(&mut seq, velocity, omega);
        // 1 + 2^-23 - 2^24 rounds to -(2^24 - 1) (f32s are 1 apart below 2^24), and
        // 2^24 added back gives 1: not the velocity the stop started from.
        assert_eq!(seq.velocity(), Vec3::new(1.0, 2.0, 0.0));
        // 0.25 + 0.5 - 0.5, exact.
        assert_eq!(seq.omega(), Vec3::new(0.0, 0.0, 0.25));
        assert_eq!(m.state.substate_mod, 1.0);
    }

    #[test]
    fn q29_zero_count_readys_behind_the_playing_link_are_left_as_they_are() {
        // A re-issued move while the Ready link plays: only the head owes an animation.
        let mut m = manager(&[(READY, 1), (READY, 0), (READY, 0), (READY, 0)]);
        let mut seq = Sequence::new();
        m.remove_redundant_links(&mut seq);
        assert_eq!(queue(&m), [(READY, 1), (READY, 0), (READY, 0), (READY, 0)]);
        // A later entry that owes one is still scanned: the Ready at 2 finds the one at
        // 0 through the Walk (a substate, which blocks nothing) and zeroes both after it.
        let mut m = manager(&[(READY, 1), (WALK_FORWARD, 1), (READY, 1)]);
        m.remove_redundant_links(&mut seq);
        assert_eq!(queue(&m), [(READY, 1), (WALK_FORWARD, 0), (READY, 0)]);
    }

    #[test]
    fn a_manager_with_plain_stops_never_keeps_a_quiet_tail() {
        let mut m = manager(&[]);
        let mut seq = Sequence::new();
        m.add_to_queue(READY, 1, &mut seq);
        m.add_to_queue(READY, 0, &mut seq);
        assert!(m.quiet_tail);
        // Plain stops forget the quiet tail, and no scan remembers one again: each
        // zero-count entry queued behind the head is scanned (and cuts nothing).
        m.plain_stops();
        assert!(!m.quiet_tail);
        assert!(!m.add_zero_to_queue_cut(READY, &mut seq));
        assert!(!m.quiet_tail);
        m.remove_redundant_links(&mut seq);
        assert!(!m.quiet_tail);
        assert_eq!(queue(&m), [(READY, 1), (READY, 0), (READY, 0)]);
    }

    #[test]
    fn a_quiet_tail_lasts_until_an_owing_entry_is_queued_behind_the_head() {
        let mut m = manager(&[]);
        let mut seq = Sequence::new();
        // The link plays at the head; two zero-count Readys queue behind it.
        m.add_to_queue(READY, 1, &mut seq);
        m.add_to_queue(READY, 0, &mut seq);
        m.add_to_queue(READY, 0, &mut seq);
        assert!(m.quiet_tail);
        assert_eq!(queue(&m), [(READY, 1), (READY, 0), (READY, 0)]);
        // A Walk owing one: the scan runs, finds nothing below it (no Walk, and the
        // Ready at the head is a substate, which blocks nothing) and cuts nothing.
        assert!(!m.add_to_queue_cut(WALK_FORWARD, 1, &mut seq));
        assert!(!m.quiet_tail);
        assert_eq!(
            queue(&m),
            [(READY, 1), (READY, 0), (READY, 0), (WALK_FORWARD, 1)]
        );
        // A Ready owing one finds the head's Ready through the Walk: everything after
        // the head is zeroed (2 links cut from an empty sequence, which has none).
        assert!(m.add_to_queue_cut(READY, 1, &mut seq));
        assert_eq!(
            queue(&m),
            [
                (READY, 1),
                (READY, 0),
                (READY, 0),
                (WALK_FORWARD, 0),
                (READY, 0)
            ]
        );
        // The next scan walks the queue once more, finds only the head owing and
        // remembers it.
        assert!(!m.quiet_tail);
        m.remove_redundant_links(&mut seq);
        assert!(m.quiet_tail);
        // Taking the head off leaves the tail quiet.
        m.pending.pop_front();
        assert!(!m.add_to_queue_cut(READY, 0, &mut seq));
        assert!(m.quiet_tail);
    }

    #[test]
    fn a_zero_entry_behind_a_quiet_tail_cuts_nothing_and_behind_an_unknown_one_is_scanned() {
        let mut m = manager(&[]);
        let mut seq = Sequence::new();
        m.add_to_queue(READY, 1, &mut seq);
        assert!(m.quiet_tail);
        assert!(!m.add_zero_to_queue_cut(READY, &mut seq));
        assert!(m.quiet_tail);
        assert_eq!(queue(&m), [(READY, 1), (READY, 0)]);
        // Changed directly, the tail is unknown: the scan runs and the Ready at 2, which
        // owes one, finds the head's Ready through the Walk and zeroes what follows it.
        let mut m = manager(&[(READY, 1), (WALK_FORWARD, 1), (READY, 1)]);
        assert!(!m.quiet_tail);
        assert!(m.add_zero_to_queue_cut(READY, &mut seq));
        assert_eq!(
            queue(&m),
            [(READY, 1), (WALK_FORWARD, 0), (READY, 0), (READY, 0)]
        );
    }

    #[test]
    fn a_queue_changed_directly_is_scanned_again() {
        let mut m = manager(&[]);
        let mut seq = Sequence::new();
        m.add_to_queue(READY, 1, &mut seq);
        m.add_to_queue(READY, 0, &mut seq);
        assert!(m.quiet_tail);
        // Owing entries behind the head, then a zero-count one last: only a walk of the
        // queue finds the Ready at 3, which cuts back to the head's.
        for (motion, num_anims) in [(WALK_FORWARD, 1), (READY, 1), (READY, 0)] {
            m.pending_mut().push_back(AnimNode { motion, num_anims });
        }
        m.remove_redundant_links(&mut seq);
        assert_eq!(
            queue(&m),
            [
                (READY, 1),
                (READY, 0),
                (WALK_FORWARD, 0),
                (READY, 0),
                (READY, 0)
            ]
        );
    }

    #[test]
    fn the_head_only_test_answers_as_the_plain_scan_on_every_small_queue() {
        let motions = [READY, WALK_FORWARD, TURN_RIGHT, 0x8000_003D, 0x1000_0057];
        // Pseudo-random queues of up to four entries over these motions (a Ready, a Walk,
        // a turn, a style, an action), counts 0 to 2, the ring's start moved by 0 to 3.
        let mut h = 7u32;
        for _ in 0..4_000 {
            h = h.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let len = (h >> 8) as usize % 5;
            let q: Vec<(u32, u32)> = (0..len)
                .map(|k| {
                    let r = h.rotate_left(7 * k as u32 + 3);
                    (motions[r as usize % motions.len()], (r >> 5) % 3)
                })
                .collect();
            let mut fast = manager(&[]);
            for _ in 0..(h >> 20) % 4 {
                fast.pending_mut().push_back(AnimNode {
                    motion: 0,
                    num_anims: 0,
                });
                fast.pending_mut().pop_front();
            }
            fast.pending_mut().extend(
                q.iter()
                    .map(|&(motion, num_anims)| AnimNode { motion, num_anims }),
            );
            let mut plain = manager(&q);
            let (mut a, mut b) = (Sequence::new(), Sequence::new());
            fast.remove_redundant_links(&mut a);
            plain.remove_redundant_links_plain(&mut b);
            assert_eq!(queue(&fast), queue(&plain), "{q:x?}");
        }
    }
}
