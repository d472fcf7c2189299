//! What the scenario runners ([`crate::HercSim`], [`crate::MechSim`]) and the three-thread
//! HERC ([`crate::Mech`]) ask of a shape instance: its threads and slots, the tick, the pose,
//! and the few thread and object operations that have a fast path.
//!
//! Two implementations: [`ShapeInstance`] (the fast paths) and the reference's plain DBSIM
//! algorithm (`reference::PlainShape`, cargo feature `reference`). A runner generic over
//! this trait plays a scenario through either, with the same steps and trace lines; the
//! differential test compares the two step for step. Operations without a fast path
//! (request, set rate, set sequence, drop request) are the thread's own, reached through
//! [`ShapeEngine::thread_mut`].

use crate::anim_list::{AnimList, Keyframe};
use crate::object::SimObject;
use crate::shape_instance::{ShapeError, ShapeInstance};
use crate::thread::AnimationThread;
use crate::transform::Transform3;

/// A shape instance's operations, fast or plain (see the module documentation).
pub trait ShapeEngine: Clone + std::fmt::Debug {
    /// An instance of `list` with no threads, its pose evaluated once (every node at rest).
    fn new(list: &AnimList) -> Self;
    /// ShapeInst_AddThread (H4d, H18): the new thread's id.
    fn add_thread(&mut self, list: &AnimList, seq: i16) -> Result<usize, ShapeError>;
    fn threads(&self) -> &[AnimationThread];
    fn thread(&self, id: usize) -> Option<&AnimationThread> {
        self.threads().get(id)
    }
    /// A thread to change with its plain operations (request, set rate, set sequence, …).
    fn thread_mut(&mut self, id: usize) -> Option<&mut AnimationThread>;
    /// Thread ids, first slot first.
    fn slots(&self) -> Vec<usize>;
    /// The locals of the last [`ShapeEngine::evaluate`] of `list` (while no thread changed
    /// since).
    fn locals(&self, list: &AnimList) -> Vec<Keyframe>;
    fn world(&self) -> &[Transform3];
    /// The first slot's root read (H15).
    fn read_root(&self) -> Transform3;
    /// Seed, step every thread, re-sort, read, seed (H16, H18, D4): the read.
    fn tick(&mut self, list: &AnimList, anim_delta: i16) -> Transform3;
    /// Locals and world transforms (H10–H13, H17, D5–D7).
    fn evaluate(&mut self, list: &AnimList, root_read: &Transform3);
    /// AnimThread_Advance of thread `id` (no-op for a missing id).
    fn advance(&mut self, list: &AnimList, id: usize, delta: i16);
    /// AnimThread_SeekToPosition of thread `id` (H4b; no-op for a missing id).
    fn seek(&mut self, list: &AnimList, id: usize, s: i16, pos: i16);
    /// The root write of thread `id` (H15; no-op for a missing id).
    fn write_root(&mut self, id: usize, value: &Transform3);
    /// Mech_IntegrateMotion's object update (H29).
    fn integrate(object: &mut SimObject, delta: &Transform3);
    /// The object transform O (H29, H32).
    fn object_transform(object: &SimObject) -> Transform3;
    /// FromEuler (M6), for scenario inputs given as angles.
    fn from_euler(x: i16, y: i16, z: i16) -> Transform3;
}

impl ShapeEngine for ShapeInstance {
    fn new(list: &AnimList) -> Self {
        ShapeInstance::new(list)
    }

    fn add_thread(&mut self, list: &AnimList, seq: i16) -> Result<usize, ShapeError> {
        ShapeInstance::add_thread(self, list, seq)
    }

    fn threads(&self) -> &[AnimationThread] {
        ShapeInstance::threads(self)
    }

    fn thread_mut(&mut self, id: usize) -> Option<&mut AnimationThread> {
        ShapeInstance::thread_mut(self, id)
    }

    fn slots(&self) -> Vec<usize> {
        ShapeInstance::slots(self)
    }

    fn locals(&self, list: &AnimList) -> Vec<Keyframe> {
        ShapeInstance::locals(self, list)
    }

    fn world(&self) -> &[Transform3] {
        ShapeInstance::world(self)
    }

    fn read_root(&self) -> Transform3 {
        ShapeInstance::read_root(self)
    }

    fn tick(&mut self, list: &AnimList, anim_delta: i16) -> Transform3 {
        ShapeInstance::tick(self, list, anim_delta)
    }

    fn evaluate(&mut self, list: &AnimList, root_read: &Transform3) {
        ShapeInstance::evaluate(self, list, root_read)
    }

    fn advance(&mut self, list: &AnimList, id: usize, delta: i16) {
        if let Some(th) = ShapeInstance::thread_mut(self, id) {
            th.advance(list, delta);
        }
    }

    fn seek(&mut self, list: &AnimList, id: usize, s: i16, pos: i16) {
        if let Some(th) = ShapeInstance::thread_mut(self, id) {
            th.seek(list, s, pos);
        }
    }

    fn write_root(&mut self, id: usize, value: &Transform3) {
        if let Some(th) = ShapeInstance::thread_mut(self, id) {
            th.write_root(value);
        }
    }

    fn integrate(object: &mut SimObject, delta: &Transform3) {
        object.integrate(delta);
    }

    fn object_transform(object: &SimObject) -> Transform3 {
        object.transform()
    }

    fn from_euler(x: i16, y: i16, z: i16) -> Transform3 {
        Transform3::from_euler(x, y, z)
    }
}
