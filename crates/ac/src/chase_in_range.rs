//! A chase re-issued in range: `MoveToObject` to a watched target that the mover
//! already stands close enough to, the start and the end of the move in one call.
//!
//! The plain path starts the move (`PerformMovement`: StopCompletely, the manager's
//! fields, `SetTarget`, which queues `AddVoyeur`), the world carries the request out,
//! and the target's first report ends the move at once
//! ([`PhysicsObj::move_ends_on_first_report`]): `ClearTarget`,
//! `InitializeLocalVars`, StopCompletely, `OnMoveComplete(None)`. What that leaves
//! behind is a function of a few inputs, and [`start_ending_at_once`] writes it
//! directly: the two StopCompletely calls (both observable, and the second is not
//! bitwise idempotent), the manager's start position and parameters as
//! `InitializeLocalVars` leaves them, the weenie's completion, and the trace the
//! voyeur entry's insertion and removal leave in the target's table. The requests the
//! plain path queues and carries out, the target slot it fills and clears, the fields
//! it sets and resets and the tests it repeats on the way are skipped.

use crate::commands::{MovementParameters, MovementType, WeenieError, READY};
use crate::events::Event;
use crate::interpolation::block_offset;
use crate::motion_interp::motion_allows_jump;
use crate::moveto_manager::{command_motion, MovementStruct};
use crate::physics_obj::PhysicsObj;
use crate::position_helpers::cylinder_distance_by_offset_f32;
use crate::target_manager::{TargetInfo, TargetStatus, Voyeur};
use crate::world::Registry;

/// What [`start_ending_at_once`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Start {
    /// The move was started and ended, with this result.
    Ended(WeenieError),
    /// Nothing changed; every condition held but the range: the target is object
    /// `target`, and `GetCurrentDistance` as the first report would measure it is
    /// `distance`, at which the mover is out of range. [`start_out_of_range`] starts it.
    OutOfRange { target: usize, distance: f32 },
    /// Nothing changed; the plain path runs.
    Plain,
}

/// `world::perform_movement` of `mvs` for object `i` when `mvs` is a `MoveToObject`
/// that its first report ends at once.
///
/// Taken only when every step of the plain path is certain: the mover idle (no move,
/// node, current or aux command, no position manager, so nothing to cancel or unstick
/// and no request from its stops), in its cell, with nothing queued for others, a
/// target manager with an empty target slot (`ClearTarget` queues nothing) and the
/// quick stops; the target found under its id with a voyeur table that has no entry
/// for the mover (so `AddVoyeur` reports at once); no final heading, no stick; and
/// `get_command` at the distance the first report would measure answering no motion.
/// Debug builds check every use against the plain path run on clones.
// A hint, with `world::perform_movement`'s: without them, small changes elsewhere in
// the move-to code tip the inliner into calling one of the two out of line from the
// bench's re-issue loop (about 5 instructions per object-tick in `ac-chase`).
#[inline]
pub(crate) fn start_ending_at_once(w: &mut impl Registry, i: usize, mvs: &MovementStruct) -> Start {
    let top = mvs.top_level_id;
    let p = &mvs.params;
    if mvs.kind != MovementType::MoveToObject || top == 0 || p.use_final_heading || p.sticky {
        return Start::Plain;
    }
    let obj = w.at(i);
    let me = obj.id;
    if !idle_in_cell(obj) || me == top {
        return Start::Plain;
    }
    let Some(t) = w.find(top) else {
        return Start::Plain;
    };
    let target = w.at(t);
    let unwatched = target
        .target_manager
        .as_ref()
        .and_then(|m| m.voyeurs.as_ref())
        .is_some_and(|v| !v.contains(me));
    if !unwatched || target.id != top || !w.finds_itself(i) {
        return Start::Plain;
    }
    let obj = w.at(i);
    // `GetCurrentDistance` as the first report measures it, with the fields the start
    // sets: `position().get_offset(&target.position())`, formed from the two objects'
    // cells and origins rather than from copies of their positions.
    let off = block_offset(obj.cell, target.cell)
        .add(target.frame.origin)
        .sub(obj.frame.origin);
    // The cylinder distance narrowed to f32 as `GetCurrentDistance` returns it, without
    // the round trip through f64 of a bare reach.
    let d = if !p.use_spheres {
        off.length()
    } else {
        cylinder_distance_by_offset_f32(
            off,
            obj.get_radius(),
            obj.get_height(),
            obj.frame.origin.z,
            mvs.radius,
            mvs.height,
            target.frame.origin.z,
        )
    };
    #[cfg(debug_assertions)]
    {
        let (here, there) = (obj.position(), target.position());
        let plain = if !p.use_spheres {
            here.distance(&there)
        } else {
            crate::position_helpers::cylinder_distance(
                obj.get_radius(),
                obj.get_height(),
                &here,
                mvs.radius,
                mvs.height,
                &there,
            ) as f32
        };
        debug_assert_eq!(plain.to_bits(), d.to_bits(), "chase in range: distance");
    }
    if command_motion(p, d).0 != 0 {
        return Start::OutOfRange {
            target: t,
            distance: d,
        };
    }
    #[cfg(debug_assertions)]
    let plain = plain_start_on_clones(w, i, t, mvs);
    // The target's trace first: its table is apart from the mover, and the target was
    // just read.
    crate::world::voyeur_entry_came_and_went(w, t);
    let obj = w.at_mut(i);
    obj.set_active(true);
    // No `reserve_move_buffers`: the buffers are sized for a move that lasts, and this
    // one ends here. Its few appends grow a short buffer as any append does, and a move
    // that lasts sizes them where it starts (the plain start, `start_out_of_range`).
    // The plain path writes the manager between its two stops; a stop reads only the
    // manager's movement type, which is Invalid before the start and after the end,
    // and changes nothing the manager holds, so the two stops are made one after the
    // other.
    let now = obj.now;
    let here = obj.position();
    let m = &mut *obj.moveto;
    m.starting_position = Some(here);
    m.movement_params = *p;
    m.arm_charge_test();
    m.initialize_local_vars(now);
    stop_twice(obj);
    obj.on_move_complete(WeenieError::None);
    debug_assert!(obj.outbox.is_empty(), "an idle mover's stops queue nothing");
    #[cfg(debug_assertions)]
    if let Some((pair, r)) = plain {
        debug_assert_eq!(r, WeenieError::None, "chase in range: result");
        same_mover(&pair[0], w.at(i));
        debug_assert_eq!(
            pair[1].target_manager,
            w.at(t).target_manager,
            "chase in range: the target's voyeur table"
        );
    }
    Start::Ended(WeenieError::None)
}

/// `world::perform_movement` of `mvs` for object `i` when [`start_ending_at_once`]
/// answered [`Start::OutOfRange`] (target `t`, distance `d`), with its requests carried
/// out: the move's start and its first report in one call.
///
/// The plain path starts the move (`PerformMovement`: nothing to cancel or unstick,
/// StopCompletely, the manager's fields, `SetTarget`, which queues `AddVoyeur`), the
/// world carries the request out (the target's new voyeur entry, and its report at
/// once), and the mover's `ReceiveUpdate` stores the report and hands it to
/// `HandleUpdateTarget`, which takes `MoveToObject_Internal`: it measures the distance
/// the start measured, from the same positions with the same fields, and queues the
/// move's nodes. Here the entry, the stored report and the manager's fields are
/// written directly, and the nodes are queued with the start's distance; the request
/// queued and taken back, the report built and copied on its way, the tests of the
/// target slot and of the report's ids and status that the start's conditions answer,
/// and the third distance are skipped. Debug builds check every use against the plain
/// path run on clones.
pub(crate) fn start_out_of_range(
    w: &mut impl Registry,
    i: usize,
    t: usize,
    mvs: &MovementStruct,
    d: f32,
) -> WeenieError {
    #[cfg(debug_assertions)]
    let plain = plain_start_on_clones(w, i, t, mvs);
    let top = mvs.top_level_id;
    let obj = w.at_mut(i);
    let me = obj.id;
    obj.set_active(true);
    obj.reserve_move_buffers();
    // `MoveToObject`: Q59, it always stops.
    obj.stop_completely();
    debug_assert!(obj.outbox.is_empty(), "an idle mover's stop queues nothing");
    let here = obj.position();
    obj.moveto.start_move_to_object(
        here,
        mvs.object_id,
        top,
        mvs.radius,
        mvs.height,
        &mvs.params,
    );
    // `SetTarget(0, top, 0.5, 0)`'s `AddVoyeur` carried out: a new entry (the start
    // found none), sent the target's position at once.
    let target = w.at_mut(t);
    let pos = target.position();
    let velocity = target.cached_velocity;
    if let Some(table) = crate::world::voyeurs_mut(target) {
        table.insert_slot(Voyeur {
            object_id: me,
            quantum: 0.0,
            radius: 0.5,
            last_sent_position: Some(pos),
        });
    }
    // The report as `ReceiveUpdate` stores it, stamped with the mover's clock.
    let obj = w.at_mut(i);
    let info = TargetInfo {
        context_id: 0,
        object_id: top,
        radius: 0.5,
        quantum: 0.0,
        target_position: Some(pos),
        interpolated_position: Some(pos),
        velocity,
        status: TargetStatus::Ok,
        last_update_time: obj.now,
    };
    if let Some(tm) = obj.target_manager.as_mut() {
        tm.target_info = Some(info);
    }
    obj.mt_move_to_object_internal_at(pos, pos, d);
    crate::world::flush(w, i);
    #[cfg(debug_assertions)]
    if let Some((pair, r)) = plain {
        debug_assert_eq!(r, WeenieError::None, "chase out of range: result");
        same_mover(&pair[0], w.at(i));
        debug_assert_eq!(
            crate::sequence::physics_bits(&pair[0].sequence),
            crate::sequence::physics_bits(&w.at(i).sequence),
            "chase out of range: sequence"
        );
        debug_assert_eq!(
            pair[1].target_manager,
            w.at(t).target_manager,
            "chase out of range: the target's voyeur table"
        );
    }
    WeenieError::None
}

/// Two StopCompletely calls in a row: two rest stops ([`stop_twice_at_rest`]), or two
/// stops behind a playing link, or two plain stops.
// Inline: its one caller's call and register saves cost more than the copy.
#[inline(always)]
fn stop_twice(obj: &mut PhysicsObj) {
    if !stop_twice_at_rest(obj) && !stop_twice_while_a_link_plays(obj) {
        obj.perform_movement(
            MovementType::StopCompletely,
            0,
            &MovementParameters::default(),
        );
        obj.stop_completely();
    }
}

/// Two rest stops ([`PhysicsObj::stop_completely_at_rest`]) in a row of an object that
/// [`start_ending_at_once`] found idle in its cell. When the first is made, so is the
/// second, for certain: the rest stop leaves both queues empty and the move-to layer,
/// the cell and the interpreter as they were, and its memo hits again
/// ([`MotionTableManager::stop_at_rest_again`]); its writes of the object's fields are
/// the first's again, so only its arithmetic and its completion are made. False,
/// having changed nothing, when the rest stop does not apply.
///
/// [`MotionTableManager::stop_at_rest_again`]: crate::table_manager::MotionTableManager::stop_at_rest_again
#[inline(always)]
fn stop_twice_at_rest(obj: &mut PhysicsObj) -> bool {
    // The rest stop's conditions but those `idle_in_cell` holds (the cell, the idle
    // move-to layer, the table manager).
    debug_assert!(idle_in_cell(obj));
    if !obj.minterp.initted || !obj.minterp.pending_motions.is_empty() {
        return false;
    }
    let Some(tm) = obj.table_manager.as_mut() else {
        return false;
    };
    if !tm.pending.is_empty() {
        return false;
    }
    #[cfg(debug_assertions)]
    let plain = obj.plain_stop_for_check().map(|(mut o, _)| {
        o.perform_movement(
            MovementType::StopCompletely,
            0,
            &MovementParameters::default(),
        );
        o
    });
    let Some(tm) = obj.table_manager.as_mut() else {
        return false;
    };
    if !tm.stop_at_rest_twice(&mut obj.sequence, obj.anims.as_ref()) {
        return false;
    }
    // The stops' `set_active(true)`: the start made the object active just before.
    debug_assert!(
        obj.active,
        "two rest stops: the start left the object inactive"
    );
    obj.reset_to_ready();
    obj.is_animating = false;
    // Each stop's completion, appended together (one capacity check, one test of the
    // event log).
    obj.motions_done.extend_from_slice(&[(READY, true); 2]);
    if obj.events_enabled() {
        for _ in 0..2 {
            obj.raise(Event::MotionDone {
                motion: READY,
                success: true,
            });
        }
    }
    #[cfg(debug_assertions)]
    if let Some(o) = plain {
        crate::physics_obj::debug_assert_same_stop(&o, obj, "chase in range: two rest stops");
    }
    true
}

/// Two plain StopCompletely calls of an idle object in its cell whose completion
/// queue's head still plays (a chaser re-issued while its arrival's link animation
/// plays) and whose rest memo answers: each is `MotionInterp.StopCompletely` with
/// nothing to cancel, the table's rest stop (no animation queued), Ready queued in
/// both queues, and no completion (the head, which a cut never touches, still plays).
/// The second stop's rest stop is certain (the first kept what the memo reads unless
/// its scan cut links), and when the first scan cut nothing the second one, over the
/// same queue with one more entry without animations, cuts nothing either, so it is
/// not made. False, having changed nothing, when the object is not in that state.
fn stop_twice_while_a_link_plays(obj: &mut PhysicsObj) -> bool {
    let rest = obj
        .table_manager
        .as_ref()
        .filter(|tm| obj.minterp.initted && tm.pending.front().is_some_and(|n| n.num_anims != 0))
        .and_then(|tm| tm.rest_hit(&obj.sequence));
    let Some((velocity, omega)) = rest else {
        return false;
    };
    #[cfg(debug_assertions)]
    let plain = crate::table_manager::clone_checks().then(|| {
        let mut o = obj.clone();
        o.stop_completely();
        o.stop_completely();
        o
    });
    // The stops' `set_active(true)`: the start made the object active just before.
    debug_assert!(
        obj.active,
        "stops behind a link: the start left the object inactive"
    );
    let jump = motion_allows_jump(obj.minterp.interpreted.forward_command);
    obj.reset_to_ready();
    // The first stop's rest stop, with the memo's answer above (the writes since
    // changed nothing it reads); when it cut nothing, the second stop's table half too,
    // with the same cycle. The table's halves touch neither interpreter queue, so both
    // are made before the interpreter's Ready entries are queued.
    let cut = obj.table_manager.as_mut().is_some_and(|tm| {
        tm.stop_at_rest_hit(&mut obj.sequence, velocity, omega, obj.anims.as_ref());
        if tm.add_zero_to_queue_cut(READY, &mut obj.sequence) {
            return true;
        }
        tm.stop_at_rest_hit_again(&mut obj.sequence, velocity, omega);
        tm.add_to_uncut_queue(READY, &obj.sequence);
        false
    });
    obj.mi_queue(0, READY, jump);
    if cut {
        obj.stop_completely();
    } else {
        // The first stop left the object active and its interpreter at Ready, which
        // the second's reset writes again and whose jump answer it queues.
        debug_assert_eq!(
            motion_allows_jump(obj.minterp.interpreted.forward_command),
            READY_JUMP
        );
        obj.mi_queue(0, READY, READY_JUMP);
    }
    #[cfg(debug_assertions)]
    if let Some(o) = plain {
        crate::physics_obj::debug_assert_same_stop(&o, obj, "chase in range");
    }
    true
}

/// `motion_allows_jump(READY)`: Ready is in none of the ranges that block a jump.
const READY_JUMP: WeenieError = WeenieError::None;

/// The mover's side of [`start_ending_at_once`]'s conditions.
#[inline]
fn idle_in_cell(obj: &PhysicsObj) -> bool {
    let m = &*obj.moveto;
    obj.has_movement_manager
        && obj.in_cell
        && obj.position_manager.is_none()
        && obj.outbox.is_empty()
        && m.movement_type == MovementType::Invalid
        && m.pending_actions.is_empty()
        && m.current_command == 0
        && m.aux_command == 0
        && obj
            .target_manager
            .as_ref()
            .is_some_and(|tm| tm.target_info.is_none())
        && obj
            .table_manager
            .as_ref()
            .is_some_and(|tm| !tm.takes_plain_stops())
}

/// Debug builds: the mover after the shortcut is the mover after the plain path.
#[cfg(debug_assertions)]
fn same_mover(a: &PhysicsObj, b: &PhysicsObj) {
    debug_assert_eq!(
        a.moveto.is_boxed(),
        b.moveto.is_boxed(),
        "chase in range: box"
    );
    crate::physics_obj::debug_assert_same_move_end(a, b, "chase in range");
}

/// Debug builds, when clone checks are on: the mover and its target after the plain
/// start and flush, run on clones, with the start's answer, for a fast start to be
/// compared with.
#[cfg(debug_assertions)]
fn plain_start_on_clones(
    w: &impl Registry,
    i: usize,
    t: usize,
    mvs: &MovementStruct,
) -> Option<(Vec<PhysicsObj>, WeenieError)> {
    crate::table_manager::clone_checks().then(|| {
        let mut pair = vec![w.at(i).clone(), w.at(t).clone()];
        let r = pair[0].perform_movement_struct(mvs);
        crate::world::flush(&mut pair, 0);
        (pair, r)
    })
}

#[cfg(test)]
mod tests {
    use crate::bench::sample_table;
    use crate::commands::{MovementParameters, WeenieError, READY, RUN_FORWARD};
    use crate::loader::MotionSet;
    use crate::math::Vec3;
    use crate::table_manager::AnimNode;
    use crate::{Creature, World};
    use std::sync::Arc;

    /// A chaser (1) one unit from its target (2), both of radius 0.5: in range at once
    /// (a cylinder distance of 0 against the default 0.6). The chaser has chased once
    /// (which ended at once), so it has a target manager and the target a voyeur table,
    /// and both have rested for a second since.
    fn watched_once() -> World {
        let (table, anims) = sample_table().unwrap();
        let motions = MotionSet {
            table,
            anims: Arc::new(anims),
        };
        let mut w = World::new(100.0);
        let at = |x| {
            Creature::builder(&motions)
                .origin(Vec3::new(x, 0.0, 0.0))
                .build()
        };
        assert!(w.add_creature(1, 0.5, 1.8, at(0.0)));
        assert!(w.add_creature(2, 0.5, 1.8, at(1.0)));
        w.move_to_object(1, 2, MovementParameters::default());
        for _ in 0..30 {
            w.tick(1.0 / 30.0);
        }
        w
    }

    #[test]
    fn ready_blocks_no_jump() {
        // Ready (0x41000003) lies outside every blocked range (the nearest, Crouch to
        // Sleeping, starts at 0x41000012).
        assert_eq!(
            crate::motion_interp::motion_allows_jump(READY),
            WeenieError::None
        );
        assert_eq!(super::READY_JUMP, WeenieError::None);
    }

    // Each re-issue below runs through `start_ending_at_once`, which debug builds (this
    // test's) check against the plain start and report on clones.

    #[test]
    fn a_chase_re_issued_in_range_at_rest_ends_with_two_rest_stops() {
        let mut w = watched_once();
        let chaser = w.get(1).unwrap();
        assert!(chaser.minterp.pending_motions.is_empty());
        assert!(chaser.table_manager().unwrap().pending.is_empty());
        let r = w.move_to_object(1, 2, MovementParameters::default());
        assert_eq!(r, Some(WeenieError::None));
        let chaser = w.get(1).unwrap();
        assert!(!chaser.moveto().is_moving_to());
        assert_eq!(chaser.move_completions, [WeenieError::None]);
        // Both stops complete Ready at once.
        assert_eq!(chaser.motions_done, [(READY, true), (READY, true)]);
        assert!(chaser.table_manager().unwrap().pending.is_empty());
        assert!(chaser.target_manager().unwrap().target_info.is_none());
        let table = w.get(2).unwrap().target_manager().unwrap();
        assert_eq!(table.voyeurs.as_ref().unwrap().iter().count(), 0);
    }

    #[test]
    fn a_chase_re_issued_out_of_range_starts_with_its_first_report_stored_and_its_nodes_queued() {
        let mut w = watched_once();
        // The target moved to x = 10 with velocity (1, 0, 0): the chaser at the origin
        // is 10 − 0.5 − 0.5 = 9 from it (cylinder distance), out of the default 0.6.
        let mut frame = w.get(2).unwrap().frame;
        frame.origin = Vec3::new(10.0, 0.0, 0.0);
        w.move_object(2, frame, Some(Vec3::new(1.0, 0.0, 0.0)));
        let r = w.move_to_object(1, 2, MovementParameters::default());
        assert_eq!(r, Some(WeenieError::None));
        let chaser = w.get(1).unwrap();
        let m = chaser.moveto();
        assert!(m.is_moving_to());
        assert!(m.initialized, "the first report was handled");
        assert_eq!(m.sought_object_radius, 0.5);
        assert_eq!(m.sought_object_height, 1.8);
        assert_eq!(m.top_level_object_id, 2);
        let there = Vec3::new(10.0, 0.0, 0.0);
        assert_eq!(m.current_target_position.frame.origin, there);
        assert_eq!(m.sought_position.frame.origin, there);
        assert!(chaser.move_completions.is_empty());
        // The report as `ReceiveUpdate` stored it: the target's position twice, its
        // velocity, status OK, the radius and quantum of `SetTarget(0, 2, 0.5, 0)`.
        let info = chaser.target_manager().unwrap().target_info.unwrap();
        assert_eq!(info.object_id, 2);
        assert_eq!((info.radius, info.quantum), (0.5, 0.0));
        assert_eq!(info.status, crate::target_manager::TargetStatus::Ok);
        assert_eq!(info.velocity, Vec3::new(1.0, 0.0, 0.0));
        assert_eq!(info.target_position.unwrap().frame.origin, there);
        assert_eq!(info.interpolated_position.unwrap().frame.origin, there);
        assert_eq!(info.last_update_time, chaser.now);
        // The target's new entry for the chaser, sent the position it stands at.
        let table = w.get(2).unwrap().target_manager().unwrap();
        let entries: Vec<_> = table.voyeurs.as_ref().unwrap().iter().collect();
        assert_eq!(entries.len(), 1);
        let v = entries[0].1;
        assert_eq!((v.object_id, v.radius, v.quantum), (1, 0.5, 0.0));
        assert_eq!(v.last_sent_position.unwrap().frame.origin, there);
    }

    #[test]
    fn a_chase_re_issued_in_range_while_a_link_plays_queues_ready_twice_behind_it() {
        let mut w = watched_once();
        let p = MovementParameters::default();
        let chaser = w.get_mut(1).unwrap();
        chaser.do_motion(RUN_FORWARD, &p);
        chaser.stop_motion(RUN_FORWARD, &p);
        let tm = chaser.table_manager().unwrap();
        assert!(tm.pending.front().is_some_and(|n| n.num_anims != 0));
        let (table_before, interp_before) =
            (tm.pending.len(), chaser.minterp.pending_motions.len());
        let done_before = chaser.motions_done.len();
        let r = w.move_to_object(1, 2, p);
        assert_eq!(r, Some(WeenieError::None));
        let chaser = w.get(1).unwrap();
        assert!(!chaser.moveto().is_moving_to());
        assert_eq!(chaser.move_completions, [WeenieError::None]);
        // Nothing completes behind the playing link: each stop queues Ready in both
        // queues, the table's entry without animations (the rest stop's).
        assert_eq!(chaser.motions_done.len(), done_before);
        let tm = chaser.table_manager().unwrap();
        assert_eq!(tm.pending.len(), table_before + 2);
        let ready = AnimNode {
            motion: READY,
            num_anims: 0,
        };
        assert_eq!(
            tm.pending.iter().rev().take(2).collect::<Vec<_>>(),
            [&ready, &ready]
        );
        let q = &chaser.minterp.pending_motions;
        assert_eq!(q.len(), interp_before + 2);
        assert!(q.iter().rev().take(2).all(|m| m.motion == READY));
        assert!(chaser.is_animating);
    }
}
