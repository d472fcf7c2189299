//! `MovementManager` (`Mgr/MovementManager.cs`): the dispatcher
//! between `PhysicsObj` and the `MotionInterp` and `MoveToManager` it owns. The
//! move-to types are dispatched by `PhysicsObj::perform_movement_struct`.

use crate::commands::{MovementParameters, MovementType, WeenieError};
use crate::physics_obj::PhysicsObj;

impl PhysicsObj {
    /// `MovementManager.PerformMovement` for the motion types.
    pub fn perform_movement(
        &mut self,
        kind: MovementType,
        motion: u32,
        params: &MovementParameters,
    ) -> WeenieError {
        self.set_active(true);
        if !self.minterp.initted {
            self.mi_enter_default_state();
        }
        self.mi_perform_movement(kind, motion, params)
    }

    /// `MovementManager.MotionDone` → `MotionInterp.MotionDone` (motion id dropped).
    pub fn movement_motion_done(&mut self, success: bool) {
        if self.has_movement_manager {
            self.mi_motion_done(success);
        }
    }

    /// `MovementManager.HitGround`: the interpreter, then the MoveToManager (Q77).
    pub fn movement_hit_ground(&mut self) {
        if self.has_movement_manager {
            self.mi_hit_ground();
            self.mt_hit_ground();
        }
    }

    /// `MovementManager.LeaveGround`.
    pub fn movement_leave_ground(&mut self) {
        if self.has_movement_manager {
            self.mi_leave_ground();
        }
    }
}
