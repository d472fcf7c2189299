//! `Sequence.Update` and what it calls (`Anim/Sequence.cs`), plainly: the floor taken
//! with the library, every rotation step built from its angles, every combine and every
//! hook scan done in full. Rules Q1–Q12 of docs/ac.md; limits L2 and L3 of
//! docs/limits.md.

use crate::math::{AFrame, EPSILON};
use crate::sequence::{
    FiredHook, Sequence, WorkLimit, MAX_CROSSINGS_PER_UPDATE, MAX_HOOKS_PER_UPDATE,
};

/// `Sequence.Update(quantum, ref offset)`: play `quantum` seconds, moving `offset` by
/// the pos frames and physics crossed and queueing the hooks fired on `hooks`.
pub fn update(
    seq: &mut Sequence,
    quantum: f32,
    offset: Option<&mut AFrame>,
    hooks: &mut Vec<FiredHook>,
) {
    seq.overrun = None;
    if !seq.nodes.is_empty() {
        update_internal(seq, quantum, offset, hooks);
        seq.apricot();
    } else if let Some(f) = offset {
        // An empty list still moves the object by its velocity and omega.
        apply_physics(seq, f, quantum, quantum);
    }
}

/// `Sequence.apply_physics(frame, quantum, sign)`: the step takes `sign`'s sign (Q1).
pub fn apply_physics(seq: &Sequence, frame: &mut AFrame, quantum: f32, sign: f32) {
    let q = if sign as f64 >= 0.0 {
        quantum.abs()
    } else {
        -quantum.abs()
    };
    frame.origin = frame.origin.add(seq.velocity.scale(q));
    // `AFrame.Rotate(Vector3)`: the step's angles in local axes, then `GRotate`.
    frame.rotate_vec(seq.omega.scale(q));
}

/// The work an update has done against limits L2 and L3.
struct Work {
    crossings: u32,
    hooks: usize,
}

impl Work {
    /// One more frame boundary crossed or node entered (limit L2).
    fn cross(&mut self) -> Result<(), WorkLimit> {
        self.crossings += 1;
        if self.crossings > MAX_CROSSINGS_PER_UPDATE {
            return Err(WorkLimit::Crossings);
        }
        Ok(())
    }

    /// Queue one hook (limit L3).
    fn queue(&mut self, hooks: &mut Vec<FiredHook>, hook: FiredHook) -> Result<(), WorkLimit> {
        if self.hooks >= MAX_HOOKS_PER_UPDATE {
            return Err(WorkLimit::Hooks);
        }
        hooks.push(hook);
        self.hooks += 1;
        Ok(())
    }
}

/// `Sequence.execute_hooks(part_frame, direction)` for frame `frame` of node `node`:
/// every hook of the frame whose direction is "both" or `dir` (Q2).
fn execute_hooks(
    seq: &Sequence,
    work: &mut Work,
    node: usize,
    frame: i32,
    dir: i32,
    hooks: &mut Vec<FiredHook>,
) -> Result<(), WorkLimit> {
    if let Some(pf) = seq.nodes[node].part_frame(frame) {
        for (k, h) in pf.hooks.iter().enumerate() {
            if h.direction == 0 || h.direction == dir {
                let hook = FiredHook {
                    hook_type: h.hook_type,
                    anim_id: seq.nodes[node].anim.id,
                    frame,
                    index: k as u32,
                };
                work.queue(hooks, hook)?;
            }
        }
    }
    Ok(())
}

/// `Math.Floor(frameNumber)` in double precision, as ACE takes it.
fn floor(frame_number: f32) -> f64 {
    (frame_number as f64).floor()
}

/// `Sequence.update_internal(timeElapsed, ref animNode, ref frameNum, ref frame)`.
/// ACE recurses on the time left after a node finishes; here that is a loop.
/// An update stopped at a work limit records it in `overrun` (its state is then not
/// ACE's, and the caller discards it).
fn update_internal(
    seq: &mut Sequence,
    t: f32,
    frame: Option<&mut AFrame>,
    hooks: &mut Vec<FiredHook>,
) {
    if let Err(limit) = play(seq, t, frame, hooks) {
        seq.overrun = Some(limit);
    }
}

/// The body of [`update_internal`].
fn play(
    seq: &mut Sequence,
    mut t: f32,
    mut frame: Option<&mut AFrame>,
    hooks: &mut Vec<FiredHook>,
) -> Result<(), WorkLimit> {
    let mut work = Work {
        crossings: 0,
        hooks: 0,
    };
    loop {
        let Some(ci) = seq.curr else { return Ok(()) };
        let (fr, low, high) = {
            let n = &seq.nodes[ci];
            (n.framerate, n.low_frame, n.high_frame)
        };
        let ft = fr * t;
        let mut last = floor(seq.frame_number) as i32;
        seq.frame_number += ft;
        let mut leftover = 0.0f32;
        let mut done = false;
        if ft > 0.0 {
            // Q3: past HighFrame the frame number stops at HighFrame itself; the time
            // beyond High + 1 is played into the next node.
            if (high as f64) < floor(seq.frame_number) {
                let mut over = (seq.frame_number - high as f32) - 1.0;
                if over < 0.0 {
                    over = 0.0;
                }
                if fr.abs() > EPSILON {
                    leftover = over / fr;
                }
                seq.frame_number = high as f32;
                done = true;
            }
            // Q2, Q4: each frame left forward combines its pos frame, takes one physics
            // chunk (Q1, Q9) and fires its forward hooks.
            while floor(seq.frame_number) > last as f64 {
                work.cross()?;
                if let Some(f) = frame.as_deref_mut() {
                    // ACE combines the identity for a frame without a pos frame; that
                    // changes nothing but the sign of a zero, and the engine skips it.
                    if let Some(pos) = seq.nodes[ci].pos_frame_in_range(last) {
                        *f = AFrame::combine(f, &pos);
                    }
                    if fr.abs() > EPSILON {
                        apply_physics(seq, f, 1.0 / fr, t);
                    }
                }
                execute_hooks(seq, &mut work, ci, last, 1, hooks)?;
                last += 1;
            }
        } else if ft < 0.0 {
            if (low as f64) > floor(seq.frame_number) {
                let mut over = seq.frame_number - low as f32;
                if over > 0.0 {
                    over = 0.0;
                }
                if fr.abs() > EPSILON {
                    leftover = over / fr;
                }
                seq.frame_number = low as f32;
                done = true;
            }
            // Backward: each frame left subtracts its pos frame (identity when out of
            // range, Q12) and fires its backward hooks.
            while floor(seq.frame_number) < last as f64 {
                work.cross()?;
                if let Some(f) = frame.as_deref_mut() {
                    let pos = seq.nodes[ci].pos_frame(last);
                    f.subtract(&pos);
                    if fr.abs() > EPSILON {
                        apply_physics(seq, f, 1.0 / fr, t);
                    }
                }
                execute_hooks(seq, &mut work, ci, last, -1, hooks)?;
                last -= 1;
            }
        } else if let Some(f) = frame.as_deref_mut() {
            // A standing node (framerate or time 0) still applies the physics.
            if t.abs() > EPSILON {
                apply_physics(seq, f, t, t);
            }
        }
        if !done {
            return Ok(());
        }
        // Q5: AnimationDone tests the head of the list, not the node that finished.
        if seq.first_cyclic != Some(0) {
            work.queue(hooks, FiredHook::ANIMATION_DONE)?;
        }
        work.cross()?;
        advance_to_next_animation(seq, t, frame.as_deref_mut());
        t = leftover;
    }
}

/// `Sequence.advance_to_next_animation(timeElapsed, ref animNode, ref frameNum, ref
/// frame)`: leave the current node and enter the next (forward) or previous (backward)
/// one. Only a node entered here gets the entry pos frame and physics chunk (Q4, Q11);
/// the frame index is truncated here, floored in the crossing loop (Q12).
fn advance_to_next_animation(seq: &mut Sequence, t: f32, mut frame: Option<&mut AFrame>) {
    let Some(ci) = seq.curr else { return };
    if t >= 0.0 {
        let fr = seq.nodes[ci].framerate;
        if let Some(f) = frame.as_deref_mut() {
            if fr < 0.0 {
                leave(seq, ci, f, fr, t);
            }
        }
        // Past the last node the cycle starts again at FirstCyclic (Q6).
        let next = if ci + 1 < seq.nodes.len() {
            Some(ci + 1)
        } else {
            seq.first_cyclic
        };
        let Some(ni) = next else { return };
        seq.curr = Some(ni);
        seq.frame_number = seq.nodes[ni].starting_frame();
        let fr = seq.nodes[ni].framerate;
        if let Some(f) = frame {
            if fr > 0.0 {
                enter(seq, ni, f, fr, t);
            }
        }
    } else {
        let fr = seq.nodes[ci].framerate;
        if let Some(f) = frame.as_deref_mut() {
            if fr >= 0.0 {
                leave(seq, ci, f, fr, t);
            }
        }
        let ni = if ci > 0 { ci - 1 } else { seq.nodes.len() - 1 };
        seq.curr = Some(ni);
        // Q10: a backward node starts at High + 1 − ε.
        seq.frame_number = seq.nodes[ni].ending_frame();
        let fr = seq.nodes[ni].framerate;
        if let Some(f) = frame {
            if fr < 0.0 {
                enter(seq, ni, f, fr, t);
            }
        }
    }
}

/// The node-leaving half of `advance_to_next_animation`: subtract the current pos
/// frame (when the clip has any), then one physics chunk.
fn leave(seq: &Sequence, node: usize, f: &mut AFrame, fr: f32, t: f32) {
    if !seq.nodes[node].anim.pos_frames.is_empty() {
        let pos = seq.nodes[node].pos_frame(seq.frame_number as i32);
        f.subtract(&pos);
    }
    if fr.abs() > EPSILON {
        apply_physics(seq, f, 1.0 / fr, t);
    }
}

/// The node-entering half of `advance_to_next_animation`: combine the new node's
/// first pos frame (when the clip has any), then one physics chunk.
fn enter(seq: &Sequence, node: usize, f: &mut AFrame, fr: f32, t: f32) {
    if !seq.nodes[node].anim.pos_frames.is_empty() {
        let pos = seq.nodes[node].pos_frame(seq.frame_number as i32);
        *f = AFrame::combine(f, &pos);
    }
    if fr.abs() > EPSILON {
        apply_physics(seq, f, 1.0 / fr, t);
    }
}
