//! Events and length queries of an AC world through the C ABI: what each creature
//! raised (hooks, motions and moves done, sticky and constraint changes), drained in one
//! batch after a tick, and how long the creature's motion table plays a cycle, a link or
//! an action.

use crate::ac::{finite, flag, on, RaAcWorld};
use crate::args;
use crate::status::{Error, RaStatus, Result};
use retroanim_ac::anim_lengths;
use retroanim_ac::events::Event;
use retroanim_ac::physics_obj::PhysicsObj;

/// What an `RaAcEvent` reports (its `kind`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaAcEventKind {
    /// An animation hook was processed: `a` its `AnimationHookType` (4 is
    /// AnimationDone), `b` its Animation record id, `frame` and `hook` its place in that
    /// record (`ra_ac_hook_payload` reads its payload). The AnimationDone the sequence
    /// raises at the end of a non-cyclic node has `b` 0, `frame` -1, no payload.
    Hook = 1,
    /// The weenie's `OnMotionDone`: `a` the motion, `b` 1 on success, 0 on failure.
    MotionDone = 2,
    /// The weenie's `OnMoveComplete`: a move-to or turn-to ended, `a` its `WeenieError`
    /// (0 = arrived).
    MoveComplete = 3,
    /// `StickTo` took effect: `a` the target's object id.
    Stuck = 4,
    /// The sticky target was cleared (unstick, timeout, target gone): `a` its id.
    Unstuck = 5,
    /// `ConstrainTo` took effect.
    Constrained = 6,
    /// A constraint was lifted.
    Unconstrained = 7,
    /// The creature's log was full (4096 events): `a` events lost after its last entry.
    Dropped = 8,
}

/// One event of one creature (`ra_ac_world_events`). The meaning of `a`, `b`, `frame`
/// and `hook` depends on `kind` (an `RaAcEventKind`); unused fields are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaAcEvent {
    /// The creature's index in the world.
    pub creature: u32,
    /// Its object id.
    pub id: u32,
    pub kind: u32,
    pub a: u32,
    pub b: u32,
    pub frame: i32,
    pub hook: u32,
}

fn event_out(creature: u32, id: u32, e: &Event) -> RaAcEvent {
    let base = RaAcEvent {
        creature,
        id,
        ..RaAcEvent::default()
    };
    let k = |kind: RaAcEventKind| kind as u32;
    match *e {
        Event::Hook {
            hook_type,
            anim_id,
            frame,
            index,
        } => RaAcEvent {
            kind: k(RaAcEventKind::Hook),
            a: hook_type,
            b: anim_id,
            frame,
            hook: index,
            ..base
        },
        Event::MotionDone { motion, success } => RaAcEvent {
            kind: k(RaAcEventKind::MotionDone),
            a: motion,
            b: u32::from(success),
            ..base
        },
        Event::MoveComplete(status) => RaAcEvent {
            kind: k(RaAcEventKind::MoveComplete),
            a: status as u32,
            ..base
        },
        Event::Stuck { target } => RaAcEvent {
            kind: k(RaAcEventKind::Stuck),
            a: target,
            ..base
        },
        Event::Unstuck { target } => RaAcEvent {
            kind: k(RaAcEventKind::Unstuck),
            a: target,
            ..base
        },
        Event::Constrained => RaAcEvent {
            kind: k(RaAcEventKind::Constrained),
            ..base
        },
        Event::Unconstrained => RaAcEvent {
            kind: k(RaAcEventKind::Unconstrained),
            ..base
        },
    }
}

/// Record events (1) or stop (0; what was recorded is dropped) for every creature of the
/// world, present and future (added or moved in). Off by default: a world nobody drains
/// keeps no log.
#[no_mangle]
pub extern "C" fn ra_ac_world_set_events(world: RaAcWorld, on_off: u8) -> RaStatus {
    on(world, |w| {
        let v = flag(on_off, "on")?;
        w.events = v;
        for o in w.world.objects.iter_mut() {
            if v {
                o.enable_events();
            } else {
                o.disable_events();
            }
        }
        Ok(())
    })
}

/// Drain every creature's events into the caller's array `out` of `cap` entries:
/// creature by creature in update order, each creature's in the order the engine raised
/// them, during ticks and calls alike, since the last drain. `*count` receives the
/// number of events; when it exceeds `cap` the call fails with
/// `RA_STATUS_BUFFER_TOO_SMALL` and drains nothing (call with `cap` 0 to size). Nothing
/// is allocated: the logs keep their buffers for the next events.
///
/// # Safety
/// `count` is writable; `out` is null (only with `cap == 0`) or has `cap` writable
/// entries.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_events(
    world: RaAcWorld,
    out: *mut RaAcEvent,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        let logged = |o: &PhysicsObj| o.events().len() + usize::from(o.events_dropped() > 0);
        let n: usize = w.world.objects.iter().map(logged).sum();
        let index_of = &w.index_of;
        let items = w.world.objects.iter().flat_map(|o| {
            let id = o.id();
            let dropped = o.events_dropped();
            // Only a creature with something to report costs a look-up.
            let c = if o.events().is_empty() && dropped == 0 {
                u32::MAX
            } else {
                index_of.get(&id).copied().unwrap_or(u32::MAX)
            };
            o.events()
                .iter()
                .map(move |e| event_out(c, id, e))
                .chain((dropped > 0).then_some(RaAcEvent {
                    creature: c,
                    id,
                    kind: RaAcEventKind::Dropped as u32,
                    a: dropped,
                    ..RaAcEvent::default()
                }))
        });
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, n, items)? };
        for o in w.world.objects.iter_mut() {
            o.drain_events();
        }
        Ok(())
    })
}

/// The payload bytes of hook `hook` of part frame `frame` of Animation `anim_id`, as
/// creature `creature`'s records hold it (the fields of an `RaAcEvent` of kind Hook).
/// Sized and written as `ra_ac_movement_data` does; an animation, frame or hook the
/// records do not have is `RA_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `count` is writable; `out` is null (only with `cap == 0`) or has `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_hook_payload(
    world: RaAcWorld,
    creature: u32,
    anim_id: u32,
    frame: i32,
    hook: u32,
    out: *mut u8,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        let anim = w.creature(creature)?.anims().animation(anim_id);
        if anim.id != anim_id || anim_id == 0 {
            return Err(Error::invalid(format!(
                "animation {anim_id:#010x} is not in the creature's records"
            )));
        }
        let pf = usize::try_from(frame)
            .ok()
            .and_then(|f| anim.part_frames.get(f))
            .ok_or_else(|| {
                Error::invalid(format!(
                    "animation {anim_id:#010x} has no frame {frame} (it has {})",
                    anim.part_frames.len()
                ))
            })?;
        let h = pf.hooks.get(hook as usize).ok_or_else(|| {
            Error::invalid(format!(
                "frame {frame} of animation {anim_id:#010x} has no hook {hook} (it has {})",
                pf.hooks.len()
            ))
        })?;
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, h.payload.len(), h.payload.iter().copied()) }
    })
}

/// A speed a length is asked at: finite and not 0 (a clip at speed 0 never ends).
fn speed(v: f32) -> Result<f32> {
    let s = finite(v, "speed")?;
    if s == 0.0 {
        return Err(Error::invalid("speed 0: nothing plays at speed 0"));
    }
    Ok(s)
}

/// Run a length query on creature `creature`'s motion table.
///
/// # Safety
/// `out` is writable.
unsafe fn length(
    world: RaAcWorld,
    creature: u32,
    out: *mut f32,
    f: impl FnOnce(&PhysicsObj, &retroanim_ac::motion_table::MotionTableData) -> Result<f32>,
) -> RaStatus {
    on(world, |w| {
        let c: &PhysicsObj = w.creature(creature)?;
        let tm = c
            .table_manager()
            .ok_or_else(|| Error::invalid(format!("creature {creature} has no motion table")))?;
        let v = f(c, &tm.table)?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, v, "out") }
    })
}

/// `GetCycleLength`: the seconds one pass of cycle `motion` in `style` takes at `speed`
/// on creature `creature`'s motion table (0 when the table has no such cycle).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_cycle_length(
    world: RaAcWorld,
    creature: u32,
    style: u32,
    motion: u32,
    speed: f32,
    out: *mut f32,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `out`.
    unsafe {
        length(world, creature, out, |c, t| {
            let s = self::speed(speed)?;
            Ok(anim_lengths::cycle_length(
                t,
                c.anims().as_ref(),
                style,
                motion,
                s,
            ))
        })
    }
}

/// The seconds the link from substate `from` to motion `to` in `style` plays at
/// `speed` (the link the table manager picks, its style-wide fallback included; 0 when
/// there is none).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_link_length(
    world: RaAcWorld,
    creature: u32,
    style: u32,
    from: u32,
    to: u32,
    speed: f32,
    out: *mut f32,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `out`.
    unsafe {
        length(world, creature, out, |c, t| {
            let s = self::speed(speed)?;
            Ok(anim_lengths::link_length(
                t,
                c.anims().as_ref(),
                style,
                from,
                to,
                s,
            ))
        })
    }
}

/// `GetAnimationLength`: the seconds `motion` (an action, an emote, a substate) plays
/// when started at `speed` from `style`'s default substate: the link from that substate
/// to it. For an action this is the time from `ra_ac_do_motion` to its MotionDone event.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_animation_length(
    world: RaAcWorld,
    creature: u32,
    style: u32,
    motion: u32,
    speed: f32,
    out: *mut f32,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `out`.
    unsafe {
        length(world, creature, out, |c, t| {
            let s = self::speed(speed)?;
            Ok(anim_lengths::animation_length(
                t,
                c.anims().as_ref(),
                style,
                motion,
                s,
            ))
        })
    }
}
