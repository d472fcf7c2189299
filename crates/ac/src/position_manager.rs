//! `PositionManager` and the `PhysicsObj` entry points that feed it: `InterpolateTo`,
//! `MoveOrTeleport` (ACE's `Mgr/PositionManager.cs`, `PhysicsObj.MoveOrTeleport`). It owns
//! the interpolation, sticky and constraint managers; the object applies their offsets
//! in ACE's order (interpolation, sticky, constraint), see `PhysicsObj`'s tick.
//!
//! Call points in the physics tick (the owner keeps an `Option<Box<PositionManager>>`, created
//! by [`interpolate_to`]):
//! * `UpdatePositionInternal` step 3, after `Sequence.Update` and the walkable scaling,
//!   before `newFrame = Combine(position, offset)`:
//!   `pm.adjust_offset(&mut offset, q, host)` with `q` the tick's f64 quantum;
//! * `UpdateObjectInternal` step 6, after `CheckForCompletedMotions`: `pm.use_time(host)`.

use crate::interpolation::{
    CorrectionMode, InterpHost, InterpolationManager, ManagerView, NodeView, Position,
};
use crate::math::AFrame;

/// `PositionManager`.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionManager {
    mode: CorrectionMode,
    interp: Option<InterpolationManager>,
    /// Created by the first `StickTo`.
    pub sticky: Option<crate::sticky_manager::StickyManager>,
    /// Created by the first `ConstrainTo`.
    pub constraint: Option<crate::constraint_manager::ConstraintManager>,
    /// The sticky target's live position for the current tick, set by the world around
    /// the object's position step (`None` between updates). Kept here rather than on
    /// the object: only an object with a sticky manager, and so with a position
    /// manager, is ever given one.
    pub(crate) sticky_live: Option<Position>,
}

impl PositionManager {
    /// `PositionManager.Create`: no interpolation manager until the first `interpolate_to`.
    pub fn new(mode: CorrectionMode) -> PositionManager {
        PositionManager {
            mode,
            interp: None,
            sticky: None,
            constraint: None,
            sticky_live: None,
        }
    }

    pub fn mode(&self) -> CorrectionMode {
        self.mode
    }

    /// The interpolation manager, if one was created.
    pub fn interpolation(&self) -> Option<&InterpolationManager> {
        self.interp.as_ref()
    }

    /// The interpolation part of `PositionManager.AdjustOffset(frame, quantum)` (the
    /// sticky and constraint parts follow it on the object).
    pub fn adjust_offset(&mut self, offset: &mut AFrame, quantum: f64, host: &mut impl InterpHost) {
        if let Some(im) = &mut self.interp {
            im.adjust_offset(offset, quantum, host);
        }
    }

    /// The interpolation part of `PositionManager.UseTime()`.
    pub fn use_time(&mut self, host: &mut impl InterpHost) {
        if let Some(im) = &mut self.interp {
            im.use_time(host);
        }
    }

    /// `PositionManager.InterpolateTo(p, keepHeading)`: creates the manager if needed.
    pub fn interpolate_to(&mut self, p: Position, keep_heading: bool, host: &mut impl InterpHost) {
        let mode = self.mode;
        self.interp
            .get_or_insert_with(|| InterpolationManager::new(mode))
            .interpolate_to(p, keep_heading, host);
    }

    /// `PositionManager.StopInterpolating()`.
    pub fn stop_interpolating(&mut self) {
        if let Some(im) = &mut self.interp {
            im.stop_interpolating();
        }
    }

    /// `PositionManager.IsInterpolating()`.
    pub fn is_interpolating(&self) -> bool {
        self.interp.as_ref().is_some_and(|im| im.is_interpolating())
    }

    /// The trace's `interp_queue` (`[]` without an interpolation manager).
    pub fn queue_view(&self) -> Vec<NodeView> {
        self.interp
            .as_ref()
            .map(InterpolationManager::queue_view)
            .unwrap_or_default()
    }

    /// The trace's `interp_mgr` (`None` = JSON null until the first `interpolate_to`).
    pub fn manager_view(&self) -> Option<ManagerView> {
        self.interp.as_ref().map(InterpolationManager::view)
    }
}

/// The trace's `interp_queue` for an object that may have no position manager.
pub fn queue_view(pm: &Option<Box<PositionManager>>) -> Vec<NodeView> {
    pm.as_deref()
        .map(PositionManager::queue_view)
        .unwrap_or_default()
}

/// The trace's `interp_mgr` for an object that may have no position manager.
pub fn manager_view(pm: &Option<Box<PositionManager>>) -> Option<ManagerView> {
    pm.as_deref().and_then(PositionManager::manager_view)
}

/// What `MoveOrTeleport` needs beyond [`InterpHost`].
pub trait TeleportHost: InterpHost {
    /// `UpdateTimes[Teleport]` (always 0 in the conformance world).
    fn teleport_timestamp(&self) -> i32 {
        0
    }
    /// `CurCell != null`.
    fn in_cell(&self) -> bool;
    /// `PlayerDistance`.
    fn player_distance(&self) -> f32;
    /// `IsMovingTo()`.
    fn is_moving_to(&self) -> bool {
        false
    }
    /// The rest of `teleport_hook(true)`: cancel move-to, unstick, unconstrain, clear
    /// target, notify voyeurs (interpolation is stopped by [`move_or_teleport`] itself).
    /// `pm` is the object's position manager, held outside the object meanwhile.
    fn teleport_hook(&mut self, _pm: &mut dyn ManagerSlot) {}
    /// `SetPosition(pos, Teleport | DontCreateCells)` (enters the cell if outside one).
    fn set_position_teleport(&mut self, p: &Position);
    /// `MakePositionManager` created the manager: mark the object active unless static.
    fn position_manager_created(&mut self);
}

/// Where an owner keeps its optional position manager: inline (`Option<PositionManager>`)
/// or boxed, as `PhysicsObj` does so that objects without one stay small.
pub trait ManagerSlot {
    /// The manager, if there is one.
    fn manager(&mut self) -> Option<&mut PositionManager>;
    /// Install `m` (the slot was empty).
    fn install(&mut self, m: PositionManager);
    /// Move the manager out, boxed (the slot is left empty).
    fn take_boxed(&mut self) -> Option<Box<PositionManager>>;
    /// Put back what [`ManagerSlot::take_boxed`] took.
    fn put_boxed(&mut self, m: Option<Box<PositionManager>>);
}

impl ManagerSlot for Option<PositionManager> {
    fn manager(&mut self) -> Option<&mut PositionManager> {
        self.as_mut()
    }
    fn install(&mut self, m: PositionManager) {
        *self = Some(m);
    }
    fn take_boxed(&mut self) -> Option<Box<PositionManager>> {
        self.take().map(Box::new)
    }
    fn put_boxed(&mut self, m: Option<Box<PositionManager>>) {
        *self = m.map(|b| *b);
    }
}

impl ManagerSlot for Option<Box<PositionManager>> {
    fn manager(&mut self) -> Option<&mut PositionManager> {
        self.as_deref_mut()
    }
    fn install(&mut self, m: PositionManager) {
        *self = Some(Box::new(m));
    }
    fn take_boxed(&mut self) -> Option<Box<PositionManager>> {
        self.take()
    }
    fn put_boxed(&mut self, m: Option<Box<PositionManager>>) {
        *self = m;
    }
}

/// `PhysicsObj.MakePositionManager` then `PositionManager.InterpolateTo`.
pub fn interpolate_to(
    pm: &mut impl ManagerSlot,
    mode: CorrectionMode,
    host: &mut impl TeleportHost,
    p: Position,
    keep_heading: bool,
) {
    if pm.manager().is_none() {
        pm.install(PositionManager::new(mode));
        host.position_manager_created();
    }
    if let Some(pm) = pm.manager() {
        pm.interpolate_to(p, keep_heading, host);
    }
}

/// The wrap-aware stamp comparison of `is_newer`-style tests: is `b` newer than `a`
/// (`|a − b| > 32767` means the 16-bit stamp wrapped).
fn is_newer(a: i32, b: i32) -> bool {
    let gap = (i64::from(a) - i64::from(b)).abs();
    if gap > 32767 {
        b < a
    } else {
        a < b
    }
}

/// `PhysicsObj.MoveOrTeleport(pos, timestamp, contact, velocity)` (velocity unused):
/// stale updates are refused (false); a newer teleport stamp or no cell teleports; else,
/// in contact, a near object (`PlayerDistance < 96`) interpolates and a far one snaps.
pub fn move_or_teleport(
    pm: &mut impl ManagerSlot,
    mode: CorrectionMode,
    host: &mut impl TeleportHost,
    pos: Position,
    timestamp: i32,
    contact: bool,
) -> bool {
    let stamp = host.teleport_timestamp();
    if is_newer(timestamp, stamp) {
        return false;
    }
    if !host.in_cell() || is_newer(stamp, timestamp) {
        host.teleport_hook(pm);
        if let Some(pm) = pm.manager() {
            pm.stop_interpolating();
        }
        host.set_position_teleport(&pos);
        return true;
    }
    if !contact {
        return false;
    }
    if host.player_distance() < 96.0 {
        let keep = host.is_moving_to();
        interpolate_to(pm, mode, host, pos, keep);
    } else {
        if let Some(pm) = pm.manager() {
            pm.stop_interpolating();
        }
        host.set_position_simple(&pos);
    }
    true
}
