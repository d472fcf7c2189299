//! The server updates of `server_loop` for an object that lives in a world with others:
//! its target reports reach their watchers and its move-to reads its target's position,
//! as in ACE's `Player_Tick` (`PhysicsObj.update_object_server` and
//! `update_object_server_new` with the client's requested position). The scenario
//! runner's `update_object_server` ops take the same steps.

use crate::interpolation::Position;
use crate::physics_obj::MAX_QUANTUM;
use crate::server_loop::UpdatePlan;
use crate::world::{self, Registry};

/// The manager steps after a server transition, in a world: `HandleTargetting`, then
/// MovementManager, PartArray and PositionManager `UseTime`, each one's requests to
/// others carried out before the next.
pub fn server_use_time(w: &mut impl Registry, i: usize) {
    if w.at(i).target_manager.is_some() {
        world::handle_targetting(w, i);
    }
    let o = w.at_mut(i);
    if o.has_movement_manager() {
        o.mt_use_time();
    }
    world::flush(w, i);
    w.at_mut(i).check_for_completed_motions();
    world::flush(w, i);
    w.at_mut(i).position_manager_use_time();
    world::flush(w, i);
}

/// `update_object_server(force_pos)` of object `i` at clock `now`, its requested
/// position first set to `request` when given: the transition to the request (refused
/// more than a landblock away) with the cached velocity of the whole gap since its last
/// update, the manager steps, then the forced position and the update time. Returns
/// ACE's answer (whether the transition was made).
pub fn update_object_server(
    w: &mut impl Registry,
    i: usize,
    now: f64,
    request: Option<&Position>,
    force_pos: bool,
) -> bool {
    let o = w.at_mut(i);
    o.now = now;
    if let Some(p) = request {
        o.set_request_pos(p);
    }
    let dt = now - o.update_time;
    let ok = o.server_transition(dt);
    if ok {
        server_use_time(w, i);
    }
    w.at_mut(i).finish_update_object_server(now, force_pos, ok)
}

/// `update_object_server_new(force_pos)` of object `i` at clock `now` (request as for
/// [`update_object_server`]): the quanta of the gap simulated as world updates (at most
/// `MaxQuantum` each; a gap over `HugeQuantum` is consumed unsimulated), then the
/// forced position when the request is reachable.
pub fn update_object_server_new(
    w: &mut impl Registry,
    i: usize,
    now: f64,
    request: Option<&Position>,
    force_pos: bool,
) -> bool {
    let o = w.at_mut(i);
    o.now = now;
    if let Some(p) = request {
        o.set_request_pos(p);
    }
    match w.at_mut(i).begin_update_object_server_new(now) {
        None => false,
        Some((plan, ok)) => {
            if let UpdatePlan::Run { full, rest, .. } = plan {
                for _ in 0..full {
                    world::update_object(w, i, MAX_QUANTUM);
                }
                if let Some(q) = rest {
                    world::update_object(w, i, q);
                }
            }
            w.at_mut(i)
                .finish_update_object_server_new(plan, force_pos, ok)
        }
    }
}
