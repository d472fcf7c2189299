//! Host physics through the C ABI: the two-phase tick of an AC world (the engine
//! proposes each moved creature's new frame, the host accepts, corrects or refuses it,
//! the engine commits), and ACE's outdoor landblock rule (docs/embedding.md "Host
//! physics").

use crate::ac::{
    check_quantum, finite, frame_in, frame_out, on, v3, AcWorld, RaAcPosition, RaAcWorld, RaVec3,
};
use crate::args;
use crate::status::{guard, Error, RaStatus, Result};
use retroanim_ac::host_physics::{Correction, HostPhysicsError, Proposal};
use retroanim_ac::interpolation::Position;
use retroanim_ac::landblock;
use retroanim_ac::math::Vec3;

/// One creature's proposal in the current batch of a two-phase tick
/// (`ra_ac_world_proposals`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaAcProposal {
    /// The creature's index in the world.
    pub creature: u32,
    /// Its object id.
    pub id: u32,
    /// Where it was before this tick's position step.
    pub from: RaAcPosition,
    /// Where the step would put it: the new frame, in the cell it is in (the engine never
    /// changes a cell by itself).
    pub to: RaAcPosition,
}

fn host_error(e: HostPhysicsError) -> Error {
    Error::invalid(e.to_string())
}

fn position_out(p: &Position) -> RaAcPosition {
    RaAcPosition {
        cell: p.cell,
        frame: frame_out(&p.frame),
    }
}

/// The object id of creature index `c`, which must have a proposal in the batch.
fn proposed_id(w: &AcWorld, c: u32) -> Result<u32> {
    let id = w.id(c)?;
    if w.world.proposals().iter().any(|p| p.id == id) {
        Ok(id)
    } else {
        Err(Error::invalid(format!(
            "creature {c} has no proposal in the current batch"
        )))
    }
}

/// Begin a two-phase tick: the world clock advances by `quantum` seconds (the rule of
/// `ra_ac_world_tick`) and the creatures take their position step up to the first batch
/// of proposals. `*count` (nullable) receives the batch's size (0 when nothing moved:
/// commit once to complete the tick). Refused while a two-phase tick is open.
///
/// # Safety
/// `count` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_tick_propose(
    world: RaAcWorld,
    quantum: f64,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        check_quantum(quantum)?;
        let n = w.world.propose(quantum).map_err(host_error)?.len();
        // SAFETY: the caller's guarantee for `count`.
        unsafe { args::put_optional(count, n) };
        Ok(())
    })
}

/// The current batch's proposals into the caller's array `out` of `cap` entries, in
/// update order; `*count` receives the batch's size (see `RA_STATUS_BUFFER_TOO_SMALL`).
/// Empty when no two-phase tick is open.
///
/// # Safety
/// `out` points to `cap` writable entries (or is null with `cap == 0`); `count` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_proposals(
    world: RaAcWorld,
    out: *mut RaAcProposal,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        let index_of = &w.index_of;
        let ps: &[Proposal] = w.world.proposals();
        let items = ps.iter().map(|p| RaAcProposal {
            creature: index_of.get(&p.id).copied().unwrap_or(u32::MAX),
            id: p.id,
            from: position_out(&p.from),
            to: position_out(&p.to),
        });
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, ps.len(), items) }
    })
}

/// Put creature `creature` at `to` instead of its proposal (a frame pushed back by a
/// wall, a new cell or landblock). Checked as every frame of this ABI is (finite, an
/// orientation of squared length at least 1e-12), and the cell must not be 0. The last
/// answer for a creature counts.
///
/// # Safety
/// `to` is valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_correct(
    world: RaAcWorld,
    creature: u32,
    to: *const RaAcPosition,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `to`.
    let to = unsafe { args::optional(to) }.copied();
    on(world, |w| {
        let to = to.ok_or_else(|| Error::null("to"))?;
        let id = proposed_id(w, creature)?;
        let frame = frame_in(&to.frame, "to.frame")?;
        if to.cell == 0 {
            return Err(Error::invalid("to.cell: cell 0 names no cell"));
        }
        w.world
            .correct(id, Correction::MoveTo(Position::new(to.cell, frame)))
            .map_err(host_error)
    })
}

/// Refuse creature `creature`'s move (ACE's failed transition): its origin stays, the
/// orientation the tick gave it is kept, its velocity becomes 0.
#[no_mangle]
pub extern "C" fn ra_ac_world_refuse(world: RaAcWorld, creature: u32) -> RaStatus {
    on(world, |w| {
        let id = proposed_id(w, creature)?;
        w.world.correct(id, Correction::Stay).map_err(host_error)
    })
}

/// ACE's outdoor rule on every proposal of the current batch in an outdoor cell: the
/// landblock and cell its new origin lies in, the origin brought into that landblock; a
/// move past the map's edge is refused. Replaces earlier answers for those creatures.
#[no_mangle]
pub extern "C" fn ra_ac_world_apply_outdoor_rule(world: RaAcWorld) -> RaStatus {
    on(world, |w| w.world.apply_outdoor_rule().map_err(host_error))
}

/// Commit the current batch (each creature takes its answer, unanswered ones their
/// proposal, then its managers run) and go on. `*done` receives 1 when the tick is
/// complete, 0 when the next batch is waiting (`ra_ac_world_proposals`); `*count`
/// (nullable) receives that batch's size.
///
/// # Safety
/// `done` is writable; `count` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_tick_commit(
    world: RaAcWorld,
    done: *mut u8,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        if done.is_null() {
            return Err(Error::null("done"));
        }
        let finished = w.world.commit().map_err(host_error)?;
        // SAFETY: the caller's guarantees for `done` and `count`.
        unsafe {
            args::put(done, u8::from(finished), "done")?;
            args::put_optional(count, w.world.proposals().len());
        }
        Ok(())
    })
}

/// `LandDefs.AdjustToOutside`: the outdoor cell `origin` (in `cell`'s landblock
/// coordinates) lies in, into `*out_cell`, and the origin brought into that landblock,
/// into `*out_origin`. `*out_cell` is 0 (and `*out_origin` the origin unchanged) past
/// the map's edge or for a cell id out of range, as ACE answers.
///
/// # Safety
/// `origin` is valid; `out_cell` and `out_origin` are writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_adjust_to_outside(
    cell: u32,
    origin: *const RaVec3,
    out_cell: *mut u32,
    out_origin: *mut RaVec3,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `origin`.
        let o = unsafe { args::optional(origin) }.ok_or_else(|| Error::null("origin"))?;
        let v = Vec3::new(
            finite(o.x, "origin.x")?,
            finite(o.y, "origin.y")?,
            finite(o.z, "origin.z")?,
        );
        let (c, r) = landblock::adjust_to_outside(cell, v).unwrap_or((0, v));
        if out_cell.is_null() {
            return Err(Error::null("out_cell"));
        }
        // SAFETY: the caller's guarantees for `out_cell` and `out_origin`.
        unsafe {
            args::put(out_origin, v3(r), "out_origin")?;
            args::put(out_cell, c, "out_cell")
        }
    })
}
