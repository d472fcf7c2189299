//! Per-actor state: the animation state the trace shows (its fields, in trace order) and the actor's
//! placement, flags and script position.

use crate::plan::Plan;
use crate::resources::{ActorFlags, ActorSpec};
use serde::Serialize;

/// The animation state of one actor (A4, A17–A26). Field order is trace order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Anim {
    pub current: Option<u8>,
    pub pending: Option<u8>,
    /// Start countdown carried by the pending request (C2); `None` iff `pending` is.
    pub pending_countdown: Option<u8>,
    pub default: u8,
    /// Where interpretation resumes; indexes the selected `show_frame` while current.
    pub cursor: u16,
    /// Always 1: reverse playback is outside rules A1–A40.
    pub direction: i8,
    pub countdown: u8,
    /// What the countdown reloads to: the playback's start value (C1).
    pub reload: u8,
    /// Frame skip count (not byte-wrapped, C20).
    pub skip: u32,
    /// Finite loop countdown set by tasks (A29, A30, A32).
    #[serde(rename = "loop")]
    pub loop_count: u8,
    pub breakpoint: bool,
    /// The animation's exit flag / marker (C6).
    pub exit: bool,
    /// The selected (model handle, frame index) pair: the current pose (A3).
    pub frame: Option<[u16; 2]>,
}

impl Anim {
    /// Fresh state: default group 0, nothing current or pending (A33).
    pub const fn new() -> Anim {
        Anim {
            current: None,
            pending: None,
            pending_countdown: None,
            default: 0,
            cursor: 0,
            direction: 1,
            countdown: 0,
            reload: 0,
            skip: 0,
            loop_count: 0,
            breakpoint: false,
            exit: false,
            frame: None,
        }
    }
}

impl Default for Anim {
    fn default() -> Self {
        Anim::new()
    }
}

/// A task's phase (A28–A31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    NotStarted,
    Started,
}

/// A `PushAnimation(group, count)` task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Task {
    pub group: u8,
    pub count: u8,
    pub phase: Phase,
}

/// What the movement handling did in this step (A27, C14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Translation {
    Applied,
    Suppressed,
}

/// One placed actor.
///
/// Two actors are equal when every field but the private update plan is: the plan
/// is derived from the settings compared here (see [`crate::World`]) and may be out of
/// date between updates, so comparing it would only compare when it was last taken.
#[derive(Debug, Clone)]
pub struct Actor {
    pub id: String,
    pub pos: [i64; 2],
    pub activation: u8,
    pub attr113: u8,
    pub attr44: u8,
    pub state_default: Option<u8>,
    /// Index of its model table; `None` = no animation state (`anim` is `None` too).
    pub model: Option<usize>,
    pub script: Option<usize>,
    pub static_model: bool,
    pub walk: Option<[i64; 2]>,
    pub flags: ActorFlags,
    pub anim: Option<Anim>,
    /// Script program counter.
    pub pc: u16,
    pub task: Option<Task>,
    /// Set by movement handling during an update; cleared at the start of every step.
    pub translation: Option<Translation>,
    /// The update gates derived from the settings above (see [`crate::plan`]).
    pub(crate) plan: Plan,
}

impl PartialEq for Actor {
    fn eq(&self, other: &Actor) -> bool {
        // Destructured, so that a new field has to be placed on one side or the other.
        let Actor {
            id,
            pos,
            activation,
            attr113,
            attr44,
            state_default,
            model,
            script,
            static_model,
            walk,
            flags,
            anim,
            pc,
            task,
            translation,
            plan: _,
        } = self;
        *id == other.id
            && *pos == other.pos
            && *activation == other.activation
            && *attr113 == other.attr113
            && *attr44 == other.attr44
            && *state_default == other.state_default
            && *model == other.model
            && *script == other.script
            && *static_model == other.static_model
            && *walk == other.walk
            && *flags == other.flags
            && *anim == other.anim
            && *pc == other.pc
            && *task == other.task
            && *translation == other.translation
    }
}

impl Eq for Actor {}

impl Actor {
    /// An actor as placed, before placement requests (A33): fresh animation state
    /// when it has a model.
    pub fn from_spec(spec: &ActorSpec) -> Actor {
        let mut actor = Actor {
            id: spec.id.clone(),
            pos: spec.pos,
            activation: spec.activation,
            attr113: spec.attr113,
            attr44: spec.attr44,
            state_default: spec.state_default,
            model: spec.model,
            script: spec.script,
            static_model: spec.static_model,
            walk: spec.walk,
            flags: spec.flags,
            anim: spec.model.map(|_| Anim::new()),
            pc: 0,
            task: None,
            translation: None,
            plan: Plan::EMPTY,
        };
        actor.plan = Plan::of(&actor);
        actor
    }

    /// The map cell of the actor's position (floor division by 512).
    pub fn cell(&self) -> [i64; 2] {
        [
            self.pos[0].div_euclid(crate::load::CELL),
            self.pos[1].div_euclid(crate::load::CELL),
        ]
    }
}
