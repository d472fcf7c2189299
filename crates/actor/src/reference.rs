//! The plain reference of the actor interpreter (feature `reference`): the update in
//! the shape of the original procedures, one function per procedure, with the rule ids
//! of docs/actor.md beside the steps they implement. No update plan, no slot lookups
//! beyond finding a group by its number, no specialised default request, no inlined
//! fast pass of the interpreter: where the engine's modules take a shortcut, this
//! module takes the long way the rules describe.
//!
//! It shares with the engine only the data it works on ([`Actor`], [`Anim`],
//! [`ModelTable`], [`Script`], [`Timing`]), the validated loader, and the runaway
//! bounds the engine adds (C17: [`MAX_END_CHAIN`] and the interpreter's step budget),
//! which are part of what a run observes.
//!
//! [`RefWorld`] is the world, [`ActorRefSim`] plays scenarios through it with the same
//! steps and trace lines as [`crate::ActorSim`], and `tests/differential.rs` compares the
//! two step for step.

use crate::advance::MAX_END_CHAIN;
use crate::arbitration::Outcome;
use crate::boundary::Env;
use crate::error::{LoadFault, RunError};
use crate::load::CELL;
use crate::ragr::Cmd;
use crate::resources::{ActorSet, ModelTable, Script, ScriptCmd};
use crate::scenario::{run_as, Driver, Line, ScenarioWorld, Snapshot, Step};
use crate::state::{Actor, Anim, Phase, Task, Translation};
use crate::tasks::TaskStatus;
use crate::timing::{Timing, WARMUP_UPDATES};
use crate::world::{ActorRunError, Switches, Why, WINDOW, WINDOW_LEAD};
use retroanim_core::{Scenario, ScenarioError, Simulation};
use serde_json::Value;

/// A world of placed actors: the same state as [`crate::World`], updated by this
/// module's procedures.
#[derive(Debug, Clone)]
pub struct RefWorld {
    pub width: i64,
    pub height: i64,
    pub models: Vec<ModelTable>,
    pub scripts: Vec<Script>,
    pub actors: Vec<Actor>,
    pub timing: Timing,
    pub view: [i64; 2],
    pub switches: Switches,
    /// The update list of the last update, one entry per actor.
    pub members: Vec<Why>,
}

impl RefWorld {
    /// Build the world and place every actor (A33, C15): in asset order, two ordinary
    /// requests for group 0 with modifier 0, while the shared ticks are still 0.
    pub fn new(
        set: ActorSet,
        view: [i64; 2],
        scale: u32,
        switches: Switches,
    ) -> Result<RefWorld, ActorRunError> {
        let mut world = RefWorld {
            width: set.width,
            height: set.height,
            models: set.models,
            scripts: set.scripts,
            actors: set.actors.iter().map(Actor::from_spec).collect(),
            timing: Timing::new(scale),
            view,
            switches,
            members: Vec::new(),
        };
        let env = world.env();
        for actor in &mut world.actors {
            for _ in 0..2 {
                request(actor, &world.models, env, 0, 0).map_err(|error| ActorRunError {
                    actor: actor.id.clone(),
                    error,
                })?;
            }
        }
        Ok(world)
    }

    /// What the boundary reads besides the actor (A16): the animation switch and the
    /// shared ticks.
    pub fn env(&self) -> Env {
        Env {
            animation: self.switches.animation,
            ticks: self.timing.ticks,
        }
    }

    /// The window origin for the current view (A35, C11): nine cells before the view's
    /// cell, kept inside the map.
    pub fn window(&self) -> [i64; 2] {
        let origin = |centre: i64, size: i64| {
            let cell = centre.div_euclid(CELL);
            let mut first = cell - WINDOW_LEAD;
            if first > size - WINDOW {
                first = size - WINDOW;
            }
            if first < 0 {
                first = 0;
            }
            first
        };
        [
            origin(self.view[0], self.width),
            origin(self.view[1], self.height),
        ]
    }

    /// One world update: the shared ticks (A38, A39), the update list (A34, A35) from
    /// the positions before any actor moves, then every listed, not excluded member in
    /// asset order (C12, C16).
    pub fn update(&mut self) -> Result<(), ActorRunError> {
        step_timing(&mut self.timing);
        let origin = self.window();
        self.members = self.actors.iter().map(|a| membership(a, origin)).collect();
        for actor in &mut self.actors {
            actor.translation = None;
        }
        let env = self.env();
        for (actor, why) in self.actors.iter_mut().zip(&self.members) {
            if listed(*why) && !actor.flags.excluded {
                update_actor(actor, &self.models, &self.scripts, env, self.switches).map_err(
                    |error| ActorRunError {
                        actor: actor.id.clone(),
                        error,
                    },
                )?;
            }
        }
        Ok(())
    }

    /// An ordinary request for actor `i` (panics when there is no such actor).
    pub fn request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        let env = self.env();
        request(&mut self.actors[i], &self.models, env, g, modifier)
    }

    /// A forced request for actor `i` (panics when there is no such actor).
    pub fn force_request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        let env = self.env();
        force_request(&mut self.actors[i], &self.models, env, g, modifier)
    }

    /// A timing reset (C13): the accumulator restarts and the warm-up begins again.
    pub fn reset_timing(&mut self) {
        self.timing.acc = 0;
        self.timing.warmup = WARMUP_UPDATES;
    }
}

/// The shared whole-tick increment of one update (A38, A39, D1): add the Q8 frame
/// scale to the accumulator; the ticks are the change of its whole part, except during
/// the warm-up after a reset, when they are 1.
pub fn step_timing(timing: &mut Timing) {
    let whole_before = timing.acc >> 8;
    timing.acc = timing.acc.saturating_add(timing.scale as u64);
    if timing.warmup > 0 {
        timing.warmup -= 1;
        timing.ticks = 1;
    } else {
        timing.ticks = ((timing.acc >> 8) - whole_before) as u32;
    }
}

/// One actor's place in the update list (A34, A35): a non-zero activation byte keeps
/// it in persistent storage; otherwise its cell decides, inside the 18×18 window
/// without the corners, and on the border only with attribute byte 113 clear.
pub fn membership(actor: &Actor, origin: [i64; 2]) -> Why {
    if actor.activation != 0 {
        return Why::Persistent;
    }
    let x = actor.pos[0].div_euclid(CELL) - origin[0];
    let y = actor.pos[1].div_euclid(CELL) - origin[1];
    let inside = |d: i64| (0..WINDOW).contains(&d);
    if !inside(x) || !inside(y) {
        return Why::Outside;
    }
    let on_edge = |d: i64| d == 0 || d == WINDOW - 1;
    match (on_edge(x), on_edge(y)) {
        (true, true) => Why::Corner,
        (false, false) => Why::Inner,
        _ if actor.attr113 == 0 => Why::Border,
        _ => Why::BorderAttr113,
    }
}

/// Whether the list hands the member to the update (A34, A35).
fn listed(why: Why) -> bool {
    matches!(why, Why::Persistent | Why::Border | Why::Inner)
}

/// One listed actor's update (A36), in the original's order.
pub fn update_actor(
    actor: &mut Actor,
    models: &[ModelTable],
    scripts: &[Script],
    env: Env,
    switches: Switches,
) -> Result<(), RunError> {
    // 1. Default selection (A37, C8): the state default, else attribute 44. Changing it
    //    forces the new default when the old one was current and had not reached its
    //    exit; the forced request passes the boundary like any other.
    let selected = actor.state_default.unwrap_or(actor.attr44);
    if let Some(anim) = actor.anim.as_mut() {
        if anim.default != selected {
            let old = anim.default;
            anim.default = selected;
            if anim.current == Some(old) && !anim.exit {
                force_request(actor, models, env, selected, 0)?;
            }
        }
    }
    // 2–3. Unless the actor is excluded from animation updates: one advancement, then
    //      an ordinary request for the default group with modifier 0, both through
    //      the boundary (A16).
    if !actor.flags.anim_update_excluded {
        advance_actor(actor, models, env)?;
        if let Some(default) = actor.anim.as_ref().map(|a| a.default) {
            request(actor, models, env, default, 0)?;
        }
    }
    // 4. Movement (A27, C14).
    move_actor(actor, env.ticks);
    // 5. The script stage, unless the scripts switch is off or the actor's stage is
    //    suppressed (A36, A40).
    if switches.scripts && !actor.flags.script_suppressed {
        if let Some(script) = actor.script.and_then(|i| scripts.get(i)) {
            script_stage(actor, models, script, env)?;
        }
    }
    Ok(())
}

/// Ordinary forward walking (A27, C14): `walk × ticks`, unless the breakpoint marker
/// is set, which suppresses this update's translation.
pub fn move_actor(actor: &mut Actor, ticks: u32) {
    let Some(walk) = actor.walk else {
        return;
    };
    let marker = match &actor.anim {
        Some(anim) => anim.breakpoint,
        None => false,
    };
    if marker {
        actor.translation = Some(Translation::Suppressed);
        return;
    }
    let t = ticks as i64;
    actor.pos[0] = actor.pos[0].saturating_add(walk[0].saturating_mul(t));
    actor.pos[1] = actor.pos[1].saturating_add(walk[1].saturating_mul(t));
    actor.translation = Some(Translation::Applied);
}

/// The boundary of every request and advancement (A16): with the animation switch
/// off, a static model, no animation state or no model table, nothing happens.
fn eligible<'a, 'm>(
    actor: &'a mut Actor,
    models: &'m [ModelTable],
    env: Env,
) -> Option<(&'a mut Anim, &'m ModelTable)> {
    if !env.animation || actor.static_model {
        return None;
    }
    let model = models.get(actor.model?)?;
    let anim = actor.anim.as_mut()?;
    Some((anim, model))
}

/// An ordinary request (A4–A11) through the boundary (A16: `rejected`).
pub fn request(
    actor: &mut Actor,
    models: &[ModelTable],
    env: Env,
    g: u8,
    modifier: u8,
) -> Result<Outcome, RunError> {
    let Some((anim, model)) = eligible(actor, models, env) else {
        return Ok(Outcome::Rejected);
    };
    if anim.current.is_some() && anim.current == Some(anim.default) {
        if g == anim.default {
            return Ok(Outcome::Unchanged); // A5
        }
        anim.current = None; // A6
    }
    // A7: the request replaces the pending one when nothing is current, nothing is
    // pending, the pending number is not above the requested one, or the pending group
    // is the current one. A8: otherwise it is refused. The comparison is of the
    // requested number, before any fallback (C4).
    let replaces = match (anim.current, anim.pending) {
        (None, _) | (_, None) => true,
        (Some(current), Some(pending)) => pending <= g || pending == current,
    };
    let result = if replaces {
        accept(anim, model, g, modifier)
    } else {
        Outcome::Refused
    };
    if anim.current.is_none() {
        advance(anim, model, env.ticks, 0)?; // A11
    }
    Ok(result)
}

/// A forced request (A14, A15, C7) through the boundary (A16).
pub fn force_request(
    actor: &mut Actor,
    models: &[ModelTable],
    env: Env,
    g: u8,
    modifier: u8,
) -> Result<Outcome, RunError> {
    let Some((anim, model)) = eligible(actor, models, env) else {
        return Ok(Outcome::Rejected);
    };
    if anim.current == Some(g) && !anim.exit {
        // A14: the current group keeps playing; only the pending request goes.
        anim.pending = None;
        anim.pending_countdown = None;
        return Ok(Outcome::Kept);
    }
    // A15: restart from the requested group, whatever is pending.
    anim.current = None;
    let result = accept(anim, model, g, modifier);
    anim.cursor = 0;
    anim.direction = 1;
    anim.loop_count = 0;
    anim.breakpoint = false;
    anim.exit = false;
    if anim.pending.is_some() {
        advance(anim, model, env.ticks, 0)?;
    }
    Ok(result)
}

/// Acceptance (A9, A10): the requested group, else the default group, becomes the
/// pending one with countdown = its header's low byte + the modifier (wrapping); with
/// neither, the pending request is cleared.
fn accept(anim: &mut Anim, model: &ModelTable, g: u8, modifier: u8) -> Outcome {
    let group = match model.group(g) {
        Some(group) => Some(group),
        None => model.group(anim.default),
    };
    match group {
        Some(group) => {
            anim.pending = Some(group.number);
            anim.pending_countdown = Some(group.low_byte().wrapping_add(modifier));
            Outcome::Accepted
        }
        None => {
            anim.pending = None;
            anim.pending_countdown = None;
            Outcome::Cleared
        }
    }
}

/// An advancement through the boundary (A16).
pub fn advance_actor(actor: &mut Actor, models: &[ModelTable], env: Env) -> Result<(), RunError> {
    match eligible(actor, models, env) {
        Some((anim, model)) => advance(anim, model, env.ticks, 0),
        None => Ok(()),
    }
}

/// One advancement with the shared `ticks` (A12, A17–A20). `depth` counts the
/// `end_animation` restarts that led here (A13; more than [`MAX_END_CHAIN`] is a
/// runaway, C17).
pub fn advance(anim: &mut Anim, model: &ModelTable, ticks: u32, depth: u8) -> Result<(), RunError> {
    if anim.current.is_none() {
        if anim.pending.is_none() {
            accept(anim, model, anim.default, 0); // A12
        }
        if anim.pending.is_none() {
            return Ok(()); // no default group: nothing plays
        }
        start(anim); // A17
    }
    // A18: zero ticks leave cursor and countdown alone.
    if ticks > 0 {
        if anim.countdown == 0 {
            // A19: the expired countdown moves the cursor, reloads, and turns the
            // remaining ticks into frames to skip.
            anim.cursor = anim.cursor.wrapping_add(1);
            anim.countdown = anim.reload;
            anim.skip = ticks - 1;
            anim.breakpoint = false;
        }
        anim.countdown = anim.countdown.wrapping_sub(1); // A19, A20: a byte
    }
    match interpret(anim, model)? {
        None => Ok(()),
        Some(group) => {
            // A13: `end_animation` clears current and advances again, so a pending or
            // the default group starts within this advancement.
            anim.current = None;
            if depth >= MAX_END_CHAIN {
                return Err(RunError::EndChain { group });
            }
            advance(anim, model, ticks, depth + 1)
        }
    }
}

/// Start the pending request (A17, C1, C2): cursor 0, countdown and reload = the
/// start value it carries, markers and loop count cleared.
fn start(anim: &mut Anim) {
    let value = anim.pending_countdown.unwrap_or(0);
    anim.current = anim.pending;
    anim.pending = None;
    anim.pending_countdown = None;
    anim.countdown = value;
    anim.reload = value;
    anim.cursor = 0;
    anim.direction = 1;
    anim.skip = 0;
    anim.loop_count = 0;
    anim.breakpoint = false;
    anim.exit = false;
}

/// Interpret the current group from the cursor until a frame is selected (`None`) or
/// `end_animation` is reached (`Some(group)`).
fn interpret(anim: &mut Anim, model: &ModelTable) -> Result<Option<u8>, RunError> {
    let Some(number) = anim.current else {
        return Ok(None);
    };
    let Some(group) = model.group(number) else {
        return Ok(None);
    };
    let cmds = model.commands(group);
    // The engine's runaway bound (C17): one sweep of the group per skip, and a little.
    let mut budget = (anim.skip as u64 + 3) * (cmds.len() as u64 + 1);
    loop {
        let Some(&cmd) = cmds.get(anim.cursor as usize) else {
            return Err(RunError::CursorPastEnd { group: number });
        };
        if budget == 0 {
            return Err(RunError::ControlLoop { group: number });
        }
        budget -= 1;
        match cmd {
            Cmd::ShowFrame { handle, index } => {
                if anim.skip == 0 {
                    anim.frame = Some([handle, index]); // A3: the pose, as stored
                    return Ok(None);
                }
                // A21: a skipped frame is passed over and clears the marker (A26).
                anim.skip -= 1;
                anim.breakpoint = false;
                anim.cursor += 1;
            }
            Cmd::BreakPoint => {
                anim.breakpoint = true; // A25
                anim.cursor += 1;
            }
            Cmd::GoToPrevious { target } => {
                // A22: a loop count of 0 loops forever; a finite count loops until it
                // runs out, then falls through.
                if anim.loop_count == 0 {
                    anim.cursor = target;
                    anim.breakpoint = false;
                } else {
                    anim.loop_count -= 1;
                    if anim.loop_count == 0 {
                        anim.cursor += 1;
                    } else {
                        anim.cursor = target;
                        anim.breakpoint = false;
                    }
                }
            }
            Cmd::GoToFuture { target } => {
                // A23: jump ahead only when no finite loop runs and something waits
                // (a pending request or the exit marker).
                if anim.loop_count == 0 && (anim.pending.is_some() || anim.exit) {
                    anim.cursor = target;
                    anim.breakpoint = false;
                } else {
                    anim.cursor += 1;
                }
            }
            Cmd::EndAnimation => return Ok(Some(number)), // A13
        }
    }
}

/// One script stage (A36, A40, D2): the actor's task first; while it is active the
/// body waits, otherwise it is dropped and the body makes one step.
pub fn script_stage(
    actor: &mut Actor,
    models: &[ModelTable],
    script: &Script,
    env: Env,
) -> Result<(), RunError> {
    if actor.task.is_some() {
        if invoke(actor, models, env)? == TaskStatus::Active {
            return Ok(());
        }
        actor.task = None;
    }
    match script.cmds.get(actor.pc as usize) {
        Some(&ScriptCmd::PushAnimation { group, count }) => {
            // C9: the task is created here and first invoked by the next stage.
            actor.task = Some(Task {
                group,
                count,
                phase: Phase::NotStarted,
            });
            actor.pc += 1;
        }
        Some(&ScriptCmd::End { target }) => actor.pc = target, // C10
        None => actor.pc = 0,
    }
    Ok(())
}

/// One invocation of a `PushAnimation(group, count)` task (A28–A32).
pub fn invoke(actor: &mut Actor, models: &[ModelTable], env: Env) -> Result<TaskStatus, RunError> {
    let Some(task) = actor.task else {
        return Ok(TaskStatus::Completed);
    };
    let current = actor.anim.as_ref().and_then(|a| a.current);
    match task.phase {
        Phase::NotStarted if current == Some(task.group) => {
            // A29, A30, A32: the group plays; the count becomes its finite loop count.
            if let Some(anim) = actor.anim.as_mut() {
                anim.loop_count = task.count;
            }
            actor.task = Some(Task {
                phase: Phase::Started,
                ..task
            });
            Ok(TaskStatus::Active)
        }
        Phase::NotStarted => {
            // A28: ask for the group and stay active; the count waits for the next
            // invocation even if the group started now.
            request(actor, models, env, task.group, 0)?;
            Ok(TaskStatus::Active)
        }
        // A31: once started, the task ends when its group stops being current.
        Phase::Started if current == Some(task.group) => Ok(TaskStatus::Active),
        Phase::Started => Ok(TaskStatus::Completed),
    }
}

impl ScenarioWorld for RefWorld {
    fn build(
        set: ActorSet,
        view: [i64; 2],
        scale: u32,
        switches: Switches,
    ) -> Result<Self, ActorRunError> {
        RefWorld::new(set, view, scale, switches)
    }
    fn update(&mut self) -> Result<(), ActorRunError> {
        RefWorld::update(self)
    }
    fn request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        RefWorld::request(self, i, g, modifier)
    }
    fn force_request(&mut self, i: usize, g: u8, modifier: u8) -> Result<Outcome, RunError> {
        RefWorld::force_request(self, i, g, modifier)
    }
    fn reset_timing(&mut self) {
        RefWorld::reset_timing(self);
    }
    fn clear_translations(&mut self) {
        for actor in &mut self.actors {
            actor.translation = None;
        }
    }
    fn snapshot(&self) -> Snapshot<'_> {
        Snapshot {
            actors: &self.actors,
            members: &self.members,
            timing: self.timing,
            view: self.view,
            window: self.window(),
            switches: self.switches,
        }
    }
    fn actors_mut(&mut self) -> &mut [Actor] {
        &mut self.actors
    }
    fn timing_mut(&mut self) -> &mut Timing {
        &mut self.timing
    }
    fn view_mut(&mut self) -> &mut [i64; 2] {
        &mut self.view
    }
    fn switches_mut(&mut self) -> &mut Switches {
        &mut self.switches
    }
}

/// The scenario driver of the reference: [`crate::ActorSim`]'s steps and trace lines,
/// played on a [`RefWorld`].
#[derive(Debug, Clone)]
pub struct ActorRefSim {
    driver: Driver<RefWorld>,
}

impl ActorRefSim {
    /// The world, when the set loaded.
    pub fn world(&self) -> Option<&RefWorld> {
        self.driver.state.as_ref().ok()
    }

    /// The fault that rejected the set, if any (its trace is the single error line
    /// [`crate::scenario::error_line`]).
    pub fn load_fault(&self) -> Option<&LoadFault> {
        self.driver.state.as_ref().err()
    }
}

impl Simulation for ActorRefSim {
    type Step = Step;
    type Line = Line;

    fn load(scenario: &Scenario) -> Result<Self, ScenarioError> {
        Ok(ActorRefSim {
            driver: Driver::load(scenario)?,
        })
    }

    fn snapshot(&self) -> Line {
        self.driver.line(0, "setup", None)
    }

    fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        self.driver.apply(index, step, at)
    }
}

/// [`crate::run_scenario`] through the reference.
pub fn run_scenario(scenario: &Scenario) -> Result<Vec<Value>, ScenarioError> {
    run_as::<ActorRefSim>(scenario, ActorRefSim::load_fault)
}
