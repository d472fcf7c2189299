//! `MoveToManager` (`Mgr/MoveToManager.cs`): the steering layer that walks, runs and
//! turns an object towards another object, a position or a heading, by issuing
//! interpreted motions to its `MotionInterp`. It is driven by target reports (see
//! [`crate::target_manager`]) and by `UseTime` each tick, and may end in a sticky
//! hand-off (Q78).
//!
//! The manager's methods live on [`PhysicsObj`] because every one of them issues motions
//! on the object. Effects on *other* objects (voyeur tables) are queued in the object's
//! outbox and carried out by the world right after the call returns (see
//! [`crate::world`]).
//!
//! The manager lives in a [`crate::cold_box::ColdBox`]; a method that touches several
//! of its fields takes it out once (`let m: &mut MoveToManager = &mut self.moveto`),
//! since a binding of the box itself tests the box again at every field it reaches.

use crate::anim_queue::AnimQueue;
use crate::commands::*;
use crate::interpolation::Position;
use crate::math::Vec3;
use crate::math::{heading_of_facing, heading_sin_cos, rem360, AFrame, Quat, EPSILON};
use crate::motion_interp::adjust_motion;
use crate::physics_obj::PhysicsObj;
use crate::position_helpers::{
    cylinder_distance_by_offset, cylinder_distance_by_sq_f32, heading, norm, steer_estimate,
    steer_estimate_by_sq, turn_progress_parts, turn_reached_parts, Steer,
};
use crate::target_manager::{TargetInfo, TargetStatus};

/// `MovementNode`: only MoveToPosition and TurnToHeading nodes are ever queued.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovementNode {
    pub kind: MovementType,
    pub heading: f32,
}

/// `MovementStruct` as the move-to types use it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovementStruct {
    pub kind: MovementType,
    pub motion: u32,
    pub object_id: u32,
    pub top_level_id: u32,
    pub radius: f32,
    pub height: f32,
    pub position: Position,
    pub params: MovementParameters,
}

impl MovementStruct {
    /// A struct of `kind` with every other field zero / default.
    pub fn new(kind: MovementType, params: MovementParameters) -> MovementStruct {
        MovementStruct {
            kind,
            motion: 0,
            object_id: 0,
            top_level_id: 0,
            radius: 0.0,
            height: 0.0,
            position: FRESH,
            params,
        }
    }
}

/// A fresh `Position()`: cell 0, identity frame.
pub const FRESH: Position = Position::new(0, AFrame::IDENTITY);

/// `previous_heading` as the manager keeps it: the number, or the facing of the turning
/// step that read it (the two matrix elements `AFrame.get_heading` takes its arctangent
/// of), whose heading is worked out only when asked for. Two are equal when their
/// headings have the same bits.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PreviousHeading {
    Value(f32),
    Facing(f32, f32),
}

impl PreviousHeading {
    /// The heading.
    pub(crate) fn get(self) -> f32 {
        match self {
            PreviousHeading::Value(h) => h,
            PreviousHeading::Facing(m21, m22) => heading_of_facing(m21, m22),
        }
    }
}

impl PartialEq for PreviousHeading {
    fn eq(&self, other: &Self) -> bool {
        self.get().to_bits() == other.get().to_bits()
    }
}

/// The direction (sine, cosine) of the heading a turn aims at, kept for the heading
/// (`key`, its bits) it was computed from: a turn's steps share one node heading. It is
/// the direction `AFrame.set_heading` turns to ([`heading_sin_cos`]: the heading in
/// radians narrowed to f32, within 2e-5° of the heading), so the snap at the turn's end
/// reads it too. A memo, no state of the manager: any two are equal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnMemo {
    key: u32,
    sin: f64,
    cos: f64,
}

impl TurnMemo {
    /// No heading yet (NaN's bits: a heading the memo is asked for is never NaN).
    const EMPTY: TurnMemo = TurnMemo {
        key: u32::MAX,
        sin: 0.0,
        cos: 1.0,
    };

    /// The direction of compass heading `t`, for `t` in [0, 360); None otherwise.
    #[inline]
    fn direction(&mut self, t: f32) -> Option<(f64, f64)> {
        // Only headings in range are kept, so a hit needs no range test.
        if self.key != t.to_bits() {
            if !(0.0..360.0).contains(&t) {
                return None;
            }
            (self.sin, self.cos) = heading_sin_cos(t);
            self.key = t.to_bits();
        }
        Some((self.sin, self.cos))
    }

    /// [`heading_sin_cos`] of `t` when kept.
    #[inline]
    fn kept(&self, t: f32) -> Option<(f64, f64)> {
        (self.key == t.to_bits()).then_some((self.sin, self.cos))
    }
}

impl PartialEq for TurnMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The manager's fields (ACE's names in snake case).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveToManager {
    pub movement_type: MovementType,
    pub sought_position: Position,
    pub current_target_position: Position,
    /// Written by the move's start. Code that writes it directly mid-move calls
    /// [`MoveToManager::arm_charge_test`] afterwards: the forward step reads its
    /// charge-too-far test from a copy taken at the start.
    pub starting_position: Option<Position>,
    /// Written by the move's start; after a direct write of `fail_distance` mid-move,
    /// call [`MoveToManager::arm_charge_test`], as for `starting_position`.
    pub movement_params: MovementParameters,
    pub(crate) previous_heading: PreviousHeading,
    pub previous_distance: f32,
    pub previous_distance_time: f64,
    pub original_distance: f32,
    pub original_distance_time: f64,
    pub fail_progress_count: i32,
    pub sought_object_id: u32,
    pub top_level_object_id: u32,
    pub sought_object_radius: f32,
    pub sought_object_height: f32,
    pub current_command: u32,
    pub aux_command: u32,
    pub moving_away: bool,
    pub initialized: bool,
    pub pending_actions: AnimQueue<MovementNode>,
    pub(crate) turn_memo: TurnMemo,
    /// Kept equal to `ChargeArm::of(starting_position, movement_params.fail_distance)`
    /// by [`MoveToManager::arm_charge_test`] wherever either is written.
    pub(crate) charge: ChargeArm,
}

impl MoveToManager {
    /// The constructor's `Init` + `InitializeLocalVars` at world time `now`.
    pub fn new(now: f64) -> MoveToManager {
        let mut m = MoveToManager {
            movement_type: MovementType::Invalid,
            sought_position: FRESH,
            current_target_position: FRESH,
            starting_position: None,
            movement_params: MovementParameters::default(),
            previous_heading: PreviousHeading::Value(0.0),
            previous_distance: 0.0,
            previous_distance_time: now,
            original_distance: 0.0,
            original_distance_time: now,
            fail_progress_count: 0,
            sought_object_id: 0,
            top_level_object_id: 0,
            sought_object_radius: 0.0,
            sought_object_height: 0.0,
            current_command: 0,
            aux_command: 0,
            moving_away: false,
            initialized: false,
            pending_actions: AnimQueue::with_capacity(4),
            turn_memo: TurnMemo::EMPTY,
            charge: ChargeArm::OFF,
        };
        m.initialize_local_vars(now);
        m
    }

    /// `MoveToObject`'s fields: the move starts at `here` towards `object_id` (top-level
    /// `top_level_id`, its cylinder `radius` × `height`) with `params`, and the
    /// charge-too-far test is armed from them. Shared by the plain start and the chase
    /// started out of range.
    #[inline]
    pub(crate) fn start_move_to_object(
        &mut self,
        here: Position,
        object_id: u32,
        top_level_id: u32,
        radius: f32,
        height: f32,
        params: &MovementParameters,
    ) {
        self.starting_position = Some(here);
        self.sought_object_id = object_id;
        self.sought_object_radius = radius;
        self.sought_object_height = height;
        self.movement_type = MovementType::MoveToObject;
        self.top_level_object_id = top_level_id;
        self.movement_params = *params;
        self.arm_charge_test();
    }

    /// Re-arms the charge-too-far test from the start and the fail distance. The crate
    /// calls it wherever it writes either; a host or tool that writes
    /// `starting_position` or `movement_params.fail_distance` directly during a move
    /// calls it too, or the forward step keeps testing against the old pair (debug
    /// builds assert that it was called).
    #[inline(always)]
    pub fn arm_charge_test(&mut self) {
        self.charge = ChargeArm::of(
            self.starting_position.as_ref(),
            self.movement_params.fail_distance,
        );
    }

    /// `InitializeLocalVars`: resets only some fields (Q93).
    pub fn initialize_local_vars(&mut self, now: f64) {
        self.movement_type = MovementType::Invalid;
        self.movement_params.distance_to_object = 0.0;
        self.movement_params.context_id = 0;
        self.previous_heading = PreviousHeading::Value(0.0);
        self.previous_distance_time = now;
        self.original_distance_time = now;
        self.fail_progress_count = 0;
        self.current_command = 0;
        self.aux_command = 0;
        self.moving_away = false;
        self.initialized = false;
        self.sought_position = FRESH;
        self.current_target_position = FRESH;
        self.sought_object_id = 0;
        self.top_level_object_id = 0;
        self.sought_object_radius = 0.0;
        self.sought_object_height = 0.0;
    }

    /// Whether a forward step tunes the target's prediction horizon (Q85): a move to an
    /// object under way.
    #[inline(always)]
    fn tunes_horizon(&self) -> bool {
        self.top_level_object_id != 0 && self.movement_type != MovementType::Invalid
    }

    /// `is_moving_to`.
    pub fn is_moving_to(&self) -> bool {
        self.movement_type != MovementType::Invalid
    }

    /// `previous_heading`.
    pub fn previous_heading(&self) -> f32 {
        self.previous_heading.get()
    }

    /// Whether `previous_heading` is kept as the facing a turning step on the fast path
    /// read (which the next step's turn estimate reads), for tests that count the
    /// estimate's uses.
    #[doc(hidden)]
    pub fn previous_heading_is_facing(&self) -> bool {
        matches!(self.previous_heading, PreviousHeading::Facing(..))
    }
}

/// `heading_diff(h1, h2, motion)`: clockwise angle from `h2` to `h1` for TurnRight,
/// counter-clockwise otherwise, in [0, 360).
pub fn heading_diff(h1: f32, h2: f32, motion: u32) -> f32 {
    let mut r = norm(h1 - h2);
    if r > EPSILON && motion != TURN_RIGHT {
        r = 360.0 - r;
    }
    r
}

/// `heading_greater(h1, h2, motion)`: has `h1` reached or passed `h2` turning that way
/// (TurnRight equality is not passed, TurnLeft equality is, Q67).
pub fn heading_greater(h1: f32, h2: f32, motion: u32) -> bool {
    let d = (h1 - h2).abs();
    let mut result = if d <= 180.0 { h1 > h2 } else { h2 > h1 };
    if motion != TURN_RIGHT {
        result = !result;
    }
    result
}

/// What `MovementParameters.get_command` decides: motion (0 = none), hold key, away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command {
    pub motion: u32,
    pub hold_key: HoldKey,
    pub moving_away: bool,
}

/// `MovementParameters.get_command(dist, heading, …)` (the heading is unused, Q76).
pub fn get_command(p: &MovementParameters, dist: f32) -> Command {
    let (motion, moving_away) = command_motion(p, dist);
    let hold_key =
        if p.can_run && (!p.can_walk || dist - p.distance_to_object > p.walk_run_threshold) {
            HoldKey::Run
        } else {
            HoldKey::None
        };
    Command {
        motion,
        hold_key,
        moving_away,
    }
}

/// The motion (0 = none) and the moving-away flag of [`get_command`]: the tests of a
/// start ask only whether the mover must move, and skip the hold key.
#[inline(always)]
pub(crate) fn command_motion(p: &MovementParameters, dist: f32) -> (u32, bool) {
    if p.move_towards || !p.move_away {
        if p.move_away {
            // towards_and_away
            if dist > p.distance_to_object {
                return (WALK_FORWARD, false);
            } else if dist - p.min_distance < EPSILON {
                return (WALK_BACKWARDS, true);
            }
        } else if dist > p.distance_to_object {
            return (WALK_FORWARD, false);
        }
    } else if dist < p.min_distance {
        return (WALK_FORWARD, true);
    }
    (0, false)
}

/// `MovementParameters.get_desired_heading(motion, movingAway)`.
pub fn get_desired_heading(motion: u32, moving_away: bool) -> f32 {
    match (motion, moving_away) {
        (RUN_FORWARD | WALK_FORWARD, true) | (WALK_BACKWARDS, false) => 180.0,
        _ => 0.0,
    }
}

/// The fresh `MovementParameters()` the layer builds for its own motion calls.
fn motion_params(speed: f32, hold_key: HoldKey) -> MovementParameters {
    MovementParameters {
        cancel_moveto: false,
        speed,
        hold_key_to_apply: hold_key,
        ..MovementParameters::default()
    }
}

/// The parameter set a step's motion calls share, built by the first of them from the
/// manager's speed and hold key. ACE builds it when the step begins; built at the first
/// motion call instead, it reads the same two fields, as nothing the step does before
/// that call (the steering, `set_heading`) changes the manager.
fn shared_params<'a>(
    mp: &'a mut Option<MovementParameters>,
    m: &MoveToManager,
) -> &'a mut MovementParameters {
    mp.get_or_insert_with(|| {
        motion_params(m.movement_params.speed, m.movement_params.hold_key_to_apply)
    })
}

/// The steering decision of `HandleMoveToPosition` for a mover at `cur` and the heading
/// `h` it aims at: `h = desired + heading(cur, target)` (wrapped once),
/// `diff = norm(h − heading)`.
fn steer_plain(m: &MoveToManager, cur: &Position) -> (Steer, f32) {
    let h = aim(m, cur);
    let diff = norm(h - cur.frame.get_heading());
    (Steer::of_diff(diff), h)
}

/// The heading `h` of [`steer_plain`] alone, for the snap that ends a correction turn
/// when [`steer_estimate`] has decided Hold: the frame heading's arctangent, which only
/// the decision reads, is not taken.
#[inline(never)]
fn aim(m: &MoveToManager, cur: &Position) -> f32 {
    let mut h = get_desired_heading(m.current_command, m.moving_away)
        + heading(cur, &m.current_target_position);
    if h >= 360.0 {
        h -= 360.0;
    }
    h
}

/// [`steer_plain`] for the mover in cell `cell` at `frame`, where `FAST` first tries
/// [`steer_estimate`]: a certain Hold or turn costs no arctangent. `h` is left out (None)
/// when the estimate decides; a Hold that snaps a correction turn then forms it alone
/// ([`aim`]). With `FAST` the offset's horizontal parts come back too, for the distance
/// to read: those of [`offset_but_zero_signs`], which is all the estimate reads of it.
// Not its vertical part: formed here, it would be held until the distance reads it,
// and the step's rare calls made the compiler keep it in memory on every step; the
// distance forms it from the origins, which no call has changed by then.
// The mover's cell and frame, not a copied `Position`: the estimate reads four parts of
// the orientation and two of the origin in place, and only the plain path forms the
// position.
#[inline]
fn steer<const FAST: bool>(
    m: &MoveToManager,
    cell: u32,
    frame: &AFrame,
) -> (Steer, Option<f32>, Option<(f32, f32)>) {
    if FAST {
        let d = offset_but_zero_signs_from(cell, frame.origin, &m.current_target_position);
        let (_, m21, m22, _) = frame.orientation.matrix_elements();
        let away = get_desired_heading(m.current_command, m.moving_away) != 0.0;
        if let Some(s) = steer_estimate(d.x, d.y, m21, m22, away) {
            debug_assert_eq!(
                s,
                steer_plain(m, &Position::new(cell, *frame)).0,
                "steer estimate"
            );
            return (s, None, Some((d.x, d.y)));
        }
        let (s, h) = steer_plain(m, &Position::new(cell, *frame));
        return (s, Some(h), Some((d.x, d.y)));
    }
    let (s, h) = steer_plain(m, &Position::new(cell, *frame));
    (s, Some(h), None)
}

/// Whether two frames have the same bits in every part.
fn same_frame_bits(a: &AFrame, b: &AFrame) -> bool {
    let q = |f: &AFrame| {
        let o = f.orientation;
        [o.w, o.x, o.y, o.z].map(f32::to_bits)
    };
    same_bits(a.origin, b.origin) && q(a) == q(b)
}

/// `from.get_offset(to)` but for the signs of its zero parts, for readers that cannot
/// tell them apart (`steer_estimate`, whose tests are blind to a zero's sign, and the
/// distances, which read the offset's length). Within one landblock the plain offset is
/// `(+0 + to) − from` part by part; adding +0 changes only a −0, to +0, and so the
/// difference only where it is zero. The offset is formed without that addition.
#[inline(always)]
fn offset_but_zero_signs(from: &Position, to: &Position) -> Vec3 {
    offset_but_zero_signs_from(from.cell, from.frame.origin, to)
}

/// [`offset_but_zero_signs`] from the position in cell `cell` at `origin`.
#[inline(always)]
fn offset_but_zero_signs_from(cell: u32, origin: Vec3, to: &Position) -> Vec3 {
    // `get_offset` reads the cell and the origin alone.
    let plain = || Position::new(cell, AFrame::new(origin, Quat::IDENTITY)).get_offset(to);
    if (cell ^ to.cell) >> 16 == 0 {
        let d = to.frame.origin.sub(origin);
        debug_assert!(same_but_zero_signs(d, plain()), "offset but zero signs");
        return d;
    }
    plain()
}

/// Whether two vectors have the same bits in every part but the signs of zeros.
fn same_but_zero_signs(a: Vec3, b: Vec3) -> bool {
    let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x == 0.0 && y == 0.0);
    same(a.x, b.x) && same(a.y, b.y) && same(a.z, b.z)
}

/// Whether two vectors have the same bits in every part.
fn same_bits(a: Vec3, b: Vec3) -> bool {
    [a.x, a.y, a.z].map(f32::to_bits) == [b.x, b.y, b.z].map(f32::to_bits)
}

/// `GetCurrentDistance` from `here` (the mover's radius and height `radius`, `height`)
/// to `target`, given `off = here.get_offset(target)`.
#[inline]
fn distance_by_offset(
    m: &MoveToManager,
    radius: f32,
    height: f32,
    here: &Position,
    target: &Position,
    off: Vec3,
) -> f32 {
    distance_by_sq(m, radius, height, here, target, off, off.length_sq())
}

/// [`distance_by_offset`] given the offset's squared length `len_sq`
/// (`off.length_sq()`), for a caller that formed it already.
#[inline(always)]
fn distance_by_sq(
    m: &MoveToManager,
    radius: f32,
    height: f32,
    here: &Position,
    target: &Position,
    off: Vec3,
    len_sq: f32,
) -> f32 {
    if !m.movement_params.use_spheres {
        // `Position.Distance`: the offset's length.
        return (len_sq as f64).sqrt() as f32;
    }
    let (pz, oz) = (here.frame.origin.z, target.frame.origin.z);
    let (r, h) = (m.sought_object_radius, m.sought_object_height);
    let d = cylinder_distance_by_sq_f32(len_sq, radius, height, pz, r, h, oz);
    debug_assert_eq!(
        d.to_bits(),
        (cylinder_distance_by_offset(off, radius, height, pz, r, h, oz) as f32).to_bits(),
        "f32 cylinder distance"
    );
    d
}

/// `StartingPosition.Distance(here) > fail` (Q92).
#[inline(always)]
fn charged_too_far(start: &Position, here: &Position, fail: f32) -> bool {
    start.distance(here) > fail
}

/// The charge-too-far test's fast path, armed where a move's start and parameters are
/// written, so a step tests one landblock and no more: with a fail distance of
/// `f32::MAX` (the default, which nearly every move keeps) and both positions in one
/// landblock, the distance is not formed. It is the root of an f32 sum of squares,
/// taken in f64 and narrowed, so it is at most about 1.9e19 unless the sum is +∞, and
/// only then greater than `f32::MAX` (a NaN sum gives a NaN distance, greater than
/// nothing). The sum's terms are the squares of `(0 + here) − start`, whose magnitudes
/// are those of `here − start` (adding the landblock's zero offset changes only the sign
/// of a zero), so the sum is formed from the origins' difference alone. (The fail
/// distance is compared by its bits: no other f32, NaN included, equals `f32::MAX`.)
///
/// Nor is the sum formed while both origins lie within [`CHARGE_NEAR`] of the
/// landblock's (the arm is off for a start beyond it): each difference is then at most
/// 2⁶², its square at most 2¹²⁴, the sum (rounded) at most 2¹²⁶, below `f32::MAX`. A
/// NaN part, which the test below may pass over, makes the sum NaN: not +∞ either.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChargeArm {
    /// The start's landblock, or [`ChargeArm::OFF`]'s, which no cell's is (a cell's
    /// landblock is its top 16 bits).
    block: u32,
    origin: Vec3,
}

impl ChargeArm {
    pub(crate) const OFF: ChargeArm = ChargeArm {
        block: u32::MAX,
        origin: Vec3::ZERO,
    };

    /// The arm for a move's start and fail distance.
    #[inline(always)]
    pub(crate) fn of(start: Option<&Position>, fail: f32) -> ChargeArm {
        match start {
            Some(s) if fail.to_bits() == f32::MAX.to_bits() && near(s.frame.origin) => ChargeArm {
                block: s.cell >> 16,
                origin: s.frame.origin,
            },
            _ => ChargeArm::OFF,
        }
    }

    /// Equal bit for bit (a NaN origin equals itself).
    fn same_bits(&self, other: &ChargeArm) -> bool {
        let bits = |v: Vec3| [v.x, v.y, v.z].map(f32::to_bits);
        self.block == other.block && bits(self.origin) == bits(other.origin)
    }

    /// The test's answer at `here` when the arm covers it; `None` when the plain test
    /// must run.
    #[inline(always)]
    fn far(&self, here: &Position) -> Option<bool> {
        if here.cell >> 16 != self.block {
            return None;
        }
        let o = here.frame.origin;
        Some(!near(o) && o.sub(self.origin).length_sq() == f32::INFINITY)
    }
}

/// 2⁶¹: see [`ChargeArm`].
const CHARGE_NEAR: f32 = 2_305_843_009_213_693_952.0;

/// Whether every part of `v` is within [`CHARGE_NEAR`] of zero, NaN parts aside: the
/// largest magnitude by `>`, which passes over a NaN part unless it is the last.
#[inline(always)]
fn near(v: Vec3) -> bool {
    let (x, y, z) = (v.x.abs(), v.y.abs(), v.z.abs());
    let xy = if x > y { x } else { y };
    let largest = if xy > z { xy } else { z };
    largest <= CHARGE_NEAR
}

/// A step without progress counts as a failure only when neither the position manager
/// is interpolating the object nor an animation is moving it. (Takes the two fields, not
/// the object: the step holds the move-to manager borrowed from it.)
#[inline]
fn neither_interpolating_nor_animating(
    pm: Option<&crate::position_manager::PositionManager>,
    is_animating: bool,
) -> bool {
    !pm.is_some_and(|p| p.is_interpolating()) && !is_animating
}

/// `CheckProgressMade(d)` at world time `now`: judged at most once per window of more
/// than 1 s (Q71).
#[inline]
fn check_progress_made(m: &mut MoveToManager, now: f64, d: f32) -> bool {
    let dt = now - m.previous_distance_time;
    if dt > 1.0 {
        let gain = if m.moving_away {
            d - m.previous_distance
        } else {
            m.previous_distance - d
        };
        if gain as f64 / dt < 0.25 {
            return false;
        }
        m.previous_distance = d;
        m.previous_distance_time = now;
        let total = if m.moving_away {
            d - m.original_distance
        } else {
            m.original_distance - d
        };
        if total as f64 / (now - m.original_distance_time) < 0.25 {
            return false;
        }
    }
    true
}

/// Whether `motion` is one of the turns a turning node runs (TurnRight, TurnLeft).
#[inline(always)]
fn is_turn(motion: u32) -> bool {
    motion == TURN_RIGHT || motion == TURN_LEFT
}

/// What a step of `HandleTurnToHeading` decides for a mover still turning (`TurnRight`
/// or `TurnLeft` running).
#[derive(Clone, Copy, Debug, PartialEq)]
enum TurnStep {
    /// The heading reached or passed the node's (`heading_greater`): snap and stop.
    Reached,
    /// Not yet: whether the step made progress (`heading_diff` from the previous heading
    /// in (EPSILON, 180)), and the heading to keep as the previous one.
    Turning {
        progress: bool,
        heading: PreviousHeading,
    },
}

/// The facing `(M21, M22)` of `frame` (what `AFrame.get_heading` takes its arctangent of).
#[inline(always)]
fn facing(frame: &AFrame) -> (f32, f32) {
    let (_, m21, m22, _) = frame.orientation.matrix_elements();
    (m21, m22)
}

/// The plain decision of a turning step: the frame heading `h` of the facing
/// `(m21, m22)`, `heading_greater(h, target, turn)`, then `heading_diff(h, previous,
/// turn)`.
fn turn_plain(previous: f32, (m21, m22): (f32, f32), target: f32, turn: u32) -> TurnStep {
    let h = heading_of_facing(m21, m22);
    if heading_greater(h, target, turn) {
        return TurnStep::Reached;
    }
    let d = heading_diff(h, previous, turn);
    TurnStep::Turning {
        progress: d > EPSILON && d < 180.0,
        heading: PreviousHeading::Value(h),
    }
}

/// [`turn_plain`] decided from the facings (`turn_reached_estimate`,
/// `turn_progress_estimate`) when certain, the previous heading kept as this step's
/// facing; None when not certain, or when the previous heading is a number (the first
/// step of a turn, after `BeginTurnToHeading` stored a difference, Q66).
#[inline]
fn turn_estimate(
    m: &mut MoveToManager,
    frame: &AFrame,
    target: f32,
    turn: u32,
) -> Option<TurnStep> {
    let right = turn == TURN_RIGHT;
    let (sin_t, cos_t) = m.turn_memo.direction(target)?;
    // Read after the direction, whose first use of a heading calls the library sine:
    // read before, the facing would be kept in memory across that call on every step.
    let (m21, m22) = facing(frame);
    let (settled, reached) = turn_reached_parts(m21, m22, sin_t, cos_t, right);
    if !settled {
        return None;
    }
    if reached {
        return Some(TurnStep::Reached);
    }
    let PreviousHeading::Facing(p21, p22) = m.previous_heading else {
        return None;
    };
    let (settled, progress) = turn_progress_parts(m21, m22, p21, p22, right);
    if !settled {
        return None;
    }
    Some(TurnStep::Turning {
        progress,
        heading: PreviousHeading::Facing(m21, m22),
    })
}

/// What a steady forward step ([`PhysicsObj::mt_steady_forward_step`]) leaves to do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Steady {
    /// Nothing: the step is done.
    Done,
    /// The step's last act: tune the target's prediction horizon to `t`.
    Horizon(f64),
    /// The mover arrived, `dist` from its target: the arrival, then the horizon.
    Arrived(f32),
    /// Not steady: the plain step runs, given the steering's decision when the
    /// estimate made it.
    Plain(Option<Steer>),
}

/// The prediction horizon a mover `dist` from its target, moving at `velocity`, tunes
/// its target's to (Q85): the time `dist` takes at its speed, when it moves faster than
/// 0.1 and that time is more than 1 from the target's horizon (`quantum`, read only
/// then); None otherwise.
#[inline(always)]
fn horizon_to_tune(velocity: Vec3, dist: f32, quantum: impl FnOnce() -> f64) -> Option<f64> {
    let v = velocity.length();
    if v > 0.1 {
        let t = dist / v;
        if (t as f64 - quantum()).abs() > 1.0 {
            return Some(t as f64);
        }
    }
    None
}

/// What a steady turning step ([`PhysicsObj::mt_steady_turn_step`]) leaves to do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TurnSteady {
    /// Nothing: the step is done.
    Done,
    /// The turn (command `cc`) reached the node's heading: its end.
    Reached(u32),
    /// Not steady: the plain step runs.
    Plain,
}

impl PhysicsObj {
    /// `GetRadius()` (the Setup radius at scale 1).
    pub fn get_radius(&self) -> f32 {
        self.radius * self.scale
    }

    /// `GetHeight()`.
    pub fn get_height(&self) -> f32 {
        self.height * self.scale
    }

    /// `MovementManager.PerformMovement` for every `MovementType`: the motion types go
    /// to the interpreter, the move-to types (6–9) to the MoveToManager. An object
    /// without a movement manager answers `NoAnimationTable` (ACE would dereference
    /// null for MoveToPosition, Q87).
    pub fn perform_movement_struct(&mut self, mvs: &MovementStruct) -> WeenieError {
        match mvs.kind {
            MovementType::MoveToObject
            | MovementType::MoveToPosition
            | MovementType::TurnToObject
            | MovementType::TurnToHeading => {
                if !self.has_movement_manager {
                    return WeenieError::NoAnimationTable;
                }
                self.set_active(true);
                self.reserve_move_buffers();
                self.mt_perform_movement(mvs)
            }
            MovementType::Invalid => WeenieError::GeneralMovementFailure,
            kind => self.perform_movement(kind, mvs.motion, &mvs.params),
        }
    }

    /// `MoveToManager.PerformMovement`: cancel the old move (reported, Q58), unstick,
    /// start the new one; always `None`.
    fn mt_perform_movement(&mut self, mvs: &MovementStruct) -> WeenieError {
        self.mt_cancel_move_to(WeenieError::ActionCancelled);
        self.unstick_from_object();
        match mvs.kind {
            MovementType::MoveToObject => self.mt_move_to_object(
                mvs.object_id,
                mvs.top_level_id,
                mvs.radius,
                mvs.height,
                &mvs.params,
            ),
            MovementType::MoveToPosition => self.mt_move_to_position(mvs.position, &mvs.params),
            MovementType::TurnToObject => {
                self.mt_turn_to_object(mvs.object_id, mvs.top_level_id, &mvs.params)
            }
            MovementType::TurnToHeading => self.mt_turn_to_heading(&mvs.params),
            _ => {}
        }
        WeenieError::None
    }

    /// `PhysicsObj.StopCompletely(false)` as the move-to layer calls it.
    fn mt_stop_completely(&mut self) {
        self.stop_completely();
    }

    fn mt_move_to_object(
        &mut self,
        object_id: u32,
        top_level_id: u32,
        radius: f32,
        height: f32,
        params: &MovementParameters,
    ) {
        // Q59: always stops, whatever params.stop_completely says.
        self.mt_stop_completely();
        let pos = self.position();
        let m: &mut MoveToManager = &mut self.moveto;
        m.start_move_to_object(pos, object_id, top_level_id, radius, height, params);
        m.initialized = false;
        if self.id != top_level_id {
            self.set_target(0, top_level_id, 0.5, 0.0);
        } else {
            // Q86: moving to oneself ends without a callback.
            self.mt_clean_up();
            self.mt_stop_completely();
        }
    }

    fn mt_move_to_position(&mut self, position: Position, params: &MovementParameters) {
        self.mt_stop_completely();
        self.moveto.current_target_position = position;
        self.moveto.sought_object_radius = 0.0;
        // Q61: the distance uses the previous move's UseSpheres.
        let distance = self.mt_get_current_distance();
        let here = self.position();
        let cmd = get_command(params, distance);
        let m: &mut MoveToManager = &mut self.moveto;
        if cmd.motion != 0 {
            // The bearing is read only here: a move that starts in range skips it.
            m.pending_actions.push_back(MovementNode {
                kind: MovementType::TurnToHeading,
                heading: heading(&here, &position),
            });
            m.pending_actions.push_back(MovementNode {
                kind: MovementType::MoveToPosition,
                heading: 0.0,
            });
        }
        // Q61: the final turn is added iff the previous params asked for one.
        if m.movement_params.use_final_heading {
            m.pending_actions.push_back(MovementNode {
                kind: MovementType::TurnToHeading,
                heading: params.desired_heading,
            });
        }
        m.sought_position = position;
        m.starting_position = Some(here);
        m.movement_type = MovementType::MoveToPosition;
        m.movement_params = *params;
        m.movement_params.sticky = false;
        m.arm_charge_test();
        self.mt_begin_next_node();
    }

    fn mt_turn_to_object(
        &mut self,
        object_id: u32,
        top_level_id: u32,
        params: &MovementParameters,
    ) {
        if params.stop_completely {
            self.mt_stop_completely();
        }
        let m: &mut MoveToManager = &mut self.moveto;
        m.movement_type = MovementType::TurnToObject;
        m.sought_object_id = object_id;
        // Q63: written where TurnToObject_Internal overwrites it before reading.
        m.current_target_position
            .frame
            .set_heading(params.desired_heading);
        m.top_level_object_id = top_level_id;
        m.movement_params = *params;
        m.arm_charge_test();
        if self.id != top_level_id {
            self.moveto.initialized = false;
            self.set_target(0, top_level_id, 0.5, 0.0);
        } else {
            self.mt_clean_up();
            self.mt_stop_completely();
        }
    }

    fn mt_turn_to_heading(&mut self, params: &MovementParameters) {
        if params.stop_completely {
            self.mt_stop_completely();
        }
        let m: &mut MoveToManager = &mut self.moveto;
        m.movement_params = *params;
        m.movement_params.sticky = false;
        m.arm_charge_test();
        m.sought_position.frame.set_heading(params.desired_heading);
        m.movement_type = MovementType::TurnToHeading;
        m.pending_actions.push_back(MovementNode {
            kind: MovementType::TurnToHeading,
            heading: params.desired_heading,
        });
        // Q64: no BeginNextNode; the first UseTime on the ground starts the turn.
    }

    /// `MoveToObject_Internal(targetPos, interpPos)`: the first report builds the nodes.
    fn mt_move_to_object_internal(&mut self, target: Position, interp: Position) {
        let m: &mut MoveToManager = &mut self.moveto;
        m.sought_position = interp;
        m.current_target_position = target;
        let dist = self.mt_get_current_distance();
        self.mt_move_to_object_nodes(interp, dist);
    }

    /// `MoveToObject_Internal(targetPos, interpPos)` of a mover that has just measured
    /// `GetCurrentDistance` to `target` as `dist` (a chase started out of range, whose
    /// start measured it from the same positions with the same fields): the distance is
    /// not measured again.
    pub(crate) fn mt_move_to_object_internal_at(
        &mut self,
        target: Position,
        interp: Position,
        dist: f32,
    ) {
        let m: &mut MoveToManager = &mut self.moveto;
        m.sought_position = interp;
        m.current_target_position = target;
        debug_assert_eq!(
            dist.to_bits(),
            self.mt_get_current_distance().to_bits(),
            "MoveToObject_Internal: the distance given"
        );
        self.mt_move_to_object_nodes(interp, dist);
    }

    /// The rest of `MoveToObject_Internal` once the distance is known: the nodes, then
    /// `BeginNextNode`.
    #[inline]
    fn mt_move_to_object_nodes(&mut self, interp: Position, dist: f32) {
        let here = self.position();
        let m: &mut MoveToManager = &mut self.moveto;
        let cmd = get_command(&m.movement_params, dist);
        // `heading` is pure: a move that starts in range without a final turn (the
        // common re-issued chase) has no node to aim and skips the arctangent.
        let i_heading = if cmd.motion != 0 || m.movement_params.use_final_heading {
            heading(&here, &interp)
        } else {
            0.0
        };
        if cmd.motion != 0 {
            m.pending_actions.push_back(MovementNode {
                kind: MovementType::TurnToHeading,
                heading: i_heading,
            });
            m.pending_actions.push_back(MovementNode {
                kind: MovementType::MoveToPosition,
                heading: 0.0,
            });
        }
        if m.movement_params.use_final_heading {
            // Q62: relative to the initial bearing.
            let mut d = i_heading + m.movement_params.desired_heading;
            if d >= 360.0 {
                d -= 360.0;
            }
            m.pending_actions.push_back(MovementNode {
                kind: MovementType::TurnToHeading,
                heading: d,
            });
        }
        m.initialized = true;
        self.mt_begin_next_node();
    }

    /// `TurnToObject_Internal(targetPos)`.
    fn mt_turn_to_object_internal(&mut self, target: Position) {
        self.moveto.current_target_position = target;
        let here = self.position();
        let th = heading(&here, &target);
        let m: &mut MoveToManager = &mut self.moveto;
        let sh = m.sought_position.frame.get_heading();
        let h = rem360(th + sh);
        m.sought_position.frame.set_heading(h);
        m.pending_actions.push_back(MovementNode {
            kind: MovementType::TurnToHeading,
            heading: h,
        });
        m.initialized = true;
        self.mt_begin_next_node();
    }

    /// `MoveToManager.HandleUpdateTarget(info)`.
    pub(crate) fn mt_handle_update_target(&mut self, info: &TargetInfo) {
        let now = self.now;
        let id = self.id;
        let m: &mut MoveToManager = &mut self.moveto;
        if m.top_level_object_id != info.object_id {
            return;
        }
        if m.initialized {
            if info.status == TargetStatus::Ok {
                if m.movement_type == MovementType::MoveToObject {
                    m.sought_position = info.interpolated_position.unwrap_or(FRESH);
                    m.current_target_position = info.target_position.unwrap_or(FRESH);
                    // Q73: both progress references restart from f32::MAX.
                    m.previous_distance = f32::MAX;
                    m.previous_distance_time = now;
                    m.original_distance = f32::MAX;
                    m.original_distance_time = now;
                }
            } else {
                self.mt_cancel_move_to(WeenieError::ObjectGone);
            }
        } else if m.top_level_object_id == id {
            // `self.position()`, formed only on the one branch that reads it.
            let here = Position::new(self.cell, self.frame);
            m.sought_position = here;
            m.current_target_position = here;
            self.mt_clean_up_and_call_weenie(WeenieError::None);
        } else if info.status == TargetStatus::Ok {
            let target = info.target_position.unwrap_or(FRESH);
            match m.movement_type {
                MovementType::MoveToObject => {
                    let interp = info.interpolated_position.unwrap_or(FRESH);
                    self.mt_move_to_object_internal(target, interp);
                }
                MovementType::TurnToObject => self.mt_turn_to_object_internal(target),
                _ => {}
            }
        } else {
            self.mt_cancel_move_to(WeenieError::NoObject);
        }
    }

    /// `BeginNextNode`.
    fn mt_begin_next_node(&mut self) {
        let m: &mut MoveToManager = &mut self.moveto;
        if let Some(node) = m.pending_actions.front() {
            match node.kind {
                MovementType::MoveToPosition => self.mt_begin_move_forward(),
                MovementType::TurnToHeading => self.mt_begin_turn_to_heading(),
                _ => {}
            }
        } else if m.movement_params.sticky {
            let r = m.sought_object_radius;
            let h = m.sought_object_height;
            let t = m.top_level_object_id;
            // Q78: the weenie hears "done" before the stick starts.
            self.mt_clean_up_and_call_weenie(WeenieError::None);
            self.stick_to(t, r, h);
        } else {
            self.mt_clean_up_and_call_weenie(WeenieError::None);
        }
    }

    /// `BeginMoveForward`: walk or run is decided here, once per leg (Q68).
    fn mt_begin_move_forward(&mut self) {
        let dist = self.mt_get_current_distance();
        let m: &MoveToManager = &self.moveto;
        let cmd = get_command(&m.movement_params, dist);
        if cmd.motion == 0 {
            self.moveto.pending_actions.pop_front();
            self.mt_begin_next_node();
            return;
        }
        let mut mp = motion_params(m.movement_params.speed, cmd.hold_key);
        let r = self.mt_do_motion(cmd.motion, &mut mp);
        if r != WeenieError::None {
            self.mt_cancel_move_to(r);
            return;
        }
        let now = self.now;
        let m: &mut MoveToManager = &mut self.moveto;
        m.current_command = cmd.motion;
        m.moving_away = cmd.moving_away;
        m.movement_params.hold_key_to_apply = cmd.hold_key;
        m.previous_distance = dist;
        m.previous_distance_time = now;
        m.original_distance = dist;
        m.original_distance_time = now;
    }

    /// The object after the plain step `step` ran on a clone of it, for a steady step's
    /// debug check to compare with (none while clone checks are off).
    #[cfg(debug_assertions)]
    fn plain_step_on_clone(&self, step: impl FnOnce(&mut PhysicsObj)) -> Option<PhysicsObj> {
        crate::table_manager::clone_checks().then(|| {
            let mut o = self.clone();
            step(&mut o);
            o
        })
    }

    /// `HandleMoveToPosition`: one step of a forward leg. With `FAST`, a steady step
    /// ([`PhysicsObj::mt_steady_forward_step`]) is taken without the plain step's frame;
    /// any other runs the plain step ([`PhysicsObj::mt_forward_step`]).
    // Each act after the steady step's reads is the step's last, a tail call: a steady
    // step makes no other call, and so needs no registers saved and no stack.
    #[inline(never)]
    fn mt_handle_move_to_position<const FAST: bool>(&mut self) {
        if !FAST {
            return self.mt_forward_step::<false>(None);
        }
        #[cfg(debug_assertions)]
        let plain = self.plain_step_on_clone(|o| o.mt_forward_step::<false>(None));
        match self.mt_steady_forward_step() {
            Steady::Done => {}
            Steady::Horizon(t) => self.mt_set_horizon(t),
            Steady::Arrived(dist) => self.mt_forward_arrived(dist),
            Steady::Plain(steered) => self.mt_forward_step::<true>(steered),
        }
        #[cfg(debug_assertions)]
        if let Some(o) = plain {
            crate::physics_obj::debug_assert_same_move_end(&o, self, "forward step");
            debug_assert!(
                o.cell == self.cell && same_frame_bits(&o.frame, &self.frame),
                "forward step: position"
            );
        }
    }

    /// A step of `HandleMoveToPosition` that issues no motion and changes nothing, but
    /// perhaps its target's prediction horizon or, when the mover arrived, what the
    /// arrival does: what is left to do, or [`Steady::Plain`] when the step would do
    /// anything else (read before anything is changed, so the plain step then runs from
    /// the start). The steering decided by [`steer_estimate`] without a turn to begin
    /// or end (the estimate left undecided, the plain step decides), no correction
    /// turn to stop while the object animates, both in one landblock, the distance
    /// with spheres, the progress window closed (`CheckProgressMade` then changes
    /// nothing) with no failure counted (so the count's reset changes nothing), and the
    /// charge-too-far test answered by its arm, false.
    #[inline(always)]
    fn mt_steady_forward_step(&self) -> Steady {
        let Some(m) = self.moveto.boxed() else {
            return Steady::Plain(None);
        };
        let target = &m.current_target_position;
        if (self.cell ^ target.cell) >> 16 != 0 || !m.movement_params.use_spheres {
            return Steady::Plain(None);
        }
        // `offset_but_zero_signs` in one landblock.
        let off = target.frame.origin.sub(self.frame.origin);
        // The first two terms of its `LengthSquared`, read by the steering's range test
        // and the distance alike.
        let xy_sq = off.x * off.x + off.y * off.y;
        // The steering's decision, for the plain step to take up (None while animating,
        // when the step does not steer).
        let mut steered = None;
        if self.is_animating {
            if m.aux_command != 0 {
                return Steady::Plain(None);
            }
        } else {
            let (_, m21, m22, _) = self.frame.orientation.matrix_elements();
            let away = get_desired_heading(m.current_command, m.moving_away) != 0.0;
            let steer = steer_estimate_by_sq(off.x, off.y, xy_sq, m21, m22, away);
            let aux = match steer {
                Some(Steer::Hold) => 0,
                Some(Steer::Right) => TURN_RIGHT,
                Some(Steer::Left) => TURN_LEFT,
                None => return Steady::Plain(None),
            };
            if aux != m.aux_command {
                return Steady::Plain(steer);
            }
            debug_assert_eq!(
                steer,
                Some(steer_plain(m, &Position::new(self.cell, self.frame)).0),
                "steer estimate"
            );
            steered = steer;
        }
        let here = Position::new(self.cell, self.frame);
        debug_assert!(
            same_but_zero_signs(off, here.get_offset(target)),
            "offset but zero signs"
        );
        let (radius, height) = (self.radius * self.scale, self.height * self.scale);
        let len_sq = xy_sq + off.z * off.z;
        debug_assert_eq!(len_sq.to_bits(), off.length_sq().to_bits());
        let dist = distance_by_sq(m, radius, height, &here, target, off, len_sq);
        if self.now - m.previous_distance_time > 1.0 || m.fail_progress_count != 0 {
            return Steady::Plain(steered);
        }
        let p = &m.movement_params;
        let reached = if m.moving_away {
            dist >= p.min_distance
        } else {
            dist <= p.distance_to_object
        };
        if reached {
            return Steady::Arrived(dist);
        }
        if m.charge.far(&here) != Some(false) {
            return Steady::Plain(steered);
        }
        if m.tunes_horizon() {
            if let Some(t) =
                horizon_to_tune(self.cached_velocity, dist, || self.get_target_quantum())
            {
                return Steady::Horizon(t);
            }
        }
        Steady::Done
    }

    /// `set_target_quantum(t)`, out of line: the steady step's last act, a tail call.
    #[inline(never)]
    fn mt_set_horizon(&mut self, t: f64) {
        self.set_target_quantum(t);
    }

    /// The rest of a steady step whose mover arrived at `dist` from its target: the
    /// arrival, then the prediction horizon.
    #[inline(never)]
    fn mt_forward_arrived(&mut self, dist: f32) {
        self.mt_arrive(&mut None);
        let tunes = self.moveto.tunes_horizon();
        self.mt_tune_horizon(tunes, dist);
    }

    /// A forward leg's arrival (`HandleMoveToPosition`): the node done, the leg's motion
    /// and any correction turn stopped with the step's parameter set `mp`, the next node
    /// begun.
    #[inline(always)]
    fn mt_arrive(&mut self, mp: &mut Option<MovementParameters>) {
        let m: &mut MoveToManager = &mut self.moveto;
        m.pending_actions.pop_front();
        let cmd = m.current_command;
        let p = shared_params(mp, m);
        self.mt_stop_motion(cmd, p);
        self.moveto.current_command = 0;
        self.mt_stop_aux_command(shared_params(mp, &self.moveto));
        self.mt_begin_next_node();
    }

    /// Q85: a mover whose manager [`MoveToManager::tunes_horizon`] (`tunes`) tunes its
    /// target's prediction horizon to the time `dist` takes at its speed.
    #[inline(always)]
    fn mt_tune_horizon(&mut self, tunes: bool, dist: f32) {
        if tunes {
            if let Some(t) =
                horizon_to_tune(self.cached_velocity, dist, || self.get_target_quantum())
            {
                self.set_target_quantum(t);
            }
        }
    }

    /// `HandleMoveToPosition`'s plain step; `steered` is the steering's decision when
    /// the steady step's estimate made it (see [`PhysicsObj::mt_steady_forward_step`]),
    /// which the step then takes up instead of steering again.
    // The manager is taken from its box once and held across the step; only a call that
    // may change it (a motion, the next node, a cancel) gives it up, and the step takes
    // it again after that call.
    #[inline(never)]
    fn mt_forward_step<const FAST: bool>(&mut self, steered: Option<Steer>) {
        let mut m: &mut MoveToManager = &mut self.moveto;
        // ACE builds one parameter set per call, which every motion call of the step
        // shares (and adjusts); most steps issue none, so it is built at its first use.
        let mut mp = None;
        // The offset's horizontal parts from the mover to its target as the steering
        // formed them, while no call has run since: the distance below reads the same.
        let mut offset = None;
        if !self.is_animating {
            // Q70: a ±20° dead band, snapped when the correction turn ends.
            let (steer, h, d) = match steered {
                Some(s) => (s, None, None),
                None => steer::<FAST>(m, self.cell, &self.frame),
            };
            offset = d;
            match steer {
                Steer::Right | Steer::Left => {
                    let turn = if steer == Steer::Left {
                        TURN_LEFT
                    } else {
                        TURN_RIGHT
                    };
                    if turn != m.aux_command {
                        let p = shared_params(&mut mp, m);
                        self.mt_do_motion(turn, p);
                        m = &mut self.moveto;
                        m.aux_command = turn;
                        offset = None;
                    }
                }
                Steer::Hold => {
                    if m.aux_command != 0 {
                        let cur = Position::new(self.cell, self.frame);
                        let h = match h {
                            Some(h) => h,
                            None => aim(m, &cur),
                        };
                        debug_assert_eq!(h.to_bits(), steer_plain(m, &cur).1.to_bits(), "aim");
                        let p = shared_params(&mut mp, m);
                        self.set_heading(h);
                        self.mt_stop_aux_command(p);
                        m = &mut self.moveto;
                        offset = None;
                    }
                }
            }
        } else if m.aux_command != 0 {
            let p = shared_params(&mut mp, m);
            self.mt_stop_aux_command(p);
            m = &mut self.moveto;
        }
        // `self.position()`, read field by field while the manager is held.
        let here = Position::new(self.cell, self.frame);
        let target = &m.current_target_position;
        let dist = distance_by_offset(
            m,
            self.radius * self.scale,
            self.height * self.scale,
            &here,
            target,
            match offset {
                Some((dx, dy)) => {
                    // The vertical part as `offset_but_zero_signs` forms it.
                    let d = Vec3::new(dx, dy, target.frame.origin.z - here.frame.origin.z);
                    debug_assert!(
                        same_but_zero_signs(d, here.get_offset(target)),
                        "kept offset"
                    );
                    d
                }
                None if FAST => offset_but_zero_signs(&here, target),
                None => here.get_offset(target),
            },
        );
        let now = self.now;
        if !check_progress_made(m, now, dist) {
            if neither_interpolating_nor_animating(
                self.position_manager.as_deref(),
                self.is_animating,
            ) {
                m.fail_progress_count += 1;
            }
        } else {
            m.fail_progress_count = 0;
            let p = &m.movement_params;
            let reached = if m.moving_away {
                dist >= p.min_distance
            } else {
                dist <= p.distance_to_object
            };
            // The arrival test on each branch: with spheres (nearly every move) it is
            // the range test alone, without an overshoot flag to merge.
            let arrived = if p.use_spheres {
                reached
            } else {
                // Q72: overshoot arrival; the progress window never opens.
                let in_range = dist < 1.0 && m.previous_distance < dist;
                m.previous_distance = dist;
                m.previous_distance_time = now;
                reached || in_range
            };
            if arrived {
                self.mt_arrive(&mut mp);
                m = &mut self.moveto;
            } else {
                // Read in place: the start is not copied out of the manager.
                // Q92: straight-line from the start, only on progress ticks.
                let fail = m.movement_params.fail_distance;
                let plain = |m: &MoveToManager| match &m.starting_position {
                    Some(start) => charged_too_far(start, &here, fail),
                    None => charged_too_far(&FRESH, &here, fail),
                };
                debug_assert!(
                    m.charge
                        .same_bits(&ChargeArm::of(m.starting_position.as_ref(), fail)),
                    "charge arm kept"
                );
                let armed = if FAST { m.charge.far(&here) } else { None };
                let far = match armed {
                    Some(far) => {
                        debug_assert_eq!(far, plain(m), "charge-too-far by the sum");
                        far
                    }
                    None => plain(m),
                };
                if far {
                    self.mt_cancel_move_to(WeenieError::YouChargedTooFar);
                    m = &mut self.moveto;
                }
            }
        }
        let tunes = m.tunes_horizon();
        self.mt_tune_horizon(tunes, dist);
    }

    /// `BeginTurnToHeading`: waits while any motion is pending (Q65).
    // The wait is tested where it is called: a turning node's steps mostly wait, and
    // then make no call.
    #[inline(always)]
    fn mt_begin_turn_to_heading(&mut self) {
        if self.is_animating {
            return;
        }
        self.mt_begin_turn_to_heading_now();
    }

    /// `BeginTurnToHeading` with no motion pending.
    #[inline(never)]
    fn mt_begin_turn_to_heading_now(&mut self) {
        let Some(node) = self.moveto.pending_actions.front().copied() else {
            return;
        };
        let hd = heading_diff(node.heading, self.frame.get_heading(), TURN_RIGHT);
        let turn = if hd <= 180.0 {
            if hd > EPSILON {
                TURN_RIGHT
            } else {
                self.moveto.pending_actions.pop_front();
                self.mt_begin_next_node();
                return;
            }
        } else if hd + EPSILON <= 360.0 {
            TURN_LEFT
        } else {
            self.moveto.pending_actions.pop_front();
            self.mt_begin_next_node();
            return;
        };
        let p = &self.moveto.movement_params;
        let mut mp = motion_params(p.speed, p.hold_key_to_apply);
        let r = self.mt_do_motion(turn, &mut mp);
        if r != WeenieError::None {
            self.mt_cancel_move_to(r);
            return;
        }
        let m: &mut MoveToManager = &mut self.moveto;
        m.current_command = turn;
        // Q66: a difference, later compared as if it were a heading.
        m.previous_heading = PreviousHeading::Value(hd);
    }

    /// `HandleTurnToHeading`: overshoot, then snap to the node's heading (Q67).
    /// `node` is the first pending node, as the caller read it. With `FAST` a steady
    /// step ([`PhysicsObj::mt_steady_turn_step`]) is taken without the plain step's
    /// frame; any other runs the plain step ([`PhysicsObj::mt_turn_step`]).
    // Out of line, as the forward step is: the node dispatch that calls both stays
    // inlined in the world's loop. Its calls are its last acts, tail calls.
    #[inline(never)]
    fn mt_handle_turn_to_heading<const FAST: bool>(&mut self, node: MovementNode) {
        if !FAST {
            return self.mt_turn_step::<false>(node);
        }
        #[cfg(debug_assertions)]
        let plain = self.plain_step_on_clone(|o| o.mt_turn_step::<false>(node));
        match self.mt_steady_turn_step(node) {
            TurnSteady::Done => {}
            TurnSteady::Reached(cc) => self.mt_turn_reached::<true>(node, cc),
            TurnSteady::Plain => self.mt_turn_step::<true>(node),
        }
        #[cfg(debug_assertions)]
        if let Some(o) = plain {
            crate::physics_obj::debug_assert_same_move_end(&o, self, "turning step");
            debug_assert!(
                same_frame_bits(&o.frame, &self.frame),
                "turning step: frame"
            );
        }
    }

    /// A step of `HandleTurnToHeading` whose turn runs, decided by the turn estimates
    /// from the direction the turn memo keeps for the node's heading and the previous
    /// step's facing ([`turn_estimate`]'s decision when the memo has nothing to fill):
    /// a step that has not reached the node's heading keeps its facing as the previous
    /// heading and counts its progress ([`TurnSteady::Done`]); one that has is left to
    /// [`PhysicsObj::mt_turn_reached`]. [`TurnSteady::Plain`], having changed nothing,
    /// for any other step.
    #[inline(always)]
    fn mt_steady_turn_step(&mut self, node: MovementNode) -> TurnSteady {
        let Some(m) = self.moveto.boxed_mut() else {
            return TurnSteady::Plain;
        };
        let cc = m.current_command;
        if !is_turn(cc) {
            return TurnSteady::Plain;
        }
        let Some((sin_t, cos_t)) = m.turn_memo.kept(node.heading) else {
            return TurnSteady::Plain;
        };
        let right = cc == TURN_RIGHT;
        let (m21, m22) = facing(&self.frame);
        let (settled, reached) = turn_reached_parts(m21, m22, sin_t, cos_t, right);
        if !settled {
            return TurnSteady::Plain;
        }
        if reached {
            debug_assert_eq!(
                turn_plain(m.previous_heading.get(), (m21, m22), node.heading, cc),
                TurnStep::Reached,
                "turn estimate"
            );
            return TurnSteady::Reached(cc);
        }
        let PreviousHeading::Facing(p21, p22) = m.previous_heading else {
            return TurnSteady::Plain;
        };
        let (settled, progress) = turn_progress_parts(m21, m22, p21, p22, right);
        if !settled {
            return TurnSteady::Plain;
        }
        debug_assert_eq!(
            turn_plain(m.previous_heading.get(), (m21, m22), node.heading, cc),
            TurnStep::Turning {
                progress,
                heading: PreviousHeading::Facing(m21, m22)
            },
            "turn estimate"
        );
        m.previous_heading = PreviousHeading::Facing(m21, m22);
        // The plain step's failure count, written out again: through one shared
        // function, inlined or returning the new count, this step cost 0.8 to 1.5 more
        // instructions per object-tick (measured).
        if progress {
            m.fail_progress_count = 0;
        } else if neither_interpolating_nor_animating(
            self.position_manager.as_deref(),
            self.is_animating,
        ) {
            m.fail_progress_count += 1;
        }
        TurnSteady::Done
    }

    /// `HandleTurnToHeading`'s plain step. With `FAST` the step is first decided by
    /// [`turn_estimate`], without the frame heading's arctangent.
    #[inline(never)]
    fn mt_turn_step<const FAST: bool>(&mut self, node: MovementNode) {
        // Taken from its box once (see `mt_forward_step`).
        let m: &mut MoveToManager = &mut self.moveto;
        let cc = m.current_command;
        if !is_turn(cc) {
            self.mt_begin_turn_to_heading();
            return;
        }
        let estimate = if FAST {
            turn_estimate(m, &self.frame, node.heading, cc)
        } else {
            None
        };
        let step = match estimate {
            Some(s) => {
                debug_assert_eq!(
                    s,
                    turn_plain(
                        m.previous_heading.get(),
                        facing(&self.frame),
                        node.heading,
                        cc
                    ),
                    "turn estimate"
                );
                s
            }
            None => {
                let (m21, m22) = facing(&self.frame);
                match turn_plain(m.previous_heading.get(), (m21, m22), node.heading, cc) {
                    // Kept as the facing (the same heading), which the next step's
                    // estimate reads.
                    TurnStep::Turning { progress, .. } if FAST => TurnStep::Turning {
                        progress,
                        heading: PreviousHeading::Facing(m21, m22),
                    },
                    s => s,
                }
            }
        };
        let TurnStep::Turning { progress, heading } = step else {
            self.mt_turn_reached::<FAST>(node, cc);
            return;
        };
        // A facing is stored as its parts: built as a whole, the value went through
        // memory on its way into the manager.
        m.previous_heading = match heading {
            PreviousHeading::Facing(m21, m22) => PreviousHeading::Facing(m21, m22),
            h => h,
        };
        if progress {
            m.fail_progress_count = 0;
        } else if neither_interpolating_nor_animating(
            self.position_manager.as_deref(),
            self.is_animating,
        ) {
            m.fail_progress_count += 1;
        }
    }

    /// The end of a turn that reached or passed its node's heading (`HandleTurnToHeading`,
    /// Q67): snap to the node's heading, stop the turn, begin the next node. Out of line:
    /// once per turn, and the steady step then makes no call of its own.
    #[inline(never)]
    fn mt_turn_reached<const FAST: bool>(&mut self, node: MovementNode, cc: u32) {
        self.moveto.fail_progress_count = 0;
        match self.moveto.turn_memo.kept(node.heading) {
            // The direction the turn's estimate read is the one the snap turns to.
            Some(sc) if FAST => {
                let before = self.frame;
                self.frame.set_heading_sin_cos(sc);
                debug_assert!(
                    same_frame_bits(&self.frame, &{
                        let mut plain = before;
                        plain.set_heading(node.heading);
                        plain
                    }),
                    "snap from the turn's direction"
                );
            }
            _ => self.set_heading(node.heading),
        }
        self.moveto.pending_actions.pop_front();
        let mut mp = motion_params(1.0, self.moveto.movement_params.hold_key_to_apply);
        self.mt_stop_motion(cc, &mut mp);
        self.moveto.current_command = 0;
        self.mt_begin_next_node();
    }

    /// `MoveToManager.UseTime`: only on the ground and with nodes pending.
    #[inline]
    pub fn mt_use_time(&mut self) {
        // The three tests only read flags; the one that nearly always fails (no node
        // pending) comes first, so most ticks make one test instead of three.
        if self
            .moveto
            .boxed()
            .is_none_or(|m| m.pending_actions.is_empty())
        {
            return;
        }
        if !self.has_movement_manager || !self.contact {
            return;
        }
        self.mt_use_time_node::<true>();
    }

    /// [`PhysicsObj::mt_use_time`] without the steering estimate: the plain path the
    /// reference tick takes.
    #[cfg(feature = "reference")]
    pub fn mt_use_time_plain(&mut self) {
        if self.moveto.pending_actions.is_empty() {
            return;
        }
        if !self.has_movement_manager || !self.contact {
            return;
        }
        self.mt_use_time_node::<false>();
    }

    /// The part of `UseTime` that runs only while a node is pending.
    fn mt_use_time_node<const FAST: bool>(&mut self) {
        let Some(node) = self.moveto.pending_actions.front().copied() else {
            return;
        };
        match node.kind {
            MovementType::MoveToPosition => self.mt_handle_move_to_position::<FAST>(),
            MovementType::TurnToHeading => {
                // A turning node whose turn has not begun waits while the object
                // animates (`BeginTurnToHeading`, Q65): tested here, a step that can only
                // wait makes no call.
                if FAST && self.is_animating && !is_turn(self.moveto.current_command) {
                    return;
                }
                self.mt_handle_turn_to_heading::<FAST>(node)
            }
            _ => {}
        }
    }

    /// `MoveToManager.HitGround`: restart the current node (Q77).
    pub fn mt_hit_ground(&mut self) {
        if self.moveto.movement_type != MovementType::Invalid {
            self.mt_begin_next_node();
        }
    }

    /// `GetCurrentDistance`.
    pub fn mt_get_current_distance(&self) -> f32 {
        self.mt_distance_to(&self.moveto.current_target_position)
    }

    /// `GetCurrentDistance` with `target` as the current target position.
    // The forward step measures through `distance_by_offset`; the starts measure here.
    #[inline]
    fn mt_distance_to(&self, target: &Position) -> f32 {
        let here = self.position();
        distance_by_offset(
            &self.moveto,
            self.get_radius(),
            self.get_height(),
            &here,
            target,
            here.get_offset(target),
        )
    }

    /// Whether the first report of a `MoveToObject` (target `target_id` at `target`,
    /// status OK, sent by `AddVoyeur`) ends the move at once: `HandleUpdateTarget` takes
    /// `MoveToObject_Internal`, which finds the mover in range and queues no node,
    /// and `BeginNextNode` then calls `CleanUpAndCallWeenie(None)` with no motion to
    /// stop and no stick to start. Objects that take the plain stops (the reference
    /// tick's) answer false, as does anything less than certain.
    pub(crate) fn move_ends_on_first_report(&self, target_id: u32, target: &Position) -> bool {
        let watching = self.target_manager.as_ref().is_some_and(|tm| {
            tm.target_info
                .as_ref()
                .is_some_and(|i| i.object_id == target_id)
        });
        let fast = self
            .table_manager
            .as_ref()
            .is_some_and(|t| !t.takes_plain_stops());
        if !watching || !fast || !self.has_movement_manager || self.position_manager.is_some() {
            return false;
        }
        let Some(m) = self.moveto.boxed() else {
            return false;
        };
        let p = &m.movement_params;
        if m.movement_type != MovementType::MoveToObject
            || m.initialized
            || m.top_level_object_id != target_id
            || target_id == 0
            || target_id == self.id
            || !m.pending_actions.is_empty()
            || m.current_command != 0
            || m.aux_command != 0
            || p.use_final_heading
            || p.sticky
        {
            return false;
        }
        command_motion(p, self.mt_distance_to(target)).0 == 0
    }

    /// What the plain path does to the mover after
    /// [`PhysicsObj::move_ends_on_first_report`] said yes, but the `RemoveVoyeur` its
    /// `ClearTarget` queues (the caller removes the entry itself): the target slot
    /// cleared, `InitializeLocalVars`, `StopCompletely`, `OnMoveComplete(None)`. The
    /// positions, the target info and `initialized` it sets on the way are all reset
    /// by these.
    pub(crate) fn end_move_on_first_report(&mut self) {
        if let Some(tm) = self.target_manager.as_mut() {
            tm.target_info = None;
        }
        let now = self.now;
        self.moveto.initialize_local_vars(now);
        self.mt_stop_completely();
        self.on_move_complete(WeenieError::None);
    }

    /// `_DoMotion`: `adjust_motion` (mutating `mp.speed`) then the interpreted motion;
    /// RawState is never touched (Q69).
    fn mt_do_motion(&mut self, motion: u32, mp: &mut MovementParameters) -> WeenieError {
        let mut m = motion;
        adjust_motion(
            &self.weenie,
            self.minterp.raw.current_hold_key,
            &mut m,
            &mut mp.speed,
            mp.hold_key_to_apply,
        );
        self.mi_do_interpreted(m, mp)
    }

    /// `_StopMotion`.
    fn mt_stop_motion(&mut self, motion: u32, mp: &mut MovementParameters) -> WeenieError {
        let mut m = motion;
        adjust_motion(
            &self.weenie,
            self.minterp.raw.current_hold_key,
            &mut m,
            &mut mp.speed,
            mp.hold_key_to_apply,
        );
        self.mi_stop_interpreted(m, mp)
    }

    fn mt_stop_aux_command(&mut self, mp: &mut MovementParameters) {
        let aux = self.moveto.aux_command;
        if aux != 0 {
            self.mt_stop_motion(aux, mp);
            self.moveto.aux_command = 0;
        }
    }

    /// `CleanUp`: stop the move's motions, drop the target; the node list stays.
    fn mt_clean_up(&mut self) {
        let m: &MoveToManager = &self.moveto;
        let cc = m.current_command;
        let mut mp = MovementParameters {
            hold_key_to_apply: m.movement_params.hold_key_to_apply,
            cancel_moveto: false,
            ..MovementParameters::default()
        };
        if cc != 0 {
            self.mt_stop_motion(cc, &mut mp);
        }
        // Read after the first stop, which may have changed it.
        let aux = self.moveto.aux_command;
        if aux != 0 {
            self.mt_stop_motion(aux, &mut mp);
        }
        let m: &MoveToManager = &self.moveto;
        if m.top_level_object_id != 0 && m.movement_type != MovementType::Invalid {
            self.clear_target();
        }
        let now = self.now;
        self.moveto.initialize_local_vars(now);
    }

    /// `CleanUpAndCallWeenie(status)`.
    fn mt_clean_up_and_call_weenie(&mut self, status: WeenieError) {
        self.mt_clean_up();
        self.mt_stop_completely();
        self.on_move_complete(status);
    }

    /// `CancelMoveTo(err)`: nothing without a move in progress.
    pub fn mt_cancel_move_to(&mut self, err: WeenieError) {
        if !self.has_movement_manager || self.moveto.movement_type == MovementType::Invalid {
            return;
        }
        self.moveto.pending_actions.clear();
        self.mt_clean_up_and_call_weenie(err);
    }

    /// The harness weenie's `OnMoveComplete(status)`.
    // Inline (`always`: the hint was not taken): a push and two stores, fewer
    // instructions than the call and its saves.
    #[inline(always)]
    pub(crate) fn on_move_complete(&mut self, status: WeenieError) {
        self.move_completions.push(status);
        self.last_move_completion = Some(status);
        self.raise(crate::events::Event::MoveComplete(status));
    }

    /// `IsInterpolating()`.
    pub fn is_interpolating(&self) -> bool {
        self.position_manager
            .as_ref()
            .is_some_and(|p| p.is_interpolating())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_memo_keeps_the_direction_set_heading_turns_to() {
        let mut memo = TurnMemo::EMPTY;
        assert_eq!(memo.kept(90.0), None);
        // 90° in radians narrowed to f32 is π/2 + 4.371139e-8, whose sine is
        // 1 − 9.6e-16 and cosine −4.371139e-8 (not the exact 1 and 0 of π/2).
        let (s, c) = memo.direction(90.0).unwrap();
        assert!((s - 1.0).abs() < 1e-15 && s < 1.0, "{s}");
        assert!((c + 4.371_139e-8).abs() < 1e-14, "{c}");
        assert_eq!(memo.kept(90.0), Some((s, c)));
        assert_eq!(memo.kept(45.0), None);
        // Out of range: neither decided nor kept.
        assert_eq!(memo.direction(360.0), None);
        assert_eq!(memo.kept(360.0), None);
        // The snap from the kept direction is `set_heading`'s, bit for bit.
        let mut a = AFrame::IDENTITY;
        let mut b = AFrame::IDENTITY;
        a.set_heading_sin_cos((s, c));
        b.set_heading(90.0);
        assert!(same_frame_bits(&a, &b));
        assert_eq!(a.get_heading(), 90.0);
    }

    /// A mover of radius 0.5 and height 2 at the origin of cell 0x7d64_0013 facing north
    /// (+Y), running (no correction turn) to object 2, of radius 0.5 and height 2, at
    /// `target` on the same floor, moving north at 4 units a second; the leg's progress
    /// window opened now and the target's prediction horizon is 0.5 s.
    fn running_to(target: Vec3) -> PhysicsObj {
        use crate::motion_interp::Weenie;
        use crate::sequence::AnimMap;
        let weenie = Weenie {
            is_creature: true,
            run_rate: 1.0,
        };
        let cell = 0x7d64_0013;
        let here = AFrame::new(Vec3::ZERO, Quat::IDENTITY);
        let anims = std::sync::Arc::new(AnimMap::default());
        let mut obj = PhysicsObj::new(anims, weenie, cell, here);
        (obj.radius, obj.height, obj.scale) = (0.5, 2.0, 1.0);
        obj.cached_velocity = Vec3::new(0.0, 4.0, 0.0);
        obj.set_target(0, 2, 0.5, 0.5);
        let params = MovementParameters::default();
        let now = obj.now;
        let m: &mut MoveToManager = &mut obj.moveto;
        m.start_move_to_object(Position::new(cell, here), 2, 2, 0.5, 2.0, &params);
        m.current_target_position = Position::new(cell, AFrame::new(target, Quat::IDENTITY));
        m.current_command = RUN_FORWARD;
        m.previous_distance_time = now;
        obj
    }

    #[test]
    fn the_steady_forward_step_leaves_only_the_horizon_or_the_arrival_to_do() {
        // 10 ahead: the cylinders' sides 10 − (0.5 + 0.5) = 9 apart, their heights
        // overlapping (0 − (0 + 2) = −2), so the distance is 9, out of range (0.6). The
        // target dead ahead is held; 9 at 4 a second takes 2.25 s, 1.75 from the
        // target's 0.5: tuned.
        let mut obj = running_to(Vec3::new(0.0, 10.0, 0.0));
        assert_eq!(obj.mt_steady_forward_step(), Steady::Horizon(2.25));
        // Within 1 s of the target's horizon (2.25 against 2): nothing left to do.
        let tm = obj.target_manager.as_mut().unwrap();
        tm.target_info.as_mut().unwrap().quantum = 2.0;
        assert_eq!(obj.mt_steady_forward_step(), Steady::Done);
        // 1.5 ahead: 1.5 − 1 = 0.5, in range: arrived.
        let obj = running_to(Vec3::new(0.0, 1.5, 0.0));
        assert_eq!(obj.mt_steady_forward_step(), Steady::Arrived(0.5));
        // At (6, 8), 10 away, 36.9° to the right: a turn right to begin is the plain
        // step's; one already running keeps running, and the step stays steady.
        // (The plain step takes the decision up.)
        let right = Steady::Plain(Some(Steer::Right));
        let mut obj = running_to(Vec3::new(6.0, 8.0, 0.0));
        assert_eq!(obj.mt_steady_forward_step(), right);
        obj.moveto.aux_command = TURN_RIGHT;
        assert_eq!(obj.mt_steady_forward_step(), Steady::Horizon(2.25));
        obj.moveto.aux_command = TURN_LEFT;
        assert_eq!(obj.mt_steady_forward_step(), right);
        // Animating, the step does not steer: the distance alone, unless a correction
        // turn must be stopped.
        let mut obj = running_to(Vec3::new(10.0, 0.0, 0.0));
        obj.is_animating = true;
        assert_eq!(obj.mt_steady_forward_step(), Steady::Horizon(2.25));
        obj.moveto.aux_command = TURN_RIGHT;
        assert_eq!(obj.mt_steady_forward_step(), Steady::Plain(None));
        // The progress window open (1.5 s), a failure counted, a fail distance of its
        // own, another landblock: the plain step's.
        let plain = |change: fn(&mut PhysicsObj)| {
            let mut obj = running_to(Vec3::new(0.0, 10.0, 0.0));
            change(&mut obj);
            obj.mt_steady_forward_step()
        };
        let hold = Steady::Plain(Some(Steer::Hold));
        assert_eq!(plain(|o| o.moveto.previous_distance_time -= 1.5), hold);
        assert_eq!(plain(|o| o.moveto.fail_progress_count = 1), hold);
        let far = |o: &mut PhysicsObj| {
            o.moveto.movement_params.fail_distance = 100.0;
            o.moveto.arm_charge_test();
        };
        assert_eq!(plain(far), hold);
        assert_eq!(
            plain(|o| o.moveto.current_target_position.cell += 0x0100_0000),
            Steady::Plain(None)
        );
    }

    /// A mover facing north (+Y), turning with `turn` to the node heading `target`,
    /// whose turn memo keeps `target`'s direction; the previous step faced `previous`
    /// (compass degrees) and three steps failed to progress.
    fn turning(turn: u32, target: f32, previous: f32) -> (PhysicsObj, MovementNode) {
        use crate::motion_interp::Weenie;
        use crate::sequence::AnimMap;
        let weenie = Weenie {
            is_creature: true,
            run_rate: 1.0,
        };
        let here = AFrame::new(Vec3::ZERO, Quat::IDENTITY);
        let anims = std::sync::Arc::new(AnimMap::default());
        let mut obj = PhysicsObj::new(anims, weenie, 0x7d64_0013, here);
        let m: &mut MoveToManager = &mut obj.moveto;
        m.current_command = turn;
        m.turn_memo.direction(target);
        let (s, c) = previous.to_radians().sin_cos();
        m.previous_heading = PreviousHeading::Facing(s, c);
        m.fail_progress_count = 3;
        let node = MovementNode {
            kind: MovementType::TurnToHeading,
            heading: target,
        };
        (obj, node)
    }

    #[test]
    fn the_steady_turning_step_keeps_its_facing_and_counts_its_progress() {
        // Facing north (0°), turning right to 90°: not there. From 350°, 10° clockwise:
        // progress, the count reset, and north's facing (+0, 1) kept.
        let (mut obj, node) = turning(TURN_RIGHT, 90.0, 350.0);
        assert_eq!(obj.mt_steady_turn_step(node), TurnSteady::Done);
        assert_eq!(obj.moveto.fail_progress_count, 0);
        assert!(matches!(
            obj.moveto.previous_heading,
            PreviousHeading::Facing(x, y) if x.to_bits() == 0 && y == 1.0
        ));
        // From 10°, 10° counter-clockwise: no progress, one more failure.
        let (mut obj, node) = turning(TURN_RIGHT, 90.0, 10.0);
        assert_eq!(obj.mt_steady_turn_step(node), TurnSteady::Done);
        assert_eq!(obj.moveto.fail_progress_count, 4);
        // Turning left from 10° it is progress.
        let (mut obj, node) = turning(TURN_LEFT, 270.0, 10.0);
        assert_eq!(obj.mt_steady_turn_step(node), TurnSteady::Done);
        assert_eq!(obj.moveto.fail_progress_count, 0);
        // Turning right to 355°, north is 5° past it: reached, left to the turn's end.
        let (mut obj, node) = turning(TURN_RIGHT, 355.0, 350.0);
        assert_eq!(
            obj.mt_steady_turn_step(node),
            TurnSteady::Reached(TURN_RIGHT)
        );
        assert_eq!(obj.moveto.fail_progress_count, 3);
        // The plain step's, nothing changed: the node's heading 0.005° from north (too
        // close to call), the previous heading a number (a turn's first step), no
        // direction kept for the node's heading, no turn running.
        let unchanged = |(mut obj, node): (PhysicsObj, MovementNode)| {
            let before: MoveToManager = (*obj.moveto).clone();
            let s = obj.mt_steady_turn_step(node);
            assert_eq!(*obj.moveto, before);
            assert_eq!(obj.moveto.fail_progress_count, 3);
            s
        };
        assert_eq!(
            unchanged(turning(TURN_RIGHT, 359.995, 350.0)),
            TurnSteady::Plain
        );
        let (mut obj, node) = turning(TURN_RIGHT, 90.0, 350.0);
        obj.moveto.previous_heading = PreviousHeading::Value(350.0);
        assert_eq!(unchanged((obj, node)), TurnSteady::Plain);
        let (obj, mut node) = turning(TURN_RIGHT, 90.0, 350.0);
        node.heading = 91.0;
        assert_eq!(unchanged((obj, node)), TurnSteady::Plain);
        let (mut obj, node) = turning(TURN_RIGHT, 90.0, 350.0);
        obj.moveto.current_command = RUN_FORWARD;
        assert_eq!(unchanged((obj, node)), TurnSteady::Plain);
    }

    /// A position on the x axis of landblock `block` (cell 0x0013 of it).
    fn on_x(block: u32, x: f32) -> Position {
        let frame = AFrame {
            origin: Vec3::new(x, 0.0, 0.0),
            ..AFrame::IDENTITY
        };
        Position::new(block << 16 | 0x13, frame)
    }

    #[test]
    fn the_charge_too_far_test_passes_only_an_infinite_sum_at_the_largest_fail_distance() {
        let both = |start: &Position, here: &Position, fail: f32| {
            let plain = charged_too_far(start, here, fail);
            let fast = ChargeArm::of(Some(start), fail).far(here);
            assert_eq!(fast.unwrap_or(plain), plain);
            plain
        };
        let b = 0x7d64;
        // 1e19 apart: the square, 1e38, is below f32::MAX (3.4e38): a finite distance.
        assert!(!both(&on_x(b, -5e18), &on_x(b, 5e18), f32::MAX));
        // 2e19 apart: the square, 4e38, overflows to +∞, and so does the distance.
        assert!(both(&on_x(b, -1e19), &on_x(b, 1e19), f32::MAX));
        // An infinite origin is infinitely far; a NaN one is not too far (NaN > x fails).
        assert!(both(&on_x(b, 0.0), &on_x(b, f32::INFINITY), f32::MAX));
        assert!(!both(&on_x(b, 0.0), &on_x(b, f32::NAN), f32::MAX));
        // Any other fail distance compares the distance: 20 against 19.5 and 20.
        assert!(both(&on_x(b, 0.0), &on_x(b, 20.0), 19.5));
        assert!(!both(&on_x(b, 0.0), &on_x(b, 20.0), 20.0));
        // One landblock east is 192 further east: 192 + 1 − 0 = 193 from the start.
        assert!(both(&on_x(b, 0.0), &on_x(b + 0x100, 1.0), 192.5));
        assert!(!both(&on_x(b, 0.0), &on_x(b + 0x100, 1.0), f32::MAX));
    }

    #[test]
    fn the_charge_arm_answers_only_at_the_largest_fail_distance_in_the_start_landblock() {
        let b = 0x7d64;
        let start = on_x(b, 3.0);
        // Armed: the start's landblock and origin.
        let arm = ChargeArm::of(Some(&start), f32::MAX);
        assert_eq!(
            arm,
            ChargeArm {
                block: 0x7d64,
                origin: Vec3::new(3.0, 0.0, 0.0),
            }
        );
        // In its landblock it answers: 1e19 − 3 apart is finite, 2e19 is +∞.
        assert_eq!(arm.far(&on_x(b, 1e19)), Some(false));
        assert_eq!(arm.far(&on_x(b, -2e19)), Some(true));
        // One landblock east, the plain test must run.
        assert_eq!(arm.far(&on_x(b + 0x100, 1.0)), None);
        // Any other fail distance, or no start, leaves it off: no landblock matches.
        assert_eq!(ChargeArm::of(Some(&start), 19.5), ChargeArm::OFF);
        assert_eq!(ChargeArm::of(Some(&start), f32::INFINITY), ChargeArm::OFF);
        assert_eq!(ChargeArm::of(None, f32::MAX), ChargeArm::OFF);
        assert_eq!(ChargeArm::OFF.far(&on_x(0xffff, 0.0)), None);
        // A start beyond 2⁶¹ (2.3e18) leaves it off too.
        assert_eq!(
            ChargeArm::of(Some(&on_x(b, 3e18)), f32::MAX),
            ChargeArm::OFF
        );
    }

    #[test]
    fn origins_within_2_pow_61_are_near_and_never_charged_too_far() {
        let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        assert!(near(v(0.0, -0.0, 5.0)));
        assert!(near(v(CHARGE_NEAR, -CHARGE_NEAR, CHARGE_NEAR)));
        // The next f32 above 2⁶¹ is 2⁶¹ + 2³⁸ = 2305843284091600896.
        let beyond = 2_305_843_284_091_600_896.0;
        assert!(!near(v(beyond, 0.0, 0.0)) && !near(v(0.0, -beyond, 0.0)));
        assert!(!near(v(0.0, 0.0, f32::INFINITY)) && !near(v(1.0, 1.0, f32::NAN)));
        // As far apart as near origins get, 2⁶² in each part: a sum of squares
        // 3 · 2¹²⁴ = 6.4e37, finite; the test answers false without forming it.
        let arm = ChargeArm::of(
            Some(&Position::new(
                0x7d64_0013,
                AFrame::new(v(-CHARGE_NEAR, -CHARGE_NEAR, -CHARGE_NEAR), Quat::IDENTITY),
            )),
            f32::MAX,
        );
        let here = Position::new(
            0x7d64_0013,
            AFrame::new(v(CHARGE_NEAR, CHARGE_NEAR, CHARGE_NEAR), Quat::IDENTITY),
        );
        assert_eq!(arm.far(&here), Some(false));
        assert!(!charged_too_far(
            &Position::new(
                0x7d64_0013,
                AFrame::new(v(-CHARGE_NEAR, -CHARGE_NEAR, -CHARGE_NEAR), Quat::IDENTITY)
            ),
            &here,
            f32::MAX
        ));
    }

    #[test]
    fn the_offset_but_zero_signs_differs_from_get_offset_only_in_a_zeros_sign() {
        let at = |cell: u32, x: f32, y: f32| {
            let frame = AFrame {
                origin: Vec3::new(x, y, 0.0),
                ..AFrame::IDENTITY
            };
            Position::new(cell, frame)
        };
        let bits = |v: Vec3| [v.x, v.y, v.z].map(f32::to_bits);
        // To x = −0 from x = +0: the plain offset is (+0 + −0) − +0 = +0, this one −0;
        // y: 5 − 2 = 3 both; z: (+0 + +0) − +0 = +0 both.
        let (from, to) = (at(0x7d64_0013, 0.0, 2.0), at(0x7d64_0013, -0.0, 5.0));
        assert_eq!(bits(from.get_offset(&to)), bits(Vec3::new(0.0, 3.0, 0.0)));
        assert_eq!(
            bits(offset_but_zero_signs(&from, &to)),
            bits(Vec3::new(-0.0, 3.0, 0.0))
        );
        // The steering estimate and the length cannot tell them apart.
        for x in [0.0f32, -0.0] {
            assert_eq!(steer_estimate(x, 3.0, 0.0, 1.0, false), Some(Steer::Hold));
            assert_eq!(Vec3::new(x, 3.0, 0.0).length(), 3.0);
        }
        // Across landblocks it is the plain offset: one block east, 192 + 1 − 0.
        let east = at(0x7e64_0013, 1.0, 2.0);
        assert_eq!(
            bits(offset_but_zero_signs(&from, &east)),
            bits(Vec3::new(193.0, 0.0, 0.0))
        );
    }
}
