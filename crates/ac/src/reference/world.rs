//! The world tick with the plain position step: the clock advances once, then every
//! object runs `UpdateObjectInternal` in order, its requests to other objects carried
//! out after each manager (Q89). Only the position step differs from
//! [`crate::world::update_object`]; the managers are shared.

use super::physics_obj::{plain_stops, update_position};
use crate::world::{flush, handle_targetting, Registry, World};

/// `PhysicsObj.UpdateObjectInternal(quantum)` of object `i` in a world: the sticky
/// target's live position for the position manager, the new position, then
/// `TargetManager.HandleTargetting`, `MoveToManager.UseTime`,
/// `PartArray.HandleMovement` and `PositionManager.UseTime`.
pub fn update_object(w: &mut impl Registry, i: usize, quantum: f64) {
    plain_stops(w.at_mut(i));
    let live = w
        .at(i)
        .position_manager
        .as_ref()
        .and_then(|p| p.sticky.as_ref())
        .filter(|s| s.target_id != 0)
        .and_then(|s| w.find(s.target_id))
        .map(|t| w.at(t).position());
    let obj = w.at_mut(i);
    if let Some(pm) = obj.position_manager.as_deref_mut() {
        pm.sticky_live = live;
    }
    let moved = update_position(obj, quantum);
    if let Some(pm) = obj.position_manager.as_deref_mut() {
        pm.sticky_live = None;
    }
    flush(w, i);
    if !moved {
        return;
    }
    handle_targetting(w, i);
    w.at_mut(i).mt_use_time_plain();
    flush(w, i);
    w.at_mut(i).check_for_completed_motions();
    flush(w, i);
    w.at_mut(i).position_manager_use_time();
    flush(w, i);
}

/// `tick {dt}` of the conformance world: the clock advances once, then every object is
/// updated in order.
pub fn tick(w: &mut impl Registry, clock: &mut f64, dt: f64) {
    *clock += dt;
    for i in 0..w.count() {
        w.at_mut(i).now = *clock;
        // Reports and requests reach objects before their own update.
        plain_stops(w.at_mut(i));
    }
    for i in 0..w.count() {
        update_object(w, i, dt);
    }
}

/// [`World::tick`] through the plain position step: each object's logs are cleared,
/// the clock advances, every object is updated.
pub fn tick_world(world: &mut World, dt: f64) {
    for o in world.objects.iter_mut() {
        o.hook_log.clear();
        o.motions_done.clear();
        o.move_completions.clear();
    }
    let mut clock = world.clock();
    tick(&mut world.objects, &mut clock, dt);
    world.set_clock(clock);
}
