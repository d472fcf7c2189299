//! `PhysicsObj.UpdateObjectInternal`, `UpdatePositionInternal` and
//! `UpdatePhysicsInternal` (`Phys/PhysicsObj.cs`), plainly: one path for every object,
//! the new frame built by `AFrame.Combine` and turned by `GRotate` each tick. Rules
//! Q27, Q32, Q44, Q45, Q47 of docs/ac.md; the tick of the conformance world ("Tick").

use super::sequence;
use crate::math::{AFrame, Vec3, EPSILON};
use crate::physics_obj::{PhysicsObj, MAX_VELOCITY, MAX_VELOCITY_SQUARED, SMALL_VELOCITY_SQUARED};

/// `PhysicsObj.UpdateObjectInternal(quantum)` of a lone object: the new position, then
/// the managers that run after it. (`TargetManager.HandleTargetting` needs a world; a
/// lone object has no voyeurs, and its requests to others reach nobody.)
pub fn update_object_internal(obj: &mut PhysicsObj, quantum: f64) {
    plain_stops(obj);
    if !update_position(obj, quantum) {
        return;
    }
    obj.mt_use_time_plain();
    // PartArray.HandleMovement.
    obj.check_for_completed_motions();
    obj.position_manager_use_time();
    obj.outbox.clear();
}

/// From now on the object's StopCompletely reads the motion table each time (no rest
/// memo): the reference tick and everything it sets off take the plain path.
pub(crate) fn plain_stops(obj: &mut PhysicsObj) {
    if let Some(tm) = obj.table_manager.as_mut() {
        tm.plain_stops();
    }
}

/// The first half of `UpdateObjectInternal`: an active object in a cell takes its new
/// frame and the velocity it moved at. False when the object does not move at all.
pub fn update_position(obj: &mut PhysicsObj, quantum: f64) -> bool {
    if !obj.is_active() || !obj.in_cell() {
        return false;
    }
    let old = obj.frame;
    let new_frame = update_position_internal(obj, quantum);
    // Q45: without physics spheres there is no transition; the conformance world takes
    // the new frame as it is. Q27: `AFrame.Equals` compares the origins only.
    if new_frame.ace_equals(&old) {
        obj.cached_velocity = Vec3::ZERO;
    } else {
        // Q47: the new frame keeps the object's cell, so the "more than one landblock
        // away" return never fires.
        obj.cached_velocity = new_frame.origin.sub(old.origin).div(quantum as f32);
    }
    obj.frame = new_frame;
    true
}

/// `PhysicsObj.UpdatePositionInternal(quantum, ref newFrame)`: the sequence's offset
/// (its translation dropped in the air, Q44), the position manager's adjustments, the
/// offset combined into the frame, the physics step, then the queued hooks (Q32).
pub fn update_position_internal(obj: &mut PhysicsObj, quantum: f64) -> AFrame {
    let mut offset = AFrame::IDENTITY;
    if !obj.hidden {
        // PartArray.Update.
        sequence::update(
            &mut obj.sequence,
            quantum as f32,
            Some(&mut offset),
            &mut obj.anim_hooks,
        );
        if obj.on_walkable() {
            offset.origin = offset.origin.scale(obj.scale);
        } else {
            offset.origin = offset.origin.scale(0.0);
        }
    }
    obj.position_manager_adjust_offset(&mut offset, quantum);
    let mut new_frame = AFrame::combine(&obj.frame, &offset);
    if !obj.hidden {
        update_physics_internal(obj, quantum as f32, &mut new_frame);
    }
    obj.process_hooks();
    new_frame
}

/// `PhysicsObj.UpdatePhysicsInternal(quantum, ref frameOffset)`: velocity clamped,
/// friction, the frame moved by `a·q²/2 + v·q`, the velocity accelerated, and the frame
/// turned by `omega · q` (`GRotate`).
pub fn update_physics_internal(obj: &mut PhysicsObj, quantum: f32, frame: &mut AFrame) {
    let mut v2 = obj.velocity.length_sq();
    if v2 <= 0.0 {
        if !obj.has_movement_manager() && obj.on_walkable() {
            obj.set_active(false);
        }
    } else {
        if v2 > MAX_VELOCITY_SQUARED {
            obj.velocity = obj.velocity.normalize().scale(MAX_VELOCITY);
            v2 = MAX_VELOCITY_SQUARED;
        }
        obj.calc_friction(quantum, v2);
        if v2 - SMALL_VELOCITY_SQUARED < EPSILON {
            obj.velocity = Vec3::ZERO;
        }
        let a = obj.acceleration.scale(0.5).scale(quantum).scale(quantum);
        let b = obj.velocity.scale(quantum);
        frame.origin = frame.origin.add(a.add(b));
    }
    obj.velocity = obj.velocity.add(obj.acceleration.scale(quantum));
    frame.grotate(obj.omega.scale(quantum));
}
