//! `StickyManager` (`Mgr/StickyManager.cs`): for one second after `StickTo` the object's
//! tick offset is replaced by a step towards the target's surface plus an exact facing
//! (Q80, Q81). It shares the object's single target slot with the MoveToManager (Q79).

use crate::events::Event;
use crate::interpolation::Position;
use crate::math::{AFrame, Vec3, EPSILON};
use crate::physics_obj::PhysicsObj;
use crate::position_helpers::{cylinder_distance_no_z, heading, norm};
use crate::position_manager::PositionManager;
use crate::target_manager::{TargetInfo, TargetStatus};

/// `StickyManager.StickyRadius`: the gap kept between the two cylinders.
pub const STICKY_RADIUS: f32 = 0.3;
/// `StickyManager.StickyTime` (seconds).
pub const STICKY_TIME: f64 = 1.0;

/// `StickyManager`'s fields.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StickyManager {
    pub target_id: u32,
    pub target_radius: f32,
    pub target_position: Option<Position>,
    pub initialized: bool,
    pub sticky_timeout_time: f64,
}

impl PhysicsObj {
    /// `MakePositionManager`: create it (marking the object active) if missing.
    pub fn make_position_manager(&mut self) -> &mut PositionManager {
        if self.position_manager.is_none() {
            self.set_active(true);
        }
        let mode = self.correction;
        self.position_manager
            .get_or_insert_with(|| Box::new(PositionManager::new(mode)))
    }

    /// `get_position_manager().StickTo(id, radius, height)` (the height is ignored).
    pub fn stick_to(&mut self, object_id: u32, radius: f32, _height: f32) {
        let pm = self.make_position_manager();
        let s = pm.sticky.get_or_insert_with(StickyManager::default);
        if s.target_id != 0 {
            self.sticky_clear_target();
        }
        let now = self.now;
        if let Some(s) = self
            .position_manager
            .as_mut()
            .and_then(|p| p.sticky.as_mut())
        {
            s.target_id = object_id;
            s.initialized = false;
            s.target_radius = radius;
            s.sticky_timeout_time = now + STICKY_TIME;
        }
        self.raise(Event::Stuck { target: object_id });
        self.set_target(0, object_id, 0.5, 0.5);
    }

    /// `StickyManager.ClearTarget`: also clears the object's target and cancels any
    /// move-to (Q79).
    pub fn sticky_clear_target(&mut self) {
        let Some(s) = self
            .position_manager
            .as_mut()
            .and_then(|p| p.sticky.as_mut())
        else {
            return;
        };
        if s.target_id == 0 {
            return;
        }
        let target = s.target_id;
        s.target_id = 0;
        s.initialized = false;
        self.raise(Event::Unstuck { target });
        self.clear_target();
        self.cancel_moveto();
    }

    /// `unstick_from_object` → `PositionManager.Unstick` → `StickyManager.HandleExitWorld`.
    pub fn unstick_from_object(&mut self) {
        self.sticky_clear_target();
    }

    /// `StickyManager.HandleUpdateTarget(info)`.
    pub(crate) fn sticky_handle_update_target(&mut self, info: &TargetInfo) {
        let Some(s) = self
            .position_manager
            .as_mut()
            .and_then(|p| p.sticky.as_mut())
        else {
            return;
        };
        if info.object_id != s.target_id {
            return;
        }
        if info.status == TargetStatus::Ok {
            s.initialized = true;
            s.target_position = info.target_position;
        } else if s.target_id != 0 {
            self.sticky_clear_target();
        }
    }

    /// `StickyManager.UseTime`: the timeout is never extended (Q80).
    pub(crate) fn sticky_use_time(&mut self) {
        let now = self.now;
        let expired = self
            .position_manager
            .as_ref()
            .and_then(|p| p.sticky.as_ref())
            .is_some_and(|s| now > s.sticky_timeout_time);
        if expired {
            self.sticky_clear_target();
        }
    }

    /// `StickyManager.adjust_offset(offset, q)`: replaces the offset's origin with a step
    /// towards the sticky distance and its rotation with the exact facing (Q81, Q82).
    /// `live` is the target's position when it is registered.
    pub(crate) fn sticky_adjust_offset(
        &mut self,
        offset: &mut AFrame,
        q: f64,
        live: Option<Position>,
    ) {
        let Some(s) = self
            .position_manager
            .as_ref()
            .and_then(|p| p.sticky.as_ref())
        else {
            return;
        };
        if s.target_id == 0 || !s.initialized {
            return;
        }
        let Some(tp) = live.or(s.target_position) else {
            return;
        };
        let here = self.position();
        let mut v = self.frame.global_to_local(here.get_offset(&tp));
        v.z = 0.0;
        let dist =
            cylinder_distance_no_z(self.get_radius(), &here, s.target_radius, &tp) - STICKY_RADIUS;
        if v.normalize_check_small() {
            v = Vec3::ZERO;
        }
        self.get_minterp();
        let mut speed = 5.0 * self.mi_get_max_speed();
        if speed < EPSILON {
            speed = 15.0;
        }
        let mut delta = speed * q as f32;
        if delta >= dist.abs() {
            delta = dist;
        }
        offset.origin = v.scale(delta);
        let h = norm(heading(&here, &tp) - here.frame.get_heading());
        offset.set_heading(h);
    }
}
