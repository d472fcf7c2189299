//! Network position correction: `InterpolationManager` (ACE's `Mgr/InterpolationManager.cs`,
//! quirk Q48; what the traces contain: docs/ac-formats.md).
//!
//! In ACE this manager is unreachable and broken (its queue is never allocated). Two
//! repairs make it runnable, exactly the two the reference traces assume: the queue exists
//! from creation, and `use_time` with a positive fail counter and an empty queue snaps
//! to `blip_to` and stops. Everything else follows ACE, selectable by [`CorrectionMode`]:
//!
//! * [`CorrectionMode::Ace`] — ACE's observable behaviour (the conformance default): the
//!   correction is computed by subtracting the object's frame from the queued node's
//!   frame *in place* and is then assigned to `adjust_offset`'s own parameter, so the
//!   tick's offset is unchanged and the object only moves by blips after failures.
//! * [`CorrectionMode::Retail`] — the evident intent: the correction is the clamped
//!   displacement from the object to the target, in the object's axes (the queued node
//!   keeps its target), and replaces the tick's offset translation for that tick; the
//!   animation's rotation is kept.
//!
//! Call points in the physics tick (`PhysicsObj`), through [`PositionManager`](crate::position_manager::PositionManager):
//! `adjust_offset(&mut offset, q, host)` in `UpdatePositionInternal` right after the
//! sequence update and the walkable scaling (before `Combine(position, offset)`), and
//! `use_time(host)` at the end of `UpdateObjectInternal` (after `CheckForCompletedMotions`).

use crate::math::{AFrame, Vec3, EPSILON};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `InterpolationManager.LargeDistance`.
pub const LARGE_DISTANCE: f32 = 999_999.0;
/// `InterpolationManager.MaxInterpolatedVelocity`: the correction speed when the
/// object's max speed is (nearly) zero.
pub const MAX_INTERPOLATED_VELOCITY: f32 = 7.5;
/// At most this many nodes are queued; older ones are dropped first.
pub const MAX_QUEUE: usize = 20;
/// Bound of the queue on the far-target path, where ACE itself sets none.
const FAR_PATH_HARD_BOUND: usize = 4096;
/// Arrival / duplicate / "already there" distance.
pub const CLOSE_ENOUGH: f32 = 0.05;
/// Ticks in one progress window.
pub const PROGRESS_WINDOW: i32 = 5;
/// Minimum fraction of the correction speed achieved over a window.
pub const MIN_PROGRESS: f32 = 0.3;
/// `use_time` blips once the fail counter exceeds this.
pub const MAX_FAILS: i32 = 3;
/// Fail counter preset for a target beyond the blip distance.
pub const FAR_TARGET_FAILS: i32 = 4;
/// Side of a landblock in world units.
pub const BLOCK_LENGTH: f32 = 192.0;

/// How a correction reaches the object (issue 3 part 6, Q48).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorrectionMode {
    /// Exactly ACE: the correction never moves the object; only blips do.
    #[default]
    Ace,
    /// The correction replaces the tick's offset translation.
    Retail,
}

/// A physics `Position`: cell id plus frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub cell: u32,
    pub frame: AFrame,
}

impl Position {
    pub const fn new(cell: u32, frame: AFrame) -> Position {
        Position { cell, frame }
    }

    /// `Position.GetOffset(pos)`: `blockOffset + pos.origin − origin`, left to right.
    pub fn get_offset(&self, pos: &Position) -> Vec3 {
        block_offset(self.cell, pos.cell)
            .add(pos.frame.origin)
            .sub(self.frame.origin)
    }

    /// `Position.Distance(pos)`: length of [`Position::get_offset`].
    pub fn distance(&self, pos: &Position) -> f32 {
        self.get_offset(pos).length()
    }

    /// `Position.Subtract(pos)`: `frame.Subtract(pos.frame)` in place; returns the result.
    pub fn subtract(&mut self, pos: &Position) -> AFrame {
        self.frame.subtract(&pos.frame);
        self.frame
    }
}

/// `LandDefs.GetBlockOffset(from, to)`: the landblock step between two cells (zero
/// within one landblock).
// The one-landblock test inline as a single comparison of the two ids' difference
// bits; the step between two landblocks, which the move-to layer's steps rarely take,
// out of line.
#[inline(always)]
pub fn block_offset(from: u32, to: u32) -> Vec3 {
    if (from ^ to) >> 16 == 0 {
        return Vec3::ZERO;
    }
    block_step(from, to)
}

/// [`block_offset`] between two different landblocks.
#[cold]
#[inline(never)]
fn block_step(from: u32, to: u32) -> Vec3 {
    let dx = (to >> 24) as i32 - (from >> 24) as i32;
    let dy = ((to >> 16) & 0xFF) as i32 - ((from >> 16) & 0xFF) as i32;
    Vec3::new(dx as f32 * BLOCK_LENGTH, dy as f32 * BLOCK_LENGTH, 0.0)
}

/// `PhysicsObj.GetAutonomyBlipDistance`: 100 in an outdoor landcell (low 16 bits of the
/// cell below 0x100), else 25 for players (`0x50000001..=0x5FFFFFFF`) and 20 otherwise.
pub fn autonomy_blip_distance(cell: u32, object_id: u32) -> f64 {
    if cell & 0xFFFF < 0x100 {
        100.0
    } else if (0x5000_0001..=0x5FFF_FFFF).contains(&object_id) {
        25.0
    } else {
        20.0
    }
}

/// `InterpolationNodeType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeType {
    Invalid,
    Position,
    Jump,
    Velocity,
}

/// `InterpolationNode`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InterpolationNode {
    pub kind: NodeType,
    pub position: Position,
    pub velocity: Vec3,
    pub extent: f32,
}

impl InterpolationNode {
    fn position(position: Position) -> InterpolationNode {
        InterpolationNode {
            kind: NodeType::Position,
            position,
            velocity: Vec3::ZERO,
            extent: 0.0,
        }
    }
}

/// What the manager needs from the object it corrects (`PhysicsObj`).
pub trait InterpHost {
    /// `PhysicsObj.Position`.
    fn position(&self) -> Position;
    /// `TransientState.Contact`.
    fn in_contact(&self) -> bool;
    /// `get_minterp().get_adjusted_max_speed()` (may create the movement manager).
    fn adjusted_max_speed(&mut self) -> f32;
    /// `PhysicsObj.set_heading(deg, true)`.
    fn set_heading(&mut self, deg: f32);
    /// `PhysicsObj.SetPositionSimple(p, true)`; false when the placement failed.
    fn set_position_simple(&mut self, p: &Position) -> bool;
    /// `PhysicsObj.set_velocity(v, true)`.
    fn set_velocity(&mut self, v: Vec3);
    /// `PhysicsObj.GetAutonomyBlipDistance()` (see [`autonomy_blip_distance`]).
    fn autonomy_blip_distance(&self) -> f64;
    /// `PhysicsObj.get_sticky_object() != 0`.
    fn has_sticky_target(&self) -> bool {
        false
    }
}

/// `InterpolationManager`.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpolationManager {
    pub mode: CorrectionMode,
    queue: VecDeque<InterpolationNode>,
    /// Never set by ACE (`InterpolateTo`'s argument is not stored).
    pub keep_heading: bool,
    pub frame_counter: i32,
    pub original_distance: f32,
    pub progress_quantum: f32,
    pub node_fail_counter: i32,
    pub blip_to: Option<Position>,
}

/// One `interp_queue` entry of a trace line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeView {
    #[serde(rename = "type")]
    pub kind: NodeType,
    pub origin: [f32; 3],
    pub orientation: [f32; 4],
}

/// A frame as traces print it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameView {
    pub origin: [f32; 3],
    pub orientation: [f32; 4],
}

impl From<&AFrame> for FrameView {
    fn from(f: &AFrame) -> FrameView {
        let (o, q) = (f.origin, f.orientation);
        FrameView {
            origin: [o.x, o.y, o.z],
            orientation: [q.w, q.x, q.y, q.z],
        }
    }
}

/// The trace's `interp_mgr` object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ManagerView {
    pub frame_counter: i32,
    pub node_fail_counter: i32,
    pub original_distance: f32,
    pub progress_quantum: f32,
    pub keep_heading: bool,
    pub blip_to: Option<FrameView>,
}

impl InterpolationManager {
    /// `InterpolationManager(PhysicsObj)`, with the queue allocated (repair 1).
    pub fn new(mode: CorrectionMode) -> InterpolationManager {
        InterpolationManager {
            mode,
            queue: VecDeque::with_capacity(MAX_QUEUE),
            keep_heading: false,
            frame_counter: 0,
            original_distance: LARGE_DISTANCE,
            progress_quantum: 0.0,
            node_fail_counter: 0,
            blip_to: None,
        }
    }

    /// The queued nodes, front to back.
    pub fn queue(&self) -> impl Iterator<Item = &InterpolationNode> {
        self.queue.iter()
    }

    /// `IsInterpolating`.
    pub fn is_interpolating(&self) -> bool {
        !self.queue.is_empty()
    }

    /// `InterpolationManager.InterpolateTo(position, keepHeading)`.
    pub fn interpolate_to(
        &mut self,
        mut position: Position,
        keep_heading: bool,
        host: &mut impl InterpHost,
    ) {
        let here = host.position();
        let dest = match self.queue.back() {
            Some(n) if n.kind == NodeType::Position => n.position,
            _ => here,
        };
        let dist = dest.distance(&position);
        if host.autonomy_blip_distance() >= f64::from(dist) {
            if here.distance(&position) > CLOSE_ENOUGH {
                while let Some(last) = self.queue.back() {
                    if last.kind != NodeType::Position
                        || last.position.distance(&position) >= CLOSE_ENOUGH
                    {
                        break;
                    }
                    self.queue.pop_back();
                }
                while self.queue.len() >= MAX_QUEUE {
                    self.queue.pop_front();
                }
                if keep_heading {
                    position.frame.set_heading(here.frame.get_heading());
                }
                self.queue.push_back(InterpolationNode::position(position));
            } else {
                if !keep_heading {
                    host.set_heading(position.frame.get_heading());
                }
                self.stop_interpolating();
            }
        } else {
            if keep_heading {
                position.frame.set_heading(here.frame.get_heading());
            }
            // ACE does not cap the queue on this path (20 queued nodes plus a far target
            // make 21, and the trace shows 21). Only a hard bound far above anything
            // a tick lets accumulate keeps the queue finite (DEVIATION past 4096 nodes:
            // ACE would grow without limit while no tick runs).
            while self.queue.len() >= FAR_PATH_HARD_BOUND {
                self.queue.pop_front();
            }
            self.queue.push_back(InterpolationNode::position(position));
            self.node_fail_counter = FAR_TARGET_FAILS;
        }
    }

    /// `InterpolationManager.NodeCompleted(success)`.
    fn node_completed(&mut self, success: bool, host: &impl InterpHost) {
        self.frame_counter = 0;
        self.progress_quantum = 0.0;
        let head = self.queue.front().map(|n| n.position);
        if self.queue.len() > 1 {
            let next = self.queue[1];
            if next.kind == NodeType::Position {
                self.original_distance = host.position().distance(&next.position);
            } else if !success {
                match head {
                    Some(h) => self.blip_to = Some(h),
                    None => return,
                }
            }
        } else {
            self.original_distance = LARGE_DISTANCE;
            if !success {
                match head {
                    Some(h) => self.blip_to = Some(h),
                    None => return,
                }
            } else {
                self.stop_interpolating();
            }
        }
        self.queue.pop_front();
    }

    /// `InterpolationManager.StopInterpolating` (`blip_to` is kept).
    pub fn stop_interpolating(&mut self) {
        self.queue.clear();
        self.original_distance = LARGE_DISTANCE;
        self.frame_counter = 0;
        self.progress_quantum = 0.0;
        self.node_fail_counter = 0;
    }

    /// `InterpolationManager.adjust_offset(frame, quantum)`: one tick of correction
    /// toward the head node. `offset` is the tick's object-local offset; it changes
    /// only in [`CorrectionMode::Retail`].
    pub fn adjust_offset(&mut self, offset: &mut AFrame, quantum: f64, host: &mut impl InterpHost) {
        if self.queue.is_empty() || !host.in_contact() {
            return;
        }
        let first_kind = self.queue[0].kind;
        if first_kind == NodeType::Jump || first_kind == NodeType::Velocity {
            return;
        }
        let here = host.position();
        let dist = here.distance(&self.queue[0].position);
        if dist < CLOSE_ENOUGH {
            self.node_completed(true, host);
            return;
        }
        let mut max_speed = host.adjusted_max_speed() * 2.0;
        if max_speed < EPSILON {
            max_speed = MAX_INTERPOLATED_VELOCITY;
        }
        let delta = self.original_distance - dist;
        self.progress_quantum += quantum as f32;
        self.frame_counter += 1;
        if self.frame_counter < PROGRESS_WINDOW
            || host.has_sticky_target()
            || (delta > EPSILON && delta / self.progress_quantum / max_speed >= MIN_PROGRESS)
        {
            if self.frame_counter >= PROGRESS_WINDOW {
                self.frame_counter = 0;
                self.progress_quantum = 0.0;
                self.original_distance = dist;
            }
            let mut correction = match self.mode {
                // ACE's Position.Subtract rewrites the queued node (Q48).
                CorrectionMode::Ace => self.queue[0].position.subtract(&here),
                // The displacement to the target in the object's own axes, so that
                // Combine(position, offset) moves the object straight toward it.
                CorrectionMode::Retail => AFrame {
                    origin: here
                        .frame
                        .global_to_local(here.get_offset(&self.queue[0].position)),
                    orientation: offset.orientation,
                },
            };
            let max_quantum = f64::from(max_speed) * quantum;
            let distance = correction.origin.length();
            let completed = distance <= CLOSE_ENOUGH;
            if completed {
                self.node_completed(true, host);
            }
            if f64::from(distance) > max_quantum {
                correction.origin = correction.origin.scale(max_quantum as f32 / distance);
            }
            match self.mode {
                CorrectionMode::Ace => {
                    if self.keep_heading {
                        correction.set_heading(0.0);
                    }
                    // `Subtract` returned the node's own AFrame, so the scaling above
                    // rewrote the queued node too (unless it was just completed and
                    // dropped); the assignment to the by-value parameter is lost.
                    if !completed {
                        self.queue[0].position.frame = correction;
                    }
                }
                // The correction replaces the tick's translation; the animation's
                // rotation is kept.
                CorrectionMode::Retail => offset.origin = correction.origin,
            }
            return;
        }
        self.node_fail_counter += 1;
        self.node_completed(false, host);
    }

    /// `InterpolationManager.UseTime`: blips after too many failures, consumes jump and
    /// velocity nodes.
    pub fn use_time(&mut self, host: &mut impl InterpHost) {
        if self.node_fail_counter > MAX_FAILS || self.queue.is_empty() {
            if self.node_fail_counter <= 0 {
                return;
            }
            let Some(last) = self.queue.back().copied() else {
                // Repair 2: ACE dereferences the empty queue's tail here.
                if let Some(target) = self.blip_to {
                    if !host.set_position_simple(&target) {
                        return;
                    }
                }
                self.stop_interpolating();
                return;
            };
            if last.kind != NodeType::Jump && last.kind != NodeType::Velocity {
                if host.set_position_simple(&last.position) {
                    self.stop_interpolating();
                }
                return;
            }
            // ACE scans from index Count (out of range); the evident intent, scanning from
            // the tail backwards, is what runs here. No API queues jump/velocity nodes.
            if self.queue.len() > 1 {
                if let Some(node) = self
                    .queue
                    .iter()
                    .rev()
                    .find(|n| n.kind == NodeType::Position)
                {
                    let target = node.position;
                    if !host.set_position_simple(&target) {
                        return;
                    }
                    host.set_velocity(last.velocity);
                    self.stop_interpolating();
                    return;
                }
            }
            if let Some(target) = self.blip_to {
                if !host.set_position_simple(&target) {
                    return;
                }
            }
            self.stop_interpolating();
            return;
        }
        let first = self.queue[0];
        match first.kind {
            NodeType::Jump => self.node_completed(true, host),
            NodeType::Velocity => {
                host.set_velocity(first.velocity);
                self.node_completed(true, host);
            }
            NodeType::Position | NodeType::Invalid => {}
        }
    }

    /// The trace's `interp_queue`.
    pub fn queue_view(&self) -> Vec<NodeView> {
        self.queue
            .iter()
            .map(|n| {
                let f = FrameView::from(&n.position.frame);
                NodeView {
                    kind: n.kind,
                    origin: f.origin,
                    orientation: f.orientation,
                }
            })
            .collect()
    }

    /// The trace's `interp_mgr`.
    pub fn view(&self) -> ManagerView {
        ManagerView {
            frame_counter: self.frame_counter,
            node_fail_counter: self.node_fail_counter,
            original_distance: self.original_distance,
            progress_quantum: self.progress_quantum,
            keep_heading: self.keep_heading,
            blip_to: self.blip_to.as_ref().map(|p| FrameView::from(&p.frame)),
        }
    }
}

/// Q111: ACE never queues Jump or Velocity nodes (its `InterpolateTo` builds Position
/// nodes only, and nothing else adds to the queue), so no public call here can queue one
/// either. What ACE does with one at the head or the tail is kept; these tests put nodes
/// in the queue directly to show it.
#[cfg(test)]
mod q111_tests {
    use super::*;
    use crate::math::Quat;

    struct Host {
        pos: Position,
        velocity: Vec3,
        placed: Vec<Position>,
    }

    impl InterpHost for Host {
        fn position(&self) -> Position {
            self.pos
        }
        fn in_contact(&self) -> bool {
            true
        }
        fn adjusted_max_speed(&mut self) -> f32 {
            4.0
        }
        fn set_heading(&mut self, _deg: f32) {}
        fn set_position_simple(&mut self, p: &Position) -> bool {
            self.pos = *p;
            self.placed.push(*p);
            true
        }
        fn set_velocity(&mut self, v: Vec3) {
            self.velocity = v;
        }
        fn autonomy_blip_distance(&self) -> f64 {
            100.0
        }
    }

    fn at(x: f32) -> Position {
        Position::new(
            0x7d64_0013,
            AFrame::new(Vec3::new(x, 0.0, 0.0), Quat::IDENTITY),
        )
    }

    fn host() -> Host {
        Host {
            pos: at(0.0),
            velocity: Vec3::ZERO,
            placed: Vec::new(),
        }
    }

    fn node(kind: NodeType, x: f32, velocity: Vec3) -> InterpolationNode {
        InterpolationNode {
            kind,
            position: at(x),
            velocity,
            extent: 0.0,
        }
    }

    #[test]
    fn q111_interpolate_to_queues_position_nodes_only() {
        let mut m = InterpolationManager::new(CorrectionMode::Ace);
        let mut h = host();
        m.interpolate_to(at(3.0), false, &mut h);
        m.interpolate_to(at(6.0), false, &mut h);
        let kinds: Vec<NodeType> = m.queue().map(|n| n.kind).collect();
        assert_eq!(kinds, vec![NodeType::Position, NodeType::Position]);
    }

    #[test]
    fn q111_a_velocity_node_at_the_head_sets_the_velocity_in_use_time() {
        let mut m = InterpolationManager::new(CorrectionMode::Ace);
        let mut h = host();
        m.queue
            .push_back(node(NodeType::Velocity, 9.0, Vec3::new(1.0, 2.0, 3.0)));
        // adjust_offset leaves a Jump/Velocity head alone: no correction, node kept.
        let mut offset = AFrame::new(Vec3::new(0.5, 0.0, 0.0), Quat::IDENTITY);
        m.adjust_offset(&mut offset, 0.1, &mut h);
        assert_eq!(offset.origin, Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(m.queue().count(), 1);
        // UseTime completes it, taking its velocity; the queue was its only node.
        m.use_time(&mut h);
        assert_eq!(h.velocity, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(m.queue().count(), 0);
        assert_eq!(h.pos, at(0.0));
    }

    #[test]
    fn q111_a_jump_node_at_the_head_just_completes() {
        let mut m = InterpolationManager::new(CorrectionMode::Ace);
        let mut h = host();
        m.queue.push_back(node(NodeType::Jump, 9.0, Vec3::ZERO));
        m.queue.push_back(node(NodeType::Position, 4.0, Vec3::ZERO));
        m.use_time(&mut h);
        // The Position node behind it is next, 4 m away.
        let kinds: Vec<NodeType> = m.queue().map(|n| n.kind).collect();
        assert_eq!(kinds, vec![NodeType::Position]);
        assert_eq!(m.original_distance, 4.0);
        assert_eq!(h.velocity, Vec3::ZERO);
    }

    #[test]
    fn q111_failed_interpolation_ending_in_a_velocity_node_blips_to_the_last_position() {
        let mut m = InterpolationManager::new(CorrectionMode::Ace);
        let mut h = host();
        m.queue.push_back(node(NodeType::Position, 2.0, Vec3::ZERO));
        m.queue.push_back(node(NodeType::Position, 5.0, Vec3::ZERO));
        m.queue
            .push_back(node(NodeType::Velocity, 9.0, Vec3::new(0.0, 0.0, -1.0)));
        m.node_fail_counter = 4;
        m.use_time(&mut h);
        // The nearest Position node from the tail (x = 5), then the tail's velocity.
        assert_eq!(h.placed, vec![at(5.0)]);
        assert_eq!(h.velocity, Vec3::new(0.0, 0.0, -1.0));
        assert_eq!(m.queue().count(), 0);
        assert_eq!(m.node_fail_counter, 0);
    }
}

#[cfg(test)]
mod block_offset_tests {
    use super::*;

    #[test]
    fn the_block_offset_is_zero_within_a_landblock_and_192_per_step_across() {
        // Two cells of landblock 0x7d64, and the same cell id.
        assert_eq!(block_offset(0x7d64_0013, 0x7d64_0100), Vec3::ZERO);
        assert_eq!(block_offset(0x7d64_0013, 0x7d64_0013), Vec3::ZERO);
        // One landblock east (x byte + 1), two north (y byte + 2), and back.
        assert_eq!(
            block_offset(0x7d64_0013, 0x7e64_0013),
            Vec3::new(192.0, 0.0, 0.0)
        );
        assert_eq!(
            block_offset(0x7d64_0013, 0x7d66_0001),
            Vec3::new(0.0, 384.0, 0.0)
        );
        assert_eq!(
            block_offset(0x7e66_0013, 0x7d64_0013),
            Vec3::new(-192.0, -384.0, 0.0)
        );
        // Only the high 16 bits tell landblocks apart: a low-bit difference is one block.
        assert_eq!(block_offset(0x0000_ffff, 0x0000_0000), Vec3::ZERO);
        assert_eq!(
            block_offset(0x0001_0000, 0x0000_ffff),
            Vec3::new(0.0, -192.0, 0.0)
        );
    }
}
