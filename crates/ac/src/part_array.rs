//! `PartArray` glue (`Phys/PartArray.cs`): the object's sequence
//! and motion-table manager, and the forwards `PhysicsObj` makes to them.

use crate::commands::{MovementParameters, MovementType, WeenieError};
use crate::events::Event;
use crate::motion_interp::{mi_motion_done, MotionInterp};
use crate::physics_obj::PhysicsObj;
use crate::sequence::{AnimData, Sequence};
use crate::table_manager::{MotionDoneSink, MotionTableManager};

/// Routes a table manager's completions to the interpreter and the weenie log.
pub(crate) struct ObjSink<'a> {
    minterp: &'a mut MotionInterp,
    is_animating: &'a mut bool,
    has_movement_manager: bool,
    log: &'a mut Vec<(u32, bool)>,
    events: Option<&'a mut crate::events::EventLog>,
    /// An Action completed: `unstick_from_object` runs when the manager is released.
    unstick: &'a mut bool,
}

// Inline: the table manager's completion loops are generic over their sink, so with
// these bodies inlined an entry completes without two indirect calls.
impl MotionDoneSink for ObjSink<'_> {
    #[inline]
    fn motion_done(&mut self, _motion: u32, _success: bool) {
        if self.has_movement_manager && mi_motion_done(self.minterp, self.is_animating) {
            *self.unstick = true;
        }
    }
    #[inline]
    fn on_motion_done(&mut self, motion: u32, success: bool) {
        self.log.push((motion, success));
        if let Some(e) = self.events.as_deref_mut() {
            e.push(Event::MotionDone { motion, success });
        }
    }
}

impl PhysicsObj {
    /// Split borrow: the table manager, the sequence and a completion sink.
    fn with_manager<R>(
        &mut self,
        f: impl FnOnce(&mut MotionTableManager, &mut Sequence, &mut ObjSink<'_>) -> R,
    ) -> Option<R> {
        let tm = self.table_manager.as_mut()?;
        let mut sink = ObjSink {
            minterp: &mut self.minterp,
            is_animating: &mut self.is_animating,
            has_movement_manager: self.has_movement_manager,
            log: &mut self.motions_done,
            events: self.events.as_deref_mut(),
            unstick: &mut self.unstick_pending,
        };
        let r = f(tm, &mut self.sequence, &mut sink);
        if std::mem::take(&mut self.unstick_pending) {
            self.unstick_from_object();
        }
        Some(r)
    }

    /// `PartArray.InitializeMotionTables` → `initialize_state`.
    pub fn initialize_motion_tables(&mut self) {
        let anims = self.anims.clone();
        if let Some(tm) = self.table_manager.as_mut() {
            tm.initialize_state(&mut self.sequence, anims.as_ref());
        }
    }

    /// `PhysicsObj.DoInterpretedMotion` → `PartArray` → table manager.
    // Inline: the interpreter's motion call then calls the table's transition itself,
    // one call level and its register saves fewer on every motion.
    #[inline]
    pub fn do_interpreted_motion(&mut self, motion: u32, p: &MovementParameters) -> WeenieError {
        self.table_perform(MovementType::InterpretedCommand, motion, p.speed)
    }

    /// `PhysicsObj.StopInterpretedMotion`.
    // Inline, as `do_interpreted_motion`.
    #[inline]
    pub fn stop_interpreted_motion(&mut self, motion: u32, p: &MovementParameters) -> WeenieError {
        self.table_perform(MovementType::StopInterpretedCommand, motion, p.speed)
    }

    /// `PhysicsObj.StopCompletely_Internal`.
    pub fn stop_completely_internal(&mut self) -> WeenieError {
        self.table_perform(MovementType::StopCompletely, 0, 1.0)
    }

    // Inline: each caller passes its own `kind`, so the dispatch folds away, and the
    // interpreter's motion calls save a call and its register saves.
    #[inline]
    fn table_perform(&mut self, kind: MovementType, motion: u32, speed: f32) -> WeenieError {
        match self.table_manager.as_mut() {
            None => WeenieError::NoAnimationTable,
            Some(tm) => {
                tm.perform_movement(kind, motion, speed, &mut self.sequence, self.anims.as_ref())
            }
        }
    }

    /// `PhysicsObj.CheckForCompletedMotions` → table manager.
    ///
    /// The manager completes only a queue head with no animations left, so a tick whose
    /// head still plays (or whose queue is empty) returns before building the sink.
    ///
    /// The test is inlined into the tick and the completion kept out of line, so the
    /// common tick pays for the test alone, not for a call and its register saves.
    #[inline(always)]
    pub fn check_for_completed_motions(&mut self) {
        let ready = self
            .table_manager
            .as_ref()
            .and_then(|tm| tm.pending.front())
            .is_some_and(|n| n.num_anims == 0);
        if ready {
            self.complete_motions();
        }
    }

    #[inline(never)]
    fn complete_motions(&mut self) {
        self.with_manager(|tm, _seq, sink| tm.check_for_completed_motions(sink));
    }

    /// `PhysicsObj.RemoveLinkAnimations` → `MotionTableManager.HandleEnterWorld` (Q30).
    pub fn remove_link_animations(&mut self) {
        self.with_manager(|tm, seq, sink| tm.handle_enter_world(seq, sink));
    }

    /// `PartArray.HandleExitWorld`: the table manager's pending animations drained as
    /// failed.
    pub fn handle_exit_world_parts(&mut self) {
        self.with_manager(|tm, _seq, sink| tm.handle_exit_world(sink));
    }

    /// `Hook_AnimDone` → `PartArray.AnimationDone(true)`.
    pub fn animation_done(&mut self, success: bool) {
        self.with_manager(|tm, _seq, sink| tm.animation_done(success, sink));
    }

    /// `PartArray.InitDefaults`: a Setup's default animation, played at framerate 0
    /// (it never advances) with its high frame clamped to the last one (Q50).
    pub fn init_default_animation(&mut self, anim_id: u32) {
        let anims = self.anims.clone();
        self.sequence.clear_animations();
        self.sequence.append_animation(
            AnimData {
                anim_id,
                low_frame: 0,
                high_frame: i32::MAX,
                framerate: 0.0,
            },
            anims.as_ref(),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::bench::{sample_table, spawn};
    use crate::commands::{MovementParameters, WALK_FORWARD};
    use crate::math::Vec3;
    use crate::physics_obj::PhysicsObj;
    use crate::sequence::{FiredHook, HOOK_ANIMATION_DONE};
    use std::sync::Arc;

    /// The table manager's queue (motion, animations owed) and count, and the weenie
    /// log.
    type CompletionState = (Vec<(u32, u32)>, u32, Vec<(u32, bool)>);

    fn completion_state(o: &PhysicsObj) -> CompletionState {
        let tm = o.table_manager.as_ref().unwrap();
        let pending = tm.pending.iter().map(|n| (n.motion, n.num_anims)).collect();
        (pending, tm.animation_counter, o.motions_done().to_vec())
    }

    #[test]
    fn a_lone_queued_hook_is_logged_and_acted_on_as_in_a_list() {
        let (table, anims) = sample_table().unwrap();
        let mut obj = spawn(table, Arc::new(anims), Vec3::ZERO);
        obj.do_motion(WALK_FORWARD, &MovementParameters::default());
        let sound = FiredHook {
            hook_type: 1,
            anim_id: 0x0300_0102,
            frame: 7,
            index: 0,
        };
        let before = completion_state(&obj);
        // A lone sound is logged and completes nothing.
        obj.anim_hooks.push(sound);
        obj.process_hooks();
        assert_eq!(obj.hook_log(), [1]);
        assert!(obj.anim_hooks.is_empty());
        assert_eq!(completion_state(&obj), before);
        // A lone AnimationDone is logged and signals the table manager, as each hook
        // of a longer list is (the plain twin: the list's loop, on a copy).
        let mut plain = obj.clone();
        obj.anim_hooks.push(FiredHook::ANIMATION_DONE);
        obj.process_hooks();
        plain.hook_log.push(HOOK_ANIMATION_DONE);
        plain.animation_done(true);
        assert_eq!(obj.hook_log(), [1, HOOK_ANIMATION_DONE]);
        assert!(obj.anim_hooks.is_empty());
        assert_eq!(completion_state(&obj), completion_state(&plain));
        assert_ne!(completion_state(&obj), before, "the signal counted");
        // Two hooks take the loop: both logged, in order.
        obj.anim_hooks.extend([sound, sound]);
        obj.process_hooks();
        assert_eq!(obj.hook_log(), [1, HOOK_ANIMATION_DONE, 1, 1]);
    }
}
