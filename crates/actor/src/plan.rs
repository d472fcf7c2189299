//! An actor's update plan: what the per-update gates of A34 and A36 decide from the
//! actor's own settings (activation byte, flags, static shortcut, model and script
//! indices, the state-dependent default), taken once instead of on every update.
//!
//! None of those settings changes during an update, so the plan stays right until
//! somebody writes an actor from outside. [`crate::world::World`] hands out its actors
//! mutably only through calls that mark every plan out of date, and retakes them all
//! before the next update; the world update itself never changes a setting.

use crate::state::Actor;
use crate::world::{animates, script_of, selected_default};

/// The derived gates of one actor: a cache of its settings, so [`Actor`]'s equality
/// leaves it out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    /// [`Plan::PERSISTENT`], [`Plan::ANIMATES`], [`Plan::SCRIPT`].
    pub bits: u8,
    /// The default the update selects (A37): the state default, else attribute 44.
    pub sel: u8,
    /// The model index (meaningful with [`Plan::ANIMATES`]).
    pub model: u32,
    /// The script index (meaningful with [`Plan::SCRIPT`]).
    pub script: u32,
}

impl Plan {
    /// Activation byte non-zero: always a list member (A34).
    pub const PERSISTENT: u8 = 1;
    /// Not excluded, not animation-update excluded, not static, with a model: the
    /// advancement and the default request run whenever the animation switch is on
    /// and the model index is inside the world's models (A16, A36).
    pub const ANIMATES: u8 = 2;
    /// A script index and the stage not suppressed: the script stage runs whenever
    /// the scripts switch is on (A36).
    pub const SCRIPT: u8 = 4;
    /// A bit no plan has.
    pub const NEVER: u8 = 0x80;

    /// A placeholder until [`Plan::of`] has seen the actor.
    pub const EMPTY: Plan = Plan {
        bits: 0,
        sel: 0,
        model: 0,
        script: 0,
    };

    /// The plan of an actor's current settings.
    pub fn of(actor: &Actor) -> Plan {
        let mut bits = 0;
        if actor.activation != 0 {
            bits |= Plan::PERSISTENT;
        }
        let model = actor.model.and_then(|m| u32::try_from(m).ok());
        let script = actor.script.and_then(|s| u32::try_from(s).ok());
        // An index too large for the plan leaves the actor to the general update.
        let fits = actor.model.is_none() || model.is_some();
        let fits = fits && (actor.script.is_none() || script.is_some());
        if fits && model.is_some() && !actor.flags.excluded && animates(actor) {
            bits |= Plan::ANIMATES;
        }
        if script.is_some() && script_of(actor).is_some() {
            bits |= Plan::SCRIPT;
        }
        Plan {
            bits,
            sel: selected_default(actor),
            model: model.unwrap_or(0),
            script: script.unwrap_or(0),
        }
    }
}
