//! `ConstraintManager` (`Mgr/ConstraintManager.cs`): a leash that scales the tick's
//! offset down between a start and a maximum distance. ACE overwrites the stored
//! distance with each tick's step length, so the anchor is forgotten after one tick
//! (Q83, reproduced). ACE itself never calls `ConstrainTo`.

use crate::interpolation::Position;
use crate::math::AFrame;
use crate::physics_obj::PhysicsObj;

/// `ConstraintManager`'s fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstraintManager {
    pub is_constrained: bool,
    pub constraint_pos: Position,
    pub constraint_distance_start: f32,
    pub constraint_distance_max: f32,
    pub constraint_pos_offset: f32,
}

impl ConstraintManager {
    /// `IsFullyConstrained`.
    pub fn is_fully_constrained(&self) -> bool {
        self.constraint_distance_max * 0.9 < self.constraint_pos_offset
    }
}

impl PhysicsObj {
    /// `PhysicsObj.ConstrainTo(pos, start, max)`.
    pub fn constrain_to(&mut self, pos: Position, start: f32, max: f32) {
        let here = self.position();
        let pm = self.make_position_manager();
        pm.constraint = Some(ConstraintManager {
            is_constrained: true,
            constraint_pos: pos,
            constraint_distance_start: start,
            constraint_distance_max: max,
            constraint_pos_offset: pos.distance(&here),
        });
        self.raise(crate::events::Event::Constrained);
    }

    /// `PositionManager.Unconstrain` (only the flag is reset).
    pub fn unconstrain(&mut self) {
        if let Some(c) = self
            .position_manager
            .as_mut()
            .and_then(|p| p.constraint.as_mut())
        {
            let was = c.is_constrained;
            c.is_constrained = false;
            if was {
                self.raise(crate::events::Event::Unconstrained);
            }
        }
    }

    /// `ConstraintManager.adjust_offset(offset, q)`: scaling applies only with Contact;
    /// the stored offset always becomes this tick's step length (Q83).
    pub(crate) fn constraint_adjust_offset(&mut self, offset: &mut AFrame) {
        let contact = self.contact;
        let Some(c) = self
            .position_manager
            .as_mut()
            .and_then(|p| p.constraint.as_mut())
        else {
            return;
        };
        if !c.is_constrained {
            return;
        }
        if contact {
            if c.constraint_pos_offset < c.constraint_distance_max {
                if c.constraint_pos_offset > c.constraint_distance_start {
                    let k = (c.constraint_distance_max - c.constraint_pos_offset)
                        / (c.constraint_distance_max - c.constraint_distance_start);
                    offset.origin = offset.origin.scale(k);
                }
            } else {
                offset.origin = crate::math::Vec3::ZERO;
            }
        }
        c.constraint_pos_offset = offset.origin.length();
    }
}
