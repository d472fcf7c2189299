//! The request and advance boundaries (A16): globally disabled animation, no
//! animation state, or the static-model shortcut reject requests and advancement
//! alike, whoever makes them.

use crate::advance::advance;
use crate::arbitration::{request, Ctx, Outcome};
use crate::error::RunError;
use crate::forced::force_request;
use crate::resources::ModelTable;
use crate::state::{Actor, Anim};

/// What the boundary checks read besides the actor: the global animation switch
/// and the shared ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Env {
    pub animation: bool,
    pub ticks: u32,
}

/// The actor's animation state and model when it is eligible, else `None`.
#[inline]
pub(crate) fn eligible<'a, 'm>(
    actor: &'a mut Actor,
    models: &'m [ModelTable],
    env: Env,
) -> Option<(&'a mut Anim, Ctx<'m>)> {
    if !env.animation || actor.static_model {
        return None;
    }
    let model = models.get(actor.model?)?;
    let anim = actor.anim.as_mut()?;
    Some((
        anim,
        Ctx {
            model,
            ticks: env.ticks,
        },
    ))
}

/// The `rejected` result of a request or advancement (A16).
pub fn rejected(actor: &Actor, env: Env) -> bool {
    !env.animation || actor.anim.is_none() || actor.static_model
}

/// An ordinary request through the boundary.
pub fn actor_request(
    actor: &mut Actor,
    models: &[ModelTable],
    env: Env,
    g: u8,
    modifier: u8,
) -> Result<Outcome, RunError> {
    match eligible(actor, models, env) {
        Some((anim, cx)) => request(anim, cx, g, modifier),
        None => Ok(Outcome::Rejected),
    }
}

/// A forced request through the boundary.
pub fn actor_force_request(
    actor: &mut Actor,
    models: &[ModelTable],
    env: Env,
    g: u8,
    modifier: u8,
) -> Result<Outcome, RunError> {
    match eligible(actor, models, env) {
        Some((anim, cx)) => force_request(anim, cx, g, modifier),
        None => Ok(Outcome::Rejected),
    }
}

/// An advancement through the boundary.
pub fn actor_advance(actor: &mut Actor, models: &[ModelTable], env: Env) -> Result<(), RunError> {
    match eligible(actor, models, env) {
        Some((anim, cx)) => advance(anim, cx, 0),
        None => Ok(()),
    }
}
