//! [`AnimatedShape`]: a model being played — its animation threads, the pose of every
//! part, and the machine that root motion moves through the world.
//!
//! This is what a viewer or a game loop holds: add threads, send them requests, call
//! [`AnimatedShape::step_ms`] once per simulation step with the elapsed milliseconds,
//! then read the parts' Q14 world matrices.

use crate::clock::{clock_for, Clock};
use crate::model::Model;
use crate::object::SimObject;
use crate::scenario::MAX_STEP_MS;
use crate::shape_instance::{ShapeError, ShapeInstance, MAX_SLOTS};
use crate::thread::{AnimationThread, STOP_ON_ARRIVAL};
use crate::transform::Transform3;

/// Q8 playback rate 1× (256).
pub const RATE_1X: i16 = 256;

/// A thread of an [`AnimatedShape`], as [`AnimatedShape::add_thread`] returned it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadId(pub usize);

/// A refused control call; nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    #[error("thread {0} does not exist ({1} registered)")]
    NoSuchThread(usize, usize),
    #[error("sequence {0} does not exist ({1} sequences)")]
    NoSuchSequence(i16, usize),
    #[error("frame {frame} does not exist in sequence {seq} ({frames} frames)")]
    NoSuchFrame { seq: i16, frame: i16, frames: usize },
    #[error("seek position {0} is outside 0..=16384 (16384 is the sequence's end)")]
    SeekOutOfRange(i32),
    #[error("step of {0} ms is outside 0..={MAX_STEP_MS}")]
    StepOutOfRange(i64),
    #[error("a shape instance has at most {MAX_SLOTS} threads")]
    TooManyThreads,
}

/// A model being played.
#[derive(Clone, Debug)]
pub struct AnimatedShape {
    model: Model,
    shape: ShapeInstance,
    object: SimObject,
    root_delta: Transform3,
    clock: Option<Clock>,
}

impl AnimatedShape {
    /// An instance of `model` with no threads (every part at rest), the machine at the
    /// origin with heading 0.
    pub fn new(model: &Model) -> AnimatedShape {
        AnimatedShape {
            model: model.clone(),
            shape: ShapeInstance::new(model.anim_list()),
            object: SimObject::default(),
            root_delta: Transform3::IDENTITY,
            clock: None,
        }
    }

    /// Place the machine: euler angles (pitch, roll, heading; 65536 = a full turn) and
    /// position.
    pub fn with_object(mut self, euler: [i16; 3], position: [i32; 3]) -> AnimatedShape {
        self.object = SimObject { euler, position };
        self
    }

    /// Add a thread playing `seq` from its first frame at 1× ([`RATE_1X`]). (The
    /// engine's own constructor leaves the rate 0, which holds the thread still; change
    /// it with [`AnimatedShape::set_rate`].)
    pub fn add_thread(&mut self, seq: i16) -> Result<ThreadId, ControlError> {
        self.check_seq(seq)?;
        let list = self.model.anim_list();
        let id = self.shape.add_thread(list, seq).map_err(|e| match e {
            ShapeError::TooManyThreads => ControlError::TooManyThreads,
            ShapeError::NoSuchSequence(s) => {
                ControlError::NoSuchSequence(s, list.sequences().len())
            }
        })?;
        if let Some(th) = self.shape.thread_mut(id) {
            th.set_rate(list, RATE_1X);
        }
        self.evaluate_now();
        Ok(ThreadId(id))
    }

    /// Ask `thread` to go to `seq` (at `frame`, or wherever its transitions lead when
    /// `None`), through the model's transitions; with `stop_on_arrival` it holds there.
    pub fn request(
        &mut self,
        thread: ThreadId,
        seq: i16,
        frame: Option<i16>,
        stop_on_arrival: bool,
    ) -> Result<(), ControlError> {
        self.check_thread(thread)?;
        let flags = if stop_on_arrival { STOP_ON_ARRIVAL } else { 0 };
        let list = self.model.anim_list();
        if let Some(th) = self.shape.thread_mut(thread.0) {
            th.request(list, seq, frame.unwrap_or(-1), flags);
        }
        self.evaluate_now();
        Ok(())
    }

    /// Jump `thread` to position `pos` of `seq`: a Q14 fraction of the sequence's
    /// length (`0` its start, `8192` half way, `16384` its end), rounded to a whole tick.
    pub fn seek(&mut self, thread: ThreadId, seq: i16, pos: i32) -> Result<(), ControlError> {
        self.check_thread(thread)?;
        self.check_seq(seq)?;
        if !(0..=16384).contains(&pos) {
            return Err(ControlError::SeekOutOfRange(pos));
        }
        let list = self.model.anim_list();
        if let Some(th) = self.shape.thread_mut(thread.0) {
            th.seek(list, seq, pos as i16);
        }
        self.evaluate_now();
        Ok(())
    }

    /// Set `thread` to play `seq` from `frame` at once, with no transition.
    pub fn set_sequence(
        &mut self,
        thread: ThreadId,
        seq: i16,
        frame: i16,
    ) -> Result<(), ControlError> {
        self.check_thread(thread)?;
        self.check_seq(seq)?;
        let list = self.model.anim_list();
        let frames = list.sequence(seq).map_or(0, |s| s.frames.len());
        if frame < 0 || frame as usize >= frames {
            return Err(ControlError::NoSuchFrame { seq, frame, frames });
        }
        if let Some(th) = self.shape.thread_mut(thread.0) {
            th.set_sequence(list, seq, frame, 0);
        }
        self.evaluate_now();
        Ok(())
    }

    /// Set `thread`'s Q8 playback rate: 256 is 1×, 128 half speed, negative plays
    /// backwards.
    pub fn set_rate(&mut self, thread: ThreadId, rate: i16) -> Result<(), ControlError> {
        self.check_thread(thread)?;
        let list = self.model.anim_list();
        if let Some(th) = self.shape.thread_mut(thread.0) {
            th.set_rate(list, rate);
        }
        self.evaluate_now();
        Ok(())
    }

    /// Forget `thread`'s pending request (DropRequest, H4c): it stays where it is and
    /// holds there as if it had arrived. The pose does not change.
    pub fn drop_request(&mut self, thread: ThreadId) -> Result<(), ControlError> {
        self.check_thread(thread)?;
        if let Some(th) = self.shape.thread_mut(thread.0) {
            th.drop_request();
        }
        Ok(())
    }

    /// One simulation step of `ms` elapsed milliseconds (the game steps every 40 ms):
    /// advance every thread, move the machine by the root motion, pose every part.
    pub fn step_ms(&mut self, ms: i64) -> Result<(), ControlError> {
        if !(0..=MAX_STEP_MS).contains(&ms) {
            return Err(ControlError::StepOutOfRange(ms));
        }
        let clock = clock_for(ms);
        let list = self.model.anim_list();
        let read = self.shape.tick(list, clock.anim_delta);
        self.object.integrate(&read);
        self.shape.evaluate(list, &read);
        self.root_delta = read;
        self.clock = Some(clock);
        Ok(())
    }

    /// The Q14 world matrix of every part (node), indexed by node id; node 0 carries
    /// the last step's root motion.
    pub fn world(&self) -> &[Transform3] {
        self.shape.world()
    }

    /// The world matrix of part `node`.
    pub fn part(&self, node: usize) -> Option<&Transform3> {
        self.shape.world().get(node)
    }

    /// The machine's euler angles and position after the steps so far.
    pub fn object(&self) -> SimObject {
        self.object
    }

    /// The root motion the last step produced.
    pub fn root_delta(&self) -> Transform3 {
        self.root_delta
    }

    /// The clock values of the last step (elapsed ms, timer counts, animation ticks).
    pub fn last_clock(&self) -> Option<Clock> {
        self.clock
    }

    /// A thread's state (sequence, frame, target, rate, ...).
    pub fn thread(&self, thread: ThreadId) -> Option<&AnimationThread> {
        self.shape.thread(thread.0)
    }

    /// The model being played.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The DBSIM-shaped shape instance underneath.
    pub fn shape(&self) -> &ShapeInstance {
        &self.shape
    }

    fn evaluate_now(&mut self) {
        let read = self.shape.read_root();
        self.shape.evaluate(self.model.anim_list(), &read);
    }

    fn check_thread(&self, t: ThreadId) -> Result<(), ControlError> {
        let n = self.shape.threads().len();
        if t.0 >= n {
            return Err(ControlError::NoSuchThread(t.0, n));
        }
        Ok(())
    }

    fn check_seq(&self, seq: i16) -> Result<(), ControlError> {
        let list = self.model.anim_list();
        if list.sequence(seq).is_none() {
            return Err(ControlError::NoSuchSequence(seq, list.sequences().len()));
        }
        Ok(())
    }
}
