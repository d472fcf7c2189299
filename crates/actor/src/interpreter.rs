//! The forward command interpreter (A3, A13, A21–A23, A25, A26, C18).

use crate::error::RunError;
use crate::ragr::Cmd;
use crate::resources::ModelTable;
use crate::state::Anim;

/// How one interpretation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// A frame is selected, or there is nothing to interpret.
    Done,
    /// `end_animation` of the group numbered here: the caller clears `current` and
    /// advances again (A13).
    End(u8),
}

/// Interpret the current group from the cursor until a frame is selected or
/// `end_animation` hands over to a new advancement (which [`crate::advance::advance`]
/// makes, so a chain of restarts is a loop, not a recursion).
#[inline(always)]
pub fn interpret(anim: &mut Anim, model: &ModelTable) -> Result<Flow, RunError> {
    let Some(number) = anim.current else {
        return Ok(Flow::Done);
    };
    let slot = model.slot(number);
    let start = slot.start as usize;
    // The common pass: the cursor is on a frame and nothing is to be skipped. It is
    // the first step of the loop below, which cannot run out of budget in one step.
    // An absent group's slot has length 0, so it never takes this pass.
    if anim.skip == 0 && anim.cursor < slot.len {
        if let Some(&Cmd::ShowFrame { handle, index }) =
            model.cmds.get(start + anim.cursor as usize)
        {
            anim.frame = Some([handle, index]); // A3
            return Ok(Flow::Done);
        }
    }
    if !slot.present() {
        return Ok(Flow::Done);
    }
    // The slot was made from this command array, so the range is always inside it.
    let cmds = model
        .cmds
        .get(start..start + slot.len as usize)
        .unwrap_or(&[]);
    interpret_loop(anim, cmds, number)
}

/// The full interpretation loop, with its runaway bound.
#[inline(always)]
fn interpret_loop(anim: &mut Anim, cmds: &[Cmd], number: u8) -> Result<Flow, RunError> {
    // Every legitimate pass selects a frame or consumes a skip within one sweep of
    // the group (the load checks guarantee a show_frame in every backward range);
    // only taken go_to_future jumps can cycle without one, so this bounds runaways.
    // (skip + 3) · (len + 1) < 2^49: the product never saturates.
    let mut budget = (anim.skip as u64 + 3) * (cmds.len() as u64 + 1);
    loop {
        let Some(&cmd) = cmds.get(anim.cursor as usize) else {
            return Err(RunError::CursorPastEnd { group: number });
        };
        if budget == 0 {
            return Err(RunError::ControlLoop { group: number });
        }
        budget -= 1;
        match cmd {
            Cmd::ShowFrame { handle, index } => {
                if anim.skip > 0 {
                    // A21: a skipped frame is passed and clears the marker (A26).
                    anim.skip -= 1;
                    anim.breakpoint = false;
                    anim.cursor += 1;
                } else {
                    anim.frame = Some([handle, index]); // A3
                    return Ok(Flow::Done);
                }
            }
            Cmd::BreakPoint => {
                anim.breakpoint = true; // A25
                anim.cursor += 1;
            }
            Cmd::GoToPrevious { target } => {
                // A22
                if anim.loop_count > 0 {
                    anim.loop_count -= 1;
                    if anim.loop_count == 0 {
                        anim.cursor += 1;
                    } else {
                        anim.cursor = target;
                        anim.breakpoint = false;
                    }
                } else {
                    anim.cursor = target;
                    anim.breakpoint = false;
                }
            }
            Cmd::GoToFuture { target } => {
                // A23
                if anim.loop_count == 0 && (anim.pending.is_some() || anim.exit) {
                    anim.cursor = target;
                    anim.breakpoint = false;
                } else {
                    anim.cursor += 1;
                }
            }
            // A13: End is not a stop.
            Cmd::EndAnimation => return Ok(Flow::End(number)),
        }
    }
}
