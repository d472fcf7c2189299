//! The server loop of an AC world through the C ABI: the player's server update with
//! the client's requested position, `update_object`'s quantum rules, the late joiner's
//! `MovementData`, and the weenie's jump answers (ACE's `Player_Tick`,
//! `PhysicsObj.update_object`, `Player.HandleActionJump`).

use crate::ac::{finite, flag, frame_in, on, on_creature, RaAcPosition, RaAcWorld};
use crate::args;
use crate::status::{Error, RaStatus, Result};
use retroanim_ac::interpolation::Position;
use retroanim_ac::physics_obj::MAX_QUANTUM;
use retroanim_ac::server_loop::{block_dist, plan_update, UpdatePlan};
use retroanim_ac::{server_world, world};

/// A clock time: finite (the timeline of `ra_ac_world_clock`).
fn clock(now: f64) -> Result<f64> {
    if now.is_finite() {
        Ok(now)
    } else {
        Err(Error::invalid(format!("now {now} is NaN or infinite")))
    }
}

fn request_in(p: Option<RaAcPosition>) -> Result<Option<Position>> {
    p.map(|p| Ok(Position::new(p.cell, frame_in(&p.frame, "request.frame")?)))
        .transpose()
}

/// The shared body of the two server updates.
///
/// # Safety
/// `request` is null or valid; `ok` is null or writable.
unsafe fn server_update(
    world: RaAcWorld,
    creature: u32,
    now: f64,
    request: *const RaAcPosition,
    force_pos: u8,
    ok: *mut u8,
    legacy: bool,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `request`.
    let request = unsafe { args::optional(request) }.copied();
    on(world, |w| {
        let now = clock(now)?;
        let force = flag(force_pos, "force_pos")?;
        let req = request_in(request)?;
        let i = w.index(creature)?;
        let objs = &mut w.world.objects;
        let o = &objs[i];
        if legacy {
            // The legacy path stores the move over the whole gap as the cached velocity;
            // ACE would divide by a zero gap and keep an infinite or NaN velocity, which
            // this door refuses (as the scenario runner refuses to print it).
            let target = req.unwrap_or(o.server.request_pos);
            let dt = now - o.update_time();
            if block_dist(o.cell(), target.cell) <= 1 {
                let v = o.position().get_offset(&target).div(dt as f32);
                if ![v.x, v.y, v.z].iter().all(|c| c.is_finite()) {
                    return Err(Error::invalid(format!(
                        "now {now}: {dt} s since the creature's last update would give it a NaN or infinite cached velocity; refused"
                    )));
                }
            }
        }
        objs[i].clear_logs();
        let done = if legacy {
            server_world::update_object_server(objs, i, now, req.as_ref(), force)
        } else {
            server_world::update_object_server_new(objs, i, now, req.as_ref(), force)
        };
        // SAFETY: the caller's guarantee for `ok`.
        unsafe { args::put_optional(ok, u8::from(done)) };
        Ok(())
    })
}

/// `PhysicsObj.update_object_server(force_pos)` as ACE's `Player_Tick` calls it for a
/// player: at clock `now` (seconds, on the world clock's timeline; the creature's clock
/// reads it for this update, the world clock is not changed), with `request` (nullable:
/// keep the last one) as the client's requested position. The creature moves straight to
/// the request (refused more than one landblock away) with the cached velocity of the
/// whole gap since its last update, its managers run, then with `force_pos` 1 it takes
/// the request. `*ok` (nullable) receives ACE's answer, 1 when the move was made. A
/// `now` equal to the creature's last update time, with a reachable request, is refused
/// with `RA_STATUS_INVALID_ARGUMENT` (ACE would keep an infinite velocity).
///
/// # Safety
/// `request` is null or valid; `ok` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_update_object_server(
    world: RaAcWorld,
    creature: u32,
    now: f64,
    request: *const RaAcPosition,
    force_pos: u8,
    ok: *mut u8,
) -> RaStatus {
    // SAFETY: the caller's guarantees, passed on.
    unsafe { server_update(world, creature, now, request, force_pos, ok, true) }
}

/// `PhysicsObj.update_object_server_new(force_pos)`: as `ra_ac_update_object_server`,
/// but the gap since the creature's last update is simulated in quanta of at most
/// `MaxQuantum` (0.1 s) as world updates (a gap over 2 s, ACE's `HugeQuantum`, is
/// consumed unsimulated and `*ok` is 0); then with `force_pos` 1 the creature takes the
/// request when it is at most one landblock away.
///
/// # Safety
/// As for `ra_ac_update_object_server`.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_update_object_server_new(
    world: RaAcWorld,
    creature: u32,
    now: f64,
    request: *const RaAcPosition,
    force_pos: u8,
    ok: *mut u8,
) -> RaStatus {
    // SAFETY: the caller's guarantees, passed on.
    unsafe { server_update(world, creature, now, request, force_pos, ok, false) }
}

/// `PhysicsObj.update_object` for one creature at clock `now`, ACE's quantum rules: a
/// gap under `TickRate` (1/30 s) since its last update does nothing; over 2 s
/// (`HugeQuantum`) it is consumed unsimulated; otherwise it is simulated in quanta of at
/// most 0.1 s (`MaxQuantum`), a remainder at or below 1/30 s left owed. `*quanta`
/// (nullable) receives how many quanta ran. The world clock is not changed.
///
/// # Safety
/// `quanta` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_update_object(
    world: RaAcWorld,
    creature: u32,
    now: f64,
    quanta: *mut u32,
) -> RaStatus {
    on(world, |w| {
        let now = clock(now)?;
        let i = w.index(creature)?;
        let objs = &mut w.world.objects;
        objs[i].clear_logs();
        objs[i].set_now(now);
        let ran = if !objs[i].in_cell() {
            objs[i].set_active(false);
            0
        } else {
            match plan_update(objs[i].update_time(), now, true) {
                UpdatePlan::Refuse => 0,
                UpdatePlan::Consume => {
                    objs[i].set_update_time(now);
                    0
                }
                UpdatePlan::Run {
                    full,
                    rest,
                    end_time,
                } => {
                    for _ in 0..full {
                        world::update_object(objs, i, MAX_QUANTUM);
                    }
                    if let Some(q) = rest {
                        world::update_object(objs, i, q);
                    }
                    objs[i].set_update_time(end_time);
                    full + u32::from(rest.is_some())
                }
            }
        };
        // SAFETY: the caller's guarantee for `quanta`.
        unsafe { args::put_optional(quanta, ran) };
        Ok(())
    })
}

/// The late joiner's message: the `MovementData` that brings a copy of `creature` made
/// now, in whatever state it is (mid-cycle, mid-link, running, mid-move-to or turn), to
/// the state of a copy that heard every earlier broadcast (ACE's
/// `movement_data_for_late_joiner`; not autonomous). Sized and written as
/// `ra_ac_movement_data` does. The creature's sequence counters are read, not moved on:
/// the message goes to one client.
///
/// # Safety
/// `count` is writable; `out` is null (only with `cap == 0`) or has `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_movement_data_for_late_joiner(
    world: RaAcWorld,
    creature: u32,
    out: *mut u8,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        let id = w.id(creature)?;
        let mut seq = w.seqs.get(&id).copied().unwrap_or_default();
        let bytes = w
            .creature(creature)?
            .movement_data_for_late_joiner()
            .to_bytes(&mut seq);
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, bytes.len(), bytes.iter().copied()) }
    })
}

/// The weenie's jump answers for `creature` (off by default, as for ACE's non-player
/// weenies): `jump_skill` is the Jump skill of a player (`InqJumpVelocity` then gives the
/// launch speed; below 0: none, the creature cannot jump by itself), `burden` its burden
/// as a fraction of capacity (0 or more; 1 to 2 lowers the jump, 2 and up forbids
/// height), `stamina_cost` what `JumpStaminaCost` answers (0, ACE's server answer,
/// refuses the client's jump with `GeneralMovementFailure`; anything else allows it).
#[no_mangle]
pub extern "C" fn ra_ac_set_jump_answers(
    world: RaAcWorld,
    creature: u32,
    jump_skill: i32,
    burden: f32,
    stamina_cost: f32,
) -> RaStatus {
    on_creature(world, creature, |c| {
        let burden = finite(burden, "burden")?;
        if burden < 0.0 {
            return Err(Error::invalid(format!("burden {burden} is below 0")));
        }
        let stamina = finite(stamina_cost, "stamina_cost")?;
        c.server.jump_skill = u32::try_from(jump_skill).ok();
        c.server.burden = burden;
        c.server.jump_stamina = stamina;
        Ok(())
    })
}
