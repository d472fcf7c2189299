//! The world: placement (A33), the activation byte and the cell-window update list
//! (A34, A35, C11, C12), one actor's update order (A36, A37, A27, C8, C14) and the world
//! update (timing, the list, then every member in asset order).

use crate::advance::advance;
use crate::arbitration::request_default;
use crate::arbitration::{Ctx, Outcome};
use crate::boundary::{actor_advance, actor_force_request, actor_request, Env};
use crate::error::RunError;
use crate::load::CELL;
use crate::plan::Plan;
use crate::resources::{ActorSet, ModelTable, Script};
use crate::script::script_stage_of;
use crate::state::{Actor, Anim, Translation};
use crate::timing::Timing;
use serde::Serialize;

/// Cells per axis of the update window (A35).
pub const WINDOW: i64 = 18;
/// Cells the window starts before the view centre cell (A35).
pub const WINDOW_LEAD: i64 = 9;

/// The global switches (C16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Switches {
    pub animation: bool,
    pub scripts: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            animation: true,
            scripts: true,
        }
    }
}

/// An actor's update-list membership (A34, A35).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Why {
    #[serde(rename = "persistent")]
    Persistent,
    #[serde(rename = "outside")]
    Outside,
    #[serde(rename = "corner")]
    Corner,
    #[serde(rename = "border")]
    Border,
    #[serde(rename = "border_attr113")]
    BorderAttr113,
    #[serde(rename = "inner")]
    Inner,
}

impl Why {
    /// Members the list hands to the update (before the actor's own exclusion).
    #[inline]
    pub fn listed(self) -> bool {
        matches!(self, Why::Persistent | Why::Border | Why::Inner)
    }
}

/// A runtime fault of one actor's update.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("actor '{actor}': {error}")]
pub struct ActorRunError {
    pub actor: String,
    pub error: RunError,
}

/// A world of placed actors sharing one clock, one view and the global switches.
///
/// The actors are read with [`World::actors`] and written through
/// [`World::actors_mut`] or [`World::parts_mut`] or through the request calls. The
/// update keeps, per actor, the gates of A34 and A36 that its settings decide (its
/// plan); handing the actors out mutably makes the next update take every plan again.
#[derive(Debug, Clone)]
pub struct World {
    pub width: i64,
    pub height: i64,
    pub models: Vec<ModelTable>,
    pub scripts: Vec<Script>,
    actors: Vec<Actor>,
    pub timing: Timing,
    pub view: [i64; 2],
    pub switches: Switches,
    /// Membership computed by the last update, one per actor (reused, never regrown).
    pub members: Vec<Why>,
    /// Actors were handed out mutably since the plans were last taken.
    stale: bool,
}

impl World {
    /// Build the world and place every actor in asset order (A33, C15).
    pub fn new(
        set: ActorSet,
        view: [i64; 2],
        scale: u32,
        switches: Switches,
    ) -> Result<World, ActorRunError> {
        let actors: Vec<Actor> = set.actors.iter().map(Actor::from_spec).collect();
        let n = actors.len();
        let mut world = World {
            width: set.width,
            height: set.height,
            models: set.models,
            scripts: set.scripts,
            actors,
            timing: Timing::new(scale),
            view,
            switches,
            members: Vec::with_capacity(n),
            stale: false,
        };
        let env = world.env();
        for actor in &mut world.actors {
            place(actor, &world.models, env).map_err(|error| ActorRunError {
                actor: actor.id.clone(),
                error,
            })?;
        }
        Ok(world)
    }

    /// The placed actors, in asset order.
    #[inline]
    pub fn actors(&self) -> &[Actor] {
        &self.actors
    }

    /// The actors, to write any of their fields between updates (the next update
    /// retakes their plans).
    pub fn actors_mut(&mut self) -> &mut [Actor] {
        self.stale = true;
        &mut self.actors
    }

    /// The actors (as [`World::actors_mut`]) together with the models, for the
    /// boundary calls of [`crate::boundary`].
    pub fn parts_mut(&mut self) -> (&mut [Actor], &[ModelTable]) {
        self.stale = true;
        (&mut self.actors, &self.models)
    }

    /// An ordinary request for actor `i` through the boundary ([`actor_request`]) with
    /// the world's switch and ticks. Panics when `i` is not an actor's index.
    pub fn request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        let env = self.env();
        // A request changes only animation state, never what the plan is taken from.
        actor_request(&mut self.actors[i], &self.models, env, g, modifier)
    }

    /// A forced request for actor `i` through the boundary ([`actor_force_request`]).
    /// Panics when `i` is not an actor's index.
    pub fn force_request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        let env = self.env();
        actor_force_request(&mut self.actors[i], &self.models, env, g, modifier)
    }

    /// An advancement of actor `i` through the boundary ([`actor_advance`]). Panics
    /// when `i` is not an actor's index.
    pub fn advance(&mut self, i: usize) -> Result<(), RunError> {
        let env = self.env();
        actor_advance(&mut self.actors[i], &self.models, env)
    }

    /// What the boundary checks read now.
    #[inline]
    pub fn env(&self) -> Env {
        Env {
            animation: self.switches.animation,
            ticks: self.timing.ticks,
        }
    }

    /// The window origin `[x0, y0]` for the current view (A35, C11).
    pub fn window(&self) -> [i64; 2] {
        window_origin(self.view, self.width, self.height)
    }

    /// Forget last step's movement results (the trace's `translation` is per step).
    pub fn clear_translations(&mut self) {
        for a in &mut self.actors {
            a.translation = None;
        }
    }

    /// One world update: timing, the list, then every updated member in
    /// asset order (C12).
    pub fn update(&mut self) -> Result<(), ActorRunError> {
        if self.stale {
            for a in &mut self.actors {
                a.plan = Plan::of(a);
            }
            self.stale = false;
        }
        self.timing.step();
        let origin = self.window();
        // Sized once per update, so the loop stores instead of pushing.
        self.members.clear();
        self.members.resize(self.actors.len(), Why::Outside);
        let env = self.env();
        let switches = self.switches;
        // The plan of most actors: persistent, animating and with a script stage. With
        // either switch off nobody takes this path (no plan has bit 7).
        let hot = if env.animation && switches.scripts {
            Plan::PERSISTENT | Plan::ANIMATES | Plan::SCRIPT
        } else {
            Plan::NEVER
        };
        // One pass: an update moves only its own actor, so every membership is still the
        // one the list would have computed before the first update (the A34–A35 update list before the A36–A37 updates).
        let models = &self.models[..];
        let scripts = &self.scripts[..];
        let mut failed = None;
        for (i, (actor, m)) in self.actors.iter_mut().zip(&mut self.members).enumerate() {
            actor.translation = None;
            let plan = actor.plan;
            let result = if plan.bits == hot {
                *m = Why::Persistent;
                planned_update(actor, plan, models, scripts, env, switches)
            } else {
                // Every other actor: the list (persistent storage first, it needs no cell
                // arithmetic), then the general update out of line.
                let listed = if plan.bits & Plan::PERSISTENT != 0 {
                    *m = Why::Persistent;
                    true
                } else {
                    let why = membership(actor, origin);
                    *m = why;
                    why.listed()
                };
                if !listed || actor.flags.excluded {
                    continue;
                }
                general_update(actor, models, scripts, env, switches)
            };
            if let Err(error) = result {
                failed = Some((
                    i,
                    ActorRunError {
                        actor: actor.id.clone(),
                        error,
                    },
                ));
                break;
            }
        }
        match failed {
            None => Ok(()),
            Some((i, error)) => {
                // The list is complete even when an update fails.
                for (a, m) in self.actors.iter().zip(&mut self.members).skip(i + 1) {
                    *m = membership(a, origin);
                }
                Err(error)
            }
        }
    }
}

/// Placement of one actor (A33, C15): two ordinary requests for group 0 with
/// modifier 0 and the shared ticks (0 at setup).
pub fn place(actor: &mut Actor, models: &[ModelTable], env: Env) -> Result<(), RunError> {
    actor_request(actor, models, env, 0, 0)?;
    actor_request(actor, models, env, 0, 0)?;
    Ok(())
}

/// The window origin for a view centre (A35, C11): nine cells before the centre
/// cell, clamped so the 18×18 window stays inside the map.
#[inline]
pub fn window_origin(view: [i64; 2], width: i64, height: i64) -> [i64; 2] {
    let cx = view[0].div_euclid(CELL);
    let cy = view[1].div_euclid(CELL);
    [
        (cx - WINDOW_LEAD).max(0).min(width - WINDOW),
        (cy - WINDOW_LEAD).max(0).min(height - WINDOW),
    ]
}

/// One actor's membership (A34, A35): the activation byte picks storage;
/// cell actors count when inside the window minus its corners, border actors only
/// with attribute byte 113 clear.
#[inline]
pub fn membership(actor: &Actor, origin: [i64; 2]) -> Why {
    if actor.activation != 0 {
        return Why::Persistent;
    }
    let dx = actor.pos[0].div_euclid(CELL) - origin[0];
    let dy = actor.pos[1].div_euclid(CELL) - origin[1];
    let last = WINDOW - 1;
    if !(0..=last).contains(&dx) || !(0..=last).contains(&dy) {
        return Why::Outside;
    }
    let edge_x = dx == 0 || dx == last;
    let edge_y = dy == 0 || dy == last;
    if edge_x && edge_y {
        Why::Corner
    } else if edge_x || edge_y {
        if actor.attr113 == 0 {
            Why::Border
        } else {
            Why::BorderAttr113
        }
    } else {
        Why::Inner
    }
}

/// One eligible actor's update (A36).
#[inline(always)]
pub fn update_actor(
    actor: &mut Actor,
    models: &[ModelTable],
    scripts: &[Script],
    env: Env,
    switches: Switches,
) -> Result<(), RunError> {
    // The current group after the animation stages, which the script stage's task
    // check reads (movement does not change it).
    let mut current = None;
    // Read before the animation state is borrowed; the default selection changes neither.
    let sel = selected_default(actor);
    let animates = animates(actor);
    if let Some(anim) = actor.anim.as_mut() {
        // Only actors with animation state select a default (A37); the change itself
        // is rare and goes through select_default out of line.
        let anim = if sel == anim.default {
            Some(anim)
        } else {
            select_default(actor, models, env)?;
            actor.anim.as_mut()
        };
        if let Some(anim) = anim {
            // The boundary (A16) is checked once for the advancement and the default
            // request: neither changes the switch, the model or the static flag it reads.
            if animates && env.animation {
                if let Some(model) = actor.model.and_then(|m| models.get(m)) {
                    animation_stages(anim, model, env)?;
                }
            }
            current = anim.current;
        }
    }
    move_actor(actor, env.ticks);
    if switches.scripts {
        if let Some(i) = script_of(actor) {
            script_stage_of(actor, models, scripts, i, env, current)?;
        }
    }
    Ok(())
}

/// The default an update selects (A37, C8): the state default, else attribute 44.
#[inline(always)]
pub(crate) fn selected_default(actor: &Actor) -> u8 {
    actor.state_default.unwrap_or(actor.attr44)
}

/// The actor's own part of the A16/A36 gate of the animation stages: not
/// animation-update excluded and not a static model (the switch and the model index
/// are the rest).
#[inline(always)]
pub(crate) fn animates(actor: &Actor) -> bool {
    !actor.flags.anim_update_excluded && !actor.static_model
}

/// The script index whose stage runs while the scripts switch is on (A36): none
/// when the stage is suppressed.
#[inline(always)]
pub(crate) fn script_of(actor: &Actor) -> Option<usize> {
    actor.script.filter(|_| !actor.flags.script_suppressed)
}

/// The animation stages of an update that passed the boundary (A36): the
/// advancement, then the update's own request for the default group.
#[inline(always)]
fn animation_stages(anim: &mut Anim, model: &ModelTable, env: Env) -> Result<(), RunError> {
    let cx = Ctx {
        model,
        ticks: env.ticks,
    };
    advance(anim, cx, 0)?;
    request_default(anim, cx)
}

/// [`update_actor`] out of line, for the actors and updates the plan does not cover.
#[inline(never)]
fn general_update(
    actor: &mut Actor,
    models: &[ModelTable],
    scripts: &[Script],
    env: Env,
    switches: Switches,
) -> Result<(), RunError> {
    update_actor(actor, models, scripts, env, switches)
}

/// [`update_actor`] of a persistent actor whose plan has [`Plan::ANIMATES`] and
/// [`Plan::SCRIPT`], with both switches on: the A16 and script-stage gates are the
/// plan's (taken by [`Plan::of`] with the same [`animates`] and [`script_of`]), and the
/// default selection is a comparison with the plan's default. A model index outside
/// the models, missing animation state or a changed default (A37) take the general
/// update. The stages are [`update_actor`]'s own.
#[inline(always)]
fn planned_update(
    actor: &mut Actor,
    plan: Plan,
    models: &[ModelTable],
    scripts: &[Script],
    env: Env,
    switches: Switches,
) -> Result<(), RunError> {
    let (Some(model), Some(anim)) = (models.get(plan.model as usize), actor.anim.as_mut()) else {
        return general_update(actor, models, scripts, env, switches);
    };
    if plan.sel != anim.default {
        return general_update(actor, models, scripts, env, switches);
    }
    // Built with `--cfg retroanim_planted_bug` (and only then), movement reads the
    // marker from before the animation stages: the deliberate bug that
    // tests/differential.rs shows the differential check catching.
    #[cfg(retroanim_planted_bug)]
    let stale_marker = anim.breakpoint;
    animation_stages(anim, model, env)?;
    let current = anim.current;
    #[cfg(not(retroanim_planted_bug))]
    let breakpoint = anim.breakpoint;
    #[cfg(retroanim_planted_bug)]
    let breakpoint = stale_marker;
    walk(actor, breakpoint, env.ticks);
    // Returning the call's result directly instead made the compiler lay out the loop
    // worse (119.3 instead of 116.5 instructions per actor update).
    script_stage_of(actor, models, scripts, plan.script as usize, env, current)?;
    Ok(())
}

/// State-dependent default selection and the forced replacement of A37 (C8).
#[inline(never)]
pub fn select_default(actor: &mut Actor, models: &[ModelTable], env: Env) -> Result<(), RunError> {
    let sel = selected_default(actor);
    let Some(anim) = actor.anim.as_mut() else {
        return Ok(());
    };
    if sel == anim.default {
        return Ok(());
    }
    let old = anim.default;
    anim.default = sel;
    if anim.current == Some(old) && !anim.exit {
        actor_force_request(actor, models, env, sel, 0)?;
    }
    Ok(())
}

/// Movement handling of ordinary forward walking (A27, C14): a set breakpoint
/// marker suppresses this update's translation.
#[inline]
pub fn move_actor(actor: &mut Actor, ticks: u32) {
    let breakpoint = actor.anim.as_ref().is_some_and(|a| a.breakpoint);
    walk(actor, breakpoint, ticks);
}

/// [`move_actor`] with the marker already read.
#[inline(always)]
fn walk(actor: &mut Actor, breakpoint: bool, ticks: u32) {
    let Some(walk) = actor.walk else {
        return;
    };
    if breakpoint {
        actor.translation = Some(Translation::Suppressed);
    } else {
        let t = ticks as i64;
        actor.pos[0] = actor.pos[0].saturating_add(walk[0].saturating_mul(t));
        actor.pos[1] = actor.pos[1].saturating_add(walk[1].saturating_mul(t));
        actor.translation = Some(Translation::Applied);
    }
}
