//! The three-thread HERC (H27–H34): MechObject's per-tick order, the movement controller,
//! torso twist / aim pitch, ground motion with blocked steps, and the cockpit eye.

use serde::Serialize;

use crate::anim_list::AnimList;
use crate::chassis::Chassis;
use crate::clock::Clock;
use crate::fixed::{abs_sat16, integrate_rate_over_tick, move_toward, q10, q8, wrap16};
use crate::gait::{gait_tick, GaitRow, GaitSeqs, GaitTick};
use crate::object::SimObject;
use crate::shape_engine::ShapeEngine;
use crate::shape_instance::ShapeInstance;
use crate::thread::AnimationThread;
use crate::throttle::{Dispatch, Throttle};
use crate::transform::Transform3;

/// Speeds under this (and above 0) use it for the turn tent (H34 step 4).
pub const CRAWL_SPEED: i16 = 45;
/// The least |animRate| while crawling.
pub const CRAWL_RATE: i16 = 60;

/// Scenario inputs the sources leave outside this engine (D9). Defaults: flat ground at 0,
/// no slope, no collision, a healthy machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MechEnv {
    pub terrain_height: i32,
    /// Added to the desired speed before the clamp (Mech_ApplyTerrainSlopeToSpeed).
    pub slope: i16,
    /// Immobilised (legs lost): the controller zeroes its inputs and the machine goes down.
    pub immobilised: bool,
    /// How many of the next collision tests refuse the move.
    pub refuse_moves: u32,
}

/// What a blocked step did this tick (H30).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocked {
    /// The move was accepted.
    #[default]
    No,
    /// Refused inside a transition frame: cut to the forward step-off, stayed put.
    StepOff,
    /// Refused, then the bounce (the step played backward) was accepted.
    Bounced,
    /// Refused, and the bounce was refused too: restored, speed 0.
    Stopped,
}

/// One torso axis (H31): rate, angle and its constants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TorsoAxis {
    pub rate: i16,
    pub angle: i16,
}

/// Torso constants from the chassis record.
#[derive(Clone, Copy, Debug)]
pub struct TorsoLimits {
    pub max_rate: i16,
    pub accel: i16,
    pub lo: i16,
    pub hi: i16,
}

impl TorsoAxis {
    /// Mech_TorsoTwistTick (0x41a550) / Mech_TorsoPitchTick (0x41a808) up to the seek:
    /// `snap` is the snap target, `None` for the pilot's axes (snap disabled).
    pub fn tick(&mut self, lim: &TorsoLimits, axis: i16, snap: Option<i16>, sim_tick_delta: i32) {
        let target = wrap16(q8(axis as i32, lim.max_rate as i32));
        let before = self.rate;
        let mean = if abs_sat16(self.rate) < abs_sat16(target) {
            let step = integrate_rate_over_tick(sim_tick_delta, lim.accel as i32);
            self.rate = move_toward(self.rate, target, step);
            ((before as i32 + self.rate as i32) >> 1) as i16
        } else {
            // Releasing or reversing the stick stops the torso dead.
            self.rate = target;
            target
        };
        let angle_before = self.angle;
        let moved = self
            .angle
            .wrapping_add(integrate_rate_over_tick(sim_tick_delta, mean as i32));
        self.angle = moved.max(lim.lo).min(lim.hi);
        if let Some(tgt) = snap {
            let e1 = self.angle.wrapping_sub(tgt);
            let e0 = angle_before.wrapping_sub(tgt);
            if (e1 >= 0 && e0 < 0) || (e1 <= 0 && e0 > 0) {
                self.angle = tgt;
                self.rate = 0;
            }
        }
    }

    /// The Q14 seek position of the angle: a whole turn spans the sequence once.
    pub fn seek_pos(&self) -> i16 {
        ((self.angle as u16) >> 2) as i16
    }

    /// The centring command's axis: `−clamp(Q10(0xfa, angle), ±0x100)`.
    pub fn centring_axis(&self) -> i16 {
        -(q10(0xfa, self.angle as i32).clamp(-0x100, 0x100) as i16)
    }
}

/// How the twist axis is driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TwistMode {
    /// The pilot's stick, snap disabled.
    Stick,
    /// The centring command: axis from the angle, snap target 0.
    Centre,
}

/// The machine: F7's mech instance fields, its three threads and its chassis. `S` is the
/// shape instance's implementation (the fast [`ShapeInstance`], or the reference's plain
/// algorithm).
#[derive(Clone, Debug)]
pub struct Mech<S = ShapeInstance> {
    pub chassis: Chassis,
    pub seqs: GaitSeqs,
    pub shape: S,
    /// Thread ids of locomotion, twist and pitch (a negative sequence id registers none).
    pub loco: Option<usize>,
    pub twist_thread: Option<usize>,
    pub pitch_thread: Option<usize>,
    pub object: SimObject,
    /// mech+0x28c.
    pub turn_rate: i16,
    /// mech+0x28e.
    pub speed: i16,
    /// mech+0x290 and mech+0x93.
    pub throttle: Throttle,
    /// mech+0x294 / +0x298.
    pub twist: TorsoAxis,
    /// mech+0x296 / +0x29a.
    pub pitch: TorsoAxis,
    /// mech+0x2a0.
    pub anim_rate: i16,
    /// mech+0xb4.
    pub collapsed: bool,
    /// The node the cockpit eye rides (rec 10 resolved, H32).
    pub camera_node: Option<usize>,
    /// Last controller results, for traces.
    pub last_dispatch: Dispatch,
    pub last_gait: Option<GaitRow>,
    pub hold_turn: bool,
    pub blocked: Blocked,
    pub env: MechEnv,
}

/// Why a machine could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MechError {
    #[error("the chassis is a flyer (rec 78 = {0}); flight is not part of this engine")]
    Flyer(i16),
    #[error("rec {rec}: sequence {seq} does not exist in the shape ({count} sequences)")]
    NoSuchSequence { rec: usize, seq: i16, count: usize },
}

impl Mech {
    /// Mech_Constructor (0x415bb0; H27): register locomotion on the forward step-off, then
    /// twist, then pitch, each at frame 0 with rate 0; a negative id registers nothing.
    /// `camera_node` is rec 10 already resolved to a transform id (H32).
    pub fn new(
        list: &AnimList,
        chassis: Chassis,
        object: SimObject,
        camera_node: Option<usize>,
    ) -> Result<Mech, MechError> {
        Mech::new_in(list, chassis, object, camera_node)
    }
}

impl<S: ShapeEngine> Mech<S> {
    /// [`Mech::new`] on the shape implementation `S`.
    pub fn new_in(
        list: &AnimList,
        chassis: Chassis,
        object: SimObject,
        camera_node: Option<usize>,
    ) -> Result<Mech<S>, MechError> {
        if chassis.is_flyer() {
            return Err(MechError::Flyer(chassis.raw.flyer));
        }
        let raw = &chassis.raw;
        let count = list.sequences().len();
        let check = |rec: usize, seq: i16, optional: bool| {
            if (optional && seq < 0) || list.sequence(seq).is_some() {
                Ok(seq)
            } else {
                Err(MechError::NoSuchSequence { rec, seq, count })
            }
        };
        let seqs = GaitSeqs {
            walk: check(12, raw.walk_seq, false)?,
            run: check(14, raw.run_seq, false)?,
            step_off_forward: check(16, raw.step_off_forward_seq, false)?,
            step_off_reverse: check(18, raw.step_off_reverse_seq, false)?,
            turn: check(122, raw.turn_in_place_seq, false)?,
            death: check(68, raw.death_seq, false)?,
        };
        let twist_seq = check(26, raw.twist_seq, true)?;
        let pitch_seq = check(34, raw.pitch_seq, true)?;
        let mut shape = S::new(list);
        let mut reg = |seq: i16| -> Option<usize> {
            if seq < 0 {
                None
            } else {
                shape.add_thread(list, seq).ok()
            }
        };
        let loco = reg(seqs.step_off_forward);
        let twist_thread = reg(twist_seq);
        let pitch_thread = reg(pitch_seq);
        let read = shape.read_root();
        shape.evaluate(list, &read);
        Ok(Mech {
            chassis,
            seqs,
            shape,
            loco,
            twist_thread,
            pitch_thread,
            object,
            turn_rate: 0,
            speed: 0,
            throttle: Throttle::default(),
            twist: TorsoAxis::default(),
            pitch: TorsoAxis::default(),
            anim_rate: 0,
            collapsed: false,
            camera_node,
            last_dispatch: Dispatch {
                turn: 0,
                desired: 0,
            },
            last_gait: None,
            hold_turn: false,
            blocked: Blocked::No,
            env: MechEnv::default(),
        })
    }

    fn loco_thread_mut(&mut self) -> Option<&mut AnimationThread> {
        self.loco.and_then(|id| self.shape.thread_mut(id))
    }

    /// The throttle routine (H23) and its dispatch to the controller (H34).
    pub fn apply_throttle(&mut self, list: &AnimList, turn: i16, axis: i16, lever: i8) {
        let d = self
            .throttle
            .apply(&self.chassis.runtime, turn, axis, lever);
        self.last_dispatch = d;
        self.locomotion_tick(list, d.turn, d.desired);
    }

    /// Mech_LocomotionTick (0x416a04; H34): speed, gait (H35), crawl, turn tent, heading.
    pub fn locomotion_tick(&mut self, list: &AnimList, turn: i16, desired: i16) {
        let rt = self.chassis.runtime;
        let immobilised = self.env.immobilised;
        let (turn, desired) = if immobilised {
            (0, 0)
        } else {
            let d = (desired as i32 + self.env.slope as i32)
                .max(rt.max_reverse_speed as i32)
                .min(rt.max_forward_speed as i32);
            (turn, d as i16)
        };
        let p = self.speed;
        let turn = turn.clamp(-0x100, 0x100);
        let s = move_toward(self.speed, desired, rt.speed_step);
        let seqs = self.seqs;
        let g = GaitTick {
            p,
            s,
            steer: turn,
            anim_rate: self.anim_rate,
            hold_turn: false,
            row: GaitRow::EqualOther,
            collapsed: false,
        };
        let g = match self.loco {
            Some(id) => match self.shape.thread_mut(id) {
                Some(th) => gait_tick(
                    list,
                    th,
                    &seqs,
                    rt.walk_run_threshold,
                    rt.reverse_walk_run_threshold,
                    immobilised,
                    g,
                ),
                None => g,
            },
            None => g,
        };
        self.speed = g.s;
        self.anim_rate = g.anim_rate;
        self.hold_turn = g.hold_turn;
        self.last_gait = Some(g.row);
        if g.collapsed {
            self.collapsed = true;
        }
        // Crawl: every speed from 1 to 44 walks at the same pace.
        let mut sabs = abs_sat16(self.speed);
        if sabs > 0 && sabs < CRAWL_SPEED {
            sabs = CRAWL_SPEED;
            let ar = abs_sat16(self.anim_rate);
            if ar > 0 && ar < CRAWL_RATE {
                self.anim_rate = if self.anim_rate < 0 {
                    -CRAWL_RATE
                } else {
                    CRAWL_RATE
                };
            }
        }
        let base = turn_tent(rt.max_turn_rate, rt.max_forward_speed, sabs, g.hold_turn);
        let target = wrap16(q8(q10(1600, base), g.steer as i32));
        self.turn_rate = move_toward(self.turn_rate, target, rt.turn_rate_step);
        self.object.euler[2] = self.object.euler[2].wrapping_add(self.turn_rate);
    }

    /// Both torso axes (H31), then the seeks that pose them. `twist_axis` is ignored in
    /// centring mode.
    pub fn torso_tick(
        &mut self,
        list: &AnimList,
        twist_axis: i16,
        twist_mode: TwistMode,
        pitch_axis: i16,
        sim_tick_delta: i32,
    ) {
        let raw = &self.chassis.raw;
        let tl = TorsoLimits {
            max_rate: raw.twist_max_rate,
            accel: raw.twist_accel,
            lo: raw.twist_limit.wrapping_neg().min(raw.twist_limit),
            hi: raw.twist_limit.wrapping_neg().max(raw.twist_limit),
        };
        let pl = TorsoLimits {
            max_rate: raw.pitch_max_rate,
            accel: raw.pitch_accel,
            lo: raw.pitch_limit_down.min(raw.pitch_limit_up),
            hi: raw.pitch_limit_up.max(raw.pitch_limit_down),
        };
        let (axis, snap) = match twist_mode {
            TwistMode::Stick => (twist_axis, None),
            TwistMode::Centre => (self.twist.centring_axis(), Some(0)),
        };
        self.twist.tick(&tl, axis, snap, sim_tick_delta);
        self.pitch.tick(&pl, pitch_axis, None, sim_tick_delta);
        let (ts, ps) = (raw.twist_seq, raw.pitch_seq);
        let (tpos, ppos) = (self.twist.seek_pos(), self.pitch.seek_pos());
        if let Some(id) = self.twist_thread {
            self.shape.seek(list, id, ts, tpos);
        }
        if let Some(id) = self.pitch_thread {
            self.shape.seek(list, id, ps, ppos);
        }
    }

    /// The H16 step plus Mech_IntegrateMotion's object update (H28, H29). Returns the delta.
    fn integrate(&mut self, list: &AnimList, anim_delta: i16) -> Transform3 {
        let read = self.shape.tick(list, anim_delta);
        S::integrate(&mut self.object, &read);
        self.shape.evaluate(list, &read);
        read
    }

    /// The collision test (0x418f74): a scenario input (D9).
    fn collision_refuses(&mut self) -> bool {
        if self.env.refuse_moves > 0 {
            self.env.refuse_moves -= 1;
            true
        } else {
            false
        }
    }

    /// Mech_MovementTick (0x41a360; H29, H30): set the locomotion rate, save, integrate,
    /// clamp to the terrain, test the move, and on refusal restore and bounce.
    pub fn movement_tick(&mut self, list: &AnimList, anim_delta: i16) -> Transform3 {
        let rate = self.anim_rate;
        if let Some(th) = self.loco_thread_mut() {
            th.set_rate(list, rate);
        }
        // SimObject_PushTransform: the object transform and the shape (threads, world);
        // the euler triple is not saved.
        let saved_position = self.object.position;
        let saved_shape = self.shape.clone();
        let mut read = self.integrate(list, anim_delta);
        self.object.position[2] = self
            .env
            .terrain_height
            .wrapping_add(self.chassis.raw.ride_height as i32);
        self.blocked = Blocked::No;
        if self.collision_refuses() {
            self.object.position = saved_position;
            self.shape = saved_shape.clone();
            self.throttle.throttle = 0;
            self.throttle.dirty = true;
            let in_transition = self
                .loco
                .and_then(|id| self.shape.thread(id))
                .is_some_and(|th| th.in_transition());
            if in_transition {
                let sf = self.seqs.step_off_forward;
                if let Some(th) = self.loco_thread_mut() {
                    th.set_sequence(list, sf, 0, 0);
                }
                self.blocked = Blocked::StepOff;
            } else {
                let rt = self.chassis.runtime;
                self.speed = self
                    .speed
                    .wrapping_neg()
                    .max(rt.reverse_walk_run_threshold)
                    .min(rt.max_forward_speed);
                self.anim_rate = self.anim_rate.wrapping_neg();
                let rate = self.anim_rate;
                if let Some(th) = self.loco_thread_mut() {
                    th.set_rate(list, rate);
                }
                // The retry plays the same step backward and is not terrain-clamped.
                read = self.integrate(list, anim_delta);
                if self.collision_refuses() {
                    self.object.position = saved_position;
                    self.shape = saved_shape;
                    self.speed = 0;
                    self.blocked = Blocked::Stopped;
                } else {
                    self.blocked = Blocked::Bounced;
                }
            }
            // Mech_PlaceLegsOnGround (0x4195c8) only moves shadows and detects footfalls;
            // neither is modelled, so nothing runs here.
            let r = self.shape.read_root();
            self.shape.evaluate(list, &r);
        }
        read
    }

    /// One player simulation tick (H27 order): throttle routine (→ controller), torso ticks,
    /// movement tick. Returns the root-motion delta applied to the object.
    #[allow(clippy::too_many_arguments)]
    pub fn tick(
        &mut self,
        list: &AnimList,
        clock: &Clock,
        turn: i16,
        throttle_axis: i16,
        lever: i8,
        twist_axis: i16,
        twist_mode: TwistMode,
        pitch_axis: i16,
    ) -> Transform3 {
        self.apply_throttle(list, turn, throttle_axis, lever);
        self.torso_tick(
            list,
            twist_axis,
            twist_mode,
            pitch_axis,
            clock.sim_tick_delta,
        );
        self.movement_tick(list, clock.anim_delta)
    }

    /// The cockpit eye (H32): `(0, rec98, rec100)` in the camera node's frame, as a point in
    /// shape space (through `world[node]`) and in the world (through the object transform).
    pub fn eye(&self) -> Option<([i32; 3], [i32; 3])> {
        let node = self.camera_node?;
        let w = self.shape.world().get(node)?;
        let raw = &self.chassis.raw;
        let local = w.transform_point([0, raw.eye_fore as i32, raw.eye_lift as i32]);
        Some((
            local,
            S::object_transform(&self.object).transform_point(local),
        ))
    }
}

/// The turn tent (H34 step 5, D10): the turn-rate base over |speed| `s` (after the crawl
/// lift), `t` = rec 0, `max_fwd` the runtime forward speed.
pub fn turn_tent(t: i16, max_fwd: i16, s: i16, hold: bool) -> i32 {
    if hold || s < CRAWL_SPEED {
        return 0;
    }
    let t = t as i32;
    let max_fwd = max_fwd as i32;
    let s = (s as i32).min(max_fwd);
    let a = s - CRAWL_SPEED as i32;
    let span = max_fwd - CRAWL_SPEED as i32;
    let h = span >> 1;
    if h <= 0 {
        return 0;
    }
    if h < a {
        t - (t * (a - h)) / ((span - h) * 2)
    } else {
        (t * (a + h)) / (2 * h)
    }
}
