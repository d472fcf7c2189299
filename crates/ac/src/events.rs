//! What an object reports to its host, in the order the engine raises it: every
//! animation hook the object processes, every weenie `OnMotionDone` and
//! `OnMoveComplete`, and the sticky and constraint changes.
//!
//! ACE hands these to the object's weenie as they happen (`process_hooks`, the weenie
//! callbacks of `MotionTableManager` and `MoveToManager`, `StickyManager.StickTo` and
//! `ClearTarget`, `ConstrainTo` / `Unconstrain`). An embedding host wants them batched
//! after a tick instead, so an object that was asked to ([`PhysicsObj::enable_events`])
//! appends them to its log, which the host drains ([`PhysicsObj::drain_events`]). The
//! log's buffer is kept between drains: a steady tick appends without allocating. An
//! object without a log records nothing and pays one test per raise point.

use crate::commands::WeenieError;
use crate::physics_obj::PhysicsObj;
use crate::sequence::FiredHook;

/// How many events one object keeps between drains; later ones are counted in
/// [`EventLog::dropped`] instead (limit L12 in docs/limits.md). A creature raises a few
/// per tick; 4096 is minutes of ticks for a host that forgets to drain.
pub const MAX_EVENTS_PER_OBJECT: usize = 4096;

/// One event (see the module documentation for where ACE raises each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An animation hook was processed. `anim_id`, `frame` and `index` name it in its
    /// Animation record (the `index`-th hook of part frame `frame`), where its payload
    /// is; the AnimationDone hook the sequence adds when a non-cyclic node ends has
    /// `anim_id` 0 and no payload.
    Hook {
        hook_type: u32,
        anim_id: u32,
        frame: i32,
        index: u32,
    },
    /// The weenie's `OnMotionDone(motion, success)`.
    MotionDone { motion: u32, success: bool },
    /// The weenie's `OnMoveComplete(status)`: a move-to or turn-to ended (`None` =
    /// arrived).
    MoveComplete(WeenieError),
    /// `StickTo(target)` took effect.
    Stuck { target: u32 },
    /// The sticky target was cleared (unstick, timeout, target gone).
    Unstuck { target: u32 },
    /// `ConstrainTo` took effect.
    Constrained,
    /// `Unconstrain` lifted a constraint that was on.
    Unconstrained,
}

/// An object's events since the last drain, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventLog {
    pub events: Vec<Event>,
    /// Events not kept because the log was full.
    pub dropped: u32,
}

impl EventLog {
    #[inline]
    pub(crate) fn push(&mut self, e: Event) {
        if self.events.len() < MAX_EVENTS_PER_OBJECT {
            self.events.push(e);
        } else {
            self.dropped = self.dropped.saturating_add(1);
        }
    }
}

impl From<FiredHook> for Event {
    fn from(h: FiredHook) -> Event {
        Event::Hook {
            hook_type: h.hook_type,
            anim_id: h.anim_id,
            frame: h.frame,
            index: h.index,
        }
    }
}

impl PhysicsObj {
    /// Start (or keep) recording events. Idempotent; the log starts empty.
    pub fn enable_events(&mut self) {
        if self.events.is_none() {
            self.events = Some(Box::default());
        }
    }

    /// Stop recording; the recorded events are dropped.
    pub fn disable_events(&mut self) {
        self.events = None;
    }

    /// Whether events are being recorded.
    pub fn events_enabled(&self) -> bool {
        self.events.is_some()
    }

    /// The events raised since the last drain (empty when not recording).
    pub fn events(&self) -> &[Event] {
        self.events.as_ref().map_or(&[], |l| l.events.as_slice())
    }

    /// Events lost since the last drain because the log was full.
    pub fn events_dropped(&self) -> u32 {
        self.events.as_ref().map_or(0, |l| l.dropped)
    }

    /// Forget the recorded events (the buffer is kept for the next ones).
    pub fn drain_events(&mut self) {
        if let Some(l) = self.events.as_mut() {
            l.events.clear();
            l.dropped = 0;
        }
    }

    /// Record `e` if recording.
    #[inline]
    pub(crate) fn raise(&mut self, e: Event) {
        if let Some(l) = self.events.as_mut() {
            l.push(e);
        }
    }
}
