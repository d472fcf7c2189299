//! Actor stages: a placed RAAN/RAGR actor set being played.

use crate::args;
use crate::handle::{self, Table};
use crate::status::{guard, Error, RaStatus, Result};
use retroanim_actor::arbitration::Outcome;
use retroanim_actor::{load_set_file, load_set_str, ActorSet, Stage};
use std::ffi::c_char;
use std::sync::Mutex;

/// An actor stage. 0 is the null handle. Actors are named by their ids in the set.
pub type RaActorStage = u64;

/// How a stage starts. Fill it with `ra_actor_options_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaActorOptions {
    /// Where the camera looks (map units).
    pub view: [i64; 2],
    /// Q8 frame scale added per update (256 = one tick).
    pub frame_scale: u32,
    /// 1: run the actors' scripts; 0: not.
    pub scripts: u8,
}

/// One actor's pose: `has_frame` 0 means it has not selected one (model and frame are
/// then 0). `group` is the group it plays, -1 for none.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaActorFrame {
    pub has_frame: u8,
    pub model: u16,
    pub frame: u16,
    pub group: i16,
}

/// What a request did.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaActorOutcome {
    Accepted = 0,
    Cleared = 1,
    Refused = 2,
    Unchanged = 3,
    Rejected = 4,
    Kept = 5,
}

static STAGES: Mutex<Table<Stage>> = Mutex::new(Table::new(4, "actor stage"));

fn on(h: RaActorStage, f: impl FnOnce(&mut Stage) -> Result<()>) -> RaStatus {
    guard(|| handle::with(&STAGES, h, f))
}

fn create(set: ActorSet, opts: Option<&RaActorOptions>, out: *mut RaActorStage) -> Result<()> {
    let mut b = Stage::builder(set);
    if let Some(o) = opts {
        b = b
            .view(o.view)
            .frame_scale(o.frame_scale)
            .scripts(o.scripts != 0);
    }
    let stage = b.build().map_err(Error::load)?;
    let h = handle::insert(&STAGES, stage)?;
    // SAFETY: every caller passes its own caller's `out`, under the same guarantee.
    unsafe { args::put(out, h, "out") }
}

/// The defaults: view at (0, 0), frame scale 256, scripts on.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_options_default(out: *mut RaActorOptions) -> RaStatus {
    guard(|| {
        let o = RaActorOptions {
            view: [0, 0],
            frame_scale: 256,
            scripts: 1,
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, o, "out") }
    })
}

/// A stage from an actor set JSON file; `options` may be null for the defaults.
///
/// Ownership: `*out` receives a new handle; free it with `ra_actor_stage_free`.
///
/// # Safety
/// `path` is NUL-terminated UTF-8; `options` is null or valid; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_stage_new_file(
    path: *const c_char,
    options: *const RaActorOptions,
    out: *mut RaActorStage,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantees for `path` and `options`.
        let (path, opts) = unsafe { (args::text(path, "path")?, args::optional(options)) };
        create(load_set_file(path).map_err(Error::load)?, opts, out)
    })
}

/// A stage from actor set JSON in memory (`len` bytes of UTF-8).
///
/// Ownership: the bytes are copied; `*out` receives a new handle; free it with
/// `ra_actor_stage_free`.
///
/// # Safety
/// `json` points to `len` readable bytes; `options` is null or valid; `out` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_stage_new_json(
    json: *const u8,
    len: usize,
    options: *const RaActorOptions,
    out: *mut RaActorStage,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantees for `json` and `options`.
        let (bytes, opts) = unsafe { (args::bytes(json, len, "json")?, args::optional(options)) };
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::load(format!("<json>: byte {}: not UTF-8", e.valid_up_to())))?;
        create(
            load_set_str(text, "<json>").map_err(Error::load)?,
            opts,
            out,
        )
    })
}

/// Free a stage. 0 is accepted and does nothing.
#[no_mangle]
pub extern "C" fn ra_actor_stage_free(stage: RaActorStage) -> RaStatus {
    guard(|| handle::free(&STAGES, stage))
}

fn outcome(o: Outcome) -> RaActorOutcome {
    match o {
        Outcome::Accepted => RaActorOutcome::Accepted,
        Outcome::Cleared => RaActorOutcome::Cleared,
        Outcome::Refused => RaActorOutcome::Refused,
        Outcome::Unchanged => RaActorOutcome::Unchanged,
        Outcome::Rejected => RaActorOutcome::Rejected,
        Outcome::Kept => RaActorOutcome::Kept,
    }
}

unsafe fn request(
    stage: RaActorStage,
    actor: *const c_char,
    group: u8,
    modifier: u8,
    forced: bool,
    out: *mut RaActorOutcome,
) -> RaStatus {
    on(stage, |s| {
        // SAFETY: the caller's guarantee for `actor`.
        let id = unsafe { args::text(actor, "actor")? };
        let r = if forced {
            s.force_request(id, group, modifier)
        } else {
            s.request(id, group, modifier)
        };
        let o = r.map_err(Error::refused)?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put_optional(out, outcome(o)) };
        Ok(())
    })
}

/// An ordinary request: actor `actor` should play `group` (a running group of higher
/// priority may refuse it). `*out` (nullable) receives what happened.
///
/// # Safety
/// `actor` is NUL-terminated UTF-8; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_request(
    stage: RaActorStage,
    actor: *const c_char,
    group: u8,
    modifier: u8,
    out: *mut RaActorOutcome,
) -> RaStatus {
    // SAFETY: the caller's guarantees, passed through.
    unsafe { request(stage, actor, group, modifier, false, out) }
}

/// A forced request: replaces whatever plays, whatever its priority.
///
/// # Safety
/// As for `ra_actor_request`.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_force_request(
    stage: RaActorStage,
    actor: *const c_char,
    group: u8,
    modifier: u8,
    out: *mut RaActorOutcome,
) -> RaStatus {
    // SAFETY: the caller's guarantees, passed through.
    unsafe { request(stage, actor, group, modifier, true, out) }
}

/// Set the actor's state-dependent default group (0..=255), or clear it with -1 (the
/// actor's own attribute then decides); takes effect at its next default selection.
///
/// # Safety
/// `actor` is NUL-terminated UTF-8.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_set_default(
    stage: RaActorStage,
    actor: *const c_char,
    group: i32,
) -> RaStatus {
    on(stage, |s| {
        // SAFETY: the caller's guarantee for `actor`.
        let id = unsafe { args::text(actor, "actor")? };
        let g = match group {
            -1 => None,
            0..=255 => Some(group as u8),
            _ => return Err(Error::invalid(format!("group {group} (expected -1..=255)"))),
        };
        let w = s.world_mut();
        let a = w
            .actors_mut()
            .iter_mut()
            .find(|a| a.id == id)
            .ok_or_else(|| Error::invalid(format!("no actor '{id}'")))?;
        a.state_default = g;
        Ok(())
    })
}

/// One frame of the game: the shared clock, the update list, every listed actor.
#[no_mangle]
pub extern "C" fn ra_actor_update(stage: RaActorStage) -> RaStatus {
    on(stage, |s| s.update().map_err(Error::refused))
}

/// Move the camera.
#[no_mangle]
pub extern "C" fn ra_actor_set_view(stage: RaActorStage, x: i64, y: i64) -> RaStatus {
    on(stage, |s| {
        s.set_view([x, y]);
        Ok(())
    })
}

fn frame_of(a: &retroanim_actor::Actor) -> RaActorFrame {
    let anim = a.anim.as_ref();
    let f = anim.and_then(|s| s.frame);
    RaActorFrame {
        has_frame: u8::from(f.is_some()),
        model: f.map_or(0, |f| f[0]),
        frame: f.map_or(0, |f| f[1]),
        group: anim.and_then(|s| s.current).map_or(-1, i16::from),
    }
}

/// One actor's pose.
///
/// # Safety
/// `actor` is NUL-terminated UTF-8; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_frame(
    stage: RaActorStage,
    actor: *const c_char,
    out: *mut RaActorFrame,
) -> RaStatus {
    on(stage, |s| {
        // SAFETY: the caller's guarantee for `actor`.
        let id = unsafe { args::text(actor, "actor")? };
        let a = s
            .actor(id)
            .ok_or_else(|| Error::invalid(format!("no actor '{id}'")))?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, frame_of(a), "out") }
    })
}

/// The batch read: every actor's pose, in set order, into the caller's array of `cap`
/// entries; `*count` receives the actor count.
///
/// # Safety
/// `out` points to `cap` writable entries (or is null with `cap == 0`); `count` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn ra_actor_frames(
    stage: RaActorStage,
    out: *mut RaActorFrame,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(stage, |s| {
        let actors = s.world().actors();
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, actors.len(), actors.iter().map(frame_of)) }
    })
}
