//! The gait machine (H35) and going down (H33), the middle of Mech_LocomotionTick.
//!
//! It picks the locomotion thread's sequence through Request / SetSequence / DropRequest
//! and sets the playback rate `animRate` (mech+0x2a0).

use serde::Serialize;

use crate::anim_list::AnimList;
use crate::fixed::{abs_sat16, q10};
use crate::thread::AnimationThread;

/// The sequences the gait machine uses (chassis rec 12, 14, 16, 18, 122, 68).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GaitSeqs {
    pub walk: i16,
    pub run: i16,
    pub step_off_forward: i16,
    pub step_off_reverse: i16,
    pub turn: i16,
    pub death: i16,
}

/// Which branch of the machine ran this tick (reported in mech traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GaitRow {
    /// Check 2: a transition frame is playing; S = P, table skipped.
    InTransition,
    /// Check 3 / H33: going down.
    GoingDown,
    RisingStepOff,
    RisingWalk,
    RisingOther,
    FallingRunUnderThreshold,
    FallingRun,
    FallingWalkToStop,
    FallingWalk,
    FallingOther,
    EqualMoving,
    EqualTurning,
    EqualStartTurn,
    EqualEndTurn,
    EqualOther,
}

/// The machine's inputs and outputs for one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaitTick {
    /// P: speed before the step.
    pub p: i16,
    /// S: speed after the step; the machine may change it.
    pub s: i16,
    /// The steering axis (already clamped to ±0x100); check 1 may zero it.
    pub steer: i16,
    /// animRate; the row sets it.
    pub anim_rate: i16,
    /// "hold": the turn tent is zeroed this tick.
    pub hold_turn: bool,
    pub row: GaitRow,
    /// Set when the death sequence has played out (H33).
    pub collapsed: bool,
}

/// "request X": Request(X, −1, 0) unless X is already the target.
fn request(th: &mut AnimationThread, list: &AnimList, x: i16) {
    if th.target_seq != x {
        th.request(list, x, -1, 0);
    }
}

/// Run checks 1–3 and the first matching table row of H35 (Mech_LocomotionTick, 0x416a04).
/// `thr` / `thr_rev` are the runtime rec 44 / rec 108.
#[allow(clippy::too_many_arguments)]
pub fn gait_tick(
    list: &AnimList,
    th: &mut AnimationThread,
    seqs: &GaitSeqs,
    thr: i16,
    thr_rev: i16,
    immobilised: bool,
    mut g: GaitTick,
) -> GaitTick {
    let GaitSeqs {
        walk: w,
        run: r,
        step_off_forward: sf,
        step_off_reverse: sr,
        turn: t,
        death,
    } = *seqs;
    g.hold_turn = false;
    let playing = th.seq;
    let stopping = playing == sf || playing == sr;
    // 1. Turning in place excludes travel.
    if playing == t && g.s != 0 && !stopping {
        g.s = 0;
        g.steer = 0;
    }
    // 2. A transition frame freezes the speed.
    if th.seq != th.next_seq {
        g.s = g.p;
        g.row = GaitRow::InTransition;
        return g;
    }
    // 3. Going down (H33), unless turning in place.
    if immobilised && playing != t {
        g.row = GaitRow::GoingDown;
        if playing != death && th.target_seq != death {
            if playing == sr {
                // D11: only the forward step-off has the transition to take.
                th.set_sequence(list, sf, 0, 0);
            }
            th.request(list, death, -1, 0);
            g.anim_rate = 100;
        } else if playing == death {
            g.anim_rate = 0x78;
            if th.frame == th.next_frame {
                g.collapsed = true;
            }
        }
        return g;
    }
    let (s, p) = (g.s, g.p);
    let (abs_s, abs_p) = (abs_sat16(s), abs_sat16(p));
    let steer = g.steer;
    if abs_s > abs_p {
        if stopping {
            g.row = GaitRow::RisingStepOff;
            g.s = s.max(thr.wrapping_neg()).min(thr);
            if th.target_seq != w {
                th.set_sequence(list, if g.s < 0 { sr } else { sf }, 0, 0);
                request(th, list, w);
            }
            g.anim_rate = if g.s < 1 { g.s.min(-60) } else { g.s.max(60) };
            g.hold_turn = true;
        } else if playing == w {
            g.row = GaitRow::RisingWalk;
            if th.target_seq == sf || th.target_seq == sr {
                th.drop_request();
            }
            if s > thr {
                request(th, list, r);
            }
            g.anim_rate = s;
        } else {
            g.row = GaitRow::RisingOther;
            th.drop_request();
            g.anim_rate = s;
        }
    } else if abs_s < abs_p {
        if playing == r && abs_s < thr {
            g.row = GaitRow::FallingRunUnderThreshold;
            g.s = if p < 1 { thr_rev } else { thr };
            request(th, list, w);
            g.anim_rate = g.s;
        } else if playing == r {
            g.row = GaitRow::FallingRun;
            th.drop_request();
            g.anim_rate = s;
        } else if playing == w && s == 0 {
            g.row = GaitRow::FallingWalkToStop;
            request(th, list, if p < 1 { sr } else { sf });
            g.anim_rate = if p < 1 { -100 } else { 100 };
            g.hold_turn = true;
        } else if playing == w {
            g.row = GaitRow::FallingWalk;
            if th.target_seq == r {
                th.drop_request();
            }
            g.anim_rate = s;
        } else {
            g.row = GaitRow::FallingOther;
        }
    } else if s != 0 {
        g.row = GaitRow::EqualMoving;
        g.anim_rate = s;
    } else {
        let strong = abs_sat16(steer) >= 0x33;
        if playing == t && strong {
            g.row = GaitRow::EqualTurning;
            g.anim_rate = q10(350, steer as i32) as i16;
        } else if stopping && strong {
            g.row = GaitRow::EqualStartTurn;
            if th.target_seq != t {
                th.set_sequence(list, if steer < 0 { sr } else { sf }, 0, 0);
                request(th, list, t);
            }
            g.anim_rate = if steer < 0 { -100 } else { 100 };
        } else if playing == t {
            g.row = GaitRow::EqualEndTurn;
            request(th, list, sf);
            g.anim_rate = if g.anim_rate < 1 { -100 } else { 100 };
        } else {
            g.row = GaitRow::EqualOther;
        }
    }
    g
}
